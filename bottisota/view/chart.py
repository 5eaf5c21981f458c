"""The balance chart of `bottisota simulate -o chart.png`, drawn headless with pygame.

One bar per personality and per bot card: the win rate, its 95% interval as a
whisker, the draw rate, and the averages (kills, damage dealt and taken, rounds
survived) written beside it. A row whose interval lies clear of the rest is
marked OVER or UNDER in words and with a coloured frame (never colour alone).
"""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

import pygame

from bottisota.core.i18n import _, number
from bottisota.core.printable import printable
from bottisota.view import style

WIDTH = 1440
ROW = 34
MARGIN = 24
LABEL_W = 190
BAR_W = 420
BAR_H = 18
HEADER = 40
AXIS = 22                       # the percent labels under a section's name
BAR: style.Colour = style.OKABE_ITO["sky"]
WHISKER: style.Colour = style.OKABE_ITO["orange"]
FLAGGED: dict[str, style.Colour] = {"over": style.OKABE_ITO["red"],
                                    "under": style.OKABE_ITO["blue"]}


class ChartRow(Protocol):
    label: str
    n: int
    kills: float
    dealt: float
    taken: float
    rounds: float
    goals: float

    @property
    def rate(self) -> float: ...

    @property
    def interval(self) -> tuple[float, float]: ...


def chart_height(sections: Sequence[tuple[str, Sequence[ChartRow]]]) -> int:
    rows = sum(len(rows) for _title, rows in sections)
    return MARGIN * 2 + HEADER + len(sections) * (HEADER + AXIS + ROW // 2) + rows * ROW


def render_chart(sections: Sequence[tuple[str, Sequence[ChartRow]]], title: str) -> pygame.Surface:
    """The chart as a surface (no display needed)."""
    pygame.font.init()
    big = pygame.font.Font(None, 34)
    font = pygame.font.Font(None, 24)
    surface = pygame.Surface((WIDTH, chart_height(sections)))
    surface.fill(style.BACKGROUND)
    surface.blit(big.render(printable(title), True, style.TEXT), (MARGIN, MARGIN))
    y = MARGIN + HEADER
    x0 = MARGIN + LABEL_W
    for name, rows in sections:
        surface.blit(font.render(_("{name}: win rate, 95% interval").format(
                                     name=name), True, style.TEXT_DIM),
                     (MARGIN, y + 8))
        for pct in (0, 25, 50, 75, 100):
            gx = x0 + BAR_W * pct // 100
            surface.blit(font.render(f"{pct}%", True, style.TEXT_DIM), (gx - 12, y + 8 + AXIS))
        y += HEADER + AXIS
        top = y
        for row in rows:
            flag = getattr(row, "flag", "")
            name = f"{row.label} ({row.n})" + (f" {flag.upper()}" if flag else "")
            surface.blit(font.render(printable(name), True, FLAGGED.get(flag, style.TEXT)),
                         (MARGIN, y + 8))
            if flag:
                pygame.draw.rect(surface, FLAGGED[flag], (x0 - 4, y + 4, BAR_W + 8, BAR_H + 8), 3)
            pygame.draw.rect(surface, style.PANEL, (x0, y + 8, BAR_W, BAR_H))
            pygame.draw.rect(surface, BAR, (x0, y + 8, round(BAR_W * row.rate), BAR_H))
            lo, hi = row.interval
            wy = y + 8 + BAR_H // 2
            pygame.draw.line(surface, WHISKER, (x0 + BAR_W * lo, wy), (x0 + BAR_W * hi, wy), 3)
            for edge in (lo, hi):
                ex = x0 + BAR_W * edge
                pygame.draw.line(surface, WHISKER, (ex, wy - 7), (ex, wy + 7), 3)
            draws = getattr(row, "draw_rate", 0.0)
            text = (_("{v}% ({v2}-{v3}), draws {v4}%   kills {kills}   "
                      "dealt {dealt}   taken {taken}   rounds {rounds}   goals "
                      "{goals}").format(
                        v=number(100 * row.rate, 0), v2=number(100 * lo, 0),
                        v3=number(100 * hi, 0), v4=number(100 * draws, 0),
                        kills=number(row.kills), dealt=number(row.dealt, 1),
                        taken=number(row.taken, 1), rounds=number(row.rounds, 1),
                        goals=number(row.goals, 1)))
            surface.blit(font.render(printable(text), True, style.TEXT), (x0 + BAR_W + 16, y + 8))
            y += ROW
        for pct in (25, 50, 75):
            gx = x0 + BAR_W * pct // 100
            pygame.draw.line(surface, style.GRID_BOLD, (gx, top), (gx, y), 1)
        y += ROW // 2
    return surface


def draw_chart(path: str | Path, sections: Sequence[tuple[str, Sequence[ChartRow]]],
               title: str) -> Path:
    """Write the chart as a PNG."""
    out = Path(path)
    pygame.image.save(render_chart(sections, title), str(out))
    return out
