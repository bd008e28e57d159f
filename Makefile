# PGXS build of the extension (make && make install), and pg_regress (make installcheck).
# The core's unit tests and benchmarks are built by CMakeLists.txt.

EXTENSION  = idtypes
EXTVERSION = $(shell sed -n "s/^default_version = '\(.*\)'/\1/p" $(EXTENSION).control)
FORMATS    = timeid uid11 tbsl scru160

MODULE_big = $(EXTENSION)
# Every source of the core and of the PostgreSQL layer (src/pg/<concern>/, CONTRIBUTING.md names them).
OBJS = $(patsubst %.cpp,%.o,$(sort $(wildcard src/core/*.cpp src/pg/*.cpp src/pg/*/*.cpp)))

# The current version's full script and the upgrade script to it are generated (src/catalog/ and
# src/catalog/upgrades/<from>--<to>.sql, plus its per-type part <from>--<to>.type.sql.in for every format).
# Released versions are shipped as released (src/catalog/versions/): the base full script idtypes--1.0.sql
# and every update script, which PostgreSQL chains for `CREATE EXTENSION idtypes VERSION '1.x'` (it does so
# for any version without a full script of its own). They are installed through the same substitution of
# the 8-byte types' layout as the current ones (U64_BYVAL below): byte for byte as released where int8 is
# passed by value.
UPGRADES   = $(patsubst src/catalog/upgrades/%.sql,$(EXTENSION)--%.sql,$(wildcard src/catalog/upgrades/*--*.sql))
RELEASED   = $(notdir $(wildcard src/catalog/versions/*.sql))
DATA_built = $(EXTENSION)--$(EXTVERSION).sql $(UPGRADES) $(RELEASED)
REGRESS = $(patsubst sql/%.sql,%,$(sort $(wildcard sql/*.sql)))
REGRESS_OPTS = --load-extension=$(EXTENSION)
EXTRA_CLEAN = $(OBJS:.o=.d)

# Storage shape of each type: the C functions it shares with same-shaped types, and its layout.
# INPUT_<type>: the type's own binary-input functions (<type>_recv, <type>_from_bytea): every fixed-length
# type has its own, so that none skips its format's check.
SHAPE_timeid = idtypes_u64
SHAPE_uid11  = idtypes_u64
SHAPE_tbsl   = idtypes_fixed10
INPUT_tbsl   = tbsl
SHAPE_scru160 = idtypes_fixed20
INPUT_scru160 = scru160
BYTES_idtypes_u64 = 8
BYTES_idtypes_fixed10 = 10
BYTES_idtypes_fixed20 = 20
comma := ,
STORAGE_idtypes_u64 = INTERNALLENGTH = $(BYTES_idtypes_u64), $(if $(filter yes,$(U64_BYVAL)),PASSEDBYVALUE$(comma) )ALIGNMENT = double, STORAGE = plain
STORAGE_idtypes_fixed10 = INTERNALLENGTH = $(BYTES_idtypes_fixed10), ALIGNMENT = char, STORAGE = plain
STORAGE_idtypes_fixed20 = INTERNALLENGTH = $(BYTES_idtypes_fixed20), ALIGNMENT = char, STORAGE = plain
# The precision of each type's time, named in the comments of its time functions.
UNIT_timeid  = microsecond
UNIT_tbsl    = microsecond
UNIT_uid11   = millisecond
UNIT_scru160 = millisecond

# gnu++17: PostgreSQL's headers use typeof; -isystem silences warnings from them. The same warnings as the
# core's CMake build; `make WERROR=1` (what scripts/test.sh builds) makes them errors.
PG_CPPFLAGS = -Isrc -isystem $(shell $(PG_CONFIG) --includedir-server) -DIDTYPES_VERSION='"$(EXTVERSION)"'
PG_CXXFLAGS = -std=gnu++17 -Wall -Wextra -Wpedantic -fno-exceptions -MMD -MP $(if $(WERROR),-Werror)
SHLIB_LINK += -lstdc++ -lcrypto # OpenSSL's AES for the public forms (src/pg/public/aes.cpp)
# `make SANITIZE=address,undefined`: the extension instrumented by those sanitizers, any report fatal, as
# the core's CMake build with -DIDTYPES_SANITIZE=ON. The server, not instrumented itself, must then be
# started with the sanitizer runtime preloaded: test/sanitize/run.sh does so (building with clang++).
ifdef SANITIZE
PG_CXXFLAGS += -fsanitize=$(SANITIZE) -fno-sanitize-recover=all -fno-omit-frame-pointer
SHLIB_LINK += -fsanitize=$(SANITIZE)
endif
# No LLVM bitcode: PGXS would compile C++17 with clang's default dialect and no PG_CXXFLAGS.
override with_llvm = no

PG_CONFIG ?= pg_config
# `make sql-edition` alone needs no PostgreSQL (nor its pg_config): it only concatenates SQL
ifneq ($(MAKECMDGOALS),sql-edition)
# The 8-byte types (idtypes_u64) are passed as this server passes int8: by value where its Datum has 8 bytes
# (FLOAT8PASSBYVAL true: 64-bit servers, and every server from 19), by reference on 32-bit ones; the C code
# follows the same macro (src/pg/types/u64_type.cpp).
U64_BYVAL := $(shell printf '\043include "c.h"\n\043if FLOAT8PASSBYVAL\nyes\n\043else\nno\n\043endif\n' | \
	$(shell $(PG_CONFIG) --cc) -E -P -xc -I$(shell $(PG_CONFIG) --includedir-server) - 2>/dev/null | tail -n 1)
ifeq ($(filter yes no,$(U64_BYVAL)),)
$(error cannot tell whether $(PG_CONFIG)'s server passes int8 by value (FLOAT8PASSBYVAL in its c.h))
endif
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)
endif

-include $(OBJS:.o=.d)

# `make install` on a live server (docs/upgrading.md, step 1): the library is written beside its final name
# (same directory, mode set), then renamed over it. A session that loads it meanwhile opens the old file or
# the new one, never a half-written one (`install` writes in place: a session could open it unreadable or
# short), and sessions that loaded the old one keep its inode. PGXS's rule calls $(INSTALL_SHLIB) SRC DEST.
install_beside = f() { set -e; tmp=$$(dirname "$$2")/.$$(basename "$$2").$$$$; trap 'rm -f "$$tmp"' EXIT; \
	$(INSTALL_SHLIB_ENV) $(INSTALL) $(INSTALL_SHLIB_OPTS) $(INSTALL_STRIP_FLAG) "$$1" "$$tmp"; mv -f "$$tmp" "$$2"; trap - EXIT; }; f
override INSTALL_SHLIB = $(install_beside)

# A per-type template instantiated for format $(1): @T@ its name, @SHAPE@ its storage shape's C prefix,
# @INPUT@ its binary-input functions' prefix, @STORAGE@ its layout, @BYTES@ its length, @UNIT@ its time's precision.
instantiate = sed -e 's/@T@/$(1)/g' -e 's/@SHAPE@/$(SHAPE_$(1))/g' -e 's/@INPUT@/$(or $(INPUT_$(1)),$(SHAPE_$(1)))/g' \
	-e 's/@STORAGE@/$(STORAGE_$(SHAPE_$(1)))/' -e 's/@BYTES@/$(BYTES_$(SHAPE_$(1)))/g' -e 's/@UNIT@/$(UNIT_$(1))/g' $(2);

# Catalog files that are not per type, after the types in the full script; an upgrade that adds one whole
# names it in ADDS_<from>--<to>, so that both scripts take the same text.
COMMON = src/catalog/uuid.sql src/catalog/partitions.sql src/catalog/identity.sql src/catalog/uuid_generate.sql \
         src/catalog/high_water.sql src/catalog/carrier_populated.sql src/catalog/public.sql src/catalog/adopt.sql
# 1.7 adds adoption (docs/adopting.md) whole.
ADDS_1.6--1.7 = src/catalog/adopt.sql
# Per-type catalog files after those (each instantiated for every format); an upgrade that adds one whole
# names it in TYPED_<from>--<to>.
TYPED = src/catalog/or_null.type.sql.in src/catalog/public.type.sql.in

$(EXTENSION)--$(EXTVERSION).sql: src/catalog/$(EXTENSION).sql src/catalog/type.sql.in $(FORMATS:%=src/catalog/%.sql) $(COMMON) $(TYPED) Makefile
	{ cat src/catalog/$(EXTENSION).sql; \
	  $(foreach f,$(FORMATS),$(call instantiate,$(f),src/catalog/type.sql.in) cat src/catalog/$(f).sql;) \
	  cat $(COMMON); $(foreach t,$(TYPED),$(foreach f,$(FORMATS),$(call instantiate,$(f),$(t)))) } > $@

$(EXTENSION)--%.sql: src/catalog/upgrades/%.sql $(wildcard src/catalog/upgrades/*.type.sql.in) $(COMMON) $(TYPED) Makefile
	{ cat $<; $(if $(wildcard src/catalog/upgrades/$*.type.sql.in),\
	  $(foreach f,$(FORMATS),$(call instantiate,$(f),src/catalog/upgrades/$*.type.sql.in))) \
	  $(if $(ADDS_$*),cat $(ADDS_$*);) $(foreach t,$(TYPED_$*),$(foreach f,$(FORMATS),$(call instantiate,$(f),$(t)))) } > $@

$(RELEASED): %: src/catalog/versions/% Makefile
	sed 's/INTERNALLENGTH = 8, PASSEDBYVALUE, ALIGNMENT = double, STORAGE = plain/$(STORAGE_idtypes_u64)/' $< > $@

# The SQL edition (src/sql_edition/, docs/sql-edition.md): one script for servers without C
# extensions: the shared helpers, each type's file followed by src/sql_edition/type.sql.in instantiated for
# it, then the installation's bindings. Not part of the PGXS build above.
SQL_EDITION_TYPES = 10_timeid 20_tbsl 30_uid11 40_scru160
# per type, its descriptor in the core (src/core/format.hpp), as build/descriptors prints it: name, time unit
# (epoch µs, µs per unit, last unit), its text's length and first / last symbol
build/descriptors.txt: src/tools/descriptors.cpp $(wildcard src/core/*.hpp)
	@mkdir -p build
	$(CXX) -std=c++17 -Isrc -o build/descriptors $<
	build/descriptors > $@
# $(call sql_edition_file,TYPE,FILE): FILE with TYPE's descriptor in its placeholders (@EPOCH@ and @UNIT@ in
# µs, @EPOCH_UNITS@ the epoch in units, @MAX@ the last unit, @SYMBOLS@, @LOW@, @HIGH@ its text)
sql_edition_file = set -- $$(grep '^$(1) ' build/descriptors.txt) && sed -e 's/@T@/$(1)/g' -e "s/@EPOCH@/$$2/g" \
	-e "s/@UNIT@/$$3/g" -e "s/@EPOCH_UNITS@/$$(($$2 / $$3))/g" -e "s/@MAX@/$$4/g" -e "s/@SYMBOLS@/$$5/g" \
	-e "s/@LOW@/$$6/g" -e "s/@HIGH@/$$7/g" $(2);
sql_edition_type = $(call sql_edition_file,$(1),src/sql_edition/$(2).sql) $(call sql_edition_file,$(1),src/sql_edition/type.sql.in)
# The edition's own version (idtypes_sql.control): the full script of the current one, the update to it from
# the one before (src/sql_edition/upgrades/<from>--<to>.sql followed by the sources' parts marked [<to>]), and
# the earlier updates as released (src/sql_edition/versions/, frozen; 1.0's full script too, which
# CREATE EXTENSION ... VERSION '1.0' and the update test start from).
SQL_EDITION_VERSION := $(shell sed -n "s/^default_version = '\(.*\)'/\1/p" idtypes_sql.control)
SQL_EDITION_FROM    := $(patsubst src/sql_edition/upgrades/%--$(SQL_EDITION_VERSION).sql,%,$(wildcard src/sql_edition/upgrades/*--$(SQL_EDITION_VERSION).sql))
SQL_EDITION_FROZEN  := $(patsubst src/sql_edition/versions/%,build/%,$(wildcard src/sql_edition/versions/idtypes_sql--*--*.sql))
sql_edition_body = cat src/sql_edition/00_common.sql; \
	$(foreach f,$(SQL_EDITION_TYPES),$(call sql_edition_type,$(word 2,$(subst _, ,$(f))),$(f)))
.PHONY: sql-edition
sql-edition: build/idtypes_sql.sql build/idtypes_sql--$(SQL_EDITION_FROM)--$(SQL_EDITION_VERSION).sql $(SQL_EDITION_FROZEN)
build/idtypes_sql.sql: $(wildcard src/sql_edition/*.sql src/sql_edition/*.in) build/descriptors.txt Makefile
	@mkdir -p build
	{ cat src/sql_edition/installer.sql; $(sql_edition_body) cat src/sql_edition/90_bind.sql; } > $@
build/idtypes_sql--$(SQL_EDITION_FROM)--$(SQL_EDITION_VERSION).sql: $(wildcard src/sql_edition/*.sql src/sql_edition/*.in src/sql_edition/upgrades/*.sql) build/descriptors.txt Makefile
	@mkdir -p build
	{ cat src/sql_edition/installer.sql src/sql_edition/upgrades/$(SQL_EDITION_FROM)--$(SQL_EDITION_VERSION).sql; \
	  { $(sql_edition_body) } | sed -n '/^-- \[$(subst .,\.,$(SQL_EDITION_VERSION))\]/,/^-- \[\/$(subst .,\.,$(SQL_EDITION_VERSION))\]/{s/^CREATE FUNCTION/CREATE OR REPLACE FUNCTION/;p;}'; \
	  cat src/sql_edition/90_bind.sql; } > $@
$(SQL_EDITION_FROZEN): build/%: src/sql_edition/versions/%
	@mkdir -p build
	cp $< $@
