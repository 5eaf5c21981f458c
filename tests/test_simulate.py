"""`bottisota simulate`: the report, its statistics, the chart and the CLI."""
from __future__ import annotations

import argparse
import statistics

import pygame
import pytest

from bottisota.cli import main as cli_main
from bottisota.commands import simulate as simulate_command
from bottisota.robot import simulate
from bottisota.robot.stats import GameRecord, Tally, card_rows, personality_rows, wilson
from bottisota.view.chart import draw_chart


def test_wilson_interval_matches_the_textbook_values():
    # 5 of 10: 0.2366-0.7634; 0 of 10: 0-0.2775; 10 of 10: 0.7225-1
    assert tuple(round(v, 4) for v in wilson(5, 10)) == (0.2366, 0.7634)
    assert tuple(round(v, 4) for v in wilson(0, 10)) == (0.0, 0.2775)
    assert tuple(round(v, 4) for v in wilson(10, 10)) == (0.7225, 1.0)
    assert wilson(0, 0) == (0.0, 0.0)


def record(seed: int, winners: list[str]) -> GameRecord:
    r = GameRecord(seed=seed, rounds=5, winners=winners, seats={"a": "aggressive", "s": "sniper"})
    r.players = {"a": Tally(kills=1, dealt=4, taken=2, rounds=5, bots=1),
                 "s": Tally(kills=0, dealt=2, taken=4, rounds=5, bots=1)}
    r.cards = [("rammer", "a", Tally(1, 4, 2, 5, 1)), ("sniper", "s", Tally(0, 2, 4, 5, 1))]
    r.ranges = {"aggressive": [4.0, 6.0], "sniper": [20.0]}
    return r


def test_rows_count_outright_wins_only_and_average_the_tallies():
    # D24: a shared first place is not a win
    records = [record(1, ["a"]), record(2, ["a", "s"]), record(3, ["s"])]
    agg, sni = personality_rows(records)
    assert (agg.label, agg.n, agg.wins, agg.kills, agg.dealt, agg.taken, agg.rounds) == \
        ("aggressive", 3, 1, 1.0, 4.0, 2.0, 5.0)
    assert (sni.wins, sni.median_range) == (1, 20.0)
    assert agg.median_range == 5.0
    cards = {row.label: row for row in card_rows(records)}
    assert cards["rammer"].wins == 1 and cards["rammer"].n == 3


def test_the_chart_is_a_png_with_one_bar_per_row(tmp_path):
    rows = personality_rows([record(1, ["a"]), record(2, ["a"])])
    out = draw_chart(tmp_path / "chart.png", [("personality", rows)], title="test")
    image = pygame.image.load(str(out))
    assert image.get_width() == 1440
    # aggressive won 2 of 2: its bar runs the full width of the track (sky blue)
    from bottisota.view.chart import BAR, BAR_W, LABEL_W, MARGIN
    y = [yy for yy in range(image.get_height())
         if image.get_at((MARGIN + LABEL_W + 2, yy))[:3] == BAR]
    assert y, "no bar drawn"
    assert image.get_at((MARGIN + LABEL_W + BAR_W - 2, y[0]))[:3] == BAR


def args(**kw) -> argparse.Namespace:
    p = argparse.ArgumentParser()
    simulate_command.configure_parser(p)
    argv = [kw.pop("arena", "duel")]
    for key, value in kw.items():
        argv += [f"--{key.replace('_', '-')}", str(value)]
    return p.parse_args(argv + ["--quiet"])


def test_simulate_prints_both_tables_and_writes_the_chart(tmp_path, capsys):
    out = tmp_path / "balance.png"
    code = simulate_command.main(args(games=3, jobs=1, round_limit=3, output=out))
    printed = capsys.readouterr().out
    assert code == 0
    assert "aggressive" in printed and "sniper" in printed and "bot card" in printed
    assert "3 games" in printed and "0 refused actions" in printed
    assert out.is_file() and pygame.image.load(str(out)).get_height() > 100


def test_results_do_not_depend_on_the_number_of_jobs():
    one = simulate.run("duel", ["aggressive", "sniper"], 4, jobs=1, round_limit=3)
    two = simulate.run("duel", ["aggressive", "sniper"], 4, jobs=2, round_limit=3)
    assert [(r.seed, r.winners, r.rounds) for r in one] == \
        [(r.seed, r.winners, r.rounds) for r in two]


@pytest.mark.parametrize("argv, words", [
    (["simulate", "no-such-arena", "--games", "1"], "no such arena"),
    (["simulate", "duel", "--robots", "aggressive,nobody", "--games", "1"],
     "no such robot personality"),
    (["simulate", "duel", "--robots", "aggressive"], "at least two personalities"),
    (["simulate", "duel", "--locomotion", "rollerskates"], "no bot card is left"),
])
def test_bad_input_is_one_message_and_exit_code_2(argv, words, capsys):
    assert cli_main(argv) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err


def test_sniper_fights_from_further_off_than_aggressive():
    # issue 7: the sniper's median engagement range is at least 1.5x the aggressive one's
    records = simulate.run("warehouse", ["aggressive", "sniper"], 40, jobs=1, seed=7,
                           round_limit=10)
    ranges = {name: [] for name in ("aggressive", "sniper")}
    for r in records:
        for name, values in r.ranges.items():
            ranges[name].extend(values)
    ratio = statistics.median(ranges["sniper"]) / statistics.median(ranges["aggressive"])
    print(f"median ranges: aggressive {statistics.median(ranges['aggressive']):.1f} cm, "
          f"sniper {statistics.median(ranges['sniper']):.1f} cm, ratio {ratio:.2f}")
    assert ratio >= 1.5


def test_scavenger_collects_more_goal_points_than_aggressive():
    # D23 goal markers: the scavenger's tables send it after them; over 20 games it
    # scores at least three times the aggressive robot's goal points
    from bottisota.robot.stats import personality_rows

    rows = {row.label: row for row in personality_rows(
        simulate.run("warehouse", ["aggressive", "scavenger"], 20, jobs=1, seed=3,
                     round_limit=10))}
    print(f"goal points a game: aggressive {rows['aggressive'].goals:.2f}, "
          f"scavenger {rows['scavenger'].goals:.2f}")
    assert rows["scavenger"].goals >= 3 * rows["aggressive"].goals
    assert rows["scavenger"].goals >= 1.0


def test_draws_and_losses_are_counted_beside_wins():
    # D24: a shared first place is a draw for those who share it, a loss for the rest
    records = [record(1, ["a"]), record(2, ["a", "s"]), record(3, ["s"]), record(4, ["a", "s"])]
    agg, _sni = personality_rows(records)
    assert (agg.wins, agg.draws, agg.losses) == (1, 2, 1)
    assert "draw %" in simulate_command.report(records).splitlines()[0]
    assert "(2 drawn: no sole winner)" in simulate_command.report(records)


def dominated(n: int) -> list[GameRecord]:
    """n games where the rammer's side wins 9 in 10; the rammer changes sides every
    game, so the personality does not explain it."""
    out = []
    for i in range(n):
        rammer_side = "a" if i % 2 else "s"
        other = "s" if rammer_side == "a" else "a"
        r = record(i, [rammer_side] if i % 10 else [other])
        r.cards = [("rammer", rammer_side, Tally(1, 4, 2, 5, 1)),
                   ("sniper", other, Tally(0, 2, 4, 5, 1))]
        r.points = {p: (1 if p in r.winners else 0) for p in ("a", "s")}
        out.append(r)
    return out


def test_a_card_clear_of_the_rest_is_flagged_in_the_table_and_chart(tmp_path):
    from bottisota.robot.rating import rate
    from bottisota.robot.stats import ranking_note

    rows = {row.label: row for row in
            simulate_command.decided_rows(card_rows(dominated(60)), rate(dominated(60)))}
    assert rows["rammer"].flag == "over" and rows["sniper"].flag == "under"
    text = simulate_command.report(dominated(60))
    assert "OVER-powered: rammer wins" in text and "UNDER-powered: sniper" in text
    even = [record(i, ["a"] if i % 2 else ["s"]) for i in range(20)]
    close = simulate_command.decided_rows(card_rows(even), rate(even))
    assert all(row.flag == "" for row in close)
    assert "too wide to rank; about" in ranking_note(close, 20)
    assert "narrow enough" in ranking_note(card_rows(dominated(2000)), 2000)
    image = pygame.image.load(str(draw_chart(tmp_path / "c.png", [("card", list(rows.values()))],
                                             "t")))
    from bottisota.view.chart import FLAGGED

    colours = {tuple(image.get_at((x, y)))[:3] for x in range(0, image.get_width(), 3)
               for y in range(0, image.get_height(), 3)}
    assert FLAGGED["over"] in colours and FLAGGED["under"] in colours


def test_games_needed_for_five_points():
    from bottisota.robot.stats import games_for

    assert games_for(0.5) == 385          # 1.96² x 0.25 / 0.05²


def test_journals_of_chosen_games_are_kept_and_replay(tmp_path, capsys):
    from bottisota.play.journal import load

    folder = tmp_path / "journals"
    code = cli_main(["simulate", "duel", "--games", "3", "--jobs", "1", "--round-limit", "2",
                     "--journals", str(folder), "--keep", "2", "--quiet"])
    assert code == 0
    kept = sorted(folder.iterdir())
    assert [p.name for p in kept] == ["game-100003-swapped.jsonl", "game-100003.jsonl"]
    assert "kept 2 journals" in capsys.readouterr().out
    game = load(kept[0])
    assert game.state.round >= 1
    code = cli_main(["simulate", "duel", "--games", "2", "--jobs", "1", "--round-limit", "1",
                     "--journals", str(folder), "--keep", "bad", "--quiet"])
    assert code == 2


def test_worst_games_are_the_broken_then_the_one_sided():
    games = dominated(8)
    games[3].refusals.append("round 2: a robot bug")
    assert [r.seed for r in simulate.worst_games(games)] == [3]
    assert len(simulate.worst_games(dominated(8), 5)) == 5


def test_robot_simulate_does_not_import_the_chart():
    import ast
    from pathlib import Path

    source = Path(simulate.__file__).read_text()
    names = {n.module for n in ast.walk(ast.parse(source)) if isinstance(n, ast.ImportFrom)}
    assert not any(n and (n.startswith("bottisota.view") or n == "pygame") for n in names)
