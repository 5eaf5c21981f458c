"""Editing an arena file in place (`bottisota preview`'s hands): move, rotate, resize,
add and delete features, with undo and redo; the YAML file stays the truth.

The file is read by PyYAML's composer only to find where each value stands in the
text (every node knows its start and end); an edit then rewrites just those
characters (a `rect: [..]`, an `up:` number, one feature's lines), so every comment,
blank line, key order, flow or block style and indentation of the designer's file
stays exactly as written. Numbers
an edit writes are whole numbers as integers, others to 0.01 cm. Each edit is a new
text of the file; undo and redo step through them. The preview writes the text to
the file after each edit and checks it again at once.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any  # Any: PyYAML's untyped nodes and the values read from the arena file

import yaml

from bottisota.core.i18n import _

SLOPED = ("stairs", "ramp", "escalator")
DECIMALS = 2

# what a feature added from the palette starts as, around the point clicked (cm)
NEW_FEATURES: dict[str, dict[str, Any]] = {
    "wall": {"rect": (-2.0, -2.0, 4.0, 4.0), "height": 10},
    "door": {"rect": (-3.0, -1.0, 6.0, 2.0)},
    "platform": {"rect": (-5.0, -5.0, 10.0, 10.0), "height": 4},
    "stairs": {"rect": (-3.0, -4.0, 6.0, 8.0), "from": 0, "to": 4, "up": 0},
    "ramp": {"rect": (-3.0, -4.0, 6.0, 8.0), "from": 0, "to": 4, "up": 0},
    "escalator": {"rect": (-2.0, -4.0, 4.0, 8.0), "from": 0, "to": 4, "up": 0, "speed": 2},
    "lift": {"rect": (-2.0, -2.0, 4.0, 4.0), "top": 4},
    "pit": {"circle": 3.0},
    "conveyor": {"path": ((-8.0, 0.0), (8.0, 0.0)), "width": 4, "speed": 2},
    "service": {"circle": 3.0},
    "teleporter": {"circle": 1.5},
    "goal": {"circle": 2.0, "points": 1},
}
PALETTE: tuple[str, ...] = tuple(NEW_FEATURES)
class EditError(ValueError):
    """An edit this file's layout does not allow (said in the preview's panel)."""


def tidy(value: float) -> int | float:
    """A coordinate as written: a whole number as an integer, else to 0.01 cm."""
    rounded = round(value, DECIMALS)
    return int(rounded) if float(rounded).is_integer() else rounded


def number_text(value: float) -> str:
    return str(tidy(value))


def flow_text(values: Sequence[Any]) -> str:
    """A flow list as the file writes them: `[35, 20, 4, 4]`, `[[1, 2], [3, 4]]`."""
    return "[" + ", ".join(flow_text(v) if isinstance(v, (list, tuple)) else number_text(v)
                           for v in values) + "]"


def turn_point(x: float, y: float, cx: float, cy: float, degrees: float) -> tuple[float, float]:
    """(x, y) turned clockwise by `degrees` about (cx, cy) (y up, as on the table)."""
    a = math.radians(degrees)
    dx, dy = x - cx, y - cy
    return cx + dx * math.cos(a) + dy * math.sin(a), cy - dx * math.sin(a) + dy * math.cos(a)


Node = Any                       # a PyYAML node (ScalarNode, SequenceNode, MappingNode)


class _Text:
    """The file's text and its composed nodes (each with its span), and the edits
    collected to apply at once (last first, so earlier offsets stay right)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.edits: list[tuple[int, int, str]] = []

    def replace(self, start: int, end: int, new: str) -> None:
        self.edits.append((start, end, new))

    def line_start(self, offset: int) -> int:
        return self.text.rfind("\n", 0, offset) + 1

    def next_line(self, offset: int) -> int:
        """The offset of the line after the one `offset` is on (the text's end if none)."""
        end = self.text.find("\n", offset)
        return len(self.text) if end < 0 else end + 1

    def applied(self) -> str:
        out = self.text
        for start, end, new in sorted(self.edits, reverse=True):
            out = out[:start] + new + out[end:]
        return out


def _value(mapping: Node, key: str) -> Node | None:
    for k, v in mapping.value:
        if isinstance(k, yaml.ScalarNode) and k.value == key:
            return v
    return None


def _key(mapping: Node, key: str) -> Node | None:
    for k, _v in mapping.value:
        if isinstance(k, yaml.ScalarNode) and k.value == key:
            return k
    return None


def _set_list(t: _Text, mapping: Node, key: str, values: Sequence[Any]) -> None:
    """Write a list value anew where it stands: a flow list as one, a block list item by
    item."""
    node = _value(mapping, key)
    if node is None:
        raise EditError(_("the feature has no {key}").format(key=key))
    if node.flow_style:
        t.replace(node.start_mark.index, node.end_mark.index, flow_text(values))
        return
    for item, value in zip(node.value, values, strict=True):
        if isinstance(value, (list, tuple)):
            if not isinstance(item, yaml.SequenceNode) or not item.flow_style:
                raise EditError(_("a point written as a block list"))
            t.replace(item.start_mark.index, item.end_mark.index, flow_text(value))
        else:
            t.replace(item.start_mark.index, item.end_mark.index, number_text(value))


def _set_scalar(t: _Text, mapping: Node, key: str, value: float) -> None:
    node = _value(mapping, key)
    if node is None:
        raise EditError(_("the feature has no {key}").format(key=key))
    t.replace(node.start_mark.index, node.end_mark.index, number_text(value))


def _add_key_after(t: _Text, mapping: Node, after: str, key: str, value: float) -> None:
    """A new `key: value` just after the `after` key's value: in a flow map as `, key:
    value`, in a block map as a line of its own at the same indentation."""
    node, key_node = _value(mapping, after), _key(mapping, after)
    if node is None or key_node is None:
        raise EditError(_("the feature has no {key}").format(key=after))
    end = node.end_mark.index
    if mapping.flow_style:
        t.replace(end, end, f", {key}: {number_text(value)}")
        return
    at = t.next_line(end)
    t.replace(at, at, " " * key_node.start_mark.column + f"{key}: {number_text(value)}\n")


def _points(values: Any) -> list[tuple[float, float]]:
    return [(float(p[0]), float(p[1])) for p in values]


@dataclass
class ArenaEditor:
    """One arena file being edited: its current text, and the texts before and after."""

    path: Path
    text: str
    undo_stack: list[str] = field(default_factory=list)
    redo_stack: list[str] = field(default_factory=list)

    @classmethod
    def open(cls, path: str | Path) -> ArenaEditor:
        path = Path(path)
        return cls(path, path.read_text(encoding="utf-8"))

    def reread(self) -> None:
        """Take the file as it is now on disk (the designer saved it from an editor);
        the history stays, so undo goes back past it."""
        text = self.path.read_text(encoding="utf-8")
        if text != self.text:
            self.undo_stack.append(self.text)
            self.redo_stack.clear()
            self.text = text

    def _parsed(self) -> tuple[list[Any], Node, Node]:  # PyYAML's nodes carry no types
        """The features' values, the features' node and the document's node."""
        try:
            root = yaml.compose(self.text, Loader=yaml.SafeLoader)
            data = yaml.safe_load(self.text)
        except yaml.YAMLError as err:
            raise EditError(_("the file does not read as YAML: {error}").format(
                error=err)) from None
        node = _value(root, "features") if isinstance(root, yaml.MappingNode) else None
        features = data.get("features") if isinstance(data, dict) else None
        if not isinstance(node, yaml.SequenceNode) or not isinstance(features, list):
            raise EditError(_("the file has no list of features"))
        return features, node, root

    def features(self) -> list[Any]:
        """The features as read now (plain values); none while the file does not read."""
        try:
            return self._parsed()[0]
        except EditError:
            return []

    def _edit(self, index: int | None, change: Any) -> bool:
        features, node, _root = self._parsed()
        if index is not None and not (0 <= index < len(features)
                                      and isinstance(features[index], dict)
                                      and isinstance(node.value[index], yaml.MappingNode)):
            raise EditError(_("no such feature"))
        t = _Text(self.text)
        if change(t, features, node) is False:
            return False
        new = t.applied()
        if new == self.text:
            return False
        self.undo_stack.append(self.text)
        self.redo_stack.clear()
        self.text = new
        return True

    def save(self) -> None:
        self.path.write_text(self.text, encoding="utf-8")

    # --- history ------------------------------------------------------------------------

    def undo(self) -> bool:
        if not self.undo_stack:
            return False
        self.redo_stack.append(self.text)
        self.text = self.undo_stack.pop()
        return True

    def redo(self) -> bool:
        if not self.redo_stack:
            return False
        self.undo_stack.append(self.text)
        self.text = self.redo_stack.pop()
        return True

    # --- edits --------------------------------------------------------------------------

    def move(self, index: int, dx: float, dy: float) -> bool:
        """Move feature `index` by (dx, dy) cm (a goal's respawn spots stay)."""
        def change(t: _Text, features: list[Any], node: Node) -> bool:
            f, n = features[index], node.value[index]
            if "rect" in f:
                r = [float(v) for v in f["rect"]]
                _set_list(t, n, "rect", [r[0] + dx, r[1] + dy, r[2], r[3]])
            elif "circle" in f:
                c = [float(v) for v in f["circle"]]
                _set_list(t, n, "circle", [c[0] + dx, c[1] + dy, c[2]])
            elif "polygon" in f or "path" in f:
                key = "polygon" if "polygon" in f else "path"
                _set_list(t, n, key, [(x + dx, y + dy) for x, y in _points(f[key])])
            else:
                return False
            return True
        return self._edit(index, change)

    def rotate(self, index: int, degrees: float) -> bool:
        """Turn feature `index` clockwise by `degrees` about its centre: a rect or polygon
        gets (or changes) its `rotate`, a path's points turn, and a slope's `up` turns
        with it."""
        def change(t: _Text, features: list[Any], node: Node) -> bool:
            f, n = features[index], node.value[index]
            turned = False
            if "rect" in f or "polygon" in f:
                angle = (float(f.get("rotate", 0) or 0) + degrees) % 360.0
                if "rotate" in f:
                    _set_scalar(t, n, "rotate", angle)
                else:
                    _add_key_after(t, n, "rect" if "rect" in f else "polygon", "rotate", angle)
                turned = True
            elif "path" in f:
                pts = _points(f["path"])
                cx = sum(p[0] for p in pts) / len(pts)
                cy = sum(p[1] for p in pts) / len(pts)
                _set_list(t, n, "path", [turn_point(x, y, cx, cy, degrees) for x, y in pts])
                turned = True
            if f.get("type") in SLOPED and "up" in f:
                _set_scalar(t, n, "up", (float(f["up"]) + degrees) % 360.0)
                turned = True
            return turned
        return self._edit(index, change)

    def resize(self, index: int, width: float, height: float) -> bool:
        """A rect's width and height (its lower-left corner kept), a circle's radius
        (`width` / 2), or a polygon scaled about its middle to this size."""
        def change(t: _Text, features: list[Any], node: Node) -> bool:
            f, n = features[index], node.value[index]
            w, h = max(width, 0.1), max(height, 0.1)
            if "rect" in f:
                r = [float(v) for v in f["rect"]]
                _set_list(t, n, "rect", [r[0], r[1], w, h])
            elif "circle" in f:
                c = [float(v) for v in f["circle"]]
                _set_list(t, n, "circle", [c[0], c[1], w / 2])
            elif "polygon" in f:
                pts = _points(f["polygon"])
                xs, ys = [p[0] for p in pts], [p[1] for p in pts]
                sx = w / max(max(xs) - min(xs), 1e-9)
                sy = h / max(max(ys) - min(ys), 1e-9)
                cx, cy = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
                _set_list(t, n, "polygon", [(cx + (x - cx) * sx, cy + (y - cy) * sy)
                                            for x, y in pts])
            else:
                return False
            return True
        return self._edit(index, change)

    def add(self, kind: str, x: float, y: float, feature_id: str | None = None) -> bool:
        """A new feature of `kind` centred on (x, y): one flow-style line after the last
        feature, indented as the others are."""
        template = NEW_FEATURES[kind]
        head = [("type", kind)] + ([("id", feature_id)] if feature_id else [])
        parts = [f"{key}: {value}" for key, value in head]
        for key, value in template.items():
            if key == "rect":
                parts.append("rect: " + flow_text([x + value[0], y + value[1], value[2],
                                                   value[3]]))
            elif key == "circle":
                parts.append("circle: " + flow_text([x, y, value]))
            elif key == "path":
                parts.append("path: " + flow_text([(x + px, y + py) for px, py in value]))
            else:
                parts.append(f"{key}: {value}")
        item = "{" + ", ".join(parts) + "}"

        def change(t: _Text, features: list[Any], node: Node) -> bool:
            if node.flow_style:
                end = node.end_mark.index              # just past the closing bracket
                t.replace(end - 1, end - 1, (", " if node.value else "") + item)
                return True
            last = node.value[-1]
            start = last.start_mark.index
            dash = t.text.rfind("-", t.line_start(start), start)
            indent = (dash if dash >= 0 else start) - t.line_start(start)
            end = self._item_end(t, node, len(node.value) - 1)
            t.replace(end, end, " " * indent + "- " + item + "\n")
            return True
        return self._edit(None, change)

    def delete(self, index: int) -> bool:
        """Feature `index` removed, its lines with it."""
        def change(t: _Text, features: list[Any], node: Node) -> bool:
            if node.flow_style:
                raise EditError(_("the features are written as one flow list"))
            start = t.line_start(node.value[index].start_mark.index)
            t.replace(start, self._item_end(t, node, index), "")
            return True
        return self._edit(index, change)

    @staticmethod
    def _item_end(t: _Text, node: Node, index: int) -> int:
        """The offset just past item `index`'s last line (the comment and blank lines
        before the next item belong to that one)."""
        item = node.value[index]
        end = item.end_mark.index
        if not item.flow_style:
            # a block mapping ends where the next token starts: back to its last value
            last_value = item.value[-1][1] if item.value else item
            end = last_value.end_mark.index
        return t.next_line(end - 1 if end > 0 and t.text[end - 1] == "\n" else end)

    def new_id(self, kind: str) -> str:
        """An id for a new feature that no feature has yet (tp-1, tp-2, ...)."""
        prefix = {"teleporter": "tp"}.get(kind, kind)
        taken = {str(f.get("id")) for f in self.features() if isinstance(f, dict)}
        n = 1
        while f"{prefix}-{n}" in taken:
            n += 1
        return f"{prefix}-{n}"
