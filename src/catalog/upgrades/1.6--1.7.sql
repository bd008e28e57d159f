-- idtypes 1.6 -> 1.7. Every SQL object that 1.7 adds or changes is here as well as in the full script
-- (generated from src/catalog/); test/upgrade/run.sh proves an updated catalog equals a fresh 1.7 one.
-- A catalog file that 1.7 adds whole is appended by the Makefile (ADDS_1.6--1.7), as in the full script.
-- This runs as a superuser with the extension's schema, which another role may own, on the search_path:
-- every operator is qualified and every call exact.
\echo Use "ALTER EXTENSION idtypes UPDATE TO '1.7'" to load this file. \quit
