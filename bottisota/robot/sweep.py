"""Card sweeps for `bottisota simulate --sweep CARD.KEY=A..B[:STEP]`: the same games
played once per value of one number on one card (or one of its weapons), to see
where the card's rating crosses even.

`brawler.armour=3..5` sweeps the brawler's armour over 3, 4 and 5;
`sniper.Rail gun.range=30..50:10` the range of its weapon named "Rail gun" over 30,
40 and 50.
"""
from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from bottisota.core.cards import BotCard, Weapon
from bottisota.core.errors import InputError, Problem
from bottisota.core.i18n import _, number
from bottisota.formats.spec_types import did_you_mean

MAX_VALUES = 50

CARD_NUMBERS = tuple(f.name for f in fields(BotCard)
                     if f.name in ("move", "turn", "min_move", "base", "height", "armour",
                                   "structure", "copies", "armour_mod", "hit_mod"))
WEAPON_NUMBERS = ("range", "to_hit", "hits", "armour_mod", "strength", "ammo")
WHOLE = {"armour", "structure", "copies", "armour_mod", "hit_mod", "to_hit", "hits", "ammo"}


@dataclass(frozen=True)
class Override:
    """One value of a sweep: a card's (or its weapon's) number set to `value`."""

    card: str
    key: str
    value: float
    weapon: str | None = None

    def apply(self, catalogue: dict[str, BotCard]) -> dict[str, BotCard]:
        """The catalogue with this card changed."""
        card = catalogue[self.card]
        # the key is one of CARD_NUMBERS or WEAPON_NUMBERS, checked by parse (Any: the
        # field named by the command line, whose type the key decides)
        change: dict[str, Any] = {
                self.key: int(self.value) if self.key in WHOLE else float(self.value)}
        if self.weapon is None:
            changed = replace(card, **change)
        else:
            weapons = tuple(replace(w, **change) if w.name == self.weapon else w
                            for w in card.weapons)
            changed = replace(card, weapons=weapons)
        return {**catalogue, self.card: changed}

    @property
    def label(self) -> str:
        where = f"{self.card}.{self.weapon}" if self.weapon else self.card
        return f"{where}.{self.key}={number(self.value, 2)}"


def _refuse(text: str) -> InputError:
    return InputError([Problem("--sweep", 0, 0, "", text)])


def _values(text: str, whole: bool) -> list[float]:
    span, _sep, step_text = text.partition(":")
    low_text, sep, high_text = span.partition("..")
    try:
        low = float(low_text)
        high = float(high_text) if sep else low
        step = float(step_text) if step_text else 1.0
    except ValueError:
        raise _refuse(_("'{text}': expected A..B or A..B:STEP with numbers "
                        "(3..5, 30..50:5)").format(text=text)) from None
    if step <= 0 or high < low:
        raise _refuse(_("'{text}': expected A..B with A at most B and a step above 0")
                      .format(text=text))
    count = int((high - low) / step + 1e-9) + 1
    if count > MAX_VALUES:
        raise _refuse(_("'{text}' gives {count} values; at most {most} are swept").format(
            text=text, count=count, most=MAX_VALUES))
    values = [round(low + i * step, 9) for i in range(count)]
    if whole and any(v != int(v) for v in values):
        raise _refuse(_("'{text}': this number is a whole number").format(text=text))
    return values


def parse(text: str, catalogue: dict[str, BotCard]) -> list[Override]:
    """The overrides of `CARD.KEY=A..B[:STEP]` or `CARD.WEAPON.KEY=A..B[:STEP]`,
    checked against the cards (one clear message for a bad one)."""
    target, sep, span = text.partition("=")
    if not sep or "." not in target:
        raise _refuse(_("'{text}': expected CARD.KEY=A..B, as in brawler.armour=3..5")
                      .format(text=text))
    card_id, _dot, rest = target.partition(".")
    card = catalogue.get(card_id)
    if card is None:
        raise _refuse(_("no bot card has the id '{card}'").format(card=card_id)
                      + did_you_mean(card_id, sorted(catalogue)))
    weapon_name, _dot, key = rest.rpartition(".")
    weapon: Weapon | None = None
    if weapon_name:
        weapon = card.weapon(weapon_name)
        if weapon is None:
            names = [w.name for w in card.weapons]
            raise _refuse(_("{card} has no weapon '{weapon}'").format(
                card=card_id, weapon=weapon_name) + did_you_mean(weapon_name, names))
    keys = WEAPON_NUMBERS if weapon is not None else CARD_NUMBERS
    if key not in keys:
        raise _refuse(_("'{key}' cannot be swept; one of: {keys}").format(
            key=key, keys=", ".join(keys)) + did_you_mean(key, list(keys)))
    return [Override(card_id, key, v, weapon.name if weapon else None)
            for v in _values(span, key in WHOLE)]
