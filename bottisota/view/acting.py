"""The table view's adapter over the session (`viewmodel.game_session.Session`, the
one the phones' hub shares under `play --phones`): acting, undo, redo, the move
preview and its commit (the watcher's question, shown as the table's prompt), the
pre-measure, the shooting phase's choices and the robot seats. The table's log
listens to the session's feed. Every call that changes the game passes through
`GameActions.apply` (one place to hold a lock around them). `GameActions` owns the
session, the preview and pre-measure caches and the prompt; it reads the game, the
robot seats, the view model and the phones' lock of its host (`ActingHost`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, ParamSpec, Protocol, TypeVar

from bottisota.core.actions import (
    Action,
    Pass,
    SelfDestruct,
    Service,
    SetOverwatch,
    Shoot,
    ShotOrder,
)
from bottisota.core.errors import JournalWriteError
from bottisota.core.i18n import _, translated
from bottisota.engine.game import ActResult
from bottisota.engine.shooting.premeasure import Premeasure
from bottisota.engine.state import Bot, GameState
from bottisota.viewmodel.core_calls import MovePreview
from bottisota.viewmodel.game_session import Session
from bottisota.viewmodel.guidance import Option, danger, shooting_options
from bottisota.viewmodel.plan import MovePlan
from bottisota.viewmodel.results import effects_of

if TYPE_CHECKING:
    from bottisota.engine.game import Game
    from bottisota.view.prompts import OverwatchPrompt
    from bottisota.view.robot_worker import RobotWorker
    from bottisota.viewmodel.game_session import RobotPlayer
    from bottisota.viewmodel.model import ViewModel

T = TypeVar("T")
P = ParamSpec("P")   # a call's own arguments, checked against it
# a pre-measure asked: (view version, bot, weapon, aim, as overwatch)
PmKey = tuple[int, str, str, str | tuple[float, float] | None, bool]


class Changing(Protocol):
    """A lock held around every change to the game (`PhoneTable.changing`)."""

    def changing(self) -> AbstractContextManager[None]: ...


class ActingHost(Protocol):
    """What the table's acting reads of the table it serves."""

    @property
    def game(self) -> Game: ...
    @property
    def robots(self) -> Mapping[str, RobotPlayer]: ...
    @property
    def vm(self) -> ViewModel: ...
    @property
    def phones(self) -> Changing | None: ...


class GameActions:
    """The calls into the game (see the module doc)."""

    def __init__(self, host: ActingHost) -> None:
        self.host = host
        self.prompt: OverwatchPrompt | None = None   # the session's watcher question
        self.journal_error: JournalWriteError | None = None   # `play --headless`: exit 74
        self._session: Session | None = None
        self._preview: MovePreview | None = None
        self._preview_key: tuple[object, ...] | None = None
        self._pm_cache: tuple[PmKey, Premeasure | None,
                              dict[PmKey, Premeasure | None]] | None = None
        self._options_cache: tuple[tuple[object, ...], list[Option]] | None = None
        self._turn: tuple[object, ...] = ()   # (round, active bot, what is expected) last synced
        self.robot_worker: RobotWorker | None = None   # play: robot decisions off the frame loop

    @property
    def game(self) -> Game:
        return self.host.game

    @property
    def vm(self) -> ViewModel:
        return self.host.vm

    @property
    def state(self) -> GameState:
        return self.host.game.state

    def say(self, text: str, tone: str = "plain") -> None:
        self.vm.say(text, tone)

    # --- what the game expects ---------------------------------------------------------
    def expected(self) -> str:
        return self.game.expected()

    def active_bot(self) -> Bot | None:
        return self.state.bots.get(self.state.active or "")

    def human_to_act(self) -> bool:
        bot = self.active_bot()
        return bot is not None and bot.player not in self.host.robots and self.expected() != "over"

    def sync_selection(self) -> None:
        """After a change: plan for the active bot if it is a human's move; a new turn
        (another bot, phase or round) starts with no weapon chosen, nothing aimed at
        and no shot queued (the last turn's pre-measure leaves the table)."""
        vm = self.vm
        bot = self.active_bot()
        turn = (self.state.round, self.state.active, self.game.expected())
        if turn != self._turn:
            vm.weapon, vm.aim, vm.measure_overwatch = None, None, False
            vm.orders.clear()
        self._turn = turn
        if bot is not None and self.expected() == "move" and self.human_to_act():
            if vm.plan is None or vm.plan.bot != bot.id:
                vm.plan = MovePlan(bot.id)
            vm.selected = bot.id
        else:
            vm.plan = None
        if bot is not None and self.expected() == "shoot" and self.human_to_act():
            vm.selected = bot.id
        if vm.selected is not None and vm.selected not in self.state.bots:
            vm.selected = None
        self._preview = None
        self._preview_key = None

    # --- acting through the game -------------------------------------------------------
    def apply(self, change: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Every call that changes the game passes through here (`Game.act`, `undo`,
        `redo`, the designer's reload): the one place to hold a lock around them
        while another thread (the phones' server) also acts on the game."""
        worker = self.robot_worker
        if worker is not None:                 # play: not while a robot decides
            with worker.lock:
                return self._apply(change, *args, **kwargs)
        return self._apply(change, *args, **kwargs)

    def _apply(self, change: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        phones = self.host.phones
        if phones is not None:                 # play --phones: see PhoneTable.changing
            with phones.changing():
                return change(*args, **kwargs)
        return change(*args, **kwargs)

    @property
    def session(self) -> Session:
        """The session the table acts through (made on first use; the table's log
        listens to its feed)."""
        found = self._session
        if found is None or found.game is not self.game:
            found = Session(self.game, self.host.robots)
            found.feed.listen(self.vm.log)
            self._session = found
        return found

    def act(self, action: Action) -> bool:
        """Send an action to the game through the session (the robots' decisions made
        since the last one go with it as its notes); show its results, or its refusal."""
        return self._acted(self._acting(self.session.act, action))

    def _acting(self, call: Callable[P, ActResult | None], *args: P.args,
                **kwargs: P.kwargs) -> ActResult | None:
        """A session call that may change the game, through `apply`; a journal that
        cannot be written or a rule error is said, never a crash of the table."""
        try:
            return self.apply(call, *args, **kwargs)
        except JournalWriteError as err:   # disk full: the game took the action back
            self.say(str(err), "alarm")
            self.journal_error = err               # `play --headless`: exit 74
        except Exception as err:   # physical dice abandoned, a rule error: never crash the table
            self.say(_("could not act: {name}: {err}").format(
                         name=type(err).__name__, err=err), "alarm")
        return None

    def _acted(self, result: ActResult | None) -> bool:
        """Show what the session did: the results, the refusal, or what it waits for."""
        self.prompt = self.session.question
        if result is None:                 # a watcher is being asked
            return False
        if result.waiting is not None:
            waiting = self.session.waiting()
            self.say(waiting.text if waiting is not None else "", "alarm")
            return False
        if result.refusal is not None:
            self.say(_("refused: {refusal}").format(refusal=translated(result.refusal)), "alarm")
            return False
        self.vm.message = None
        self.vm.effects.add(effects_of(result.events, self.state))
        self.vm.robot_wait = self.vm.robot_pace
        self.changed()
        return True

    def changed(self) -> None:
        vm = self.vm
        vm.version += 1
        vm.orders = []
        vm.confirm = None
        vm.aim = None
        self._pm_cache = None
        self._options_cache = None
        self.sync_selection()

    def undo(self) -> None:
        n = len(self.game.history)
        try:
            done = self.apply(self.session.undo)
        except JournalWriteError as err:   # not journaled: nothing was undone
            self.say(str(err), "alarm")
            return
        self.prompt = None
        if done:
            self.vm.effects.clear()
            self.say(_("action {n} is undone").format(n=n), "dim")
            self.vm.plan = None
            self.changed()
        else:
            self.say(_("nothing to undo"), "dim")

    def redo(self) -> None:
        try:
            done = self.apply(self.session.redo)
        except JournalWriteError as err:   # not journaled: nothing was redone
            self.say(str(err), "alarm")
            return
        self.prompt = None
        if done:
            self.say(_("action {n} is redone").format(n=len(self.game.history)), "dim")
            self.vm.plan = None
            self.changed()
        else:
            self.say(_("nothing to redo"), "dim")

    # --- the move preview ----------------------------------------------------------------
    def move_preview(self) -> MovePreview | None:
        """The session's preview of the planned move (cached until the plan changes)."""
        plan = self.vm.plan
        if plan is None or plan.is_empty():
            return None
        key = (self.vm.version, plan.all_steps())
        if key != self._preview_key:
            self._preview = self.session.preview(plan.move())
            self._preview_key = key
        return self._preview

    def commit_move(self) -> None:
        """Enter: a move that destroys the mover asks for Enter again; then the watchers
        the move would meet are asked, then the game acts."""
        plan = self.vm.plan
        if plan is None:
            return
        pv = self.move_preview() or self.session.preview(plan.move())
        if pv.refusal is not None:
            self.say(_("refused: {refusal}").format(refusal=translated(pv.refusal)), "alarm")
            return
        bot = self.state.bots[plan.bot]
        why = danger(pv, bot)
        if why is not None and self.vm.confirm != f"move:{plan.all_steps()}":
            self.vm.confirm = f"move:{plan.all_steps()}"
            self.say(_("{why}: press Enter again to commit, Esc to think again").format(
                         why=why), "alarm")
            return
        self.vm.confirm = None
        # the watchers it meets are asked first (robots at once, people at the table's
        # prompt or on their phone)
        self._move_made(self._acting(self.session.commit_move, plan.move(), pv.offers))

    def _move_made(self, result: ActResult | None) -> None:
        if self._acted(result) and self.vm.plan is not None:
            self.vm.plan = None
            self.sync_selection()

    def answer_overwatch(self, fire: bool) -> None:
        """F or H at the table: the watcher asked now fires or holds (the table answers
        for any seat, as the referee's laptop)."""
        if self.session.question is None:
            self.prompt = None
            return
        self._move_made(self._acting(self.session.answer, fire))

    # --- pre-measure ---------------------------------------------------------------------
    def premeasure(self) -> Premeasure | None:
        """The core's pre-measure for the selected bot's chosen weapon (cached)."""
        vm = self.vm
        if vm.selected is None or vm.weapon is None:
            return None
        bot = self.state.bots.get(vm.selected)
        if bot is None or not bot.on_table or bot.stats.weapon(vm.weapon) is None:
            return None
        key = (vm.version, vm.selected, vm.weapon, vm.aim, vm.measure_overwatch)
        kept = self._pm_cache
        if kept is None or kept[0] != key:
            # this state's pre-measures, by bot and weapon
            known = kept[2] if kept is not None and kept[0][0] == vm.version else {}
            if key in known:
                pm = known[key]
            else:
                try:
                    found = self.session.premeasure(vm.selected, vm.weapon, vm.aim,
                                                    vm.measure_overwatch)
                    pm = None if isinstance(found, str) else found
                except (KeyError, ValueError) as err:
                    self.say(_("cannot pre-measure: {err}").format(err=err), "alarm")
                    pm = None
                if len(known) >= 16:
                    known = {}
                known[key] = pm
            self._pm_cache = kept = (key, pm, known)
        return kept[1]

    def choose_weapon(self, n: int) -> None:
        bot = self.state.bots.get(self.vm.selected or "")
        if bot is None:
            return
        weapons = list(bot.stats.weapons)
        if 1 <= n <= len(weapons):
            name = weapons[n - 1].name
            self.vm.weapon = None if self.vm.weapon == name else name
            self.vm.aim = None

    # --- shooting phase ------------------------------------------------------------------
    def shooting_bot(self) -> Bot | None:
        bot = self.active_bot()
        if bot is not None and self.expected() == "shoot" and self.human_to_act():
            return bot
        return None

    def options(self) -> list[Option]:
        """The shooting phase's choices with the core's verdicts (cached per state)."""
        bot = self.shooting_bot()
        if bot is None:
            return []
        key = (self.vm.version, bot.id, self.vm.service)
        if self._options_cache is None or self._options_cache[0] != key:
            self._options_cache = (key, shooting_options(self.game, bot.id, self.vm.service))
        return self._options_cache[1]

    def toggle_order(self, target: str) -> None:
        """Add (or take back) a shot of the chosen weapon at a target."""
        vm = self.vm
        if vm.weapon is None:
            return
        for o in vm.orders:
            if o.weapon == vm.weapon:
                vm.orders.remove(o)
                if o.target == target:
                    self.say(_("{weapon}: shot taken back").format(weapon=vm.weapon), "dim")
                    return
        vm.orders.append(ShotOrder(vm.weapon, target))
        self.say(_("{weapon} aims at {target}").format(weapon=vm.weapon, target=target))

    def fire(self) -> None:
        bot = self.shooting_bot()
        if bot is None:
            return
        why = self.options()[0].why_not if self.options() else None
        if why is not None:
            self.say(_("no shooting now: {why} - P passes").format(why=why), "alarm")
            return
        if not self.vm.orders:
            self.say(_("choose a weapon (1-9) and click a target first"), "dim")
            return
        self.act(Shoot(bot.id, tuple(self.vm.orders)))

    def set_overwatch(self) -> None:
        bot = self.shooting_bot()
        if bot is not None:
            self.act(SetOverwatch(bot.id))

    def pass_turn(self) -> None:
        bot = self.shooting_bot()
        if bot is not None:
            self.act(Pass(bot.id))

    def self_destruct(self) -> None:
        bot = self.shooting_bot()
        if bot is None:
            return
        if self.vm.confirm != "self_destruct":
            refusal = self.game.legal(SelfDestruct(bot.id))
            if refusal is not None:
                self.say(_("no self-destruct: {refusal}").format(
                        refusal=translated(refusal)), "alarm")
                return
            self.vm.confirm = "self_destruct"
            self.say(_("press X again to self-destruct {id} (Esc: no)").format(id=bot.id), "alarm")
            return
        self.act(SelfDestruct(bot.id))

    def use_service(self) -> None:
        bot = self.shooting_bot()
        if bot is not None:
            self.act(Service(bot.id, self.vm.service))

    # --- robots --------------------------------------------------------------------------
    def run_robot(self, force: bool = False) -> bool:
        """Each frame: a watcher who did not answer in time holds; the prompt follows
        the session's question (a phone may have answered it); then, if a robot's seat
        is due (nobody being asked, the pace waited out), it acts once."""
        session = self.session
        if session.question is not None:
            self._move_made(self._acting(session.tick))
        self.prompt = session.question
        if session.robot_due() is None:
            return False
        if not force and self.vm.robot_wait > 0:
            return False
        worker = self.robot_worker
        if worker is None:
            self._acted(self._acting(session.robot_turn))
            return True
        player = session.robot_due()          # play: decided off the frame loop
        assert player is not None
        ready, action = worker.decision(self.host.robots[player], self.game, player)
        if not ready:
            return False
        self._acted(self._acting(session.robot_turn, action))
        return True
