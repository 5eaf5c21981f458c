"""Actions and movement steps: small frozen values with a text form (formats.md)."""
from __future__ import annotations

from dataclasses import dataclass

# --- movement steps (formats.md) -------------------------------------------------

@dataclass(frozen=True, slots=True)
class Forward:
    """A movement step: straight ahead, cm."""

    cm: float

    def __str__(self) -> str:
        return f"forward {self.cm:g}"


@dataclass(frozen=True, slots=True)
class Back:
    """A movement step: straight back, cm."""

    cm: float

    def __str__(self) -> str:
        return f"back {self.cm:g}"


@dataclass(frozen=True, slots=True)
class Turn:
    """A movement step: turn in place, degrees (+ right)."""

    degrees: float                  # + is right (D2)

    def __str__(self) -> str:
        return f"turn {self.degrees:+g}"


@dataclass(frozen=True, slots=True)
class Strafe:
    """A movement step: sideways at a bearing to the facing, cm."""

    bearing: float                  # relative to the facing, 0 ahead, 90 right
    distance: float

    def __str__(self) -> str:
        return f"strafe {self.distance:g} at {self.bearing:g}"


@dataclass(frozen=True, slots=True)
class Loop:
    """A movement step: the loop manoeuvre."""

    def __str__(self) -> str:
        return "loop"


@dataclass(frozen=True, slots=True)
class Lift:
    """A movement step: ride a lift up or down."""

    direction: str                  # "up" | "down"

    def __str__(self) -> str:
        return f"lift {self.direction}"


@dataclass(frozen=True, slots=True)
class DropMine:
    """A movement step: drop a mine from a weapon."""

    weapon: str

    def __str__(self) -> str:
        return f"drop mine {self.weapon}"


Step = Forward | Back | Turn | Strafe | Loop | Lift | DropMine


# --- actions -----------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Place:
    """Put the player's drawn bot on the table (R6, R55)."""

    bot: str
    x: float
    y: float
    facing: float = 0.0


@dataclass(frozen=True, slots=True)
class Move:
    """The movement phase: steps in order. `hold_fire` names watchers that hold."""

    bot: str
    steps: tuple[Step, ...] = ()
    hold_fire: tuple[str, ...] = ()

    def __str__(self) -> str:
        return f"{self.bot} moves: " + (", ".join(map(str, self.steps)) or "stays")


@dataclass(frozen=True, slots=True)
class ShotOrder:
    """One weapon's shot in a Shoot action: at whom (or where)."""

    weapon: str
    target: str | None = None               # bot id (None for weapons that need none)
    at: tuple[float, float] | None = None   # a point, where a weapon may aim at one


@dataclass(frozen=True, slots=True)
class Shoot:
    """The fire action: a bot's shots."""

    bot: str
    shots: tuple[ShotOrder, ...]

    def __str__(self) -> str:
        return f"{self.bot} shoots: " + ", ".join(f"{s.weapon} at {s.target}" for s in self.shots)


@dataclass(frozen=True, slots=True)
class SetOverwatch:
    """A bot goes on overwatch."""

    bot: str


@dataclass(frozen=True, slots=True)
class SelfDestruct:
    """A bot self-destructs."""

    bot: str


@dataclass(frozen=True, slots=True)
class Correct:
    """The referee's hand: the game is made to show what the physical table shows (a
    bumped miniature, a misread die), with a reason. Any time, by nobody's turn; it
    changes only what it names and ends no turn. `score` sets the score of the bot's
    player; `ammo` sets shots left per weapon; `doors` holds doors open (True) or leaves
    them to R47 again (False), each named by its id or "#" and its index."""

    bot: str
    reason: str
    at: tuple[float, float] | None = None
    facing: float | None = None
    damage: int | None = None
    ammo: tuple[tuple[str, int], ...] = ()
    overwatch: bool | None = None
    rust: int | None = None
    leaflet: int | None = None
    score: int | None = None
    doors: tuple[tuple[str, bool], ...] = ()

    def __str__(self) -> str:
        return f"correction of {self.bot}: {self.reason}"


SERVICE_CHOICES: tuple[str, ...] = ("reload", "repair", "rust", "leaflet", "part")
"""What a service point gives (R49, R50, R52): the one list of them."""
LIFT_DIRECTIONS: tuple[str, ...] = ("up", "down")


@dataclass(frozen=True, slots=True)
class Service:
    """A bot uses a service point."""

    bot: str
    choice: str                     # one of SERVICE_CHOICES (R49, R50)


@dataclass(frozen=True, slots=True)
class Pass:
    """Do nothing in the shooting phase (D19)."""

    bot: str


Action = Place | Move | Shoot | SetOverwatch | SelfDestruct | Service | Pass | Correct
"""Anything a player (or robot) asks the game to do: `Game.act` takes one."""


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why an action (or step) is illegal: the rule, the reason and where."""

    rule: str                       # "R42", "D29", ...
    message: str
    at: tuple[float, float] | None = None
    step: int | None = None         # index of the refused step, for moves

    def __str__(self) -> str:
        return f"{self.rule}: {self.message}"
