"""The player's page on the seating console: the entry panel's QR code and address, a new
link for a lost phone, the seat card printed from the panel and from the registration."""

from __future__ import annotations

import re

import pytest
import zxingcpp

from tdsystem.players.models import PlayerLink
from tdsystem.printing.models import PrintJob
from tdsystem.simulation.seatings import arrange
from tests.fixtures import make_event
from tests.personas import make_user

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def decode_svg_qr(html: str) -> str:
    """The text of the inline SVG QR code (qrcode's path image: one square per module)."""
    size = int(re.search(r'viewBox="0 0 (\d+) \d+"', html).group(1))
    scale = 8
    width = size * scale
    pixels = bytearray(b"\xff" * width**2)
    for x, y in re.findall(r"M(\d+),(\d+)H", html):
        for row in range(int(y) * scale, (int(y) + 1) * scale):
            start = row * width + int(x) * scale
            pixels[start : start + scale] = b"\x00" * scale
    code = zxingcpp.read_barcode(memoryview(bytes(pixels)).cast("B", (width, width)))
    assert code is not None, "no QR code found"
    return code.text


@pytest.fixture(autouse=True)
def _public(settings):
    settings.PUBLIC_URL = "http://tdsystem.test"


@pytest.fixture
def seated():
    event = make_event(30)
    return arrange(event, {1: [1, 2, 3]})


def page_url(entry) -> str:
    return f"/console/events/{entry.event_id}/entries/{entry.number}/page/"


def test_the_entry_panel_loads_the_player_s_page(client, floor_person, seated):
    entry = seated["T1S2"]
    client.force_login(floor_person)
    panel = client.get(f"/console/events/{entry.event_id}/seating/entries/{entry.pk}/", **HTMX)
    assert f'hx-get="{page_url(entry)}"' in panel.content.decode()
    shown = client.get(page_url(entry), **HTMX).content.decode()
    link = PlayerLink.objects.get(entry=entry, revoked_at__isnull=True)
    assert decode_svg_qr(shown) == f"http://tdsystem.test/me/{link.token}/"
    assert f">http://tdsystem.test/me/{link.token}/</a>" in shown
    assert "Not opened yet." in shown and 'id="print-card"' in shown
    assert "<html" not in shown  # the fragment
    assert "<html" in client.get(page_url(entry)).content.decode()  # without a script: a page


def test_it_says_when_the_player_s_page_was_seen(client, floor_person, seated):
    entry = seated["T1S2"]
    client.force_login(floor_person)
    client.get(page_url(entry), **HTMX)
    PlayerLink.objects.filter(entry=entry).update(seen_at="2026-12-06T14:32:00Z")
    shown = client.get(page_url(entry), **HTMX).content.decode()
    assert "Seen on the player's phone at" in shown and "Not opened yet" not in shown


def test_a_new_link_stops_the_old_card(client, floor_person, seated):
    entry = seated["T1S2"]
    client.force_login(floor_person)
    client.get(page_url(entry), **HTMX)
    old = PlayerLink.objects.get(entry=entry)
    renewed = client.post(page_url(entry) + "renew", **HTMX).content.decode()
    new = PlayerLink.objects.get(entry=entry, revoked_at__isnull=True)
    assert new.token != old.token and "the old card no longer opens the page" in renewed
    assert decode_svg_qr(renewed) == f"http://tdsystem.test/me/{new.token}/"
    assert client.get(f"/me/{old.token}/").status_code == 404
    assert client.get(f"/me/{new.token}/").status_code == 200
    plain = client.post(page_url(entry) + "renew")  # without a script
    assert plain.status_code == 302 and plain["Location"] == page_url(entry)


def test_the_panel_prints_the_card_with_the_live_link(client, floor_person, seated):
    entry = seated["T1S2"]
    client.force_login(floor_person)
    client.post(page_url(entry) + "renew", **HTMX)
    url = f"/console/events/{entry.event_id}/printing/card/{entry.number}"
    answer = client.post(url, **HTMX).content.decode()
    job = PrintJob.objects.get()
    assert job.status == PrintJob.Status.BROWSER and "open the card to print it" in answer
    link = PlayerLink.objects.get(entry=entry, revoked_at__isnull=True)
    assert job.data["url"] == f"http://tdsystem.test/me/{link.token}/"
    card = client.get(f"/console/events/{entry.event_id}/printing/jobs/{job.pk}/").content.decode()
    assert decode_svg_qr(card) == job.data["url"]
    assert "This code is yours alone" in card
    plain = client.post(url)  # without a script: the card's page to print
    assert plain["Location"] == f"/console/events/{entry.event_id}/printing/jobs/{job.pk + 1}/"
    refused = client.post(f"/console/events/{entry.event_id}/printing/card/99", **HTMX)
    assert "no entry #99" in refused.content.decode()


def test_a_registration_offers_its_card_and_page(client, floor_person, seated):
    event_id = seated["T1S1"].event_id
    client.force_login(floor_person)
    shown = client.post(
        f"/console/events/{event_id}/seating/register", {"name": "Ann Lee"}, **HTMX
    ).content.decode()
    ann = seated["T1S1"].event.entries.get(player__name="Ann Lee")
    assert f'hx-post="/console/events/{event_id}/printing/card/{ann.number}"' in shown
    assert f'hx-get="/console/events/{event_id}/seating/entries/{ann.pk}/"' in shown


def test_only_the_event_s_staff_see_or_renew_a_link(client, seated, table_device):
    entry = seated["T1S2"]
    card = f"/console/events/{entry.event_id}/printing/card/{entry.number}"
    assert "/login/" in client.get(page_url(entry))["Location"]
    assert "/login/" in client.post(page_url(entry) + "renew")["Location"]
    client.force_login(table_device)
    assert client.get(page_url(entry)).status_code == 403
    assert client.post(page_url(entry) + "renew").status_code == 403
    assert client.post(card).status_code == 403
    client.force_login(make_user("elsewhere", "floor", events=False))
    assert client.get(page_url(entry)).status_code == 403
    assert client.post(page_url(entry) + "renew").status_code == 403
    assert not PlayerLink.objects.exists() and not PrintJob.objects.exists()
