"""Finnish a Finnish player would write (issue 31): every event kind, every catalogued
text (refusals, panel, help, check findings) in Finnish carries no English word, counts
agree with their numbers in both languages, and every glyph the table draws is in the
font the view loads."""
from __future__ import annotations

import io
import os
import random
import re
from functools import cache
from pathlib import Path
from typing import Any, Literal, NotRequired, Union, get_args, get_origin, get_type_hints

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from bottisota.core import i18n
from bottisota.core.i18n import set_language
from bottisota.engine.event_types import EVENT_TYPES
from bottisota.viewmodel.words import describe

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "bottisota"

# words written the same in both languages, or names the texts carry as names
NOT_ENGLISH_ONLY = {
    # program, format and key names
    "bottisota", "json", "yaml", "jsonl", "svg", "pdf", "png", "qr", "http", "https", "url",
    "enter", "esc", "shift", "ctrl", "tab", "alt", "space", "backspace", "home", "end",
    "python", "pygame", "sdl", "shapely", "utf", "lan", "wifi", "ip", "id", "ids", "ok",
    "xdg", "lang", "all", "messages", "language", "display", "wayland", "x11", "dpi", "fps",
    # the players' and the example bots' names
    "red", "blue", "green", "yellow", "sniper", "aggressive", "scavenger",
    # people's and programs' names
    "dask", "bradley", "terry", "holm", "opencv", "charuco", "video",
    # words that are Finnish too
    "on", "tai", "se", "sen", "ja", "ei", "no", "min", "max", "arvo", "auto", "data",
    "info", "kit", "ase", "alas", "ala", "sata",
}
# YAML keys and values, commands and options the Finnish texts name as they are written
FORMAT_WORDS = {
    "actions", "alias", "arena", "arenas", "assets", "bksp", "bottom", "cards", "check",
    "choices", "circle", "copies", "defaults", "docs", "english", "explain", "false",
    "features", "format", "height", "hidden", "locomotion", "mapping", "matches", "message",
    "modifies", "mods", "nul", "null", "option", "path", "play", "polygon", "preview", "prog",
    "range", "rect", "render", "replaces", "replay", "robots", "scenario", "schema", "serve",
    "side", "simulate", "size", "strength", "suomi", "true", "type", "value", "version",
    "warehouse", "worst", "camera", "calibrate", "lens", "pose", "known",
}
# Finnish texts that list YAML keys in words (the keys are English words: turn, place, ...)
KEY_LISTS = {
    "not a robot personality file: expected a mapping with name, place, turn and overwatch",
    "a list of rules, each {when: ..., dice: d6, table: {...}}",
    "a rule: when, dice and a table of {what}",
    "cannot tell what this file is: expected an arena (size, features), a bot card "
    "(locomotion), a mod (modifies), house rules or a scenario (arena, bots, actions)",
    "events: expected {pattern} (in order), actual none such",
}
# left out of the check: YAML examples and keys, quoted values, placeholders, options,
# file names, rule codes, identifiers, addresses, package extras, commands, hyphenated ids
_SKIP = re.compile(r"\{\{.*?\}\}|\b[\w{}]+(\.[\w{}]+)+:?|\b\w+: -?\d|"
                   r"`[^`]*`|'[^']*'|\{[^{}]*\}|--?[a-z][\w-]*|"
                   r"\b[\w.-]+\.(yaml|json|jsonl|py|md|png|svg|pdf)\b|\b[A-Z]\d+\b|\b\w+_\w+\b|"
                   r"\w+://\S+|\w+\[\w+\]|\bpip install\b|\b[a-z0-9]+(-[a-z0-9]+)+\b")
_WORD = re.compile(r"[A-Za-zÅÄÖåäö]{3,}")


def _messages(lang: str) -> list[tuple[str, list[str]]]:
    cat = read_po(io.StringIO(i18n.catalogue_text(lang)), locale=lang)
    out = []
    for m in cat:
        if m.id:
            ids = [m.id] if isinstance(m.id, str) else list(m.id)
            strings = [m.string] if isinstance(m.string, str) else list(m.string)
            out.append((ids[0], [s for s in strings if s]))
    return out


@cache
def english_only_words() -> frozenset[str]:
    """Words of the English catalogue that are not Finnish: every word of its texts (quoted
    values, options and placeholders left out) less the shared words and format words."""
    def words(lang: str) -> set[str]:
        return {w.lower() for _id, strings in _messages(lang) for s in strings
                for w in _WORD.findall(_SKIP.sub(" ", s))}
    return frozenset(words("en") - NOT_ENGLISH_ONLY - FORMAT_WORDS)


def english_in(text: str, names: set[str] = frozenset()) -> list[str]:
    """The English-only words of a Finnish text (names, quoted values, keys left out)."""
    plain = _SKIP.sub(" ", text)
    for name in sorted(names, key=len, reverse=True):
        plain = plain.replace(name, " ")
    return [w for w in _WORD.findall(plain) if w.lower() in english_only_words()]


# --- one event of every kind -------------------------------------------------------------

SAMPLE_NAMES = {"red-1", "blue-2", "red", "blue", "Rocket pod", "Turret gun", "mine-7",
                "bay-door", "east-belt", "tele-a", "tele-b", "lift-1", "pit-1"}
_SAMPLE_STR = {"bot": "red-1", "target": "blue-2", "other": "blue-2", "by": "blue-2",
               "player": "red", "weapon": "Rocket pod", "mine": "mine-7", "toward": "blue-2",
               "by_fall_of": "blue-2", "with": "blue-2", "card": "Turret gun",
               "door": "door 'bay-door'", "feature": "conveyor 'east-belt'",
               "from": "teleporter 'tele-a'", "to": "teleporter 'tele-b'", "part": "Turret gun",
               "service": "#1", "choice": "repair", "at": "service #1",
               "direction": "up", "kind": "push", "phase": "shoot"}


def _sample_value(key: str, hint: Any) -> Any:
    origin = get_origin(hint)
    if origin is Literal:
        return get_args(hint)[0]
    if origin in (Union, getattr(__import__("types"), "UnionType", Union)):
        options = [a for a in get_args(hint) if a is not type(None)]
        return _sample_value(key, options[0]) if options else None
    if origin is NotRequired:
        return _sample_value(key, get_args(hint)[0])
    if hint is bool:
        return True
    if hint is int:
        return 2
    if hint is float:
        return 1.5
    if hint is str:
        return _SAMPLE_STR.get(key, "red-1")
    if origin in (list, tuple):
        if key == "points":
            return [[1.0, 2.0], [3.5, 4.0]]
        inner = get_args(hint)[0] if get_args(hint) else str
        return [1.5, 2.0] if inner in (float, int) or key in ("from", "to", "at") \
            else ["red-1", "blue-2"]
    if origin is dict:
        return {"red": 3, "blue": 1}
    return "red-1"


def sample_events() -> list[dict]:
    """One synthetic event of every declared kind (every field filled), then the real
    events of every project scenario (the core's own causes, reasons and refusals)."""
    out = []
    for kind, cls in sorted(EVENT_TYPES.items()):
        hints = get_type_hints(cls, include_extras=True)
        event = {k: _sample_value(k, h) for k, h in hints.items()}
        event["type"] = kind
        out.append(event)
    return out


@cache
def scenario_outcomes() -> tuple[Any, ...]:
    from bottisota.play.scenario import load_scenario, run

    return tuple(run(load_scenario(path))
                 for path in sorted((ROOT / "tests" / "scenarios").glob("*.yaml"))
                 if not path.name.startswith("invalid"))


def scenario_events() -> list[dict]:
    return [e for outcome in scenario_outcomes() for e in outcome.events]


@cache
def played_games() -> tuple[Any, ...]:
    """A seeded random game on every bundled arena (a few seeds each)."""
    from bottisota.engine.game import Game
    from bottisota.engine.random_play import play_random_game
    from bottisota.formats.content import arenas_dir
    from bottisota.formats.loading import bundled_rules, load_arena, load_catalogue

    cards, mods = load_catalogue()
    rules = bundled_rules()
    games = []
    for path in sorted(arenas_dir().glob("*.yaml")):
        for seed in (1, 3):
            game = Game.new(load_arena(path, rules), rules, cards, mods, ["red", "blue"],
                            seed=seed)
            play_random_game(game, random.Random(seed), max_actions=100)
            games.append(game)
    return tuple(games)


def game_events() -> list[dict]:
    return [e for game in played_games()
            for e in game.start_events + [e for entry in game.history for e in entry.events]]


# the event fields that hold names (bots, players, weapons, cards, parts, mines)
NAME_KEYS = {"bot", "target", "by", "player", "with", "toward", "by_fall_of", "mine",
             "members", "safe", "players", "winners", "parts", "part", "card", "weapon",
             "weapons", "scores", "personality"}


def _names_of(event: dict, card_names: set[str]) -> set[str]:
    """The names an event carries (bots, players, weapons, features' ids): left as written."""
    names = set(SAMPLE_NAMES) | card_names
    for key, v in event.items():
        if key == "cause" and isinstance(v, str) and "'s " in v:   # "{id}'s {weapon} ..."
            names.add(v.split("'s ", 1)[1].removesuffix(" blast").removesuffix(" (flying on)"))
        if key in NAME_KEYS:
            values = v if isinstance(v, list) else list(v) if isinstance(v, dict) else [v]
            names |= {str(x) for x in values if isinstance(x, str)}
    return names


@cache
def _card_names() -> set[str]:
    from bottisota.formats.loading import load_catalogue

    cards, mods = load_catalogue()
    names = set(cards) | {c.name for c in cards.values()} | set(mods)
    for c in cards.values():
        names |= {w.name for w in c.weapons}
    return {n for n in names if n}


def test_the_english_word_list_is_the_english_catalogues():
    words = english_only_words()
    assert {"takes", "damage", "door", "collision", "forward", "wins"} <= words
    assert not {"saa", "ovi", "red", "on"} & words


def test_every_event_kind_reads_finnish():
    set_language("fi")
    try:
        found = []
        events = sample_events() + scenario_events() + game_events()
        kinds = {e["type"] for e in events}
        bots = {str(e[k]) for e in events for k in ("bot", "target", "by") if e.get(k)}
        assert set(EVENT_TYPES) <= kinds
        for e in events:
            text = describe(e)
            bad = english_in(text, _names_of(e, _card_names() | bots))
            if bad:
                found.append(f"{e['type']}: {text!r} {bad}")
        assert not found, f"{len(found)} lines with English:\n" + "\n".join(sorted(set(found))[:40])
    finally:
        set_language("en")


def test_the_checker_catches_an_english_line():
    set_language("fi")
    try:
        assert english_in("red-1 takes 2 damage points (collision)", {"red-1"}) == [
            "takes", "damage", "points", "collision"]
        assert english_in("red-1 saa 2 vauriopistettä (törmäys)", {"red-1"}) == []
    finally:
        set_language("en")


def _code_ids_by_place() -> tuple[set[str], set[str]]:
    """Message ids the Python code uses, and those only the phone pages use."""
    def ids(patterns: list[tuple[str, str]]) -> set[str]:
        keywords = {"_": None, "N_": None, "gettext": None, "ngettext": (1, 2), "tx": None}
        return {m if isinstance(m, str) else m[0] for _f, _l, m, _c, _x in
                extract_from_dir(str(PACKAGE), method_map=patterns, keywords=keywords)}
    python = ids([("**.py", "python")])
    phones = ids([("web/static/*.js", "javascript"),
                  ("web/static/*.html", "bottisota.web.page_words.extract")])
    return python, phones - python


def test_every_finnish_text_of_the_catalogue_reads_finnish():
    """Every refusal, reason, panel and help text, prompt and finding, as the Finnish
    catalogue has it, carries no English word (quoted YAML keys and values, options,
    rule codes and placeholders left out)."""
    found = [f"{msgid!r} -> {s!r}: {bad}" for msgid, strings in _messages("fi") for s in strings
             if msgid not in KEY_LISTS and (bad := english_in(s))]
    assert not found, f"{len(found)} Finnish texts with English:\n" + "\n".join(found[:60])


# --- numbers agree ------------------------------------------------------------------------

AGREEMENT = {
    "en": {("score", 1): "red scores 1 point", ("score", 2): "red scores 2 points",
           ("score", 5): "red scores 5 points", ("score", 1.5): "red scores 1.5 points",
           ("damaged", 1): "red-1 takes 1 damage point (collision)",
           ("damaged", 2): "red-1 takes 2 damage points (collision)",
           ("damaged", 5): "red-1 takes 5 damage points (collision)",
           ("fall", 1): "red-1 falls 1 cm", ("fall", 2): "red-1 falls 2 cm",
           ("fall", 5): "red-1 falls 5 cm", ("fall", 1.5): "red-1 falls 1.5 cm"},
    "fi": {("score", 1): "red saa 1 pisteen", ("score", 2): "red saa 2 pistettä",
           ("score", 5): "red saa 5 pistettä", ("score", 1.5): "red saa 1,5 pistettä",
           ("damaged", 1): "red-1 saa 1 vauriopisteen (törmäys)",
           ("damaged", 2): "red-1 saa 2 vauriopistettä (törmäys)",
           ("damaged", 5): "red-1 saa 5 vauriopistettä (törmäys)",
           ("fall", 1): "red-1 putoaa 1 cm", ("fall", 2): "red-1 putoaa 2 cm",
           ("fall", 5): "red-1 putoaa 5 cm", ("fall", 1.5): "red-1 putoaa 1,5 cm"},
}


@pytest.mark.parametrize("lang", ["en", "fi"])
def test_numbers_agree_with_their_nouns(lang):
    set_language(lang)
    try:
        for (kind, n), expected in AGREEMENT[lang].items():
            event = {"score": {"type": "score", "player": "red", "points": n},
                     "damaged": {"type": "damaged", "bot": "red-1", "amount": n,
                                 "cause": "collision"},
                     "fall": {"type": "fall", "bot": "red-1", "drop": n}}[kind]
            assert describe(event) == expected
    finally:
        set_language("en")


@pytest.mark.parametrize("lang", ["en", "fi"])
def test_a_tie_reads_as_a_draw(lang):
    set_language(lang)
    try:
        text = describe({"type": "game_over", "winners": ["red", "blue"],
                         "scores": {"red": 2, "blue": 2}})
        assert text == {"en": "GAME OVER: a draw between red and blue, level on 2 points and "
                              "on destroyed bots; scores: red 2, blue 2",
                        "fi": "PELI PÄÄTTYI: tasapeli, red ja blue ovat tasoissa (2 pistettä ja "
                              "yhtä monta tuhottua bottia); pisteet: red 2, blue 2"}[lang]
    finally:
        set_language("en")


# --- glyphs -------------------------------------------------------------------------------

def missing_glyphs(text: str) -> set[str]:
    """The characters of `text` the view's font has no glyph for (they draw as the
    font's empty box, whose metrics every missing character shares)."""
    import pygame

    from bottisota.view import style

    pygame.font.init()
    font = style.default_font(20)
    box = font.metrics("\ue000")[0]
    return {c for c, m in zip(text, font.metrics(text), strict=True)
            if not c.isspace() and m == box and c != "\ue000"}


def test_the_glyph_check_finds_a_missing_glyph():
    assert missing_glyphs("a → b") == {"→"}
    assert missing_glyphs("äöåÄÖÅ «» – · °") == set()


def test_every_glyph_the_table_draws_is_in_the_font():
    """Every character of every catalogued text the Python code shows (the phone pages
    draw with the phone's own fonts) and of the glossary's terms is in the view's font."""
    python, phones_only = _code_ids_by_place()
    missing: dict[str, set[str]] = {}
    for lang in ("en", "fi"):
        for msgid, strings in _messages(lang):
            if msgid in phones_only:
                continue
            for s in strings:
                if got := missing_glyphs(s):
                    missing[f"{lang}: {s}"] = got
    glossary = (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
    terms = " ".join(re.findall(r"\|\s*[^|]*?\s*\|\s*([^|]*?)\s*\|", glossary))
    if got := missing_glyphs(terms):
        missing["glossary"] = got
    assert not missing, missing


# --- data-driven words --------------------------------------------------------------------

def test_plan_steps_read_finnish():
    from bottisota.core.actions import Back, DropMine, Forward, Lift, Loop, Strafe, Turn
    from bottisota.viewmodel.words import step_words

    steps = (Turn(-45), Forward(5), Back(2.5), Strafe(90, 2), Loop(), Lift("up"),
             DropMine("Mine"))
    set_language("fi")
    try:
        said = [step_words(s) for s in steps]
    finally:
        set_language("en")
    assert said == ["käänny -45°", "eteen 5 cm", "taakse 2,5 cm", "sivuttain 2 cm suuntaan 90°",
                    "voltti", "hissillä ylös", "pudota miina (Mine)"]
    assert [step_words(s) for s in steps[:2]] == ["turn -45°", "forward 5 cm"]


def test_robot_table_rows_read_finnish():
    """The robot tables' generated labels and rows are the format's English words: the
    log tells them in words; a designer's own label stays as written."""
    event = {"type": "robot_decision", "player": "blue", "bot": "blue-1", "section": "turn",
             "rule": "enemy 10-30 cm, in arc", "roll": 5,
             "choice": "keep range 12 cm, fire all at most damaged", "text": "(journal)"}
    place = dict(event, section="place", rule="otherwise", choice="near_goal")
    watch = dict(event, section="overwatch", rule="hurt, service near", choice="hold")
    assert describe(place) == "blue rolled 5 on 'otherwise': near a goal"
    set_language("fi")
    try:
        assert describe(event) == (
            "blue heitti 5 (sääntö 'vihollinen 10-30 cm:n päässä, vihollinen nokan edessä'): "
            "pidä 12 cm:n etäisyys, ammu kaikilla aseilla, kohteena eniten vaurioitunut "
            "vihollinen")
        assert describe(place) == "blue heitti 5 (sääntö 'muuten'): maalin lähelle"
        assert describe(watch) == "blue heitti 5 (sääntö 'hurt, service near'): älä ammu"
    finally:
        set_language("en")


def test_causes_features_and_possessives_read_finnish():
    set_language("fi")
    try:
        said = [describe(e) for e in (
            {"type": "damaged", "bot": "red-1", "amount": 1, "cause": "blue-2's Missile rack"},
            {"type": "destroyed", "bot": "blue-2", "cause": "collision"},
            {"type": "door_opened", "bot": "red-1", "door": "door 'bay-door'"},
            {"type": "belt", "bot": "red-1", "feature": "conveyor 'east'", "distance": 2},
            {"type": "blast", "weapon": "red-1's self-destruct", "x": 1, "y": 2,
             "members": ["blue-2"]})]
    finally:
        set_language("en")
    assert said == ["red-1 saa 1 vauriopisteen (blue-2:n Missile rack)",
                    "blue-2 TUHOUTUU (törmäys)",
                    "ovi 'bay-door' aukeaa botin red-1 edessä",
                    "red-1 kulkee 2 cm (liukuhihna 'east')",
                    "red-1:n itsetuhoräjähdys kohdassa (1; 2) osuu: blue-2"]
    blast = {"type": "blast", "weapon": "red-1's self-destruct", "x": 1, "y": 2,
             "members": ["blue-2"]}
    assert describe(blast) == "red-1's self-destruct blast at (1, 2) catches blue-2"


def test_dice_purposes_read_finnish():
    """The dice block and the physical-dice prompt show each die's purpose: the core's
    English purposes (modifiers, re-rolls and picks included) read Finnish."""
    purposes = {r.purpose for game in played_games() for r in game.state.dice.rolls}
    assert len(purposes) > 50
    bots = {b for game in played_games() for b in game.state.bots}
    set_language("fi")
    try:
        found = [f"{p!r} -> {t!r}" for p in sorted(purposes)
                 if english_in(t := i18n.translated(p), _card_names() | bots)]
    finally:
        set_language("en")
    assert not found, f"{len(found)} purposes with English:\n" + "\n".join(found[:30])


def test_every_refusal_of_the_scenarios_reads_finnish():
    """The refusals the project's scenarios expect (R7, R19, R23, R56 ...), as the table
    and the phones show them."""
    refusals = {str(r["reason"]) for o in scenario_outcomes() for r in o.rejected}
    assert len(refusals) > 20
    bots = {str(b) for o in scenario_outcomes() for b in o.state.bots}
    weapons = {w.name for o in scenario_outcomes() for b in o.state.bots.values()
               for w in b.stats.weapons}
    set_language("fi")
    try:
        found = [f"{r!r} -> {t!r}" for r in sorted(refusals)
                 if english_in(t := i18n.translated(r), _card_names() | bots | weapons)]
    finally:
        set_language("en")
    assert not found, f"{len(found)} refusals with English:\n" + "\n".join(found[:30])


# --- the table as drawn -------------------------------------------------------------------

def _drawn_texts(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text the table view draws (table, panel, log, dice, results, pre-measure,
    the help overlay) for the README's scenes, in Finnish."""
    from bottisota.view import style
    from bottisota.view.app import TableApp
    from bottisota.view.screenshots import SIZE, _fired, _shooting, screenshot_game
    from bottisota.viewmodel.results import effects_of

    drawn: list[str] = []
    label = style.label

    def recording(text: str, size: int, colour: Any = style.TEXT) -> Any:
        drawn.append(text)
        return label(text, size, colour)

    monkeypatch.setattr(style, "label", recording)
    style.forget_fonts()
    set_language("fi")
    try:
        table = TableApp(screenshot_game("r1", "move"), SIZE)
        table.vm.show_legend = True
        assert table.vm.plan is not None
        table.vm.plan.forward(12.0)
        scenes = [table, _shooting(SIZE), _fired(SIZE)]
        helped = TableApp(screenshot_game("r1", "move"), SIZE)
        helped.vm.help_on = True
        threat = TableApp(screenshot_game("r1", "move"), SIZE)
        threat.vm.threat_on = True
        threat.controls.mouse = tuple(round(v) for v in threat.windows.camera.to_px(60.0, 40.0))
        threat.update(0.0)
        while not threat.frame.threat.done:
            threat.frame.threat.fill(1000.0)
        placing = TableApp(screenshot_game("r1", "place"), SIZE)
        over = TableApp(screenshot_game("r1", "move"), SIZE)
        ending = [{"type": "game_over", "winners": ["red", "blue"], "scores": {"red": 2,
                   "blue": 2}, "reason": "one player is left (D24)"}]
        over.vm.log.events(ending, None)
        over.vm.effects.add(effects_of(ending, over.game.state))
        scenes += [helped, threat, placing, over]
        for app in scenes:
            app.frame.sprite_budget_ms = None
            app.update(0.0)
            app.draw()
    finally:
        set_language("en")
        style.forget_fonts()
    return drawn


def test_the_table_as_drawn_reads_finnish(monkeypatch):
    from bottisota.view.screenshots import POSITION

    drawn = _drawn_texts(monkeypatch)
    assert len(drawn) > 100
    names = {p[0] for p in POSITION} | {p[1] for p in POSITION} | _card_names() | {
        "Warehouse", "tp-west", "tp-mid", "tp-east"}
    found = sorted({f"{t!r}: {bad}" for t in drawn if (bad := english_in(t, names))})
    assert not found, f"{len(found)} drawn texts with English:\n" + "\n".join(found[:40])
    missing = set().union(*(missing_glyphs(t) for t in drawn))
    assert not missing


def test_the_english_log_is_sentences_too():
    """Issue 29.7's lines, in English: no doubled kind, no "the X's", a tie as a draw."""
    assert describe({"type": "door_opened", "bot": "red-1", "door": "door 'bay-door'"}) == \
        "red-1 opens door 'bay-door'"
    assert describe({"type": "to_hit", "weapon": "red-1's self-destruct", "target": "blue-2",
                     "roll": 5, "need": 4, "hit": True}) == (
        "red-1's self-destruct blast at blue-2: rolled 5, needs 4+ - HIT")
    assert describe({"type": "destroyed", "bot": "blue-2", "cause": "min_move"}) == \
        "blue-2 is DESTROYED (short of its minimum move)"
    assert describe({"type": "game_over", "winners": ["red"], "scores": {"red": 2, "blue": 2},
                     "reason": "one player is left (D24)"}) == (
        "GAME OVER: red wins on destroyed bots (level on points) (one player is left (D24)); "
        "scores: red 2, blue 2")


def test_a_pick_among_n_reads_as_the_draw_it_is():
    """A draw rolled by hand is asked for as "<purpose> (1 of 16)": the pick wraps the
    purpose, never the deck's count ("...the deck of {16 (1 of 16)}")."""
    set_language("fi")
    try:
        drawn = i18n.translated("draw: red's bot from the deck of 16")
        wrapped = i18n.translated("draw: red's bot from the deck of 16 (1 of 16)")
        template = i18n._("{purpose} (1 of {n})")
    finally:
        set_language("en")
    assert wrapped == template.format(purpose=drawn, n=16)
    assert wrapped.startswith(drawn) and "of" not in wrapped.split()


@pytest.mark.parametrize("coarse_done", [False, True])
def test_the_threat_legend_reads_finnish_while_it_is_worked_out(coarse_done):
    from types import SimpleNamespace

    from bottisota.view.overlays import threat_legend_lines

    threat = SimpleNamespace(viewer="red-1", most=3, done=False, coarse_done=coarse_done)
    set_language("fi")
    try:
        lines = threat_legend_lines(threat, None)
    finally:
        set_language("en")
    assert len(lines) == 3
    found = [f"{t!r}: {bad}" for t in lines if (bad := english_in(t, {"red-1"}))]
    assert not found, found


def test_no_dice_purpose_is_an_f_string():  # D8
    """A die's purpose is shown to players (the dice panel, a physical die asked for, a
    phone): it is made from a catalogued template (N_(...).format), never an f-string
    the catalogue cannot match (a magnetic mine's tie-break die was one)."""
    import ast

    found = []
    for path in sorted((ROOT / "bottisota").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr in ("pick", "d6", "roll") and node.args \
                    and isinstance(node.args[-1], ast.JoinedStr):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not found, found
