-- The IDs every driver check sends and reads back, made by the server from known fields, with the
-- server's own readings of each (its raw bytes and its value as a number) for the drivers' decoders to
-- match. Per type: 150 IDs 37 minutes apart from 2024-01-01 (so a one-day window holds some but not all),
-- then the extremes, the values either side of 2^63 (where a signed 64-bit reading would go wrong), and one
-- whose bytes are all ASCII (which survive node-postgres's binary results, see node_pg.mjs).
SET client_min_messages = warning;
CREATE TABLE samples (type text, id text, hex text, value numeric, PRIMARY KEY (type, id));

CREATE FUNCTION pg_temp.hex_value(h text) RETURNS numeric LANGUAGE sql IMMUTABLE AS $$
	SELECT round(sum((strpos('0123456789abcdef', substr(h, i, 1)) - 1)::numeric * 16::numeric ^ (length(h) - i)))
	FROM generate_series(1, length(h)) i
$$;

INSERT INTO samples
SELECT 'timeid', t::text, encode(t::bytea, 'hex'), timeid_micros(t)::numeric * 1024 + timeid_clock_id(t)
FROM (SELECT make_timeid(1704067200000000 + g * 2220000000::bigint + (hashint4(g) & 999999), g % 1024) t
      FROM generate_series(1, 150) g
      UNION ALL
      SELECT t::timeid FROM unnest('{2222222222222,bzzzzzzzzzzzz,c222222222222,jzzzzzzzzzzzz}'::text[]) t
      UNION ALL
      SELECT convert_to('ABCDEFGH', 'UTF8')::timeid) s;

INSERT INTO samples
SELECT 'tbsl', t::text, encode(t::bytea, 'hex'), t::numeric
FROM (SELECT make_tbsl(1704067200 + g * 2220, (hashint4(g) & 2147483647) % 1000000, g % 100,
                       hashint4(-g) & 1048575) t
      FROM generate_series(1, 150) g
      UNION ALL
      SELECT t::tbsl FROM unnest('{00000000000000000000,DE0B6B3A763FFFFFFFFF}'::text[]) t
      UNION ALL
      SELECT convert_to('0123456789', 'UTF8')::tbsl) s;

INSERT INTO samples
SELECT 'uid11', t::text, encode(t::bytea, 'hex'), t::numeric
FROM (SELECT make_uid11_xid(1704067200000 + g * 2220000::bigint + g % 1000, hashint4(g) & 4194303) t
      FROM generate_series(1, 150) g
      UNION ALL
      SELECT v::uid11 FROM unnest(ARRAY[0, 2::numeric ^ 63 - 1, 2::numeric ^ 63, 2::numeric ^ 64 - 1]) v
      UNION ALL
      SELECT convert_to('ABCDEFGH', 'UTF8')::uid11) s;

INSERT INTO samples
SELECT 'scru160', t::text, encode(t::bytea, 'hex'), pg_temp.hex_value(scru160_to_hex(t))
FROM (SELECT make_scru160(1704067200000 + g * 2220000::bigint, hashint4(g) & 65535, hashint4(-g) & 65535,
                          substr(sha256(g::text::bytea), 1, 10)) t
      FROM generate_series(1, 150) g
      UNION ALL
      SELECT t::scru160 FROM unnest('{00000000000000000000000000000000,VVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVV}'::text[]) t
      UNION ALL
      SELECT convert_to('abcdefghijklmnopqrst', 'UTF8')::scru160) s;
