"""FieldCount: each event's entries counted by triggers on the entries table.

The triggers add an entry's figures to its event's row when it is made, take them off
when it is deleted, and move them when its event, status, carry or payment changes; the
rows are then filled from the entries there are. SQLite and PostgreSQL each get their own
triggers (the only two databases the project runs on).
"""

from django.db import migrations, models

SQLITE_ADD = (
    "INSERT OR IGNORE INTO results_fieldcount "
    "(event_id, entries, carried, active, paid_cents) VALUES (NEW.event_id, 0, 0, 0, 0); "
    "UPDATE results_fieldcount SET entries = entries + 1, "
    "carried = carried + (NEW.carried_from_id IS NOT NULL), "
    "active = active + (NEW.status = 'active'), "
    "paid_cents = paid_cents + CAST(ROUND(NEW.paid * 100) AS INTEGER) "
    "WHERE event_id = NEW.event_id;"
)
SQLITE_TAKE = (
    "UPDATE results_fieldcount SET entries = entries - 1, "
    "carried = carried - (OLD.carried_from_id IS NOT NULL), "
    "active = active - (OLD.status = 'active'), "
    "paid_cents = paid_cents - CAST(ROUND(OLD.paid * 100) AS INTEGER) "
    "WHERE event_id = OLD.event_id;"
)
SQLITE = [
    f"CREATE TRIGGER results_fieldcount_insert AFTER INSERT ON seating_entry "
    f"BEGIN {SQLITE_ADD} END",
    f"CREATE TRIGGER results_fieldcount_delete AFTER DELETE ON seating_entry "
    f"BEGIN {SQLITE_TAKE} END",
    "CREATE TRIGGER results_fieldcount_update "
    "AFTER UPDATE OF event_id, status, carried_from_id, paid ON seating_entry "
    "WHEN OLD.event_id IS NOT NEW.event_id OR OLD.status IS NOT NEW.status "
    "OR OLD.carried_from_id IS NOT NEW.carried_from_id OR OLD.paid IS NOT NEW.paid "
    f"BEGIN {SQLITE_TAKE} {SQLITE_ADD} END",
]
SQLITE_DROP = [
    "DROP TRIGGER IF EXISTS results_fieldcount_insert",
    "DROP TRIGGER IF EXISTS results_fieldcount_delete",
    "DROP TRIGGER IF EXISTS results_fieldcount_update",
]

POSTGRES = [
    """
    CREATE FUNCTION results_fieldcount_entry() RETURNS trigger AS $$
    BEGIN
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
            UPDATE results_fieldcount SET
                entries = entries - 1,
                carried = carried - (OLD.carried_from_id IS NOT NULL)::int,
                active = active - (OLD.status = 'active')::int,
                paid_cents = paid_cents - round(OLD.paid * 100)::bigint
            WHERE event_id = OLD.event_id;
        END IF;
        IF TG_OP IN ('UPDATE', 'INSERT') THEN
            INSERT INTO results_fieldcount AS c (event_id, entries, carried, active, paid_cents)
            VALUES (
                NEW.event_id, 1, (NEW.carried_from_id IS NOT NULL)::int,
                (NEW.status = 'active')::int, round(NEW.paid * 100)::bigint
            )
            ON CONFLICT (event_id) DO UPDATE SET
                entries = c.entries + 1,
                carried = c.carried + EXCLUDED.carried,
                active = c.active + EXCLUDED.active,
                paid_cents = c.paid_cents + EXCLUDED.paid_cents;
        END IF;
        RETURN NULL;
    END
    $$ LANGUAGE plpgsql
    """,
    "CREATE TRIGGER results_fieldcount_insert AFTER INSERT ON seating_entry "
    "FOR EACH ROW EXECUTE FUNCTION results_fieldcount_entry()",
    "CREATE TRIGGER results_fieldcount_delete AFTER DELETE ON seating_entry "
    "FOR EACH ROW EXECUTE FUNCTION results_fieldcount_entry()",
    "CREATE TRIGGER results_fieldcount_update "
    "AFTER UPDATE OF event_id, status, carried_from_id, paid ON seating_entry "
    "FOR EACH ROW WHEN ("
    "OLD.event_id IS DISTINCT FROM NEW.event_id OR OLD.status IS DISTINCT FROM NEW.status "
    "OR OLD.carried_from_id IS DISTINCT FROM NEW.carried_from_id "
    "OR OLD.paid IS DISTINCT FROM NEW.paid) "
    "EXECUTE FUNCTION results_fieldcount_entry()",
]
POSTGRES_DROP = [
    "DROP TRIGGER IF EXISTS results_fieldcount_insert ON seating_entry",
    "DROP TRIGGER IF EXISTS results_fieldcount_delete ON seating_entry",
    "DROP TRIGGER IF EXISTS results_fieldcount_update ON seating_entry",
    "DROP FUNCTION IF EXISTS results_fieldcount_entry()",
]

FILL = (
    "INSERT INTO results_fieldcount (event_id, entries, carried, active, paid_cents) "
    "SELECT event_id, COUNT(*), COUNT(carried_from_id), "
    "SUM(CASE WHEN status = 'active' THEN 1 ELSE 0 END), "
    "SUM(CAST(ROUND(paid * 100) AS BIGINT)) FROM seating_entry GROUP BY event_id"
)


def _statements(connection, create: bool) -> list[str]:
    if connection.vendor == "postgresql":
        return POSTGRES if create else POSTGRES_DROP
    if connection.vendor == "sqlite":
        return SQLITE if create else SQLITE_DROP
    raise NotImplementedError(f"no field count triggers for {connection.vendor}")


def create_triggers(apps, schema_editor) -> None:
    for sql in _statements(schema_editor.connection, create=True):
        schema_editor.execute(sql)
    schema_editor.execute("DELETE FROM results_fieldcount")
    schema_editor.execute(FILL)


def drop_triggers(apps, schema_editor) -> None:
    for sql in _statements(schema_editor.connection, create=False):
        schema_editor.execute(sql)


class Migration(migrations.Migration):
    dependencies = [
        ("results", "0004_bounty"),
        ("seating", "0013_entry_field"),
    ]

    operations = [
        migrations.CreateModel(
            name="FieldCount",
            fields=[
                ("event_id", models.BigIntegerField(primary_key=True, serialize=False)),
                ("entries", models.BigIntegerField(default=0)),
                ("carried", models.BigIntegerField(default=0)),
                ("active", models.BigIntegerField(default=0)),
                ("paid_cents", models.BigIntegerField(default=0)),
            ],
        ),
        migrations.RunPython(create_triggers, drop_triggers),
    ]
