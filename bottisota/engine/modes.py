"""How turns are kept: a real game (`StrictMode`) or a scenario (`ScenarioMode`).

`Game` asks its mode every question where the two differ, so the game itself
has no mode flags:

- strict (a real game): turns follow the seat order (D18); a destroyed bot's
  player is out once the deck is empty (R54); the game ends with one player
  left (D24); a designer may reload the files mid-game;
- scenario (the scenario runner): any bot may act; a `Move` begins that bot's
  turn and its other actions are its shooting phase, which may span several
  `Shoot` actions, each weapon at most once (D47, D19); a round ends once every
  player with a standing bot has acted, and the next action begins the next
  round (D47); a `Place` puts a bot down afresh as a newly drawn bot (R6 legal
  spot, R56 first-move limits); the deck counts only when the scenario sets one
  up; nobody is put out and the game never ends by itself.
"""
from __future__ import annotations

from typing import Protocol

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
from bottisota.engine.events import Event, apply_event
from bottisota.engine.mines import activate_mines
from bottisota.engine.state import DONE, MOVE, PLACE, SHOOT, Bot, GameState
from bottisota.engine.turns import turn_event


class Game(Protocol):
    """What a mode asks of the game it keeps turns for (bottisota.engine.game.Game)."""

    state: GameState

    @property
    def start_state(self) -> GameState: ...
    def whose_turn(self) -> str | None: ...
    def remove_destroyed(self) -> list[Event]: ...
SHOOTING_PHASE = (Shoot, SetOverwatch, SelfDestruct, Service, Pass)


class StrictMode:
    """A real game: seat order, players out, game over."""

    keeps_players = True          # R54 players out, D24 the end
    places_new_bots = False       # a drawn bot is placed as its card says
    reload_refusal: str | None = None
    # undo and redo apply the game's own recorded events (D8) instead of re-running the
    # rules: the mode keeps nothing of its own that only acting would bring up to date
    rebuilds_from_events = True

    def restart(self, state: GameState) -> None:
        """The game's state was rebuilt from its start (undo, reload)."""

    def turn_refusal(self, game: Game, action: Action) -> Refusal | None:
        """Whose turn and which phase it is (D18)."""
        state = game.state
        if state.over:
            return Refusal("D24", N_("the game is over"))
        bot_id = getattr(action, "bot", None)
        if bot_id != state.active:
            who = game.whose_turn()
            return Refusal("D18",
                    N_("it is {who}'s turn, with bot {active}").format(
                        who=who, active=state.active))
        due = {PLACE: (Place,), MOVE: (Move,), SHOOT: SHOOTING_PHASE}.get(state.phase, ())
        if not isinstance(action, due):
            return Refusal("D18",
                    N_("{bot_id} is in its {phase} phase: {name} is not allowed now").format(
                        bot_id=bot_id, phase=state.phase, name=type(action).__name__))
        return None

    def state_for(self, game: Game, action: Action) -> GameState | Refusal:
        """The state the action's own checks are made in."""
        return game.state

    def begin(self, game: Game, action: Action) -> list[Event]:
        """Events that begin the action's turn before it is carried out."""
        return []

    def deck_exhausted(self, game: Game) -> bool:
        """R54: the bot deck is empty."""
        return not game.state.deck

    def end_turn(self, game: Game) -> list[Event] | None:
        """The events that end the active bot's turn here, or None: the game's
        own turn flow goes on to the next seat (D18)."""
        return None

    def shooting_goes_on(self, game: Game, shoot: Shoot) -> bool:
        """After a `Shoot`: whether the bot may shoot again in this shooting phase
        (its wrecks stay until then, R55). A game's Shoot is its whole phase (D19)."""
        return False


class ScenarioMode(StrictMode):
    """A scenario: any bot acts when the file says; the turn an action begins."""

    keeps_players = False
    places_new_bots = True
    reload_refusal = "a scenario game cannot be reloaded"
    rebuilds_from_events = False      # `fresh` is brought up to date by acting only

    def __init__(self) -> None:
        self.fresh: set[str] = set()          # bots that have not acted yet
        self.fired: set[str] = set()          # weapons the active bot fired this phase (D47)

    def restart(self, state: GameState) -> None:
        self.fresh = set(state.bots)
        self.fired = set()

    def turn_refusal(self, game: Game, action: Action) -> Refusal | None:
        return None

    def state_for(self, game: Game, action: Action) -> GameState | Refusal:
        """The state as it would be once the action's turn had begun."""
        state = game.state
        bot = state.bots.get(getattr(action, "bot", ""))
        if bot is None:
            return Refusal("D18",
                    N_("there is no bot {action!r}").format(action=getattr(action, 'bot', None)))
        if isinstance(action, Place):
            if bot.destroyed:
                return Refusal("R55", N_("{id} is destroyed").format(id=bot.id), at=bot.pos)
            return self._begun(game, state, bot, action)
        if not bot.on_table:
            return Refusal("R55", N_("{id} is not on the table").format(id=bot.id), at=bot.pos)
        if state.active == bot.id and state.phase == DONE and isinstance(action, SHOOTING_PHASE):
            return Refusal("D19",
                    N_("{id} has already used its shooting phase this turn").format(id=bot.id),
                           at=bot.pos)
        if state.active == bot.id and state.phase == SHOOT and self.fired \
                and isinstance(action, SHOOTING_PHASE):
            return self._more_shooting(bot, action) or state
        if self._needs_turn(state, action):
            return self._begun(game, state, bot, action)
        return state

    def _more_shooting(self, bot: Bot, action: Action) -> Refusal | None:
        """D47 D19: once it has shot, the bot may only shoot on, each weapon once."""
        if not isinstance(action, Shoot):
            return Refusal("D19",
                    N_("{id} has shot this shooting phase: it may only shoot on").format(
                        id=bot.id), at=bot.pos)
        for order in action.shots:
            if order.weapon in self.fired:
                return Refusal("D19",
                        N_("{weapon} may fire only once in a shooting phase").format(
                            weapon=order.weapon), at=bot.pos)
        return None

    def shooting_goes_on(self, game: Game, shoot: Shoot) -> bool:
        """D47: the shooting phase goes on while the shooter stands; the wrecks stay
        until it has finished shooting (R55), when the next action begins a turn."""
        if not game.state.bots[shoot.bot].on_table:
            self.fired = set()
            return False
        self.fired |= {order.weapon for order in shoot.shots}
        return True

    def finish(self, game: Game) -> list[Event]:
        """The scenario's actions are over: a shooter that was still shooting has
        finished (R55: its wrecks leave the table)."""
        if not self.fired:
            return []
        self.fired = set()
        return wreck_removals(game.state) + [apply_event(game.state,
                                                         {"type": "phase", "phase": DONE})]

    def _begun(self, game: Game, state: GameState, bot: Bot, action: Action) -> GameState:
        twin = state.copy()
        self._begin_turn(game, twin, twin.bots[bot.id], action, preview=True)
        return twin

    @staticmethod
    def _needs_turn(state: GameState, action: Action) -> bool:
        if isinstance(action, Place):
            return True
        if isinstance(action, Move):
            return not (state.active == action.bot and state.phase == MOVE)
        return not (state.active == action.bot and state.phase in (SHOOT, DONE))

    def begin(self, game: Game, action: Action) -> list[Event]:
        state = game.state
        if not self._needs_turn(state, action):
            return []
        return self._begin_turn(game, state, state.bots[action.bot], action)

    def _begin_turn(self, game: Game, state: GameState, bot: Bot, action: Action,
                    preview: bool = False) -> list[Event]:
        """End the previous bot's turn, begin this bot's (D20: its own overwatch ends).
        A bot's first action continues the turn its scenario set up (its `moved`); a
        shooting-phase action without a move begins the shooting phase at once, its
        mines becoming active (R31)."""
        events: list[Event] = wreck_removals(state) if self.fired else []
        prev = state.bots.get(state.active or "")
        if prev is not None:
            events.append(apply_event(state, {"type": "turn_ended", "player": prev.player,
                                              "bot": prev.id}))
        standing = {b.player for b in state.live_bots()}
        if prev is not None and standing and standing <= set(state.played):
            events.append(apply_event(state, {"type": "round", "round": state.round + 1}))
        moved = bot.moved if bot.id in self.fresh else 0.0
        if isinstance(action, Place):
            events.append(turn_event(state, bot, PLACE, 0.0))
        elif isinstance(action, Move):
            events.append(turn_event(state, bot, MOVE, moved))
        else:
            events.append(turn_event(state, bot, SHOOT, moved))
        if bot.overwatch:
            events.append(apply_event(state, {"type": "overwatch", "bot": bot.id, "on": False,
                                              "reason": N_("its own turn began (D20)")}))
        if not preview:
            self.fresh.discard(bot.id)
            self.fired = set()
            if isinstance(action, SHOOTING_PHASE):
                events += activate_mines(state, bot.id)
                events += game.remove_destroyed()
        return events

    def deck_exhausted(self, game: Game) -> bool:
        """A scenario has a deck only when it sets one up."""
        return bool(game.start_state.deck) and not game.state.deck

    def end_turn(self, game: Game) -> list[Event] | None:
        state = game.state
        if state.bots.get(state.active or "") is not None:
            return [apply_event(state, {"type": "phase", "phase": DONE})]
        return []


def wreck_removals(state: GameState) -> list[Event]:
    """R55: the destroyed bots leave the table now their shooter has finished
    shooting; their extra parts go back to the deck (R50)."""
    events: list[Event] = []
    for bot in list(state.bots.values()):
        if bot.destroyed and not bot.removed:
            events.append(apply_event(state, {"type": "removed", "bot": bot.id}))
            if bot.parts:
                events.append(apply_event(state, {"type": "parts_returned", "bot": bot.id,
                                                  "parts": list(bot.parts)}))
    return events


Mode = StrictMode
