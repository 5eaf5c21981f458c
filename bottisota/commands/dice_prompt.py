"""Physical dice typed in at the terminal (D8), for commands run without a window."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bottisota.core.dice import Dice


def prompt_dice(read: Callable[[str], str] = input, write: Callable[[str], Any] = print) -> Dice:
    """Physical dice (D8): each roll is asked for with its purpose and typed in;
    anything but 1-6 is asked again."""

    def ask(purpose: str) -> int:
        while True:
            text = read(f"roll a d6 for {purpose}: ").strip()
            if text.isdigit() and 1 <= int(text) <= 6:
                return int(text)
            write(f"'{text}' is not a d6 result: type a number from 1 to 6")

    return Dice(ask=ask)
