"""Turning an intention into a legal move: candidates, ranked, judged by the rules.

`plan_move` generates step lists for the bot's locomotion (robot.candidates),
ranks them by where they are predicted to end, then asks the movement rules
(`preview_move`, the oracle: no dice, no change) about them best first, and
re-scores each legal one on where it really ends and what it meets (falls,
pits, collisions, teleports). The search is bounded by counts (candidates,
previews: MAX_PREVIEWS, MAX_TRIES), never by the clock, so a seed gives the
same game on any machine under any load. Only interactive play may add a
wall-clock guard (`deadline`); a search it cuts is journaled by the robot.
"""
from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from shapely.geometry import LineString, Point

from bottisota.core.actions import DropMine, Lift, Move, Refusal, Step
from bottisota.core.arena import Feature
from bottisota.core.compass import heading as compass_heading
from bottisota.core.compass import vector
from bottisota.engine.movement.moves import preview_move
from bottisota.engine.movement.result import MoveResult
from bottisota.engine.state import Bot, GameState
from bottisota.formats.robot_tables import Intention
from bottisota.geometry.arena_index import FAST_PATHS
from bottisota.robot.aim import can_fire_from
from bottisota.robot.candidates import Candidate, bearing_to, candidate_moves, signed
from bottisota.robot.navigation import NavGrid, grid_for
from bottisota.robot.situation import seen_from

ARC_PENALTY = 8.0               # cm-equivalents: the focus outside the nose arc
NO_SHOT_PENALTY = 6.0           # cm-equivalents: no weapon could fire at the focus from there
HAZARD = {"destroyed": 1000.0, "pit": 1000.0, "fall": 150.0, "crash": 60.0,
          "collision": 40.0, "teleport": 25.0}
FLANK_DISTANCE = 8.0            # cm behind the enemy a flank aims for
EVADE_SIGHT = 30.0              # cm-equivalents per enemy that sees the end spot
KEEP_RANGE_SHARE = 0.8          # keep_range default: this share of the longest weapon
MAX_PREVIEWS = 4                # previews after which the best legal move so far is taken
BLOCKED = 60.0                  # cm-equivalents: the path meets a wall, pit or cliff on the map
MAX_TRIES = 24                  # previews after which, with nothing legal found, it stays
PREVIEW_AT_LEAST = 1            # previews made before settling on a good move
GOOD_ENOUGH = 1.0               # cm: a legal move this close to its prediction is taken
# the intentions that wait for the enemy to come (hold), keep their distance or hide: with
# no enemy in sight or reach they advance by the map toward the nearest one instead, to
# their keeping distance (issue 29: otherwise two cautious robots never meet)
ADVANCING = ("hold", "keep_range", "evade")


# judges a move in a state: `preview_move`, or a game's previewer sharing its walks
Previewer = Callable[[GameState, Move], MoveResult | Refusal | None]


@dataclass
class Plan:
    """The chosen move, its cost for the intention and how many previews it took."""

    move: Move
    cost: float
    previews: int
    timed_out: bool = False
    result: MoveResult | None = None


def enemies_of(state: GameState, bot: Bot) -> list[Bot]:
    return [b for b in state.live_bots() if b.player != bot.player]


def longest_range(bot: Bot) -> float:
    ranges = [w.range for w in bot.stats.weapons if not w.is_mine]
    return max(ranges) if ranges else 0.0


def nose_armed(bot: Bot) -> bool:
    """Most of its firepower points forward (R19): it should face its target."""
    guns = [w for w in bot.stats.weapons if not w.is_mine]
    return any(w.mount == "nose" for w in guns)


def service_spots(state: GameState) -> list[tuple[float, float]]:
    """The service points' centres (worked out once per compiled arena)."""
    arena = state.arena
    return list(state.index.cached(("robot", "service-spots"), lambda: tuple(
        (f.shape.centroid.x, f.shape.centroid.y) for f in arena.by_type("service"))))


def _lifts(state: GameState) -> tuple[tuple[Feature, tuple[float, float, float, float]], ...]:
    """The lifts and their bounding boxes (once per compiled arena)."""
    arena = state.arena
    return state.index.cached(("robot", "lifts"), lambda: tuple(
        (f, f.shape.bounds) for f in arena.by_type("lift")))


def goal_spots(state: GameState) -> list[tuple[float, float]]:
    return [(g.x, g.y) for g in state.goals if not g.taken]


class Scorer:
    """The cost of ending a move at a spot, for one intention (lower is better)."""

    def __init__(self, state: GameState, bot: Bot, intention: Intention,
                 focus: Bot | None, advance: bool = False) -> None:
        self.state, self.bot, self.intention, self.focus = state, bot, intention, focus
        self.grid = grid_for(state.arena, state.rules, bot.stats)
        self.enemies = enemies_of(state, bot)
        self.face: tuple[float, float] | None = (focus.x, focus.y) if focus else None
        self.target: tuple[float, float] | None = None
        self.kind = intention.move
        self.reach = longest_range(bot)
        keep = intention.range or self.reach * KEEP_RANGE_SHARE
        if self.reach > 0:                  # never keep further off than it can shoot
            keep = min(keep, self.reach * KEEP_RANGE_SHARE)
        self.keep = max(keep, bot.radius * 2 + 1.0)
        self.wants_shot = (intention.then == "fire" and focus is not None
                           and state.round > 1 and not bot.new and self.reach > 0)
        self.contact = (bot.radius + focus.radius + state.rules.contact_tolerance) if focus else 0.0
        self.nose_armed = nose_armed(bot)
        self.half_arc = state.rules.nose_arc / 2.0
        self._to_target: Callable[[tuple[float, float]], float] | None = None
        self._known: dict[tuple[float, float], float] = {}
        self._walled: dict[tuple[float, float], bool] = {}
        if advance and focus is not None and self.kind in ADVANCING:
            self.kind = "advance"           # nothing to shoot at or hide from: go find it
        self._choose_target()

    def _nearest_by_travel(self, spots: list[tuple[float, float]]) -> tuple[float, float] | None:
        if not spots:
            return None
        here, grid = self.bot.pos, self.grid
        best: tuple[float, tuple[float, float]] | None = None
        # nearest first by a bound no travel beats: the spots that cannot be nearer than
        # the best found need no distance field
        for bound, spot in sorted((grid.at_least(here, s), s) for s in spots):
            if best is not None and bound > best[0]:
                break
            found = (grid.distance(here, spot), spot)
            if best is None or found < best:
                best = found
        return None if best is None else best[1]

    def _choose_target(self) -> None:
        f, kind = self.focus, self.kind
        if kind == "grab_goal":
            self.target = self._nearest_by_travel(goal_spots(self.state))
            if self.target is None:
                kind = self.kind = "close_in"
        if kind == "retreat":
            self.target = self._nearest_by_travel(service_spots(self.state))
            if self.target is None:
                self.kind = "evade"
        if f is None:
            if self.kind in ("close_in", "ram", "flank", "keep_range"):
                self.kind = "grab_goal" if goal_spots(self.state) else "hold"
                if self.kind == "grab_goal":
                    self.target = self._nearest_by_travel(goal_spots(self.state))
            return
        if self.kind in ("close_in", "ram", "advance"):
            self.target = (f.x, f.y)
        elif self.kind == "flank":
            hx, hy = vector(f.facing)
            w, h = self.state.arena.size
            r = self.bot.radius
            self.target = (min(max(f.x - hx * FLANK_DISTANCE, r), w - r),
                           min(max(f.y - hy * FLANK_DISTANCE, r), h - r))

    def to_target(self, x: float, y: float) -> float:
        known = self._known.get((x, y))
        if known is not None:
            return known
        if self._to_target is None:
            assert self.target is not None      # asked only of intentions with a target
            self._to_target = self.grid.distances_to(self.target)
        return self._to_target((x, y))

    def prime(self, points: list[tuple[float, float]],
              paths: list[tuple[tuple[float, float], ...]]) -> list[bool]:
        """Work out the travel distances of many end spots at once, and whether a wall
        stands between each spot in reach and the focus (`cost` asks that only of
        spots in reach); answers whether each path crosses a wall, pit or cliff on the
        map (`NavGrid.crosses`). The lines from the spots to the target are tested
        against the map in the same call as the paths, and when the target is the
        focus itself (close in, ram) they are built once for the walls too."""
        travel = self.target is not None and self.kind in ("close_in", "ram", "advance", "flank",
                                                           "grab_goal", "retreat")
        f = self.focus
        near: list[int] = []
        if self.wants_shot and points:
            near = [k for k, (x, y) in enumerate(points) if self.in_reach(x, y)]
        shared = None
        if travel:
            assert self.target is not None
            crossing, lines, blocked = self.grid.crosses_and_lines(paths, points, self.target)
            self._known.update(zip(points, self.grid.distances_many(
                points, self.target, lines, blocked), strict=True))
            if f is not None and self.target == (f.x, f.y):
                shared = lines
        else:
            crossing = self.grid.crosses(paths)
        if near:
            assert f is not None                # wants_shot is set only with a focus
            spots = [points[k] for k in near]
            self._walled.update(zip(spots, self.grid.walls_between(
                spots, (f.x, f.y), None if shared is None else shared[near]), strict=True))
        return crossing

    def aims(self, reach: float) -> list[tuple[float, float]]:
        """Where to steer: the waypoint toward the target, and spots around the focus."""
        out: list[tuple[float, float]] = []
        here = self.bot.pos
        if self.target is not None:
            out.append(self.grid.waypoint(here, self.target, reach))
            if out[0] != self.target:
                out.append(self.target)
        f = self.focus
        if f is not None and self.kind in ("keep_range", "evade", "hold"):
            d = self.bot.distance_to(f)
            away = bearing_to(f.x, f.y, self.bot.x, self.bot.y) if d > 1e-6 else self.bot.facing
            for spread in (0.0, -40.0, 40.0):
                bx, by = vector(away + spread)
                want = self.keep if self.kind == "keep_range" else d + reach
                out.append((f.x + bx * want, f.y + by * want))
        w, h = self.state.arena.size
        r = self.bot.radius
        return [(min(max(x, r), w - r), min(max(y, r), h - r)) for x, y in out]

    def cost(self, x: float, y: float, facing: float, spent: float) -> float:
        """How far this end spot is from what the intention wants, in cm-equivalents."""
        kind, f = self.kind, self.focus
        c = 0.0
        if kind in ("close_in", "ram"):
            c = max(0.0, self.to_target(x, y) - self.contact)
        elif kind == "advance":
            c = max(0.0, self.to_target(x, y) - self.keep)
        elif kind in ("flank", "grab_goal", "retreat"):
            c = self.to_target(x, y)
        elif kind == "keep_range":
            c = abs(math.hypot(f.x - x, f.y - y) - self.keep) if f else 0.0
        elif kind == "evade":
            c = -min((math.hypot(e.x - x, e.y - y) for e in self.enemies), default=0.0) * 0.3
        elif kind == "hold":
            c = spent * 0.5
        if f is not None and kind not in ("retreat", "evade", "grab_goal"):
            if self.nose_armed:
                off = abs(signed(facing, bearing_to(x, y, f.x, f.y)))
                if off > self.half_arc:
                    c += ARC_PENALTY
            if self.wants_shot and (not self.in_reach(x, y) or self.walled(x, y)):
                c += NO_SHOT_PENALTY
        return c + spent * 0.01

    def costs(self, cands: list[Candidate]) -> list[float]:
        """`cost` of every candidate's predicted end, the same arithmetic in the same
        order written out in local variables (the ranking asks it of every candidate)."""
        kind, f = self.kind, self.focus
        known, to_target, walled = self._known, self.to_target, self.walled
        hypot, heading_of = math.hypot, compass_heading
        facing_matters = f is not None and kind not in ("retreat", "evade", "grab_goal")
        nose = facing_matters and self.nose_armed
        shot = facing_matters and self.wants_shot
        fx, fy = (f.x, f.y) if f is not None else (0.0, 0.0)
        contact, keep, reach, half_arc = self.contact, self.keep, self.reach, self.half_arc
        travel_less = kind in ("close_in", "ram", "advance")
        stop = keep if kind == "advance" else contact
        travel = kind in ("flank", "grab_goal", "retreat")
        enemies = self.enemies
        out: list[float] = []
        for cand in cands:
            x, y, spent = cand.x, cand.y, cand.spent
            c = 0.0
            if travel_less or travel:
                t = known.get((x, y))
                if t is None:
                    t = to_target(x, y)
                c = max(0.0, t - stop) if travel_less else t
            elif kind == "keep_range":
                c = abs(hypot(fx - x, fy - y) - keep) if f else 0.0
            elif kind == "evade":
                c = -min((hypot(e.x - x, e.y - y) for e in enemies), default=0.0) * 0.3
            elif kind == "hold":
                c = spent * 0.5
            if nose:
                d = (heading_of(fx - x, fy - y) - cand.facing) % 360.0
                if abs(d - 360.0 if d > 180.0 else d) > half_arc:
                    c += ARC_PENALTY
            if shot and (not hypot(fx - x, fy - y) <= reach or walled(x, y)):
                c += NO_SHOT_PENALTY
            out.append(c + spent * 0.01)
        return out

    def walled(self, x: float, y: float) -> bool:
        """A wall stands between the spot and the focus (R22; a cheap guess of sight)."""
        known = self._walled.get((x, y))
        if known is None:
            f = self.focus
            known = f is not None and not _wall_free(self.grid, (x, y), (f.x, f.y))
            self._walled[(x, y)] = known
        return known

    def in_reach(self, x: float, y: float) -> bool:
        """The focus is within the longest weapon's range from there (R18, D14)."""
        f = self.focus
        return f is not None and math.hypot(f.x - x, f.y - y) <= self.reach

    def hazards(self, result: MoveResult) -> float:
        """Penalty for what the move would meet on the way (R13, R36, R39, R53, D10)."""
        p = 0.0
        if getattr(result, "destroyed", False):
            p += HAZARD["destroyed"]
        ended = getattr(result, "ended", None) or ""
        for key, value in HAZARD.items():
            if key != "destroyed" and key in ended:
                if key == "collision" and self.kind == "ram":
                    p -= value
                else:
                    p += value
        if getattr(result, "teleport_candidates", None):
            p += HAZARD["teleport"]
        if self.wants_shot and self.kind not in ("retreat", "evade", "grab_goal") \
                and self.in_reach(result.x, result.y) and not self.walled(result.x, result.y):
            assert self.focus is not None       # wants_shot is set only with a focus
            if not can_fire_from(self.state, self.bot, self.focus, result.final):
                p += NO_SHOT_PENALTY        # in reach, but arc or sight forbid (R19, R22)
        for e in getattr(result, "events", ()):
            if e.get("type") == "damaged" and e.get("bot") == self.bot.id:
                p += HAZARD["fall"]
        return p

    def unseen_bonus(self, x: float, y: float) -> float:
        """Evade: cost for each enemy that would see the end spot (R22), one batched
        sight query for them all."""
        seen = seen_from(self.state, self.enemies, x, y,
                         self.bot.z + self.bot.stats.height / 2.0)
        return sum(seen) * EVADE_SIGHT


def _wall_free(grid: NavGrid, a: tuple[float, float], b: tuple[float, float]) -> bool:
    return not grid.walls.intersects(LineString([a, b])) if a != b else True


def movement_budget(state: GameState, bot: Bot, intention: Intention) -> float:
    """Movement it may spend: all of it, or half when it means to set overwatch (R23)."""
    budget = bot.stats.move - bot.moved
    if intention.then == "overwatch":
        budget = min(budget, bot.stats.move * state.rules.overwatch_move_fraction)
    return max(budget, 0.0)


def mine_steps(state: GameState, bot: Bot, intention: Intention) -> tuple[Step, ...]:
    """A DropMine step first, when the intention wants a mine and the bot has one (R21)."""
    if not intention.mine or state.round <= 1 or bot.new:
        return ()
    for w in bot.stats.weapons:
        if w.is_mine and (w.ammo is None or bot.ammo.get(w.name, w.ammo) > 0):
            return (DropMine(w.name),)
    return ()


def lift_candidates(state: GameState, bot: Bot) -> list[tuple[Lift]]:
    """A lift ride when the bot is in a car or at a landing beside one (R48)."""
    if not bot.stats.is_ground:
        return []
    out: list[tuple[Lift]] = []
    x, y = bot.x, bot.y
    near = bot.radius + state.rules.contact_tolerance
    for f, (minx, miny, maxx, maxy) in _lifts(state):
        # the box is never further than the car: a bot further than `near` from the
        # box is neither in the car nor beside it (1e-6 spares the rounding)
        if FAST_PATHS.on and math.hypot(max(minx - x, 0.0, x - maxx),
                                        max(miny - y, 0.0, y - maxy)) > near + 1e-6:
            continue
        if f.shape.contains(_pt(x, y)):
            out.append((Lift("up"),))
        elif f.shape.distance(_pt(x, y)) <= near:
            out.append((Lift("down"),))
    return out


def on_table(state: GameState, bot: Bot, cands: list[Candidate]) -> list[Candidate]:
    """Candidates whose base stays on the table all the way (R2: the rules refuse others)."""
    w, h = state.arena.size
    r = bot.radius
    lo, hi_x, hi_y = r - 1e-6, w - r + 1e-6, h - r + 1e-6
    out = []
    for c in cands:
        for x, y in c.path:
            if not (lo <= x <= hi_x and lo <= y <= hi_y):
                break
        else:
            out.append(c)
    return out


def _pt(x: float, y: float) -> Point:
    return Point(x, y)


def _ranked(scorer: Scorer, cands: list[Candidate],
            crossing: list[bool]) -> list[tuple[float, Candidate]]:
    """The candidates by predicted cost, the cost of ending there plus BLOCKED where the
    path crosses a wall, pit or cliff on the map (`crossing`, every path tested in one
    vectorised call by `Scorer.prime`: one call costs about what the test of a few
    paths does, and the search reaches past the first few often); ties in candidate
    order."""
    ranked = sorted((cost + (BLOCKED if cross else 0.0), i) for i, (cost, cross)
                    in enumerate(zip(scorer.costs(cands), crossing, strict=True)))
    return [(predicted, cands[i]) for predicted, i in ranked]


def plan_move(state: GameState, bot: Bot, intention: Intention, focus: Bot | None,
              deadline: float | None = None, hold_fire: tuple[str, ...] = (),
              preview: Previewer | None = None, advance: bool = False) -> Plan:
    """The best legal move for the intention, within the preview counts. `deadline`
    (perf_counter) is the interactive guard only: None (robot games, tests,
    simulations) never looks at the clock. `preview(state, move)` judges each move
    (default `preview_move`; `Game.preview_move` shares its cached walks). `advance`:
    no enemy is in sight or reach, so a hold, keep-range or evade goes toward the focus
    by the map (ADVANCING)."""
    preview = preview or preview_move
    scorer = Scorer(state, bot, intention, focus, advance)
    budget = movement_budget(state, bot, intention)
    prefix = mine_steps(state, bot, intention)
    cands = on_table(state, bot, candidate_moves(bot, state.rules, scorer.aims(budget),
                                                 scorer.face, budget))
    crossing = scorer.prime([(c.x, c.y) for c in cands], [c.path for c in cands])
    extra = [Candidate(tuple(("lift", s.direction) for s in steps), bot.x, bot.y, bot.facing,
                       0.0, 0.0) for steps in lift_candidates(state, bot)]
    ranked = _ranked(scorer, cands, crossing)
    queue = ranked
    if extra:
        queue = ranked[:2] + [(ranked[0][0] if ranked else 0.0, c) for c in extra] + ranked[2:]
    best: Plan | None = None
    previews = 0
    timed_out = False
    for predicted, cand in queue:
        if best is not None and (best.cost <= predicted or previews >= MAX_PREVIEWS):
            break                   # nothing later is predicted to do better
        if previews >= MAX_TRIES:
            break
        if deadline is not None and time.perf_counter() > deadline:
            timed_out = True
            break
        move = Move(bot.id, prefix + cand.steps, hold_fire)
        result = preview(state, move)
        previews += 1
        if isinstance(result, Refusal) or result is None:
            continue
        cost = scorer.cost(result.x, result.y, result.facing, result.spent) + scorer.hazards(result)
        if best is None or cost < best.cost:
            best = Plan(move, cost, previews, result=result)
        if previews >= PREVIEW_AT_LEAST and cost <= predicted + GOOD_ENOUGH:
            break
    if best is not None and best.result is not None and scorer.kind == "evade" \
            and not timed_out:
        best.cost += scorer.unseen_bonus(best.result.x, best.result.y)
    if best is None:
        best = Plan(Move(bot.id, (), hold_fire), math.inf, previews)
    best.previews, best.timed_out = previews, timed_out
    return best
