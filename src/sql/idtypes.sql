-- idtypes: sortable, time-based identifier types (TBSL, TID as timeid, uid11/xid, SCRU160).
-- Generated from src/sql/*.sql by the Makefile; edit those files, not the generated script.
\echo Use "CREATE EXTENSION idtypes" to load this file. \quit
