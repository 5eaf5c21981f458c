"""Placing labels on the table so none overlaps another or a bot.

Each label wants to sit next to its anchor (a bot, a point); `place_labels`
tries spots in rings around the anchor, nearest first, and takes the first one
that meets no placed label, no bot disc and stays inside the bounds. A label
pushed off its first ring gets a leader line back to its anchor. A label with
no free spot within reach is left out (and counted), never drawn over another.
Pure geometry in pixels; the painter only draws the answer.
"""
from __future__ import annotations

import math
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import Generic, TypeVar

import shapely

from bottisota.core.arena import SLOPED_TYPES, Arena
from bottisota.core.compass import vector
from bottisota.core.i18n import cm

Rect = tuple[float, float, float, float]      # left, top, width, height (px)
Disc = tuple[float, float, float]              # centre x, y and radius (px)
Segment = tuple[tuple[float, float], tuple[float, float]]
Item = TypeVar("Item", Rect, Segment, Disc)
GRID_PX = 64.0
RINGS = 6                # how far a label may wander: rings of spots around its anchor
SPOTS_PER_RING = 12
LEFT_OUT = 1 << 30         # a left-out wish's spot, as `place_labels_pass` counts


@dataclass(frozen=True)
class LabelWish:
    """A label to place: its text, size in px, anchor and how far from it to start."""

    text: str
    size: tuple[float, float]
    anchor: tuple[float, float]
    gap: float = 4.0             # px between the anchor (its disc) and the label
    tone: str = "plain"
    key: str = ""                # what the label belongs to (a bot id, "ruler", ...)
    unless: str = ""             # not wanted when the label of this key was placed
    reach: int = RINGS           # rings of spots tried (a short result card goes farther)


@dataclass(frozen=True)
class PlacedLabel:
    """A label where the placement pass put it, and what it labels."""

    text: str
    rect: Rect
    anchor: tuple[float, float]
    leader: bool
    tone: str
    key: str

    def as_dict(self) -> dict[str, object]:
        return {"text": self.text, "rect": list(self.rect), "anchor": list(self.anchor),
                "leader": self.leader, "tone": self.tone, "key": self.key}


def rects_overlap(a: Rect, b: Rect) -> bool:
    """Strict overlap (touching edges do not count)."""
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def rect_meets_disc(r: Rect, disc: tuple[float, float, float]) -> bool:
    cx, cy, rad = disc
    nx = min(max(cx, r[0]), r[0] + r[2])
    ny = min(max(cy, r[1]), r[1] + r[3])
    return (nx - cx) ** 2 + (ny - cy) ** 2 < rad * rad


class _Grid:
    """Placed rectangles and discs bucketed by GRID_PX cells (fast overlap queries)."""

    def __init__(self) -> None:
        self.rects: dict[tuple[int, int], list[Rect]] = {}
        self.discs: dict[tuple[int, int], list[Disc]] = {}

    def _span(self, x0: float, y0: float, x1: float, y1: float
              ) -> Iterator[tuple[int, int]]:
        for i in range(math.floor(x0 / GRID_PX), math.floor(x1 / GRID_PX) + 1):
            for j in range(math.floor(y0 / GRID_PX), math.floor(y1 / GRID_PX) + 1):
                yield (i, j)

    def add_rect(self, r: Rect) -> None:
        for c in self._span(r[0], r[1], r[0] + r[2], r[1] + r[3]):
            self.rects.setdefault(c, []).append(r)

    def add_disc(self, d: Disc) -> None:
        for c in self._span(d[0] - d[2], d[1] - d[2], d[0] + d[2], d[1] + d[2]):
            self.discs.setdefault(c, []).append(d)

    def free(self, r: Rect) -> bool:
        for c in self._span(r[0], r[1], r[0] + r[2], r[1] + r[3]):
            if any(rects_overlap(r, other) for other in self.rects.get(c, ())):
                return False
            if any(rect_meets_disc(r, disc) for disc in self.discs.get(c, ())):
                return False
        return True


def segment_meets_rect(a: tuple[float, float], b: tuple[float, float], r: Rect) -> bool:
    """Whether the segment a-b passes through the rectangle's inside (Liang-Barsky)."""
    x0, y0, w, h = r
    dx, dy = b[0] - a[0], b[1] - a[1]
    lo, hi = 0.0, 1.0
    for p, q in ((-dx, a[0] - x0), (dx, x0 + w - a[0]), (-dy, a[1] - y0), (dy, y0 + h - a[1])):
        if p == 0:
            if q <= 0:
                return False
            continue
        t = q / p
        if p < 0:
            lo = max(lo, t)
        else:
            hi = min(hi, t)
        if lo >= hi:
            return False
    return True


def segment_meets_disc(a: tuple[float, float], b: tuple[float, float],
                       disc: tuple[float, float, float]) -> bool:
    """Whether the segment a-b passes closer than the disc's radius to its centre."""
    cx, cy, rad = disc
    dx, dy = b[0] - a[0], b[1] - a[1]
    span = dx * dx + dy * dy
    t = 0.0 if span == 0 else max(0.0, min(1.0, ((cx - a[0]) * dx + (cy - a[1]) * dy) / span))
    px, py = a[0] + t * dx, a[1] + t * dy
    return (px - cx) ** 2 + (py - cy) ** 2 < rad * rad


def leader_end(rect: Rect) -> tuple[float, float]:
    """Where a label's leader line ends: its box's centre."""
    return (rect[0] + rect[2] / 2, rect[1] + rect[3] / 2)


def leader_clear(anchor: tuple[float, float], rect: Rect, rects: Sequence[Rect],
                 discs: Sequence[tuple[float, float, float]]) -> bool:
    """A leader from `anchor` to the label at `rect` crosses no other label and no bot
    but the one it labels (any disc or box holding the anchor: it starts there)."""
    end = leader_end(rect)
    for d in discs:
        if (anchor[0] - d[0]) ** 2 + (anchor[1] - d[1]) ** 2 < d[2] * d[2]:
            continue
        if segment_meets_disc(anchor, end, d):
            return False
    return not any(segment_meets_rect(anchor, end, r) for r in rects
                   if not (r[0] <= anchor[0] <= r[0] + r[2] and r[1] <= anchor[1] <= r[1] + r[3]))


def _dirs(n: int) -> list[tuple[float, float]]:
    turns = [2 * math.pi * k / n - math.pi / 2 for k in range(n)]
    return [(math.cos(t), math.sin(t)) for t in turns]


FAR_RINGS = 14           # a short result card's reach when its full card found no room
_DIRS = [_dirs(SPOTS_PER_RING * min(ring, 2)) for ring in range(1, FAR_RINGS + 1)]  # more, farther


def _spots(w: LabelWish, radius: float) -> Iterator[tuple[tuple[float, float], bool]]:
    """Candidate rectangles: above, below, right, left first, then rings around."""
    ax, ay = w.anchor
    lw, lh = w.size
    g = radius + w.gap
    yield (ax - lw / 2, ay - g - lh), False
    yield (ax - lw / 2, ay + g), False
    yield (ax + g, ay - lh / 2), False
    yield (ax - g - lw, ay - lh / 2), False
    for ring in range(1, w.reach + 1):
        dist = g + ring * (lh + 2)
        for c, s in _DIRS[ring - 1]:
            cx, cy = ax + c * (dist + lw / 2 * abs(c)), ay + s * dist
            yield (cx - lw / 2, cy - lh / 2), True


def follow(placed: list[PlacedLabel], wishes: list[LabelWish]) -> list[PlacedLabel]:
    """Labels placed earlier, carried along with their anchors (a pan or zoom under way:
    each keeps its offset from its anchor; the full pass runs once the view settles)."""
    now = {w.key: w for w in wishes}
    out = []
    for p in placed:
        w = now.get(p.key)
        if w is None or w.text != p.text:
            continue
        dx, dy = w.anchor[0] - p.anchor[0], w.anchor[1] - p.anchor[1]
        x, y, rw, rh = p.rect
        out.append(PlacedLabel(p.text, (x + dx, y + dy, rw, rh), w.anchor, p.leader, p.tone, p.key))
    return out


@dataclass(frozen=True)
class LastPass:
    """What a placement pass was given and what became of each wish: the next pass
    over the same window starts from it (`place_labels`)."""

    discs: frozenset[Disc]
    bounds: Rect
    taken: tuple[Rect, ...]
    # each wish (by `_ident`): the wish, its anchor's radius, where it went (None: left out) and
    # at which of its spots (`_spots`, counted from 0; -1: none)
    outcome: dict[str, tuple[LabelWish, float, PlacedLabel | None, int]]
    # a wish left out: each of its spots and the box holding that spot and its leader
    # (None until a pass needs them)
    left_out: dict[str, list[tuple[tuple[float, float], bool, Rect]] | None]


def _reach(w: LabelWish, radius: float) -> Rect:
    """A box holding every spot the wish may try and its leader (x0, y0, x1, y1): a
    ring's spot lies at most its distance plus the label's width across and its
    distance plus half its height up or down (`_spots`)."""
    lw, lh = w.size
    far = radius + w.gap + max(w.reach, 1) * (lh + 2)
    return (w.anchor[0] - far - lw, w.anchor[1] - far - lh,
            w.anchor[0] + far + lw, w.anchor[1] + far + lh)


def _extent(p: PlacedLabel) -> Rect:
    """A placed label's box and leader (x0, y0, x1, y1)."""
    return _spot_extent((p.rect[0], p.rect[1]), (p.rect[2], p.rect[3]), p.anchor)


class _Changes:
    """Where the table differs from the last pass, so far in this pass (boxes x0, y0, x1,
    y1): `freed` where a bot or a label stood then and no longer does, `filled` where
    one stands now that did not then. A spot's tests only fail on what stands there, so
    a spot that failed then can pass now only where something was freed, and one that
    passed then can fail now only where something was filled."""

    def __init__(self, last: LastPass, discs: Sequence[Disc],
                 wishes: Sequence[LabelWish], taken: tuple[Rect, ...]) -> None:
        now = frozenset(discs)
        self.freed: list[Rect] = [(x - r, y - r, x + r, y + r) for x, y, r in last.discs - now]
        self.filled: list[Rect] = [(x - r, y - r, x + r, y + r) for x, y, r in now - last.discs]
        # the boxes kept clear (banners, strips, legends) that came or went
        before, after = set(last.taken), set(taken)
        self.freed += [(x, y, x + w, y + h) for x, y, w, h in before - after]
        self.filled += [(x, y, x + w, y + h) for x, y, w, h in after - before]
        wished = {_ident(w) for w in wishes}
        self.freed += [_extent(p) for key, (_, _, p, _) in last.outcome.items()
                       if p is not None and key not in wished]

    def placed(self, before: PlacedLabel | None, now: PlacedLabel | None) -> None:
        if before != now:
            if before is not None:
                self.freed.append(_extent(before))
            if now is not None:
                self.filled.append(_extent(now))

    def near(self, box: Rect) -> tuple[list[Rect], list[Rect]]:
        """The freed and the filled boxes that meet the box."""
        return _meeting(self.freed, box), _meeting(self.filled, box)


def _meeting(boxes: list[Rect], box: Rect) -> list[Rect]:
    return [b for b in boxes if b[0] <= box[2] and box[0] <= b[2] and b[1] <= box[3]
            and box[1] <= b[3]]


def _spot_extent(xy: tuple[float, float], size: tuple[float, float],
                 anchor: tuple[float, float]) -> Rect:
    """The box holding a spot's label and its leader (x0, y0, x1, y1)."""
    x, y = xy
    return (min(x, anchor[0]), min(y, anchor[1]), max(x + size[0], anchor[0]),
            max(y + size[1], anchor[1]))


def _changed_spots(spots: list[tuple[tuple[float, float], bool, Rect]], near: list[Rect]
                   ) -> list[tuple[int, tuple[tuple[float, float], bool]]]:
    """The spots (numbered) whose label or leader would lie where something was freed."""
    nx0, ny0 = min(b[0] for b in near), min(b[1] for b in near)
    nx1, ny1 = max(b[2] for b in near), max(b[3] for b in near)
    return [(k, (xy, far)) for k, (xy, far, (x0, y0, x1, y1)) in enumerate(spots)
            if x0 <= nx1 and nx0 <= x1 and y0 <= ny1 and ny0 <= y1
            and _meets_any(near, x0, y0, x1, y1)]


def _meets_any(boxes: list[Rect], x0: float, y0: float, x1: float, y1: float) -> bool:
    for b in boxes:
        if b[0] <= x1 and x0 <= b[2] and b[1] <= y1 and y0 <= b[3]:
            return True
    return False


def _ident(w: LabelWish) -> str:
    """What tells a wish apart from the others of a pass: its key, and for a result
    card's short form (asked for under the full card's key) that it is the short one."""
    return w.key + "\x00short" if w.unless == w.key and w.key else w.key


def _same_order(wishes: Sequence[LabelWish], last: LastPass) -> bool:
    """The wishes are told apart by their keys, and those of the last pass come in the
    same order as then (a wish placed before another then is placed before it now:
    new ones may come anywhere, old ones may go)."""
    keys = [_ident(w) for w in wishes]
    if len(set(keys)) < len(keys):
        return False
    now = set(keys)
    return [k for k in keys if k in last.outcome] == [k for k in last.outcome if k in now]


def place_labels(wishes: list[LabelWish], discs: list[tuple[float, float, float]],
                 bounds: Rect, radii: dict[str, float] | None = None,
                 taken: Sequence[Rect] = (), last: LastPass | None = None
                 ) -> tuple[list[PlacedLabel], int]:
    """Place the wishes in order (earlier ones win the nearer spots). `discs` are the
    bots (cx, cy, r) in px; `radii[key]` is the anchor disc's radius for a wish's
    key; `taken` are rectangles already used (a turn strip, an inset). Returns the
    placed labels and how many found no free spot (`place_labels_pass` also says
    what became of each wish)."""
    placed, left_out, _ = place_labels_pass(wishes, discs, bounds, radii, taken, last)
    return placed, left_out


def place_labels_pass(wishes: list[LabelWish], discs: list[tuple[float, float, float]],
                      bounds: Rect, radii: dict[str, float] | None = None,
                      taken: Sequence[Rect] = (), last: LastPass | None = None
                      ) -> tuple[list[PlacedLabel], int, LastPass]:
    """`place_labels`, and what became of each wish, for the next pass.

    `last`: the last pass in the same window (same bounds, the wishes it had in the same
    order; else it is not used). The answer is the fresh pass's, found with fewer
    tests: for a wish the same as then (text, size, anchor, reach), a spot before the one
    it took then (every spot, if it was left out) failed then, and fails again unless something
    changed where the spot or its leader lies (a bot came, went or moved there, or a
    label was placed differently earlier in this pass): only such spots are tested
    again. When a bot moves on a crowded table, most labels test one spot.

    The same spots in the same order and the same tests as `_Grid.free` (each
    shape's edges and squared radius worked out once, with the same arithmetic),
    written out flat: the pass runs in the frame that shows a new set of labels."""
    radii = radii or {}
    taken = tuple(taken)
    if last is not None and (last.bounds != bounds or not _same_order(wishes, last)):
        last = None                 # another window's pass, or wishes in another order
    changes = _Changes(last, discs, wishes, taken) if last is not None else None
    floor = math.floor
    rects: dict[tuple[int, int], list[tuple[float, float, float, float]]] = {}
    circles: dict[tuple[int, int], list[tuple[float, float, float]]] = {}
    for cx, cy, rad in discs:
        entry = (cx, cy, rad * rad)
        for i in range(floor((cx - rad) / GRID_PX), floor((cx + rad) / GRID_PX) + 1):
            for j in range(floor((cy - rad) / GRID_PX), floor((cy + rad) / GRID_PX) + 1):
                circles.setdefault((i, j), []).append(entry)

    def add_rect(x: float, y: float, w: float, h: float) -> None:
        x1, y1 = x + w, y + h
        entry = (x, y, x1, y1)
        for i in range(floor(x / GRID_PX), floor(x1 / GRID_PX) + 1):
            for j in range(floor(y / GRID_PX), floor(y1 / GRID_PX) + 1):
                rects.setdefault((i, j), []).append(entry)

    def free(x: float, y: float, x1: float, y1: float) -> bool:
        for i in range(floor(x / GRID_PX), floor(x1 / GRID_PX) + 1):
            for j in range(floor(y / GRID_PX), floor(y1 / GRID_PX) + 1):
                for bx0, by0, bx1, by1 in rects.get((i, j), ()):
                    if x < bx1 and bx0 < x1 and y < by1 and by0 < y1:
                        return False
                for cx, cy, r2 in circles.get((i, j), ()):
                    nx = x if cx < x else (x1 if cx > x1 else cx)
                    ny = y if cy < y else (y1 if cy > y1 else cy)
                    if (nx - cx) ** 2 + (ny - cy) ** 2 < r2:
                        return False
        return True

    for r in taken:
        add_rect(*r)
    boxes: _Segments[Rect] = _Segments()             # every box, for the leaders' test
    for r in taken:
        boxes.add_box(r)
    leaders: _Segments[Segment] = _Segments()
    disc_grid: _Segments[Disc] = _Segments()          # the bots, for the leaders' test
    for d in discs:
        disc_grid.add_disc(d)
    placed: list[PlacedLabel] = []
    left_out = 0
    bx, by, bw, bh = bounds
    right, bottom = bx + bw, by + bh
    done: set[str] = set()
    outcome: dict[str, tuple[LabelWish, float, PlacedLabel | None, int]] = {}
    unplaced: dict[str, list[tuple[tuple[float, float], bool, Rect]] | None] = {}
    for w in wishes:
        ident = _ident(w)
        was = last.outcome.get(ident) if last is not None else None
        if w.unless and w.unless in done:
            if changes is not None and was is not None:
                changes.placed(was[2], None)        # not wanted now: its place is free
            continue
        radius = radii.get(w.key, 0.0)
        lw, lh = w.size
        ax, ay = w.anchor
        # a spot that failed then (before `then`) is tested again only where something
        # was freed since; its spot then, only where something was filled
        then = -1
        spotted: list[tuple[tuple[float, float], bool, Rect]] | None = None
        freed: list[Rect] | None = None
        filled: list[Rect] = []
        if changes is not None and was is not None and was[0] == w and was[1] == radius:
            then = was[3] if was[2] is not None else LEFT_OUT
            freed, filled = changes.near(_reach(w, radius))
        spots: Iterable[tuple[int, tuple[tuple[float, float], bool]]]
        if freed is None:                           # not as it was: every spot
            spots = enumerate(_spots(w, radius))
        elif then == LEFT_OUT:                      # only where something was freed
            assert last is not None
            spotted = last.left_out[ident]
            if freed and spotted is None:
                spotted = [(xy, far, _spot_extent(xy, w.size, w.anchor))
                           for xy, far in _spots(w, radius)]
            spots = _changed_spots(spotted, freed) if freed and spotted is not None else ()
        else:
            spots = islice(enumerate(_spots(w, radius)), 0 if freed else then, None)
        got: PlacedLabel | None = None
        index = -1
        for i, ((x, y), far) in spots:
            x1, y1 = x + lw, y + lh
            unchanged = False                       # as then: failed before `then`, passed at it
            if freed is not None and i <= then != LEFT_OUT:
                ex0, ey0 = (x if x < ax else ax), (y if y < ay else ay)
                ex1, ey1 = (x1 if x1 > ax else ax), (y1 if y1 > ay else ay)
                unchanged = not _meets_any(freed if i < then else filled, ex0, ey0, ex1, ey1)
            if unchanged and i < then:
                continue                            # failed then, nothing freed there
            if x < bx or y < by or x1 > right or y1 > bottom:
                continue
            if unchanged:                           # its spot then, nothing filled: it passes
                if far:
                    leaders.add_segment(w.anchor, leader_end((x, y, lw, lh)))
            elif not (free(x, y, x1, y1) and _clear_of_leaders((x, y, lw, lh), far, w.anchor,
                                                               boxes, disc_grid, leaders)):
                continue
            add_rect(x, y, lw, lh)
            boxes.add_box((x, y, lw, lh))
            done.add(w.key)
            got = PlacedLabel(w.text, (x, y, lw, lh), w.anchor, far, w.tone, w.key)
            placed.append(got)
            index = i
            break
        else:
            left_out += 1
            # its spots with their extents, for the passes after: worked out now in a
            # window's first pass (its labels mostly stay), else when a pass first asks
            if freed is not None and then == LEFT_OUT:
                unplaced[ident] = spotted
            elif last is None:
                unplaced[ident] = [(xy, far, _spot_extent(xy, w.size, w.anchor))
                                   for xy, far in _spots(w, radius)]
            else:
                unplaced[ident] = None
        if changes is not None:
            changes.placed(was[2] if was is not None else None, got)
        outcome[ident] = (w, radius, got, index)
    return placed, left_out, LastPass(frozenset(discs), bounds, taken, outcome, unplaced)


class _Segments(Generic[Item]):
    """Leader lines, or label boxes, on a grid of GRID_PX cells by their bounding
    boxes: a test meets only those whose boxes share a cell with its own (a segment
    passes through a box's inside only where their bounding boxes overlap), with
    the very tests the plain version makes of all of them."""

    def __init__(self) -> None:
        self.cells: dict[tuple[int, int], list[int]] = {}
        self.items: list[Item] = []

    def _add(self, item: Item, x0: float, y0: float, x1: float, y1: float) -> None:
        k = len(self.items)
        self.items.append(item)
        for i in range(math.floor(x0 / GRID_PX), math.floor(x1 / GRID_PX) + 1):
            for j in range(math.floor(y0 / GRID_PX), math.floor(y1 / GRID_PX) + 1):
                self.cells.setdefault((i, j), []).append(k)

    def add_box(self: _Segments[Rect], r: Rect) -> None:
        self._add(r, r[0], r[1], r[0] + r[2], r[1] + r[3])

    def add_segment(self: _Segments[Segment], a: tuple[float, float], b: tuple[float, float]
                    ) -> None:
        self._add((a, b), min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1]))

    def add_disc(self: _Segments[Disc], d: Disc) -> None:
        self._add(d, d[0] - d[2], d[1] - d[2], d[0] + d[2], d[1] + d[2])

    def near(self, x0: float, y0: float, x1: float, y1: float) -> list[Item]:
        """The items whose cells meet this box (each once, in no set order: the
        callers ask whether any of them meets something)."""
        if not self.items:
            return []
        cells = self.cells
        floor = math.floor
        j0, j1 = floor(y0 / GRID_PX), floor(y1 / GRID_PX) + 1
        found: set[int] = set()
        for i in range(floor(x0 / GRID_PX), floor(x1 / GRID_PX) + 1):
            for j in range(j0, j1):
                here = cells.get((i, j))
                if here:
                    found.update(here)
        items = self.items
        return [items[k] for k in found]


def _clear_of_leaders(r: Rect, far: bool, anchor: tuple[float, float], boxes: _Segments[Rect],
                      discs: _Segments[Disc], leaders: _Segments[Segment]) -> bool:
    """A label at `r` meets no leader line placed before, and its own leader (when it is
    `far` from its anchor) crosses no box and no other bot; a clear leader is kept."""
    if any(segment_meets_rect(a, b, r)
           for a, b in leaders.near(r[0], r[1], r[0] + r[2], r[1] + r[3])):
        return False
    if not far:
        return True
    end = leader_end(r)
    x0, y0 = min(anchor[0], end[0]), min(anchor[1], end[1])
    x1, y1 = max(anchor[0], end[0]), max(anchor[1], end[1])
    # a segment meets only the boxes and discs its own bounding box meets
    if not leader_clear(anchor, r, boxes.near(x0, y0, x1, y1), discs.near(x0, y0, x1, y1)):
        return False
    leaders.add_segment(anchor, end)
    return True


def _clear_of_leaders_plainly(r: Rect, far: bool, anchor: tuple[float, float],
                              boxes: list[Rect], discs: Sequence[tuple[float, float, float]],
                              leaders: list[tuple[tuple[float, float], tuple[float, float]]]
                              ) -> bool:
    """`_clear_of_leaders` testing every leader and box (the reference)."""
    if any(segment_meets_rect(a, b, r) for a, b in leaders):
        return False
    if not far:
        return True
    if not leader_clear(anchor, r, boxes, discs):
        return False
    leaders.append((anchor, leader_end(r)))
    return True


def place_labels_plainly(wishes: list[LabelWish], discs: list[tuple[float, float, float]],
                         bounds: Rect, radii: dict[str, float] | None = None,
                         taken: Sequence[Rect] = ()) -> tuple[list[PlacedLabel], int]:
    """`place_labels` written plainly (shape by shape through `_Grid`): the reference
    the tests hold the flat version to."""
    radii = radii or {}
    grid = _Grid()
    for d in discs:
        grid.add_disc(d)
    for r in taken:
        grid.add_rect(r)
    boxes: list[Rect] = list(taken)
    leaders: list[tuple[tuple[float, float], tuple[float, float]]] = []
    placed: list[PlacedLabel] = []
    left_out = 0
    bx, by, bw, bh = bounds
    done: set[str] = set()
    for w in wishes:
        if w.unless and w.unless in done:
            continue
        radius = radii.get(w.key, 0.0)
        for (x, y), far in _spots(w, radius):
            r = (x, y, w.size[0], w.size[1])
            if x < bx or y < by or x + r[2] > bx + bw or y + r[3] > by + bh:
                continue
            if grid.free(r) and _clear_of_leaders_plainly(r, far, w.anchor, boxes, discs, leaders):
                grid.add_rect(r)
                boxes.append(r)
                done.add(w.key)
                placed.append(PlacedLabel(w.text, r, w.anchor, far, w.tone, w.key))
                break
        else:
            left_out += 1
    return placed, left_out


@dataclass(frozen=True)
class ArenaText:
    """A feature's text on the table (a platform's height, a slope's ends, a lift's top,
    a teleporter's id): it goes through the same placement pass as the bots' labels."""

    key: str
    text: str
    at: tuple[float, float]      # cm, the anchor
    radius: float = 0.0          # cm kept clear around the anchor (a teleporter's pad)
    tone: str = "dim"


def arena_texts(arena: Arena) -> list[ArenaText]:
    """Every feature text of an arena, anchored where it belongs."""
    out: list[ArenaText] = []
    for f in arena.features:
        key = f"arena:{f.index}"
        if f.type == "platform":
            minx, _miny, _maxx, maxy = f.shape.bounds
            corner = (minx + 2.0, maxy - 1.5)          # near its top-left corner, inside
            p = f.shape.representative_point()
            at = corner if f.shape.contains(shapely.Point(corner)) else (p.x, p.y)
            out.append(ArenaText(key, cm(f.height or 0), at))
        elif f.type in SLOPED_TYPES:
            d = vector(f.up or 0.0)
            proj = [x * d[0] + y * d[1] for x, y in f.shape.exterior.coords]
            span = max(proj) - min(proj)
            c = f.shape.centroid
            off = span / 2.0 - 0.6
            for end, sign, z in (("low", -1, f.from_z), ("high", 1, f.to_z)):
                out.append(ArenaText(f"{key}:{end}", f"{(z or 0):g}",
                                     (c.x + sign * d[0] * off, c.y + sign * d[1] * off)))
        elif f.type == "teleporter" and f.id:
            c = f.shape.centroid
            out.append(ArenaText(key, f.id, (c.x, c.y), math.sqrt(f.shape.area / math.pi)))
        elif f.type == "lift":
            c = f.shape.centroid
            out.append(ArenaText(key, f"L{(f.top or 0):g}", (c.x, c.y)))
    return out


class BackgroundPass:
    """Label passes on a thread of their own (issue 32: no work in the frame that can be
    done elsewhere): the frame asks for a pass and goes on drawing; a later frame takes
    the answer when it is ready and still for what the table shows. One pass at a time;
    a pass asked for while another runs waits for the next frame's asking."""

    def __init__(self) -> None:
        self._key: object = None
        self._answer: tuple[list[PlacedLabel], int, LastPass] | None = None
        self._thread: threading.Thread | None = None

    @property
    def busy(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def take(self, key: object) -> tuple[list[PlacedLabel], int, LastPass] | None:
        """The answer of the pass asked for `key`, once it is ready (then forgotten)."""
        if self.busy or self._answer is None or self._key != key:
            return None
        answer, self._answer = self._answer, None
        return answer

    def ask(self, key: object, place: Callable[[], tuple[list[PlacedLabel], int, LastPass]]
            ) -> None:
        """Start `place()` (a pass on values no one changes meanwhile) for `key`, unless
        a pass runs now or the answer for `key` waits to be taken."""
        if self.busy or (self._answer is not None and self._key == key):
            return
        self._key, self._answer = key, None

        def run() -> None:
            self._answer = place()

        self._thread = threading.Thread(target=run, name="labels", daemon=True)
        self._thread.start()


def still_standing(placed: list[PlacedLabel], wishes: list[LabelWish], discs: Sequence[Disc],
                   taken: Sequence[Rect]) -> list[PlacedLabel]:
    """The labels placed before that may stay on the table while a new pass runs: still
    wished with the same text at the same anchor, over no bot and no reserved box, and
    whose leader crosses no bot (the others come back with the pass)."""
    now = {(w.key, w.text, w.anchor) for w in wishes}
    bots: _Segments[Disc] = _Segments()               # each label asks the bots near it
    for d in discs:
        bots.add_disc(d)
    out = []
    for p in placed:
        if (p.key, p.text, p.anchor) not in now:
            continue
        x, y, w, h = p.rect
        if any(rect_meets_disc(p.rect, d) for d in bots.near(x, y, x + w, y + h)) or any(
                rects_overlap(p.rect, r) for r in taken):
            continue
        if p.leader:
            ex0, ey0, ex1, ey1 = _extent(p)
            if not leader_clear(p.anchor, p.rect, (), bots.near(ex0, ey0, ex1, ey1)):
                continue
        out.append(p)
    return out
