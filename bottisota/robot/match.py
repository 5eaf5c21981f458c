"""One robot-only game, start to end, with its tallies (for `bottisota simulate`).

The game is journaled by whoever asks for it (`on_start`, e.g. play.journal's
`journal_to(path)`): robot and play are independent layers, neither imports the other.
Every action goes through `Game.act`, with the robots' `robot_decision` events
as its notes (so a journaled robot game records and replays every decision); a
refusal there is a robot bug, recorded in the game's `refusals` (and the seat
passes or stays instead, the decision notes going with that action).
"""
from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from bottisota.core.actions import Move, Pass, Shoot
from bottisota.core.arena import Arena
from bottisota.core.cards import BotCard, Mod
from bottisota.core.house_rules import HouseRules
from bottisota.core.i18n import N_
from bottisota.engine.events import Event
from bottisota.formats.robot_tables import Personality
from bottisota.robot.player import DEFAULT_TIME_LIMIT, Robot
from bottisota.robot.stats import GameRecord, Tally

if TYPE_CHECKING:
    from bottisota.engine.game import Game


def seat_names(personalities: list[Personality]) -> list[str]:
    """Player names: the personalities' names, numbered where one plays twice."""
    names = [p.name for p in personalities]
    out = []
    for i, name in enumerate(names):
        out.append(name if names.count(name) == 1 else f"{name}-{names[:i + 1].count(name)}")
    return out


class _Tracker:
    """Folds a game's events into tallies per player and per bot."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.players: dict[str, Tally] = {p: Tally() for p in game.state.players}
        self.bots: dict[str, Tally] = {}
        self.placed_round: dict[str, int] = {}

    def bot_tally(self, bot_id: str) -> Tally:
        if bot_id not in self.bots:
            self.bots[bot_id] = Tally(bots=1)
        return self.bots[bot_id]

    def fold(self, actor: str | None, events: Sequence[Event]) -> None:
        state = self.game.state
        attacker = actor
        for e in events:
            if e["type"] == "shot" or e["type"] == "overwatch_fire" \
                    or e["type"] == "self_destruct":
                attacker = e.get("bot")
            elif e["type"] == "placed":
                self.placed_round[e["bot"]] = state.round
                self.players[state.bots[e["bot"]].player].bots += 1
                self.bot_tally(e["bot"])
            elif e["type"] == "damaged":
                victim = state.bots[e["bot"]]
                amount = int(e["amount"])
                self.players[victim.player].taken += amount
                self.bot_tally(victim.id).taken += amount
                src = state.bots.get(attacker or "")
                if src is not None and src.player != victim.player:
                    self.players[src.player].dealt += amount
                    self.bot_tally(src.id).dealt += amount
            elif e["type"] == "goal_taken":
                taker = state.bots[e["bot"]]
                self.players[taker.player].goals += int(e["points"])
                self.bot_tally(taker.id).goals += int(e["points"])
            elif e["type"] == "destroyed":
                self._close(e["bot"])
                by = state.bots.get(e.get("by") or "")
                if by is not None and by.player != state.bots[e["bot"]].player:
                    self.players[by.player].kills += 1
                    self.bot_tally(by.id).kills += 1

    def _close(self, bot_id: str) -> None:
        if bot_id in self.placed_round:
            start = self.placed_round.pop(bot_id)
            rounds = self.game.state.round - start + 1
            self.players[self.game.state.bots[bot_id].player].rounds += rounds
            self.bot_tally(bot_id).rounds += rounds

    def finish(self) -> None:
        for bot_id in list(self.placed_round):
            self._close(bot_id)


def play(arena: Arena, rules: HouseRules, cards: dict[str, BotCard], mods: dict[str, Mod],
         personalities: list[Personality], seed: int, round_limit: int | None,
         time_limit: float | None = DEFAULT_TIME_LIMIT, max_actions: int = 5000,
         on_start: Callable[[Game], object] | None = None) -> GameRecord:
    """Play one game between these personalities and tally it; `on_start` is called
    with the new game before its first action (to journal it)."""
    from bottisota.engine.game import Game

    players = seat_names(personalities)
    game = Game.new(arena, rules, cards, mods, players, seed=seed, round_limit=round_limit)
    if on_start is not None:
        on_start(game)
    robots = {p: Robot(p, pers, time_limit) for p, pers in zip(players, personalities, strict=True)}
    for r in robots.values():
        r.peers = robots
    tracker = _Tracker(game)
    tracker.fold(None, game.start_events)
    record = GameRecord(seed=seed, rounds=0, winners=[],
                        seats={p: pers.name
                               for p, pers in zip(players, personalities, strict=True)},
                        first=game.state.players[0])
    try:
        _loop(game, robots, tracker, record, max_actions)
    except Exception as err:       # a rules bug must not end a thousand-game run
        record.errors.append(_where(err))
    record.decisions = sum(len(r.decisions) for r in robots.values())
    tracker.finish()
    state = game.state
    record.rounds = state.round
    record.winners = _winners(game)
    record.points = dict(state.scores)
    record.kill_counts = dict(state.kills)
    record.ended = _ending(game, record)
    record.players = tracker.players
    record.cards = [(state.bots[b].card.id, state.bots[b].player, t)
                    for b, t in tracker.bots.items()]
    return record


def _where(err: Exception) -> str:
    """`ValueError: ... (at bottisota/engine/damage.py:43)`: the innermost frame."""
    tb = err.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    at = ""
    if tb is not None:
        parts = Path(tb.tb_frame.f_code.co_filename).parts
        short = "/".join(parts[parts.index("bottisota"):]) if "bottisota" in parts else parts[-1]
        at = N_(" (at {short}:{tb_lineno})").format(short=short, tb_lineno=tb.tb_lineno)
    return f"{type(err).__name__}: {err}{at}"


def _loop(game: Game, robots: dict[str, Robot], tracker: _Tracker, record: GameRecord,
          max_actions: int) -> None:
    for _ in range(max_actions):
        if game.expected() == "over":
            break
        player = game.whose_turn()
        if player is None:
            break                       # nobody's turn: nothing more to play
        robot = robots[player]
        started = time.perf_counter()
        action = robot.decide(game)
        took = time.perf_counter() - started
        record.slowest = max(record.slowest, took)
        if robot.last_plan is not None and robot.last_plan.timed_out:
            record.timeouts += 1
        robot.last_plan = None
        if isinstance(action, Shoot):
            me = game.state.bots[action.bot]
            fired = [math.hypot(game.state.bots[o.target].x - me.x,
                                game.state.bots[o.target].y - me.y)
                     for o in action.shots if o.target in game.state.bots]
            record.ranges.setdefault(robot.personality.name, []).extend(fired)
            record.card_ranges.setdefault(me.card.id, []).extend(fired)
        notes = decision_notes(robots, robot)
        result = game.act(action, notes)
        if result.refusal is not None:
            record.refusals.append(
                    N_("round {round}: {action}: {refusal}").format(
                        round=game.state.round, action=action, refusal=result.refusal))
            bot = game.active_bot()
            if bot is None:
                return
            fallback = Move(bot.id) if game.expected() == "move" else Pass(bot.id)
            result = game.act(fallback, notes)
            if result.refusal is not None:
                record.refusals.append(
                        N_("fallback {fallback} refused too: {refusal}").format(
                            fallback=fallback, refusal=result.refusal))
                return
        tracker.fold(getattr(action, "bot", None), result.events)


def decision_notes(robots: dict[str, Robot], first: Robot | None = None) -> list[Event]:
    """Every robot's `robot_decision` events since the last action (`first`'s, the
    deciding robot, then its robot watchers' overwatch answers), to journal with the
    next action."""
    seen: set[int] = set()
    out: list[Event] = []
    for robot in ([first] if first is not None else []) + list(robots.values()):
        if id(robot) not in seen:
            seen.add(id(robot))
            out += robot.take_events()
    return out


def _ending(game: Game, record: GameRecord) -> str:
    """Why the game ended: its game_over reason, or why it was stopped."""
    if record.errors:
        return N_("stopped by an error in the rules")
    for entry in reversed(game.history):
        for e in entry.events:
            if e["type"] == "game_over":
                return str(e["reason"])
    return N_("stopped after the action limit")


def _winners(game: Game) -> list[str]:
    from bottisota.engine.turns import winners

    return winners(game.state)
