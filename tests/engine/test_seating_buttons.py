import random

import pytest

from tdsystem.engine.seating import (
    SeatingError,
    Table,
    balance_seat,
    is_dealt_in,
    next_big_blind_seat,
    next_hand,
    start_hands,
)

ALICE, DIANNE, CAROL, BOB, ELLEN = 1, 2, 3, 4, 5


def d11_table(*, without: int | None = None) -> Table:
    """D11: Alice on the button (seat 1), Dianne small blind (2), Carol big blind (3)."""
    seated = {1: ALICE, 2: DIANNE, 3: CAROL}
    seated = {seat: entry for seat, entry in seated.items() if entry != without}
    return Table(1, 9, seated, button=1, small_blind=2, big_blind=3)


def positions(table: Table) -> tuple[int | None, int | None, int | None]:
    return table.button, table.small_blind, table.big_blind


def test_it_gives_dianne_the_big_blind_and_carol_the_button_when_alice_busts():
    after = next_hand(d11_table(without=ALICE))
    assert after.entry_at(after.big_blind) == DIANNE
    assert after.entry_at(after.button) == CAROL
    assert after.small_blind == after.button


def test_it_gives_alice_the_big_blind_and_dianne_the_button_when_carol_busts():
    after = next_hand(d11_table(without=CAROL))
    assert after.entry_at(after.big_blind) == ALICE
    assert after.entry_at(after.button) == DIANNE
    # Dianne posted the small blind last hand and posts it again on the button.
    assert after.entry_at(after.small_blind) == DIANNE


def test_it_handles_the_d11_examples_the_same_under_the_moving_button():
    alice_gone = next_hand(d11_table(without=ALICE), "moving")
    carol_gone = next_hand(d11_table(without=CAROL), "moving")
    assert positions(alice_gone) == (3, 3, 2)
    assert positions(carol_gone) == (2, 2, 1)


def test_it_moves_everything_one_seat_when_nobody_leaves():
    table = Table(1, 9, {seat: 100 + seat for seat in range(1, 10)}, 1, 2, 3)
    assert positions(next_hand(table)) == (2, 3, 4)
    assert positions(next_hand(table, "moving")) == (2, 3, 4)


def test_it_wraps_from_the_last_seat_to_seat_one():
    table = Table(1, 6, {seat: seat for seat in range(1, 7)}, 5, 6, 1)
    assert positions(next_hand(table)) == (6, 1, 2)


def test_it_leaves_a_dead_small_blind_when_the_big_blind_busts():
    # Seat 3 posted the big blind and busted: seat 3 owes the small blind, nobody posts it.
    table = Table(1, 9, {1: 1, 2: 2, 4: 4, 5: 5, 6: 6}, 1, 2, 3)
    after = next_hand(table)
    assert positions(after) == (2, 3, 4)
    assert after.entry_at(after.small_blind) is None


def test_it_puts_the_button_on_an_empty_seat_when_the_small_blind_busts():
    table = Table(1, 9, {1: 1, 3: 3, 4: 4, 5: 5}, 1, 2, 3)
    after = next_hand(table)
    assert positions(after) == (2, 3, 4)
    assert after.entry_at(after.button) is None
    # The hand after, the small blind follows the big blind and the button is live again.
    assert positions(next_hand(after)) == (3, 4, 5)


def test_it_moves_the_big_blind_over_empty_seats_and_the_button_follows_under_dead_button():
    table = Table(1, 9, {1: 1, 2: 2, 3: 3, 7: 7, 8: 8}, 1, 2, 3)
    first = next_hand(table)
    assert positions(first) == (2, 3, 7)
    # The small blind sits on the seat that was the big blind, the button on the seat
    # that was the small blind: the empty seats 4-6 get neither.
    assert positions(next_hand(first)) == (3, 7, 8)


def test_it_moves_the_button_to_the_next_player_under_the_moving_button():
    # The big blind (seat 3) busts: the button moves to seat 2, the blinds follow.
    table = Table(1, 9, {1: 1, 2: 2, 4: 4, 5: 5, 6: 6}, 1, 2, 3)
    assert positions(next_hand(table, "moving")) == (2, 4, 5)


def test_it_makes_a_player_joining_after_the_big_blind_the_next_big_blind():
    table = Table(1, 9, {1: 1, 2: 2, 3: 3, 6: 6}, 1, 2, 3)
    joined = table.with_entry(99, 4)
    after = next_hand(joined)
    assert after.entry_at(after.big_blind) == 99
    assert is_dealt_in(joined, 4)


def test_it_keeps_a_player_joining_between_the_blinds_out_until_the_button_passes():
    # Seat 4 was empty between the small blind (3) and the big blind (5): it lies between
    # the next hand's button and small blind.
    table = Table(1, 9, {1: 1, 2: 2, 3: 3, 5: 5, 6: 6}, 2, 3, 5)
    joined = table.with_entry(99, 4)
    assert positions(next_hand(joined)) == (3, 5, 6)
    assert not is_dealt_in(joined, 4)
    assert is_dealt_in(next_hand(joined), 4)


def test_it_deals_in_a_player_seated_on_the_button_or_a_blind():
    table = Table(1, 9, {1: 1, 4: 4, 5: 5}, 1, 2, 3)
    assert is_dealt_in(table.with_entry(99, 2), 2)  # the next button
    assert is_dealt_in(table.with_entry(99, 3), 3)  # the next (dead) small blind


def test_it_deals_in_everyone_at_a_table_that_has_not_started():
    assert is_dealt_in(Table(1, 9, {1: 1, 5: 5}), 5)


def test_it_goes_from_heads_up_to_three_players_without_a_second_big_blind():
    heads_up = Table(1, 9, {2: 2, 6: 6}, 2, 2, 6)
    after = next_hand(heads_up.with_entry(99, 8))
    assert positions(after) == (2, 6, 8)
    # A newcomer between the button (2) and the big blind (6) is dealt in on the button:
    # the big blind moves on to seat 2, seat 6 posts the small blind, and no seat lies
    # between the button and the small blind.
    joined = heads_up.with_entry(99, 4)
    after = next_hand(joined)
    assert positions(after) == (4, 6, 2)
    assert is_dealt_in(joined, 4)
    assert positions(next_hand(after)) == (6, 2, 4)


def test_it_deals_in_a_newcomer_at_a_table_of_two_under_the_moving_button_too():
    heads_up = Table(1, 9, {2: 2, 6: 6}, 2, 2, 6)
    for seat, coming in ((4, (4, 6, 2)), (8, (6, 8, 2))):
        joined = heads_up.with_entry(99, seat)
        assert is_dealt_in(joined, seat, "moving")
        assert positions(next_hand(joined, "moving")) == coming


def test_it_keeps_a_newcomer_out_at_a_table_of_two_only_between_the_button_and_small_blind():
    # Heads-up on seats 2 (button) and 6; newcomers arrive on seats 4 and 8. The big blind
    # moves on to seat 8, seat 6 posts the small blind, the button stays on seat 2: seat 4
    # lies between the button and the small blind and waits for the button to pass.
    joined = Table(1, 9, {2: 2, 6: 6}, 2, 2, 6).with_entry(98, 4).with_entry(99, 8)
    after = next_hand(joined)
    assert positions(after) == (2, 6, 8)
    assert not is_dealt_in(joined, 4) and is_dealt_in(joined, 8)
    assert is_dealt_in(after, 4)


def test_it_keeps_a_newcomer_between_the_blinds_out_under_the_moving_button_too():
    # Without that, the moving button would hand the newcomer the small blind and make
    # seat 5 post the big blind twice in a row.
    table = Table(1, 9, {1: 1, 3: 3, 4: 99, 5: 5, 7: 7}, 1, 3, 5)
    after = next_hand(table, "moving")
    assert positions(after) == (3, 5, 7)
    assert not is_dealt_in(table, 4)


def test_it_deals_in_newcomers_between_the_blinds_when_nobody_else_could_play():
    # Both blinds are gone: seat 2 held the small blind, seat 5 the big blind. Only seat 1
    # remains from the last hand, so the newcomers on seats 3 and 4 are dealt in.
    table = Table(1, 9, {1: 1, 3: 33, 4: 44}, 9, 2, 5)
    after = next_hand(table)
    assert positions(after) == (2, 5, 1)
    assert is_dealt_in(table, 3) and is_dealt_in(table, 4)
    # Seat 2 alone is left of the last hand: the big blind would wrap onto the old small
    # blind, so the button goes to the player just before the (dead) small blind.
    table = Table(1, 9, {2: 2, 3: 33, 4: 44}, 1, 2, 5)
    assert positions(next_hand(table)) == (4, 5, 2)


def test_it_alternates_the_button_heads_up():
    table = Table(1, 9, {2: 2, 6: 6}, 2, 2, 6)
    after = next_hand(table)
    assert positions(after) == (6, 6, 2)
    assert positions(next_hand(after)) == (2, 2, 6)


def test_it_refuses_a_hand_with_one_player_or_before_the_first_hand():
    with pytest.raises(SeatingError, match="two players"):
        next_hand(Table(1, 9, {4: 4}, 1, 2, 3))
    with pytest.raises(SeatingError, match="start_hands"):
        next_hand(Table(1, 9, {1: 1, 4: 4}))


def test_it_refuses_an_unknown_button_rule():
    with pytest.raises(SeatingError, match="unknown button rule"):
        next_hand(d11_table(), "floating")


def test_it_starts_a_table_with_a_random_button_and_the_blinds_after_it():
    table = Table(1, 9, {2: 2, 4: 4, 7: 7, 9: 9})
    buttons = set()
    for seed in range(40):
        started = start_hands(table, random.Random(seed))
        button, small_blind, big_blind = positions(started)
        order = [2, 4, 7, 9]
        index = order.index(button)
        assert small_blind == order[(index + 1) % 4]
        assert big_blind == order[(index + 2) % 4]
        buttons.add(button)
    assert buttons == {2, 4, 7, 9}


def test_it_starts_heads_up_with_the_button_on_the_small_blind():
    started = start_hands(Table(1, 9, {3: 3, 8: 8}), random.Random(1))
    assert started.button == started.small_blind
    assert {started.small_blind, started.big_blind} == {3, 8}


def test_it_refuses_to_start_a_table_with_one_player():
    with pytest.raises(SeatingError):
        start_hands(Table(1, 9, {3: 3}), random.Random(1))


def test_it_tells_the_next_big_blind():
    table = Table(1, 9, {1: 1, 2: 2, 3: 3, 7: 7}, 1, 2, 3)
    assert next_big_blind_seat(table) == 7
    assert next_big_blind_seat(table.without_entry(7)) == 1
    assert next_big_blind_seat(Table(1, 9, {5: 5, 8: 8})) == 5


def test_it_picks_the_first_empty_seat_after_the_big_blind_as_the_worst_position():
    table = Table(1, 9, {1: 1, 2: 2, 3: 3, 4: 4, 6: 6, 8: 8}, 1, 2, 3)
    # Seat 5: the player there posts the big blind after seat 4, the soonest of all.
    assert balance_seat(table) == 5
    # Right after the big blind: the newcomer posts the next big blind.
    assert balance_seat(table.without_entry(4)) == 4


def test_it_never_picks_the_dead_small_blind_as_the_worst_position():
    # The big blind (seat 3) busted; seat 3 owes the small blind next hand.
    table = Table(1, 9, {1: 1, 2: 2, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8, 9: 9}, 1, 2, 3)
    with pytest.raises(SeatingError, match="small blind"):
        balance_seat(table)
    assert balance_seat(table.without_entry(5)) == 5


def test_it_skips_the_small_blind_for_the_worst_position_under_the_moving_button():
    # Seat 3 (big blind) busted; the moving button makes seat 4's player the small blind.
    table = Table(1, 9, {1: 1, 2: 2, 5: 5, 6: 6}, 1, 2, 3)
    assert positions(next_hand(table.with_entry(99, 4), "moving")) == (2, 4, 5)
    seat = balance_seat(table, "moving")
    assert seat == 7
    after = next_hand(table.with_entry(99, seat), "moving")
    assert positions(after) == (2, 5, 6)
    assert next_hand(after, "moving").big_blind == seat


def test_it_never_gives_the_big_blind_twice_when_only_newcomers_are_left_to_play():
    # Heads-up last hand: seat 1 button and small blind, seat 4 big blind. Seat 1 left,
    # seats 2 and 3 filled since: with them out there would be no hand, so they play.
    table = Table(1, 4, {2: 100, 3: 101, 4: 4}, 1, 1, 4)
    assert is_dealt_in(table, 2, "moving") and is_dealt_in(table, 3)
    assert positions(next_hand(table, "moving")) == (3, 4, 2)
    assert positions(next_hand(table, "dead")) == (3, 4, 2)
