"""Satellites: seats from the pool, the cash place, tickets issued once, and the entries
they pay for in the target."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tdsystem.core.models import LogEntry
from tdsystem.events.models import Clock, Event
from tdsystem.events.services import clock_action
from tdsystem.results import services
from tdsystem.results.errors import ResultsError
from tdsystem.results.models import Finish
from tdsystem.results.services import standings
from tdsystem.results.services.satellites import satellite_read, satellite_tickets_issue
from tdsystem.seating.errors import SeatingError
from tdsystem.seating.models import Entry, Purchase, Ticket
from tdsystem.seating.services.tickets import ticket_issue, ticket_register
from tdsystem.simulation.seatings import ACTOR, arrange
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db
D = Decimal


@pytest.fixture
def target(db):
    return make_event(600, 600, name="Main event", buy_in=D(200), fee=D(20))


@pytest.fixture
def satellite(target):
    # Nine entries of 100: a 900 pool buys four 220 seats, 20 left for fifth place.
    return make_event(600, 600, name="Satellite", buy_in=D(100), satellite_target=target)


def bust(event, *entries, stacks=None):
    return services.bustout_record(
        event_id=event.pk,
        entry_ids=[e.pk for e in entries],
        stacks={e.pk: s for e, s in zip(entries, stacks, strict=True)} if stacks else None,
        actor=ACTOR,
        rng_seed=3,
    )


def prizes(event):
    return dict(
        Finish.objects.filter(event=event, undone_at__isnull=True).values_list(
            "entry__player__name", "prize"
        )
    )


def test_it_pays_seats_and_the_remainder_in_cash_then_issues_one_ticket_per_seat(
    satellite, target, django_capture_on_commit_callbacks
):
    people = arrange(satellite, {1: list(range(1, 10))})
    clock_action(event_id=satellite.pk, action="start", actor=ACTOR)
    plan = standings.plan_for(satellite)
    assert standings.prizes_by_place(plan, 9, D(900)) == (D(220),) * 4 + (D(20),)
    for seat in (9, 8, 7, 6):
        bust(satellite, people[f"T1S{seat}"])
    with pytest.raises(ResultsError, match="5 players are left for 4 seats"):
        satellite_tickets_issue(event_id=satellite.pk, actor=ACTOR)
    bust(satellite, people["T1S5"])
    assert prizes(satellite)["T1S5"] == D(20)  # the cash place: the first without a seat
    state = satellite_read(satellite)
    assert state.decided and state.cash.entry.player.name == "T1S5"
    with django_capture_on_commit_callbacks(execute=True):
        issued = satellite_tickets_issue(event_id=satellite.pk, actor=ACTOR)
    assert sorted(t.player.name for t in issued) == ["T1S1", "T1S2", "T1S3", "T1S4"]
    assert {(t.target_id, t.source_id, t.value) for t in issued} == {
        (target.pk, satellite.pk, D(220))
    }
    satellite.refresh_from_db()
    assert satellite.status == Event.Status.FINISHED
    assert Clock.objects.get(event=satellite).status == Clock.Status.FINISHED
    assert not Entry.objects.filter(event=satellite, table__isnull=False).exists()
    # Once only: the finish hook and a second press issue nothing more.
    assert satellite_tickets_issue(event_id=satellite.pk, actor=ACTOR) == []
    assert Ticket.objects.count() == 4
    assert LogEntry.objects.filter(action="satellite.tickets").count() == 1


def test_a_satellite_played_to_its_winner_issues_the_tickets_at_the_end(
    satellite, django_capture_on_commit_callbacks
):
    people = arrange(satellite, {1: [1, 2, 3, 4, 5]})  # 500: two seats, 60 in cash
    clock_action(event_id=satellite.pk, action="start", actor=ACTOR)
    for seat in (5, 4, 3):
        bust(satellite, people[f"T1S{seat}"])
    with django_capture_on_commit_callbacks(execute=True):
        bust(satellite, people["T1S2"])  # the winner is crowned, the clock finished
    assert prizes(satellite) == {
        "T1S1": D(220),
        "T1S2": D(220),
        "T1S3": D(60),
        "T1S4": D(0),
        "T1S5": D(0),
    }
    assert sorted(Ticket.objects.values_list("player__name", flat=True)) == ["T1S1", "T1S2"]


def test_players_out_across_the_last_seat_share_its_value_and_the_cash_as_money(satellite):
    people = arrange(satellite, {1: list(range(1, 10))})
    for seat in (9, 8, 7, 6):
        bust(satellite, people[f"T1S{seat}"])
    bust(satellite, people["T1S4"], people["T1S5"], stacks=[3000, 3000])  # places 4-5
    assert prizes(satellite)["T1S4"] == prizes(satellite)["T1S5"] == D(120)
    state = satellite_read(satellite)
    assert [f.entry.player.name for f in state.shared] == ["T1S4", "T1S5"]
    issued = satellite_tickets_issue(event_id=satellite.pk, actor=ACTOR)
    assert sorted(t.player.name for t in issued) == ["T1S1", "T1S2", "T1S3"]


def test_the_seat_winners_of_a_satellite_stopped_share_the_top_places_with_a_seat_each(
    satellite, django_capture_on_commit_callbacks
):
    people = arrange(satellite, {1: list(range(1, 10))})
    clock_action(event_id=satellite.pk, action="start", actor=ACTOR)
    for seat in (9, 8, 7, 6, 5):
        bust(satellite, people[f"T1S{seat}"])
    with django_capture_on_commit_callbacks(execute=True):
        satellite_tickets_issue(event_id=satellite.pk, actor=ACTOR)
    rows = list(
        Finish.objects.filter(event=satellite, undone_at__isnull=True)
        .order_by("slot")
        .values_list("entry__player__name", "place", "place_to", "slot", "prize", "from_seat")
    )
    # Four seats shared by the four players left (1-4), the cash place fifth, then the rest.
    assert rows[:5] == [
        ("T1S1", 1, 4, 1, D(220), 1),
        ("T1S2", 1, 4, 2, D(220), 2),
        ("T1S3", 1, 4, 3, D(220), 3),
        ("T1S4", 1, 4, 4, D(220), 4),
        ("T1S5", 5, 5, 5, D(20), 5),
    ]
    assert len(rows) == 9
    assert sum(prizes(satellite).values()) == D(900)  # the seats and the cash: the pool
    state = satellite_read(satellite)
    assert state.decided and [e.player.name for e in state.winners] == [
        "T1S1",
        "T1S2",
        "T1S3",
        "T1S4",
    ]
    # A second press and a change of the payout plan keep the seats as awarded.
    assert satellite_tickets_issue(event_id=satellite.pk, actor=ACTOR) == []
    services.payout_plan_update(event_id=satellite.pk, table="top-3", actor=ACTOR)
    assert Finish.objects.filter(event=satellite, place=1, place_to=4).count() == 4


def test_a_pool_too_small_for_a_seat_is_paid_by_the_plan(satellite):
    people = arrange(satellite, {1: [1, 2]})  # 200 < 220
    plan = standings.plan_for(satellite)
    assert standings.prizes_by_place(plan, 2, D(200)) == (D(200),)
    bust(satellite, people["T1S2"])
    with pytest.raises(ResultsError, match="buys no seat"):
        satellite_tickets_issue(event_id=satellite.pk, actor=ACTOR)
    assert not Ticket.objects.exists()


def test_it_refuses_tickets_for_an_event_that_is_no_satellite(target):
    with pytest.raises(ResultsError, match="no satellite"):
        satellite_tickets_issue(event_id=target.pk, actor=ACTOR)


def test_a_ticket_registers_its_holder_with_the_entry_paid_into_the_target(target):
    ticket = ticket_issue(event_id=target.pk, name="Ann Lee", note="Lyon qualifier", actor=ACTOR)
    assert ticket.value == D(220) and ticket.used_by is None
    done = ticket_register(ticket_id=ticket.pk, actor=ACTOR)
    entry = done.enrolment.entry
    assert entry.player == ticket.player and entry.paid == D(200)
    purchase = Purchase.objects.get(entry=entry)
    assert (purchase.kind, purchase.amount, purchase.fee) == ("entry", D(200), D(20))
    assert standings.field_read(target).pool == D(200)
    ticket.refresh_from_db()
    assert ticket.used_by == entry and ticket.used_at is not None
    assert LogEntry.objects.filter(action="ticket.use").exists()
    with pytest.raises(SeatingError, match="used already"):
        ticket_register(ticket_id=ticket.pk, actor=ACTOR)
    assert Entry.objects.filter(event=target).count() == 1


def test_it_refuses_a_ticket_for_another_event_or_once_registration_closed(target, satellite):
    ticket = ticket_issue(event_id=target.pk, name="Bo", actor=ACTOR)
    with pytest.raises(SeatingError, match="this ticket is for Main event"):
        ticket_register(ticket_id=ticket.pk, event_id=satellite.pk, actor=ACTOR)
    clock_action(event_id=target.pk, action="start", actor=ACTOR)  # no late registration
    with pytest.raises(SeatingError, match="No new entries"):
        ticket_register(ticket_id=ticket.pk, actor=ACTOR)
    ticket.refresh_from_db()
    assert ticket.used_by is None and not Entry.objects.exists()


def test_a_ticket_needs_a_player(target):
    with pytest.raises(SeatingError, match="needs a player") as caught:
        ticket_issue(event_id=target.pk, name="  ", actor=ACTOR)
    assert caught.value.field == "name" and not Ticket.objects.exists()


def test_a_ticket_goes_to_the_player_picked_or_the_member_and_makes_one_only_if_none_matches(
    target,
):
    from tdsystem.seating.models import Player
    from tdsystem.seating.selectors_tickets import ticket_players

    ann = Player.objects.create(name="Ann Lee", member_id="M-17", note="Lyon")
    # Found by name (any part, accents aside) or by member id, the member first.
    assert ticket_players("ann") == ticket_players("M-17") == [ann]
    picked = ticket_issue(event_id=target.pk, player_id=ann.pk, note="qualifier", actor=ACTOR)
    by_member = ticket_issue(event_id=target.pk, member_id="M-17", name="A. Lee", actor=ACTOR)
    assert picked.player == by_member.player == ann
    # A name already a player's is asked about (nothing made), unless it is someone else.
    with pytest.raises(
        SeatingError, match=r"of that name exists already \(Ann Lee \(Lyon\), member M-17\): pick"
    ):
        ticket_issue(event_id=target.pk, name="ann  lee", actor=ACTOR)
    assert Player.objects.count() == 1 and Ticket.objects.count() == 2
    other = ticket_issue(event_id=target.pk, name="Ann Lee", new_player=True, actor=ACTOR)
    assert other.player != ann
    # A member id nobody has makes a new member of the name; without a name it is refused.
    new = ticket_issue(event_id=target.pk, member_id="M-99", name="Bo Ng", actor=ACTOR)
    assert (new.player.name, new.player.member_id) == ("Bo Ng", "M-99")
    with pytest.raises(SeatingError, match="no player has member id M-42"):
        ticket_issue(event_id=target.pk, member_id="M-42", actor=ACTOR)
    with pytest.raises(SeatingError, match="no player 999"):
        ticket_issue(event_id=target.pk, player_id=999, actor=ACTOR)
    assert Player.objects.count() == 3


def test_a_ticket_for_a_festival_event_is_good_in_its_flights(target):
    flight = make_event(
        600, 600, name="Day 1A", buy_in=D(200), fee=D(20), parent=target, flight="1A"
    )
    ticket = ticket_issue(event_id=target.pk, name="Cy", actor=ACTOR)
    done = ticket_register(ticket_id=ticket.pk, event_id=flight.pk, actor=ACTOR)
    entry = done.enrolment.entry
    assert entry.event == flight and entry.paid == D(200)  # the festival's pool has it
