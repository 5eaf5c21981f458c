"""A robot player: rolls on its personality's tables and acts through `Game`.

`Robot.decide(game)` answers whatever the game expects of the robot's seat
(place, move, shoot) with one legal action. Its dice come from the game's dice
stream (`game.state.dice`), so a seeded game replays the same decisions. Each
decision is kept as an informational `robot_decision` event (`take_events`)
for the caller to journal with the action: `Game.act(action, notes)` puts them
first in the entry, whose rolls include the robot's dice (`robot.match`,
`view.app` do this for every robot seat, watchers included).

A robot's search is bounded by counts, never by the clock (robot.planner): the
same seed plays the same game on any machine, under any load and any number of
jobs. `time_limit` is an optional wall-clock guard for interactive play only;
a search it cuts short is journaled as an informational `robot_search_cut` note,
so the journal still says exactly why the robot moved as it did.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bottisota.core.actions import (
    Action,
    Move,
    Pass,
    Place,
    Refusal,
    SelfDestruct,
    Service,
    SetOverwatch,
    Shoot,
)
from bottisota.core.i18n import N_
from bottisota.engine.events import Event
from bottisota.engine.services import service_point_under
from bottisota.engine.state import Bot
from bottisota.formats.robot_tables import Intention, Personality
from bottisota.robot import aim
from bottisota.robot.decide import Decision, roll_on
from bottisota.robot.navigation import prepare
from bottisota.robot.placement import place
from bottisota.robot.planner import ADVANCING, Plan, plan_move
from bottisota.robot.situation import Situation

if TYPE_CHECKING:
    from bottisota.engine.game import Game

DEFAULT_TIME_LIMIT: float | None = None   # no wall-clock guard: counts bound the search
SEARCH_SHARE = 0.5              # share of a guard's limit the move search may use
SERVICE_ORDER = ("repair", "rust", "leaflet", "reload", "part")
# `Game.legal` asked once per action in a shooting phase
Legal = Callable[[Action], Refusal | None]
# one way to spend the shooting phase: an action to try, or None
Attempt = Callable[["Game", Bot, Intention, Legal], Action | None]


@dataclass
class Robot:
    """One seat played by a personality. `peers` are the other robot seats, asked
    whether to fire when this robot's move passes their overwatch (R23)."""

    player: str
    personality: Personality
    time_limit: float | None = DEFAULT_TIME_LIMIT   # seconds; interactive play only
    peers: dict[str, Robot] = field(default_factory=dict)
    decisions: list[Decision] = field(default_factory=list)
    last_plan: Plan | None = None
    _events: list[Event] = field(default_factory=list)
    _intent: dict[tuple[str, int], Intention] = field(default_factory=dict)

    # --- the journal ---------------------------------------------------------------------

    def _note(self, d: Decision) -> Decision:
        self.decisions.append(d)
        self._events.append(d.event(self.personality.name))
        return d

    def take_events(self) -> list[Event]:
        """The `robot_decision` events since the last call (informational, no reducer)."""
        out, self._events = self._events, []
        return out

    # --- deciding ------------------------------------------------------------------------

    def prepare(self, game: Game) -> None:
        """Build the robot's maps for every card in the game (call once at the start, so
        that no decision pays for them)."""
        prepare(game.state.arena, game.state.rules, game.state.cards.values())

    def decide(self, game: Game) -> Action:
        """One legal action for what the game expects of this robot's seat."""
        started = None if self.time_limit is None else time.perf_counter()
        bot = game.active_bot()
        due = game.expected()
        if bot is None or bot.player != self.player:
            raise ValueError(f"it is not {self.player}'s turn")
        if due == "place":
            return self._place(game, bot)
        if due == "move":
            return self._move(game, bot, started)
        if due == "shoot":
            return self._shoot(game, bot)
        raise ValueError(f"nothing for a robot to decide: the game expects {due!r}")

    def _place(self, game: Game, bot: Bot) -> Place:
        state = game.state
        d = self._note(roll_on(self.personality.place, Situation(state, bot), state.dice, "place"))
        return place(state, bot, d.choice, game.legal)

    def _move(self, game: Game, bot: Bot, started: float | None) -> Move:
        state = game.state
        sit = Situation(state, bot)
        d = self._note(roll_on(self.personality.turn, sit, state.dice, "turn"))
        intention = self._intent[(bot.id, state.round)] = turn_choice(d)
        limit = self.time_limit or 0.0      # `started` is set only with a time limit
        deadline = None if started is None else started + limit * SEARCH_SHARE
        previewer = getattr(game, "previewer", None)       # the state stays as it is
        plan = plan_move(state, bot, intention, sit.focus, deadline,
                         preview=previewer(state) if previewer else None,
                         advance=wants_to_advance(sit, intention))
        self.last_plan = plan
        if plan.timed_out:
            self._events.append({
                "type": "robot_search_cut", "player": self.player, "bot": bot.id,
                "previews": plan.previews, "limit_ms": round(1000 * limit),
                "text": N_("{player}'s search for {id} was cut by its {v} ms guard after "
                           "{previews} previews").format(
                            player=self.player, id=bot.id, v=round(1000 * limit),
                            previews=plan.previews)})
        move = plan.move
        holds = self.holds(game, move)
        if holds:
            move = Move(move.bot, move.steps, holds)
        if plan.result is None and game.legal(move) is not None:
            move = Move(bot.id, (), holds)      # nothing legal found: stay (if even that is)
        return move

    def holds(self, game: Game, move: Move) -> tuple[str, ...]:
        """Watchers played by robots that choose to hold their fire (R23)."""
        if not self.peers or not any(b.overwatch for b in game.state.live_bots()):
            return ()
        offers = game.preview(move).overwatch
        out = []
        for offer in offers:
            watcher = game.state.bots[offer.watcher]
            robot = self.peers.get(watcher.player)
            if robot is not None and not robot.answer_overwatch(game, watcher, move.bot):
                out.append(watcher.id)
        return tuple(out)

    def answer_overwatch(self, game: Game, watcher: Bot, mover_id: str) -> bool:
        """Fire at the mover (True) or hold (False), by the overwatch table."""
        state = game.state
        sit = Situation(state, watcher, focus=state.bots[mover_id])
        d = self._note(roll_on(self.personality.overwatch, sit, state.dice, "overwatch"))
        return bool(d.choice == "fire")

    def _shoot(self, game: Game, bot: Bot) -> Action:
        state = game.state
        intent = self._intent.pop((bot.id, state.round), None)
        recorded = self._recorded_intent(game, bot)
        if recorded is not None:
            intent = recorded
        if intent is None:
            intent = turn_choice(self._note(roll_on(self.personality.turn, Situation(state, bot),
                                                    state.dice, "turn")))
        first: dict[str, list[Attempt]] = {
            "overwatch": [self._overwatch], "service": [self._service],
            "self_destruct": [self._self_destruct], "pass": []}
        tries = first.get(intent.then, []) + [self._fire, self._free_service]
        answers: dict[Action, Refusal | None] = {}

        def legal(action: Action) -> Refusal | None:
            """`game.legal`, each action asked once in this phase."""
            if action not in answers:
                answers[action] = game.legal(action)
            return answers[action]

        for attempt in tries:
            action = attempt(game, bot, intent, legal)
            if action is not None and legal(action) is None:
                return action
        return Pass(bot.id)

    def _recorded_intent(self, game: Game, bot: Bot) -> Intention | None:
        """The turn decision journaled with this bot's move of this turn, rebuilt from
        its rule line and roll: a game resumed between the move and the shot goes on
        with the decision the move was planned by (no new roll). None when the move
        carried none (a person moved the bot, or another personality decided)."""
        for entry in reversed(game.history):
            if not isinstance(entry.action, Move) or entry.action.bot != bot.id:
                if any(e.get("type") == "turn" and e.get("phase") == "move"
                       for e in entry.events[entry.notes:]):
                    return None      # this turn began with that entry, no move since
                continue
            for event in entry.events[:entry.notes]:
                if event["type"] != "robot_decision":
                    continue
                roll = event.get("roll")
                if event.get("bot") == bot.id and event.get("section") == "turn" \
                        and event.get("personality") == self.personality.name \
                        and roll is not None:
                    for rule in self.personality.turn:
                        if rule.line == event.get("line") and rule.label == event.get("rule"):
                            choice = rule.choice(roll)
                            return choice if isinstance(choice, Intention) else None
            return None
        return None

    def _fire(self, game: Game, bot: Bot, intent: Intention, legal: Legal) -> Shoot | None:
        shoot = aim.shots(game.state, bot, intent.weapons, intent.target)
        if shoot is None and intent.weapons != "all":
            shoot = aim.shots(game.state, bot, "all", intent.target)
        if shoot is not None and legal(shoot) is not None and len(shoot.shots) > 1:
            for order in shoot.shots:            # one shot the rules accept beats none
                single = type(shoot)(bot.id, (order,))
                if legal(single) is None:
                    return single
        return shoot

    def _overwatch(self, game: Game, bot: Bot, intent: Intention,
                   legal: Legal) -> SetOverwatch:
        return SetOverwatch(bot.id)

    def _self_destruct(self, game: Game, bot: Bot, intent: Intention,
                       legal: Legal) -> SelfDestruct:
        return SelfDestruct(bot.id)

    def _service(self, game: Game, bot: Bot, intent: Intention, legal: Legal) -> Service | None:
        if not on_service_point(game, bot):
            return None                 # the rules refuse every choice there (R49)
        order = SERVICE_ORDER if intent.service == "best" else (intent.service,) + SERVICE_ORDER
        for choice in order:
            action = Service(bot.id, choice)
            if legal(action) is None:
                return action
        return None

    def _free_service(self, game: Game, bot: Bot, intent: Intention,
                      legal: Legal) -> Service | None:
        """Nothing to shoot: a bot standing on a service point uses it anyway (R49)."""
        return self._service(game, bot, Intention(then="service"), legal)


def turn_choice(d: Decision) -> Intention:
    """A turn table's row: an Intention (the table reader makes every turn row one)."""
    if not isinstance(d.choice, Intention):
        raise TypeError(f"a turn row is not an intention: {d.choice!r}")
    return d.choice


def wants_to_advance(sit: Situation, intention: Intention) -> bool:
    """No enemy in sight or in any weapon's reach: an intention that would wait, keep off
    or hide goes looking instead (issue 29). Sight is asked only of those intentions."""
    return intention.move in ADVANCING and sit.focus is not None \
        and not sit.in_reach and not sit.in_sight


def on_service_point(game: Game, bot: Bot) -> bool:
    """The bot's centre is on a service point in the state the rules check a service in
    (D17). When it is not, `Game.legal` refuses every service choice (R49), so asking
    each of them is spared: a shortcut, never a different answer."""
    state = game.mode.state_for(game, Service(bot.id, SERVICE_ORDER[0]))
    if isinstance(state, Refusal):
        return False
    seat = state.bots.get(bot.id)
    return seat is None or not seat.on_table or service_point_under(state, seat) is not None
