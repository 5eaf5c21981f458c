"""The game: turn flow, overwatch, services, goals, the deck and the end (issue 5).

`Game` wraps a `GameState` and is the one way the view, the robots, the
scenario runner and the journal change it:

- `expected()` says what is due: "place", "move", "shoot" or "over";
- `legal(action)` answers a `Refusal` or None, changing nothing;
- `preview(action)` shows a move's path and the overwatch shots it would meet,
  or a shot's premeasure, changing nothing;
- `act(action)` carries a legal action out and then runs the game on to the
  next decision (removals R55, the next turn D18, draws R6, the end D24),
  returning every event;
- `act(action, notes, typed=[...])`: dice rolled by hand and typed on a face that
  cannot wait inside a roll (a phone): when the typed dice run short, the game
  *waits for a die* (`waiting`, a chance node: the action, the dice typed so
  far and what the next die is for) and nothing has changed; `give_die(value)`
  continues the action, `cancel_wait()` drops it;
- `undo()` / `redo()` rebuild the state by replaying the accepted actions;
- `reload(arena, cards, mods)` swaps in new static data (a designer's edit) by
  replaying the accepted actions on it, or refuses and keeps the game.

Dice and notes: an entry's rolls are every roll made since the previous entry
ended, so dice a robot rolled while deciding (before `act`) belong to the action
it then made (`Entry.pre` counts them). Informational events about the decision
(a robot's `robot_decision`) are passed to `act(action, notes)` and stand first
in the entry's events (`Entry.notes` counts them). Replays draw the earlier rolls
again (`replay`), so a seeded game with robots replays exactly.

How turns are kept is the game's mode (`bottisota.engine.modes`): a real game
(`StrictMode`, seat order) or a scenario (`ScenarioMode`, any bot acts).

The game writes its history to a `JournalSink` (the play layer's journal); it
never opens files itself.
"""
from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Protocol

from bottisota.core.actions import (
    Action,
    Correct,
    Move,
    Pass,
    Place,
    Refusal,
    SelfDestruct,
    Service,
    SetOverwatch,
    Shoot,
)
from bottisota.core.arena import Arena
from bottisota.core.cards import BotCard, Mod
from bottisota.core.dice import Dice, DieWanted, Roll
from bottisota.core.house_rules import HouseRules
from bottisota.core.i18n import N_
from bottisota.engine.corrections import check_correct, correct
from bottisota.engine.deck import bot_deck, draw_bot, parts_deck, place_event
from bottisota.engine.events import Event, apply_event, apply_events, has_reducer
from bottisota.engine.goals import collect_goals
from bottisota.engine.mines import activate_mines
from bottisota.engine.modes import StrictMode
from bottisota.engine.movement import moves as movement
from bottisota.engine.movement.placing import check_place
from bottisota.engine.movement.result import MoveResult
from bottisota.engine.overwatch import Offer, OverwatchInterrupt, offers
from bottisota.engine.self_destruct import check_self_destruct, self_destruct
from bottisota.engine.services import check_service, use_service
from bottisota.engine.setup import goals_of
from bottisota.engine.shooting import shots as shooting
from bottisota.engine.shooting.premeasure import Premeasure
from bottisota.engine.state import MOVE, OVER, PLACE, SHOOT, Bot, GameState
from bottisota.engine.turns import (
    can_set_overwatch_after,
    next_player,
    players_in,
    turn_event,
    winners,
)
from bottisota.geometry.arena_index import FAST_PATHS


@dataclass(frozen=True)
class DieWait:
    """The game waits for a die rolled by hand (a chance node): the action it will
    carry out, its notes, the dice typed for it so far and what the next die is for."""

    action: Action
    notes: tuple[Event, ...]
    typed: tuple[int, ...]
    purpose: str


@dataclass
class ActResult:
    """What `Game.act` did: the events in order (the caller's own list), or the
    refusal, or the die the game now waits for (then nothing changed). `unused`:
    typed dice the action did not need."""

    events: list[Event] = field(default_factory=list)
    refusal: Refusal | None = None
    waiting: DieWait | None = None
    unused: int = 0

    @property
    def ok(self) -> bool:
        return self.refusal is None and self.waiting is None


@dataclass
class Preview:
    """What an action would do, without doing it (no dice, no change)."""

    refusal: Refusal | None = None
    move: MoveResult | None = None              # a move's path, costs and events
    overwatch: list[Offer] = field(default_factory=list)  # shots it would be offered
    premeasures: list[Premeasure] = field(default_factory=list)  # a shot's, per order


@dataclass
class Entry:
    """One accepted action: what it did and which dice it used (for undo and the journal)."""

    action: Action
    events: list[Event]        # the notes first, then what the action did
    rolls: list[Roll]          # the rolls made before the action (pre), then its own
    pre: int = 0               # rolls made since the previous entry, before the action
    notes: int = 0             # informational events passed in with the action


def check_notes(notes: Iterable[Event]) -> list[Event]:
    """Notes are informational events (a dict with a `type` no reducer handles):
    they are journaled with an action and change nothing."""
    out = []
    for note in notes:
        if not isinstance(note, dict) or not isinstance(note.get("type"), str):
            raise ValueError(f"a note is an event with a type, not {note!r}")
        if has_reducer(note["type"]):
            raise ValueError(f"a note must be informational: {note['type']!r} changes the state")
        out.append(note)
    return out


class JournalSink(Protocol):
    """Where a game writes its history (bottisota.play.journal.Journal). A method that
    raises (the write failed) leaves the game as it was before the change."""

    def record(self, entry: Entry, state: GameState) -> None: ...
    def undone(self) -> None: ...
    def redone(self) -> None: ...
    def reloaded(self, game: Game) -> None: ...


# R7, R56, R51 refusals, each a whole sentence per thing refused (a translation of a
# sentence with a verb dropped into it cannot agree with the verb)
_NOT_YET = {
    "shoot": (N_("nobody may shoot in the first round"),
              N_("{id} is a new bot on its first move and may not shoot"),
              N_("{id} is docked at a service point short of its minimum move: it may not "
                 "shoot")),
    "overwatch": (N_("nobody may set overwatch in the first round"),
                  N_("{id} is a new bot on its first move and may not set overwatch"),
                  N_("{id} is docked at a service point short of its minimum move: it may "
                     "not set overwatch")),
}


def not_yet_allowed(state: GameState, bot: Bot, doing: str) -> Refusal | None:
    """Why the bot may not `doing` ("shoot", "overwatch": set it) now: the first round (R7),
    a new bot's first move (R56), or docked short of its minimum move (R51)."""
    first_round, new, docked = _NOT_YET[doing]
    if state.round <= 1:
        return Refusal("R7", first_round, at=bot.pos)
    if bot.new:
        return Refusal("R56", new.format(id=bot.id), at=bot.pos)
    if bot.docked:
        return Refusal("R51", docked.format(id=bot.id), at=bot.pos)
    return None


def _walk_key(state: GameState) -> tuple[object, ...]:
    """Everything a move's preview reads that changes during a game (the static
    arena, rules and cards are the state's own, named by identity)."""
    return (id(state), id(state.arena), id(state.rules), state.round, state.active,
            state.phase,
            tuple((b.id, b.x, b.y, b.z, b.facing, b.moved, b.damage, b.destroyed, b.removed,
                   b.overwatch, b.rust, b.leaflet, b.new, b.docked, id(b.card_stats),
                   tuple(b.parts), tuple(b.ammo.items())) for b in state.bots.values()),
            tuple((m.id, m.x, m.y, m.z, m.active) for m in state.mines),
            tuple((g.x, g.y, g.taken) for g in state.goals))


class Game:
    """A game in progress (see the module doc)."""

    def __init__(self, state: GameState, journal: JournalSink | None = None,
                 mode: StrictMode | None = None) -> None:
        self.state = state
        self.journal = journal
        self.mode = mode if mode is not None else StrictMode()
        self.mode.restart(state)
        self.seed: int | None = None              # the seed a new game was started with
        self.start_rolls: list[Roll] = []         # the dice its start rolled (R6)
        self.history: list[Entry] = []
        self._redo: list[Entry] = []
        self._start = state.copy()
        self.start_events: list[Event] = []
        self.given_players: list[str] = list(state.players)
        self._mark = state.dice.used              # where the last entry's rolls ended
        # previews of one state: (the state's key, {move: answer}), replaced as one
        # object so that threads previewing at once (the phones' server beside the
        # table view) never pair one state's key with another state's answers
        self._walks: tuple[tuple[object, ...], dict[Move, MoveResult | Refusal]] = ((), {})
        # a Shoot found legal, and in which state
        self._shot_checked: tuple[Action, tuple[object, ...]] | None = None
        self.waiting: DieWait | None = None       # a die rolled by hand the game waits for

    # --- construction -------------------------------------------------------------------

    @classmethod
    def new(cls, arena: Arena, rules: HouseRules, cards: Iterable[BotCard] | dict[str, BotCard],
            mods: Iterable[Mod] | dict[str, Mod], players: list[str], seed: int | None = None,
            dice: Dice | None = None, round_limit: int | None = None,
            ids_per_player: bool = True) -> Game:
        """A new game (R6): a random starting player, who draws a random bot to place.
        `seed` and `start_rolls` are kept on the game for its journal. `ids_per_player`
        False numbers bots as journals before version 3 did (one counter for all)."""
        cards = dict(cards) if isinstance(cards, dict) else {c.id: c for c in cards}
        mods = dict(mods) if isinstance(mods, dict) else {m.id: m for m in mods}
        if round_limit is not None:
            rules = rules.overridden({"round_limit": round_limit})
        if len(set(players)) != len(players) or not players:
            raise ValueError("players must be one or more distinct names")
        if dice is None and seed is None:
            # a fresh seed, recorded in the journal, so the game still replays (D8)
            seed = random.SystemRandom().randrange(2 ** 31)
        state = GameState(arena=arena, rules=rules, cards=cards, mods=mods,
                          dice=dice if dice is not None else Dice(seed=seed),
                          players=list(players), scores={p: 0 for p in players},
                          kills={p: 0 for p in players}, deck=bot_deck(cards.values()),
                          parts_deck=parts_deck(mods.values()),
                          goals=goals_of(arena, rules), round=1, phase=MOVE,
                          ids_per_player=ids_per_player)
        game = cls(state)
        game.given_players = list(players)
        before = state.dice.used
        events = game._begin_game()
        game.start_events = events
        game._start = state.copy()
        game._mark = state.dice.used
        game.seed = seed
        game.start_rolls = list(state.dice.rolls[before:])
        return game

    def _begin_game(self) -> list[Event]:
        state = self.state
        first = state.dice.pick(len(state.players), N_("starting player (R6)"))
        seats = state.players[first:] + state.players[:first]
        events = [apply_event(state, {"type": "seats", "players": seats})]
        return events + self._begin_next_turn()

    # --- questions ----------------------------------------------------------------------

    def whose_turn(self) -> str | None:
        """The player whose decision is due (None when the game is over)."""
        if self.state.over:
            return None
        bot = self.state.bots.get(self.state.active or "")
        return bot.player if bot is not None else next_player(self.state)

    def expected(self) -> str:
        """What kind of action is due: "place", "move", "shoot" or "over"."""
        if self.state.over:
            return OVER
        return self.state.phase

    def active_bot(self) -> Bot | None:
        return self.state.bots.get(self.state.active or "")

    @property
    def start_state(self) -> GameState:
        """The state the game started from (before its first action)."""
        return self._start

    def deck_exhausted(self) -> bool:
        """R54: the bot deck is empty (repairs stop, a destroyed bot's player is out)."""
        return self.mode.deck_exhausted(self)

    # --- legality -----------------------------------------------------------------------

    def legal(self, action: Action) -> Refusal | None:
        """Why the action may not be made now, or None (nothing changes)."""
        if isinstance(action, Correct):              # the referee's hand: any time
            return check_correct(self.state, action)
        refusal = self.mode.turn_refusal(self, action)
        if refusal is not None:
            return refusal
        state = self.mode.state_for(self, action)
        if isinstance(state, Refusal):
            return state
        return self._check(state, action)

    def _check(self, state: GameState, action: Action) -> Refusal | None:
        """The rules' checks of the action itself, in `state`."""
        bot = state.bots.get(getattr(action, "bot", ""))
        if bot is None:
            return Refusal("D18",
                    N_("there is no bot {action!r}").format(action=getattr(action, 'bot', None)))
        if isinstance(action, Place):
            why = check_place(state, bot, action.x, action.y)
            return Refusal("R6", why, at=(action.x, action.y)) if why else None
        if not bot.on_table:
            return Refusal("R55", N_("{id} is not on the table").format(id=bot.id), at=bot.pos)
        if isinstance(action, Move):
            result = self.preview_move(state, action)
            return result if isinstance(result, Refusal) else None
        if isinstance(action, Shoot):
            if state is self.state and self._shot_checked is not None \
                    and self._shot_checked == (action, _walk_key(state)):
                return None             # found legal in this very state (a robot asked first)
            refusal = (not_yet_allowed(state, bot, "shoot")
                       or shooting.check_shoot(state, action))
            if refusal is None and state is self.state and FAST_PATHS.on:
                self._shot_checked = (action, _walk_key(state))
            return refusal
        if isinstance(action, SetOverwatch):
            barred = not_yet_allowed(state, bot, "overwatch")
            if barred:
                return barred
            if not can_set_overwatch_after(state, bot):
                limit = state.rules.overwatch_move_fraction * bot.stats.move
                return Refusal("R23",
                        N_("{id} moved {moved:.2f} cm, more than {limit:.2f} cm: too far to "
                           "set overwatch").format(
                            id=bot.id, moved=bot.moved, limit=limit), at=bot.pos)
            return None
        if isinstance(action, SelfDestruct):
            return check_self_destruct(state, bot.id)
        if isinstance(action, Service):
            return check_service(state, action, self.deck_exhausted())
        if isinstance(action, Pass):
            return None
        return Refusal("D19", N_("unknown action {name}").format(name=type(action).__name__))

    # --- previews -----------------------------------------------------------------------

    def preview_move(self, state: GameState, move: Move) -> MoveResult | Refusal:
        """`movement.preview_move`, walked once per state and move: the robot's
        planner, `legal`, `preview` and the commit's whole-move check (D30) share
        it. The previews are dropped as soon as anything in the state differs (the
        key is every bot's pose and condition, the mines, the goals and the turn),
        so a cached answer is always the one a fresh walk would give."""
        return self.previewer(state)(state, move)

    def previewer(self, state: GameState) -> Callable[[GameState, Move], MoveResult | Refusal]:
        """`preview_move` for many moves asked of one state that does not change while
        they are asked (a robot's candidates): the state's key is taken once, here, and
        the walks are shared with `preview_move`. Ask a new previewer after any change."""
        if state is not self.state:
            return movement.preview_move
        key = _walk_key(state)
        walks_of, walks = self._walks
        if key != walks_of:
            walks = {}
            self._walks = (key, walks)

        def preview(asked: GameState, move: Move) -> MoveResult | Refusal:
            if asked is not state:
                return self.preview_move(asked, move)
            found = walks.get(move)
            if found is None:
                found = walks[move] = movement.preview_move(state, move)
            return found

        return preview

    def preview(self, action: Action) -> Preview:
        """What the action would do: a move's path with the overwatch shots it would be
        offered (and where), or each shot's premeasure. No dice, no change."""
        state = self.mode.state_for(self, action)
        if isinstance(state, Refusal):
            return Preview(refusal=state)
        if isinstance(action, Move):
            turn = self.mode.turn_refusal(self, action)
            result = self.preview_move(state, action)
            if isinstance(result, Refusal):
                return Preview(refusal=turn or result)
            return Preview(refusal=turn, move=result,
                           overwatch=offers(state, action.bot, result.path, action.hold_fire))
        refusal = self.legal(action)
        if isinstance(action, Shoot):
            bot = state.bots.get(action.bot)
            measures = [shooting.premeasure(state, action.bot, o.weapon,
                                            o.target if o.at is None else o.at)
                        for o in action.shots
                        if bot is not None and bot.stats.weapon(o.weapon) is not None]
            return Preview(refusal=refusal, premeasures=measures)
        return Preview(refusal=refusal)

    # --- acting -------------------------------------------------------------------------

    def act(self, action: Action, notes: Iterable[Event] = (),
            typed: Iterable[int] | None = None) -> ActResult:
        """Carry out a legal action and run the game on to the next decision.
        A refused action changes nothing. `notes` are informational events about
        the action (a robot's `robot_decision`, with its table row and die): they
        stand first in the entry's events, and the entry's rolls include every roll
        made since the previous entry (the robot's deciding dice). `typed`: the dice a
        player rolled by hand for this action, in order (see `_act_typed`); while the
        game waits for a die, only that action is accepted (with more dice). The events
        returned are the caller's own list, not the journaled entry's."""
        notes = check_notes(notes)
        if self.waiting is not None and self.waiting.action != action:
            return ActResult(refusal=Refusal("D8", N_(
                    "the game waits for a die for {purpose}, rolled for {action}").format(
                        purpose=self.waiting.purpose, action=self.waiting.action)))
        refusal = self.legal(action)
        if refusal is not None:
            return ActResult(refusal=refusal)
        if typed is not None:
            if self.state.dice.ask is None and self.state.dice.forced is None:
                return ActResult(refusal=Refusal("D8", N_(
                        "this game rolls its own dice: no dice are typed")))
            return self._act_typed(action, notes, tuple(typed))
        return self._carry_out(action, notes)

    def _act_typed(self, action: Action, notes: list[Event], typed: tuple[int, ...]
                   ) -> ActResult:
        """The action with dice typed by hand: tried first on a twin of the state (the
        game's own state is not touched); when the typed dice run short, the game waits
        for the next die. Otherwise it is carried out with exactly those dice."""
        need = self._die_needed(action, typed)
        if need is not None:
            self.waiting = DieWait(action, tuple(notes), typed, need)
            return ActResult(waiting=self.waiting)
        self.waiting = None
        dice = self.state.dice
        if dice.forced is not None:         # a forced stream is its own dice (a scenario)
            return self._carry_out(action, notes)
        before = dice.used
        dice.forced = [r.value for r in dice.rolls] + list(typed)
        try:
            result = self._carry_out(action, notes)
        finally:
            dice.forced = None
        if result.refusal is None:
            result.unused = max(0, len(typed) - (self.state.dice.used - before))
        return result

    def _die_needed(self, action: Action, typed: tuple[int, ...]) -> str | None:
        """What the first die beyond `typed` would be rolled for, or None when the typed
        dice carry the action through: found on a twin game, this one unchanged."""
        if self.state.dice.forced is not None:
            return None
        twin = Game(self.state.copy())
        twin.mode = copy.deepcopy(self.mode)
        given = list(typed)

        def hand(purpose: str) -> int:
            if not given:
                raise DieWanted(purpose)
            return given.pop(0)

        twin.state.dice.ask = hand
        try:
            twin._perform(action)
        except DieWanted as wanted:
            return wanted.purpose
        return None

    def give_die(self, value: int) -> ActResult:
        """The die the game waits for was rolled: the action goes on with it."""
        wait = self.waiting
        if wait is None:
            return ActResult(refusal=Refusal("D8", N_("no die is awaited")))
        if not 1 <= value <= 6:
            return ActResult(refusal=Refusal("D8", N_("a d6 shows 1 to 6, not {value}").format(
                    value=value)))
        return self.act(wait.action, wait.notes, wait.typed + (value,))

    def cancel_wait(self) -> bool:
        """The action waiting for a die is given up (nothing of it was done)."""
        had, self.waiting = self.waiting is not None, None
        return had

    def _carry_out(self, action: Action, notes: list[Event]) -> ActResult:
        dice = self.state.dice
        mark = min(self._mark, dice.used)
        pre = dice.used - mark
        events = self._perform(action)
        if isinstance(events, Refusal):
            return ActResult(refusal=events)
        entry = Entry(action, notes + events, list(dice.rolls[mark:]), pre, len(notes))
        self._mark = dice.used
        self.history.append(entry)
        redo, self._redo = self._redo, []
        if self.journal is not None:
            try:
                self.journal.record(entry, self.state)
            except BaseException:       # not journaled (disk full): the game takes it back
                self.history.pop()
                self._redo = redo
                self._rebuild(self.history)
                raise
        return ActResult(events=list(entry.events))

    def _perform(self, action: Action) -> list[Event] | Refusal:
        state = self.state
        if isinstance(action, Correct):
            return correct(state, action)
        events: list[Event] = []
        events += self.mode.begin(self, action)
        bot = state.bots[action.bot]
        if isinstance(action, Place):
            events.append(place_event(state, bot, action.x, action.y, action.facing,
                                      new=self.mode.places_new_bots))
            events.append(apply_event(state, {"type": "phase", "phase": MOVE}))
            return events
        if isinstance(action, Move):
            return self._move(action, events)
        if isinstance(action, Shoot):
            checked = self._shot_checked == (action, _walk_key(state))
            self._shot_checked = None
            result = shooting.resolve_shoot(state, action, checked=checked)
            if isinstance(result, Refusal):
                return result
            events += result
            if self.mode.shooting_goes_on(self, action):
                return events           # D47: the phase goes on, its wrecks with it (R55)
        elif isinstance(action, SetOverwatch):
            events.append(apply_event(state, {"type": "overwatch", "bot": bot.id, "on": True}))
        elif isinstance(action, SelfDestruct):
            result = self_destruct(state, bot.id)
            if isinstance(result, Refusal):
                return result
            events += result
        elif isinstance(action, Service):
            events += use_service(state, action)
        elif isinstance(action, Pass):
            events.append(apply_event(state, {"type": "pass", "bot": bot.id}))
        events += self.remove_destroyed()
        return events + self._end_turn()

    def _move(self, action: Move, events: list[Event]) -> list[Event] | Refusal:
        """The movement phase (R8-R15, R23), then R24 fire, goals (D23), removals
        (R55) and the start of the shooting phase with its mines (R31, D19)."""
        state = self.state
        interrupt = OverwatchInterrupt(hold=frozenset(action.hold_fire))
        result = movement.commit_move(state, action, interrupt,
                                      checked=self.preview_move(state, action))
        if isinstance(result, Refusal):
            return result
        events += result.events
        bot = state.bots[action.bot]
        if bot.on_table:
            events += collect_goals(state, bot)
            events += interrupt.after_move(state, bot)
        events += self.remove_destroyed()
        if not bot.on_table:
            return events + self._end_turn()
        events.append(apply_event(state, {"type": "phase", "phase": SHOOT}))
        events += activate_mines(state, bot.id)
        events += self.remove_destroyed()
        if not bot.on_table:
            return events + self._end_turn()
        return events

    # --- destruction, turns and the end -------------------------------------------------

    def remove_destroyed(self) -> list[Event]:
        """R55: destroyed bots leave the table once the current shooter has finished;
        their extra parts go back to the deck (R50); with the bot deck empty their
        player is out for good (R54). The game ends when one player is left (D24)."""
        state = self.state
        events: list[Event] = []
        for bot in list(state.bots.values()):
            if not bot.destroyed or bot.removed:
                continue
            events.append(apply_event(state, {"type": "removed", "bot": bot.id}))
            if bot.parts:
                events.append(apply_event(state, {"type": "parts_returned", "bot": bot.id,
                                                  "parts": list(bot.parts)}))
            if self.mode.keeps_players and self.deck_exhausted() \
                    and state.player_bot(bot.player) is None:
                events.append(apply_event(state, {"type": "player_out", "player": bot.player,
                                                  "reason":
                                                          N_("bot destroyed, deck empty (R54)")}))
        if self.mode.keeps_players and not state.over and len(state.players) > 1 \
                and len(players_in(state)) <= 1:
            events.append(self._game_over(N_("one player is left (D24)")))
        return events

    def _game_over(self, reason: str) -> Event:
        return apply_event(self.state, {"type": "game_over", "winners": winners(self.state),
                                        "reason": reason, "scores": dict(self.state.scores)})

    def _end_turn(self) -> list[Event]:
        """The active bot's turn ends; in strict mode the next one begins (D18)."""
        state = self.state
        bot = state.bots.get(state.active or "")
        own = self.mode.end_turn(self)
        if own is not None:
            return own
        events: list[Event] = []
        if bot is not None:
            events.append(apply_event(state, {"type": "turn_ended", "player": bot.player,
                                              "bot": bot.id}))
        if state.over:
            return events
        return events + self._begin_next_turn()

    def _begin_next_turn(self) -> list[Event]:
        """The next player in seat order takes his turn: his bot moves (D20: its
        overwatch ends), or he draws a new one to place (R6, R55), or with the
        deck empty he is out (R54). After the last player a new round begins,
        unless the round limit is reached (D24)."""
        state = self.state
        events: list[Event] = []
        while not state.over:
            if len(state.players) > 1 and len(players_in(state)) <= 1 or not players_in(state):
                events.append(self._game_over(N_("one player is left (D24)")))
                break
            player = next_player(state)
            if player is None:
                limit = state.rules.round_limit
                if limit is not None and state.round >= limit:
                    events.append(self._game_over(
                            N_("round limit {limit} reached (D24)").format(limit=limit)))
                    break
                quiet = state.rules.stalemate_rounds
                if quiet is not None and state.round - state.quiet_since >= quiet:
                    events.append(apply_event(state, {
                        "type": "game_over", "winners": [], "scores": dict(state.scores),
                        "reason": N_("a draw: no damage, score, placing or move for "
                                     "{rounds} rounds (D49)").format(rounds=quiet)}))
                    break
                events.append(apply_event(state, {"type": "round", "round": state.round + 1}))
                continue
            bot = state.player_bot(player)
            if bot is not None:
                events.append(turn_event(state, bot, MOVE))
                if bot.overwatch:
                    events.append(apply_event(state, {"type": "overwatch", "bot": bot.id,
                                                      "on": False,
                                                      "reason": N_("its own turn began (D20)")}))
                break
            drawn = draw_bot(state, player)
            if drawn:
                events += drawn
                events.append(turn_event(state, state.bots[drawn[0]["bot"]], PLACE))
                break
            events.append(apply_event(state, {"type": "player_out", "player": player,
                                              "reason": N_("no bot and the deck is empty (R54)")}))
            events.append(apply_event(state, {"type": "turn_ended", "player": player,
                                              "bot": None}))
        return events

    # --- undo and redo --------------------------------------------------------------------

    def undo(self, recorded: bool | None = None) -> bool:
        """Take back the last accepted action by replaying all but it (False: nothing to undo).
        `recorded`: replayed from their recorded events (`apply_recorded`), not re-run; by
        default as the mode says (a real game's own events are its record)."""
        if recorded is None:
            recorded = self.mode.rebuilds_from_events
        self.waiting = None             # an action waiting for a die is given up
        if not self.history:
            return False
        if self.journal is not None:
            self.journal.undone()        # journaled first: a failed write changes nothing
        entry = self.history.pop()
        self._rebuild(self.history, recorded)
        self._redo.append(entry)
        return True

    def redo(self, recorded: bool | None = None) -> bool:
        """Make the last undone action again, with the same dice and notes (False:
        nothing to redo). Rolls made since the last entry (a robot deciding) are
        dropped first, so the redone action meets the dice it met before.
        `recorded`: its recorded events are applied again (`apply_recorded`); by default
        as the mode says."""
        if recorded is None:
            recorded = self.mode.rebuilds_from_events
        self.waiting = None
        if not self._redo:
            return False
        if self.journal is not None:
            self.journal.redone()        # journaled first: a failed write changes nothing
        entry = self._redo.pop()
        if self.state.dice.used != self._mark:
            self._rebuild(self.history, recorded)
        if recorded:
            self._append_recorded(entry)
            return True
        mark = self._mark
        with self.dice_from(entry.rolls):
            if not self.redraw(entry.rolls[:entry.pre]):
                raise RuntimeError("a redone action's earlier dice came out differently")
            events = self._perform(entry.action)
        assert not isinstance(events, Refusal), "a redone action was refused"
        dice = self.state.dice
        self.history.append(Entry(entry.action, entry.events[:entry.notes] + events,
                                  list(dice.rolls[mark:]), entry.pre, entry.notes))
        self._mark = dice.used
        return True

    def _rebuild(self, entries: list[Entry], recorded: bool = False) -> None:
        """State = the start, then every entry's action with its own dice (the rolls
        made before each action drawn again first); `recorded`: every entry's dice
        and events as recorded (`apply_recorded`)."""
        self.state = self._start.copy()
        self.mode.restart(self.state)
        if recorded:
            for entry in entries:
                self._apply_entry(entry)
            self._mark = self.state.dice.used
            return
        for entry in entries:
            with self.dice_from(entry.rolls):
                if not self.redraw(entry.rolls[:entry.pre]):
                    raise RuntimeError(f"replaying {entry.action}: the dice rolled before it "
                                       "came out differently")
                events = self._perform(entry.action)
            if isinstance(events, Refusal):
                raise RuntimeError(f"replaying {entry.action} was refused: {events}")
        self._mark = self.state.dice.used

    def redraw(self, rolls: list[Roll]) -> bool:
        """Roll again, for the same purposes, dice that were rolled outside an action
        (a robot deciding): a seeded stream draws them again, forced dice (and
        physical dice inside `dice_from`) give the recorded values. True when every
        value is the one recorded."""
        dice = self.state.dice
        return all(dice.d6(r.purpose) == r.value for r in rolls)

    @contextmanager
    def dice_from(self, rolls: list[Roll]) -> Iterator[None]:
        """Physical dice are not asked again on replay: their recorded values are used."""
        dice = self.state.dice
        if dice.ask is None or dice.forced is not None:
            yield
            return
        dice.forced = [r.value for r in dice.rolls] + [r.value for r in rolls]
        try:
            yield
        finally:
            dice.forced = None

    def replay(self, action: Action, rolls: list[Roll], notes: Iterable[Event] = (),
               pre: int = 0) -> ActResult:
        """Act again as recorded (the journal): the `pre` rolls made before the action
        are drawn again, then the action is made with `notes`. Physical dice are not
        asked: the recorded values are used. Whether the dice came out as recorded is
        for the caller to check (`history[-1].rolls`)."""
        with self.dice_from(rolls):
            self.redraw(rolls[:pre])
            return self.act(action, notes)

    def apply_recorded(self, entry: Entry) -> None:
        """Replay an accepted action from its record, without re-running the rules: its
        rolls are drawn again from this game's dice (a seeded or forced die that comes
        out otherwise: ValueError), then its events are applied by their reducers, and
        it joins the history as it was recorded. The caller vouches that the events
        are the ones `act` gave (the journal checks the state digest recorded after
        every action; `replay` re-runs the rules instead). A reducer that cannot apply
        an event raises; the state is then left part-way (the caller drops the game)."""
        self._append_recorded(entry)
        self._redo = []

    def _append_recorded(self, entry: Entry) -> None:
        """The entry's dice and events applied, and the entry joins the history."""
        self._apply_entry(entry)
        self.history.append(entry)
        self._mark = self.state.dice.used

    def _apply_entry(self, entry: Entry) -> None:
        dice = self.state.dice
        if entry.rolls:
            if dice.ask is None or dice.forced is not None:     # what dice_from leaves
                self._roll_again(entry.rolls)
            else:
                with self.dice_from(entry.rolls):
                    self._roll_again(entry.rolls)
        apply_events(self.state, entry.events)

    def _roll_again(self, rolls: list[Roll]) -> None:
        dice = self.state.dice
        for roll in rolls:
            if dice.d6(roll.purpose) != roll.value:
                raise ValueError(f"roll {dice.used} ({roll.purpose}) came out "
                                 f"{dice.rolls[-1].value}, not {roll.value}")

    # --- designers: new static data for a running game ------------------------------------

    def reload(self, arena: Arena, cards: Iterable[BotCard] | dict[str, BotCard],
               mods: Iterable[Mod] | dict[str, Mod], rules: HouseRules | None = None
               ) -> Refusal | None:
        """Swap in a reloaded arena, cards and mods (and house rules, when given) for
        this game: a new game is begun on them with the recorded dice, and every
        accepted action is replayed with its own dice and notes. When that holds
        (every action legal, the same dice rolled for the same purposes), the game
        goes on from the rebuilt state, with the same dice stream; the redo list is
        dropped. Otherwise the Refusal says why and the game is left as it was."""
        if self.mode.reload_refusal is not None:
            return Refusal("D19", self.mode.reload_refusal)
        rules = rules if rules is not None else self.state.rules
        start_rolls = list(self._start.dice.rolls)
        recorded = start_rolls + [r for e in self.history for r in e.rolls]
        forced = Dice(forced=[r.value for r in recorded])
        try:
            twin = Game.new(arena, rules, cards, mods, list(self.given_players), dice=forced,
                            ids_per_player=self.state.ids_per_player)
            if twin.state.dice.rolls != start_rolls:
                return Refusal("D8",
                        N_("the start of the game (starting player, first draw) no longer "
                           "rolls the same dice"))
            for n, entry in enumerate(self.history, start=1):
                result = twin.replay(entry.action, entry.rolls,
                                     entry.events[:entry.notes], entry.pre)
                if result.refusal is not None:
                    return Refusal(result.refusal.rule,
                            N_("action {n} ({action}) no longer holds: {message}").format(
                                n=n, action=entry.action, message=result.refusal.message),
                                   at=result.refusal.at, step=result.refusal.step)
                if twin.history[-1].rolls != entry.rolls:
                    return Refusal("D8",
                            N_("action {n} ({action}) no longer rolls the same dice").format(
                                n=n, action=entry.action))
        except Exception as err:   # new data can make any rule fail (dice run out, ...)
            return Refusal("D19",
                    N_("the game cannot be replayed on the new files: {name}: {err}").format(
                        name=type(err).__name__, err=err))
        dice = self.state.dice.copied()     # the stream goes on where it was
        if dice.rolls[:self._mark] != twin.state.dice.rolls:
            return Refusal("D8", N_("the replay rolled other dice than the game did"))
        twin.state.dice = dice
        twin._start.dice = self._start.dice.copied()
        kept = (self.state, self._start, self.history, self._redo, self.mode,
                self.start_events, self._mark)
        self.state = twin.state
        self._start = twin._start
        self.history = twin.history
        self._redo = []
        self.mode = twin.mode
        self.start_events = twin.start_events
        self._mark = twin._mark
        if self.journal is not None:
            try:
                self.journal.reloaded(self)
            except BaseException:       # not journaled: the game goes on as it was
                (self.state, self._start, self.history, self._redo, self.mode,
                 self.start_events, self._mark) = kept
                raise
        return None
