// Round trips of every idtypes type through pgx v4 (Debian's golang-github-jackc-pgx-v4-dev), as a Go
// application uses it. Text round (no set-up): string parameters and results, the column DEFAULT,
// `= ANY($1)`, `^@`, `<@ tstzrange($1, $2)` from time.Time, keyset pagination. Binary round: a pgtype value
// per type registered by OID (with its array type), so that results come in binary and ID values go as
// binary parameters. Reads the IDs from the table `samples` (samples.sql); connects with PGHOST etc.
// `pgx_test binary` runs the binary round only. Prints `ok` / `FAIL` lines; exits 1 on a failure.
package main

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/jackc/pgconn"
	"github.com/jackc/pgtype"
	"github.com/jackc/pgx/v4"
)

// Each type's text is its send format's bytes as one big-endian number, in a fixed width and alphabet.
type codec struct {
	Bytes    int    `json:"bytes"`
	Width    int    `json:"width"`
	Alphabet string `json:"alphabet"`
}

var typeNames = []string{"timeid", "tbsl", "uid11", "scru160"}

func (c *codec) decode(b []byte) (string, error) {
	if len(b) != c.Bytes {
		return "", fmt.Errorf("%d bytes, expected %d", len(b), c.Bytes)
	}
	v, base, d := new(big.Int).SetBytes(b), big.NewInt(int64(len(c.Alphabet))), new(big.Int)
	out := make([]byte, c.Width)
	for i := c.Width - 1; i >= 0; i-- {
		v.DivMod(v, base, d)
		out[i] = c.Alphabet[d.Int64()]
	}
	if v.Sign() != 0 {
		return "", fmt.Errorf("%x does not fit %d symbols", b, c.Width)
	}
	return string(out), nil
}

func (c *codec) encode(text string) ([]byte, error) {
	v, base := new(big.Int), big.NewInt(int64(len(c.Alphabet)))
	for _, r := range text {
		i := strings.IndexRune(c.Alphabet, r)
		if i < 0 {
			return nil, fmt.Errorf("%q: %q is not in the alphabet", text, r)
		}
		v.Mul(v, base).Add(v, big.NewInt(int64(i)))
	}
	if (v.BitLen()+7)/8 > c.Bytes {
		return nil, fmt.Errorf("%q does not fit %d bytes", text, c.Bytes)
	}
	return v.FillBytes(make([]byte, c.Bytes)), nil
}

// idValue is the pgtype value registered for a type: its text in Go, its send/recv bytes on the wire.
// pgx copies a registered value with NewTypeValue, which keeps the type's codec.
type idValue struct {
	name   string
	codec  *codec
	text   string
	status pgtype.Status
}

// How often the codec ran, to show that the binary paths were taken.
var encoded, decoded int

func (v *idValue) NewTypeValue() pgtype.Value { return &idValue{name: v.name, codec: v.codec} }
func (v *idValue) TypeName() string           { return v.name }
func (v *idValue) Get() interface{} {
	if v.status != pgtype.Present {
		return nil
	}
	return v.text
}

func (v *idValue) Set(src interface{}) error {
	switch s := src.(type) {
	case nil:
		v.status = pgtype.Null
	case string:
		v.text, v.status = s, pgtype.Present
	case *idValue:
		v.text, v.status = s.text, s.status
	default:
		return fmt.Errorf("cannot set %s from %T", v.name, src)
	}
	return nil
}

func (v *idValue) AssignTo(dst interface{}) error {
	switch d := dst.(type) {
	case *string:
		if v.status != pgtype.Present {
			return fmt.Errorf("NULL %s into *string", v.name)
		}
		*d = v.text
	case *idValue:
		*d = *v
	default:
		return fmt.Errorf("cannot assign %s to %T", v.name, dst)
	}
	return nil
}

func (v *idValue) DecodeBinary(_ *pgtype.ConnInfo, src []byte) (err error) {
	if src == nil {
		v.status = pgtype.Null
		return nil
	}
	decoded++
	v.text, err = v.codec.decode(src)
	v.status = pgtype.Present
	return err
}

func (v *idValue) EncodeBinary(_ *pgtype.ConnInfo, buf []byte) ([]byte, error) {
	if v.status != pgtype.Present {
		return nil, nil
	}
	encoded++
	b, err := v.codec.encode(v.text)
	return append(buf, b...), err
}

func (v *idValue) DecodeText(_ *pgtype.ConnInfo, src []byte) error {
	if src == nil {
		v.status = pgtype.Null
		return nil
	}
	v.text, v.status = string(src), pgtype.Present
	return nil
}

func (v *idValue) EncodeText(_ *pgtype.ConnInfo, buf []byte) ([]byte, error) {
	if v.status != pgtype.Present {
		return nil, nil
	}
	return append(buf, v.text...), nil
}

// register makes pgx read and send the type, and its array type, in binary through the codec.
func register(ctx context.Context, conn *pgx.Conn, name string, c *codec) (oid uint32, err error) {
	var arrayOID uint32
	if err = conn.QueryRow(ctx, "SELECT oid, typarray FROM pg_type WHERE oid = $1::regtype", name).Scan(&oid, &arrayOID); err != nil {
		return 0, err
	}
	newValue := func() pgtype.ValueTranscoder { return &idValue{name: name, codec: c} }
	conn.ConnInfo().RegisterDataType(pgtype.DataType{Value: newValue(), Name: name, OID: oid})
	conn.ConnInfo().RegisterDataType(pgtype.DataType{Value: pgtype.NewArrayType("_"+name, oid, newValue),
		Name: "_" + name, OID: arrayOID})
	return oid, nil
}

var failed bool

func check(name string, fn func() (string, error)) {
	if msg, err := fn(); err != nil {
		failed = true
		fmt.Printf("FAIL pgx %s: %v\n", name, err)
	} else {
		fmt.Printf("ok   pgx %s: %s\n", name, msg)
	}
}

func same(what string, got, want interface{}) error {
	g, w := fmt.Sprint(got), fmt.Sprint(want)
	if g != w {
		return fmt.Errorf("%s: got %.300s, expected %.300s", what, g, w)
	}
	return nil
}

func column(ctx context.Context, conn *pgx.Conn, sql string, args ...interface{}) ([]string, error) {
	rows, err := conn.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

type sample struct{ id, hex, value string }

func samples(ctx context.Context, conn *pgx.Conn, t string) ([]sample, []string, error) {
	rows, err := conn.Query(ctx, `SELECT id, hex, value::text FROM samples WHERE type = $1 ORDER BY id COLLATE "C"`, t)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	var out []sample
	var ids []string
	for rows.Next() {
		var s sample
		if err := rows.Scan(&s.id, &s.hex, &s.value); err != nil {
			return nil, nil, err
		}
		out, ids = append(out, s), append(ids, s.id)
	}
	if len(out) < 150 {
		return nil, nil, fmt.Errorf("only %d samples", len(out))
	}
	return out, ids, rows.Err()
}

func sorted(ids []string) []string {
	s := append([]string(nil), ids...)
	sort.Strings(s) // byte order, which is the types' order
	return s
}

func textRound(ctx context.Context, conn *pgx.Conn, t string, c *codec) {
	_, ids, err := samples(ctx, conn, t)
	table := "go_" + t
	if err == nil {
		_, err = conn.Exec(ctx, fmt.Sprintf("CREATE TABLE %s (id %s PRIMARY KEY DEFAULT %s_generate(), n int)", table, t, t))
	}
	if err != nil {
		check(t+" set-up", func() (string, error) { return "", err })
		return
	}
	all := append([]string(nil), ids...) // the samples and the IDs the DEFAULT made

	check(t+" insert with the column DEFAULT and with parameters, read back", func() (string, error) {
		for n, id := range ids {
			if _, err := conn.Exec(ctx, "INSERT INTO "+table+" VALUES ($1, $2)", id, n); err != nil {
				return "", err
			}
		}
		got, err := column(ctx, conn, "SELECT id FROM "+table+" ORDER BY n")
		if err != nil {
			return "", err
		}
		if err := same("rows", got, ids); err != nil {
			return "", err
		}
		for n := 1000; n < 1003; n++ {
			var id string
			if err := conn.QueryRow(ctx, "INSERT INTO "+table+" (n) VALUES ($1) RETURNING id", n).Scan(&id); err != nil {
				return "", err
			}
			var back int
			if err := conn.QueryRow(ctx, "SELECT n FROM "+table+" WHERE id = $1", id).Scan(&back); err != nil {
				return "", fmt.Errorf("DEFAULT's %s looked up: %v", id, err)
			}
			if len(id) != c.Width || back != n {
				return "", fmt.Errorf("DEFAULT's %q: row %d", id, back)
			}
			all = append(all, id)
		}
		for n, id := range ids {
			var back int
			if err := conn.QueryRow(ctx, "SELECT n FROM "+table+" WHERE id = $1", id).Scan(&back); err != nil || back != n {
				return "", fmt.Errorf("%s: row %d, %v", id, back, err)
			}
		}
		return fmt.Sprintf("%d string IDs inserted, read back and looked up by id = $1; 3 from the DEFAULT, e.g. %s", len(ids), all[len(all)-1]), nil
	})

	check(t+" id = ANY($1) with a []string", func() (string, error) {
		var want []string
		for i := 0; i < len(ids); i += 7 {
			want = append(want, ids[i])
		}
		got, err := column(ctx, conn, "SELECT id FROM "+table+" WHERE id = ANY($1) ORDER BY id", append(want, missing(c)))
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%d of %d IDs asked (one absent) found", len(got), len(want)+1), same("rows", got, sorted(want))
	})

	check(t+" id ^@ $1", func() (string, error) { return prefixes(ctx, conn, table, ids[75], c.Width, all) })

	check(t+" id <@ tstzrange($1, $2)", func() (string, error) {
		lo, hi := time.Date(2024, 1, 2, 0, 0, 0, 0, time.UTC), time.Date(2024, 1, 3, 0, 0, 0, 0, time.UTC)
		got, err := column(ctx, conn, "SELECT id FROM "+table+" WHERE id <@ tstzrange($1, $2) ORDER BY id", lo, hi)
		if err != nil {
			return "", err
		}
		want, err := column(ctx, conn, "SELECT id FROM "+table+" WHERE id::timestamptz >= $1 AND id::timestamptz < $2 ORDER BY id", lo, hi)
		if err == nil {
			err = same("window", got, want)
		}
		if err == nil && !(len(got) > 0 && len(got) < len(ids)) {
			err = fmt.Errorf("%d rows", len(got))
		}
		return fmt.Sprintf("%d of %d IDs in a one-day window of time.Time parameters", len(got), len(all)), err
	})

	check(t+" keyset pagination", func() (string, error) {
		page, err := column(ctx, conn, "SELECT id FROM "+table+" ORDER BY id LIMIT 10")
		var seen []string
		pages := 1
		for ; err == nil && len(page) > 0; pages++ {
			seen = append(seen, page...)
			page, err = column(ctx, conn, "SELECT id FROM "+table+" WHERE id > $1 ORDER BY id LIMIT 10", seen[len(seen)-1])
		}
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%d pages of 10 walk all %d IDs once, in text order", pages, len(seen)), same("pages", seen, sorted(all))
	})
}

// An ID of the type's width that is not among the samples (all zero but the last symbol).
func missing(c *codec) string {
	return strings.Repeat(c.Alphabet[:1], c.Width-1) + c.Alphabet[1:2]
}

func prefixes(ctx context.Context, conn *pgx.Conn, table, mid string, width int, all []string) (string, error) {
	var counts []string
	for _, k := range []int{0, 1, 2, 3, 4, 6, width} {
		p := mid[:k]
		got, err := column(ctx, conn, "SELECT id FROM "+table+" WHERE id ^@ $1 ORDER BY id", p)
		if err != nil {
			return "", err
		}
		var want []string
		for _, id := range sorted(all) {
			if strings.HasPrefix(id, p) {
				want = append(want, id)
			}
		}
		if err := same("prefix "+p, got, want); err != nil {
			return "", err
		}
		counts = append(counts, fmt.Sprint(len(got)))
	}
	return fmt.Sprintf("prefixes of %s match %s rows, as strings.HasPrefix says", mid, strings.Join(counts, ", ")), nil
}

func binaryRound(ctx context.Context, conn *pgx.Conn, t string, c *codec, oid uint32) {
	smp, ids, err := samples(ctx, conn, t)
	table := "go_" + t + "_bin"
	if err == nil {
		_, err = conn.Exec(ctx, fmt.Sprintf("CREATE TABLE %s (id %s PRIMARY KEY DEFAULT %s_generate(), n int)", table, t, t))
	}
	if err != nil {
		check(t+" binary set-up", func() (string, error) { return "", err })
		return
	}
	id := func(text string) *idValue { return &idValue{name: t, codec: c, text: text, status: pgtype.Present} }

	check(t+" binary parameters", func() (string, error) {
		before := encoded
		for n, s := range ids {
			if _, err := conn.Exec(ctx, "INSERT INTO "+table+" VALUES ($1, $2)", id(s), n); err != nil {
				return "", err
			}
			var back int
			if err := conn.QueryRow(ctx, "SELECT n FROM "+table+" WHERE id = $1", id(s)).Scan(&back); err != nil || back != n {
				return "", fmt.Errorf("%s: row %d, %v", s, back, err)
			}
		}
		if encoded-before != 2*len(ids) {
			return "", fmt.Errorf("the codec encoded %d values, expected %d", encoded-before, 2*len(ids))
		}
		// []string for the array parameter: the registered array type encodes each element in binary
		want, before := []string{ids[3], ids[30], ids[90]}, encoded
		got, err := column(ctx, conn, "SELECT id FROM "+table+" WHERE id = ANY($1) ORDER BY id", append(want, missing(c)))
		if err == nil {
			err = same("= ANY", got, sorted(want))
		}
		if err == nil && encoded-before != len(want)+1 {
			err = fmt.Errorf("the codec encoded %d array elements, expected %d", encoded-before, len(want)+1)
		}
		if err != nil {
			return "", err
		}
		// the server refuses a value one byte short (sent in binary with the type's OID)
		_, err = conn.PgConn().ExecParams(ctx, "SELECT $1", [][]byte{make([]byte, c.Bytes-1)}, []uint32{oid}, []int16{1}, nil).Close()
		var pgErr *pgconn.PgError
		if !errors.As(err, &pgErr) || pgErr.Code != "22P03" {
			return "", fmt.Errorf("%d bytes: %v, expected 22P03", c.Bytes-1, err)
		}
		return fmt.Sprintf("%d IDs inserted and looked up by the codec's bytes, = ANY of a binary array; %d bytes refused (22P03)", len(ids), c.Bytes-1), nil
	})

	check(t+" binary results", func() (string, error) {
		rows, err := conn.Query(ctx, "SELECT id FROM "+table+" ORDER BY n")
		if err != nil {
			return "", err
		}
		before := decoded
		var got, raw []string
		for rows.Next() {
			if f := rows.FieldDescriptions()[0]; f.Format != pgx.BinaryFormatCode {
				rows.Close()
				return "", fmt.Errorf("results in format %d", f.Format)
			}
			raw = append(raw, hex.EncodeToString(rows.RawValues()[0]))
			var s string
			if err := rows.Scan(&s); err != nil {
				rows.Close()
				return "", err
			}
			got = append(got, s)
		}
		if err := rows.Err(); err != nil {
			return "", err
		}
		var wantHex []string
		for _, s := range smp {
			wantHex = append(wantHex, s.hex)
		}
		if err := same("decoded", got, ids); err != nil {
			return "", err
		}
		if err := same("bytes vs the server's id::bytea", raw, wantHex); err != nil {
			return "", err
		}
		if decoded-before != len(ids) {
			return "", fmt.Errorf("the codec decoded %d values, expected %d", decoded-before, len(ids))
		}
		var generated, text string
		if err := conn.QueryRow(ctx, "INSERT INTO "+table+" (n) VALUES (-1) RETURNING id").Scan(&generated); err != nil {
			return "", err
		}
		if err := conn.QueryRow(ctx, "SELECT id::text FROM "+table+" WHERE n = -1").Scan(&text); err != nil {
			return "", err
		}
		if err := same("the DEFAULT's ID, binary vs text", generated, text); err != nil {
			return "", err
		}
		return fmt.Sprintf("%d IDs of %d bytes, as the server's id::bytea, decode to their text; the DEFAULT's %s too", len(ids), c.Bytes, generated), nil
	})
}

func main() {
	ctx := context.Background()
	binaryOnly := len(os.Args) > 1 && os.Args[1] == "binary"
	raw, err := os.ReadFile("codecs.json")
	codecs := map[string]*codec{}
	if err == nil {
		err = json.Unmarshal(raw, &codecs)
	}
	var text, bin *pgx.Conn
	if err == nil {
		text, err = pgx.Connect(ctx, "") // PGHOST, PGPORT, PGUSER, PGDATABASE from the environment
	}
	if err == nil {
		bin, err = pgx.Connect(ctx, "")
	}
	oids := map[string]uint32{}
	for _, t := range typeNames {
		if err == nil {
			oids[t], err = register(ctx, bin, t, codecs[t])
		}
	}
	if err != nil {
		fmt.Printf("FAIL pgx set-up: %v\n", err)
		os.Exit(1)
	}
	fmt.Printf("ok   pgx set-up: pgx v4, OIDs %v; a second connection has binary codecs registered\n", oids)
	for _, t := range typeNames {
		if !binaryOnly {
			textRound(ctx, text, t, codecs[t])
		}
		binaryRound(ctx, bin, t, codecs[t], oids[t])
	}
	text.Close(ctx)
	bin.Close(ctx)
	if failed {
		os.Exit(1)
	}
}
