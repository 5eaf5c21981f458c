"""The live camera on the table (`play --camera`): each frame the controller gives the
camera where the referee has the bots and takes whatever readings are ready (never
waiting: the camera is read on its own thread, `bottisota.vision.live`); both windows
ring each miniature standing off its place ("put it here"); the active bot's
miniature moved by hand becomes its plan (its ghost, costs and refusals as any planned
move; Enter commits it, journaled with the camera's reading); F9 makes the game take
the place the camera sees for each ringed bot (a journaled correction).

`CameraHooks` is a collaborator of `TableApp`: it does nothing until `check` is set
(`play --camera`). Its readings go into the session's notes, so the action they
belong to journals them (the table and the phones hear them in the feed).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

import pygame

from bottisota.core.actions import Action
from bottisota.core.i18n import _
from bottisota.view.camera import Camera
from bottisota.view.camera_rings import draw_drifts
from bottisota.viewmodel.plan import MovePlan

if TYPE_CHECKING:
    from bottisota.engine.events import Event
    from bottisota.engine.game import Game
    from bottisota.view.acting import GameActions
    from bottisota.viewmodel.camera_feed import CameraCheck, CameraMove
    from bottisota.viewmodel.game_session import Session
    from bottisota.viewmodel.model import ViewModel


class CameraHost(Protocol):
    """What the camera reads of the table's controller."""

    @property
    def game(self) -> Game: ...
    @property
    def vm(self) -> ViewModel: ...
    @property
    def actions(self) -> GameActions: ...


class CameraHooks:
    """The camera's part of the table's controller (see the module doc)."""

    def __init__(self, host: CameraHost) -> None:
        self.host = host
        self.check: CameraCheck | None = None
        self._session: Session | None = None

    def start(self, check: CameraCheck) -> None:
        self.check = check

    def _hooked(self) -> Session:
        """The session, with the camera's reading of a move added to its notes."""
        session = self.host.actions.session
        if session is not self._session:
            session.annotators.append(self.note_for)
            self._session = session
        return session

    def note_for(self, action: Action) -> Event | None:
        """A move the camera read is journaled with the camera's reading beside it."""
        check = self.check
        return check.note_for(action) if check is not None else None

    def step(self) -> None:
        """Each frame: the readings that are ready, told and kept for the next action."""
        check = self.check
        if check is None:
            return
        session = self._hooked()
        acts, vm = self.host.actions, self.host.vm
        if check.feed.error is not None and not check.error_told:
            check.error_told = True
            vm.say(_("camera: {error}").format(error=check.feed.error), "alarm")
        before = check.move
        game = self.host.game
        check.sync(game.state)
        bot = acts.active_bot()
        mover = bot.id if bot is not None and acts.expected() == "move" \
            and acts.human_to_act() and acts.prompt is None else None
        notes: list[Event] = [*check.take(game, mover)]
        if notes:
            session.feed.events(notes, None)
            session.notes += notes          # journaled with the next action the game accepts
        self._camera_plan(before)

    def _camera_plan(self, before: CameraMove | None) -> None:
        """The move read from the table becomes the plan, unless the player is planning
        one of their own; a miniature put back takes the camera's plan away."""
        check = self.check
        assert check is not None
        vm, acts = self.host.vm, self.host.actions
        move, plan = check.move, vm.plan
        if move is before:
            return
        was_camera = plan is not None and (plan.is_empty() or (
            before is not None and plan.bot == before.bot
            and plan.all_steps() == tuple(before.steps)))
        if move is None:
            if before is not None and was_camera and plan is not None and not plan.is_empty():
                vm.plan = MovePlan(plan.bot)
                acts.changed()
            return
        if plan is not None and plan.bot == move.bot and was_camera:
            vm.plan = MovePlan(move.bot, list(move.steps))
            acts.changed()
        vm.say(check.move_words(), "plain" if move.planned.refusal is None else "alarm")

    def accept(self) -> None:
        """F9: the game takes the place the camera sees for each ringed bot."""
        check, vm = self.check, self.host.vm
        if check is None:
            vm.say(_("no camera: start with bottisota play --camera"), "dim")
            return
        fixes = check.corrections()
        if not fixes:
            vm.say(_("camera: no miniature is off its place"), "dim")
            return
        session = self._hooked()
        for action, reading in fixes:
            note: Event = reading
            session.notes.append(note)
            if not self.host.actions.act(action) and note in session.notes:
                session.notes.remove(note)

    def draw(self, surface: pygame.Surface, cam: Camera, area: pygame.Rect) -> None:
        """The drifts ringed on a window's table (both windows draw them)."""
        check = self.check
        if check is None or not check.drifts:
            return
        clip = surface.get_clip()
        surface.set_clip(area)
        draw_drifts(surface, cam, check.drifts,
                    radii={b.id: b.radius for b in self.host.game.state.bots.values()})
        surface.set_clip(clip)
