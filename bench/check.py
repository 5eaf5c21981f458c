"""`bottisota check` on large arenas: CPU time and peak memory grow near-linearly.

Identical walls (walls may share a spot: nothing to report), identical
teleporters (every pair is an error: the first 20 listed, the rest summarised
in one line) and a grid of distinct pits, each at several sizes. Each size is
checked in a fresh process (`python -m bottisota check`), so the peak memory
is that run's; the figure is the median CPU time (user + system) of --runs.
"""
from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sizes", default="1000,4000")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    print(f"{'arena':24} {'features':>8} {'cpu s':>7} {'ratio':>6} {'peak MB':>8} {'lines':>6}")
    with tempfile.TemporaryDirectory() as tmp:
        for kind in ("identical walls", "identical teleporters", "distinct pits"):
            first = None
            for n in sizes:
                path = Path(tmp) / f"{kind.replace(' ', '_')}_{n}.yaml"
                path.write_text(arena(kind, n))
                results = [run_once(path) for _ in range(args.runs)]
                cpu = statistics.median(r[0] for r in results)
                first = first or cpu
                print(f"{kind:24} {n:8} {cpu:7.2f} {cpu / first:6.2f} "
                      f"{max(r[1] for r in results):8.0f} {results[0][2]:6}")


if __name__ == "__main__":
    main()
