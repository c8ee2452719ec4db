"""The dealers' own refusal: a sentence for people, and the form field it is about."""

from __future__ import annotations


class DealerError(ValueError):
    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field
