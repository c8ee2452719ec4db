"""The players' app's refusal."""

from __future__ import annotations


class PlayersRefused(ValueError):
    """A link, alternates list or webhook change the state or the rules refuse, said in
    the reader's language; nothing was changed. `field` names the input at fault (the API
    answers 400), else the state refuses it (409)."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field
