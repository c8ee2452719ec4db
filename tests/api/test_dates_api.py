"""Dates and times in API bodies: ISO 8601 text from 2000-01-01 to 2100-12-31 in the
installation's time zone (tdsystem.core.moments), anything else a 400 naming the field
that changes nothing; and the reference says the range of each. Run on SQLite and on
PostgreSQL (which stored the year 10000 and then failed to read it back)."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from django.test import override_settings

from tdsystem.core.moments import FIRST_DAY, LAST_DAY
from tdsystem.events.models import Event
from tests.api.test_openapi import document, operations
from tests.services.test_flights import festival

pytestmark = pytest.mark.django_db

RANGE = "choose a date and time from 2000-01-01 00:00 to 2100-12-31 23:59 (time zone {zone})"
NOT_TEXT = "a number is not a date and time: send ISO 8601 text such as 2026-06-01T18:00:00+02:00"
NOT_ISO = "not a date and time in ISO 8601, such as 2026-06-01T18:00:00+02:00"


def add_flight(client, token: str, event: Event, start) -> tuple[int, dict]:
    response = client.post(
        f"/api/events/{event.pk}/flights",
        json.dumps({"name": "Z3", "scheduled_start": start}),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )
    return response.status_code, response.json()


@pytest.mark.parametrize(
    ("zone", "start", "message"),
    [
        # The tester's body: the year 10000 in UTC, a 500 that saved the flight on PostgreSQL.
        ("UTC", "9999-12-31T23:59:59-14:00", RANGE),
        ("America/New_York", "9999-12-31T23:59", RANGE),
        ("America/New_York", "0001-01-01T00:00:00Z", RANGE),
        ("UTC", "1999-12-31T23:59:59Z", RANGE),
        ("UTC", "2100-12-31T23:59:59-00:01", RANGE),
        ("America/New_York", "2000-01-01T03:00:00Z", RANGE),  # 1999 in New York
        ("UTC", "10000-01-01T00:00:00Z", NOT_ISO),
        ("UTC", "2026-02-30T18:00:00Z", NOT_ISO),
        ("UTC", "tomorrow at six", NOT_ISO),
        ("UTC", "", NOT_ISO),
        ("UTC", "0", NOT_ISO),
        ("UTC", "1767225600", NOT_ISO),
        ("UTC", True, NOT_ISO),
        ("UTC", ["2026-06-01T18:00:00Z"], NOT_ISO),
        ("UTC", {"date": "2026-06-01"}, NOT_ISO),
        # A number would be read as seconds since 1970: 0 saved a start in 1970.
        ("UTC", 0, NOT_TEXT),
        ("UTC", 1767225600, NOT_TEXT),
        ("UTC", 1.5, NOT_TEXT),
        ("UTC", 10**30, NOT_TEXT),
    ],
)
def test_a_flight_start_out_of_range_or_not_a_date_is_a_400_naming_it(
    client, director_token, zone, start, message
):
    main, _ = festival("1A")
    before = Event.objects.count()
    with override_settings(TIME_ZONE=zone):
        status, body = add_flight(client, director_token, main, start)
    assert status == 400
    assert body == {
        "error": "scheduled_start: " + message.format(zone=zone),
        "field": "scheduled_start",
    }
    assert Event.objects.count() == before
    assert client.get(f"/api/events/{main.pk}/flights").status_code == 200


@pytest.mark.parametrize(
    ("zone", "start", "stored"),
    [
        ("UTC", "2000-01-01T00:00:00Z", datetime(2000, 1, 1, tzinfo=UTC)),
        (
            "UTC",
            "2100-12-31T23:59:59.999999+00:00",
            datetime(2100, 12, 31, 23, 59, 59, 999999, UTC),
        ),
        ("America/New_York", "2100-12-31T23:59", datetime(2101, 1, 1, 4, 59, tzinfo=UTC)),
        ("America/New_York", "2026-06-01T18:00", datetime(2026, 6, 1, 22, 0, tzinfo=UTC)),
        ("Asia/Tokyo", "2026-06-01T18:00:00+02:00", datetime(2026, 6, 1, 16, 0, tzinfo=UTC)),
        ("Asia/Tokyo", "2026-06-01", datetime(2026, 5, 31, 15, 0, tzinfo=UTC)),
        ("UTC", None, None),
    ],
)
def test_a_flight_start_in_range_is_taken(client, director_token, zone, start, stored):
    """Without an offset, the installation's time zone; the ends of the range included."""
    main, _ = festival("1A")
    with override_settings(TIME_ZONE=zone):
        status, body = add_flight(client, director_token, main, start)
    assert status == 201, body
    assert Event.objects.get(pk=body["id"]).scheduled_start == stored


def test_the_reference_says_the_range_of_every_date_a_body_takes():
    doc = document()
    schemas = doc["components"]["schemas"]
    dates = []
    for path, method, op in operations(doc):
        body = op.get("requestBody", {}).get("content", {}).get("application/json", {})
        ref = body.get("schema", {}).get("$ref", "")
        if not ref:
            continue
        for name, prop in schemas[ref.rsplit("/", 1)[1]]["properties"].items():
            kinds = [prop, *prop.get("anyOf", [])]
            if any(kind.get("format") == "date-time" for kind in kinds):
                dates.append((path, method, name))
                assert (
                    f"from {FIRST_DAY.isoformat()} 00:00 to {LAST_DAY.isoformat()} 23:59"
                    in (prop["description"])
                ), (path, name)
    assert dates == [("/api/events/{event_id}/flights", "post", "scheduled_start")]
