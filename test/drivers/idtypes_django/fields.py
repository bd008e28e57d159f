"""Django fields for idtypes columns. psycopg2 (Django 3.2's driver) sends a str as a quoted literal,
which the server reads as the column's type, and returns the type's text as str, so values stay str.

IdField(id_type="timeid"): an ID column. GeneratedIdField: a primary key the column's DEFAULT fills
(T_generate(), set by the migration): Django leaves it out of the INSERT and reads it back from
RETURNING, as for an AutoField (Django 3.2 has no db_default; AutoFieldMixin is what its own comment
says it is for: "a non-integer automatically-generated field using column defaults stored in the
database"). Lookups: id__prefix="3kxm" (`^@`), id__within=(start, end) (`<@ tstzrange`),
id__any=[...] (`= ANY(%s::T[])`, one array parameter)."""
from django.db import models
from django.db.models.fields import AutoFieldMixin


class IdField(models.Field):
    description = "An idtypes ID (timeid, tbsl, uid11 or scru160)"
    empty_strings_allowed = False  # an unset ID is None (Django would make it ""), so the DEFAULT applies

    def __init__(self, *args, id_type, **kwargs):
        self.id_type = id_type
        super().__init__(*args, **kwargs)

    def deconstruct(self):
        name, path, args, kwargs = super().deconstruct()
        return name, path, args, {**kwargs, "id_type": self.id_type}

    def db_type(self, connection):
        return self.id_type

    def rel_db_type(self, connection):
        return self.id_type

    def from_db_value(self, value, expression, connection):
        return value if value is None else str(value)

    def to_python(self, value):
        return value if value is None else str(value)

    def get_prep_value(self, value):
        return value if value is None else str(value)


class GeneratedIdField(AutoFieldMixin, IdField):
    pass


@IdField.register_lookup
class Prefix(models.Lookup):
    lookup_name = "prefix"
    prepare_rhs = False  # the prefix is text, not an ID

    def as_sql(self, compiler, connection):
        lhs, lhs_params = self.process_lhs(compiler, connection)
        rhs, rhs_params = self.process_rhs(compiler, connection)
        return f"{lhs} ^@ {rhs}", [*lhs_params, *rhs_params]


@IdField.register_lookup
class Within(models.Lookup):
    lookup_name = "within"
    prepare_rhs = False  # (start, end): two datetimes

    def as_sql(self, compiler, connection):
        lhs, lhs_params = self.process_lhs(compiler, connection)
        start, end = self.rhs
        return f"{lhs} <@ tstzrange(%s, %s)", [*lhs_params, start, end]


@IdField.register_lookup
class AnyOf(models.Lookup):
    lookup_name = "any"
    prepare_rhs = False  # a list, sent as one array parameter

    def as_sql(self, compiler, connection):
        lhs, lhs_params = self.process_lhs(compiler, connection)
        array_type = self.lhs.output_field.db_type(connection) + "[]"
        return f"{lhs} = ANY(%s::{array_type})", [*lhs_params, [str(v) for v in self.rhs]]
