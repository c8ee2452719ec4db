"""A digest of every finish and every move of the simulated events on a database.

    DATABASE_URL=sqlite:////tmp/run.sqlite3 python benchmarks/digest.py [--list]

Run it after `simulate_event` on the same database, before and after a change to the
bust-out path: the same tournaments give the same digest. A finish is its event, entry
number, place range, slot, prize, whether it won, and its rank in the order of bust-outs
(the group's sequence, then the entry); a move is its event, entry number, from table and
seat, to table and seat, and reason, in the order they were made. Times and database ids
are left out, as they differ from run to run. `--list` prints the lines themselves.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def lines() -> tuple[list[str], list[str]]:
    from tdsystem.results.models import Finish
    from tdsystem.seating.models import Move

    finishes = []
    standing = (
        Finish.objects.filter(undone_at__isnull=True, event__simulated=True)
        .select_related("event", "entry", "group")
        .order_by("event__name", "group__seq", "slot", "entry__number")
    )
    for order, f in enumerate(standing):
        finishes.append(
            f"{f.event.name}|{f.entry.number}|{f.place}-{f.place_to}|{f.slot}|{f.prize}|"
            f"{'W' if f.is_winner else ''}|{f.group.seq if f.group else ''}|{order}"
        )
    moves = []
    for m in (
        Move.objects.filter(event__simulated=True)
        .select_related("event", "entry")
        .order_by("event__name", "id")
    ):
        moves.append(
            f"{m.event.name}|{m.entry.number}|{m.from_table}/{m.from_seat}|"
            f"{m.to_table}/{m.to_seat}|{m.reason}"
        )
    return finishes, moves


def main(argv: list[str]) -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tdsystem.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    finishes, moves = lines()
    if "--list" in argv:
        print("\n".join(finishes + moves))
        return 0
    for name, rows in (("finishes", finishes), ("moves", moves)):
        digest = hashlib.sha256("\n".join(rows).encode()).hexdigest()
        print(f"{name}: {len(rows)} {digest}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
