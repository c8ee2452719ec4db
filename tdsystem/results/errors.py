"""The one error results services raise; nothing has changed when it is raised."""

from __future__ import annotations


class ResultsError(ValueError):
    """A bust-out, undo, payout or hand-for-hand request that cannot be carried out.

    `field` names the input at fault (the request was bad: HTTP 400); without it the
    request was fine but the current state refuses it (HTTP 409), e.g. "already out".
    """

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field
