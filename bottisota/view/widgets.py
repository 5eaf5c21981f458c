"""Small widgets: buttons, text blocks and the ruler."""
from __future__ import annotations

import math
from collections.abc import Callable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

import pygame

from bottisota.core.i18n import _, number
from bottisota.view import style
from bottisota.view.camera import Camera


@dataclass
class Button:
    """A clickable rectangle with a label; `action` runs on click."""

    rect: pygame.Rect
    text: str
    action: str | Callable[[], None]   # a command name (the controller runs it) or a call
    enabled: bool = True
    colour: style.Colour = (60, 66, 80)

    def draw(self, surface: pygame.Surface) -> None:
        fill = self.colour if self.enabled else (40, 42, 48)
        pygame.draw.rect(surface, fill, self.rect, border_radius=4)
        pygame.draw.rect(surface, style.TEXT_DIM, self.rect, 1, border_radius=4)
        size = max(12, round(self.rect.h * 0.72))
        lab = style.label(self.text, size, style.TEXT if self.enabled else style.TEXT_DIM)
        while lab.get_width() > self.rect.w - 6 and size > 12:
            size -= 1
            lab = style.label(self.text, size, style.TEXT if self.enabled else style.TEXT_DIM)
        surface.blit(lab, lab.get_rect(center=self.rect.center))

    def hit(self, pos: tuple[int, int]) -> bool:
        return self.enabled and self.rect.collidepoint(pos)


_wrapped: dict[tuple[str, pygame.font.Font, int], tuple[str, ...]] = {}


def wrap(text: str, font: pygame.font.Font, width: int) -> list[str]:
    """A text broken into lines that fit `width` px, at spaces (a word longer than a
    line is broken where it must). Kept per text, font and width: the panel's lines are
    wrapped again each time it is drawn, mostly the same lines."""
    key = (text, font, width)
    got = _wrapped.get(key)
    if got is None:
        if len(_wrapped) > 4000:
            _wrapped.clear()
        got = _wrapped[key] = tuple(_wrap(text, font, width))
    return list(got)


def _wrap(text: str, font: pygame.font.Font, width: int) -> list[str]:
    if width <= 0 or font.size(text)[0] <= width:
        return [text]
    out: list[str] = []
    line = ""
    for word in text.split(" "):
        trial = f"{line} {word}" if line else word
        if font.size(trial)[0] <= width:
            line = trial
            continue
        if line:
            out.append(line)
        while font.size(word)[0] > width and len(word) > 1:
            cut = len(word)
            while cut > 1 and font.size(word[:cut])[0] > width:
                cut -= 1
            out.append(word[:cut])
            word = word[cut:]
        line = word
    if line:
        out.append(line)
    return out


def text_block(surface: pygame.Surface, lines: list[tuple[str, style.Colour]],
               topleft: tuple[int, int], size: int = 18, width: int | None = None,
               max_lines: int | None = None, struck: AbstractSet[int] = frozenset()) -> int:
    """Lines of text from `topleft`, long ones wrapped to `width` px (the newest kept
    when `max_lines` rows are too few); lines whose index is in `struck` are struck
    through. Returns the y below."""
    x, y = topleft
    font = style.font(size)
    step = font.get_linesize() + 1
    rows: list[tuple[str, style.Colour, bool]] = []
    for i, (text, colour) in enumerate(lines):
        for row in (wrap(text, font, width) if width else [text]):
            rows.append((row, colour, i in struck))
    if max_lines is not None:
        rows = rows[-max_lines:] if max_lines > 0 else []
    for text, colour, strike in rows:
        lab = style.label(text, size, colour)
        surface.blit(lab, (x, y))
        if strike:
            mid = y + lab.get_height() // 2
            pygame.draw.line(surface, colour, (x, mid), (x + lab.get_width(), mid), 2)
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
    lab = style.label(_("{length} cm").format(length=number(length)), 24, style.RULER)
    mid = ((pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2)
    rect = lab.get_rect(midbottom=(mid[0], mid[1] - 8))
    pygame.draw.rect(surface, style.OUTLINE, rect.inflate(6, 2))
    surface.blit(lab, rect)
