"""YAML read with positions: every value keeps the line and column it came from,
so a robot table's problems can name file, line and key (formats.md)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from bottisota.core.errors import InputError, Problem


@dataclass(frozen=True, slots=True)
class Where:
    """Position of a value in its file (1-based; 0 when unknown)."""

    line: int
    column: int


class Marked:
    """The plain Python value of a YAML file plus `where(path)` for any key path."""

    def __init__(self, file: str, value: Any, marks: dict[str, Where]) -> None:
        self.file = file
        self.value = value
        self._marks = marks

    def where(self, path: str) -> Where:
        """The position of the value at `path` (or of its nearest parent)."""
        while True:
            if path in self._marks:
                return self._marks[path]
            if not path:
                return Where(0, 0)
            cut = max(path.rfind("."), path.rfind("["))
            path = path[:cut] if cut > 0 else ""

    def problem(self, path: str, message: str) -> Problem:
        w = self.where(path)
        return Problem(self.file, w.line, w.column, path, message)


def _child(path: str, key: Any) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else str(key)


def _walk(node: yaml.Node, path: str, marks: dict[str, Where]) -> None:
    marks[path] = Where(node.start_mark.line + 1, node.start_mark.column + 1)
    if isinstance(node, yaml.MappingNode):
        loader = yaml.SafeLoader("")
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True)
            _walk(value_node, _child(path, key), marks)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            _walk(item, _child(path, i), marks)


def read_marked(path: str | Path) -> Marked:
    """Read a YAML file; a file that cannot be read or parsed raises InputError."""
    name = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as err:
        raise InputError([Problem(name, 0, 0, "", f"cannot read the file: {err.strerror}")])
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
        value = yaml.safe_load(text)
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (0, 0)
        raise InputError([Problem(name, line, col, "", f"not valid YAML: {err.problem}")])
    except yaml.YAMLError as err:
        raise InputError([Problem(name, 0, 0, "", f"not valid YAML: {err}")])
    marks: dict[str, Where] = {}
    if node is not None:
        _walk(node, "", marks)
    return Marked(name, value, marks)
