"""Where the apps built on results plug into the table page.

Results imports none of them: an app above (the shot clock) registers a panel from its
AppConfig.ready, and the table page loads each panel by its URL (htmx), outside the
fragment that polls, so a panel keeps its own state and its own refresh. Registering
twice is harmless.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tdsystem.events.models import Event


@dataclass(frozen=True)
class Panel:
    """A part of the table page another app serves: its element id, its URL, and the
    words of the link shown until it loads (or without scripts)."""

    id: str
    url: str
    label: str


# (event, table number) -> the panel to show on that table's page, or None.
TablePanel = Callable[["Event", int], Panel | None]

table_panels: list[TablePanel] = []


def register(*, table_panel: TablePanel | None = None) -> None:
    if table_panel is not None and table_panel not in table_panels:
        table_panels.append(table_panel)


def panels(event: Event, number: int) -> list[Panel]:
    """The registered panels for this table's page (none when no app is installed)."""
    return [panel for ask in table_panels if (panel := ask(event, number)) is not None]
