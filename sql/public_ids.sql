-- The keyed public forms (docs/public-ids.md) as far as they do not depend on the server's configuration:
-- pg_regress cannot give the server a keyring, so the round trips, rotation and the keyring's checks are
-- test/public/run.sh's, in a cluster of its own. Here: the functions' markings and privileges, malformed
-- public text (22P02 with a DETAIL, raised before any key is looked up), arguments that are not what the
-- function takes, and a key the keyring cannot have.

-- STABLE (the keyring changes at a reload), STRICT, PARALLEL SAFE (a parallel worker converts with the keyring
-- generation its leader took), and no EXECUTE for PUBLIC; idtypes_keyring_status() for pg_monitor.
SELECT p.oid::regprocedure AS function, p.provolatile, p.proisstrict, p.proparallel,
       EXISTS (SELECT FROM aclexplode(p.proacl) a WHERE a.grantee = 0) AS public_may_execute
FROM pg_proc p
WHERE p.proname ~ '_(to|from)_public$|^uuid_from_public_candidates$|^idtypes_keys$|^idtypes_keyring_status$'
ORDER BY p.proname;

-- A public form never parses as its type: it is one symbol longer.
SELECT '23kxmtyqiinc23'::timeid;
SELECT '225BF6196C8D6107ABCDE'::tbsl;
SELECT '24u5w7n6xTft'::uid11;
SELECT '005TTUP1HNCPNH30VEK64KDQT9BSNU4C4'::scru160;

-- Malformed public text, for every type: the length, the key version symbol, the ID's text after it.
SELECT timeid_from_public('3kxmtyqiinc23', 'k');
SELECT timeid_from_public('z3kxmtyqiinc23', 'k');
SELECT timeid_from_public('2zkxmtyqiinc23', 'k');
SELECT timeid_from_public('23kxm!yqiinc23', 'k');
SELECT tbsl_from_public('25BF6196C8D6107ABCDE', 'k');
SELECT tbsl_from_public('G25BF6196C8D6107ABCDE', 'k');
SELECT tbsl_from_public('2DE0B6B3A764000000000', 'k');
SELECT uid11_from_public('4u5w7n6xTft', 'k');
SELECT uid11_from_public('H4u5w7n6xTft', 'k');
SELECT uid11_from_public('24u5w7n6xTf0', 'k');
SELECT scru160_from_public('05TTUP1HNCPNH30VEK64KDQT9BSNU4C4', 'k');
SELECT scru160_from_public('G05TTUP1HNCPNH30VEK64KDQT9BSNU4C4', 'k');
SELECT scru160_from_public('0W5TTUP1HNCPNH30VEK64KDQT9BSNU4C4', 'k');

-- uuid_to_public takes a UUIDv7 (22003 otherwise); a public uuid is a version 4 uuid of variant 10 (22P02).
SELECT uuid_to_public('6ba7b810-9dad-41d1-80b4-00c04fd430c8', 'k');
SELECT uuid_to_public('01890a5d-ac96-774b-fcb1-11ea7a5b1d9a', 'k');
SELECT uuid_from_public('01890a5d-ac96-774b-bcb1-11ea7a5b1d9a', 'k');
SELECT uuid_from_public_candidates('6ba7b810-9dad-41d1-c0b4-00c04fd430c8', 'k');

-- NULL in, NULL out.
SELECT timeid_to_public(NULL, 'k') IS NULL AS n1, timeid_from_public(NULL, 'k') IS NULL AS n2,
       uuid_to_public(NULL, 'k') IS NULL AS n3, uuid_from_public('6ba7b810-9dad-41d1-80b4-00c04fd430c8', NULL) IS NULL AS n4;

-- idtypes_keys() gives a stage column (1.6), never a key byte.
SELECT pg_get_function_arguments('idtypes_keys()'::regprocedure) AS idtypes_keys_columns;

-- A key no keyring can hold (keyring names are letters, digits, _ - .): whatever this server's keyring and
-- whether idtypes is preloaded (without it the public forms are refused, 55000), an error, never an answer.
CREATE FUNCTION public_ids_error(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE q;
	RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
	RETURN CASE WHEN SQLERRM LIKE '%"no such key!"%' OR SQLSTATE IN ('55000', 'F0000') THEN 'refused'
	            ELSE 'SQLSTATE ' || SQLSTATE END;
END $$;
SELECT q, public_ids_error(q) FROM (VALUES
	($$SELECT timeid_to_public('3kxmtyqiinc23', 'no such key!')$$),
	($$SELECT timeid_from_public('23kxmtyqiinc23', 'no such key!')$$),
	($$SELECT tbsl_to_public('25BF6196C8D6107ABCDE', 'no such key!')$$),
	($$SELECT uid11_to_public('4u5w7n6xTft', 'no such key!')$$),
	($$SELECT scru160_to_public('05TTUP1HNCPNH30VEK64KDQT9BSNU4C4', 'no such key!')$$),
	($$SELECT uuid_to_public('01890a5d-ac96-774b-bcb1-11ea7a5b1d9a', 'no such key!')$$),
	($$SELECT uuid_from_public('6ba7b810-9dad-41d1-80b4-00c04fd430c8', 'no such key!')$$),
	($$SELECT uuid_from_public_candidates('6ba7b810-9dad-41d1-80b4-00c04fd430c8', 'no such key!')$$)) v(q);

-- A role without EXECUTE is refused before anything is read; the setting is hidden from it (42501) and
-- only the configuration files set it (55P02).
CREATE ROLE regress_public_ids_nobody;
SET ROLE regress_public_ids_nobody;
SELECT timeid_to_public('3kxmtyqiinc23', 'k');
SELECT uuid_from_public('6ba7b810-9dad-41d1-80b4-00c04fd430c8', 'k');
SELECT * FROM idtypes_keys();
SELECT public_ids_error('SHOW idtypes.keyring') AS show_keyring,
       public_ids_error($$SET idtypes.keyring = 'elsewhere.keyring'$$) AS set_keyring,
       (SELECT count(*) FROM pg_settings WHERE name = 'idtypes.keyring') AS keyring_rows_seen;
RESET ROLE;
DROP ROLE regress_public_ids_nobody;
