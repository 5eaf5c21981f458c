"""`bottisota preview ARENA [CARDS...]`: a window that redraws the arena within a second
of each save, marks the errors and warnings of `bottisota check` at their spots, and
tells what is under the mouse: floor height, features and which bots reach it. The
designer's own arena is shaped on the map (select, drag, turn, resize, add, delete,
undo; measure; sight and reach from a spot: view.preview_edit), each change written
to the file. Esc or q closes it. `--frames N` stops after N frames (for scripts).
"""
from __future__ import annotations

import argparse
import os
from pathlib import Path

from bottisota.commands.check import file_findings
from bottisota.commands.options import add_content, add_rules, house_rules
from bottisota.core.errors import InputError
from bottisota.core.i18n import _
from bottisota.formats import content
from bottisota.formats.loading import arena_from_dict
from bottisota.formats.yaml_source import load_yaml
from bottisota.geometry.lint import arena_findings
from bottisota.play.reach import ground_reach, reach_findings

FPS = 30


def configure_parser(p: argparse.ArgumentParser) -> None:
    p.add_argument("arena", metavar="ARENA", help=_("arena file, or the name of an arena"))
    p.add_argument("cards", nargs="*", metavar="CARDS",
                   help=_("card or mod files to check beside it (their findings are listed)"))
    p.add_argument("--scale", type=float, default=8.0, metavar="PX_PER_CM",
                   help=_("pixels per cm (default 8)"))
    p.add_argument("--frames", type=int, default=None, help=_("stop after this many frames"))
    add_content(p)
    add_rules(p)


def loader(arena_path: Path, cards: list[Path], rules):
    """A function that reads the files afresh and returns what the preview shows: the
    arena read once, its ground reach worked out once (the findings use the same)."""
    from bottisota.view.preview import Loaded

    def load() -> Loaded:
        card_findings = [f for card in cards for f in file_findings(card, None, rules)[1]]
        try:
            data, marks = load_yaml(arena_path, _("arena"))
            arena = arena_from_dict(data, str(arena_path), marks, rules)
        except InputError:
            return Loaded(None, file_findings(arena_path, "arena", rules)[1] + card_findings)
        reach = ground_reach(arena, rules)
        findings = arena_findings(arena, marks) + reach_findings(arena, rules, marks, reach)
        return Loaded(arena, findings + card_findings, reach)

    return load


def editable(path: Path) -> bool:
    """A designer's own arena file: not one of the bundled arenas, and writable."""
    bundled = content.bundled_dir("arena")
    if bundled is not None and path.resolve().parent == Path(bundled).resolve():
        return False
    return os.access(path, os.W_OK)


def make_preview(args: argparse.Namespace):
    """The Preview for these arguments (no window yet); the designer's own arena file
    can be edited on it."""
    from bottisota.formats.arena_edit import ArenaEditor
    from bottisota.view.preview import Preview
    from bottisota.view.preview_edit import EditTool

    rules = house_rules(args)
    arena_path = content.find("arena", args.arena)
    cards = [Path(c) for c in args.cards]
    tool = EditTool(ArenaEditor.open(arena_path)) if editable(arena_path) else None
    return Preview([arena_path, *cards], loader(arena_path, cards, rules), scale=args.scale,
                   tool=tool)


def main(args: argparse.Namespace) -> int:
    from bottisota.view.preview import run_window

    preview = make_preview(args)
    run_window(preview, args.frames, FPS)
    print(_("preview closed after {generation} loads of {v}").format(
              generation=preview.generation, v=preview.files[0]))
    return 0
