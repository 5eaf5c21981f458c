"""The help overlay (F1 or ?): every key and mouse action of the table view."""
from __future__ import annotations

import pygame

from bottisota.view import style

KEYS: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    ("Anywhere", (
        ("F1 or ?", "this help"),
        ("F11", "full screen on/off"),
        ("F2", "calibrate true scale (10 cm ruler)"),
        ("F3", "true scale / fit the table"),
        ("Wheel, middle drag", "zoom, pan;  Home: fit again"),
        ("Click a bot", "select it (anyone may pre-measure any bot)"),
        ("Right drag", "ruler between two points or bots"),
        ("1-9", "pre-measure that weapon of the selected bot"),
        ("O", "pre-measure as overwatch (reach capped)"),
        ("T", "threat view: enemy weapons reaching each spot"),
        ("G / L", "grid / legend on or off"),
        ("Ctrl+Z / Ctrl+Y", "undo / redo (the journal saves itself)"),
        ("Esc", "clear the plan / close a panel"),
        ("Tab", "panel: side / bottom / hidden (the table alone)"),
        ("F4", "UI scale: bigger text everywhere (steps, then wraps)"),
        ("F5", "projector window on the second display (true scale)"),
        ("N", "skip the animation / let a robot seat act now"),
    )),
    ("Placing a new bot", (
        ("Left / Right", "turn the bot to place by the turn step"),
        ("Click", "place it there"),
    )),
    ("Planning a move (the active bot)", (
        ("Up / W, Down / S", "forward / back 1 cm (Shift 0.1, Ctrl 5)"),
        ("Left / Right", "turn one turn step (walkers, hoverers: 15 deg, Shift 1)"),
        ("A / D", "strafe left / right 1 cm (walkers, hoverers)"),
        ("Drag from the bot", "forward/back along the facing; Shift: strafe"),
        ("K", "loop (fliers)"),
        ("U / J", "lift up / lift down"),
        ("M", "drop a mine (next mine weapon)"),
        ("Backspace", "remove the last step"),
        ("Enter", "commit the move (overwatchers are asked first; "
                  "a move that destroys the bot asks Enter twice)"),
    )),
    ("Shooting phase", (
        ("1-9 then click a target", "add / remove that shot"),
        ("F or Enter", "fire the shots"),
        ("V", "set overwatch"),
        ("X X", "self-destruct (press twice)"),
        ("R", "service: cycle reload / repair / rust / leaflet / part;  Shift+R uses it"),
        ("P or Space", "pass"),
    )),
    ("Prompts", (
        ("F / H", "overwatch: fire or hold"),
        ("1-6", "physical dice: type the result"),
    )),
)


def help_lines() -> list[str]:
    """The help as plain lines (also used by tests)."""
    out = []
    for title, rows in KEYS:
        out.append(title)
        out.extend(f"  {k}: {v}" for k, v in rows)
    return out


def draw_help(surface: pygame.Surface) -> None:
    """A dark panel over the view listing every key, in two columns."""
    w, h = surface.get_size()
    shade = pygame.Surface((w, h), pygame.SRCALPHA)
    shade.fill((0, 0, 0, 215))
    surface.blit(shade, (0, 0))
    rows_total = sum(len(r) + 2 for _t, r in KEYS)
    size = max(14, min(h * 2 // rows_total, w // 70))
    line = style.font(size).get_linesize()
    x, y = 40, 30
    col_w = (w - 80) // 2
    key_w = max(style.font(size).size(k)[0] for _t, rows in KEYS for k, _v in rows) + 20
    for title, rows in KEYS:
        need = line * (len(rows) + 2)
        if y + need > h - 20 and x == 40:
            x, y = 40 + col_w, 30
        surface.blit(style.label(title, round(size * 1.2), style.OKABE_ITO["yellow"]), (x, y))
        y += round(line * 1.3)
        for key, what in rows:
            surface.blit(style.label(key, size, style.TEXT), (x + 10, y))
            lab = style.label(what, size, style.TEXT_DIM)
            surface.blit(lab, (x + 10 + key_w, y), area=pygame.Rect(0, 0, col_w - key_w - 20, line))
            y += line
        y += line // 2
