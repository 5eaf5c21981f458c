"""A build plan as SVG: vector, millimetre units, the document exactly the table's size
at the chosen print ratio (1 cm of table = 1 cm of paper at 1:1)."""
from __future__ import annotations

import math
from pathlib import Path
from xml.sax.saxutils import escape

from bottisota.view.blueprint import (
    Blueprint,
    Circle,
    Item,
    Line,
    Shape,
    scale_bar,
)

FONT = "Helvetica, Arial, sans-serif"


def _rgb(c) -> str:
    return "none" if c is None else f"#{c[0]:02x}{c[1]:02x}{c[2]:02x}"


def _n(v: float) -> str:
    return f"{v:.3f}".rstrip("0").rstrip(".") or "0"


def arrow_head(a: tuple[float, float], b: tuple[float, float], size: float
               ) -> list[tuple[float, float]]:
    """The three corners of an arrow head at b pointing away from a (same units)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = math.hypot(dx, dy) or 1.0
    ux, uy = dx / n, dy / n
    back = (b[0] - ux * size, b[1] - uy * size)
    return [b, (back[0] - uy * size * 0.5, back[1] + ux * size * 0.5),
            (back[0] + uy * size * 0.5, back[1] - ux * size * 0.5)]


class Paper:
    """Table cm -> paper mm (y down) at a print ratio 1:`ratio`."""

    def __init__(self, bp: Blueprint, ratio: float) -> None:
        self.bp = bp
        self.ratio = ratio
        self.k = 10.0 / ratio
        self.width = bp.size[0] * self.k
        self.height = bp.size[1] * self.k

    def __call__(self, x: float, y: float) -> tuple[float, float]:
        return x * self.k, (self.bp.size[1] - y) * self.k

    def sheet(self, key: bool) -> tuple[float, float]:
        """The document's size in mm: the table, and with the key a column beside it."""
        if not key:
            return self.width, self.height
        kw, kh = self.bp.key_size
        return (self.width + 2 * KEY_GAP + max(kw, SCALE_BAR_W),
                max(self.height, KEY_TOP + kh + KEY_GAP + 6.0))

    def key_origin(self) -> tuple[float, float]:
        """Where the key starts: beside the table, never over it."""
        return self.width + KEY_GAP, KEY_TOP

    def bar_origin(self) -> tuple[float, float]:
        """Where the scale bar starts: under the key."""
        return self.width + KEY_GAP, KEY_TOP + self.bp.key_size[1] + KEY_GAP


KEY_GAP = 8.0                     # mm between the table and the key
KEY_TOP = 6.0                     # mm above the key's first line
SCALE_BAR_W = 180.0               # mm the scale bar and its label may take


def _svg_item(item: Item, to, k: float) -> str:
    """One item; `to` maps its coordinates to mm, `k` its lengths (radius)."""
    if isinstance(item, Shape):
        d = " ".join("M " + " L ".join(f"{_n(a)} {_n(b)}" for a, b in (to(*p) for p in ring))
                     + " Z" for ring in item.rings)
        dash = ' stroke-dasharray="1.2 0.8"' if item.dash else ""
        return (f'<path d="{d}" fill="{_rgb(item.fill)}" fill-rule="evenodd" '
                f'stroke="{_rgb(item.stroke)}" stroke-width="{_n(item.width)}"{dash}/>')
    if isinstance(item, Line):
        pts = [to(*p) for p in item.points]
        dash = ' stroke-dasharray="2 1.2"' if item.dash else ""
        out = (f'<polyline points="{" ".join(f"{_n(a)},{_n(b)}" for a, b in pts)}" fill="none" '
               f'stroke="{_rgb(item.stroke)}" stroke-width="{_n(item.width)}"{dash}/>')
        if item.arrow and len(pts) >= 2:
            head = arrow_head(pts[-2], pts[-1], max(2.0, item.width * 6))
            out += (f'<polygon points="{" ".join(f"{_n(a)},{_n(b)}" for a, b in head)}" '
                    f'fill="{_rgb(item.stroke)}"/>')
        return out
    if isinstance(item, Circle):
        cx, cy = to(item.x, item.y)
        return (f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(item.r * k)}" '
                f'fill="{_rgb(item.fill)}" stroke="{_rgb(item.stroke)}" '
                f'stroke-width="{_n(item.width)}"/>')
    x, y = to(item.x, item.y)
    anchor = {"start": "start", "middle": "middle", "end": "end"}[item.anchor]
    weight = ' font-weight="bold"' if item.bold else ""
    return (f'<text x="{_n(x)}" y="{_n(y)}" font-family="{FONT}" font-size="{_n(item.size)}" '
            f'text-anchor="{anchor}" fill="{_rgb(item.colour)}"{weight}>{escape(item.text)}</text>')


def svg_text(bp: Blueprint, ratio: float = 1.0, key: bool = True) -> str:
    """The SVG document of a plan: the table at 1:`ratio`, and the key and the scale bar
    beside it (never over the table)."""
    paper = Paper(bp, ratio)
    w, h = paper.sheet(key)
    parts = ['<?xml version="1.0" encoding="UTF-8"?>',
             f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{_n(w)}mm" '
             f'height="{_n(h)}mm" viewBox="0 0 {_n(w)} {_n(h)}">',
             f'<title>{escape(bp.title)} (1:{_n(ratio)}, units mm)</title>',
             '<g id="table">']
    parts += [_svg_item(item, paper, paper.k) for item in bp.items]
    parts.append("</g>")
    if key:
        ox, oy = paper.key_origin()
        parts.append(f'<g id="key" transform="translate({_n(ox)} {_n(oy)})">')
        parts += [_svg_item(item, lambda x, y: (x, y), 1.0) for item in bp.key]
        parts.append("</g>")
        bx, by = paper.bar_origin()
        parts.append(f'<g id="scale-bar" transform="translate({_n(bx)} {_n(by)})">')
        parts += [_svg_item(item, lambda x, y: (x, y), 1.0)
                  for item in scale_bar(ratio, SCALE_BAR_W)[0]]
        parts.append("</g>")
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def write_svg(path: str | Path, bp: Blueprint, ratio: float = 1.0, key: bool = True) -> Path:
    out = Path(path)
    out.write_text(svg_text(bp, ratio, key), encoding="utf-8")
    return out
