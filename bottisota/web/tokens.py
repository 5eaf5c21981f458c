"""Seat tokens: the random part of each seat's link, kept beside the journal so a
server restarted with `--resume` gives the phones the same links."""
from __future__ import annotations

import json
import os
import secrets
from pathlib import Path

from bottisota.formats.json_text import read_json_file
from bottisota.web.hub import TABLE

TOKEN_BYTES = 12            # 96 bits, url-safe text of 16 characters (short to type)
MAX_BYTES = 64 * 1024       # a seats file is a few hundred bytes
MAX_DEPTH = 4               # {"seats": {seat: token}}


def tokens_path(journal: str | Path) -> Path:
    """`game-1.jsonl` -> `game-1.seats.json` (beside it)."""
    p = Path(journal)
    return p.with_name(p.stem + ".seats.json")


def new_tokens(players: list[str]) -> dict[str, str]:
    """A fresh random token for every player's seat and for the table."""
    return {name: secrets.token_urlsafe(TOKEN_BYTES) for name in [*players, TABLE]}


def save_tokens(path: Path, tokens: dict[str, str]) -> None:
    """Written readable by the owner only (the tokens are the seats' keys); the
    folder is made when the game's journal has not made it yet (`play` writes its
    journal from the first action)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump({"seats": tokens}, fh)


def load_tokens(path: Path, players: list[str]) -> dict[str, str] | None:
    """The saved tokens when they are there and cover every seat, else None. A file
    that is there but is not such JSON (too large, too deep, damaged) is an InputError
    naming the file, line and column: the seats' keys are not silently replaced."""
    if not path.exists():
        return None
    data = read_json_file(path, MAX_BYTES, MAX_DEPTH)
    seats = data.get("seats") if isinstance(data, dict) else None
    if not isinstance(seats, dict):
        return None
    want = [*players, TABLE]
    if not all(isinstance(seats.get(n), str) and seats[n] for n in want):
        return None
    return {n: seats[n] for n in want}


def seat_tokens(journal: str | Path | None, players: list[str],
                robots: list[str] | tuple[str, ...] = ()) -> dict[str, str]:
    """The seats' tokens for a game: those saved beside its journal (a resumed game),
    else new ones, saved there when there is a journal. A seat a robot now plays
    (`robots`) gets a new token every time, never printed: a link given out for it
    before (a game served without robots, resumed with `--robot blue`) no longer
    opens it, and its next player gets a new link too."""
    found = load_tokens(tokens_path(journal), players) if journal is not None else None
    tokens = found if found is not None else new_tokens(players)
    fresh = new_tokens([p for p in robots if p in tokens])
    fresh.pop(TABLE, None)
    tokens.update(fresh)
    if journal is not None and (found is None or fresh):
        save_tokens(tokens_path(journal), tokens)
    return tokens
