"""A robot's decision in the players' language: "blue heitti 5 taulukossa 'vihollinen
10-30 cm:n päässä, etukaaressa': pidä etäisyys, ammu kaikilla aseilla".

The robot tables (cards/robots/*.yaml) and their generated labels are English words of
the format (`near_goal`, `keep_range`, "enemy 10-30 cm, in arc"); the journal keeps them
so. Here each part of a label and of a choice is told in words; a designer's own label
or `say:` text is not one of the format's words and stays as written.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any  # Any: a robot_decision event, from memory or from a journal file

from bottisota.core.i18n import N_, _, translated

# the format's words (as the YAML writes them) and how a player says them
WORDS = {
    # conditions (formats/robot_tables.CONDITIONS)
    "otherwise": N_("otherwise"), "first_round": N_("the first round"),
    "new_bot": N_("a new bot"), "in_arc": N_("an enemy in arc"),
    "in_sight": N_("an enemy in sight"), "in_reach": N_("an enemy in reach"),
    "damaged": N_("damaged"), "ammo_out": N_("out of ammo"),
    "watched": N_("under overwatch"), "on_service": N_("on a service point"),
    # turn rows: moves, then what
    "close_in": N_("close in"), "keep_range": N_("keep the range"), "flank": N_("flank"),
    "retreat": N_("retreat"), "grab_goal": N_("grab a goal"), "ram": N_("ram"),
    "evade": N_("get out of sight"), "self_destruct": N_("self-destruct"),
    "overwatch": N_("set overwatch"), "service": N_("use the service point"),
    "drop_a_mine": N_("drop a mine"),
    # place rows
    "near_enemy": N_("near an enemy"), "far_from_enemies": N_("far from the enemies"),
    "near_goal": N_("near a goal"), "near_service": N_("near a service point"),
    "centre": N_("in the centre"), "cover": N_("in cover"),
}
# words whose meaning depends on the table they are in
SECTION_WORDS = {("turn", "hold"): N_("stay put"), ("overwatch", "hold"): N_("hold fire"),
                 ("overwatch", "fire"): N_("fire")}
WEAPONS = {"all": N_("fire every weapon"), "nose": N_("fire the nose weapons"),
           "turret": N_("fire the turret weapons"),
           "longest": N_("fire the longest-reaching weapon"),
           "strongest": N_("fire the strongest weapon")}
TARGETS = {"nearest": N_("the nearest enemy"), "weakest": N_("the weakest enemy"),
           "most_damaged": N_("the most damaged enemy"), "leader": N_("the leader's bot"),
           "furthest": N_("the furthest enemy")}
LOCOMOTIONS = {"wheeled": N_("wheeled"), "tracked": N_("tracked"), "walker": N_("walker"),
               "flier": N_("flier"), "hover": N_("hover")}

# the label generator's parts (formats.robot_tables.describe; "\s": a space)
_SPAN = r"(\d+(?:\.\d+)?(?:\+|-\d+(?:\.\d+)?))"
_PARTS: list[tuple[re.Pattern[str], Callable[[re.Match[str]], str]]] = [
    (re.compile(r"not\s(.+)"), lambda m: _("not {condition}").format(condition=_part(m[1], ""))),
    (re.compile(rf"enemy\s{_SPAN}\scm"), lambda m: _("an enemy at {span} cm").format(span=m[1])),
    (re.compile(rf"structure\sleft\s{_SPAN}"),
     lambda m: _("{span} structure left").format(span=m[1])),
    (re.compile(rf"enemies\s{_SPAN}"), lambda m: _("{span} enemies").format(span=m[1])),
    (re.compile(r"goal\swithin\s(\S+)\scm"), lambda m: _("a goal within {cm} cm").format(cm=m[1])),
    (re.compile(r"service\swithin\s(\S+)\scm"),
     lambda m: _("a service point within {cm} cm").format(cm=m[1])),
    (re.compile(r"locomotion\s(\S+)"), lambda m: _("moves as {kinds}").format(
        kinds=" / ".join(_(LOCOMOTIONS[k]) if k in LOCOMOTIONS else k for k in m[1].split("/")))),
    (re.compile(r"has\s(\S+)"), lambda m: _("carries {kinds}").format(
        kinds=" / ".join(_(k) for k in m[1].split("/")))),
    (re.compile(r"keep\srange\s(\S+)\scm"), lambda m: _("keep {cm} cm away").format(cm=m[1])),
    (re.compile(r"fire\s(\w+)(?:\sat\s(.+))?"), lambda m: _fire(m[1], m[2])),
]


def _fire(weapons: str, target: str | None) -> str:
    fire = _(WEAPONS[weapons]) if weapons in WEAPONS else weapons
    if target is None:
        return fire
    key = target.replace(" ", "_")
    return _("{fire} at {target}").format(fire=fire, target=_(TARGETS[key])
                                          if key in TARGETS else target)


def _part(text: str, section: str) -> str:
    """One comma-separated part of a label or a choice in words (as written when it is
    not one of the format's words)."""
    key = text.strip().replace(" ", "_")
    if (section, key) in SECTION_WORDS:
        return _(SECTION_WORDS[section, key])
    if key in WORDS:
        return _(WORDS[key])
    for pattern, say in _PARTS:
        m = pattern.fullmatch(text.strip().replace("_", " "))
        if m:
            return say(m)
    return text


def phrase(text: str, section: str = "turn") -> str:
    """A generated label or choice ("enemy 0-4 cm, in arc"; "keep range 12 cm, fire all")
    in words; a designer's own text as written."""
    parts = str(text).split(", ")
    said = [_part(p, section) for p in parts]
    if all(a == b for a, b in zip(said, parts, strict=True)):
        return str(text)
    return ", ".join(said)


def decision_words(e: Mapping[str, Any]) -> str:
    """The log's line for a `robot_decision` event."""
    section = str(e.get("section") or "turn")
    if "rule" not in e or "choice" not in e:
        return translated(e["text"])
    return _("{player} rolled {roll} on '{label}': {choice}").format(
        player=e["player"], roll=e["roll"], label=phrase(e["rule"], section),
        choice=phrase(e["choice"], section))
