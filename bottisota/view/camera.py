"""Camera: table centimetres (y up, D1) <-> window pixels (y down).

The only place where the y-flip and the scale live. A camera maps the table
rectangle [0, w] x [0, h] cm into a pixel rectangle: `scale` px per cm, and
`origin` = the pixel of the table's lower-left corner (0, 0).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

MIN_SCALE = 0.5     # px per cm: zooming out stops here
MAX_SCALE = 200.0   # px per cm: zooming in stops here


@dataclass(frozen=True, slots=True)
class Camera:
    """A view of the table: `scale` px per cm, table (0, 0) drawn at `origin` px."""

    table: tuple[float, float]          # table size, cm
    scale: float                        # px per cm (along x)
    origin: tuple[float, float]         # pixel of table point (0, 0): lower-left corner
    aspect: float = 1.0                 # px per cm along y / along x (a calibrated projector)

    @property
    def scale_y(self) -> float:
        return self.scale * self.aspect

    @classmethod
    def fit(cls, table: tuple[float, float], window: tuple[int, int],
            margin: int = 24, margin_y: int | None = None) -> Camera:
        """The whole table centred in a window area, as large as fits leaving `margin`
        px free at the sides and `margin_y` (default: `margin`) above and below."""
        tw, th = table
        ww, wh = window
        my = margin if margin_y is None else max(margin, margin_y)
        scale = max(MIN_SCALE, min((ww - 2 * margin) / tw, (wh - 2 * my) / th))
        return cls.centred(table, window, scale)

    @classmethod
    def centred(cls, table: tuple[float, float], window: tuple[int, int],
                scale: float, aspect: float = 1.0) -> Camera:
        """The table centred in the window at a given scale (e.g. true scale, whose y
        scale may differ: `aspect`)."""
        tw, th = table
        ww, wh = window
        ox = (ww - tw * scale) / 2.0
        oy = (wh + th * scale * aspect) / 2.0
        return cls(table=(float(tw), float(th)), scale=float(scale), origin=(ox, oy),
                   aspect=float(aspect))

    def moved(self, origin: tuple[float, float]) -> Camera:
        """The same camera drawing onto another surface whose (0, 0) is elsewhere."""
        return replace(self, origin=origin)

    # --- mapping ------------------------------------------------------------------
    def to_px(self, x: float, y: float) -> tuple[float, float]:
        """Table cm -> window pixel (float)."""
        return (self.origin[0] + x * self.scale, self.origin[1] - y * self.scale * self.aspect)

    def to_ipx(self, x: float, y: float) -> tuple[int, int]:
        """Table cm -> the window pixel that holds the point (integers, for drawing)."""
        px, py = self.to_px(x, y)
        return (int(math.floor(px)), int(math.floor(py)))

    def to_cm(self, px: float, py: float) -> tuple[float, float]:
        """Window pixel -> table cm."""
        return ((px - self.origin[0]) / self.scale,
                (self.origin[1] - py) / (self.scale * self.aspect))

    def length(self, cm: float) -> float:
        """A length in cm as pixels."""
        return cm * self.scale

    def screen_angle(self, facing: float) -> float:
        """A facing (D2: 0 = +y, clockwise) as a pixel-space direction in radians
        (0 = +x on screen, y down), for math.cos/sin in pixel space."""
        return math.radians(facing - 90.0)

    def table_rect(self) -> tuple[int, int, int, int]:
        """The table as a pixel rectangle (left, top, width, height)."""
        left, top = self.to_px(0.0, self.table[1])
        return (round(left), round(top), round(self.table[0] * self.scale),
                round(self.table[1] * self.scale * self.aspect))

    # --- moving the view ----------------------------------------------------------
    def panned(self, dx_px: float, dy_px: float) -> Camera:
        """The view dragged by some pixels."""
        return replace(self, origin=(self.origin[0] + dx_px, self.origin[1] + dy_px))

    def zoomed(self, factor: float, about_px: tuple[float, float]) -> Camera:
        """Zoomed by a factor, keeping the table point under `about_px` in place."""
        new_scale = min(MAX_SCALE, max(MIN_SCALE, self.scale * factor))
        cx, cy = self.to_cm(*about_px)
        ox = about_px[0] - cx * new_scale
        oy = about_px[1] + cy * new_scale * self.aspect
        return replace(self, scale=new_scale, origin=(ox, oy))

    def rescaled(self, scale: float, window: tuple[int, int]) -> Camera:
        """The same table centred at another scale."""
        return Camera.centred(self.table, window, scale, self.aspect)
