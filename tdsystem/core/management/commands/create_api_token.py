"""Print a new API token for a user; the token is the last word of the output."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from tdsystem.core.actors import Actor
from tdsystem.core.tokens import api_token_create


class Command(BaseCommand):
    help = "Create an API token for USERNAME (sent as 'Authorization: Bearer <token>')."

    def add_arguments(self, parser) -> None:
        parser.add_argument("username")
        parser.add_argument("--label", default="")

    def handle(self, *args, username: str, label: str, **options) -> None:
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"no user named {username!r}")
        _token, raw = api_token_create(
            user=user, label=label, actor=Actor(label="manage.py create_api_token")
        )
        self.stdout.write(f"API token for {username} (shown once): {raw}")
