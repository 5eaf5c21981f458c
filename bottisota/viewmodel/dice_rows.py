"""The dice panel's rows: the rolls of one decision shown once, together, with what
they decided. A pick among n (a card drawn from a deck, `Dice.pick`) rolls a few d6
as the digits of one number: those dice are one row, "= 4 of 15" (or "= rolled
again" when the number was past the last fair one)."""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bottisota.core.i18n import _

if TYPE_CHECKING:
    from bottisota.core.dice import Roll

_PICK = re.compile(r"^(?P<what>.*)\s\(1\sof\s(?P<n>\d+)\)$")   # Dice.pick's purpose


@dataclass(frozen=True)
class DiceRow:
    """Dice rolled for one thing: their values, what for, and what they decided."""

    values: tuple[int, ...]
    purpose: str
    decided: str = ""


def pick_digits(n: int) -> tuple[int, int]:
    """How many d6 a pick among n rolls, and the first unfair number (as `Dice.pick`)."""
    digits, span = 1, 6
    while span < n:
        digits, span = digits + 1, span * 6
    return digits, span - span % n


def dice_rows(rolls: Sequence[Roll]) -> list[DiceRow]:
    """The rolls (oldest first) as rows, oldest first."""
    rows: list[DiceRow] = []
    i = 0
    while i < len(rolls):
        purpose = rolls[i].purpose
        found = _PICK.match(purpose)
        n = int(found.group("n")) if found else 0
        digits = pick_digits(n)[0] if n > 1 else 1
        group = [r.value for r in rolls[i:i + digits] if r.purpose == purpose]
        if len(group) < digits or n <= 1:
            rows.append(DiceRow((rolls[i].value,), purpose))
            i += 1
            continue
        value = 0
        for v in group:
            value = value * 6 + v - 1
        limit = pick_digits(n)[1]
        decided = (_("= {k} of {n}").format(k=value % n + 1, n=n) if value < limit
                   else _("= rolled again"))
        rows.append(DiceRow(tuple(group), found.group("what") if found else purpose, decided))
        i += digits
    return rows
