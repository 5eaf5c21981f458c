"""One sight line's crossings with the obstacles by plain arithmetic on their edges.

The pieces of a straight line over a polygon follow from the polygon's edges
alone: the line enters or leaves it at each edge it crosses, and it starts
inside when a ray from its start crosses the rings an odd number of times.
Each such fact is the sign of an orientation (which side of a line a point
lies), a difference of two products. Signs nearer zero than UNSURE of the sum
of the two products are not trusted (a float's own error is below 4e-16 of it,
Shewchuk's bound, so every sign trusted is the exact one): the line grazes a
corner, runs along an edge or ends on one, and Shapely's exact intersection
cuts it instead; so it does when the line crosses an edge at so shallow an
angle (SHALLOW) that where it crosses is ill-told by floats. No intersection
geometry is built otherwise, which is what makes one fire track cheap.
"""
from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import shapely

from bottisota.geometry.sightline import Crossing, Line
from bottisota.geometry.surfaces import Surface

UNSURE = 1e-12
SHALLOW = 1e-4     # a crossing at a smaller sine than about this is cut by Shapely
SLACK = 1e-9       # the circle round a region's box is widened by this share and cm

_Part = tuple[float, float, float, float, float, float, float,
              list[tuple[float, float, float, float, float, float]], Surface]
"""A region's circle (centre x, y, radius), box (x, y low and high), edges and surface."""


def ring_edges(region: object) -> np.ndarray | None:
    """Every edge of the region's rings (outer rings and holes) as rows x0, y0,
    x1, y1; None when the region holds anything but polygons (a sliver left as
    a line or point: such a region is cut by Shapely)."""
    rows = []
    for part in shapely.get_parts(region):
        if part.is_empty:
            continue
        if part.geom_type != "Polygon":
            return None
        for ring in (part.exterior, *part.interiors):
            xy = shapely.get_coordinates(ring)
            rows.append(np.hstack([xy[:-1], xy[1:]]))
    return np.vstack(rows) if rows else np.zeros((0, 4))


class SightEdges:
    """The edges of every feature's sight surface (by feature index; None where the
    feature blocks no sight or its region is cut by Shapely), with the circle
    round each region's box: a line missing the circle misses the region."""

    def __init__(self, surfaces: Sequence[Surface | None]) -> None:
        self.surfaces = list(surfaces)
        self.exact = [True] * len(self.surfaces)     # False: the region is cut by Shapely
        self.parts: list[_Part | None] = [None] * len(self.surfaces)
        for i, sf in enumerate(self.surfaces):
            if sf is None:
                continue
            rows = ring_edges(sf.region)
            if rows is None:
                self.exact[i] = False
                continue
            if len(rows) == 0:
                continue
            x0, y0, x1, y1 = rows.T
            edges = list(zip(x0.tolist(), y0.tolist(), x1.tolist(), y1.tolist(),
                             (x1 - x0).tolist(), (y1 - y0).tolist(), strict=True))
            lo_x, hi_x = float(min(x0.min(), x1.min())), float(max(x0.max(), x1.max()))
            lo_y, hi_y = float(min(y0.min(), y1.min())), float(max(y0.max(), y1.max()))
            r = 0.5 * math.hypot(hi_x - lo_x, hi_y - lo_y)
            self.parts[i] = (0.5 * (lo_x + hi_x), 0.5 * (lo_y + hi_y),
                             r * (1.0 + SLACK) + SLACK, lo_x, lo_y, hi_x, hi_y, edges, sf)

    def crossings(self, line: Line, ids: Sequence[int]) -> list[Crossing] | None:
        """The pieces of the line over the surfaces of features `ids` (arena order),
        as `surface_crossings` gives them; None when some sign is too near zero to
        trust or a region is not plain polygons (the caller then uses Shapely)."""
        length = line.length
        if length == 0.0:
            return []
        ax, ay, bx, by = line.ax, line.ay, line.bx, line.by
        dx, dy = bx - ax, by - ay
        out: list[Crossing] = []
        for i in ids:
            if not self.exact[i]:
                return None
            part = self.parts[i]
            if part is None:
                continue
            cx, cy, r, lo_x, lo_y, hi_x, hi_y, edges, sf = part
            if abs(dx * (cy - ay) - dy * (cx - ax)) > r * length:
                continue                            # the line passes wide of it
            at_a = lo_x <= ax <= hi_x and lo_y <= ay <= hi_y
            odd = False
            ts = []
            for x0, y0, x1, y1, ex, ey in edges:
                if at_a and (y0 > ay) != (y1 > ay):
                    # a ray from a towards +x crosses this edge when a lies left of it
                    # going up: an odd count of crossings puts a inside
                    p, q = ex * (ay - y0), ey * (ax - x0)
                    oa, ba = p - q, UNSURE * (abs(p) + abs(q))
                    if -ba <= oa <= ba:
                        return None
                    if (oa > 0.0) == (y1 > y0):
                        odd = not odd
                p, q = dx * (y0 - ay), dy * (x0 - ax)
                o0, b0 = p - q, UNSURE * (abs(p) + abs(q))
                p, q = dx * (y1 - ay), dy * (x1 - ax)
                o1, b1 = p - q, UNSURE * (abs(p) + abs(q))
                if (o0 > b0 and o1 > b1) or (o0 < -b0 and o1 < -b1):
                    continue                        # the edge lies on one side of the line
                p, q = ex * (ay - y0), ey * (ax - x0)
                oa, ba = p - q, UNSURE * (abs(p) + abs(q))
                p, q = ex * (by - y0), ey * (bx - x0)
                ob, bb = p - q, UNSURE * (abs(p) + abs(q))
                if (oa > ba and ob > bb) or (oa < -ba and ob < -bb):
                    continue                        # the line lies on one side of the edge
                if not (((oa > ba and ob < -bb) or (oa < -ba and ob > bb))
                        and ((o0 > b0 and o1 < -b1) or (o0 < -b0 and o1 > b1))):
                    return None                     # touching or too near to tell
                if abs(oa - ob) <= SHALLOW * (abs(ex) + abs(ey)) * (abs(dx) + abs(dy)):
                    return None                     # nearly along the edge: where is ill-told
                ts.append(oa / (oa - ob))
            if not ts and not odd:
                continue
            ts.sort()
            bounds = ([0.0] if odd else []) + ts
            if len(bounds) % 2:
                bounds.append(1.0)
            for f0, f1 in zip(bounds[::2], bounds[1::2], strict=True):
                xa, ya = (ax, ay) if f0 == 0.0 else (ax + dx * f0, ay + dy * f0)
                xb, yb = (bx, by) if f1 == 1.0 else (ax + dx * f1, ay + dy * f1)
                s0 = ((xa - ax) * dx + (ya - ay) * dy) / length
                s1 = ((xb - ax) * dx + (yb - ay) * dy) / length
                out.append(Crossing(max(0.0, s0), min(length, s1), sf.z_at(xa, ya),
                                    sf.z_at(xb, yb), sf.label))
        return out
