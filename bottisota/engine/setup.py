"""Building a GameState from an arena, house rules and bots in the scenario form.

A bot is a mapping as in formats.md, "Scenario": `{id, player, card: id or
inline card, at: [x, y], facing, damage, status {rust, leaflet}, overwatch,
moved, parts, ammo}`. Bots are checked against the same description as
scenario files; any problem raises InputError.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any  # Any: bots and cards as a scenario or a journal file gives them

from bottisota.core.arena import Arena
from bottisota.core.cards import BotCard, Mod
from bottisota.core.dice import Dice
from bottisota.core.errors import InputError, Problem
from bottisota.core.house_rules import HouseRules
from bottisota.core.i18n import N_
from bottisota.engine.movement.placing import check_place
from bottisota.engine.state import Bot, GameState, Goal
from bottisota.formats import spec
from bottisota.formats.loading import bundled_rules, card_from_dict, load_catalogue, validate
from bottisota.formats.spec_types import did_you_mean
from bottisota.formats.yaml_source import Marks, join

DiceSource = Dice | Iterable[int] | int | None


def make_dice(dice: DiceSource) -> Dice:
    """A Dice from a Dice, a list of forced results, a seed, or None (unseeded)."""
    if isinstance(dice, Dice):
        return dice
    if dice is None:
        return Dice()
    if isinstance(dice, int):
        if isinstance(dice, bool):
            raise TypeError("dice: a seed is a whole number, not True or False")
        return Dice(seed=dice)
    return Dice(forced=list(dice))


def floor_height(state: GameState, x: float, y: float) -> float:
    """The floor under a point (D3: a bot's z is the floor under its centre)."""
    return float(state.index.floor_z(x, y))


def goals_of(arena: Arena, rules: HouseRules) -> list[Goal]:
    """Goal markers from the arena's goal features (D23): points default from the rules."""
    goals = []
    for f in arena.by_type("goal"):
        minx, miny, maxx, maxy = f.shape.bounds
        goals.append(Goal(feature=f.index, x=(minx + maxx) / 2.0, y=(miny + maxy) / 2.0,
                          r=max(maxx - minx, maxy - miny) / 2.0,
                          points=f.points if f.points is not None else rules.goal_points,
                          spots_left=list(f.respawn)))
    return goals


# `card`: a BotCard, or a card's id or an inline card as read from a scenario file
def _resolve_card(card: Any, bot_id: str, cards: Mapping[str, BotCard], rules: HouseRules,
                  marks: Marks, path: str, problems: list[Problem]) -> BotCard | None:
    if isinstance(card, BotCard):
        return card
    if isinstance(card, dict):
        try:
            return card_from_dict(card, marks.file, inline=True, default_id=bot_id, rules=rules,
                                  marks=marks, path=path)
        except InputError as err:
            problems.extend(err.problems)
            return None
    if card in cards:
        return cards[card]
    problems.append(marks.problem(path, N_("no bot card has the id '{card}'").format(card=card)
                                  + did_you_mean(card, list(cards))))
    return None


def _setup_problems(state: GameState, bot: Bot, marks: Marks, where: str,
                    placement: bool = True) -> list[Problem]:
    """A bot is set up as in a game (R6, D4, D7, D25, D26): wholly on the table,
    in no wall, a ground bot in no pit, overlapping no bot placed before it, its
    damage below its structure and its rust and leaflets within their caps."""
    problems = []
    why = check_place(state, bot, bot.x, bot.y, doors=False) if placement else None
    if why is not None:
        problems.append(marks.problem(join(where, "at"),
                N_("{id} cannot be set up there: {why}").format(id=bot.id, why=why)))
    structure = bot.stats.structure
    if bot.damage >= structure:
        problems.append(marks.problem(join(where, "damage"),
                N_("{id} has damage {damage} but structure {structure}: it would be destroyed "
                   "already (D7)").format(
                    id=bot.id, damage=bot.damage, structure=structure)))
    for key, cap, rule in (("rust", state.rules.rust_max, "D25"),
                           ("leaflet", state.rules.leaflet_max, "D26")):
        value = getattr(bot, key)
        if value > cap:
            problems.append(
                marks.problem(
                    join(join(where, "status"), key),
                    N_("{id}'s {key} is {value}; at most {cap} ({rule})").format(
                        id=bot.id, key=key, value=value, cap=cap, rule=rule
                    ),
                )
            )
    return problems


# `bots`: the bot entries as a scenario or journal file gives them (outside data, checked here)
def new_state(arena: Arena, rules: HouseRules | None = None, bots: Iterable[Mapping[str, Any]] = (),
              cards: Mapping[str, BotCard] | None = None, mods: Mapping[str, Mod] | None = None,
              dice: DiceSource = None, round: int = 2, marks: Marks | None = None,
              path: str = "bots", placement: bool = True) -> GameState:
    """A game state with these bots on the arena (formats.md scenario form).

    With `placement` off, where the bots stand is not checked (`check` reports it with
    its own codes). Players are seated in order of first appearance; scores and kills start at 0;
    ammo starts from the weapons' `ammo` (a bot's `ammo` overrides); z is the
    floor under each bot; goals come from the arena's goal features.
    """
    rules = rules or bundled_rules()
    marks = marks or Marks("<bots>")
    bots = list(bots)
    needs_catalogue = any(isinstance(b.get("card"), str) or b.get("parts") for b in bots
                          if isinstance(b, Mapping))
    if (cards is None or mods is None) and needs_catalogue:
        cat_cards, cat_mods = load_catalogue()
        cards = cat_cards if cards is None else cards
        mods = cat_mods if mods is None else mods
    cards = dict(cards or {})
    mods = dict(mods or {})

    problems: list[Problem] = []
    state = GameState(arena=arena, rules=rules, cards=cards, mods=mods, dice=make_dice(dice),
                      round=round)
    for i, raw in enumerate(bots):
        where = join(path, i)
        raw = dict(raw)
        card_value = raw.get("card")
        if isinstance(card_value, BotCard):
            raw["card"] = card_value.id
        try:
            b = validate(raw, spec.BOT, marks, where)
        except InputError as err:
            problems.extend(err.problems)
            continue
        if b["id"] in state.bots:
            problems.append(marks.problem(join(where, "id"),
                    N_("two bots have the id '{id}'").format(id=b['id'])))
            continue
        card = _resolve_card(card_value if isinstance(card_value, BotCard) else b["card"],
                             b["id"], cards, rules, marks, join(where, "card"), problems)
        parts = []
        for j, part in enumerate(b["parts"]):
            if part not in mods:
                problems.append(marks.problem(f"{where}.parts[{j}]",
                        N_("no part has the id '{part}'").format(
                            part=part) + did_you_mean(part, list(mods))))
            else:
                parts.append(mods[part])
        if card is None or len(parts) != len(b["parts"]):
            continue
        if isinstance(b["card"], dict) or isinstance(card_value, BotCard):
            state.cards.setdefault(card.id, card)
        stats = card.with_mods(parts)
        ammo = {w.name: w.ammo for w in stats.weapons if w.ammo is not None}
        for name, left in b["ammo"].items():
            if stats.weapon(name) is None:
                problems.append(marks.problem(f"{where}.ammo.{name}",
                        N_("the bot has no weapon '{name}'").format(
                            name=name) + did_you_mean(name, list(ammo))))
            ammo[name] = left
        x, y = b["at"]
        state.bots[b["id"]] = Bot(
            id=b["id"], player=b["player"], card=card, x=x, y=y, facing=b["facing"] % 360.0,
            z=floor_height(state, x, y), damage=b["damage"], overwatch=b["overwatch"],
            rust=b["status"].get("rust", 0), leaflet=b["status"].get("leaflet", 0),
            moved=b["moved"], parts=[m.id for m in parts], ammo=ammo, new=b["new"],
            card_stats=stats)
        problems.extend(_setup_problems(state, state.bots[b["id"]], marks, where, placement))
        if b["player"] not in state.players:
            state.players.append(b["player"])
    if problems:
        raise InputError(problems)
    state.scores = {p: 0 for p in state.players}
    state.kills = {p: 0 for p in state.players}
    state.goals = goals_of(arena, rules)
    return state
