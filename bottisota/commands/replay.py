"""`bottisota replay GAME.jsonl [--events]`: rebuild a game from its journal, check
every line, print a summary.

Exit 0 when every line replays (a torn last line, from a power cut, is reported,
backed up and dropped); 2 with one message naming the line when the journal is
refused (edited, cut off mid-file, not a journal, over the limits).
"""
from __future__ import annotations

import argparse
import json
import sys

from bottisota.core.i18n import _, number
from bottisota.engine.game import Game
from bottisota.play.journal import read
from bottisota.play.journal_data import default


def configure_parser(p: argparse.ArgumentParser) -> None:
    p.add_argument("journal", help=_("a game's journal (JSON lines)"))
    p.add_argument("--events", action="store_true", help=_("also print every event"))


def summary(game: Game) -> list[str]:
    """A few lines about the game's state: round, turn, scores, bots."""
    s = game.state
    out = [_("round {round}, ").format(round=s.round) + (_("game over") if s.over else
                                  _("{whose_turn} to {expected}").format(
                                      whose_turn=game.whose_turn(), expected=game.expected())),
           _("actions: {history}, dice rolled: {used}").format(
               history=len(game.history), used=s.dice.used),
           "scores: " + ", ".join(_("{p} {p2} ({p3} kills)").format(
                                      p=p, p2=s.scores.get(p, 0), p3=s.kills.get(p, 0))
                                  for p in s.players)]
    for b in s.bots.values():
        where = ("destroyed" if b.destroyed else _("off the table") if b.removed
                 else _("at ({x}, {y}) facing {facing}").format(
                          x=number(b.x, 2, fixed=True), y=number(b.y, 2, fixed=True),
                          facing=number(b.facing, 1, fixed=True)))
        out.append(_("  {id} ({player}, {id2}): {where}, damage {damage}/{structure}").format(
                       id=b.id, player=b.player, id2=b.card.id, where=where, damage=b.damage,
                       structure=b.stats.structure) + (_(", on overwatch") if b.overwatch else ""))
    return out


def main(args: argparse.Namespace) -> int:
    """Rebuild, check, print a summary (a refused journal raises JournalError: exit 2)."""
    loaded = read(args.journal)
    game = loaded.game
    if loaded.notice:
        print(f"{args.journal}: {loaded.notice}", file=sys.stderr)
    if loaded.version < 2:
        print(_("{journal}: journal version {version}, written before line digests: edits to "
                "it cannot be detected").format(
                  journal=args.journal, version=loaded.version), file=sys.stderr)
    if getattr(args, "events", False):
        for entry in game.history:
            print(f"{entry.action}")
            for e in entry.events:
                print("   ", json.dumps(e, default=default))
    print(_("{journal}: replayed {history} actions; every event matches").format(
              journal=args.journal, history=len(game.history)))
    for line in summary(game):
        print(line)
    return 0
