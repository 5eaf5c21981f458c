"""Physical dice typed in at the terminal (D8), for commands run without a window."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bottisota.core.dice import Dice
from bottisota.core.i18n import _, translated


def prompt_dice(read: Callable[[str], str] = input, write: Callable[[str], Any] = print) -> Dice:
    """Physical dice (D8): each roll is asked for with its purpose and typed in;
    anything but 1-6 is asked again."""

    def ask(purpose: str) -> int:
        while True:
            text = read(_("roll a d6 for {purpose}: ").format(purpose=translated(purpose))).strip()
            if text.isdigit() and 1 <= int(text) <= 6:
                return int(text)
            write(_("'{text}' is not a d6 result: type a number from 1 to 6").format(text=text))

    return Dice(ask=ask)
