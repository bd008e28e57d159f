-- idtypes 1.1 -> 1.2. Every SQL object that 1.2 adds or changes is here as well as in the full script
-- (generated from src/catalog/); test/upgrade/run.sh proves an updated catalog equals a fresh 1.2 one.
-- A catalog file that 1.2 adds whole is appended by the Makefile (ADDS_1.1--1.2), as in the full script.
\echo Use "ALTER EXTENSION idtypes UPDATE TO '1.2'" to load this file. \quit
