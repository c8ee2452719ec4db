"""Where the apps built on results plug into the table page.

Results imports none of them: an app above (the shot clock) registers a panel
(`core.panels.Panel`) from its AppConfig.ready. The table page renders each into itself,
outside the fragment that polls, so a panel keeps its own state and its own refresh by its
URL. Registering twice is harmless.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from tdsystem.core.panels import Panel

if TYPE_CHECKING:
    from tdsystem.events.models import Event


# (event, table number) -> the panel to show on that table's page, or None.
TablePanel = Callable[["Event", int], Panel | None]

table_panels: list[TablePanel] = []


def register(*, table_panel: TablePanel | None = None) -> None:
    if table_panel is not None and table_panel not in table_panels:
        table_panels.append(table_panel)


def panels(event: Event, number: int) -> list[Panel]:
    """The registered panels for this table's page (none when no app is installed)."""
    return [panel for ask in table_panels if (panel := ask(event, number)) is not None]
