"""The game and its seats, as the phones see them (no web framework here).

`Hub` holds the running `Game`, one `Seat` per player (plus the table's own
seat, which acts for whoever's turn it is, like the laptop) and a `Desk` per
seat: what that seat last selected, pre-measured and planned, and whether it
asked to show it on the table. Desks live by seat, not by connection, so a
phone that drops and reconnects picks up where it was.

Every answer is the core's: `premeasure` (engine.shooting), `Game.preview`
for a planned move and its overwatch offers, `Game.act` for a commit. The
hub only checks who may do what: a player's seat plans and acts for its own
bots only, and commits only on its own turn when the group allows phones to
commit (`--phones-commit`).

Two locks keep the game whole between threads (the server's, the table view's):
`lock` is held by every answer and by every change to the game (the table view
holds it while it acts); `table_lock` is held by the table view for its whole
frame and by a seat's change to the game (commit, undo, redo, a robot's turn,
taken before `lock`), so the game never changes under the table's drawing while
phones' pre-measures and plans (reads) run beside it. What seats show on the
table is published as one immutable snapshot (`on_table`) the frame reads
without waiting for either lock. While the table draws (`table_idle` cleared),
an answer waits for the frame to end before it starts (at most
TABLE_WAIT_SECONDS): the interpreter is the table's for its frame, and the
phones' work fills the time between frames.
"""
from __future__ import annotations

import contextlib
import hmac
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bottisota.core.actions import Move, Refusal
from bottisota.core.errors import JournalWriteError
from bottisota.core.i18n import _
from bottisota.engine.movement.moves import preview_move
from bottisota.engine.shooting.premeasure import premeasure
from bottisota.formats.codec import steps_from_list
from bottisota.viewmodel.core_calls import MovePreview
from bottisota.web import snapshot
from bottisota.web.protocol import Message

log = logging.getLogger("bottisota.web")

TABLE = "table"          # the table's own seat (the laptop, or a browser as the table)
TABLE_WAIT_SECONDS = 0.05   # an answer waits at most this long for the table's frame to end


class NeedDie(Exception):
    """Physical dice: the phone has not typed the die the rules now ask for."""

    def __init__(self, purpose: str) -> None:
        super().__init__(purpose)
        self.purpose = purpose


@dataclass
class Seat:
    name: str                 # a player, or TABLE
    token: str

    @property
    def is_table(self) -> bool:
        return self.name == TABLE


@dataclass
class Desk:
    """One seat's private work: the selected bot, the last pre-measure asked for,
    the planned move, and whether it is shown on the table."""

    selected: str | None = None
    measure: dict | None = None       # {bot, weapon, target, at, overwatch}
    plan: dict | None = None          # {bot, steps (format dicts), hold_fire}
    shown: bool = False
    last_measure: dict | None = None  # the JSON answers, for the table and reconnects
    last_plan: dict | None = None
    measured: Any = None              # the core's answers themselves, for the table view
    focus: str | None = None
    previewed: MovePreview | None = None


@dataclass(frozen=True)
class OnTable:
    """One seat's work shown on the table: its requests and the core's answers for
    the game as it was when published (the table view draws them with its own
    painters, or measures again when the game has changed since)."""

    seat: str
    measure: dict | None              # {bot, weapon, target, at, overwatch}
    move: Move | None                 # the planned move
    premeasure: Any                   # the core's Premeasure, or None
    focus: str | None
    preview: MovePreview | None


@dataclass
class Answer:
    """What the hub answers a message: replies for the sender and whether the game
    (or what is shown on the table) changed, so every seat must be told."""

    replies: list[dict] = field(default_factory=list)
    changed: bool = False
    moved: bool = False       # the game itself changed: every desk was measured again


class Hub:
    """The game served to the seats (see the module doc)."""

    def __init__(self, game: Any, tokens: dict[str, str], commit: bool = False,
                 physical: bool = False, robots: dict[str, Any] | None = None,
                 drive_robots: bool = False, robot_pace: float = 1.5) -> None:
        self.game = game
        self.robots = robots or {}            # seats played by robots (`--robot`)
        self.drive_robots = drive_robots      # True: the hub plays them (serve); else the view
        self.robot_pace = robot_pace
        self._robot_due = 0.0                 # monotonic time the next robot action may come
        self.last_actor: str | None = None    # the seat whose commit changed the game last
        self.seats = {name: Seat(name, tok) for name, tok in tokens.items()}
        self.desks: dict[str, Desk] = {name: Desk() for name in tokens}
        self.commit = commit
        self.physical = physical
        self.lock = threading.RLock()
        self.table_lock = threading.RLock()      # the table's frame; a seat's change
        self.table_idle = threading.Event()      # cleared while the table draws a frame
        self.table_idle.set()
        self.version = 0
        self._mark = self._game_mark()
        # what seats show on the table: (the game's mark, tuple of OnTable), replaced whole
        self.on_table: tuple[tuple, tuple[OnTable, ...]] = (self._mark, ())
        self._typed: list[int] | None = None      # physical dice typed for the current commit

    # --- seats ----------------------------------------------------------------------

    def seat_for(self, token: str | None) -> Seat | None:
        """The seat whose link carries this token (compared in constant time)."""
        if not token or len(token) > 128:
            return None
        found = None
        for seat in self.seats.values():
            if hmac.compare_digest(seat.token.encode(), token.encode()):
                found = seat
        return found

    def can_commit(self, seat: Seat) -> bool:
        return seat.is_table or self.commit

    # --- physical dice ----------------------------------------------------------------

    def ask(self, purpose: str) -> int:
        """The game's physical dice: the next die the phone typed, or NeedDie."""
        if self._typed:
            return self._typed.pop(0)
        raise NeedDie(purpose)

    # --- what changed -------------------------------------------------------------------

    def game_mark(self) -> tuple:
        """What tells whether the game changed (read under a lock, or by the table
        view in its frame, when no seat can change it)."""
        return self._game_mark()

    def _game_mark(self) -> tuple:
        g = self.game
        return (id(g.state), len(g.history), g.state.dice.used, g.state.round,
                g.state.active, g.state.phase, g.state.over)

    def poll(self) -> bool:
        """True (once) when the game changed since last asked (the table view acts too)."""
        with self.lock:
            mark = self._game_mark()
            if mark == self._mark:
                return False
            self._mark = mark
            self.version += 1
            self._refresh_desks()
            self._publish()
            return True

    def _refresh_desks(self) -> None:
        """The game moved on: every desk's pre-measure and plan are measured again."""
        for name, desk in self.desks.items():
            try:
                if desk.measure is not None:
                    self._measure(desk)
                if desk.plan is not None:
                    self._plan(desk)
            except Exception:      # one seat's stale work must not stop the others'
                log.exception("measuring seat %s's work again failed", name)
                desk.last_measure = desk.last_plan = None
                desk.measured = desk.focus = desk.previewed = None

    def _publish(self) -> None:
        """Replace `on_table` with what the seats show now (under `lock`), marked with
        the game the desks were last all measured for (`poll`): after a change not
        yet polled, the table sees the mark differ and measures for itself."""
        out = []
        for name, desk in self.desks.items():
            if not desk.shown or (desk.measure is None and desk.plan is None):
                continue
            move = None
            if desk.plan is not None:
                move = Move(desk.plan["bot"], steps_from_list(desk.plan["steps"], "steps"),
                            tuple(desk.plan["hold_fire"]))
            out.append(OnTable(name, dict(desk.measure) if desk.measure else None, move,
                               desk.measured, desk.focus, desk.previewed))
        self.on_table = (self._mark, tuple(out))

    def state(self) -> dict:
        with self.lock:
            return {"type": "state", "state": snapshot.game_state(self.game, self.version),
                    "shown": self.shown()}

    def desk_answers(self, seat: Seat) -> list[dict]:
        """The seat's pre-measure and plan as measured again after the game changed."""
        with self.lock:
            desk = self.desks[seat.name]
            out = []
            if desk.last_measure is not None:
                out.append({"type": "premeasure", "premeasure": desk.last_measure})
            if desk.last_plan is not None:
                out.append({"type": "plan", "plan": desk.last_plan})
            return out

    def shown(self) -> list[dict]:
        """What seats pushed to the table ("Show on table"): the table view reads this."""
        out = []
        for name, desk in self.desks.items():
            if desk.shown and (desk.last_measure or desk.last_plan):
                out.append({"seat": name, "premeasure": desk.last_measure,
                            "plan": desk.last_plan})
        return out

    def shown_work(self) -> list[tuple[str, dict | None, Move | None]]:
        """What seats pushed to the table, as requests the table view can measure and
        draw with its own painters: (seat, {bot, weapon, target, at, overwatch} or
        None, the planned Move or None)."""
        return [(w.seat, w.measure, w.move) for w in self.on_table[1]]

    def hello(self, seat: Seat) -> dict:
        """The first message on a connection: the seat, the table, the state and the
        seat's desk as it was left."""
        with self.lock:
            desk = self.desks[seat.name]
            return {
                "type": "hello", "seat": seat.name, "table_seat": seat.is_table,
                "players": list(self.game.state.players),
                "can_commit": self.can_commit(seat), "physical_dice": self.physical,
                "table": snapshot.table(self.game.state),
                "state": snapshot.game_state(self.game, self.version),
                "shown": self.shown(),
                "desk": {"selected": desk.selected, "measure": desk.measure,
                         "plan": desk.plan, "shown": desk.shown,
                         "premeasure": desk.last_measure, "planned": desk.last_plan},
            }

    # --- messages -------------------------------------------------------------------------

    def handle(self, seat: Seat, msg: Message) -> Answer:
        """Answer one checked message from a seat (a change to the game waits for
        the table's frame to end; an answer that only reads starts between frames)."""
        self.table_idle.wait(TABLE_WAIT_SECONDS)
        with self.table_lock if msg.type in CHANGES else _NO_LOCK, self.lock:
            handler: Callable[[Seat, Message], Answer] = getattr(self, f"_on_{msg.type}")
            try:
                answer = handler(seat, msg)
            except JournalWriteError as err:    # disk full: the game took it back
                log.warning("seat %s: %s", seat.name, err)
                answer = Answer([error(_(
                        "not done: the referee could not write the game's journal ({reason}); "
                        "the game is as it was. Free some disk space on the referee's "
                        "computer, then do it again").format(reason=err.reason))])
            except Exception:      # never a traceback to a phone; the table's log has it
                log.exception("message %s from seat %s failed", msg.type, seat.name)
                answer = Answer([error(_("the referee could not answer that"))])
            if answer.changed:
                self._publish()
            for reply in answer.replies:
                if msg.id is not None:
                    reply["re"] = msg.id
            return answer

    def _on_ping(self, seat: Seat, msg: Message) -> Answer:
        return Answer([{"type": "pong", "version": self.version}])

    def _on_select(self, seat: Seat, msg: Message) -> Answer:
        bot = self.game.state.bots.get(msg.bot)
        if bot is None or (bot.removed and bot.id != self.game.state.active):
            return Answer([error(_("there is no bot {bot!r} on the table").format(bot=msg.bot))])
        self.desks[seat.name].selected = bot.id
        return Answer([{"type": "selected", "bot": snapshot.bot_json(bot),
                        "own": seat.is_table or bot.player == seat.name}])

    def _on_clear(self, seat: Seat, msg: Message) -> Answer:
        desk = self.desks[seat.name]
        was_shown = desk.shown
        self.desks[seat.name] = Desk(selected=desk.selected)
        return Answer([{"type": "cleared"}], changed=was_shown)

    def _on_show(self, seat: Seat, msg: Message) -> Answer:
        desk = self.desks[seat.name]
        desk.shown = msg.on
        return Answer([{"type": "shown", "on": msg.on}], changed=True)

    def _on_premeasure(self, seat: Seat, msg: Message) -> Answer:
        request = {"bot": msg.bot, "weapon": msg.weapon, "target": msg.target,
                   "at": list(msg.at) if msg.at else None, "overwatch": msg.overwatch}
        why = self._measure_refusal(request)
        if why:
            return Answer([error(why)])
        desk = self.desks[seat.name]
        desk.measure, desk.selected = request, msg.bot
        self._measure(desk)
        return Answer([{"type": "premeasure", "premeasure": desk.last_measure}],
                      changed=desk.shown)

    def _measure_refusal(self, req: dict) -> str | None:
        state = self.game.state
        bot = state.bots.get(req["bot"])
        if bot is None or not bot.on_table:
            return _("there is no bot {bot!r} on the table").format(bot=req['bot'])
        if bot.stats.weapon(req["weapon"]) is None:
            names = ", ".join(w.name for w in bot.stats.weapons) or "none"
            return _("{id} has no weapon {weapon!r} (its weapons: {names})").format(
                       id=bot.id, weapon=req['weapon'], names=names)
        target = req.get("target")
        if target is not None:
            other = state.bots.get(target)
            if other is None or not other.on_table or other.id == bot.id:
                return _("{target!r} is not another bot on the table").format(target=target)
        return None

    def _measure(self, desk: Desk) -> None:
        """The core's pre-measure of the desk's request, kept with its JSON."""
        req = desk.measure
        if req is None or self._measure_refusal(req):
            desk.last_measure = desk.measured = desk.focus = None
            return
        state = self.game.state
        aim = req.get("target") or (tuple(req["at"]) if req.get("at") else None)
        pm = premeasure(state, req["bot"], req["weapon"], aim, req.get("overwatch", False))
        desk.measured, desk.focus = pm, req.get("target")
        desk.last_measure = snapshot.premeasure_json(pm, state, focus=req.get("target"))

    def _on_plan(self, seat: Seat, msg: Message) -> Answer:
        bot = self.game.state.bots.get(msg.bot)
        if bot is None or not bot.on_table:
            return Answer([error(_("there is no bot {bot!r} on the table").format(bot=msg.bot))])
        if not seat.is_table and bot.player != seat.name:
            return Answer([error(
                    _("seat {name} plans only its own bots; {id} is {player}'s").format(
                        name=seat.name, id=bot.id, player=bot.player))])
        desk = self.desks[seat.name]
        desk.plan = {"bot": bot.id, "steps": list(msg.step_data),
                     "hold_fire": list(msg.hold_fire)}
        desk.selected = bot.id
        self._plan(desk, Move(bot.id, msg.steps, msg.hold_fire))
        return Answer([{"type": "plan", "plan": desk.last_plan}], changed=desk.shown)

    def _plan(self, desk: Desk, move: Move | None = None) -> None:
        """The core's preview of the desk's planned move (and, when a step is refused,
        of the legal steps before it), kept with its JSON."""
        plan = desk.plan
        if plan is None:
            desk.last_plan = desk.previewed = None
            return
        if move is None:
            bot = self.game.state.bots.get(plan["bot"])
            if bot is None or not bot.on_table:
                desk.last_plan = desk.previewed = None
                return
            move = Move(plan["bot"], steps_from_list(plan["steps"], "steps"),
                        tuple(plan["hold_fire"]))
        pv = self.game.preview(move)
        prefix = None
        ref = pv.refusal
        if pv.move is None and ref is not None and ref.rule == "D18":
            # off its turn: the path's own refusal says more than "not your turn"
            found = preview_move(self.game.state, move)
            if isinstance(found, Refusal):
                ref = found
        if pv.move is None and ref is not None and ref.step is not None and ref.step > 0:
            pre = self.game.preview(Move(move.bot, move.steps[:ref.step], move.hold_fire))
            prefix = pre.move
            offers = list(pre.overwatch) if prefix is not None else []
        else:
            offers = list(pv.overwatch)
        desk.previewed = MovePreview(move, pv.move, ref, prefix, offers)
        desk.last_plan = snapshot.plan_json(move.bot, list(plan["steps"]), pv.move, ref, prefix,
                                            offers)

    def _on_commit(self, seat: Seat, msg: Message) -> Answer:
        game = self.game
        if not self.can_commit(seat):
            return Answer([error(
                    _("phones may pre-measure and plan here; actions are made at the table "
                      "(start the referee with --phones-commit to act from phones)"))])
        action = msg.action
        bot = game.state.bots.get(action.bot)
        if bot is None:
            return Answer([error(_("there is no bot {bot!r}").format(bot=action.bot))])
        if not seat.is_table and bot.player != seat.name:
            return Answer([error(
                    _("seat {name} acts only for its own bots; {id} is {player}'s").format(
                        name=seat.name, id=bot.id, player=bot.player))])
        turn = game.whose_turn()
        if turn in self.robots and (seat.is_table or seat.name != turn):
            return Answer([error(_("it is {player}'s turn, and a robot plays {player}").format(
                player=turn))])
        if not seat.is_table and turn != seat.name:
            return Answer([error(
                    _("it is {turn}'s turn, not {name}'s").format(turn=turn, name=seat.name)
                                 if turn else _("the game is over"))])
        if msg.dice and not self.physical:
            return Answer([error(_("this game rolls its own dice: send no 'dice'"))])
        refusal = game.legal(action)
        if refusal is not None:
            return Answer([{"type": "refused", "refusal": snapshot.refusal_json(refusal)}])
        if isinstance(action, Move) and self.robots:
            action = self._robot_holds(action)
        result = self._act(action, list(msg.dice))
        if isinstance(result, dict):
            return Answer([result])
        if result.refusal is not None:
            return Answer([{"type": "refused", "refusal": snapshot.refusal_json(result.refusal)}])
        desk = self.desks[seat.name]
        desk.plan, desk.last_plan, desk.previewed = None, None, None
        self.last_actor = seat.name
        self._robot_due = time.monotonic() + self.robot_pace
        self.poll()
        return Answer([{"type": "done", "events": snapshot.events_json(result.events)}],
                      changed=True, moved=True)

    # --- robot seats ------------------------------------------------------------------------

    def _robot_notes(self) -> list[dict]:
        """The robots' decisions since the last action (journaled as its notes)."""
        notes: list[dict] = []
        seen: set[int] = set()
        for robot in self.robots.values():
            if id(robot) not in seen:
                seen.add(id(robot))
                notes += robot.take_events()
        return notes

    def _robot_holds(self, move: Move) -> Move:
        """A seat's move meets watchers played by robots: each answers by its overwatch
        table whether it fires or holds (R23), as at the table."""
        robot = next(iter(self.robots.values()))
        holds = tuple(h for h in robot.holds(self.game, move) if h not in move.hold_fire)
        return Move(move.bot, move.steps, move.hold_fire + holds) if holds else move

    def robot_turn(self, now: float | None = None) -> bool:
        """When a robot's seat is due (and the pace waited out), it acts once, as
        `play --robot` does; True when it acted. Only a hub that drives its robots
        (`serve --robot`) does this; under `play --phones` the table view does."""
        now = time.monotonic() if now is None else now
        with self.table_lock, self.lock:
            game = self.game
            if not self.drive_robots or not self.robots or game.expected() == "over":
                return False
            bot = game.active_bot()
            if bot is None or bot.player not in self.robots or now < self._robot_due:
                return False
            action = self.robots[bot.player].decide(game)
            result = game.act(action, self._robot_notes())
            self._robot_due = now + self.robot_pace
            if result.refusal is not None:
                log.error("robot %s's %s was refused: %s", bot.player, action, result.refusal)
                return False
            self.last_actor = bot.player
            return True

    def _on_undo(self, seat: Seat, msg: Message) -> Answer:
        return self._history(seat, "undo")

    def _on_redo(self, seat: Seat, msg: Message) -> Answer:
        return self._history(seat, "redo")

    def _history(self, seat: Seat, which: str) -> Answer:
        """The table takes back (or makes again) the last action, as the laptop does."""
        if not seat.is_table:
            return Answer([error(_("only the table may {which}").format(which=which))])
        if not getattr(self.game, which)():
            return Answer([error(_("nothing to {which}").format(which=which))])
        self.poll()
        return Answer([{"type": "done", "events": [
                _("{which}: the last action").format(which=which)
                                                   + (_(" taken back") if which == "undo"
                                                      else _(" made again"))]}],
                      changed=True, moved=True)

    def _act(self, action: Any, dice: list[int], notes: list[dict] | None = None) -> Any:
        """Game.act; with physical dice the typed dice are used in order, and when the
        rules ask for one more the game is put back as it was and the phone is asked."""
        if notes is None:
            notes = self._robot_notes()
        if not self.physical:
            return self.game.act(action, notes)
        game = self.game
        saved, mark = game.state.copy(), game._mark
        table_ask = game.state.dice.ask        # the table's own prompt stays the table's
        game.state.dice.ask = self.ask
        self._typed = list(dice)
        try:
            result = game.act(action, notes)
        except NeedDie as need:
            game.state, game._mark = saved, mark
            return {"type": "dice", "need": need.purpose, "given": len(dice)}
        finally:
            game.state.dice.ask = table_ask
            left, self._typed = self._typed or [], None
        if left and result.ok:
            result.events.append({"type": "note", "text":
                    _("{left} typed dice not used").format(left=len(left))})
        return result


CHANGES = frozenset({"commit", "undo", "redo"})     # messages that may change the game
_NO_LOCK = contextlib.nullcontext()


def error(message: str) -> dict:
    return {"type": "error", "message": message}
