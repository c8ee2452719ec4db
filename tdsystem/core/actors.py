"""Who did something: the person or the process every service call names."""

from __future__ import annotations

from dataclasses import dataclass

SYSTEM_ACTOR = "clock"


@dataclass(frozen=True)
class Actor:
    """Who did something: a user, or a named process (the Celery worker, a command)."""

    user: object | None = None
    label: str = SYSTEM_ACTOR

    @classmethod
    def of(cls, user: object | None) -> Actor:
        if user is not None and getattr(user, "is_authenticated", False):
            return cls(user=user, label=user.get_username())
        return cls()
