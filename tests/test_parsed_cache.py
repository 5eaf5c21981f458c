"""The cache of content files that passed their checks (formats.parsed_cache): a start
takes the arena, rules, cards, mods and robot table from it, never trusting an entry
blindly (the files' bytes, the program and the house rules must all be the same), never
hiding a file's error, and rebuilding any entry it cannot read."""
from __future__ import annotations

import os
import pickle
from pathlib import Path

import pytest

from bottisota.core.errors import InputError
from bottisota.formats import loading, parsed_cache, robot_tables
from bottisota.formats.content import arenas_dir

ARENA = """\
name: small
size: [60, 40]
features:
  - {type: wall, id: block, rect: [20, 10, 5, 5], height: 3}
"""


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """An empty cache folder (the catalogue and bundled rules read afresh in this test)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(loading, "_catalogue", {})
    monkeypatch.setattr(loading, "_bundled_rules", None)
    return tmp_path / "cache" / "bottisota"


def no_parsing(monkeypatch) -> None:
    """From here on, reading any YAML file fails the test."""
    def refuse(*args, **kwargs):
        raise AssertionError("a file was parsed despite the cache")

    monkeypatch.setattr(loading, "load_yaml", refuse)
    monkeypatch.setattr(robot_tables, "load_yaml", refuse)


def arena_file(tmp_path: Path, text: str = ARENA) -> Path:
    path = tmp_path / "small.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def same_arena(a, b) -> None:
    assert (a.name, a.size, a.source) == (b.name, b.size, b.source)
    assert [(f.index, f.type, f.id, f.height, f.line, f.shape.wkb) for f in a.features] == \
        [(f.index, f.type, f.id, f.height, f.line, f.shape.wkb) for f in b.features]


def test_an_arena_is_read_once_then_taken_from_the_cache(cache, tmp_path, monkeypatch):
    path = arena_file(tmp_path)
    fresh = loading.load_arena(path, cache=True)
    assert len(list(cache.glob("arena-*.pickle"))) == 1
    no_parsing(monkeypatch)
    same_arena(loading.load_arena(path, cache=True), fresh)
    with pytest.raises(AssertionError):
        loading.load_arena(path)                      # (only a game's start asks for it)


def test_the_bundled_rules_catalogue_and_robot_table_come_from_the_cache(cache, monkeypatch):
    rules = loading.bundled_rules()
    cards, mods = loading.load_catalogue()
    table = robot_tables.load_personality(robot_tables.robots_dir() / "aggressive.yaml")
    monkeypatch.setattr(loading, "_catalogue", {})
    monkeypatch.setattr(loading, "_bundled_rules", None)
    no_parsing(monkeypatch)
    assert loading.bundled_rules() == rules
    assert loading.load_catalogue() == (cards, mods)
    assert robot_tables.load_personality(robot_tables.robots_dir() / "aggressive.yaml") == table


def test_an_edited_file_is_read_again_and_replaces_its_entry(cache, tmp_path):
    path = arena_file(tmp_path)
    loading.load_arena(path, cache=True)
    path.write_text(ARENA.replace("height: 3", "height: 4"), encoding="utf-8")
    assert loading.load_arena(path, cache=True).features[0].height == 4.0
    assert len(list(cache.glob("arena-*.pickle"))) == 1


def test_an_error_is_always_reported_from_the_file_and_never_kept(cache, tmp_path):
    path = arena_file(tmp_path)
    loading.load_arena(path, cache=True)                 # a good version cached
    path.write_text(ARENA.replace("height: 3", "height: tall"), encoding="utf-8")
    for _ in range(2):
        with pytest.raises(InputError) as err:
            loading.load_arena(path, cache=True)
        problem = err.value.problems[0]
        assert (problem.file, problem.line) == (str(path), 4)
    bad = tmp_path / "bad.yaml"
    bad.write_text("size: [60, 40]\nfeatures: [{type: wal, rect: [1, 1, 2, 2]}]\n",
                   encoding="utf-8")
    with pytest.raises(InputError):
        loading.load_arena(bad, cache=True)
    assert not [p for p in cache.glob("arena-*.pickle") if str(bad).encode() in p.read_bytes()]


def test_other_house_rules_or_another_program_build_afresh(cache, tmp_path, monkeypatch):
    path = arena_file(tmp_path)
    rules = loading.bundled_rules()
    loading.load_arena(path, rules, cache=True)
    loading.load_arena(path, rules.overridden({"round_limit": 3}), cache=True)
    assert len(list(cache.glob("arena-*.pickle"))) == 2      # one for each set of rules
    built = []
    real = loading.arena_from_dict
    monkeypatch.setattr(loading, "arena_from_dict",
                        lambda *a, **k: built.append(1) or real(*a, **k))
    loading.load_arena(path, rules, cache=True)
    assert built == []
    monkeypatch.setattr(parsed_cache, "program_stamp", lambda: ("another version",))
    loading.load_arena(path, rules, cache=True)
    assert built == [1]


def test_the_program_stamp_names_the_code_that_reads_files():
    version, python, modules = parsed_cache.program_stamp()
    names = {name for name, _size, _mtime in modules}
    assert {"formats/loading.py", "formats/spec.py", "core/shapes.py"} <= names


@pytest.mark.parametrize("damage", ["garbage", "truncated", "empty", "value-cut", "a-class"])
def test_a_damaged_entry_is_ignored_and_written_again(cache, tmp_path, damage):
    path = arena_file(tmp_path)
    fresh = loading.load_arena(path, cache=True)
    (entry,) = cache.glob("arena-*.pickle")
    data = entry.read_bytes()
    if damage == "garbage":
        entry.write_bytes(b"\x00\xff not a pickle")
    elif damage == "truncated":
        entry.write_bytes(data[:len(data) // 3])
    elif damage == "empty":
        entry.write_bytes(b"")
    elif damage == "value-cut":
        entry.write_bytes(data[:-40])
    else:                       # a header naming a class: never looked up, never called
        entry.write_bytes(pickle.dumps((Path("x"),)) + data)
    same_arena(loading.load_arena(path, cache=True), fresh)
    assert entry.read_bytes() != b"" and parsed_cache._read(entry, ()) is None
    key = pickle.loads(entry.read_bytes())           # rewritten whole: its header reads
    assert key[0] == parsed_cache.CACHE_FORMAT and key[1] == "arena"


def test_a_cache_folder_that_cannot_be_written_only_costs_time(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    arena = loading.load_arena(arenas_dir() / "duel.yaml", cache=True)
    assert arena.name == loading.load_arena(arenas_dir() / "duel.yaml").name
    assert blocker.read_text(encoding="utf-8") == "not a folder"


def test_no_home_folder_means_no_cache(tmp_path, monkeypatch):
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)

    def homeless() -> Path:
        raise RuntimeError("Could not determine home directory.")

    monkeypatch.setattr(Path, "home", homeless)
    assert loading.load_arena(arena_file(tmp_path), cache=True).name == "small"


def entry_files(cache: Path) -> dict[str, Path]:
    """The arena entries by the file each was read from."""
    return {pickle.loads(e.read_bytes())[4][0][0]: e for e in cache.glob("arena-*.pickle")}


def test_the_cache_keeps_the_newest_entries_of_each_kind(cache, tmp_path, monkeypatch):
    monkeypatch.setattr(parsed_cache, "KEEP", 3)
    loading.bundled_rules()                              # another kind, pruned on its own
    paths = []
    for k in range(5):                                   # five arenas in five folders
        (tmp_path / str(k)).mkdir()
        paths.append(str(arena_file(tmp_path / str(k))))
        loading.load_arena(paths[-1], cache=True)
        for age, path in enumerate(reversed(paths)):     # written a minute apart
            if path in entry_files(cache):
                stamp = 10 ** 18 - age * 60 * 10 ** 9
                os.utime(entry_files(cache)[path], ns=(stamp, stamp))
    assert sorted(entry_files(cache)) == sorted(paths[2:])          # the two oldest gone
    assert len(list(cache.glob("rules-*.pickle"))) == 1


def test_an_entry_in_use_is_kept_when_older_ones_are_pruned(cache, tmp_path, monkeypatch):
    monkeypatch.setattr(parsed_cache, "KEEP", 2)
    for name in "abc":
        (tmp_path / name).mkdir()
    a, b, c = (str(arena_file(tmp_path / name)) for name in "abc")
    loading.load_arena(a, cache=True)
    loading.load_arena(b, cache=True)
    os.utime(entry_files(cache)[a], ns=(10 ** 18, 10 ** 18))          # a written first
    os.utime(entry_files(cache)[b], ns=(10 ** 18 + 1, 10 ** 18 + 1))
    loading.load_arena(a, cache=True)                  # taken from the cache: in use now
    loading.load_arena(c, cache=True)
    assert sorted(entry_files(cache)) == sorted([a, c])
