"""One session behind every face: the table, the phones and the robots act on the
game through it, so a fix lands once and every face gets it.

`Session` holds the game, its robot seats and:

- `preview(move)`: the planned move's path, refusal, legal prefix and overwatch
  offers (`core_calls.preview_move`), computed once per state and plan;
- `premeasure(bot, weapon, aim, overwatch)`: the core's pre-measure, or why not
  (no such bot or weapon; a bot does not pre-measure itself);
- `act(action, typed)`: `Game.act` with the robots' decisions as notes and the
  dice typed by hand (the game may then wait for a die: `waiting()`);
- `commit_move(move)`: a move that meets watchers waits while each is asked to
  fire or hold (R23) — a robot seat answers by its overwatch table, a human one
  where that seat is held: on its phone when one is connected (`phone_holds`),
  else at the table; `answer(fire)`; `tick(now)` holds for a watcher who did not
  answer within the house rule `overwatch_answer_seconds`;
- `undo()` / `redo()`;
- `robot_turn()`: a robot seat's action (its move asks human watchers too);
- `feed`: every event in words for every listener (the table's log, each phone).

The session keeps no lock: each face holds its own around its calls (the hub's
locks, the table's `apply`).
"""
from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from bottisota.core.actions import Action, Move, Refusal
from bottisota.core.i18n import _, translated
from bottisota.engine.events import Event
from bottisota.engine.game import ActResult, Game
from bottisota.engine.overwatch import Offer
from bottisota.engine.shooting.premeasure import Premeasure
from bottisota.engine.state import Bot
from bottisota.viewmodel.core_calls import MovePreview, premeasure, preview_move
from bottisota.viewmodel.feed import Feed
from bottisota.viewmodel.watcher_question import WatcherQuestion
from bottisota.viewmodel.words import describe

Aim = str | tuple[float, float] | None


class RobotPlayer(Protocol):
    """What the session asks of a robot seat (`viewmodel.session.RobotSeat`)."""

    def decide(self, game: Game) -> Action: ...
    def answer_overwatch(self, game: Game, watcher: Bot, mover_id: str) -> bool: ...
    def take_events(self) -> list[Event]: ...


@dataclass(frozen=True)
class Waiting:
    """What the game waits for: a watcher's answer or a die rolled by hand, from which
    seat (a player), and where that seat is asked ("phone" or "table")."""

    kind: str            # "overwatch" or "die"
    seat: str | None
    text: str
    face: str = "table"

    def as_json(self) -> dict[str, object]:
        return {"kind": self.kind, "seat": self.seat, "text": self.text}


class Session:
    """The game as every face acts on it (see the module doc)."""

    def __init__(self, game: Game, robots: Mapping[str, RobotPlayer] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.game = game
        self.robots: Mapping[str, RobotPlayer] = robots if robots is not None else {}
        self.clock = clock
        self.feed = Feed.of_game(game)
        self.notes: list[Event] = []       # robot decisions not yet journaled with an action
        # what an action carries from outside the rules (the camera's reading of a move)
        self.annotators: list[Callable[[Action], Event | None]] = []
        self.question: WatcherQuestion | None = None
        self.phone_holds: Callable[[str], bool] = lambda player: False
        self._asked = 0                    # questions put so far (their serials)
        self._preview: tuple[tuple[object, ...], MovePreview] | None = None
        self.robot_action: Action | None = None   # the last action a robot seat decided

    # --- what the game is -----------------------------------------------------------

    def mark(self) -> tuple[object, ...]:
        """What tells whether the game (or what it waits for) changed."""
        g = self.game
        q = self.question
        return (id(g.state), len(g.history), g.state.dice.used, g.state.round,
                g.state.active, g.state.phase, g.state.over,
                q.ask_id if q is not None else None, g.waiting)

    def waiting(self) -> Waiting | None:
        """The watcher being asked, or the die the game waits for, or None."""
        q = self.question
        offer = q.current if q is not None else None
        if q is not None and offer is not None:
            watcher = self.game.state.bots.get(offer.watcher)
            seat = watcher.player if watcher is not None else None
            face = "phone" if seat is not None and self.phone_holds(seat) else "table"
            return Waiting("overwatch", seat, _(
                    "{watcher} may fire at {mover} (R23): {seat} answers fire or hold, "
                    "{seconds} s left").format(
                        watcher=offer.watcher, mover=q.move.bot, seat=seat,
                        seconds=int(q.left(self.clock()) + 0.999)), face)
        wait = self.game.waiting
        if wait is not None:
            return Waiting("die", self.game.whose_turn(), _(
                    "waiting for a die rolled by hand: {purpose}").format(
                        purpose=translated(wait.purpose)), "phone")
        return None

    def winner(self) -> dict[str, Any] | None:   # Any: JSON for the faces
        """The end of the game in words and its winners, or None while it goes on."""
        if not self.game.state.over:
            return None
        entries = [self.game.start_events] + [e.events for e in self.game.history]
        for events in reversed(entries):
            for e in reversed(events):
                if e["type"] == "game_over":
                    return {"text": describe(e), "players": list(e["winners"])}
        return {"text": _("the game is over"), "players": []}

    # --- previews and pre-measures -----------------------------------------------------

    def preview(self, move: Move) -> MovePreview:
        """The core's preview of a planned move, asked once per state and move."""
        key = (self.mark(), move)
        kept = self._preview
        if kept is not None and kept[0] == key:
            return kept[1]
        pv = preview_move(self.game, move)
        self._preview = (key, pv)
        return pv

    def premeasure_refusal(self, bot_id: str, weapon: str, target: str | None) -> str | None:
        """Why a pre-measure cannot be made: no such bot or weapon, or a target that is
        not another bot on the table (a bot does not pre-measure itself)."""
        state = self.game.state
        bot = state.bots.get(bot_id)
        if bot is None or not bot.on_table:
            return _("there is no bot {bot!r} on the table").format(bot=bot_id)
        if bot.stats.weapon(weapon) is None:
            names = ", ".join(w.name for w in bot.stats.weapons) or "none"
            return _("{id} has no weapon {weapon!r} (its weapons: {names})").format(
                       id=bot.id, weapon=weapon, names=names)
        if target is not None:
            other = state.bots.get(target)
            if other is None or not other.on_table or other.id == bot.id:
                return _("{target!r} is not another bot on the table").format(target=target)
        return None

    def premeasure(self, bot_id: str, weapon: str, aim: Aim = None,
                   overwatch: bool = False) -> Premeasure | str:
        """The core's pre-measure of one weapon, or why not (in words)."""
        why = self.premeasure_refusal(bot_id, weapon, aim if isinstance(aim, str) else None)
        if why is not None:
            return why
        return premeasure(self.game.state, bot_id, weapon, aim, overwatch)

    # --- acting ------------------------------------------------------------------------

    def take_robot_notes(self) -> list[Event]:
        """The robots' decisions since last asked: told in the feed now, journaled with
        the next action the game accepts (as its notes)."""
        taken: list[Event] = []
        seen: set[int] = set()
        for robot in self.robots.values():
            if id(robot) not in seen:
                seen.add(id(robot))
                taken += robot.take_events()
        if taken:
            self.feed.events(taken, None)
            self.notes += taken
        return taken

    def act(self, action: Action, typed: Sequence[int] | None = None) -> ActResult:
        """`Game.act` with the robots' notes (and the dice typed by hand, if any). The
        result's events are the action's own (the notes were told when made); the feed
        tells them. Exceptions (a journal that cannot be written) reach the caller."""
        self.take_robot_notes()
        notes = list(self.notes) + [n for a in self.annotators if (n := a(action)) is not None]
        wait = self.game.waiting
        if wait is not None and (wait.action == action or (
                isinstance(action, Move) and isinstance(wait.action, Move)
                and (wait.action.bot, wait.action.steps) == (action.bot, action.steps))):
            # the action waiting for a die goes on, as the watchers answered it
            action, notes = wait.action, list(wait.notes)
        result = self.game.act(action, notes, typed)
        if not result.ok:
            return result
        self.notes = []
        self.question = None
        own = result.events[len(notes):]
        self.feed.forget_undone()
        self.feed.events(own, len(self.game.history))
        return ActResult(events=own, unused=result.unused)

    def give_die(self, value: int) -> ActResult:
        """The die the game waits for (typed at the table)."""
        wait = self.game.waiting
        if wait is None:
            return ActResult(refusal=Refusal("D8", _("no die is awaited")))
        return self.act(wait.action, wait.typed + (value,))

    def undo(self) -> bool:
        """Take back the last action (its lines struck through); False: nothing to undo."""
        n = len(self.game.history)
        self.question = None
        if not self.game.undo():
            return False
        self.take_robot_notes()
        self.notes = []            # undo drops the dice rolled since the last action too
        self.feed.undone(n)
        return True

    def redo(self) -> bool:
        self.question = None
        if not self.game.redo():
            return False
        self.take_robot_notes()
        self.notes = []
        self.feed.redone(len(self.game.history))
        return True

    # --- the watcher's question (R23) -------------------------------------------------

    def commit_move(self, move: Move, offers: list[Offer] | None = None,
                    typed: Sequence[int] | None = None) -> ActResult | None:
        """Commit a move: the watchers it would meet are asked first (robot seats answer
        at once); then it is made (with `typed`: the dice rolled by hand for it). The
        ActResult when the move was made now (or refused, or waits for a die), None
        while a watcher is being asked."""
        if offers is None:
            pv = self.preview(move)
            if pv.refusal is not None:
                return ActResult(refusal=pv.refusal)
            offers = pv.offers
        self._asked += 1
        self.question = WatcherQuestion(move, list(offers),
                                        self.game.state.rules.overwatch_answer_seconds,
                                        self.clock(), self._asked,
                                        tuple(typed) if typed is not None else None)
        return self._ask_robots()

    def answer(self, fire: bool, ask: str | None = None) -> ActResult | None:
        """The watcher asked now fires or holds (`ask`: the id of the ask answered; an
        answer to an ask no longer put changes nothing). The ActResult once the move
        was made, None while another watcher is asked (or nothing was asked)."""
        q = self.question
        if q is None or q.finished or (ask is not None and ask != q.ask_id):
            return None
        q.answer(fire, self.clock())
        return self._ask_robots()

    def tick(self, now: float | None = None) -> ActResult | None:
        """A watcher who did not answer in time holds (house rule
        `overwatch_answer_seconds`); the ActResult when that made the move."""
        q = self.question
        now = self.clock() if now is None else now
        if q is None or q.current is None or q.left(now) > 0:
            return None
        q.answer(False, now)
        return self._ask_robots()

    def _ask_robots(self) -> ActResult | None:
        """Robot-played watchers answer at once; a human's watcher waits; once every
        watcher answered, the move is made."""
        q = self.question
        while q is not None and not q.finished:
            offer = q.current
            watcher = self.game.state.bots.get(offer.watcher) if offer is not None else None
            robot = self.robots.get(watcher.player) if watcher is not None else None
            if watcher is None or robot is None:
                return None
            q.answer(bool(robot.answer_overwatch(self.game, watcher, q.move.bot)), self.clock())
            self.take_robot_notes()
        if q is None:
            return None
        self.question = None
        return self.act(q.final_move(), q.typed)

    # --- robot seats -------------------------------------------------------------------

    def robot_due(self) -> str | None:
        """The robot seat whose action is due (nobody being asked), or None."""
        if self.question is not None or self.game.waiting is not None \
                or self.game.expected() == "over":
            return None
        bot = self.game.active_bot()
        if bot is None or bot.player not in self.robots:
            return None
        return bot.player

    def robot_turn(self, decided: Action | None = None) -> ActResult | None:
        """The due robot seat acts once: its move first asks human watchers (a robot's
        watchers answer at once). None when no robot was due or a watcher is asked.
        `decided`: the robot's decision made already (the table's worker thread)."""
        player = self.robot_due()
        if player is None:
            return None
        action = self.robot_action = (decided if decided is not None
                                      else self.robots[player].decide(self.game))
        self.take_robot_notes()
        if isinstance(action, Move) and self.game.expected() == "move":
            pv = self.preview(action)
            if pv.refusal is None and any(
                    self.game.state.bots[o.watcher].player not in self.robots
                    for o in pv.offers):
                return self.commit_move(action, pv.offers)
        return self.act(action)
