"""The static arena layer: floors shaded by height, cliff edges, slopes with their
direction, walls, doors, lifts, pits, belts, service points, teleporters, goals,
a cm grid. Drawn once per camera and cached (`ArenaLayer`); belt arrows move
and are drawn every frame (`draw_belt_arrows`).

Floors, slopes and cliffs are drawn from the compiled arena the rules use
(`geometry.compiled`): each floor over the region where it is the floor that counts
(later floors cut out, `ArenaIndex.floors`), and the cliff edges are the rules' own
pieces (`geometry.cliffs.cliff_lines`, drawn where their jump is more than a step, D16:
`cliff_runs`), so the table never shows a cliff the rules do not have, nor hides one
they do.
"""
from __future__ import annotations

import math
import time
import zlib
from collections.abc import Iterator
from functools import lru_cache

import numpy as np
import pygame
import shapely
from shapely.geometry import LineString, Polygon
from shapely.geometry.base import BaseGeometry

from bottisota.core.arena import FLOOR_TYPES, SLOPED_TYPES, Arena, Feature
from bottisota.core.compass import headings
from bottisota.core.house_rules import HouseRules
from bottisota.core.i18n import _, number
from bottisota.geometry.arena_index import ArenaIndex
from bottisota.geometry.build_cache import GEOMETRY_CODE, cached_build
from bottisota.geometry.cliffs import Segment, cliff_runs
from bottisota.geometry.compiled import compile_arena
from bottisota.view import camera as _camera_module
from bottisota.view import shapes as _shapes_module
from bottisota.view import style
from bottisota.view.camera import Camera
from bottisota.view.shapes import arrow, chevron, facing_vector, fill_geom, lines_of, outline_geom

SLOPE_BANDS = 8          # a slope is shaded in this many bands of height
BELT_ARROW_SPACING = 4.0  # cm between belt chevrons
GRID_LABEL_EVERY = 10     # cm between labelled (bold) grid lines
LAYER_MARGIN_PX = 40      # px around the table kept in the layer (grid labels)
LAYER_BUDGET_MS = 5.0     # a new layer is drawn this long per frame
GRID_LINES_PER_STEP = 12  # grid lines drawn per step of a layer drawn over several frames


def _line_width(cam: Camera, cm: float, least: int = 1) -> int:
    return max(least, round(cam.length(cm)))


def _blend(a: style.Colour, b: style.Colour, t: float) -> style.Colour:
    c = [round(x + (y - x) * t) for x, y in zip(a, b, strict=True)]
    return (c[0], c[1], c[2])


def _slope_extent(f: Feature) -> tuple[tuple[float, float], float, float]:
    """Direction of rise (unit, cm) and the shape's extent along it (min, max)."""
    d = facing_vector(f.up or 0.0)
    proj = [x * d[0] + y * d[1] for x, y in f.shape.exterior.coords]
    return d, min(proj), max(proj)


def _band(f: Feature, d: tuple[float, float], s0: float, s1: float,
          shape: BaseGeometry) -> BaseGeometry:
    """The part of `shape` (a sloped feature's region) between two distances along
    the feature's rise."""
    minx, miny, maxx, maxy = f.shape.bounds
    big = 4.0 * (abs(minx) + abs(miny) + abs(maxx) + abs(maxy)) + 10.0
    px, py = -d[1], d[0]
    strip = Polygon([(d[0] * s0 + px * big, d[1] * s0 + py * big),
                     (d[0] * s1 + px * big, d[1] * s1 + py * big),
                     (d[0] * s1 - px * big, d[1] * s1 - py * big),
                     (d[0] * s0 - px * big, d[1] * s0 - py * big)])
    return shape.intersection(strip)


def slope_z(f: Feature, t: float) -> float:
    """Height of a slope a fraction t of the way up (for shading and labels)."""
    lo = f.from_z or 0.0
    hi = f.to_z if f.to_z is not None else lo
    return lo + (hi - lo) * t


def _draw_slope(surface: pygame.Surface, cam: Camera, f: Feature, texts: bool = True,
                region: BaseGeometry | None = None) -> None:
    shape = f.shape if region is None else region
    d, s_min, s_max = _slope_extent(f)
    base = style.FEATURE_FILL[f.type]
    span = max(s_max - s_min, 1e-9)
    for i in range(SLOPE_BANDS):
        s0 = s_min + span * i / SLOPE_BANDS
        s1 = s_min + span * (i + 1) / SLOPE_BANDS
        t = (i + 0.5) / SLOPE_BANDS
        shade = _blend(base, (235, 235, 245), 0.45 * t)
        fill_geom(surface, cam, _band(f, d, s0, s1, shape), shade)
        if f.type != "ramp" and i > 0:          # stairs and escalators show their steps
            far = 1e4
            across = LineString([(d[0] * s0 - d[1] * far, d[1] * s0 + d[0] * far),
                                 (d[0] * s0 + d[1] * far, d[1] * s0 - d[0] * far)])
            for line in lines_of(shape.intersection(across)):
                pygame.draw.lines(surface, style.OUTLINE, False,
                                  [cam.to_px(*c) for c in line.coords], 1)
    outline_geom(surface, cam, shape, style.OUTLINE, 1)
    c = f.shape.centroid
    length = max(1.5, min(span * 0.6, 6.0))
    arrow(surface, cam, c.x, c.y, f.up or 0.0, length, style.ARROW, 2)
    if not texts:
        return
    size = max(12, round(cam.length(1.6)))
    low = style.label(f"{(f.from_z or 0):g}", size, style.TEXT)
    high = style.label(f"{(f.to_z or 0):g}", size, style.TEXT)
    off = span / 2.0 - 0.6
    for lab, sgn in ((low, -1), (high, 1)):
        px, py = cam.to_px(c.x + sgn * d[0] * off, c.y + sgn * d[1] * off)
        surface.blit(lab, lab.get_rect(center=(px, py)))


def compiled_for_drawing(arena: Arena, rules: HouseRules | None = None) -> ArenaIndex:
    """The compiled arena the rules use for `arena` under `rules` (the bundled house
    rules when none are given, as `bottisota render` draws an arena alone)."""
    if rules is None:
        from bottisota.formats.loading import bundled_rules

        rules = bundled_rules()
    return compile_arena(arena, rules)


def cliff_segments(index: ArenaIndex) -> list[Segment]:
    """The cliff edges to draw: the rules' own cliff pieces (`cliff_lines`), each where
    its jump is more than a step (`cliff_runs`)."""
    return cliff_runs(index, index.rules.step_height)


def floor_regions(index: ArenaIndex) -> dict[int, BaseGeometry]:
    """Each floor feature's region where it is the floor that counts (later floors cut
    out), by feature index; a floor wholly covered has none (nothing of it is drawn)."""
    return {s.feature.index: s.region for s in index.floors}


def _draw_feature(surface: pygame.Surface, cam: Camera, f: Feature, texts: bool = True,
                  region: BaseGeometry | None = None) -> None:
    """One feature, as it looks with nobody on it (doors closed); `texts=False` leaves
    out its words (the table view places them with the labels: `arena_texts`). A floor
    is filled over `region`, where it is the floor the rules use (default: its shape)."""
    kind = f.type
    fill = style.FEATURE_FILL[kind]
    c = f.shape.centroid
    text_size = max(12, round(cam.length(1.8)))
    if kind == "platform":
        fill_geom(surface, cam, f.shape if region is None else region,
                  style.floor_shade(f.height or 0.0))
        if not texts:
            return
        lab = style.label(_("{v} cm").format(v=number(f.height or 0)), text_size, style.TEXT_DIM)
        minx, miny, maxx, maxy = f.shape.bounds
        px, py = cam.to_px(minx + 0.4, maxy - 0.4)
        surface.blit(lab, (px, py))
    elif kind in SLOPED_TYPES:
        _draw_slope(surface, cam, f, texts, region)
    elif kind == "wall":
        fill_geom(surface, cam, f.shape, fill)
        outline_geom(surface, cam, f.shape, style.WALL_EDGE, 2)
    elif kind == "door":
        fill_geom(surface, cam, f.shape, fill)
        outline_geom(surface, cam, f.shape, style.OUTLINE, 2)
        _door_leaf_line(surface, cam, f, style.OUTLINE)
    elif kind == "pit":
        fill_geom(surface, cam, f.shape, fill)
        outline_geom(surface, cam, f.shape, style.PIT_RIM, _line_width(cam, 0.3, 2))
    elif kind == "conveyor":
        fill_geom(surface, cam, f.shape, fill)
        outline_geom(surface, cam, f.shape, (150, 150, 165), 1)
    elif kind == "service":
        fill_geom(surface, cam, f.shape, fill)
        r = math.sqrt(f.shape.area / math.pi) * 0.6
        w = _line_width(cam, r * 0.35, 2)
        pygame.draw.line(
            surface, (255, 255, 255), cam.to_px(c.x - r, c.y), cam.to_px(c.x + r, c.y), w
        )
        pygame.draw.line(
            surface, (255, 255, 255), cam.to_px(c.x, c.y - r), cam.to_px(c.x, c.y + r), w
        )
    elif kind == "teleporter":
        fill_geom(surface, cam, f.shape, fill)
        r_px = cam.length(math.sqrt(f.shape.area / math.pi))
        pygame.draw.circle(surface, (20, 0, 40), cam.to_px(c.x, c.y), max(2.0, r_px * 0.45))
        outline_geom(surface, cam, f.shape, (235, 200, 255), 2)
        if f.id and texts:
            lab = style.label(f.id, max(12, text_size - 4), (235, 200, 255))
            px, py = cam.to_px(c.x, c.y)
            surface.blit(lab, lab.get_rect(midtop=(px, py + r_px + 2)))
    elif kind == "lift":
        fill_geom(surface, cam, f.shape, fill)
        outline_geom(surface, cam, f.shape, (210, 250, 255), 2)
        minx, miny, maxx, maxy = f.shape.bounds
        pygame.draw.line(surface, style.OUTLINE, cam.to_px(minx, miny), cam.to_px(maxx, maxy), 1)
        pygame.draw.line(surface, style.OUTLINE, cam.to_px(minx, maxy), cam.to_px(maxx, miny), 1)
        if texts:
            lab = style.label(f"L{(f.top or 0):g}", text_size, style.OUTLINE)
            surface.blit(lab, lab.get_rect(center=cam.to_px(c.x, c.y)))
    elif kind == "goal":
        draw_goal_marker(surface, cam, c.x, c.y, math.sqrt(f.shape.area / math.pi),
                         f.points if f.points is not None else 1)
    else:  # an optional type added later: visible, never silently dropped
        fill_geom(surface, cam, f.shape, (255, 0, 255))


def _door_leaf_line(surface: pygame.Surface, cam: Camera, f: Feature,
                    colour: style.Colour) -> None:
    """A line along the door's long axis: the closed leaf."""
    rect = f.shape.minimum_rotated_rectangle
    coords = list(rect.exterior.coords)[:4]
    if len(coords) < 4:
        return
    e0 = math.dist(coords[0], coords[1])
    e1 = math.dist(coords[1], coords[2])
    if e0 >= e1:
        a = ((coords[0][0] + coords[3][0]) / 2, (coords[0][1] + coords[3][1]) / 2)
        b = ((coords[1][0] + coords[2][0]) / 2, (coords[1][1] + coords[2][1]) / 2)
    else:
        a = ((coords[0][0] + coords[1][0]) / 2, (coords[0][1] + coords[1][1]) / 2)
        b = ((coords[2][0] + coords[3][0]) / 2, (coords[2][1] + coords[3][1]) / 2)
    pygame.draw.line(surface, colour, cam.to_px(*a), cam.to_px(*b), 2)


def draw_open_door(surface: pygame.Surface, cam: Camera, f: Feature) -> None:
    """A door drawn open (R47: someone touches it): dark, leaf gone."""
    fill_geom(surface, cam, f.shape, style.DOOR_OPEN)
    outline_geom(surface, cam, f.shape, style.FEATURE_FILL["door"], 2)


def draw_goal_marker(surface: pygame.Surface, cam: Camera, x: float, y: float, r: float,
                     points: int, least_text: int = 0) -> bool:
    """A goal marker (D23): yellow disc with its points, unless they would be written
    smaller than `least_text` (then False: the caller places them as a label)."""
    centre = cam.to_px(x, y)
    r_px = max(3.0, cam.length(r))
    pygame.draw.circle(surface, style.FEATURE_FILL["goal"], centre, r_px)
    pygame.draw.circle(surface, style.OUTLINE, centre, r_px, 2)
    size = max(12, round(r_px * 1.2))
    if size < least_text:
        return False
    lab = style.label(str(points), size, style.OUTLINE)
    surface.blit(lab, lab.get_rect(center=centre))
    return True


_DRAW_ORDER = {"platform": 0, "stairs": 0, "ramp": 0, "escalator": 0,   # floors: arena order
               "conveyor": 1, "service": 2, "teleporter": 2, "lift": 2, "pit": 3,
               "goal": 4, "door": 5, "wall": 6}


def draw_grid(surface: pygame.Surface, cam: Camera) -> None:
    """A cm grid over the table (1 cm or 5 cm fine lines; bold every 10 cm)."""
    for _step in grid_steps(surface, cam):
        pass


def grid_steps(surface: pygame.Surface, cam: Camera,
               scratch: dict | None = None, least_text: int = 0) -> Iterator[None]:
    """The grid drawn in steps (the translucent lines on a layer just the table's
    visible size, then the labels). With a `scratch` dict, the translucent layer is
    part of one kept as big as `surface` (made the first time, for the next drawing;
    cleared in strips, a step each: no big surface made in a later frame)."""
    tw, th = cam.table
    fine = 1 if cam.scale >= 6 else 5
    area = pygame.Rect(cam.table_rect()).inflate(2, 2).clip(surface.get_rect())
    if area.w <= 0 or area.h <= 0:
        return
    whole = scratch.get(surface.get_size()) if scratch is not None else None
    if whole is None:
        overlay = pygame.Surface(area.size, pygame.SRCALPHA)
        if scratch is not None:          # as big as the layer: any zoom's grid fits in it
            scratch.clear()
            scratch[surface.get_size()] = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
    else:
        overlay = whole.subsurface(pygame.Rect((0, 0), area.size))
        rows = max(1, area.h // 8)
        for y in range(0, area.h, rows):
            overlay.fill((0, 0, 0, 0), pygame.Rect(0, y, area.w, rows))
            yield
    local = cam.moved((cam.origin[0] - area.x, cam.origin[1] - area.y))
    yield
    for n, i in enumerate(range(0, int(math.floor(tw)) + 1, fine)):
        bold = i % GRID_LABEL_EVERY == 0
        colour = (*style.GRID_BOLD, 150) if bold else (*style.GRID_FINE, 90)
        pygame.draw.line(overlay, colour, local.to_px(i, 0), local.to_px(i, th), 1)
        if n % GRID_LINES_PER_STEP == GRID_LINES_PER_STEP - 1:
            yield
    yield
    for n, j in enumerate(range(0, int(math.floor(th)) + 1, fine)):
        bold = j % GRID_LABEL_EVERY == 0
        colour = (*style.GRID_BOLD, 150) if bold else (*style.GRID_FINE, 90)
        pygame.draw.line(overlay, colour, local.to_px(0, j), local.to_px(tw, j), 1)
        if n % GRID_LINES_PER_STEP == GRID_LINES_PER_STEP - 1:
            yield
    yield
    strip = max(1, area.h // 6)
    for y in range(0, area.h, strip):
        surface.blit(overlay, (area.x, area.y + y), pygame.Rect(0, y, area.w, strip))
        yield
    size = max(14, round(cam.scale * 1.3), least_text)
    for i in range(0, int(math.floor(tw)) + 1, GRID_LABEL_EVERY):
        lab = style.label(str(i), size, style.TEXT_DIM)
        px, py = cam.to_px(i, 0)
        surface.blit(lab, lab.get_rect(midtop=(px, py + 3)))
    for j in range(GRID_LABEL_EVERY, int(math.floor(th)) + 1, GRID_LABEL_EVERY):
        lab = style.label(str(j), size, style.TEXT_DIM)
        px, py = cam.to_px(0, j)
        surface.blit(lab, lab.get_rect(midright=(px - 4, py)))


def draw_arena(surface: pygame.Surface, cam: Camera, arena: Arena, grid: bool = True,
               goals: bool = True, rules: HouseRules | None = None) -> None:
    """Draw the arena as it stands with nobody on it (no caching), its floors and
    cliffs as the rules see them under `rules` (default: the bundled house rules)."""
    for _step in arena_steps(surface, cam, arena, grid, goals, rules=rules):
        pass


def arena_steps(surface: pygame.Surface, cam: Camera, arena: Arena, grid: bool = True,
                goals: bool = True, texts: bool = True,
                scratch: dict | None = None, least_text: int = 0,
                rules: HouseRules | None = None) -> Iterator[None]:
    """`draw_arena` in small steps (one feature, a part of the grid, ...): a layer can
    be re-drawn over several frames while the old one is still shown."""
    pygame.draw.rect(surface, style.FLOOR, cam.table_rect())
    yield
    index = compiled_for_drawing(arena, rules)
    regions = floor_regions(index)
    ordered = sorted(arena.features, key=lambda f: (_DRAW_ORDER.get(f.type, 7), f.index))
    for f in ordered:
        if f.type == "goal" and not goals:
            continue
        if f.type in ("door", "wall", "goal"):
            continue
        if f.type in FLOOR_TYPES:
            if f.index not in regions:
                continue                # wholly under later floors: not a floor anywhere
            _draw_feature(surface, cam, f, texts, regions[f.index])
        else:
            _draw_feature(surface, cam, f, texts)
        yield
    if grid:
        yield from grid_steps(surface, cam, scratch, least_text)
    width = _line_width(cam, 0.25, 2)
    for a, b in cliff_segments(index):
        pygame.draw.line(surface, style.CLIFF_EDGE, cam.to_px(*a), cam.to_px(*b), width)
    yield
    for f in ordered:
        if f.type in ("door", "wall") or (f.type == "goal" and goals):
            _draw_feature(surface, cam, f)
            yield
    pygame.draw.rect(surface, style.TEXT_DIM, cam.table_rect(), 2)


# the modules that draw the layer (colours, shapes, the camera's mapping)
LAYER_CODE = (__file__, style.__file__, _camera_module.__file__, _shapes_module.__file__,
              *GEOMETRY_CODE)


@lru_cache(maxsize=256)
def _belt_line(f: Feature) -> LineString | None:
    """A belt's centre line, built once per feature."""
    if len(f.path) < 2:
        return None
    line = LineString(f.path)
    return line if line.length > 0 else None


def belt_marks(f: Feature, phase: float) -> list[tuple[float, float, float]]:
    """Chevron spots (x, y, facing) along a belt, moved on by `phase` (0..1) of a spacing."""
    line = _belt_line(f)
    if line is None:
        return []
    start = BELT_ARROW_SPACING * (0.5 + (phase % 1.0))
    d = np.arange(start, line.length, BELT_ARROW_SPACING)
    if d.size == 0:
        return []
    at = shapely.get_coordinates(shapely.line_interpolate_point(line, d))
    ahead = shapely.get_coordinates(
        shapely.line_interpolate_point(line, np.minimum(line.length, d + 0.05))
    )
    behind = shapely.get_coordinates(
        shapely.line_interpolate_point(line, np.maximum(0.0, d - 0.05))
    )
    facing = headings(ahead[:, 0] - behind[:, 0], ahead[:, 1] - behind[:, 1])
    return [(float(x), float(y), float(h)) for (x, y), h in zip(at, facing, strict=True)]


def draw_belt_arrows(surface: pygame.Surface, cam: Camera, arena: Arena, phase: float = 0.0,
                     marks: dict[int, list] | None = None) -> None:
    """Belt travel chevrons (R44) and escalator direction; `phase` animates them."""
    if marks is None:
        marks = _marks_at(arena, phase)
    for f in arena.by_type("conveyor"):
        spots = marks.get(f.index, [])
        size = min(f.width or 2.0, 3.0) * 0.8
        for x, y, facing in spots:
            chevron(surface, cam, x, y, facing, size, style.ARROW, 2)


_last_marks: list = [None, None]      # (arena id, phase) and its marks: both windows share


def _marks_at(arena: Arena, phase: float) -> dict[int, list]:
    """Every belt's chevron spots at a phase (worked out once per frame and arena)."""
    key = (id(arena), phase)
    if _last_marks[0] != key:
        _last_marks[0] = key
        _last_marks[1] = {f.index: belt_marks(f, phase) for f in arena.by_type("conveyor")}
    return _last_marks[1]


class ArenaLayer:
    """The arena drawn once per scale over the part of the table near the window, and
    moved (not redrawn) while the view pans; `surface(cam, size)` gives the layer and
    where to blit it. When the view needs a new drawing (a settled zoom, a pan past
    the drawn part) the new layer is drawn a few milliseconds per frame while the old
    one is shown moved and scaled; only the very first drawing is made at once."""

    def __init__(self, arena: Arena, grid: bool = True, goals: bool = False,
                 rules: HouseRules | None = None) -> None:
        self.arena = arena
        self.rules = rules               # the game's house rules (their step height)
        self.grid = grid
        self.goals = goals
        self.least_text = 0              # no text smaller (the projector's reading size)
        self._surface: pygame.Surface | None = None
        self._scale = 0.0
        self._corner = (0.0, 0.0)        # table cm at the layer's pixel (0, 0)
        self._next: tuple | None = None  # (surface, scale, corner, steps, key) being drawn
        self._zoomed: pygame.Surface | None = None   # reused for the scaled layer of a zoom
        self._window: tuple[int, int] | None = None  # the window's size at the first drawing
        self._spare: pygame.Surface | None = None    # the layer before, reused for the next
        self._scratch: dict = {}         # the grid's translucent layer, reused by size
        self.rebuilds = 0
        self.serial = 0                  # a new number for every new picture given out

    def _covers(self, cam: Camera, size: tuple[int, int], layer: tuple | None = None) -> bool:
        """Whether a layer (the shown one, or `layer` = (surface, scale, corner)) holds
        everything of the table this camera shows."""
        surface, scale, corner = layer or (self._surface, self._scale, self._corner)
        if surface is None or abs(cam.scale - scale) > 1e-9:
            return False
        left, top = cam.to_px(*corner)
        w, h = surface.get_size()
        table = pygame.Rect(cam.table_rect()).inflate(2 * LAYER_MARGIN_PX, 2 * LAYER_MARGIN_PX)
        need = table.clip(pygame.Rect(0, 0, *size))
        return (left - 0.5 <= need.left and top - 0.5 <= need.top
                and need.right <= left + w + 0.5 and need.bottom <= top + h + 0.5)

    def _start(self, cam: Camera, size: tuple[int, int]) -> None:
        ww, wh = size
        region = pygame.Rect(0, 0, ww, wh).inflate(ww // 4, wh // 4)   # one size: reused
        surface = self._spare if (self._spare is not None
                                  and self._spare.get_size() == region.size) else None
        self._spare = None
        if surface is None and self._next is not None and self._next[0].get_size() == region.size:
            surface = self._next[0]          # a drawing begun for a view gone by: its surface
        if surface is None:
            surface = pygame.Surface(region.size)
        local = cam.moved((cam.origin[0] - region.x, cam.origin[1] - region.y))
        steps = self._steps(surface, local)
        self._next = (surface, cam.scale, cam.to_cm(region.x, region.y), steps,
                      (cam.scale, cam.origin, tuple(size)))

    def _steps(self, surface: pygame.Surface, cam: Camera) -> Iterator[None]:
        whole = surface.get_rect()
        table = pygame.Rect(cam.table_rect()).clip(whole)
        if table.w <= 0 or table.h <= 0:
            surface.fill(style.BACKGROUND)
        else:                           # around the table (arena_steps floors the table)
            for r in (pygame.Rect(0, 0, whole.w, table.y),
                      pygame.Rect(0, table.bottom, whole.w, whole.h - table.bottom),
                      pygame.Rect(0, table.y, table.x, table.h),
                      pygame.Rect(table.right, table.y, whole.w - table.right, table.h)):
                if r.w > 0 and r.h > 0:
                    surface.fill(style.BACKGROUND, r)
        yield
        yield from arena_steps(surface, cam, self.arena, grid=self.grid, goals=self.goals,
                               least_text=self.least_text,
                               texts=False,          # the labels pass places the texts
                               scratch=self._scratch, rules=self.rules)

    def _advance(self, budget_ms: float | None) -> bool:
        """Draw more of the next layer; True once it is finished (and now shown)."""
        assert self._next is not None
        surface, scale, corner, steps, _key = self._next
        end = None if budget_ms is None else time.process_time() + budget_ms / 1000.0
        for _step in steps:
            if end is not None and time.process_time() >= end:
                return False
        if self._surface is not None and self._surface is not surface:
            self._spare = self._surface          # its pixels are reused for the next drawing
        self._surface, self._scale, self._corner = surface, scale, corner
        self._next = None
        self.rebuilds += 1
        self.serial += 1
        return True

    def surface(self, cam: Camera, size: tuple[int, int], settled: bool = True,
                budget_ms: float | None = None) -> tuple[pygame.Surface, tuple[int, int]]:
        """The layer and the window pixel of its top-left corner. While a zoom is in
        progress (not `settled`), or, given a `budget_ms` per call, while a new layer
        is being drawn, the old one is given moved and scaled."""
        if self._surface is not None and self._covers(cam, size):
            if self._next is not None and self._spare is None:
                self._spare = self._next[0]      # a drawing no longer needed: its surface kept
            self._next = None
            left, top = cam.to_px(*self._corner)
            return self._layer, (round(left), round(top))
        if self._surface is None:
            self._first_drawing(cam, size)
            assert self._surface is not None    # (its spares: `make_spare`, after the frame)
            self._window = size
        elif settled:
            if self._next is None or not self._covers(cam, size, self._next[:3]):
                self._start(cam, size)
            if not self._advance(budget_ms):
                return self._scaled(cam, size)
        else:
            return self._scaled(cam, size)
        assert self._surface is not None
        left, top = cam.to_px(*self._corner)
        return self._layer, (round(left), round(top))

    def _first_drawing(self, cam: Camera, size: tuple[int, int]) -> None:
        """The first layer, drawn at once, or its pixels as drawn before for this arena,
        rules, camera, window and surface format by this program (the user's disk cache,
        `geometry.build_cache`: a second start on an arena of 2,000 features does not
        draw them all again)."""
        self._start(cam, size)
        assert self._next is not None
        surface = self._next[0]
        w, h = surface.get_size()
        pixels: list[bytes] = []          # those read, once checked

        def draw() -> bytes:
            self._advance(None)
            return zlib.compress(pygame.image.tobytes(self._layer, "RGB"), 1)

        def fits(found: object) -> bool:
            if not isinstance(found, bytes):
                return False
            try:
                raw = zlib.decompress(found)
            except zlib.error:
                return False
            pixels.append(raw)
            return len(raw) == w * h * 3

        rules = self.rules if self.rules is not None else compiled_for_drawing(
            self.arena).rules
        params = (repr(cam), tuple(size), self.grid, self.goals, self.least_text,
                  surface.get_bitsize(), surface.get_masks(), surface.get_flags(),
                  pygame.version.ver, str(pygame.version.SDL))
        cached_build("arena-layer", self.arena, rules, params, LAYER_CODE, draw, fits)
        if self._next is None:            # drawn, not read
            return
        surface.blit(pygame.image.frombytes(pixels[-1], (w, h), "RGB"), (0, 0))
        self._surface, self._scale, self._corner = surface, self._next[1], self._next[2]
        self._next = None
        self.rebuilds += 1
        self.serial += 1

    def make_spare(self) -> bool:
        """Make one surface later frames reuse, if missing: the next drawing's, then the
        window-sized one a zoom scales into; True if one was made. (A window's first
        frame leaves them to later ones: a new surface costs milliseconds, its pixels
        zeroed; none is made while panning or zooming.)"""
        if self._surface is None:
            return False
        if self._spare is None:
            self._spare = pygame.Surface(self._surface.get_size())
            return True
        if self._zoomed is None and self._window is not None:
            self._zoomed = pygame.Surface(self._window)
            return True
        return False

    @property
    def drawn_size(self) -> tuple[int, int] | None:
        """The size of the layer shown (None before the first drawing)."""
        return None if self._surface is None else self._surface.get_size()

    @property
    def _layer(self) -> pygame.Surface:
        """The layer shown (there is one once `surface` has drawn it)."""
        assert self._surface is not None
        return self._surface

    def _scaled(self, cam: Camera, size: tuple[int, int]) -> tuple[pygame.Surface, tuple[int, int]]:
        """The visible part of the cached layer, scaled to the camera's zoom (cheap)."""
        assert self._surface is not None
        f = cam.scale / self._scale
        left, top = cam.to_px(*self._corner)       # where the old layer's corner lands now
        w, h = self._layer.get_size()
        if abs(f - 1.0) < 1e-9:
            return self._layer, (round(left), round(top))
        dest = pygame.Rect(round(left), round(top), round(w * f), round(h * f))
        shown = dest.clip(pygame.Rect(0, 0, *size))
        if shown.w <= 0 or shown.h <= 0:
            return pygame.Surface((1, 1)), (0, 0)
        src = pygame.Rect(math.floor((shown.x - dest.x) / f), math.floor((shown.y - dest.y) / f),
                          max(1, math.ceil(shown.w / f)), max(1, math.ceil(shown.h / f)))
        src = src.clip(self._layer.get_rect())
        if src.w <= 0 or src.h <= 0:
            return pygame.Surface((1, 1)), (0, 0)
        if self._zoomed is None or self._zoomed.get_size() != tuple(size):
            self._zoomed = pygame.Surface(size)     # the window's size: every zoom fits
        zoomed = self._zoomed.subsurface(pygame.Rect((0, 0), shown.size))
        pygame.transform.scale(self._surface.subsurface(src), shown.size, zoomed)
        self.serial += 1
        return zoomed, shown.topleft

    def invalidate(self) -> None:
        self._surface = None
        self._spare = None
        self._next = None
        self.serial += 1
