"""SpreadCount: each event's tables in play by head count, kept by triggers.

A table is counted in its event's row for its number of players while it is in play and
has a player. The triggers on the head counts (`seating_tablecount`, themselves kept by
the entries' triggers of 0015) move a table from one count to the other as players sit
down and leave; the triggers on the tables take it off and put it back when it goes out
of play or comes back, changes its seats or its event, is made or deleted. Each trigger
reads the other table as it stands, so the rows stay right in whatever order a change
writes the two (an event deleted with its tables and entries among them). The rows are
then filled from the tables there are. SQLite and PostgreSQL each get their own
triggers, as the head counts do.

With them, an index of the tables in their break order, so the table that breaks next is
found without sorting every table.
"""

from django.db import migrations, models

# SQLite: a trigger has no IF, so each statement's WHERE says when it applies; a table
# that is not there or not in play matches no row.
SQLITE_TABLE = "SELECT {what} FROM seating_eventtable WHERE id = {table} AND in_play"
SQLITE_COUNT_TAKE = (
    "UPDATE seating_spreadcount SET tables = tables - 1, "
    f"seats = seats - ({SQLITE_TABLE.format(what='seats', table='OLD.table_id')}) "
    "WHERE players = OLD.players "
    f"AND event_id = ({SQLITE_TABLE.format(what='event_id', table='OLD.table_id')});"
)
SQLITE_COUNT_ADD = (
    "INSERT OR IGNORE INTO seating_spreadcount (event_id, players, tables, seats) "
    f"{SQLITE_TABLE.format(what='event_id, NEW.players, 0, 0', table='NEW.table_id')} "
    "AND NEW.players > 0; "
    "UPDATE seating_spreadcount SET tables = tables + 1, "
    f"seats = seats + ({SQLITE_TABLE.format(what='seats', table='NEW.table_id')}) "
    "WHERE players = NEW.players AND NEW.players > 0 "
    f"AND event_id = ({SQLITE_TABLE.format(what='event_id', table='NEW.table_id')});"
)
SQLITE_PLAYERS = "(SELECT players FROM seating_tablecount WHERE table_id = {table})"
SQLITE_TABLE_TAKE = (
    "UPDATE seating_spreadcount SET tables = tables - 1, seats = seats - OLD.seats "
    "WHERE OLD.in_play AND event_id = OLD.event_id "
    f"AND players = {SQLITE_PLAYERS.format(table='OLD.id')};"
)
SQLITE_TABLE_ADD = (
    "INSERT OR IGNORE INTO seating_spreadcount (event_id, players, tables, seats) "
    "SELECT NEW.event_id, players, 0, 0 FROM seating_tablecount "
    "WHERE table_id = NEW.id AND players > 0 AND NEW.in_play; "
    "UPDATE seating_spreadcount SET tables = tables + 1, seats = seats + NEW.seats "
    "WHERE NEW.in_play AND event_id = NEW.event_id AND players > 0 "
    f"AND players = {SQLITE_PLAYERS.format(table='NEW.id')};"
)
SQLITE = [
    "CREATE TRIGGER seating_spreadcount_count_insert AFTER INSERT ON seating_tablecount "
    f"WHEN NEW.players > 0 BEGIN {SQLITE_COUNT_ADD} END",
    "CREATE TRIGGER seating_spreadcount_count_update AFTER UPDATE OF players "
    "ON seating_tablecount WHEN OLD.players IS NOT NEW.players "
    f"BEGIN {SQLITE_COUNT_TAKE} {SQLITE_COUNT_ADD} END",
    "CREATE TRIGGER seating_spreadcount_table_insert AFTER INSERT ON seating_eventtable "
    f"BEGIN {SQLITE_TABLE_ADD} END",
    "CREATE TRIGGER seating_spreadcount_table_delete AFTER DELETE ON seating_eventtable "
    f"BEGIN {SQLITE_TABLE_TAKE} END",
    "CREATE TRIGGER seating_spreadcount_table_update "
    "AFTER UPDATE OF in_play, seats, event_id ON seating_eventtable "
    "WHEN OLD.in_play IS NOT NEW.in_play OR OLD.seats IS NOT NEW.seats "
    "OR OLD.event_id IS NOT NEW.event_id "
    f"BEGIN {SQLITE_TABLE_TAKE} {SQLITE_TABLE_ADD} END",
]
SQLITE_DROP = [
    f"DROP TRIGGER IF EXISTS seating_spreadcount_{name}"
    for name in ("count_insert", "count_update", "table_insert", "table_delete", "table_update")
]

POSTGRES = [
    # One function moves a table between its event's counts: off the one it was
    # counted in, onto the one it is counted in now (either may be none).
    """
    CREATE FUNCTION seating_spreadcount_move(
        old_event bigint, old_players integer, old_seats integer,
        new_event bigint, new_players integer, new_seats integer
    ) RETURNS void AS $$
    BEGIN
        IF old_event IS NOT NULL AND old_players > 0 THEN
            UPDATE seating_spreadcount SET tables = tables - 1, seats = seats - old_seats
            WHERE event_id = old_event AND players = old_players;
        END IF;
        IF new_event IS NOT NULL AND new_players > 0 THEN
            INSERT INTO seating_spreadcount AS s (event_id, players, tables, seats)
            VALUES (new_event, new_players, 1, new_seats)
            ON CONFLICT (event_id, players) DO UPDATE SET
                tables = s.tables + 1, seats = s.seats + EXCLUDED.seats;
        END IF;
    END
    $$ LANGUAGE plpgsql
    """,
    """
    CREATE FUNCTION seating_spreadcount_count() RETURNS trigger AS $$
    DECLARE
        t record;
    BEGIN
        SELECT event_id, seats INTO t FROM seating_eventtable
        WHERE id = NEW.table_id AND in_play;
        IF FOUND THEN
            PERFORM seating_spreadcount_move(
                t.event_id, CASE WHEN TG_OP = 'UPDATE' THEN OLD.players ELSE 0 END, t.seats,
                t.event_id, NEW.players, t.seats
            );
        END IF;
        RETURN NULL;
    END
    $$ LANGUAGE plpgsql
    """,
    """
    CREATE FUNCTION seating_spreadcount_table() RETURNS trigger AS $$
    DECLARE
        old_players integer := 0;
        new_players integer := 0;
    BEGIN
        IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.in_play THEN
            SELECT players INTO old_players FROM seating_tablecount WHERE table_id = OLD.id;
            PERFORM seating_spreadcount_move(
                OLD.event_id, COALESCE(old_players, 0), OLD.seats, NULL, 0, 0
            );
        END IF;
        IF TG_OP IN ('UPDATE', 'INSERT') AND NEW.in_play THEN
            SELECT players INTO new_players FROM seating_tablecount WHERE table_id = NEW.id;
            PERFORM seating_spreadcount_move(
                NULL, 0, 0, NEW.event_id, COALESCE(new_players, 0), NEW.seats
            );
        END IF;
        RETURN NULL;
    END
    $$ LANGUAGE plpgsql
    """,
    "CREATE TRIGGER seating_spreadcount_count_insert AFTER INSERT ON seating_tablecount "
    "FOR EACH ROW WHEN (NEW.players > 0) EXECUTE FUNCTION seating_spreadcount_count()",
    "CREATE TRIGGER seating_spreadcount_count_update AFTER UPDATE OF players "
    "ON seating_tablecount FOR EACH ROW WHEN (OLD.players IS DISTINCT FROM NEW.players) "
    "EXECUTE FUNCTION seating_spreadcount_count()",
    "CREATE TRIGGER seating_spreadcount_table_insert AFTER INSERT ON seating_eventtable "
    "FOR EACH ROW EXECUTE FUNCTION seating_spreadcount_table()",
    "CREATE TRIGGER seating_spreadcount_table_delete AFTER DELETE ON seating_eventtable "
    "FOR EACH ROW EXECUTE FUNCTION seating_spreadcount_table()",
    "CREATE TRIGGER seating_spreadcount_table_update "
    "AFTER UPDATE OF in_play, seats, event_id ON seating_eventtable FOR EACH ROW WHEN ("
    "OLD.in_play IS DISTINCT FROM NEW.in_play OR OLD.seats IS DISTINCT FROM NEW.seats "
    "OR OLD.event_id IS DISTINCT FROM NEW.event_id) "
    "EXECUTE FUNCTION seating_spreadcount_table()",
]
POSTGRES_DROP = [
    "DROP TRIGGER IF EXISTS seating_spreadcount_count_insert ON seating_tablecount",
    "DROP TRIGGER IF EXISTS seating_spreadcount_count_update ON seating_tablecount",
    "DROP TRIGGER IF EXISTS seating_spreadcount_table_insert ON seating_eventtable",
    "DROP TRIGGER IF EXISTS seating_spreadcount_table_delete ON seating_eventtable",
    "DROP TRIGGER IF EXISTS seating_spreadcount_table_update ON seating_eventtable",
    "DROP FUNCTION IF EXISTS seating_spreadcount_count()",
    "DROP FUNCTION IF EXISTS seating_spreadcount_table()",
    "DROP FUNCTION IF EXISTS seating_spreadcount_move(bigint, integer, integer, bigint, "
    "integer, integer)",
]

FILL = (
    "INSERT INTO seating_spreadcount (event_id, players, tables, seats) "
    "SELECT t.event_id, c.players, COUNT(*), SUM(t.seats) "
    "FROM seating_eventtable t JOIN seating_tablecount c ON c.table_id = t.id "
    "WHERE t.in_play AND c.players > 0 GROUP BY t.event_id, c.players"
)


def _statements(connection, create: bool) -> list[str]:
    if connection.vendor == "postgresql":
        return POSTGRES if create else POSTGRES_DROP
    if connection.vendor == "sqlite":
        return SQLITE if create else SQLITE_DROP
    raise NotImplementedError(f"no spread count triggers for {connection.vendor}")


def create_triggers(apps, schema_editor) -> None:
    for sql in _statements(schema_editor.connection, create=True):
        schema_editor.execute(sql)
    schema_editor.execute("DELETE FROM seating_spreadcount")
    schema_editor.execute(FILL)


def drop_triggers(apps, schema_editor) -> None:
    for sql in _statements(schema_editor.connection, create=False):
        schema_editor.execute(sql)


class Migration(migrations.Migration):
    dependencies = [
        ("events", "0011_festivals"),
        ("seating", "0015_table_count"),
    ]

    operations = [
        migrations.CreateModel(
            name="SpreadCount",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("event_id", models.BigIntegerField()),
                ("players", models.IntegerField()),
                ("tables", models.IntegerField(default=0)),
                ("seats", models.IntegerField(default=0)),
            ],
        ),
        migrations.AddIndex(
            model_name="eventtable",
            index=models.Index(
                fields=["event", "in_play", "break_rank", "-number"],
                name="event_table_break_order",
            ),
        ),
        migrations.AddConstraint(
            model_name="spreadcount",
            constraint=models.UniqueConstraint(
                fields=("event_id", "players"), name="spread_count_unique"
            ),
        ),
        migrations.RunPython(create_triggers, drop_triggers),
    ]
