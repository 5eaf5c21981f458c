"""Bot cards, weapons and mods (formats.md), as immutable values."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

Locomotion = Literal["wheeled", "tracked", "walker", "flier", "hover"]
LOCOMOTIONS: tuple[str, ...] = ("wheeled", "tracked", "walker", "flier", "hover")
GROUND: frozenset[str] = frozenset({"wheeled", "tracked", "walker"})
FLYING: frozenset[str] = frozenset({"flier", "hover"})
WEAPON_KINDS: tuple[str, ...] = (
    "gun", "melee", "rocket", "missile", "spray", "push", "pull", "mine", "magnetic_mine",
)
MOUNTS: tuple[str, ...] = ("nose", "turret")
EFFECTS: tuple[str, ...] = ("rust", "leaflet")
# stats that are counts or d6 modifiers, never fractions (structure, armour_mod, hit_mod)
WHOLE_NUMBER_STATS: frozenset[str] = frozenset({"structure", "armour_mod", "hit_mod"})


@dataclass(frozen=True, slots=True)
class Weapon:
    """One weapon system of a card (formats.md, bot card)."""

    name: str
    kind: str = "gun"
    mount: str = "nose"
    range: float = 30.0
    to_hit: int = 4
    hits: int | str = 1          # an integer, or "d6"
    armour_mod: int = 0
    explosive: bool = False
    strength: float = 0.0
    ammo: int | None = None
    effect: str | None = None

    @property
    def is_mine(self) -> bool:
        return self.kind in ("mine", "magnetic_mine")


@dataclass(frozen=True, slots=True)
class BotCard:
    """A bot card (formats.md). Numbers are cm, points and d6 targets."""

    id: str
    name: str
    locomotion: str
    move: float
    armour: int
    structure: int
    turn: float = 2.0
    min_move: float = 0.0
    base: float = 2.0
    height: float = 2.0
    copies: int = 1
    weapons: tuple[Weapon, ...] = ()
    armour_mod: int = 0          # from parts: added to its armour test rolls
    hit_mod: int = 0             # from parts: added to its to-hit rolls

    @property
    def radius(self) -> float:
        return self.base / 2.0

    @property
    def is_ground(self) -> bool:
        return self.locomotion in GROUND

    @property
    def is_flying(self) -> bool:
        return self.locomotion in FLYING

    def weapon(self, name: str) -> Weapon | None:
        for w in self.weapons:
            if w.name == name:
                return w
        return None

    def with_mods(self, mods: list[Mod] | tuple[Mod, ...]) -> BotCard:
        """This card as modified by the given parts (formats.md, mods)."""
        if not mods:
            return self
        values = {k: getattr(self, k) for k in ("move", "turn", "structure", "min_move",
                                                 "armour_mod", "hit_mod")}
        weapons = list(self.weapons)
        for mod in mods:
            for key, amount in mod.modifies.items():
                total = values[key] + amount
                values[key] = int(round(total)) if key in WHOLE_NUMBER_STATS else total
            weapons.extend(mod.weapons)
        return replace(self, weapons=tuple(weapons), **values)


@dataclass(frozen=True, slots=True)
class Mod:
    """An extra part or research mod (formats.md)."""

    id: str
    name: str
    deck: str = "parts"
    modifies: dict[str, float] = field(default_factory=dict)
    weapons: tuple[Weapon, ...] = ()

    def __hash__(self) -> int:
        return hash(self.id)
