"""Small widgets: buttons, text blocks and the ruler."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import pygame

from bottisota.view import style
from bottisota.view.camera import Camera


@dataclass
class Button:
    """A clickable rectangle with a label; `action` runs on click."""

    rect: pygame.Rect
    text: str
    action: Callable[[], None]
    enabled: bool = True
    colour: style.Colour = (60, 66, 80)

    def draw(self, surface: pygame.Surface) -> None:
        fill = self.colour if self.enabled else (40, 42, 48)
        pygame.draw.rect(surface, fill, self.rect, border_radius=4)
        pygame.draw.rect(surface, style.TEXT_DIM, self.rect, 1, border_radius=4)
        lab = style.label(self.text, 20, style.TEXT if self.enabled else style.TEXT_DIM)
        surface.blit(lab, lab.get_rect(center=self.rect.center))

    def hit(self, pos: tuple[int, int]) -> bool:
        return self.enabled and self.rect.collidepoint(pos)


def text_block(surface: pygame.Surface, lines: list[tuple[str, style.Colour]],
               topleft: tuple[int, int], size: int = 18, width: int | None = None,
               max_lines: int | None = None) -> int:
    """Lines of text from `topleft`; long lines are cut to `width` px. Returns the y below."""
    x, y = topleft
    step = size + 2
    shown = lines if max_lines is None else lines[-max_lines:] if max_lines > 0 else []
    for text, colour in shown:
        lab = style.label(text, size, colour)
        if width is not None and lab.get_width() > width:
            surface.blit(lab, (x, y), area=pygame.Rect(0, 0, width, lab.get_height()))
        else:
            surface.blit(lab, (x, y))
        y += step
    return y


def draw_ruler(surface: pygame.Surface, cam: Camera, a: tuple[float, float],
               b: tuple[float, float]) -> None:
    """A measuring line between two table points, ticked every cm, with its length."""
    pa, pb = cam.to_px(*a), cam.to_px(*b)
    pygame.draw.line(surface, style.OUTLINE, pa, pb, 5)
    pygame.draw.line(surface, style.RULER, pa, pb, 2)
    length = math.dist(a, b)
    if length > 0:
        ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
        for i in range(1, int(length) + 1):
            tick = 6 if i % 5 else 12
            p = cam.to_px(a[0] + ux * i, a[1] + uy * i)
            n = (-uy * tick, -ux * tick)   # perpendicular in pixel space (y flipped)
            pygame.draw.line(surface, style.RULER, (p[0] - n[0] / 2, p[1] - n[1] / 2),
                             (p[0] + n[0] / 2, p[1] + n[1] / 2), 1)
    for p in (pa, pb):
        pygame.draw.circle(surface, style.RULER, p, 4)
    lab = style.label(f"{length:.2f} cm", 24, style.RULER)
    mid = ((pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2)
    rect = lab.get_rect(midbottom=(mid[0], mid[1] - 8))
    pygame.draw.rect(surface, style.OUTLINE, rect.inflate(6, 2))
    surface.blit(lab, rect)
