"""Robot personalities, each file read and checked once per process.

`formats.robot_tables.find_personality` reads every bundled table to find one
by name; a robot game, a simulation worker or the view asks for the same few
names again and again, so the answers are kept here: bundled tables once, a
personality file once per version of it (its modification time).
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from bottisota.formats.robot_tables import (
    Personality,
    bundled_personalities,
    find_personality,
    load_personality,
    robots_dir,
)


@lru_cache(maxsize=1)
def _bundled() -> dict[str, Personality]:
    return bundled_personalities()


@lru_cache(maxsize=64)
def _from_file(path: str, version: int) -> Personality:
    return load_personality(path)


def personality(name_or_path: str) -> Personality:
    """A bundled personality by name, or a file by path (raises InputError, as
    `find_personality` does, for a name or file that is not there or not valid)."""
    path = Path(name_or_path)
    if path.suffix in (".yaml", ".yml") or path.is_file():
        if path.is_file():
            return _from_file(str(path.resolve()), path.stat().st_mtime_ns)
        return find_personality(name_or_path)
    return _bundled_one(name_or_path)


@lru_cache(maxsize=64)
def _bundled_one(name: str) -> Personality:
    """A bundled personality: its own file first (a table is named like its file),
    every bundled table only when that is not it."""
    own = robots_dir() / f"{name}.yaml"
    if own.is_file():
        found = load_personality(own)
        if found.name == name:
            return found
    bundled = _bundled().get(name)
    return bundled if bundled is not None else find_personality(name)
