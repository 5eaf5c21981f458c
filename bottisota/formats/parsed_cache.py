"""Content files that passed every check, kept read and checked in the user's cache folder.

A second start of `bottisota play` then takes its house rules, arena, cards, mods and
robot table from here, without parsing any YAML (PyYAML is not even loaded). An entry is
never trusted blindly: it holds everything its value was built from (every file's path
and bytes, the program's version, a stamp of the code that reads and checks files, the
Python version, and what else the value depends on, such as the house rules) and is used
only when all of that is the same now, byte for byte. Only values built without a
problem are written, so a file's error is always reported from the file itself. An
entry that cannot be read (damaged, cut short, of another format or program) is ignored
and written again; a cache folder that cannot be written only costs time. Of each kind
(arena, rules, catalogue, robot table, a journal's recorded data) the KEEP entries last
written or used are kept, the older ones removed, so the folder does not grow with every
file edited or journal resumed.

Entries are pickles in the user's own cache folder ($XDG_CACHE_HOME/bottisota, beside
the compiled catalogues): the part naming the inputs is read with no classes allowed,
and the value only when those inputs match, so a foreign file is never unpickled. The
value's CRC-32 stands between the two: an entry changed in place (a byte flipped on the
disk) is built again, never read as another value.
"""
from __future__ import annotations

import io
import os
import pickle
import sys
import tempfile
import zlib
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import Any, TypeVar, cast  # Any: values unpickled from the user's cache

from bottisota import __version__
from bottisota.core.i18n import cache_folder
from bottisota.formats.limits import TooLarge, read_limited

CACHE_FORMAT = 2                 # bump when an entry's form changes
CHECK_BYTES = 4                  # the value's CRC-32, between the key and the value
KEEP = 64                        # entries kept of each kind (the newest written)
T = TypeVar("T")
_PACKAGE = Path(__file__).resolve().parent.parent
_CODE = ("core", "formats")      # the modules that read, check and build content values


def cached(kind: str, files: Sequence[str | Path], depends: str, build: Callable[[], T]) -> T:
    """The value `build()` makes from `files` (read and checked there), taken from the
    cache when an entry holds these very files, this program and the same `depends`
    (a text naming whatever else the value depends on); else built and kept."""
    try:
        inputs = tuple((str(f), read_limited(f)) for f in files)
        key = (CACHE_FORMAT, kind, program_stamp(), depends, inputs)
    except (OSError, TooLarge):           # the build says what is wrong with a file; a
        return build()                    # program whose modules cannot be listed: no cache
    try:                                          # one entry for these paths and `depends`
        path = cache_folder() / f"{kind}-{_crc(repr(([f for f, _ in inputs], depends)))}.pickle"
    except RuntimeError:                          # no home folder to keep a cache in
        return build()
    found = _read(path, key)
    if found is not None:
        return cast(T, found[0])            # unpickled: what `build` made for this key
    value = build()
    if _unchanged(inputs):                        # not edited while it was being read
        _write(path, key, value)
    return value


def cached_data(kind: str, data: bytes, code: Sequence[str | Path],
                build: Callable[[], T], check: Callable[[object], bool] | None = None) -> T:
    """The value `build()` makes from `data` (the exact bytes of everything it reads,
    e.g. a journal's recorded arena, cards, mods and rules), taken from the cache when
    an entry holds these very bytes, this program and the same `code` (the modules
    outside core and formats that `build` runs, by name, size and modification time);
    else built and kept. As `cached`, only a value built without a problem is kept.
    `check`, when given, must accept a value read before it is used (one of another
    form is built again and rewritten, as a damaged entry is)."""
    try:
        stamp = program_stamp() + (_modules(code),)
        path = cache_folder() / f"{kind}-{zlib.crc32(data):08x}.pickle"
    except (OSError, RuntimeError):               # no home folder, or a module not found
        return build()
    key = (CACHE_FORMAT, kind, stamp, data)
    found = _read(path, key)
    if found is not None and (check is None or check(found[0])):
        return cast(T, found[0])            # unpickled: what `build` made for this key
    value = build()
    _write(path, key, value)
    return value


def _modules(files: Sequence[str | Path]) -> tuple[tuple[str, int, int], ...]:
    """Each module file by name, size and modification time."""
    stamps = []
    for f in files:
        st = os.stat(f)
        stamps.append((Path(f).name, st.st_size, st.st_mtime_ns))
    return tuple(stamps)


@cache
def program_stamp() -> tuple[object, ...]:
    """What the program is: its version, Python's, and each module of `_CODE` by name,
    size and modification time (an edited checkout is a new program)."""
    modules = []
    for sub in _CODE:
        with os.scandir(_PACKAGE / sub) as entries:
            for entry in entries:
                if entry.name.endswith(".py"):
                    st = entry.stat()
                    modules.append((f"{sub}/{entry.name}", st.st_size, st.st_mtime_ns))
    return (__version__, sys.version, tuple(sorted(modules)))


def _crc(text: str) -> str:
    return f"{zlib.crc32(text.encode('utf-8', 'surrogatepass')):08x}"


class _PlainUnpickler(pickle.Unpickler):
    """Reads plain data only (tuples, text, bytes, numbers): no class is ever looked up."""

    def find_class(self, module: str, name: str) -> Any:
        raise pickle.UnpicklingError(module, name)          # (never shown: entry ignored)


def _read(path: Path, key: tuple[object, ...]) -> tuple[Any] | None:
    """(the value,) when the entry at `path` was built from exactly `key`; else None."""
    try:
        data = path.read_bytes()
        stream = io.BytesIO(data)
        if _PlainUnpickler(stream).load() != key:
            return None
        start = stream.tell() + CHECK_BYTES
        body = data[start:]
        if zlib.crc32(body).to_bytes(CHECK_BYTES, "big") != data[start - CHECK_BYTES:start]:
            return None        # changed in place since it was written
        value = pickle.loads(body)
    except Exception:          # missing, damaged or foreign: built again and rewritten
        return None
    try:
        os.utime(path)         # in use: among the newest, kept when others are pruned
    except OSError:
        pass
    return (value,)


def _unchanged(inputs: tuple[tuple[str, bytes], ...]) -> bool:
    try:
        return all(read_limited(f) == raw for f, raw in inputs)
    except (OSError, TooLarge):
        return False


def _write(path: Path, key: tuple[object, ...], value: Any) -> None:
    """The entry written whole, then renamed into place (replacing the one it updates);
    then the entries of its kind beyond the KEEP last written or used removed."""
    try:
        body = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        blob = pickle.dumps(key, protocol=pickle.HIGHEST_PROTOCOL) + \
            zlib.crc32(body).to_bytes(CHECK_BYTES, "big") + body
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(blob)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except (OSError, pickle.PicklingError, TypeError, AttributeError):
        return
    _prune(path)


def _prune(path: Path) -> None:
    """Keep the KEEP most recently written or used entries of the kind `path` is one of (its
    name up to the last '-'): the cache no longer grows with every arena edited or
    journal resumed. An entry removed is only built again when next needed."""
    kind = path.name.rsplit("-", 1)[0] + "-"
    try:
        entries = [(e.stat().st_mtime_ns, e.path) for e in os.scandir(path.parent)
                   if e.name.startswith(kind) and e.name.endswith(".pickle")
                   and "-" not in e.name[len(kind):]]
        entries.sort(reverse=True)
        for _, old in entries[KEEP:]:
            os.unlink(old)
    except OSError:                      # another process pruning too, or no rights
        return
