"""Bench: robot games the way `bottisota simulate` plays them.

Run: python bench/simulate.py [--quick] [--json]

1. Games per CPU-second: 2-seat games (aggressive against sniper) on the
   warehouse, 10 rounds each, seeds as `simulate` gives them, played by
   `robot.simulate` itself (one process; setup excluded, as a worker does it
   once). The same games with 2 jobs must give the same results.
2. Decision times and game cost by number of bots: 10-round games with 8, 16,
   32 and 64 seats (every seat keeps a bot: the deck holds enough copies) on a
   synthetic arena of 500 features that passes the arena checks; every robot
   decision timed in CPU time (median, p95, p99, max), and the growth of a
   whole game's cost from 16 to 64 bots as an exponent (cost ~ bots^k).
CPU time of this process throughout.
"""
from __future__ import annotations

import dataclasses
import math
import time

from common import bench_main, machine, stats, synthetic

from bottisota.engine.game import Game
from bottisota.formats.loading import bundled_rules, load_catalogue
from bottisota.formats.robot_tables import find_personality
from bottisota.robot import simulate as sim
from bottisota.robot.match import decision_notes
from bottisota.robot.navigation import prepare
from bottisota.robot.player import Robot
from bottisota.robot.stats import card_rows, personality_rows

ROBOTS = ["aggressive", "sniper"]
SEATS = (8, 16, 32, 64)
ROUNDS = 10


def games_per_cpu_second(games: int, seed: int = 1) -> dict:
    sim._init("warehouse", ROBOTS, None, None, ROUNDS, None)
    sim._play(seed * sim.SEED_STRIDE + games + 1)            # warm up
    seeds = [seed * sim.SEED_STRIDE + i for i in range(games)]
    per_game = []
    records = []
    for s in seeds:
        c0 = time.process_time()
        records.append(sim._play(s))
        per_game.append(time.process_time() - c0)
    total = sum(per_game)
    return {"games": games, "cpu_s": total, "games_per_cpu_s": games / total,
            "game_ms": stats(per_game), "decisions": sum(r.decisions for r in records),
            "records": records}


def same_with_two_jobs(records, seed: int = 1) -> bool:
    two = sim.run("warehouse", ROBOTS, len(records), jobs=2, seed=seed, round_limit=ROUNDS)

    def tables(rs):
        return (personality_rows(rs), card_rows(rs), [(r.seed, r.rounds, r.winners) for r in rs])

    return tables(records) == tables(two)


def seated_game(arena, rules, cards, mods, seats: int, seed: int) -> dict:
    """One 10-round game with `seats` robot seats; every decision's CPU time."""
    players = [f"{ROBOTS[i % 2]}-{i}" for i in range(seats)]
    game = Game.new(arena, rules, cards, mods, players, seed=seed, round_limit=ROUNDS)
    robots = {p: Robot(p, find_personality(ROBOTS[i % 2])) for i, p in enumerate(players)}
    for r in robots.values():
        r.peers = robots
    decisions: list[float] = []
    c_game = time.process_time()
    for _ in range(20000):
        if game.expected() == "over":
            break
        robot = robots[game.whose_turn()]
        c0 = time.process_time()
        action = robot.decide(game)
        decisions.append(time.process_time() - c0)
        if not game.act(action, decision_notes(robots, robot)).ok:
            raise RuntimeError(f"a robot's action was refused: {action}")
    cost = time.process_time() - c_game
    on_table = max(len(game.state.live_bots()), 0)
    return {"seats": seats, "game_cpu_s": cost, "decisions": decisions,
            "rounds": game.state.round, "bots_at_end": on_table}


def by_seats(quick: bool, seed: int = 3) -> dict:
    rules = bundled_rules().overridden({"round_limit": ROUNDS})
    arena = synthetic(500)
    catalogue, mods = load_catalogue()
    rows = []
    for seats in (SEATS[:3] if quick else SEATS):
        copies = max(4, math.ceil(4 * seats / len(catalogue)))
        cards = {k: dataclasses.replace(c, copies=copies) for k, c in catalogue.items()}
        prepare(arena, rules, cards.values())
        games = [seated_game(arena, rules, cards, mods, seats, seed + g)
                 for g in range(1 if quick or seats >= 32 else 2)]
        decisions = [d for g in games for d in g["decisions"]]
        row = {"seats": seats, "games": len(games),
               "game_cpu_s": sum(g["game_cpu_s"] for g in games) / len(games),
               "decision_ms": stats(decisions), "decision_max_ms": max(decisions) * 1e3,
               "bots_at_end": [g["bots_at_end"] for g in games]}
        rows.append(row)
    cost = {r["seats"]: r["game_cpu_s"] for r in rows}
    growth = {}
    if 16 in cost and 64 in cost:
        growth["16_to_64"] = math.log(cost[64] / cost[16]) / math.log(4)
    if 16 in cost and 32 in cost:
        growth["16_to_32"] = math.log(cost[32] / cost[16]) / math.log(2)
    return {"arena": "synthetic-500", "rows": rows, "growth_exponent": growth}


def collect(quick: bool = False) -> dict:
    g = games_per_cpu_second(20 if quick else 60)
    records = g.pop("records")
    g["same_with_2_jobs"] = same_with_two_jobs(records[:8])
    return {"bench": "simulate", "machine": machine(), "warehouse_2_seats": g,
            "by_seats": by_seats(quick)}


def report(data: dict) -> str:
    g = data["warehouse_2_seats"]
    out = [f"robot games (CPU time; machine {data['machine']})",
           f"  warehouse, 2 seats, {ROUNDS} rounds: "
           f"{g['games_per_cpu_s']:.1f} games per CPU-second "
           f"({g['games']} games, {g['decisions']} decisions; "
           f"a game {g['game_ms']['median']:.0f} ms "
           f"median, p95 {g['game_ms']['p95']:.0f}); 2 jobs give the same results: "
           f"{g['same_with_2_jobs']}"]
    s = data["by_seats"]
    out.append(f"  by seats on {s['arena']}:")
    for r in s["rows"]:
        d = r["decision_ms"]
        out.append(f"    {r['seats']:3d} bots: a {ROUNDS}-round game {r['game_cpu_s']:.2f} s CPU; "
                   f"decisions median {d['median']:.1f} ms, p99 {d['p99']:.1f}, "
                   f"max {r['decision_max_ms']:.1f} ms ({d['n']} decisions)")
    for k, v in s["growth_exponent"].items():
        out.append(f"    game cost grows as bots^{v:.2f} ({k.replace('_', ' ')} bots)")
    return "\n".join(out)


def main() -> None:
    bench_main(__doc__, "fewer games, up to 32 bots", collect, report)


if __name__ == "__main__":
    main()
