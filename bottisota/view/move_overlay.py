"""The ghost of a planned move: its path, where it ends, what it would set off,
and — for an illegal step — the step in red with the refusal's reason."""
from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import pygame

from bottisota.core.actions import Back, Forward, Step, Strafe, Turn
from bottisota.core.i18n import _, number, translated
from bottisota.engine.movement.result import MoveResult, PathPoint
from bottisota.engine.state import Bot
from bottisota.view import style
from bottisota.view.camera import Camera
from bottisota.view.label_layer import LabelSink
from bottisota.view.shapes import dashed_line, facing_vector
from bottisota.viewmodel.core_calls import MovePreview
from bottisota.viewmodel.words import describe, ended_words, piece_words

EVENT_MARK_PX = 7
QUIET_EVENTS = frozenset({"bot_moved", "path", "phase"})   # shown by the ghost itself


def _ghost(surface: pygame.Surface, cam: Camera, p: PathPoint, r: float,
           colour: style.Colour, width: int = 2) -> None:
    centre = cam.to_px(p.x, p.y)
    rad = max(2.0, cam.length(r))
    pygame.draw.circle(surface, colour, centre, rad, width)
    dx, dy = facing_vector(p.facing)
    tip = cam.to_px(p.x + dx * r, p.y + dy * r)
    pygame.draw.line(surface, colour, centre, tip, width)


def _event_xy(e: Mapping[str, Any]) -> tuple[float, float] | None:
    for kx, ky in (("x", "y"), ("at_x", "at_y")):
        if kx in e and ky in e:
            return (float(e[kx]), float(e[ky]))
    at = e.get("at")
    if isinstance(at, (list, tuple)) and len(at) == 2:
        return (float(at[0]), float(at[1]))
    return None


def refused_step_end(start: PathPoint, step: Step) -> tuple[float, float, float]:
    """Where the refused step would have taken the centre if nothing stopped it
    (a drawing aid only: a straight line along the step)."""
    if isinstance(step, Forward):
        dx, dy = facing_vector(start.facing)
        return (start.x + dx * step.cm, start.y + dy * step.cm, start.facing)
    if isinstance(step, Back):
        dx, dy = facing_vector(start.facing)
        return (start.x - dx * step.cm, start.y - dy * step.cm, start.facing)
    if isinstance(step, Strafe):
        dx, dy = facing_vector(start.facing + step.bearing)
        return (start.x + dx * step.distance, start.y + dy * step.distance, start.facing)
    if isinstance(step, Turn):
        return (start.x, start.y, start.facing + step.degrees)
    return (start.x, start.y, start.facing)


def draw_move_preview(surface: pygame.Surface, cam: Camera, bot: Bot, pv: MovePreview,
                      colours: dict[str, style.Colour], bots: dict[str, Bot],
                      sink: LabelSink | None = None) -> None:
    """Ghost path (white), final ghost, event marks, overwatch offers, refused step (red)."""
    shown = pv.shown
    r = bot.radius
    if shown is not None and shown.path:
        pts = [cam.to_px(p.x, p.y) for p in shown.path]
        if len(pts) >= 2:
            pygame.draw.lines(surface, style.GHOST, False, pts, 3)
        for p in shown.path[1:-1]:
            pygame.draw.circle(surface, style.GHOST, cam.to_px(p.x, p.y), 3)
        _ghost(surface, cam, shown.path[-1], r, style.GHOST, 2)
        for e in shown.events:
            xy = _event_xy(e)
            if xy is None or e.get("type") in QUIET_EVENTS:
                continue
            c = cam.to_px(*xy)
            pygame.draw.circle(surface, (255, 220, 80), c, EVENT_MARK_PX, 2)
            if sink is not None:
                sink.want(describe(e), c, "dice", radius=EVENT_MARK_PX)
            else:
                surface.blit(style.label(describe(e), 16, (255, 220, 80)),
                             (c[0] + EVENT_MARK_PX + 2, c[1] - 8))
    if pv.refusal is not None:
        _draw_refused(surface, cam, bot, pv, shown, sink)
    for offer in pv.offers:
        _draw_offer(surface, cam, offer, colours, bots, sink)


def _draw_refused(surface: pygame.Surface, cam: Camera, bot: Bot, pv: MovePreview,
                  shown: MoveResult | None, sink: LabelSink | None = None) -> None:
    ref = pv.refusal
    assert ref is not None
    start = shown.path[-1] if shown is not None and shown.path else \
        PathPoint(bot.x, bot.y, bot.z, bot.facing)
    if ref.step is not None and 0 <= ref.step < len(pv.move.steps):
        x, y, facing = refused_step_end(start, pv.move.steps[ref.step])
        a, b = cam.to_px(start.x, start.y), cam.to_px(x, y)
        if math.dist(a, b) >= 1:
            pygame.draw.line(surface, style.REFUSAL, a, b, 5)
        _ghost(surface, cam, PathPoint(x, y, start.z, facing), bot.radius, style.REFUSAL, 3)
    if ref.at is not None:
        c = cam.to_px(*ref.at)
        d = 8
        pygame.draw.line(surface, style.REFUSAL, (c[0] - d, c[1] - d), (c[0] + d, c[1] + d), 4)
        pygame.draw.line(surface, style.REFUSAL, (c[0] - d, c[1] + d), (c[0] + d, c[1] - d), 4)
    pos = cam.to_px(*(ref.at or (start.x, start.y)))
    if sink is not None:
        sink.want(str(ref), pos, "alarm", key="refusal", radius=10)
        return
    lab = style.label(str(ref), 22, style.REFUSAL)
    back = lab.get_rect(topleft=(pos[0] + 12, pos[1] + 10)).inflate(8, 4)
    pygame.draw.rect(surface, style.OUTLINE, back)
    surface.blit(lab, (pos[0] + 12, pos[1] + 10))


def _draw_offer(surface: pygame.Surface, cam: Camera, offer: Any,
                colours: dict[str, style.Colour], bots: dict[str, Bot],
                sink: LabelSink | None = None) -> None:
    """An overwatch shot the move would offer: watcher -> the point on the path."""
    watcher = bots.get(getattr(offer, "watcher", ""))
    at = getattr(offer, "at", None)
    if watcher is None or at is None:
        return
    colour = colours.get(watcher.player, style.TEXT)
    a, b = cam.to_px(watcher.x, watcher.y), cam.to_px(at.x, at.y)
    dashed_line(surface, colour, a, b, 10, 3)
    pygame.draw.circle(surface, colour, b, 9, 3)
    when = _("after the move") if getattr(offer, "after_move", False) else _("during the move")
    weapons = ", ".join(getattr(offer, "weapons", ()) or ())
    text = _("overwatch {id} ({when}): {weapons}").format(
               id=watcher.id, when=when, weapons=weapons)
    if sink is not None:
        sink.want(text, b, "alarm", key=f"ow:{watcher.id}", radius=10)
    else:
        surface.blit(style.label(text, 18, colour), (b[0] + 12, b[1] - 22))


def plan_summary(pv: MovePreview | None) -> list[tuple[str, style.Colour]]:
    """Lines for the side panel: movement left, turns, each piece's cost, events."""
    if pv is None:
        return []
    lines: list[tuple[str, style.Colour]] = []
    shown = pv.shown
    if shown is not None:
        lines.append((_("spent {spent} of {allowed} cm, left {left}").format(
                          spent=number(shown.spent), allowed=number(shown.allowed),
                          left=number(shown.left)),
                      style.TEXT))
        lines.append((_("turns used {turns_used}, free turns left {free_turns_left}, since "
                        "last turn {turn_credit} cm").format(
                          turns_used=shown.turns_used, free_turns_left=shown.free_turns_left,
                          turn_credit=number(shown.turn_credit)), style.TEXT_DIM))
        for piece in shown.pieces:
            mult = f" x{piece.multiplier:g}" if piece.multiplier != 1 else ""
            kind, said = piece_words(piece.kind, piece.note)
            note = f" ({said})" if said else ""
            lines.append((_("  {kind} {length} cm{mult} = {cost}{note}").format(
                              kind=kind, length=number(piece.length), mult=mult,
                              cost=number(piece.cost),
                              note=note),
                          style.TEXT_DIM))
        if shown.ended:
            lines.append((_("move ends early: {ended}").format(ended=ended_words(shown.ended)),
                          (255, 220, 80)))
        for e in shown.events:
            if e.get("type") not in QUIET_EVENTS:
                lines.append(("  " + describe(e), (255, 220, 80)))
    if pv.refusal is not None:
        lines.append((translated(pv.refusal), style.REFUSAL))
    for offer in pv.offers:
        lines.append((_("overwatch offer: {offer}").format(
                          offer=getattr(offer, 'watcher', '?')), style.TEXT))
    return lines
