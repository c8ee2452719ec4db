"""Who did something: the person or the process every service call names."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from django.contrib.auth.base_user import AbstractBaseUser
    from django.contrib.auth.models import AnonymousUser, User

SYSTEM_ACTOR = "clock"


@dataclass(frozen=True)
class Actor:
    """Who did something: a user, or a named process (the Celery worker, a command)."""

    user: User | None = None
    label: str = SYSTEM_ACTOR

    @classmethod
    def of(cls, user: AbstractBaseUser | AnonymousUser | None) -> Actor:
        if user is not None and getattr(user, "is_authenticated", False):
            # Signed in: a row of the user model (AUTH_USER_MODEL, the default User).
            return cls(user=cast("User", user), label=user.get_username())
        return cls()
