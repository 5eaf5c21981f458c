"""The game and its seats, as the phones see them (no web framework here).

`Hub` holds the running `Game`, one `Seat` per player (plus the table's own
seat, which acts for whoever's turn it is, like the laptop) and a `Desk` per
seat: what that seat last selected, pre-measured and planned, and whether it
asked to show it on the table. Desks live by seat, not by connection, so a
phone that drops and reconnects picks up where it was.

Every answer is the session's (`viewmodel.game_session.Session`, the same one
the table view acts through under `play --phones`): pre-measures, a planned
move's preview, acting, undo, the watcher's question and the feed of events in
words. The hub only checks who may do what: a player's seat plans and acts for
its own bots only, commits only on its own turn when the group allows phones to
commit (`--phones-commit`), and answers only the watcher's question put to it.
What every seat is pushed besides the state (`pushes`): the feed's lines it has
not been told (`events`) and the watcher's question when it is that seat's
(`overwatch_ask`).

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

from bottisota.core.actions import Move
from bottisota.core.errors import JournalWriteError
from bottisota.core.i18n import _, translated
from bottisota.engine.game import ActResult, Game
from bottisota.formats.codec import steps_from_list
from bottisota.viewmodel.core_calls import MovePreview
from bottisota.viewmodel.game_session import Session
from bottisota.web import snapshot
from bottisota.web.protocol import Message
from bottisota.web.snapshot import Json

log = logging.getLogger("bottisota.web")

TABLE = "table"          # the table's own seat (the laptop, or a browser as the table)
TABLE_WAIT_SECONDS = 0.05   # an answer waits at most this long for the table's frame to end


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
    measure: Json | None = None       # {bot, weapon, target, at, overwatch}
    plan: Json | None = None          # {bot, steps (format dicts), hold_fire}
    shown: bool = False
    last_measure: Json | None = None  # the JSON answers, for the table and reconnects
    last_plan: Json | None = None
    measured: Any = None              # the core's answers themselves, for the table view
    focus: str | None = None
    previewed: MovePreview | None = None


@dataclass(frozen=True)
class OnTable:
    """One seat's work shown on the table: its requests and the core's answers for
    the game as it was when published (the table view draws them with its own
    painters, or measures again when the game has changed since)."""

    seat: str
    measure: Json | None              # {bot, weapon, target, at, overwatch}
    move: Move | None                 # the planned move
    premeasure: Any                   # the core's Premeasure, or None
    focus: str | None
    preview: MovePreview | None


@dataclass
class Answer:
    """What the hub answers a message: replies for the sender and whether the game
    (or what is shown on the table) changed, so every seat must be told."""

    replies: list[Json] = field(default_factory=list)
    changed: bool = False
    moved: bool = False       # the game itself changed: every desk was measured again


class Hub:
    """The game served to the seats (see the module doc)."""

    def __init__(self, game: Game, tokens: dict[str, str], commit: bool = False,
                 physical: bool = False, robots: dict[str, Any] | None = None,
                 drive_robots: bool = False, robot_pace: float = 1.5,
                 session: Session | None = None) -> None:
        self.session = session if session is not None else Session(game, robots)
        self.session.phone_holds = self.phone_holds
        self.robots: dict[str, Any] = self.session.robots   # seats played by robots (`--robot`)
        self.joined: dict[str, int] = {}      # open connections per seat
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
        self.on_table: tuple[tuple[object, ...], tuple[OnTable, ...]] = (self._mark, ())

    @property
    def game(self) -> Game:
        return self.session.game

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

    def join(self, seat: Seat) -> None:
        """A connection of the seat opened (its phone now holds the seat)."""
        with self.lock:
            self.joined[seat.name] = self.joined.get(seat.name, 0) + 1

    def leave(self, seat: Seat) -> None:
        with self.lock:
            self.joined[seat.name] = max(0, self.joined.get(seat.name, 0) - 1)

    def phone_holds(self, player: str) -> bool:
        """A phone of the player's seat is connected: its watcher is asked there."""
        return self.joined.get(player, 0) > 0

    # --- what changed -------------------------------------------------------------------

    def game_mark(self) -> tuple[object, ...]:
        """What tells whether the game changed (read under a lock, or by the table
        view in its frame, when no seat can change it)."""
        return self._game_mark()

    def _game_mark(self) -> tuple[object, ...]:
        return self.session.mark() + (self.session.feed.rev,)

    def poll(self) -> bool:
        """True (once) when the game changed since last asked (the table view acts too,
        and a watcher's time to answer may have run out)."""
        with self.table_lock, self.lock:
            self.session.tick()
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

    def state(self) -> Json:
        with self.lock:
            return {"type": "state", "state": self._state_json(), "shown": self.shown()}

    def _state_json(self) -> Json:
        """The game's state with its scores, winner and what it waits for."""
        out = snapshot.game_state(self.game, self.version)
        waiting = self.session.waiting()
        out["scores"] = dict(self.game.state.scores)
        out["winner"] = self.session.winner()
        out["waiting"] = waiting.as_json() if waiting is not None else None
        return out

    def pushes(self, seat: Seat, told: int, asked: str | None
               ) -> tuple[list[Json], int, str | None]:
        """What the seat is pushed beyond the state: the feed's lines it was not told
        since `told` (one `events` message), and the watcher's question put to it now
        when not yet `asked`. Returns the messages, the feed's mark and the ask told."""
        with self.lock:
            out: list[Json] = []
            feed = self.session.feed
            lines = feed.since(told)
            if lines:
                out.append({"type": "events", "lines": lines})
            ask = self.overwatch_ask(seat)
            if ask is not None and ask["ask"] != asked:
                out.append(ask)
                asked = ask["ask"]
            return out, feed.rev, asked

    def overwatch_ask(self, seat: Seat) -> Json | None:
        """The watcher's question when it is put to this seat's phone (R23), else None."""
        q = self.session.question
        waiting = self.session.waiting()
        if q is None or waiting is None or waiting.kind != "overwatch" \
                or seat.is_table or waiting.seat != seat.name or waiting.face != "phone":
            return None
        offer = q.current
        assert offer is not None
        return {"type": "overwatch_ask", "ask": q.ask_id, "watcher": offer.watcher,
                "mover": q.move.bot, "weapons": list(offer.weapons),
                "seconds": round(q.left(self.session.clock()), 1), "text": waiting.text}

    def desk_answers(self, seat: Seat) -> list[Json]:
        """The seat's pre-measure and plan as measured again after the game changed."""
        with self.lock:
            desk = self.desks[seat.name]
            out = []
            if desk.last_measure is not None:
                out.append({"type": "premeasure", "premeasure": desk.last_measure})
            if desk.last_plan is not None:
                out.append({"type": "plan", "plan": desk.last_plan})
            return out

    def shown(self) -> list[Json]:
        """What seats pushed to the table ("Show on table"): the table view reads this."""
        out = []
        for name, desk in self.desks.items():
            if desk.shown and (desk.last_measure or desk.last_plan):
                out.append({"seat": name, "premeasure": desk.last_measure,
                            "plan": desk.last_plan})
        return out

    def shown_work(self) -> list[tuple[str, Json | None, Move | None]]:
        """What seats pushed to the table, as requests the table view can measure and
        draw with its own painters: (seat, {bot, weapon, target, at, overwatch} or
        None, the planned Move or None)."""
        return [(w.seat, w.measure, w.move) for w in self.on_table[1]]

    def hello(self, seat: Seat) -> Json:
        """The first message on a connection: the seat, the table, the state and the
        seat's desk as it was left."""
        with self.lock:
            desk = self.desks[seat.name]
            return {
                "type": "hello", "seat": seat.name, "table_seat": seat.is_table,
                "players": list(self.game.state.players),
                "can_commit": self.can_commit(seat), "physical_dice": self.physical,
                "table": snapshot.table(self.game.state),
                "state": self._state_json(),
                "shown": self.shown(),
                "log": self.session.feed.lines_json(), "log_rev": self.session.feed.rev,
                "desk": self._desk_json(desk),
            }

    def desk(self, seat: Seat) -> Json:
        """The seat's desk as its other screens show it (a `desk` message): sent to
        every other phone or tab of the seat after one of them changed it."""
        with self.lock:
            return {"type": "desk", "desk": self._desk_json(self.desks[seat.name])}

    @staticmethod
    def _desk_json(desk: Desk) -> Json:
        return {"selected": desk.selected, "measure": desk.measure, "plan": desk.plan,
                "shown": desk.shown, "premeasure": desk.last_measure,
                "planned": desk.last_plan}

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
        bot = self.game.state.bots.get(msg.bot or "")
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

    def _measure_refusal(self, req: Json) -> str | None:
        return self.session.premeasure_refusal(req["bot"], req["weapon"], req.get("target"))

    def _measure(self, desk: Desk) -> None:
        """The session's pre-measure of the desk's request, kept with its JSON."""
        req = desk.measure
        if req is None:
            desk.last_measure = desk.measured = desk.focus = None
            return
        aim = req.get("target") or (tuple(req["at"]) if req.get("at") else None)
        pm = self.session.premeasure(req["bot"], req["weapon"], aim, req.get("overwatch", False))
        if isinstance(pm, str):
            desk.last_measure = desk.measured = desk.focus = None
            return
        desk.measured, desk.focus = pm, req.get("target")
        desk.last_measure = snapshot.premeasure_json(pm, self.game.state, focus=req.get("target"))

    def _on_plan(self, seat: Seat, msg: Message) -> Answer:
        bot = self.game.state.bots.get(msg.bot or "")
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
        """The session's preview of the desk's planned move (and, when a step is
        refused, of the legal steps before it), kept with its JSON."""
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
        pv = self.session.preview(move)
        desk.previewed = pv
        desk.last_plan = snapshot.plan_json(move.bot, list(plan["steps"]), pv.result,
                                            pv.refusal, pv.prefix, pv.offers)

    def _on_commit(self, seat: Seat, msg: Message) -> Answer:
        game = self.game
        if not self.can_commit(seat):
            return Answer([error(
                    _("phones may pre-measure and plan here; actions are made at the table "
                      "(start the referee with --phones-commit to act from phones)"))])
        action = msg.action
        assert action is not None                # parse_message sets it for every commit
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
        if self.session.question is not None:
            return Answer([error(_("a watcher is being asked to fire or hold"))])
        refusal = game.legal(action)
        if refusal is not None:
            return Answer([{"type": "refused", "refusal": snapshot.refusal_json(refusal)}])
        desk = self.desks[seat.name]
        typed = list(msg.dice) if self.physical else None
        if isinstance(action, Move) and game.waiting is None:
            # the watchers it meets are asked first (R23): robots at once, people on
            # their phone or at the table
            result = self.session.commit_move(action, typed=typed)
            if result is None:
                desk.plan, desk.last_plan, desk.previewed = None, None, None
                self.poll()
                return Answer([{"type": "asking", "text": _(
                        "waiting for the watchers to fire or hold")}], changed=True, moved=True)
        else:
            result = self.session.act(action, typed)
        return self._acted(seat, result, len(msg.dice))

    def _acted(self, seat: Seat, result: ActResult, given: int = 0,
               actor: str | None = None) -> Answer:
        """The answer to an action the session carried out (or refused, or waits for a die)."""
        if result.waiting is not None:
            self.poll()
            # the die's purpose in the phone's words (the core writes it in English)
            return Answer([{"type": "dice", "need": translated(result.waiting.purpose),
                            "given": given}],
                          changed=True, moved=True)
        if result.refusal is not None:
            return Answer([{"type": "refused", "refusal": snapshot.refusal_json(result.refusal)}])
        desk = self.desks[seat.name]
        desk.plan, desk.last_plan, desk.previewed = None, None, None
        self.last_actor = actor or seat.name
        self._robot_due = time.monotonic() + self.robot_pace
        self.poll()
        done: dict[str, Any] = {"type": "done", "events": snapshot.events_json(result.events)}
        if result.unused:
            done["unused_dice"] = result.unused
        return Answer([done], changed=True, moved=True)

    def _on_overwatch_answer(self, seat: Seat, msg: Message) -> Answer:
        """The watcher's seat fires or holds (R23); a stale ask changes nothing."""
        q = self.session.question
        waiting = self.session.waiting()
        if q is None or waiting is None or waiting.kind != "overwatch" \
                or msg.ask != q.ask_id:
            return Answer([error(_("that question is no longer asked"))])
        if not seat.is_table and seat.name != waiting.seat:
            return Answer([error(_("only {seat} answers for its watcher").format(
                    seat=waiting.seat))])
        mover = self.game.state.bots.get(q.move.bot)
        result = self.session.answer(msg.fire, msg.ask)
        if result is None:
            self.poll()
            return Answer([{"type": "answered", "ask": msg.ask}], changed=True, moved=True)
        return self._acted(seat, result, actor=mover.player if mover is not None else None)

    # --- robot seats ------------------------------------------------------------------------

    def robot_turn(self, now: float | None = None) -> bool:
        """When a robot's seat is due (and the pace waited out), it acts once, as
        `play --robot` does; True when it acted. Only a hub that drives its robots
        (`serve --robot`) does this; under `play --phones` the table view does."""
        now = time.monotonic() if now is None else now
        with self.table_lock, self.lock:
            game = self.game
            if not self.drive_robots or not self.robots or game.expected() == "over":
                return False
            player = self.session.robot_due()
            if player is None or now < self._robot_due:
                return False
            result = self.session.robot_turn()
            self._robot_due = now + self.robot_pace
            if result is not None and result.refusal is not None:
                log.error("robot %s's %s was refused: %s", player, self.session.robot_action,
                          result.refusal)
                return False
            self.last_actor = player
            return True

    def _on_undo(self, seat: Seat, msg: Message) -> Answer:
        return self._history(seat, "undo")

    def _on_redo(self, seat: Seat, msg: Message) -> Answer:
        return self._history(seat, "redo")

    def _history(self, seat: Seat, which: str) -> Answer:
        """The table takes back (or makes again) the last action, as the laptop does."""
        if not seat.is_table:
            return Answer([error(_("only the table may {which}").format(which=which))])
        if not getattr(self.session, which)():
            return Answer([error(_("nothing to {which}").format(which=which))])
        self.poll()
        return Answer([{"type": "done", "events": [
                _("{which}: the last action").format(which=which)
                                                   + (_(" taken back") if which == "undo"
                                                      else _(" made again"))]}],
                      changed=True, moved=True)


# messages that may change the game
CHANGES = frozenset({"commit", "undo", "redo", "overwatch_answer"})
_NO_LOCK = contextlib.nullcontext()


def error(message: str) -> Json:
    return {"type": "error", "message": message}
