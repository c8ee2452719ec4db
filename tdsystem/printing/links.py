"""The links printed in QR codes: addresses other devices reach (core.network)."""

from __future__ import annotations

from django.urls import reverse

from tdsystem.core.network import public_url


def player_link(*, event_id: int, entry_number: int) -> str:
    """The player's own page for a seat card's QR code: for now the seat lookup showing
    that entry (its seat and its moves). The one place to change when players get a page
    of their own."""
    return public_url(reverse("seating:lookup", args=[event_id]) + f"?entry={entry_number}")


def console_link() -> str:
    return public_url(reverse("console:home"))
