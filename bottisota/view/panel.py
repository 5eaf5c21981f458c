"""The panel (the laptop's side): turn and scores, what can be done now and why not,
the selected bot, the plan, buttons, dice, the fire track and the log. It reads the
view model and the game; buttons carry a command name the controller runs.
Every size comes from `TextSizes` (the window's height and the UI scale)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pygame

from bottisota.core.i18n import N_, _, ngettext, number, translated
from bottisota.core.rule_texts import quoted
from bottisota.view import style
from bottisota.view.bots_layer import draw_mark, player_colours
from bottisota.view.premeasure_overlay import draw_fire_track
from bottisota.view.widgets import Button, text_block, wrap
from bottisota.viewmodel.dice_rows import dice_rows
from bottisota.viewmodel.guidance import Option
from bottisota.viewmodel.model import ViewModel, turn_line
from bottisota.viewmodel.sizes import TextSizes

DICE_SHOWN = 4
RULE_LINES = 4              # rows of a quoted rule's text under a refusal


@dataclass
class PanelInput:
    """What the panel shows besides the model."""

    game: Any
    robots: Mapping[str, object]   # the seats robots play
    sizes: TextSizes
    plan_lines: list[tuple[str, str]]      # (text, tone)
    options: list[Option]
    headline: str
    focus: Any = None                      # a target measure: its fire track
    journal: str | None = None


def draw_panel(
    surface: pygame.Surface, rect: pygame.Rect, vm: ViewModel, p: PanelInput
) -> list[Button]:
    """Draw the panel into `rect`; returns its buttons (their `action` is a command name).
    A tall panel (at the side) is one column; a wide one (at the bottom) three: what
    can be done, the buttons, and the dice, message, log and journal."""
    pygame.draw.rect(surface, style.PANEL, rect)
    pygame.draw.line(surface, style.GRID_BOLD, rect.topleft, rect.bottomleft, 2)
    pad = max(8, p.sizes.panel // 2)
    if rect.w >= 2 * rect.h:
        cut = (rect.x + rect.w * 2 // 5, rect.x + rect.w * 13 // 20)
        left = pygame.Rect(rect.x, rect.y, cut[0] - rect.x, rect.h)
        middle = pygame.Rect(cut[0], rect.y, cut[1] - cut[0], rect.h)
        right = pygame.Rect(cut[1], rect.y, rect.right - cut[1], rect.h)
        for x in cut:
            pygame.draw.line(surface, style.GRID_BOLD, (x, rect.y + pad), (x, rect.bottom - pad))
        _controls(surface, left, vm, p, pad, seats=False)   # the turn strip shows the seats
        line = style.font(p.sizes.panel).get_linesize()
        buttons = _buttons(vm, p, middle.x + pad, middle.y + pad, middle.w - 2 * pad, line)
        for b in buttons:
            b.draw(surface)
        _record(surface, right, vm, p, pad, right.y + pad)
        return buttons
    y, buttons = _controls(surface, rect, vm, p, pad)
    _record(surface, rect, vm, p, pad, y)
    return buttons


def _controls(surface: pygame.Surface, rect: pygame.Rect, vm: ViewModel, p: PanelInput,
              pad: int, seats: bool = True) -> tuple[int, list[Button]]:
    """The turn, the seats, what to do, the selected bot, the plan and (with the seats:
    a side panel) the buttons, from the top of `rect`; returns where they end and the
    buttons."""
    s = p.sizes
    x, y = rect.x + pad, rect.y + pad
    inner = rect.w - 2 * pad
    line = style.font(s.panel).get_linesize()
    y = text_block(surface, [(turn_line(p.game), style.TEXT)], (x, y), s.title, inner)
    if seats:
        y = _seats(surface, p, x, y + 2, inner)
    y = text_block(surface, [(p.headline, style.tone("dice"))], (x, y + 4), s.panel, inner)
    y = _selected_bot(surface, vm, p, x, y + 4, inner)
    lines = [(t, style.tone(tone)) for t, tone in p.plan_lines]
    if vm.confirm:
        lines.insert(0, (vm.confirm, style.tone("alarm")))
    if vm.orders:
        shots = ", ".join(_("{weapon} at {target}").format(weapon=o.weapon, target=o.target)
                          for o in vm.orders)
        lines.append((_("shots: {orders}").format(orders=shots),
                      style.tone("dice")))
    lines += [(o.line(), style.TEXT_DIM) for o in p.options if not o.enabled]
    y = text_block(surface, lines, (x, y + 4), s.panel, inner, max_lines=10)
    if not seats:
        return y, []
    buttons = _buttons(vm, p, x, y + 6, inner, line)
    for b in buttons:
        b.draw(surface)
    return (buttons[-1].rect.bottom if buttons else y) + pad, buttons


def _record(surface: pygame.Surface, rect: pygame.Rect, vm: ViewModel, p: PanelInput,
            pad: int, y: int) -> None:
    """From `y` down `rect`: the fire track, the dice, the log; from the bottom up: the
    journal's path, the message and the rules it names. The newest log line is left
    out of the log while the message above shows it (drawn once)."""
    s = p.sizes
    x, inner = rect.x + pad, rect.w - 2 * pad
    line = style.font(s.panel).get_linesize()
    if p.focus is not None:
        inset = draw_fire_track(surface, (x, y), p.focus, (inner, max(90, line * 5)))
        y = inset.bottom + pad
    y = _dice(surface, p, x, y, inner)
    bottom = rect.bottom - pad
    if p.journal:
        small = max(12, s.panel * 3 // 4)
        bottom -= style.font(small).get_linesize()
        text_block(surface, [(_("journal: {journal}").format(   # the path: printed on exit
                                  journal=Path(p.journal).name), style.TEXT_DIM)], (x, bottom),
                   small, inner, max_lines=1)
    if vm.message is not None:
        bottom = _quoted_rules(surface, vm.message[0], x, bottom, inner, s.panel)
        bottom -= line * 2
        text_block(surface, [(vm.message[0], style.tone(vm.message[1]))], (x, bottom), s.panel,
                   inner, max_lines=2)
    room = max(0, (bottom - 6 - y) // (line + 1) - 1)
    back = vm.log.scroll
    title = _("log") + (_(" (scrolled back {back}; wheel to scroll)").format(
                         back=back) if back else "")
    surface.blit(style.label(title, s.panel, style.TEXT_DIM), (x, y))
    newest = vm.log.lines[-1] if vm.log.lines else None
    said = (vm.message is not None and newest is not None and not back
            and newest.text == vm.message[0])
    shown = vm.log.visible(room + 1 if said else room)
    if said and shown and shown[-1] is newest:
        shown = shown[:-1]
    text_block(surface, [(ln.text, style.tone(ln.tone) if not ln.undone else style.TEXT_DIM)
                         for ln in shown], (x, y + line), s.panel, inner, max_lines=room,
               struck={i for i, ln in enumerate(shown) if ln.undone})


def _quoted_rules(surface: pygame.Surface, message: str, x: int, bottom: int, inner: int,
                  size: int) -> int:
    """The texts of the rules `message` names ("R19 — ..."), dim, at most RULE_LINES rows,
    drawn up from `bottom`; returns the new bottom (above them)."""
    size = max(12, size * 5 // 6)
    rows = [row for text in quoted(message) for row in wrap(text, style.font(size), inner)]
    if not rows:
        return bottom
    if len(rows) > RULE_LINES:
        rows = rows[:RULE_LINES - 1] + [rows[RULE_LINES - 1] + " …"]
    bottom -= (style.font(size).get_linesize() + 1) * len(rows) + 4
    text_block(surface, [(row, style.TEXT_DIM) for row in rows], (x, bottom), size)
    return bottom


def _seats(surface: pygame.Surface, p: PanelInput, x: int, y: int, inner: int) -> int:
    state = p.game.state
    colours = player_colours(state)
    players = list(colours)
    active = p.game.active_bot()
    size = p.sizes.panel
    h = style.font(size).get_linesize()
    for pl in state.players:
        colour = colours.get(pl, style.TEXT)
        now = active is not None and active.player == pl and not state.over
        r = h // 2 - 1
        c = (x + r, y + h // 2)
        pygame.draw.circle(surface, colour, c, r)
        draw_mark(surface, style.seat_mark(players, pl), c, r * 0.5, style.contrast_text(colour))
        if now:
            pygame.draw.circle(surface, style.TEXT, c, r + 2, 2)
        mark = (N_("out") if pl in state.out else N_("now") if now
                else N_("played") if pl in state.played else "")
        robot = " " + _("(robot)") if pl in p.robots else ""
        text = _("{pl}{robot}: {pl2} pts, {pl3} kills  {mark}").format(
                   pl=pl, robot=robot, pl2=state.scores.get(pl, 0), pl3=state.kills.get(pl, 0),
                   mark=_(mark) if mark else "")
        y = text_block(
            surface,
            [(text, style.TEXT_DIM if mark in ("played", "out") else style.TEXT)],
            (x + 2 * r + 8, y),
            size,
            inner - 2 * r - 8,
        )
    return y


def _selected_bot(surface: pygame.Surface, vm: ViewModel, p: PanelInput, x: int, y: int,
                  inner: int) -> int:
    bot = p.game.state.bots.get(vm.selected or "")
    size = p.sizes.panel
    if bot is None:
        return text_block(
            surface, [(_("click a bot to select it"), style.TEXT_DIM)], (x, y), size, inner
        )
    st = bot.stats
    lines = [
        (f"{bot.id}: {st.name} ({_(st.locomotion)}), {bot.player}", style.TEXT),
        (
            _(
                "move {move}  turn {turn}  armour {armour}  damage {damage}/{structure}  "
                "moved {moved}"
            ).format(
                move=number(st.move),
                turn=number(st.turn),
                armour=st.armour,
                damage=bot.damage,
                structure=st.structure,
                moved=number(bot.moved),
            )
            + ("  " + _("OVERWATCH") if bot.overwatch else ""),
            style.TEXT_DIM,
        ),
    ]
    for i, wpn in enumerate(st.weapons, start=1):
        ammo = bot.ammo.get(wpn.name)
        chosen = wpn.name == vm.weapon
        text = (
            _("[{i}] {name}: {kind}, {mount}, {range} cm, {to_hit}+, {hits}").format(
                i=i,
                name=wpn.name,
                kind=_(wpn.kind.replace("_", " ")),
                mount=_(wpn.mount),
                range=number(wpn.range),
                to_hit=wpn.to_hit,
                hits=ngettext("{n} hit", "{n} hits", wpn.hits).format(n=wpn.hits)
                if isinstance(wpn.hits, int)
                else _("{dice} hits").format(dice=wpn.hits),
            )
            + (_(", ammo {ammo}").format(ammo=ammo) if ammo is not None else "")
            + (" " + _("(overwatch)") if chosen and vm.measure_overwatch else "")
        )
        lines.append((text, style.tone("dice") if chosen else style.TEXT))
    return text_block(surface, lines, (x, y), size, inner)


def _buttons(vm: ViewModel, p: PanelInput, x: int, y: int, inner: int, line: int) -> list[Button]:
    specs: list[tuple[str, str, bool]] = []
    if vm.plan is not None:
        specs += [(_("Commit (Enter)"), "commit", True), (_("Clear (Esc)"), "clear_plan", True),
                  (_("Step back (Bksp)"), "step_back", True)]
    elif p.options:
        names = {"Fire": "fire", "Overwatch": "overwatch", "Self-destruct": "self_destruct",
                 "Pass": "pass"}
        for o in p.options:
            cmd = names.get(o.name, "service")
            specs.append((f"{o.name} ({o.key})", cmd, o.enabled))
    specs += [(_("Undo (Ctrl+Z)"), "undo", True), (_("Redo (Ctrl+Y)"), "redo", True),
              (_("Threat (T)"), "threat", True), (_("Help (F1)"), "help", True)]
    out = []
    bw = (inner - 8) // 2
    bh = line + 8
    for i, (text, cmd, enabled) in enumerate(specs):
        col, row = i % 2, i // 2
        rect = pygame.Rect(x + col * (bw + 8), y + row * (bh + 6), bw, bh)
        out.append(Button(rect, text, cmd, enabled))
    return out


def _dice(surface: pygame.Surface, p: PanelInput, x: int, y: int, inner: int) -> int:
    """The last few decisions' dice: a row each, its dice once, what they decided."""
    rows = dice_rows(p.game.state.dice.rolls[-4 * DICE_SHOWN:])[-DICE_SHOWN:]
    if not rows:
        return y
    size = p.sizes.panel
    line = style.font(size).get_linesize()
    surface.blit(style.label(_("dice"), size, style.TEXT_DIM), (x, y))
    y += line
    for row in reversed(rows):
        left = x
        for value in row.values:
            die = pygame.Rect(left, y, line + 4, line + 4)
            pygame.draw.rect(surface, (250, 250, 250), die, border_radius=4)
            lab = style.label(str(value), size, style.OUTLINE)
            surface.blit(lab, lab.get_rect(center=die.center))
            left = die.right + 4
        text = f"{translated(row.purpose)} {row.decided}".strip()
        y = max(y + line + 8, text_block(surface, [(text, style.TEXT)], (left + 8, y + 2), size,
                                         inner - (left + 8 - x)) + 4)
    return y + 4
