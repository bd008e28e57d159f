-- idtypes 1.2 -> 1.3. Every SQL object that 1.3 adds or changes is here as well as in the full script
-- (generated from src/catalog/); test/upgrade/run.sh proves an updated catalog equals a fresh 1.3 one.
-- A catalog file that 1.3 adds whole is appended by the Makefile (ADDS_1.2--1.3), as in the full script:
-- src/catalog/high_water.sql, the table of the high-water mark replicated through WAL (issue 37).
\echo Use "ALTER EXTENSION idtypes UPDATE TO '1.3'" to load this file. \quit
