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


def modelled_game(rng: random.Random, i: int, true: dict[str, float]) -> GameRecord:
    """A two-seat game drawn from the model itself: each side fields one or two cards
    (true: their strengths), the aggressive side is 0.5 stronger, the starting seat
    0.2; the better side wins."""
    seats = {"a": "aggressive", "s": "sniper"}
    fielded = {p: rng.sample(list(true), rng.choice((1, 2))) for p in seats}
    first = rng.choice(list(seats))

    def strength(p: str) -> float:
        return (sum(true[c] for c in fielded[p]) + (0.5 if p == "a" else 0.0)
                + (0.2 if p == first else 0.0))

    p_a = 1 / (1 + math.exp(-(strength("a") - strength("s"))))
    winner = "a" if rng.random() < p_a else "s"
    r = GameRecord(seed=i, rounds=10, winners=[winner], seats=seats, first=first,
                   points={winner: 1, ("s" if winner == "a" else "a"): 0})
    r.players = {p: Tally(bots=len(fielded[p])) for p in seats}
    r.cards = [(c, p, Tally(bots=1)) for p in seats for c in fielded[p]]
    return r


def modelled_games(n: int, seed: int) -> list[GameRecord]:
    rng = random.Random(seed)
    return [modelled_game(rng, i, TRUE) for i in range(n)]


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
    enough = [8]                # games at which every card counts as decided

    class Decided:
        def __init__(self, n: int) -> None:
            self.n = n

        def decided(self) -> bool:
            return self.n >= enough[0]

    def fake_rate(records, margin, zone, alpha=rating.ALPHA, final=False):
        calls.append((len(records), final))
        return Decided(len(records))

    monkeypatch.setattr(simulate_command, "rate", fake_rate)
    a = args(games=4, jobs=1, round_limit=1, until_decided=True, max_games=100)
    init = simulate.init_args("duel", ["aggressive", "sniper"], round_limit=1)
    records = simulate_command.play_games(a, init, 1, False).records
    assert calls == [(4, False), (8, False)] and len(records) == 8
    # new seeds each batch, each played twice
    assert len({r.seed for r in records}) == 4
    calls.clear()
    a = args(games=4, jobs=1, round_limit=1, until_decided=True, max_games=6)
    assert len(simulate_command.play_games(a, init, 1, False).records) == 6    # the cap
    assert calls[-1] == (6, True)                     # the last look
    a = args(games=4, jobs=1, round_limit=1)
    assert len(simulate_command.play_games(a, init, 1, False).records) == 4  # no --until-decided
    # the games double from look to look
    enough[0] = 16
    calls.clear()
    a = args(games=4, jobs=1, round_limit=1, until_decided=True, max_games=100)
    simulate_command.play_games(a, init, 1, False)
    assert [n for n, _final in calls] == [4, 8, 16]


# Verdicts that do not depend on the seed. A deck drawn from the model, no games
# played: a card far over the margin, one far under, two inside it and two exactly at
# it (+-10 points: log-odds 0.405). `--until-decided` runs it from 8 seeds.
AT_MARGIN = rating.margin_logit(rating.DEFAULT_MARGIN)
DECK = {"over": 1.2, "under": -1.2, "even1": 0.0, "even2": 0.0,
        "edge": AT_MARGIN, "edge_under": -AT_MARGIN}


class ModelledRunner:
    """Plays a batch of units as games drawn from the model (each unit seeded by its own
    seed and seat swap, so the same unit always gives the same game)."""

    def __init__(self, true: dict[str, float]) -> None:
        self.true = true

    def __enter__(self) -> ModelledRunner:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def play(self, batch, bar=None) -> list[GameRecord]:
        return [modelled_game(random.Random(2 * seed + swapped), seed, self.true)
                for seed, swapped in batch]


def verdicts(monkeypatch, true: dict[str, float], seed: int, **options
             ) -> tuple[dict[str, str], int, rating.Ratings]:
    monkeypatch.setattr(simulate_command, "_runner", lambda *_a: ModelledRunner(true))
    a = args(games=1000, seed=seed, until_decided=True, **{"max_games": 6000, **options})
    records, ratings = simulate_command.play_games(a, (), 1, False)
    return {c.card: c.decision for c in ratings.cards}, len(records), ratings


SEEDS = range(1, 9)


def test_until_decided_gives_every_seed_the_same_verdicts(monkeypatch):
    expected = {"over": "over", "under": "under", "even1": "even", "even2": "even",
                "edge": "margin", "edge_under": "margin"}
    for seed in SEEDS:
        decided, games, ratings = verdicts(monkeypatch, DECK, seed)
        assert decided == expected, seed
        # the cards at the margin are only settled at the last look, the cap
        assert games == 6000 and ratings.final
        assert ratings.flagged() == {"over": "over", "under": "under"}


def test_a_card_at_the_margin_is_flagged_by_some_seeds_without_the_zone(monkeypatch):
    # the rule without the indifference zone (--zone 0, as before): the card exactly at
    # the margin is called even by one seed and at the margin by another
    runs = [verdicts(monkeypatch, DECK, seed, zone=0)[0] for seed in SEEDS]
    assert len({run["edge"] for run in runs} | {run["edge_under"] for run in runs}) > 1


def test_a_deck_without_a_card_at_the_margin_stops_before_the_cap(monkeypatch):
    clear = {"over": 1.2, "under": -1.2, "a": 0.0, "b": 0.0, "c": 0.0, "d": 0.0}
    for seed in (1, 2, 3):
        decided, games, ratings = verdicts(monkeypatch, clear, seed)
        assert decided == {"over": "over", "under": "under", "a": "even", "b": "even",
                           "c": "even", "d": "even"}, seed
        assert games < 6000 and not ratings.final
        # an early look spends only a share of the error rate
        assert ratings.alpha < rating.ALPHA / 2


def test_the_looks_spend_the_error_rate_little_early_and_all_of_it_by_the_cap():
    assert rating.spent(0.0) == 0.0
    assert rating.spent(1.0) == pytest.approx(rating.ALPHA)
    assert rating.spent(0.2) < 0.001 < rating.spent(0.5) < rating.spent(0.8) < rating.ALPHA
    shares = [i / 6 for i in range(7)]
    looks = [rating.look_alpha(a, b) for a, b in zip(shares, shares[1:], strict=False)]
    assert sum(looks) == pytest.approx(rating.ALPHA)
    assert looks == sorted(looks)


def test_a_card_within_the_zone_is_at_the_margin_before_the_cap_and_a_wide_one_undecided():
    games = modelled_games(3000, seed=5)
    plain = rating.rate(games, margin=10)
    assert all(c.decision != "margin" or c.low > 0 or c.high < 0 for c in plain.cards)
    # at the last look an interval reaching into the zone is at the margin; one reaching
    # into both sides' zones (a card seldom fielded) stays undecided
    few = rating.rate(modelled_games(60, seed=1), margin=10, final=True)
    assert any(c.decision == "" for c in few.cards)
    assert all(c.decision in ("", "over", "under") or c.decision == "margin"
               for c in few.cards)


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


MAX_GAMES = 4000        # per run (looks at 1000, 2000, 4000): CI's time kept in bounds


@pytest.mark.skipif(not (os.environ.get("CI") or os.environ.get("BOTTISOTA_LONG_TESTS")),
                    reason="long: two --until-decided runs on the bundled deck "
                           "(CI=true or BOTTISOTA_LONG_TESTS=1)")
def test_until_decided_runs_with_two_seeds_flag_the_same_cards():
    # The acceptance line: two seeds' --until-decided runs on the bundled deck
    # (warehouse, 10 rounds) flag the same cards, each the same way (OVER or UNDER).
    # The other verdicts never contradict each other: a card even in one run is at the
    # margin or even in the other. (Whether a card near the edge of "even" is even or
    # at the margin can still depend on the seed: docs/designing.md, section 6. Measured:
    # seeds 1 and 2 flag nothing and agree on 13 of 14 cards; skyhawk is even with seed 1
    # and at the margin with seed 2.)
    verdicts = []
    for seed in (1, 2):
        a = args(arena="warehouse", games=1000, jobs=2, seed=seed, until_decided=True,
                 max_games=MAX_GAMES)
        init = simulate.init_args("warehouse", ["aggressive", "sniper"])
        _records, ratings = simulate_command.play_games(a, init, 2, False)
        verdicts.append({c.card: c.decision for c in ratings.cards})
        print(f"seed {seed}:", rating.table(ratings), sep="\n")
    one, two = verdicts
    assert set(one) == set(two)
    assert ({c: d for c, d in one.items() if d in ("over", "under")}
            == {c: d for c, d in two.items() if d in ("over", "under")})
    for card in one:
        assert {one[card], two[card]} in ({one[card]}, {"margin", "even"},
                                          {"margin", "over"}, {"margin", "under"}), card
    # every card is decided: over, under, even or at the margin
    assert all(one.values()) and all(two.values())


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


def test_a_zone_as_wide_as_the_margin_is_one_message(capsys):
    assert cli_main(["simulate", "duel", "--games", "1", "--zone", "10", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "the zone is at least 0 and less than the margin (10)" in err
    assert "Traceback" not in err


def test_the_summary_names_the_cards_at_the_margin_with_their_intervals(monkeypatch):
    _decided, _games, ratings = verdicts(monkeypatch, DECK, 1)
    text = "\n".join(rating.summary(ratings))
    assert re.search(r"at the margin: edge wins \d+\.\d% \[\d+\.\d-\d+\.\d\]", text)
    assert "OVER/UNDER when clear beyond ±13 points" in text
    assert "even when clear within ±7, at the margin between" in text
    assert "every card is decided" in text
