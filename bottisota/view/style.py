"""Colours, line widths and fonts of the table view: high contrast for a projector.

Player colours come from the Okabe–Ito palette (safe for colour-blind
players). Every feature type has its own fill so that each is told apart at
a glance and in pixel tests.
"""
from __future__ import annotations

import os

import pygame

from bottisota.core.printable import printable

Colour = tuple[int, int, int]

# Okabe–Ito, brightest first after the named matches
OKABE_ITO: dict[str, Colour] = {
    "orange": (230, 159, 0),
    "sky": (86, 180, 233),
    "green": (0, 158, 115),
    "yellow": (240, 228, 66),
    "blue": (0, 114, 178),
    "red": (213, 94, 0),          # vermillion
    "purple": (204, 121, 167),    # reddish purple
}
_SEAT_ORDER = ("red", "blue", "orange", "sky", "green", "purple", "yellow")
_ALIASES = {"vermillion": "red", "pink": "purple", "magenta": "purple", "cyan": "sky",
            "teal": "green", "skyblue": "sky", "lightblue": "sky", "gold": "yellow"}

BACKGROUND: Colour = (12, 13, 16)
FLOOR: Colour = (34, 38, 46)
GRID_FINE: Colour = (48, 53, 63)
GRID_BOLD: Colour = (74, 82, 96)
TEXT: Colour = (240, 240, 240)
TEXT_DIM: Colour = (170, 175, 185)
PANEL: Colour = (22, 24, 30)
OUTLINE: Colour = (0, 0, 0)

FEATURE_FILL: dict[str, Colour] = {
    "wall": (184, 184, 192),
    "door": (176, 120, 52),
    "platform": (58, 70, 96),       # shaded brighter with height, see `floor_shade`
    "stairs": (92, 110, 150),
    "ramp": (84, 128, 104),
    "escalator": (120, 96, 156),
    "lift": (56, 150, 170),
    "pit": (0, 0, 0),
    "conveyor": (78, 78, 90),
    "service": (40, 168, 92),
    "teleporter": (150, 70, 210),
    "goal": (250, 250, 250),        # white with a black ring: no player is white
}
DOOR_OPEN: Colour = (92, 64, 30)
PIT_RIM: Colour = (220, 40, 40)
CLIFF_EDGE: Colour = (255, 236, 160)
WALL_EDGE: Colour = (245, 245, 250)
ARROW: Colour = (250, 250, 250)
MINE: Colour = (230, 60, 60)

# overlays
REFUSAL: Colour = (255, 32, 96)         # illegal step / blocked line (not a player colour)
LEGAL: Colour = (120, 230, 120)
GHOST: Colour = (235, 235, 235)
RULER: Colour = (255, 255, 255)
ARC_FILL = (255, 255, 255, 36)
BLAST: Colour = (255, 255, 255)         # drawn dashed and thick: no player is white
CORRIDOR: Colour = (190, 255, 190)      # spray: pale mint, far from green and sky
SIGHT_CLEAR: Colour = (120, 230, 120)
SIGHT_BLOCKED: Colour = REFUSAL
OUT_OF_ARC: Colour = (150, 150, 150)
LABEL_BACK: Colour = (0, 0, 0)          # every label on the table stands on black

# how a line or label reads (the view model's tones) -> its colour; each reads at
# least 4.5:1 on LABEL_BACK and on PANEL (a test checks)
TONES: dict[str, Colour] = {
    "plain": TEXT, "dim": TEXT_DIM, "alarm": (255, 92, 120), "dice": (255, 220, 80),
    "good": (120, 230, 120), "refusal": (255, 92, 120), "clear": (120, 230, 120),
}

# a shape per seat, so players are told apart without colour
SEAT_MARKS: tuple[str, ...] = ("dot", "square", "triangle", "diamond", "cross", "bar", "ring")


def tone(name: str) -> Colour:
    return TONES.get(name, TEXT)


def seat_mark(players: list[str], player: str) -> str:
    """The mark drawn in a player's bots and chips (by seat)."""
    i = players.index(player) if player in players else len(players)
    return SEAT_MARKS[i % len(SEAT_MARKS)]


def luminance(c: Colour) -> float:
    def ch(v: int) -> float:
        s = v / 255.0
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4
    return 0.2126 * ch(c[0]) + 0.7152 * ch(c[1]) + 0.0722 * ch(c[2])


def contrast(a: Colour, b: Colour) -> float:
    """WCAG contrast ratio of two colours."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)

PLAYER_DEFAULT_ORDER: tuple[str, ...] = _SEAT_ORDER


def player_colour(player: str, seat: int = 0) -> Colour:
    """The Okabe–Ito colour for a player: by name when it names one, else by seat."""
    key = _ALIASES.get(player.lower(), player.lower())
    if key in OKABE_ITO:
        return OKABE_ITO[key]
    return OKABE_ITO[_SEAT_ORDER[seat % len(_SEAT_ORDER)]]


def floor_shade(z: float, top: float = 12.0) -> Colour:
    """Floor colour for a height: the table floor at 0, brighter and bluer higher up."""
    t = max(0.0, min(1.0, z / top))
    lo, hi = FEATURE_FILL["platform"], (150, 170, 210)
    if z <= 0:
        return FLOOR
    c = [round(a + (b - a) * t) for a, b in zip(lo, hi, strict=True)]
    return (c[0], c[1], c[2])


def contrast_text(fill: Colour) -> Colour:
    """Black or white, whichever reads better on `fill`."""
    r, g, b = fill
    return (0, 0, 0) if (0.299 * r + 0.587 * g + 0.114 * b) > 140 else (255, 255, 255)


_fonts: dict[int, pygame.font.Font] = {}
_labels: dict[tuple[str, int, Colour], pygame.Surface] = {}


def forget_fonts() -> None:
    """Drop cached fonts and labels (before pygame quits: they die with it)."""
    _fonts.clear()
    _labels.clear()
    _sizes.clear()


def font(size: int) -> pygame.font.Font:
    """pygame's default font at a pixel size (cached)."""
    if not pygame.font.get_init():
        forget_fonts()
        pygame.font.init()
    f = _fonts.get(size)
    if f is None:
        f = _fonts[size] = default_font(size)
    return f


DEFAULT_FONT_SCALE = 0.6875    # pygame's Font(None, size) scales the size by this


def default_font(size: int) -> pygame.font.Font:
    """pygame's default font exactly as `Font(None, size)` makes it, opened from its
    file's path (`Font(None, ...)` reads the file through importlib.resources for every
    size: about 0.4 ms a size against 0.1, at start-up)."""
    path = os.path.join(os.path.dirname(pygame.__file__), pygame.font.get_default_font())
    if not os.path.isfile(path):
        return pygame.font.Font(None, size)
    return pygame.font.Font(path, max(1, int(size * DEFAULT_FONT_SCALE)))


_sizes: dict[tuple[str, int], tuple[int, int]] = {}


def text_size(text: str, size: int) -> tuple[int, int]:
    """The pixel size of a text at a font size (cached: asked for every label, every frame)."""
    key = (text, size)
    got = _sizes.get(key)
    if got is None:
        if len(_sizes) > 4000:
            _sizes.clear()
        got = _sizes[key] = font(size).size(printable(text))
    return got


def label(text: str, size: int, colour: Colour = TEXT) -> pygame.Surface:
    """A rendered text (cached: labels are drawn every frame)."""
    key = (text, size, colour)
    s = _labels.get(key)
    if s is None:
        if len(_labels) > 4000:
            _labels.clear()
        s = _labels[key] = font(size).render(printable(text), True, colour)
    return s
