"""An arena as a build plan: a list of plain drawing items (no pygame), which the SVG,
PDF and PNG writers turn into files.

Table items are in cm (y up, the table's corner at 0, 0); their line widths and
text sizes are in millimetres on paper, so a 1:2 print keeps readable labels.
The key (height key, legend) is a second list laid out in paper millimetres.
Drawn: every feature, wall and floor heights labelled and shaded (darker is
higher), respawn spots, teleporter links, belt and escalator speeds and
directions, a 10 cm grid with labels, a scale bar, feature ids on request, and
findings of `bottisota check` at their spots.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from shapely.geometry import LineString, MultiPolygon, Polygon
from shapely.geometry.base import BaseGeometry

from bottisota.core.arena import SLOPED_TYPES, Arena, Feature
from bottisota.core.compass import vector
from bottisota.core.i18n import _, number

RGB = tuple[int, int, int]
WHITE: RGB = (255, 255, 255)
INK: RGB = (20, 20, 24)
GRID: RGB = (200, 204, 212)
GRID_BOLD: RGB = (150, 156, 168)
DOOR: RGB = (176, 110, 40)
PIT: RGB = (40, 40, 44)
PIT_RIM: RGB = (200, 30, 30)
SLOPE: dict[str, RGB] = {"stairs": (150, 170, 210), "ramp": (150, 200, 165),
                         "escalator": (190, 160, 220)}
LIFT: RGB = (120, 200, 215)
BELT: RGB = (170, 170, 180)
SERVICE: RGB = (60, 170, 100)
TELEPORTER: RGB = (150, 70, 210)
GOAL: RGB = (235, 200, 30)
RESPAWN: RGB = (190, 130, 0)
ERROR_MARK: RGB = (220, 0, 60)
WARNING_MARK: RGB = (230, 140, 0)


@dataclass
class Shape:
    """A filled and/or outlined area: rings of points (the first the outside, the rest holes)."""

    rings: list[list[tuple[float, float]]]
    fill: RGB | None = None
    stroke: RGB | None = None
    width: float = 0.3            # mm on paper
    dash: bool = False


@dataclass
class Line:
    points: list[tuple[float, float]]
    stroke: RGB = INK
    width: float = 0.3
    dash: bool = False
    arrow: bool = False           # an arrow head at the last point


@dataclass
class Circle:
    x: float
    y: float
    r: float
    fill: RGB | None = None
    stroke: RGB | None = INK
    width: float = 0.3


@dataclass
class Text:
    x: float
    y: float
    text: str
    size: float = 3.0             # mm on paper (cap height about 0.7 of it)
    colour: RGB = INK
    anchor: str = "middle"        # start | middle | end
    bold: bool = False


Item = Shape | Line | Circle | Text


@dataclass
class Blueprint:
    """The plan of one arena: items in table cm, the key in paper mm."""

    title: str
    size: tuple[float, float]
    items: list[Item] = field(default_factory=list)
    key: list[Item] = field(default_factory=list)
    key_size: tuple[float, float] = (0.0, 0.0)    # mm

def rings_of(geom: BaseGeometry) -> list[list[list[tuple[float, float]]]]:
    """Every polygon of a geometry as its rings."""
    polys = list(geom.geoms) if isinstance(geom, MultiPolygon) else \
        [geom] if isinstance(geom, Polygon) else \
        [g for g in getattr(geom, "geoms", []) if isinstance(g, Polygon)]
    return [[list(p.exterior.coords)[:-1]] + [list(r.coords)[:-1] for r in p.interiors]
            for p in polys if not p.is_empty]


def shade(base: RGB, t: float) -> RGB:
    """`base` darkened toward ink by t (0..1): higher is darker."""
    t = min(1.0, max(0.0, t))
    s = [round(c + (INK[i] + 40 - c) * t * 0.75) for i, c in enumerate(base)]
    return (s[0], s[1], s[2])


def wall_tone(height: float, top: float) -> RGB:
    return shade((215, 215, 220), height / max(top, 1e-9))


def floor_tone(height: float, top: float) -> RGB:
    return shade((228, 236, 250), 0.08 + 0.3 * height / max(top, 1e-9))


def _height(f: Feature) -> float:
    return 10.0 if f.height is None else float(f.height)


def build(arena: Arena, ids: bool = False, findings: Sequence = ()) -> Blueprint:
    """The build plan of an arena (findings: objects with `at`, `level` and `code`)."""
    w, h = arena.size
    bp = Blueprint(arena.name, arena.size)
    add = bp.items.append
    barriers = [f for f in arena.features if f.type in ("wall", "door")]
    floors = [f for f in arena.features if f.type in ("platform",) or f.type in SLOPED_TYPES]
    tallest = max([_height(f) for f in barriers] + [1.0])
    highest = max([f.height or 0.0 for f in floors if f.type == "platform"]
                  + [max(f.from_z or 0, f.to_z or 0) for f in floors if f.type in SLOPED_TYPES]
                  + [1.0])
    add(Shape([[(0, 0), (w, 0), (w, h), (0, h)]], fill=WHITE))
    _grid(bp, w, h)
    for f in arena.features:
        _feature(bp, f, tallest, highest)
    _teleporter_links(bp, arena)
    _place_labels(bp, [group for f in arena.features if (group := _labels(f, ids))])
    add(Shape([[(0, 0), (w, 0), (w, h), (0, h)]], stroke=INK, width=0.6))
    for item in findings:
        if getattr(item, "at", None) is not None:
            x, y = item.at
            colour = ERROR_MARK if item.level == "error" else WARNING_MARK
            add(Circle(x, y, 2.0, None, colour, 0.8))
            add(Text(x + 2.4, y + 1.2, item.code, 3.0, colour, "start", True))
    _key(bp, arena, barriers, tallest, highest)
    return bp


def _grid(bp: Blueprint, w: float, h: float) -> None:
    for x in range(0, int(w) + 1, 5):
        bold = x % 10 == 0
        bp.items.append(Line([(x, 0), (x, h)], GRID_BOLD if bold else GRID, 0.25 if bold else 0.1))
        if bold and 0 < x < w:
            bp.items.append(Text(x + 0.2, 0.3, f"{x}", 2.2, GRID_BOLD, "start"))
    for y in range(0, int(h) + 1, 5):
        bold = y % 10 == 0
        bp.items.append(Line([(0, y), (w, y)], GRID_BOLD if bold else GRID, 0.25 if bold else 0.1))
        if bold and 0 < y < h:
            bp.items.append(Text(0.2, y + 0.2, f"{y}", 2.2, GRID_BOLD, "start"))


def _feature(bp: Blueprint, f: Feature, tallest: float, highest: float) -> None:
    add = bp.items.append
    for rings in rings_of(f.shape):
        if f.type == "wall":
            add(Shape(rings, wall_tone(_height(f), tallest), INK, 0.35))
        elif f.type == "door":
            add(Shape(rings, DOOR, INK, 0.35, dash=True))
        elif f.type == "platform":
            add(Shape(rings, floor_tone(f.height or 0.0, highest), INK, 0.5))
        elif f.type in SLOPED_TYPES:
            add(Shape(rings, SLOPE[f.type], INK, 0.35))
        elif f.type == "lift":
            add(Shape(rings, LIFT, INK, 0.35))
        elif f.type == "pit":
            add(Shape(rings, PIT, PIT_RIM, 0.6))
        elif f.type == "conveyor":
            add(Shape(rings, BELT, INK, 0.25))
        elif f.type == "service":
            add(Shape(rings, SERVICE, INK, 0.3))
        elif f.type == "teleporter":
            add(Shape(rings, TELEPORTER, INK, 0.3))
        elif f.type == "goal":
            add(Shape(rings, GOAL, INK, 0.4))
    if f.type in SLOPED_TYPES:
        _slope_arrows(bp, f)
    elif f.type == "conveyor" and len(f.path) >= 2:
        add(Line([(p[0], p[1]) for p in f.path], INK, 0.4, arrow=True))
        _belt_arrows(bp, f)
    elif f.type == "goal":
        for i, (x, y) in enumerate(f.respawn):
            add(Circle(x, y, 1.2, None, RESPAWN, 0.5))
            add(Line([(x - 1.6, y), (x + 1.6, y)], RESPAWN, 0.4))
            add(Line([(x, y - 1.6), (x, y + 1.6)], RESPAWN, 0.4))
            label = f"{f.id or 'goal'} R{i + 1}" if len(f.respawn) > 1 else f"{f.id or 'goal'} R"
            add(Text(x + 1.8, y + 1.8, label, 2.5, RESPAWN, "start"))


BELT_ARROW_EVERY = 6.0          # cm between the direction marks along a belt


def _belt_arrows(bp: Blueprint, f: Feature) -> None:
    """Direction marks every few cm along the belt's whole length, not one head at its
    end: a chevron across the belt, pointing the way it carries."""
    path = LineString(f.path)
    half = (f.width or 2.0) * 0.35
    count = int(path.length // BELT_ARROW_EVERY)
    for i in range(1, count + 1):
        d = i * path.length / (count + 1)
        at, ahead = path.interpolate(d), path.interpolate(min(path.length, d + 0.01))
        dx, dy = ahead.x - at.x, ahead.y - at.y
        norm = math.hypot(dx, dy) or 1.0
        ux, uy = dx / norm, dy / norm
        back = (at.x - ux * half, at.y - uy * half)
        bp.items.append(Line([(back[0] - uy * half, back[1] + ux * half), (at.x, at.y),
                              (back[0] + uy * half, back[1] - ux * half)], INK, 0.35))


def _slope_arrows(bp: Blueprint, f: Feature) -> None:
    """An arrow up the slope (an escalator's points the way it carries)."""
    ux, uy = vector(f.up or 0.0)
    c = f.shape.centroid
    proj = [(x - c.x) * ux + (y - c.y) * uy for x, y in f.shape.exterior.coords]
    half = 0.35 * (max(proj) - min(proj))
    sign = -1.0 if f.type == "escalator" and f.carries == "down" else 1.0
    a = (c.x - sign * ux * half, c.y - sign * uy * half)
    b = (c.x + sign * ux * half, c.y + sign * uy * half)
    bp.items.append(Line([a, b], INK, 0.5, arrow=True))
    if f.type == "stairs":
        side = f.shape.minimum_rotated_rectangle
        for k in range(1, 6):
            t = min(proj) + (max(proj) - min(proj)) * k / 6
            px, py = c.x + ux * t, c.y + uy * t
            tread = LineString([(px - uy * 100, py + ux * 100), (px + uy * 100, py - ux * 100)])
            cut = tread.intersection(side)
            if not cut.is_empty and isinstance(cut, LineString):
                bp.items.append(Line(list(cut.coords), INK, 0.15))


def _labels(f: Feature, ids: bool) -> LabelGroup | None:
    """A feature's label lines and where they would sit (None when it has none)."""
    p = f.shape.representative_point()
    x, y = p.x, p.y
    lines: list[str] = []
    if f.type == "wall":
        lines.append(f"h {_height(f):g}")
    elif f.type == "door":
        lines.append(_("door h {f}").format(f=number(_height(f))))
    elif f.type == "platform":
        lines.append(f"z {f.height or 0:g}")
    elif f.type in ("stairs", "ramp"):
        lines.append(f"{f.type} {f.from_z or 0:g}-{f.to_z or 0:g}")
    elif f.type == "escalator":
        lines.append(_("escalator {v}-{v2}, {v3} cm {carries}").format(
                         v=number(f.from_z or 0), v2=number(f.to_z or 0), v3=number(f.speed or 0),
                         carries=f.carries))
    elif f.type == "lift":
        lines.append(_("lift to {v}").format(v=number(f.top or 0)))
    elif f.type == "conveyor":
        speed = (_("{speed} cm").format(speed=number(f.speed)) if f.speed is not None
                 else _("house speed"))
        mid = LineString(f.path).interpolate(0.5, normalized=True) if len(f.path) >= 2 else p
        x, y = mid.x, mid.y + (f.width or 2) / 2 + 0.6
        lines.append(_("belt {speed}").format(speed=speed))
    elif f.type == "goal":
        lines.append(_("goal {v}").format(
                         v=f.points if f.points is not None else '').strip() + " pts"
                     if f.points is not None else "goal")
        y = f.shape.bounds[3] + 0.5
    elif f.type == "service":
        lines.append("service")
        y = f.shape.bounds[3] + 0.5
    elif f.type == "teleporter":
        lines.append("teleport")
        y = f.shape.bounds[3] + 0.5
    elif f.type == "pit":
        lines.append("PIT")
    if ids and f.id:
        lines.append(f"#{f.id}" if lines else f.id)
    if not lines:
        return None
    return LabelGroup(lines, x, y, WHITE if f.type == "pit" else INK)


@dataclass
class LabelGroup:
    """A feature's label: its lines (the first bold) at an anchor in table cm."""

    lines: list[str]
    x: float
    y: float
    colour: RGB

    def box(self, dx: float, dy: float) -> tuple[float, float, float, float]:
        """The label's extent at 1:1 with this offset (x0, y0, x1, y1 in table cm)."""
        width = max(len(t) for t in self.lines) * LABEL_SIZE * 0.062
        return (self.x + dx - width / 2, self.y + dy - (len(self.lines) - 1) * LINE_GAP - 0.08,
                self.x + dx + width / 2, self.y + dy + LABEL_SIZE * 0.075)


LABEL_SIZE = 2.6                # mm: a label's first line (the others 2.2)
LINE_GAP = 0.35 * 3.0           # cm between a label's lines
# where a label may sit, in order: on its anchor, then above, below, right, left, further
OFFSETS = ((0.0, 0.0), (0.0, 0.9), (0.0, -0.9), (1.0, 0.0), (-1.0, 0.0), (0.0, 1.8),
           (0.0, -1.8), (1.5, 0.9), (-1.5, 0.9), (1.5, -0.9), (-1.5, -0.9), (0.0, 2.7),
           (0.0, -2.7))


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]
             ) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def _place_labels(bp: Blueprint, groups: list[LabelGroup]) -> None:
    """The labels placed one by one, each at the first offset where it covers no label
    placed before it (at 1:1; the least covered offset when none is free), so "z 6"
    and "h 9" never print over each other."""
    placed: list[tuple[float, float, float, float]] = []
    for g in groups:
        best = min(OFFSETS, key=lambda o: (sum(_overlap(g.box(*o), p) for p in placed) > 0,
                                           sum(_overlap(g.box(*o), p) for p in placed),
                                           OFFSETS.index(o)))
        placed.append(g.box(*best))
        for i, text in enumerate(g.lines):
            bp.items.append(Text(g.x + best[0], g.y + best[1] - i * LINE_GAP, text,
                                 LABEL_SIZE if i == 0 else 2.2, g.colour, "middle", i == 0))




def _teleporter_links(bp: Blueprint, arena: Arena) -> None:
    """Dashed lines between the teleporters (each leads to any other, R53)."""
    tps = arena.by_type("teleporter")
    centres = [(t.shape.centroid.x, t.shape.centroid.y) for t in tps]
    for i, a in enumerate(centres):
        for b in centres[i + 1:]:
            bp.items.append(Line([a, b], TELEPORTER, 0.3, dash=True))


SCALE_LABEL_W = 75.0            # mm: the scale bar's label, at 2.5 mm


def scale_bar(ratio: float, room: float = 180.0) -> tuple[list[Item], float]:
    """A bar of 10 cm of table (20 or 50 where it fits and the print is small) in 1 cm
    steps, in paper mm at print ratio 1:`ratio`, for the margin beside or above the
    plan, never on the table (so a tile or the trim never cuts it): its items and its
    height. `room`: the mm of paper it may take, its label included."""
    k = 10.0 / ratio                     # paper mm per cm of table
    length = 10
    for bigger in (20, 50):              # a small print: a longer bar, at most 10 cm long
        if bigger * k <= 100.0 and bigger * k + SCALE_LABEL_W <= room:
            length = bigger
    while length * k + SCALE_LABEL_W > room and length > 1:
        length //= 2
    items: list[Item] = []
    step = max(1, length // 10)
    for i, cm in enumerate(range(0, length, step)):
        x0, x1 = cm * k, min(length, cm + step) * k
        items.append(Shape([[(x0, 0), (x1, 0), (x1, 3), (x0, 3)]],
                           INK if i % 2 == 0 else WHITE, INK, 0.2))
    items.append(Text(length * k + 2, 3, _("{length} cm of table at 1:{ratio}: measure to check "
                                           "the print").format(length=length,
                                                               ratio=number(ratio)),
                      2.5, INK, "start", True))
    return items, 6.0


def _key(bp: Blueprint, arena: Arena, barriers: list[Feature], tallest: float,
         highest: float) -> None:
    """The height key and legend, in paper mm."""
    key = bp.key
    y = 0.0
    key.append(Text(0, y, _("{name}: {v} x {v2} cm").format(
                              name=arena.name, v=number(arena.size[0]),
                              v2=number(arena.size[1])), 5.0,
                    INK, "start", True))
    y += 9
    heights = sorted({_height(f) for f in barriers})
    if heights:
        key.append(Text(0, y, _("wall and door tops (absolute height, cm): darker is higher"),
                        3.2, INK, "start", True))
        y += 3
        for i, hgt in enumerate(heights):
            x = i * 22.0
            key.append(Shape([[(x, y), (x + 18, y), (x + 18, y + 7), (x, y + 7)]],
                             wall_tone(hgt, tallest), INK, 0.3))
            key.append(Text(x + 9, y + 12, f"h {hgt:g}", 3.0, INK))
        y += 18
    levels = sorted({f.height or 0.0 for f in arena.by_type("platform")})
    if levels:
        key.append(Text(0, y, _("platform floors (cm)"), 3.2, INK, "start", True))
        y += 3
        for i, z in enumerate(levels):
            x = i * 22.0
            key.append(Shape([[(x, y), (x + 18, y), (x + 18, y + 7), (x, y + 7)]],
                             floor_tone(z, highest), INK, 0.3))
            key.append(Text(x + 9, y + 12, f"z {z:g}", 3.0, INK))
        y += 18
    present = {f.type for f in arena.features}
    rows = [(t, c, text) for t, c, text in (
        ("door", DOOR, _("door (cuts its wall; opens when touched)")),
        ("pit", PIT, _("pit (red rim)")), ("stairs", SLOPE["stairs"], _("stairs: arrow points up")),
        ("ramp", SLOPE["ramp"], _("ramp: arrow points up")),
        ("escalator", SLOPE["escalator"], _("escalator: arrow = carry direction")),
        ("lift", LIFT, _("lift (to its landing height)")),
        ("conveyor", BELT, _("conveyor belt: arrow = direction, cm per round")),
        ("service", SERVICE, _("service point")),
        ("teleporter", TELEPORTER, _("teleporter (dashed: where it can lead)")),
        ("goal", GOAL, _("goal marker (R: respawn spots, in turn)"))) if t in present]
    for _kind, colour, text in rows:
        key.append(Shape([[(0, y), (10, y), (10, y + 5), (0, y + 5)]], colour, INK, 0.3))
        key.append(Text(13, y + 4, text, 3.0, INK, "start"))
        y += 7
    key.append(Text(0, y + 4, _("grid: 5 cm, bold 10 cm; heights in cm above the table"), 3.0,
                    INK, "start"))
    bp.key_size = (150.0, y + 8)
