// The SQL functions of the keyed public forms (docs/public-ids.md): T_to_public / T_from_public for the four
// types (text, a key version symbol and the ID's text), uuid_to_public / uuid_from_public for UUIDv7s in
// plain uuid columns (a version-4-looking uuid, no room for a key version), uuid_from_public_candidates
// (every version of the key, for forms made before a rotation), and idtypes_keys(). The key's name is an
// argument; its bytes stay in the keyring (keyring.hpp).
#include <array>

#include "core/public_id.hpp"
#include "core/scru160.hpp"
#include "core/tbsl.hpp"
#include "core/timeid.hpp"
#include "core/uid11.hpp"
#include "pg/common/result_shape.hpp"
#include "pg/public/keyring.hpp"
#include "pg/types/bytes_type.hpp"
#include "pg/types/type_io.hpp"
#include "pg/types/u64_type.hpp"

extern "C" {
#include "catalog/pg_authid_d.h"
#include "funcapi.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/timestamp.h"
#include "utils/tuplestore.h" // tuplestore_putvalues: 19's executor headers no longer include it
#include "utils/uuid.h"
}

using namespace idtypes;
using namespace idtypes::pg;
using public_id::Direction;

namespace {

// What each type brings: its descriptor (name, also the tweak's; text; alphabet) and the bits FF1 permutes.
struct TimeidForm {
	static constexpr const Format &descriptor = timeid::descriptor;
	static constexpr const char *type = descriptor.name;
	static constexpr std::size_t text_len = descriptor.text_len;
	using Value = std::uint64_t;
	static Value arg(FunctionCallInfo fcinfo) { return u64_arg(fcinfo, 0); }
	static Value apply(const ff1::BlockCipher &c, const public_id::Tweak &t, const Value &v, Direction d)
	{
		return public_id::timeid(c, t, v, d);
	}
	static void format(const Value &v, char (&out)[text_len]) { timeid::format(v, out); }
	static TextStatus parse(std::string_view s, Value &out) { return timeid::parse(s, out); }
};

struct Uid11Form {
	static constexpr const Format &descriptor = uid11::descriptor;
	static constexpr const char *type = descriptor.name;
	static constexpr std::size_t text_len = descriptor.text_len;
	using Value = std::uint64_t;
	static Value arg(FunctionCallInfo fcinfo) { return u64_arg(fcinfo, 0); }
	static Value apply(const ff1::BlockCipher &c, const public_id::Tweak &t, const Value &v, Direction d)
	{
		return public_id::uid11(c, t, v, d);
	}
	static void format(const Value &v, char (&out)[text_len]) { uid11::format(v, out); }
	static TextStatus parse(std::string_view s, Value &out) { return uid11::parse(s, out); }
};

template <std::size_t N>
std::array<std::uint8_t, N> bytes_arg(FunctionCallInfo fcinfo)
{
	std::array<std::uint8_t, N> v;
	memcpy(v.data(), fixed_arg(fcinfo, 0), N);
	return v;
}

struct TbslForm {
	static constexpr const Format &descriptor = tbsl::descriptor;
	static constexpr const char *type = descriptor.name;
	static constexpr std::size_t text_len = descriptor.text_len;
	using Value = tbsl::Bytes;
	static Value arg(FunctionCallInfo fcinfo) { return bytes_arg<tbsl::size>(fcinfo); }
	static Value apply(const ff1::BlockCipher &c, const public_id::Tweak &t, const Value &v, Direction d)
	{
		Value out;
		public_id::tbsl(c, t, v.data(), out.data(), d);
		return out;
	}
	static void format(const Value &v, char (&out)[text_len]) { tbsl::format(v.data(), out); }
	static TextStatus parse(std::string_view s, Value &out) { return tbsl::parse(s, out); }
};

struct Scru160Form {
	static constexpr const Format &descriptor = scru160::descriptor;
	static constexpr const char *type = descriptor.name;
	static constexpr std::size_t text_len = descriptor.text_len;
	using Value = scru160::Bytes;
	static Value arg(FunctionCallInfo fcinfo) { return bytes_arg<scru160::size>(fcinfo); }
	static Value apply(const ff1::BlockCipher &c, const public_id::Tweak &t, const Value &v, Direction d)
	{
		Value out;
		public_id::scru160(c, t, v.data(), out.data(), d);
		return out;
	}
	static void format(const Value &v, char (&out)[text_len]) { scru160::format(v.data(), out); }
	static TextStatus parse(std::string_view s, Value &out) { return scru160::parse(s, out); }
};

// The key argument (argument 1) as a C string, and the tweak for the type and that name. The keyring's
// names are at most max_key_name bytes, so a longer one is reported as unknown by the lookup before the tweak
// is made.
const char *key_name_arg(FunctionCallInfo fcinfo) { return text_to_cstring(PG_GETARG_TEXT_PP(1)); }

// A name too long for a tweak is no key of the keyring: the same error as for any key that does not exist.
public_id::Tweak tweak_of(const char *type, const char *key_name)
{
	public_id::Tweak t;
	if (!public_id::make_tweak(type, key_name, t))
		ereport(ERROR, (errcode(ERRCODE_UNDEFINED_OBJECT), errmsg("key \"%s\" does not exist", key_name),
		                errhint("idtypes_keys() lists the keys this role may use in this database.")));
	return t;
}

template <typename Form>
Datum to_public(FunctionCallInfo fcinfo)
{
	const typename Form::Value id = Form::arg(fcinfo);
	const char *name = key_name_arg(fcinfo);
	const keyring::Version key = keyring::encoder(name);
	const typename Form::Value hidden =
	    Form::apply(aes::block_cipher(key.key), tweak_of(Form::type, name), id, Direction::to_public);
	keyring::check_cipher(key);
	char text[1 + Form::text_len];
	text[0] = public_id::version_symbol(Form::descriptor.alphabet, static_cast<std::uint32_t>(key.version));
	Form::format(hidden, *reinterpret_cast<char(*)[Form::text_len]>(text + 1));
	PG_RETURN_TEXT_P(cstring_to_text_with_len(text, sizeof text));
}

template <typename Form>
[[noreturn]] void report_bad_public(std::string_view input, const public_id::PublicText &split,
                                    const TextStatus &id_status)
{
	char detail[detail_size];
	public_id::describe(split, Form::type, Form::descriptor.alphabet, Form::text_len, id_status, Form::descriptor.rules,
	                    detail);
	ereport(ERROR, (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
	                errmsg("invalid public %s: \"%.*s\"", Form::type, static_cast<int>(input.size()), input.data()),
	                errdetail("%s", detail)));
	pg_unreachable();
}

template <typename Form>
Datum from_public(FunctionCallInfo fcinfo)
{
	std::string_view input = text_arg(fcinfo, 0);
	public_id::PublicText split = public_id::split(input, Form::descriptor.alphabet, Form::text_len);
	if (split.error != public_id::PublicError::none)
		report_bad_public<Form>(input, split, TextStatus{});
	typename Form::Value hidden;
	TextStatus status = Form::parse(split.id_text, hidden);
	if (!status.ok()) {
		split.error = public_id::PublicError::id;
		report_bad_public<Form>(input, split, status);
	}
	const char *name = key_name_arg(fcinfo);
	const keyring::Version key = keyring::by_symbol(name, split.residue);
	const typename Form::Value id =
	    Form::apply(aes::block_cipher(key.key), tweak_of(Form::type, name), hidden, Direction::from_public);
	keyring::check_cipher(key);
	return id_datum(id);
}

static_assert(sizeof(pg_uuid_t) == 16);

Datum uuid_datum(const std::uint8_t *bytes)
{
	auto *out = static_cast<pg_uuid_t *>(palloc(sizeof(pg_uuid_t)));
	memcpy(out->data, bytes, sizeof out->data);
	return UUIDPGetDatum(out);
}

// A public uuid (version 4, variant 10), else 22P02.
const std::uint8_t *public_uuid_arg(FunctionCallInfo fcinfo)
{
	const std::uint8_t *form = PG_GETARG_UUID_P(0)->data;
	if (public_id::uuid_version(form) != 4 || !public_id::uuid_variant_10(form))
		ereport(ERROR, (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION), errmsg("invalid public uuid"),
		                errdetail("A public form of a UUIDv7 is a version 4 uuid of variant 10; this one has version "
		                          "%u%s.",
		                          public_id::uuid_version(form),
		                          public_id::uuid_variant_10(form) ? "" : " and another variant")));
	return form;
}

} // namespace

extern "C" {

IDTYPES_ENTRY(timeid_to_public, to_public<TimeidForm>(fcinfo))
IDTYPES_ENTRY(timeid_from_public, from_public<TimeidForm>(fcinfo))
IDTYPES_ENTRY(uid11_to_public, to_public<Uid11Form>(fcinfo))
IDTYPES_ENTRY(uid11_from_public, from_public<Uid11Form>(fcinfo))
IDTYPES_ENTRY(tbsl_to_public, to_public<TbslForm>(fcinfo))
IDTYPES_ENTRY(tbsl_from_public, from_public<TbslForm>(fcinfo))
IDTYPES_ENTRY(scru160_to_public, to_public<Scru160Form>(fcinfo))
IDTYPES_ENTRY(scru160_from_public, from_public<Scru160Form>(fcinfo))

PG_FUNCTION_INFO_V1(uuid_v7_to_public);
PG_FUNCTION_INFO_V1(uuid_v7_from_public);
PG_FUNCTION_INFO_V1(uuid_v7_from_public_candidates);
PG_FUNCTION_INFO_V1(idtypes_keys);
PG_FUNCTION_INFO_V1(idtypes_keys_1_7);
PG_FUNCTION_INFO_V1(idtypes_keyring_status);

Datum uuid_v7_to_public(PG_FUNCTION_ARGS)
{
	const std::uint8_t *id = PG_GETARG_UUID_P(0)->data;
	if (public_id::uuid_version(id) != 7 || !public_id::uuid_variant_10(id))
		ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
		                errmsg("uuid_to_public takes a UUIDv7, got a uuid of version %u%s", public_id::uuid_version(id),
		                       public_id::uuid_variant_10(id) ? "" : " and another variant")));
	const char *name = key_name_arg(fcinfo);
	const keyring::Version key = keyring::encoder(name);
	std::uint8_t out[16];
	public_id::uuid(aes::block_cipher(key.key), tweak_of("uuid", name), id, out, Direction::to_public);
	keyring::check_cipher(key);
	return uuid_datum(out);
}

// A public uuid has no room for its key's version, and FF1 decodes any uuid under any key: with one version of
// the key ever known to the server the answer is that version's; with several present, or any retired or
// remembered one, no answer would be known right, so it is refused (uuid_from_public_candidates gives each
// present version's, for the lookup to choose).
Datum uuid_v7_from_public(PG_FUNCTION_ARGS)
{
	const std::uint8_t *form = public_uuid_arg(fcinfo);
	const char *name = key_name_arg(fcinfo);
	const keyring::Versions all = keyring::versions(name);
	if (all.retired > 0)
		ereport(
		    ERROR,
		    (errcode(ERRCODE_UNDEFINED_OBJECT),
		     errmsg("uuid_from_public cannot tell whether a retired version of key \"%s\" made this public uuid", name),
		     errdetail("The server has known %d other version%s of the key (retired, or loaded before and no longer "
		               "in the keyring), and a public uuid has no room to name its version: a form of a retired "
		               "version would decode to another UUID.",
		               all.retired, all.retired == 1 ? "" : "s"),
		     errhint("Look the row up with WHERE id = ANY (uuid_from_public_candidates(form, '%s')).", name)));
	if (all.pending > 0)
		ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
		                errmsg("uuid_from_public cannot tell which version of key \"%s\" made this public uuid", name),
		                errdetail("This standby holds a version of the key its primary has not recorded yet, and a "
		                          "public uuid has no room to name its version.")));
	if (all.count > 1) {
		char tried[public_id::version_symbols * 24] = "";
		for (int i = 0; i < all.count; i++)
			snprintf(tried + strlen(tried), sizeof tried - strlen(tried), "%s%d (%s)", i > 0 ? ", " : "",
			         all.v[i].version, all.v[i].stage == keyring::Stage::active ? "active" : "decrypt");
		ereport(ERROR,
		        (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
		         errmsg("uuid_from_public cannot tell which version of key \"%s\" made this public uuid", name),
		         errdetail("The keyring holds versions %s of the key, and a public uuid has no room to name "
		                   "its version.",
		                   tried),
		         errhint("Look the row up with WHERE id = ANY (uuid_from_public_candidates(form, '%s')).", name)));
	}
	const keyring::Version key = all.v[0];
	std::uint8_t out[16];
	public_id::uuid(aes::block_cipher(key.key), tweak_of("uuid", name), form, out, Direction::from_public);
	keyring::check_cipher(key);
	return uuid_datum(out);
}

// What the form decodes to under each version of the key in the keyring, newest first: every one is some
// UUIDv7 (FF1 has no integrity), so the application asks which exists: WHERE id = ANY(...).
Datum uuid_v7_from_public_candidates(PG_FUNCTION_ARGS)
{
	const std::uint8_t *form = public_uuid_arg(fcinfo);
	const char *name = key_name_arg(fcinfo);
	const keyring::Versions all = keyring::versions(name);
	const public_id::Tweak tweak = tweak_of("uuid", name);
	Datum ids[public_id::version_symbols];
	for (int i = 0; i < all.count; i++) {
		std::uint8_t out[16];
		public_id::uuid(aes::block_cipher(all.v[i].key), tweak, form, out, Direction::from_public);
		keyring::check_cipher(all.v[i]);
		ids[i] = uuid_datum(out);
	}
	PG_RETURN_ARRAYTYPE_P(construct_array(ids, all.count, UUIDOID, sizeof(pg_uuid_t), false, TYPALIGN_CHAR));
}

// name, version, fingerprint (16 hex digits), stage, current, of the keys the caller may use: never a key byte,
// in the columns the descriptor asks for (ACCEPTED: the shapes this symbol serves), checked before any row.
static Datum keys_rows(FunctionCallInfo fcinfo, std::initializer_list<ResultColumns> accepted)
{
	ReturnSetInfo *rsinfo = reinterpret_cast<ReturnSetInfo *>(fcinfo->resultinfo);
	InitMaterializedSRF(fcinfo, 0);
	(void)result_shape(rsinfo->setDesc, "idtypes_keys()", accepted);
	keyring::list(
	    [](const keyring::Listed &l, void *arg) {
		    auto *rs = static_cast<ReturnSetInfo *>(arg);
		    const bool with_stage = rs->setDesc->natts == 5;
		    Datum values[5] = {
		        CStringGetTextDatum(l.name), Int32GetDatum(l.version), CStringGetTextDatum(l.fingerprint),
		        CStringGetTextDatum(l.stage == keyring::Stage::active ? "active" : "decrypt"), BoolGetDatum(l.current)};
		    if (!with_stage)
			    values[3] = values[4];
		    bool nulls[5] = {false, false, false, false, false};
		    tuplestore_putvalues(rs->setResult, rs->setDesc, values, nulls);
	    },
	    rsinfo);
	return Datum(0);
}

constexpr ResultColumns keys_with_stage = {TEXTOID, INT4OID, TEXTOID, TEXTOID, BOOLOID};

// 1.7's idtypes_keys(): a symbol that the libraries of 1.5 and 1.6 do not have, so that a session still on one
// of them gets "could not find function" after the update, never rows read in a shape its code did not fill.
Datum idtypes_keys_1_7(PG_FUNCTION_ARGS) { return keys_rows(fcinfo, {keys_with_stage}); }

// The symbol of 1.5's and 1.6's SQL, for databases not yet updated: 1.5 declared four columns (no stage),
// 1.6 five.
Datum idtypes_keys(PG_FUNCTION_ARGS)
{
	return keys_rows(fcinfo, {{TEXTOID, INT4OID, TEXTOID, BOOLOID}, keys_with_stage});
}

// One row: the keyring worker's state (docs/operations.md#the-keyring). The file's path and the last refusal
// only for those who may see the setting (superusers, pg_read_all_settings); never a key byte.
Datum idtypes_keyring_status(PG_FUNCTION_ARGS)
{
	TupleDesc desc;
	if (get_call_result_type(fcinfo, nullptr, &desc) != TYPEFUNC_COMPOSITE)
		ereport(ERROR, (errcode(ERRCODE_DATATYPE_MISMATCH),
		                errmsg("idtypes_keyring_status() is declared with another row than this library fills")));
	(void)result_shape(desc, "idtypes_keyring_status()",
	                   {{BOOLOID, INT4OID, TIMESTAMPTZOID, INT8OID, BOOLOID, INT4OID, TIMESTAMPTZOID, TEXTOID,
	                     TIMESTAMPTZOID, TEXTOID}});
	keyring::Status st;
	const bool preloaded = keyring::status(st);
	const bool may_see = has_privs_of_role(GetUserId(), ROLE_PG_READ_ALL_SETTINGS);
	Datum v[10] = {BoolGetDatum(preloaded),
	               Int32GetDatum(st.worker_pid),
	               TimestampTzGetDatum(st.worker_started),
	               Int64GetDatum(static_cast<std::int64_t>(st.generation)),
	               BoolGetDatum(st.usable),
	               Int32GetDatum(st.versions),
	               TimestampTzGetDatum(st.loaded_at),
	               CStringGetTextDatum(st.file),
	               TimestampTzGetDatum(st.refused_at),
	               CStringGetTextDatum(st.refusal)};
	bool n[10] = {false,
	              st.worker_pid == 0,
	              st.worker_started == 0,
	              st.generation == 0,
	              st.generation == 0,
	              st.generation == 0,
	              st.loaded_at == 0,
	              !may_see || st.file[0] == '\0',
	              st.refused_at == 0,
	              !may_see || st.refusal[0] == '\0'};
	if (!preloaded)
		for (int i = 1; i < 10; i++)
			n[i] = true;
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(desc), v, n)));
}

} // extern "C"
