"""The screens' cache (core/screencache.py): one refill, versions bumped by a committed
change, the entry before answered meanwhile, and answers computed while the cache is down."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import transaction

from tdsystem.core import screencache
from tdsystem.core.locking import locks_take
from tdsystem.events.models import Event
from tests.fixtures import make_event


@pytest.fixture(autouse=True)
def _empty():
    screencache.clear()
    yield
    screencache.clear()


@pytest.fixture
def clock(monkeypatch):
    """The time entries' ages are counted in, moved by the test (seconds)."""
    now = [1000.0]
    monkeypatch.setattr(screencache, "_now", lambda: now[0])
    return now


def ask(key, compute, event=7, seconds=60.0):
    return screencache.screen_cached(key, compute, event=event, seconds=seconds)


def test_processes_asking_at_once_compute_it_once():
    computed = []

    def compute():
        computed.append(1)
        time.sleep(0.05)
        return "figures"

    barrier = threading.Barrier(6)
    answers = []

    def asker():
        barrier.wait()
        answers.append(ask(("field", "en"), compute))

    threads = [threading.Thread(target=asker) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert answers == ["figures"] * 6
    assert len(computed) == 1


def test_it_computes_again_once_older_than_its_seconds(clock):
    counter = iter(range(1, 10))
    assert ask(("k",), lambda: next(counter), seconds=1) == 1
    clock[0] += 0.9
    assert ask(("k",), lambda: next(counter), seconds=1) == 1
    clock[0] += 0.2
    assert ask(("k",), lambda: next(counter), seconds=1) == 2


def test_a_failed_computation_is_not_kept_nor_its_fill_held():
    def fail():
        raise LookupError("no event")

    with pytest.raises(LookupError):
        ask(("k",), fail)
    started = time.monotonic()
    assert ask(("k",), lambda: "found") == "found"
    assert time.monotonic() - started < screencache.WAIT_SECONDS  # not waited for


def test_while_one_refills_an_old_entry_the_others_get_it_at_once(clock):
    assert ask(("seats",), lambda: "old seats", seconds=1) == "old seats"
    clock[0] += 2
    computing, release = threading.Event(), threading.Event()

    def slow():
        computing.set()
        release.wait(5)
        return "new seats"

    answers: list[str] = []
    refresher = threading.Thread(target=lambda: answers.append(ask(("seats",), slow, seconds=1)))
    refresher.start()
    assert computing.wait(5)
    started = time.monotonic()
    assert ask(("seats",), lambda: "computed twice", seconds=1) == "old seats"
    assert time.monotonic() - started < 1  # answered at once, not after the refill
    release.set()
    refresher.join(5)
    assert answers == ["new seats"]
    assert ask(("seats",), lambda: "computed twice", seconds=1) == "new seats"


@pytest.mark.django_db  # a change names its event's family
def test_a_change_makes_its_events_entries_computed_afresh_and_no_other():
    assert ask(("field", "en"), lambda: "12 left", event=7) == "12 left"
    assert ask(("field", "en"), lambda: "40 left", event=8) == "40 left"
    assert ask(("current-event",), lambda: "event 7", event=None) == "event 7"
    screencache.changed(7)
    assert ask(("field", "en"), lambda: "11 left", event=7) == "11 left"
    assert ask(("field", "en"), lambda: "computed again", event=8) == "40 left"
    # The room's entries (not about one event) go with any change.
    assert ask(("current-event",), lambda: "event 8", event=None) == "event 8"


@pytest.mark.django_db  # a change names its event's family
def test_after_a_change_the_others_get_the_entry_before_while_one_fills_it():
    """Not the change's figures yet, but never older than what was shown: nobody has been
    answered the new entry before it is filled."""
    assert ask(("field", "en"), lambda: "12 left") == "12 left"
    screencache.changed(7)
    computing, release = threading.Event(), threading.Event()

    def slow():
        computing.set()
        release.wait(5)
        return "11 left"

    answers: list[str] = []
    filler = threading.Thread(target=lambda: answers.append(ask(("field", "en"), slow)))
    filler.start()
    assert computing.wait(5)
    assert ask(("field", "en"), lambda: "computed twice") == "12 left"
    release.set()
    filler.join(5)
    assert answers == ["11 left"]
    assert ask(("field", "en"), lambda: "computed twice") == "11 left"


def test_nothing_is_kept_with_no_seconds():
    counter = iter(range(1, 10))
    assert ask(("k",), lambda: next(counter), seconds=0) == 1
    assert ask(("k",), lambda: next(counter), seconds=0) == 2


class Failing:
    """A cache whose every ask fails while `down` (Redis stopped), and counts the asks."""

    def __init__(self, real):
        self.real, self.down, self.asked = real, True, 0

    def __getattr__(self, name):
        def call(*args, **kwargs):
            self.asked += 1
            if self.down:
                raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
            return getattr(self.real, name)(*args, **kwargs)

        return call


def test_with_the_cache_down_every_answer_is_computed_and_it_is_left_alone(monkeypatch):
    failing = Failing(screencache._cache())
    monkeypatch.setattr(screencache, "_cache", lambda: failing)
    counter = iter(range(1, 10))
    assert ask(("k",), lambda: next(counter)) == 1
    asked = failing.asked
    assert ask(("k",), lambda: next(counter)) == 2
    assert failing.asked == asked  # not asked again within DOWN_SECONDS
    failing.down = False


@pytest.mark.django_db  # a change names its event's family
def test_a_change_made_while_the_cache_was_down_bumps_its_version_once_it_is_back(
    monkeypatch,
):
    real = screencache._cache()
    assert ask(("field", "en"), lambda: "12 left") == "12 left"
    failing = Failing(real)
    monkeypatch.setattr(screencache, "_cache", lambda: failing)
    screencache.changed(7)  # the bust-out's commit, the cache down
    failing.down = False
    monkeypatch.setattr(screencache, "_down_until", 0.0)  # DOWN_SECONDS later
    assert ask(("field", "en"), lambda: "11 left") == "11 left"


@pytest.mark.django_db(transaction=True)
def test_a_committed_change_under_an_events_lock_bumps_it_once():
    event = make_event(600)
    assert ask(("field", "en"), lambda: "before", event=event.pk) == "before"
    with transaction.atomic():
        locks_take(event=event.pk)
        locks_take(event=event.pk, clock=event.pk)
        assert ask(("field", "en"), lambda: "not yet", event=event.pk) == "before"
    assert ask(("field", "en"), lambda: "after", event=event.pk) == "after"
    version = screencache.scope(event.pk).version
    with transaction.atomic():
        locks_take(event=event.pk)
        transaction.set_rollback(True)
    assert screencache.scope(event.pk).version == version  # rolled back: nothing changed


@pytest.mark.django_db
def test_a_flights_change_bumps_its_main_event_and_the_other_flights():
    main, first, second, other = (make_event(600, name=n) for n in "ABCD")
    Event.objects.filter(pk=first.pk).update(parent=main, flight="1A")
    Event.objects.filter(pk=second.pk).update(parent=main, flight="1B")
    for event in (main, first, second, other):
        assert ask(("field",), lambda e=event: f"{e.name} before", event=event.pk)
    screencache.changed(first.pk)
    for event in (main, first, second):
        assert ask(("field",), lambda: "after", event=event.pk) == "after"
    assert ask(("field",), lambda: "after", event=other.pk) == "D before"


@pytest.mark.django_db  # a change names its event's family
def test_a_process_answers_from_its_copy_until_the_version_moves(monkeypatch):
    """A poll costs one small read of the cache while nothing changed: the entry itself
    is this process's decoded copy. A change anywhere (another process's bump) ends it."""
    assert ask(("field", "en"), lambda: "12 left") == "12 left"
    read = []
    real = screencache._cache()

    class Counting:
        def __getattr__(self, name):
            read.append(name)
            return getattr(real, name)

    monkeypatch.setattr(screencache, "_cache", lambda: Counting())
    assert ask(("field", "en"), lambda: "computed again") == "12 left"
    assert read == ["get"]  # the version only
    real.incr(screencache._version_key("7"))  # another process's change
    assert ask(("field", "en"), lambda: "11 left") == "11 left"


@pytest.mark.django_db
def test_an_event_s_family_is_itself_its_main_event_and_the_flights():
    from tdsystem.events.selectors import screens_family

    main, a, b, other = (make_event(30, name=n) for n in ("Main", "1A", "1B", "Other"))
    Event.objects.filter(pk=a.pk).update(parent=main, flight="1A")
    Event.objects.filter(pk=b.pk).update(parent=main, flight="1B")
    assert sorted(screens_family(a.pk)) == sorted([main.pk, a.pk, b.pk])
    assert sorted(screens_family(main.pk)) == sorted([main.pk, a.pk, b.pk])
    assert screens_family(other.pk) == [other.pk]
    assert screens_family(999_999) == []


# Trailing entries: a long list made at most once a `trail` however many changes come.


def ask_trailing(compute, seconds=5.0, trail=1.0):
    return screencache.screen_cached(
        ("seats", "en"), compute, event=7, seconds=seconds, trail=trail
    )


@pytest.mark.django_db  # a change names its event's family
def test_a_trailing_entry_is_made_once_for_the_changes_of_its_trail(clock):
    made = []

    def seats():
        made.append(clock[0])
        return f"list {len(made)}"

    assert ask_trailing(seats) == "list 1"
    for _ in range(3):  # three bust-outs within the second
        clock[0] += 0.3
        screencache.changed(7)
        assert ask_trailing(seats) == "list 1"
    clock[0] += 0.2  # the list is now 1.1 s old: made again, once, for all three
    assert ask_trailing(seats) == "list 2"
    assert ask_trailing(seats) == "list 2"
    assert made == [1000.0, pytest.approx(1001.1)]


@pytest.mark.django_db  # a change names its event's family
def test_a_trailing_entry_never_goes_back_in_another_process(clock):
    """A process holding its own copy of the list from before the change is not answered
    it once another process has made the list after the change."""
    assert ask_trailing(lambda: "before") == "before"
    old_copies = dict(screencache._copies)
    screencache.changed(7)
    clock[0] += 1.5
    assert ask_trailing(lambda: "after") == "after"
    screencache._copies.clear()
    screencache._copies.update(old_copies)  # the other process's copy, of the list before
    assert ask_trailing(lambda: "made again") == "after"


def test_an_unchanged_trailing_entry_is_made_again_after_its_seconds(clock):
    counter = iter(range(1, 10))
    assert ask_trailing(lambda: next(counter), seconds=2) == 1
    clock[0] += 1.5
    assert ask_trailing(lambda: next(counter), seconds=2) == 1
    clock[0] += 0.6
    assert ask_trailing(lambda: next(counter), seconds=2) == 2


# The count of changes a clock poll reads with its clock (core.models.ScreenVersion).


@pytest.mark.django_db
def test_the_clock_poll_shows_a_committed_change_before_the_cache_hears_of_it(
    client, settings, monkeypatch
):
    """A change bumps the cache's version once it has committed: between its commit and
    the bump a poll would fill the old version's entry with the new figures, and another
    process's copy of that version would then answer the old ones after it. The clock's
    poll asks for the count of changes read with its clock instead, in the change's own
    transaction: here the bump after the commit never comes, and the poll shows it."""
    from tdsystem.results import services as results
    from tdsystem.simulation.seatings import ACTOR, arrange

    settings.SCREEN_CACHE_SECONDS = 60
    event = make_event(600)
    people = arrange(event, {1: [1, 2, 3, 4]}, positions={1: (1, 2, 3)})
    url = f"/api/events/{event.pk}/clock"
    assert client.get(url).json()["players_left"] == 4
    assert client.get(url).json()["players_left"] == 4  # from the cache
    monkeypatch.setattr(screencache, "changed", lambda *event_ids: None)
    results.bustout_record(event_id=event.pk, entry_ids=[people["T1S2"].pk], actor=ACTOR)
    assert client.get(url).json()["players_left"] == 3


@pytest.mark.django_db
def test_the_count_of_changes_moves_with_every_change_of_the_family_and_no_other():
    from tdsystem.events.selectors import clock_read_counted

    main, flight, other = (make_event(600, name=n) for n in ("Main", "1A", "Other"))
    Event.objects.filter(pk=flight.pk).update(parent=main, flight="1A")

    def changes(event):
        return clock_read_counted(event.pk)[2]

    before = {e: changes(e) for e in (main, flight, other)}
    with transaction.atomic():
        locks_take(event=flight.pk, clock=flight.pk)
    assert changes(main) == before[main] + 1 and changes(flight) == before[flight] + 1
    assert changes(other) == before[other]
    with transaction.atomic():
        locks_take(event=main.pk)
        transaction.set_rollback(True)
    assert changes(main) == before[main] + 1  # rolled back: nothing changed
    assert clock_read_counted(999_999)[2] == 0
