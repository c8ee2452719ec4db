"""The people who use the system, with their rights spelled out.

- director: everything (events, structures, clock, seating, bust-outs, rulings)
- floor: console, clock pause/resume, seating, bust-outs, rulings; not the clock's levels
- table: one table's page only
- player / screen: anonymous, read-only public pages

A director or floor account acts only on the events it is staff of. As on an upgraded
installation, where every such account is staff of every event, the personas are staff of
the events the tests make: `make_user` puts a new account on every event there is, and
`tests.fixtures.make_event` puts every director and floor account there is on the new
event. A test of the staff rules makes its outsider after the events, with
`make_user(..., events=False)`, or its event with `make_event(..., staff=False)`.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from tdsystem.core.models import ApiToken, EventStaff, hash_token

PASSWORD = "correct horse battery staple"


STAFF_ROLES = ("director", "floor")


def make_user(username: str, role: str | None, *, events: bool = True):
    """A user in the role's group; a director or floor account is staff of every event
    there is unless `events=False`."""
    user = get_user_model().objects.create_user(username, "", PASSWORD)
    if role:
        user.groups.add(Group.objects.get_or_create(name=role)[0])
    if role in STAFF_ROLES and events:
        from tdsystem.events.models import Event

        EventStaff.objects.bulk_create(
            EventStaff(event_id=pk, user=user, role=role)
            for pk in Event.objects.filter(parent__isnull=True).values_list("pk", flat=True)
        )
    return user


def staff_everyone(event) -> None:
    """Every director and floor account there is on the event's staff, in its own role."""
    if event.parent_id:
        return  # a flight has its event's staff
    users = get_user_model().objects.filter(groups__name__in=STAFF_ROLES).distinct()
    for user in users:
        names = set(user.groups.values_list("name", flat=True))
        role = "director" if "director" in names else "floor"
        EventStaff.objects.get_or_create(event=event, user=user, defaults={"role": role})


def make_token(user) -> str:
    raw = ApiToken.new_key()
    ApiToken.objects.create(user=user, prefix=raw[:8], key_hash=hash_token(raw))
    return raw
