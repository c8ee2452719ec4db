"""The people who use the system, with their rights spelled out.

- director: everything (events, structures, clock, seating, bust-outs, rulings)
- floor: console, clock pause/resume, seating, bust-outs, rulings; not the clock's levels
- table: one table's page only
- player / screen: anonymous, read-only public pages
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from tdsystem.core.models import ApiToken, hash_token

PASSWORD = "correct horse battery staple"


def make_user(username: str, role: str | None):
    user = get_user_model().objects.create_user(username, "", PASSWORD)
    if role:
        user.groups.add(Group.objects.get_or_create(name=role)[0])
    return user


def make_token(user) -> str:
    raw = ApiToken.new_key()
    ApiToken.objects.create(user=user, prefix=raw[:8], key_hash=hash_token(raw))
    return raw
