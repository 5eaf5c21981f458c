"""The `bottisota` command: play | check | explain | schema | render | preview | scenario |
replay | simulate.

Each subcommand lives in its own module; this file only parses the command
line and turns failures into one message and an exit code:

- 0: done; 1: a scenario expectation failed (`scenario run`);
- 2: bad input (a file, an option, a journal refused, a path that cannot be
  read or written): one message naming it;
- 74: a journal could not be written (disk full);
- 70: an unexpected error (a bug): its traceback goes to a log file (the
  platform's state folder, else the temp folder) and the message says where,
  for a bug report; no traceback on the terminal;
- 130: interrupted (Ctrl+C).
"""
from __future__ import annotations

import argparse
import gc
import os
import platform
import sys
import tempfile
import time
import traceback
from collections.abc import Sequence
from importlib import import_module
from pathlib import Path
from typing import Any

from bottisota.commands.argparse_words import use_catalogue
from bottisota.core.errors import InputError, JournalError, JournalWriteError
from bottisota.core.i18n import LANGUAGES, N_, _, set_language
from bottisota.core.printable import printable
from bottisota.formats.content import use_folders

# numpy's OpenBLAS starts a thread per core when it is imported; the referee does no
# large linear algebra, and those threads cost some 70 ms of CPU at every start (and a
# set per process in simulate's workers). Set before numpy is imported (nothing above
# imports it: a test holds that); a user's own setting is kept.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

EXIT_BAD_INPUT = 2
EXIT_WRITE_FAILED = 74      # EX_IOERR
EXIT_BUG = 70               # EX_SOFTWARE

# subcommand -> (module, function, help); each function takes the parsed args, returns an exit code
COMMANDS: dict[str, tuple[str, str, str]] = {
    "play": ("bottisota.commands.play", "main", N_("start the referee's table view (the default)")),
    "check": ("bottisota.commands.check", "main",
              N_("validate arena, card, rule and scenario files; warn about suspicious ones")),
    "explain": ("bottisota.commands.explain", "main", N_("explain a code of `bottisota check`")),
    "schema": ("bottisota.commands.schema", "main", N_("write JSON Schemas for the file formats")),
    "render": ("bottisota.commands.render", "main",
               N_("draw an arena to PNG, SVG or PDF (1:1 build plans tiled on paper)")),
    "preview": ("bottisota.commands.preview", "main",
                N_("watch an arena while editing it: redraws on save, shows findings")),
    "scenario": ("bottisota.commands.scenario", "main", N_("run scenario files")),
    "replay": ("bottisota.commands.replay", "main", N_("rebuild a game from its journal")),
    "simulate": ("bottisota.commands.simulate", "main",
                 N_("play robot-only games and report balance")),
    "serve": ("bottisota.commands.serve", "main", N_("serve the game to phones, with no window")),
    "camera": ("bottisota.commands.camera", "main",
               N_("the camera over the table: markers, calibration, check mode "
                  "(the extra bottisota[camera])")),
    "docs": ("bottisota.commands.docs", "main",
             N_("print the documents shipped with the program (rules, formats, tutorial)")),
}


def version() -> str:
    """The installed version (the project's own when run from a checkout)."""
    from importlib import metadata  # reads package metadata: only when asked

    try:
        return metadata.version("bottisota")
    except metadata.PackageNotFoundError:
        return "unknown"


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser; only the chosen subcommand's module is imported (pygame stays
    unloaded for everything but the view)."""
    parser = argparse.ArgumentParser(prog="bottisota", description=_(
        "Bottisota Referee: play, check, explain, schema, render, preview, "
        "scenario, replay, simulate, serve"))
    parser.add_argument("--version", action=VersionAction)
    add_lang(parser)
    sub = parser.add_subparsers(dest="command")
    for name, (module, _fn, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=_(help_text), description=_(help_text))
        add_lang(p)
        if name == command:
            configure = getattr(import_module(module), "configure_parser", None)
            if configure is not None:
                configure(p)
    return parser


class VersionAction(argparse._VersionAction):
    """argparse's `--version`, the version read (package metadata) only when asked for."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: str | Sequence[Any] | None, option_string: str | None = None) -> None:
        self.version = f"bottisota {version()}"
        super().__call__(parser, namespace, values, option_string)


def add_lang(p: argparse.ArgumentParser) -> None:
    """`--lang fi|en` (every command): the language of the referee's words."""
    p.add_argument("--lang", choices=LANGUAGES, default=argparse.SUPPRESS,
                   help=_("the referee's language: fi (suomi) or en (English); "
                          "default: the system locale (LANG, LC_ALL, LC_MESSAGES)"))


def lang_option(argv: list[str]) -> str | None:
    """The language `--lang` asks for (read before the parser, so help is translated too)."""
    for i, arg in enumerate(argv):
        value = argv[i + 1] if arg == "--lang" and i + 1 < len(argv) else (
            arg.partition("=")[2] if arg.startswith("--lang=") else None)
        if value in LANGUAGES:
            return value
    return None


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    set_language(lang_option(argv))
    use_catalogue()                  # argparse's own words ("usage:", its errors) too
    while argv[:1] == ["--lang"] or argv[:1] and argv[0].startswith("--lang="):
        argv = argv[2:] if argv[0] == "--lang" else argv[1:]   # set: `--lang fi explain R19`
    if argv[:1] in (["--version"], ["-V"]):
        print(f"bottisota {version()}")
        return 0
    if not argv or argv[0].startswith("-") and argv[0] not in ("-h", "--help"):
        argv = ["play", *argv]
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # keep --json output clean
    try:
        return _run(argv)
    except (InputError, JournalError) as err:
        print(printable(str(err), lines_ok=True), file=sys.stderr)
        return EXIT_BAD_INPUT
    except JournalWriteError as err:
        print(printable(_("bottisota: {err}").format(err=err), lines_ok=True), file=sys.stderr)
        return EXIT_WRITE_FAILED
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:          # output piped into `head` and cut: not an error
        sys.stderr.close()
        return 0
    except OSError as err:
        if err.filename is None:     # not about a file the user named: a bug
            return report_bug(err, argv)
        print(_("bottisota: {file}: {problem}").format(file=err.filename,
                                                        problem=err.strerror or err),
              file=sys.stderr)
        return EXIT_BAD_INPUT
    except Exception as err:         # a bug: the details to a file, one message to the user
        return report_bug(err, argv)


def _run(argv: list[str]) -> int:
    # start-up: the imports make some 50,000 containers that last as long as the
    # program; the cyclic garbage collector walking them again and again as they come
    # (80-odd rounds) would cost 0.02-0.05 s of a start. It waits until the command's
    # modules are in, then leaves those objects out of its rounds (frozen) while the
    # command runs.
    collecting = gc.isenabled()
    gc.disable()
    try:
        try:
            command = argv[0] if argv and argv[0] in COMMANDS else None
            args = build_parser(command).parse_args(argv)
            if args.command is None:
                build_parser().print_help()
                return EXIT_BAD_INPUT
            module, fn, _help = COMMANDS[args.command]
            use_folders(getattr(args, "content", None))
            run = getattr(import_module(module), fn)
        finally:
            gc.freeze()
            if collecting:
                gc.enable()
        return int(run(args) or 0)
    finally:
        gc.unfreeze()                # (a caller's objects, as in tests, collected as before)


def log_folder() -> Path:
    """Where crash logs go: $XDG_STATE_HOME/bottisota (default ~/.local/state/bottisota);
    the temp folder when that cannot be made."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    folder = Path(base) / "bottisota"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        return folder
    except OSError:
        return Path(tempfile.gettempdir())


def report_bug(err: BaseException, argv: list[str]) -> int:
    """Write the traceback to a crash log and tell the user where (exit 70)."""
    text = (f"bottisota {' '.join(argv)}\n"
            f"python {platform.python_version()} on {platform.platform()}\n"
            f"time {time.strftime('%Y-%m-%d %H:%M:%S %z')}\n\n"
            + "".join(traceback.format_exception(type(err), err, err.__traceback__)))
    stamp = time.strftime("crash-%Y%m%d-%H%M%S")
    where: Path | None = None
    for folder in (log_folder(), Path(tempfile.gettempdir())):
        try:
            fd, name = tempfile.mkstemp(prefix=stamp + "-", suffix=".log", dir=folder)
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(text)
            where = Path(name)
            break
        except OSError:
            continue
    what = f"{type(err).__name__}: {str(err)[:200]}" if str(err) else type(err).__name__
    try:
        print(_("bottisota: an unexpected error stopped the command ({what}). This is a bug; "
                "the details are in {where} — please attach that file to a bug report.").format(
                  what=what, where=where) if where else
              _("bottisota: an unexpected error stopped the command ({what}). This is a bug; "
                "no log could be written.").format(what=what), file=sys.stderr)
    except (OSError, ValueError):
        pass
    return EXIT_BUG
