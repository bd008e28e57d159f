"""The tables of models.py, each with its type's generator as the id column's DEFAULT (Django 3.2's
schema editor writes no database default, so RunSQL sets it)."""
from django.db import migrations, models

from ..fields import GeneratedIdField
from .. import TYPES


def create(id_type):
    table = f"dj_{id_type}"
    return [
        migrations.CreateModel(
            name=f"{id_type.capitalize()}Row",
            fields=[
                ("id", GeneratedIdField(id_type=id_type, primary_key=True, serialize=False)),
                ("n", models.IntegerField()),
            ],
            options={"db_table": table},
        ),
        migrations.RunSQL(
            f"ALTER TABLE {table} ALTER COLUMN id SET DEFAULT {id_type}_generate()",
            f"ALTER TABLE {table} ALTER COLUMN id DROP DEFAULT",
        ),
    ]


class Migration(migrations.Migration):
    initial = True
    dependencies = []
    operations = [op for t in TYPES for op in create(t)]
