"""Candidate step lists for a robot's move, by locomotion (R8-R15), with where each
would end if nothing got in the way.

The predictions only rank candidates; the movement rules judge each one
(`preview_move`). Wheeled bots and fliers steer in 45° steps after every Turn cm
(R8, R12), tracked bots pay Turn cm per 45° (R9), walkers and hoverers turn
freely (R10, R15).
"""
from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache
from typing import NamedTuple

from bottisota.core.actions import Back, Forward, Lift, Loop, Step, Turn
from bottisota.core.compass import heading as compass_heading
from bottisota.core.compass import vector
from bottisota.core.house_rules import HouseRules
from bottisota.engine.state import Bot

FAN = 8                         # directions tried by free turners besides the aims
EPS = 1e-6
_STEPS: dict[str, Callable[[float], Step]] = {"turn": Turn, "forward": Forward, "back": Back}
# a movement step in its plain form: ("turn", 45.0), ("forward", 5.0), ("back", 2.0),
# ("lift", "up") or ("loop",)
PlainStep = tuple[str] | tuple[str, float] | tuple[str, str]


def step_of(part: PlainStep) -> Step:
    """A movement step from its plain form (PlainStep)."""
    if len(part) == 1:
        return Loop()
    value = part[1]
    if isinstance(value, str):
        return Lift(value)
    return _STEPS[part[0]](value)


class Candidate(NamedTuple):
    """A step list (in plain form: candidates are many, and only the few the rules are
    asked about become steps) and its predicted end (ignoring terrain and other bots).
    A named tuple: a move's search makes hundreds of them."""

    plan: tuple[PlainStep, ...]
    x: float
    y: float
    facing: float
    spent: float
    distance: float
    path: tuple[tuple[float, float], ...] = ()      # the centre's corners, start first

    @property
    def steps(self) -> tuple[Step, ...]:
        return tuple(step_of(p) for p in self.plan)


heading = lru_cache(maxsize=4096)(vector)      # compass.vector, remembered


def bearing_to(x: float, y: float, tx: float, ty: float) -> float:
    """The facing from (x, y) toward (tx, ty) (compass.heading)."""
    return compass_heading(tx - x, ty - y)


def signed(facing: float, direction: float) -> float:
    """Turn from facing to direction, in (-180, 180] (+ is right)."""
    d = (direction - facing) % 360.0
    return d - 360.0 if d > 180.0 else d


def _round(v: float) -> float:
    return round(v, 2)


class _Walk:
    """Follows steps like the rules would on an empty table, keeping the cost."""

    __slots__ = ("rules", "loco", "turn_cm", "free_turner", "tracked", "turn_step", "back_cost",
                 "x", "y", "f", "spent", "distance", "since", "free", "steps", "points")

    def __init__(self, bot: Bot, rules: HouseRules) -> None:
        s = bot.stats
        self.rules, self.loco, self.turn_cm = rules, s.locomotion, s.turn
        self.free_turner = self.loco in ("walker", "hover")
        self.tracked = self.loco == "tracked"
        self.turn_step, self.back_cost = rules.turn_step, rules.backward_cost
        self.x, self.y, self.f = bot.x, bot.y, bot.facing
        self.spent = self.distance = self.since = 0.0
        self.free = int(rules.free_turns_at_start)
        self.steps: list[PlainStep] = []
        self.points: list[tuple[float, float]] = [(self.x, self.y)]

    def can_turn(self, units: int = 1) -> bool:
        if self.free_turner or self.tracked:
            return True
        if units == 1:
            return (self.free > 0 and self.distance <= EPS) or self.since >= self.turn_cm - EPS
        return False

    def turn(self, degrees: float) -> None:
        if abs(degrees) < 0.05:
            return
        if not self.free_turner:
            units = int(round(abs(degrees) / self.turn_step))
            if units > 0 and self.free > 0 and self.distance <= EPS:
                used = min(self.free, units)        # free turns first (R8)
                self.free -= used
                units -= used
            if units > 0:
                if self.tracked:
                    for _ in range(units):          # one addition a unit, as the rules add
                        self.spent += self.turn_cm
                else:
                    self.since = 0.0
        self.f = (self.f + degrees) % 360.0
        self.steps.append(("turn", round(degrees, 2)))

    def forward(self, cm: float, back: bool = False) -> None:
        cm = round(cm, 2)
        if cm <= 0:
            return
        hx, hy = heading(self.f)
        if back:
            self.x += hx * cm * -1.0
            self.y += hy * cm * -1.0
            self.spent += cm * self.back_cost
            self.steps.append(("back", cm))
        else:
            self.x += hx * cm * 1.0
            self.y += hy * cm * 1.0
            self.spent += cm * 1.0
            self.steps.append(("forward", cm))
        self.distance += cm
        self.since += cm
        self.points.append((self.x, self.y))

    def done(self) -> Candidate:
        return Candidate(tuple(self.steps), self.x, self.y, self.f, self.spent, self.distance,
                         tuple(self.points))


def free_turner_moves(bot: Bot, rules: HouseRules, aims: list[tuple[float, float]],
                      face: tuple[float, float] | None, budget: float) -> list[Candidate]:
    """Walkers and hoverers: turn toward a point, walk, turn to face (R10, R15).

    `_Walk` written out for a free turner (its `turn` and `forward` inlined: every
    candidate is a turn, a run and a turn); the same arithmetic in the same order,
    so the same candidates."""
    out: list[Candidate] = []
    targets: list[tuple[float, float | None]] = []
    for ax, ay in aims:
        d = math.hypot(ax - bot.x, ay - bot.y)
        if d > EPS:
            targets.append((bearing_to(bot.x, bot.y, ax, ay), d))
    for k in range(FAN):
        targets.append((bot.facing + k * 360.0 / FAN, None))
    lengths_full = [budget, budget * 0.5]
    x0, y0, f0 = bot.x, bot.y, bot.facing
    start = (x0, y0)
    for direction, far in targets:
        lengths = ([min(far, budget)] + [v for v in lengths_full if v < far - EPS] if far
                   else lengths_full)
        first = signed(f0, direction)
        opening: tuple[PlainStep, ...]
        if abs(first) < 0.05:
            f1, opening = f0, ()
        else:
            f1, opening = (f0 + first) % 360.0, (("turn", round(first, 2)),)
        hx, hy = heading(f1)
        for length in lengths:
            x, y, f = x0, y0, f1
            spent = distance = 0.0
            steps = list(opening)
            points = [start]
            cm = round(length, 2)
            if cm > 0:
                x += hx * cm * 1.0
                y += hy * cm * 1.0
                spent += cm * 1.0
                steps.append(("forward", cm))
                distance += cm
                points.append((x, y))
            if face is not None:
                last = signed(f, bearing_to(x, y, *face))
                if abs(last) >= 0.05:
                    f = (f + last) % 360.0
                    steps.append(("turn", round(last, 2)))
            out.append(Candidate(tuple(steps), x, y, f, spent, distance, tuple(points)))
    w = _Walk(bot, rules)
    if face is not None:
        w.turn(signed(w.f, bearing_to(w.x, w.y, *face)))
    out.append(w.done())
    return out


def _steer(bot: Bot, rules: HouseRules, aim: tuple[float, float], face: tuple[float, float] | None,
           budget: float, first: float, hop: float, min_move: float) -> tuple[Candidate, bool]:
    """Drive toward `aim`: a first free turn, then runs of `hop` cm with a 45° turn
    toward the aim whenever the rhythm allows (R8, R9, R12). With it, whether `hop`
    mattered: when it never did, any other hop gives the same candidate.

    `_Walk` written out in local variables, its `turn` and `forward` inlined (the
    planner asks for thousands of these a game); the same arithmetic in the same
    order, so the same candidates."""
    s = bot.stats
    step = rules.turn_step
    half = step / 2
    turn_cm = s.turn
    tracked = s.locomotion == "tracked"
    x, y, f = bot.x, bot.y, bot.facing
    spent = distance = since = 0.0
    free = int(rules.free_turns_at_start)
    steps: list[PlainStep] = []
    points: list[tuple[float, float]] = [(x, y)]
    ax, ay = aim
    heading_of = compass_heading
    hypot = math.hypot
    copysign = math.copysign
    hop_used = False
    # the first turn (`_Walk.turn` for a wheeled or tracked bot, as below)
    if abs(first) >= 0.05:
        units = int(round(abs(first) / step))
        if units > 0 and free > 0 and distance <= EPS:
            used = min(free, units)
            free -= used
            units -= used
        if units > 0:
            if tracked:
                for _ in range(units):
                    spent += turn_cm
            else:
                since = 0.0
        f = (f + first) % 360.0
        steps.append(("turn", round(first, 2)))
    for _ in range(64):
        left = budget - spent
        if left <= EPS:
            break
        dist = hypot(ax - x, ay - y)
        if dist > EPS:
            d = (heading_of(ax - x, ay - y) - f) % 360.0
            off = d - 360.0 if d > 180.0 else d
        else:
            off = 0.0
        if dist > EPS and abs(off) > half and (distance > EPS or tracked):
            if (spent + turn_cm <= budget - EPS) if tracked else \
                    ((free > 0 and distance <= EPS) or since >= turn_cm - EPS):
                # `_Walk.turn(copysign(step, off))`: one unit
                degrees = copysign(step, off)
                if abs(degrees) >= 0.05:
                    units = int(round(abs(degrees) / step))
                    if units > 0 and free > 0 and distance <= EPS:
                        used = min(free, units)
                        free -= used
                        units -= used
                    if units > 0:
                        if tracked:
                            for _ in range(units):
                                spent += turn_cm
                        else:
                            since = 0.0
                    f = (f + degrees) % 360.0
                    steps.append(("turn", round(degrees, 2)))
                continue
        hx, hy = heading(f)
        along = (ax - x) * hx + (ay - y) * hy
        if abs(off) > half:
            run = min(left, hop)
            hop_used = True
        else:
            run = min(left, max(along, 0.0))
            if along <= EPS:
                break
        if run <= EPS:
            run = min(left, hop)
            hop_used = True
        cm = round(run, 2)
        if cm > 0:                      # `_Walk.forward`
            x += hx * cm * 1.0
            y += hy * cm * 1.0
            spent += cm * 1.0
            steps.append(("forward", cm))
            distance += cm
            since += cm
            points.append((x, y))
        if abs(off) <= half and run >= along - EPS:
            break
    if distance < min_move - EPS:       # `_Walk.forward` up to the minimum move
        cm = round(min(min_move - distance, budget - spent), 2)
        if cm > 0:
            hx, hy = heading(f)
            x += hx * cm * 1.0
            y += hy * cm * 1.0
            spent += cm * 1.0
            steps.append(("forward", cm))
            distance += cm
            since += cm
            points.append((x, y))
    if face is not None:
        fx, fy = face
        if not tracked:
            # `_Walk.can_turn()` for one unit, then one turn toward the face
            if (free > 0 and distance <= EPS) or since >= turn_cm - EPS:
                d = (heading_of(fx - x, fy - y) - f) % 360.0
                off = d - 360.0 if d > 180.0 else d
                if abs(off) > half:
                    degrees = copysign(step, off)
                    units = int(round(abs(degrees) / step))
                    if units > 0 and free > 0 and distance <= EPS:
                        used = min(free, units)
                        free -= used
                        units -= used
                    if units > 0:
                        since = 0.0
                    f = (f + degrees) % 360.0
                    steps.append(("turn", round(degrees, 2)))
        else:
            d = (heading_of(fx - x, fy - y) - f) % 360.0
            off = d - 360.0 if d > 180.0 else d
            while abs(off) > half and spent + turn_cm <= budget + EPS:
                degrees = copysign(step, off)
                units = int(round(abs(degrees) / step))
                if units > 0 and free > 0 and distance <= EPS:
                    used = min(free, units)
                    free -= used
                    units -= used
                for _ in range(units):
                    spent += turn_cm
                f = (f + degrees) % 360.0
                steps.append(("turn", round(degrees, 2)))
                d = (heading_of(fx - x, fy - y) - f) % 360.0
                off = d - 360.0 if d > 180.0 else d
    return Candidate(tuple(steps), x, y, f, spent, distance, tuple(points)), hop_used


def _straight_runs(bot: Bot, rules: HouseRules, first: float, runs: list[tuple[float, bool]],
                   budget: float, min_move: float) -> list[Candidate]:
    """A first turn, then one straight run for each (share of the budget, backward):
    forward `max(budget * share, min_move)` cm, or back `budget * share /
    backward_cost` cm (R11). `_Walk`'s `turn` and `forward` for a wheeled, tracked or
    flying bot written out, the turn made once for all the runs; the same arithmetic
    in the same order, so the same candidates."""
    s = bot.stats
    tracked = s.locomotion == "tracked"
    f, spent = bot.facing, 0.0
    opening: tuple[PlainStep, ...] = ()
    if abs(first) >= 0.05:
        units = int(round(abs(first) / rules.turn_step))
        free = int(rules.free_turns_at_start)
        if units > 0 and free > 0:          # nothing driven yet: the free turns first (R8)
            units -= min(free, units)
        if units > 0 and tracked:
            for _ in range(units):
                spent += s.turn
        f = (f + first) % 360.0
        opening = (("turn", round(first, 2)),)
    hx, hy = heading(f)
    back_cost = rules.backward_cost
    start = (bot.x, bot.y)
    out = []
    for share, back in runs:
        x, y, cost = bot.x, bot.y, spent
        steps: tuple[PlainStep, ...] = opening
        points: tuple[tuple[float, float], ...] = (start,)
        distance = 0.0
        cm = round(budget * share / back_cost if back else max(budget * share, min_move), 2)
        if cm > 0:
            if back:
                x += hx * cm * -1.0
                y += hy * cm * -1.0
                cost += cm * back_cost
                steps += (("back", cm),)
            else:
                x += hx * cm * 1.0
                y += hy * cm * 1.0
                cost += cm * 1.0
                steps += (("forward", cm),)
            distance += cm
            points = (start, (x, y))
        out.append(Candidate(steps, x, y, f, cost, distance, points))
    return out


def rhythm_moves(bot: Bot, rules: HouseRules, aims: list[tuple[float, float]],
                 face: tuple[float, float] | None, budget: float,
                 min_move: float) -> list[Candidate]:
    """Wheeled, tracked and fliers: steering runs toward each aim, straight runs,
    reversing (not fliers, R12) and a flier's loop (R14)."""
    s = bot.stats
    step = rules.turn_step
    turn_cm = max(s.turn, 0.5)
    out: list[Candidate] = []
    for aim in aims:
        for first in (-step, 0.0, step):
            found, hop_used = _steer(bot, rules, aim, face, budget, first, turn_cm, min_move)
            out.append(found)
            out.append(_steer(bot, rules, aim, face, budget, first, turn_cm * 2, min_move)[0]
                       if hop_used else found)
    runs = [(frac, False) for frac in (1.0, 0.5)]
    if s.locomotion != "flier":
        runs += [(frac, True) for frac in (0.5, 1.0)]
    for first in (-step, 0.0, step):
        out += _straight_runs(bot, rules, first, runs, budget, min_move)
    if s.locomotion == "flier":
        loop_cost = rules.loop_cost_turns * s.turn
        if loop_cost <= budget:
            hx, hy = heading(bot.facing)
            rest = max(min_move, 0.0)
            w = _Walk(bot, rules)
            w.steps.append(("loop",))
            ahead = heading(bot.facing)
            w.points += [(bot.x + ahead[0] * s.turn, bot.y + ahead[1] * s.turn), (bot.x, bot.y)]
            w.f = (w.f + 180.0) % 360.0
            w.spent += loop_cost
            w.distance += loop_cost
            if budget - loop_cost > EPS:
                w.forward(min(max(rest, (budget - loop_cost) * 0.5), budget - loop_cost))
            out.append(w.done())
    else:
        w = _Walk(bot, rules)
        if face is not None:
            off = signed(w.f, bearing_to(w.x, w.y, *face))
            if abs(off) > step / 2:
                w.turn(math.copysign(step, off))
        out.append(w.done())
        out.append(_Walk(bot, rules).done())
    return out


def candidate_moves(bot: Bot, rules: HouseRules, aims: list[tuple[float, float]],
                    face: tuple[float, float] | None, budget: float) -> list[Candidate]:
    """Every candidate for this bot this turn, duplicates removed."""
    s = bot.stats
    min_move = 0.0 if bot.docked else s.min_move
    if s.locomotion in ("walker", "hover"):
        found = free_turner_moves(bot, rules, aims, face, budget)
    else:
        found = rhythm_moves(bot, rules, aims, face, budget, min_move)
    seen: set[tuple[PlainStep, ...]] = set()
    out = []
    for c in found:
        if c.plan in seen or c.spent > budget + 1e-3:
            continue
        seen.add(c.plan)
        out.append(c)
    return out
