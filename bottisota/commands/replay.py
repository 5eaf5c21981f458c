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

from bottisota.engine.game import Game
from bottisota.play.journal import read
from bottisota.play.journal_data import default


def configure_parser(p: argparse.ArgumentParser) -> None:
    p.add_argument("journal", help="a game's journal (JSON lines)")
    p.add_argument("--events", action="store_true", help="also print every event")


def summary(game: Game) -> list[str]:
    """A few lines about the game's state: round, turn, scores, bots."""
    s = game.state
    out = [f"round {s.round}, " + ("game over" if s.over else
                                  f"{game.whose_turn()} to {game.expected()}"),
           f"actions: {len(game.history)}, dice rolled: {s.dice.used}",
           "scores: " + ", ".join(f"{p} {s.scores.get(p, 0)} ({s.kills.get(p, 0)} kills)"
                                  for p in s.players)]
    for b in s.bots.values():
        where = ("destroyed" if b.destroyed else "off the table" if b.removed
                 else f"at ({b.x:.2f}, {b.y:.2f}) facing {b.facing:.1f}")
        out.append(f"  {b.id} ({b.player}, {b.card.id}): {where}, damage {b.damage}"
                   f"/{b.stats.structure}" + (", on overwatch" if b.overwatch else ""))
    return out


def main(args: argparse.Namespace) -> int:
    """Rebuild, check, print a summary (a refused journal raises JournalError: exit 2)."""
    loaded = read(args.journal)
    game = loaded.game
    if loaded.notice:
        print(f"{args.journal}: {loaded.notice}", file=sys.stderr)
    if loaded.version < 2:
        print(f"{args.journal}: journal version {loaded.version}, written before line "
              "digests: edits to it cannot be detected", file=sys.stderr)
    if getattr(args, "events", False):
        for entry in game.history:
            print(f"{entry.action}")
            for e in entry.events:
                print("   ", json.dumps(e, default=default))
    print(f"{args.journal}: replayed {len(game.history)} actions; every event matches")
    for line in summary(game):
        print(line)
    return 0
