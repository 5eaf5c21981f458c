"""Dice (D8): one seeded stream per game, forced rolls, or typed-in physical dice.

Every roll has a purpose and is recorded. Draw method (fixed, since seeds are
recorded in journals): `random.Random(seed).randint(1, 6)` for each d6.
Random choices among n things (a teleporter, a missile's tie) are made with
d6 rolls too (`pick`), so forced and physical dice can decide them.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from bottisota.core.errors import DiceExhausted
from bottisota.core.i18n import N_


class DieWanted(Exception):
    """A die rolled by hand is asked for and has not been typed yet (`purpose`): the
    game then waits for it (`Game.waiting`) instead of rolling on."""

    def __init__(self, purpose: str) -> None:
        super().__init__(purpose)
        self.purpose = purpose


def by_hand(purpose: str) -> int:
    """The asker of dice rolled by hand and typed on a phone: a die is never asked
    inside a roll (`Game.act(..., typed=...)` brings them), so any ask is one too many."""
    raise DieWanted(purpose)


@dataclass(frozen=True, slots=True)
class Roll:
    """One die rolled: what for and its value."""

    purpose: str
    value: int


@dataclass
class Dice:
    """A source of d6 results.

    - `Dice(seed=7)`: a seeded stream.
    - `Dice(forced=[4, 4, 3])`: results used in order; running out raises DiceExhausted.
    - `Dice(ask=fn)`: physical dice; `fn(purpose)` returns the typed-in result.
    """

    seed: int | None = None
    forced: list[int] | None = None
    ask: Callable[[str], int] | None = None
    rolls: list[Roll] = field(default_factory=list)
    _rng: random.Random = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)
        if self.forced is not None:
            self.forced = list(self.forced)

    @property
    def used(self) -> int:
        return len(self.rolls)

    def d6(self, purpose: str) -> int:
        """Roll one d6 for the stated purpose."""
        if self.forced is not None:
            if self.used >= len(self.forced):
                raise DiceExhausted(
                        N_("forced dice ran out at roll {used} ({purpose})").format(
                            used=self.used + 1, purpose=purpose))
            value = int(self.forced[self.used])
        elif self.ask is not None:
            value = int(self.ask(purpose))
            if not 1 <= value <= 6:
                raise ValueError(f"a d6 shows 1 to 6, not {value}")
        else:
            value = self._rng.randint(1, 6)
        self.rolls.append(Roll(purpose, value))
        return value

    def roll(self, spec: int | str, purpose: str) -> int:
        """An amount given as an integer or 'd6' (weapon `hits`, D6)."""
        if isinstance(spec, str):
            if spec.strip().lower() != "d6":
                raise ValueError(f"unknown dice amount {spec!r}")
            return self.d6(purpose)
        return int(spec)

    def pick(self, n: int, purpose: str) -> int:
        """A uniformly random index in range(n), decided by d6 rolls (re-rolled
        where a roll would be unfair). n == 1 rolls nothing."""
        if n <= 0:
            raise ValueError("nothing to pick from")
        if n == 1:
            return 0
        digits, span = 1, 6
        while span < n:
            digits, span = digits + 1, span * 6
        limit = span - span % n
        while True:
            value = 0
            for _ in range(digits):
                value = value * 6 + self.d6(
                        N_("{purpose} (1 of {n})").format(purpose=purpose, n=n)) - 1
            if value < limit:
                return value % n

    def state(self) -> object:
        """The stream's position (for copies); forced/physical dice use `used`."""
        return self._rng.getstate()

    def copied(self) -> Dice:
        """An independent copy at the same position (for previews that may roll)."""
        twin = Dice(seed=self.seed, forced=self.forced, ask=self.ask)
        twin.rolls = list(self.rolls)
        twin._rng.setstate(self._rng.getstate())
        return twin
