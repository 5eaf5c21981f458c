"""The `bottisota` command: play | check | explain | schema | render | preview | scenario |
replay | simulate.

Each subcommand lives in its own module; this file only parses the command
line and turns expected failures into one message and exit code 2.
"""
from __future__ import annotations

import argparse
import os
import sys
from importlib import import_module, metadata

from bottisota.core.errors import InputError, JournalError
from bottisota.formats.content import use_folders

# subcommand -> (module, function, help); each function takes the parsed args, returns an exit code
COMMANDS: dict[str, tuple[str, str, str]] = {
    "play": ("bottisota.view.app", "main", "start the referee's table view (the default)"),
    "check": ("bottisota.commands.check", "main",
              "validate arena, card, rule and scenario files; warn about suspicious ones"),
    "explain": ("bottisota.commands.explain", "main", "explain a code of `bottisota check`"),
    "schema": ("bottisota.formats.schema", "main", "write JSON Schemas for the file formats"),
    "render": ("bottisota.commands.render", "main",
               "draw an arena to PNG, SVG or PDF (1:1 build plans tiled on paper)"),
    "preview": ("bottisota.commands.preview", "main",
                "watch an arena while editing it: redraws on save, shows findings"),
    "scenario": ("bottisota.play.scenario", "main", "run scenario files"),
    "replay": ("bottisota.play.journal", "replay_main", "rebuild a game from its journal"),
    "simulate": ("bottisota.commands.simulate", "main",
                 "play robot-only games and report balance"),
}


def version() -> str:
    """The installed version (the project's own when run from a checkout)."""
    try:
        return metadata.version("bottisota")
    except metadata.PackageNotFoundError:
        return "unknown"


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser; only the chosen subcommand's module is imported (pygame stays
    unloaded for everything but the view)."""
    parser = argparse.ArgumentParser(prog="bottisota", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"bottisota {version()}")
    sub = parser.add_subparsers(dest="command")
    for name, (module, _fn, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        if name == command:
            configure = getattr(import_module(module), "configure_parser", None)
            if configure is not None:
                configure(p)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] in (["--version"], ["-V"]):
        print(f"bottisota {version()}")
        return 0
    if not argv or argv[0].startswith("-") and argv[0] not in ("-h", "--help"):
        argv = ["play", *argv]
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # keep --json output clean
    command = argv[0] if argv and argv[0] in COMMANDS else None
    args = build_parser(command).parse_args(argv)
    if args.command is None:
        build_parser().print_help()
        return 2
    module, fn, _help = COMMANDS[args.command]
    try:
        use_folders(getattr(args, "content", None))
        return int(getattr(import_module(module), fn)(args) or 0)
    except InputError as err:
        print(err, file=sys.stderr)
        return 2
    except JournalError as err:
        print(err, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:          # output piped into `head` and cut: not an error
        sys.stderr.close()
        return 0
