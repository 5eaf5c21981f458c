"""`play` takes the house rules as `simulate` does (--rules, --set, --content, arenas
by name) and --rounds N (= --set round_limit=N, D24); the ending names the result in
words: a win, a win on the tiebreak, or a draw (never "red and blue win")."""
from __future__ import annotations

import argparse

import pytest

from bottisota import cli
from bottisota.commands.play import configure_parser, game_rules
from bottisota.core.errors import InputError
from bottisota.formats.content import arenas_dir


def parsed(*argv: str) -> argparse.Namespace:
    p = argparse.ArgumentParser()
    configure_parser(p)
    return p.parse_args(list(argv))


def test_rounds_rules_and_sets_make_the_game_s_rules(tmp_path):  # D24
    rules = game_rules(parsed("--rounds", "3", "--set", "belt_speed=3"))
    assert (rules.round_limit, rules.belt_speed) == (3, 3)
    assert game_rules(parsed("--set", "round_limit=5")).round_limit == 5
    (tmp_path / "house.yaml").write_text("round_limit: 7\n")
    assert game_rules(parsed("--rules", str(tmp_path / "house.yaml"))).round_limit == 7
    with pytest.raises(InputError):
        game_rules(parsed("--resume", "g.jsonl", "--rounds", "2"))
    with pytest.raises(InputError):
        game_rules(parsed("--rounds", "0"))


def test_play_finds_an_arena_by_name_in_the_content_folders_and_ends_at_the_round_limit(
        tmp_path, capsys, monkeypatch):  # D24
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    (tmp_path / "content" / "arenas").mkdir(parents=True)
    (tmp_path / "content" / "arenas" / "mini.yaml").write_text(
        (arenas_dir() / "duel.yaml").read_text())
    code = cli.main(["play", "--robot", "red,blue", "--seed", "1", "--headless", "--rounds", "2",
                     "--content", str(tmp_path / "content"), "mini"])
    out = capsys.readouterr().out
    assert code == 0
    assert "game over" in out and "round limit 2 reached" in out


def test_a_bad_round_count_is_one_message_and_exit_2(capsys):
    assert cli.main(["play", "--headless", "--rounds", "0"]) == 2
    err = capsys.readouterr().err
    assert "--rounds" in err and "Traceback" not in err


def test_a_round_limit_ending_names_the_result_in_words(tmp_path, capsys, monkeypatch):  # D24
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    cli.main(["play", "--robot", "red,blue", "--seed", "1", "--headless", "--rounds", "1",
              "duel"])
    out = capsys.readouterr().out
    assert "GAME OVER: " in out and " and blue win" not in out and " and red win" not in out


def test_the_reading_distance_is_an_option_in_metres(capsys):
    assert parsed("--distance", "4.5").distance == 4.5
    assert parsed().distance == 3.0                      # 3 m: capitals of 1.5 cm
    assert cli.main(["play", "--headless", "--distance", "0.1"]) == 2
    assert "--distance" in capsys.readouterr().err
