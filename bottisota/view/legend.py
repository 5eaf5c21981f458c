"""The legend: what each colour and mark on the table means."""
from __future__ import annotations

import pygame

from bottisota.core.arena import FEATURE_TYPES, Arena
from bottisota.core.i18n import N_, _
from bottisota.view import style

LEGEND_WIDTH = 220
_ROW = 26

_NAMES = {
    "wall": N_("wall"), "door": N_("door (closed)"), "platform": N_("platform"),
    "stairs": N_("stairs (arrow: up)"),
    "ramp": N_("ramp (arrow: up)"), "escalator": N_("escalator"), "lift": N_("lift"),
    "pit": N_("pit"),
    "conveyor": N_("conveyor belt"), "service": N_("service point"), "teleporter": N_("teleporter"),
    "goal": N_("goal marker"),
}


def legend_rows(arena: Arena) -> list[tuple[str, style.Colour, str]]:
    """(key, colour, text) for every feature type in the arena, then the fixed marks."""
    present = {f.type for f in arena.features}
    rows = [(t, style.FEATURE_FILL[t], _(_NAMES[t])) for t in FEATURE_TYPES if t in present]
    if "platform" in present:
        rows.append(("cliff", style.CLIFF_EDGE, _("cliff edge")))
    rows.append(("door-open", style.DOOR_OPEN, _("door (open)")))
    rows.append(("mine", style.MINE, _("mine marker")))
    return rows


def legend_height(arena: Arena, size: int = 20) -> int:
    row = _row(size)
    return round(size * 1.2 * 0.69) + 20 + row * (len(legend_rows(arena)) + 1)


def _row(size: int) -> int:
    return max(_ROW, style.font(size).get_linesize() + 6)


def legend_width(arena: Arena, size: int = 20) -> int:
    """The legend's width: LEGEND_WIDTH at the laptop's sizes, its longest row's at others."""
    swatch = max(28, size)
    widest = max(style.text_size(text, size)[0] for _k, _c, text in legend_rows(arena))
    widest = max(widest, style.text_size(arena.name, round(size * 1.2))[0] - swatch - 8)
    return max(LEGEND_WIDTH, swatch + 28 + widest)


def draw_legend(surface: pygame.Surface, topleft: tuple[int, int], arena: Arena,
                width: int = LEGEND_WIDTH, size: int = 20) -> pygame.Rect:
    """Draw the legend panel (rows at font `size`); returns its rectangle."""
    rows = legend_rows(arena)
    row = _row(size)
    swatch = max(28, size)
    rect = pygame.Rect(topleft[0], topleft[1], width, legend_height(arena, size))
    pygame.draw.rect(surface, style.PANEL, rect)
    pygame.draw.rect(surface, style.GRID_BOLD, rect, 1)
    title = style.label(arena.name, round(size * 1.2), style.TEXT)
    surface.blit(title, (rect.x + 10, rect.y + 8))
    y = rect.y + round(size * 1.2 * 0.69) + 20
    for key, colour, text in rows:
        sw = pygame.Rect(rect.x + 10, y + 3, swatch, row - 10)
        if key == "cliff":
            pygame.draw.line(surface, colour, (sw.x, sw.centery), (sw.right, sw.centery), 3)
        elif key == "mine":
            pygame.draw.circle(surface, colour, sw.center, sw.h // 2, 3)
        else:
            pygame.draw.rect(surface, colour, sw)
            pygame.draw.rect(surface, style.TEXT_DIM, sw, 1)
        surface.blit(style.label(text, size, style.TEXT), (sw.right + 18, y + 3))
        y += row
    grid = style.label(_("grid: 1 cm, bold 10 cm"), 18 if size <= 20 else size, style.TEXT_DIM)
    surface.blit(grid, (rect.x + 10, y + 4))
    return rect
