"""Where the apps built on results plug into the table page.

Results imports none of them: an app above (the shot clock) registers a panel from its
AppConfig.ready. The table page renders each into itself: a panel loaded once the page had
opened would come in above the seats and push them under a finger about to tap one. It
sits outside the fragment that polls, so a panel keeps its own state and refreshes itself
by its own URL. Registering twice is harmless.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from django.http import HttpRequest

    from tdsystem.events.models import Event


# (event, table number, request) -> the panel's HTML on that table's page, "" for none.
TablePanel = Callable[["Event", int, "HttpRequest"], str]

table_panels: list[TablePanel] = []


def register(*, table_panel: TablePanel | None = None) -> None:
    if table_panel is not None and table_panel not in table_panels:
        table_panels.append(table_panel)


def panels(event: Event, number: int, request: HttpRequest) -> list[str]:
    """The registered panels' HTML for this table's page (none when no app is installed)."""
    return [html for render in table_panels if (html := render(event, number, request))]
