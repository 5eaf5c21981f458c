"""The state digest a journal records after every action: the first 16 hex digits of
SHA-256 over one JSON text of everything that changes in a game.

The text is, by the journal format, `json.dumps(data, separators=(",", ":"))` of
`[round, active, phase, players, scores, kills, deck, parts_deck, out, played,
next_id, over, dice used, bots, mines, goals]`, and the doors the referee holds
open (sorted) after them when there are any (scores and kills, and each bot's
ammo, as sorted [key, value] pairs; a bot, a mine, a goal as a list of its
fields). Replaying a journal takes it after every line, and from one action to
the next most of it stays as it was (the bots that did not act, the mines, the
goals, the decks): `digest_text` with a memo of the parts written, kept from line
to line, takes a part from it when exactly the same values come again, which
gives the very same text (tests/test_journal_replay_speed.py holds it to
`json.dumps`).
"""
from __future__ import annotations

import hashlib
import json
import marshal
from collections.abc import Callable
from operator import attrgetter
from typing import TypeVar

from bottisota.engine.state import Bot, GameState, Goal, Mine
from bottisota.play.journal_data import default

# one encoder made once (the data is never circular); a str as the encoder writes it
_ENCODE = json.JSONEncoder(default=default, separators=(",", ":"), check_circular=False).encode
_ENCODE_STR = json.encoder.encode_basestring_ascii
ROWS_KEPT = 2048            # parts kept (the memo is emptied when full)

# the parts, as tuples of the values they are written from (tuples of different
# lengths, so no two kinds of part share a key); read by `attrgetter`, which is
# written in C (a replay takes a digest after every line), and typed here
Names = list[str]
Counts = dict[str, int]
ListsValues = tuple[Names, Counts, Counts, Names, Names, Names, Names]
BotValues = tuple[str, str, str, float, float, float, float, int, bool, bool, bool, int, int,
                  float, Names, Counts, bool, bool, str | None]
MineValues = tuple[str, str, str, float, float, float, float, bool, bool]
GoalValues = tuple[int, float, float, int, list[tuple[float, float]], bool]
Values = TypeVar("Values", ListsValues, BotValues, MineValues, GoalValues)

_LISTS: Callable[[GameState], ListsValues] = attrgetter(
    "players", "scores", "kills", "deck", "parts_deck", "out", "played")
_BOT: Callable[[Bot], BotValues] = attrgetter(
    "id", "player", "card.id", "x", "y", "z", "facing", "damage", "destroyed", "removed",
    "overwatch", "rust", "leaflet", "moved", "parts", "ammo", "new", "docked", "part_from")
_MINE: Callable[[Mine], MineValues] = attrgetter(
    "id", "owner", "weapon", "x", "y", "z", "r", "magnetic", "active")
_GOAL: Callable[[Goal], GoalValues] = attrgetter(
    "feature", "x", "y", "points", "spots_left", "taken")


def _lists_row(v: ListsValues) -> list[object]:
    return [v[0], sorted(v[1].items()), sorted(v[2].items()), *v[3:]]


def _bot_row(v: BotValues) -> list[object]:
    return [*v[:15], sorted(v[15].items()), *v[16:]]


def _fields_row(v: MineValues | GoalValues) -> list[object]:
    return list(v)


def state_digest(state: GameState, parts: dict[bytes, str] | None = None) -> str:
    """A short fingerprint of everything that changes in a game (bots, mines, goals,
    turn, scores, decks, dice used): equal digests mean equal states. `parts`: the
    parts already written (see the module doc; a replay keeps one for all its lines)."""
    return hashlib.sha256(digest_text(state, parts).encode()).hexdigest()[:16]


def digest_text(state: GameState, parts: dict[bytes, str] | None = None) -> str:
    """The JSON text a state digest is taken of (see the module doc)."""
    if parts is None:
        parts = {}
    lists = _part(parts, _LISTS(state), _lists_row)
    bots = ",".join([_part(parts, _BOT(b), _bot_row) for b in state.bots.values()])
    mines = ",".join([_part(parts, _MINE(m), _fields_row) for m in state.mines])
    goals = ",".join([_part(parts, _GOAL(g), _fields_row) for g in state.goals])
    return (f"[{_scalar(state.round)},{_scalar(state.active)},{_scalar(state.phase)},"
            f"{lists[1:-1]},{_scalar(state.next_id)},{_scalar(state.over)},"
            f"{_scalar(state.dice.used)},[{bots}],[{mines}],[{goals}]"
            f"{',' + _ENCODE(state.held_open) if state.held_open else ''}]")


def _scalar(value: object) -> str:
    """One value's JSON text as the encoder writes it (a str, int, bool or None
    directly; anything else through the encoder)."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):
        return _ENCODE_STR(value)
    if isinstance(value, int):          # as json writes an int (a bool was taken above)
        return int.__repr__(value)
    return _ENCODE(value)


def _part(parts: dict[bytes, str], values: Values, row: Callable[[Values], list[object]]) -> str:
    """The JSON text of `row(values)`, from `parts` when exactly these values were
    written before. The key is the values marshalled: it tells apart what `==` does
    not (1, 1.0 and true; 0.0 and -0.0; a list and a tuple), and the same key is the
    same values, so the same text. Values marshal does not take (a numpy number, a
    subclass of int or str) are written every time."""
    try:
        key = marshal.dumps(values, 2)
    except ValueError:
        return _ENCODE(row(values))
    text = parts.get(key)
    if text is None:
        if len(parts) >= ROWS_KEPT:
            parts.clear()
        text = parts[key] = _ENCODE(row(values))
    return text
