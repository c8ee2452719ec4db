"""A part of one app's page that another app serves (the shot clock's panel on results'
table page, seating's flights and end of the day on events' console).

The page renders it into itself: a part loaded once the page has opened comes in above
or between what is already shown and pushes it under a finger or a click about to land
on it. The part then refreshes itself by its URL, as its own fragment.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.http import HttpRequest


@dataclass(frozen=True)
class Panel:
    """Its element id, its URL, the words of the link shown when it cannot be rendered
    into the page, and what renders it there (its HTML for this request, "" when it has
    nothing to show)."""

    id: str
    url: str
    label: str
    render: Callable[[HttpRequest], str] | None = None

    def html(self, request: HttpRequest) -> str | None:
        """Its HTML in the page, or None: the page loads it by its URL."""
        return None if self.render is None else self.render(request)
