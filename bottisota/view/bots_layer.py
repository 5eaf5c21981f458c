"""What moves on the table: bots (true base size, facing wedge, player colour,
name, damage pips), mine markers, goal markers and doors held open."""
from __future__ import annotations

import math
import time
from typing import Any

import pygame

from bottisota.core.i18n import _
from bottisota.engine.state import Bot, GameState, Mine
from bottisota.view import style
from bottisota.view.arena_layer import draw_goal_marker, draw_open_door
from bottisota.view.camera import Camera
from bottisota.view.shapes import dashed_circle, facing_vector

WEDGE_START = 0.35  # the facing wedge starts this far out (share of radius): centre stays coloured
WEDGE_HALF_ANGLE = 30.0  # degrees either side of the facing
MIN_LABEL_PX = 16


def player_colours(state: GameState) -> dict[str, style.Colour]:
    """Colour of every player, by name where it names a colour, else by seat."""
    players = list(state.players)
    for b in state.bots.values():
        if b.player not in players:
            players.append(b.player)
    return {p: style.player_colour(p, i) for i, p in enumerate(players)}


_sprites: dict[tuple, tuple[pygame.Surface, tuple[int, int]]] = {}   # by look
_latest: dict[tuple, tuple[float, tuple[pygame.Surface, tuple[int, int]]]] = {}  # look: scale
SPRITE_CACHE_SIZE = 512


def draw_bot(surface: pygame.Surface, cam: Camera, bot: Bot, colour: style.Colour,
             selected: bool = False, alpha_ghost: bool = False, labels: bool = True,
             mark: str = "dot", exact: bool = True) -> bool:
    """One bot: disc of its real base, facing wedge, name above, damage pips below.
    Drawn once per look (facing, damage, status, scale) and then blitted; while a zoom
    is under way (`exact=False`) the sprite of its last settled scale is scaled (no
    sprite is made for a passing scale). A bot wholly outside the surface's clip is
    not drawn. Returns whether a new sprite was made."""
    cx, cy = cam.to_px(bot.x, bot.y)
    reach = cam.length(bot.radius) * 4 + 80            # the sprite's extent, generously
    clip = surface.get_clip()
    if (cx + reach < clip.left or cx - reach > clip.right or cy + reach < clip.top
            or cy - reach > clip.bottom):
        return False
    if alpha_ghost:
        _paint_bot(surface, cam, bot, colour, selected, alpha_ghost, labels, mark)
        return False
    look = (mark, bot.id, bot.facing, bot.z, bot.radius, bot.damage, bot.stats.structure,
            bot.rust, bot.leaflet, bot.overwatch, bot.destroyed, bot.card.is_flying, colour,
            selected, labels)
    hit = _sprites.get((*look, cam.scale))
    if hit is None and not exact:
        made = _latest.get(look)
        if made is None:
            _paint_bot(surface, cam, bot, colour, selected, False, labels, mark)
            return False
        scale, (sprite, (ox, oy)) = made
        f = cam.scale / scale
        w, h = sprite.get_size()
        size = (max(1, round(w * f)), max(1, round(h * f)))
        if size[0] * size[1] > surface.get_width() * surface.get_height() // 4:   # huge: paint
            _paint_bot(surface, cam, bot, colour, selected, False, labels, mark)
            return False
        surface.blit(pygame.transform.scale(sprite, size), (round(cx - ox * f),
                                                           round(cy - oy * f)))
        return False
    made_one = hit is None
    if hit is None:
        hit = _sprites[(*look, cam.scale)] = _make_sprite(cam, bot, colour, selected, labels, mark)
        _latest[look] = (cam.scale, hit)
        if len(_sprites) > SPRITE_CACHE_SIZE:
            _sprites.clear()
            _latest.clear()
            _sprites[(*look, cam.scale)] = hit
            _latest[look] = (cam.scale, hit)
    sprite, (ox, oy) = hit
    surface.blit(sprite, (round(cx) - ox, round(cy) - oy))
    return made_one


def _make_sprite(cam: Camera, bot: Bot, colour: style.Colour, selected: bool,
                 labels: bool, mark: str) -> tuple[pygame.Surface, tuple[int, int]]:
    """The bot painted on its own transparent surface; returns it and its centre pixel."""
    r = max(2.0, cam.length(bot.radius))
    size = max(MIN_LABEL_PX, round(r * 1.1))
    label_w, label_h = style.font(size).size(bot.id + (f" z{bot.z:g}" if bot.z > 0 else ""))
    pip = max(3, min(6, round(r * 0.3)))
    pips_w = max(1, int(bot.stats.structure)) * (pip * 2 + 2)
    half_w = math.ceil(
        max(r + 14, label_w / 2 + 6, pips_w / 2 + 6, 60 if (bot.rust or bot.leaflet) else 0)
    )
    top = math.ceil(max(r + 14, r + 4 + label_h))
    bottom = math.ceil(r + 2 * pip + 24)
    sprite = pygame.Surface((2 * half_w, top + bottom), pygame.SRCALPHA)
    local = cam.moved((half_w - bot.x * cam.scale, top + bot.y * cam.scale_y))
    _paint_bot(sprite, local, bot, colour, selected, False, labels, mark)
    return sprite, (half_w, top)


def _paint_bot(surface: pygame.Surface, cam: Camera, bot: Bot, colour: style.Colour,
               selected: bool = False, alpha_ghost: bool = False, labels: bool = True,
               mark: str = "dot") -> None:
    centre = cam.to_px(bot.x, bot.y)
    r = max(2.0, cam.length(bot.radius))
    if alpha_ghost:
        pygame.draw.circle(surface, colour, centre, r, 2)
    else:
        pygame.draw.circle(surface, colour, centre, r)
        pygame.draw.circle(surface, style.OUTLINE, centre, r, 2)
    _draw_wedge(surface, cam, bot.x, bot.y, bot.radius, bot.facing,
                colour if alpha_ghost else style.contrast_text(colour))
    if not alpha_ghost:
        draw_mark(surface, mark, centre, r * 0.3, style.contrast_text(colour))
    if selected:
        pygame.draw.circle(surface, (255, 255, 255), centre, r + 4, 3)
    if bot.overwatch:
        dashed_circle(surface, colour, centre, r + 9, 2)
    if bot.card.is_flying:
        pygame.draw.circle(surface, (255, 255, 255), centre, r + 1.5, 1)
    if bot.destroyed:
        d = r * 0.8
        pygame.draw.line(surface, style.REFUSAL, (centre[0] - d, centre[1] - d),
                         (centre[0] + d, centre[1] + d), 4)
        pygame.draw.line(surface, style.REFUSAL, (centre[0] - d, centre[1] + d),
                         (centre[0] + d, centre[1] - d), 4)
    if alpha_ghost:
        return
    if not labels:
        _draw_pips(surface, centre, r, bot, words=False)
        return
    size = max(MIN_LABEL_PX, round(r * 1.1))
    text = bot.id if bot.z <= 0 else f"{bot.id} z{bot.z:g}"
    lab = style.label(text, size, colour)
    rect = lab.get_rect(midbottom=(centre[0], centre[1] - r - 3))
    back = rect.inflate(4, 0)
    pygame.draw.rect(surface, style.OUTLINE, back)
    surface.blit(lab, rect)
    _draw_pips(surface, centre, r, bot)


def draw_mark(surface: pygame.Surface, mark: str, centre: tuple[float, float], s: float,
              colour: style.Colour) -> None:
    """A player's shape (style.SEAT_MARKS): players are told apart without colour."""
    cx, cy = centre
    s = max(2.0, s)
    w = max(1, round(s / 3))
    if mark == "dot":
        pygame.draw.circle(surface, colour, centre, s * 0.6)
    elif mark == "square":
        pygame.draw.rect(surface, colour, (cx - s * 0.6, cy - s * 0.6, s * 1.2, s * 1.2))
    elif mark == "triangle":
        pygame.draw.polygon(surface, colour, [(cx, cy - s * 0.8), (cx - s * 0.75, cy + s * 0.55),
                                              (cx + s * 0.75, cy + s * 0.55)])
    elif mark == "diamond":
        pygame.draw.polygon(surface, colour, [(cx, cy - s), (cx + s * 0.7, cy), (cx, cy + s),
                                              (cx - s * 0.7, cy)])
    elif mark == "cross":
        pygame.draw.line(surface, colour, (cx - s, cy), (cx + s, cy), w + 1)
        pygame.draw.line(surface, colour, (cx, cy - s), (cx, cy + s), w + 1)
    elif mark == "bar":
        pygame.draw.rect(surface, colour, (cx - s, cy - s * 0.3, 2 * s, s * 0.6))
    else:
        pygame.draw.circle(surface, colour, centre, s * 0.8, w + 1)


def _draw_wedge(surface: pygame.Surface, cam: Camera, x: float, y: float, radius: float,
                facing: float, colour: style.Colour) -> None:
    sx, sy = facing_vector(facing)
    start = cam.to_px(x + sx * radius * WEDGE_START, y + sy * radius * WEDGE_START)
    pts = [start]
    for a in (facing - WEDGE_HALF_ANGLE, facing + WEDGE_HALF_ANGLE):
        dx, dy = facing_vector(a)
        pts.append(cam.to_px(x + dx * radius * 0.95, y + dy * radius * 0.95))
    pygame.draw.polygon(surface, colour, pts)


def _draw_pips(surface: pygame.Surface, centre: tuple[float, float], r: float, bot: Bot,
               words: bool = True) -> None:
    """Damage pips under the bot: one per structure point, filled red when damaged."""
    total = max(1, int(bot.stats.structure))
    pip = max(3, min(6, round(r * 0.3)))
    gap = pip * 2 + 2
    left = centre[0] - (total - 1) * gap / 2.0
    y = centre[1] + r + pip + 3
    for i in range(total):
        c = (left + i * gap, y)
        if i < bot.damage:
            pygame.draw.circle(surface, style.REFUSAL, c, pip)
        else:
            pygame.draw.circle(surface, style.OUTLINE, c, pip)
            pygame.draw.circle(surface, style.TEXT, c, pip, 1)
    extra = []
    if not words:
        return
    if bot.rust:
        extra.append(_("rust {rust}").format(rust=bot.rust))
    if bot.leaflet:
        extra.append(_("leaflet {leaflet}").format(leaflet=bot.leaflet))
    if extra:
        lab = style.label(" ".join(extra), 14, (255, 200, 120))
        surface.blit(lab, lab.get_rect(midtop=(centre[0], y + pip + 2)))


def draw_mine(surface: pygame.Surface, cam: Camera, mine: Mine, colour: style.Colour) -> None:
    """A mine marker (D33): its disc, an X, dashed while not yet active (R31)."""
    centre = cam.to_px(mine.x, mine.y)
    r = max(3.0, cam.length(mine.r))
    if mine.active:
        pygame.draw.circle(surface, style.MINE, centre, r, 3)
    else:
        dashed_circle(surface, style.MINE, centre, r, 2)
    d = r * 0.6
    pygame.draw.line(
        surface, colour, (centre[0] - d, centre[1] - d), (centre[0] + d, centre[1] + d), 2
    )
    pygame.draw.line(
        surface, colour, (centre[0] - d, centre[1] + d), (centre[0] + d, centre[1] - d), 2
    )


def draw_state(surface: pygame.Surface, cam: Camera, state: GameState,
               selected: str | None = None, open_doors: tuple = (),
               hidden: str | None = None, sink: Any = None, exact: bool = True,
               budget_ms: float | None = None, least_text: int = 0) -> bool:
    """Everything that changes during a game, over the cached arena layer
    (`hidden`: a drawn bot not yet placed). With a label `sink` the bots' names go
    to the label placement pass instead of being drawn above each bot. With a
    `budget_ms`, new sprites are made for that long, the rest scaled from their last
    sprites until a later frame; no text smaller than `least_text`. Returns whether
    every bot was drawn exactly (none stood in for by a scaled sprite)."""
    for f in state.arena.by_type("door"):
        if f.index in open_doors or (f.id is not None and f.id in open_doors):
            draw_open_door(surface, cam, f)
    for g in state.goals:
        if not g.taken:
            written = draw_goal_marker(surface, cam, g.x, g.y, g.r, g.points, least_text)
            if sink is not None:
                at, r = cam.to_px(g.x, g.y), max(3.0, cam.length(g.r)) + 2
                sink.disc(*at, r)
                if not written:
                    sink.want(str(g.points), at, "plain", key=f"goal:{g.x},{g.y}", radius=r)
    colours = player_colours(state)
    for m in state.mines:
        draw_mine(surface, cam, m, colours.get(m.player, style.TEXT))
    players = list(colours)
    end = math.inf if budget_ms is None else time.process_time() + budget_ms / 1000.0
    made = False
    whole = exact
    for b in state.bots.values():
        if b.removed or b.id == hidden:
            continue
        if made and exact and time.process_time() > end:   # more new sprites in later frames
            exact = whole = False
        made = draw_bot(surface, cam, b, colours[b.player], selected=(b.id == selected),
                        labels=sink is None, mark=style.seat_mark(players, b.player),
                        exact=exact)
        if sink is not None:
            c = cam.to_px(b.x, b.y)
            r = max(2.0, cam.length(b.radius))
            pip = max(3, min(6, round(r * 0.3)))
            sink.disc(c[0], c[1], r + 2 * pip + 4)          # the base and its damage pips
            name = b.id if b.z <= 0 else f"{b.id} z{b.z:g}"
            extra = [_("rust {rust}").format(rust=b.rust)] if b.rust else []
            extra += [_("leaflet {leaflet}").format(leaflet=b.leaflet)] if b.leaflet else []
            extra += ["DESTROYED"] if b.destroyed else []
            sink.want(" ".join([name] + extra), c, "plain", key=b.id, radius=r + 2 * pip + 6)
    return whole


def bot_at(state: GameState, x: float, y: float, slack: float = 0.5) -> Bot | None:
    """The bot on the table whose base holds the point (cm), nearest first."""
    best, best_d = None, math.inf
    for b in state.live_bots():
        d = math.hypot(b.x - x, b.y - y)
        if d <= b.radius + slack and d < best_d:
            best, best_d = b, d
    return best
