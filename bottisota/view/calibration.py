"""True scale: how many pixels make one centimetre on the real (projected) table.

The calibrate screen shows a ruler the user stretches until it matches 10 cm
on the table; the answer is saved per display in a small JSON file in the
user's config folder (`$XDG_CONFIG_HOME/bottisota/displays.json`, by default
`~/.config/bottisota/displays.json`).
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pygame

from bottisota.view import style

RULER_CM = 10.0          # the calibration ruler's length on the real table
STRETCH_STEP_PX = 1.0    # one key press changes the ruler by this many pixels (Shift: 10)


def config_dir() -> Path:
    """The user's config folder for bottisota (XDG_CONFIG_HOME honoured)."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "bottisota"


def calibration_file() -> Path:
    return config_dir() / "displays.json"


def display_key(size: tuple[int, int], index: int = 0) -> str:
    """The name a display's scale is saved under: its index and desktop size."""
    return f"display{index}-{size[0]}x{size[1]}"


def load_scale(key: str) -> float | None:
    """The saved px per cm for a display, or None if it was never calibrated."""
    try:
        data = json.loads(calibration_file().read_text(encoding="utf-8"))
        value = float(data[key]["px_per_cm"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return value if value > 0 else None


def save_scale(key: str, px_per_cm: float) -> Path:
    """Save a display's px per cm (other displays' entries are kept)."""
    path = calibration_file()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            data = {}
    except (OSError, ValueError):
        data = {}
    data[key] = {"px_per_cm": round(px_per_cm, 4)}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return path


class CalibrationScreen:
    """A ruler to stretch until it is 10 cm long on the table.

    Left/Right (Shift: x10) or dragging the right end changes its length; Enter
    saves, Esc cancels. `done` is then True and `result` the px per cm (or None).
    """

    def __init__(self, px_per_cm: float) -> None:
        self.length_px = px_per_cm * RULER_CM
        self.done = False
        self.result: float | None = None
        self._dragging = False

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
                self.done, self.result = True, self.px_per_cm
            elif event.key == pygame.K_ESCAPE:
                self.done, self.result = True, None
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self._dragging = True
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            self._dragging = False
        elif event.type == pygame.MOUSEMOTION and self._dragging:
            centre = size[0] / 2.0
            self.length_px = max(RULER_CM, 2.0 * abs(event.pos[0] - centre))

    def draw(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        surface.fill(style.BACKGROUND)
        left = (w - self.length_px) / 2.0
        y = h / 2.0
        pygame.draw.line(surface, style.RULER, (left, y), (left + self.length_px, y), 3)
        for i in range(int(RULER_CM) + 1):
            x = left + i * self.px_per_cm
            tick = 30 if i % 5 == 0 else 16
            pygame.draw.line(surface, style.RULER, (x, y - tick), (x, y), 2)
            if i % 5 == 0:
                lab = style.label(f"{i} cm", 22, style.TEXT)
                surface.blit(lab, lab.get_rect(midbottom=(x, y - tick - 2)))
        lines = ["CALIBRATE: stretch the ruler until it measures 10 cm on the table",
                 "Left/Right (Shift: x10) or drag its end  -  Enter saves  -  Esc cancels",
                 f"{self.px_per_cm:.2f} px per cm"]
        for i, text in enumerate(lines):
            lab = style.label(text, 28, style.TEXT)
            surface.blit(lab, lab.get_rect(midtop=(w / 2, y + 50 + 34 * i)))
