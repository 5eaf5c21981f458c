"""Mines: dropping, activation and strikes (R21, R31-R33, D19, D33).

A mine is a marker on the table (`engine.state.Mine`): a disc the size of the
dropping bot's base, or blast-sized for a magnetic mine (D33). It is dropped
straight under the bot during its movement, inactive; it becomes active at
the start of its owner's shooting phase (R31, D19) and then strikes the first
bot that touches it. Every change is an event (its reducer in bottisota.engine.reducers):
`mine_dropped`, `mine_active`, `mine_moved`, `mine_removed`.
"""
from __future__ import annotations

import math

from bottisota.core.actions import Refusal
from bottisota.core.cards import Weapon
from bottisota.core.i18n import N_
from bottisota.core.limits import beyond, within
from bottisota.engine.events import Event, apply_event, r2
from bottisota.engine.shooting.attack import attack
from bottisota.engine.shooting.blast import resolve_blast
from bottisota.engine.state import Bot, GameState, Mine

MINE_ID_PREFIX = "mine-"


# --- dropping ------------------------------------------------------------------------

def mine_weapon(state: GameState, mine: Mine) -> Weapon | None:
    """The weapon on the owner's card (with its parts) that the mine came from."""
    owner = state.bots.get(mine.owner)
    if owner is None:
        return None
    return owner.stats.weapon(mine.weapon) or owner.card.weapon(mine.weapon)


def check_drop_mine(state: GameState, bot: Bot, weapon_name: str) -> Refusal | None:
    """Why the bot may not drop this mine now, or None when it may (R7, R21, R56)."""
    if state.round <= 1:
        return Refusal("R7", N_("{id} may not drop mines in the first round").format(id=bot.id),
                       at=bot.pos)
    if bot.new:
        return Refusal("R56",
                N_("{id} is a new bot on its first move and may not drop mines").format(
                    id=bot.id), at=bot.pos)
    if not bot.on_table:
        return Refusal("R21", N_("{id} is not on the table").format(id=bot.id), at=bot.pos)
    weapon = bot.stats.weapon(weapon_name)
    if weapon is None:
        return Refusal("R21",
                N_("{id} has no weapon {weapon_name!r}").format(
                    id=bot.id, weapon_name=weapon_name), at=bot.pos)
    if not weapon.is_mine:
        return Refusal("R21",
                N_("{id}'s {weapon_name} is a {kind}, not a mine").format(
                    id=bot.id, weapon_name=weapon_name, kind=weapon.kind),
                       at=bot.pos)
    if weapon.ammo is not None and bot.ammo.get(weapon.name, weapon.ammo) <= 0:
        return Refusal("R49",
                N_("{id}'s {weapon_name} has no mines left; reload at a service point").format(
                    id=bot.id, weapon_name=weapon_name), at=bot.pos)
    return None


def drop_mine(state: GameState, bot: Bot, weapon_name: str) -> list[Event] | Refusal:
    """Drop a mine straight under the bot at its current position (R21, R31): an
    inactive marker the size of its base, or blast-sized when magnetic (D33).
    A flier may drop it onto another bot (R31): nothing happens until it is active.
    Uses one shot of ammo when the weapon has ammo. Rolls no dice."""
    refusal = check_drop_mine(state, bot, weapon_name)
    if refusal is not None:
        return refusal
    weapon = bot.stats.weapon(weapon_name)
    assert weapon is not None
    magnetic = weapon.kind == "magnetic_mine"
    radius = state.rules.blast_diameter / 2.0 if magnetic else bot.radius
    events: list[Event] = []
    if weapon.ammo is not None:
        left = bot.ammo.get(weapon.name, weapon.ammo) - 1
        events.append(apply_event(state, {"type": "ammo", "bot": bot.id,
                                          "weapon": weapon.name, "left": left}))
    events.append(apply_event(state, {
        "type": "mine_dropped", "mine": f"{MINE_ID_PREFIX}{state.next_id}",
        "bot": bot.id, "owner": bot.id, "player": bot.player, "weapon": weapon.name,
        "x": r2(bot.x), "y": r2(bot.y), "z": r2(bot.z), "r": r2(radius),
        "magnetic": magnetic}))
    return events


# --- touching ------------------------------------------------------------------------

def touches(state: GameState, mine: Mine, bot: Bot) -> bool:
    """The bot's base touches or overlaps the marker (D33, D4), on the same level
    (floors not clearly different, D13)."""
    if not bot.on_table:
        return False
    if beyond(abs(bot.z - mine.z), state.rules.level_difference):
        return False
    return within(math.hypot(bot.x - mine.x, bot.y - mine.y),
                  bot.radius + mine.r + state.rules.contact_tolerance)


def touching_mines(state: GameState, bot: Bot) -> list[Mine]:
    """Active mines whose marker the bot's base touches (D33, D4), nearest first
    (centre to centre), ties by mine id. Movement calls this after each piece."""
    found = [m for m in state.mines if m.active and touches(state, m, bot)]
    found.sort(key=lambda m: (math.hypot(bot.x - m.x, bot.y - m.y), m.id))
    return found


def bots_touching(state: GameState, mine: Mine) -> list[Bot]:
    """Live bots touching the marker, closest to its centre first, ties by id."""
    found = [b for b in state.live_bots() if touches(state, mine, b)]
    found.sort(key=lambda b: (math.hypot(b.x - mine.x, b.y - mine.y), b.id))
    return found


def choose_victim(state: GameState, mine: Mine, candidates: list[Bot]) -> Bot:
    """The bot a mine strikes when several touch it as it becomes active (R32):
    the one closest to its centre, or one drawn with `state.dice.pick` when no
    one is clearly closer (distances within the measuring tolerance, D4)."""
    if len(candidates) == 1:
        return candidates[0]
    dist = [math.hypot(b.x - mine.x, b.y - mine.y) for b in candidates]
    nearest = min(dist)
    tied = [b for b, d in zip(candidates, dist, strict=True)
            if within(d - nearest, state.rules.contact_tolerance)]
    if len(tied) == 1:
        return tied[0]
    names = ", ".join(b.id for b in tied)
    return tied[state.dice.pick(len(tied), N_("{mine} slides to one of {names} (R32)").format(
        mine=mine.id, names=names))]


# --- activation and strikes ----------------------------------------------------------

def activate_mines(state: GameState, owner_bot_id: str) -> list[Event]:
    """At the start of the owner's shooting phase its inactive mines become active
    (R31, D19); each one a bot already touches strikes at once, in the order the
    mines were dropped. Where several bots touch it, it strikes the one closest to
    its centre, or one drawn at random when none is clearly closest (R32)."""
    events: list[Event] = []
    waking = [m for m in state.mines if m.owner == owner_bot_id and not m.active]
    for mine in waking:
        events.append(apply_event(state, {"type": "mine_active", "mine": mine.id}))
    for mine in waking:
        if mine not in state.mines:
            continue
        candidates = bots_touching(state, mine)
        if candidates:
            events += mine_strike(state, mine, choose_victim(state, mine, candidates))
    return events


def mine_strike(state: GameState, mine: Mine, bot: Bot) -> list[Event]:
    """The mine strikes the bot (R31-R33): a magnetic mine first slides to the
    bot's centre (R32); the marker is removed; then a hit is rolled as normal with
    the mine weapon's numbers (R33) and no shooter modifiers, the owner credited
    with a kill (D22). An explosive mine blasts with the marker's centre on the
    bot's centre (R34, D32)."""
    weapon = mine_weapon(state, mine)
    events: list[Event] = [apply_event(state, {"type": "mine_strike", "mine": mine.id,
                                               "owner": mine.owner, "bot": bot.id,
                                               "weapon": mine.weapon})]
    if mine.magnetic:
        events.append(apply_event(state, {"type": "mine_moved", "mine": mine.id,
                                          "x": r2(bot.x), "y": r2(bot.y), "z": r2(bot.z)}))
    events.append(apply_event(state, {"type": "mine_removed", "mine": mine.id,
                                      "reason": N_("struck {id}").format(id=bot.id)}))
    if weapon is None:
        return events
    # The mine rolls for itself: the owner's parts and leaflets do not steer it
    # (shooter=None), but a kill it makes is the owner's (D22).
    cause = f"{mine.id} ({weapon.name})"
    if weapon.explosive:
        events += resolve_blast(state, None, weapon, (bot.x, bot.y), bot.z, bot.id,
                                by=mine.owner)
    else:
        events += attack(state, None, weapon, bot, cause=cause, by=mine.owner)[1]
    return events
