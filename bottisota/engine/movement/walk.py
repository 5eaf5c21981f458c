"""Walking a move step by step through the arena (R8-R15, R36-R48, R53, D9-D11,
D16, D28-D30, D34).

One `Walk` serves both the preview (no dice, nothing changed, predicted events)
and the commit (dice rolled, events applied as it goes). The commit first walks
a preview: the move is refused as a whole when any step is (D30). A committed
walk can only meet a refusal after the dice took it somewhere the preview could
not see (a teleporter with several free exits, a watcher's beam): the move is
then cut there (`move_cut`) instead.
"""
from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from typing import NoReturn

from shapely.geometry import Point
from shapely.ops import nearest_points

from bottisota.core.actions import (
    Back,
    DropMine,
    Forward,
    Lift,
    Loop,
    Move,
    Refusal,
    Step,
    Strafe,
    Turn,
)
from bottisota.core.arena import Feature
from bottisota.core.compass import heading as bearing
from bottisota.core.compass import off_angle as angle_between
from bottisota.core.compass import vector
from bottisota.core.i18n import N_
from bottisota.core.limits import beyond, reaches
from bottisota.engine.damage import destroy
from bottisota.engine.event_types import TeleportEvent
from bottisota.engine.events import r2
from bottisota.engine.mines import drop_mine, mine_strike, touching_mines
from bottisota.engine.movement.geometry import (
    EPS,
    contains_point,
    doors_reached,
    doors_touching,
    norm_facing,
    parts_of,
    point_at,
    runs_inside,
    table_run,
    touching_door,
    wall_collision,
)
from bottisota.engine.movement.physics import (
    Ctx,
    Interrupt,
    Pose,
    Stopper,
    collision,
    fall,
    higher_floor_reached,
    mine_touches,
    pit,
    stop_label,
    xy2,
)
from bottisota.engine.movement.result import MoveResult, PathPoint, Piece
from bottisota.engine.movement.steps import (
    BUDGET_RULE,
    TurnRhythm,
    check_step,
    strafe_kind,
    straight_multiplier,
)
from bottisota.engine.movement.terrain import (
    carry,
    free_teleporters,
    lift_car_touched,
    lift_car_under,
    lift_landing,
    loop_blocker,
    overlaps_bot,
    teleporter_centre,
)
from bottisota.engine.state import Bot, GameState, Mine
from bottisota.geometry.arena_index import EdgeCrossing


class _Refused(Exception):
    def __init__(self, refusal: Refusal):
        super().__init__(str(refusal))
        self.refusal = refusal


def _at(x: float, y: float) -> str:
    return f"{x:.1f}, {y:.1f}"


def _face_refuses(cm: float, first: tuple[float, int, str | None, Stopper] | None
                  ) -> Callable[[float], bool]:
    """Whether a cliff's face at distance s along a straight piece refuses it (R37,
    D29), given the first stop on the piece: `_plan_straight`'s test of its refusals."""
    run = max(0.0, min(first[0], cm)) if first is not None else cm
    stop = first[2] if first is not None else None
    if stop in (None, "teleport"):
        return lambda s: s < run - EPS or s <= run + EPS
    return lambda s: s < run - EPS


class Walk:
    """One move being walked, live or as a preview."""

    def __init__(self, state: GameState, bot: Bot, move: Move, live: bool,
                 interrupt: Interrupt | None = None) -> None:
        self.state = state
        self.rules = state.rules
        self.bot = bot
        self.move = move
        self.ctx = Ctx(state, live)
        self.interrupt = interrupt if live else None
        self.loco = bot.stats.locomotion
        self.moved_before = bot.moved
        self.allowed = max(0.0, bot.stats.move - bot.moved)
        self.pose = Pose.of(bot)
        self.spent = 0.0
        self.distance = 0.0
        self.rhythm = TurnRhythm.start(self.rules, bot)
        self.path: list[PathPoint] = [self._point()]
        self.pieces: list[Piece] = []
        self.ended: str | None = None
        self.crash_wall: Feature | None = None
        self.crash_step = -1
        self.dropped: list[int] = []
        self.candidates: list[str] = []
        self.parts = parts_of(state.index)
        self.on_teleporters = {f.index for f in self.parts.teleporters
                               if contains_point(f.shape, self.pose.x, self.pose.y)}
        tol = self.rules.contact_tolerance     # doors it already holds open: no event for them
        self.open_doors = doors_touching(self.parts, bot.x, bot.y, bot.radius, tol)
        self.mines_seen: set[str] = set()
        self.held_z = self.pose.z          # a flier's held height (R41): the highest floor so far
        self.held_after = self.pose.z

    # --- helpers --------------------------------------------------------------

    @property
    def live(self) -> bool:
        return self.ctx.live

    def _point(self) -> PathPoint:
        return PathPoint(self.pose.x, self.pose.y, self.pose.z, self.pose.facing,
                         self.distance, self.spent)

    def _refuse(
        self, rule: str, message: str, step: int, at: tuple[float, float] | None = None
    ) -> NoReturn:
        raise _Refused(Refusal(rule, message, at or self.pose.xy, step))

    def _door_touched_by_anyone(self, door: Feature, include_mover: bool) -> bool:
        if (door.id or f"#{door.index}") in self.state.held_open:   # the referee holds it open
            return True
        tol = self.rules.contact_tolerance
        for other in self.state.bots.values():
            if not other.on_table or (other.id == self.bot.id and not include_mover):
                continue
            if touching_door(door, other.x, other.y, other.radius, tol):
                return True
        return False

    def _charge(self, cost: float, step: int) -> None:
        if beyond(self.spent + cost, self.allowed):
            rule = BUDGET_RULE[self.loco]
            self._refuse(rule,
                    N_("{id} would spend {spent:.2f} cm of movement; only {allowed:.2f} cm is "
                       "left (move {move:g})").format(
                        id=self.bot.id, spent=self.spent + cost, allowed=self.allowed,
                        move=self.bot.stats.move), step)

    def _record(
        self, piece: Piece, cost: float, spent_placed: float = 0.0, teleported: bool = False
    ) -> None:
        self.spent += cost
        self.path.append(self._point())
        self.pieces.append(piece)
        self.ctx.place(self.bot, self.pose, cost - spent_placed, teleported=teleported)

    # --- the walk -------------------------------------------------------------

    def run(self) -> MoveResult | Refusal:
        """Walk every step; a preview answers the first refusal, a live walk cuts."""
        steps = self.move.steps
        if not self.live:                  # a commit walks only what its preview passed
            for i, step in enumerate(steps):
                refusal = check_step(self.state, self.bot, step, i)
                if refusal is not None:
                    return refusal
        try:
            for i, step in enumerate(steps):
                if self.ended is not None:
                    if self.ended == "teleport":
                        break
                    if not self._turn_away(i, step):
                        self.dropped.append(i)
                    continue
                self._step(i, step)
            self._finish()
        except _Refused as refused:
            if not self.live:
                return refused.refusal
            self.ctx.emit({"type": "move_cut", "bot": self.bot.id, "step": refused.refusal.step,
                           "reason": str(refused.refusal)})
            self.ended = "cut"
        return self._result()

    def _step(self, i: int, step: Step) -> None:
        f = self.pose.facing
        if isinstance(step, Forward):
            self._straight(
                i, "forward", f, step.cm, straight_multiplier(self.rules, self.loco, "forward")
            )
        elif isinstance(step, Back):
            self._straight(
                i, "back", f + 180.0, step.cm, straight_multiplier(self.rules, self.loco, "back")
            )
        elif isinstance(step, Strafe):
            kind = strafe_kind(step.bearing)
            self._straight(i, kind, f + step.bearing, step.distance,
                           straight_multiplier(self.rules, self.loco, kind, step.bearing))
        elif isinstance(step, Turn):
            self._turn(i, step.degrees)
        elif isinstance(step, Loop):
            self._loop(i)
        elif isinstance(step, Lift):
            self._lift(i, step.direction)
        elif isinstance(step, DropMine):
            self._drop_mine(i, step.weapon)

    # --- turns ----------------------------------------------------------------

    def _turn(self, i: int, degrees: float) -> None:
        cost, why = self.rhythm.turn(degrees)
        if why is not None:
            self._refuse(BUDGET_RULE[self.loco],
                    N_("{id} cannot turn {degrees:+g}° yet: {why}").format(
                        id=self.bot.id, degrees=degrees, why=why), i)
        self._charge(cost, i)
        new_facing = norm_facing(self.pose.facing + degrees)
        if self.interrupt is not None:       # watchers may fire at the turn (R23)
            before = self._point()
            if self._interrupted(before, dataclasses.replace(before, facing=new_facing), 0.0):
                return
        self.pose.facing = new_facing
        self._record(Piece("turn", i, 0.0, 1.0, cost, f"{degrees:+g}°"), cost)

    def _turn_away(self, i: int, step: Step) -> bool:
        """After a crash a flier may make one free turn away from the wall (R13)."""
        if self.ended != "crash" or self.loco != "flier" or i != self.crash_step + 1:
            return False
        if self.crash_wall is None:         # set with every crash (D10)
            return False
        away = self.rules.flier_crash_turn_away
        if not isinstance(step, Turn) or beyond(abs(step.degrees), away):
            return False
        if self.bot.destroyed and self.live:
            return False
        wall_point = nearest_points(self.crash_wall.shape, Point(self.pose.x, self.pose.y))[0]
        towards = bearing(wall_point.x - self.pose.x, wall_point.y - self.pose.y)
        new_facing = norm_facing(self.pose.facing + step.degrees)
        if angle_between(new_facing, towards) <= angle_between(self.pose.facing, towards) + EPS:
            return False
        self.pose.facing = new_facing
        self.ctx.emit({"type": "crash_turn", "bot": self.bot.id, "degrees": step.degrees})
        self._record(Piece("turn", i, 0.0, 1.0, 0.0,
                N_("{degrees:+g}° away from the wall (R13)").format(degrees=step.degrees)), 0.0)
        return True

    # --- straight pieces --------------------------------------------------------

    def _straight(self, i: int, kind: str, heading: float, cm: float, multiplier: float) -> None:
        left = cm
        while True:
            run, stop, what, climb = self._plan_straight(i, heading, left)
            stairs = self._stairs_length(heading, run) if self.loco == "walker" else 0.0
            cost = (
                (run - stairs) * multiplier
                + stairs * multiplier * self.rules.walker_stairs_cost
                + climb
            )
            self._charge(cost, i)
            done = self._walk_piece(i, kind, heading, run, cost, stop, what, stairs, climb)
            self.held_z = max(self.held_after, self.pose.z)
            if done:
                return
            left -= run
            if stop != "teleport" or left <= EPS:      # a teleporter with no free exit
                return

    def _plan_straight(self, i: int, heading: float, cm: float
                       ) -> tuple[float, str | None, Stopper, float]:
        """Where a straight piece stops and why; raises a refusal when it may not be made."""
        state, bot, pose = self.state, self.bot, self.pose
        index = state.index
        r = bot.radius
        ground = bot.stats.is_ground
        a = pose.xy
        d = vector(heading)
        b = point_at(a, d, cm)
        stops: list[tuple[float, int, str | None, Stopper]] = []
        refusals: list[tuple[float, str, str]] = []
        climbs: list[tuple[float, float, float]] = []
        if cm > EPS:
            tol = state.rules.contact_tolerance
            contact = wall_collision(index, a, b, r, tol)
            if contact is not None:
                stops.append((contact.distance, 0, "wall", contact.feature))
            if ground:
                for s, other in self.ctx.bots_in_way(bot, a, d, cm, pose.z):
                    stops.append((s, 1, "bot", other))
                entry = index.first_entry(a, b, ["pit"])
                if entry is not None:
                    stops.append((entry[0], 2, "pit", entry[2]))
            for tp in self.parts.teleporters:
                for s0, _ in runs_inside(a, b, tp.shape):
                    if s0 > EPS or tp.index not in self.on_teleporters:
                        stops.append((s0, 3, "teleport", tp))
                    break
            # Every crossing is a real edge: where stairs, a ramp or an escalator join two
            # floors the floor is continuous and no crossing is reported (D16). A crossing
            # beside a slope is its side, and a lift joins floors only when ridden (R48).
            for crossing in index.edge_crossings(a, b, step_height=state.rules.step_height):
                if crossing.z_after > crossing.z_before:
                    if ground:
                        label = crossing.feature.label if crossing.feature else N_("a cliff")
                        refusals.append((crossing.distance, "R37",
                                         N_("only flying bots go up a cliff; D29 refuses the "
                                            "step ({label} at {v}, {z_after:g} cm up)").format(
                                             label=label, v=_at(*crossing.point),
                                             z_after=crossing.z_after - crossing.z_before)))
                    else:
                        climbs.append((crossing.distance, crossing.z_before, crossing.z_after))
                elif ground:
                    stops.append((crossing.distance, 4, "fall", crossing))
            if self.loco in ("wheeled", "tracked"):
                for st in self.parts.stairs:
                    if st.type != "stairs":
                        continue
                    for s0, s1 in runs_inside(a, b, st.shape):
                        z0 = index.floor_z(*point_at(a, d, s0))
                        z1 = index.floor_z(*point_at(a, d, s1))
                        if z1 > z0 + EPS:
                            refusals.append((s0, "R42",
                                    N_("{loco} bots cannot climb stairs ({label} at {v})").format(
                                        loco=self.loco, label=st.label,
                                        v=_at(*point_at(a, d, s0)))))
            if ground:                      # a cliff's face stops the base, not only its centre
                first = min(stops, key=lambda item: (item[0], item[1])) if stops else None
                face = higher_floor_reached(state, bot, a, d, cm, pose.z,
                                            tuple(stop[0] for stop in stops),
                                            _face_refuses(cm, first))
                if face is not None:
                    refusals.append((face[0], "R37", N_(
                        "only flying bots go up a cliff; D29 refuses the step ({bot}'s base "
                        "would go under {floor} at {v})").format(
                            bot=bot.id, floor=face[1], v=_at(*point_at(a, d, face[0])))))
        stops.sort(key=lambda item: (item[0], item[1]))
        what: Stopper
        run, _, stop, what = stops[0] if stops else (cm, 9, None, None)
        run = max(0.0, min(run, cm))
        for s, rule, message in sorted(refusals):
            if s < run - EPS or (s <= run + EPS and stop in (None, "teleport")):
                self._refuse(rule, message, i, point_at(a, d, s))
        if table_run(a, d, run, r, state.arena.size) < run - 1e-6:
            self._refuse("R2",
                    N_("{id}'s base would leave the table").format(
                        id=bot.id), i, point_at(a, d, run))
        if stop in ("wall", "bot"):
            hit = stop_label(what)
            where = _at(*point_at(a, d, run))
            if state.round <= 1:
                self._refuse(
                    "R7",
                    N_("nobody may ram in the first round: {id} would hit {hit} at {where}").format(
                        id=bot.id, hit=hit, where=where
                    ),
                    i,
                    point_at(a, d, run),
                )
            if stop == "bot" and bot.new:
                self._refuse("R56",
                        N_("a new bot may not push other bots on its first move: {id} would "
                           "hit {hit} at {where}").format(
                            id=bot.id, hit=hit, where=where), i, point_at(a, d, run))
        climb, self.held_after = self._net_climb(climbs, run)
        return run, stop, what, climb

    def _net_climb(
        self, climbs: list[tuple[float, float, float]], run: float
    ) -> tuple[float, float]:
        """What a flier's climbs up to `run` cost (R37) and the height it holds after
        them: over lower floor it keeps the highest floor it has been on in this
        move, so climbing back up to that height is free; only the climb above it
        is paid (R41, docs/decisions.md)."""
        held = self.held_z
        cost = 0.0
        for s, z_before, z_after in sorted(climbs):
            if s > run + EPS:
                break
            cost += max(0.0, z_after - max(z_before, held))
            held = max(held, z_after)
        return cost, held

    def _stairs_length(self, heading: float, run: float) -> float:
        """Length of the piece with the centre on stairs or an escalator (R42, R46)."""
        if run <= EPS:
            return 0.0
        b = point_at(self.pose.xy, vector(heading), run)
        total = sum(
            s1 - s0 for st in self.parts.stairs for s0, s1 in runs_inside(self.pose.xy, b, st.shape)
        )
        return min(run, total)

    def _walk_piece(self, i: int, kind: str, heading: float, run: float, cost: float,
                    stop: str | None, what: Stopper, stairs: float, climb: float) -> bool:
        """Move along a planned piece and deal with what stops it. True when the
        step is over (ended or teleported)."""
        a = self.pose.xy
        d = vector(heading)
        end = point_at(a, d, run)
        z_end = what.z_after if isinstance(what, EdgeCrossing) else self.state.index.floor_z(*end)
        start = self._point()
        target = PathPoint(
            end[0], end[1], z_end, self.pose.facing, self.distance + run, self.spent + cost
        )
        placed = self._pauses(start, target, run, cost)
        if placed < 0:
            return True
        for s, door in doors_reached(self.parts, a, end, self.bot.radius, skip=self.open_doors):
            self.open_doors.add(door.index)
            if not self._door_touched_by_anyone(door, include_mover=False):
                self.ctx.emit({"type": "door_opened", "bot": self.bot.id, "door": door.label,
                               "at": xy2(*point_at(a, d, s))})
        self.pose.x, self.pose.y, self.pose.z = end[0], end[1], z_end
        self.distance += run
        self.rhythm.moved(run, cost)
        note = ", ".join(n for n in (
                N_("{stairs:.2f} cm on stairs").format(stairs=stairs) if stairs > EPS else "",
                                     N_("climbs {climb:g} cm").format(
                                         climb=climb) if climb > EPS else "") if n)
        mult = (cost - climb) / run if run > EPS else 1.0
        self._record(Piece(kind, i, run, mult, cost, note), cost, placed)
        self.on_teleporters = {f.index for f in self.parts.teleporters
                               if contains_point(f.shape, self.pose.x, self.pose.y)}
        if self._mines():
            return True
        if stop == "wall" and isinstance(what, Feature):
            flying = not self.bot.stats.is_ground
            collision(self.ctx, self.bot, self.pose, None, what.label, crash=flying)
            self.ended = "crash" if flying else "collision"
            self.crash_wall, self.crash_step = what, i
            return True
        if isinstance(what, Bot):
            collision(self.ctx, self.bot, self.pose, what, None, other_by=self.bot.id)
            self.ended = "collision"
            return True
        if stop == "pit" and isinstance(what, Feature):
            pit(self.ctx, self.bot, self.pose, what.label, None)
            self.ended = "pit"
            return True
        if isinstance(what, EdgeCrossing):
            fall(self.ctx, self.bot, self.pose, what.drop, None, heading=heading)
            if (self.pose.x, self.pose.y) != (self.path[-1].x, self.path[-1].y):
                self.path.append(self._point())          # came to rest beside the bot below
            self.ended = "fall"
            return True
        if stop == "teleport" and isinstance(what, Feature):
            return self._teleport(i, what)
        return False

    def _mine_touches(
        self, start: PathPoint, target: PathPoint, run: float
    ) -> list[tuple[float, Mine]]:
        """Active mines the base first touches along the piece (R31, D33)."""
        if run <= EPS:
            return []
        d = ((target.x - start.x) / run, (target.y - start.y) / run)
        return mine_touches(self.state, self.bot, (start.x, start.y), d, run, start.z)

    def _pauses(self, start: PathPoint, target: PathPoint, run: float, cost: float) -> float:
        """Stop on the piece where a watcher fires (R23) or a mine is touched (R31).
        Answers the movement already placed, or -1 when the move ended there (mover
        destroyed or thrown off its path). A preview only reports the mines."""
        mines = self._mine_touches(start, target, run)
        if not self.live:
            for _, mine in mines:
                if mine.id not in self.mines_seen:
                    self.mines_seen.add(mine.id)
                    self.ctx.emit({"type": "mine_touch", "bot": self.bot.id, "mine": mine.id})
            return 0.0
        placed = 0.0
        a = start
        done_before = 0.0
        for _ in range(len(self.state.bots) + len(mines) + 1):
            t = None
            if self.interrupt is not None:
                t = self.interrupt.earliest(self.state, self.bot, a, target)
            at_watch = (
                None if t is None else done_before + (run - done_before) * max(0.0, min(1.0, t))
            )
            at_mine = mines[0][0] if mines else None
            if at_watch is None and at_mine is None:
                break
            use_mine = at_watch is None or (at_mine is not None and at_mine < at_watch)
            done = at_mine if use_mine else at_watch
            assert done is not None
            frac = done / run if run > EPS else 0.0
            x = start.x + (target.x - start.x) * frac
            y = start.y + (target.y - start.y) * frac
            spent_here = cost * frac
            z = self.state.index.floor_z(x, y)
            at = PathPoint(x, y, z, target.facing, start.distance + done, start.spent + spent_here)
            self.pose.x, self.pose.y, self.pose.z = x, y, z
            self.ctx.place(self.bot, self.pose, spent_here - placed)
            placed = spent_here
            if use_mine:
                mine = mines.pop(0)[1]
                if mine in self.state.mines:

                    self.ctx.events.extend(mine_strike(self.state, mine, self.bot))
            else:
                assert self.interrupt is not None      # at_watch came from it
                self.ctx.events.extend(self.interrupt.fire(self.state, self.bot, at))
            if self.bot.destroyed:
                self._stop_at(at, "destroyed")
                return -1.0
            if math.hypot(self.bot.x - x, self.bot.y - y) > 1e-3:
                self.pose = Pose.of(self.bot)
                self._stop_at(at, "thrown")
                return -1.0
            a, done_before = at, done
        self.pose = Pose(start.x, start.y, start.z, start.facing)
        return placed

    def _stop_at(self, at: PathPoint, why: str) -> None:
        self.spent = at.spent
        self.distance = at.distance
        self.path.append(dataclasses.replace(at, x=self.pose.x, y=self.pose.y, z=self.pose.z))
        self.ended = why

    def _interrupted(self, before: PathPoint, after: PathPoint, cost: float) -> bool:
        """Watchers may fire at a turn (a piece of zero length). True when the move ended."""
        if self.interrupt is None:
            return False
        t = self.interrupt.earliest(self.state, self.bot, before, after)
        if t is None:
            return False
        self.ctx.place(self.bot, self.pose)          # where it is fired on (nothing spent)
        self.ctx.events.extend(self.interrupt.fire(self.state, self.bot, before))
        if self.bot.destroyed:
            self._stop_at(before, "destroyed")
            return True
        if math.hypot(self.bot.x - before.x, self.bot.y - before.y) > 1e-3:
            self.pose = Pose.of(self.bot)
            self._stop_at(before, "thrown")
            return True
        return False

    # --- features that move the bot --------------------------------------------

    def _teleport(self, i: int, source: Feature) -> bool:
        """The centre entered a teleporter (R53, D28)."""
        candidates = free_teleporters(self.state, self.bot, source)
        labels = [c.label for c in candidates]
        event: TeleportEvent = {"type": "teleport", "bot": self.bot.id, "from": source.label,
                        "candidates": labels}
        if not candidates:
            event["to"] = None
            self.ctx.emit(event)
            self.on_teleporters.add(source.index)
            return False
        if len(candidates) > 1 and not self.live:
            self.ctx.emit(event)
            self.candidates = labels
            self.ended = "teleport"
            return True
        k = self.state.dice.pick(len(candidates),
                N_("teleporter: where {id} arrives (R53)").format(id=self.bot.id)) \
            if len(candidates) > 1 else 0
        dest = candidates[k]
        self.pose.x, self.pose.y = teleporter_centre(dest)
        self.pose.z = self.state.index.floor_z(self.pose.x, self.pose.y)
        event["to"] = dest.label
        event["at"] = xy2(self.pose.x, self.pose.y)
        self.ctx.emit(event)
        self._record(Piece("teleport", i, 0.0, 0.0, 0.0, f"{source.label} -> {dest.label}"), 0.0,
                     teleported=True)
        self.on_teleporters = {dest.index}
        self._mines()
        return True

    def _loop(self, i: int) -> None:
        """A flier's loop (R14): free space ahead, 6 x Turn, back at the start turned 180°."""
        turn = self.bot.stats.turn
        space = self.rules.loop_space_turns * turn
        a = self.pose.xy
        d = vector(self.pose.facing)
        index = self.state.index
        blocker = loop_blocker(self.state, self.bot, self.pose, space)
        if blocker is not None:
            self._refuse("R14",
                    N_("a loop needs {space:g} cm of free space ahead; {blocker}").format(
                        space=space, blocker=blocker), i)
        cost = self.rules.loop_cost_turns * turn
        self._charge(cost, i)
        out = point_at(a, d, turn)
        facing0 = self.pose.facing
        facing1 = norm_facing(facing0 + 180.0)
        z0 = self.pose.z
        legs = [PathPoint(out[0], out[1], index.floor_z(*out), facing0, self.distance + turn,
                          self.spent + cost / 2),
                PathPoint(out[0], out[1], index.floor_z(*out), facing1, self.distance + turn,
                          self.spent + cost / 2),
                PathPoint(a[0], a[1], z0, facing1, self.distance + 2 * turn, self.spent + cost)]
        previous = self._point()
        for leg in legs:
            if self._loop_interrupt(previous, leg):
                return
            previous = leg
        self.ctx.emit({"type": "loop", "bot": self.bot.id, "at": xy2(*a), "turn_at": xy2(*out)})
        self.pose.facing = facing1
        self.distance += 2 * turn
        self.rhythm.moved(2 * turn)
        self.path.extend(legs[:2])
        self._record(Piece("loop", i, 2 * turn, 0.0, cost,
                N_("loop: {cost:g} cm").format(cost=cost)), cost)

    def _loop_interrupt(self, a: PathPoint, b: PathPoint) -> bool:
        if self.interrupt is None:
            return False
        t = self.interrupt.earliest(self.state, self.bot, a, b)
        if t is None:
            return False
        t = max(0.0, min(1.0, t))
        at = PathPoint(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, b.z, b.facing,
                       a.distance + (b.distance - a.distance) * t,
                       a.spent + (b.spent - a.spent) * t)
        self.pose = Pose(at.x, at.y, at.z, at.facing)
        self.ctx.place(self.bot, self.pose, at.spent - self.spent)
        self.spent = at.spent
        self.ctx.events.extend(self.interrupt.fire(self.state, self.bot, at))
        if self.bot.destroyed:
            self._stop_at(at, "destroyed")
            return True
        if math.hypot(self.bot.x - at.x, self.bot.y - at.y) > 1e-3:
            self.pose = Pose.of(self.bot)
            self._stop_at(at, "thrown")
            return True
        self.ctx.emit({"type": "loop_cut", "bot": self.bot.id, "note": N_("fired on mid-loop")})
        self._stop_at(at, N_("fired on mid-loop"))
        return True

    def _lift(self, i: int, direction: str) -> None:
        """Ride a lift up or down (R48)."""
        state, bot = self.state, self.bot
        cost = self.rules.lift_cost_fraction * bot.stats.move
        index = state.index
        if direction == "up":
            car = lift_car_under(state, self.pose)
            if car is None:
                self._refuse("R48", N_("{id} is not in a lift car").format(id=bot.id), i)
            landing = lift_landing(state, bot, self.pose, car)
            top = car.top if car.top is not None else 0.0
            if landing is None:
                self._refuse("R48",
                        N_("{label} has no landing at height {top:g} within {base:g} cm ahead "
                           "of {id}").format(
                            label=car.label, top=top, base=bot.card.base, id=bot.id), i)
            z = top
        else:
            car = lift_car_touched(state, bot, self.pose)
            if car is None:
                self._refuse(
                    "R48",
                    N_("{id} is not at the top of a lift with its base touching the car").format(
                        id=bot.id
                    ),
                    i,
                )
            landing = teleporter_centre(car)
            z = index.floor_z(*landing)
        other = overlaps_bot(state, bot, landing[0], landing[1])
        if other is not None:
            self._refuse("R48",
                    N_("{id} stands where {id2} would leave the lift").format(
                        id=other.id, id2=bot.id), i, landing)
        self._charge(cost, i)
        run = math.hypot(landing[0] - self.pose.x, landing[1] - self.pose.y)
        start = self._point()
        target = PathPoint(
            landing[0], landing[1], z, self.pose.facing, self.distance + run, self.spent + cost
        )
        placed = self._pauses(start, target, run, cost)
        if placed < 0:
            return
        self.ctx.emit({"type": "lift", "bot": bot.id, "feature": car.label, "direction": direction,
                       "to": xy2(*landing), "z": r2(z)})
        self.pose.x, self.pose.y, self.pose.z = landing[0], landing[1], z
        self.distance += run
        self.rhythm.moved(run)
        self._record(Piece("lift", i, run, 0.0, cost, f"{car.label} {direction}"), cost, placed)
        self._mines()

    def _drop_mine(self, i: int, weapon: str) -> None:
        """Drop a mine where the bot stands (R21, R31)."""
        if not self.live:
            self.ctx.emit({"type": "drop_mine", "bot": self.bot.id, "weapon": weapon,
                           "at": xy2(*self.pose.xy)})
            return

        answer = drop_mine(self.state, self.bot, weapon)
        if isinstance(answer, Refusal):
            raise _Refused(Refusal(answer.rule, answer.message, answer.at, i))
        self.ctx.events.extend(answer)

    def _mines(self) -> bool:
        """Active mines the base now touches strike it (R31); True if destroyed."""

        if not self.state.mines:
            return False
        if not self.live:
            ghost = dataclasses.replace(self.bot, x=self.pose.x, y=self.pose.y, z=self.pose.z)
            for mine in touching_mines(self.state, ghost):
                if mine.id not in self.mines_seen:
                    self.mines_seen.add(mine.id)
                    self.ctx.emit({"type": "mine_touch", "bot": self.bot.id, "mine": mine.id})
            return False
        for mine in touching_mines(self.state, self.bot):
            if self.bot.destroyed:
                break
            if mine in self.state.mines:
                self.ctx.events.extend(mine_strike(self.state, mine, self.bot))
        if self.bot.destroyed:
            self.ended = "destroyed"
            return True
        return False

    # --- the end of the move ----------------------------------------------------

    def _finish(self) -> None:
        bot = self.bot
        dead = (self.live and bot.destroyed) or self.ended in ("pit", "destroyed")
        if dead or self.ended == "teleport":
            return
        if bot.stats.is_flying:
            other = overlaps_bot(self.state, bot, self.pose.x, self.pose.y)
            if other is not None:
                self._refuse(
                    "R11",
                    N_("{id} may fly over {id2} but not end its move on it (at {v})").format(
                        id=bot.id, id2=other.id, v=_at(*self.pose.xy)
                    ),
                    len(self.move.steps) - 1,
                )
        elif not (self.live and bot.destroyed):
            self.ctx.trail, self.ctx.trail_bot = [], bot.id
            self.ctx.watch = self.interrupt       # D40: the carry is its movement
            carry(self.ctx, bot, self.pose)
            self.ctx.watch = None
            trail, self.ctx.trail = self.ctx.trail, None
            if trail:
                start = self.path[-1]
                carried = sum(
                    math.hypot(q.x - p.x, q.y - p.y)
                    for p, q in zip([start] + trail, trail, strict=False)
                )
                for p in trail:
                    self.path.append(
                        dataclasses.replace(p, distance=self.distance, spent=self.spent)
                    )
                self.pieces.append(Piece("carry", -1, carried, 0.0, 0.0,
                        N_("carried by a belt (R44, R46)")))
                self._mines()
        self._min_move()

    def _min_move(self) -> None:
        """A flier that moved less than its minimum falls and is destroyed, unless
        docked at a service point (R12, R51, D34)."""
        bot = self.bot
        need = bot.stats.min_move
        if not bot.stats.is_flying or need <= 0 or (self.live and bot.destroyed):
            return
        if self.ended in ("pit", "destroyed", "crash"):
            return                  # D38: a crash ends the movement, the minimum with it
        moved = self.moved_before + self.spent
        if reaches(moved, need):
            return
        point = Point(self.pose.x, self.pose.y)
        if any(s.shape.contains(point) for s in self.parts.services):
            self.ctx.emit({"type": "docked", "bot": bot.id, "at": xy2(*self.pose.xy)})
            return
        self.ctx.emit({"type": "fall", "bot": bot.id, "cause": "min_move", "moved": r2(moved),
                       "min_move": need, "at": xy2(*self.pose.xy)})
        if self.live:
            self.ctx.events.extend(destroy(self.state, bot, "min_move", None))
        else:
            self.ctx.events.append(
                {"type": "destroyed", "bot": bot.id, "cause": "min_move", "by": None}
            )
        self.ended = "min_move"

    def _result(self) -> MoveResult:
        self.ctx.events.append({"type": "path", "bot": self.bot.id,
                                "points": [xy2(p.x, p.y) for p in self.path]})
        destroyed = (self.bot.destroyed if self.live
                     else any(e["type"] == "destroyed" and e["bot"] == self.bot.id
                              for e in self.ctx.events))
        return MoveResult(
            bot=self.bot.id, path=self.path, spent=self.spent,
            left=max(0.0, self.allowed - self.spent), allowed=self.allowed,
            turns_used=self.rhythm.used, free_turns_left=self.rhythm.free_left,
            turn_credit=self.rhythm.since_turn, pieces=self.pieces, events=self.ctx.events,
            x=self.pose.x, y=self.pose.y, z=self.pose.z, facing=self.pose.facing,
            destroyed=destroyed, ended=self.ended, dropped_steps=self.dropped,
            teleport_candidates=self.candidates, committed=self.live)

