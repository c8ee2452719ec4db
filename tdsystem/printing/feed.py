"""An event's public feed: what a room's website or a reporter polls (JSON with an ETag).

The level and its blinds, the players left and the average stack, the chip leaders by the
floor's latest counts, the latest eliminations and the payouts. Nothing in it changes by
itself as time passes (the level's end is a time, not a countdown), so its ETag changes
only when the event does, and a poller that sends it back (If-None-Match) is answered
304 with no body.
"""

from __future__ import annotations

import hashlib
import json

from django.core.serializers.json import DjangoJSONEncoder

from tdsystem.events.selectors import event_clock_payload
from tdsystem.results.models import ChipCount, Finish
from tdsystem.results.selectors import money
from tdsystem.seating.models import Entry

LEADERS = 10
ELIMINATIONS = 10


def feed(event_id: int) -> dict:
    """Raises Event.DoesNotExist for an unknown event."""
    clock = event_clock_payload(event_id)
    paused = clock["status"] != "running"
    leaders = (
        ChipCount.objects.filter(event_id=event_id, entry__status=Entry.Status.ACTIVE)
        .select_related("entry__player", "entry__table")
        .order_by("-chips", "counted_at")[:LEADERS]
    )
    out = (
        Finish.objects.filter(event_id=event_id, undone_at__isnull=True, is_winner=False)
        .select_related("entry__player", "bustout")
        .order_by("-bustout__recorded_at", "place", "id")[:ELIMINATIONS]
    )
    return {
        "event": clock["event"],
        "clock": {
            "status": clock["status"],
            "level": clock["level"],
            "on_break": clock["on_break"],
            "small_blind": clock["small_blind"],
            "big_blind": clock["big_blind"],
            "ante": clock["ante"],
            "level_ends_at": clock["level_ends_at"],
            # Only while stopped: a running level's time left would change every second.
            "remaining_ms": clock["remaining_ms"] if paused else None,
            "next": clock["next"],
        },
        "entries": clock.get("entries"),
        "players_left": clock.get("players_left"),
        "average_stack": clock.get("average_stack"),
        "prize_pool": clock.get("prize_pool"),
        "chip_leaders": [
            {
                "player": c.entry.player.name,
                "entry": c.entry.number,
                "chips": c.chips,
                "table": c.entry.table.number if c.entry.table_id else None,
                "counted_at": c.counted_at,
            }
            for c in leaders
        ],
        "eliminations": [
            {
                "place": f.place,
                "place_to": f.place_to,
                "player": f.entry.player.name,
                "entry": f.entry.number,
                "prize": money(f.prize),
                "at": f.bustout.recorded_at if f.bustout_id else None,
            }
            for f in out
        ],
        "payouts": clock.get("payouts", []),
    }


def body_and_etag(event_id: int) -> tuple[bytes, str]:
    body = json.dumps(feed(event_id), cls=DjangoJSONEncoder, ensure_ascii=False).encode()
    return body, '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
