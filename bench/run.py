"""Run every bench and print its figures, or all of them as one JSON document.

Run: python bench/run.py [--quick] [--json] [--only geometry,movement,...]

The JSON (`--json`) holds every figure of every bench with the machine it was
taken on (cores, load average), for comparing two commits:
`python bench/run.py --json > before.json`. Times are CPU time of this
process (see bench/README.md for how each bench measures).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import geometry  # noqa: E402
import movement  # noqa: E402
import shooting  # noqa: E402
import simulate  # noqa: E402
import startup  # noqa: E402

BENCHES = {"geometry": geometry, "movement": movement, "shooting": shooting,
           "simulate": simulate, "startup": startup}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="fewer repeats and sizes")
    p.add_argument("--json", action="store_true", help="print every figure as one JSON document")
    p.add_argument("--only", default=",".join(BENCHES),
                   help=f"benches to run, comma-separated (default: {','.join(BENCHES)})")
    args = p.parse_args()
    names = [n.strip() for n in args.only.split(",") if n.strip()]
    unknown = [n for n in names if n not in BENCHES]
    if unknown:
        p.error(f"no bench named {', '.join(unknown)}; there are {', '.join(BENCHES)}")
    results = {}
    for name in names:
        data = BENCHES[name].collect(args.quick)
        results[name] = data
        if not args.json:
            print(BENCHES[name].report(data), flush=True)
            print()
    if args.json:
        print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
