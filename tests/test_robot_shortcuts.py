"""The robot's shortcuts change no choice (issue 12): far targets skipped before the
shot checks, the steering waypoint's sight lines asked at once, lifts far from the
bot skipped by their box, a shot checked once per state, the rules' per-arena tables
built by `prepare`. Each is compared with the plain way, and seeded games played
with the fast paths on and off are identical move by move."""
from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bottisota.core.errors import InputError
from bottisota.engine import game as game_module
from bottisota.engine.game import Game
from bottisota.engine.movement.moves import preview_move
from bottisota.formats.loading import bundled_rules, load_arena, load_catalogue
from bottisota.geometry.arena_index import FAST_PATHS
from bottisota.geometry.compiled import compile_arena
from bottisota.play.journal import state_digest
from bottisota.robot import aim
from bottisota.robot.match import decision_notes
from bottisota.robot.navigation import grid_for, prepare
from bottisota.robot.personalities import personality
from bottisota.robot.planner import lift_candidates
from bottisota.robot.player import Robot
from bottisota.robot.simulate import arena_path
from tests.builders import arena, bot, card, state, weapon

WEAPONS = [weapon("Nose", mount="nose", range=40), weapon("Turret", range=25),
           weapon("Spray", kind="spray", range=15), weapon("Claw", kind="melee", range=0),
           weapon("Empty", range=60, ammo=1)]
TABLE = arena({"type": "wall", "rect": [30, 10, 2, 20], "height": 3}, size=(120, 80))
spot = st.tuples(st.floats(2, 118), st.floats(2, 78), st.sampled_from([0.0, 90.0, 225.0]))


@settings(max_examples=80, deadline=None)
@given(spot, spot)
def test_a_target_too_far_is_one_no_weapon_could_hit(me, foe):
    # R18 (range, centre to centre), R25 (melee needs base contact)
    try:
        s = state(TABLE, bot("a", "red", me[:2], me[2], card(weapons=WEAPONS), ammo={"Empty": 0}),
                  bot("b", "blue", foe[:2], foe[2]))
    except InputError:
        assume(False)
        return
    a, b = s.bots["a"], s.bots["b"]
    d = a.distance_to(b)
    pa, pb = aim.pose_of(a), aim.pose_of(b)
    for w in a.stats.weapons:
        if aim.too_far(s, a, w.name, b, d):
            assert not aim.fires(s, a, w.name, b, pa, pb, {})
    assert aim.any_weapon_at(s, a, [b]) == bool(aim.weapons_at(s, a, b))


def test_too_far_is_exact_at_the_range_edge():
    # R18: a target exactly at 40 cm is in the nose gun's range, 40.01 cm is not
    s = state(TABLE, bot("a", "red", (10, 40), 90.0, card(weapons=WEAPONS)),
              bot("b", "blue", (50, 40), 270.0), bot("c", "blue", (50.01, 60), 270.0))
    a, b = s.bots["a"], s.bots["b"]
    assert not aim.too_far(s, a, "Nose", b, 40.0)
    assert aim.too_far(s, a, "Nose", b, 40.01)
    assert aim.fires(s, a, "Nose", b, aim.pose_of(a), aim.pose_of(b), {})


def _with_fast_paths(on: bool, fn):
    saved = FAST_PATHS.on
    FAST_PATHS.on = on
    try:
        return fn()
    finally:
        FAST_PATHS.on = saved


@pytest.mark.parametrize("name", ["warehouse", "factory"])
def test_waypoints_are_the_same_asked_at_once_or_line_by_line(name):
    rules = bundled_rules()
    cards, _ = load_catalogue()
    table = load_arena(arena_path(name), rules)
    w, h = table.size
    rng = random.Random(7)
    asked = 0
    for c in list(cards.values())[:5]:
        grid = grid_for(table, rules, c)
        for _ in range(60):
            a = (rng.uniform(0, w), rng.uniform(0, h))
            if rng.random() < 0.2:
                a = grid.centre(rng.randrange(len(grid.xs)))     # a start on a cell centre
            b = (rng.uniform(0, w), rng.uniform(0, h))
            reach = rng.choice((5.0, 12.0, 30.0))
            fast = _with_fast_paths(True, lambda g=grid, a=a, b=b, r=reach: g.waypoint(a, b, r))
            plain = _with_fast_paths(False, lambda g=grid, a=a, b=b, r=reach: g.waypoint(a, b, r))
            assert fast == plain
            asked += fast != b
    assert asked > 20                   # most of them go round something


def test_lift_rides_are_offered_the_same_near_and_far():
    # R48: a ground bot in the warehouse's lift car rides up, one beside it rides down
    rules = bundled_rules()
    table = load_arena(arena_path("warehouse"), rules)
    seen = set()
    for x in (60.0, 64.5, 65.0, 68.0, 71.0, 73.0, 90.0):
        try:
            s = state(table, bot("a", "red", (x, 64.0), 0.0))
        except InputError:           # not a spot a bot may stand on
            continue
        a = s.bots["a"]
        fast = _with_fast_paths(True, lambda s=s, a=a: lift_candidates(s, a))
        plain = _with_fast_paths(False, lambda s=s, a=a: lift_candidates(s, a))
        assert fast == plain
        seen.add(len(fast))
    assert seen == {0, 1}


def _play(name: str, names: list[str], seed: int, fast: bool, rounds: int = 6) -> list:
    rules = bundled_rules()
    table = load_arena(arena_path(name), rules)      # a fresh arena: no shared caches
    cards, mods = load_catalogue()
    players = [f"{n}-{i}" for i, n in enumerate(names)]

    def run() -> list:
        game = Game.new(table, rules, cards, mods, players, seed=seed, round_limit=rounds)
        robots = {p: Robot(p, personality(n)) for p, n in zip(players, names, strict=True)}
        for r in robots.values():
            r.peers = robots
        if fast:
            prepare(table, rules, cards.values())
        else:
            game.preview_move = preview_move     # no cache: every question walks
        for _ in range(600):
            if game.expected() == "over":
                break
            robot = robots[game.whose_turn()]
            assert game.act(robot.decide(game), decision_notes(robots, robot)).ok
        return [(str(e.action), e.events, [(r.purpose, r.value) for r in e.rolls])
                for e in game.history] + [state_digest(game.state)]
    return _with_fast_paths(fast, run)


@pytest.mark.parametrize("name, names, seed", [
    ("factory", ["scavenger", "aggressive", "sniper", "aggressive"], 5),
    ("warehouse", ["scavenger", "sniper"], 21),
])
def test_robot_games_are_the_same_with_the_shortcuts_and_without(name, names, seed):
    fast = _play(name, names, seed, fast=True)
    plain = _play(name, names, seed, fast=False)
    assert len(fast) > 20
    assert fast == plain


def test_prepare_builds_the_tables_the_first_decisions_would_build():
    rules = bundled_rules()
    table = load_arena(arena_path("factory"), rules)
    cards, _ = load_catalogue()
    prepare(table, rules, cards.values())
    built = set(compile_arena(table, rules)._cache)
    assert ("cliffs", "lines", float(rules.step_height)) in built
    assert {("movement", "parts"), ("movement", "floor tree"), ("shooting", "barriers")} <= built


def _seated(table, seats, seed: int, rounds: int) -> tuple[Game, dict]:
    """A game on the table with a robot in each seat (player, personality)."""
    cards, mods = load_catalogue()
    game = Game.new(table, bundled_rules(), cards, mods, [p for p, _ in seats], seed=seed,
                    round_limit=rounds)
    robots = {p: Robot(p, personality(n)) for p, n in seats}
    for r in robots.values():
        r.peers = robots
    return game, robots


def test_a_shot_found_legal_is_not_checked_again_when_made(monkeypatch):
    # R18-R22: the rules' shot check runs once for the robot's question and the act
    table = load_arena(arena_path("warehouse"), bundled_rules())
    calls = []
    real = game_module.shooting.check_shoot

    def counted(state, action, *rest):
        calls.append(action)
        return real(state, action, *rest)

    monkeypatch.setattr(game_module.shooting, "check_shoot", counted)
    game, robots = _seated(table, (("a", "aggressive"), ("b", "sniper")), seed=3, rounds=6)
    shots = 0
    for _ in range(400):
        if game.expected() == "over":
            break
        robot = robots[game.whose_turn()]
        action = robot.decide(game)
        before = len(calls)
        assert game.act(action, decision_notes(robots, robot)).ok
        if type(action).__name__ == "Shoot":
            shots += 1
            assert len(calls) == before      # the robot's own check answered for the act
    assert shots >= 3


def test_a_robot_move_walks_each_candidate_once_and_reads_the_state_once(monkeypatch):
    # D30: the planner's previews, `legal` and the commit share one walk per move, and
    # the state's key is taken once for all of a decision's previews (not once a move)
    table = load_arena(arena_path("factory"), bundled_rules())
    walks: list = []
    keys: list = []
    real_walk, real_key = game_module.movement.preview_move, game_module._walk_key

    def walk(state, move):
        walks.append(move)
        return real_walk(state, move)

    def key(state):
        keys.append(1)
        return real_key(state)

    monkeypatch.setattr(game_module.movement, "preview_move", walk)
    monkeypatch.setattr(game_module, "_walk_key", key)
    game, robots = _seated(table, (("a", "aggressive"), ("b", "sniper"), ("c", "aggressive")),
                           seed=5, rounds=10)
    planned = 0
    for _ in range(400):
        if game.expected() == "over":
            break
        robot = robots[game.whose_turn()]
        walks.clear()
        keys.clear()
        action = robot.decide(game)
        if type(action).__name__ == "Move" and robot.last_plan.previews >= 2:
            planned += 1
            assert len(walks) == len(set(walks)) >= 2          # each candidate walked once
            # the key once for every preview (and once more if `legal` is asked)
            assert len(keys) == (1 if robot.last_plan.result is not None else 2)
            asked = len(walks)
            assert game.act(action, decision_notes(robots, robot)).ok
            if robot.last_plan.result is not None:
                assert len(walks) == asked          # the commit took the planner's walk
        else:
            assert game.act(action, decision_notes(robots, robot)).ok
    assert planned >= 8


@pytest.mark.parametrize("name", ["warehouse", "factory"])
def test_placement_ranks_the_spots_as_the_exact_costs_do(name):
    # R6: the spots in the order of their exact costs (ties by x, then y; the cover
    # pre-selection as a stable sort), with enemies placed so that many spots are
    # equally far from them
    from bottisota.robot import placement

    rules = bundled_rules()
    table = load_arena(arena_path(name), rules)
    w, h = table.size
    rng = random.Random(11)
    tried = 0
    for _ in range(12):
        spots = [(w / 2, h / 2)] + [(rng.uniform(5, w - 5), rng.uniform(5, h - 5))
                                    for _ in range(rng.randrange(0, 4))]
        try:
            s = state(table, bot("me", "red", (3, 3)),
                      *[bot(f"e{i}", "blue", p) for i, p in enumerate(spots)])
        except InputError:
            continue
        me = s.bots["me"]
        xs, ys = placement._grid(s, me)
        for wish in ("near_enemy", "far_from_enemies", "near_goal", "near_service", "middle"):
            exact = placement.placement_costs(s, me, wish, xs, ys)
            assert list(placement._best_first(s, me, wish, xs, ys)) == \
                placement._ranked(exact, xs, ys).tolist()
            assert list(placement._best_first(s, me, wish, xs, ys, by_index=True)) == \
                np.argsort(exact, kind="stable").tolist()
            tried += 1
    assert tried >= 30


_COORD = st.floats(0, 400, allow_nan=False).map(lambda v: round(v, 2))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(_COORD, _COORD), min_size=1, max_size=70),
       st.lists(st.tuples(_COORD, _COORD), min_size=1, max_size=60))
def test_placement_nearest_distances_within_a_rounding_of_the_exact_ones(points, spots):
    # R6: the robot's quick nearest distance (a point at a time over the spots) is the
    # table's minimum to the last bit, and within a rounding of math.hypot's
    from bottisota.robot import placement

    xs = np.array([x for x, _ in spots])
    ys = np.array([y for _, y in spots])
    quick = placement._nearest_about(points, xs, ys)
    px, py = np.array(points).T
    table = np.sqrt(((px[None, :] - xs[:, None]) ** 2
                     + (py[None, :] - ys[:, None]) ** 2).min(axis=1))
    assert quick.tolist() == table.tolist()
    exact = placement._nearest(points, xs, ys)
    assert np.all(np.abs(quick - exact) <= 1e-12 * (1.0 + exact))
