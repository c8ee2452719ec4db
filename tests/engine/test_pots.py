"""Cutting the chips into main and side pots (D8, D10)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tdsystem.engine.pots import split_pots

YES, NO = True, False


def test_it_makes_one_pot_when_everyone_put_in_the_same():
    assert split_pots([10, 10, 10], [YES] * 3, [YES] * 3) == [(30, (0, 1, 2))]


def test_it_cuts_a_side_pot_at_an_all_in_level():
    # D10: A 30, B all-in for 10, C all-in for 30.
    assert split_pots([30, 10, 30], [YES] * 3, [YES, NO, NO]) == [(30, (0, 1, 2)), (40, (0, 2))]


def test_it_cuts_a_pot_for_every_all_in_level():
    result = split_pots([100, 10, 40, 100], [YES] * 4, [YES, NO, NO, YES])

    assert result == [(40, (0, 1, 2, 3)), (90, (0, 2, 3)), (120, (0, 3))]


def test_it_takes_a_partial_ante_from_every_player_into_the_main_pot():
    # D8: ante 10, one player all-in for 6 of it; blinds 20/40 behind.
    result = split_pots([10, 30, 50, 6], [NO, NO, YES, YES], [NO, NO, YES, NO])

    assert result == [(24, (2, 3)), (72, (2,))]


def test_it_keeps_folded_players_chips_but_not_their_claim():
    assert split_pots([20, 20, 5], [NO, YES, YES], [NO, YES, NO]) == [(15, (1, 2)), (30, (1,))]


def test_it_merges_neighbouring_slices_with_the_same_players():
    # The reference case: every slice up to Alice's 8 has Alice and Carol.
    contributions = [1, 5, 8, 9, 17, 1, 1, 1, 1, 1]
    in_hand = [NO, NO, YES, NO, YES, NO, NO, NO, NO, NO]
    active = [NO, NO, NO, NO, YES, NO, NO, NO, NO, NO]

    assert split_pots(contributions, in_hand, active) == [(35, (2, 4)), (10, (4,))]


def test_it_counts_an_active_player_who_may_yet_call_as_eligible():
    assert split_pots([8, 100, 4], [YES] * 3, [YES] * 3) == [(112, (0, 1, 2))]


def test_it_starts_the_main_pot_with_dead_antes_for_everyone_in_the_hand():
    result = split_pots([0, 8, 8], [YES, YES, YES], [NO, YES, YES], dead=5)

    assert result == [(5, (0, 1, 2)), (16, (1, 2))]


def test_it_gives_chips_nobody_can_claim_to_the_pot_below():
    # Everyone above the all-in's 10 folded: folding gave those chips up.
    assert split_pots([10, 40, 40], [YES, NO, NO], [NO, NO, NO]) == [(90, (0,))]


def test_it_makes_no_pot_without_chips():
    assert split_pots([0, 0], [YES, YES], [YES, YES]) == []


def _slices_at_every_level(contributions, in_hand, active, dead=0):
    """The definition, slow: a slice at every distinct level put in, neighbours with the
    same eligible players merged, chips nobody can claim given to the pot below."""
    pots: list[list] = []
    everyone = tuple(i for i, live in enumerate(in_hand) if live)
    if dead:
        pots.append([dead, everyone])
    previous = 0
    for level in sorted(set(contributions)):
        if level <= 0:
            continue
        reached = sum(1 for chips in contributions if chips >= level)
        key = tuple(
            i
            for i, chips in enumerate(contributions)
            if (chips >= level and in_hand[i]) or (chips < level and active[i])
        )
        amount, previous = (level - previous) * reached, level
        if pots and (pots[-1][1] == key or not key):
            pots[-1][0] += amount
        else:
            pots.append([amount, key or everyone])
    return [(amount, key) for amount, key in pots]


@st.composite
def _tables(draw):
    count = draw(st.integers(1, 9))
    contributions = draw(
        st.lists(st.sampled_from([0, 1, 2, 5, 8, 10, 40]), min_size=count, max_size=count)
    )
    in_hand = draw(st.lists(st.booleans(), min_size=count, max_size=count))
    active = [live and draw(st.booleans()) for live in in_hand]
    return contributions, in_hand, active, draw(st.sampled_from([0, 0, 3]))


@given(_tables())
def test_it_cuts_only_where_a_claim_changes_and_still_makes_the_same_pots(table):
    assert split_pots(*table) == _slices_at_every_level(*table)


@given(_tables())
def test_with_nobody_all_in_it_makes_the_same_one_pot_as_the_definition(table):
    # split_pots answers at once when every seat in the hand may yet call (no all-in level).
    contributions, in_hand, _, dead = table
    assert split_pots(contributions, in_hand, in_hand, dead) == _slices_at_every_level(
        contributions, in_hand, in_hand, dead
    )
