"""Random hands played through the engine and through pokerkit 0.7.7, compared step by step.

pokerkit is an independent implementation of the betting rules, so wherever both claim to
follow the same rule they must agree: the amount to call, whether a raise is allowed, the
minimum and maximum raise-to, and the pots with their players at the end of every round.

The generator stays away from the differences that are on purpose (each has its own tests):
no blind is posted short (pokerkit lets the next player call the short blind; callers owe the
full blind here), only traditional antes, no limit games. Three more are recognised while
playing, where the full-bet rule (D9) is read differently:
- an all-in that is the first wager of a round and not a full one (a short raise over the big
  blind, a bet below the minimum) reopens the betting in pokerkit, which measures a full raise
  from nothing; here the big blind is the opening bet and such an all-in does not reopen the
  betting for the limpers or checkers who already acted (TDA rule 47);
- pokerkit adds up short all-ins only until they make a full raise and then starts again, so a
  later short all-in can shut out a player who faces more than a full raise since acting;
  here each player who already acted is measured from their own last action;
- an uncalled bet goes back to its owner in pokerkit but stays in a one-player pot here;
- pokerkit asks a player who has nothing to decide (nobody left could answer a raise) for a
  check; the betting is simply over here.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from pokerkit import Automation, BettingStructure, Deck, Mode, Opening, StandardHighHand
from pokerkit import State as PkState
from pokerkit import Street as PkStreet

from tdsystem.engine.betting import COMPLETE, SHOWDOWN, HandState
from tdsystem.engine.ruling import ruling_of
from tdsystem.engine.spec import Action, HandSpec, PlayerSpec

_AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_DEALING,
    Automation.BOARD_DEALING,
)


@dataclass
class OracleStats:
    hands: int = 0
    decisions: int = 0
    raise_checks: int = 0
    known_reopen_differences: int = 0
    pot_checks: int = 0
    uncalled_returned: int = 0
    showdowns: int = 0
    completes: int = 0
    structures: dict[str, int] = field(default_factory=dict)


def pokerkit_state(spec: HandSpec) -> PkState:
    """The same table in pokerkit: its seat 0 is our small blind, our button its last seat.

    The forced bets of D7 are pokerkit's too: straddles follow the blinds in its blinds and
    straddles; a blind posted on the button (three blinds) or a missed big blind is posted
    with a negative value there, pokerkit's way of a live blind that does not move the first
    player to act; a missed small blind is that player's ante (dead money). A kill blind
    after the big blind is pokerkit's straddle, with the kill hand's doubled bets."""
    n, bb = len(spec.players), spec.big_blind
    pk_seat = {p.name: (i - 1) % n for i, p in enumerate(spec.players)}
    fixed = spec.structure == "fixed-limit"
    structure = (
        BettingStructure.FIXED_LIMIT
        if fixed
        else BettingStructure.POT_LIMIT
        if spec.structure == "pot-limit"
        else BettingStructure.NO_LIMIT
    )
    small_bet, big_bet = spec.limit_bets if fixed else (bb, bb)
    if spec.kill is not None:
        factor = 2 if spec.kill[1] == "full" else 1.5
        small_bet, big_bet = int(small_bet * factor), int(big_bet * factor)
    most = 4 if fixed else None
    streets = (
        PkStreet(False, (False, False), 0, False, Opening.POSITION, small_bet, most),
        PkStreet(True, (), 3, False, Opening.POSITION, small_bet, most),
        PkStreet(True, (), 1, False, Opening.POSITION, big_bet, most),
        PkStreet(True, (), 1, False, Opening.POSITION, big_bet, most),
    )
    stacks = [0] * n
    for i, player in enumerate(spec.players):
        stacks[(i - 1) % n] = player.stack
    blinds: dict[int, int] | tuple[int, ...] = spec.blinds
    antes: dict[int, int] | int = spec.ante
    if len(spec.blinds) == 3:
        button, small, big = spec.blinds
        blinds = {0: small, 1: big, n - 1: -button}
    if spec.straddles or spec.kill is not None:
        straddles = list(spec.straddles)
        if spec.kill is not None:
            straddles.append(2 * bb if spec.kill[1] == "full" else bb * 3 // 2)
        blinds = (*spec.blinds, *straddles)
    if spec.missed_blinds:
        blinds = dict(enumerate(spec.blinds))
        antes = {}
        for name, which in spec.missed_blinds:
            if which in ("big", "both"):
                blinds[pk_seat[name]] = -bb
            if which in ("small", "both"):
                antes[pk_seat[name]] = spec.small_blind
    return PkState(
        _AUTOMATIONS,
        Deck.STANDARD,
        (StandardHighHand,),
        streets,
        structure,
        not spec.missed_blinds,  # ante trimming: uniform traditional antes
        antes,
        blinds,
        0,
        tuple(stacks),
        n,
        mode=Mode.TOURNAMENT,
    )


def random_spec(rng: random.Random, structure: str | None = None) -> HandSpec:
    """A table with some short stacks, none short for its blind."""
    n = rng.choice((2, 2, 3, 3, 4, 5, 6, 6, 7, 8, 9, 10))
    bb = rng.choice((2, 4, 10, 20, 100))
    sb = rng.choice((bb // 2, bb // 2, bb // 2, max(1, bb // 4), bb, max(1, bb * 2 // 5)))
    if n == 2 and sb == bb:
        sb = bb // 2  # pokerkit picks the heads-up opener by the larger blind
    ante = rng.choice((0, 0, max(1, bb // 10), max(1, bb // 4), bb // 2))
    players = []
    sb_seat, bb_seat = (0, 1) if n == 2 else (1, 2)
    for i in range(n):
        kind = rng.random()
        if kind < 0.1 and ante:
            stack = rng.randint(1, ante)  # all-in on the ante (D8)
        elif kind < 0.45:
            stack = rng.randint(1, 12 * bb)
        else:
            stack = rng.randint(20 * bb, 150 * bb)
        need = ante + (bb if i == bb_seat else sb if i == sb_seat else 0)
        players.append(PlayerSpec(f"P{i}", max(stack, need)))
    return HandSpec(
        structure=structure or rng.choice(("no-limit", "pot-limit")),
        blinds=(sb, bb),
        ante=ante,
        players=tuple(players),
    )


def _choose(rng: random.Random, options, may_raise: bool, wager: int) -> Action:
    roll = rng.random()
    name = options.player
    if options.call and roll < 0.22:
        return Action(name, "fold")
    if not may_raise or options.min_raise_to is None or roll < 0.62:
        return Action(name, "call" if options.call else "check")
    low, high = options.min_raise_to, options.max_raise_to
    do = "raise" if wager else "bet"
    pick = rng.random()
    if pick < 0.35:
        to = low
    elif pick < 0.55:
        to = high
    else:
        to = rng.randint(low, high)
    return Action(name, do, to)


def played_spec(rng: random.Random) -> HandSpec:
    """A random table and up to 30 actions played by the rules (a hand stopped anywhere)."""
    spec = random_spec(rng, rng.choice(("no-limit", "pot-limit", "fixed-limit")))
    state, actions = HandState(spec), []
    while state.street < SHOWDOWN and len(actions) < rng.randint(0, 30):
        nxt = state.next_action()
        action = _choose(rng, nxt, True, state.level)
        try:
            state.act(action, len(actions))
        except ValueError:
            break  # a fixed-limit size the chooser got wrong: the hand so far is fine
        actions.append(action)
    return HandSpec(
        structure=spec.structure,
        blinds=spec.blinds,
        ante=spec.ante,
        players=spec.players,
        actions=tuple(actions),
    )


def hand_data(spec: HandSpec) -> dict:
    """A blind game's spec as the JSON object the command line and ``adjudicate`` read."""
    return {
        "structure": spec.structure,
        "blinds": list(spec.blinds),
        "ante": spec.ante,
        "players": [{"name": p.name, "stack": p.stack} for p in spec.players],
        "actions": [
            {"player": a.player, "do": a.do, **({"to": a.to} if a.to is not None else {})}
            for a in spec.actions
        ],
    }


def _apply_pk(pk: PkState, action: Action) -> None:
    if action.do == "fold":
        pk.fold()
    elif action.do in ("check", "call"):
        pk.check_or_call()
    else:
        pk.complete_bet_or_raise_to(action.to)


def play_and_compare(
    rng: random.Random,
    stats: OracleStats,
    structure: str | None = None,
    *,
    spec: HandSpec | None = None,
    pk_spec: HandSpec | None = None,
    first_round_only: bool = False,
):
    """Play one random hand in both engines, asserting agreement; returns the actions.
    ``spec`` is the table (by default a random one), ``pk_spec`` the same table as pokerkit
    plays it when it differs (a cap-limit game: every stack cut at the cap)."""
    spec = spec or random_spec(rng, structure)
    stats.hands += 1
    stats.structures[spec.structure] = stats.structures.get(spec.structure, 0) + 1
    n = len(spec.players)
    ours = HandState(spec)
    pk = pokerkit_state(pk_spec or spec)
    actions: list[Action] = []
    acted_this_round: set[int] = set()
    short_all_in_this_round = full_wager_this_round = False
    street = ours.street
    while True:
        options = ours.next_action()
        _skip_formal_checks(pk, options, ours, n)
        if options is None:
            assert pk.actor_index is None, (spec, actions)
            break
        seat = ours.seat_of[options.player]
        context = (spec, actions, options)
        assert pk.actor_index == (seat - 1) % n, context
        stats.decisions += 1
        assert pk.checking_or_calling_amount == options.call, context
        pk_may_raise = pk.can_complete_bet_or_raise_to()
        may_raise = options.min_raise_to is not None
        if pk_may_raise != may_raise:
            # The one place the full-bet rule is read differently (see the module text).
            assert seat in acted_this_round and short_all_in_this_round, context
            if pk_may_raise:  # a first wager that is not full reopens nothing here
                assert not full_wager_this_round, context
            else:  # short all-ins since this player acted add up to a full raise
                assert ours.acted_since_full_raise(seat), context
            stats.known_reopen_differences += 1
            may_raise = False
        elif may_raise:
            stats.raise_checks += 1
            assert pk.min_completion_betting_or_raising_to_amount == options.min_raise_to, context
            assert pk.max_completion_betting_or_raising_to_amount == options.max_raise_to, context
        action = _choose(rng, options, may_raise, ours.level)
        before = ours.level + ours.increment
        stack_before = ours.stack[seat] + ours.bet[seat]
        ours.act(action, len(actions))
        actions.append(action)
        _apply_pk(pk, action)
        acted_this_round.add(seat)
        if action.to is not None:
            if action.to == stack_before and action.to < before:
                short_all_in_this_round = True
            else:
                full_wager_this_round = True
        if ours.street != street and first_round_only:
            return spec, actions
        if ours.street != street:
            _skip_formal_checks(pk, ours.next_action(), ours, n)
            street = ours.street
            acted_this_round.clear()
            short_all_in_this_round = full_wager_this_round = False
            _compare_pots(ours, pk, stats, spec, actions)
    _skip_formal_checks(pk, None, ours, n)
    if ours.street == COMPLETE:
        stats.completes += 1
    else:
        stats.showdowns += 1
    return spec, actions


def _skip_formal_checks(pk: PkState, options, ours: HandState, n: int) -> None:
    """pokerkit asks a player with nothing to decide (nobody left who could answer a raise)
    for a check; the engine does not ask (D9)."""
    wanted = None if options is None else (ours.seat_of[options.player] - 1) % n
    while pk.actor_index is not None and pk.actor_index != wanted:
        assert pk.checking_or_calling_amount == 0
        assert not pk.can_complete_bet_or_raise_to()
        pk.check_or_call()


def _compare_pots(ours: HandState, pk: PkState, stats: OracleStats, spec, actions) -> None:
    n = ours.n
    ruling = ruling_of(ours)
    our_pots = [[p.amount, list(p.eligible)] for p in ruling.pots]
    names = [ours.names[(k + 1) % n] for k in range(n)]  # pokerkit seat -> our name
    order = {name: i for i, name in enumerate(ours.names)}
    pk_pots = [
        [pot.amount, sorted((names[k] for k in pot.player_indices), key=order.__getitem__)]
        for pot in pk.pots
    ]
    context = (spec, actions, our_pots, pk_pots)
    stats.pot_checks += 1
    if ours.street == COMPLETE:
        winner = [p.name for p in ruling.players if p.status != "folded"]
        assert len(our_pots) == 1 and our_pots[0][1] == winner, context
        assert our_pots[0][0] == sum(pot.amount for pot in pk.pots) + sum(pk.bets), context
        return
    assert not any(pk.bets), context
    uncalled = sum(p.amount for p in ruling.pots) - sum(pot[0] for pot in pk_pots)
    assert uncalled >= 0, context
    if uncalled:
        stats.uncalled_returned += 1
        assert len(our_pots[-1][1]) == 1 and our_pots[-1][0] >= uncalled, context
        our_pots[-1][0] -= uncalled
        if not our_pots[-1][0]:
            our_pots.pop()
    assert our_pots == pk_pots, context
    returned = [pk.stacks[(i - 1) % n] - ours.stack[i] for i in range(n)]
    assert min(returned) >= 0 and sum(returned) == uncalled, context
