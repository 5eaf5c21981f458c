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


def legend_height(arena: Arena) -> int:
    return 40 + _ROW * (len(legend_rows(arena)) + 1)


def draw_legend(surface: pygame.Surface, topleft: tuple[int, int], arena: Arena,
                width: int = LEGEND_WIDTH) -> pygame.Rect:
    """Draw the legend panel; returns its rectangle."""
    rows = legend_rows(arena)
    rect = pygame.Rect(topleft[0], topleft[1], width, legend_height(arena))
    pygame.draw.rect(surface, style.PANEL, rect)
    pygame.draw.rect(surface, style.GRID_BOLD, rect, 1)
    title = style.label(arena.name, 24, style.TEXT)
    surface.blit(title, (rect.x + 10, rect.y + 8))
    y = rect.y + 38
    for key, colour, text in rows:
        sw = pygame.Rect(rect.x + 10, y + 3, 28, 16)
        if key == "cliff":
            pygame.draw.line(surface, colour, (sw.x, sw.centery), (sw.right, sw.centery), 3)
        elif key == "mine":
            pygame.draw.circle(surface, colour, sw.center, 8, 3)
        else:
            pygame.draw.rect(surface, colour, sw)
            pygame.draw.rect(surface, style.TEXT_DIM, sw, 1)
        surface.blit(style.label(text, 20, style.TEXT), (rect.x + 46, y + 3))
        y += _ROW
    grid = style.label(_("grid: 1 cm, bold 10 cm"), 18, style.TEXT_DIM)
    surface.blit(grid, (rect.x + 10, y + 4))
    return rect
