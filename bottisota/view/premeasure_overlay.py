"""Drawing a weapon's pre-measure (rules.shooting.premeasure): arc and range,
every target coloured by sight/arc/range with its to-hit number and chance,
the sight line with its blocking point, the fire track's height profile,
a spray's corridor, a blast marker, a missile's turn, a rocket's onward line
and a beam's landing spot. Everything shown is the core's answer."""
from __future__ import annotations

import math
from typing import Any

import pygame

from bottisota.core.i18n import _, language, number, translated
from bottisota.engine.state import Bot, GameState
from bottisota.view import style
from bottisota.view.camera import Camera
from bottisota.view.label_layer import LabelSink
from bottisota.view.shapes import (
    dashed_circle,
    dashed_line,
    facing_vector,
    outline_geom,
    polygons_of,
    sector_points,
)
from bottisota.viewmodel.targets import target_words, verdict

BLAST_WIDTH = 3          # px: the blast circle is drawn inward from its true radius
INSET_SIZE = (340, 130)  # px: the fire-track inset
RAY_CM = 12.0            # length of a missile's possible new heading, drawn


def target_colour(t: Any) -> style.Colour:
    """Green when it may be shot; else grey out of arc, orange out of range, red no sight."""
    if t.can_fire:
        return style.SIGHT_CLEAR
    if not t.in_arc:
        return style.OUT_OF_ARC
    if not t.in_range:
        return (255, 170, 60)
    return style.SIGHT_BLOCKED


_arc_cache: dict[tuple, tuple[pygame.Surface, tuple[int, int]]] = {}


def _alpha_shape(key: tuple, pts: list[tuple[float, float]] | None,
                 circle: tuple[tuple[float, float], float] | None,
                 rgba: tuple[int, int, int, int]) -> tuple[pygame.Surface, tuple[int, int]]:
    """A translucent polygon or disc on a surface just its size (cached by `key`)."""
    hit = _arc_cache.get(key)
    if hit is not None:
        return hit
    if circle is not None:
        (cx, cy), r = circle
        left, top = math.floor(cx - r) - 1, math.floor(cy - r) - 1
        layer = pygame.Surface((math.ceil(2 * r) + 3, math.ceil(2 * r) + 3), pygame.SRCALPHA)
        pygame.draw.circle(layer, rgba, (cx - left, cy - top), r)
    else:
        assert pts is not None                  # a polygon when not a disc
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        left, top = math.floor(min(xs)) - 1, math.floor(min(ys)) - 1
        layer = pygame.Surface((math.ceil(max(xs)) - left + 2, math.ceil(max(ys)) - top + 2),
                               pygame.SRCALPHA)
        pygame.draw.polygon(layer, rgba, [(x - left, y - top) for x, y in pts])
    if len(_arc_cache) > 8:
        _arc_cache.clear()
    _arc_cache[key] = (layer, (left, top))
    return layer, (left, top)


def draw_arc_fill(surface: pygame.Surface, cam: Camera, bot: Bot, pm: Any) -> pygame.Rect:
    """The weapon's arc out to its reach, translucent (the view bakes it into its
    cached base layer while the pre-measure stands); returns the pixels it covers."""
    key = ("arc", bot.x, bot.y, bot.facing, pm.reach, pm.arc_half, cam.scale, cam.origin)
    if pm.arc_half is None:
        centre = cam.to_px(bot.x, bot.y)
        layer, at = _alpha_shape(key, None, (centre, cam.length(pm.reach)), style.ARC_FILL)
    else:
        pts = sector_points(cam, bot.x, bot.y, bot.facing, 2 * pm.arc_half, pm.reach)
        layer, at = _alpha_shape(key, pts, None, style.ARC_FILL)
    return surface.blit(layer, at)


def draw_arc(surface: pygame.Surface, cam: Camera, bot: Bot, pm: Any, fill: bool = True,
             sink: LabelSink | None = None) -> None:
    """The arc's edge and reach label (and, unless baked elsewhere, its fill)."""
    if fill:
        draw_arc_fill(surface, cam, bot, pm)
    if pm.arc_half is None:
        pygame.draw.circle(surface, style.RULER, cam.to_px(bot.x, bot.y), cam.length(pm.reach), 1)
    else:
        pts = sector_points(cam, bot.x, bot.y, bot.facing, 2 * pm.arc_half, pm.reach)
        pygame.draw.lines(surface, style.RULER, True, pts, 1)
    text = _("{weapon}: reach {reach} cm").format(
               weapon=pm.weapon, reach=number(pm.reach)) + (" (overwatch)" if pm.overwatch else "")
    c = cam.to_px(bot.x, bot.y)
    if sink is not None:
        sink.want(text, c, "plain", key=f"reach:{bot.id}", radius=cam.length(bot.radius) + 10)
    else:
        surface.blit(style.label(text, 18, style.TEXT), (c[0] + 14, c[1] + 14))


_words: list[tuple[Any, str, dict[str, tuple[str, str]]]] = []


def target_texts(pm: Any) -> dict[str, tuple[str, str]]:
    """Each target's words and tone, by bot id: worked out once per pre-measure and
    language (a pre-measure is the core's frozen answer; both windows and every frame
    that shows it draw the same words)."""
    lang = language()
    for kept, kept_lang, texts in _words:
        if kept is pm and kept_lang == lang:
            return texts
    texts = {t.bot: (target_words(t, pm),
                     "clear" if t.can_fire else "dim" if verdict(t) == "arc" else "alarm")
             for t in pm.targets}
    _words.insert(0, (pm, lang, texts))
    del _words[4:]                             # the last few pre-measures, no more
    return texts


def draw_targets(surface: pygame.Surface, cam: Camera, state: GameState, pm: Any,
                 sink: LabelSink | None = None, rings: bool = True) -> None:
    """Every other bot ringed by its verdict: a solid ring when it may be shot (with
    to-hit and chance), else a dashed ring and why not in words (`rings=False`: the
    words only, the rings being baked into the view's cached layer)."""
    words = target_texts(pm)
    for t in pm.targets:
        b = state.bots.get(t.bot)
        if b is None:
            continue
        colour = target_colour(t)
        centre = cam.to_px(b.x, b.y)
        r = cam.length(b.radius) + 6
        if rings:
            _ring(surface, t, colour, centre, r)
        text, tone = words[t.bot]
        if sink is not None:
            sink.want(text, centre, tone, key=f"t:{t.bot}", radius=r + 4)
        else:
            lab = style.label(text, 18, colour)
            rect = lab.get_rect(midtop=(centre[0], centre[1] + r + 12))
            pygame.draw.rect(surface, style.OUTLINE, rect.inflate(4, 2))
            surface.blit(lab, rect)


def draw_target_rings(surface: pygame.Surface, cam: Camera, state: GameState, pm: Any
                      ) -> list[pygame.Rect]:
    """The targets' rings alone (solid: may be shot; dashed: may not); returns the
    pixels each may cover."""
    out = []
    for t in pm.targets:
        b = state.bots.get(t.bot)
        if b is not None:
            centre, r = cam.to_px(b.x, b.y), cam.length(b.radius) + 6
            _ring(surface, t, target_colour(t), centre, r)
            out.append(pygame.Rect(math.floor(centre[0] - r) - 4, math.floor(centre[1] - r) - 4,
                                   math.ceil(2 * r) + 9, math.ceil(2 * r) + 9))
    return out


def _ring(surface: pygame.Surface, t: Any, colour: style.Colour, centre: tuple[float, float],
          r: float) -> None:
    if t.can_fire:
        pygame.draw.circle(surface, colour, centre, r, 3)
    else:
        dashed_circle(surface, colour, centre, r, 3)


def sight_of(t: Any) -> tuple[str | None, tuple[float, float] | None, tuple]:
    """(blocker, blocking point, fire track) of a target measure: its sight line is
    worked out by the core on demand (`t.sight.get()`)."""
    lazy = getattr(t, "sight", None)
    if lazy is not None and hasattr(lazy, "get"):
        sight = lazy.get()
        return sight.blocker, sight.point, tuple(sight.track)
    return (getattr(t, "blocker", None), getattr(t, "block_point", None),
            tuple(getattr(t, "track", ())))


def draw_sight(surface: pygame.Surface, cam: Camera, shooter: Bot, target: Bot, t: Any,
               sink: LabelSink | None = None) -> None:
    """The sight line: solid green while clear, dashed red past the first blocking
    point (marked X) with what blocks it in words."""
    a = cam.to_px(shooter.x, shooter.y)
    b = cam.to_px(target.x, target.y)
    blocker, point, _track = sight_of(t)
    if t.in_sight or point is None:
        if t.in_sight:
            pygame.draw.line(surface, style.SIGHT_CLEAR, a, b, 2)
        else:
            dashed_line(surface, style.SIGHT_BLOCKED, a, b, 10, 3)
        return
    m = cam.to_px(*point)
    pygame.draw.line(surface, style.SIGHT_CLEAR, a, m, 2)
    dashed_line(surface, style.SIGHT_BLOCKED, m, b, 10, 3)
    d = 8
    pygame.draw.line(surface, style.SIGHT_BLOCKED, (m[0] - d, m[1] - d), (m[0] + d, m[1] + d), 4)
    pygame.draw.line(surface, style.SIGHT_BLOCKED, (m[0] - d, m[1] + d), (m[0] + d, m[1] - d), 4)
    if sink is not None:
        sink.want(_("blocked by {blocker}").format(
                      blocker=translated(blocker)), m, "alarm", key="blocked", radius=10)
    else:
        surface.blit(style.label(_("blocked by {blocker}").format(
                                     blocker=translated(blocker)), 18, style.SIGHT_BLOCKED),
                     (m[0] + 10, m[1] - 24))


def draw_fire_track(surface: pygame.Surface, topleft: tuple[int, int], t: Any,
                    size: tuple[int, int] = INSET_SIZE) -> pygame.Rect:
    """Inset (in the panel): the sight line's height (line) against the obstacles it
    passes over (bars)."""
    w, h = size
    fs = max(14, round(h / 8))
    rect = pygame.Rect(topleft[0], topleft[1], w, h)
    pygame.draw.rect(surface, style.PANEL, rect)
    pygame.draw.rect(surface, style.GRID_BOLD, rect, 1)
    surface.blit(style.label(_("fire track to {bot} ({distance} cm)").format(
                                 bot=t.bot, distance=number(t.distance, 1)), fs, style.TEXT),
                 (rect.x + 6, rect.y + 4))
    plot = pygame.Rect(rect.x + fs * 2, rect.y + fs + 8, w - fs * 2 - 10, h - 2 * fs - 6)
    track = list(sight_of(t)[2])
    length = max([t.distance] + [p.distance for p in track]) or 1.0
    top = max([1.0] + [p.line_z for p in track] + [p.obstacle_z for p in track]) * 1.15

    def to_plot(d: float, z: float) -> tuple[float, float]:
        return (plot.x + plot.w * d / length, plot.bottom - plot.h * max(0.0, z) / top)

    pygame.draw.line(surface, style.TEXT_DIM, plot.bottomleft, plot.bottomright, 1)
    surface.blit(style.label(f"{top:.1f}", fs, style.TEXT_DIM), (rect.x + 4, plot.y - 4))
    surface.blit(style.label("0", fs, style.TEXT_DIM), (rect.x + 14, plot.bottom - fs // 2))
    for p in track:
        x, y = to_plot(p.distance, p.obstacle_z)
        colour = style.SIGHT_BLOCKED if p.obstacle_z >= p.line_z else style.TEXT_DIM
        pygame.draw.line(surface, colour, (x, plot.bottom), (x, y), 4)
    if not track:
        surface.blit(style.label(_("nothing under the line"), fs, style.SIGHT_CLEAR),
                     (plot.x + 10, plot.y + plot.h // 2 - 8))
    if track:
        pts = [to_plot(p.distance, p.line_z) for p in track]
        if len(pts) >= 2:
            pygame.draw.lines(surface, style.SIGHT_CLEAR, False, pts, 2)
        else:
            pygame.draw.circle(surface, style.SIGHT_CLEAR, pts[0], 3)
    return rect


def draw_aimed(surface: pygame.Surface, cam: Camera, state: GameState, shooter: Bot,
               pm: Any, sink: LabelSink | None = None) -> None:
    """What the weapon reaches at its aim: corridor, blast, missile turn, rocket line, beam."""
    if pm.corridor is not None:
        key = ("corridor", pm.bot, pm.aim, cam.scale, cam.origin)
        for i, poly in enumerate(polygons_of(pm.corridor)):
            pts = [cam.to_px(x, y) for x, y in poly.exterior.coords[:-1]]
            layer, at = _alpha_shape(key + (i,), pts, None, (*style.CORRIDOR, 60))
            surface.blit(layer, at)
        outline_geom(surface, cam, pm.corridor, style.CORRIDOR, 2)
        for bid in pm.corridor_members:
            b = state.bots.get(bid)
            if b is not None:
                pygame.draw.circle(surface, style.CORRIDOR, cam.to_px(b.x, b.y),
                                   cam.length(b.radius) + 10, 3)
    if pm.blast is not None:
        draw_blast(surface, cam, state, pm.blast, sink)
    if pm.missile is not None:
        mt = pm.missile
        start = cam.to_px(mt.x, mt.y)
        for bid, turn, heading in zip(mt.toward, mt.turns, mt.headings, strict=True):
            dx, dy = facing_vector(heading)
            end = cam.to_px(mt.x + dx * RAY_CM, mt.y + dy * RAY_CM)
            dashed_line(surface, style.BLAST, start, end, 8, 2)
            _text(surface, sink, _("missile may turn {turn:+.1f}° to {bid}").format(
                                     turn=turn, bid=bid), end, f"mt:{bid}")
        if not mt.toward:
            dx, dy = facing_vector(mt.heading)
            end = cam.to_px(mt.x + dx * RAY_CM, mt.y + dy * RAY_CM)
            dashed_line(surface, style.BLAST, start, end, 8, 2)
    if pm.flight is not None and pm.aim is not None:
        a, far = cam.to_px(*pm.aim), cam.to_px(*pm.flight.end)
        dashed_line(surface, style.BLAST, a, far, 8, 2)
        what = ", ".join(pm.flight.bots) or "nobody"
        _text(surface, sink, _("on a miss the rocket flies on: {what}").format(
                                 what=what), far, "flight")
    if pm.fling is not None:
        draw_fling(surface, cam, state, pm.fling, sink)


def _text(surface: pygame.Surface, sink: LabelSink | None, text: str,
          at: tuple[float, float], key: str, tone: str = "plain", radius: float = 6.0) -> None:
    """A note on the table: to the label pass when there is one, else drawn beside `at`."""
    if sink is not None:
        sink.want(text, at, tone, key=key, radius=radius)
        return
    lab = style.label(text, 16, style.tone(tone))
    rect = lab.get_rect(midleft=(at[0] + radius + 4, at[1]))
    pygame.draw.rect(surface, style.LABEL_BACK, rect.inflate(4, 2))
    surface.blit(lab, rect)


def draw_blast(surface: pygame.Surface, cam: Camera, state: GameState, blast: Any,
               sink: LabelSink | None = None) -> None:
    """The blast marker at its true radius; the centre bot and the -1/+1 bots marked."""
    centre = cam.to_px(blast.x, blast.y)
    dashed_circle(surface, style.BLAST, centre, cam.length(blast.r), BLAST_WIDTH)
    pygame.draw.circle(surface, style.BLAST, centre, 3)
    for m, chance in zip(blast.members, blast.chances, strict=True):
        b = state.bots.get(m.bot)
        if b is None:
            continue
        c = cam.to_px(b.x, b.y)
        text = (_("centre {chance}%").format(chance=round(chance * 100)) if m.centre else
                _("{hit_mod:+d} hit / {armour_mod:+d} armour {chance}%").format(
                    hit_mod=m.hit_mod, armour_mod=m.armour_mod, chance=round(chance * 100)))
        _text(surface, sink, _("blast: {text}").format(text=text), c, f"bl:{m.bot}", "plain",
              cam.length(b.radius) + 6)
    for s in blast.safe:
        b = state.bots.get(s.bot)
        if b is not None:
            c = cam.to_px(b.x, b.y)
            _text(surface, sink, _("safe: {reason}").format(
                                     reason=s.reason), c, f"safe:{s.bot}", "dim",
                  cam.length(b.radius) + 6)


def draw_fling(surface: pygame.Surface, cam: Camera, state: GameState, fling: Any,
               sink: LabelSink | None = None) -> None:
    """A beam's landing spot (R29): the thrown path, the landing ghost, what it meets."""
    path = getattr(fling, "path", None) or []
    if len(path) >= 2:
        pygame.draw.lines(surface, style.BLAST, False, [cam.to_px(p.x, p.y) for p in path], 2)
    bot = state.bots.get(getattr(fling, "bot", ""))
    r = bot.radius if bot is not None else state.rules.base_diameter / 2.0
    end = cam.to_px(fling.x, fling.y)
    dashed_circle(surface, style.BLAST, end, cam.length(r), 2)
    notes = []
    if getattr(fling, "collisions", None):
        notes.append("hits " + ", ".join(fling.collisions))
    if getattr(fling, "pit", None):
        notes.append(_("into pit {pit}").format(pit=fling.pit))
    if getattr(fling, "fall", None):
        notes.append(_("falls {v} cm").format(v=fling.fall.get('drop', '?')))
    if notes:
        _text(surface, sink, "; ".join(notes), end, "fling", "alarm", cam.length(r))


def draw_premeasure(surface: pygame.Surface, cam: Camera, state: GameState, pm: Any,
                    focus: str | None, inset_at: tuple[int, int] | None,
                    arc_fill: bool = True, sink: LabelSink | None = None,
                    rings: bool = True) -> None:
    """The whole pre-measure; `focus` is the target bot whose sight line and fire
    track are shown (the hovered or aimed one). `arc_fill` and `rings` False: those
    are baked into the view's cached layer."""
    shooter = state.bots[pm.bot]
    draw_arc(surface, cam, shooter, pm, fill=arc_fill, sink=sink)
    draw_targets(surface, cam, state, pm, sink, rings)
    if focus is not None:
        t = pm.target(focus)
        target = state.bots.get(focus)
        if t is not None and target is not None:
            draw_sight(surface, cam, shooter, target, t, sink)
            if inset_at is not None:
                draw_fire_track(surface, inset_at, t)
    draw_aimed(surface, cam, state, shooter, pm, sink)
    if pm.refusal:
        _text(surface, sink, pm.refusal, cam.to_px(shooter.x, shooter.y), "pm-refusal", "alarm",
              cam.length(shooter.radius) + 6)


def nearest_target(pm: Any, state: GameState, x: float, y: float) -> str | None:
    """The target bot under a table point (for hover focus)."""
    best, best_d = None, math.inf
    for t in pm.targets:
        b = state.bots.get(t.bot)
        if b is None:
            continue
        d = math.hypot(b.x - x, b.y - y)
        if d <= b.radius + 1.0 and d < best_d:
            best, best_d = t.bot, d
    return best
