"""Properties of every hand: chips are conserved, pots hold what was committed, every listed
option is accepted and everything else is refused, an all-in player never wins above their
level (D3, D4, D5, D8, D9, D10)."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tdsystem.engine.betting import COMPLETE, SHOWDOWN, HandState
from tdsystem.engine.errors import RuleError
from tdsystem.engine.ruling import adjudicate, ruling_of
from tdsystem.engine.spec import Action, HandSpec, PlayerSpec

SETTINGS = settings(
    max_examples=int(os.environ.get("ENGINE_PROPERTY_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


STRUCTURES = ["no-limit", "pot-limit", "fixed-limit", "spread-limit", "half-pot-limit"]


@st.composite
def tables(draw) -> HandSpec:
    structure = draw(st.sampled_from(STRUCTURES))
    big = draw(st.sampled_from([2, 4, 10, 50]))
    small = draw(st.integers(1, big))
    blinds = draw(st.sampled_from([(small, big), (small, big), (big,)]))
    ante = draw(st.sampled_from([0, 0, 1, big // 2, big]))
    count = draw(st.integers(2, 9))
    stacks = draw(
        st.lists(
            st.one_of(st.integers(1, 3 * big), st.integers(3 * big, 200 * big)),
            min_size=count,
            max_size=count,
        )
    )
    fixed = structure == "fixed-limit"
    limit = structure in ("fixed-limit", "spread-limit")
    spread = None
    if structure == "spread-limit":
        least = draw(st.integers(1, big))
        most = draw(st.integers(big, 3 * big))
        spread = (least, most, draw(st.sampled_from([most, 2 * most])))
    cap = None
    if structure in ("no-limit", "pot-limit", "half-pot-limit") and draw(st.booleans()):
        cap = draw(st.integers(big, 40 * big))
    return HandSpec(
        structure=structure,
        blinds=blinds,
        players=tuple(PlayerSpec(f"P{i}", stack) for i, stack in enumerate(stacks)),
        ante=ante,
        ante_type=draw(st.sampled_from(["each", "big-blind", "button", "big-blind-ante-first"])),
        bets=(big, 2 * big) if fixed else None,
        raise_cap=draw(st.sampled_from([None, 0, 1, 3])) if limit else None,
        incomplete_raise=draw(st.sampled_from(["full-bet", "half-bet"])) if limit else "full-bet",
        pot_limit_preflop=draw(st.sampled_from(["true-pot", "assumed-call"])),
        bb_must_cover_sb=draw(st.booleans()),
        raise_cap_heads_up=draw(st.sampled_from([None, "at-start", "until-capped", "kept"]))
        if limit
        else None,
        spread=spread,
        cap=cap,
    )


def accepts(state: HandState, action: Action) -> HandState:
    trial = state.copy()
    trial.act(action, 0)
    return trial


def refuses(state: HandState, action: Action) -> None:
    before = ruling_of(state).as_dict()
    try:
        state.act(action, 0)
    except RuleError:
        assert ruling_of(state).as_dict() == before, "a refused action changed the hand"
        return
    raise AssertionError(f"{action} was accepted")


def legal_actions(state: HandState, rng) -> list[Action]:
    nxt = state.next_action()
    name, seat = nxt.player, state.seat_of[nxt.player]
    total = state.bet[seat] + state.stack[seat]
    wager = "raise" if state.level else "bet"
    menu = [Action(name, "check" if nxt.check else "call"), Action(name, "fold")]
    if nxt.min_raise_to is not None:
        low, high = nxt.min_raise_to, nxt.max_raise_to
        menu += [Action(name, wager, low), Action(name, wager, high)]
        menu.append(Action(name, wager, rng.draw(st.integers(low, high))))
        if total == high:
            menu.append(Action(name, "all-in"))
    elif total <= state.level:
        menu.append(Action(name, "all-in"))  # a call for whatever is left
    return menu


def illegal_actions(state: HandState) -> list[Action]:
    nxt = state.next_action()
    name, seat = nxt.player, state.seat_of[nxt.player]
    total = state.bet[seat] + state.stack[seat]
    wager = "raise" if state.level else "bet"
    wrong = [Action(name, "call" if nxt.check else "check"), Action("Nobody", "fold")]
    wrong.append(Action(name, "bet" if state.level else "raise", state.level + 2 * state.big_blind))
    others = [
        state.names[j]
        for j in range(state.n)
        if j != seat and not state.folded[j] and state.stack[j]
    ]
    if others:
        wrong.append(Action(others[0], "fold"))
    if nxt.min_raise_to is None:
        if total > state.level:
            wrong += [Action(name, wager, total), Action(name, "all-in")]
    else:
        low, high = nxt.min_raise_to, nxt.max_raise_to
        if state.level < low - 1 and low < total:
            wrong.append(Action(name, wager, low - 1))
        wrong.append(Action(name, wager, high + 1))
        if high < total:
            wrong.append(Action(name, "all-in"))
    return wrong


def check_invariants(spec: HandSpec, state: HandState) -> None:
    assert state.top_bet == max(state.bet), "the round's highest bet was not kept up"
    out = [folded or not chips for folded, chips in zip(state.folded, state.stack, strict=True)]
    assert state.out == out, "the seats out of the betting were not kept up"
    assert state.live == out.count(False), "the seats still betting were not counted"
    result = ruling_of(state).as_dict()
    start = sum(p.stack for p in spec.players)
    in_pots = sum(p["amount"] for p in result["pots"])
    removed = sum(r["amount"] for r in result.get("removed_from_play", []))
    assert in_pots + sum(p["stack"] for p in result["players"]) + removed == start
    assert in_pots == sum(p["committed"] for p in result["players"])
    assert [p["name"] for p in result["players"]] == list(state.names)
    order = {name: i for i, name in enumerate(state.names)}
    status = {p["name"]: p["status"] for p in result["players"]}
    live = {n: state.committed[i] - state.dead[i] for i, n in enumerate(state.names)}
    for pot in result["pots"]:
        assert pot["amount"] > 0 and pot["eligible"]
        assert sorted(pot["eligible"], key=order.__getitem__) == pot["eligible"]
        assert all(status[n] in ("active", "all-in") for n in pot["eligible"])
    # With nobody left who may call, a folded player's chips above every all-in level stay
    # with the top pot (the engine's ``split_pots``): folding gave them up.
    top = max((live[n] for n, kind in status.items() if kind == "all-in"), default=0)
    given_up = 0
    if "active" not in status.values():
        given_up = sum(max(0, live[n] - top) for n, kind in status.items() if kind == "folded")
    for name, kind in status.items():
        won = sum(p["amount"] for p in result["pots"] if name in p["eligible"])
        if kind == "all-in":
            # At most what every opponent put in up to this player's level (D10).
            cap = sum(min(c, live[name]) for c in live.values()) + sum(state.dead)
            if live[name] == top:
                cap += given_up
            assert won <= cap
            if state.in_hand > 1 and len(result["pots"]) and name in result["pots"][0]["eligible"]:
                assert won == cap or state.street == COMPLETE
        elif kind == "active":
            assert won == in_pots
        else:
            assert won == 0
    nxt = result["next"]
    if nxt is None:
        assert result["street"] in ("showdown", "complete")
    else:
        assert result["street"] in ("preflop", "flop", "turn", "river")
        mover = next(p for p in result["players"] if p["name"] == nxt["player"])
        assert mover["status"] == "active"
        assert 0 <= nxt["call"] <= mover["stack"] and nxt["check"] == (nxt["call"] == 0)
        if nxt["min_raise_to"] is not None:
            seat = state.seat_of[nxt["player"]]
            assert nxt["min_raise_to"] <= nxt["max_raise_to"] <= state.bet[seat] + mover["stack"]
    assert (result["street"] == "complete") == (state.in_hand == 1)


@SETTINGS
@given(spec=tables(), data=st.data())
def test_it_keeps_every_rule_along_random_hands(spec, data):
    state = HandState(spec)
    played = []
    check_invariants(spec, state)
    for _ in range(60):
        if state.street >= SHOWDOWN:
            break
        menu = legal_actions(state, data)
        trials = [accepts(state, action) for action in menu]
        for trial in trials:
            check_invariants(spec, trial)
        for action in illegal_actions(state):
            refuses(state, action)
        choice = data.draw(st.integers(0, len(menu) - 1))
        state.act(menu[choice], len(played))
        played.append(menu[choice])
        check_invariants(spec, state)
    if state.street < SHOWDOWN:
        return
    for action in (Action(state.names[0], "fold"), Action(state.names[0], "check")):
        refuses(state, action)
    # The same hand read from its JSON form gives the same answer.
    as_json = {
        "structure": spec.structure,
        "blinds": list(spec.blinds),
        "ante": spec.ante,
        "ante_type": spec.ante_type,
        "bets": list(spec.bets) if spec.bets else None,
        "raise_cap": spec.raise_cap,
        "incomplete_raise": spec.incomplete_raise,
        "pot_limit_preflop": spec.pot_limit_preflop,
        "bb_must_cover_sb": spec.bb_must_cover_sb,
        "raise_cap_heads_up": spec.raise_cap_heads_up,
        "spread": list(spec.spread) if spec.spread else None,
        "cap": spec.cap,
        "players": [{"name": p.name, "stack": p.stack} for p in spec.players],
        "actions": [
            {"player": a.player, "do": a.do} | ({"to": a.to} if a.to is not None else {})
            for a in played
        ],
    }
    assert adjudicate(as_json) == ruling_of(state).as_dict()


@SETTINGS
@given(spec=tables(), data=st.data())
def test_it_ends_every_hand_in_a_showdown_or_with_one_player(spec, data):
    state = HandState(spec)
    for index in range(200):
        if state.street >= SHOWDOWN:
            break
        nxt = state.next_action()
        name = nxt.player
        roll = data.draw(st.integers(0, 9))
        if roll < 2:
            action = Action(name, "fold")
        elif roll < 7 or nxt.min_raise_to is None:
            action = Action(name, "check" if nxt.check else "call")
        else:
            action = Action(name, "raise" if state.level else "bet", nxt.max_raise_to)
        state.act(action, index)
    assert state.street in (SHOWDOWN, COMPLETE)
    assert state.next_action() is None


@st.composite
def short_small_blind_tables(draw) -> tuple[HandSpec, HandSpec]:
    """The same pot-limit table twice: the small blind short (or missing), then full.

    Three players at least: heads-up the short small blind is the button and nobody is left
    to raise against. The true pot only: with the assumed call a small blind who is all-in
    cannot be assumed to call.
    """
    big = draw(st.sampled_from([4, 10, 50, 200]))
    small = draw(st.integers(2, big))
    ante = draw(st.sampled_from([0, 1, big // 4, big]))
    ante_type = draw(st.sampled_from(["each", "big-blind", "button", "big-blind-ante-first"]))
    count = draw(st.integers(3, 10))
    lowest = 0 if ante and ante_type == "each" else 1
    posted = draw(st.integers(lowest, small - 1))
    short = posted + (ante if ante_type == "each" else 0)
    stacks = draw(st.lists(st.integers(100 * big, 400 * big), min_size=count, max_size=count))

    def table(small_blind_stack: int) -> HandSpec:
        chips = [small_blind_stack if seat == 1 else stack for seat, stack in enumerate(stacks)]
        return HandSpec(
            structure="pot-limit",
            blinds=(small, big),
            players=tuple(PlayerSpec(f"P{i}", stack) for i, stack in enumerate(chips)),
            ante=ante,
            ante_type=ante_type,
        )

    return table(short), table(stacks[1])


@SETTINGS
@given(tables=short_small_blind_tables(), data=st.data())
def test_it_allows_the_same_pot_limit_raises_with_a_short_small_blind_as_with_a_full_one(
    tables, data
):
    short_spec, full_spec = tables
    short, full = HandState(short_spec), HandState(full_spec)
    missing = full_spec.small_blind - short.bet[1]
    assert missing > 0 and short.stack[1] == 0
    # The pots hold the chips really put in, not the counted small blind.
    assert sum(short.committed) == sum(full.committed) - missing
    for index in range(30):
        mine, theirs = short.next_action(), full.next_action()
        if theirs is None or theirs.player == "P1" or full.street != short.street:
            break  # the small blind's turn: from here on the hands differ
        assert (mine.player, mine.call, mine.min_raise_to) == (
            theirs.player,
            theirs.call,
            theirs.min_raise_to,
        )
        assert mine.max_raise_to == theirs.max_raise_to
        roll = data.draw(st.integers(0, 5))
        if roll == 0:
            action = Action(mine.player, "fold")
        elif roll < 3 or mine.min_raise_to is None:
            action = Action(mine.player, "call")
        else:
            to = data.draw(st.integers(mine.min_raise_to, mine.max_raise_to))
            action = Action(mine.player, "raise", to)
        short.act(action, index)
        full.act(action, index)
