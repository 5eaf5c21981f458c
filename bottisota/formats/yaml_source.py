"""The one YAML reader: limited, safe, and keeping the line and column of every key path.

Every file kind (arenas, cards, mods, rules, scenarios, robot tables) is read
here. The text is checked before anything is built: its size, its encoding,
control characters (reported with their line). The YAML event stream is
then turned into plain data by a loop, not by recursion, so the limits hold
before any deep structure exists: nesting depth is counted on the events, an
alias adds the size of what it repeats (alias bombs are refused at once),
keys are plain words (a key is read as its text: `4:` and `1-3:` are the
keys '4' and '1-3'), merge keys `<<` are applied, integers are at most 15
digits and strings at most MAX_SCALAR_CHARS characters. Only plain values
come out: mappings, lists, text, numbers, true/false and null (dates stay
text). Every problem names file, line and column, never past the last line.
"""
from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any  # Any: YAML as read (`Raw`)

if TYPE_CHECKING:
    import yaml

from bottisota.core.errors import InputError, Problem
from bottisota.core.i18n import N_
from bottisota.formats.limits import (
    MAX_DEPTH,
    MAX_FILE_BYTES,
    TooLarge,
    decode_text,
    first_control_character,
    line_count,
    read_limited,
)

Raw = dict[str, Any]
"""A mapping as read from a file, before or after its spec checked it: outside data, so
its values are `Any` (the spec, not Python, says what each key holds)."""

MAX_NODES = 1_000_000                # values built, aliases counted each time they repeat
MAX_ALIAS_NODES = 100_000            # values repeated by aliases (an alias bomb goes over)
MAX_SCALAR_CHARS = 20_000            # characters in one text value or key
MAX_INT_DIGITS = 15                  # whole numbers beyond this are refused (|n| < 10^15)

_TAG = "tag:yaml.org,2002:"
_PLAIN_TAGS = {_TAG + t for t in ("str", "int", "float", "bool", "null", "timestamp")}
_CONTAINER_TAGS = {None, "!", _TAG + "map", _TAG + "seq"}
_DIGITS = re.compile(r"[0-9a-fA-F]")


@cache
def _pyyaml() -> ModuleType:
    """PyYAML, loaded when a text is first parsed: a start that takes its content from the
    cache of checked files (formats.parsed_cache) loads none of it."""
    import yaml  # start-up: PyYAML (and its regular expressions) only with a first parse
    return yaml


@cache
def _scalars() -> tuple[Any, Any]:
    """PyYAML's resolver (which tag a plain scalar has) and safe constructor."""
    from yaml.constructor import SafeConstructor  # start-up: as `_pyyaml`
    from yaml.resolver import Resolver

    return Resolver(), SafeConstructor()


@dataclass
class Marks:
    """Where each key path starts in its file: 1-based (line, column)."""

    file: str = "<inline>"
    values: dict[str, tuple[int, int]] = field(default_factory=dict)
    keys: dict[str, tuple[int, int]] = field(default_factory=dict)

    def at(self, path: str, key: bool = False) -> tuple[int, int]:
        """The position of the value at `path` (or of its key, with key=True);
        the nearest enclosing path that has one, else (0, 0)."""
        table = self.keys if key else self.values
        probe = path
        while True:
            if probe in table:
                return table[probe]
            if key and probe in self.values:
                return self.values[probe]
            if not probe:
                return (0, 0)
            probe = parent_path(probe)

    def problem(self, path: str, message: str, key: bool = False) -> Problem:
        line, column = self.at(path, key)
        return Problem(self.file, line, column, path, message)

    def child(self, prefix: str, file: str | None = None) -> Marks:
        """The marks under `prefix`, re-rooted (a scenario's inline arena)."""
        if not prefix:
            return self
        cut = len(prefix)
        sub = Marks(file or self.file)
        for src, dst in ((self.values, sub.values), (self.keys, sub.keys)):
            for path, mark in src.items():
                if path == prefix:
                    dst[""] = mark
                elif path.startswith(prefix) and path[cut] in ".[":
                    dst[path[cut:].lstrip(".")] = mark
        return sub


def parent_path(path: str) -> str:
    """`features[3].rect` -> `features[3]` -> `features` -> ``."""
    if path.endswith("]"):
        return path[: path.rindex("[")]
    dot = path.rfind(".")
    return path[:dot] if dot >= 0 else ""


def join(path: str, key: str | int) -> str:
    """Extend a key path by a mapping key or a list index."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else str(key)


class _Refused(Exception):
    """A limit or rule broken at `mark`: the whole file is refused with this message."""

    def __init__(self, mark: Any, message: str) -> None:
        super().__init__(message)
        self.mark = mark


@dataclass
class _Frame:
    """A mapping or list being built."""

    value: Any
    path: str
    mark: Any
    anchor: str | None
    depth: int
    size: int = 1                       # values inside, this one included
    height: int = 1                     # levels inside, this one included
    key: str | None = None              # a mapping's key waiting for its value
    key_is_merge: bool = False
    merges: list[Any] = field(default_factory=list)     # parsed YAML values
    explicit: set[str] = field(default_factory=set)


class _Builder:
    """Plain data and marks from the YAML events, by a loop (no recursion)."""

    def __init__(self, file: str, marks: Marks) -> None:
        self.file = file
        self.marks = marks
        self.nodes = 0
        self.alias_nodes = 0
        self.anchors: dict[str, tuple[Any, int, int]] = {}   # value, size, height
        self.open_anchors: set[str] = set()
        self.stack: list[_Frame] = []
        self.problems: list[Problem] = []
        self.root: Any = None
        self.documents = 0

    # --- the event loop ----------------------------------------------------------------

    def run(self, events: Any) -> Any:
        pyyaml = _pyyaml()
        for event in events:
            if isinstance(event, pyyaml.DocumentStartEvent):
                self.documents += 1
                if self.documents > 1:
                    raise _Refused(event.start_mark,
                            N_("the file holds more than one YAML document (a second '---'); "
                               "put one thing in a file"))
            elif isinstance(event, (pyyaml.MappingStartEvent, pyyaml.SequenceStartEvent)):
                self._open(event)
            elif isinstance(event, (pyyaml.MappingEndEvent, pyyaml.SequenceEndEvent)):
                self._close()
            elif isinstance(event, pyyaml.ScalarEvent):
                self._scalar(event)
            elif isinstance(event, pyyaml.AliasEvent):
                self._alias(event)
        return self.root

    def _count(self, mark: Any, n: int = 1) -> None:
        self.nodes += n
        if self.nodes > MAX_NODES:
            raise _Refused(mark,
                    N_("more than {max_nodes} YAML values (aliases counted each time they are "
                       "used): refused").format(
                        max_nodes=MAX_NODES))

    def _depth(self) -> int:
        return len(self.stack)

    def _where(self) -> str | None:
        """The key path of the next value, or None when it is a mapping's key."""
        if not self.stack:
            return ""
        top = self.stack[-1]
        if isinstance(top.value, list):
            return join(top.path, len(top.value))
        if top.key is None:
            return None
        return top.path if top.key_is_merge else join(top.path, top.key)

    def _open(self, event: Any) -> None:
        path = self._where()
        if path is None:
            raise _Refused(event.start_mark,
                    N_("a key must be a plain word, not a list or mapping"))
        if event.tag not in _CONTAINER_TAGS:
            raise _Refused(event.start_mark,
                    N_("the tag {tag} is not allowed here").format(tag=_short(event.tag)))
        depth = self._depth() + 1
        if depth > MAX_DEPTH:
            raise _Refused(event.start_mark,
                    N_("nested more than {max_depth} levels deep: refused").format(
                        max_depth=MAX_DEPTH))
        self._count(event.start_mark)
        self._mark(path, event.start_mark)
        value: Any = {} if isinstance(event, _pyyaml().MappingStartEvent) else []
        if event.anchor:
            self.open_anchors.add(event.anchor)
        self.stack.append(_Frame(value, path, event.start_mark, event.anchor, depth))

    def _close(self) -> None:
        frame = self.stack.pop()
        if isinstance(frame.value, dict):
            for merged in frame.merges:
                for k, v in merged.items():
                    if k not in frame.explicit and k not in frame.value:
                        frame.value[k] = v
        if frame.anchor:
            self.open_anchors.discard(frame.anchor)
            self.anchors[frame.anchor] = (frame.value, frame.size, frame.height)
        self._place(frame.value, frame.mark, frame.size, frame.height)

    def _scalar(self, event: Any) -> None:
        if self.stack and isinstance(self.stack[-1].value, dict) and self.stack[-1].key is None:
            self._key(event)
            return
        path = self._where()
        self._count(event.start_mark)
        self._mark(path or "", event.start_mark)
        value = self._plain(event)
        if event.anchor:
            self.anchors[event.anchor] = (value, 1, 0)
        self._place(value, event.start_mark, 1, 0)

    def _alias(self, event: Any) -> None:
        if event.anchor in self.open_anchors:
            raise _Refused(event.start_mark,
                    N_("the alias *{anchor} is used inside the value it names (a loop): "
                       "refused").format(
                        anchor=_short(event.anchor)))
        if event.anchor not in self.anchors:
            raise _Refused(event.start_mark,
                    N_("the alias *{anchor} names no anchor (&name) given before it").format(
                        anchor=_short(event.anchor)))
        path = self._where()
        if path is None:
            raise _Refused(event.start_mark, N_("a key must be a plain word, not an alias"))
        value, size, height = self.anchors[event.anchor]
        if self._depth() + height > MAX_DEPTH:
            raise _Refused(event.start_mark,
                    N_("nested more than {max_depth} levels deep (through an alias): "
                       "refused").format(
                        max_depth=MAX_DEPTH))
        self.alias_nodes += size
        if self.alias_nodes > MAX_ALIAS_NODES:
            raise _Refused(event.start_mark,
                    N_("aliases repeat more than {max_alias_nodes} YAML values (an alias "
                       "bomb?): refused").format(
                        max_alias_nodes=MAX_ALIAS_NODES))
        self._count(event.start_mark, size)
        self._mark(path, event.start_mark)
        self._place(copy.deepcopy(value) if size > 1 else value, event.start_mark, size, height)

    # --- keys, values, placing -----------------------------------------------------------

    def _key(self, event: Any) -> None:
        top = self.stack[-1]
        text = event.value
        if len(text) > MAX_SCALAR_CHARS:
            raise _Refused(event.start_mark,
                    N_("a key of {text} characters: at most {max_scalar_chars} are allowed").format(
                        text=len(text), max_scalar_chars=MAX_SCALAR_CHARS))
        plain = event.tag is None and event.implicit[0]
        if plain and text == "<<":
            top.key, top.key_is_merge = text, True
            return
        if event.tag not in (None, "!", _TAG + "str", _TAG + "int"):
            raise _Refused(event.start_mark,
                    N_("a key must be a plain word, not {tag}").format(tag=_short(event.tag)))
        sub = join(top.path, text)
        if text in top.explicit:
            self.problems.append(self._problem(event.start_mark, sub,
                                               N_("key '{text}' is given twice in this "
                                                  "mapping").format(text=_clip(text))))
        top.explicit.add(text)
        self.marks.keys.setdefault(sub, _pos(event.start_mark))
        top.key, top.key_is_merge = text, False

    def _place(self, value: Any, mark: Any, size: int, height: int) -> None:
        if not self.stack:
            self.root = value
            return
        top = self.stack[-1]
        top.size += size
        top.height = max(top.height, height + 1)
        if isinstance(top.value, list):
            top.value.append(value)
            return
        if top.key_is_merge:
            parts = value if isinstance(value, list) else [value]
            if not all(isinstance(p, dict) for p in parts):
                raise _Refused(mark,
                        N_("a merge key '<<' takes a mapping or a list of mappings (usually "
                           "an alias such as *defaults)"))
            top.merges.extend(parts)
        elif top.key not in top.value:
            top.value[top.key] = value
        top.key, top.key_is_merge = None, False

    def _plain(self, event: Any) -> Any:
        """A scalar's value: text, a whole number, a number, true/false or null."""
        text = event.value
        if len(text) > MAX_SCALAR_CHARS:
            raise _Refused(event.start_mark,
                    N_("a text of {text} characters: at most {max_scalar_chars} are "
                       "allowed").format(
                        text=len(text), max_scalar_chars=MAX_SCALAR_CHARS))
        pyyaml = _pyyaml()
        resolver, constructor = _scalars()
        tag = event.tag
        if tag is None or tag == "!":
            tag = resolver.resolve(pyyaml.ScalarNode, text, event.implicit)
        if tag not in _PLAIN_TAGS:
            raise _Refused(event.start_mark,
                    N_("the tag {tag} is not allowed here").format(tag=_short(tag)))
        if tag in (_TAG + "str", _TAG + "timestamp"):
            return text
        if tag == _TAG + "int" and len(_DIGITS.findall(text)) > MAX_INT_DIGITS:
            raise _Refused(event.start_mark,
                    N_("a whole number of more than {max_int_digits} digits: refused").format(
                        max_int_digits=MAX_INT_DIGITS))
        try:
            return constructor.construct_object(pyyaml.ScalarNode(tag, text, event.start_mark,
                                                                  event.end_mark))
        except (pyyaml.YAMLError, ValueError, OverflowError):
            raise _Refused(event.start_mark,
                    N_("not a valid {v} value").format(v=tag[len(_TAG):])) from None

    def _mark(self, path: str, mark: Any) -> None:
        self.marks.values.setdefault(path, _pos(mark))

    def _problem(self, mark: Any, path: str, message: str) -> Problem:
        return Problem(self.file, *_pos(mark), path, message)


def _pos(mark: Any) -> tuple[int, int]:
    return (mark.line + 1, mark.column + 1)


def _short(tag: Any) -> str:
    text = str(tag)
    if text.startswith(_TAG):
        text = "!!" + text[len(_TAG):]
    return _clip(text)


def _clip(text: str, limit: int = 40) -> str:
    """A quoted piece of the file, cut short (messages quote at most the offending value)."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _syntax_problem(file: str, err: yaml.YAMLError, text: str = "") -> Problem:
    mark = getattr(err, "problem_mark", None) or getattr(err, "context_mark", None)
    line, column = (mark.line + 1, mark.column + 1) if mark is not None else (0, 0)
    what = getattr(err, "problem", None) or str(err)
    context = getattr(err, "context", None)
    context_mark = getattr(err, "context_mark", None)
    if context and context_mark is not None and context_mark.line + 1 != line:
        context = N_("{context} (from line {line})").format(
                      context=context, line=context_mark.line + 1)
    message = f"{context}, {what}" if context else str(what)
    lines = text.splitlines()
    if "\t" in message or 0 < line <= len(lines) and "\t" in _indent(lines[line - 1]):
        message = N_("a tab character: YAML indentation must use spaces, not tabs")
    return Problem(file, line, column, "", N_("YAML syntax: {message}").format(message=message))


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t-"))]


def within_text(problem: Problem, text: str) -> Problem:
    """The problem with its position moved back onto the file's last line if past it."""
    last = line_count(text)
    if problem.line <= last:
        return problem
    lines = text.splitlines() or [""]
    return Problem(problem.file, last, len(lines[-1]) + 1, problem.path, problem.message)


@cache
def _flow_limited_loader() -> type:
    """PyYAML's own (Python) safe loader whose scanner refuses a '[' or '{' opened more
    than MAX_DEPTH levels deep, at that bracket (the event count would see it only after
    the scanner's look-ahead over the whole run)."""
    pyyaml = _pyyaml()

    class FlowLimitedLoader(pyyaml.SafeLoader):  # type: ignore[name-defined,misc]  # PyYAML: untyped
        def fetch_flow_collection_start(self, TokenClass: Any) -> None:
            if self.flow_level + len(self.indents) >= MAX_DEPTH:     # + block levels
                raise _Refused(self.get_mark(),
                        N_("nested more than {max_depth} levels deep: refused").format(
                            max_depth=MAX_DEPTH))
            super().fetch_flow_collection_start(TokenClass)

    return FlowLimitedLoader


def parse_text(text: str, file: str = "<inline>") -> tuple[Any, Marks]:
    """Parse YAML text into plain data and its marks; InputError on any problem."""
    if len(text) > MAX_FILE_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
        raise InputError([Problem(file, 0, 0, "",
                N_("the text is over {max_file_bytes} MB; larger files are refused").format(
                    max_file_bytes=MAX_FILE_BYTES // 1048576))])
    bad = first_control_character(text)
    if bad is not None:
        line, column, char = bad
        raise InputError([Problem(file, line, column, "",
                N_("a control character (U+{char:04X}) is not allowed in a YAML file; remove "
                   "it").format(
                    char=ord(char)))])
    pyyaml = _pyyaml()
    marks = Marks(file)
    builder = _Builder(file, marks)
    try:
        try:
            data = builder.run(pyyaml.parse(text, Loader=getattr(pyyaml, "CSafeLoader",
                                                                 pyyaml.SafeLoader)))
        except pyyaml.YAMLError as err:
            if "maximum nesting depth" not in str(err):
                raise
            # libyaml reads a run of '[' or '{' ahead to its own limit (1,000 levels)
            # before our count on the events sees the first of them: read it again with
            # the scanner that refuses the 65th level where it opens.
            marks = Marks(file)
            builder = _Builder(file, marks)
            data = builder.run(pyyaml.parse(text, Loader=_flow_limited_loader()))
    except _Refused as err:
        problem = Problem(file, *_pos(err.mark), "", str(err))
        raise InputError([within_text(problem, text)]) from None
    except pyyaml.YAMLError as err:
        raise InputError([within_text(_syntax_problem(file, err, text), text)]) from None
    if builder.problems:
        raise InputError([within_text(p, text) for p in builder.problems])
    return data, marks


def load_yaml(path: str | Path, what: str = "YAML") -> tuple[Any, Marks]:
    """Read a YAML file (at most 5 MB, UTF-8) into plain data and its marks.

    `what` names the kind of file expected ("arena"): a file that is not text
    is refused as "not an arena file" without quoting any of it."""
    file = str(path)
    try:
        raw = read_limited(path)
    except TooLarge as err:
        raise InputError([Problem(file, 0, 0, "", str(err))]) from None
    except OSError as err:
        reason = err.strerror or type(err).__name__
        raise InputError([Problem(file, 0, 0, "",
                N_("cannot read the file: {reason}").format(reason=reason))]) from None
    text, trouble = decode_text(raw)
    if trouble is not None:
        line, column, why = trouble
        raise InputError([Problem(file, line, column, "",
                N_("not {what} file: {why}").format(what=_a(what), why=why))])
    return parse_text(text, file)


def _a(what: str) -> str:
    return N_("an {what}").format(what=what) if what[:1].lower() in "aeiou" else f"a {what}"
