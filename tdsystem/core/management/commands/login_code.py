"""Print a one-time login code for a user; the code is the last word of the first line."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from tdsystem.core.actors import Actor
from tdsystem.core.login_codes import CODE_LIFETIME, login_code_create


class Command(BaseCommand):
    help = (
        "Make a one-time login code for USERNAME, for when the name is locked out or the "
        "password is lost: it logs in once at /login/code/ within 15 minutes."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("username")

    def handle(self, *args, username: str, **options) -> None:
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"no user named {username!r}")
        if not user.is_active:
            raise CommandError(f"{username} is not active: make the account active first")
        raw = login_code_create(user=user, actor=Actor(label="manage.py login_code"))
        minutes = int(CODE_LIFETIME.total_seconds() // 60)
        self.stdout.write(f"One-time login code for {username} (works once, {minutes} min): {raw}")
        self.stdout.write("Log in with it at /login/code/ (it also lifts the name's lockout).")
