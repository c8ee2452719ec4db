"""TableCount: each table's seated players counted by triggers on the entries table.

The triggers add one to a table's row when an entry is made at it or moves to it, take
one off when an entry leaves it (a move, a bust-out, a deletion); the rows are then
filled from the seats taken. SQLite and PostgreSQL each get their own triggers (the only
two databases the project runs on), as the field's counts do (results 0005).
"""

from django.db import migrations, models

SQLITE_ADD = (
    "INSERT OR IGNORE INTO seating_tablecount (table_id, players) VALUES (NEW.table_id, 0); "
    "UPDATE seating_tablecount SET players = players + 1 WHERE table_id = NEW.table_id;"
)
SQLITE_TAKE = "UPDATE seating_tablecount SET players = players - 1 WHERE table_id = OLD.table_id;"
SQLITE = [
    "CREATE TRIGGER seating_tablecount_insert AFTER INSERT ON seating_entry "
    f"WHEN NEW.table_id IS NOT NULL BEGIN {SQLITE_ADD} END",
    "CREATE TRIGGER seating_tablecount_delete AFTER DELETE ON seating_entry "
    f"WHEN OLD.table_id IS NOT NULL BEGIN {SQLITE_TAKE} END",
    "CREATE TRIGGER seating_tablecount_leave AFTER UPDATE OF table_id ON seating_entry "
    "WHEN OLD.table_id IS NOT NULL AND OLD.table_id IS NOT NEW.table_id "
    f"BEGIN {SQLITE_TAKE} END",
    "CREATE TRIGGER seating_tablecount_join AFTER UPDATE OF table_id ON seating_entry "
    "WHEN NEW.table_id IS NOT NULL AND OLD.table_id IS NOT NEW.table_id "
    f"BEGIN {SQLITE_ADD} END",
]
SQLITE_DROP = [
    f"DROP TRIGGER IF EXISTS seating_tablecount_{name}"
    for name in ("insert", "delete", "leave", "join")
]

POSTGRES = [
    """
    CREATE FUNCTION seating_tablecount_entry() RETURNS trigger AS $$
    BEGIN
        IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.table_id IS NOT NULL THEN
            UPDATE seating_tablecount SET players = players - 1
            WHERE table_id = OLD.table_id;
        END IF;
        IF TG_OP IN ('UPDATE', 'INSERT') AND NEW.table_id IS NOT NULL THEN
            INSERT INTO seating_tablecount AS c (table_id, players) VALUES (NEW.table_id, 1)
            ON CONFLICT (table_id) DO UPDATE SET players = c.players + 1;
        END IF;
        RETURN NULL;
    END
    $$ LANGUAGE plpgsql
    """,
    "CREATE TRIGGER seating_tablecount_insert AFTER INSERT ON seating_entry "
    "FOR EACH ROW WHEN (NEW.table_id IS NOT NULL) EXECUTE FUNCTION seating_tablecount_entry()",
    "CREATE TRIGGER seating_tablecount_delete AFTER DELETE ON seating_entry "
    "FOR EACH ROW WHEN (OLD.table_id IS NOT NULL) EXECUTE FUNCTION seating_tablecount_entry()",
    "CREATE TRIGGER seating_tablecount_update AFTER UPDATE OF table_id ON seating_entry "
    "FOR EACH ROW WHEN (OLD.table_id IS DISTINCT FROM NEW.table_id) "
    "EXECUTE FUNCTION seating_tablecount_entry()",
]
POSTGRES_DROP = [
    "DROP TRIGGER IF EXISTS seating_tablecount_insert ON seating_entry",
    "DROP TRIGGER IF EXISTS seating_tablecount_delete ON seating_entry",
    "DROP TRIGGER IF EXISTS seating_tablecount_update ON seating_entry",
    "DROP FUNCTION IF EXISTS seating_tablecount_entry()",
]

FILL = (
    "INSERT INTO seating_tablecount (table_id, players) "
    "SELECT table_id, COUNT(*) FROM seating_entry WHERE table_id IS NOT NULL GROUP BY table_id"
)


def _statements(connection, create: bool) -> list[str]:
    if connection.vendor == "postgresql":
        return POSTGRES if create else POSTGRES_DROP
    if connection.vendor == "sqlite":
        return SQLITE if create else SQLITE_DROP
    raise NotImplementedError(f"no table count triggers for {connection.vendor}")


def create_triggers(apps, schema_editor) -> None:
    for sql in _statements(schema_editor.connection, create=True):
        schema_editor.execute(sql)
    schema_editor.execute("DELETE FROM seating_tablecount")
    schema_editor.execute(FILL)


def drop_triggers(apps, schema_editor) -> None:
    for sql in _statements(schema_editor.connection, create=False):
        schema_editor.execute(sql)


class Migration(migrations.Migration):
    dependencies = [
        ("seating", "0014_move_pending_by_table"),
    ]

    operations = [
        migrations.CreateModel(
            name="TableCount",
            fields=[
                ("table_id", models.BigIntegerField(primary_key=True, serialize=False)),
                ("players", models.IntegerField(default=0)),
            ],
        ),
        migrations.RunPython(create_triggers, drop_triggers),
    ]
