"""Reducers: how each state-changing event changes the state (explicit registry).

Every event type that changes the state has exactly one reducer here, listed in
`REDUCERS`; the rest are informational (`bottisota.engine.event_types` declares
them all). Reducers change the state only as the event says: no dice, no rules.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bottisota.core.cards import BotCard
from bottisota.engine.event_types import (
    AmmoEvent,
    BotMovedEvent,
    DamagedEvent,
    DestroyedEvent,
    DockedEvent,
    DoorHeldEvent,
    DrawnEvent,
    GameOverEvent,
    GoalTakenEvent,
    MineActiveEvent,
    MineDroppedEvent,
    MineMovedEvent,
    MineRemovedEvent,
    OverwatchEvent,
    PartInstalledEvent,
    PartsReturnedEvent,
    PhaseEvent,
    PlacedEvent,
    PlayerOutEvent,
    RemovedEvent,
    RoundEvent,
    ScoreEvent,
    SeatsEvent,
    StatusEvent,
    TurnEndedEvent,
    TurnEvent,
)
from bottisota.engine.state import DONE, OVER, Bot, GameState, Mine


def starting_ammo(card: BotCard) -> dict[str, int]:
    """Shots for every weapon that has ammo (R49 reloads to these)."""
    return {w.name: int(w.ammo) for w in card.weapons if w.ammo is not None}


def refresh_stats(state: GameState, bot: Bot) -> None:
    """Recompute the bot's card as modified by its extra parts."""
    mods = [state.mods[p] for p in bot.parts if p in state.mods]
    bot.card_stats = bot.card.with_mods(mods) if mods else None


def find_mine(state: GameState, mine_id: str) -> Mine:
    """The mine marker with this id (KeyError when it is not on the table)."""
    for mine in state.mines:
        if mine.id == mine_id:
            return mine
    raise KeyError(f"no mine {mine_id!r} on the table")


MOVED = 0.01        # cm: a bot that went less than this did not move (D49)


def _bot_moved(state: GameState, e: BotMovedEvent) -> None:
    """{bot, x, y, z, facing, spent?}: the bot now stands here; `spent` is added to moved."""
    b = state.bots[e["bot"]]
    if abs(b.x - e["x"]) + abs(b.y - e["y"]) > MOVED:
        state.quiet_since = state.round          # D49 a move
    b.x, b.y, b.z, b.facing = e["x"], e["y"], e.get("z", b.z), e["facing"] % 360.0
    b.moved += e.get("spent", 0.0)


def _damaged(state: GameState, e: DamagedEvent) -> None:
    """{bot, amount, cause}: damage points added (D6), at least 0 total."""
    b = state.bots[e["bot"]]
    b.damage = max(0, b.damage + int(e["amount"]))
    if int(e["amount"]):
        state.quiet_since = state.round          # D49 damage (or a repair)


def _destroyed(state: GameState, e: DestroyedEvent) -> None:
    """{bot, cause, by?}: the bot is destroyed (D7, R36, R12...)."""
    state.bots[e["bot"]].destroyed = True
    state.bots[e["bot"]].overwatch = False
    state.quiet_since = state.round              # D49


def _removed(state: GameState, e: RemovedEvent) -> None:
    """{bot}: a destroyed bot is taken off the table (R55)."""
    state.bots[e["bot"]].removed = True


def _status(state: GameState, e: StatusEvent) -> None:
    """{bot, rust?, leaflet?}: special damage now stands at these values (D25, D26)."""
    b = state.bots[e["bot"]]
    b.rust = e.get("rust", b.rust)
    b.leaflet = e.get("leaflet", b.leaflet)


def _overwatch(state: GameState, e: OverwatchEvent) -> None:
    """{bot, on}: overwatch set or ended (R23, D20)."""
    state.bots[e["bot"]].overwatch = bool(e["on"])


def _ammo(state: GameState, e: AmmoEvent) -> None:
    """{bot, weapon, left}: shots left for a weapon with ammo."""
    state.bots[e["bot"]].ammo[e["weapon"]] = int(e["left"])


def _door_held(state: GameState, e: DoorHeldEvent) -> None:
    """{door, key, open, cause}: the referee holds a door open, or leaves it to R47
    again (open while a base touches it)."""
    held = set(state.held_open)
    if e["open"]:
        held.add(e["key"])
    else:
        held.discard(e["key"])
    state.held_open = sorted(held)


def _score(state: GameState, e: ScoreEvent) -> None:
    """{player, points, reason, kill?}: points scored (D22, D23)."""
    p = e["player"]
    state.scores[p] = state.scores.get(p, 0) + int(e["points"])
    state.quiet_since = state.round              # D49 a score
    if e.get("kill"):
        state.kills[p] = state.kills.get(p, 0) + 1


def _drawn(state: GameState, e: DrawnEvent) -> None:
    """{player, card, bot}: a bot card is drawn for the player; the bot waits off the
    table (removed) until it is placed (R6, R55) and is on its first move (R56)."""
    card = state.cards[e["card"]]
    if e["card"] in state.deck:
        state.deck.remove(e["card"])
    state.bots[e["bot"]] = Bot(id=e["bot"], player=e["player"], card=card, x=0.0, y=0.0,
                               removed=True, new=True, ammo=starting_ammo(card))
    state.next_id += 1


def _placed(state: GameState, e: PlacedEvent) -> None:
    """{bot, x, y, z, facing}: the drawn bot is put on the table (R6)."""
    b = state.bots[e["bot"]]
    b.x, b.y, b.z, b.facing = e["x"], e["y"], e.get("z", 0.0), e["facing"] % 360.0
    b.removed = False
    state.quiet_since = state.round              # D49 a placing
    if e.get("new"):
        b.new = True


def _part_installed(state: GameState, e: PartInstalledEvent) -> None:
    """{bot, part, service}: an extra part from the parts deck, given at a service
    point (R50, R52)."""
    b = state.bots[e["bot"]]
    if e["part"] in state.parts_deck:
        state.parts_deck.remove(e["part"])
    b.parts.append(e["part"])
    b.part_from = e.get("service")
    refresh_stats(state, b)
    for w in state.mods[e["part"]].weapons:
        if w.ammo is not None:
            b.ammo[w.name] = int(w.ammo)


def _parts_returned(state: GameState, e: PartsReturnedEvent) -> None:
    """{bot, parts}: a destroyed bot's extra parts go back to the deck (R50)."""
    b = state.bots[e["bot"]]
    for p in e["parts"]:
        if p in b.parts:
            b.parts.remove(p)
        state.parts_deck.append(p)
    refresh_stats(state, b)


def _goal_taken(state: GameState, e: GoalTakenEvent) -> None:
    """{goal, bot, to?}: the marker is collected; it moves to `to` (its next spot,
    the spots before it used up) or, without `to`, leaves the table (D23)."""
    g = state.goals[e["goal"]]
    to = e.get("to")
    if to is None:
        g.taken = True
        g.spots_left = []
        return
    while g.spots_left and tuple(g.spots_left[0]) != tuple(to):
        g.spots_left.pop(0)
    if g.spots_left:
        g.spots_left.pop(0)
    g.x, g.y = float(to[0]), float(to[1])


def _mine_dropped(state: GameState, e: MineDroppedEvent) -> None:
    """{mine, bot, owner, player, weapon, x, y, z, r, magnetic}: a new, inactive marker.
    Takes the next id number, so a replay hands out the same ids."""
    state.mines.append(Mine(id=e["mine"], owner=e["owner"], player=e["player"],
                            weapon=e["weapon"], x=e["x"], y=e["y"], z=e["z"], r=e["r"],
                            magnetic=bool(e["magnetic"]), active=False))
    state.next_id += 1


def _mine_active(state: GameState, e: MineActiveEvent) -> None:
    """{mine}: the mine is now active (R31)."""
    find_mine(state, e["mine"]).active = True


def _mine_moved(state: GameState, e: MineMovedEvent) -> None:
    """{mine, x, y, z}: a magnetic mine slid to a bot's centre (R32)."""
    mine = find_mine(state, e["mine"])
    mine.x, mine.y, mine.z = e["x"], e["y"], e.get("z", mine.z)


def _mine_removed(state: GameState, e: MineRemovedEvent) -> None:
    """{mine, reason}: the marker leaves the table (it struck)."""
    state.mines = [m for m in state.mines if m.id != e["mine"]]


def _docked(state: GameState, e: DockedEvent) -> None:
    """{bot, at}: a flier short of its minimum move docked at a service point (R51, D34)."""
    state.bots[e["bot"]].docked = True


def _seats(state: GameState, e: SeatsEvent) -> None:
    """{players}: seat order from the starting player (R6, D18)."""
    state.players = list(e["players"])


def _turn(state: GameState, e: TurnEvent) -> None:
    """{player, bot, round, phase, moved}: this bot's turn begins in this phase."""
    state.active = e["bot"]
    state.phase = e["phase"]
    bot = state.bots.get(e["bot"])
    if bot is not None:
        bot.moved = float(e.get("moved", 0.0))
        bot.docked = False          # R51 it docks again only by stopping short again


def _phase(state: GameState, e: PhaseEvent) -> None:
    """{phase}: the active bot's turn goes on in this phase."""
    state.phase = e["phase"]


def _turn_ended(state: GameState, e: TurnEndedEvent) -> None:
    """{player, bot}: the player has had his turn this round (D18); R56 ends for the bot."""
    if e["player"] not in state.played:
        state.played.append(e["player"])
    bot = state.bots.get(e.get("bot") or "")
    if bot is not None:
        bot.new = False
    state.active = None
    state.phase = DONE


def _round(state: GameState, e: RoundEvent) -> None:
    """{round}: a new round begins (D18)."""
    state.round = int(e["round"])
    state.played = []


def _player_out(state: GameState, e: PlayerOutEvent) -> None:
    """{player, reason}: out of the game for good (R54)."""
    if e["player"] not in state.out:
        state.out.append(e["player"])


def _game_over(state: GameState, e: GameOverEvent) -> None:
    """{winners, reason}: the game has ended (D24)."""
    state.over = True
    state.phase = OVER
    state.active = None


# Each reducer takes its own kind of event (the key is that event's `type`, and
# tests/test_event_types.py checks each annotation against EVENT_TYPES): the table
# holds them under one type, so the event's own type is left to the reducer.
# Any: each reducer takes its own kind of event (a dispatch table by the `type` key,
# which a Callable's argument type cannot say for every entry at once)
REDUCERS: dict[str, Callable[[GameState, Any], None]] = {
    "bot_moved": _bot_moved,
    "damaged": _damaged,
    "destroyed": _destroyed,
    "removed": _removed,
    "status": _status,
    "overwatch": _overwatch,
    "ammo": _ammo,
    "score": _score,
    "door_held": _door_held,
    "drawn": _drawn,
    "placed": _placed,
    "part_installed": _part_installed,
    "parts_returned": _parts_returned,
    "goal_taken": _goal_taken,
    "mine_dropped": _mine_dropped,
    "mine_active": _mine_active,
    "mine_moved": _mine_moved,
    "mine_removed": _mine_removed,
    "docked": _docked,
    "seats": _seats,
    "turn": _turn,
    "phase": _phase,
    "turn_ended": _turn_ended,
    "round": _round,
    "player_out": _player_out,
    "game_over": _game_over,
}
