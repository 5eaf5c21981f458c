"""Text sizes: derived from the table's physical scale (labels on the table) or the
window (the panel), times the user's UI scale; never fixed pixels.

A font of size N (pygame's default face) has capitals `CAP_PER_SIZE * N` pixels
tall and lines `LINE_PER_SIZE * N` tall (measured; a test checks them).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

CAP_PER_SIZE = 0.45          # capital height / font size
LINE_PER_SIZE = 0.69         # line height / font size
TABLE_LABEL_CM = 0.8         # labels on the table: capitals at least 8 mm tall at true scale
MIN_TABLE_PX = 20            # ... and never smaller than this on screen (zoomed far out)
PANEL_LINES = 40             # the panel's base text: the window's height / this
MIN_PANEL_PX = 16
UI_SCALES = (0.75, 1.0, 1.25, 1.5, 2.0)
READING_DISTANCE_CM = 300.0  # the projector's texts are read from chairs this far away
READING_RATIO = 200.0        # ... with capitals at least distance / 200 tall (1.5 cm at 3 m)


@dataclass(frozen=True)
class TextSizes:
    """Font sizes for everything the view writes."""

    table: int        # labels on the table (bot names, to-hit, reasons)
    banner: int       # results over the table
    panel: int        # the panel's text
    title: int        # the panel's headings
    least: int = 0    # no text in this window smaller (the projector's reading size)

    def as_dict(self) -> dict[str, object]:
        return {"table": self.table, "banner": self.banner, "panel": self.panel,
                "title": self.title, "least": self.least}


def table_font_size(px_per_cm: float, ui_scale: float = 1.0) -> int:
    """The font size whose capitals are TABLE_LABEL_CM tall on the table at this scale."""
    size = TABLE_LABEL_CM * px_per_cm / CAP_PER_SIZE
    return max(round(MIN_TABLE_PX * ui_scale), math.ceil(size * ui_scale))


def text_sizes(px_per_cm: float, window: tuple[int, int], ui_scale: float = 1.0) -> TextSizes:
    """Sizes for a table drawn at `px_per_cm` in a window of this size."""
    table = table_font_size(px_per_cm, ui_scale)
    panel = max(MIN_PANEL_PX, round(window[1] / PANEL_LINES * ui_scale))
    return TextSizes(table=table, banner=max(2 * table, round(panel * 1.8)), panel=panel,
                     title=round(panel * 1.35))


def reading_font_size(px_per_cm: float, distance_cm: float = READING_DISTANCE_CM) -> int:
    """The smallest font size whose capitals stand distance / READING_RATIO tall on the
    table at `px_per_cm` (the table's true scale): one size up from the measured
    ratio, as the face rounds its own size down."""
    cap_px = distance_cm / READING_RATIO * px_per_cm
    return math.ceil(cap_px / CAP_PER_SIZE) + 1


def reading_sizes(px_per_cm: float, distance_cm: float = READING_DISTANCE_CM) -> TextSizes:
    """Sizes for the projector: every text readable from `distance_cm` at the table's
    true scale `px_per_cm`, whatever the window's pixels (the laptop keeps `text_sizes`
    and its UI scale)."""
    least = reading_font_size(px_per_cm, distance_cm)
    return TextSizes(table=least, banner=round(least * 1.5), panel=least,
                     title=round(least * 1.25), least=least)


def cap_height_cm(font_size: int, px_per_cm: float) -> float:
    """How tall a font's capitals stand on the table, in cm."""
    return CAP_PER_SIZE * font_size / px_per_cm


def next_ui_scale(current: float) -> float:
    """The UI-scale key steps through UI_SCALES and wraps."""
    bigger = [s for s in UI_SCALES if s > current + 1e-9]
    return bigger[0] if bigger else UI_SCALES[0]
