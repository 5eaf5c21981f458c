"""Thrown bots (R16, R29, R36, R39, D9, D10, D22), overwatch interrupts during a
move (R23) and mines met on the way (R31)."""
from __future__ import annotations

import pytest

from bottisota.core.actions import Forward, Move, Turn
from bottisota.engine.damage import destroy
from bottisota.engine.movement.moves import commit_move, fling, preview_fling
from bottisota.engine.state import Mine
from tests.builders import arena, bot, card, state, weapon

WALL = {"type": "wall", "id": "block", "rect": [20, 20, 2, 20]}


def pose(s, bot_id="a"):
    b = s.bots[bot_id]
    return (round(b.x, 2), round(b.y, 2), round(b.z, 2), round(b.facing, 1))


def test_flung_bot_stops_at_a_wall_with_a_collision_test():  # R29 D10
    s = state(arena(WALL), bot("a", "red", (10, 30), 0), bot("p", "blue", (5, 5)), dice=[2, 1, 6])
    events = fling(s, "a", 90, 15, by="p")
    assert pose(s) == (19.0, 30.0, 0.0, 0.0)
    assert s.bots["a"].damage == 1
    assert [e["type"] for e in events].count("armour_test") == 2


def test_flung_bot_hitting_a_bot_tests_both_flung_first():  # R16
    s = state(arena(), bot("a", "red", (10, 30), 0), bot("b", "blue", (16, 30)),
              bot("p", "green", (5, 5)), dice=[1, 6, 1, 1])
    events = fling(s, "a", 90, 10, by="p")
    assert pose(s) == (14.0, 30.0, 0.0, 0.0) and pose(s, "b")[:2] == (16.0, 30.0)
    assert [e["bot"] for e in events if e["type"] == "armour_test"] == ["a", "b"]
    assert s.bots["b"].damage == 1


def test_flung_into_a_pit_the_beam_owner_scores_the_kill():  # R36 D22
    s = state(arena({"type": "pit", "circle": [20, 30, 3]}), bot("a", "red", (10, 30), 0),
              bot("p", "blue", (5, 5)))
    events = fling(s, "a", 90, 10, by="p")
    assert s.bots["a"].destroyed and pose(s)[:2] == (17.0, 30.0)
    assert any(e["type"] == "score" and e["player"] == "blue" for e in events)


def test_flung_off_a_cliff_falls():  # R39 D22
    s = state(arena({"type": "platform", "rect": [0, 0, 20, 60], "height": 5}),
              bot("a", "red", (15, 30), 0), bot("p", "blue", (70, 5)), dice=[1])
    fling(s, "a", 90, 10, by="p")
    # it comes to rest just clear of the cliff (docs/decisions.md R39), base off the platform
    assert pose(s) == (21.0, 30.0, 0.0, 0.0) and s.bots["a"].damage == 4


def test_table_edge_stops_a_flung_bot_without_a_test():  # R29
    s = state(arena(), bot("a", "red", (10, 30), 0), dice=[])
    fling(s, "a", 270, 15, by=None)
    assert pose(s)[:2] == (1.0, 30.0) and s.dice.used == 0


def test_preview_fling_shows_the_landing_and_what_it_hits():  # R29
    s = state(arena(WALL), bot("a", "red", (10, 30), 0), dice=[])
    f = preview_fling(s, "a", 90, 15)
    assert (round(f.x, 2), round(f.y, 2)) == (19.0, 30.0)
    assert (
        f.stopped_by == "wall"
        and f.collisions == ["wall 'block'"]
        and f.moved == pytest.approx(9.0)
    )
    assert pose(s)[:2] == (10.0, 30.0) and s.dice.used == 0


def test_flung_bot_opens_a_door():  # R47
    s = state(
        arena({"type": "door", "id": "gate", "rect": [20, 20, 2, 20]}), bot("a", "red", (10, 30), 0)
    )
    events = fling(s, "a", 90, 15, by=None)
    assert pose(s)[:2] == (25.0, 30.0)
    assert any(e["type"] == "door_opened" for e in events)


# --- interrupts (R23) ----------------------------------------------------------------

class Watcher:
    """Fires once at the middle of the first straight piece; may destroy the mover."""

    def __init__(self, lethal: bool = False):
        self.lethal = lethal
        self.fired_at = None
        self.asked = 0

    def earliest(self, state, mover, a, b):
        self.asked += 1
        if self.fired_at is None and (a.x, a.y) != (b.x, b.y):
            return 0.5
        return None

    def fire(self, state, mover, at):
        self.fired_at = (round(at.x, 2), round(at.y, 2))
        assert (round(mover.x, 2), round(mover.y, 2)) == self.fired_at
        if self.lethal:
            return destroy(state, mover, "shot", "w")
        return [{"type": "watched", "bot": mover.id}]


def test_watcher_fires_mid_piece_and_the_move_goes_on():  # R23
    s = state(arena(), bot("a", "red", (10, 30), 90, card(move=10)), bot("w", "blue", (40, 50)))
    w = Watcher()
    r = commit_move(s, Move("a", (Forward(6), Turn(90), Forward(2))), w)
    assert w.fired_at == (13.0, 30.0)
    assert pose(s) == (16.0, 28.0, 0.0, 180.0)
    assert s.bots["a"].moved == pytest.approx(8.0) and r.spent == pytest.approx(8.0)
    assert w.asked >= 4                        # every piece, the turn too


def test_watcher_destroying_the_mover_ends_the_move_there():  # R23
    s = state(arena(), bot("a", "red", (10, 30), 90, card(move=10)), bot("w", "blue", (40, 50)))
    r = commit_move(s, Move("a", (Forward(6), Forward(2))), Watcher(lethal=True))
    assert s.bots["a"].destroyed and pose(s)[:2] == (13.0, 30.0)
    assert r.ended == "destroyed" and r.spent == pytest.approx(3.0)


# --- mines (R31) -------------------------------------------------------------------

def test_active_mine_strikes_a_bot_walking_over_it():  # R31
    layer = card(weapons=[weapon("Mine", kind="mine", to_hit=4, hits=1)])
    s = state(arena(), bot("a", "red", (10, 30), 90, card(move=10)),
              bot("m", "blue", (40, 50), 0, layer), dice=[1, 1, 1])
    s.mines.append(Mine(id="mine-1", owner="m", player="blue", weapon="Mine", x=15, y=30, z=0,
                        r=1.0, active=True))
    r = commit_move(s, Move("a", (Forward(8),)))
    assert any(e["type"] == "mine_strike" for e in r.events)
    assert s.mines == [] and pose(s)[:2] == (18.0, 30.0)


def test_flung_bot_is_struck_by_a_mine_it_passes_over():  # R29 R31
    layer = card(weapons=[weapon("Mine", kind="mine", to_hit=4, hits=1)])
    s = state(arena(), bot("a", "red", (10, 30), 0), bot("m", "blue", (40, 50), 0, layer),
              dice=[1])
    s.mines.append(Mine(id="mine-1", owner="m", player="blue", weapon="Mine", x=15, y=30, z=0,
                        r=1.0, active=True))
    events = fling(s, "a", 90, 10, by="m")
    strike = [i for i, e in enumerate(events) if e["type"] == "mine_strike"]
    assert len(strike) == 1 and s.mines == []
    placed = events[strike[0] - 1]
    assert placed["type"] == "bot_moved" and (placed["x"], placed["y"]) == (12.95, 30.0)
    assert pose(s)[:2] == (20.0, 30.0)


def test_preview_fling_reports_a_fall_and_a_pit_without_dice():  # R36 R39
    s = state(arena({"type": "platform", "rect": [0, 0, 20, 60], "height": 5},
                    {"type": "pit", "circle": [30, 10, 3]}),
              bot("a", "red", (15, 30), 0), bot("c", "blue", (22, 10), 0), dice=[])
    f = preview_fling(s, "a", 90, 10)
    assert f.stopped_by == "fall" and f.fall["damage_range"] == [0, 4]
    assert (round(f.x, 2), round(f.y, 2), f.z) == (21.0, 30.0, 0.0)   # clear of the cliff
    f = preview_fling(s, "c", 90, 10)
    assert f.stopped_by == "pit" and f.pit == "pit #1" and round(f.x, 2) == 27.0
    assert s.dice.used == 0 and s.bots["c"].x == 22
