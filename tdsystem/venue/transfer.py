"""An event to one JSON file and back, into this installation or another one.

The file holds everything of the event: its structure and levels, settings, rules and
house set, clock, tables and the venue tables they use, players, entries and seats, buys,
moves, bust-outs, finishes and prizes, payouts, hand-for-hand, chip counts, deals,
bounties, the ends of day and bags, the tickets for it, and its log. An event of a
festival brings the whole festival: the event and every flight of it (Day 2's entries
carry their flights' bags).

Rows are written with Django's serializer, grouped by model, each under its id in the
installation it came from. An import makes every row anew (new ids, the relations
kept), in one transaction: a file that is not right changes nothing. Its values are
taken as the pages and the API take them (transfer_values: the one text rule, the one
range of dates and times), a refusal naming the row and the field. What the file shares
with the installation it goes into is found there:

- a player with the same member id is that player (their entries join the player's
  record here); a player without one is a new player, even when a player of the same
  name is here already, as at the registration desk;
- a venue table of the same number is that table (made when missing); a table another
  event here has in play refuses the import, naming it;
- a house rule set of the same name, base and settings is that set; one of the same name
  that differs is made anew as "NAME (imported)";
- a staff account of the same user name is the one named in the log, the move slips and
  the bust-outs; without one the name stays in the text and the link is left empty.
  Accounts, API tokens and an event's staff never travel with an event: the person who
  imports it directs it, as the person who makes an event does;
- an event outside the file (a satellite's target, a ticket won elsewhere) is left out:
  the link is left empty.

The ids written in the log's details are those of the installation the file came from.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.core.serializers.base import DeserializationError
from django.core.serializers.json import DjangoJSONEncoder
from django.db import DatabaseError, connection, models, transaction
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tdsystem.core.actors import Actor
from tdsystem.core.locking import locks_take
from tdsystem.core.log import Text, log_record
from tdsystem.core.models import LogEntry
from tdsystem.engine import rulesets
from tdsystem.events.models import Clock, Event, HouseRuleSet
from tdsystem.events.services import event_staff_creator
from tdsystem.printing.models import EventPrinting
from tdsystem.results import models as results
from tdsystem.seating import models as seating
from tdsystem.seating.models import Entry, EventTable, Player, VenueTable
from tdsystem.shotclock import models as shotclock
from tdsystem.structures.models import Level, Structure

from .transfer_values import ValueRefused, moments_readable, strings_check, values_check

FORMAT = "tdsystem-event"
VERSION = 1

# Every model of an event, in the order an import writes them: each after those its rows
# point at. (label, the rows of the events `ids` as a query). A model that points at an
# event or an entry and is not here is named in LEFT_OUT (a test keeps the two lists up
# to date with the models).
PARTS: dict[str, Any] = {
    "structures.structure": lambda ids: Structure.objects.filter(event__in=ids),
    "structures.level": lambda ids: Level.objects.filter(structure__event__in=ids),
    "events.houseruleset": lambda ids: HouseRuleSet.objects.filter(events__in=ids).distinct(),
    "seating.venuetable": lambda ids: VenueTable.objects.filter(uses__event__in=ids).distinct(),
    "seating.player": lambda ids: Player.objects.filter(
        Q(entries__event__in=ids) | Q(tickets__target__in=ids)
    ).distinct(),
    "events.event": lambda ids: Event.objects.filter(pk__in=ids),
    "events.clock": lambda ids: Clock.objects.filter(event__in=ids),
    "seating.eventtable": lambda ids: EventTable.objects.filter(event__in=ids),
    "seating.entry": lambda ids: Entry.objects.filter(event__in=ids),
    "seating.move": lambda ids: seating.Move.objects.filter(event__in=ids),
    "seating.purchase": lambda ids: seating.Purchase.objects.filter(event__in=ids),
    "seating.dayend": lambda ids: seating.DayEnd.objects.filter(event__in=ids),
    "seating.bag": lambda ids: seating.Bag.objects.filter(event__in=ids),
    "seating.ticket": lambda ids: seating.Ticket.objects.filter(target__in=ids),
    "results.payoutplan": lambda ids: results.PayoutPlan.objects.filter(event__in=ids),
    "results.handforhand": lambda ids: results.HandForHand.objects.filter(event__in=ids),
    "results.handforhandhand": lambda ids: results.HandForHandHand.objects.filter(event__in=ids),
    "results.handforhandreport": lambda ids: results.HandForHandReport.objects.filter(
        hand__event__in=ids
    ),
    "results.bustoutgroup": lambda ids: results.BustOutGroup.objects.filter(event__in=ids),
    "results.bustout": lambda ids: results.BustOut.objects.filter(event__in=ids),
    "results.bustoutmove": lambda ids: results.BustOutMove.objects.filter(bustout__event__in=ids),
    "results.finish": lambda ids: results.Finish.objects.filter(event__in=ids),
    "results.chipcount": lambda ids: results.ChipCount.objects.filter(event__in=ids),
    "results.chipcounthistory": lambda ids: results.ChipCountHistory.objects.filter(event__in=ids),
    "results.deal": lambda ids: results.Deal.objects.filter(event__in=ids),
    "results.dealshare": lambda ids: results.DealShare.objects.filter(deal__event__in=ids),
    "results.bounty": lambda ids: results.Bounty.objects.filter(event__in=ids),
    "printing.eventprinting": lambda ids: EventPrinting.objects.filter(event__in=ids),
    "shotclock.extensions": lambda ids: shotclock.Extensions.objects.filter(entry__event__in=ids),
    "shotclock.call": lambda ids: shotclock.Call.objects.filter(event__in=ids),
    "core.logentry": lambda ids: LogEntry.objects.filter(event__in=ids),
}
# What points at an event or an entry and stays behind, and why.
LEFT_OUT = {
    # A table's shot clock is the moment's state at the table; its log and each player's
    # extensions travel.
    "shotclock.tableclock": "the tables' running shot clocks",
    # Kept by the database's own triggers from the entries and tables an import writes.
    "seating.tablecount": "counted by triggers",
    "seating.spreadcount": "counted by triggers",
    "results.fieldcount": "counted by triggers",
    # A tablet's login belongs to the room, not to an event.
    "seating.tabledevice": "the room's devices",
    # Accounts never travel with an event: the person who imports it directs it here.
    "core.eventstaff": "the accounts of the installation",
    # A shared ruling is a public link of this installation: its address stays here.
    "rulings.sharedruling": "links of this installation",
    # A player's own page is this installation's address on the player's phone; the
    # alternates list is the desk's queue of the moment, not the event's record.
    "players.playerlink": "links of this installation",
    "players.alternatelist": "the desk's queue",
    "players.alternate": "the desk's queue",
    # What the room's printers printed: paper handed out here, not the event's record.
    "printing.printjob": "the room's printers' queue",
    # The room's dealers and their hours: this room's staff and payroll, not the event's.
    "dealers.rotation": "the room's dealers",
    "dealers.shift": "the room's dealers",
    "dealers.assignment": "the room's dealers",
}
# Derived from the name when a player is written.
DERIVED = {"seating.player": ("name_key", "search_key")}
# Fields gone from a model that files of earlier versions still carry: read past. An
# entry's place, prize and bust time were a copy of its finish, which the file holds.
RETIRED = {"seating.entry": ("busted_at", "place", "prize")}
# Found in the installation by what they are, not made anew (see the module's text).
MATCHED = ("seating.venuetable", "seating.player", "events.houseruleset")
MAX_ROWS = 2_000_000


class TransferError(ValueError):
    """A file that cannot be imported (or an event that cannot be exported), with what is
    wrong; nothing was changed."""


@dataclass(frozen=True)
class Imported:
    event: Event  # the event the file was exported for, as made here
    events: int
    rows: int
    players_found: int  # by member id
    players_new: int


def event_family(event_id: int) -> list[int]:
    """The events one file holds: the event, or its festival (the event the flights are of,
    then the flights)."""
    event = Event.objects.filter(pk=event_id).only("pk", "parent_id").first()
    if event is None:
        raise TransferError(_("There is no event %(id)s.") % {"id": event_id})
    root = event.parent_id or event.pk
    flights = Event.objects.filter(parent_id=root).order_by("pk").values_list("pk", flat=True)
    return [root, *flights]


def event_export(*, event_id: int) -> dict:
    """The event's file as a dict (`event_export_json` for the bytes), read in one
    transaction: one moment of the event, whatever is being recorded meanwhile."""
    outermost = not connection.in_atomic_block  # else the caller's transaction reads it
    with transaction.atomic():
        if outermost and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        ids = event_family(event_id)
        rows: dict[str, list[dict]] = {}
        users: set[int] = set()
        for label, query in PARTS.items():
            found = query(ids).order_by("pk")
            if label == "events.event":
                found = sorted(found, key=lambda e: (e.pk != ids[0], e.pk))
            rows[label] = [_row(label, item, users) for item in serializers.serialize(
                "python", found
            )]  # fmt: skip
        names = dict(get_user_model().objects.filter(pk__in=users).values_list("pk", "username"))
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now(),
        "event": event_id,
        "events": ids,
        "users": {str(pk): name for pk, name in sorted(names.items())},
        "rows": rows,
    }


def _row(label: str, item: dict, users: set[int]) -> dict:
    fields = item["fields"]
    for name in DERIVED.get(label, ()):
        fields.pop(name, None)
    for field in _user_fields(label):
        if fields.get(field.name) is not None:
            users.add(fields[field.name])
    return {"pk": item["pk"], "fields": fields}


class _Encoder(DjangoJSONEncoder):
    """Django's, with the times to the microsecond (its own stops at the millisecond):
    an import gives back the very times that were exported."""

    def default(self, o: object) -> object:
        if isinstance(o, datetime):
            return o.isoformat()
        return super().default(o)


def event_export_json(*, event_id: int) -> bytes:
    return json.dumps(event_export(event_id=event_id), cls=_Encoder, indent=1).encode()


def export_filename(event: Event, at: datetime | None = None) -> str:
    at = timezone.localtime(at or timezone.now())
    return f"event-{event.pk}-{at:%Y%m%d-%H%M}.json"


def _model(label: str) -> type[models.Model]:
    from django.apps import apps

    return apps.get_model(label)


def _user_fields(label: str) -> list[models.Field]:
    user = get_user_model()
    return [
        f for f in _model(label)._meta.concrete_fields if f.is_relation and f.related_model is user
    ]


# Import ------------------------------------------------------------------------------


def event_import(*, data: bytes | str, actor: Actor, name: str = "") -> Imported:
    """Make the file's events here; TransferError (nothing changed) when it cannot be.

    `name` is the file's name, for the log.
    """
    envelope = _envelope(data)
    _check_text(envelope["rows"])
    try:
        with transaction.atomic():
            imported = _Import(envelope).run()
            event_staff_creator(event=imported.event, actor=actor)
            log_record(
                event=imported.event,
                actor=actor,
                action="event.import",
                summary=Text(
                    gettext_noop("Imported from the file %(file)s (event %(id)s there)"),
                    file=name or "-",
                    id=envelope["event"],
                ),
                data={
                    "file": name,
                    "source_event": envelope["event"],
                    "exported_at": envelope.get("exported_at"),
                    "rows": imported.rows,
                },
            )
    except TransferError:
        raise
    except (
        DeserializationError,
        FieldDoesNotExist,
        ValidationError,
        ValueError,
        TypeError,
        KeyError,
    ) as exc:
        raise TransferError(_("The file is not right: %(error)s") % {"error": _short(exc)}) from exc
    except DatabaseError as exc:
        raise TransferError(
            _("The file's rows break a rule of the database, nothing was imported: %(error)s")
            % {"error": _short(exc)}
        ) from exc
    return imported


def _short(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        return "; ".join(exc.messages)[:300]
    return str(exc).strip().splitlines()[0][:300] if str(exc).strip() else type(exc).__name__


def _envelope(data: bytes | str) -> dict:
    try:
        envelope = json.loads(data, parse_constant=_no_constant)
    except UnicodeDecodeError:
        raise TransferError(
            _("The file is not text (UTF-8): is it an event's JSON file?")
        ) from None
    except json.JSONDecodeError as exc:
        raise TransferError(
            _("The file is not JSON (line %(line)s, column %(column)s: %(error)s).")
            % {"line": exc.lineno, "column": exc.colno, "error": exc.msg}
        ) from None
    if not isinstance(envelope, dict) or envelope.get("format") != FORMAT:
        raise TransferError(_("This is not an event file of tdsystem (no “format”: “%(format)s”).")
                            % {"format": FORMAT})  # fmt: skip
    version = envelope.get("version")
    if version != VERSION:
        raise TransferError(
            _(
                "This event file is of format version %(version)s; this tdsystem reads "
                "version %(ours)s. Export it again with a tdsystem of the same version."
            )
            % {"version": version, "ours": VERSION}
        )
    rows, users, event = envelope.get("rows"), envelope.get("users", {}), envelope.get("event")
    if not isinstance(rows, dict) or not isinstance(users, dict):
        raise TransferError(_("The file has no “rows” and “users” objects."))
    unknown = sorted(set(rows) - set(PARTS))
    if unknown:
        raise TransferError(
            _("The file holds rows of %(models)s, which an event's file does not.")
            % {"models": ", ".join(unknown)}
        )
    total = 0
    for label, found in rows.items():
        if not isinstance(found, list) or not all(
            isinstance(r, dict) and isinstance(r.get("fields"), dict) and _is_id(r.get("pk"))
            for r in found
        ):
            raise TransferError(
                _("The rows of %(model)s are not a list of {“pk”, “fields”} objects.")
                % {"model": label}
            )
        total += len(found)
    if total > MAX_ROWS:
        raise TransferError(_("The file holds more rows than an event has."))
    if not any(r["pk"] == event for r in rows.get("events.event", [])):
        raise TransferError(
            _("The file does not hold its event (“event”: %(id)s).") % {"id": event}
        )
    if not all(_is_id(k) and isinstance(v, str) for k, v in users.items()):
        raise TransferError(_("“users” must map ids to user names."))
    return envelope


def _no_constant(name: str) -> None:
    raise TransferError(_("The file holds %(value)s, which is not a number.") % {"value": name})


def _is_id(value: object) -> bool:
    if isinstance(value, str):
        return value.isdigit()
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _check_text(rows: dict) -> None:
    """Every string of the file as text may be (transfer_values.strings_check), before
    anything is written."""
    for label, found in rows.items():
        for row in found:
            try:
                strings_check(row["fields"])
            except ValueRefused as refused:
                raise _refused(label, row["pk"], refused) from None


def _refused(label: str, row: object, refused: ValueRefused) -> TransferError:
    return TransferError(
        _("%(model)s %(id)s, field %(field)s: %(problem)s.")
        % {"model": label, "id": row, "field": refused.field, "problem": refused.problem}
    )


class _Import:
    """One file written here: the models in PARTS' order, each row's relations turned
    into this installation's ids as they are made."""

    def __init__(self, envelope: dict):
        self.rows: dict[str, list[dict]] = envelope["rows"]
        for label, names in RETIRED.items():
            for row in self.rows.get(label, []):
                for name in names:
                    row["fields"].pop(name, None)
        self.source_event = envelope["event"]
        self.ids: dict[str, dict[int, int]] = defaultdict(dict)
        users = {str(k): v for k, v in envelope["users"].items()}
        here = dict(
            get_user_model()
            .objects.filter(username__in=set(users.values()))
            .values_list("username", "pk")
        )
        self.users = {int(k): here.get(name) for k, name in users.items()}
        self.written = 0
        self.players_found = 0
        self.players_new = 0

    def run(self) -> Imported:
        self._refuse_tables_in_use()
        for label in PARTS:
            found = self.rows.get(label, [])
            if label in MATCHED:
                getattr(self, "_match_" + label.split(".")[1])(found)
            else:
                self._write(label, found)
        self._after()
        event = Event.objects.get(pk=self.ids["events.event"][int(self.source_event)])
        return Imported(
            event=event,
            events=len(self.ids["events.event"]),
            rows=self.written,
            players_found=self.players_found,
            players_new=self.players_new,
        )

    # Rows found here ------------------------------------------------------------------

    def _match_venuetable(self, found: list[dict]) -> None:
        for row in found:
            table = _deserialized("seating.venuetable", None, row["fields"], row["pk"])
            existing = VenueTable.objects.filter(number=table.number).first()
            if existing is None:
                table.save()
                existing = table
                self.written += 1
            self.ids["seating.venuetable"][int(row["pk"])] = existing.pk

    def _match_player(self, found: list[dict]) -> None:
        for row in found:
            player = _deserialized("seating.player", None, row["fields"], row["pk"])
            member = player.member_id.strip()
            existing = Player.objects.filter(member_id=member).first() if member else None
            if existing is None:
                _save_as_in_file(player)
                existing = player
                self.players_new += 1
                self.written += 1
            else:
                self.players_found += 1
            self.ids["seating.player"][int(row["pk"])] = existing.pk

    def _match_houseruleset(self, found: list[dict]) -> None:
        for row in found:
            house = _deserialized("events.houseruleset", None, row["fields"], row["pk"])
            same = HouseRuleSet.objects.filter(name__iexact=house.name).first()
            if same is None or (same.base, same.overrides) != (house.base, house.overrides):
                if same is not None:
                    house.name = _free_name(house.name)
                _save_as_in_file(house)
                self.written += 1
                same = house
            self.ids["events.houseruleset"][int(row["pk"])] = same.pk

    def _refuse_tables_in_use(self) -> None:
        numbers = {
            int(r["fields"].get("number", 0)): int(r["pk"])
            for r in self.rows.get("seating.venuetable", [])
        }
        by_id = {pk: number for number, pk in numbers.items()}
        wanted = sorted(
            {
                by_id.get(int(r["fields"].get("venue_table") or 0), 0)
                for r in self.rows.get("seating.eventtable", [])
                if r["fields"].get("in_play")
            }
            - {0}
        )
        locks_take(venue_tables=wanted)
        busy = (
            EventTable.objects.filter(in_play=True, venue_table__number__in=wanted)
            .select_related("event")
            .order_by("venue_table__number")
        )
        if busy:
            raise TransferError(
                _(
                    "Tables in play in the file are in play here too: %(tables)s. Finish that "
                    "event or give its tables back first."
                )
                % {
                    "tables": ", ".join(
                        _("table %(number)s (%(event)s)")
                        % {"number": t.venue_table.number, "event": t.event.name}
                        for t in busy
                    )
                }
            )

    # Rows made anew ---------------------------------------------------------------------

    def _write(self, label: str, found: list[dict]) -> None:
        model = _model(label)
        pending = list(found)
        in_file = {int(row["pk"]) for row in found}
        while pending:
            ready: list[dict] = []
            waiting: list[dict] = []
            for row in pending:
                (waiting if self._waits(model, row, in_file) else ready).append(row)
            if not ready:
                raise TransferError(
                    _("%(model)s %(id)s points at a row of its own kind that is not in the file.")
                    % {"model": label, "id": waiting[0]["pk"]}
                )
            self._write_rows(label, model, ready)
            pending = waiting

    def _waits(self, model: type[models.Model], row: dict, in_file: set[int]) -> bool:
        """A row pointing at one of its own kind not made yet (a Day 2 entry's flight
        entry, a flight's event) waits for it."""
        made = self.ids[model._meta.label_lower]
        for field in model._meta.concrete_fields:
            if field.is_relation and field.related_model is model:
                value = row["fields"].get(field.name)
                if _is_id(value) and int(value) in in_file and int(value) not in made:
                    return True
        return False

    def _write_rows(self, label: str, model: type[models.Model], found: list[dict]) -> None:
        objects, stamps = [], []
        key = model._meta.pk
        for row in found:
            fields = dict(row["fields"])
            for field in model._meta.concrete_fields:
                if field.is_relation and field.name in fields and not field.primary_key:
                    fields[field.name] = self._id(label, row["pk"], field, fields[field.name])
            pk = self._id(label, row["pk"], key, row["pk"]) if key.is_relation else None
            obj = _deserialized(label, pk, fields, row["pk"])
            stamps.append({f.attname: getattr(obj, f.attname) for f in _stamped(model)})
            objects.append(obj)
        model._default_manager.bulk_create(objects, batch_size=500)
        timed = _stamped(model)
        if timed:
            for obj, values in zip(objects, stamps, strict=True):
                for name, value in values.items():
                    setattr(obj, name, value)
            model._default_manager.bulk_update(objects, [f.name for f in timed], batch_size=500)
        for row, obj in zip(found, objects, strict=True):
            self.ids[label][int(row["pk"])] = obj.pk
        self.written += len(objects)

    def _id(self, label: str, pk: object, field: models.Field, value: Any) -> int | None:
        """This installation's id for the file's `value` of the relation `field`."""
        if value is None:
            return None
        if not _is_id(value):
            raise TransferError(
                _("%(model)s %(id)s, field %(field)s: %(value)s is not an id.")
                % {"model": label, "id": pk, "field": field.name, "value": value}
            )
        related = field.related_model
        assert related is not None and not isinstance(related, str)  # a concrete relation
        target = related._meta.label_lower
        if related is get_user_model():
            return self.users.get(int(value))
        found = self.ids[target].get(int(value))
        if found is None and target == "events.event" and field.null:
            return None  # an event outside the file: a satellite's target, a ticket's source
        if found is None:
            raise TransferError(
                _("%(model)s %(id)s, field %(field)s: %(target)s %(value)s is not in the file.")
                % {"model": label, "id": pk, "field": field.name, "target": target, "value": value}
            )
        return found

    def _after(self) -> None:
        # The exact level changes are sent again by this installation's beat.
        clocks = self.ids["events.clock"].values()
        Clock.objects.filter(pk__in=list(clocks)).update(scheduled_version=0)


def _deserialized(label: str, pk: int | None, fields: dict, row: object) -> Any:
    """An unsaved model made from the file's row `row` (Django's deserializer: each value
    converted by its field, a field the model does not have refused), its values as every
    other way in takes them (transfer_values)."""
    try:
        moments_readable(_model(label), fields)
        found = serializers.deserialize("python", [{"model": label, "pk": pk, "fields": fields}])
        obj = next(found).object
        values_check(label, obj)
    except ValueRefused as refused:
        raise _refused(label, row, refused) from None
    if isinstance(obj, Event | HouseRuleSet):
        try:
            if isinstance(obj, Event):
                rulesets.effective(obj.rule_set, obj.rule_overrides)
            else:
                rulesets.effective(obj.base, obj.overrides)
        except rulesets.RuleSetError as exc:
            raise TransferError(
                _("%(model)s %(id)s: %(problem)s.") % {"model": label, "id": row, "problem": exc}
            ) from None
    return obj


def _save_as_in_file(obj: models.Model) -> None:
    """Saved (its model's own save() runs), its times those of the file."""
    times = {f.attname: getattr(obj, f.attname) for f in _stamped(type(obj))}
    obj.save()
    if times:
        type(obj)._default_manager.filter(pk=obj.pk).update(**times)


def _stamped(model: type[models.Model]) -> list[models.Field]:
    """Fields a write fills with the time of the write: put back to the file's after."""
    return [
        f
        for f in model._meta.concrete_fields
        if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
    ]


def _free_name(name: str) -> str:
    taken = set(HouseRuleSet.objects.annotate(lower=Lower("name")).values_list("lower", flat=True))
    base = _("%(name)s (imported)") % {"name": name[:100]}
    candidate, n = base, 1
    while candidate.lower() in taken:
        n += 1
        candidate = f"{base} {n}"
    return candidate


def parts_of(ids: Iterable[int]) -> dict[str, int]:
    """How many rows of each model an export of `ids` would hold."""
    return {label: query(list(ids)).count() for label, query in PARTS.items()}
