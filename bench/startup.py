"""Bench: `bottisota play --robot blue` up to its first frame, and journal replay.

Run: python bench/startup.py [--quick] [--json]

1. First frame: a fresh Python process runs the command itself,
   `bottisota play --robot blue --seed 1` (through `bottisota.cli.main`, imported
   first as the `bottisota` command does, the command's modules through it; with
   --headless: SDL's dummy video driver, no window; everything else as with a
   window: imports, the default arena and the cards read and checked, a new
   journaled game, the robot seat, the table view; the robot seat acts from the
   frame after the first, as with a window). The process's CPU time from its start
   to the end of that first frame; median of several runs, and where it went (the
   interpreter's start, the imports, the window and the game built, the first
   frame); and to the robot seat's first action (its decision and the action taken,
   the journal created). Measured as a user's second and later starts are: Python's
   bytecode cache in use (an installed copy has its modules compiled; here the
   cache is a temporary folder filled by one run first) and the compiled language
   catalogue and the checked content files (rules, arena, cards, mods, robot table:
   formats.parsed_cache) in the user's cache folder (a temporary one, filled by
   that same first run, whose figure is given too); and with the project's modules compiled
   in each run (a source checkout with PYTHONDONTWRITEBYTECODE=1; the libraries
   keep the bytecode pip wrote when it installed them).
2. Journal replay: a seeded robot game is journaled, then read back as
   resuming it reads it (`play.journal.read(verify=False)`: digests, dice,
   events and state digests checked, the events applied; bench/replay.py has
   the verified replay of `bottisota replay` too). Actions per CPU-second.
"""
from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import ROOT, bench_main, machine, stats

from bottisota.formats.loading import bundled_rules, load_arena, load_catalogue
from bottisota.formats.robot_tables import find_personality
from bottisota.play.journal import journal_to, read
from bottisota.robot.match import play
from bottisota.robot.simulate import arena_path

FIRST_FRAME = r"""
import os, sys, time
marks = {"python": time.process_time()}         # the interpreter up, this script begins
sys.path.insert(0, sys.argv[1])
from bottisota import cli                       # as the `bottisota` command starts

def timed_step(step):
    def timed(self, *args, **kwargs):           # the first frame drawn: its CPU time
        if "frame" not in marks:
            marks["built"] = time.process_time()
        out = step(self, *args, **kwargs)
        if "frame" not in marks:
            marks["frame"] = time.process_time()
        elif "robot" in marks or self.frames_drawn > 20:
            print("first-frame-cpu", *(f"{k}={v}" for k, v in marks.items()), flush=True)
            os._exit(0)
        return out
    return timed

def timed_robot(run_robot):
    def timed(self, *args, **kwargs):           # the robot seat's first action taken
        out = run_robot(self, *args, **kwargs)
        if out and "robot" not in marks:
            marks["robot"] = time.process_time()
        return out
    return timed

def imported():
    marks["imports"] = time.process_time()      # the command's modules loaded
    from bottisota.view.acting import GameActions   # (loaded by now: timed from here on)
    from bottisota.view.app import TableApp
    TableApp.step = timed_step(TableApp.step)
    GameActions.run_robot = timed_robot(GameActions.run_robot)

_run = cli._run

def timed_run(argv):
    build = cli.build_parser

    def parser(command=None):                  # the subcommand's module imported here
        out = build(command)
        imported()
        return out

    cli.build_parser = parser
    return _run(argv)

cli._run = timed_run
cli.main(["play", "--robot", "blue", "--seed", "1", "--headless", "--frames", "30"])
"""
PARTS = ("python", "imports", "built", "frame")     # (then "robot": to its first action)


def first_frame(runs: int, bytecode: bool) -> dict:
    """CPU seconds of a fresh process running `bottisota play --robot blue` (headless:
    SDL's dummy driver, no window) from its start to the end of its first frame, and
    of each part of it. The bytecode is kept in a temporary folder of its own (so no
    `__pycache__` of the checkout is read), filled by one run first, which also fills
    the compiled catalogue's cache: that run's figure is `first` (a very first start).
    `bytecode`: every module's compiled form in use, as in an installed copy; without
    it the project's modules are compiled in each run (as in a source checkout with
    PYTHONDONTWRITEBYTECODE=1), the libraries' and Python's own still cached as pip
    and Python install them."""
    runs_marks: list[dict[str, float]] = []
    with tempfile.TemporaryDirectory() as tmp:
        pycache = Path(tmp) / "pycache"
        env = dict(os.environ, XDG_DATA_HOME=tmp, XDG_CACHE_HOME=str(Path(tmp) / "cache"),
                   SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
                   PYTHONPYCACHEPREFIX=str(pycache))
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        for run in range(runs + 1):
            if run == 1 and not bytecode:             # the project's bytecode forgotten
                env["PYTHONDONTWRITEBYTECODE"] = "1"
                shutil.rmtree(pycache / ROOT.resolve().relative_to(ROOT.resolve().anchor)
                              / "bottisota")
            out = subprocess.run([sys.executable, "-c", FIRST_FRAME, str(ROOT)],
                                 capture_output=True, text=True, check=True, env=env, cwd=tmp)
            line = [ln for ln in out.stdout.splitlines() if ln.startswith("first-frame-cpu")][-1]
            runs_marks.append({k: float(v) for k, v in
                               (part.split("=") for part in line.split()[1:])})
    first, rest = runs_marks[0], runs_marks[1:]
    out = stats([m["frame"] for m in rest], scale=1.0)
    out["first"] = first["frame"]
    out["parts_median"] = {part: statistics.median(
        m[part] - (m[PARTS[i - 1]] if i else 0.0) for m in rest) for i, part in enumerate(PARTS)}
    acted = [m["robot"] for m in rest if "robot" in m]
    out["robot_first_action"] = stats(acted, scale=1.0) if acted else None
    return out


def replay(actions: int, seed: int = 7) -> dict:
    rules = bundled_rules()
    cards, mods = load_catalogue()
    arena = load_arena(arena_path("warehouse"), rules)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "robots.jsonl"
        play(arena, rules, cards, mods, [find_personality("aggressive"),
                                         find_personality("sniper")], seed=seed,
             round_limit=None, max_actions=actions, on_start=journal_to(path))
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


FIRST_FRAME_TARGET_S = 0.4     # issue 32: the first frame of `bottisota play`, whole process


def floor(runs: int) -> dict:
    """The floor of a process in the same run (`bottisota --version`: the interpreter and
    the command line's own imports, nothing read), first and warm as users.py takes it."""
    from users import first_and_warm
    with tempfile.TemporaryDirectory() as tmp:
        return first_and_warm(["--version"], runs, Path(tmp))


def collect(quick: bool = False) -> dict:
    warm = first_frame(3 if quick else 7, bytecode=True)
    warm["target_s"] = FIRST_FRAME_TARGET_S
    warm["met"] = warm["median"] <= FIRST_FRAME_TARGET_S
    warm["first_met"] = warm["first"] <= FIRST_FRAME_TARGET_S
    return {"bench": "startup", "machine": machine(),
            "first_frame_cpu_s": warm,
            "first_frame_no_bytecode_cpu_s": first_frame(3 if quick else 5, bytecode=False),
            "floor_s": floor(3 if quick else 5),
            "replay": replay(200 if quick else 600)}


def report(data: dict) -> str:
    f, r = data["first_frame_cpu_s"], data["replay"]
    cold = data["first_frame_no_bytecode_cpu_s"]
    parts = f["parts_median"]
    return "\n".join([
        f"startup and replay (CPU time; machine {data['machine']})",
        f"  `bottisota play --robot blue` to its first frame: {f['median']:.2f} s CPU median "
        f"(p95 {f['p95']:.2f}, {f['n']} runs, a fresh process each, bytecode, catalogue and "
        f"checked content cached as on a second start); {cold['median']:.2f} s with the "
        f"project's modules compiled in each run; the very first start (caches empty) "
        f"{f['first']:.2f} s; target <= {f['target_s']:g} s: "
        f"{'met' if f['met'] else 'not met'} warm, {'met' if f['first_met'] else 'not met'} "
        f"the very first; the floor of a process (`bottisota --version`) "
        f"{data['floor_s']['warm_s']:.3f} s (first {data['floor_s']['first_s']:.3f})",
        "  where it goes (medians): interpreter {python:.3f} s, imports {imports:.3f} s, "
        "window and game built {built:.3f} s, first frame {frame:.3f} s".format(**parts),
        "  to the robot seat's first action (taken on the frame after the first): "
        + (f"{f['robot_first_action']['median']:.2f} s CPU median"
           if f.get("robot_first_action") else "none within 20 frames"),
        f"  journal replay as resuming reads it: {r['actions']} actions in "
        f"{r['cpu_s']['median'] * 1000:.1f} ms CPU: {r['actions_per_cpu_s']:,.0f} actions per "
        f"CPU-second"])


def main() -> None:
    bench_main(__doc__, "fewer runs, a shorter journal", collect, report)


if __name__ == "__main__":
    main()
