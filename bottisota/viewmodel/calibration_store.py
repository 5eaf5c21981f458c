"""The calibration file: how many pixels make one centimetre of real table, per
display and per axis (a projector's pixels need not be square on the table).

It lives in the platform's config folder (`config_dir()`), is written atomically
(a temporary file, then `os.replace`), and is read by the program's one JSON reader
(`formats.json_text`): a file too big, nested too deep, with non-finite or absurd
numbers, or not JSON at all is ignored with one message naming the file, line and
column, never a crash; a bad entry is dropped alone, and saving
one display keeps every other display's calibration (an unreadable file is kept
beside the new one as `displays.json.bad`).
"""
from __future__ import annotations

import json
import math
import os
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from bottisota.core.errors import InputError
from bottisota.core.i18n import _, number
from bottisota.formats.json_text import read_json_file

FILE_NAME = "displays.json"
MAX_BYTES = 64 * 1024        # a calibration file is a few hundred bytes
MAX_DEPTH = 4                # {"displays": {key: {axis: number}}}
MAX_ENTRIES = 64
MIN_PX_PER_CM = 0.5
MAX_PX_PER_CM = 200.0
FORMAT_VERSION = 1


def config_dir() -> Path:
    """The user's config folder for bottisota on this platform
    (Windows %APPDATA%, macOS ~/Library/Application Support, else XDG_CONFIG_HOME
    or ~/.config)."""
    if sys.platform.startswith("win"):
        base = os.environ.get("APPDATA") or str(Path.home() / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        base = str(Path.home() / "Library" / "Application Support")
    else:
        base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "bottisota"


def calibration_file() -> Path:
    return config_dir() / FILE_NAME


def display_key(size: tuple[int, int], index: int = 0, name: str = "") -> str:
    """The name a display's calibration is saved under: index, name and desktop size."""
    label = "".join(ch if ch.isalnum() else "-" for ch in name.strip())[:40]
    return f"display{index}-{label + '-' if label else ''}{size[0]}x{size[1]}"


@dataclass(frozen=True)
class Calibration:
    """Pixels per cm along the display's x and y."""

    x: float
    y: float

    @property
    def mean(self) -> float:
        return (self.x + self.y) / 2.0

    def as_dict(self) -> dict[str, object]:
        return {"px_per_cm_x": round(self.x, 4), "px_per_cm_y": round(self.y, 4)}


def _scale(v: object) -> float | None:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return None
    f = float(v)
    if not math.isfinite(f) or not MIN_PX_PER_CM <= f <= MAX_PX_PER_CM:
        return None
    return f


def _entry(value: object) -> Calibration | None:
    """One display's entry: {px_per_cm_x, px_per_cm_y} or the older {px_per_cm}."""
    if not isinstance(value, dict):
        return None
    if "px_per_cm_x" in value or "px_per_cm_y" in value:
        x, y = _scale(value.get("px_per_cm_x")), _scale(value.get("px_per_cm_y"))
    else:
        x = y = _scale(value.get("px_per_cm"))
    if x is None or y is None:
        return None
    return Calibration(x, y)


@dataclass
class Loaded:
    """What was read: the good calibrations, messages about what was ignored, and
    whether the file itself was unreadable (then a save keeps it aside)."""

    displays: dict[str, Calibration]
    messages: list[str]
    unreadable: bool = False


def read_calibrations(path: Path | None = None) -> Loaded:
    """Every good calibration in the file (see the module doc for the limits)."""
    path = path or calibration_file()
    if not path.exists():
        return Loaded({}, [])
    where = _("calibration file {name}").format(name=path.name)
    try:        # the one JSON reader: too large, too deep, NaN or not JSON refused in words
        data = read_json_file(path, MAX_BYTES, MAX_DEPTH)
    except InputError as err:
        return Loaded({}, [_("{problem}: the calibration is ignored").format(problem=err)],
                      True)
    if not isinstance(data, dict):
        return Loaded({}, [_("{where} holds no table of displays: ignored").format(
                where=where)], True)
    raw = data.get("displays", data) if isinstance(data.get("displays"), dict) else data
    displays: dict[str, Calibration] = {}
    messages: list[str] = []
    for key, value in list(raw.items())[:MAX_ENTRIES]:
        if key in ("version", "displays"):
            continue
        cal = _entry(value)
        if cal is None:
            messages.append(
                _(
                    "{where}: the entry for {key!r} is not a pair of "
                    "scales between {low} and {high} px/cm: ignored"
                ).format(
                    where=where,
                    key=str(key)[:60],
                    low=number(MIN_PX_PER_CM),
                    high=number(MAX_PX_PER_CM),
                )
            )
        else:
            displays[str(key)] = cal
    if len(raw) > MAX_ENTRIES:
        messages.append(_("{where}: only the first {n} displays are read").format(
                where=where, n=MAX_ENTRIES))
    return Loaded(displays, messages)


def load_calibration(key: str, path: Path | None = None) -> tuple[Calibration | None, list[str]]:
    loaded = read_calibrations(path)
    return loaded.displays.get(key), loaded.messages


def save_calibration(key: str, cal: Calibration, path: Path | None = None) -> Path:
    """Save one display's calibration, keeping every other good one; atomic."""
    path = path or calibration_file()
    if _scale(cal.x) is None or _scale(cal.y) is None:
        raise ValueError(f"a calibration is between {MIN_PX_PER_CM:g} and {MAX_PX_PER_CM:g} px/cm")
    loaded = read_calibrations(path)
    displays = dict(loaded.displays)
    displays[key] = cal
    path.parent.mkdir(parents=True, exist_ok=True)
    if loaded.unreadable and path.exists():
        os.replace(path, path.with_name(path.name + ".bad"))
    text = json.dumps({"version": FORMAT_VERSION,
                       "displays": {k: v.as_dict() for k, v in sorted(displays.items())}},
                      indent=2) + "\n"
    fd, tmp = tempfile.mkstemp(prefix=".displays-", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return path
