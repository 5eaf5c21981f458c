"""Bench: journal replay, the two ways a journal is read: resuming a game
(`bottisota play --resume`, `serve`) and `bottisota replay`.

Run: python bench/replay.py [--quick] [--json]

A seeded robot game on the warehouse (aggressive against sniper: shots,
overwatch, mines, doors) is journaled, then read back by `play.journal.read`
both ways (docs/decisions.md, "Replaying a journal"):

- resuming (`read(verify=False)`, what `resume` runs): every line's digest,
  the action's form and turn, its dice drawn again from the seed, its events'
  declared forms, the events applied by their reducers, the state digest
  compared. Also counted: lines this way could not vouch for and re-ran
  through the rules (none, for a journal the referee wrote);
- verified (`read()`, what `bottisota replay` runs): every action re-run
  through `Game` (its legality, then the action with its recorded dice), its
  events, dice and state digest compared. Also counted: how many moves were
  committed from their preview (walked once) and how many needed the live walk
  (dice, overwatch in reach, mines touched, belts, lifts).

Timed: the whole read (CPU time; the first read of each way, which warms the
imports, left out), as actions per CPU-second; median, p95 and p99 over several
reads, and the best read (the least disturbed by other work on a loaded
machine). The header alone (its arena, cards, mods and rules, the start of the
game run again) is timed too: a fixed cost of every read, whatever the journal's
length. The recorded data is validated as files are on the first read of that
content, then taken from the user's cache (the first read, left out, keeps it
there, as a user's first resume does); the header with an empty cache, what a
first resume of new content pays, is timed as well.
"""
from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

from common import bench_main, machine, stats

import bottisota.engine.movement.moves as moves
from bottisota.engine.game import Game
from bottisota.formats.loading import bundled_rules, load_arena, load_catalogue
from bottisota.formats.robot_tables import find_personality
from bottisota.play.journal import journal_to, read
from bottisota.robot.match import play
from bottisota.robot.simulate import arena_path


def _walks(path: Path) -> dict:
    """How the moves of one verified read were committed: from their preview, or
    walked live."""
    counts = {"from_preview": 0, "walked_live": 0}
    quiet = moves._quiet

    def counted(*args):
        answer = quiet(*args)
        counts["from_preview" if answer else "walked_live"] += 1
        return answer

    moves._quiet = counted
    try:
        read(path)
    finally:
        moves._quiet = quiet
    return counts


def _rerun(path: Path) -> int:
    """Lines a resuming read re-ran through the rules (it could not vouch for them)."""
    count = [0]
    real = Game.replay

    def counted(self, *args, **kwargs):
        count[0] += 1
        return real(self, *args, **kwargs)

    Game.replay = counted
    try:
        read(path, verify=False)
    finally:
        Game.replay = real
    return count[0]


def _timed(path: Path, runs: int, verify: bool) -> tuple[list[float], int]:
    read(path, verify=verify)                    # warm: imports, the first arena
    times, n = [], 0
    for _ in range(runs):
        c0 = time.process_time()
        loaded = read(path, verify=verify)
        times.append(time.process_time() - c0)
        n = len(loaded.game.history)
        del loaded                               # the game freed outside the timing
    return times, n


def _cold_header(header: Path, runs: int) -> list[float]:
    """The header read as on a first resume of this content: each read with an empty
    cache folder (its recorded data validated, then kept)."""
    times = []
    before = os.environ.get("XDG_CACHE_HOME")
    try:
        for _ in range(runs):
            with tempfile.TemporaryDirectory() as cache:
                os.environ["XDG_CACHE_HOME"] = cache
                c0 = time.process_time()
                read(header, verify=False)
                times.append(time.process_time() - c0)
    finally:
        if before is None:
            os.environ.pop("XDG_CACHE_HOME", None)
        else:
            os.environ["XDG_CACHE_HOME"] = before
    return times


def _rates(times: list[float], n: int) -> dict:
    per = stats(times, scale=1.0)
    return {"cpu_s": per, "actions_per_cpu_s": n / per["median"],
            "best_actions_per_cpu_s": n / min(times)}


def replay(actions: int, runs: int, seed: int = 7) -> dict:
    rules = bundled_rules()
    cards, mods = load_catalogue()
    arena = load_arena(arena_path("warehouse"), rules)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "robots.jsonl"
        play(arena, rules, cards, mods, [find_personality("aggressive"),
                                         find_personality("sniper")], seed=seed,
             round_limit=None, max_actions=actions, on_start=journal_to(path))
        header = Path(tmp) / "header.jsonl"
        header.write_bytes(path.read_bytes().split(b"\n", 1)[0] + b"\n")
        resumed, n = _timed(path, runs, verify=False)
        verified, _ = _timed(path, max(3, runs // 3), verify=True)
        alone, _ = _timed(header, runs, verify=False)
        cold = _cold_header(header, runs)
        walks, rerun = _walks(path), _rerun(path)
    head = stats(alone, scale=1.0)["median"]
    resume = _rates(resumed, n)
    resume["per_action_us"] = (resume["cpu_s"]["median"] - head) / n * 1e6
    resume["lines_rerun"] = rerun
    return {"arena": "warehouse", "actions": n, "header_cpu_s": head,
            "header_cold_cpu_s": stats(cold, scale=1.0)["median"], "resume": resume,
            "verify": {**_rates(verified, n), "moves": walks}}


def collect(quick: bool = False) -> dict:
    return {"bench": "replay", "machine": machine(),
            "replay": replay(200 if quick else 600, 9 if quick else 15)}


def report(data: dict) -> str:
    r = data["replay"]
    res, ver = r["resume"], r["verify"]
    c, v = res["cpu_s"], ver["cpu_s"]
    return "\n".join([
        f"journal replay (CPU time; machine {data['machine']})",
        f"  {r['actions']} actions of a robot game on the {r['arena']}",
        f"  resuming (from the recorded events): {c['median'] * 1000:.1f} ms median "
        f"(p95 {c['p95'] * 1000:.1f}, p99 {c['p99'] * 1000:.1f}, {c['n']} reads): "
        f"{res['actions_per_cpu_s']:,.0f} actions per CPU-second (best read "
        f"{res['best_actions_per_cpu_s']:,.0f}); the header alone "
        f"{r['header_cpu_s'] * 1000:.1f} ms (its data from the cache; "
        f"{r['header_cold_cpu_s'] * 1000:.1f} ms validated afresh, as on a first resume), "
        f"then {res['per_action_us']:.0f} us an action; "
        f"lines re-run through the rules: {res['lines_rerun']}",
        f"  verified (`bottisota replay`, every action re-run): {v['median'] * 1000:.1f} ms "
        f"median (p95 {v['p95'] * 1000:.1f}, {v['n']} reads): "
        f"{ver['actions_per_cpu_s']:,.0f} actions per CPU-second (best read "
        f"{ver['best_actions_per_cpu_s']:,.0f}); moves committed from their preview: "
        f"{ver['moves']['from_preview']}, walked live: {ver['moves']['walked_live']}"])


def main() -> None:
    bench_main(__doc__, "a shorter journal, fewer reads", collect, report)


if __name__ == "__main__":
    main()
