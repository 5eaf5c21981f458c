"""Rockets and missiles that miss fly on (R26, R27, D31).

A rocket that misses flies on from the target's centre along its line, out to
its range measured from the shooter, rolling against every bot whose base its
path touches (D4), nearest first along the path, until one is hit; walls and
closed doors stop it; if it hits nothing it is removed (R26). In height it
flies on level at the target's middle, where the sight line ended (D15): a
wall, door or raised floor whose top reaches that height stops it, and it
meets only bots standing no higher than it whose figures reach up to it.

A missile does the same, but after each miss it may turn at most
rules.missile_turn toward the next nearest bot in its front
rules.missile_front_arc, measured from the point where it passed the bot it
missed, along its heading there (D31); equally near bots: the lesser turn,
else `state.dice.pick`; none in front: straight on. At the end of its range it
deactivates without exploding (R27). Flight length counts along the path.

An explosive rocket or missile explodes only where it hits a bot, centred on
that bot (D32); one that hits nothing is removed without exploding.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from bottisota.core.cards import Weapon
from bottisota.core.compass import bearing
from bottisota.core.i18n import N_
from bottisota.core.limits import within
from bottisota.engine.events import Event, apply_event, r2
from bottisota.engine.shooting.attack import attack
from bottisota.engine.shooting.blast import resolve_blast
from bottisota.engine.shooting.geometry import (
    ahead,
    at_flight_height,
    flight_barrier,
    flight_height,
    open_doors,
    segment_distances,
    signed_turn,
)
from bottisota.engine.state import Bot, GameState

FLYING_KINDS = ("rocket", "missile")
LENGTH_EPSILON = 1e-6       # cm: shorter legs are no flight at all
TIE_EPSILON = 1e-6          # cm / degrees: equal distances or turns


@dataclass(frozen=True, slots=True)
class MissileTurn:
    """Where a missile would turn after a miss at (x, y) heading `heading` (R27):
    the bots it may turn toward (several when a die decides), and for each the
    turn (degrees, + right, capped) and the new heading."""

    x: float
    y: float
    heading: float
    toward: tuple[str, ...]
    turns: tuple[float, ...]
    headings: tuple[float, ...]


def missile_turn_options(state: GameState, x: float, y: float, heading: float,
                         exclude: set[str]) -> MissileTurn:
    """The next nearest bots in the missile's front arc from (x, y) (R27, D31),
    tied ones by the lesser turn; no dice. Empty `toward`: straight on."""
    rules = state.rules
    half = rules.missile_front_arc / 2.0
    bots = [b for b in state.live_bots() if b.id not in exclude]
    best: list[tuple[float, float, str]] = []
    if bots:
        xs = np.array([b.x for b in bots]) - x
        ys = np.array([b.y for b in bots]) - y
        dist = np.hypot(xs, ys)
        offs = np.abs((np.degrees(np.arctan2(xs, ys)) - heading + 180.0) % 360.0 - 180.0)
        ok = (dist >= LENGTH_EPSILON) & (offs <= half + TIE_EPSILON)
        best = [(float(dist[i]), float(offs[i]), bots[i].id) for i in np.nonzero(ok)[0]]
    if not best:
        return MissileTurn(x, y, heading, (), (), ())
    nearest = min(d for d, _, _ in best)
    tied = [c for c in best if c[0] - nearest <= TIE_EPSILON]
    least = min(t for _, t, _ in tied)
    chosen = sorted(bid for _, t, bid in tied if t - least <= TIE_EPSILON)
    turns, headings = [], []
    for bid in chosen:
        b = state.bots[bid]
        turn = signed_turn(heading, bearing((x, y), b.pos))
        turn = max(-rules.missile_turn, min(rules.missile_turn, turn))
        turns.append(turn)
        headings.append((heading + turn) % 360.0)
    return MissileTurn(x, y, heading, tuple(chosen), tuple(turns), tuple(headings))


def fly_on(state: GameState, shooter: Bot, weapon: Weapon, target: Bot,
           by: str | None = None) -> list[Event]:
    """The flight of a rocket or missile that missed `target` (R26, R27, D31):
    rolls against the bots on its path until one is hit; applies and returns
    the events (`flight` legs, `missile_turn`, the attacks, `flight_end`)."""
    homing = weapon.kind == "missile"
    x, y = target.x, target.y
    heading = bearing(shooter.pos, target.pos)
    remaining = weapon.range - math.hypot(target.x - shooter.x, target.y - shooter.y)
    rolled = {shooter.id, target.id}
    passed: set[str] = set()
    opened = open_doors(state)
    z = flight_height(target)
    events: list[Event] = []
    tol = state.rules.contact_tolerance
    while remaining > LENGTH_EPSILON:
        chase: Bot | None = None
        if homing:
            options = missile_turn_options(state, x, y, heading, rolled | passed)
            if options.toward:
                pick = state.dice.pick(len(options.toward),
                                       N_("missile tie: {toward}").format(
                                           toward=', '.join(options.toward)))
                chase = state.bots[options.toward[pick]]
                turn = options.turns[pick]
                heading = options.headings[pick]
                events.append(apply_event(state, {
                    "type": "missile_turn", "bot": shooter.id, "weapon": weapon.name,
                    "toward": chase.id, "turn": round(turn, 4), "heading": round(heading, 4),
                    "x": r2(x), "y": r2(y)}))
        end = ahead(x, y, heading, remaining)
        barrier = flight_barrier(state, (x, y), end, z, opened)
        leg = barrier[2] if barrier else remaining
        end = ahead(x, y, heading, leg)
        candidates = at_flight_height([b for b in state.live_bots() if b.id not in rolled], z)
        touched: list[tuple[float, str]] = []
        if candidates:
            xs = np.array([b.x for b in candidates])
            ys = np.array([b.y for b in candidates])
            gap, along = segment_distances((x, y), end, xs, ys)
            reach = np.array([b.radius for b in candidates]) + tol
            touched = sorted((float(along[i]), candidates[i].id)
                             for i in np.nonzero(within(gap, reach))[0])
        stop = touched[0][0] if touched else leg
        if chase is not None and chase.id not in {bid for _, bid in touched}:
            _, along = segment_distances((x, y), end, np.array([chase.x]), np.array([chase.y]))
            if LENGTH_EPSILON < along[0] < min(stop, leg) - LENGTH_EPSILON:
                # it passes the bot it turned toward without touching it: turn again there
                nx, ny = ahead(x, y, heading, float(along[0]))
                events.append(_leg(state, shooter, weapon, (x, y), (nx, ny)))
                x, y, remaining = nx, ny, remaining - float(along[0])
                passed.add(chase.id)
                continue
        if not touched:
            events.append(_leg(state, shooter, weapon, (x, y), end))
            events.append(_end(state, shooter, weapon, end, barrier, homing))
            return events
        first, bid = touched[0]
        nx, ny = ahead(x, y, heading, first)
        events.append(_leg(state, shooter, weapon, (x, y), (nx, ny)))
        struck = state.bots[bid]
        hit, more = attack(state, shooter, weapon, struck, by=by,
                           cause=N_("{id}'s {name} (flying on)").format(
                                     id=shooter.id, name=weapon.name))
        events += more
        if hit:
            if weapon.explosive:
                events += explode_at(state, shooter, weapon, struck, by=by)
            return events
        rolled.add(bid)
        x, y, remaining = nx, ny, remaining - first
    events.append(_end(state, shooter, weapon, (x, y), None, homing))
    return events


def explode_at(state: GameState, shooter: Bot, weapon: Weapon, struck: Bot,
               by: str | None = None) -> list[Event]:
    """An explosive weapon that hit `struck` explodes there (R26, R27, R34, D32,
    D43): the blast marker's centre on that bot's centre; the bot itself already
    rolled (the attack that hit it), every other bot in the area rolls at the
    blast's modifiers."""
    return resolve_blast(state, shooter, weapon, struck.pos, struck.z, struck.id, by=by,
                         rolled=(struck.id,))


def _leg(state: GameState, shooter: Bot, weapon: Weapon, a: tuple[float, float],
         b: tuple[float, float]) -> Event:
    return apply_event(state, {"type": "flight", "bot": shooter.id, "weapon": weapon.name,
                               "from": [r2(a[0]), r2(a[1])], "to": [r2(b[0]), r2(b[1])]})


def _end(state: GameState, shooter: Bot, weapon: Weapon, at: tuple[float, float],
         barrier: tuple[str, tuple[float, float], float] | None, homing: bool) -> Event:
    """R26: a rocket that hits nothing is removed; R27: a missile deactivates."""
    if barrier is not None:
        how = N_("stopped by {v}").format(v=barrier[0])
    else:
        how = (N_("deactivated at the end of its range") if homing
               else N_("removed at the end of its range"))
    return apply_event(state, {"type": "flight_end", "bot": shooter.id, "weapon": weapon.name,
                               "x": r2(at[0]), "y": r2(at[1]), "how": how})
