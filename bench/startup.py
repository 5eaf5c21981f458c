"""Bench: `bottisota play --robot blue` up to its first frame, and journal replay.

Run: python bench/startup.py [--quick] [--json]

1. First frame: a fresh Python process runs the path `bottisota play --robot
   blue` takes (imports, the default arena and the cards read and checked, a
   new journaled game, the robot seat with its maps prepared, the table view
   built) and draws one frame with SDL's dummy video driver (no window). The
   process's CPU time from its start to that frame; median of several runs.
2. Journal replay: a seeded robot game is journaled, then read back with
   `play.journal.load` (every action replayed through `Game`, dice and state
   checked). Actions per CPU-second.
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
from bottisota.play.journal import load
from bottisota.robot.match import play
from bottisota.robot.simulate import arena_path

FIRST_FRAME = r"""
import os, sys, time, tempfile
os.environ["SDL_VIDEODRIVER"] = "dummy"; os.environ["SDL_AUDIODRIVER"] = "dummy"
sys.path.insert(0, sys.argv[1])
os.chdir(tempfile.mkdtemp())
import pygame
from bottisota.view.app import TableApp
from bottisota.viewmodel.session import build_game, robot_seats
pygame.display.init(); pygame.font.init()
screen = pygame.display.set_mode((1280, 800))
game, path = build_game(None, ["red", "blue"], 1, None, "first-frame.jsonl")
robots = robot_seats(["blue"], ["red", "blue"], game)
app = TableApp(game, screen.get_size(), screen=screen, robots=robots,
               journal_name="first-frame.jsonl")
app.step()
print(time.process_time())
"""


def first_frame(runs: int) -> dict:
    """CPU seconds of a fresh process from its start to its first frame."""
    times = []
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", FIRST_FRAME, str(ROOT)], capture_output=True,
                             text=True, check=True, env=dict(os.environ))
        times.append(float(out.stdout.strip().splitlines()[-1]))
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
        load(path)                                            # warm: compiled arena, imports
        runs = []
        n = 0
        for _ in range(3):
            c0 = time.process_time()
            game = load(path)
            runs.append(time.process_time() - c0)
            n = len(game.history)
    best = stats(runs, scale=1.0)
    return {"actions": n, "cpu_s": best, "actions_per_cpu_s": n / best["median"]}


def collect(quick: bool = False) -> dict:
    return {"bench": "startup", "machine": machine(),
            "first_frame_cpu_s": first_frame(3 if quick else 7),
            "replay": replay(200 if quick else 600)}


def report(data: dict) -> str:
    f, r = data["first_frame_cpu_s"], data["replay"]
    return "\n".join([
        f"startup and replay (CPU time; machine {data['machine']})",
        f"  `bottisota play --robot blue` to its first frame: {f['median']:.2f} s CPU median "
        f"(p95 {f['p95']:.2f}, {f['n']} runs, a fresh process each)",
        f"  journal replay: {r['actions']} actions in {r['cpu_s']['median']:.2f} s CPU: "
        f"{r['actions_per_cpu_s']:,.0f} actions per CPU-second"])


def main() -> None:
    bench_main(__doc__, "fewer runs, a shorter journal", collect, report)


if __name__ == "__main__":
    main()
