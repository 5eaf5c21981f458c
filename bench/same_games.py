"""Same seed, same game: seeded robot games journaled, one line per game with the
digest of its journal's every line, for comparing two versions of the code.

Run: python bench/same_games.py [--games N] > mine.txt   (and the same with the
other version's bench/same_games.py), then `diff` the two outputs: a speed change
must leave every game's journal byte for byte the same.

Games: 2 seats on the warehouse, 8 and 16 seats on synthetic-500 (where the robots'
sight rows are shared, `situation.sees`), seeds 1..N each.
"""
from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import math
import sys
import tempfile
from pathlib import Path

from common import bundled, synthetic

from bottisota.formats.loading import bundled_rules, load_catalogue
from bottisota.formats.robot_tables import find_personality
from bottisota.play.journal import journal_to
from bottisota.robot.match import play

ROBOTS = ["aggressive", "sniper"]


def games(n: int) -> list[tuple[str, object, int, int]]:
    out = []
    for arena, seats in ((bundled("warehouse"), 2), (synthetic(500), 8), (synthetic(500), 16)):
        for seed in range(1, n + 1):
            out.append((arena.name, arena, seats, seed))
    return out


def same_text(path: Path) -> str:
    """The journal's lines and its state digests, without what names where the code
    lives (the header's `arena_source`, a path, and the line digests chained from it)."""
    digest = hashlib.sha256()
    lines = path.read_text(encoding="utf-8").splitlines()
    for text in lines:
        line = json.loads(text)
        line.pop("arena_source", None)
        line.pop("digest", None)
        digest.update(json.dumps(line, sort_keys=True).encode())
    return f"{len(lines)} lines {digest.hexdigest()[:16]}"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=4, help="seeds per kind of game")
    args = p.parse_args()
    rules = bundled_rules()
    with tempfile.TemporaryDirectory() as tmp:
        for name, arena, seats, seed in games(args.games):
            catalogue, mods = load_catalogue()
            copies = max(4, math.ceil(4 * seats / len(catalogue)))
            cards = {k: dataclasses.replace(c, copies=copies) for k, c in catalogue.items()}
            pers = [find_personality(ROBOTS[i % 2]) for i in range(seats)]
            path = Path(tmp) / f"{name}-{seats}-{seed}.jsonl"
            play(arena, rules, cards, mods, pers, seed=seed, round_limit=6,
                 time_limit=None, on_start=journal_to(path))
            print(f"{name} {seats} seats seed {seed}: {same_text(path)}", flush=True)
    sys.exit(0)


if __name__ == "__main__":
    main()
