"""Run every bench and print its figures, or all of them as one JSON document.

Run: python bench/run.py [--quick] [--json] [--only geometry,movement,...]

The JSON (`--json`) holds every figure of every bench with the machine it was
taken on (cores, load average), for comparing two commits:
`python bench/run.py --json > before.json`. Times are CPU time (see
bench/README.md for how each bench measures). The view's bench (render) and the
phones' bench run in a process of their own (they need SDL's dummy driver, a
server); their figures are taken from their own output.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import check  # noqa: E402
import geometry  # noqa: E402
import movement  # noqa: E402
import replay  # noqa: E402
import shooting  # noqa: E402
import simulate  # noqa: E402
import startup  # noqa: E402
import users  # noqa: E402
import view_paths  # noqa: E402
from common import collector_as_the_command  # noqa: E402

HERE = Path(__file__).resolve().parent


class _Separate:
    """A bench run as its own process: its JSON when it prints JSON, else its text."""

    def __init__(self, script: str, args: list[str], quick_args: list[str],
                 json_flag: bool) -> None:
        self.script, self.args, self.quick_args = script, args, quick_args
        self.json_flag = json_flag

    def collect(self, quick: bool) -> dict:
        argv = [sys.executable, str(HERE / self.script)] + (self.quick_args if quick
                                                            else self.args)
        env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
        out = subprocess.run(argv + (["--json"] if self.json_flag else []), capture_output=True,
                             text=True, env=env)
        data: dict = {"bench": self.script.removesuffix(".py"), "exit": out.returncode}
        if out.returncode != 0:
            data["error"] = out.stderr.strip().splitlines()[-1:] or ["failed"]
        elif self.json_flag:
            data.update(json.loads(out.stdout))
        else:
            data["text"] = out.stdout.strip().splitlines()
        return data

    def report(self, data: dict) -> str:
        if "error" in data:
            return f"{data['bench']}: failed ({data['error'][0]})"
        if "text" in data:
            return "\n".join(data["text"])
        return json.dumps(data, indent=1)


BENCHES = {"geometry": geometry, "movement": movement, "shooting": shooting,
           "replay": replay, "simulate": simulate, "startup": startup, "check": check,
           "users": users, "view_paths": view_paths,
           "render": _Separate("render.py", [], ["--frames", "30"], json_flag=True),
           "render-2000": _Separate("render.py", ["--arena", "synthetic-2000"],
                                    ["--arena", "synthetic-2000", "--frames", "30"],
                                    json_flag=True),
           "phones": _Separate("phones.py", [], ["--seconds", "2"], json_flag=False)}


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
    collector_as_the_command()
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
