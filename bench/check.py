"""`bottisota check` on large arenas: CPU time and peak memory grow near-linearly.

Identical walls (walls may share a spot: nothing to report), identical
teleporters (every pair is an error: the first 20 listed, the rest summarised
in one line) and a grid of distinct pits, each at several sizes. Each size is
checked in a fresh process (`python -m bottisota check`), so the peak memory
is that run's; the figure is the median CPU time (user + system) of --runs.
"""
from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from common import machine

ROW = {
    "identical walls": "  - {type: wall, rect: [10, 10, 2, 20]}\n",
    "identical teleporters": "  - {type: teleporter, circle: [50, 50, 2]}\n",
}


def arena(kind: str, n: int) -> str:
    head = "size: [1000, 1000]\nfeatures:\n"
    if kind == "distinct pits":
        side = int(n ** 0.5) + 1
        rows = [f"  - {{type: pit, rect: [{1 + (k % side) * 9}, {1 + (k // side) * 9}, 5, 5]}}\n"
                for k in range(n)]
        return head + "".join(rows)
    return head + ROW[kind] * n


def run_once(path: Path) -> tuple[float, float, int]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, "-c", _CHILD, str(path)], capture_output=True,
                          text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    *messages, peak = done.stderr.splitlines()
    return cpu, int(peak) / 1024.0, len(messages)


_CHILD = """
import resource, sys
from bottisota.cli import main
main(["check", "-q", sys.argv[1]])
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)
"""


def collect(quick: bool = False, runs: int | None = None,
            sizes: tuple[int, ...] | None = None) -> dict:
    """Every kind of arena at every size: median CPU s, its ratio to the smallest
    size's, peak MB and the lines printed."""
    runs = runs if runs is not None else (1 if quick else 3)
    sizes = sizes if sizes is not None else ((1000,) if quick else (1000, 4000))
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for kind in ("identical walls", "identical teleporters", "distinct pits"):
            first = None
            for n in sizes:
                path = Path(tmp) / f"{kind.replace(' ', '_')}_{n}.yaml"
                path.write_text(arena(kind, n))
                results = [run_once(path) for _ in range(runs)]
                cpu = statistics.median(r[0] for r in results)
                first = first or cpu
                rows.append({"arena": kind, "features": n, "cpu_s": cpu, "ratio": cpu / first,
                             "peak_mb": max(r[1] for r in results), "lines": results[0][2],
                             "runs": runs})
    where = dict(machine(), timing="CPU time (user + system) of each check's own process")
    return {"bench": "check", "machine": where, "check": rows}


def report(data: dict) -> str:
    out = [f"`bottisota check` on large arenas (CPU time of a fresh process each; "
           f"machine {data['machine']})",
           f"{'arena':24} {'features':>8} {'cpu s':>7} {'ratio':>6} {'peak MB':>8} {'lines':>6}"]
    for r in data["check"]:
        out.append(f"{r['arena']:24} {r['features']:8} {r['cpu_s']:7.2f} {r['ratio']:6.2f} "
                   f"{r['peak_mb']:8.0f} {r['lines']:6}")
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sizes", default="1000,4000")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    data = collect(runs=args.runs, sizes=tuple(int(s) for s in args.sizes.split(",")))
    print(json.dumps(data, indent=1) if args.json else report(data))


if __name__ == "__main__":
    main()
