"""Reading YAML safely, keeping the line and column of every key path.

The file is composed into nodes with the safe loader (no arbitrary objects),
then turned into plain data while recording where each key path
(`features[3].rect`) starts. Files too big, too deep or with too many
nodes (alias bombs) are refused with one message instead of hanging.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from bottisota.core.errors import InputError, Problem

MAX_FILE_BYTES = 5 * 1024 * 1024     # refuse files larger than 5 MB
MAX_NODES = 1_000_000                # nodes built, aliases counted each time they expand
MAX_ALIAS_NODES = 100_000            # nodes built again because an alias repeats them
MAX_DEPTH = 64                       # nesting of mappings and lists

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


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

    def child(self, prefix: str, file: str | None = None) -> "Marks":
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


class _Builder:
    """Turns composed nodes into plain data and records their marks."""

    def __init__(self, marks: Marks) -> None:
        self.marks = marks
        self.nodes = 0
        self.alias_nodes = 0
        self.seen: set[int] = set()
        self.in_alias = 0
        self.constructor = yaml.constructor.SafeConstructor()
        self.problems: list[Problem] = []

    def build(self, node: yaml.Node, path: str, depth: int) -> Any:
        again = id(node) in self.seen
        if again:
            self.in_alias += 1
        try:
            return self._build(node, path, depth)
        finally:
            if again:
                self.in_alias -= 1

    def _build(self, node: yaml.Node, path: str, depth: int) -> Any:
        self.nodes += 1
        self.seen.add(id(node))
        if self.in_alias:
            self.alias_nodes += 1
            if self.alias_nodes > MAX_ALIAS_NODES:
                raise _TooBig(node, f"aliases repeat more than {MAX_ALIAS_NODES} YAML nodes "
                                    "(an alias bomb?): refused")
        if self.nodes > MAX_NODES:
            raise _TooBig(node, f"more than {MAX_NODES} YAML nodes (aliases counted each time "
                                "they are used): refused")
        if depth > MAX_DEPTH:
            raise _TooBig(node, f"nested more than {MAX_DEPTH} levels deep: refused")
        self.marks.values.setdefault(path, (node.start_mark.line + 1, node.start_mark.column + 1))
        if isinstance(node, yaml.MappingNode):
            return self._mapping(node, path, depth)
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, join(path, i), depth + 1) for i, item in enumerate(node.value)]
        return self.constructor.construct_object(node, deep=True)

    def _mapping(self, node: yaml.MappingNode, path: str, depth: int) -> dict:
        out: dict = {}
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                merged = self.build(value_node, path, depth + 1)
                for part in merged if isinstance(merged, list) else [merged]:
                    if isinstance(part, dict):
                        for k, v in part.items():
                            out.setdefault(k, v)
                continue
            if not isinstance(key_node, yaml.ScalarNode):
                self._problem(key_node, path, "a key must be a plain word, not a list or mapping")
                continue
            key = self.constructor.construct_object(key_node)
            if not isinstance(key, (str, int, float, bool)) or key is None:
                self._problem(key_node, path, f"a key must be a word, not {key!r}")
                continue
            sub = join(path, str(key))
            if key in out:
                self._problem(key_node, sub, f"key '{key}' is given twice in this mapping")
            self.marks.keys[sub] = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
            out[key] = self.build(value_node, sub, depth + 1)
        return out

    def _problem(self, node: yaml.Node, path: str, message: str) -> None:
        self.problems.append(Problem(self.marks.file, node.start_mark.line + 1,
                                     node.start_mark.column + 1, path, message))


class _TooBig(Exception):
    """Refusal of a file too big to build; `node` is where it went over the limit."""

    def __init__(self, node: yaml.Node, message: str) -> None:
        super().__init__(message)
        self.node = node


def _syntax_problem(file: str, err: yaml.YAMLError, text: str = "") -> Problem:
    mark = getattr(err, "problem_mark", None) or getattr(err, "context_mark", None)
    line, column = (mark.line + 1, mark.column + 1) if mark is not None else (0, 0)
    what = getattr(err, "problem", None) or str(err)
    context = getattr(err, "context", None)
    context_mark = getattr(err, "context_mark", None)
    if context and context_mark is not None and context_mark.line + 1 != line:
        context = f"{context} (from line {context_mark.line + 1})"
    message = f"{context}, {what}" if context else str(what)
    lines = text.splitlines()
    if "\t" in message or 0 < line <= len(lines) and "\t" in _indent(lines[line - 1]):
        message = "a tab character: YAML indentation must use spaces, not tabs"
    return Problem(file, line, column, "", f"YAML syntax: {message}")


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t-"))]


def parse_text(text: str, file: str = "<inline>") -> tuple[Any, Marks]:
    """Parse YAML text into plain data and its marks; InputError on any problem."""
    marks = Marks(file)
    try:
        root = yaml.compose(text, Loader=_Loader)
    except yaml.YAMLError as err:
        raise InputError([_syntax_problem(file, err, text)]) from None
    except RecursionError:
        raise InputError([Problem(file, 0, 0, "", "nested too deeply: refused")]) from None
    if root is None:
        return None, marks
    builder = _Builder(marks)
    try:
        data = builder.build(root, "", 0)
    except _TooBig as err:
        mark = err.node.start_mark
        raise InputError([Problem(file, mark.line + 1, mark.column + 1, "", str(err))]) from None
    except yaml.YAMLError as err:
        raise InputError([_syntax_problem(file, err, text)]) from None
    except RecursionError:
        raise InputError([Problem(file, 0, 0, "", "nested too deeply: refused")]) from None
    if builder.problems:
        raise InputError(builder.problems)
    return data, marks


def load_yaml(path: str | Path) -> tuple[Any, Marks]:
    """Read a YAML file (at most 5 MB) into plain data and its marks."""
    path = Path(path)
    file = str(path)
    try:
        size = path.stat().st_size
    except OSError as err:
        raise InputError([Problem(file, 0, 0, "", f"cannot read the file: {err.strerror}")]) from None
    if size > MAX_FILE_BYTES:
        raise InputError([Problem(file, 0, 0, "", f"the file is {size / 1048576:.1f} MB; "
                                  f"files over {MAX_FILE_BYTES // 1048576} MB are refused")])
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as err:
        raise InputError([Problem(file, 0, 0, "", f"not UTF-8 text ({err.reason})")]) from None
    except OSError as err:
        raise InputError([Problem(file, 0, 0, "", f"cannot read the file: {err.strerror}")]) from None
    return parse_text(text, file)
