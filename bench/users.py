"""Bench: the commands as users run them, whole processes, first runs apart.

Run: python bench/users.py [--quick] [--json]

Each figure is the CPU time (user + system) of a fresh `bottisota` process started
as the command starts (`bottisota.cli.main`), in a cache folder and a bytecode folder
of the bench's own: the first run of each command with both empty (`first`: a very
first start, every module compiled, nothing checked kept), then --runs more with
them filled (`warm`: a second start, as an installed copy runs). Beside each:

- `bottisota check` on synthetic-500, synthetic-2000 and synthetic-3000 (the arenas of common.py,
  written to a file): target <= 1 s;
- `bottisota replay` of a seeded robot game journaled here: 2 seats on the warehouse
  (40 rounds) and 64 seats on synthetic-500 (4 rounds): actions per CPU-second of
  the whole process, target >= 5,000; and the same after the floor below (the cost
  per action of the read itself);
- `bottisota simulate warehouse --games 10` (2 seats, 10 rounds, as users run it: its
  worker processes, one per core, and with `--jobs 1`): robot games per CPU-second of
  the whole process and its workers, target >= 30;
- a cProfile of the 64-seat replay (the whole command in one process): the functions
  taking the most cumulative time, as shares of `_replay`'s;
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
SIMULATE_TARGET = 30.0          # robot games per CPU-second, whole process, 10 games
SIMULATE_GAMES = 10


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
        for n in (500, 2000, 3000):
            path = tmp / f"synthetic-{n}.yaml"
            path.write_text(yaml.safe_dump(synthetic_data(n)))
            got = first_and_warm(["check", "-q", str(path)], runs, tmp)
            checks.append(dict(got, arena=f"synthetic-{n}", target_s=CHECK_TARGET_S,
                               floor_s=floor["warm_s"],
                               met=got["warm_s"] <= CHECK_TARGET_S))
        sims = []
        for jobs in (None, 1):
            args = ["simulate", "warehouse", "--games", str(SIMULATE_GAMES), "--quiet"]
            got = first_and_warm(args + ([] if jobs is None else ["--jobs", str(jobs)]),
                                 runs, tmp)
            per = SIMULATE_GAMES / got["warm_s"]
            sims.append(dict(got, jobs=jobs or os.cpu_count(), games=SIMULATE_GAMES,
                             games_per_cpu_s=per, first_games_per_cpu_s=SIMULATE_GAMES
                             / got["first_s"], after_floor_games_per_cpu_s=SIMULATE_GAMES
                             / max(got["warm_s"] - floor["warm_s"], 1e-9),
                             target=SIMULATE_TARGET, floor_s=floor["warm_s"],
                             met=per >= SIMULATE_TARGET))
        replays = []
        made = journals(tmp)
        for what, path, actions in made:
            got = first_and_warm(["replay", str(path)], runs, tmp)
            per = actions / got["warm_s"]
            after = actions / max(got["warm_s"] - floor["warm_s"], 1e-9)
            replays.append(dict(got, journal=what, actions=actions,
                                actions_per_cpu_s=per, first_actions_per_cpu_s=actions
                                / got["first_s"], after_floor_actions_per_cpu_s=after,
                                target=REPLAY_TARGET, floor_s=floor["warm_s"],
                                met=per >= REPLAY_TARGET))
        profile = replay_profile(made[-1][1], tmp)
    where = dict(machine(), timing="CPU time (user + system) of each command's own process")
    return {"bench": "users", "machine": where, "floor": floor, "check": checks,
            "simulate": sims, "replay": replays, "replay_profile": profile}


PROFILE = r"""
import cProfile, pstats, sys
from bottisota.cli import main
cProfile.run("main(['replay', sys.argv[1]])", sys.argv[2])
"""


def replay_profile(journal: Path, tmp: Path, top: int = 25) -> dict:
    """`bottisota replay JOURNAL` under cProfile (the command in one process): the
    functions with the most cumulative time, each as a share of `_replay`'s."""
    import pstats
    out = tmp / "replay.prof"
    env = dict(os.environ, XDG_DATA_HOME=str(tmp / "profile"),
               XDG_CACHE_HOME=str(tmp / "profile" / "cache"), PYTHONPATH=str(ROOT))
    subprocess.run([sys.executable, "-c", PROFILE, str(journal), str(out)], env=env,
                   cwd=str(tmp), capture_output=True, text=True, check=False)
    st = pstats.Stats(str(out))
    rows = []
    for (path, line, name), (_cc, calls, tt, ct, _callers) in st.stats.items():  # type: ignore[attr-defined]
        where = path.split("bottisota/", 1)[-1] if "bottisota/" in path else Path(path).name
        rows.append({"function": f"{where}:{line}({name})", "calls": calls, "own_s": tt,
                     "cumulative_s": ct})
    whole = max((r["cumulative_s"] for r in rows if r["function"].endswith("(_replay)")),
                default=max(r["cumulative_s"] for r in rows))
    rows.sort(key=lambda r: -r["cumulative_s"])
    for r in rows:
        r["share_of_replay"] = r["cumulative_s"] / whole
    own = sorted(rows, key=lambda r: -r["own_s"])[:top]
    return {"journal": journal.name, "replay_s": whole, "by_cumulative": rows[:top * 2],
            "by_own_time": own}


def report(data: dict) -> str:
    f = data["floor"]
    out = [f"the commands as users run them, whole processes (machine {data['machine']})",
           f"  floor (`bottisota --version`): {f['warm_s']:.3f} s CPU, first {f['first_s']:.3f}"]
    for c in data["check"]:
        out.append(f"  check {c['arena']:>15}: {c['warm_s']:.3f} s (first {c['first_s']:.3f}); "
                   f"target <= {c['target_s']:g} s: {'met' if c['met'] else 'not met'}")
    for s in data["simulate"]:
        out.append(f"  simulate warehouse, {s['games']} games, {s['jobs']} jobs: "
                   f"{s['games_per_cpu_s']:.1f} games/CPU-s ({s['warm_s']:.3f} s; first "
                   f"{s['first_games_per_cpu_s']:.1f}/s); after the floor "
                   f"{s['after_floor_games_per_cpu_s']:.1f}/s; target >= {s['target']:g}: "
                   f"{'met' if s['met'] else 'not met'}")
    for r in data["replay"]:
        out.append(f"  replay {r['journal']:>24}, {r['actions']} actions: "
                   f"{r['actions_per_cpu_s']:,.0f} actions/CPU-s ({r['warm_s']:.3f} s; first "
                   f"{r['first_actions_per_cpu_s']:,.0f}/s); after the floor "
                   f"{r['after_floor_actions_per_cpu_s']:,.0f}/s; target >= "
                   f"{r['target']:,.0f}: {'met' if r['met'] else 'not met'}")
    p = data["replay_profile"]
    out.append(f"  cProfile of `bottisota replay` {p['journal']} ({p['replay_s']:.2f} s in "
               "_replay under the profiler), by cumulative time:")
    for r in p["by_cumulative"]:
        out.append(f"    {r['share_of_replay']:6.1%} {r['cumulative_s']:7.3f} s "
                   f"{r['calls']:8d} calls  {r['function']}")
    return "\n".join(out)


def main() -> None:
    bench_main(__doc__, "2 runs each, not 5", collect, report)


if __name__ == "__main__":
    main()
