"""Games end by themselves (issue 28): the robots' round limit (D48), the stalemate
(D49), and a journal that stops well before a reader would refuse it."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

from bottisota.cli import main as cli_main
from bottisota.core.actions import Forward, Move, Pass, Place
from bottisota.core.dice import Dice
from bottisota.core.errors import JournalWriteError
from bottisota.engine.game import Game
from bottisota.formats.content import arenas_dir
from bottisota.formats.loading import bundled_rules
from bottisota.play import journal_file
from bottisota.play.journal import journal_game, load
from tests.test_game import GUNNER, SPARE, TABLE


def quiet_game(**rules) -> Game:
    """red (a gunner at 10,30) and blue (a gunner at 50,50), 45 cm apart behind nothing:
    both placed in round 1 (dice: red first, each draws a gunner)."""
    game = Game.new(TABLE, bundled_rules().overridden(rules), [GUNNER, SPARE], [],
                    ["red", "blue"], dice=Dice(forced=[1, 1, 1]))
    assert game.act(Place("red-1", 10, 30, 90)).ok
    assert game.act(Move("red-1", ())).ok and game.act(Pass("red-1")).ok
    assert game.act(Place("blue-1", 50, 50, 270)).ok
    assert game.act(Move("blue-1", ())).ok and game.act(Pass("blue-1")).ok
    return game


def stay_round(game: Game, forward: dict[str, float] | None = None) -> None:
    for _ in range(2):
        bot = game.active_bot()
        steps = (Forward((forward or {}).get(bot.player, 0.0)),) \
            if (forward or {}).get(bot.player) else ()
        assert game.act(Move(bot.id, steps)).ok
        assert game.act(Pass(bot.id)).ok


def test_three_quiet_rounds_end_the_game_as_a_draw():  # D49
    game = quiet_game(stalemate_rounds=3)
    assert game.state.round == 2 and game.state.quiet_since == 1
    stay_round(game)
    stay_round(game)
    assert not game.state.over and game.state.round == 4
    stay_round(game)                      # rounds 2, 3 and 4 with nothing done
    assert game.state.over
    over = game.history[-1].events[-1]
    assert over["type"] == "game_over" and over["winners"] == []
    assert "3 rounds (D49)" in over["reason"]


def test_a_move_starts_the_quiet_count_again():  # D49
    game = quiet_game(stalemate_rounds=3)
    stay_round(game)
    stay_round(game, {"red": 1.0})        # round 3: red goes forward 1 cm
    assert game.state.quiet_since == 3
    stay_round(game)
    stay_round(game)
    assert not game.state.over
    stay_round(game)                      # rounds 4, 5, 6 quiet
    assert game.state.over and game.state.round == 6


def test_no_stalemate_rule_plays_on():  # D49 null: never
    game = quiet_game(stalemate_rounds=None)
    for _ in range(12):
        stay_round(game)
    assert not game.state.over and game.state.round == 14


def test_a_stalemate_replays_from_its_journal(tmp_path):  # D49 D8
    game = quiet_game(stalemate_rounds=2)
    path = tmp_path / "quiet.jsonl"
    replayed_game = Game.new(TABLE, game.state.rules, [GUNNER, SPARE], [], ["red", "blue"],
                             dice=Dice(forced=[1, 1, 1]))
    journal_game(replayed_game, path)
    for entry in game.history:
        assert replayed_game.act(entry.action).ok
    stay_round(replayed_game)
    stay_round(replayed_game)
    replayed_game.journal.close()
    assert replayed_game.state.over
    assert load(path).state.over


def test_robots_only_rules_take_the_robots_round_limit():  # D48
    rules = bundled_rules()
    assert rules.round_limit is None and rules.robot_round_limit == 60
    assert rules.for_robots_only().round_limit == 60
    assert rules.overridden({"round_limit": 7}).for_robots_only().round_limit == 7
    assert rules.overridden({"robot_round_limit": None}).for_robots_only().round_limit is None


def test_a_robots_only_headless_game_ends_by_itself(tmp_path, monkeypatch, capsys):  # D48 D49
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert cli_main(["play", "duel", "--robot", "red,blue", "--headless", "--seed", "3"]) == 0
    assert "GAME OVER" in capsys.readouterr().out
    journal = next((tmp_path / "bottisota" / "games").glob("*.jsonl"))
    assert load(journal).state.over
    header = json.loads(journal.read_text().splitlines()[0])
    assert header["rules"]["round_limit"] == 60          # D48, recorded for the replay


@pytest.mark.skipif(not (os.environ.get("CI") == "true"
                         or os.environ.get("BOTTISOTA_LONG_TESTS") == "1"),
                    reason="long: 60 games (CI=true or BOTTISOTA_LONG_TESTS=1)")
@pytest.mark.parametrize("arena", sorted(p.stem for p in arenas_dir().glob("*.yaml")))
def test_robots_only_games_end_on_every_bundled_arena_for_20_seeds(arena, tmp_path):  # D48 D49
    # each game a `bottisota play` process of its own, as many at once as the machine
    # has cores (the games are independent; one at a time took 13 minutes of CI)
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path), SDL_VIDEODRIVER="dummy",
               SDL_AUDIODRIVER="dummy")
    code = "import sys; from bottisota.cli import main; sys.exit(main(sys.argv[1:]))"
    run_in = tmp_path / "run"                  # not beside the data folder's `bottisota`
    run_in.mkdir()

    def game(seed: int) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-c", code, "play", arena, "--robot", "red,blue",
                               "--headless", "--seed", str(seed)], env=env, cwd=run_in,
                              capture_output=True, text=True, timeout=900)

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        done = list(pool.map(game, range(20)))
    assert [(d.returncode, d.stderr[-500:]) for d in done] == [(0, "")] * 20
    games = [load(j) for j in (tmp_path / "bottisota" / "games").glob("*.jsonl")]
    assert len(games) == 20
    assert all(g.state.over and g.state.round <= 60 for g in games)    # D48 at the latest
    ended = [g.history for g in games]
    last = [next(e for e in entries[-1].events if e["type"] == "game_over")
            for entries in ended]            # the last action ends each game
    # the robots fight: bots are destroyed in every game, and most end with a winner
    assert all(any(e["type"] == "destroyed" for entry in entries for e in entry.events)
               for entries in ended)
    assert sum(1 for e in last if e["winners"]) >= 15


def test_a_journal_stops_well_before_the_readers_limit(tmp_path, monkeypatch):
    monkeypatch.setattr(journal_file, "FULL_JOURNAL_BYTES", 40_000)
    assert journal_file.FULL_JOURNAL_BYTES < journal_file.MAX_JOURNAL_BYTES
    game = quiet_game(stalemate_rounds=None)
    path = tmp_path / "long.jsonl"
    fresh = Game.new(TABLE, game.state.rules, [GUNNER, SPARE], [], ["red", "blue"],
                     dice=Dice(forced=[1, 1, 1]))
    journal_game(fresh, path)
    for entry in game.history:
        fresh.act(entry.action)
    with pytest.raises(JournalWriteError) as full:
        for _ in range(1000):
            stay_round(fresh)
    fresh.journal.close()
    assert "the most one game writes" in str(full.value)
    assert path.stat().st_size <= 40_000
    assert load(path).state.round == fresh.state.round      # game and journal agree
