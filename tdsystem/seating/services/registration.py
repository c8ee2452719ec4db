"""Registration: new entries, duplicate names, pre-registered lists, re-entries and buys."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils.translation import gettext, gettext_noop, ngettext
from django_countries import countries

from tdsystem.core.actors import Actor
from tdsystem.core.locking import event_lock
from tdsystem.core.log import Grouped, Text, log_record
from tdsystem.engine import entry_rules as buyrules
from tdsystem.engine import seating as rules
from tdsystem.events.models import Event

from ..balancing import button_options, rebalance_plan
from ..entry_rules import (
    EntryRefused,
    bought,
    entries_closed,
    moment_read,
    money_check,
    price_of,
    reentries_of,
    refusal_text,
    refuse,
    who,
)
from ..errors import SeatingError
from ..models import Entry, Player, Purchase, name_key, search_key
from ..seatmap import (
    Applied,
    SeatMap,
    engine_call,
    head_counts,
    new_seed,
    next_entry_number,
    plan_apply,
)
from ..selectors import seats_being_left


def registration_closed_reason(event: Event, *, now: datetime | None = None) -> str | None:
    """Why no new entry is taken now, or None while registration is open.

    `late_registration_end_level` is a level number (breaks are not levels): entries are
    taken until that level ends. 0 means no late registration: until the clock starts.
    """
    refusal = buyrules.entry_refusal(event.entry_rules, moment_read(event, now=now))
    return refusal_text(refusal) if refusal else None


@dataclass(frozen=True)
class Enrolment:
    """A new entry and where it sits (no seat before the draw), with any moves it caused."""

    entry: Entry
    dealt_in: bool
    seed: int
    applied: Applied | None


# A purchase's kind in the log, read in each reader's language (the model's labels).
KIND_NAMES: dict[str, str] = {
    Purchase.Kind.ENTRY: gettext_noop("Buy-in"),
    Purchase.Kind.REENTRY: gettext_noop("Re-entry"),
    Purchase.Kind.REBUY: gettext_noop("Rebuy"),
    Purchase.Kind.ADDON: gettext_noop("Add-on"),
}


class DuplicateName(SeatingError):
    """A new player whose name is already in the event's field; nothing has changed.

    `existing` holds the entries of that name. The console and the API turn it into a
    question: register anyway (`confirm_duplicate`), or add a note that tells them apart.
    """

    def __init__(self, message: str, *, existing: list[Entry]) -> None:
        super().__init__(message)  # no field: the request is fine, the field refuses it (409)
        self.existing = existing


def _where(entry: Entry) -> str:
    if entry.status != Entry.Status.ACTIVE:
        return gettext("out")
    if entry.table is None:
        return gettext("no seat yet")
    return gettext("table %(table)s seat %(seat)s") % {
        "table": entry.table.number,
        "seat": entry.seat,
    }


def describe_entry(entry: Entry) -> str:
    """ "#12 Ann Lee (from Lyon), table 3 seat 4": which entry a warning means."""
    return gettext("#%(number)s %(player)s, %(where)s") % {
        "number": entry.number,
        "player": entry.player,
        "where": _where(entry),
    }


def same_names(event: Event, name: str, note: str = "") -> list[Entry]:
    """The event's entries a new player of this name and note could not be told from.

    One index look-up on the stored name key, however big the field.
    """
    note_key = name_key(note)
    rows = Entry.objects.filter(event=event, player__name_key=name_key(name))
    rows = rows.select_related("player", "table").order_by("number")
    return [entry for entry in rows if name_key(entry.player.note) == note_key]


def _duplicate_error(existing: list[Entry]) -> DuplicateName:
    listed = "; ".join(describe_entry(entry) for entry in existing[:3])
    if len(existing) > 3:
        listed += "; …"
    return DuplicateName(
        gettext(
            "Already registered under this name: %(entries)s. Register anyway, or add a "
            "note that tells them apart."
        )
        % {"entries": listed},
        existing=existing,
    )


def member_id_taken(*, member_id: str) -> SeatingError | None:
    """The refusal for a member id that is already a player's, naming the event it entered."""
    player = Player.objects.filter(member_id=member_id).first()
    if player is None:
        return None
    entry = Entry.objects.filter(player=player).select_related("event").order_by("-pk").first()
    return SeatingError(
        gettext("member id %(member_id)s is already registered (%(event)s)")
        % {"member_id": member_id, "event": entry.event.name if entry else gettext("no event")}
    )


def player_register(
    *,
    event: Event,
    name: str,
    actor: Actor,
    member_id: str = "",
    note: str = "",
    country: str = "",
    confirm_duplicate: bool = False,
    confirm_changes: bool = False,
    rng_seed: int | None = None,
) -> Enrolment:
    """Register a player's entry. After the draw the entry is seated at once (TDA 8-A).

    A member id finds the player again; a member who busted may only come back as a
    re-entry (see entry_reenter). A new player whose name (and note) is already in the
    field raises DuplicateName unless `confirm_duplicate`; a `note` ("from Lyon") that
    differs from the others' tells them apart and needs no confirmation. An entry that
    would change the places or prizes of players in the money raises ChangesToConfirm
    unless `confirm_changes` (see `_enrol`).
    """
    name = " ".join(name.split())
    member_id = member_id.strip()
    note = " ".join(note.split())
    if not name:
        raise SeatingError(gettext("the player needs a name"), field="name")
    if len(name) > 120:
        raise SeatingError(gettext("the name is longer than 120 characters"), field="name")
    if len(member_id) > 40:
        raise SeatingError(gettext("the member id is longer than 40 characters"), field="member_id")
    if len(note) > 60:
        raise SeatingError(gettext("the note is longer than 60 characters"), field="note")
    country = country_code(country)
    with transaction.atomic():
        event = event_lock(Event.objects, event.pk, error=SeatingError)
        _check_open(event)
        player = Player.objects.filter(member_id=member_id).first() if member_id else None
        if player is not None:
            if country and not player.country:
                Player.objects.filter(pk=player.pk).update(country=country)  # learnt at the desk
            if Entry.objects.filter(event=event, player=player).exists():
                if not event.reentry_allowed:
                    raise SeatingError(
                        gettext("%(name)s has entered already") % {"name": player.name}
                    )
                raise SeatingError(
                    gettext("%(name)s has entered already: use a re-entry") % {"name": player.name}
                )
        else:
            if not confirm_duplicate:
                existing = same_names(event, name, note)
                if existing:
                    raise _duplicate_error(existing)
            try:
                # A savepoint: another event's registration (it holds another event's
                # lock) may take this member id between the look-up above and here.
                with transaction.atomic():
                    player = Player.objects.create(
                        name=name, member_id=member_id, note=note, country=country
                    )
            except IntegrityError as exc:
                refusal = member_id_taken(member_id=member_id) if member_id else None
                if refusal is None:
                    raise
                raise refusal from exc
        return _enrol(
            event, player, Purchase.Kind.ENTRY, actor, new_seed(rng_seed), confirm_changes
        )


def country_code(typed: str) -> str:
    """A player's country as stored: its ISO 3166 code ("jp", " JP " -> "JP"), "" for none;
    SeatingError naming the field for a code that is no country."""
    code = typed.strip().upper()
    if code and code not in countries:
        raise SeatingError(
            gettext("%(code)s is not a country code (two letters, for example JP or VN)")
            % {"code": typed.strip()[:10]},
            field="country",
        )
    return code


def import_duplicates(event: Event, names: list[str]) -> list[str]:
    """What a list would register twice: names repeated in it, and names already entered."""
    problems: list[str] = []
    seen: dict[str, int] = {}
    for line, name in enumerate(names, start=1):
        key = name_key(name)
        if key in seen:
            problems.append(
                gettext("“%(name)s” (line %(line)s) repeats line %(first)s")
                % {"name": name, "line": line, "first": seen[key]}
            )
        else:
            seen[key] = line
    keys = list(seen)
    found: list[Entry] = []
    for start in range(0, len(keys), 500):  # SQLite's limit on a query's parameters
        rows = Entry.objects.filter(event=event, player__name_key__in=keys[start : start + 500])
        found += rows.select_related("player", "table")
    for entry in sorted(found, key=lambda e: e.number):
        if not entry.player.note:
            problems.append(
                gettext("“%(name)s” is already registered: %(entry)s")
                % {"name": entry.player.name, "entry": describe_entry(entry)}
            )
    return problems


def players_import(
    *, event_id: int, names: list[str], actor: Actor, confirm_duplicates: bool = False
) -> int:
    """Register a list of pre-registered players at once, before the seat draw.

    A list that would register a name twice (repeated in the list, or already in the
    field) is refused whole, naming each duplicate, unless `confirm_duplicates`.
    """
    names = [" ".join(name.split()) for name in names]
    names = [name for name in names if name]
    if not names:
        raise SeatingError(gettext("no names to register"), field="names")
    if any(len(name) > 120 for name in names):
        raise SeatingError(gettext("a name is longer than 120 characters"), field="names")
    with transaction.atomic():
        event = event_lock(Event.objects, event_id, error=SeatingError)
        _check_open(event)
        if SeatMap.read(event).drawn:
            raise SeatingError(gettext("the seats are drawn: register late players one by one"))
        if not confirm_duplicates:
            problems = import_duplicates(event, names)
            if problems:
                shown = "; ".join(problems[:10]) + ("; …" if len(problems) > 10 else "")
                raise SeatingError(
                    ngettext(
                        "Nothing imported: %(count)s duplicate name (%(list)s). Add a note to "
                        "tell them apart one by one, or import anyway.",
                        "Nothing imported: %(count)s duplicate names (%(list)s). Add a note to "
                        "tell them apart one by one, or import anyway.",
                        len(problems),
                    )
                    % {"count": len(problems), "list": shown}
                )
        first = next_entry_number(event)
        players = Player.objects.bulk_create(
            Player(name=name, name_key=name_key(name), search_key=search_key(name))
            for name in names
        )
        entries = Entry.objects.bulk_create(
            Entry(
                event=event,
                player=player,
                number=first + index,
                chips=event.starting_stack,
                paid=Decimal(event.buy_in),
            )
            for index, player in enumerate(players)
        )
        Purchase.objects.bulk_create(
            Purchase(
                event=event,
                entry=entry,
                kind=Purchase.Kind.ENTRY,
                amount=entry.paid,
                fee=Decimal(event.fee),
                chips=entry.chips,
                actor_label=actor.label,
            )
            for entry in entries
        )
        log_record(
            event=event,
            actor=actor,
            action="entry.import",
            summary=Text(
                gettext_noop("Registered %(count)s players: #%(first)s to #%(last)s"),
                count=len(entries),
                first=first,
                last=entries[-1].number,
            ),
            data={"first": first, "count": len(entries)},
        )
    return len(entries)


def entry_reenter(
    *,
    event_id: int,
    entry_id: int,
    actor: Actor,
    confirm_changes: bool = False,
    rng_seed: int | None = None,
) -> Enrolment:
    """A busted player buys a new entry, seated by a new random draw (TDA 8-A); as a new
    entry, it is refused once the field closes and confirmed when it would change the
    places or prizes of players in the money (see `_enrol`)."""
    with transaction.atomic():
        event = event_lock(Event.objects, event_id, error=SeatingError)
        old = Entry.objects.select_related("player").filter(pk=entry_id, event=event).first()
        if old is None:
            raise SeatingError(
                gettext("no entry %(id)s in this event") % {"id": entry_id}, field="entry"
            )
        if not event.reentry_allowed:
            refuse(
                buyrules.reentry_refusal(event.entry_rules, moment_read(event), who="", reentries=0)
            )
        if old.status == Entry.Status.ACTIVE:
            raise SeatingError(
                gettext("%(name)s is still playing: no re-entry needed") % {"name": old.player.name}
            )
        playing = Entry.objects.filter(player_id=old.player_id, status=Entry.Status.ACTIVE)
        if playing.filter(event=event).exists():
            raise SeatingError(
                gettext("%(name)s has re-entered already") % {"name": old.player.name}
            )
        refuse(
            buyrules.reentry_refusal(
                event.entry_rules,
                moment_read(event),
                who=who(old),
                reentries=reentries_of(event, old.player_id),
            )
        )
        return _enrol(
            event, old.player, Purchase.Kind.REENTRY, actor, new_seed(rng_seed), confirm_changes
        )


def _check_open(event: Event) -> None:
    refusal = buyrules.entry_refusal(event.entry_rules, moment_read(event))
    if refusal is not None:
        text = gettext("No new entries: %(reason)s.") % {"reason": refusal_text(refusal)}
        raise EntryRefused(refusal, text)


def _enrol(
    event: Event,
    player: Player,
    kind: str,
    actor: Actor,
    seed: int,
    confirm_changes: bool = False,
) -> Enrolment:
    """Create the entry, seat it if the seats are drawn, and rebalance around it.

    A new entry, a re-entry or a ticket alike: none once the field has closed whatever the
    level (the day's last hands, heads-up, the money or the final table by the rule set:
    `entries_closed`); none that would change a prize already paid; and one that would
    change the places or prizes of players in the money only once the desk confirms it."""
    closed = entries_closed(event)
    if closed is not None:
        text = gettext("No new entries: %(reason)s.") % {"reason": refusal_text(closed)}
        raise EntryRefused(closed, text)
    money_check(event, entries=1, amount=Decimal(event.buy_in), confirmed=confirm_changes)
    rng = random.Random(seed)
    # Read lazily: the seat is drawn at the tables with the fewest players, read in full;
    # the rebalance after it reads the tables it touches (a flight of 600 tables).
    seatmap = SeatMap.read_lazily(event, head_counts(event))
    placement = None
    if seatmap.drawn:
        numbers = rules.new_entry_tables(seatmap.plan_tables())
        if not numbers:
            raise SeatingError(gettext("every seat is taken: put another table into play first"))
        # The entry has no id yet; 0 stands in for it (no row has id 0).
        tables = seatmap.load(numbers)
        placement = engine_call(
            rules.seat_new_entry,
            tables,
            0,
            rng,
            leaving=seats_being_left(event, numbers),
            **button_options(event),
        )
    number = next_entry_number(event)
    try:
        entry = Entry.objects.create(
            event=event,
            player=player,
            number=number,
            is_reentry=kind == Purchase.Kind.REENTRY,
            chips=event.starting_stack,
            paid=Decimal(event.buy_in),
            table_id=seatmap.by_number[placement.table].pk if placement else None,
            seat=placement.seat if placement else None,
        )
    except IntegrityError:
        # Only code that bypasses the event lock gets here: the constraints held.
        raise SeatingError(
            gettext(
                "the entry of %(name)s clashes with another (player, number or seat): try again"
            )
            % {"name": player.name}
        ) from None
    Purchase.objects.create(
        event=event,
        entry=entry,
        kind=kind,
        amount=entry.paid,
        fee=Decimal(event.fee),
        chips=entry.chips,
        actor_label=actor.label,
    )
    applied = None
    where = Text(gettext_noop("seat at the draw"))
    if placement:
        seatmap.seated[entry.pk] = (placement.table, placement.seat)
        where = Text(
            gettext_noop("table %(table)s seat %(seat)s")
            if placement.dealt_in
            else gettext_noop("table %(table)s seat %(seat)s (waits for the button)"),
            table=placement.table,
            seat=placement.seat,
        )
        plan = rebalance_plan(event, seatmap, rng)
        if plan.moves or plan.broken:
            applied = plan_apply(seatmap, plan, rng)
    sentence = (
        gettext_noop("Re-entry #%(number)s: %(name)s, %(where)s")
        if kind == Purchase.Kind.REENTRY
        else gettext_noop("Entry #%(number)s: %(name)s, %(where)s")
    )
    log_record(
        event=event,
        actor=actor,
        action="entry.reenter" if kind == Purchase.Kind.REENTRY else "entry.register",
        summary=Text(sentence, number=number, name=player.name, where=where),
        data={
            "entry": entry.pk,
            "number": number,
            "seed": seed,
            "table": placement.table if placement else None,
            "seat": placement.seat if placement else None,
            "dealt_in": placement.dealt_in if placement else True,
            **(applied.as_log() if applied else {}),
        },
    )
    return Enrolment(entry, placement.dealt_in if placement else True, seed, applied)


def entry_purchase(
    *,
    event_id: int,
    entry_id: int,
    kind: str,
    actor: Actor,
    stack: int | None = None,
    chips: int | None = None,
    amount: Decimal | None = None,
    confirm_changes: bool = False,
) -> Purchase:
    """A rebuy or an add-on, as the event's entry rules allow: chips for the entry, its
    price to the prize pool and its fee to the house.

    `stack` is what the player has now, counted at the table: a rebuy needs the event's
    threshold or fewer. The chips and the price are the event's rebuy (or add-on) figures;
    `chips` and `amount` override them for a house that agreed otherwise (logged). Money
    into the prize pool once players are in the money changes their prizes: never a prize
    paid, and others only with `confirm_changes` (`money_check`).
    """
    if kind not in (Purchase.Kind.REBUY, Purchase.Kind.ADDON):
        raise SeatingError(gettext("a buy is a rebuy or an add-on"), field="kind")
    if stack is not None and stack < 0:
        raise SeatingError(gettext("a stack cannot be negative"), field="stack")
    with transaction.atomic():
        event = event_lock(Event.objects, event_id, error=SeatingError)
        price = price_of(event, kind)
        chips = price.chips if chips is None else int(chips)
        amount = price.amount if amount is None else Decimal(amount)
        if chips <= 0:
            raise SeatingError(gettext("a buy brings at least one chip"), field="chips")
        if amount < 0:
            raise SeatingError(gettext("the amount cannot be negative"), field="amount")
        entry = (
            Entry.objects.select_for_update(of=("self",), no_key=True)
            .select_related("player")
            .filter(pk=entry_id, event=event)
            .first()
        )
        if entry is None:
            raise SeatingError(
                gettext("no entry %(id)s in this event") % {"id": entry_id}, field="entry"
            )
        if entry.status != Entry.Status.ACTIVE:
            raise SeatingError(
                gettext("%(name)s is out: a re-entry, not a buy") % {"name": entry.player.name}
            )
        at = moment_read(event)
        count = bought(event, entry.player_id, kind)
        if kind == Purchase.Kind.REBUY:
            refuse(
                buyrules.rebuy_refusal(
                    event.entry_rules, at, who=who(entry), rebuys=count, stack=stack
                )
            )
        else:
            refuse(buyrules.addon_refusal(event.entry_rules, at, who=who(entry), addons=count))
        money_check(event, entries=0, amount=amount, confirmed=confirm_changes)
        Entry.objects.filter(pk=entry.pk).update(chips=F("chips") + chips, paid=F("paid") + amount)
        purchase = Purchase.objects.create(
            event=event,
            entry=entry,
            kind=kind,
            amount=amount,
            fee=price.fee,
            chips=chips,
            actor_label=actor.label,
        )
        overridden = (chips, amount) != (price.chips, price.amount)
        log_record(
            event=event,
            actor=actor,
            action=f"entry.{kind}",
            summary=Text(
                gettext_noop(
                    "%(kind)s for #%(number)s %(name)s: %(chips)s chips, %(amount)s to the "
                    "prize pool, %(fee)s fee (not the event's figures)"
                )
                if overridden
                else gettext_noop(
                    "%(kind)s for #%(number)s %(name)s: %(chips)s chips, %(amount)s to the "
                    "prize pool, %(fee)s fee"
                ),
                kind=Text(KIND_NAMES[kind]),
                number=entry.number,
                name=entry.player.name,
                chips=chips,
                amount=Grouped(amount),
                fee=Grouped(price.fee),
            ),
            data={
                "entry": entry.pk,
                "chips": chips,
                "amount": str(amount),
                "fee": str(price.fee),
                "stack": stack,
                "overridden": overridden,
            },
        )
    return purchase
