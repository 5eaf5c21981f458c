"""A journal's recorded rules, arena, cards and mods are kept in the user's cache once they
passed their checks (play.journal._static_from through formats.parsed_cache.cached_data):
resuming again a game on the same content skips the validation, and nothing else ever
takes the cached value: another byte, another program, a damaged entry all build afresh,
and invalid data is refused with the same words as without a cache (D8)."""
from __future__ import annotations

import json

import pytest

from bottisota.core.errors import JournalError
from bottisota.formats import parsed_cache
from bottisota.play import journal
from bottisota.play.journal import load, state_digest
from tests.test_journal import write_resealed
from tests.test_journal_tamper import edit


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache" / "bottisota"


@pytest.fixture
def builds(monkeypatch) -> list[int]:
    """How many times the header's static data was built (validated) from the journal."""
    count: list[int] = []
    real = journal._static_built

    def counted(d, version):
        count.append(1)
        return real(d, version)

    monkeypatch.setattr(journal, "_static_built", counted)
    return count


def written(tmp_path, lines, name="game.jsonl"):
    path = tmp_path / name
    write_resealed(path, lines)
    return path


def test_resuming_again_takes_the_checked_data_from_the_cache(  # D8
        robot_journal, tmp_path, cache, builds):
    path = written(tmp_path, robot_journal)
    first = load(path)
    assert len(builds) == 1 and len(list(cache.glob("journal-static-*.pickle"))) == 1
    again = load(path)
    assert len(builds) == 1                              # not validated a second time
    assert state_digest(again.state) == state_digest(first.state)
    assert again.state.arena.name == first.state.arena.name
    assert [c.name for c in again.state.cards.values()] == \
        [c.name for c in first.state.cards.values()]


def test_another_journal_on_the_same_content_uses_the_same_entry(robot_journal, tmp_path,
                                                                cache, builds):
    load(written(tmp_path, robot_journal))
    start = load(written(tmp_path, robot_journal[:1], "just-started.jsonl"))
    assert len(builds) == 1 and not start.history


@pytest.mark.parametrize("change, words", [
    (lambda d: d["arena"]["features"][0].update(rect=[-500, 0, 10, 10]), "arena"),
    (lambda d: d["cards"][0].update(structure=-3), "cards"),
    (lambda d: d["rules"].pop("kill_points"), "house rules"),
])
def test_invalid_data_after_a_cached_read_is_still_refused(  # D8
        robot_journal, tmp_path, cache, builds, change, words):
    load(written(tmp_path, robot_journal))
    path = written(tmp_path, edit(robot_journal, 1, change), "forged.jsonl")
    with pytest.raises(JournalError) as err:
        load(path)
    assert err.value.line == 1 and words in err.value.message
    assert len(builds) == 2
    with pytest.raises(JournalError) as again:                 # and never kept
        load(path)
    assert again.value.message == err.value.message
    assert len(list(cache.glob("journal-static-*.pickle"))) == 1


def test_one_byte_of_other_content_builds_afresh(robot_journal, tmp_path, cache, builds):
    load(written(tmp_path, robot_journal))

    def lower(d):
        wall = next(f for f in d["arena"]["features"] if f["type"] == "wall")
        wall["height"] = wall["height"] + 1       # valid, and one digit different

    changed = edit(robot_journal, 1, lower)
    assert json.loads(changed[0])["arena"] != json.loads(robot_journal[0])["arena"]
    try:
        load(written(tmp_path, changed, "changed.jsonl"))
    except JournalError:                     # the game may replay differently: refused
        pass
    assert len(builds) == 2


def test_a_damaged_entry_or_another_program_builds_afresh(robot_journal, tmp_path, cache,
                                                          builds, monkeypatch):
    path = written(tmp_path, robot_journal)
    load(path)
    (entry,) = cache.glob("journal-static-*.pickle")
    entry.write_bytes(entry.read_bytes()[:-40])
    load(path)
    assert len(builds) == 2
    load(path)
    assert len(builds) == 2                                   # written again whole
    stamp = parsed_cache.program_stamp()
    monkeypatch.setattr(parsed_cache, "program_stamp", lambda: ("another",) + stamp[1:])
    load(path)
    assert len(builds) == 3
