"""Statements written out by hand, and the few helpers every one of them uses.

The ORM first. A statement is written out here only where the ORM costs more than the
database's own work on a path that runs all the time, and a benchmark says so
(benchmarks/, the figures in docs/load-and-faults.md): a screen's poll of the clock row,
a bust-out's head counts, the places and prizes of a field of thousands written back, a
seat lookup's search. Or where the ORM cannot say it: one statement run for many rows in
one round trip (`update_rows`), rows locked in a fixed order without loading models. A
query a page makes once, a write of a few rows, anything a reader could not check
against its model at a glance: the ORM.

Written out, a statement:

- names its tables and columns through `sql_names`, never as literal text, so it follows
  the models (a renamed field or table, a quoted reserved word);
- passes every value as a parameter (`%s`), never formatted into the text;
- runs through Django's cursor (`connection.cursor()`): its connection handling, error
  translation, the tests' query counts and any execute wrapper apply as to the ORM's.

Where the same numbers are kept by the database itself (the counters the triggers keep),
the model says which triggers, and `manage.py check_counters` compares them with the rows.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from types import MappingProxyType

from django.db import connection


def sql_names(model, alias: str = "") -> tuple[str, Mapping[str, str]]:
    """A model's quoted table name and its fields' quoted column names ("pk" too), for the
    statements written out by hand; with `alias`, the columns are prefixed by it. Worked
    out once per model, alias and database."""
    return _sql_names(model, alias, connection.vendor)


@functools.cache
def _sql_names(model, alias: str, vendor: str) -> tuple[str, Mapping[str, str]]:
    quote = connection.ops.quote_name
    meta = model._meta
    prefix = f"{alias}." if alias else ""
    columns = {f.name: prefix + quote(str(f.column)) for f in meta.concrete_fields}
    return quote(meta.db_table), MappingProxyType(
        columns | {"pk": prefix + quote(str(meta.pk.column))}
    )


def fetch_all(sql: str, params: Sequence) -> list[tuple]:
    """The rows of one statement, as plain tuples: no model, no per-row conversion (the
    driver's own types: integers, booleans and text come back as such on both databases;
    dates and times on SQLite as text)."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def fetch_one(sql: str, params: Sequence) -> tuple | None:
    """The first row of one statement as a plain tuple, None when there is none."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()


def execute(sql: str, params: Sequence) -> int:
    """Run one statement that returns no rows; the number of rows it changed."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount


def update_rows(model, fields: list[str], rows: list[tuple]) -> None:
    """Update many rows, each given as (pk, *values in `fields` order), in one statement
    run many times.

    Chosen over bulk_update for thousands of rows: no CASE expression to build (it grows
    with the batch, and PostgreSQL evaluates it row by row), and psycopg pipelines the
    statements.
    """
    if not rows:
        return
    table, names = sql_names(model)
    columns = [model._meta.get_field(name) for name in fields]
    sql = (
        f"UPDATE {table} SET "
        + ", ".join(f"{names[name]} = %s" for name in fields)
        + f" WHERE {names['pk']} = %s"
    )
    params = [
        (*(c.get_db_prep_save(v, connection) for c, v in zip(columns, values, strict=True)), pk)
        for pk, *values in rows
    ]
    with connection.cursor() as cursor:
        cursor.executemany(sql, params)
