"""A build plan as SVG: vector, millimetre units, the document exactly the table's size
at the chosen print ratio (1 cm of table = 1 cm of paper at 1:1)."""
from __future__ import annotations

import math
from pathlib import Path
from xml.sax.saxutils import escape

from bottisota.view.blueprint import (
    WHITE,
    Blueprint,
    Circle,
    Item,
    Line,
    Shape,
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
        self.k = 10.0 / ratio
        self.width = bp.size[0] * self.k
        self.height = bp.size[1] * self.k

    def __call__(self, x: float, y: float) -> tuple[float, float]:
        return x * self.k, (self.bp.size[1] - y) * self.k

    def key_origin(self, margin: float = 3.0) -> tuple[float, float]:
        kw, kh = self.bp.key_size
        corner = self.bp.key_corner
        x = margin if "left" in corner else self.width - kw - margin
        y = margin + 6 if "top" in corner else self.height - kh - margin
        return max(0.0, x), max(0.0, y)


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
    """The SVG document of a plan."""
    paper = Paper(bp, ratio)
    w, h = paper.width, paper.height
    parts = ['<?xml version="1.0" encoding="UTF-8"?>',
             f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{_n(w)}mm" '
             f'height="{_n(h)}mm" viewBox="0 0 {_n(w)} {_n(h)}">',
             f'<title>{escape(bp.title)} (1:{_n(ratio)}, units mm)</title>',
             '<g id="table">']
    parts += [_svg_item(item, paper, paper.k) for item in bp.items]
    parts.append("</g>")
    if key:
        ox, oy = paper.key_origin()
        kw, kh = bp.key_size
        parts.append(f'<g id="key" transform="translate({_n(ox)} {_n(oy)})">')
        parts.append(f'<rect x="-2" y="-6" width="{_n(kw + 4)}" height="{_n(kh + 6)}" '
                     f'fill="{_rgb(WHITE)}" fill-opacity="0.9" stroke="#888" stroke-width="0.3"/>')
        parts += [_svg_item(item, lambda x, y: (x, y), 1.0) for item in bp.key]
        parts.append("</g>")
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def write_svg(path: str | Path, bp: Blueprint, ratio: float = 1.0, key: bool = True) -> Path:
    out = Path(path)
    out.write_text(svg_text(bp, ratio, key), encoding="utf-8")
    return out
