"""Marker ids for bots, and printable marker sheets.

Each bot gets the next free id (0-49, DICT_4X4_50) in the order the bots are placed;
the ids are kept with the game's camera settings. A sheet is an SVG in millimetres,
printed at 100 %: each marker a black square of `side` cm (its white margin around
it), an arrow under it saying which way is the bot's front, and its number.
"""
from __future__ import annotations

from pathlib import Path
from xml.sax.saxutils import escape

import cv2
import numpy as np

from bottisota.core.i18n import _
from bottisota.vision.synthetic import BITS, DICTIONARY

IDS = 50                        # DICT_4X4_50


def assign(bots: list[str], taken: dict[str, int] | None = None) -> dict[str, int]:
    """A marker id for every bot: those already given keep theirs, the others get the
    lowest free ids in order."""
    out = dict(taken or {})
    free = iter(i for i in range(IDS) if i not in out.values())
    for bot in bots:
        if bot not in out:
            out[bot] = next(free)
    return out


def bits(marker_id: int) -> np.ndarray:
    """The marker's cells, black border included (6 x 6, 1 = black)."""
    dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARY)
    image = cv2.aruco.generateImageMarker(dictionary, marker_id, BITS + 2, borderBits=1)
    return (image < 128).astype(np.uint8)


def sheet_svg(ids: list[int], side: float = 2.0, labels: dict[int, str] | None = None,
              page: tuple[float, float] = (210.0, 297.0)) -> str:
    """An SVG page (mm) of markers, `side` cm each, laid out in rows with their margins,
    front arrows and labels."""
    side_mm = side * 10.0
    cell = side_mm / (BITS + 2)
    pitch_x, pitch_y = side_mm + 2 * cell + 12.0, side_mm + 2 * cell + 16.0
    cols = max(1, int((page[0] - 20.0) // pitch_x))
    title = _("Bottisota markers: print at 100% (no fit to page); each black square is "
              "{side} cm").format(side=side)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{page[0]}mm" height="{page[1]}mm" '
             f'viewBox="0 0 {page[0]} {page[1]}">',
             f'<text x="10" y="8" font-size="4" font-family="sans-serif">{escape(title)}</text>']
    for n, marker_id in enumerate(ids):
        ox = 10.0 + (n % cols) * pitch_x + cell
        oy = 14.0 + (n // cols) * pitch_y + cell
        grid = bits(marker_id)
        for r in range(BITS + 2):
            for c in range(BITS + 2):
                if grid[r, c]:
                    parts.append(f'<rect x="{ox + c * cell:.3f}" y="{oy + r * cell:.3f}" '
                                 f'width="{cell:.3f}" height="{cell:.3f}" fill="black"/>')
        mid = ox + side_mm / 2
        top = oy - cell * 0.9
        parts.append(f'<path d="M {mid - 1.5:.2f} {top + 1.2:.2f} L {mid:.2f} {top - 0.3:.2f} '
                     f'L {mid + 1.5:.2f} {top + 1.2:.2f}" fill="none" stroke="grey" '
                     f'stroke-width="0.3"/>')
        label = (labels or {}).get(marker_id, "")
        text = f"#{marker_id} {label}".strip()
        parts.append(f'<text x="{ox:.2f}" y="{oy + side_mm + cell + 4.5:.2f}" font-size="3" '
                     f'font-family="sans-serif">{escape(text)}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def write_sheet(path: str | Path, ids: list[int], side: float = 2.0,
                labels: dict[int, str] | None = None) -> Path:
    out = Path(path)
    out.write_text(sheet_svg(ids, side, labels), encoding="utf-8")
    return out
