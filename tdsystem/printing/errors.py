"""The one error printing services raise; nothing has changed when it is raised."""

from __future__ import annotations


class PrintingError(ValueError):
    """A printing request that cannot be carried out; `field` names the input at fault."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field
