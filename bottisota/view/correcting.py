"""The referee's hand (key F7): a correction drafted on one bot, then journaled as one
`Correct` action with a reason (Enter), undone like any other (Ctrl+Z).

While the mode is on, a click on a bot takes it in hand, a click on the table puts it
there; keys turn it, set its damage, ammo, overwatch, rust, leaflets and its
player's score, and hold the door nearest it open or leave that door to R47 again.
The draft is shown as a ghost and a box of what will change; nothing changes the
game until Enter."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import pygame
import shapely

from bottisota.core.actions import Correct
from bottisota.core.compass import vector
from bottisota.core.i18n import N_, _, number, translated
from bottisota.engine.shooting.geometry import door_key
from bottisota.view import style
from bottisota.view.camera import Camera
from bottisota.view.overlays import text_box

REASONS: tuple[str, ...] = (N_("a bumped miniature"), N_("a misread die"),
                            N_("a rule applied wrongly"), N_("the physical table differs"))
STEP_CM, FINE_CM, COARSE_CM = 1.0, 0.1, 5.0
TURN_DEG, FINE_DEG = 15.0, 1.0


@dataclass
class Draft:
    """A correction being drafted: the bot and what is set so far (None: unchanged)."""

    bot: str
    at: tuple[float, float] | None = None
    facing: float | None = None
    damage: int | None = None
    ammo: dict[str, int] = field(default_factory=dict)
    overwatch: bool | None = None
    rust: int | None = None
    leaflet: int | None = None
    score: int | None = None
    doors: dict[str, bool] = field(default_factory=dict)   # held open (True) or left to R47
    weapon: int = 0                      # the weapon whose ammo [ ] change (its index)


class CorrectionMode:
    """The draft and the keys that change it (see the module doc); `game` is read,
    never changed here: `action()` gives the Correct the controller sends."""

    def __init__(self) -> None:
        self.on = False
        self.draft: Draft | None = None
        self.reason = 0

    def toggle(self) -> str:
        """On or off; returns what to say."""
        self.on = not self.on
        self.draft = None
        if self.on:
            return _("the referee's hand: click a bot, change it, Enter journals it (F7: off)")
        return _("the referee's hand put down")

    def take(self, bot_id: str) -> None:
        self.draft = Draft(bot_id)

    def click(self, state: Any, x: float, y: float, hit: Any) -> None:
        """A click on a bot takes it in hand; on the table, puts the bot in hand there."""
        if hit is not None and (self.draft is None or hit.id != self.draft.bot):
            self.take(hit.id)
        elif self.draft is not None:
            w, h = state.arena.size
            self.draft.at = (round(min(max(x, 0.0), w), 2), round(min(max(y, 0.0), h), 2))

    def run(self, command: str, state: Any, press: Any) -> None:
        """A command of the key-binding table's section (view.keys.CORRECT) on the draft;
        `press` has the key and its Shift and Ctrl."""
        d = self.draft
        if command == "fix_reason":
            self.reason = (self.reason + 1) % len(REASONS)
            return
        if command == "fix_drop":
            self.draft = None
            return
        if d is None:
            return
        bot = state.bots[d.bot]
        cm = FINE_CM if press.shift else COARSE_CM if press.ctrl else STEP_CM
        x, y = d.at if d.at is not None else (bot.x, bot.y)
        facing = d.facing if d.facing is not None else bot.facing
        moves = {"fix_up": (0.0, cm), "fix_down": (0.0, -cm), "fix_left": (-cm, 0.0),
                 "fix_right": (cm, 0.0)}
        turns = {"fix_turn_left": -1, "fix_turn_right": 1}
        weapons = [w.name for w in bot.stats.weapons if w.ammo is not None]
        damage = d.damage if d.damage is not None else bot.damage
        sign = -1 if press.shift else 1
        if command in moves:
            dx, dy = moves[command]
            d.at = (round(x + dx, 2), round(y + dy, 2))
        elif command in turns:
            step = (FINE_DEG if press.shift else TURN_DEG) * turns[command]
            d.facing = round((facing + step) % 360.0, 2)
        elif command in ("fix_damage_up", "fix_damage_down"):
            d.damage = max(0, damage + (1 if command == "fix_damage_up" else -1))
        elif command == "fix_overwatch":
            d.overwatch = not (d.overwatch if d.overwatch is not None else bot.overwatch)
        elif command == "fix_rust":
            d.rust = max(0, (d.rust if d.rust is not None else bot.rust) + sign)
        elif command == "fix_leaflet":
            d.leaflet = max(0, (d.leaflet if d.leaflet is not None else bot.leaflet) + sign)
        elif command in ("fix_score_up", "fix_score_down"):
            now = d.score if d.score is not None else state.scores.get(bot.player, 0)
            d.score = now + (1 if command == "fix_score_up" else -1)
        elif command == "fix_door":
            door = nearest_door(state, x, y)
            if door is not None:
                key = door_key(door)
                held = d.doors.get(key, key in state.held_open)
                d.doors[key] = not held
        elif command == "fix_weapon" and weapons:
            d.weapon = min(press.key - pygame.K_1, len(weapons) - 1)
        elif command in ("fix_ammo_up", "fix_ammo_down") and weapons:
            name = weapons[min(d.weapon, len(weapons) - 1)]
            now = d.ammo.get(name, ammo_left(bot, name))
            d.ammo[name] = max(0, now + (1 if command == "fix_ammo_up" else -1))

    def action(self) -> Correct | None:
        """The draft as one Correct action (None: nothing drafted)."""
        d = self.draft
        if d is None:
            return None
        return Correct(d.bot, _(REASONS[self.reason]), d.at, d.facing, d.damage,
                       tuple(sorted(d.ammo.items())), d.overwatch, d.rust, d.leaflet, d.score,
                       tuple(sorted(d.doors.items())))

    def lines(self, state: Any) -> list[str]:
        """What the box shows: the bot in hand, each change, the reason and the keys."""
        d = self.draft
        if d is None:
            return [_("the referee's hand: click a bot to correct (F7: off)")]
        bot = state.bots[d.bot]
        out = [_("correcting {bot}").format(bot=d.bot)]
        if d.at is not None:
            out.append(_("place: ({x}, {y}) cm").format(x=number(d.at[0], 1),
                                                        y=number(d.at[1], 1)))
        if d.facing is not None:
            out.append(_("facing: {deg}°").format(deg=number(d.facing, 0)))
        for label, value in ((N_("damage"), d.damage), (N_("rust"), d.rust),
                             (N_("leaflets"), d.leaflet), (N_("score"), d.score)):
            if value is not None:
                out.append(f"{_(label)}: {value}")
        if d.overwatch is not None:
            out.append(_("overwatch: on") if d.overwatch else _("overwatch: off"))
        out += [f"{name}: {left}" for name, left in sorted(d.ammo.items())]
        labels = {door_key(f): f.label for f in state.arena.features if f.type == "door"}
        for key, held in sorted(d.doors.items()):
            text = _("{door}: held open") if held else _("{door}: left to R47 (open while "
                                                         "touched)")
            out.append(text.format(door=translated(labels.get(key, key))))
        weapons = [w.name for w in bot.stats.weapons if w.ammo is not None]
        if weapons:
            out.append(_("[ ] ammo of {weapon} (1-9: another)").format(
                weapon=weapons[min(d.weapon, len(weapons) - 1)]))
        out += [_("reason (R): {reason}").format(reason=_(REASONS[self.reason])),
                _("arrows/click: place, Q/E: turn, +/-: damage, O: overwatch, U/I: rust/"
                  "leaflets, PgUp/PgDn: score, D: the nearest door open / to R47"),
                _("Enter: journal the correction, Esc: drop it")]
        return out

    def draw(self, surface: pygame.Surface, cam: Camera, area: pygame.Rect, state: Any,
             size: int) -> None:
        """The ghost of the bot in hand where it will stand, and the box of changes."""
        d = self.draft
        if d is not None and d.bot in state.bots:
            bot = state.bots[d.bot]
            at = d.at if d.at is not None else (bot.x, bot.y)
            facing = d.facing if d.facing is not None else bot.facing
            c = cam.to_px(*at)
            r = cam.length(bot.radius)
            pygame.draw.circle(surface, style.tone("dice"), c, r + 3, 3)
            ahead = vector(facing)
            nose = (at[0] + ahead[0] * bot.radius, at[1] + ahead[1] * bot.radius)
            pygame.draw.line(surface, style.tone("dice"), c, cam.to_px(*nose), 3)
            if d.at is not None:
                pygame.draw.line(surface, style.tone("dice"), cam.to_px(bot.x, bot.y), c, 1)
        lines = self.lines(state)
        width = min(area.w - 20, max(style.text_size(t, size)[0] for t in lines) + 16)
        text_box(surface, lines, (area.x + 10, area.y + 10), size, "dice", width=width)

    def reset(self) -> None:
        """After the correction was journaled: the same bot stays in hand, unchanged."""
        if self.draft is not None:
            self.draft = replace(Draft(self.draft.bot), weapon=self.draft.weapon)


def nearest_door(state: Any, x: float, y: float) -> Any:
    """The arena's door nearest (x, y), or None when it has none."""
    point = shapely.Point(x, y)
    doors = [f for f in state.arena.features if f.type == "door"]
    return min(doors, key=lambda f: f.shape.distance(point), default=None)


def ammo_left(bot: Any, name: str) -> int:
    """Shots left of a weapon with ammo (R49)."""
    weapon = bot.stats.weapon(name)
    full = int(weapon.ammo) if weapon is not None and weapon.ammo is not None else 0
    return int(bot.ammo.get(name, full))
