"""Bench: journal replay, the way `bottisota replay` and resuming a game read a journal.

Run: python bench/replay.py [--quick] [--json]

A seeded robot game on the warehouse (aggressive against sniper: shots,
overwatch, mines, doors) is journaled, then read back by `play.journal.load`:
every line's digest checked, every action replayed through `Game` (its
legality, then the action with its recorded dice), its events, dice and state
digest compared with the journal's. Timed: the whole `load` (CPU time, the
first read, which builds the compiled arena's caches, left out), as actions
per CPU-second; median, p95 and p99 over several reads, and the best read
(the least disturbed by other work on a loaded machine). Also counted: how
many moves were committed from their preview (walked once) and how many needed
the live walk (dice, overwatch in reach, mines touched, belts, lifts).
"""
from __future__ import annotations

import tempfile
import time
from pathlib import Path

from common import bench_main, machine, stats

import bottisota.engine.movement.moves as moves
from bottisota.formats.loading import bundled_rules, load_arena, load_catalogue
from bottisota.formats.robot_tables import find_personality
from bottisota.play.journal import load
from bottisota.robot.match import play
from bottisota.robot.simulate import arena_path


def _walks(path: Path) -> dict:
    """How the moves of one read were committed: from their preview, or walked live."""
    counts = {"from_preview": 0, "walked_live": 0}
    quiet = moves._quiet

    def counted(*args):
        answer = quiet(*args)
        counts["from_preview" if answer else "walked_live"] += 1
        return answer

    moves._quiet = counted
    try:
        load(path)
    finally:
        moves._quiet = quiet
    return counts


def replay(actions: int, runs: int, seed: int = 7) -> dict:
    rules = bundled_rules()
    cards, mods = load_catalogue()
    arena = load_arena(arena_path("warehouse"), rules)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "robots.jsonl"
        play(arena, rules, cards, mods, [find_personality("aggressive"),
                                         find_personality("sniper")], seed=seed,
             round_limit=None, max_actions=actions, journal_path=str(path))
        load(path)                                   # warm: the compiled arena, imports
        times, n = [], 0
        for _ in range(runs):
            c0 = time.process_time()
            game = load(path)
            times.append(time.process_time() - c0)
            n = len(game.history)
        walks = _walks(path)
    per = stats(times, scale=1.0)
    return {"arena": "warehouse", "actions": n, "cpu_s": per,
            "actions_per_cpu_s": n / per["median"], "best_actions_per_cpu_s": n / min(times),
            "moves": walks}


def collect(quick: bool = False) -> dict:
    return {"bench": "replay", "machine": machine(),
            "replay": replay(200 if quick else 600, 5 if quick else 9)}


def report(data: dict) -> str:
    r = data["replay"]
    c = r["cpu_s"]
    return "\n".join([
        f"journal replay (CPU time; machine {data['machine']})",
        f"  {r['actions']} actions of a robot game on the {r['arena']}: {c['median']:.3f} s "
        f"median (p95 {c['p95']:.3f}, p99 {c['p99']:.3f}, {c['n']} reads)",
        f"  {r['actions_per_cpu_s']:,.0f} actions per CPU-second (best read "
        f"{r['best_actions_per_cpu_s']:,.0f})",
        f"  moves committed from their preview: {r['moves']['from_preview']}, walked live: "
        f"{r['moves']['walked_live']}"])


def main() -> None:
    bench_main(__doc__, "a shorter journal, fewer reads", collect, report)


if __name__ == "__main__":
    main()
