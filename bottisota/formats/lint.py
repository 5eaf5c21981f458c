"""Findings of `bottisota check`: errors (unplayable) and warnings (suspicious but
playable), each with a short code that `bottisota explain CODE` expands.

This module holds the finding value, the table of codes with their explanations,
the source excerpt with a caret under the spot (rustc style), and the key-level
checks of cards and mods (weapon stats, ids). Geometric checks of arenas and
scenario positions live in `bottisota.geometry.lint`; reachability in
`bottisota.play.reach`.
"""
from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any  # Any: data as read from a content file, before its checks

from bottisota.core.errors import Problem
from bottisota.core.i18n import N_, translated
from bottisota.formats.yaml_source import Marks, Raw

ERROR = "error"
WARNING = "warning"


@dataclass(frozen=True)
class Code:
    """One kind of finding: `W012 lone-teleporter`."""

    code: str
    name: str
    severity: str
    summary: str
    explanation: str

    @property
    def title(self) -> str:
        return f"{self.code} {self.name}"


_CODES: list[Code] = [
    Code("E001", "invalid-file", ERROR, N_("the file breaks its format"),
         N_("A key is missing, misspelt or of the wrong type, the YAML does not parse, or a "
            "shape cannot be used. The message names the key path and what was expected; "
            "docs/formats.md describes every format.")),
    Code("E002", "off-table", ERROR, N_("a feature or spot lies off the table"),
         N_("Every feature must lie on the table [0, width] x [0, height] and every respawn "
            "spot inside it. Move the feature in, or make the table bigger with `size`.")),
    Code("E003", "overlap", ERROR, N_("two features that cannot share a spot overlap"),
         N_("A wall in a pit, two teleporters on one spot, a lift in a wall: the rules cannot "
            "tell which one applies. Walls may overlap walls, pits may overlap pits, and a "
            "door may be drawn over a wall (the door cuts its wall).")),
    Code("E004", "slope-not-joining", ERROR, N_("stairs, a ramp or an escalator does not join"),
         N_("The floor just beyond a slope's low end must be at its `from` height and beyond "
            "its high end at its `to` height (within the step height). One exception: a ramp "
            "may end in a drop at its high end (a jump ramp).")),
    Code("E005", "lift-without-landing", ERROR, N_("a lift serves a height no floor has"),
         N_("A lift (R48) carries a bot to `top`; some floor of that height must lie within "
            "one base diameter of the car, or the bot has nowhere to get off.")),
    Code("E006", "duplicate-id", ERROR, N_("two things share one id"),
         N_("Feature ids are unique in an arena; card and mod ids are unique across every "
            "folder of content that is loaded together.")),
    Code("E010", "bot-off-table", ERROR, N_("a scenario bot stands off the table"),
         N_("A bot's whole base must lie on the table.")),
    Code("E011", "bot-in-wall", ERROR, N_("a scenario bot stands inside a wall or closed door"),
         N_("A bot's base may not overlap a wall; move it clear (the base is the card's "
            "`base` diameter, default the house rules' base_diameter).")),
    Code("E012", "bot-in-pit", ERROR, N_("a scenario bot stands in a pit"),
         N_("A bot whose centre is over a pit has fallen in (R46); place it beside the pit.")),
    Code("E013", "bots-overlap", ERROR, N_("two scenario bots overlap"),
         N_("Bases may touch but not overlap (D4).")),
    Code("W001", "respawn-blocked", WARNING, N_("a goal's respawn spot lies in a wall or pit"),
         N_("When the goal marker moves there (D23) no bot can reach it: it is inside a wall, "
            "a door or a pit. Move the spot onto open floor.")),
    Code("W003", "door-in-no-wall", WARNING, N_("a door that touches no wall"),
         N_("A door (R47) opens when a bot touches it and closes a gap in a wall. A door that "
            "touches no wall stands alone on the floor: probably it was meant to sit in a "
            "wall's gap or over a wall.")),
    Code("W004", "wall-below-floor", WARNING, N_("a wall is no higher than the floor it stands on"),
         N_("Wall `height` is the absolute height of its top (formats.md), not the height "
            "above the floor it stands on. A wall on a 4 cm platform with height 3 is below "
            "the platform's surface and does nothing; give the top's height (e.g. 4 + 6 = 10).")),
    Code("W005", "door-cuts-wall", WARNING, N_("a door covers a whole wall"),
         N_("The door cuts its wall; here nothing of the wall is left. Drop the wall.")),
    Code("W010", "push-without-strength", WARNING, N_("a push or pull weapon with strength 0"),
         N_("A push or pull (R29, R30) moves its target by `strength` cm; without it the "
            "weapon hits but moves nothing.")),
    Code("W011", "strength-unused", WARNING,
         N_("`strength` on a weapon that neither pushes nor pulls"),
         N_("Only push and pull weapons use `strength`; on a gun or a rocket it does nothing.")),
    Code("W012", "lone-teleporter", WARNING, N_("an arena with one teleporter"),
         N_("A teleporter (R53) moves a bot to another free teleporter; with only one there is "
            "nowhere to go and stepping on it does nothing. Add a second one or remove it.")),
    Code("W013", "never-hits", WARNING, N_("a to-hit roll a d6 cannot make"),
         N_("A d6 shows at most 6; `to_hit: 7` hits only with a +1 from a part. Most likely "
            "6 (or a lower number) was meant.")),
    Code("W014", "dead-weapon-stat", WARNING, N_("a weapon stat that can never matter"),
         N_("For example `hits: 0` on a weapon with no effect (it can never do anything), "
            "`armour_mod` on a weapon that never deals damage, or `range: 0` on a weapon "
            "fired at others.")),
    Code("W015", "card-never-dealt", WARNING, N_("a card with `copies: 0`"),
         N_("The card is never in the bot deck; only scenarios can use it.")),
    Code("W020", "shadows-bundled", WARNING, N_("a user card or mod has the id of a bundled one"),
         N_("Your file takes the place of the bundled card or mod of the same id. Say so with "
            "`replaces: ID` in your card (then it is not reported), or pick another id.")),
    Code("W030", "unreachable", WARNING, N_("a platform or goal no ground bot can reach"),
         N_("No walking, wheeled or tracked bot can get there from the ground floor by steps "
            "within the step height, stairs, ramps, escalators, lifts or teleporters. Only "
            "fliers and hovers can. Add a way up, or accept it as a flier's perch.")),
]
CODES: dict[str, Code] = {c.code: c for c in _CODES}
BY_NAME: dict[str, Code] = {c.name: c for c in _CODES}


def lookup(word: str) -> Code | None:
    """A code by its code (`W012`, `w12`) or name (`lone-teleporter`)."""
    word = word.strip()
    up = word.upper()
    if up in CODES:
        return CODES[up]
    if len(up) >= 2 and up[0] in "EW" and up[1:].isdigit():
        return CODES.get(f"{up[0]}{int(up[1:]):03d}")
    return BY_NAME.get(word.lower())


@dataclass(frozen=True)
class Finding:
    """One error or warning about a spot in a file."""

    code: str
    file: str
    line: int
    column: int
    path: str
    message: str
    help: str | None = None
    severity: str | None = None          # default: the code's
    at: tuple[float, float] | None = None   # the spot on the table, cm (for the preview)

    @property
    def level(self) -> str:
        return self.severity or CODES[self.code].severity

    @property
    def name(self) -> str:
        return CODES[self.code].name

    def headline(self) -> str:
        where = f"{self.file}:{self.line}:{self.column}" if self.line else self.file
        key = f" {self.path}:" if self.path else ""
        message = translated(self.message)
        return f"{where}: {self.level}[{self.code} {self.name}]:{key} {message}"

    def strict(self) -> Finding:
        return replace(self, severity=ERROR)


def finding(code: str, marks: Marks, path: str, message: str, help: str | None = None,
            key: bool = False, at: tuple[float, float] | None = None) -> Finding:
    """A finding at a key path of a file."""
    line, column = marks.at(path, key)
    return Finding(code, marks.file, line, column, path, message, help, at=at)


_ERROR_WORDS = (("off the table", "E002"), ("overlaps", "E003"), ("does not join", "E004"),
                ("serves a landing", "E005"), ("is already used", "E006"),
                ("is used again", "E006"))


def from_problem(problem: Problem) -> Finding:
    """An error of the loader as a finding (its code read from its message)."""
    code = next((c for words, c in _ERROR_WORDS if words in problem.message), "E001")
    help_text = None
    if "did you mean '" in problem.message:
        help_text = N_("did you mean '{name}'?").format(
            name=problem.message.split("did you mean '", 1)[1].split("'")[0])
    return Finding(code, problem.file, problem.line, problem.column, problem.path,
                   problem.message, help_text, severity=ERROR)


# --- showing findings --------------------------------------------------------------------

_COLOURS = {ERROR: "\033[1;31m", WARNING: "\033[1;33m", "help": "\033[1;36m",
            "dim": "\033[2m", "end": "\033[0m"}


@functools.lru_cache(maxsize=4)
def _lines(text: str) -> tuple[str, ...]:
    """The text's lines, split once for all the findings shown from one file."""
    return tuple(text.splitlines())


def show(item: Finding, text: str | None = None, colour: bool = False) -> str:
    """The finding as a terminal shows it: the headline, the source line with a caret
    under the spot, and a `help:` line."""
    def paint(kind: str, s: str) -> str:
        return f"{_COLOURS[kind]}{s}{_COLOURS['end']}" if colour else s

    head = item.headline()
    lines = [paint(item.level, head) if colour else head]
    # the line is quoted only for a finding at a key: a file refused as a whole (binary,
    # nested too deep, not the format at all: perhaps a password file) is never echoed
    source = _lines(text) if text and item.path else ()
    if 0 < item.line <= len(source):
        number = str(item.line)
        pad = " " * len(number)
        src, col = _window(source[item.line - 1].replace("\t", " "), max(item.column, 1))
        width = _token_width(src, col - 1)
        lines.append(paint("dim", f"{pad} |"))
        lines.append(paint("dim", f"{number} | ") + src)
        lines.append(paint("dim", f"{pad} | ") + " " * (col - 1)
                     + paint(item.level, "^" * width))
    if item.help:
        lines.append(("  = " if source else "  ") + paint("help", "help:")
                     + f" {translated(item.help)}")
    return "\n".join(lines)


def _window(src: str, column: int, width: int = 100) -> tuple[str, int]:
    """A long source line cut to `width` characters around `column` (1-based)."""
    if len(src) <= width:
        return src, column
    start = max(0, min(column - 1 - width // 2, len(src) - width))
    cut = src[start:start + width]
    return ("…" if start else "") + cut + ("…" if start + width < len(src) else ""), \
        column - start + (1 if start else 0)


def _token_width(src: str, start: int) -> int:
    """How many characters the caret underlines: the word or bracketed value at `start`."""
    if start >= len(src):
        return 1
    opener = src[start]
    if opener in "[{":
        closer = "]" if opener == "[" else "}"
        depth = 0
        for i in range(start, len(src)):
            depth += src[i] == opener
            depth -= src[i] == closer
            if depth == 0:
                return i - start + 1
        return len(src) - start
    end = start
    while end < len(src) and src[end] not in ",}]#" and not (src[end] == ":" and end > start):
        end += 1
    return max(1, len(src[start:end].rstrip()))


# --- cards and mods ------------------------------------------------------------------------

PUSHERS = ("push", "pull")


def _items(data: Any) -> list[tuple[str, Raw]]:
    if isinstance(data, list):
        return [(f"[{i}]", d) for i, d in enumerate(data) if isinstance(d, dict)]
    return [("", data)] if isinstance(data, dict) else []


def _at(prefix: str, key: str) -> str:
    return f"{prefix}.{key}" if prefix else key


def weapon_findings(weapons: Any, prefix: str, marks: Marks) -> list[Finding]:
    """Suspicious weapon stats (push without strength, strength on a gun, to_hit 7, dead stats)."""
    out: list[Finding] = []
    for i, w in enumerate(weapons if isinstance(weapons, list) else []):
        if not isinstance(w, dict):
            continue
        where = f"{_at(prefix, 'weapons')}[{i}]"
        kind = w.get("kind")
        name = w.get("name", N_("weapon {i}").format(i=i))
        strength = w.get("strength") or 0
        hits = w.get("hits", 1)
        if kind in PUSHERS and not strength:
            out.append(finding("W010", marks, where,
                    N_("'{name}' is a {kind} weapon with no strength: it moves nothing").format(
                        name=name, kind=kind), help=
                                       N_("strength: 6   # cm the target is {kind}ed").format(
                                           kind=kind)))
        if kind not in PUSHERS and strength:
            out.append(finding("W011", marks, f"{where}.strength",
                    N_("'{name}' is a {kind}; strength {strength:g} is used only by push and "
                       "pull weapons").format(
                        name=name, kind=kind, strength=strength),
                               help=N_("remove `strength`, or make it `kind: push`"), key=True))
        if w.get("to_hit") == 7:
            out.append(finding("W013", marks, f"{where}.to_hit",
                    N_("'{name}' hits only on a 7, which a d6 cannot show without a +1 from a "
                       "part").format(
                        name=name),
                               help=N_("to_hit: 6")))
        if hits == 0 and not w.get("effect") and kind not in PUSHERS:
            out.append(finding("W014", marks, f"{where}.hits",
                    N_("'{name}' has hits: 0 and no effect: it can never do anything").format(
                        name=name), help=N_("hits: 1")))
        elif hits == 0 and w.get("armour_mod"):
            out.append(finding("W014", marks, f"{where}.armour_mod",
                    N_("'{name}' deals no damage (hits: 0), so its armour_mod never "
                       "matters").format(
                        name=name),
                               help=N_("remove `armour_mod`"), key=True))
        if w.get("range") == 0 and kind not in ("melee", "mine", "magnetic_mine"):
            out.append(finding("W014", marks, f"{where}.range",
                    N_("'{name}' is a {kind} with range 0: it can reach no target").format(
                        name=name, kind=kind), help=N_("range: 30")))
    return out


def card_findings(data: Any, marks: Marks) -> list[Finding]:
    """Warnings about a bot card file (one card or a list)."""
    out: list[Finding] = []
    for prefix, card in _items(data):
        out += weapon_findings(card.get("weapons"), prefix, marks)
        if card.get("copies") == 0:
            out.append(finding("W015", marks, _at(prefix, "copies"),
                    N_("card '{v}' has copies: 0 and is never dealt").format(
                        v=card.get('id')), help=N_("copies: 1")))
    return out


def mod_findings(data: Any, marks: Marks) -> list[Finding]:
    """Warnings about a mod file (one mod or a list)."""
    out: list[Finding] = []
    for prefix, mod in _items(data):
        out += weapon_findings(mod.get("weapons"), prefix, marks)
    return out


def id_findings(files: Iterable[tuple[str, Any, Marks]], bundled: Mapping[str, str],
                what: str) -> list[Finding]:
    """Ids given twice across user files, and user ids that shadow a bundled one
    without `replaces:`. `files` are (origin, data, marks) with origin 'user' or
    'bundled'; `bundled` maps bundled ids to their file."""
    out: list[Finding] = []
    first: dict[str, str] = {}
    for origin, data, marks in files:
        if origin != "user":
            continue
        for prefix, item in _items(data):
            ident = item.get("id")
            if ident is None:
                continue
            ident = str(ident)
            path = _at(prefix, "id")
            if ident in first:
                # the loader refuses the second file, so the game would not start
                out.append(finding("E006", marks, path,
                        N_("the {what} id '{ident}' is used again (first in {v})").format(
                            what=what, ident=ident, v=first[ident]), help=
                                           N_("id: {ident}-2").format(ident=ident)))
                continue
            first[ident] = marks.file
            if ident in bundled and item.get("replaces") != ident:
                out.append(finding("W020", marks, path,
                        N_("the {what} '{ident}' shadows the bundled {what} of that id "
                           "({v})").format(
                            what=what, ident=ident, v=bundled[ident]),
                                   help=N_("replaces: {ident}   # or pick another id").format(
                                            ident=ident)))
    return out
