"""A bust-out's undo decided without a database: each refusal and its precedence, the
players and movers back, the tables restored or kept, the broken ones back in play."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from tdsystem.engine import undo as u

# Ann (entry 10) busted at table 2 seat 3; the balancing moved Bob (entry 20) from table 1
# seat 5 into her seat. Both tables were at hand 40 then and have not dealt since.
ANN = u.PlayerOut(10, "Ann", 2, 3, False, 0, 0)
BOB_MOVE = u.MoveBack(7, 20, "Bob", 1, 5, 2, 3, False)
BOB_NOW = u.Mover(20, "Bob", True, 2, 3)


def table(number: int, in_play: bool = True, hand: int = 40, venue_in_use: bool = False):
    return u.Table(number, in_play, hand, venue_in_use)


def situation(**changes) -> u.UndoSituation:
    values: dict = {
        "undone": None,
        "finished": False,
        "players": (ANN,),
        "moves": (BOB_MOVE,),
        "movers": (BOB_NOW,),
        "tables": (table(1), table(2)),
        "before": (u.TableBefore(1, 40), u.TableBefore(2, 40)),
        "broken": (),
    }
    values.update(changes)
    return u.UndoSituation(**values)


def refused(s: u.UndoSituation) -> u.Refusal:
    outcome = u.undo_decide(s)
    assert isinstance(outcome, u.Refusal)
    return outcome


def done(s: u.UndoSituation) -> u.UndoOutcome:
    outcome = u.undo_decide(s)
    assert isinstance(outcome, u.UndoOutcome), outcome
    return outcome


# What an undo writes -----------------------------------------------------------------------


def test_the_player_sits_down_again_and_the_mover_goes_back():
    outcome = done(situation())
    assert outcome.players == (u.Seat(10, 2, 3, 0),)
    assert outcome.movers == (u.Seat(20, 1, 5),)
    assert outcome.moves == (7,)
    assert outcome.restore == (u.Restore(1, False), u.Restore(2, False))
    assert outcome.broken == ()


def test_the_chips_a_short_big_blind_took_out_go_back_in_play():
    short = replace(ANN, chips_removed=1500, entry_chips_removed=2000)
    assert done(situation(players=(short,))).players == (u.Seat(10, 2, 3, 500),)
    over = replace(ANN, chips_removed=1500, entry_chips_removed=1000)
    assert done(situation(players=(over,))).players[0].chips_removed == 0


def test_a_table_that_has_dealt_since_keeps_its_button():
    outcome = done(situation(tables=(table(1, hand=41), table(2))))
    assert outcome.restore == (u.Restore(2, False),)


def test_a_table_gone_since_is_not_restored():
    outcome = done(situation(tables=(table(2),), moves=(), movers=()))
    assert outcome.restore == (u.Restore(2, False),)


def test_a_broken_table_comes_back_in_play_with_its_state():
    # Table 3 broke: Bob came from it. Out of play, its hand number is not compared.
    move = replace(BOB_MOVE, from_table=3, from_seat=1)
    outcome = done(
        situation(
            moves=(move,),
            tables=(table(2), table(3, in_play=False, hand=12)),
            before=(u.TableBefore(2, 40), u.TableBefore(3, 11)),
            broken=(3,),
        )
    )
    assert outcome.restore == (u.Restore(2, False), u.Restore(3, True))
    assert outcome.broken == (3,)
    assert outcome.movers == (u.Seat(20, 3, 1),)


def test_without_a_balancing_only_the_players_go_back():
    outcome = done(situation(moves=(), movers=(), before=(), tables=(table(2),)))
    assert outcome.players == (u.Seat(10, 2, 3, 0),)
    assert (outcome.movers, outcome.moves, outcome.restore) == ((), (), ())


# Each refusal ------------------------------------------------------------------------------


def test_an_undo_done_already_is_refused_with_who_and_when():
    r = refused(situation(undone=("Floor", "21:05")))
    assert (r.reason, r.values) == (u.UNDONE, {"who": "Floor", "at": "21:05"})


def test_a_finished_event_is_not_reopened():
    assert refused(situation(finished=True)).reason == u.FINISHED


def test_a_paid_prize_is_never_changed():
    paid = replace(ANN, paid=True)
    other = u.PlayerOut(11, "Cy", 2, 4, True, 0, 0)
    r = refused(situation(players=(paid, other)))
    assert (r.reason, r.entries) == (u.PAID, (10, 11))


def test_a_table_gone_since_refuses():
    assert refused(situation(players=(replace(ANN, table=None),))).reason == u.TABLE_GONE


def test_a_later_bust_out_at_its_tables_refuses():
    r = refused(situation(later=u.Later(2, "21:10")))
    assert (r.reason, r.values) == (u.LATER, {"table": 2, "at": "21:10"})


def test_a_move_carried_out_refuses_naming_the_first():
    first = replace(BOB_MOVE, carried_out=True)
    second = u.MoveBack(8, 21, "Dee", 1, 6, 2, 4, True)
    r = refused(situation(moves=(first, second), movers=(BOB_NOW, u.Mover(21, "Dee", True, 2, 4))))
    assert (r.reason, r.values) == (u.CARRIED_OUT, {"name": "Bob", "table": 2, "seat": 3})


def test_a_broken_table_in_play_again_or_gone_refuses():
    r = refused(situation(broken=(1,)))
    assert (r.reason, r.values) == (u.BROKEN_IN_PLAY, {"table": 1})
    assert refused(situation(broken=(9,))).reason == u.BROKEN_IN_PLAY


def test_a_broken_table_whose_venue_table_another_event_uses_refuses():
    tables = (table(1), table(2), table(3, in_play=False, venue_in_use=True))
    r = refused(situation(tables=tables, broken=(3,)))
    assert (r.reason, r.values) == (u.BROKEN_IN_USE, {"table": 3})


def test_a_mover_who_moved_or_busted_since_refuses():
    for now in (replace(BOB_NOW, active=False), replace(BOB_NOW, seat=8)):
        r = refused(situation(movers=(now,)))
        assert (r.reason, r.values) == (u.MOVED_SINCE, {"name": "Bob", "table": 2, "seat": 3})


def test_a_player_moved_twice_answers_for_the_last_slip():
    again = u.MoveBack(8, 20, "Bob", 2, 3, 2, 6, False)
    now = replace(BOB_NOW, seat=6)
    outcome = done(situation(moves=(BOB_MOVE, again), movers=(now,)))
    assert outcome.moves == (7, 8)
    r = refused(situation(moves=(BOB_MOVE, again), movers=(BOB_NOW,)))
    assert (r.reason, r.values["seat"]) == (u.MOVED_SINCE, 6)


def test_a_re_entry_refuses_before_the_seat_it_took():
    r = refused(situation(re_entries=(u.Named(31, "Ann"),), sitters=(u.Sitter(2, 3, "Ann"),)))
    assert (r.reason, r.values) == (u.RE_ENTERED, {"name": "Ann", "number": 31})


def test_a_table_out_of_play_refuses():
    cy = u.PlayerOut(11, "Cy", 5, 2, False, 0, 0)
    r = refused(situation(players=(ANN, cy), tables=(table(1), table(2), table(5, False))))
    assert (r.reason, r.values) == (u.NOT_IN_PLAY, {"table": 5})
    # A table the undo does not know (not read) is as good as out of play.
    assert refused(situation(players=(ANN, cy))).reason == u.NOT_IN_PLAY


def test_a_seat_taken_since_refuses_naming_both():
    r = refused(situation(sitters=(u.Sitter(2, 3, "Eve"), u.Sitter(2, 3, "Fay"))))
    assert r.reason == u.SEAT_TAKEN
    assert r.values == {"table": 2, "seat": 3, "taken": "Eve", "name": "Ann"}


def test_a_movers_old_seat_taken_since_refuses():
    r = refused(situation(sitters=(u.Sitter(1, 5, "Gus"),)))
    assert r.values == {"table": 1, "seat": 5, "taken": "Gus", "name": "Bob"}


def test_a_pko_head_paid_on_since_refuses():
    r = refused(situation(bounty_paid_on=u.Named(12, "Hal")))
    assert (r.reason, r.values) == (u.BOUNTY_PAID_ON, {"number": 12, "name": "Hal"})


# Properties --------------------------------------------------------------------------------

# Each clash, set alone on the situation above, gives its own refusal; set together, the
# first in REFUSALS is the answer. The player at an out-of-play table sits first so that
# her seat is checked before Ann's, as NOT_IN_PLAY comes before SEAT_TAKEN.
CY_AT_5 = u.PlayerOut(11, "Cy", 5, 2, False, 0, 0)
DEE_GONE = u.PlayerOut(12, "Dee", None, None, False, 0, 0)


def with_clashes(clashes: frozenset[str]) -> u.UndoSituation:
    s = situation(tables=(table(1), table(2), table(5, False)))
    players = [ANN]
    broken: list[int] = []
    tables = list(s.tables)
    if u.UNDONE in clashes:
        s = replace(s, undone=("Floor", "21:05"))
    if u.FINISHED in clashes:
        s = replace(s, finished=True)
    if u.PAID in clashes:
        players[0] = replace(ANN, paid=True)
    if u.TABLE_GONE in clashes:
        players.append(DEE_GONE)
    if u.LATER in clashes:
        s = replace(s, later=u.Later(2, "21:10"))
    if u.CARRIED_OUT in clashes:
        s = replace(s, moves=(replace(BOB_MOVE, carried_out=True),))
    if u.BROKEN_IN_PLAY in clashes:
        tables.append(table(3))
        broken.append(3)
    if u.BROKEN_IN_USE in clashes:
        tables.append(table(4, in_play=False, venue_in_use=True))
        broken.append(4)
    if u.MOVED_SINCE in clashes:
        s = replace(s, movers=(replace(BOB_NOW, active=False),))
    if u.RE_ENTERED in clashes:
        s = replace(s, re_entries=(u.Named(31, "Ann"),))
    if u.NOT_IN_PLAY in clashes:
        players.insert(0, CY_AT_5)
    if u.SEAT_TAKEN in clashes:
        s = replace(s, sitters=(u.Sitter(2, 3, "Eve"),))
    if u.BOUNTY_PAID_ON in clashes:
        s = replace(s, bounty_paid_on=u.Named(12, "Hal"))
    return replace(s, players=tuple(players), tables=tuple(tables), broken=tuple(broken))


@given(st.frozensets(st.sampled_from(u.REFUSALS)))
def test_the_first_clash_in_order_is_the_answer_and_a_refusal_writes_nothing(clashes):
    outcome = u.undo_decide(with_clashes(clashes))
    if not clashes:
        assert isinstance(outcome, u.UndoOutcome)
        return
    first = next(reason for reason in u.REFUSALS if reason in clashes)
    # A refusal carries no seats, slips or tables: there is nothing in it to write.
    assert isinstance(outcome, u.Refusal) and outcome.reason == first


@st.composite
def balanced(draw):
    """A bust-out whose balancing changed a few tables, each in any state since: dealt or
    not, out of play, broken then; the player out sits at a table in play."""
    numbers = draw(st.lists(st.integers(1, 8), min_size=1, max_size=6, unique=True))
    broken = draw(st.lists(st.sampled_from(numbers), unique=True, max_size=2))
    tables, before = [], []
    for n in numbers:
        then = draw(st.integers(0, 50))
        in_play = n not in broken and draw(st.booleans())
        tables.append(table(n, in_play=in_play, hand=then + draw(st.integers(0, 3))))
        if n in broken or draw(st.booleans()):
            before.append(u.TableBefore(n, then))
    playing = [t.number for t in tables if t.in_play]
    players = (u.PlayerOut(10, "Ann", playing[0], 3, False, 0, 0),) if playing else ()
    return situation(
        players=players,
        moves=(),
        movers=(),
        tables=tuple(tables),
        before=tuple(before),
        broken=tuple(broken),
    )


@given(balanced())
def test_no_table_that_has_dealt_since_is_restored(s):
    outcome = done(s)
    now = {t.number: t for t in s.tables}
    then = {b.number: b.hand_number for b in s.before}
    for back in outcome.restore:
        assert back.number in then and back.number in now
        table_now = now[back.number]
        assert not table_now.in_play or table_now.hand_number == then[back.number]
        assert back.back_in_play == (back.number in s.broken)
    # Every table the balancing changed that has not dealt since is restored.
    kept = {n for n in then if n in now and now[n].in_play and now[n].hand_number != then[n]}
    assert {b.number for b in outcome.restore} == set(then) - kept
    assert outcome.broken == s.broken
