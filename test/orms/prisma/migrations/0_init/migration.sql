-- The migration for schema.prisma, written by hand: `prisma migrate dev` would write the ID columns as
-- "text" (a String's type), so the type is set here; `prisma migrate deploy` applies this file as it is.
CREATE TABLE "prisma_timeid" ("id" timeid NOT NULL DEFAULT timeid_generate(), "n" INTEGER NOT NULL, PRIMARY KEY ("id"));
CREATE TABLE "prisma_tbsl" ("id" tbsl NOT NULL DEFAULT tbsl_generate(), "n" INTEGER NOT NULL, PRIMARY KEY ("id"));
CREATE TABLE "prisma_uid11" ("id" uid11 NOT NULL DEFAULT uid11_generate(), "n" INTEGER NOT NULL, PRIMARY KEY ("id"));
CREATE TABLE "prisma_scru160" ("id" scru160 NOT NULL DEFAULT scru160_generate(), "n" INTEGER NOT NULL, PRIMARY KEY ("id"));
