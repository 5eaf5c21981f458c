"""The game state: what changes during a game (positions, damage, turn, score).

The static game (arena, house rules, card catalogue) is held by reference;
`GameState.copy()` gives an independent copy of everything that changes, for
previews and undo. State is changed only by applying events
(`bottisota.engine.events.apply_event`), so the journal holds every change.
"""
from __future__ import annotations

import copy as _copy
import math
from dataclasses import dataclass, field

from bottisota.core.arena import Arena
from bottisota.core.cards import BotCard, Mod
from bottisota.core.dice import Dice
from bottisota.core.house_rules import HouseRules
from bottisota.geometry.arena_index import ArenaIndex
from bottisota.geometry.compiled import compile_arena

PLACE, MOVE, SHOOT, DONE, OVER = "place", "move", "shoot", "done", "over"   # turn phases (D18)


@dataclass(slots=True)
class Bot:
    """One bot on the table (or destroyed)."""

    id: str
    player: str
    card: BotCard
    x: float
    y: float
    facing: float = 0.0             # D2 degrees, 0 = +y, clockwise, [0, 360)
    z: float = 0.0                  # D3 floor height under the centre
    damage: int = 0
    destroyed: bool = False
    removed: bool = False           # R55 taken off the table after the shooter finishes
    overwatch: bool = False
    rust: int = 0                   # D25
    leaflet: int = 0                # D26
    moved: float = 0.0              # cm of movement spent this turn
    parts: list[str] = field(default_factory=list)      # ids of extra parts (mods)
    ammo: dict[str, int] = field(default_factory=dict)  # shots left, weapons with ammo only
    new: bool = False               # R56 on its first move
    docked: bool = False            # R51 a flier docked at a service point
    part_from: str | None = None    # R52 the service point that gave the last part
    card_stats: BotCard | None = None  # card as modified by parts (derived, refreshed on change)

    @property
    def stats(self) -> BotCard:
        """The card with its extra parts applied."""
        return self.card_stats or self.card

    @property
    def pos(self) -> tuple[float, float]:
        return (self.x, self.y)

    @property
    def radius(self) -> float:
        return self.card.base / 2.0

    @property
    def on_table(self) -> bool:
        return not self.removed and not self.destroyed

    def distance_to(self, other: Bot) -> float:
        return math.hypot(other.x - self.x, other.y - self.y)


@dataclass(slots=True)
class Mine:
    """A mine marker on the table (R31-R33, D33)."""

    id: str
    owner: str                      # bot id that dropped it
    player: str
    weapon: str                     # weapon name on the dropper's card
    x: float
    y: float
    z: float
    r: float                        # marker radius (D33)
    magnetic: bool = False
    active: bool = False            # R31 active from the start of the shooting phase


@dataclass(slots=True)
class Goal:
    """A goal marker (D23): where it is now and what is left of its respawn list."""

    feature: int                    # index of the goal feature in the arena
    x: float
    y: float
    r: float
    points: int
    spots_left: list[tuple[float, float]] = field(default_factory=list)
    taken: bool = False


@dataclass
class GameState:
    """Everything that changes in a game, plus references to the static game."""

    arena: Arena
    rules: HouseRules
    cards: dict[str, BotCard] = field(default_factory=dict)   # catalogue by id
    mods: dict[str, Mod] = field(default_factory=dict)        # catalogue by id
    dice: Dice = field(default_factory=Dice)
    bots: dict[str, Bot] = field(default_factory=dict)        # in placement order
    players: list[str] = field(default_factory=list)          # seat order (D18)
    round: int = 1
    active: str | None = None       # bot id whose turn it is
    phase: str = "move"             # "move" | "shoot" | "done"
    scores: dict[str, int] = field(default_factory=dict)
    kills: dict[str, int] = field(default_factory=dict)
    mines: list[Mine] = field(default_factory=list)
    goals: list[Goal] = field(default_factory=list)
    deck: list[str] = field(default_factory=list)             # bot card ids left to draw
    parts_deck: list[str] = field(default_factory=list)       # R50 extra parts left
    out: list[str] = field(default_factory=list)              # players out for good (R54)
    played: list[str] = field(default_factory=list)           # players who played this round
    next_id: int = 1                # for mine ids (and bot ids when not per player)
    ids_per_player: bool = True     # bot ids count per player (red-1, blue-1); journals
                                    # before version 3 counted bots and mines as one
    over: bool = False
    quiet_since: int = 1            # D49 the last round with damage, score, placing or a move
    held_open: list[str] = field(default_factory=list)  # doors the referee holds open (R47)

    @property
    def index(self) -> ArenaIndex:
        """The arena compiled under this game's house rules (built once, shared by copies)."""
        return compile_arena(self.arena, self.rules)

    def copy(self) -> GameState:
        """A deep copy of what changes; arena, rules and catalogues are shared."""
        memo = {id(self.arena): self.arena, id(self.rules): self.rules,
                id(self.cards): self.cards, id(self.mods): self.mods}
        for card in self.cards.values():
            memo[id(card)] = card
        twin = _copy.copy(self)
        for name in ("bots", "players", "scores", "kills", "mines", "goals", "deck",
                     "parts_deck", "out", "played", "held_open"):
            setattr(twin, name, _copy.deepcopy(getattr(self, name), memo))
        twin.dice = self.dice.copied()
        return twin

    def live_bots(self) -> list[Bot]:
        """Bots on the table, in placement order."""
        return [b for b in self.bots.values() if b.on_table]

    def others(self, bot_id: str) -> list[Bot]:
        return [b for b in self.bots.values() if b.on_table and b.id != bot_id]

    def player_bot(self, player: str) -> Bot | None:
        """The player's bot on the table, if any (R3: a player has one bot at a time)."""
        for b in self.bots.values():
            if b.player == player and b.on_table:
                return b
        return None
