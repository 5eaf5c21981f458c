"""Bench: the commands as users run them, whole processes, first runs apart.

Run: python bench/users.py [--quick] [--json]

Each figure is the CPU time (user + system) of a fresh `bottisota` process started
as the command starts (`bottisota.cli.main`), in a cache folder and a bytecode folder
of the bench's own: the first run of each command with both empty (`first`: a very
first start, every module compiled, nothing checked kept), then --runs more with
them filled (`warm`: a second start, as an installed copy runs). Beside each:

- `bottisota check` on synthetic-500 and synthetic-2000 (the arenas of common.py,
  written to a file): target <= 1 s;
- `bottisota replay` of a seeded robot game journaled here: 2 seats on the warehouse
  (40 rounds) and 64 seats on synthetic-500 (4 rounds): actions per CPU-second of
  the whole process, target >= 5,000; and the same after the floor below (the cost
  per action of the read itself);
- the floor (the machine limit of a process): `bottisota --version`, the interpreter
  and the command line's own imports, nothing read; no command costs less.
"""
from __future__ import annotations

import dataclasses
import math
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml
from common import ROOT, bench_main, bundled, machine, synthetic_data

from bottisota.formats.loading import bundled_rules, load_arena, load_catalogue
from bottisota.formats.robot_tables import find_personality
from bottisota.play.journal import journal_to
from bottisota.robot.match import play

CHECK_TARGET_S = 1.0
REPLAY_TARGET = 5000.0          # actions per CPU-second, whole process


def child_cpu(args: list[str], env: dict[str, str], cwd: str) -> float:
    """CPU seconds (user + system) of one `bottisota ARGS` process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    code = "import sys; from bottisota.cli import main; sys.exit(main(sys.argv[1:]))"
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True,
                          text=True, env=env, cwd=cwd)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise RuntimeError(f"bottisota {' '.join(args)}: {done.stderr.strip()[-300:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def first_and_warm(args: list[str], runs: int, tmp: Path) -> dict:
    """The first run with empty caches, then `runs` with them filled."""
    home = tmp / args[0] / str(abs(hash(tuple(args))))
    home.mkdir(parents=True)
    env = dict(os.environ, XDG_DATA_HOME=str(home), XDG_CACHE_HOME=str(home / "cache"),
               PYTHONPYCACHEPREFIX=str(home / "pycache"), PYTHONPATH=str(ROOT))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    first = child_cpu(args, env, str(home))
    warm = [child_cpu(args, env, str(home)) for _ in range(runs)]
    return {"first_s": first, "warm_s": statistics.median(warm), "warm_runs": warm}


def journals(tmp: Path) -> list[tuple[str, Path, int]]:
    """Two seeded robot games journaled: (name, path, actions)."""
    rules = bundled_rules()
    cards, mods = load_catalogue()
    seats = lambda n: [find_personality(("aggressive", "sniper")[i % 2])  # noqa: E731
                       for i in range(n)]
    out = []
    path = tmp / "warehouse-2.jsonl"
    play(bundled("warehouse"), rules, cards, mods, seats(2), seed=1, round_limit=40,
         time_limit=None, on_start=journal_to(path))
    out.append(("warehouse, 2 seats", path))
    arena_file = tmp / "synthetic-500.yaml"
    arena_file.write_text(yaml.safe_dump(synthetic_data(500)))
    many = {k: dataclasses.replace(c, copies=max(4, math.ceil(4 * 64 / len(cards))))
            for k, c in cards.items()}
    path = tmp / "synthetic-500-64.jsonl"
    play(load_arena(arena_file, rules), rules, many, mods, seats(64), seed=1, round_limit=4,
         time_limit=None, on_start=journal_to(path))
    out.append(("synthetic-500, 64 seats", path))
    return [(name, p, len(p.read_text(encoding="utf-8").splitlines()) - 1) for name, p in out]


def collect(quick: bool = False, runs: int | None = None) -> dict:
    runs = runs if runs is not None else (2 if quick else 5)
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        floor = first_and_warm(["--version"], runs, tmp)
        checks = []
        for n in (500, 2000):
            path = tmp / f"synthetic-{n}.yaml"
            path.write_text(yaml.safe_dump(synthetic_data(n)))
            got = first_and_warm(["check", "-q", str(path)], runs, tmp)
            checks.append(dict(got, arena=f"synthetic-{n}", target_s=CHECK_TARGET_S,
                               floor_s=floor["warm_s"],
                               met=got["warm_s"] <= CHECK_TARGET_S))
        replays = []
        for what, path, actions in journals(tmp):
            got = first_and_warm(["replay", str(path)], runs, tmp)
            per = actions / got["warm_s"]
            after = actions / max(got["warm_s"] - floor["warm_s"], 1e-9)
            replays.append(dict(got, journal=what, actions=actions,
                                actions_per_cpu_s=per, first_actions_per_cpu_s=actions
                                / got["first_s"], after_floor_actions_per_cpu_s=after,
                                target=REPLAY_TARGET, floor_s=floor["warm_s"],
                                met=per >= REPLAY_TARGET))
    where = dict(machine(), timing="CPU time (user + system) of each command's own process")
    return {"bench": "users", "machine": where, "floor": floor, "check": checks,
            "replay": replays}


def report(data: dict) -> str:
    f = data["floor"]
    out = [f"the commands as users run them, whole processes (machine {data['machine']})",
           f"  floor (`bottisota --version`): {f['warm_s']:.3f} s CPU, first {f['first_s']:.3f}"]
    for c in data["check"]:
        out.append(f"  check {c['arena']:>15}: {c['warm_s']:.3f} s (first {c['first_s']:.3f}); "
                   f"target <= {c['target_s']:g} s: {'met' if c['met'] else 'not met'}")
    for r in data["replay"]:
        out.append(f"  replay {r['journal']:>24}, {r['actions']} actions: "
                   f"{r['actions_per_cpu_s']:,.0f} actions/CPU-s ({r['warm_s']:.3f} s; first "
                   f"{r['first_actions_per_cpu_s']:,.0f}/s); after the floor "
                   f"{r['after_floor_actions_per_cpu_s']:,.0f}/s; target >= "
                   f"{r['target']:,.0f}: {'met' if r['met'] else 'not met'}")
    return "\n".join(out)


def main() -> None:
    bench_main(__doc__, "2 runs each, not 5", collect, report)


if __name__ == "__main__":
    main()
