"""The side panel: turn strip, score, the selected bot, the plan, buttons, dice, log."""
from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from bottisota.view import style
from bottisota.view.bots_layer import player_colours
from bottisota.view.move_overlay import plan_summary
from bottisota.view.widgets import Button, text_block

if TYPE_CHECKING:
    from bottisota.view.app import TableApp

DICE_SHOWN = 4
PAD = 12


def draw_panel(app: "TableApp", surface: pygame.Surface) -> list[Button]:
    """Draw the panel at the window's right; returns its buttons (for clicks)."""
    w, h = surface.get_size()
    area = app.table_area
    rect = pygame.Rect(area.right, 0, w - area.right, h)
    pygame.draw.rect(surface, style.PANEL, rect)
    pygame.draw.line(surface, style.GRID_BOLD, rect.topleft, rect.bottomleft, 2)
    x, y = rect.x + PAD, PAD
    inner = rect.w - 2 * PAD
    state = app.state
    colours = player_colours(state)
    due = app.expected()
    who = app.game.whose_turn()
    title = f"Round {state.round}" + ("  - game over" if due == "over" else
                                      f"  - {who} to {due}" if who else "")
    surface.blit(style.label(title, 28, style.TEXT), (x, y))
    y += 32
    y = _turn_strip(surface, app, colours, x, y, inner)
    y = _selected_bot(surface, app, x, y + 6, inner)
    lines = plan_summary(app.move_preview()) if app.plan is not None else []
    if due == "place" and app.human_to_act():
        lines.append((f"click the table to place {state.active} "
                      f"(Left/Right: facing {app.place_facing:g})", (255, 220, 80)))
    if app.plan is not None:
        steps = ", ".join(str(s) for s in app.plan.all_steps()) or "(no steps yet)"
        lines.insert(0, (f"plan: {steps}", style.TEXT))
    if app.orders:
        lines.append(("shots: " + ", ".join(f"{o.weapon} -> {o.target}" for o in app.orders),
                      (255, 220, 80)))
    y = text_block(surface, lines, (x, y + 4), 17, inner, max_lines=12)
    buttons = _buttons(app, x, y + 6, inner)
    for b in buttons:
        b.draw(surface)
    y = (buttons[-1].rect.bottom if buttons else y) + 10
    y = _dice(surface, app, x, y, inner)
    bottom = h - 48
    if app.message is not None:
        text_block(surface, [app.message], (x, bottom), 18, inner)
    if app.journal_name:
        text_block(surface, [(f"journal: {app.journal_name}", style.TEXT_DIM)], (x, bottom + 22),
                   15, inner)
    room = max(0, (bottom - 6 - y) // 17)
    back = app.log_scroll
    shown = app.log[:len(app.log) - back] if back else app.log
    surface.blit(style.label("log" + (f" (scrolled back {back}; wheel to scroll)" if back else ""),
                             18, style.TEXT_DIM), (x, y))
    text_block(surface, shown, (x, y + 18), 15, inner, max_lines=max(0, room - 1))
    return buttons


def _turn_strip(surface: pygame.Surface, app: "TableApp", colours: dict, x: int, y: int,
                inner: int) -> int:
    """Seats in order: who has played this round, whose turn it is; score and kills."""
    state = app.state
    active = app.active_bot()
    for p in state.players:
        colour = colours.get(p, style.TEXT)
        now = active is not None and active.player == p
        played = p in state.played
        out = p in state.out
        chip = pygame.Rect(x, y + 3, 16, 16)
        pygame.draw.rect(surface, colour, chip)
        if now:
            pygame.draw.rect(surface, (255, 255, 255), chip.inflate(6, 6), 2)
        mark = "out" if out else "now" if now else "played" if played else ""
        robot = " (robot)" if p in app.robots else ""
        text = (f"{p}{robot}: {state.scores.get(p, 0)} pts, {state.kills.get(p, 0)} kills  {mark}")
        surface.blit(style.label(text, 20, style.TEXT_DIM if played or out else style.TEXT),
                     (x + 24, y + 2))
        y += 24
    return y


def _selected_bot(surface: pygame.Surface, app: "TableApp", x: int, y: int, inner: int) -> int:
    bot = app.state.bots.get(app.selected or "")
    if bot is None:
        return text_block(surface, [("click a bot to select it", style.TEXT_DIM)], (x, y), 18)
    s = bot.stats
    lines = [
        (f"{bot.id}: {s.name} ({s.locomotion}), {bot.player}", style.TEXT),
        (f"move {s.move:g}  turn {s.turn:g}  armour {s.armour}  damage {bot.damage}/{s.structure}"
         f"  moved {bot.moved:.2f}", style.TEXT_DIM),
        (f"at ({bot.x:.2f}, {bot.y:.2f}) z {bot.z:g}, facing {bot.facing:.1f}"
         + ("  OVERWATCH" if bot.overwatch else ""), style.TEXT_DIM),
    ]
    for i, wpn in enumerate(s.weapons, start=1):
        ammo = bot.ammo.get(wpn.name)
        chosen = wpn.name == app.weapon
        text = (f"[{i}] {wpn.name}: {wpn.kind}, {wpn.mount}, {wpn.range:g} cm, {wpn.to_hit}+, "
                f"{wpn.hits} hit" + (f", ammo {ammo}" if ammo is not None else "")
                + (" (overwatch)" if chosen and app.measure_overwatch else ""))
        lines.append((text, (255, 220, 80) if chosen else style.TEXT))
    return text_block(surface, lines, (x, y), 17, inner)


def _buttons(app: "TableApp", x: int, y: int, inner: int) -> list[Button]:
    from bottisota.view.app import SERVICE_CHOICES

    specs = []
    if app.plan is not None:
        specs += [("Commit (Enter)", app.commit_move), ("Clear (Esc)", app.plan.clear),
                  ("Step back (Bksp)", app.plan.undo_step)]
    elif app.shooting_bot() is not None:
        specs += [("Fire (F)", app.fire), ("Overwatch (V)", app.set_overwatch),
                  (f"Service: {SERVICE_CHOICES[app.service_choice]} (Shift+R)", app.use_service),
                  ("Self-destruct (X X)", app.self_destruct), ("Pass (P)", app.pass_turn)]
    specs += [("Undo (Ctrl+Z)", app.undo), ("Redo (Ctrl+Y)", app.redo),
              ("Threat (T)", lambda: setattr(app, "threat_on", not app.threat_on)),
              ("Help (F1)", lambda: setattr(app, "help_on", True))]
    out = []
    bw = (inner - 8) // 2
    for i, (text, action) in enumerate(specs):
        col, row = i % 2, i // 2
        rect = pygame.Rect(x + col * (bw + 8), y + row * 34, bw, 28)
        out.append(Button(rect, text, action))
    return out


def _dice(surface: pygame.Surface, app: "TableApp", x: int, y: int, inner: int) -> int:
    rolls = app.state.dice.rolls[-DICE_SHOWN:]
    if not rolls:
        return y
    surface.blit(style.label("dice", 18, style.TEXT_DIM), (x, y))
    y += 20
    for roll in reversed(rolls):
        die = pygame.Rect(x, y, 26, 26)
        pygame.draw.rect(surface, (250, 250, 250), die, border_radius=4)
        lab = style.label(str(roll.value), 26, style.OUTLINE)
        surface.blit(lab, lab.get_rect(center=die.center))
        text_block(surface, [(roll.purpose, style.TEXT)], (x + 34, y + 5), 16, inner - 34)
        y += 30
    return y + 4
