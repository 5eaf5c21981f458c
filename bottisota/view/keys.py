"""Every key and mouse gesture of the table view, written once: the controller looks a
key press up here (`lookup`) and runs the binding's command; the help overlay (F1)
lists the same table (`sections`). A binding without keys is a mouse gesture or a
key another part reads (the help lists it all the same)."""
from __future__ import annotations

from dataclasses import dataclass

import pygame

from bottisota.core.i18n import N_

ANYWHERE = N_("Anywhere")
PLACE = N_("Placing a new bot")
PLAN = N_("Planning a move (the active bot)")
SHOOT = N_("Shooting phase")
CORRECT = N_("The referee's hand (F7)")
PROJECTOR = N_("Projector window (F5)")
PROMPTS = N_("Prompts")
SECTIONS = (ANYWHERE, PLACE, PLAN, SHOOT, CORRECT, PROJECTOR, PROMPTS)

K = pygame
DIGITS = tuple(range(K.K_1, K.K_9 + 1))
ENTER = (K.K_RETURN, K.K_KP_ENTER)


@dataclass(frozen=True)
class Binding:
    """Keys (any of `keys`, or the typed `char`) that run `command` where `section`
    applies; `ctrl`/`shift`: True needs the modifier, False forbids it, None either.
    `label` and `does` are the help's words."""

    section: str
    label: str
    does: str
    command: str = ""
    keys: tuple[int, ...] = ()
    char: str = ""
    ctrl: bool | None = None
    shift: bool | None = None

    def matches(self, key: int, char: str, ctrl: bool, shift: bool) -> bool:
        hit = key in self.keys or (bool(self.char) and char == self.char)
        return (hit and (self.ctrl is None or self.ctrl == ctrl)
                and (self.shift is None or self.shift == shift))


BINDINGS: tuple[Binding, ...] = (
    Binding(ANYWHERE, N_("F1 or ?"), N_("this help"), "help", (K.K_F1,), "?"),
    Binding(ANYWHERE, N_("F11"), N_("full screen on/off"), "fullscreen", (K.K_F11,)),
    Binding(ANYWHERE, N_("F2"), N_("calibrate true scale (10 cm ruler)"), "calibrate", (K.K_F2,)),
    Binding(ANYWHERE, N_("F3"), N_("true scale / fit the table"), "true_scale", (K.K_F3,)),
    Binding(ANYWHERE, N_("Wheel, middle drag"), N_("zoom, pan;  Home: fit again"), "fit",
            (K.K_HOME,)),
    Binding(ANYWHERE, N_("Click a bot"), N_("select it (anyone may pre-measure any bot)")),
    Binding(ANYWHERE, N_("Right drag"), N_("ruler between two points or bots")),
    Binding(ANYWHERE, N_("1-9"), N_("pre-measure that weapon of the selected bot"), "weapon",
            DIGITS, ctrl=False),
    Binding(ANYWHERE, N_("O"), N_("pre-measure as overwatch (reach capped)"),
            "measure_overwatch", (K.K_o,)),
    Binding(ANYWHERE, N_("T"), N_("threat view: enemy weapons reaching each spot"), "threat",
            (K.K_t,)),
    Binding(ANYWHERE, N_("G / L"), N_("grid / legend on or off"), "grid", (K.K_g,)),
    Binding(ANYWHERE, "", "", "legend", (K.K_l,)),
    Binding(ANYWHERE, N_("Ctrl+Z / Ctrl+Y"), N_("undo / redo (the journal saves itself)"),
            "undo", (K.K_z,), ctrl=True),
    Binding(ANYWHERE, "", "", "redo", (K.K_y,), ctrl=True),
    Binding(ANYWHERE, N_("Esc"), N_("clear the plan / close a panel"), "escape", (K.K_ESCAPE,)),
    Binding(ANYWHERE, N_("Tab"), N_("panel: side / bottom / hidden (the table alone)"), "panel",
            (K.K_TAB,)),
    Binding(ANYWHERE, N_("F4"), N_("UI scale: bigger text everywhere (steps, then wraps)"),
            "ui_scale", (K.K_F4,)),
    Binding(ANYWHERE, N_("F5"), N_("projector window on the second display (true scale)"),
            "projector", (K.K_F5,)),
    Binding(ANYWHERE, N_("F6"), N_("phones' join codes shown / hidden (play --phones)"),
            "phone_links", (K.K_F6,)),
    Binding(ANYWHERE, N_("F7"), N_("the referee's hand: correct a bot (Enter journals it with "
                                   "a reason)"), "correct", (K.K_F7,)),
    Binding(ANYWHERE, N_("F8"), N_("language: suomi / English"), "language", (K.K_F8,)),
    Binding(ANYWHERE, N_("F9"), N_("camera (play --camera): the game takes each ringed "
                                   "bot's place from the camera (journaled)"),
            "camera_accept", (K.K_F9,)),
    Binding(ANYWHERE, N_("N"), N_("skip the animation / let a robot seat act now"), "skip",
            (K.K_n,)),

    Binding(PLACE, N_("Left / Right"), N_("turn the bot to place by the turn step"),
            "place_left", (K.K_LEFT, K.K_q)),
    Binding(PLACE, "", "", "place_right", (K.K_RIGHT, K.K_e)),
    Binding(PLACE, N_("Click"), N_("place it there")),

    Binding(PLAN, N_("Up / W, Down / S"), N_("forward / back 1 cm (Shift 0.1, Ctrl 5)"),
            "forward", (K.K_UP, K.K_w)),
    Binding(PLAN, "", "", "back", (K.K_DOWN, K.K_s)),
    Binding(PLAN, N_("Left / Right"),
            N_("turn one turn step (walkers, hoverers: 15 deg, Shift 1)"), "turn_left",
            (K.K_LEFT, K.K_q)),
    Binding(PLAN, "", "", "turn_right", (K.K_RIGHT, K.K_e)),
    Binding(PLAN, N_("A / D"), N_("strafe left / right 1 cm (walkers, hoverers)"),
            "strafe_left", (K.K_a,)),
    Binding(PLAN, "", "", "strafe_right", (K.K_d,)),
    Binding(PLAN, N_("Drag from the bot"), N_("forward/back along the facing; Shift: strafe")),
    Binding(PLAN, N_("K"), N_("loop (fliers)"), "loop", (K.K_k,)),
    Binding(PLAN, N_("U / J"), N_("lift up / lift down"), "lift_up", (K.K_u,)),
    Binding(PLAN, "", "", "lift_down", (K.K_j,)),
    Binding(PLAN, N_("M"), N_("drop a mine (next mine weapon)"), "drop_mine", (K.K_m,)),
    Binding(PLAN, N_("Backspace"), N_("remove the last step"), "step_back", (K.K_BACKSPACE,)),
    Binding(PLAN, N_("Enter"), N_("commit the move (overwatchers are asked first; a move that "
                                  "destroys the bot asks Enter twice)"), "commit", ENTER),

    Binding(SHOOT, N_("1-9 then click a target"), N_("add / remove that shot")),
    Binding(SHOOT, N_("F or Enter"), N_("fire the shots"), "fire", (K.K_f, *ENTER)),
    Binding(SHOOT, N_("V"), N_("set overwatch"), "overwatch", (K.K_v,)),
    Binding(SHOOT, N_("X X"), N_("self-destruct (press twice)"), "self_destruct", (K.K_x,)),
    Binding(SHOOT, N_("R"), N_("service: cycle reload / repair / rust / leaflet / part;  "
                               "Shift+R uses it"), "service_next", (K.K_r,), shift=False),
    Binding(SHOOT, "", "", "service", (K.K_r,), shift=True),
    Binding(SHOOT, N_("P or Space"), N_("pass"), "pass", (K.K_p, K.K_SPACE)),

    Binding(CORRECT, N_("Click"), N_("take a bot in hand; click the table: put it there")),
    Binding(CORRECT, N_("Arrows, Q / E"), N_("move it 1 cm (Shift 0.1, Ctrl 5), turn 15 deg "
                                             "(Shift 1)"), "fix_up", (K.K_UP,)),
    Binding(CORRECT, "", "", "fix_down", (K.K_DOWN,)),
    Binding(CORRECT, "", "", "fix_left", (K.K_LEFT,)),
    Binding(CORRECT, "", "", "fix_right", (K.K_RIGHT,)),
    Binding(CORRECT, "", "", "fix_turn_left", (K.K_q,)),
    Binding(CORRECT, "", "", "fix_turn_right", (K.K_e,)),
    Binding(CORRECT, N_("+ / -"), N_("damage up / down"), "fix_damage_up",
            (K.K_PLUS, K.K_EQUALS, K.K_KP_PLUS)),
    Binding(CORRECT, "", "", "fix_damage_down", (K.K_MINUS, K.K_KP_MINUS)),
    Binding(CORRECT, N_("1-9, [ / ]"), N_("choose a weapon, its ammo down / up"), "fix_weapon",
            DIGITS),
    Binding(CORRECT, "", "", "fix_ammo_down", (K.K_LEFTBRACKET,)),
    Binding(CORRECT, "", "", "fix_ammo_up", (K.K_RIGHTBRACKET,)),
    Binding(CORRECT, N_("O"), N_("overwatch on / off"), "fix_overwatch", (K.K_o,)),
    Binding(CORRECT, N_("U / I"), N_("rust / leaflets up (Shift: down)"), "fix_rust", (K.K_u,)),
    Binding(CORRECT, "", "", "fix_leaflet", (K.K_i,)),
    Binding(CORRECT, N_("PgUp / PgDn"), N_("the player's score up / down"), "fix_score_up",
            (K.K_PAGEUP,)),
    Binding(CORRECT, "", "", "fix_score_down", (K.K_PAGEDOWN,)),
    Binding(CORRECT, N_("D"), N_("the door nearest the bot: held open / left to R47"),
            "fix_door", (K.K_d,)),
    Binding(CORRECT, N_("R"), N_("the next reason"), "fix_reason", (K.K_r,)),
    Binding(CORRECT, N_("Enter / Esc"), N_("journal the correction / drop it"), "fix_commit",
            ENTER),
    Binding(CORRECT, "", "", "fix_drop", (K.K_ESCAPE,)),

    Binding(PROJECTOR, N_("Wheel, middle drag, Home"),
            N_("zoom, pan, its own view again (F3: fit / true scale)")),
    Binding(PROJECTOR, N_("Click"), N_("select a bot, add a shot at it, place the drawn bot")),
    Binding(PROJECTOR, N_("Keys"), N_("work as on the laptop")),
    Binding(PROJECTOR, N_("Laptop only"),
            N_("dragging a plan, the ruler, the panel's buttons and log")),

    Binding(PROMPTS, N_("F / H"), N_("overwatch: fire or hold"), "watch_fire", (K.K_f,)),
    Binding(PROMPTS, "", "", "watch_hold", (K.K_h,)),
    Binding(PROMPTS, N_("1-6"), N_("physical dice: type the result")),
)


def lookup(section: str, key: int, char: str = "", ctrl: bool = False,
           shift: bool = False) -> Binding | None:
    """The first binding of `section` this key press runs (None: not one of them)."""
    for b in BINDINGS:
        if b.section == section and b.command and b.matches(key, char, ctrl, shift):
            return b
    return None


def sections() -> list[tuple[str, list[tuple[str, str]]]]:
    """The help's sections: (heading, [(key, what it does)]) in order, the words as
    message ids (the help translates them)."""
    return [(s, [(b.label, b.does) for b in BINDINGS if b.section == s and b.label])
            for s in SECTIONS]
