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
back (JournalWriteError), so game and journal agree. Every version 2 line
ends with a digest chained to the line before, so an edit anywhere, the header
included, is refused at its line. One process at a time holds a journal (an
exclusive lock). A torn last line (a power cut while writing) is reported
with its number, the file backed up beside it and the line cut off; the game
goes on from the last whole action.

Replaying re-runs the actions from the header (a seeded game rolls its own
dice again, the rolls made before an action included; a physical-dice game
uses the typed rolls it recorded) and asserts that every action gives the
same events and the recorded state. The recorded arena, cards, mods and rules
are validated as files are. Version 1 journals (before digests) still replay.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bottisota.core.dice import Dice, Roll
from bottisota.core.errors import JournalError, JournalWriteError
from bottisota.core.house_rules import HouseRules
from bottisota.core.i18n import N_
from bottisota.engine.game import Entry, Game
from bottisota.engine.state import GameState
from bottisota.formats.codec import ActionFormatError, action_from_dict, action_to_dict
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
from bottisota.play.json_limits import check_json_text

FORMAT = "bottisota-journal"
VERSION = 2
READS = (1, 2)


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
    text = json.dumps(data, default=default, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def dice_mode(dice: Dice) -> str:
    if dice.forced is not None:
        return "forced"
    return "physical" if dice.ask is not None else "seeded"


def _rolls(rolls: list[Roll]) -> list[list]:
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


def _static(state: GameState) -> dict:
    return {"rules": rules_to_data(state.rules), "arena": arena_to_data(state.arena),
            "arena_source": state.arena.source,
            "cards": [card_to_data(c) for c in state.cards.values()],
            "mods": [mod_to_data(m) for m in state.mods.values()]}


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

    @property
    def fh(self) -> Any:
        """The open file (tests replace it with one whose writes fail)."""
        return self.writer.fh

    @fh.setter
    def fh(self, value: Any) -> None:
        self.writer.fh = value

    def _write(self, line: dict) -> None:
        try:     # what the reader would refuse is never written
            text = json.dumps(line, default=default, separators=(",", ":"), allow_nan=False)
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
            "players": list(game.given_players), **_static(state),
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
            journal._write(header)
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
            line["state"] = state_digest(state)
        self._write(line)
        self.actions += 1

    def undone(self) -> None:
        self._write({"undo": True})

    def redone(self) -> None:
        self._write({"redo": True})

    def reloaded(self, game: Game) -> None:
        """The game now runs on new static data (a designer's edit): the data, and the
        state the replay on it left."""
        self._write({"reload": _static(game.state), "state": state_digest(game.state)})


def journal_game(game: Game, path: str | Path) -> Journal:
    """Write a game just begun with `Game.new` to a new journal at `path`, and every
    action from now on (its seed and start rolls go in the header, D8)."""
    game.journal = Journal.create(path, game, seed=game.seed, rolls=game.start_rolls)
    return game.journal


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


def _header_game(path: str, header: dict, ask: Callable[[str], int] | None) -> Game:
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
        game = Game.new(arena, rules, cards, mods, list(players), dice=dice)
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


def _static_from(d: dict, version: int) -> tuple[HouseRules, Any, list, list]:
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


def _differs(path: str, line: int, want: list, got: list) -> JournalError:
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
         fh: Any = None) -> Loaded:
    """Rebuild a game from its journal, asserting every line; the game has no journal
    attached. `fh` is the journal open and locked by the caller (resuming), used to
    cut off a torn last line; without it the file is locked only for that.
    JournalError names the first bad line."""
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
        loaded = _replay(p, reader, end, ask)
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


def _replay(p: str, fh: Any, end: int, ask: Callable[[str], int] | None) -> Loaded:
    lines = jf.iter_lines(p, fh, end)
    number, raw = next(lines)
    header = jf.parse_line(p, 1, raw)
    version = header.get("version")
    prev = ""
    chained = version == VERSION or jf.unseal(raw, "") != jf.NO_DIGEST
    if chained:                  # a digest is checked whatever version the line claims
        prev = _checked(p, 1, raw, prev)[1]
    game = _header_game(p, header, ask)
    actions = 0
    for number, raw in lines:
        if chained:
            content, prev = _checked(p, number, raw, prev)
        else:
            content = raw
        data = jf.parse_line(p, number, content)
        if _replay_line(p, number, game, data):
            actions += 1
    return Loaded(game, int(version or 0), number, actions, end, prev)


def _checked(path: str, number: int, raw: bytes, prev: str) -> tuple[bytes, str]:
    found = jf.unseal(raw, prev)
    if isinstance(found, str):
        raise JournalError(path, number, N_("the line is refused: {found}").format(found=found))
    return found


def _replay_line(p: str, number: int, game: Game, data: dict) -> bool:
    """Replay one line on the game (True for an action line)."""
    if data.get("undo") is True and len(data) == 1:
        if not game.undo():
            raise JournalError(p, number, N_("undo with nothing to undo"))
        return False
    if data.get("redo") is True and len(data) == 1:
        if not game.redo():
            raise JournalError(p, number, N_("redo with nothing to redo"))
        return False
    if "reload" in data:
        _reload(p, number, game, data)
        return False
    try:
        action = action_from_dict(data["action"])
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
    if "state" in data and data["state"] != state_digest(game.state):
        raise JournalError(p, number,
                N_("replay differs: the state after this action is not the one recorded"))
    return True


def _reload(path: str, number: int, game: Game, data: dict) -> None:
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
    if "state" in data and data["state"] != state_digest(game.state):
        raise JournalError(path, number,
                N_("replay differs: the state after the reload is not the one recorded"))


def load(path: str | Path, ask: Callable[[str], int] | None = None) -> Game:
    """Rebuild a game from its journal (see `read`); the game has no journal attached."""
    return read(path, ask).game


def resume(path: str | Path, ask: Callable[[str], int] | None = None) -> Game:
    """Go on with a game from its journal: locked (a second resume is refused),
    rebuilt, a torn last line backed up and cut, then writing to the same file.
    What was found is in `game.journal.notice`."""
    p = str(path)
    fh = jf.open_locked(p)
    try:
        loaded = read(p, ask, fh=fh)
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
