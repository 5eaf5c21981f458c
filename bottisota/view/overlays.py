"""Painters for what the view model adds over the table: the threat shading, the
results of the last actions (paths, markers, banners, the winner screen) and the
turn strip at the table's edge."""
from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import pygame

from bottisota.core.i18n import _
from bottisota.view import style
from bottisota.view.bots_layer import draw_mark
from bottisota.view.camera import Camera
from bottisota.view.label_layer import LabelSink
from bottisota.view.margins import MarginLayout
from bottisota.view.shapes import dashed_line
from bottisota.view.widgets import wrap
from bottisota.viewmodel.labels import FAR_RINGS
from bottisota.viewmodel.results import BANNER, MARK, PATH, Effect

if TYPE_CHECKING:
    from bottisota.viewmodel.threat import ThreatMap

THREAT_ALPHA = 150
THREAT_COLOUR = (255, 32, 96)
PATCH_CELLS = 200     # a new map's first cells are shaded one by one up to this many
FADE_FROM = 0.6       # a result card turns dim after this share of its life (older first)
PATCH_PX = 200_000    # pixels of new cells shaded into the layer a frame (about 1.5 ms)


class ThreatLayer:
    """The threat map painted at the table's pixel size, cell by cell as the map fills
    (only the new cells are painted each frame); painted afresh only for a new map or
    another zoom."""

    def __init__(self) -> None:
        self._surface: pygame.Surface | None = None
        self._map: ThreatMap | None = None         # the map painted (held, not its id)
        self._size: tuple[int, int] = (0, 0)
        self._painted = 0
        self._expected: tuple[int, int] | None = None   # the shading's size in this view
        self._spare: pygame.Surface | None = None       # made ahead at that size, transparent

    def draw(self, surface: pygame.Surface, cam: Camera, tm: ThreatMap, fine_cm: float) -> None:
        """The whole shading over `surface`."""
        synced = self.sync(surface, cam, tm)
        if synced is not None and self._surface is not None:
            surface.blit(self._surface, synced[1])

    def sync(self, surface: pygame.Surface, cam: Camera, tm: ThreatMap,
             limit_px: int | None = None) -> tuple[list[pygame.Rect], tuple[int, int]] | None:
        """Paint the cells not yet painted (in order, at least one, until `limit_px`
        pixels are painted: the rest the next time); returns their rectangles on the
        shading and where the shading's corner lands on `surface` (None: zoomed too far
        in to shade)."""
        tw, th = cam.table
        w, h = round(tw * cam.scale), round(th * cam.scale_y)
        if w * h > 4 * surface.get_width() * surface.get_height():   # zoomed far in: skip
            return None
        if self._map is not tm or self._size != (w, h):
            size = (max(1, w), max(1, h))
            if self._surface is not None and self._surface.get_size() == size:
                self._surface.fill((0, 0, 0, 0))     # a new map at the same size: reused
            elif self._spare is not None and self._spare.get_size() == size:
                self._surface, self._spare = self._spare, None   # made ahead: transparent
            else:
                self._surface = pygame.Surface((max(1, w), max(1, h)), pygame.SRCALPHA)
                self._surface.fill((0, 0, 0, 0))
            self._map, self._size = tm, (w, h)
            self._painted = 0
        assert self._surface is not None
        rects: list[pygame.Rect] = []
        area = 0
        for c in tm.cells[self._painted:]:          # coarse first, then the fine ones over
            if limit_px is not None and area >= limit_px:
                break
            rects.append(_paint_cell(self._surface, c, tm.most, cam.scale, cam.scale_y, th))
            area += rects[-1].w * rects[-1].h
        self._painted += len(rects)
        left, bottom = cam.to_px(0, 0)
        return rects, (round(left), round(bottom - h))

    def expect(self, surface: pygame.Surface, cam: Camera) -> None:
        """The view settled on `cam` over a layer like `surface`: the size a shading
        would have in it (`make_spare` makes one ahead)."""
        tw, th = cam.table
        w, h = round(tw * cam.scale), round(th * cam.scale_y)
        fits = w * h <= 4 * surface.get_width() * surface.get_height()
        self._expected = (max(1, w), max(1, h)) if fits else None

    def make_spare(self) -> bool:
        """Make the shading's surface for the view expected, if missing (a new surface
        this size costs about 10 ms, its pixels zeroed: not in the frame that switches
        the threat view on); True if one was made."""
        size = self._expected
        if size is None or (self._surface is not None and self._surface.get_size() == size):
            return False
        if self._spare is not None and self._spare.get_size() == size:
            return False
        self._spare = pygame.Surface(size, pygame.SRCALPHA)
        return True

    def bake(self, base: pygame.Surface, clean: pygame.Surface, cam: Camera,
             tm: ThreatMap) -> None:
        """`base` holds a copy of `clean`: shade it. A map with few cells painted so far
        (just switched on, or new after a change) has only those cells' pixels shaded
        (no blit of the whole table's shading); the same pixels either way."""
        fresh = self._map is not tm
        synced = self.sync(base, cam, tm)
        if synced is None or self._surface is None:
            return
        rects, at = synced
        if fresh and len(rects) <= PATCH_CELLS:
            self._patch_rects(base, clean, rects, at)   # cells overlap: each from `clean`
        else:
            base.blit(self._surface, at)

    def patch(self, base: pygame.Surface, clean: pygame.Surface, cam: Camera,
              tm: ThreatMap) -> None:
        """`base` shows `clean` with the shading: bring it up to date with the new cells
        only (each new cell's pixels taken afresh from `clean`, then shaded), at most
        PATCH_PX a frame (a batch of large cells is spread over the next frames)."""
        synced = self.sync(base, cam, tm, PATCH_PX)
        if synced is None or self._surface is None:
            return
        self._patch_rects(base, clean, *synced)

    def _patch_rects(self, base: pygame.Surface, clean: pygame.Surface,
                     rects: list[pygame.Rect], corner: tuple[int, int]) -> None:
        assert self._surface is not None
        for r in rects:
            at = r.move(corner)
            base.blit(clean, at, at)
            base.blit(self._surface, at, r)

    @property
    def painted(self) -> int:
        return self._painted


def _paint_cell(s: pygame.Surface, c: Any, most: int, scale: float, scale_y: float,
                th: float) -> pygame.Rect:
    alpha = round(THREAT_ALPHA * min(1.0, c.weapons / most)) if c.weapons else 0
    x0, x1 = (c.x - c.size / 2) * scale, (c.x + c.size / 2) * scale
    y0, y1 = (th - c.y - c.size / 2) * scale_y, (th - c.y + c.size / 2) * scale_y
    rect = pygame.Rect(round(x0), round(y0), round(x1) - round(x0), round(y1) - round(y0))
    s.fill((*THREAT_COLOUR, alpha), rect)
    if c.watchers:
        pygame.draw.rect(s, (255, 255, 255, 200), rect.inflate(-2, -2), 1)
    return rect


def threat_legend_lines(tm: ThreatMap, hover: str | None) -> list[str]:
    """What the shading means, and the count under the pointer."""
    lines = [_("threat to {viewer}: darker red = more enemy weapons can fire here "
               "(of {most})").format(viewer=tm.viewer, most=tm.most),
             _("white outline: an overwatcher covers the spot")]
    if not tm.done:
        lines.append(_("working it out: a coarse first look") if not tm.coarse_done
                     else _("working it out: refining"))
    if hover:
        lines.append(hover)
    return lines


def text_box_height(lines: list[str], size: int, width: int) -> int:
    """How tall `text_box` draws these lines at this width."""
    font = style.font(size)
    return len([r for t in lines for r in wrap(t, font, width - 16)]) * font.get_linesize() + 12


def text_box(surface: pygame.Surface, lines: list[str], at: tuple[int, int], size: int,
             tone: str, width: int | None = None) -> pygame.Rect:
    colour = style.tone(tone)
    font = style.font(size)
    width = width or max(font.size(t)[0] for t in lines) + 16
    rows = [r for t in lines for r in wrap(t, font, width - 16)]
    h = len(rows) * font.get_linesize() + 12
    rect = pygame.Rect(at[0], at[1], width, h)
    pygame.draw.rect(surface, style.LABEL_BACK, rect)
    pygame.draw.rect(surface, colour, rect, 2)
    y = rect.y + 6
    for r in rows:
        surface.blit(style.label(r, size, colour), (rect.x + 8, y))
        y += font.get_linesize()
    return rect


def short_card(text: str, bot: str | None) -> str:
    """A result card in one line, for a table too crowded for the full card: the bot and
    what came of it ("s1: −2 structure", "s1 DESTROYED"); the dice stay in the log."""
    lines = text.split("\n")
    if len(lines) == 1 or not bot:
        return text
    last = lines[-1]
    return last if last.startswith(bot) else f"{bot}: {last}"


def draw_effects(surface: pygame.Surface, cam: Camera, effects: list[Effect], area: pygame.Rect,
                 sink: LabelSink, banner_size: int) -> list[pygame.Rect]:
    """Paths drawn along, result cards (through the label pass, before every other
    label, the newest first; a bot with a card has no name label besides), banners
    over the table; returns the banners' boxes (the label pass places no label over them)."""
    banners = []
    carded: set[str] = set()
    shorter: list[tuple[str, tuple[float, float], str, str, float]] = []
    for e in reversed(effects):       # the newest cards are placed first: the older give way
        if e.kind == MARK and e.at is not None:
            tone = "dim" if e.age >= e.duration * FADE_FROM else e.tone
            radius = sink.radii.get(e.bot or "", cam.length(2.0))
            key = f"fx:{id(e)}"
            sink.want(e.text, cam.to_px(*e.at), tone, key=key, radius=radius, first=True)
            short = short_card(e.text, e.bot)
            if short != e.text:
                shorter.append((short, cam.to_px(*e.at), tone, key, radius))
            if e.bot and e.bot not in carded:
                carded.add(e.bot)
                sink.instead(e.bot, key)     # the newest card names the bot
    for short, at, tone, key, radius in shorter:     # where a full card finds no room
        sink.want(short, at, tone, key=key, radius=radius, first=True, unless=key,
                  reach=FAR_RINGS)
    for e in effects:
        if e.kind == PATH and len(e.points) >= 2:
            pts = [cam.to_px(*p) for p in e.points]
            upto = max(2, math.ceil(len(pts) * e.progress))
            for a, b in zip(pts[:upto - 1], pts[1:upto], strict=False):
                dashed_line(surface, style.TEXT, a, b, 12, 3)
            pygame.draw.circle(surface, style.TEXT, pts[upto - 1], 5)
        elif e.kind == BANNER:
            banners.append(e)
    y = area.y + area.h // 6
    font = style.font(banner_size)
    boxes = []
    for e in banners[-3:]:
        width = min(area.w - 40, font.size(e.text)[0] + 24)
        x = area.centerx - width // 2
        rect = text_box(surface, [e.text], (x, y), banner_size, e.tone, width=width)
        boxes.append(rect)
        y = rect.bottom + 8
    return boxes


def draw_winner(surface: pygame.Surface, area: pygame.Rect, effect: Effect, size: int) -> None:
    """The game-over screen over the table (it stays: the game is over)."""
    shade = pygame.Surface(area.size, pygame.SRCALPHA)
    shade.fill((0, 0, 0, 170))
    surface.blit(shade, area.topleft)
    big = size * 2
    lines = wrap(effect.text, style.font(big), area.w - 80)
    y = area.centery - len(lines) * style.font(big).get_linesize() // 2
    for line in lines:
        lab = style.label(line, big, style.tone("good"))
        surface.blit(lab, lab.get_rect(midtop=(area.centerx, y)))
        y += style.font(big).get_linesize()


def column_band(strip: dict, width: int, size: int, colours: dict[str, style.Colour],
                players: list[str]) -> pygame.Surface:
    """The turn strip as a column `width` px wide (for a side margin): the turn's line
    wrapped, then a row per seat (cached)."""
    key = ("column", repr(strip), width, size, tuple(sorted(colours.items())))
    hit = _bands.get(key)
    if hit is not None:
        return hit[0]
    font = style.font(size)
    line = font.get_linesize()
    rows = wrap(strip["line"], font, width - 16)
    seats = [(seat, f"{seat['player']} {seat['score']}" + (" (out)" if seat["out"] else ""))
             for seat in strip["seats"]]
    band = pygame.Surface((width, (len(rows) + len(seats)) * line + 16))
    band.fill(style.LABEL_BACK)
    y = 8
    for row in rows:
        band.blit(style.label(row, size, style.TEXT), (8, y))
        y += line
    r = line // 2 - 3
    for seat, text in seats:
        colour = colours.get(seat["player"], style.TEXT)
        centre = (8 + r, y + line // 2)
        pygame.draw.circle(band, colour, centre, r)
        draw_mark(band, style.seat_mark(players, seat["player"]), centre, r * 0.5,
                  style.contrast_text(colour))
        if seat["now"]:
            pygame.draw.circle(band, style.TEXT, centre, r + 3, 2)
        band.blit(style.label(text, size, style.TEXT if not seat["played"] else style.TEXT_DIM),
                  (16 + 2 * r, y))
        y += line
    if len(_bands) > 16:
        _bands.clear()
    _bands[key] = (band, band)
    return band


def draw_turn_strip(surface: pygame.Surface, lay: MarginLayout, strip: dict, size: int,
                    colours: dict[str, style.Colour], players: list[str],
                    column: pygame.Surface | None = None) -> list[pygame.Rect]:
    """Round, whose turn and phase, and the seats, twice: upright for the near side and
    upside down for the far side, where the margin layout `lay` puts them (a side
    margin's strips show `column`, from `column_band`)."""
    rects = lay.strips
    if not lay.horizontal and column is not None:
        surface.blit(column, rects[0].topleft, pygame.Rect((0, 0), rects[0].size))
        flipped = pygame.transform.rotate(column, 180)
        surface.blit(flipped, rects[1].topleft,
                     pygame.Rect((0, flipped.get_height() - rects[1].h), rects[1].size))
        return rects
    width = rects[0].w
    key = (repr(strip), width, size, tuple(sorted(colours.items())))
    hit = _bands.get(key)
    if hit is None:
        band = _band(strip, width, rects[0].h, size, colours, players)
        if len(_bands) > 16:
            _bands.clear()
        hit = _bands[key] = (band, pygame.transform.rotate(band, 180))
    surface.blit(hit[0], rects[0].topleft)
    surface.blit(hit[1], rects[1].topleft)
    return rects


_bands: dict[tuple, tuple[pygame.Surface, pygame.Surface]] = {}


def _band(strip: dict, width: int, height: int, size: int, colours: dict[str, style.Colour],
          players: list[str]) -> pygame.Surface:
    font = style.font(size)
    rects = [pygame.Rect(0, 0, width, height)]
    band = pygame.Surface((width, height))
    band.fill(style.LABEL_BACK)
    x = 10
    band.blit(style.label(strip["line"], size, style.TEXT), (x, 5))
    x += font.size(strip["line"])[0] + 30
    for seat in strip["seats"]:
        colour = colours.get(seat["player"], style.TEXT)
        r = rects[0].h // 2 - 4
        pygame.draw.circle(band, colour, (x + r, rects[0].h // 2), r)
        draw_mark(band, style.seat_mark(players, seat["player"]), (x + r, rects[0].h // 2),
                  r * 0.5, style.contrast_text(colour))
        if seat["now"]:
            pygame.draw.circle(band, style.TEXT, (x + r, rects[0].h // 2), r + 3, 2)
        x += 2 * r + 6
        text = f"{seat['player']} {seat['score']}" + (" (out)" if seat["out"] else "")
        band.blit(style.label(text, size, style.TEXT if not seat["played"] else style.TEXT_DIM),
                  (x, 5))
        x += font.size(text)[0] + 24
    return band
