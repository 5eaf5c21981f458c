"""Errors that reach users: one clear message each, never a traceback."""
from __future__ import annotations

from dataclasses import dataclass, field

from bottisota.core.i18n import _, translated


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with an input file.

    `path` is the key path (`features[3].rect`); `line` and `column` are
    1-based positions in the file (0 when unknown).
    """

    file: str
    line: int
    column: int
    path: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}:{self.column}" if self.line else self.file
        key = f" {self.path}:" if self.path else ""
        return f"{where}:{key} {translated(self.message)}"


@dataclass
class InputError(Exception):
    """Raised when a file cannot be used; carries every problem found in it."""

    problems: list[Problem] = field(default_factory=list)

    def __str__(self) -> str:
        return "\n".join(str(p) for p in self.problems)


class DiceExhausted(Exception):
    """Forced dice ran out (a scenario error, formats.md)."""


class JournalError(Exception):
    """A journal file that cannot be replayed (cut off, edited, unknown action)."""

    def __init__(self, file: str, line: int, message: str):
        super().__init__(f"{file}:{line}: {message}")
        self.file, self.line, self.message = file, line, message

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {translated(self.message)}"


class JournalWriteError(Exception):
    """A journal line could not be written (disk full, disk gone): the game took the
    change back, so it stays where its journal is. The message says so in words."""

    def __init__(self, file: str, reason: str):
        super().__init__(_("the journal {file} could not be written ({reason}): the last "
                           "change was taken back, so the game is as its journal has it; "
                           "free some disk space (or fix the disk) and make it "
                           "again").format(file=file, reason=reason))
        self.file, self.reason = file, reason
