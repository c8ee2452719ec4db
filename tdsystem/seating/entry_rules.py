"""The event's entry rules read from its rows: where its clock is, what a player has
bought, the refusals in the reader's language, and what each buy costs."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from django.utils import timezone
from django.utils.translation import gettext, ngettext

from tdsystem.core.templatetags.humanize_td import grouped
from tdsystem.engine import clock as clockrules
from tdsystem.engine import entry_rules as rules
from tdsystem.events.entry_notices import break_name
from tdsystem.events.models import Clock, Event

from .errors import SeatingError
from .models import Entry, Purchase


class EntryRefused(SeatingError):
    """A request the event's entry rules refuse; `refusal` holds the code and parameters."""

    def __init__(self, refusal: rules.Refusal, text: str) -> None:
        super().__init__(text)
        self.refusal = refusal


def refusal_text(refusal: rules.Refusal) -> str:
    """The refusal in the reader's language (the engine's English sentence otherwise)."""
    p = dict(refusal.params)
    for key in ("threshold", "stack"):
        if key in p:
            p[key] = grouped(p[key])
    code = refusal.code
    if code == "event-finished":
        return gettext("the event has finished")
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
