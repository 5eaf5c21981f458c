"""The live camera on the table (`play --camera`): each frame the controller gives the
camera where the referee has the bots and takes whatever readings are ready (never
waiting: the camera is read on its own thread, `bottisota.vision.live`); both windows
ring each miniature standing off its place ("put it here"); the active bot's
miniature moved by hand becomes its plan (its ghost, costs and refusals as any planned
move; Enter commits it, journaled with the camera's reading); F9 makes the game take
the place the camera sees for each ringed bot (a journaled correction).

`CameraHooks` is a mixin of `TableApp` (its only hook into the controller): it does
nothing until `camera_check` is set (`play --camera`).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame

from bottisota.core.i18n import _
from bottisota.view.camera import Camera
from bottisota.view.camera_rings import draw_drifts
from bottisota.view.controls import InputHandling, KeyPress
from bottisota.view.table_painter import WindowLayers
from bottisota.viewmodel.camera_feed import CameraCheck
from bottisota.viewmodel.plan import MovePlan


class CameraHooks(InputHandling):
    """The camera's part of the table's controller (see the module doc)."""

    camera_check: CameraCheck | None = None

    def update(self, dt: float) -> None:
        super().update(dt)
        check = self.camera_check
        if check is None:
            return
        if check.feed.error is not None and not check.error_told:
            check.error_told = True
            self.say(_("camera: {error}").format(error=check.feed.error), "alarm")
        before = check.move
        check.sync(self.state)
        bot = self.active_bot()
        mover = bot.id if bot is not None and self.expected() == "move" \
            and self.human_to_act() and self.prompt is None else None
        notes = check.take(self.game, mover)
        for note in notes:
            self.vm.log.events([note], None)
            self.notes.append(dict(note))     # journaled with the next action the game accepts
        self._camera_plan(before)

    def _camera_plan(self, before: Any) -> None:
        """The move read from the table becomes the plan, unless the player is planning
        one of their own; a miniature put back takes the camera's plan away."""
        check = self.camera_check
        assert check is not None
        move, plan = check.move, self.vm.plan
        if move is before:
            return
        was_camera = plan is not None and (plan.is_empty() or (
            before is not None and plan.bot == before.bot
            and plan.all_steps() == tuple(before.steps)))
        if move is None:
            if before is not None and was_camera and plan is not None and not plan.is_empty():
                self.vm.plan = MovePlan(plan.bot)
                self._changed()
            return
        if plan is not None and plan.bot == move.bot and was_camera:
            self.vm.plan = MovePlan(move.bot, list(move.steps))
            self._changed()
        self.say(check.move_words(), "plain" if move.planned.refusal is None else "alarm")

    def act(self, action: Any) -> bool:
        """A move the camera read is journaled with the camera's reading beside it."""
        check = self.camera_check
        found = check.note_for(action) if check is not None else None
        note = dict(found) if found is not None else None
        if note is not None:
            self.notes.append(note)
        done = super().act(action)
        if note is not None and not done and note in self.notes:
            self.notes.remove(note)
        return done

    def accept_camera(self) -> None:
        """F9: the game takes the place the camera sees for each ringed bot."""
        check = self.camera_check
        if check is None:
            self.say(_("no camera: start with bottisota play --camera"), "dim")
            return
        fixes = check.corrections()
        if not fixes:
            self.say(_("camera: no miniature is off its place"), "dim")
            return
        for action, reading in fixes:
            note = dict(reading)
            self.notes.append(note)
            if not self.act(action) and note in self.notes:
                self.notes.remove(note)

    def _handlers(self) -> dict[str, Callable[[KeyPress], None]]:
        return {**super()._handlers(), "camera_accept": lambda p: self.accept_camera()}

    def draw_table(self, surface: pygame.Surface, cam: Camera, area: pygame.Rect,
                   laptop: bool = False, layers: WindowLayers | None = None,
                   settled: bool | None = None, reading: float | None = None) -> None:
        super().draw_table(surface, cam, area, laptop, layers, settled, reading)
        check = self.camera_check
        if check is not None and check.drifts:
            clip = surface.get_clip()
            surface.set_clip(area)
            draw_drifts(surface, cam, check.drifts,
                        radii={b.id: b.radius for b in self.state.bots.values()})
            surface.set_clip(clip)
