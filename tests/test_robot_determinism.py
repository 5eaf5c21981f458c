"""Robots are deterministic (issue 10): the same seed plays the same game on any
machine, under any load and with any number of worker processes, because the
planner's search is bounded by counts, never by the clock."""
from __future__ import annotations

import itertools

from bottisota.robot import simulate
from bottisota.robot.stats import card_rows, personality_rows


def _tables(records) -> tuple:
    return (personality_rows(records), card_rows(records),
            [(r.seed, r.rounds, r.winners, r.decisions, r.refusals, r.errors) for r in records])


def test_a_loaded_machine_plays_the_same_games(monkeypatch):
    # a clock that races (every reading a second later than the last) stands for a
    # machine so loaded that any time limit would cut every search
    plain = simulate.run("warehouse", ["aggressive", "sniper"], games=3, jobs=1, seed=7)
    ticks = itertools.count()
    monkeypatch.setattr("time.perf_counter", lambda: float(next(ticks)))
    loaded = simulate.run("warehouse", ["aggressive", "sniper"], games=3, jobs=1, seed=7)
    assert _tables(plain) == _tables(loaded)
    assert sum(r.timeouts for r in loaded) == 0


def test_one_or_two_worker_processes_play_the_same_games():
    one = simulate.run("warehouse", ["aggressive", "sniper"], games=4, jobs=1, seed=7)
    two = simulate.run("warehouse", ["aggressive", "sniper"], games=4, jobs=2, seed=7)
    assert _tables(one) == _tables(two)
