"""Load the demo: templates, staff accounts (the floor account on the demo event's staff),
and an event with 27 players seated (idempotent).

The demo's tables are 101-103 (see DEMO_TABLES), clear of the numbers a real night uses.
"""

from __future__ import annotations

import os
import secrets
from decimal import Decimal

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils.translation import gettext_noop

from tdsystem.core.access import ROLES
from tdsystem.core.actors import Actor
from tdsystem.core.log import Text, log_record
from tdsystem.core.models import EventStaff
from tdsystem.events.models import Event
from tdsystem.events.services import event_create
from tdsystem.seating import services as seating
from tdsystem.structures.models import Structure
from tdsystem.structures.published import DEMO_STRUCTURE
from tdsystem.structures.services import templates_install

DEMO_EVENT = "WPT Tournament of Champions (demo)"
DEMO_SEED = 2018
# The demo plays on numbers of its own, so a director's first event finds tables 1, 2, 3
# free even while the demo is still running.
DEMO_TABLES = [101, 102, 103]
DEMO_NOTE = gettext_noop(
    "This demo event plays at tables 101, 102 and 103, so tables 1 and up stay free for "
    "your own events. Finish it or delete it when you no longer need it."
)
PLAYERS = [
    "Ana Souza",
    "Ben Okafor",
    "Chen Wei",
    "Dara Murphy",
    "Elif Yilmaz",
    "Farid Haddad",
    "Greta Lind",
    "Hiro Tanaka",
    "Ines Duarte",
    "Jonas Berg",
    "Kofi Mensah",
    "Lena Novak",
    "Mateo Rossi",
    "Nadia Karim",
    "Oscar Reyes",
    "Priya Nair",
    "Quentin Moreau",
    "Rosa Jimenez",
    "Sam Lee",
    "Tariq Aziz",
    "Uma Patel",
    "Viktor Petrov",
    "Wen Li",
    "Ximena Cruz",
    "Yusuf Demir",
    "Zoe Martin",
    "Aiko Sato",
]


# Each demo account has its own password: the floor's may be handed round the room, the
# director's must not be. (environment variable, file in var/)
PASSWORDS = {
    "director": ("DEMO_PASSWORD", "demo-password.txt"),
    "floor": ("DEMO_FLOOR_PASSWORD", "demo-floor-password.txt"),
}


def demo_password(account: str = "director") -> str:
    """The account's password from the environment, or one generated once and kept in var/
    so `make run` can print it. Either passes the staff password validators."""
    variable, filename = PASSWORDS[account]
    if os.environ.get(variable):
        password = os.environ[variable]
        try:
            validate_password(password)
        except ValidationError as exc:
            raise CommandError(f"{variable}: {' '.join(exc.messages)}") from None
        return password
    path = settings.VAR_DIR / filename
    if path.exists():
        return path.read_text().strip()
    password = secrets.token_urlsafe(12)
    settings.VAR_DIR.mkdir(exist_ok=True)
    path.write_text(password + "\n")
    path.chmod(0o600)
    return password


def demo_login(account: str = "director") -> str:
    """What `make run` prints for a demo account: its password, unless the account has
    another one (a database restored from another laptop keeps that laptop's)."""
    password = demo_password(account)
    user = get_user_model().objects.filter(username=account).first()
    if user is None or user.check_password(password):
        return f"Log in as '{account}' with the password: {password}"
    return (
        f"Log in as '{account}' with its own password (from before a restore; "
        f"python manage.py changepassword {account} sets a new one)"
    )


class Command(BaseCommand):
    help = "Load the demo event (WPT ToC 2018 structure, 27 players at tables 101-103)."

    def handle(self, *args, **options) -> None:
        with transaction.atomic():
            templates_install()
            groups = {name: Group.objects.get_or_create(name=name)[0] for name in ROLES}
            password = demo_password()
            users = get_user_model().objects
            director = users.filter(username="director").first()
            if director is None:
                director = users.create_superuser("director", "", password)
            elif os.environ.get("DEMO_PASSWORD"):
                director.set_password(password)
                director.save()
            director.groups.add(groups["director"])
            floor = users.filter(username="floor").first()
            if floor is None:
                floor = users.create_user("floor", "", demo_password("floor"), is_staff=False)
            elif os.environ.get("DEMO_FLOOR_PASSWORD"):
                floor.set_password(demo_password("floor"))
                floor.save()
            floor.groups.add(groups["floor"])
            event = Event.objects.filter(name=DEMO_EVENT).first()
            created = event is None
            if created:
                event = self._create_event(director)
            # The demo's floor account works the demo out of the box (its director is a
            # superuser, who acts on every event).
            EventStaff.objects.get_or_create(
                event=event, user=floor, defaults={"role": EventStaff.Role.FLOOR}
            )
        self.stdout.write(
            f"Demo event {'created' if created else 'already there'}: {event.name} (id {event.pk})"
        )

    def _create_event(self, director) -> Event:
        actor = Actor.of(director)
        template = Structure.objects.get(name=DEMO_STRUCTURE()["name"], is_template=True)
        event = event_create(
            name=DEMO_EVENT,
            template=template,
            actor=actor,
            buy_in=Decimal("15000"),
            fee=Decimal("0"),
            seats_per_table=9,
            late_registration_end_level=4,
            reentry_allowed=False,
        )
        seating.tables_setup(event=event, numbers=DEMO_TABLES, seats=9, actor=actor)
        for name in PLAYERS:
            seating.player_register(event=event, name=name, actor=actor)
        seating.seats_draw(event=event, actor=actor, seed=DEMO_SEED)
        log_record(event=event, actor=actor, action="event.note", summary=Text(DEMO_NOTE))
        return event
