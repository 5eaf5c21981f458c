"""Everything the table view asks of the game: acting, undo, redo, the move preview
and its commit (with the overwatch prompt), the pre-measure, the shooting phase's
choices and the robot seats. Every call that changes the game passes through
`GameActions.apply` (one place to hold a lock around them)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from bottisota.core.actions import (
    Pass,
    SelfDestruct,
    Service,
    SetOverwatch,
    Shoot,
    ShotOrder,
)
from bottisota.core.errors import JournalWriteError
from bottisota.core.i18n import _, translated
from bottisota.engine.shooting.premeasure import Premeasure
from bottisota.engine.state import Bot
from bottisota.view.app_state import (
    AppState,
)
from bottisota.view.prompts import (
    OverwatchPrompt,
)
from bottisota.viewmodel.core_calls import MovePreview, premeasure, preview_move
from bottisota.viewmodel.guidance import danger, shooting_options
from bottisota.viewmodel.results import effects_of

T = TypeVar("T")

class GameActions(AppState):
    """The calls into the game (see the module doc)."""

    # --- acting through the game -------------------------------------------------------
    def apply(self, change: Callable[..., T], *args: Any) -> T:
        """Every call that changes the game passes through here (`Game.act`, `undo`,
        `redo`, the designer's reload): the one place to hold a lock around them
        while another thread (the phones' server) also acts on the game."""
        worker = getattr(self, "robot_worker", None)
        if worker is not None:                 # play: not while a robot decides
            with worker.lock:
                return self._apply(change, *args)
        return self._apply(change, *args)

    def _apply(self, change: Callable[..., T], *args: Any) -> T:
        if self.phones is not None:            # play --phones: see PhoneTable.changing
            with self.phones.changing():
                return change(*args)
        return change(*args)

    def take_robot_notes(self) -> None:
        """Collect the robots' `robot_decision` events (logged now, journaled with the
        next action the game accepts, as its notes)."""
        seen: set[int] = set()
        for robot in self.robots.values():
            if id(robot) in seen:
                continue
            seen.add(id(robot))
            for e in robot.take_events():
                self.vm.log.events([e], None)
                self.notes.append(e)

    def act(self, action: Any) -> bool:
        """Send an action to the game, with the robot decisions made since the last
        one as its notes; log its events and show its results, or its refusal."""
        self.take_robot_notes()
        notes = list(self.notes)
        try:
            result = self.apply(self.game.act, action, notes)
        except JournalWriteError as err:   # disk full: the game took the action back
            self.say(str(err), "alarm")
            self.journal_error: JournalWriteError | None = err    # `play --headless`: exit 74
            return False
        except Exception as err:   # physical dice abandoned, a rule error: never crash the table
            self.say(_("could not act: {name}: {err}").format(
                         name=type(err).__name__, err=err), "alarm")
            return False
        if result.refusal is not None:
            self.say(_("refused: {refusal}").format(refusal=translated(result.refusal)), "alarm")
            return False
        self.notes = []
        self.vm.message = None
        self.vm.log.forget_undone()
        events = result.events[len(notes):]         # the notes were logged when made
        self.vm.log.events(events, len(self.game.history))
        self.vm.effects.add(effects_of(events, self.state))
        self.vm.robot_wait = self.vm.robot_pace
        self._changed()
        return True

    def _changed(self) -> None:
        vm = self.vm
        vm.version += 1
        vm.orders = []
        vm.confirm = None
        vm.aim = None
        self._pm_cache = None
        self._options_cache = None
        self._sync_selection()

    def undo(self) -> None:
        n = len(self.game.history)
        try:
            done = self.apply(self.game.undo)
        except JournalWriteError as err:   # not journaled: nothing was undone
            self.say(str(err), "alarm")
            return
        if done:
            self.take_robot_notes()
            self.notes = []        # undo drops the dice rolled since the last action too
            self.vm.log.undone(n)
            self.vm.effects.clear()
            self.say(_("action {n} is undone").format(n=n), "dim")
            self.vm.plan = None
            self._changed()
        else:
            self.say(_("nothing to undo"), "dim")

    def redo(self) -> None:
        try:
            done = self.apply(self.game.redo)
        except JournalWriteError as err:   # not journaled: nothing was redone
            self.say(str(err), "alarm")
            return
        if done:
            self.take_robot_notes()
            self.notes = []        # redo drops the dice rolled since the last action
            self.vm.log.redone(len(self.game.history))
            self.say(_("action {n} is redone").format(n=len(self.game.history)), "dim")
            self.vm.plan = None
            self._changed()
        else:
            self.say(_("nothing to redo"), "dim")

    # --- the move preview ----------------------------------------------------------------
    def move_preview(self) -> MovePreview | None:
        """The core's preview of the planned move (cached until the plan changes)."""
        plan = self.vm.plan
        if plan is None or plan.is_empty():
            return None
        key = (self.vm.version, plan.all_steps())
        if key != self._preview_key:
            self._preview = preview_move(self.game, plan.move())
            self._preview_key = key
        return self._preview

    def commit_move(self) -> None:
        """Enter: a move that destroys the mover asks for Enter again; then the watchers
        the move would meet are asked, then the game acts."""
        plan = self.vm.plan
        if plan is None:
            return
        pv = self.move_preview() if not plan.is_empty() else preview_move(self.game, plan.move())
        if pv is None:
            pv = preview_move(self.game, plan.move())
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
        self._start_move(plan.move(), pv.offers)

    def _start_move(self, move: Any, offers: list[Any]) -> None:
        self.prompt = OverwatchPrompt(move, list(offers))
        self._answer_robot_watchers()

    def _answer_robot_watchers(self) -> None:
        """Robot-played watchers answer at once; a human's watcher waits for F or H."""
        prompt = self.prompt
        while prompt is not None and not prompt.finished:
            offer = prompt.current
            if offer is None:
                return
            watcher = self.state.bots.get(offer.watcher)
            robot = self.robots.get(watcher.player) if watcher is not None else None
            if robot is None:
                return
            prompt.answer(bool(robot.answer_overwatch(self.game, watcher, prompt.move.bot)))
            self.take_robot_notes()
        if prompt is not None and prompt.finished:
            self.prompt = None
            if self.act(prompt.final_move()) and self.vm.plan is not None:
                self.vm.plan = None
                self._sync_selection()

    def answer_overwatch(self, fire: bool) -> None:
        if self.prompt is None:
            return
        self.prompt.answer(fire)
        self._answer_robot_watchers()

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
            known = kept[2] if kept is not None and kept[2].get("version") == vm.version else {
                "version": vm.version}          # this state's pre-measures, by bot and weapon
            if key in known:
                pm = known[key]
            else:
                try:
                    pm = premeasure(self.state, vm.selected, vm.weapon, vm.aim,
                                    vm.measure_overwatch)
                except (KeyError, ValueError) as err:
                    self.say(_("cannot pre-measure: {err}").format(err=err), "alarm")
                    pm = None
                if len(known) > 16:
                    known = {"version": vm.version}
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

    def options(self) -> list:
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
        """If a robot's seat is due (nobody being asked, the pace waited out), it acts once."""
        if self.prompt is not None or self.expected() == "over":
            return False
        bot = self.active_bot()
        if bot is None or bot.player not in self.robots:
            return False
        if not force and self.vm.robot_wait > 0:
            return False
        robot = self.robots[bot.player]
        worker = getattr(self, "robot_worker", None)    # play: off the frame loop
        if worker is None:
            action = robot.decide(self.game)
        else:
            ready, action = worker.decision(robot, self.game, bot.player)
            if not ready:
                return False
        self.take_robot_notes()
        if self.expected() == "move" and hasattr(action, "steps"):
            pv = preview_move(self.game, action)
            human_offers = [o for o in pv.offers
                            if self.state.bots[o.watcher].player not in self.robots]
            if human_offers:
                self._start_move(action, pv.offers)
                return True
        self.act(action)
        return True
