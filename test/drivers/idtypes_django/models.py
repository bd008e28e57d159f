from django.db import models

from . import TYPES
from .fields import GeneratedIdField


def row_model(id_type):
    """class TimeidRow(models.Model): id = GeneratedIdField(id_type="timeid", primary_key=True); n = ..."""
    meta = type("Meta", (), {"db_table": f"dj_{id_type}"})
    return type(f"{id_type.capitalize()}Row", (models.Model,), {
        "__module__": __name__,
        "id": GeneratedIdField(id_type=id_type, primary_key=True),
        "n": models.IntegerField(),
        "Meta": meta,
    })


ROWS = {t: row_model(t) for t in TYPES}
