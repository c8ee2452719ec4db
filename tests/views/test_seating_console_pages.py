"""The seating console at a big field: pages of table cards, jumps to a table, bad input,
and reads bounded by the page, not by the field."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tdsystem.seating.models import Entry
from tdsystem.seating.selectors import CONSOLE_TABLES
from tdsystem.simulation.seatings import arrange, field
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def url(event, query: str = "") -> str:
    return f"/console/events/{event.pk}/seating/{query}"


def cards(html: str) -> list[int]:
    return [int(n) for n in re.findall(r'<article class="tcard[^"]*" id="table-(\d+)"', html)]


@pytest.fixture
def big(db):
    """45 tables of 9 in play (400 players): two pages of cards, 36 and 9."""
    event = make_event(600, 600, name="Big field")
    field(event, players=400, tables=45)
    return event


def test_a_small_event_shows_every_table_without_pages(client, event, director):
    arrange(event, {1: [1, 2, 3], 2: [1, 2, 3], 3: [1, 2]})
    client.force_login(director)
    html = client.get(url(event)).content.decode()
    assert cards(html) == [1, 2, 3]
    assert "Go to table" not in html and 'class="pager"' not in html
    assert "Breaks next:" not in html and "breaks next" in html  # the badge on table 3


def test_a_big_field_shows_one_page_of_cards_with_the_page_navigation(client, big, director):
    client.force_login(director)
    html = client.get(url(big)).content.decode()
    assert CONSOLE_TABLES == 36
    assert cards(html) == list(range(1, 37))
    assert "Tables 1–36 · page 1 of 2" in html and "Go to table" in html
    assert f'hx-push-url="{url(big)}?tables=2"' in html
    assert '<div class="stat"><span class="label">Tables</span><span class="value">45<' in html

    second = client.get(url(big, "?part=tables&tables=2"), **HTMX)
    body = second.content.decode()
    assert second.status_code == 200 and "<html" not in body and 'id="tables"' in body
    assert cards(body) == list(range(37, 46))
    assert "Tables 37–45 · page 2 of 2" in body
    # The grid refreshes itself on the page it shows.
    assert f'hx-get="{url(big)}?part=tables&amp;tables=2"' in body
    # Without HTMX the same address opens the whole console on that page.
    assert cards(client.get(url(big, "?tables=2")).content.decode()) == list(range(37, 46))


def test_it_jumps_to_the_page_holding_a_table_and_marks_it(client, big, director):
    client.force_login(director)
    response = client.get(url(big, "?part=tables&tables=1&table=40"), **HTMX)
    html = response.content.decode()
    assert cards(html) == list(range(37, 46))
    assert re.search(r'class="tcard[^"]* marked" id="table-40" aria-current="true"', html)
    assert response["HX-Push-Url"] == url(big, "?table=40")
    # The grid refreshes with the table still marked, and does not add to the history.
    assert f'hx-get="{url(big)}?part=tables&amp;tables=2&amp;mark=40"' in html
    refresh = client.get(
        url(big, "?part=tables&tables=2&mark=40"), HTTP_HX_TRIGGER="tables", **HTMX
    )
    assert "HX-Push-Url" not in refresh and ' marked" id="table-40"' in refresh.content.decode()
    # A mark off the page shown is dropped without a word (that table broke, say).
    gone = client.get(url(big, "?part=tables&tables=1&mark=40"), **HTMX).content.decode()
    assert " marked" not in gone and "flash" not in gone and cards(gone)[0] == 1
    # A table not in play leaves the page and the mark as they were.
    refused = client.get(url(big, "?part=tables&tables=2&mark=40&table=999"), **HTMX)
    body = refused.content.decode()
    assert "Table 999 is not in play." in body and ' marked" id="table-40"' in body
    # Reloading the pushed address opens the whole console there.
    page = client.get(url(big, "?table=40")).content.decode()
    assert cards(page) == list(range(37, 46)) and ' marked" id="table-40"' in page


def test_it_links_the_table_breaking_next_and_the_tables_to_halt(client, big, director):
    table = Entry.objects.filter(event=big, table__number=5, status="active")
    for entry in list(table[:4]):
        entry.status, entry.table, entry.seat = Entry.Status.BUSTED, None, None
        entry.save()
    client.force_login(director)
    html = client.get(url(big, "?tables=2")).content.decode()
    jump = f'hx-get="{url(big)}?part=tables&amp;table=%d"'
    assert re.search(r"Breaks next: <a [^>]*>45</a>", html) and jump % 45 in html
    assert re.search(r'class="stop">Halt: <a [^>]*>5</a>', html) and jump % 5 in html
    assert re.search(r'class="warn">Short: <a [^>]*>5</a>', html)
    first = client.get(url(big, "?part=tables&table=5"), **HTMX).content.decode()
    assert re.search(r'class="tcard halt marked" id="table-5"', first)


@pytest.mark.parametrize(
    ("query", "message", "shown"),
    [
        ("?tables=abc", "“abc” is not a page number.", range(1, 37)),
        ("?tables=0", "“0” is not a page number.", range(1, 37)),
        ("?tables=999", "There is no page 999: the tables fill 2.", range(37, 46)),
        ("?tables=2&table=999", "Table 999 is not in play. Still on page 2.", range(37, 46)),
        ("?tables=2&table=x9", "“x9” is not a table number. Still on page 2.", range(37, 46)),
        ("?tables=2&table=%F0%9F%82%A1", "is not a table number. Still on page 2.", range(37, 46)),
        ("?tables=1&table=99999999999999999999", "is not a table number.", range(1, 37)),
    ],
)
def test_bad_paging_input_gets_a_message_and_changes_nothing(
    client, big, director, query, message, shown
):
    client.force_login(director)
    before = list(Entry.objects.order_by("pk").values_list("pk", "table_id", "seat", "status"))
    for answer in (
        client.get(url(big, query)),
        client.get(url(big, query + "&part=tables"), **HTMX),
    ):
        html = answer.content.decode()
        assert answer.status_code == 200 and message in html
        assert 'class="flash error" role="alert"' in html
        assert cards(html) == list(shown) and "HX-Push-Url" not in answer
    after = list(Entry.objects.order_by("pk").values_list("pk", "table_id", "seat", "status"))
    assert after == before


def test_a_small_event_says_when_the_table_asked_for_is_not_in_play(client, event, director):
    arrange(event, {1: [1, 2, 3], 2: [1, 2, 3]})
    client.force_login(director)
    html = client.get(url(event, "?table=7")).content.decode()
    assert "Table 7 is not in play." in html and cards(html) == [1, 2]
    assert "Still on page" not in html


def test_the_players_panel_links_to_their_table(client, big, director):
    entry = Entry.objects.filter(event=big, table__number=44).select_related("table").first()
    client.force_login(director)
    panel = client.get(url(big, f"entries/{entry.pk}/"), **HTMX).content.decode()
    assert f'hx-get="{url(big)}?part=tables&amp;table=44"' in panel and "show table" in panel
    search = client.get(url(big, f"search?q={entry.number}"), **HTMX).content.decode()
    assert f"T44 S{entry.seat}" in search


def _rows(captured) -> list[int]:
    """The number of rows each captured SELECT returns (run again)."""
    counts = []
    with connection.cursor() as cursor:
        for query in captured.captured_queries:
            if query["sql"].lstrip().upper().startswith("SELECT"):
                cursor.execute(query["sql"])
                counts.append(len(cursor.fetchall()))
    return counts


def test_the_console_reads_the_page_not_the_field(client, director):
    """At 1,000 players (112 tables) the page reads one row a table for the field's
    figures and the seats of its own 36 tables: no query returns the field's players."""
    client.force_login(director)

    def measure(players: int, tables: int, first: int, query: str = "") -> tuple[int, list[int]]:
        event = make_event(600, name=f"{players} players")
        field(event, players=players, tables=tables, first=first)
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url(event, query)).status_code == 200
        return len(captured), _rows(captured)

    small_queries, _ = measure(40, 5, first=1)
    queries, rows = measure(1_000, 112, first=101)
    assert queries == small_queries
    seats = CONSOLE_TABLES * 9
    # The largest read is the page's players (324), then the 112 tables' tallies.
    assert max(rows) <= seats and sum(rows) < 112 + CONSOLE_TABLES + seats + 20
    later_queries, later_rows = measure(1_000, 112, first=301, query="?tables=4")
    assert later_queries == small_queries and max(later_rows) <= seats


def test_the_status_and_slips_refresh_without_reading_every_seat(
    client, director, django_assert_max_num_queries
):
    """The status card and the slips poll all day: they read the tables' tallies (112
    rows), no seats; the grid reads its page's seats (36 tables of 9), no more."""
    event = make_event(600, name="Status")
    field(event, players=1_000, tables=112)
    client.force_login(director)
    for part, most in (("status", 112), ("slips", 112), ("tables", CONSOLE_TABLES * 9)):
        with django_assert_max_num_queries(12), CaptureQueriesContext(connection) as captured:
            response = client.get(url(event, f"?part={part}"), **HTMX)
        assert response.status_code == 200
        assert max(_rows(captured)) <= most, part
