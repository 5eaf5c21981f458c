"""The journal: a game as JSON lines, written as it happens; replay, undo, resume.

Line 1 is the header: everything needed to rebuild the game (the dice mode
and seed, the arena, cards, mods and house rules in the file formats, the
players, and the events and rolls of the start). Every accepted action then
adds one line with its events and the dice it used; `undo` and `redo` add a
line each. An action line may carry `notes` (how many of its first events are
informational notes passed in with it, such as a robot's `robot_decision`) and
`pre` (how many of its first rolls were made before the action, by a robot
deciding). A designer's reload (`Game.reload`) adds a line with the new arena,
cards, mods and rules.

Faults (`journal_file`): each line is written, flushed and synced before the
game goes on; a write that fails is cut back and the game takes the change
back (JournalWriteError), so game and journal agree. Every version 2 (or later) line
ends with a digest chained to the line before, so an edit anywhere, the header
included, is refused at its line. One process at a time holds a journal (an
exclusive lock). A torn last line (a power cut while writing) is reported
with its number, the file backed up beside it and the line cut off; the game
goes on from the last whole action.

Replaying rebuilds the game from the header (the recorded arena, cards, mods
and rules validated as files are; the start of the game run again) and then
takes every line in one of two ways (docs/decisions.md, "Replaying a journal"):

- verified (`load`, `read`, `resume`, `bottisota replay`): every action is re-run through
  the rules with its dice and must give the same events, dice and state;
- from its events (`read(verify=False)`): the action must be the
  active bot's and fit its phase, its rolls are drawn again (a seeded game's
  own dice must give them; a physical-dice game uses the typed rolls), its
  events must be of their declared form and are applied by their reducers, and
  the state must then be the one whose digest the line recorded. The rules are
  not re-run: an edit whose chain was recomputed (a forger) gets past it when
  the recorded state digests still hold (an informational event, a point the
  bot passed through) or were recomputed too; the verified replay finds it.

A line the second way cannot vouch for (no state digest, an event not of its
declared form, an action out of turn) is re-run through the rules. Whatever it
finds amiss is read again verified, so a journal that does not hold is refused
with the verified replay's message, at its first bad line. Version 1 journals
(before digests) still replay. Version 3 numbers each player's bots from 1 (red-1,
blue-1); a version 1 or 2 journal replays and goes on with the shared counter it was
written with (red's first bot may be red-2).
"""
from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any  # Any: journal lines as read (JSON) and the open journal file

from bottisota.core.arena import Arena
from bottisota.core.cards import BotCard, Mod
from bottisota.core.dice import Dice, Roll
from bottisota.core.errors import JournalError, JournalWriteError
from bottisota.core.house_rules import HouseRules
from bottisota.core.i18n import N_
from bottisota.engine.game import Entry, Game, check_notes
from bottisota.engine.state import GameState
from bottisota.formats.codec import ActionFormatError, action_from_dict, action_to_dict
from bottisota.formats.json_text import MAX_TEXT_BYTES, check_json_text
from bottisota.formats.parsed_cache import cached_data
from bottisota.formats.yaml_source import Raw
from bottisota.play import journal_data
from bottisota.play import journal_file as jf
from bottisota.play.journal_data import (
    DataError,
    arena_from_data,
    arena_from_v1,
    arena_to_data,
    card_to_data,
    cards_from,
    default,
    mod_to_data,
    mods_from,
    plain,
    rules_from,
    rules_to_data,
)
from bottisota.play.journal_digest import state_digest
from bottisota.play.journal_events import well_formed

FORMAT = "bottisota-journal"
VERSION = 3
READS = (1, 2, 3)
PER_PLAYER_IDS = 3                  # the first version with bot ids counted per player


def dice_mode(dice: Dice) -> str:
    if dice.forced is not None:
        return "forced"
    return "physical" if dice.ask is not None else "seeded"


def _rolls(rolls: list[Roll]) -> list[list[object]]:
    return [[r.purpose, r.value] for r in rolls]


def _rolls_from(data: Any) -> list[Roll]:
    if not isinstance(data, list):
        raise ValueError("rolls are a list of [purpose, value]")
    out = []
    for item in data:
        purpose, value = item
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 6:
            raise ValueError(f"a d6 roll is 1 to 6, not {value!r}")
        out.append(Roll(str(purpose), value))
    return out


def _static(state: GameState) -> Raw:
    return {"rules": rules_to_data(state.rules), "arena": arena_to_data(state.arena),
            "arena_source": state.arena.source,
            "cards": [card_to_data(c) for c in state.cards.values()],
            "mods": [mod_to_data(m) for m in state.mods.values()]}


_last_static: tuple[tuple[object, ...], str] | None = None   # what it was made of, its text
_making_static = threading.Lock()       # one thread makes it; another asking waits for it


def static_text(state: GameState) -> str:
    """`_static(state)` as the journal writes it (its JSON text, checked against the
    reader's limits), kept for the last rules, arena, cards and mods: `play` makes it
    on a thread of its own before the first action writes the header."""
    global _last_static
    made_of = (state.rules, state.arena, state.arena.source, *state.cards.values(),
               *state.mods.values())
    with _making_static:
        last = _last_static
        if last is not None and len(last[0]) == len(made_of) and all(
                a is b for a, b in zip(last[0], made_of, strict=True)):
            return last[1]
        text = _checked_text(_static(state))
        _last_static = (made_of, text)
        return text


def _checked_text(line: Raw) -> str:
    """The line's JSON text, refused as the reader would refuse it (ValueError)."""
    text = json.dumps(line, default=default, separators=(",", ":"), allow_nan=False)
    check_json_text(text)
    return text


# --- writing ----------------------------------------------------------------------------

class Journal:
    """An open, locked journal file; a Game writes to it through record/undone/redone/
    reloaded. Every write is whole or not at all (JournalWriteError)."""

    def __init__(self, path: str | Path, writer: jf.LineWriter, version: int = VERSION) -> None:
        self.path = Path(path)
        self.writer = writer
        self.version = version
        self.actions = 0
        self.notice: str | None = None      # what resuming found (a torn line cut off)
        self.parts: dict[bytes, str] = {}   # the state digest's parts written

    @property
    def fh(self) -> Any:
        """The open file (tests replace it with one whose writes fail)."""
        return self.writer.fh

    @fh.setter
    def fh(self, value: Any) -> None:
        self.writer.fh = value

    def _write(self, line: Raw, static_from: GameState | None = None) -> None:
        """Write one line; `static_from`: the state whose rules, arena, cards and mods
        go in the middle of it (a header: their text made once, see `static_text`)."""
        try:     # what the reader would refuse is never written
            text = _checked_text(line)
            if static_from is not None:
                # its members go before "start" (no string in JSON text holds an
                # unescaped quote); each part passed the depth and number checks as an
                # object of its own, so the whole does: only its length is left to check
                head, _, tail = text.partition(',"start":')
                text = f'{head},{static_text(static_from)[1:-1]},"start":{tail}'
                if len(text) > MAX_TEXT_BYTES:
                    check_json_text(text)
        except (TypeError, ValueError) as err:
            raise JournalWriteError(str(self.path),
                    N_("a value cannot be journaled: {err}").format(err=err)) \
                from None
        self.writer.write(text)

    def close(self) -> None:
        """Release the file and its lock."""
        self.writer.close()

    @classmethod
    def create(cls, path: str | Path, game: Game, seed: int | None,
               rolls: list[Roll]) -> Journal:
        """Start a new journal with the game's header (an existing file is emptied,
        unless another game holds it: then JournalError)."""
        state = game.state
        header = {
            "format": FORMAT, "version": VERSION, "dice": dice_mode(state.dice), "seed": seed,
            "forced": list(state.dice.forced) if state.dice.forced is not None else None,
            "players": list(game.given_players),     # then rules, arena, cards, mods (_write)
            "start": {"events": game.start_events, "rolls": _rolls(rolls)},
        }
        fh = jf.open_locked(path, create=True)
        try:
            fh.truncate(0)
        except OSError as err:
            fh.close()
            raise JournalWriteError(str(path), err.strerror or str(err)) from None
        journal = cls(path, jf.LineWriter(str(path), fh, 0, "", chained=True))
        try:
            journal._write(header, static_from=state)
        except BaseException:
            journal.close()
            Path(path).unlink(missing_ok=True)   # no headerless journal left behind
            raise
        return journal

    def record(self, entry: Entry, state: GameState | None = None) -> None:
        line = {"n": self.actions + 1, "action": action_to_dict(entry.action),
                "events": entry.events, "rolls": _rolls(entry.rolls)}
        if entry.notes:
            line["notes"] = entry.notes
        if entry.pre:
            line["pre"] = entry.pre
        if state is not None:
            line["state"] = state_digest(state, self.parts)
        self._write(line)
        self.actions += 1

    def undone(self) -> None:
        self._write({"undo": True})

    def redone(self) -> None:
        self._write({"redo": True})

    def reloaded(self, game: Game) -> None:
        """The game now runs on new static data (a designer's edit): the data, and the
        state the replay on it left."""
        self._write({"reload": _static(game.state), "state": state_digest(game.state, self.parts)})


def journal_game(game: Game, path: str | Path) -> Journal:
    """Write a game just begun with `Game.new` to a new journal at `path`, and every
    action from now on (its seed and start rolls go in the header, D8)."""
    game.journal = Journal.create(path, game, seed=game.seed, rolls=game.start_rolls)
    return game.journal


def journal_to(path: str | Path) -> Callable[[Game], Journal]:
    """`journal_game` for `path`, to call with a game just begun (robot.match's
    `on_start`)."""
    return partial(journal_game, path=path)


def new_journal_path(folder: str | Path) -> Path:
    """A new, uniquely named, empty journal file in `folder` (see journal_file)."""
    return jf.new_journal_path(folder)


# --- reading ----------------------------------------------------------------------------

@dataclass
class Loaded:
    """A journal read back: the game, and what the reading found."""

    game: Game
    version: int
    lines: int                      # whole lines replayed
    actions: int                    # action lines (for numbering the next)
    size: int                       # bytes of the whole lines
    prev: str                       # the last line's digest
    tail: jf.Tail | None = None     # a torn last line

    @property
    def notice(self) -> str | None:
        t = self.tail
        if t is None:
            return None
        what = (N_("line {line} is incomplete ({length} bytes, the journal was cut off while "
                   "writing it, e.g. a power cut)").format(
                    line=t.line, length=t.length))
        if t.kept:
            return N_("{what}: left out (another game holds the journal)").format(what=what)
        return (N_("{what}: the journal was backed up to {v} and the line dropped; the game "
                   "goes on from action {actions}").format(
                    what=what, v=t.backup.name if t.backup else '?', actions=self.actions))


def _header_game(path: str, header: Raw, ask: Callable[[str], int] | None) -> Game:
    if header.get("format") != FORMAT:
        raise JournalError(path, 1,
                N_("not a Bottisota journal (its first line has no \"format\": "
                   "\"{format}\")").format(
                    format=FORMAT))
    version = header.get("version")
    if version not in READS:
        raise JournalError(path, 1,
                N_("journal version {v}; this referee reads versions {str}").format(
                    v=json.dumps(version)[:20], str=', '.join(map(str, READS))))
    try:
        mode = header["dice"]
        start_rolls = _rolls_from(header["start"]["rolls"])
        if mode == "seeded":
            seed = header["seed"]
            if not isinstance(seed, int) or isinstance(seed, bool):
                raise ValueError("the seed is a whole number")
            dice = Dice(seed=seed)
        elif mode == "forced":
            dice = Dice(forced=[r.value for r in _rolls_from(
                [["forced", v] for v in header["forced"]])])
        elif mode == "physical":
            dice = Dice(forced=[r.value for r in start_rolls])
        else:
            raise JournalError(path, 1, N_("unknown dice mode {v!r}").format(v=str(mode)[:20]))
        rules, arena, cards, mods = _static_from(header, version)
        players = header["players"]
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise ValueError("players are a list of names")
    except JournalError:
        raise
    except DataError as err:
        raise JournalError(path, 1, str(err)) from None
    except (KeyError, TypeError, ValueError) as err:
        raise JournalError(path, 1,
                N_("the header cannot be read: {err}").format(err=_why(err))) from None
    try:
        game = Game.new(arena, rules, cards, mods, list(players), dice=dice,
                        ids_per_player=version >= PER_PLAYER_IDS)
    except Exception as err:     # recorded data can make any rule fail
        raise JournalError(path, 1,
                N_("the game cannot be started from the header: {err}").format(
                    err=_why(err))) from None
    if plain(game.start_events) != plain(header["start"].get("events")):
        raise JournalError(path, 1, N_("the start of the game does not replay as recorded"))
    if mode == "physical":
        game.state.dice.forced = None
        game.state.dice.ask = ask or _no_ask
        game._start = game.state.copy()
    return game


def _static_from(d: Raw, version: int) -> tuple[HouseRules, Arena, list[BotCard], list[Mod]]:
    """The header's rules, arena, cards and mods, each validated as a file is. Kept in
    the user's cache by the exact text of what they were built from (`cached_data`), so
    resuming again a game on the same content skips the validation it passed before."""
    parts = (version, d["rules"], d["arena"], d.get("arena_source"), d["cards"], d["mods"])
    try:
        data = json.dumps(parts, allow_nan=False, separators=(",", ":")).encode()
    except (TypeError, ValueError):          # not plain JSON: no cache, the checks say why
        return _static_built(d, version)
    return cached_data("journal-static", data, _STATIC_CODE,
                       lambda: _static_built(d, version))


_STATIC_CODE = (__file__, journal_data.__file__)


def _static_built(d: Raw, version: int) -> tuple[HouseRules, Arena, list[BotCard], list[Mod]]:
    rules = rules_from(d["rules"])
    arena_data = arena_from_v1(d["arena"]) if version == 1 else d["arena"]
    source = d.get("arena_source") if version >= 2 else (d["arena"] or {}).get("source")
    arena = arena_from_data(arena_data, source if isinstance(source, str) else "<journal>",
                            rules)
    return rules, arena, cards_from(d["cards"], rules), mods_from(d["mods"])


def _why(err: BaseException) -> str:
    text = str(err)
    return f"{type(err).__name__}: {text[:200]}" if text else type(err).__name__


def _no_ask(purpose: str) -> int:
    raise JournalError("<replay>", 0,
            N_("the journal has no roll for {purpose}").format(purpose=purpose))


def _differs(path: str, line: int, want: list[Any], got: list[Any]) -> JournalError:
    want, got = plain(want), plain(got)
    for k in range(max(len(want), len(got))):
        a = want[k] if k < len(want) else None
        b = got[k] if k < len(got) else None
        if a != b:
            return JournalError(path, line,
                    N_("replay differs at event {k}: the journal has {v}, the replay gives "
                       "{v2}").format(
                        k=k + 1, v=json.dumps(a)[:300], v2=json.dumps(b)[:300]))
    return JournalError(path, line, N_("replay differs"))


def read(path: str | Path, ask: Callable[[str], int] | None = None,
         fh: Any = None, verify: bool = True) -> Loaded:
    """Rebuild a game from its journal, asserting every line; the game has no journal
    attached. `fh` is the journal open and locked by the caller (resuming), used to
    cut off a torn last line; without it the file is locked only for that.
    `verify` (the default): every action re-run through the rules; False: replayed
    from its events, as resuming does (see the module doc). JournalError names the
    first bad line."""
    p = str(path)
    size = jf.file_size(p)
    try:
        reader = open(p, "rb")       # buffered, whoever holds the lock
    except OSError as err:
        raise JournalError(p, 0,
                N_("cannot read the journal: {v}").format(v=err.strerror or err)) from None
    with reader:
        end = jf.complete_size(reader, size)
        tail = None
        if end < size:
            lines_before = _count_lines(reader, end)
            tail = jf.Tail(line=lines_before + 1, offset=end, length=size - end)
            if end == 0:
                raise JournalError(p, 1,
                        N_("the journal's first line (the header) is incomplete: the game "
                           "never started"))
        try:
            loaded = _replay(p, reader, end, ask, verify)
        except (_Mismatch, JournalError):
            if verify:
                raise
            # something does not hold: the verified replay says what, and where first
            loaded = _replay(p, reader, end, ask, True)
    loaded.tail = tail
    if tail is not None:
        _cut(p, fh, fh is None, size, tail)
    return loaded


def _count_lines(fh: Any, end: int) -> int:
    fh.seek(0)
    count, left = 0, end
    while left:
        chunk = fh.read(min(left, 1 << 20))
        if not chunk:
            break
        count += chunk.count(b"\n")
        left -= len(chunk)
    return count


def _cut(path: str, fh: Any, own: bool, size: int, tail: jf.Tail) -> None:
    """Back up and cut the torn line: under the caller's lock, or one taken now (a
    journal held by a running game is left as it is)."""
    if not own:
        jf.cut_tail(path, fh, size, tail)
        return
    try:
        held = jf.open_locked(path)
    except JournalError:
        tail.kept = True
        return
    try:
        if jf.file_size(path) == size:
            jf.cut_tail(path, held, size, tail)
        else:
            tail.kept = True
    finally:
        held.close()


class _Mismatch(Exception):
    """A line replayed from its events does not hold (the verified replay says why)."""


def _replay(p: str, fh: Any, end: int, ask: Callable[[str], int] | None,
            verify: bool) -> Loaded:
    lines = jf.iter_lines(p, fh, end)
    number, raw = next(lines)
    header = jf.parse_line(p, 1, raw)
    version = header.get("version")
    prev = ""
    chained = (isinstance(version, int) and version >= 2) or jf.unseal(raw, "") != jf.NO_DIGEST
    if chained:                  # a digest is checked whatever version the line claims
        prev = _checked(p, 1, raw, prev)[1]
    game = _header_game(p, header, ask)
    actions = 0
    memo = _Memo()
    for number, raw in lines:
        if chained:
            content, prev = _checked(p, number, raw, prev)
        else:
            content = raw
        data = jf.parse_line(p, number, content)
        if _replay_line(p, number, game, data, verify, memo):
            actions += 1
    return Loaded(game, int(version or 0), number, actions, end, prev)


def _checked(path: str, number: int, raw: bytes, prev: str) -> tuple[bytes, str]:
    found = jf.unseal(raw, prev)
    if isinstance(found, str):
        raise JournalError(path, number, N_("the line is refused: {found}").format(found=found))
    return found


class _Memo:
    """What one read keeps from line to line: the actions read so far, by their exact
    form (a robot game repeats many), and the state digest's parts written."""

    def __init__(self) -> None:
        self.actions: dict[str, Any] = {}
        self.parts: dict[bytes, str] = {}


def _replay_line(p: str, number: int, game: Game, data: Raw, verify: bool,
                 memo: _Memo) -> bool:
    """Replay one line on the game (True for an action line)."""
    if data.get("undo") is True and len(data) == 1:
        if not _recorded(game.undo, not verify):
            raise JournalError(p, number, N_("undo with nothing to undo"))
        return False
    if data.get("redo") is True and len(data) == 1:
        if not _recorded(game.redo, not verify):
            raise JournalError(p, number, N_("redo with nothing to redo"))
        return False
    if "reload" in data:
        _reload(p, number, game, data, memo)
        return False
    try:
        action = _action(data["action"], memo.actions)
        rolls = _rolls_from(data.get("rolls", []))
        events = data["events"]
        notes, pre = data.get("notes", 0), data.get("pre", 0)
        if not isinstance(events, list) or not all(isinstance(n, int) for n in (notes, pre)) \
                or not (0 <= notes <= len(events) and 0 <= pre <= len(rolls)):
            raise ValueError("notes or pre out of range")
    except ActionFormatError as err:
        raise JournalError(p, number, N_("not an action: {err}").format(err=err)) from None
    except (KeyError, TypeError, ValueError) as err:
        raise JournalError(p, number,
                N_("not a journal entry: {err}").format(err=_why(err))) from None
    entry = Entry(action, events, rolls, pre, notes)
    if verify or not _vouched(game, data, entry):
        _rerun(p, number, game, data, action, rolls, notes, pre, memo)
    else:
        _from_events(game, data, entry, memo)
    return True


def _action(data: Any, decoded: dict[str, Any]) -> Any:
    """`action_from_dict`, once for each exact form (an action is an immutable value;
    an invalid one raises every time). The form is the repr of the JSON value, which
    tells apart what `==` does not (1, 1.0 and true; 0.0 and -0.0)."""
    key = repr(data)
    action = decoded.get(key)
    if action is None:
        action = decoded[key] = action_from_dict(data)
    return action


def _recorded(step: Callable[..., bool], recorded: bool) -> bool:
    """Undo or redo, from the recorded events when the replay takes them."""
    if not recorded:
        return step()
    try:
        return step(recorded=True)
    except Exception:        # events that no longer apply: the verified replay says why
        raise _Mismatch from None


def _vouched(game: Game, data: Raw, entry: Entry) -> bool:
    """Whether the line can be replayed from its events (checked before anything
    changes; a line that cannot is re-run through the rules): it records the state
    after it, the action is the active bot's and fits its phase, every event is of
    its declared form and the notes are informational."""
    if "state" not in data or game.mode.turn_refusal(game, entry.action) is not None \
            or not all(map(well_formed, entry.events)):
        return False
    try:
        check_notes(entry.events[:entry.notes])
    except ValueError:
        return False
    return True


def _from_events(game: Game, data: Raw, entry: Entry, memo: _Memo) -> None:
    """The line as recorded (`_vouched`): its dice drawn again, its events applied,
    the recorded state reached. _Mismatch when anything does not hold (the game is
    then part-way through the line)."""
    try:
        game.apply_recorded(entry)
    except Exception:        # a die not the seed's, an event that cannot apply
        raise _Mismatch from None
    if data["state"] != state_digest(game.state, memo.parts):
        raise _Mismatch


def _rerun(p: str, number: int, game: Game, data: Raw, action: Any, rolls: list[Roll],
           notes: int, pre: int, memo: _Memo) -> None:
    """The action re-run through the rules with its recorded dice: the same events,
    dice and state as recorded, or JournalError."""
    events = data["events"]
    try:
        result = game.replay(action, rolls, events[:notes], pre)
    except Exception as err:  # a line that does not fit the game can make any rule fail
        raise JournalError(p, number,
                N_("the action cannot be replayed: {err}").format(err=_why(err))) from None
    if result.refusal is not None:
        raise JournalError(p, number,
                N_("the action is refused on replay: {refusal}").format(refusal=result.refusal))
    # the recorded side was read from JSON: it is in its plain form already
    if plain(result.events) != events:
        raise _differs(p, number, events, result.events)
    if plain(_rolls(game.history[-1].rolls)) != data.get("rolls", []):
        raise JournalError(p, number,
                N_("replay differs: the dice rolled are not the ones recorded"))
    if "state" in data and data["state"] != state_digest(game.state, memo.parts):
        raise JournalError(p, number,
                N_("replay differs: the state after this action is not the one recorded"))


def _reload(path: str, number: int, game: Game, data: Raw, memo: _Memo) -> None:
    """A designer's reload line: the game goes on on the new data, as it did when played."""
    version = 2 if "arena_source" in (data.get("reload") or {}) else 1
    try:
        rules, arena, cards, mods = _static_from(data["reload"], version)
        refusal = game.reload(arena, cards, mods, rules)
    except DataError as err:
        raise JournalError(path, number, str(err)) from None
    except (KeyError, TypeError, ValueError, AttributeError) as err:
        raise JournalError(path, number,
                N_("not a reload line: {err}").format(err=_why(err))) from None
    if refusal is not None:
        raise JournalError(path, number,
                N_("the reload does not replay: {refusal}").format(refusal=refusal))
    if "state" in data and data["state"] != state_digest(game.state, memo.parts):
        raise JournalError(path, number,
                N_("replay differs: the state after the reload is not the one recorded"))


def load(path: str | Path, ask: Callable[[str], int] | None = None,
         verify: bool = True) -> Game:
    """Rebuild a game from its journal (see `read`); the game has no journal attached."""
    return read(path, ask, verify=verify).game


def resume(path: str | Path, ask: Callable[[str], int] | None = None) -> Game:
    """Go on with a game from its journal: locked (a second resume is refused),
    rebuilt by the verified replay (`read`: every action re-run through the rules
    on the header's arena, cards, mods and rules, so an edited and re-sealed header
    or action is refused at its line), a torn last line backed up and cut, then
    writing to the same file.
    What was found is in `game.journal.notice`."""
    p = str(path)
    fh = jf.open_locked(p)
    try:
        loaded = read(p, ask, fh=fh, verify=True)
        size = loaded.size
    except BaseException:
        fh.close()
        raise
    writer = jf.LineWriter(p, fh, size, loaded.prev, chained=loaded.version >= 2)
    journal = Journal(p, writer, version=loaded.version)
    journal.actions = loaded.actions
    journal.notice = loaded.notice
    loaded.game.journal = journal
    return loaded.game
