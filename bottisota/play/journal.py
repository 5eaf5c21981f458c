"""The journal: a game as JSON lines, written as it happens; replay, undo, resume.

Line 1 is the header: everything needed to rebuild the game (the dice mode
and seed, the arena, cards, mods and house rules as data, the players, and
the events and rolls of the start). Every accepted action then adds one line
with its events and the dice it used; `undo` and `redo` add a line each. An
action line may carry `notes` (how many of its first events are informational
notes passed in with it, such as a robot's `robot_decision`) and `pre` (how
many of its first rolls were made before the action, by a robot deciding). A
designer's reload (`Game.reload`) adds a line with the new arena, cards, mods
and rules. Each line is flushed and synced to disk at once, so a crash loses
nothing.

Replaying re-runs the actions from the header (a seeded game rolls its own
dice again, the rolls made before an action included; a physical-dice game
uses the typed rolls it recorded) and asserts that every action gives the
same events. A journal cut off mid-line or edited by hand is refused with
the line (JournalError), never half-applied.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
from dataclasses import asdict, fields
from pathlib import Path
from typing import Any, Callable

from shapely.geometry import mapping, shape

from bottisota.core.dice import Dice, Roll
from bottisota.core.errors import JournalError
from bottisota.core.arena import Arena, Feature
from bottisota.core.cards import BotCard, Mod, Weapon
from bottisota.core.house_rules import HouseRules
from bottisota.formats.codec import ActionFormatError, action_from_dict, action_to_dict
from bottisota.engine.game import Entry, Game
from bottisota.engine.state import GameState

FORMAT = "bottisota-journal"
VERSION = 1


# --- values <-> data ------------------------------------------------------------------

def _plain(value: Any) -> Any:
    """Tuples to lists, recursively (the JSON form), for comparisons."""
    return json.loads(json.dumps(value, default=_default))


def _default(value: Any) -> Any:
    if hasattr(value, "item"):          # numpy scalars
        return value.item()
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    raise TypeError(f"cannot journal {type(value).__name__}")


def arena_to_data(arena: Arena) -> dict:
    """The arena with its compiled shapes, exactly (coordinates as given to shapely)."""
    feats = []
    for f in arena.features:
        d = {fl.name: getattr(f, fl.name) for fl in fields(Feature) if fl.name != "shape"}
        d["shape"] = mapping(f.shape)
        feats.append(d)
    return {"name": arena.name, "size": list(arena.size), "source": arena.source,
            "features": _plain(feats)}


def arena_from_data(d: dict) -> Arena:
    feats = []
    for f in d["features"]:
        kw = dict(f)
        kw["shape"] = shape(kw["shape"])
        kw["respawn"] = tuple(tuple(p) for p in kw.get("respawn") or ())
        kw["path"] = tuple(tuple(p) for p in kw.get("path") or ())
        feats.append(Feature(**kw))
    return Arena(name=d["name"], size=tuple(d["size"]), features=tuple(feats),
                 source=d.get("source", "<journal>"))


def card_to_data(card: BotCard) -> dict:
    return _plain(asdict(card))


def card_from_data(d: dict) -> BotCard:
    return BotCard(**{**d, "weapons": tuple(Weapon(**w) for w in d.get("weapons", ()))})


def mod_to_data(mod: Mod) -> dict:
    return _plain(asdict(mod))


def mod_from_data(d: dict) -> Mod:
    return Mod(**{**d, "weapons": tuple(Weapon(**w) for w in d.get("weapons", ()))})


def state_digest(state: GameState) -> str:
    """A short fingerprint of everything that changes in a game (bots, mines, goals,
    turn, scores, decks, dice used): equal digests mean equal states."""
    bots = [[b.id, b.player, b.card.id, b.x, b.y, b.z, b.facing, b.damage, b.destroyed,
             b.removed, b.overwatch, b.rust, b.leaflet, b.moved, b.parts, sorted(b.ammo.items()),
             b.new, b.docked, b.part_from] for b in state.bots.values()]
    data = [state.round, state.active, state.phase, state.players, sorted(state.scores.items()),
            sorted(state.kills.items()), state.deck, state.parts_deck, state.out, state.played,
            state.next_id, state.over, state.dice.used, bots,
            [[m.id, m.owner, m.weapon, m.x, m.y, m.z, m.r, m.magnetic, m.active]
             for m in state.mines],
            [[g.feature, g.x, g.y, g.points, g.spots_left, g.taken] for g in state.goals]]
    text = json.dumps(data, default=_default, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def dice_mode(dice: Dice) -> str:
    if dice.forced is not None:
        return "forced"
    return "physical" if dice.ask is not None else "seeded"


def _rolls(rolls: list[Roll]) -> list[list]:
    return [[r.purpose, r.value] for r in rolls]


def _rolls_from(data: Any) -> list[Roll]:
    return [Roll(str(p), int(v)) for p, v in data]


# --- writing ----------------------------------------------------------------------------

class Journal:
    """An open journal file; a Game writes to it through record/undone/redone."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.actions = 0

    def _write(self, line: dict) -> None:
        text = json.dumps(line, default=_default, separators=(",", ":"))
        with open(self.path, "a", encoding="utf-8") as fh:
            fh.write(text + "\n")
            fh.flush()
            os.fsync(fh.fileno())

    @classmethod
    def create(cls, path: str | Path, game: Game, seed: int | None,
               rolls: list[Roll]) -> "Journal":
        """Start a new journal with the game's header (overwrites the file)."""
        state = game.state
        Path(path).write_text("", encoding="utf-8")
        journal = cls(path)
        journal._write({
            "format": FORMAT, "version": VERSION, "dice": dice_mode(state.dice), "seed": seed,
            "forced": list(state.dice.forced) if state.dice.forced is not None else None,
            "players": list(game.given_players),
            "rules": asdict(state.rules), "arena": arena_to_data(state.arena),
            "cards": [card_to_data(c) for c in state.cards.values()],
            "mods": [mod_to_data(m) for m in state.mods.values()],
            "start": {"events": game.start_events, "rolls": _rolls(rolls)},
        })
        return journal

    def record(self, entry: Entry, state: GameState | None = None) -> None:
        self.actions += 1
        line = {"n": self.actions, "action": action_to_dict(entry.action),
                "events": entry.events, "rolls": _rolls(entry.rolls)}
        if entry.notes:
            line["notes"] = entry.notes
        if entry.pre:
            line["pre"] = entry.pre
        if state is not None:
            line["state"] = state_digest(state)
        self._write(line)

    def undone(self) -> None:
        self._write({"undo": True})

    def redone(self) -> None:
        self._write({"redo": True})

    def reloaded(self, game: Game) -> None:
        """The game now runs on new static data (a designer's edit): the data, and the
        state the replay on it left."""
        state = game.state
        self._write({"reload": {
            "rules": asdict(state.rules), "arena": arena_to_data(state.arena),
            "cards": [card_to_data(c) for c in state.cards.values()],
            "mods": [mod_to_data(m) for m in state.mods.values()]},
            "state": state_digest(state)})


# --- reading ----------------------------------------------------------------------------

def read_lines(path: str | Path) -> list[tuple[int, dict]]:
    """The journal's lines as (line number, mapping); a line cut off or not JSON is refused."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as err:
        raise JournalError(str(p), 0, f"cannot read the journal: {err.strerror or err}")
    except UnicodeDecodeError:
        raise JournalError(str(p), 0, "not a text file")
    if not text:
        raise JournalError(str(p), 1, "the journal is empty")
    lines = text.split("\n")
    if lines[-1] != "":
        raise JournalError(str(p), len(lines), "the line is cut off (no end of line): "
                           "the journal was not finished writing")
    out = []
    for i, line in enumerate(lines[:-1], start=1):
        try:
            data = json.loads(line)
        except ValueError as err:
            raise JournalError(str(p), i, f"not a journal line: {err.msg} at column {err.colno}")
        if not isinstance(data, dict):
            raise JournalError(str(p), i, "not a journal line: expected a JSON object")
        out.append((i, data))
    return out


def _game_from_header(path: str, header: dict, ask: Callable[[str], int] | None) -> Game:
    if header.get("format") != FORMAT:
        raise JournalError(path, 1, f"not a Bottisota journal (format {header.get('format')!r})")
    if header.get("version") != VERSION:
        raise JournalError(path, 1, f"journal version {header.get('version')!r}; "
                           f"this referee reads version {VERSION}")
    try:
        mode = header["dice"]
        start_rolls = _rolls_from(header["start"]["rolls"])
        if mode == "seeded":
            dice = Dice(seed=header["seed"])
        elif mode == "forced":
            dice = Dice(forced=list(header["forced"]))
        elif mode == "physical":
            dice = Dice(forced=[r.value for r in start_rolls])
        else:
            raise JournalError(path, 1, f"unknown dice mode {mode!r}")
        rules = HouseRules(**header["rules"])
        arena = arena_from_data(header["arena"])
        cards = [card_from_data(c) for c in header["cards"]]
        mods = [mod_from_data(m) for m in header["mods"]]
        game = Game.new(arena, rules, cards, mods, list(header["players"]), dice=dice)
    except JournalError:
        raise
    except (KeyError, TypeError, ValueError) as err:
        raise JournalError(path, 1, f"the header cannot be read: {type(err).__name__}: {err}")
    if _plain(game.start_events) != _plain(header["start"]["events"]):
        raise JournalError(path, 1, "the start of the game does not replay as recorded")
    if mode == "physical":
        game.state.dice.forced = None
        game.state.dice.ask = ask or _no_ask
        game._start = game.state.copy()
    return game


def _no_ask(purpose: str) -> int:
    raise JournalError("<replay>", 0, f"the journal has no roll for {purpose}")


def _differs(path: str, line: int, want: list, got: list) -> JournalError:
    want, got = _plain(want), _plain(got)
    for k in range(max(len(want), len(got))):
        a = want[k] if k < len(want) else None
        b = got[k] if k < len(got) else None
        if a != b:
            return JournalError(path, line, f"replay differs at event {k + 1}: the journal "
                                f"has {json.dumps(a)}, the replay gives {json.dumps(b)}")
    return JournalError(path, line, "replay differs")


def load(path: str | Path, ask: Callable[[str], int] | None = None) -> Game:
    """Rebuild a game from its journal, asserting every action's events; the game
    has no journal attached. JournalError names the first bad line."""
    p = str(path)
    lines = read_lines(path)
    game = _game_from_header(p, lines[0][1], ask)
    for number, data in lines[1:]:
        if data.get("undo") is True:
            if not game.undo():
                raise JournalError(p, number, "undo with nothing to undo")
            continue
        if data.get("redo") is True:
            if not game.redo():
                raise JournalError(p, number, "redo with nothing to redo")
            continue
        if "reload" in data:
            _reload(p, number, game, data)
            continue
        try:
            action = action_from_dict(data["action"])
            rolls = _rolls_from(data.get("rolls", []))
            events = data["events"]
            notes, pre = int(data.get("notes", 0)), int(data.get("pre", 0))
            if not (0 <= notes <= len(events) and 0 <= pre <= len(rolls)):
                raise ValueError("notes or pre out of range")
        except ActionFormatError as err:
            raise JournalError(p, number, f"not an action: {err}")
        except (KeyError, TypeError, ValueError) as err:
            raise JournalError(p, number, f"not a journal entry: {type(err).__name__}: {err}")
        try:
            result = game.replay(action, rolls, events[:notes], pre)
        except Exception as err:  # a hand-edited line can make any rule fail
            raise JournalError(p, number, f"the action cannot be replayed: "
                               f"{type(err).__name__}: {err}")
        if result.refusal is not None:
            raise JournalError(p, number, f"the action is refused on replay: {result.refusal}")
        if _plain(result.events) != _plain(events):
            raise _differs(p, number, events, result.events)
        if _plain(_rolls(game.history[-1].rolls)) != _plain(data.get("rolls", [])):
            raise JournalError(p, number, "replay differs: the dice rolled are not the "
                               "ones recorded")
        if "state" in data and data["state"] != state_digest(game.state):
            raise JournalError(p, number, "replay differs: the state after this action is "
                               "not the one recorded")
    return game


def _reload(path: str, number: int, game: Game, data: dict) -> None:
    """A designer's reload line: the game goes on on the new data, as it did when played."""
    try:
        d = data["reload"]
        refusal = game.reload(arena_from_data(d["arena"]),
                              [card_from_data(c) for c in d["cards"]],
                              [mod_from_data(m) for m in d["mods"]], HouseRules(**d["rules"]))
    except (KeyError, TypeError, ValueError) as err:
        raise JournalError(path, number, f"not a reload line: {type(err).__name__}: {err}")
    if refusal is not None:
        raise JournalError(path, number, f"the reload does not replay: {refusal}")
    if "state" in data and data["state"] != state_digest(game.state):
        raise JournalError(path, number, "replay differs: the state after the reload is not "
                           "the one recorded")


def resume(path: str | Path, ask: Callable[[str], int] | None = None) -> Game:
    """Go on with a game from its journal: rebuilt, then writing to the same file."""
    game = load(path, ask)
    journal = Journal(path)
    journal.actions = sum(1 for _n, d in read_lines(path) if "action" in d)
    game.journal = journal
    return game


# --- the `bottisota replay` command ------------------------------------------------------

def configure_parser(p: argparse.ArgumentParser) -> None:
    p.add_argument("journal", help="a game's journal (JSON lines)")
    p.add_argument("--events", action="store_true", help="also print every event")


def summary(game: Game) -> list[str]:
    """A few lines about the game's state: round, turn, scores, bots."""
    s = game.state
    out = [f"round {s.round}, " + ("game over" if s.over else
                                  f"{game.whose_turn()} to {game.expected()}"),
           f"actions: {len(game.history)}, dice rolled: {s.dice.used}",
           "scores: " + ", ".join(f"{p} {s.scores.get(p, 0)} ({s.kills.get(p, 0)} kills)"
                                  for p in s.players)]
    for b in s.bots.values():
        where = ("destroyed" if b.destroyed else "off the table" if b.removed
                 else f"at ({b.x:.2f}, {b.y:.2f}) facing {b.facing:.1f}")
        out.append(f"  {b.id} ({b.player}, {b.card.id}): {where}, damage {b.damage}"
                   f"/{b.stats.structure}" + (", on overwatch" if b.overwatch else ""))
    return out


def replay_main(args: argparse.Namespace) -> int:
    """`bottisota replay GAME.jsonl`: rebuild, check, print a summary (exit 2 when refused)."""
    game = load(args.journal)
    if getattr(args, "events", False):
        for entry in game.history:
            print(f"{entry.action}")
            for e in entry.events:
                print("   ", json.dumps(e, default=_default))
    print(f"{args.journal}: replayed {len(game.history)} actions; every event matches")
    for line in summary(game):
        print(line)
    return 0


def journal_game(game: Game, path: str | Path) -> "Journal":
    """Write a game just begun with `Game.new` to a new journal at `path`, and every
    action from now on (its seed and start rolls go in the header, D8)."""
    game.journal = Journal.create(path, game, seed=game.seed, rolls=game.start_rolls)
    return game.journal
