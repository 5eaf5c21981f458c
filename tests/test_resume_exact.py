"""A resumed robot game goes on exactly as the uninterrupted one (issue 28): cut at any
line boundary or mid-line (a kill -9 or a full disk), resumed and played to the end,
its journal is byte for byte the one the game wrote without a stop (D8)."""
from __future__ import annotations

import json
import random

import pytest

from bottisota.cli import main as cli_main
from bottisota.core.errors import JournalError
from bottisota.formats.loading import bundled_rules
from bottisota.formats.robot_tables import find_personality
from bottisota.play.journal import journal_to, resume
from bottisota.robot.match import _loop, _Tracker, play
from bottisota.robot.player import Robot
from bottisota.robot.stats import GameRecord
from tests.test_journal import write_resealed

NAMES = ("aggressive", "sniper")
ACTIONS = 60


def _whole_game(catalogue, duel, path) -> bytes:
    cards, mods = catalogue
    record = play(duel, bundled_rules(), cards, mods, [find_personality(n) for n in NAMES],
                  seed=11, round_limit=None, max_actions=ACTIONS, on_start=journal_to(path))
    assert record.refusals == [] and record.errors == []
    return path.read_bytes()


def _resumed_to_the_end(path, actions_done: int) -> None:
    game = resume(path)
    robots = {p: Robot(p, find_personality(p)) for p in NAMES}     # seats named so
    for r in robots.values():
        r.peers = robots
    record = GameRecord(seed=11, rounds=0, winners=[], seats={})
    try:
        _loop(game, robots, _Tracker(game), record, ACTIONS - actions_done)
    finally:
        game.journal.close()
    assert record.refusals == []


@pytest.fixture(scope="module")
def whole(catalogue, duel, tmp_path_factory) -> bytes:
    return _whole_game(catalogue, duel, tmp_path_factory.mktemp("whole") / "game.jsonl")


def _cuts(data: bytes, count: int) -> list[int]:
    """`count` cut points after the header: every kind (a line boundary, mid-line),
    drawn by a seeded generator."""
    header_end = data.index(b"\n") + 1
    ends = [i + 1 for i, b in enumerate(data) if b == 10 and i + 1 > header_end]
    rng = random.Random(28)
    boundaries = rng.sample(ends[:-1], min(count // 2, len(ends) - 1))
    middles = [rng.randrange(header_end + 1, len(data) - 1) for _ in range(count
                                                                           - len(boundaries))]
    return sorted(set(boundaries + middles))


def test_a_robot_game_resumed_at_50_moments_goes_on_byte_identically(whole, tmp_path):  # D8
    cuts = _cuts(whole, 50)
    assert len(cuts) >= 45
    for k, cut in enumerate(cuts):
        path = tmp_path / f"cut-{k}.jsonl"
        path.write_bytes(whole[:cut])
        kept = whole[:cut].rfind(b"\n") + 1          # the torn line is cut on resume
        actions = sum(1 for line in whole[:kept].splitlines()[1:] if b'"n":' in line)
        _resumed_to_the_end(path, actions)
        line = whole[:cut].count(b"\n") + 1
        assert path.read_bytes() == whole, f"resumed after byte {cut} (line {line})"


def test_resumed_right_after_every_robot_move_the_shot_is_the_planned_one(whole, tmp_path):
    """The gap the issue found: killed between a robot's move line and its shoot line,
    the resumed robot shoots by the decision journaled with its move (no new roll)."""  # D8
    lines = whole.splitlines(keepends=True)
    moves = [k for k, line in enumerate(lines) if k and b'"move":[' in line[:200]]
    assert len(moves) >= 5
    for k in moves[:8]:
        cut = sum(map(len, lines[:k + 1]))
        path = tmp_path / f"move-{k}.jsonl"
        path.write_bytes(whole[:cut])
        _resumed_to_the_end(path, k)
        assert path.read_bytes() == whole, f"resumed after line {k + 1}"


def _edited(whole: bytes, line: int, change) -> list[dict]:
    lines = [json.loads(text) for text in whole.decode().splitlines()]
    change(lines[line])
    return lines


def _every_card(key: str, by):
    def change(header: dict) -> None:
        for card in header["cards"]:
            card[key] += by
    return change


def _every_range(header: dict) -> None:
    """Every weapon's range cut to 3 cm: the shots the game made no longer reach."""
    for card in header["cards"]:
        for weapon in card.get("weapons", ()):
            weapon["range"] = 3.0


def _first_move_further(whole: bytes) -> tuple[int, object]:
    for k, text in enumerate(whole.decode().splitlines()):
        data = json.loads(text)
        steps = data.get("action", {}).get("move")
        if steps and isinstance(steps[0], dict) and "forward" in steps[0]:
            def change(line: dict) -> None:
                line["action"]["move"][0]["forward"] += 1.0
            return k, change
    raise AssertionError("no forward step in the game")


@pytest.mark.parametrize("what", ["armour", "structure", "range", "action"])
def test_an_edited_and_resealed_journal_is_refused_on_resume(whole, tmp_path, what):  # D8
    if what == "action":
        line, change = _first_move_further(whole)
    else:
        line = 0
        change = _every_range if what == "range" else \
            _every_card(what, 1 if what == "armour" else 5)
    path = tmp_path / "edited.jsonl"
    write_resealed(path, _edited(whole, line, change))
    with pytest.raises(JournalError) as refused:
        resume(path).journal.close()
    assert refused.value.line >= max(line + 1, 1)
    code = cli_main(["play", "--resume", str(path), "--headless"])
    assert code == 2
