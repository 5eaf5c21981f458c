"""`bottisota scenario run FILE... [--json]`: run scenario files and report.

Exit 0 when every expectation holds, 1 when one fails, 2 when a file is invalid
(one message naming the file and line, no traceback).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from bottisota.commands.options import add_content
from bottisota.core.i18n import _
from bottisota.play.scenario import load_scenario, report, run, text_report


def configure_parser(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="scenario_command", required=True)
    r = sub.add_parser("run", help=_("run scenario files and check their expectations"))
    r.add_argument("files", nargs="+", metavar="FILE", help=_("scenario YAML files"))
    r.add_argument("--json", action="store_true", help=_("print the outcome as JSON"))
    add_content(r)


def main(args: argparse.Namespace) -> int:
    """Run each file: 0 when all hold, 1 when an expectation fails; an invalid file
    raises InputError (the command line prints it and exits 2)."""
    specs = [load_scenario(Path(f)) for f in args.files]   # all validated before any runs
    outcomes = [run(spec) for spec in specs]
    if args.json:
        data = [report(o) for o in outcomes]
        json.dump(data[0] if len(data) == 1 else data, sys.stdout, indent=1, default=str)
        print()
    else:
        for o in outcomes:
            print("\n".join(text_report(o)))
    return 0 if all(o.ok for o in outcomes) else 1
