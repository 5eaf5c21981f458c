"""The game log as the panel shows it: plain-word lines, each tied to the action
(history entry) that made it, so an undo strikes its lines through and a redo
brings them back; after a resume the log holds the whole game, newest last."""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any  # Any: an event from memory or read back from a journal file

from bottisota.viewmodel.words import describe

if TYPE_CHECKING:
    from bottisota.engine.game import Game

LOG_LINES = 400          # lines kept

# tones: how a line reads (the painter picks colours for them)
PLAIN, DIM, ALARM, DICE, GOOD = "plain", "dim", "alarm", "dice", "good"

_TONES = {"destroyed": ALARM, "damaged": ALARM, "pit": ALARM, "fall": ALARM, "hits": ALARM,
          "mine_strike": ALARM, "self_destruct": ALARM, "to_hit": DICE, "armour_test": DICE,
          "score": GOOD, "goal_taken": GOOD, "game_over": GOOD, "robot_decision": DIM,
          "path": DIM, "phase": DIM, "turn_ended": DIM}
QUIET = frozenset({"path", "phase"})     # shown on the table, not worth a log line


@dataclass
class LogLine:
    """One line of the game log."""

    text: str
    tone: str = PLAIN
    entry: int | None = None       # the history entry (action number, from 1) it belongs to
    undone: bool = False           # struck through: the action was undone
    event: Mapping[str, Any] | None = None   # the event it tells (told again in another language)

    def as_dict(self) -> dict[str, object]:
        return {"text": self.text, "tone": self.tone, "entry": self.entry, "undone": self.undone}


def event_tone(e: Mapping[str, Any]) -> str:
    return _TONES.get(e.get("type", ""), PLAIN)


@dataclass
class GameLog:
    """Lines newest last; `scroll` lines scrolled back from the newest."""

    lines: list[LogLine] = field(default_factory=list)
    scroll: int = 0

    def say(self, text: str, tone: str = PLAIN, entry: int | None = None) -> LogLine:
        line = LogLine(text, tone, entry)
        self.lines.append(line)
        del self.lines[:-LOG_LINES]
        self.scroll = 0
        return line

    def events(self, events: Iterable[Mapping[str, Any]], entry: int | None) -> None:
        for e in events:
            if e.get("type") in QUIET:
                continue
            self.say(describe(e), event_tone(e), entry).event = e

    def retell(self) -> None:
        """Tell every event's line again (the language changed); other lines stay."""
        for line in self.lines:
            if line.event is not None:
                line.text = describe(line.event)

    def undone(self, entry: int) -> None:
        """The action numbered `entry` was undone: its lines are struck through."""
        for line in self.lines:
            if line.entry is not None and line.entry >= entry:
                line.undone = True

    def redone(self, entry: int) -> None:
        for line in self.lines:
            if line.entry == entry:
                line.undone = False

    def forget_undone(self) -> None:
        """A new action after an undo: the undone lines can no longer come back."""
        self.lines = [ln for ln in self.lines if not ln.undone]

    def scroll_by(self, n: int) -> None:
        self.scroll = max(0, min(max(0, len(self.lines) - 1), self.scroll + n))

    def visible(self, room: int) -> list[LogLine]:
        """The `room` lines to show, newest last (the latest unless scrolled back)."""
        if room <= 0:
            return []
        end = len(self.lines) - self.scroll
        return self.lines[max(0, end - room):end]

    @classmethod
    def of_game(cls, game: Game) -> GameLog:
        """The log of a game so far (a resumed one too): start events, then every entry."""
        log = cls()
        log.events(getattr(game, "start_events", None) or [], None)
        for i, entry in enumerate(getattr(game, "history", []) or [], start=1):
            log.events(entry.events, i)
        return log
