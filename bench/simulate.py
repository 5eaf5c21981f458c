"""Bench: robot games per second on the warehouse arena, one core and two jobs,
and how the personalities differ (median range of the shots they fire).

    python bench/simulate.py [--games 200] [--robots aggressive,sniper] [--rounds 10]

Targets (issue 7): at least 10 complete 2-robot games per second on one core,
a speed-up of 1.8x with 2 jobs, and the sniper's median engagement range at
least 1.5x the aggressive one's.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bottisota.robot.simulate import run  # noqa: E402


def timed(games: int, jobs: int, robots: list[str], rounds: int, seed: int
          ) -> tuple[float, float, list]:
    """Wall seconds, this process's CPU seconds (the whole work when jobs == 1) and records."""
    started, cpu = time.perf_counter(), time.process_time()
    records = run("warehouse", robots, games, jobs=jobs, seed=seed, round_limit=rounds)
    return time.perf_counter() - started, time.process_time() - cpu, records


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--robots", default="aggressive,sniper")
    p.add_argument("--rounds", type=int, default=10)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    robots = args.robots.split(",")
    run("warehouse", robots, 2, jobs=1, seed=args.seed + 99, round_limit=args.rounds)  # warm up
    one, one_cpu, records = timed(args.games, 1, robots, args.rounds, args.seed)
    two, _, records2 = timed(args.games, 2, robots, args.rounds, args.seed)
    assert [r.winners for r in records] == [r.winners for r in records2], "jobs changed results"
    print(f"cores on this machine: {os.cpu_count()}; games: {args.games}; "
          f"round limit: {args.rounds}")
    print(f"1 job : {args.games / one:6.1f} games/s  ({1000 * one / args.games:.1f} ms a game); "
          f"by CPU time {args.games / one_cpu:.1f} games/s (what a core does, whatever else runs)")
    print(f"2 jobs: {args.games / two:6.1f} games/s  (speed-up {one / two:.2f}x)")
    slowest = max(r.slowest for r in records)
    refused = sum(len(r.refusals) for r in records)
    errors = sum(len(r.errors) for r in records)
    print(f"slowest decision {1000 * slowest:.0f} ms; refused actions {refused}; "
          f"games stopped by an error {errors}")
    ranges: dict[str, list[float]] = {}
    for r in records:
        for name, values in r.ranges.items():
            ranges.setdefault(name, []).extend(values)
    for name in sorted(ranges):
        print(f"median engagement range, {name}: {statistics.median(ranges[name]):.1f} cm "
              f"over {len(ranges[name])} shots")
    if "sniper" in ranges and "aggressive" in ranges:
        ratio = statistics.median(ranges["sniper"]) / statistics.median(ranges["aggressive"])
        print(f"sniper / aggressive median range: {ratio:.2f}x (target 1.5x)")


if __name__ == "__main__":
    main()
