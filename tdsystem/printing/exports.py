"""Results out of the room: the files a ranking site takes, and a generic CSV and JSON.

No description of The Hendon Mob's results file is public (rooms send theirs to its
results team, and the tournament programs that write one do not publish it): the columns
of `HENDON_MOB` are our choice, documented with their meaning in docs/printing.md, where
a test reads them back (tests/services/test_printing_exports.py). They are what such a
listing shows: the event (its name, date, buy-in and fee, entries, prize pool), then one
row a paid place (place, first and last name, country, prize).

A player's name is one field here; a ranking site wants two, so the last word is the last
name and the rest the first name ("Ann Marie Lee": "Ann Marie", "Lee"); a name of one word
(or written without spaces, as Japanese names often are) is all last name. The country is
the one the desk recorded at registration, empty where it did not: its English name in the
ranking site's file ("Japan"), its ISO 3166 code in the generic files ("JP").
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from decimal import Decimal

from django.utils import timezone, translation
from django_countries.fields import Country

from tdsystem.core import csv as export_csv
from tdsystem.events.models import Event
from tdsystem.results.models import Finish
from tdsystem.results.selectors import money, prizes_now

HENDON_MOB = [
    "Event",
    "Date",
    "Buy-in",
    "Fee",
    "Entries",
    "Prize pool",
    "Place",
    "First name",
    "Last name",
    "Country",
    "Prize",
]
GENERIC = [
    "event",
    "date",
    "buy_in",
    "fee",
    "entries",
    "prize_pool",
    "places_paid",
    "place",
    "place_to",
    "player",
    "entry",
    "country",
    "prize",
]


@dataclass(frozen=True)
class Row:
    place: int
    place_to: int
    player: str
    entry: int
    prize: Decimal
    country: str  # ISO 3166 code, "" when not known

    @property
    def country_name(self) -> str:
        """The country's English name, whatever the reader's language."""
        if not self.country:
            return ""
        with translation.override("en"):
            return str(Country(self.country).name)


def names(name: str) -> tuple[str, str]:
    """(first name, last name): the last word is the last name."""
    first, _, last = name.strip().rpartition(" ")
    return first, last


def metadata(event: Event) -> dict:
    prizes = prizes_now(event)
    started = event.scheduled_start or event.created_at
    return {
        "event": event.name,
        "date": timezone.localtime(started).date().isoformat(),
        "buy_in": money(event.buy_in),
        "fee": money(event.fee),
        "entries": prizes.entries,
        "prize_pool": money(prizes.pool),
        "places_paid": prizes.paid,
    }


def rows(event: Event) -> list[Row]:
    """Every standing finish, best place first."""
    found = (
        Finish.objects.filter(event=event, undone_at__isnull=True)
        .order_by("place", "slot", "entry_id")
        .values_list(
            "place",
            "place_to",
            "entry__player__name",
            "entry__number",
            "prize",
            "entry__player__country",
        )
    )
    return [Row(*values) for values in found]


def hendon_mob_csv(event: Event) -> str:
    head = metadata(event)
    out = io.StringIO()
    writer = export_csv.writer(out)
    writer.writerow(HENDON_MOB)
    for row in rows(event):
        if row.prize <= 0:
            continue
        first, last = names(row.player)
        writer.writerow(
            [
                head["event"],
                head["date"],
                head["buy_in"],
                head["fee"],
                head["entries"],
                head["prize_pool"],
                row.place,
                first,
                last,
                row.country_name,
                money(row.prize),
            ]
        )
    return out.getvalue()


def generic_csv(event: Event) -> str:
    head = metadata(event)
    out = io.StringIO()
    writer = export_csv.writer(out)
    writer.writerow(GENERIC)
    for row in rows(event):
        writer.writerow(
            [
                *head.values(),
                row.place,
                row.place_to,
                row.player,
                row.entry,
                row.country,
                money(row.prize),
            ]
        )
    return out.getvalue()


def generic_json(event: Event) -> dict:
    return {
        **metadata(event),
        "results": [
            {
                "place": row.place,
                "place_to": row.place_to,
                "player": row.player,
                "entry": row.entry,
                "country": row.country or None,
                "prize": money(row.prize),
            }
            for row in rows(event)
        ],
    }
