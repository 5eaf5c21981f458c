"""The journal as a file: chained line digests, an exclusive lock, appends that
never leave a torn line mid-file, reading behind limits, and a torn last line
(a power cut) found, backed up and cut off.

Every line of a version 2 journal ends with its digest, `,"digest":"..."}`:
the first 32 hex digits of SHA-256 over the previous line's digest and the
line's own text without it. The header's digest covers everything it holds
(arena, cards, mods, house rules, seed, players, the start), and each line
chains the one before, so an edit, a removed line or lines swapped are
refused at the line where they are. (This finds edits and corruption; it is
not a signature: whoever recomputes the chain can forge it.)
"""
from __future__ import annotations

import errno
import hashlib
import itertools
import os
import re
import stat
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO  # Any: a journal line's JSON as read

from bottisota.core.errors import JournalError, JournalWriteError
from bottisota.core.i18n import N_
from bottisota.formats.json_text import JsonLimitError, loads_limited

try:
    import fcntl
except ImportError:          # not on POSIX: no lock (the referee runs on Linux and macOS)
    fcntl = None  # type: ignore[assignment]

MAX_JOURNAL_BYTES = 64 * 1024 * 1024      # a long robot game with reloads is a few MB
# the referee stops writing a journal well before a reader would refuse it: the game
# cannot go on, but its journal can still be resumed (to look) and replayed
FULL_JOURNAL_BYTES = 48 * 1024 * 1024
MAX_LINE_BYTES = 16 * 1024 * 1024         # the header of the largest arena a file may hold
DIGEST_CHARS = 32
_SUFFIX = re.compile(rb',"digest":"([0-9a-f]{%d})"\}$' % DIGEST_CHARS)
_SUFFIX_BYTES = len(b',"digest":""}') + DIGEST_CHARS


# --- the chain -----------------------------------------------------------------------

def digest(prev: str, content: bytes) -> str:
    return hashlib.sha256(prev.encode("ascii") + b"\n" + content).hexdigest()[:DIGEST_CHARS]


def seal(text: str, prev: str) -> tuple[str, str]:
    """A JSON object's text with its chained digest as the last key: (line, digest)."""
    if not (text.startswith("{") and text.endswith("}")) or text == "{}":
        raise ValueError("a journal line is a non-empty JSON object")
    d = digest(prev, text.encode("utf-8"))
    return f'{text[:-1]},"digest":"{d}"}}', d


NO_DIGEST = "it carries no digest, so it was not written by the referee (edited by hand?)"


def unseal(raw: bytes, prev: str) -> tuple[bytes, str] | str:
    """(the line's text without its digest, the digest), or why it does not hold."""
    found = _SUFFIX.search(raw, max(0, len(raw) - _SUFFIX_BYTES - 1))   # it ends the line
    if found is None:
        return NO_DIGEST
    content = raw[:found.start()] + b"}"
    want = found.group(1).decode("ascii")
    if digest(prev, content) != want:
        return (N_("its digest does not match: the line was changed after it was written, or "
                   "a line before it was removed or moved"))
    return content, want


# --- the lock ------------------------------------------------------------------------

def lock(fh: BinaryIO, path: str) -> None:
    """Hold the journal for this process (released when fh closes), or refuse."""
    if fcntl is None:
        return
    try:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as err:
        if err.errno in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
            raise JournalError(path, 0,
                    N_("the journal is in use by another game (a table still open on it, or a "
                       "second --resume): close that one first")) from None
        raise


def open_locked(path: str | Path, create: bool = False) -> BinaryIO:
    """The journal file open for reading and writing (created if missing, with
    `create`), locked."""
    p = str(path)
    try:
        fd = os.open(p, os.O_RDWR | (os.O_CREAT if create else 0), 0o644)
    except OSError as err:
        raise JournalError(p, 0,
                N_("cannot open the journal: {v}").format(v=err.strerror or err)) from None
    fh = open(fd, "r+b", buffering=0)
    try:
        lock(fh, p)
    except BaseException:
        fh.close()
        raise
    return fh


def new_journal_path(folder: str | Path, prefix: str = "game") -> Path:
    """A new, empty journal file named for now (game-20261123-140501.jsonl), made
    with exclusive creation: sessions started in the same second get -2, -3, ..."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime(f"{prefix}-%Y%m%d-%H%M%S")
    for k in itertools.count(1):
        path = folder / (f"{stamp}.jsonl" if k == 1 else f"{stamp}-{k}.jsonl")
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
        except FileExistsError:
            continue
        return path
    raise AssertionError("unreachable")


# --- appending -----------------------------------------------------------------------

class LineWriter:
    """Appends whole lines to a locked journal: each written, flushed and synced, or
    (on failure) cut back to the last whole line and JournalWriteError raised."""

    def __init__(self, path: str, fh: BinaryIO, size: int, prev: str, chained: bool) -> None:
        self.path, self.fh, self.size, self.prev, self.chained = path, fh, size, prev, chained
        self.dirty = False            # a failed write may have left bytes past `size`

    def write(self, text: str) -> None:
        line, d = seal(text, self.prev) if self.chained else (text, self.prev)
        data = (line + "\n").encode("utf-8")
        if self.fh is None or self.fh.closed:
            raise JournalWriteError(self.path, N_("the journal is closed"))
        if self.size + len(data) > FULL_JOURNAL_BYTES:
            raise JournalWriteError(self.path, N_(
                    "it has reached {mb} MB, the most one game writes, so that it can "
                    "still be read back; this game cannot go on, start a new one").format(
                        mb=FULL_JOURNAL_BYTES // 1048576))
        try:
            if self.dirty:
                self.fh.truncate(self.size)
                self.dirty = False
            self.fh.seek(self.size)
            self.dirty = True
            view, done = memoryview(data), 0
            while done < len(data):
                n = self.fh.write(view[done:])
                if not n:
                    raise OSError(errno.EIO, N_("nothing was written"))
                done += n
            self.fh.flush()
            os.fsync(self.fh.fileno())
        except OSError as err:
            self._cut_back()
            raise JournalWriteError(self.path, err.strerror or str(err)) from None
        self.dirty = False
        self.size += len(data)
        self.prev = d

    def _cut_back(self) -> None:
        """Leave the file at its last whole line (if the disk lets us)."""
        try:
            self.fh.truncate(self.size)
            os.fsync(self.fh.fileno())
            self.dirty = False
        except (OSError, ValueError):
            pass

    def close(self) -> None:
        if self.fh is not None and not self.fh.closed:
            self.fh.close()


# --- reading -------------------------------------------------------------------------

@dataclass
class Tail:
    """A torn last line: where it starts, its number, and where the file was backed up."""

    line: int
    offset: int
    length: int
    backup: Path | None = None
    kept: bool = False           # the journal was in use: left as it was


def file_size(path: str) -> int:
    """The journal's size, refusing what is not a regular file or over the limit
    (without reading it)."""
    try:
        st = os.stat(path)
    except OSError as err:
        raise JournalError(path, 0,
                N_("cannot read the journal: {v}").format(v=err.strerror or err)) from None
    if not stat.S_ISREG(st.st_mode):
        raise JournalError(path, 0, N_("not a journal file (not a regular file)"))
    if st.st_size > MAX_JOURNAL_BYTES:
        raise JournalError(path, 0,
                N_("the journal is {st_size:.0f} MB; journals over {max_journal_bytes} MB are "
                   "refused unread").format(
                    st_size=st.st_size / 1048576, max_journal_bytes=MAX_JOURNAL_BYTES // 1048576))
    if st.st_size == 0:
        raise JournalError(path, 1, N_("the journal is empty"))
    return st.st_size


def complete_size(fh: BinaryIO, size: int) -> int:
    """Bytes up to and including the last end of line (what whole lines hold)."""
    pos = size
    while pos > 0:
        start = max(0, pos - 65536)
        fh.seek(start)
        chunk = fh.read(pos - start)
        nl = chunk.rfind(b"\n")
        if nl >= 0:
            return start + nl + 1
        pos = start
    return 0


def backup_path(path: str, line: int) -> Path:
    """A free name beside the journal for its copy before the torn line is cut."""
    p = Path(path)
    for k in itertools.count(1):
        name = f"{p.name}.torn-line-{line}" + ("" if k == 1 else f"-{k}") + ".bak"
        candidate = p.with_name(name)
        if not candidate.exists():
            return candidate
    raise AssertionError("unreachable")


def cut_tail(path: str, fh: BinaryIO, size: int, tail: Tail) -> None:
    """Copy the whole journal beside it, then cut the torn line off (we hold the lock)."""
    target = backup_path(path, tail.line)
    fh.seek(0)
    try:
        with open(target, "xb") as out:
            remaining = size
            while remaining:
                chunk = fh.read(min(remaining, 1 << 20))
                if not chunk:
                    break
                out.write(chunk)
                remaining -= len(chunk)
            out.flush()
            os.fsync(out.fileno())
        fh.truncate(tail.offset)
        os.fsync(fh.fileno())
    except OSError as err:
        raise JournalError(path, tail.line,
                N_("the line is incomplete and could not be cut off safely ({v})").format(
                    v=err.strerror or err)) from None
    tail.backup = target


def iter_lines(path: str, fh: BinaryIO, end: int) -> Iterator[tuple[int, bytes]]:
    """(line number, bytes without the end of line) of the whole lines before `end`."""
    fh.seek(0)
    number, pos = 0, 0
    while pos < end:
        raw = fh.readline(min(MAX_LINE_BYTES + 1, end - pos))
        number += 1
        if not raw:
            raise JournalError(path, number, N_("the journal changed while it was read"))
        pos += len(raw)
        if not raw.endswith(b"\n"):
            raise JournalError(path, number,
                    N_("the line is longer than {max_line_bytes} MB: refused").format(
                        max_line_bytes=MAX_LINE_BYTES // 1048576))
        yield number, raw[:-1]


def parse_line(path: str, number: int, raw: bytes) -> dict[str, Any]:
    """One line's JSON object, read behind the limits (JournalError naming the line)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise JournalError(path, number,
                N_("not a journal line: not UTF-8 text (byte {start})").format(
                    start=err.start + 1)) from None
    try:
        data = loads_limited(text, raw=raw)
    except JsonLimitError as err:
        raise JournalError(path, number, N_("not a journal line: {err}").format(err=err)) from None
    if not isinstance(data, dict):
        raise JournalError(path, number, N_("not a journal line: expected a JSON object"))
    return data
