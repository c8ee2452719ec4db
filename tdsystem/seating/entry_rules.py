"""The event's entry rules read from its rows: where its clock is, what a player has
bought, the refusals in the reader's language, and what each buy costs."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from tdsystem.core.numbers import grouped
from tdsystem.engine import clock as clockrules
from tdsystem.engine import entry_rules as rules
from tdsystem.events.entry_notices import break_name
from tdsystem.events.models import Clock, Event

from . import signals
from .balancing import final_table_size
from .errors import SeatingError
from .models import Entry, Purchase
from .selectors_dayend import last_hands_on


class EntryRefused(SeatingError):
    """A request the event's entry rules refuse; `refusal` holds the code and parameters."""

    def __init__(
        self, refusal: rules.Refusal, text: str, changes: list[signals.PrizeChange] | None = None
    ) -> None:
        super().__init__(text)
        self.refusal = refusal
        # What the purchase would change among the players in the money, when that is why.
        self.changes = changes or []


class ChangesToConfirm(EntryRefused):
    """A purchase that would change the places or prizes of players already in the money:
    refused until the desk confirms it (`confirm_changes`), `changes` saying what moves."""

    def __init__(self, changes: list[signals.PrizeChange]) -> None:
        refusal = rules.Refusal("confirm-changes", {"count": len(changes)})
        super().__init__(refusal, changes_text(changes), changes)


def change_text(change: signals.PrizeChange) -> str:
    """ "#7 Bob Ray: place 5 → 6, 12,000 → 9,500" (the place once when it stays)."""
    prizes = {"before": change.prize_before_text, "after": change.prize_after_text}
    if change.place_before == change.place_after:
        place = change.place_before
    else:
        place = gettext("%(before)s → %(after)s") % {
            "before": change.place_before,
            "after": change.place_after,
        }
    return gettext("#%(number)s %(name)s: place %(place)s, %(prize)s") % {
        "number": change.number,
        "name": change.name,
        "place": place,
        "prize": gettext("%(before)s → %(after)s") % prizes,
    }


def changes_text(changes: list[signals.PrizeChange]) -> str:
    shown = "; ".join(change_text(c) for c in changes[:6]) + ("; …" if len(changes) > 6 else "")
    return ngettext(
        "This changes the place or prize of %(count)s player already in the money "
        "(%(changes)s): confirm to go ahead.",
        "This changes the places or prizes of %(count)s players already in the money "
        "(%(changes)s): confirm to go ahead.",
        len(changes),
    ) % {"count": len(changes), "changes": shown}


def money_check(event: Event, *, entries: int, amount: Decimal, confirmed: bool) -> None:
    """Before a purchase that adds `entries` entries and `amount` to the prize pool is
    written (the caller holds the event's lock): refused when it would change a prize
    already paid, whatever is confirmed; ChangesToConfirm when it would change the places
    or prizes of players in the money and the desk has not confirmed."""
    changes = signals.field_changes(event, entries, amount)
    paid = [c for c in changes if c.paid]
    if paid:
        shown = "; ".join(
            gettext("#%(number)s %(name)s, place %(place)s, %(prize)s")
            % {
                "number": c.number,
                "name": c.name,
                "place": c.place_before,
                "prize": c.prize_before_text,
            }
            for c in paid[:5]
        )
        refusal = rules.Refusal("prize-paid", {"count": len(paid)})
        text = ngettext(
            "Not sold: it would change a prize already paid (%(paid)s). A paid prize never "
            "changes.",
            "Not sold: it would change %(count)s prizes already paid (%(paid)s). A paid prize "
            "never changes.",
            len(paid),
        ) % {"count": len(paid), "paid": shown}
        raise EntryRefused(refusal, text, paid)
    if changes and not confirmed:
        raise ChangesToConfirm(changes)


def field_now(event: Event) -> rules.FieldNow:
    """The event's field for `field_refusal`: two queries, and the paid places asked of
    results once someone is out."""
    counts = Entry.objects.filter(event=event).aggregate(
        n=Count("id"),
        left=Count("id", filter=Q(status=Entry.Status.ACTIVE)),
        carried=Count("id", filter=Q(status=Entry.Status.CARRIED)),
    )
    left = counts["left"]
    out = counts["n"] - left - counts["carried"]
    return rules.FieldNow(
        left=left,
        out=out,
        paid=signals.paid_places(event) if out > 0 else 0,
        final_table=final_table_size(event) or event.seats_per_table,
        last_hands=last_hands_on(event),
    )


def entries_closed(event: Event) -> rules.Refusal | None:
    """Why the field takes no entry nor re-entry now whatever the event's level (the day's
    last hands, heads-up, the money or the final table by the rule set), or None."""
    return rules.field_refusal(event.rules.entries_close, field_now(event))


def refusal_text(refusal: rules.Refusal) -> str:
    """The refusal in the reader's language (the engine's English sentence otherwise)."""
    p = dict(refusal.params)
    for key in ("threshold", "stack"):
        if key in p:
            p[key] = grouped(p[key])
    code = refusal.code
    if code == "event-finished":
        return gettext("the event has finished")
    if code == "last-hands":
        return gettext("the day's last hands are being played")
    if code == "closed-heads-up":
        return gettext("the event is heads-up")
    if code == "closed-in-the-money":
        return (
            ngettext(
                "the field is in the money (%(paid)s place paid)",
                "the field is in the money (%(paid)s places paid)",
                int(p["paid"]),  # type: ignore[call-overload]
            )
            % p
        )
    if code == "closed-final-table":
        return gettext("the field is down to its final table")
    if code == "registration-closed-start":
        return gettext("registration closed when the clock started (no late registration)")
    if code == "registration-closed":
        return gettext("late registration closed at the end of level %(level)s") % p
    if code == "reentry-not-allowed":
        return gettext("this event does not allow re-entries")
    if code == "reentry-limit":
        return (
            ngettext(
                "%(who)s has %(count)s re-entry: the limit is %(limit)s",
                "%(who)s has %(count)s re-entries: the limit is %(limit)s",
                int(p["count"]),  # type: ignore[call-overload]
            )
            % p
        )
    if code == "reentry-closed":
        return gettext("re-entries ended with level %(level)s") % p
    if code == "rebuy-none":
        return gettext("this event has no rebuys")
    if code == "rebuy-closed":
        return gettext("Rebuys ended with level %(level)s") % p
    if code == "rebuy-limit":
        return (
            ngettext(
                "%(who)s has %(count)s rebuy: the limit is %(limit)s",
                "%(who)s has %(count)s rebuys: the limit is %(limit)s",
                int(p["count"]),  # type: ignore[call-overload]
            )
            % p
        )
    if code == "rebuy-stack-unknown":
        return (
            gettext(
                "say how many chips %(who)s has now: a rebuy needs %(threshold)s chips or fewer"
            )
            % p
        )
    if code == "rebuy-over-threshold":
        return gettext("a rebuy needs %(threshold)s chips or fewer: %(who)s has %(stack)s") % p
    if code == "addon-none":
        return gettext("this event has no add-on")
    if code == "addon-taken":
        return gettext("%(who)s has taken the add-on already") % p
    if code == "addon-not-now":
        return gettext("the add-on is taken at %(when)s") % {
            "when": break_name(int(p["break"]))  # type: ignore[call-overload]
        }
    return refusal.message


def refuse(refusal: rules.Refusal | None) -> None:
    """Raise the refusal, if any, as an EntryRefused."""
    if refusal is not None:
        raise EntryRefused(refusal, refusal_text(refusal))


def moment_read(event: Event, *, now: datetime | None = None) -> rules.Moment:
    """Where the event's clock is now, counting a level that ran out with no worker to
    record it yet as over."""
    clock = Clock.objects.filter(pk=event.pk).first()
    levels = list(
        event.structure.levels.order_by("position").values_list("kind", "duration_seconds")
    )
    if clock is None:
        return rules.moment([kind == "level" for kind, _ in levels], 0, rules.NOT_STARTED)
    state = clockrules.ClockState(
        clock.status, clock.level_index, clock.ends_at, clock.remaining_ms, clock.version
    )
    if levels:
        state, _ = clockrules.settle(state, [d for _, d in levels], now or timezone.now())
    return rules.moment([kind == "level" for kind, _ in levels], state.level_index, state.status)


def who(entry: Entry) -> str:
    """ "#12 Ana": the player as refusals name them."""
    return f"#{entry.number} {entry.player.name}"


def reentries_of(event: Event, player_id: int) -> int:
    return Entry.objects.filter(event=event, player_id=player_id, is_reentry=True).count()


def bought(event: Event, player_id: int, kind: str) -> int:
    """How many rebuys (or add-ons) the player has bought in the event, on any entry."""
    return Purchase.objects.filter(event=event, entry__player_id=player_id, kind=kind).count()


@dataclass(frozen=True)
class Price:
    """What one buy costs and brings: `amount` to the prize pool, `fee` to the house."""

    amount: Decimal
    fee: Decimal
    chips: int


def price_of(event: Event, kind: str) -> Price:
    if kind == Purchase.Kind.REBUY:
        return Price(
            Decimal(event.rebuy_price),
            Decimal(event.rebuy_fee),
            event.rebuy_chips or event.starting_stack,
        )
    if kind == Purchase.Kind.ADDON:
        return Price(
            Decimal(event.addon_price),
            Decimal(event.addon_fee),
            event.addon_chips or event.starting_stack,
        )
    return Price(Decimal(event.buy_in), Decimal(event.fee), event.starting_stack)


def buys_open(event: Event, at: rules.Moment) -> dict[str, bool]:
    """Whether the rebuy period runs and whether this is the add-on's break (for buttons)."""
    entry_rules = event.entry_rules
    return {
        Purchase.Kind.REBUY: rules.rebuys_open(entry_rules, at),
        Purchase.Kind.ADDON: rules.addon_open(entry_rules, at),
    }


@dataclass(frozen=True)
class Offer:
    """A buy the player may make now, at the event's figures (`threshold` for a rebuy)."""

    kind: str
    label: str
    price: Price
    threshold: int | None

    @property
    def total(self) -> Decimal:
        return self.price.amount + self.price.fee


def moment_cached(event: Event) -> rules.Moment:
    """The moment, read once per event object (a table page asks for every seat)."""
    cached = getattr(event, "_entry_moment", None)
    if cached is None:
        cached = moment_read(event)
        event._entry_moment = cached  # type: ignore[attr-defined]
    return cached


def buys_offered(event: Event, entry: Entry | None, *, counts: bool = True) -> list[Offer]:
    """The rebuy and add-on the rules allow now; with `counts`, also within the player's
    limits (a query each). The service checks everything again when the buy is made."""
    if entry is not None and entry.status != Entry.Status.ACTIVE:
        return []
    if not event.rebuy_until_level and not event.addon_break:
        return []  # no query for an event without rebuys or an add-on
    at = moment_cached(event)
    entry_rules = event.entry_rules
    offers = []
    if rules.rebuys_open(entry_rules, at) and not (
        counts
        and entry is not None
        and entry_rules.rebuy_max
        and bought(event, entry.player_id, Purchase.Kind.REBUY) >= entry_rules.rebuy_max
    ):
        offers.append(
            Offer(
                Purchase.Kind.REBUY,
                gettext("Rebuy"),
                price_of(event, Purchase.Kind.REBUY),
                entry_rules.rebuy_threshold,
            )
        )
    if rules.addon_open(entry_rules, at) and not (
        counts and entry is not None and bought(event, entry.player_id, Purchase.Kind.ADDON)
    ):
        offers.append(
            Offer(
                Purchase.Kind.ADDON, gettext("Add-on"), price_of(event, Purchase.Kind.ADDON), None
            )
        )
    return offers


def reentry_offered(event: Event, entry: Entry) -> tuple[Offer | None, str]:
    """For the panel of a player out: the re-entry the rules allow now (the price of an
    entry), or why there is none. A re-entry is offered on the player's latest entry only:
    once they have re-entered, the old entry says where they are now."""
    if entry.status != Entry.Status.BUSTED:
        return None, ""
    later = (
        Entry.objects.filter(event=event, player_id=entry.player_id, number__gt=entry.number)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
    )
    if later is not None:
        return None, gettext("Re-entered as #%(number)s.") % {"number": later}
    refusal = rules.reentry_refusal(
        event.entry_rules,
        moment_cached(event),
        who=who(entry),
        reentries=reentries_of(event, entry.player_id),
    )
    if refusal is not None:
        text = refusal_text(refusal)
        return None, gettext("No re-entry: %(reason)s.") % {"reason": text}
    return Offer(Purchase.Kind.REENTRY, gettext("Re-entry"), price_of(event, ""), None), ""
