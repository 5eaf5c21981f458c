"""The help overlay (F1 or ?): every key and mouse action of the table view."""
from __future__ import annotations

import pygame

from bottisota.core.i18n import N_, _
from bottisota.view import style

KEYS: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    (N_("Anywhere"), (
        (N_("F1 or ?"), N_("this help")),
        (N_("F11"), N_("full screen on/off")),
        (N_("F2"), N_("calibrate true scale (10 cm ruler)")),
        (N_("F3"), N_("true scale / fit the table")),
        (N_("Wheel, middle drag"), N_("zoom, pan;  Home: fit again")),
        (N_("Click a bot"), N_("select it (anyone may pre-measure any bot)")),
        (N_("Right drag"), N_("ruler between two points or bots")),
        (N_("1-9"), N_("pre-measure that weapon of the selected bot")),
        (N_("O"), N_("pre-measure as overwatch (reach capped)")),
        (N_("T"), N_("threat view: enemy weapons reaching each spot")),
        (N_("G / L"), N_("grid / legend on or off")),
        (N_("Ctrl+Z / Ctrl+Y"), N_("undo / redo (the journal saves itself)")),
        (N_("Esc"), N_("clear the plan / close a panel")),
        (N_("Tab"), N_("panel: side / bottom / hidden (the table alone)")),
        (N_("F4"), N_("UI scale: bigger text everywhere (steps, then wraps)")),
        (N_("F5"), N_("projector window on the second display (true scale)")),
        (N_("F6"), N_("phones' join codes shown / hidden (play --phones)")),
        (N_("F7"), N_("the referee's hand: correct a bot (Enter journals it with a reason)")),
        (N_("F8"), N_("language: suomi / English")),
        (N_("N"), N_("skip the animation / let a robot seat act now")),
    )),
    (N_("Placing a new bot"), (
        (N_("Left / Right"), N_("turn the bot to place by the turn step")),
        (N_("Click"), N_("place it there")),
    )),
    (N_("Planning a move (the active bot)"), (
        (N_("Up / W, Down / S"), N_("forward / back 1 cm (Shift 0.1, Ctrl 5)")),
        (N_("Left / Right"), N_("turn one turn step (walkers, hoverers: 15 deg, Shift 1)")),
        (N_("A / D"), N_("strafe left / right 1 cm (walkers, hoverers)")),
        (N_("Drag from the bot"), N_("forward/back along the facing; Shift: strafe")),
        (N_("K"), N_("loop (fliers)")),
        (N_("U / J"), N_("lift up / lift down")),
        (N_("M"), N_("drop a mine (next mine weapon)")),
        (N_("Backspace"), N_("remove the last step")),
        (N_("Enter"), N_("commit the move (overwatchers are asked first; a move that "
                         "destroys the bot asks Enter twice)")),
    )),
    (N_("Shooting phase"), (
        (N_("1-9 then click a target"), N_("add / remove that shot")),
        (N_("F or Enter"), N_("fire the shots")),
        (N_("V"), N_("set overwatch")),
        (N_("X X"), N_("self-destruct (press twice)")),
        (N_("R"), N_("service: cycle reload / repair / rust / leaflet / part;  Shift+R uses it")),
        (N_("P or Space"), N_("pass")),
    )),
    (N_("Projector window (F5)"), (
        (N_("Wheel, middle drag, Home"),
         N_("zoom, pan, its own view again (F3: fit / true scale)")),
        (N_("Click"), N_("select a bot, add a shot at it, place the drawn bot")),
        (N_("Keys"), N_("work as on the laptop")),
        (N_("Laptop only"), N_("dragging a plan, the ruler, the panel's buttons and log")),
    )),
    (N_("Prompts"), (
        (N_("F / H"), N_("overwatch: fire or hold")),
        (N_("1-6"), N_("physical dice: type the result")),
    )),
)


def help_lines() -> list[str]:
    """The help as plain lines (also used by tests)."""
    out = []
    for title, rows in KEYS:
        out.append(_(title))
        out.extend(f"  {_(k)}: {_(v)}" for k, v in rows)
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
    key_w = max(style.font(size).size(_(k))[0] for _t, rows in KEYS for k, _v in rows) + 20
    for title, rows in KEYS:
        need = line * (len(rows) + 2)
        if y + need > h - 20 and x == 40:
            x, y = 40 + col_w, 30
        surface.blit(style.label(_(title), round(size * 1.2), style.OKABE_ITO["yellow"]), (x, y))
        y += round(line * 1.3)
        for key, what in rows:
            surface.blit(style.label(_(key), size, style.TEXT), (x + 10, y))
            lab = style.label(_(what), size, style.TEXT_DIM)
            surface.blit(lab, (x + 10 + key_w, y), area=pygame.Rect(0, 0, col_w - key_w - 20, line))
            y += line
        y += line // 2
