"""True scale: how many pixels make one centimetre on the real (projected) table,
measured along both axes (the calibration file: `viewmodel.calibration_store`).

The calibrate screen shows a ruler the user stretches until it matches 10 cm on
the table, first across, then up and down.
"""
from __future__ import annotations

import pygame

from bottisota.view import style
from bottisota.viewmodel.calibration_store import Calibration

RULER_CM = 10.0          # the calibration ruler's length on the real table
STRETCH_STEP_PX = 1.0    # one key press changes the ruler by this many pixels (Shift: 10)


class CalibrationScreen:
    """A ruler to stretch until it is 10 cm long on the table.

    Left/Right (Shift: x10) or dragging the end changes its length; Enter takes the
    across measure and then the up-and-down one; Esc cancels. `done` is then True and
    `result` the Calibration (or None).
    """

    def __init__(self, px_per_cm: float) -> None:
        self.length_px = px_per_cm * RULER_CM
        self.done = False
        self.result: Calibration | None = None
        self.across: float | None = None      # px per cm along x, once taken
        self._dragging = False

    @property
    def vertical(self) -> bool:
        return self.across is not None

    @property
    def px_per_cm(self) -> float:
        return self.length_px / RULER_CM

    def handle(self, event: pygame.event.Event, size: tuple[int, int]) -> None:
        if event.type == pygame.KEYDOWN:
            step = STRETCH_STEP_PX * (10 if event.mod & pygame.KMOD_SHIFT else 1)
            if event.key in (pygame.K_RIGHT, pygame.K_UP, pygame.K_PLUS, pygame.K_EQUALS):
                self.length_px += step
            elif event.key in (pygame.K_LEFT, pygame.K_DOWN, pygame.K_MINUS):
                self.length_px = max(RULER_CM, self.length_px - step)
            elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                if self.across is None:
                    self.across = self.px_per_cm
                else:
                    self.done, self.result = True, Calibration(self.across, self.px_per_cm)
            elif event.key == pygame.K_ESCAPE:
                self.done, self.result = True, None
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self._dragging = True
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            self._dragging = False
        elif event.type == pygame.MOUSEMOTION and self._dragging:
            if self.vertical:
                self.length_px = max(RULER_CM, 2.0 * abs(event.pos[1] - size[1] / 2.0))
            else:
                self.length_px = max(RULER_CM, 2.0 * abs(event.pos[0] - size[0] / 2.0))

    def draw(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        surface.fill(style.BACKGROUND)
        size = max(18, h // 30)
        if self.vertical:
            self._draw_vertical(surface, size)
            return
        left = (w - self.length_px) / 2.0
        y = h / 2.0
        pygame.draw.line(surface, style.RULER, (left, y), (left + self.length_px, y), 3)
        for i in range(int(RULER_CM) + 1):
            x = left + i * self.px_per_cm
            tick = 30 if i % 5 == 0 else 16
            pygame.draw.line(surface, style.RULER, (x, y - tick), (x, y), 2)
            if i % 5 == 0:
                lab = style.label(f"{i} cm", size, style.TEXT)
                surface.blit(lab, lab.get_rect(midbottom=(x, y - tick - 2)))
        lines = ["CALIBRATE (1 of 2, across): "
                 "stretch the ruler until it measures 10 cm on the table",
                 "Left/Right (Shift: x10) or drag its end  -  Enter: next  -  Esc cancels",
                 f"{self.px_per_cm:.2f} px per cm"]
        for i, text in enumerate(lines):
            lab = style.label(text, size, style.TEXT)
            surface.blit(lab, lab.get_rect(midtop=(w / 2, y + 50 + (size + 6) * i)))

    def _draw_vertical(self, surface: pygame.Surface, size: int) -> None:
        w, h = surface.get_size()
        x = w / 2.0
        top = (h - self.length_px) / 2.0
        pygame.draw.line(surface, style.RULER, (x, top), (x, top + self.length_px), 3)
        for i in range(int(RULER_CM) + 1):
            y = top + i * self.px_per_cm
            pygame.draw.line(surface, style.RULER, (x - (30 if i % 5 == 0 else 16), y), (x, y), 2)
        lines = ["CALIBRATE (2 of 2, up and down): stretch the ruler to 10 cm on the table",
                 "Up/Down or Left/Right (Shift: x10) or drag its end  -  "
                 "Enter saves  -  Esc cancels",
                 f"across {self.across:.2f}, up and down {self.px_per_cm:.2f} px per cm"]
        for i, text in enumerate(lines):
            lab = style.label(text, size, style.TEXT)
            surface.blit(lab, (x + 40, 40 + (size + 6) * i))
