"""Tiny helpers for tests: arenas, cards and states from formats.md mappings.

    from tests.builders import arena, card, state
    a = arena({"type": "wall", "rect": [38, 20, 4, 20]})
    s = state(a, {"id": "a", "player": "red", "card": card(), "at": [10, 30], "facing": 90},
              dice=[6, 2], blast_diameter=8)
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bottisota.core.arena import Arena, Feature
from bottisota.core.dice import Dice
from bottisota.engine.setup import new_state
from bottisota.engine.state import Bot, GameState
from bottisota.formats.loading import arena_from_dict, bundled_rules, rules_with_overrides


def arena(*features: dict, size: tuple[float, float] = (80, 60), name: str = "test") -> Arena:
    """A validated arena of the given size with these feature mappings."""
    return arena_from_dict({"name": name, "size": list(size), "features": list(features)})


def card(**kw: Any) -> dict:
    """An inline card mapping: a walker, move 8, armour 4, structure 6, no weapons,
    unless the keywords say otherwise (`weapons=[weapon(...)]`)."""
    out: dict = {"locomotion": "walker", "move": 8, "armour": 4, "structure": 6, "weapons": []}
    out.update(kw)
    return out


def weapon(name: str = "Gun", **kw: Any) -> dict:
    """A weapon mapping: a turret gun, range 30, to-hit 4, 1 hit, unless told otherwise."""
    out: dict = {"name": name, "kind": "gun", "mount": "turret", "range": 30, "to_hit": 4,
                 "hits": 1}
    out.update(kw)
    return out


def bot(bot_id: str, player: str, at: Iterable[float], facing: float = 0.0,
        card_value: Any = None, **kw: Any) -> dict:
    """A bot mapping in the scenario form; the card defaults to `card()`."""
    return {"id": bot_id, "player": player, "card": card_value if card_value is not None
            else card(), "at": list(at), "facing": facing, **kw}


def state(arena_value: Arena, *bots: dict, dice: Iterable[int] | None = None,
          seed: int | None = None, round: int = 2, **rule_overrides: Any) -> GameState:
    """A game state: forced `dice` (or a `seed`), the round, and house-rule overrides."""
    rules = rules_with_overrides(bundled_rules(), rule_overrides)
    source = list(dice) if dice is not None else seed
    return new_state(arena_value, rules, bots, dice=source, round=round)


def bare_table(*bots: Bot, dice: Iterable[int] | None = None, round_: int = 2,
               arena_value: Arena | None = None, features: tuple[Feature, ...] = ()
               ) -> GameState:
    """A state holding these ready-made Bot values on a bare 100 x 100 cm table (or the
    given arena), the bundled rules, forced dice; players in order of appearance."""
    table = arena_value or Arena(name="bare", size=(100.0, 100.0), features=features)
    state = GameState(arena=table, rules=bundled_rules(), dice=Dice(forced=list(dice or [])),
                      round=round_)
    for b in bots:
        state.bots[b.id] = b
        if b.player not in state.players:
            state.players.append(b.player)
    return state


# a small robot personality (cards/robots format) for the robot tests
ROBOT_TABLE = """\
name: tester
place:
  - table: {1-3: near_enemy, 4-6: far_from_enemies}
turn:
  - label: enemy 10-40 cm, in arc
    when: {range: [10, 40], in_arc: true}
    table:
      1-3: {move: close_in, weapons: all}
      4-5: {move: hold, then: overwatch}
      6: {move: keep_range, range: 28}
  - table: {1-6: {move: hold}}
overwatch:
  - when: {range: [0, 12]}
    table: {1-6: fire}
  - table: {1-3: fire, 4-6: hold}
"""
