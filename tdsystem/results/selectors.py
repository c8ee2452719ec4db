"""Read models: the console's overview, recent bust-outs, hand-for-hand, the results.

Each costs a fixed number of queries whatever the size of the field.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import Count, Exists, OuterRef, Prefetch, Q, Sum
from django.utils.translation import gettext

from tdsystem.core.numbers import grouped
from tdsystem.engine import payouts as rules
from tdsystem.events.models import Event
from tdsystem.events.selectors import field_figures
from tdsystem.seating.models import Bag, Entry, EventTable, Move, Purchase

from .errors import ResultsError
from .models import (
    Bounty,
    BustOut,
    ChipCount,
    ChipCountHistory,
    Finish,
    HandForHand,
    HandForHandHand,
    PayoutPlan,
)
from .services import standings
from .services.bounties import heads as bounty_heads

NEXT_PLACES = 5


@dataclass(frozen=True)
class Prizes:
    """The prize of each paid place for the field as it is now (or why there is none)."""

    by_place: tuple[Decimal, ...]
    entries: int
    pool: Decimal
    error: str | None = None

    @property
    def paid(self) -> int:
        return len(self.by_place)

    def of(self, place: int) -> Decimal:
        return self.by_place[place - 1] if 0 < place <= len(self.by_place) else Decimal(0)


def places_of(event: Event, entry_ids: list[int]) -> dict[int, int]:
    """Where these entries finished (the first place of a tie), for those out: their
    standing finish. The seat pages ask it (`seating.signals.places_asked`), the API too."""
    finishes = Finish.objects.filter(event=event, entry_id__in=entry_ids, undone_at__isnull=True)
    return dict(finishes.values_list("entry_id", "place"))


def prizes_now(event: Event, plan: PayoutPlan | None = None) -> Prizes:
    fld = standings.field_read(event)
    plan = plan or standings.plan_or_default(event)
    try:
        return Prizes(standings.prizes_by_place(plan, fld.entries, fld.pool), fld.entries, fld.pool)
    except ResultsError as exc:
        return Prizes((), fld.entries, fld.pool, str(exc))


def fees_total(event: Event) -> Decimal:
    """The fees of every purchase (entries, re-entries, rebuys, add-ons): the house's, not
    the prize pool's."""
    total = Purchase.objects.filter(event=event).aggregate(fees=Sum("fee"))["fees"]
    return total or Decimal(0)


@dataclass(frozen=True)
class HandForHandStatus:
    active: bool
    hand: int = 0
    minutes: int = 2
    reported: list[int] = field(default_factory=list)
    waiting: list[int] = field(default_factory=list)
    last_charged: int | None = None  # seconds the last completed hand took off the clock
    # (table, hands it has finished) for each waiting table: its "done" button sends the count
    waiting_hands: list[tuple[int, int]] = field(default_factory=list)

    @property
    def tables(self) -> int:
        return len(self.reported) + len(self.waiting)

    @property
    def deal_now(self) -> bool:
        """Every table finished the last hand and none has finished this one yet."""
        return self.active and not self.reported


def hand_for_hand(event: Event) -> HandForHandStatus:
    from .services.handforhand import playing_table_hands

    hfh = HandForHand.objects.filter(event=event).first()
    if hfh is None or not hfh.active:
        # The next run starts with the rule set's minutes (the form may change them).
        return HandForHandStatus(False, minutes=event.rules.hfh_minutes_per_hand)
    hands = list(
        HandForHandHand.objects.filter(event=event, number__in=(hfh.hand, hfh.hand - 1))
        .prefetch_related("reports")
        .order_by("number")
    )
    current = next((h for h in hands if h.number == hfh.hand), None)
    before = next((h for h in hands if h.number == hfh.hand - 1), None)
    reported = sorted(r.table_number for r in current.reports.all()) if current else []
    playing = playing_table_hands(event)
    waiting = [n for n in playing if n not in reported]
    return HandForHandStatus(
        True,
        hfh.hand,
        hfh.minutes_per_hand,
        reported,
        waiting,
        before.charged_seconds if before and before.completed_at else None,
        [(n, playing[n]) for n in waiting],
    )


@dataclass(frozen=True)
class Overview:
    entries: int
    players_left: int
    average_stack: int | None
    prize_pool: Decimal
    paid: int
    to_the_money: int  # players still to bust before the money (0: in the money)
    next_places: list[tuple[int, Decimal]]
    chip_leader: ChipCount | None
    counted: int
    hfh: HandForHandStatus
    winner: Finish | None
    unrecorded: int  # the event's busted entries without a finish (eliminated elsewhere)
    payout_error: str | None
    # Day 2 of an event played in flights: the flights' bags the bag rule dropped (a player
    # who bagged twice plays one), which are no bust-out.
    dropped: list[DroppedBag] = field(default_factory=list)

    @property
    def bubble(self) -> str:
        if self.winner:
            return gettext("The event is over")
        if not self.paid:
            return gettext("No payouts set")
        if self.to_the_money > 1:
            return gettext("%(count)s players to the money") % {"count": self.to_the_money}
        if self.to_the_money == 1:
            return gettext("On the bubble: the next player out wins nothing")
        return gettext("In the money")


@dataclass(frozen=True)
class DroppedBag:
    name: str
    number: str
    flight: str
    chips: int


def dropped_bags(event: Event) -> list[DroppedBag]:
    """The flights' bags Day 2 does not play on (their players play another flight's bag):
    the flights' entries through to Day 2 that no Day 2 entry carries. One query."""
    if event.parent_id is not None or event.day < 2:
        return []
    rows = (
        Bag.objects.filter(
            event__parent=event, day=1, entry__status=Entry.Status.CARRIED, entry__carried_to=None
        )
        .order_by("entry__player__name", "number")
        .values_list("entry__player__name", "number", "event__flight", "chips")
    )
    return [DroppedBag(*row) for row in rows]


def unrecorded_outs(event: Event, entries: int, left: int, finishes: int) -> int:
    """The event's own entries out with no standing finish: gone without a bust-out
    recorded here. A flight's players through to Day 2 are not out, nor are the bags Day 2
    dropped (their players play on), nor a flight's players out there: for a flight and a
    later day, the entries out are counted (one query); otherwise the field's figures
    (`entries` and `left`) less the standing finishes of players out (`finishes`) say it."""
    if event.parent_id is None and event.day < 2:
        return max(0, entries - left - finishes)
    standing = Finish.objects.filter(entry=OuterRef("pk"), undone_at__isnull=True)
    return (
        Entry.objects.filter(event=event, status=Entry.Status.BUSTED)
        .exclude(Exists(standing))
        .count()
    )


def overview(event: Event) -> Overview:
    figures = field_figures(event)
    prizes = prizes_now(event)
    left = figures["players_left"]
    paid_places = [p for p in range(min(left, prizes.paid), 0, -1)][:NEXT_PLACES]
    counts = ChipCount.objects.filter(event=event, entry__status=Entry.Status.ACTIVE)
    leader = counts.select_related("entry__player", "entry__table").order_by("-chips").first()
    finishes = Finish.objects.filter(event=event, undone_at__isnull=True).aggregate(
        n=Count("id"), won=Count("id", filter=Q(is_winner=True))
    )
    winner = None
    if finishes["won"]:
        winner = (
            Finish.objects.filter(event=event, undone_at__isnull=True, is_winner=True)
            .select_related("entry__player")
            .first()
        )
    return Overview(
        entries=figures["entries"],
        players_left=left,
        average_stack=figures["average_stack"],
        prize_pool=prizes.pool,
        paid=prizes.paid,
        to_the_money=max(0, left - prizes.paid) if prizes.paid else 0,
        next_places=[(p, prizes.of(p)) for p in paid_places],
        chip_leader=leader,
        counted=counts.count(),
        hfh=hand_for_hand(event),
        winner=winner,
        unrecorded=unrecorded_outs(
            event, figures["entries"], left, finishes["n"] - finishes["won"]
        ),
        payout_error=prizes.error,
        dropped=dropped_bags(event),
    )


def chip_history(
    event: Event, entry_number: int | None = None, limit: int = 10
) -> list[ChipCountHistory]:
    """The newest chip counts entered (of one entry, when given), with who and when."""
    rows = ChipCountHistory.objects.filter(event=event).select_related("entry__player")
    if entry_number is not None:
        rows = rows.filter(entry__number=entry_number)
    return list(rows.order_by("-counted_at", "-id")[:limit])


def recent_bustouts(event: Event, limit: int = 12) -> list[BustOut]:
    finishes = Finish.objects.select_related("entry__player", "from_table").order_by("place")
    moves = Move.objects.select_related("entry__player", "acknowledged_by").order_by("pk")
    return list(
        BustOut.objects.filter(event=event)
        .select_related("group")
        .prefetch_related(Prefetch("finishes", queryset=finishes), Prefetch("moves", moves))
        .order_by("-recorded_at", "-id")[:limit]
    )


def tables_in_play(event: Event) -> list[tuple[int, int]]:
    """(table number, players) of the tables with someone seated."""
    rows = (
        EventTable.objects.filter(event=event, in_play=True)
        .annotate(n=Count("entries", filter=Q(entries__status=Entry.Status.ACTIVE)))
        .filter(n__gt=0)
        .order_by("number")
        .values_list("number", "n")
    )
    return list(rows)


def table_players(event: Event, number: int) -> list[Entry]:
    return list(
        Entry.objects.filter(event=event, status=Entry.Status.ACTIVE, table__number=number)
        .filter(table__in_play=True)
        .select_related("player", "table")
        .order_by("seat")
    )


@dataclass(frozen=True)
class ResultRow:
    place: int
    place_to: int
    label: str
    name: str
    entry: int
    prize: Decimal
    bounty: Decimal = Decimal(0)  # bounties won (the winner's own head included)
    paid: bool = False  # the cashier marked the prize paid


def result_rows(event: Event, bounties: BountyTotals | None = None) -> list[ResultRow]:
    """The places so far; `bounties`, when the caller has read them already, is reused."""
    rows = (
        Finish.objects.filter(event=event, undone_at__isnull=True)
        .order_by("place", "slot", "entry_id")
        .values_list(
            "place",
            "place_to",
            "entry__player__name",
            "entry__number",
            "prize",
            "entry_id",
            "paid_at",
        )
    )
    if bounties is None and event.has_bounties:
        bounties = bounty_totals(event)
    won = bounties.won if bounties is not None else {}
    return [
        ResultRow(
            place,
            to,
            rules.place_label(place, to),
            name,
            number,
            prize,
            won.get(pk, Decimal(0)),
            paid_at is not None,
        )
        for place, to, name, number, prize, pk, paid_at in rows
    ]


def prizes_to_pay(event: Event) -> list[Finish]:
    """The cashier's list: every standing finish with a prize, by place, paid or not. One
    query."""
    return list(
        Finish.objects.filter(event=event, undone_at__isnull=True, prize__gt=0)
        .select_related("entry__player")
        .order_by("place", "slot", "entry_id")
    )


@dataclass(frozen=True)
class CarriedRow:
    """A flight's player through to Day 2, with the bag they carried."""

    name: str
    entry: int
    chips: int
    bag: str
    kept: bool  # False: the player plays another flight's bag on Day 2 (the event's rule)


def carried_rows(event: Event) -> list[CarriedRow]:
    """A flight's players through to Day 2 with their bags, the biggest first: their places
    are the whole event's, on Day 2. Empty for an event that is not a combined flight."""
    if not event.parent_id:
        return []
    rows = (
        Bag.objects.filter(event=event, day=1, entry__status=Entry.Status.CARRIED)
        .order_by("-chips", "number", "pk")
        .values_list("entry__player__name", "entry__number", "chips", "number", "entry__carried_to")
    )
    return [CarriedRow(*row[:4], kept=row[4] is not None) for row in rows]


@dataclass(frozen=True)
class BountyTotals:
    """A bounty event's bounties now: cash won by entry, and the heads of the players
    still in (with the bounty pool, the entries' heads together)."""

    pool: Decimal
    won: dict[int, Decimal]
    heads: dict[int, Decimal]

    @property
    def paid(self) -> Decimal:
        return sum(self.won.values(), Decimal(0))

    @property
    def in_play(self) -> Decimal:
        return sum(self.heads.values(), Decimal(0))


def bounty_totals(event: Event) -> BountyTotals:
    won = dict(
        Bounty.objects.filter(event=event, undone_at__isnull=True)
        .values("eliminator")
        .annotate(total=Sum("paid"))
        .values_list("eliminator", "total")
    )
    won = {pk: total for pk, total in won.items() if total}
    active = list(
        Entry.objects.filter(event=event, status=Entry.Status.ACTIVE)
        .exclude(finishes__is_winner=True, finishes__undone_at__isnull=True)  # collected
        .values_list("pk", flat=True)
    )
    entries = Entry.objects.filter(event=event).count()
    heads = bounty_heads(event, active) if event.has_bounties else {}
    return BountyTotals(standings.bounty_pool(event, entries), won, heads)


def head_rows(
    event: Event, totals: BountyTotals | None = None
) -> list[tuple[str, int, Decimal, Decimal]]:
    """(player, entry number, head, won) of the players still in, the biggest head first."""
    totals = totals or bounty_totals(event)
    who = {
        pk: (name, number)
        for pk, name, number in Entry.objects.filter(pk__in=totals.heads).values_list(
            "pk", "player__name", "number"
        )
    }
    rows = [(*who[pk], head, totals.won.get(pk, Decimal(0))) for pk, head in totals.heads.items()]
    return sorted(rows, key=lambda r: (-r[2], r[1]))


def money(amount) -> str:
    """Amounts in JSON: a string with two decimals, as the database stores them."""
    return str(Decimal(amount).quantize(Decimal("0.01")))


def results_payload(event: Event) -> dict:
    from .services.satellites import satellite_json

    prizes = prizes_now(event)
    left = Entry.objects.filter(event=event, status=Entry.Status.ACTIVE).count()
    payload = {
        "event": {"id": event.pk, "name": event.name, "status": event.status},
        "entries": prizes.entries,
        "players_left": left,
        "prize_pool": money(prizes.pool),
        "paid_places": prizes.paid,
        "payouts": [money(p) for p in prizes.by_place],
        "results": [
            {
                "place": r.place,
                "place_to": r.place_to,
                "place_label": r.label,
                "player": r.name,
                "entry": r.entry,
                "prize": money(r.prize),
                "paid": r.paid,
            }
            for r in result_rows(event)
        ],
    }
    return satellite_json(event, payload) if event.is_satellite else payload


def payout_preview(plan: PayoutPlan, entries: int, pool: Decimal) -> list[tuple[int, str, Decimal]]:
    """(place, percentage, prize) as the plan pays the field now; the percentage with its
    digits as the plan gives them, in the reader's decimal mark ("45,556" in Vietnamese)."""
    if entries < 1:
        return []
    percentages = plan.table_percentages(entries)
    amounts = rules.split_pool(pool, percentages, plan.rounding)
    return [
        (i + 1, grouped(p.normalize()), a)
        for i, (p, a) in enumerate(zip(percentages, amounts, strict=True))
    ]
