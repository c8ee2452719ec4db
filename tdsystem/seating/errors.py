"""The one error seating services raise; nothing has changed when it is raised."""

from __future__ import annotations


class SeatingError(ValueError):
    """A seating request that cannot be carried out.

    `field` names the input at fault (the request was bad: HTTP 400); without it the
    request was fine but the rules or the current seating refuse it (HTTP 409).
    """

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field
