"""Receipt printing with a real Celery worker and a fake network printer on loopback: a
registration from the console prints the seat card, a balancing move its slip, a player out
in the money a payout slip; a printer off the network loses nothing and prints everything
in order once it is back."""

from __future__ import annotations

import pytest
import zxingcpp

from tdsystem.players.models import PlayerLink
from tdsystem.printing import preview, services
from tdsystem.printing.models import EventPrinting, PrintJob
from tdsystem.results import services as results
from tdsystem.results.models import PayoutPlan
from tdsystem.seating import services as seating
from tdsystem.seating.models import Entry
from tdsystem.simulation.seatings import ACTOR, arrange
from tests.fake_printer import FakePrinter
from tests.fixtures import make_event
from tests.worker import Worker, wait_for

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

FULL = list(range(1, 10))


@pytest.fixture
def fake():
    printer = FakePrinter()
    printer.start()
    yield printer
    printer.stop()


@pytest.fixture
def print_worker(tmp_path, monkeypatch, settings):
    """A worker that tries a waiting printer again every half second."""
    settings.PUBLIC_URL = "http://tdsystem.test"
    monkeypatch.setenv("PRINT_RETRY_SECONDS", "0.5")
    monkeypatch.setenv("PRINT_SWEEP_SECONDS", "2")
    monkeypatch.setenv("PRINT_TIMEOUT_SECONDS", "2")
    worker = Worker(tmp_path)
    worker.purge()
    worker.start()
    yield worker
    worker.stop()


def papers(fake: FakePrinter, count: int) -> list[preview.Paper]:
    return [preview.read(data) for data in fake.documents(count, timeout=30)]


def test_the_floor_s_documents_print_by_themselves(print_worker, fake, client, director):
    event = make_event(600)
    players = arrange(
        event, {1: FULL, 2: [1, 2, 3, 4, 5, 6, 7]}, positions={1: (1, 2, 3), 2: (1, 2, 3)}
    )
    PayoutPlan.objects.create(event=event, table="custom", percentages=["20"] + ["5"] * 16)
    services.printer_add(name="Floor", url=fake.url)
    client.force_login(director)

    response = client.post(f"/console/events/{event.pk}/seating/register", {"name": "Ann Lee"})
    assert response.status_code in (200, 302)
    ann = Entry.objects.get(event=event, player__name="Ann Lee")
    (card,) = papers(fake, 1)
    assert f"Table {ann.table.number}, seat {ann.seat}" in card.text
    (code,) = zxingcpp.read_barcodes(card.image())
    link = PlayerLink.objects.get(entry=ann, revoked_at__isnull=True)
    assert code.text == f"http://tdsystem.test/me/{link.token}/"  # the player's own page

    # Table 2 (8 players with Ann) loses two: 9 against 6, a player moves from table 1;
    # every place is paid.
    results.bustout_record(event_id=event.pk, entry_ids=[players["T2S4"].pk], actor=ACTOR)
    results.bustout_record(event_id=event.pk, entry_ids=[players["T2S5"].pk], actor=ACTOR)
    printed = {paper.text.split("\n")[0]: paper.text for paper in papers(fake, 4)[1:]}
    assert sorted(printed) == ["Move slip", "Payout slip"]
    slips = [paper.text for paper in papers(fake, 4)[1:]]
    assert any("T2S4" in t and "17th" in t for t in slips)
    assert any("T2S5" in t and "16th" in t for t in slips)
    assert "Table 2, seat" in printed["Move slip"] and "Balancing" in printed["Move slip"]


def test_a_printer_off_the_network_prints_everything_in_order_when_it_is_back(print_worker, fake):
    event = make_event(600)
    arrange(event, {1: FULL, 2: [1, 2, 3]}, positions={1: (1, 2, 3), 2: (1, 2, 3)})
    EventPrinting.objects.create(event=event, move_slips=False)  # the seat cards alone
    services.printer_add(name="Floor", url=fake.url)
    fake.stop()
    names = ["Ann", "Bo", "Cy", "Di"]
    for name in names:
        seating.player_register(event=event, name=name, actor=ACTOR, rng_seed=1)
    waiting = wait_for(
        lambda: PrintJob.objects.filter(status=PrintJob.Status.WAITING).first(), timeout=20
    )
    assert waiting is not None and "refused" in waiting.error.lower()
    # The printer is off for a while: the worker keeps trying, nothing is printed or lost.
    assert wait_for(lambda: waiting.__class__.objects.get(pk=waiting.pk).attempts >= 3, 20)
    assert PrintJob.objects.filter(status=PrintJob.Status.QUEUED).count() + 1 == len(names)

    fake.start()
    printed = papers(fake, len(names))
    assert [paper.text.split("\n")[5].split("  #")[0] for paper in printed] == names
    assert wait_for(
        lambda: set(PrintJob.objects.values_list("status", flat=True)) == {"printed"}, 10
    )
