"""Overwatch (R23, R24, D20) as movement's interrupt, through the Game."""
import pytest

from bottisota.core.actions import Forward, Move, Pass, SetOverwatch
from bottisota.engine.game import Game
from bottisota.engine.modes import ScenarioMode
from tests.builders import arena, bot, card, state, weapon

FIELD = arena(size=(100, 60))
GUN = weapon("Gun", range=40)
WATCHER = card(weapons=[GUN])
RUNNER = card(locomotion="hover", move=40, structure=6)


def runner(**kw):
    return bot("runner", "blue", (90, 30), 270, RUNNER, **kw)


def watcher(bot_id, player, at, **kw):
    return bot(bot_id, player, at, 0, WATCHER, overwatch=True, **kw)


def fires(events):
    return [(e["bot"], e["at"][0], e["at"][1], e["after_move"]) for e in events
            if e["type"] == "overwatch_fire"]


def test_two_watchers_fire_earliest_point_first_and_a_holder_holds():  # R23
    # w2 reaches the path at x = 60 + 24 = 84 (30 cm from (60, 12)); w1 at
    # x = 40 + sqrt(800) = 68.28; w3 could fire at once but holds.
    s = state(FIELD, watcher("w1", "red", (40, 40)), watcher("w2", "green", (60, 12)),
              watcher("w3", "yellow", (70, 50)), runner(), dice=[6, 1, 2])
    game = Game(s, mode=ScenarioMode())
    result = game.act(Move("runner", (Forward(40),), hold_fire=("w3",)))
    assert result.ok
    shots = fires(result.events)
    assert [f[0] for f in shots] == ["w2", "w1"]
    assert shots[0][1] == pytest.approx(84.0, abs=0.01) and shots[0][2] == 30
    assert shots[1][1] == pytest.approx(68.2843, abs=0.01)
    r = game.state.bots["runner"]
    assert (r.x, r.y, r.damage) == (50.0, 30.0, 1)
    assert [game.state.bots[w].overwatch for w in ("w1", "w2", "w3")] == [False, False, True]
    assert game.state.dice.used == 3


def test_watchers_at_the_same_point_fire_in_seat_order():  # R23 D18
    # mirror images about the path: both reach it at x = 60 + sqrt(756) = 87.50
    s = state(FIELD, watcher("south", "green", (60, 18)), watcher("north", "red", (60, 42)),
              runner(), dice=[3, 3])
    result = Game(s, mode=ScenarioMode()).act(Move("runner", (Forward(40),)))
    shots = fires(result.events)
    assert [f[0] for f in shots] == ["south", "north"]
    assert shots[0][1] == pytest.approx(87.4955, abs=0.01)
    assert shots[1][1] == pytest.approx(87.4955, abs=0.01)


def test_overwatch_fire_that_destroys_the_mover_ends_its_move_there():  # R23 R55
    s = state(FIELD, watcher("w2", "green", (60, 12)), watcher("w1", "red", (40, 40)),
              runner(damage=5), dice=[6, 1])
    game = Game(s, mode=ScenarioMode())
    result = game.act(Move("runner", (Forward(40),)))
    r = game.state.bots["runner"]
    assert r.destroyed and r.removed
    assert (round(r.x, 2), r.y) == (84.0, 30)
    assert [f[0] for f in fires(result.events)] == ["w2"]       # w1 never gets a shot
    assert game.state.bots["w1"].overwatch
    assert game.state.scores["green"] == 5                      # D22 the kill
    # the dead mover has no shooting phase
    assert game.act(Pass("runner")).refusal.rule == "R55"


def test_a_watcher_fires_right_after_a_move_that_never_walked_a_path():  # R24
    s = state(FIELD, watcher("w1", "red", (40, 30)), bot("runner", "blue", (65, 30), 270, RUNNER),
              dice=[5, 2])
    game = Game(s, mode=ScenarioMode())
    result = game.act(Move("runner", ()))
    assert fires(result.events) == [("w1", 65.0, 30.0, True)]
    kinds = [e["type"] for e in result.events]
    assert kinds.index("overwatch_fire") < kinds.index("phase")  # before its shooting phase
    assert game.state.bots["runner"].damage == 1
    assert not game.state.bots["w1"].overwatch                  # D20 fired


def test_out_of_reach_watcher_keeps_its_overwatch():  # R23 D12
    s = state(FIELD, watcher("w1", "red", (10, 50)), runner(), dice=[])
    game = Game(s, mode=ScenarioMode())
    result = game.act(Move("runner", (Forward(30),)))
    assert fires(result.events) == []
    assert game.state.bots["w1"].overwatch


def test_own_turn_ends_overwatch():  # D20
    s = state(FIELD, watcher("w1", "red", (10, 50)), runner(), dice=[])
    game = Game(s, mode=ScenarioMode())
    game.act(Move("w1", (Forward(1),)))
    assert not game.state.bots["w1"].overwatch


def test_overwatch_only_after_moving_at_most_half():  # R23
    s = state(FIELD, bot("a", "red", (20, 20), 0, WATCHER), bot("b", "blue", (80, 50)), dice=[])
    game = Game(s, mode=ScenarioMode())
    game.act(Move("a", (Forward(4),)))                           # move 8: half is 4
    assert game.act(SetOverwatch("a")).ok
    assert game.state.bots["a"].overwatch
    game.act(Move("a", (Forward(4.1),)))
    refusal = game.act(SetOverwatch("a")).refusal
    assert refusal.rule == "R23" and "4.10" in refusal.message


def test_preview_lists_the_shots_a_move_would_be_offered():  # R23 R24
    s = state(FIELD, watcher("w1", "red", (40, 40)), watcher("w2", "green", (60, 12)),
              watcher("w3", "yellow", (10, 55)), runner(), dice=[])
    game = Game(s, mode=ScenarioMode())
    before = game.state.bots["runner"].pos
    preview = game.preview(Move("runner", (Forward(40),)))
    assert preview.refusal is None
    assert [(o.watcher, round(o.at.x, 2), o.after_move) for o in preview.overwatch] == [
        ("w2", 84.0, False), ("w1", 68.28, False)]
    assert preview.overwatch[0].weapons == ("Gun",)
    assert game.state.bots["runner"].pos == before and game.state.dice.used == 0


def test_preview_of_a_shot_gives_its_premeasure_and_rolls_nothing():  # R18 R23
    s = state(FIELD, bot("a", "red", (20, 30), 90, WATCHER), bot("b", "blue", (70, 30)),
              dice=[])
    game = Game(s, mode=ScenarioMode())
    from bottisota.core.actions import Shoot, ShotOrder

    preview = game.preview(Shoot("a", (ShotOrder("Gun", "b"),)))
    assert preview.refusal is not None and preview.refusal.rule == "R18"   # 50 cm, reach 40
    assert [p.weapon for p in preview.premeasures] == ["Gun"]
    assert preview.premeasures[0].reach == 40
    assert game.state.dice.used == 0 and game.state.active is None
