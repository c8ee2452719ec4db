"""Where the apps built on results plug into the table page.

Results imports none of them: an app above (the shot clock) registers a panel from its
AppConfig.ready. The table page shows each panel as it is now, rendered into the page
itself (a panel loaded after the page would push the seats down under a finger about to
tap one), outside the fragment that polls, so a panel keeps its own state and its own
refresh by its URL. Registering twice is harmless.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from django.http import HttpRequest

    from tdsystem.events.models import Event


@dataclass(frozen=True)
class Panel:
    """A part of the table page another app serves: its element id, its URL, the words of
    the link shown when it cannot be rendered into the page, and what renders it there
    (its HTML for this request, "" when it has nothing to show)."""

    id: str
    url: str
    label: str
    render: Callable[[HttpRequest], str] | None = None

    def html(self, request: HttpRequest) -> str | None:
        """Its HTML in the page, or None: the page loads it by its URL."""
        return None if self.render is None else self.render(request)


# (event, table number) -> the panel to show on that table's page, or None.
TablePanel = Callable[["Event", int], Panel | None]

table_panels: list[TablePanel] = []


def register(*, table_panel: TablePanel | None = None) -> None:
    if table_panel is not None and table_panel not in table_panels:
        table_panels.append(table_panel)


def panels(event: Event, number: int) -> list[Panel]:
    """The registered panels for this table's page (none when no app is installed)."""
    return [panel for ask in table_panels if (panel := ask(event, number)) is not None]
