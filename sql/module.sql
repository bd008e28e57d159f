-- The loaded module names itself and its version on PostgreSQL 18 and later (PG_MODULE_MAGIC_EXT); the
-- version is the extension's. Earlier versions have no pg_get_loaded_modules(): the file only checks that.
SELECT current_setting('server_version_num')::int >= 180000 AS has_loaded_modules \gset
\if :has_loaded_modules
SELECT timeid_generate() IS NOT NULL AS loaded;
SELECT m.module_name, m.version = e.extversion AS version_is_the_extensions
FROM pg_get_loaded_modules() m, pg_extension e
WHERE m.file_name = 'idtypes.so' AND e.extname = 'idtypes';
\endif
