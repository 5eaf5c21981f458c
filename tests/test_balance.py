"""The balance report that decides (issue 33): card ratings by a Bradley–Terry model,
Holm-corrected flags, mirror-seeded pairs, --until-decided, sweeps and a Dask cluster."""
from __future__ import annotations

import argparse
import math
import os
import random
import re

import pytest

from bottisota.cli import main as cli_main
from bottisota.commands import simulate as simulate_command
from bottisota.formats.loading import load_catalogue
from bottisota.robot import rating, simulate, sweep
from bottisota.robot.stats import GameRecord, Tally

CARDS = ["ace", "bolt", "cog", "dent", "echo", "flop"]
TRUE = {"ace": 1.6, "bolt": 0.0, "cog": 0.0, "dent": 0.0, "echo": 0.0, "flop": -1.6}


def modelled_games(n: int, seed: int) -> list[GameRecord]:
    """Two-seat games drawn from the model itself: each side fields one or two cards,
    the aggressive side is 0.5 stronger, the starting seat 0.2; the better side wins."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        seats = {"a": "aggressive", "s": "sniper"}
        fielded = {p: rng.sample(CARDS, rng.choice((1, 2))) for p in seats}
        first = rng.choice(list(seats))

        def strength(p: str, fielded=fielded, first=first) -> float:
            return (sum(TRUE[c] for c in fielded[p]) + (0.5 if p == "a" else 0.0)
                    + (0.2 if p == first else 0.0))

        p_a = 1 / (1 + math.exp(-(strength("a") - strength("s"))))
        winner = "a" if rng.random() < p_a else "s"
        r = GameRecord(seed=i, rounds=10, winners=[winner], seats=seats, first=first,
                       points={winner: 1, ("s" if winner == "a" else "a"): 0})
        r.players = {p: Tally(bots=len(fielded[p])) for p in seats}
        r.cards = [(c, p, Tally(bots=1)) for p in seats for c in fielded[p]]
        out.append(r)
    return out


def test_holm_rejects_step_down_and_stops_at_the_first_kept():
    # sorted 0.005 <= 0.05/4, 0.01 <= 0.05/3, 0.03 > 0.05/2: stop; 0.04 is kept too
    assert rating.holm([0.01, 0.04, 0.03, 0.005]) == [True, False, False, True]
    assert rating.holm([0.2, 0.3]) == [False, False]
    # Bonferroni would keep 0.02 of two (0.02 > 0.025? no: rejected); Holm's second step
    # compares 0.04 with 0.05/1
    assert rating.holm([0.02, 0.04]) == [True, True]


def test_ratings_find_the_strong_and_the_weak_card_and_hold_the_personality_apart():
    ratings = rating.rate(modelled_games(3000, seed=5), margin=10)
    by = {c.card: c for c in ratings.cards}
    assert ratings.flagged() == {"ace": "over", "flop": "under"}
    # the true effects against the average card (0 here) lie in the intervals
    for card, value in TRUE.items():
        assert by[card].low < value < by[card].high, card
    assert 0.3 < ratings.personalities["sniper"] * -1 < 0.7      # aggressive is +0.5
    assert 0.05 < ratings.first_seat < 0.4
    # the even cards are decided even: their intervals lie within ±10 points
    assert {c.card for c in ratings.cards if c.decision == "even"} <= {"bolt", "cog", "dent",
                                                                       "echo"}


def test_few_games_decide_nothing_rather_than_flag_by_chance():
    ratings = rating.rate(modelled_games(40, seed=1), margin=10)
    assert ratings.flagged() == {}
    assert not ratings.decided()


def test_a_draw_counts_half_and_points_then_kills_decide_the_better_result():
    # D24: most points, ties broken by kills
    r = GameRecord(seed=1, rounds=3, winners=["a", "s"], seats={"a": "x", "s": "y"},
                   points={"a": 2, "s": 2}, kill_counts={"a": 1, "s": 0})
    assert rating.outcome(r, "a", "s") == 1.0 and rating.outcome(r, "s", "a") == 0.0
    r.kill_counts = {"a": 1, "s": 1}
    assert rating.outcome(r, "a", "s") == 0.5


def test_mirrored_units_play_each_seed_twice_with_the_seats_swapped():
    assert simulate.units(4, seed=1, mirror=True) == [
        (100003, False), (100003, True), (100004, False), (100004, True)]
    assert simulate.units(3, seed=1, mirror=True)[-1] == (100004, True)     # rounded up
    assert simulate.units(2, seed=1, mirror=True, first=2) == [(100005, False),
                                                                (100005, True)]
    assert simulate.units(2, seed=2, mirror=False) == [(200006, False), (200007, False)]


def test_the_swapped_twin_starts_with_the_other_personality():
    # R6: the starting player is drawn by the same die; with the seats swapped it is the
    # other personality's seat
    records = simulate.run("duel", ["aggressive", "sniper"], 2, jobs=1, round_limit=1,
                           mirror=True)
    assert [r.mirrored for r in records] == [False, True]
    assert records[0].seed == records[1].seed
    assert records[0].first != records[1].first
    assert records[0].ended == "round limit 1 reached (D24)"


def args(**kw) -> argparse.Namespace:
    p = argparse.ArgumentParser()
    simulate_command.configure_parser(p)
    argv = [kw.pop("arena", "duel")]
    for key, value in kw.items():
        if value is True:
            argv.append(f"--{key.replace('_', '-')}")
        else:
            argv += [f"--{key.replace('_', '-')}", str(value)]
    return p.parse_args(argv + ["--quiet"])


def test_until_decided_plays_batches_until_every_card_is_decided(monkeypatch):
    calls = []

    class Decided:
        def __init__(self, n: int) -> None:
            self.n = n

        def decided(self) -> bool:
            return self.n >= 8

    def fake_rate(records, margin):
        calls.append(len(records))
        return Decided(len(records))

    monkeypatch.setattr(simulate_command, "rate", fake_rate)
    a = args(games=4, jobs=1, round_limit=1, until_decided=True, max_games=100)
    init = simulate.init_args("duel", ["aggressive", "sniper"], round_limit=1)
    records = simulate_command.play_games(a, init, 1, False)
    assert calls == [4, 8] and len(records) == 8
    # new seeds each batch, each played twice
    assert len({r.seed for r in records}) == 4
    calls.clear()
    a = args(games=4, jobs=1, round_limit=1, until_decided=True, max_games=6)
    assert len(simulate_command.play_games(a, init, 1, False)) == 6    # the cap
    a = args(games=4, jobs=1, round_limit=1)
    assert len(simulate_command.play_games(a, init, 1, False)) == 4    # no --until-decided


def test_a_sweep_parses_its_values_and_changes_only_that_number():
    catalogue, _mods = load_catalogue()
    values = sweep.parse("brawler.armour=3..5", catalogue)
    assert [o.value for o in values] == [3, 4, 5]
    changed = values[0].apply(catalogue)
    assert changed["brawler"].armour == 3 and changed["scout"] == catalogue["scout"]
    weapon = catalogue["sniper"].weapons[0].name
    ranged = sweep.parse(f"sniper.{weapon}.range=30..50:10", catalogue)
    assert [o.value for o in ranged] == [30, 40, 50]
    assert ranged[1].apply(catalogue)["sniper"].weapons[0].range == 40


@pytest.mark.parametrize("text, words", [
    ("brawlr.armour=3..5", "did you mean 'brawler'"),
    ("brawler.armor=3..5", "did you mean 'armour'"),
    ("brawler.armour=5..3", "A at most B"),
    ("brawler.armour=3..4:0.5", "whole number"),
    ("brawler.armour", "expected CARD.KEY=A..B"),
    ("brawler.move=1..1000:1", "at most 50"),
])
def test_a_bad_sweep_is_one_message_and_exit_code_2(text, words, capsys):
    assert cli_main(["simulate", "duel", "--games", "1", "--sweep", text, "--quiet"]) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err


def test_a_sweep_reports_the_card_at_every_value(capsys):
    code = cli_main(["simulate", "duel", "--games", "2", "--jobs", "1", "--round-limit", "1",
                     "--sweep", "brawler.structure=4..5", "--quiet"])
    out = capsys.readouterr().out
    assert code == 0
    assert "sweep of brawler" in out
    assert re.search(r"^\s+4 +2 ", out, re.M) and re.search(r"^\s+5 +2 ", out, re.M)


def test_the_report_explains_its_columns_and_why_games_were_drawn():
    records = simulate.run("duel", ["aggressive", "sniper"], 4, jobs=1, round_limit=1,
                           mirror=True)
    text = simulate_command.report(records)
    assert "range: the median distance in cm" in text
    assert "card × personality" in text and "card × card" in text
    assert "2 seeds played twice" in text
    drawn = sum(1 for r in records if len(r.winners) != 1)
    if drawn:
        assert re.search(r"drawn: \d+ × round limit 1 reached \(D24\)", text)


def tables_of(text: str) -> str:
    """The report without its timings (slowest decision, games per second)."""
    return "\n".join(line for line in text.splitlines()
                     if "slowest decision" not in line)


def test_a_local_dask_cluster_gives_the_same_tables_as_a_local_run(capsys):
    distributed = pytest.importorskip("distributed", reason="the cluster extra is not installed")
    argv = ["simulate", "duel", "--games", "6", "--round-limit", "2", "--quiet"]
    assert cli_main(argv + ["--jobs", "1"]) == 0
    local = capsys.readouterr().out
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        assert cli_main(argv + ["--cluster", cluster.scheduler_address]) == 0
    remote = capsys.readouterr().out
    assert tables_of(remote) == tables_of(local)
    assert "6 games" in local


def test_no_scheduler_at_the_address_is_one_message(capsys):
    pytest.importorskip("distributed", reason="the cluster extra is not installed")
    assert cli_main(["simulate", "duel", "--games", "2", "--quiet",
                     "--cluster", "tcp://127.0.0.1:9"]) == 2
    err = capsys.readouterr().err
    assert "no Dask scheduler answers at tcp://127.0.0.1:9" in err and "Traceback" not in err


@pytest.mark.skipif(not (os.environ.get("CI") or os.environ.get("BOTTISOTA_LONG_TESTS")),
                    reason="long: two --until-decided runs on the bundled deck "
                           "(CI=true or BOTTISOTA_LONG_TESTS=1)")
def test_until_decided_runs_with_two_seeds_never_contradict_each_other():
    # Two seeds' decisions on the bundled deck (warehouse, 10 rounds): a card decided in
    # both runs is decided the same way, and no card is flagged in one run and found even
    # in the other. (A card whose strength lies at the margin can stay undecided in one
    # run at the cap and be flagged in the other: measured in the note.)
    decisions = []
    for seed in (1, 2):
        a = args(arena="warehouse", games=1000, jobs=2, seed=seed, until_decided=True,
                 max_games=8000)
        init = simulate.init_args("warehouse", ["aggressive", "sniper"])
        records = simulate_command.play_games(a, init, 2, False)
        decisions.append({c.card: c.decision for c in rating.rate(records, a.margin).cards})
    one, two = decisions
    for card in one:
        if one[card] and two[card]:
            assert one[card] == two[card], card
    assert sum(1 for c in one if one[c] and two[c]) >= 3


def test_a_card_row_gives_the_median_range_its_bots_fired_at():
    from bottisota.robot.stats import card_rows

    games = modelled_games(40, seed=2)
    for g in games:
        g.card_ranges = {}
    games[0].card_ranges = {"ace": [10.0, 30.0]}
    games[1].card_ranges = {"ace": [14.0]}
    rows = {row.label: row for row in card_rows(games)}
    assert rows["ace"].median_range == 14.0
    assert rows["bolt"].median_range is None          # never fired: "-" in the table
