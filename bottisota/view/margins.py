"""Where the turn strips and the legends go: in the window's margin around the arena
(the part of the table's area the arena's picture leaves free), never over the arena
when the margin has room for them; over the table's edge only when it has none.

Two layouts: a strip along the top and the bottom margins (the top one upside down,
for the far side) when both are tall enough, else a column in each side margin (the
left one upright at the bottom, the right one upside down at the top). The legends
take the free part of the side margins."""
from __future__ import annotations

from dataclasses import dataclass, field

import pygame

from bottisota.view import style

GAP = 6                   # px between the arena, the margin's boxes and the window's edge
COLUMN_EMS = 4.5          # a side column is at least this many font sizes wide


@dataclass
class MarginLayout:
    """The strips' rectangles (upright one first), whether they run along the top and
    bottom (`horizontal`) or up the sides, and the free rectangles left for legends
    (best first). `over_table`: no room in the margin, the strips cover the arena's edge."""

    strips: list[pygame.Rect]
    horizontal: bool
    over_table: bool
    free: list[pygame.Rect] = field(default_factory=list)

    def legend_spot(self, width: int, height: int, fallback: tuple[int, int]) -> pygame.Rect:
        """Where a legend `width` x `height` goes: the first free rectangle that holds it
        (taken out of the free space), else the first wide enough (its top), else
        `fallback` (over the table)."""
        for need_height in (True, False):
            for i, r in enumerate(self.free):
                if r.w >= width and (r.h >= height or not need_height):
                    spot = pygame.Rect(r.x, r.y, width, min(height, r.h) if need_height
                                       else height)
                    self.free[i] = pygame.Rect(r.x, r.y + height + GAP, r.w,
                                               max(0, r.h - height - GAP))
                    return spot
        return pygame.Rect(fallback, (width, height))

    def widest_free(self) -> int:
        return max((r.w for r in self.free), default=0)


def margins(area: pygame.Rect, table: pygame.Rect) -> tuple[int, int, int, int]:
    """The free space around the arena inside `area`: (top, bottom, left, right), px."""
    t = table.clip(area)
    if t.w <= 0 or t.h <= 0:
        return (0, 0, 0, 0)
    return (t.top - area.top, area.bottom - t.bottom, t.left - area.left, area.right - t.right)


def strip_height(size: int) -> int:
    return style.font(size).get_linesize() + 10


def layout(area: pygame.Rect, table: pygame.Rect, size: int, column_height: int) -> MarginLayout:
    """Where the strips (font `size`; a side column `column_height` px tall) and the
    legends go around the arena drawn at `table` inside `area`."""
    top, bottom, left, right = margins(area, table)
    h = strip_height(size)
    if top >= h and bottom >= h:
        strips = [pygame.Rect(area.x, area.bottom - h, area.w, h),
                  pygame.Rect(area.x, area.y, area.w, h)]
        free = [pygame.Rect(area.x + GAP, area.y + h + GAP, left - 2 * GAP,
                            area.h - 2 * h - 2 * GAP),
                pygame.Rect(area.right - right + GAP, area.y + h + GAP, right - 2 * GAP,
                            area.h - 2 * h - 2 * GAP)]
        free.sort(key=lambda r: -r.w)
        return MarginLayout(strips, True, False, [r for r in free if r.w > 0 and r.h > 0])
    column = min(left, right) - 2 * GAP
    if column >= COLUMN_EMS * size:
        ch = min(column_height, area.h - 2 * GAP)
        strips = [pygame.Rect(area.x + GAP, area.bottom - GAP - ch, column, ch),
                  pygame.Rect(area.right - GAP - column, area.y + GAP, column, ch)]
        free = [pygame.Rect(area.x + GAP, area.y + GAP, left - 2 * GAP,
                            area.h - ch - 3 * GAP),
                pygame.Rect(area.right - right + GAP, area.y + ch + 2 * GAP, right - 2 * GAP,
                            area.h - ch - 3 * GAP)]
        return MarginLayout(strips, False, False, [r for r in free if r.w > 0 and r.h > 0])
    strips = [pygame.Rect(area.x, area.bottom - h, area.w, h),
              pygame.Rect(area.x, area.y, area.w, h)]
    return MarginLayout(strips, True, True, [])


def column_width(area: pygame.Rect, table: pygame.Rect) -> int:
    """How wide a side column would be (0: the margins are too narrow for one)."""
    _top, _bottom, left, right = margins(area, table)
    return max(0, min(left, right) - 2 * GAP)
