"""The feed: every event of the game in words, numbered, for every listener.

One feed per session. Each line has a `seq` (its number, never reused) and a
`rev` (when it last changed: told, struck through by an undo, brought back by a
redo), so a phone is sent only what changed since it was last told
(`since(rev)`) and a page reloaded gets the whole log (`lines_json`). The
table's log (`viewmodel.log.GameLog`) listens and keeps its own lines, in the
same words (`viewmodel.words.describe`, the lines the table leaves out left out).
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from bottisota.core.i18n import language
from bottisota.engine.events import Event
from bottisota.viewmodel.log import QUIET, event_tone
from bottisota.viewmodel.words import describe

FEED_LINES = 5000        # lines kept (a long game's whole log)


class FeedListener(Protocol):
    """What the feed tells a listener (the table's `GameLog` is one)."""

    def events(self, events: Iterable[Event], entry: int | None) -> None: ...
    def undone(self, entry: int) -> None: ...
    def redone(self, entry: int) -> None: ...
    def forget_undone(self) -> None: ...


@dataclass
class FeedLine:
    """One event told in words, tied to the action (history entry) that made it."""

    seq: int
    event: Event
    tone: str
    entry: int | None
    undone: bool = False
    rev: int = 0
    _texts: dict[str, str] = field(default_factory=dict, repr=False)

    @property
    def text(self) -> str:
        """The event in words in the language spoken now (a Finnish phone beside an
        English table reads it in Finnish); each language's words made once."""
        lang = language()
        found = self._texts.get(lang)
        if found is None:
            found = self._texts[lang] = describe(self.event)
        return found

    def as_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "text": self.text, "undone": self.undone}


@dataclass
class Feed:
    """The lines, oldest first, and the listeners told of every change."""

    lines: list[FeedLine] = field(default_factory=list)
    listeners: list[FeedListener] = field(default_factory=list)
    rev: int = 0             # the latest change
    _seq: int = 0

    @classmethod
    def of_game(cls, game: Any) -> Feed:
        """The feed of a game so far (a resumed one too): start events, then every entry."""
        feed = cls()
        feed.events(getattr(game, "start_events", None) or [], None)
        for n, entry in enumerate(getattr(game, "history", None) or [], start=1):
            feed.events(entry.events, n)
        return feed

    def listen(self, listener: FeedListener) -> None:
        self.listeners.append(listener)

    def events(self, events: Iterable[Event], entry: int | None) -> None:
        told = [e for e in events if e.get("type") not in QUIET]
        if not told:
            return
        self.rev += 1
        for e in told:
            self._seq += 1
            self.lines.append(FeedLine(self._seq, e, event_tone(e), entry,
                                       rev=self.rev))
        del self.lines[:-FEED_LINES]
        for listener in self.listeners:
            listener.events(told, entry)

    def undone(self, entry: int) -> None:
        """The action numbered `entry` (and any after it) was undone: struck through."""
        self._mark(lambda line: line.entry is not None and line.entry >= entry, True)
        for listener in self.listeners:
            listener.undone(entry)

    def redone(self, entry: int) -> None:
        self._mark(lambda line: line.entry == entry, False)
        for listener in self.listeners:
            listener.redone(entry)

    def forget_undone(self) -> None:
        """A new action after an undo: the undone lines can no longer come back (the
        phones keep them struck through; a reloaded page no longer gets them)."""
        self.lines = [ln for ln in self.lines if not ln.undone]
        for listener in self.listeners:
            listener.forget_undone()

    def _mark(self, which: Any, undone: bool) -> None:
        changed = [ln for ln in self.lines if which(ln) and ln.undone != undone]
        if not changed:
            return
        self.rev += 1
        for line in changed:
            line.undone, line.rev = undone, self.rev

    def since(self, rev: int) -> list[dict[str, Any]]:
        """The lines told or changed after `rev`, oldest first."""
        return [ln.as_json() for ln in self.lines if ln.rev > rev]

    def lines_json(self) -> list[dict[str, Any]]:
        return [ln.as_json() for ln in self.lines]
