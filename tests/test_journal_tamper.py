"""Every edit of a journal is refused at the line where it is, the header included; reading
is limited (size, nesting, number length, NaN); the recorded arena and cards are validated
as files are; version 1 journals still replay; refusals are one message, exit 2."""
import json
import random
import time
from pathlib import Path

import pytest

from bottisota.cli import main as cli_main
from bottisota.core.errors import JournalError
from bottisota.formats.loading import bundled_rules
from bottisota.play import journal_file
from bottisota.play.journal import journal_game, load, state_digest
from tests.test_journal import write_resealed

FIXTURES = Path(__file__).parent / "fixtures"


def edit(lines, number, change):
    """The journal's lines with line `number` (1-based) changed by `change(data)`,
    its digest left as it was (a hand edit)."""
    out = list(lines)
    data = json.loads(out[number - 1])
    change(data)
    out[number - 1] = json.dumps(data, separators=(",", ":"))
    return out


def _card_structure(data):
    card = next(c for c in data["cards"] if c["structure"] == 7)
    card["structure"] = 70


def _lower_wall(data):
    wall = next(f for f in data["arena"]["features"] if f["type"] == "wall")
    wall["height"] = 1.0


def _note(data):
    data["events"][0]["section"] = "shoot"


TAMPERS = {
    "header: a card's structure 7 -> 70": (1, lambda ls: edit(ls, 1, _card_structure)),
    "header: a wall lowered": (1, lambda ls: edit(ls, 1, _lower_wall)),
    "header: another seed": (1, lambda ls: edit(ls, 1, lambda d: d.update(seed=d["seed"] + 1))),
    "header: another rule": (1, lambda ls: edit(ls, 1, lambda d: d["rules"].update(
        kill_points=d["rules"]["kill_points"] + 5))),
    "header: the version": (1, lambda ls: edit(ls, 1, lambda d: d.update(version=1))),
    "a robot's decision note": (3, lambda ls: edit(ls, 3, _note)),
    "an event": (4, lambda ls: edit(ls, 4, lambda d: d["events"][-1].update(x=1.0))),
    "a die": (2, lambda ls: edit(ls, 2, lambda d: d["rolls"][0].__setitem__(1, 7))),
    "the state digest": (5, lambda ls: edit(ls, 5, lambda d: d.update(state="0" * 16))),
    "the digest removed": (6, lambda ls: edit(ls, 6, lambda d: d.pop("digest"))),
    "a line removed": (4, lambda ls: ls[:3] + ls[4:]),
    "two lines swapped": (4, lambda ls: ls[:3] + [ls[4], ls[3]] + ls[5:]),
    "a line repeated": (5, lambda ls: ls[:4] + [ls[3]] + ls[4:]),
    "a line added": (10, lambda ls: ls + ['{"undo":true}']),
    "a space added": (7, lambda ls: ls[:6] + [ls[6].replace(",", ", ", 1)] + ls[7:]),
}


@pytest.mark.parametrize("kind", list(TAMPERS))
def test_every_tamper_is_refused_at_its_line(kind, robot_journal, tmp_path, capsys):
    line, tamper = TAMPERS[kind]
    path = tmp_path / "edited.jsonl"
    path.write_text("\n".join(tamper(robot_journal)) + "\n", encoding="utf-8")
    with pytest.raises(JournalError) as err:
        load(path)
    assert err.value.line == line, err.value
    assert "digest" in err.value.message
    assert cli_main(["replay", str(path)]) == 2
    out = capsys.readouterr()
    assert out.err.count("\n") == 1 and "Traceback" not in out.err
    assert out.err.startswith(f"{path}:{line}: the line is refused")


def test_the_untouched_robot_journal_replays(robot_journal, tmp_path):
    path = tmp_path / "robots.jsonl"
    path.write_text("\n".join(robot_journal) + "\n", encoding="utf-8")
    assert len(load(path).history) == 8


# --- what the chain cannot see: the recorded data is still validated and replayed -------

def test_a_forged_chain_with_a_wall_lowered_still_replays_differently_or_is_refused(
        robot_journal, tmp_path):
    path = tmp_path / "forged.jsonl"
    write_resealed(path, edit(robot_journal, 3, _note))
    assert len(load(path).history) == 8          # a note changes nothing: a forger can
    write_resealed(path, edit(robot_journal, 4, lambda d: d["events"][-1].update(x=1.0)))
    with pytest.raises(JournalError) as err:
        load(path)
    assert err.value.line == 4


@pytest.mark.parametrize("change, words", [
    (lambda d: d["arena"].update(size=[float("nan"), 60]), "NaN is not a number"),
    (lambda d: d["arena"].update(size=[1e308 * 10, 60]), "Infinity is not a number"),
    (lambda d: d["arena"].update(size=[-60, 60]), "arena"),
    (lambda d: d["arena"]["features"][0].update(rect=[-500, 0, 10, 10]), "arena"),
    (lambda d: d["cards"][0].update(structure=-3), "cards"),
    (lambda d: d["cards"][0].update(locomotion="rocket"), "cards"),
    (lambda d: d["rules"].pop("kill_points"), "house rules"),
    (lambda d: d.update(players="red"), "players"),
    (lambda d: d.update(seed="seven"), "seed"),
    (lambda d: d["start"].update(rolls=[["x", 9]]), "1 to 6"),
])
def test_the_recorded_data_is_validated_as_files_are(robot_journal, tmp_path, change, words):
    path = tmp_path / "data.jsonl"
    lines = list(robot_journal)
    header = json.loads(lines[0])
    change(header)
    lines[0] = json.dumps(header, separators=(",", ":"))     # NaN written as JSON NaN
    write_resealed(path, lines)
    with pytest.raises(JournalError) as err:
        load(path)
    assert err.value.line == 1 and words in err.value.message


# --- reading limits ----------------------------------------------------------------------

def test_a_1_gb_journal_is_refused_fast_without_reading_it(tmp_path):
    path = tmp_path / "huge.jsonl"
    with path.open("wb") as fh:
        fh.truncate(1 << 30)                                 # sparse: no disk used
    started = time.process_time()
    with pytest.raises(JournalError, match="1024 MB; journals over 64 MB are refused"):
        load(path)
    assert time.process_time() - started < 0.5


@pytest.mark.parametrize("line, words", [
    ("[" * 100_000 + "]" * 100_000, "nested more than 64 levels"),
    ('{"n":' + "9" * 400 + "}", "a number of 400 characters"),
    ('{"n":1e400}', "out of range"),
    ('{"n":NaN}', "NaN is not a number"),
    ('{"n":-Infinity}', "Infinity is not a number"),
    ('{"a": "\\ud800"', "not a journal line"),
])
def test_hostile_lines_are_refused_with_a_message(robot_journal, tmp_path, line, words,
                                                  capsys):
    path = tmp_path / "hostile.jsonl"
    write_resealed(path, robot_journal[:3])
    with path.open("a", encoding="utf-8") as fh:              # no digest: checked first
        fh.write(line + "\n")
    with pytest.raises(JournalError) as err:
        load(path)
    assert err.value.line == 4
    first = tmp_path / "first.jsonl"                         # as the first line: parsed first
    first.write_text(line + "\n", encoding="utf-8")
    with pytest.raises(JournalError) as err:
        load(first)
    assert err.value.line == 1 and words in err.value.message
    assert cli_main(["replay", str(first)]) == 2
    assert "Traceback" not in capsys.readouterr().err


def test_binary_and_odd_files_are_refused(tmp_path):
    path = tmp_path / "binary.jsonl"
    path.write_bytes(b"\xff\xfe\x00garbage\n")
    with pytest.raises(JournalError, match="not UTF-8"):
        load(path)
    with pytest.raises(JournalError, match="not a regular file"):
        load(tmp_path)
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    with pytest.raises(JournalError, match="empty"):
        load(empty)
    with pytest.raises(JournalError, match="cannot read"):
        load(tmp_path / "missing.jsonl")
    long = tmp_path / "long.jsonl"
    long.write_bytes(b'{"format":"' + b"x" * (journal_file.MAX_LINE_BYTES + 10) + b'"}\n')
    with pytest.raises(JournalError, match="longer than 16 MB"):
        load(long)


# --- versions ----------------------------------------------------------------------------

def test_a_version_1_journal_still_replays(capsys):
    path = FIXTURES / "journal-v1.jsonl"
    game = load(path)
    assert len(game.history) == 29
    assert cli_main(["replay", str(path)]) == 0
    out = capsys.readouterr()
    assert "journal version 1, written before line digests" in out.err
    assert "replayed 29 actions" in out.out


def test_a_version_1_journal_resumes_in_version_1(tmp_path):
    from bottisota.engine.random_play import random_action
    from bottisota.play.journal import resume

    path = tmp_path / "old.jsonl"
    path.write_bytes((FIXTURES / "journal-v1.jsonl").read_bytes())
    game = resume(path)
    assert game.act(random_action(game, random.Random(2))).ok
    game.journal.close()
    last = json.loads(path.read_text().splitlines()[-1])
    assert "digest" not in last
    assert state_digest(load(path).state) == state_digest(game.state)


def _bot_ids(game):
    return [b.id for b in game.state.bots.values()]


def test_a_version_2_journal_replays_and_resumes_with_its_shared_numbering(tmp_path):  # R55 R56
    # written before bot ids were counted per player: 'aggressive' drew second and got
    # aggressive-2, and sniper's second bot is sniper-3; replayed, it must stay so
    path = FIXTURES / "journal-v2.jsonl"
    game = load(path)
    assert _bot_ids(game) == ["sniper-1", "aggressive-2", "sniper-3"]
    assert not game.state.ids_per_player
    assert state_digest(load(path, verify=False).state) == state_digest(game.state)
    copy = tmp_path / "old.jsonl"
    copy.write_bytes(path.read_bytes())
    resumed = __import__("bottisota.play.journal", fromlist=["resume"]).resume(copy)
    assert resumed.journal.version == 2 and not resumed.state.ids_per_player
    assert state_digest(resumed.state) == state_digest(game.state)
    resumed.journal.close()


def _both_drawn(catalogue, seed, path=None, **kw):
    """A seeded game on the duel arena (journaled to `path`, if given), played at
    random until both players have drawn a bot."""
    from bottisota.engine.game import Game
    from bottisota.engine.random_play import random_action
    from bottisota.formats.content import arenas_dir
    from bottisota.formats.loading import load_arena

    cards, mods = catalogue
    game = Game.new(load_arena(arenas_dir() / "duel.yaml"), bundled_rules(), cards, mods,
                    ["red", "blue"], seed=seed, **kw)
    if path is not None:
        journal_game(game, path)
    rng = random.Random(seed)
    while len({b.player for b in game.state.bots.values()}) < 2:
        assert game.act(random_action(game, rng)).ok
    if path is not None:
        game.journal.close()
    return game


def test_a_new_game_numbers_each_players_bots_from_1(catalogue, tmp_path):  # R6 R55 R56
    from bottisota.play.journal import VERSION

    path = tmp_path / "new.jsonl"
    game = _both_drawn(catalogue, SEED_BLUE_FIRST, path)
    assert _bot_ids(game) == ["blue-1", "red-1"]           # blue started; red's first: red-1
    # the numbering of journals before version 3 (one counter) would have said red-2
    old = _both_drawn(catalogue, SEED_BLUE_FIRST, ids_per_player=False)
    assert _bot_ids(old) == ["blue-1", "red-2"]
    assert json.loads(path.read_text().splitlines()[0])["version"] == VERSION == 3
    replayed = load(path)
    assert replayed.state.ids_per_player and _bot_ids(replayed) == _bot_ids(game)
    assert state_digest(replayed.state) == state_digest(game.state)


SEED_BLUE_FIRST = 1


def test_an_unknown_version_is_refused_naming_it(robot_journal, tmp_path):
    path = tmp_path / "future.jsonl"
    write_resealed(path, edit(robot_journal, 1, lambda d: d.update(version=7)))
    with pytest.raises(JournalError) as err:
        load(path)
    assert err.value.line == 1
    assert "journal version 7; this referee reads versions 1, 2, 3" in err.value.message


def test_not_a_journal(tmp_path):
    path = tmp_path / "other.jsonl"
    path.write_text('{"hello": "world"}\n')
    with pytest.raises(JournalError, match="not a Bottisota journal"):
        load(path)


def test_what_the_reader_would_refuse_is_never_written(catalogue, duel, tmp_path):
    from dataclasses import replace

    from bottisota.core.errors import JournalWriteError
    from bottisota.engine.game import Game

    cards, mods = catalogue
    huge = {k: (replace(c, structure=10 ** 300) if k == "scout" else c)
            for k, c in cards.items()}
    game = Game.new(duel, bundled_rules(), huge, mods, ["red", "blue"], seed=1)
    with pytest.raises(JournalWriteError, match="a number of 301 characters"):
        journal_game(game, tmp_path / "huge.jsonl")
    assert not (tmp_path / "huge.jsonl").exists()
