"""Bench: `bottisota play --robot blue` up to its first frame, and journal replay.

Run: python bench/startup.py [--quick] [--json]

1. First frame: a fresh Python process runs the command itself,
   `bottisota play --robot blue --seed 1` (through `bottisota.cli.main`, with
   --headless: SDL's dummy video driver, no window; everything else as with a
   window: imports, the default arena and the cards read and checked, a new
   journaled game, the robot seat, the table view, and the robot's first action
   if it is due, as a window's first frame does it). The process's CPU time from
   its start to the end of that first frame; median of several runs. Measured
   with Python's bytecode cache in use (an installed copy has its modules
   compiled; here the cache is a temporary folder filled by one run first), and
   without it (every module compiled in each run, as with
   PYTHONDONTWRITEBYTECODE=1 and a source checkout).
2. Journal replay: a seeded robot game is journaled, then read back as
   resuming it reads it (`play.journal.read(verify=False)`: digests, dice,
   events and state digests checked, the events applied; bench/replay.py has
   the verified replay of `bottisota replay` too). Actions per CPU-second.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import ROOT, bench_main, machine, stats

from bottisota.formats.loading import bundled_rules, load_arena, load_catalogue
from bottisota.formats.robot_tables import find_personality
from bottisota.play.journal import read
from bottisota.robot.match import play
from bottisota.robot.simulate import arena_path

FIRST_FRAME = r"""
import os, sys, time
sys.path.insert(0, sys.argv[1])
from bottisota.view.app import TableApp
step = TableApp.step

def first_step(self, *args, **kwargs):          # the first frame drawn: its CPU time
    out = step(self, *args, **kwargs)
    print("first-frame-cpu", time.process_time(), flush=True)
    os._exit(0)

TableApp.step = first_step
from bottisota.cli import main
main(["play", "--robot", "blue", "--seed", "1", "--headless", "--frames", "1"])
"""


def first_frame(runs: int, bytecode: bool) -> dict:
    """CPU seconds of a fresh process running `bottisota play --robot blue` (headless:
    SDL's dummy driver, no window) from its start to the end of its first frame.
    `bytecode`: Python's compiled-module cache in use, as in an installed copy (kept
    in a temporary folder, filled by one run first); without it every module of the
    project and its libraries without cached bytecode is compiled in each run."""
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, XDG_DATA_HOME=tmp, SDL_VIDEODRIVER="dummy",
                   SDL_AUDIODRIVER="dummy")
        if bytecode:
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            env["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        else:
            env["PYTHONDONTWRITEBYTECODE"] = "1"
            env.pop("PYTHONPYCACHEPREFIX", None)
        for run in range(runs + (1 if bytecode else 0)):
            out = subprocess.run([sys.executable, "-c", FIRST_FRAME, str(ROOT)],
                                 capture_output=True, text=True, check=True, env=env, cwd=tmp)
            lines = [ln for ln in out.stdout.splitlines() if ln.startswith("first-frame-cpu")]
            if bytecode and run == 0:
                continue                                # fills the bytecode cache
            times.append(float(lines[-1].split()[1]))
    return stats(times, scale=1.0)


def replay(actions: int, seed: int = 7) -> dict:
    rules = bundled_rules()
    cards, mods = load_catalogue()
    arena = load_arena(arena_path("warehouse"), rules)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "robots.jsonl"
        play(arena, rules, cards, mods, [find_personality("aggressive"),
                                         find_personality("sniper")], seed=seed,
             round_limit=None, max_actions=actions, journal_path=str(path))
        read(path, verify=False)                              # warm: imports
        runs = []
        n = 0
        for _ in range(7):
            c0 = time.process_time()
            game = read(path, verify=False).game
            runs.append(time.process_time() - c0)
            n = len(game.history)
    best = stats(runs, scale=1.0)
    return {"actions": n, "cpu_s": best, "actions_per_cpu_s": n / best["median"]}


def collect(quick: bool = False) -> dict:
    return {"bench": "startup", "machine": machine(),
            "first_frame_cpu_s": first_frame(3 if quick else 7, bytecode=True),
            "first_frame_no_bytecode_cpu_s": first_frame(3 if quick else 5, bytecode=False),
            "replay": replay(200 if quick else 600)}


def report(data: dict) -> str:
    f, r = data["first_frame_cpu_s"], data["replay"]
    cold = data["first_frame_no_bytecode_cpu_s"]
    return "\n".join([
        f"startup and replay (CPU time; machine {data['machine']})",
        f"  `bottisota play --robot blue` to its first frame: {f['median']:.2f} s CPU median "
        f"(p95 {f['p95']:.2f}, {f['n']} runs, a fresh process each, bytecode cached as "
        f"installed); {cold['median']:.2f} s with no bytecode cache (every module compiled)",
        f"  journal replay as resuming reads it: {r['actions']} actions in "
        f"{r['cpu_s']['median'] * 1000:.1f} ms CPU: {r['actions_per_cpu_s']:,.0f} actions per "
        f"CPU-second"])


def main() -> None:
    bench_main(__doc__, "fewer runs, a shorter journal", collect, report)


if __name__ == "__main__":
    main()
