"""A uniform grid over many bounding boxes: which boxes may meet a small query box.

The move walk asks, for every straight piece, whether any wall, door, pit, floor or
cliff edge comes near it; most pieces are a few cm long and meet none. Testing every
box as one array costs the same for a piece far from everything as for one beside
it; the grid lists, per cell, the boxes that touch the cell, so a short piece looks at
the one or two cells it covers. `candidates` answers a superset of the boxes meeting
the query box (the callers keep their own exact box test on them, so their answers
are those of the array test).
"""
from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

SLACK = 1e-6            # cm: the query box is widened by this before picking cells
MAX_CELLS = 256         # cells per side at most
MANY_CELLS = 16         # a query box over more cells than this is left to the array test


class BoxGrid:
    """Boxes (rows minx, miny, maxx, maxy) listed under every grid cell they touch."""

    def __init__(self, boxes: np.ndarray | Sequence[Sequence[float]]) -> None:
        rows = np.asarray(boxes, dtype=float).reshape(-1, 4)
        self.rows: list[tuple[float, float, float, float]] = [
            (float(a), float(b), float(c), float(d)) for a, b, c, d in rows.tolist()]
        self.count = len(self.rows)
        self.all: tuple[int, ...] = tuple(range(self.count))
        if not self.count or not np.isfinite(rows).all():
            self.x0 = self.y0 = 0.0
            self.nx = self.ny = 1
            self.cw = self.ch = 1.0
            self.cells: dict[int, tuple[int, ...]] = {0: self.all} if self.count else {}
            return
        x0, y0 = float(rows[:, 0].min()), float(rows[:, 1].min())
        x1, y1 = float(rows[:, 2].max()), float(rows[:, 3].max())
        w, h = max(x1 - x0, 1e-9), max(y1 - y0, 1e-9)
        sides = np.maximum(rows[:, 2] - rows[:, 0], rows[:, 3] - rows[:, 1])
        side = max(float(np.median(sides)), w / MAX_CELLS, h / MAX_CELLS, 1e-6)
        self.x0, self.y0 = x0, y0
        self.nx = max(1, min(MAX_CELLS, int(w / side) + 1))
        self.ny = max(1, min(MAX_CELLS, int(h / side) + 1))
        self.cw, self.ch = w / self.nx, h / self.ny
        cells: dict[int, list[int]] = {}
        for i, (minx, miny, maxx, maxy) in enumerate(self.rows):
            cx0, cx1 = self._cx(minx), self._cx(maxx)
            cy0, cy1 = self._cy(miny), self._cy(maxy)
            for cy in range(cy0, cy1 + 1):
                for cx in range(cx0, cx1 + 1):
                    cells.setdefault(cy * self.nx + cx, []).append(i)
        self.cells = {k: tuple(v) for k, v in cells.items()}

    def _cx(self, x: float) -> int:
        return min(self.nx - 1, int((x - self.x0) / self.cw)) if x > self.x0 else 0

    def _cy(self, y: float) -> int:
        return min(self.ny - 1, int((y - self.y0) / self.ch)) if y > self.y0 else 0

    def candidates(self, lo_x: float, lo_y: float, hi_x: float,
                   hi_y: float) -> Sequence[int] | None:
        """Indices, ascending, of a superset of the boxes that meet the box
        [lo_x, hi_x] x [lo_y, hi_y] (every box within SLACK of it is among them);
        None for a query box over many cells (or not finite): the caller's array test
        is then the quicker way."""
        if not (math.isfinite(lo_x) and math.isfinite(lo_y) and math.isfinite(hi_x)
                and math.isfinite(hi_y)):
            return None
        cx0, cx1 = self._cx(lo_x - SLACK), self._cx(hi_x + SLACK)
        cy0, cy1 = self._cy(lo_y - SLACK), self._cy(hi_y + SLACK)
        cells = self.cells
        if cx0 == cx1 and cy0 == cy1:
            return cells.get(cy0 * self.nx + cx0, ())
        if (cx1 - cx0 + 1) * (cy1 - cy0 + 1) > MANY_CELLS:
            return None
        found: set[int] = set()
        for cy in range(cy0, cy1 + 1):
            for cx in range(cx0, cx1 + 1):
                found.update(cells.get(cy * self.nx + cx, ()))
        return sorted(found)

    def meeting(self, lo_x: float, lo_y: float, hi_x: float, hi_y: float) -> list[int] | None:
        """Indices, ascending, of exactly the boxes that meet the box [lo_x, hi_x] x
        [lo_y, hi_y] (the candidates' own box test); None as for `candidates`."""
        cand = self.candidates(lo_x, lo_y, hi_x, hi_y)
        if cand is None:
            return None
        rows = self.rows
        return [k for k in cand if rows[k][0] <= hi_x and rows[k][2] >= lo_x
                and rows[k][1] <= hi_y and rows[k][3] >= lo_y]
