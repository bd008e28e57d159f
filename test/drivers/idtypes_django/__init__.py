"""A tiny Django app for django_round.py: an idtypes model field with its lookups (fields.py), one model
per type (models.py), and the migration that creates their tables with the generators as DEFAULTs."""

TYPES = ("timeid", "tbsl", "uid11", "scru160")
