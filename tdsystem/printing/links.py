"""The links printed in QR codes: addresses other devices reach (core.network)."""

from __future__ import annotations

from django.urls import reverse

from tdsystem.core.network import public_url
from tdsystem.players.links import link_of_entry, links_of_entries, player_url
from tdsystem.seating.models import Entry


def player_link(entry: Entry) -> str:
    """The player's own page for a seat card's QR code: the entry's secret link (made the
    first time it is printed; a card printed after the floor renewed it has the new one)."""
    return player_url(link_of_entry(entry))


def player_links(entries: list[Entry]) -> dict[int, str]:
    """Each entry's page by entry id, for many cards at once (one table's, every seat's)."""
    return {pk: player_url(link) for pk, link in links_of_entries(entries).items()}


def console_link() -> str:
    return public_url(reverse("console:home"))
