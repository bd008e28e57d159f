-- idtypes 1.3 -> 1.4. Every SQL object that 1.4 adds or changes is here as well as in the full script
-- (generated from src/catalog/); test/upgrade/run.sh proves an updated catalog equals a fresh 1.4 one.
-- A catalog file that 1.4 adds whole is appended by the Makefile (ADDS_1.3--1.4), as in the full script.
\echo Use "ALTER EXTENSION idtypes UPDATE TO '1.4'" to load this file. \quit
