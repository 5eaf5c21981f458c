"""The robot planner's fast forms change no choice (issue 12): steering and free-turner
candidates written out inline against the same moves made with `_Walk`, the ranking's
costs in one loop against `Scorer.cost`, the crossing test of many paths at once
against one line at a time, and the service shortcut against asking every choice.
Random positions on the bundled arenas with every locomotion."""
from __future__ import annotations

import math
import random

import numpy as np
import pytest
from shapely.geometry import LineString

from bottisota.core.actions import Service
from bottisota.core.errors import InputError
from bottisota.engine.game import Game
from bottisota.formats.loading import bundled_rules, load_arena, load_catalogue
from bottisota.formats.robot_tables import Intention
from bottisota.robot import candidates as cand
from bottisota.robot.candidates import _steer, _Walk, bearing_to, signed
from bottisota.robot.navigation import grid_for
from bottisota.robot.personalities import personality
from bottisota.robot.planner import Scorer, movement_budget
from bottisota.robot.player import SERVICE_ORDER, Robot, on_service_point
from bottisota.robot.simulate import arena_path
from tests.builders import bot, card, state, weapon

LOCOMOTIONS = ("walker", "hover", "wheeled", "tracked", "flier")
KINDS = ("close_in", "ram", "flank", "keep_range", "evade", "hold", "grab_goal", "retreat")


def _steer_walked(bot_, rules, aim, face, budget, first, hop, min_move):
    """`_steer` made of `_Walk`'s own steps (the form the inline one copies)."""
    w = _Walk(bot_, rules)
    step = rules.turn_step
    hop_used = False
    w.turn(first)
    ax, ay = aim
    for _ in range(64):
        left = budget - w.spent
        if left <= cand.EPS:
            break
        dist = math.hypot(ax - w.x, ay - w.y)
        off = signed(w.f, bearing_to(w.x, w.y, ax, ay)) if dist > cand.EPS else 0.0
        if dist > cand.EPS and abs(off) > step / 2 and (w.distance > cand.EPS or w.tracked):
            if w.tracked:
                if w.spent + w.turn_cm <= budget - cand.EPS:
                    w.turn(math.copysign(step, off))
                    continue
            elif w.can_turn():
                w.turn(math.copysign(step, off))
                continue
        hx, hy = cand.heading(w.f)
        along = (ax - w.x) * hx + (ay - w.y) * hy
        if abs(off) > step / 2:
            run = min(left, hop)
            hop_used = True
        else:
            run = min(left, max(along, 0.0))
            if along <= cand.EPS:
                break
        if run <= cand.EPS:
            run = min(left, hop)
            hop_used = True
        w.forward(run)
        if abs(off) <= step / 2 and run >= along - cand.EPS:
            break
    if w.distance < min_move - cand.EPS:
        w.forward(min(min_move - w.distance, budget - w.spent))
    if face is not None and w.can_turn() and not w.tracked:
        off = signed(w.f, bearing_to(w.x, w.y, *face))
        if abs(off) > step / 2:
            w.turn(math.copysign(step, off))
    elif face is not None and w.tracked:
        off = signed(w.f, bearing_to(w.x, w.y, *face))
        while abs(off) > step / 2 and w.spent + w.turn_cm <= budget + cand.EPS:
            w.turn(math.copysign(step, off))
            off = signed(w.f, bearing_to(w.x, w.y, *face))
    return w.done(), hop_used


def _free_walked(bot_, rules, aims, face, budget):
    """`free_turner_moves` made of `_Walk`'s own steps."""
    out = []
    targets = []
    for ax, ay in aims:
        d = math.hypot(ax - bot_.x, ay - bot_.y)
        if d > cand.EPS:
            targets.append((bearing_to(bot_.x, bot_.y, ax, ay), d))
    for k in range(cand.FAN):
        targets.append((bot_.facing + k * 360.0 / cand.FAN, None))
    full = [budget, budget * 0.5]
    for direction, far in targets:
        lengths = [min(far, budget)] + [v for v in full if v < far - cand.EPS] if far else full
        for length in lengths:
            w = _Walk(bot_, rules)
            w.turn(signed(w.f, direction))
            w.forward(length)
            if face is not None:
                w.turn(signed(w.f, bearing_to(w.x, w.y, *face)))
            out.append(w.done())
    w = _Walk(bot_, rules)
    if face is not None:
        w.turn(signed(w.f, bearing_to(w.x, w.y, *face)))
    out.append(w.done())
    return out


def _positions(name: str, count: int, seed: int):
    """Random two-bot positions on a bundled arena, every locomotion in turn; each
    yields the state, the bot, its foe and a random generator."""
    rules = bundled_rules()
    table = load_arena(arena_path(name), rules)
    w, h = table.size
    rng = random.Random(seed)
    made = 0
    while made < count:
        loco = LOCOMOTIONS[made % len(LOCOMOTIONS)]
        me = card(locomotion=loco, move=rng.choice((6, 8, 12)), turn=rng.choice((2, 3, 4)),
                  weapons=[weapon("Nose", mount="nose", range=rng.choice((15, 30)))])
        try:
            s = state(table, bot("a", "red", (rng.uniform(0, w), rng.uniform(0, h)),
                                 rng.uniform(0, 360), me),
                      bot("b", "blue", (rng.uniform(0, w), rng.uniform(0, h)),
                          rng.uniform(0, 360)), round=rng.choice((1, 3)))
        except InputError:               # not a spot a bot may stand on
            continue
        made += 1
        yield s, s.bots["a"], s.bots["b"], rng


@pytest.mark.parametrize("name", ["warehouse", "factory"])
def test_inline_candidates_are_the_walked_ones(name):
    # R8-R15: the same step lists, ends, costs and paths to the last bit
    steered = 0
    for s, me, foe, rng in _positions(name, 60, 11):
        w, h = s.arena.size
        aims = [(rng.uniform(0, w), rng.uniform(0, h)) for _ in range(rng.randint(1, 3))]
        aims.append((foe.x, foe.y))
        face = None if rng.random() < 0.25 else (foe.x, foe.y)
        budget = rng.choice((me.stats.move, me.stats.move / 2.0, 0.0, 3.3))
        if me.stats.locomotion in ("walker", "hover"):
            assert cand.free_turner_moves(me, s.rules, aims, face, budget) == \
                _free_walked(me, s.rules, aims, face, budget)
            continue
        for aim in aims:
            for first in (-s.rules.turn_step, 0.0, s.rules.turn_step):
                for hop in (max(me.stats.turn, 0.5), 1.7, 40.0):
                    for min_move in (0.0, me.stats.min_move, 5.0):
                        args = (me, s.rules, aim, face, budget, first, hop, min_move)
                        assert _steer(*args) == _steer_walked(*args)
                        steered += 1
        for first in (-s.rules.turn_step, 0.0, s.rules.turn_step):
            min_move = rng.choice((0.0, me.stats.min_move, 5.0))
            runs = [(1.0, False), (0.5, False), (0.5, True), (1.0, True)]
            walked = []
            for share, back in runs:
                w = _Walk(me, s.rules)
                w.turn(first)
                w.forward(budget * share / s.rules.backward_cost if back
                          else max(budget * share, min_move), back=back)
                walked.append(w.done())
            assert cand._straight_runs(me, s.rules, first, runs, budget, min_move) == walked
    assert steered > 1000


@pytest.mark.parametrize("name", ["warehouse", "factory"])
def test_ranking_costs_are_the_costs_one_by_one(name):
    # the ranking's costs in one loop are `Scorer.cost` of each end, bit for bit
    for k, (s, me, foe, rng) in enumerate(_positions(name, 40, 12)):
        kind = KINDS[k % len(KINDS)]
        intention = Intention(move=kind, range=rng.choice((None, 12.0)),
                              then=rng.choice(("fire", "overwatch")))
        scorer = Scorer(s, me, intention, None if rng.random() < 0.15 else foe)
        budget = movement_budget(s, me, intention)
        found = cand.candidate_moves(me, s.rules, scorer.aims(budget), scorer.face, budget)
        half = found[::2]                                   # half known, half asked
        crossing = scorer.prime([(c.x, c.y) for c in half], [c.path for c in half])
        assert crossing == scorer.grid.crosses([c.path for c in half])
        assert scorer.costs(found) == [scorer.cost(c.x, c.y, c.facing, c.spent)
                                       for c in found]


@pytest.mark.parametrize("name", ["warehouse", "factory"])
def test_paths_crossing_the_map_are_found_as_one_by_one(name):
    # a path meets a wall, pit or cliff on the robot's map the same asked at once or alone
    met = 0
    for s, me, foe, rng in _positions(name, 25, 13):
        scorer = Scorer(s, me, Intention(move="close_in"), foe)
        w, h = s.arena.size
        paths: list[tuple[tuple[float, float], ...]] = [(), ((me.x, me.y),),
                                                         ((me.x, me.y), (me.x, me.y))]
        for _ in range(12):
            corners = [(me.x, me.y)] + [(rng.uniform(0, w), rng.uniform(0, h))
                                        for _ in range(rng.randint(1, 4))]
            paths.append(tuple(corners))
        rng.shuffle(paths)
        one_by_one = [len(p) >= 2 and any(q != p[0] for q in p)
                      and scorer.grid.bad.intersects(LineString(p)) for p in paths]
        assert scorer.grid.crosses(paths) == one_by_one
        # with the lines from spots to a target, tested in the same call
        spots = [(rng.uniform(0, w), rng.uniform(0, h)) for _ in range(6)] + [(foe.x, foe.y)]
        crossing, lines, blocked = scorer.grid.crosses_and_lines(paths, spots, (foe.x, foe.y))
        assert crossing == one_by_one
        assert blocked.tolist() == [scorer.grid.bad.intersects(LineString([p, (foe.x, foe.y)]))
                                    for p in spots]
        assert scorer.grid.distances_many(spots, (foe.x, foe.y), lines, blocked) == \
            scorer.grid.distances_many(spots, (foe.x, foe.y))
        assert scorer.grid.walls_between(spots, (foe.x, foe.y), lines) == \
            scorer.grid.walls_between(spots, (foe.x, foe.y))
        met += sum(one_by_one)
    assert met > 20


def test_no_service_point_means_every_service_choice_is_refused():
    # R49: off a service point the rules refuse every choice, so the robot asks none
    rules = bundled_rules()
    cards, mods = load_catalogue()
    table = load_arena(arena_path("warehouse"), rules)
    game = Game.new(table, rules, cards, mods, ["red", "blue"], seed=4)
    robots = {p: Robot(p, personality("aggressive")) for p in ("red", "blue")}
    while game.expected() != "shoot" or game.state.round < 2:
        assert game.act(robots[game.whose_turn()].decide(game)).ok
    live = game.active_bot()
    assert live is not None
    rng = random.Random(14)
    points = [f.shape.centroid for f in table.by_type("service")]
    seen = set()
    for _ in range(60):
        if rng.random() < 0.4:                          # on or near a service point
            p = rng.choice(points)
            live.x, live.y = p.x + rng.uniform(-3, 3), p.y + rng.uniform(-3, 3)
        else:
            live.x, live.y = rng.uniform(0, table.size[0]), rng.uniform(0, table.size[1])
        on = on_service_point(game, live)
        seen.add(on)
        if not on:
            assert all(game.legal(Service(live.id, c)) is not None for c in SERVICE_ORDER)
    assert seen == {True, False}


def _waypoint_by_arrays(grid, a, b, reach):
    """`NavGrid.waypoint` read from the numpy arrays hop by hop (the form the list one
    copies)."""
    if grid.clear(a, b):
        return b
    f = grid.field(grid.cell(*b))
    c = grid.cell(*a)
    best, travelled, seen, path = b, 0.0, {c}, []
    while True:
        lo, hi = int(grid.hop_start[c]), int(grid.hop_start[c + 1])
        if lo == hi:
            break
        k = lo + int(np.argmin(f[grid.hop_to[lo:hi]] + grid.hop_cost[lo:hi]))
        to = int(grid.hop_to[k])
        if f[to] >= f[c] or to in seen:
            break
        travelled += float(grid.hop_cost[k])
        c = to
        seen.add(c)
        if travelled > reach * 1.5:
            break
        path.append((c, grid.centre(c)))
        if f[c] == 0.0:
            break
    for (c, p), ok in zip(path, grid.clear_from(a, [p for _, p in path]), strict=True):
        if not ok:
            break
        best = p
        if f[c] == 0.0:
            best = b if grid.clear(a, b) else p
            break
    return best


@pytest.mark.parametrize("name", ["warehouse", "factory"])
def test_waypoints_read_from_lists_are_the_ones_read_from_arrays(name):
    rules = bundled_rules()
    cards, _ = load_catalogue()
    table = load_arena(arena_path(name), rules)
    w, h = table.size
    rng = random.Random(15)
    round_about = 0
    for c in list(cards.values())[:6]:
        grid = grid_for(table, rules, c)
        for _ in range(50):
            a = (rng.uniform(0, w), rng.uniform(0, h))
            b = (rng.uniform(0, w), rng.uniform(0, h))
            reach = rng.choice((5.0, 12.0, 30.0))
            found = grid.waypoint(a, b, reach)
            assert found == _waypoint_by_arrays(grid, a, b, reach)
            round_about += found != b
    assert round_about > 20
