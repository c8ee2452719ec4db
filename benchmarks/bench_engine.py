"""How fast the betting engine replays hands, next to pokerkit 0.7.7 on the same hands.

    python benchmarks/bench_engine.py [--hands 2000] [--seed 7]

Random no-limit and pot-limit hands (seeded) are generated once, untimed, and kept only when
pokerkit accepts every action too. Then the same betting sequences are replayed:
- engine: ``adjudicate(hand_dict)``, the whole path of the command line and the pages
  (reading the dict, forced bets, every action checked, pots and the answer built);
- engine core: ``replay(HandSpec)`` alone;
- pokerkit: a state built with dealing automated (so cards cost it little and no hands are
  evaluated), every action applied, then its pots read.
Each is timed three times, taking turns; the best run counts. Figures, not a pass/fail.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pokerkit import (
    Automation,
    BettingStructure,
    Deck,
    Mode,
    Opening,
    StandardHighHand,
    State,
    Street,
)

from tdsystem.engine.betting import SHOWDOWN, HandState
from tdsystem.engine.ruling import adjudicate, replay
from tdsystem.engine.spec import Action, HandSpec, PlayerSpec

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_DEALING,
    Automation.BOARD_DEALING,
)


def random_hand(rng: random.Random) -> HandSpec:
    n = rng.randint(2, 9)
    bb = rng.choice((2, 10, 100))
    ante = rng.choice((0, 0, bb // 10, bb // 2))
    sb_seat, bb_seat = (0, 1) if n == 2 else (1, 2)
    players = []
    for i in range(n):
        stack = rng.randint(5 * bb, 200 * bb) if rng.random() < 0.7 else rng.randint(1, 8 * bb)
        need = ante + (bb if i == bb_seat else bb // 2 if i == sb_seat else 0)
        players.append(PlayerSpec(f"P{i}", max(stack, need)))
    spec = HandSpec(
        structure=rng.choice(("no-limit", "pot-limit")),
        blinds=(bb // 2, bb),
        ante=ante,
        players=tuple(players),
    )
    state = HandState(spec)
    actions = []
    while state.street < SHOWDOWN:
        nxt = state.next_action()
        roll = rng.random()
        if nxt.call and roll < 0.25:
            action = Action(nxt.player, "fold")
        elif nxt.min_raise_to is None or roll < 0.75:
            action = Action(nxt.player, "call" if nxt.call else "check")
        else:
            to = rng.choice((nxt.min_raise_to, nxt.max_raise_to))
            action = Action(nxt.player, "raise" if state.level else "bet", to)
        state.act(action, len(actions))
        actions.append(action)
    return HandSpec(
        structure=spec.structure,
        blinds=spec.blinds,
        ante=spec.ante,
        players=spec.players,
        actions=tuple(actions),
    )


def as_dict(spec: HandSpec) -> dict:
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


def pokerkit_replay(spec: HandSpec) -> list:
    n, bb = len(spec.players), spec.big_blind
    streets = (
        Street(False, (False, False), 0, False, Opening.POSITION, bb, None),
        Street(True, (), 3, False, Opening.POSITION, bb, None),
        Street(True, (), 1, False, Opening.POSITION, bb, None),
        Street(True, (), 1, False, Opening.POSITION, bb, None),
    )
    stacks = [0] * n
    for i, player in enumerate(spec.players):
        stacks[(i - 1) % n] = player.stack  # pokerkit starts at the small blind
    state = State(
        AUTOMATIONS,
        Deck.STANDARD,
        (StandardHighHand,),
        streets,
        BettingStructure.POT_LIMIT if spec.structure == "pot-limit" else BettingStructure.NO_LIMIT,
        True,
        spec.ante,
        spec.blinds,
        0,
        tuple(stacks),
        n,
        mode=Mode.TOURNAMENT,
    )
    for action in spec.actions:
        while (
            state.actor_index is not None
            and state.checking_or_calling_amount == 0
            and (not state.can_complete_bet_or_raise_to())
        ):
            state.check_or_call()  # pokerkit asks for a check nobody has to make
        if action.do == "fold":
            state.fold()
        elif action.do in ("check", "call"):
            state.check_or_call()
        else:
            state.complete_bet_or_raise_to(action.to)
    return list(state.pots)


def best_rates(runs: dict, rounds: int = 3) -> dict[str, float]:
    """Hands a second for each ``name: (run, items)``, the best of ``rounds``. The runs take
    turns within each round, so a machine shared with others slows every side alike."""
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(rounds):
        for name, (run, items) in runs.items():
            start = time.perf_counter()
            for item in items:
                run(item)
            best[name] = min(best[name], time.perf_counter() - start)
    return {name: len(runs[name][1]) / best[name] for name in runs}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=7)
    options = parser.parse_args()
    rng = random.Random(options.seed)
    specs, dropped = [], 0
    while len(specs) < options.hands:
        spec = random_hand(rng)
        try:
            pokerkit_replay(spec)
        except ValueError:
            dropped += 1  # one of the documented differences (docs/engine.md)
            continue
        specs.append(spec)
    dicts = [as_dict(spec) for spec in specs]
    actions = sum(len(spec.actions) for spec in specs)
    print(
        f"{len(specs)} hands, {actions / len(specs):.1f} actions a hand, "
        f"{sum(len(s.players) for s in specs) / len(specs):.1f} players a hand "
        f"({dropped} generated hands left out: pokerkit reads them differently)"
    )
    rates = best_rates(
        {
            "engine": (adjudicate, dicts),
            "core": (replay, specs),
            "pokerkit": (pokerkit_replay, specs),
        }
    )
    engine, core, pokerkit = rates["engine"], rates["core"], rates["pokerkit"]
    ratio = engine / pokerkit
    print(f"engine: {engine:,.0f} hands/s  pokerkit: {pokerkit:,.0f} hands/s  ratio: {ratio:.1f}x")
    print(f"engine core (replay only): {core:,.0f} hands/s  ratio: {core / pokerkit:.1f}x")


if __name__ == "__main__":
    main()
