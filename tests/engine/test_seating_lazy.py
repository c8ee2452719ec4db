"""Planning from head counts: the tables read in full only where their seats matter.

`plan_after_elimination` may be given a table as a `Counted` (number, seats, players)
and a `load` that reads tables in full. The plan must be the very one the full tables
give, with the same random draws, whatever the rules, holds and positions.
"""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tdsystem.engine.rulesets import BALANCE_FROM
from tdsystem.engine.seating import (
    Counted,
    Holds,
    Procedure,
    Reserved,
    SeatingError,
    Table,
    next_hand,
    plan_after_elimination,
    start_hands,
)


def counted(table: Table) -> Counted:
    return Counted(table.number, table.seats, table.count)


class Loader:
    """A `load` over the full tables that records what it was asked for."""

    def __init__(self, tables):
        self.tables = {table.number: table for table in tables}
        self.calls: list[list[int]] = []

    def __call__(self, numbers):
        numbers = list(numbers)
        self.calls.append(numbers)
        return [self.tables[number] for number in numbers]

    @property
    def read(self) -> set[int]:
        return {number for call in self.calls for number in call}


def both_plans(tables, *, preload=(), seed=0, **options):
    """The plan from the full tables and from head counts (`preload` given in full), and
    the loader; the two random generators must end alike."""
    full_rng, lazy_rng = random.Random(seed), random.Random(seed)
    full = plan_after_elimination(tables, rng=full_rng, **options)
    loader = Loader(tables)
    given_tables = [table if table.number in preload else counted(table) for table in tables]
    lazy = plan_after_elimination(given_tables, rng=lazy_rng, load=loader, **options)
    assert full_rng.getstate() == lazy_rng.getstate(), "the same random draws"
    return full, lazy, loader


def table_at(number: int, seats: int, players: int, rng: random.Random, hands: int, left: int):
    """A table that has dealt `hands` hands (none: no positions) and lost `left` players
    since, so its button and blinds may be dead."""
    chosen = rng.sample(range(1, seats + 1), min(players, seats))
    table = Table(number, seats, {seat: number * 100 + seat for seat in chosen})
    if hands and table.count >= 2:
        table = start_hands(table, rng)
        for _ in range(hands - 1):
            table = next_hand(table)
    for entry in rng.sample(table.entries, min(left, max(table.count - 1, 0))):
        table = table.without_entry(entry)
    return table


@settings(max_examples=400, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    layout=st.lists(
        st.tuples(st.integers(6, 10), st.integers(0, 10), st.integers(0, 3), st.integers(0, 3)),
        min_size=1,
        max_size=16,
    ),
    threshold=st.sampled_from([1, 2, 3]),
    rule=st.sampled_from(["dead", "moving"]),
    skip_empty=st.booleans(),
    by_position=st.booleans(),
    source=st.sampled_from(sorted(BALANCE_FROM)),
    large_tables=st.integers(1, 20),
    within_one_at=st.integers(0, 6),
    held=st.integers(0, 4),
    preloaded=st.integers(0, 3),
)
def test_it_plans_from_head_counts_as_from_the_full_tables(
    seed,
    layout,
    threshold,
    rule,
    skip_empty,
    by_position,
    source,
    large_tables,
    within_one_at,
    held,
    preloaded,
):
    rng = random.Random(seed)
    tables = [
        table_at(number, seats, players, rng, hands, left)
        for number, (seats, players, hands, left) in enumerate(layout, start=1)
    ]
    entries = [entry for table in tables for entry in table.entries]
    reserved = {
        entry: Reserved(rng.randint(1, 6), rng.choice([None, rng.randint(1, len(tables))]))
        for entry in rng.sample(entries, min(held, len(entries)))
    }
    unmovable = frozenset(rng.sample(entries, min(held, len(entries))))
    options = {
        "break_order": rng.sample(range(1, len(tables) + 1), len(tables)),
        "threshold": threshold,
        "rule": rule,
        "skip_empty": skip_empty,
        "by_position": by_position,
        "holds": Holds(reserved, unmovable),
        "procedure": Procedure(source, source, large_tables, within_one_at),
    }
    preload = set(rng.sample(range(1, len(tables) + 1), min(preloaded, len(tables))))
    try:
        full, lazy, loader = both_plans(tables, preload=preload, seed=seed, **options)
    except SeatingError:
        # A refusal must come from the rules, never from reading lazily: the full tables
        # refuse too.
        with pytest.raises(SeatingError):
            plan_after_elimination(
                [counted(t) if t.number not in preload else t for t in tables],
                rng=random.Random(seed),
                load=Loader(tables),
                **options,
            )
        return
    assert lazy.moves == full.moves
    assert lazy.broken == full.broken
    read = loader.read | preload
    assert [t.number for t in lazy.tables] == [t.number for t in tables if t.number in read]
    final = {table.number: table for table in full.tables}
    assert all(final[table.number] == table for table in lazy.tables)
    unread = [table for table in tables if table.number not in read]
    assert all(final[table.number] == table for table in unread), "unread tables stay"
    assert not any(set(call) & preload for call in loader.calls), "nothing read twice"
    assert len(loader.read) == sum(len(call) for call in loader.calls)


def festival(tables: int, players: int, seed: int = 5) -> list[Table]:
    """`tables` nine-handed tables that have dealt, `players` seated as evenly as can be."""
    rng = random.Random(seed)
    result = []
    for number in range(1, tables + 1):
        count = players // tables + (number <= players % tables)
        result.append(table_at(number, 9, count, rng, hands=2, left=0))
    return result


def test_a_break_reads_the_table_that_breaks_and_those_its_players_go_to():
    tables = festival(600, 5391)  # fits 599 tables: the first in the break order breaks
    full, lazy, loader = both_plans(tables, break_order=[17], seed=3)
    assert lazy.broken == full.broken == (17,)
    assert lazy.moves == full.moves
    receiving = {move.to_table for move in full.moves}
    assert loader.read == {17} | receiving
    assert len(loader.calls) == 2, "the breaking table, then the tables drawn at"


def test_a_balancing_move_reads_the_two_tables_in_one_go():
    tables = festival(600, 5400)
    short = tables[40]
    for entry in short.entries[:2]:
        short = short.without_entry(entry)
    tables[40] = short  # table 41 has 7, the others 9: it takes a player
    full, lazy, loader = both_plans(tables, seed=4)
    assert len(full.moves) == 1 and lazy.moves == full.moves
    assert loader.calls == [[41, full.moves[0].from_table]]


def test_it_reads_nothing_when_nothing_is_to_do():
    tables = festival(20, 175)  # 20 tables of 8 or 9: none breaks, all even
    full, lazy, loader = both_plans(tables, threshold=2)
    assert not full.moves and not lazy.moves and not lazy.tables
    assert loader.calls == []


def test_a_head_count_without_a_load_is_refused_where_its_seats_matter():
    tables = [Table(1, 9, {1: 11, 2: 12}), Table(2, 9, {s: 20 + s for s in range(1, 10)})]
    with pytest.raises(SeatingError, match="head count"):
        plan_after_elimination([counted(t) for t in tables], rng=random.Random(0))


def test_it_refuses_a_table_read_unlike_its_head_count():
    tables = [Table(1, 9, {1: 11}), Table(2, 9, {1: 21, 2: 22, 3: 23})]
    wrong = [Counted(1, 9, 2), Counted(2, 9, 3)]  # table 1 counted with two players
    with pytest.raises(SeatingError, match="not as its head count says"):
        plan_after_elimination(wrong, rng=random.Random(0), load=Loader(tables))
