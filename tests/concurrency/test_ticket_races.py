"""One ticket for a festival's event used in two of its flights at the same moment, on
PostgreSQL with threads. Each registration locks only its own flight's row, so the
ticket's own row lock is what stands between them: the winner registers, the other is
told the ticket is used, and nothing of its registration stays."""

from __future__ import annotations

import time
from decimal import Decimal

import pytest

from tdsystem.seating.errors import SeatingError
from tdsystem.seating.models import Entry, Ticket
from tdsystem.seating.services import tickets
from tdsystem.seating.services.tickets import ticket_issue, ticket_register
from tdsystem.simulation.seatings import ACTOR
from tests.concurrency.threads import errors_of, run_together
from tests.fixtures import make_event

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_a_ticket_used_in_two_flights_at_once_registers_one_entry(monkeypatch):
    main = make_event(600, name="Main event", buy_in=Decimal(200))
    flights = [
        make_event(600, name=f"Day {f}", buy_in=Decimal(200), parent=main, flight=f)
        for f in ("1A", "1B")
    ]
    ticket = ticket_issue(event_id=main.pk, name="Ann Lee", actor=ACTOR)
    check_open = tickets._check_open

    def slow(event):  # both have read the ticket's event before either registers
        check_open(event)
        time.sleep(0.3)

    monkeypatch.setattr(tickets, "_check_open", slow)
    results = run_together(
        *(
            lambda f=flight: ticket_register(ticket_id=ticket.pk, event_id=f.pk, actor=ACTOR)
            for flight in flights
        )
    )
    (refused,) = errors_of(results)
    assert isinstance(refused, SeatingError) and "used already" in str(refused)
    (entry,) = Entry.objects.all()
    assert Ticket.objects.get(pk=ticket.pk).used_by == entry
