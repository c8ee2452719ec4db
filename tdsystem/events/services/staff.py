"""An event's staff: who of the director and floor accounts acts on it (core.access reads
it for every check). Its creator directs a new event; a copy keeps the staff of the event
it copies; a flight has the staff of the event it is a flight of, so the rows are always
that event's. Each change is written to the event's log.

Superusers act on every event and are no event's staff to add; only a superuser removes
one from a staff list (a superuser's own event, made before). An event keeps one director
at least, so someone may always manage its staff without a superuser.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tdsystem.core.access import DIRECTOR, FLOOR, roles_of
from tdsystem.core.actors import Actor
from tdsystem.core.locking import event_lock
from tdsystem.core.log import Text, log_record
from tdsystem.core.models import EventStaff

from ..models import Event

if TYPE_CHECKING:
    from django.contrib.auth.models import User

ROLE_LABELS = {DIRECTOR: gettext_noop("director"), FLOOR: gettext_noop("floor")}


class StaffError(ValueError):
    """A staff change the rules refuse; nothing was changed."""


class StaffRefused(StaffError):
    """A staff change the person asking has no right to make (a superuser's place)."""


def staff_event(event: Event) -> Event:
    """The event whose staff act on `event`: itself, or for a flight its event."""
    return (event.parent if event.parent_id else None) or event


def staff_candidates() -> QuerySet:
    """The accounts that may be put on an event's staff: active director and floor
    accounts, not superusers (they act on every event already)."""
    return (
        get_user_model()
        .objects.filter(is_active=True, is_superuser=False, groups__name__in=[DIRECTOR, FLOOR])
        .distinct()
        .order_by("username")
    )


@dataclass(frozen=True)
class StaffRow:
    user_id: int
    name: str
    role: str
    role_label: str
    superuser: bool


def staff_rows(event: Event) -> list[StaffRow]:
    """The event's staff (a flight's: its event's), directors first, by name."""
    places = (
        EventStaff.objects.filter(event=staff_event(event))
        .select_related("user")
        .order_by("role", "user__username")
    )
    return [
        StaffRow(
            p.user_id,
            p.user.get_username(),
            p.role,
            str(EventStaff.Role(p.role).label),
            p.user.is_superuser,
        )
        for p in places
    ]


def event_staff_creator(*, event: Event, actor: Actor) -> None:
    """The person who made an event directs it (a flight has its event's staff)."""
    if actor.user is not None and event.parent_id is None:
        EventStaff.objects.get_or_create(event=event, user=actor.user, defaults={"role": DIRECTOR})


def event_staff_copy(*, source: Event, event: Event) -> list[str]:
    """A copy keeps the staff of the event it copies (its creator directs it as well);
    returns the names copied."""
    places = EventStaff.objects.filter(event=staff_event(source)).select_related("user")
    EventStaff.objects.bulk_create(
        [EventStaff(event=event, user_id=p.user_id, role=p.role) for p in places],
        ignore_conflicts=True,
    )
    return sorted(p.user.get_username() for p in places)


def _role_label(role: str) -> Text:
    return Text(ROLE_LABELS[role])


def event_staff_add(*, event_id: int, user: User, role: str, actor: Actor) -> EventStaff:
    """Put `user` on the event's staff (a flight's: its event's) as `role`, or change their
    role there. A floor account can be floor staff only."""
    if role not in ROLE_LABELS:
        raise StaffError(_("Pick director or floor."))
    if user.is_superuser:
        raise StaffError(
            _("%(name)s is a superuser and acts on every event already.")
            % {"name": user.get_username()}
        )
    account = roles_of(user)
    if not user.is_active or not account & {DIRECTOR, FLOOR}:
        raise StaffError(
            _("%(name)s is neither a director nor a floor account.") % {"name": user.get_username()}
        )
    if role == DIRECTOR and DIRECTOR not in account:
        raise StaffError(
            _("%(name)s has a floor account: they can be floor staff only.")
            % {"name": user.get_username()}
        )
    with transaction.atomic():
        event = _locked(event_id)
        place, created = EventStaff.objects.get_or_create(
            event=event, user=user, defaults={"role": role}
        )
        if not created and place.role == role:
            return place
        if not created:
            _keep_a_director(event, leaving=place)
            previous = place.role
            EventStaff.objects.filter(pk=place.pk).update(role=role)
            place.role = role
        log_record(
            event=event,
            actor=actor,
            action="staff.add" if created else "staff.role",
            summary=Text(
                gettext_noop("%(name)s added to the staff as %(role)s")
                if created
                else gettext_noop("%(name)s is now %(role)s on the staff"),
                name=user.get_username(),
                role=_role_label(role),
            ),
            data={"user": user.pk, "role": role} | ({} if created else {"previous": previous}),
        )
    return place


def event_staff_remove(*, event_id: int, user_id: int, actor: Actor) -> bool:
    """Take the user off the event's staff (a flight's: its event's); False when they were
    not on it. A superuser's place is a superuser's to remove."""
    with transaction.atomic():
        event = _locked(event_id)
        place = EventStaff.objects.filter(event=event, user_id=user_id).select_related("user")
        found = place.first()
        if found is None:
            return False
        if found.user.is_superuser and not (actor.user and actor.user.is_superuser):
            raise StaffRefused(_("Only a superuser may take a superuser off the staff."))
        _keep_a_director(event, leaving=found)
        found.delete()
        log_record(
            event=event,
            actor=actor,
            action="staff.remove",
            summary=Text(
                gettext_noop("%(name)s taken off the staff (was %(role)s)"),
                name=found.user.get_username(),
                role=_role_label(found.role),
            ),
            data={"user": user_id, "role": found.role},
        )
    return True


def _locked(event_id: int) -> Event:
    """The event whose staff change, under its lock (two directors changing the list at
    once each see the other's change: the last director is never removed twice over)."""
    event = Event.objects.filter(pk=event_id).only("pk", "parent_id").first()
    if event is None:
        raise StaffError(_("There is no event %(id)s.") % {"id": event_id})
    return event_lock(Event.objects, event.parent_id or event.pk, error=StaffError)


def _keep_a_director(event: Event, leaving: EventStaff) -> None:
    if leaving.role != DIRECTOR:
        return
    others = EventStaff.objects.filter(event=event, role=DIRECTOR).exclude(pk=leaving.pk)
    if not others.exists():
        raise StaffError(
            _("%(name)s is the event's only director: add another director first.")
            % {"name": leaving.user.get_username()}
        )
