"""The dead button over several empty seats (dead_button_skips_empty, TDA 2026 36-B)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tdsystem.engine.seating import Table, balance_seat, is_dealt_in, next_hand, start_hands


def between(seat: int, start: int, end: int, seats: int) -> bool:
    """`seat` lies clockwise strictly after `start` and before `end`."""
    return 0 < (seat - start) % seats < (end - start) % seats


def test_it_moves_the_dead_button_over_the_empty_seats_before_the_small_blind():
    # The big blind went over empty seats 4-6 to seat 7; then the small blind (3) busts.
    table = Table(1, 9, {1: 11, 2: 12, 7: 17, 8: 18, 9: 19}, button=2, small_blind=3, big_blind=7)
    off = next_hand(table)
    on = next_hand(table, skip_empty=True)
    assert (off.button, off.small_blind, off.big_blind) == (3, 7, 8)
    assert (on.button, on.small_blind, on.big_blind) == (6, 7, 8)


def test_a_newcomer_between_the_dead_button_and_the_small_blind_is_dealt_in_at_once():
    table = Table(1, 9, {1: 11, 2: 12, 5: 99, 7: 17, 8: 18}, button=2, small_blind=3, big_blind=7)
    assert not is_dealt_in(table, 5)
    assert is_dealt_in(table, 5, skip_empty=True)
    on = next_hand(table, skip_empty=True)
    assert (on.button, on.small_blind, on.big_blind) == (6, 7, 8)
    # A newcomer on the seat just before the small blind takes the button.
    table = Table(1, 9, {1: 11, 2: 12, 6: 99, 7: 17, 8: 18}, button=2, small_blind=3, big_blind=7)
    on = next_hand(table, skip_empty=True)
    assert (on.button, on.small_blind, on.big_blind) == (6, 7, 8)


def test_it_changes_nothing_with_a_live_button_or_one_empty_seat():
    live = Table(1, 9, {2: 12, 3: 13, 5: 99, 7: 17, 8: 18}, button=2, small_blind=3, big_blind=7)
    assert next_hand(live, skip_empty=True) == next_hand(live)
    assert not is_dealt_in(live, 5, skip_empty=True)  # between a live button and the blind
    one = Table(1, 9, {1: 11, 2: 12, 4: 14, 5: 15}, button=2, small_blind=3, big_blind=4)
    assert next_hand(one, skip_empty=True) == next_hand(one)


def test_the_balanced_player_gets_the_same_worst_seat():
    table = Table(1, 9, {1: 11, 2: 12, 7: 17, 8: 18, 9: 19}, button=2, small_blind=3, big_blind=7)
    assert balance_seat(table, skip_empty=True) == balance_seat(table)


# (operation, number): bust a player, a newcomer sits down, or the next hand is dealt.
operations = st.lists(
    st.tuples(st.sampled_from(["bust", "join", "join", "hand", "hand"]), st.integers(0, 99)),
    min_size=1,
    max_size=60,
)


class Run:
    """One table played out under one setting, hand after hand."""

    def __init__(self, table: Table, skip_empty: bool):
        self.table, self.skip_empty = table, skip_empty
        self.dealt = set(table.entries) if table.started else set()
        self.waited: dict[int, int] = {}  # newcomer -> hands sat out so far
        self.seen_dealt: set[int] = set()

    def join(self, entry: int, seat: int) -> None:
        self.table = self.table.with_entry(entry, seat)
        self.waited[entry] = 0

    def hand(self) -> None:
        before = self.table
        dealt = {
            entry
            for seat, entry in before.occupants
            if is_dealt_in(before, seat, skip_empty=self.skip_empty)
        }
        after = next_hand(before, skip_empty=self.skip_empty)
        big = after.entry_at(after.big_blind)
        assert big is not None and big in dealt, "a player dealt in posts the big blind"
        last_big = before.entry_at(before.big_blind)
        assert big != last_big, "nobody posts the big blind twice in a row"
        for seat, entry in after.occupants:
            if between(seat, before.big_blind, after.big_blind, after.seats):
                assert entry not in self.dealt, "nobody dealt in last hand misses the big blind"
        for entry in dealt:
            self.seen_dealt.add(entry)
        for entry in self.waited:
            if entry not in self.seen_dealt and after.seat_of(entry) is not None:
                self.waited[entry] += 1
        self.dealt, self.table = dealt, after


@settings(max_examples=300, deadline=None)
@given(
    seats=st.integers(3, 10),
    seed=st.integers(0, 10_000),
    players=st.integers(2, 10),
    steps=operations,
)
def test_skipping_keeps_the_blinds_and_never_makes_a_newcomer_wait_longer(
    seats, seed, players, steps
):
    rng = random.Random(seed)
    chosen = sorted(rng.sample(range(1, seats + 1), min(players, seats)))
    table = start_hands(Table(1, seats, {seat: seat for seat in chosen}), rng)
    off, on = Run(table, False), Run(table, True)
    newcomer = 100
    for operation, number in steps:
        occupied = off.table.occupied_seats
        if operation == "bust" and len(occupied) > 2:
            entry = off.table.entry_at(occupied[number % len(occupied)])
            assert entry is not None
            off.table, on.table = off.table.without_entry(entry), on.table.without_entry(entry)
        elif operation == "join" and off.table.empty_seats:
            seat = off.table.empty_seats[number % len(off.table.empty_seats)]
            newcomer += 1
            off.join(newcomer, seat)
            on.join(newcomer, seat)
        elif operation == "hand":
            off.hand()
            on.hand()
            # The big blind moves as without the option: same players, same big blind.
            assert on.table.big_blind == off.table.big_blind
            assert on.table.occupants == off.table.occupants
    for entry, waited in on.waited.items():
        assert waited <= off.waited[entry], f"newcomer {entry} waits longer with the option"
