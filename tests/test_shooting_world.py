"""Small position builders for the shooting tests (no test functions here).

Each helper builds real values: an `Arena` of shapely features, bots from
inline cards, a `GameState` with forced dice and the bundled house rules.
"""
from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import yaml
from shapely.geometry import Polygon, box

from bottisota.core.arena import Arena, Feature
from bottisota.core.cards import BotCard, Weapon
from bottisota.core.dice import Dice
from bottisota.core.house_rules import HouseRules
from bottisota.engine.state import Bot, GameState

RULES_FILE = Path(__file__).resolve().parent.parent / "cards" / "rules.yaml"


def house_rules(**changes: object) -> HouseRules:
    """The bundled cards/rules.yaml, with some values changed."""
    data = yaml.safe_load(RULES_FILE.read_text())
    return HouseRules(**data).overridden(changes)


def weapon(name: str = "Gun", **kw: object) -> Weapon:
    return Weapon(name=name, **kw)


def card(*weapons: Weapon, locomotion: str = "walker", armour: int = 4, structure: int = 6,
         **kw: object) -> BotCard:
    return BotCard(id=kw.pop("id", "card"), name=kw.pop("name", "Card"), locomotion=locomotion,
                   move=kw.pop("move", 8), armour=armour, structure=structure,
                   weapons=tuple(weapons), **kw)


def bot(bot_id: str, x: float, y: float, facing: float = 0.0, *weapons: Weapon,
        player: str | None = None, z: float = 0.0, bot_card: BotCard | None = None,
        **kw: object) -> Bot:
    return Bot(id=bot_id, player=player or bot_id, card=bot_card or card(*weapons),
               x=x, y=y, facing=facing, z=z, **kw)


def wall(index: int, x: float, y: float, w: float, h: float, fid: str | None = None,
         height: float = 10.0, kind: str = "wall") -> Feature:
    return Feature(index=index, type=kind, shape=box(x, y, x + w, y + h), id=fid,
                   height=height if kind == "wall" else None)


def platform(index: int, x: float, y: float, w: float, h: float, height: float,
             fid: str | None = None) -> Feature:
    return Feature(index=index, type="platform", shape=box(x, y, x + w, y + h), id=fid,
                   height=height)


def polygon_wall(index: int, points: list[tuple[float, float]], fid: str | None = None) -> Feature:
    return Feature(index=index, type="wall", shape=Polygon(points), id=fid, height=10.0)


def world(bots: Iterable[Bot], features: Iterable[Feature] = (), dice: list[int] | None = None,
          size: tuple[float, float] = (80.0, 60.0), round_no: int = 2,
          rules: HouseRules | None = None) -> GameState:
    """A game state with these bots (players in order of appearance)."""
    arena = Arena(name="test", size=size, features=tuple(features))
    state = GameState(arena=arena, rules=rules or house_rules(),
                      dice=Dice(forced=list(dice or [])), round=round_no, phase="shoot")
    for b in bots:
        state.bots[b.id] = b
        if b.player not in state.players:
            state.players.append(b.player)
            state.scores[b.player] = 0
    return state


def events_of(events: list[dict], kind: str) -> list[dict]:
    return [e for e in events if e["type"] == kind]
