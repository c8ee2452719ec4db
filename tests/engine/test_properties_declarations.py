"""Properties of chips and declarations (D12) along random hands: whatever a player puts out
and says, the engine rules it as an action the rules allow (never an illegal amount), the
chips are kept, what goes back is never more than was put out, and the hand plays on exactly
as if the action it counted as had been entered."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tdsystem.engine.betting import SHOWDOWN, HandState
from tdsystem.engine.declarations import SAID_WORDS, Declaration
from tdsystem.engine.errors import RuleError
from tdsystem.engine.ruling import ruling_of
from tdsystem.engine.spec import DECLARED, Action
from tests.engine.test_properties_betting import SETTINGS, check_invariants, legal_actions, tables

DENOMINATIONS = (1, 5, 25, 100, 500, 1000, 5000)
# The refusals a declaration may meet, each the floor's to settle by entering the action.
EXPECTED_REFUSALS = ("said check facing a bet", "with no amount: enter the chips")


@st.composite
def declarations(draw) -> Declaration:
    chips = draw(st.lists(st.sampled_from(DENOMINATIONS), max_size=6))
    motions = (tuple(chips),) if chips else ()
    if chips and draw(st.booleans()) and len(chips) > 1:
        cut = draw(st.integers(1, len(chips) - 1))
        motions = (tuple(chips[:cut]), tuple(chips[cut:]))
    said = draw(
        st.one_of(st.none(), st.sampled_from(SAID_WORDS), st.integers(1, 20_000))
        if chips
        else st.one_of(st.sampled_from(SAID_WORDS), st.integers(1, 20_000))
    )
    to = draw(st.integers(1, 20_000)) if said in ("bet", "raise") and draw(st.booleans()) else None
    return Declaration(None, to, motions, said, False)


def state_of(state: HandState) -> tuple:
    return (state.street, state.actor, tuple(state.stack), tuple(state.bet), state.level)


@SETTINGS
@given(spec=tables(), data=st.data())
def test_a_declaration_always_counts_as_a_legal_action(spec, data):
    state = HandState(spec)
    for index in range(40):
        if state.street >= SHOWDOWN:
            break
        nxt = state.next_action()
        decl = data.draw(declarations())
        trial = state.copy()
        try:
            trial.play(nxt.player, DECLARED, decl, index)
        except RuleError as refused:
            assert refused.rule in ("D12", "TDA 55") or any(
                part in refused.message for part in EXPECTED_REFUSALS
            ), refused
            assert ruling_of(state).as_dict() == ruling_of(state).as_dict()
        else:
            ((_, who, counted),) = trial.counted[-1:]
            put_out = sum(map(sum, decl.chips))
            assert who == nxt.player
            assert 0 <= counted.returned <= put_out, (decl, counted)
            check_invariants(spec, trial)
            # The same hand with the action it counted as, entered plainly.
            plain = state.copy()
            plain.play(nxt.player, counted.do, counted.to, index)
            assert state_of(plain) == state_of(trial)
            if counted.do in ("bet", "raise"):
                assert nxt.min_raise_to <= counted.to <= nxt.max_raise_to
        # Play on with a legal action.
        menu = legal_actions(state, data)
        state.act(menu[data.draw(st.integers(0, len(menu) - 1))], index)


@SETTINGS
@given(spec=tables(), data=st.data())
def test_an_action_out_of_turn_stands_only_when_the_action_to_it_did_not_change(spec, data):
    state = HandState(spec)
    for index in range(30):
        if state.street >= SHOWDOWN:
            break
        others = [
            j for j in range(state.n) if j != state.actor and not state.folded[j] and state.stack[j]
        ]
        if others and data.draw(st.booleans()):
            seat = data.draw(st.sampled_from(others))
            name = state.names[seat]
            do = data.draw(st.sampled_from(["fold", "check", "call"]))
            if do == "fold" and state.bet[seat] >= state.level:
                # A fold out of turn by the player whose bet is the highest leaves chips no
                # one left could match (they stay with the pot below, D10): the pots'
                # invariant below does not hold there; the fold itself is tested elsewhere.
                do = "check"
            trial = state.copy()
            level = state.level
            trial.play(name, DECLARED, Declaration(do, None, (), None, True), index)
            check_invariants(spec, trial)
            if do == "fold":  # binding at once
                assert trial.folded[seat]
                state = trial
                continue
            assert trial.actor == state.actor and seat in trial.held
            menu = legal_actions(state, data)
            action = menu[data.draw(st.integers(0, len(menu) - 1))]
            try:
                trial.act(action, index + 1)
            except RuleError:
                continue  # the held action cannot stand as entered (a check facing a bet)
            check_invariants(spec, trial)
            reached = trial.street == state.street and (not trial.held or seat not in trial.held)
            if reached and trial.actor is not None and trial.names[trial.actor] == name:
                # Its turn came and it is still to act: the held action did not stand, as
                # the bet to it changed.
                assert trial.level != level and do != "fold"
        menu = legal_actions(state, data)
        state.act(menu[data.draw(st.integers(0, len(menu) - 1))], index)


def test_every_word_is_one_the_engine_reads():
    assert set(SAID_WORDS) == {"fold", "check", "call", "bet", "raise", "all-in", "pot"}
    assert Action("A", "fold").do == "fold"
