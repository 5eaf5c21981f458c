"""Wiring a table session without any drawing: the game (new or resumed), its
journal (created only when the first action is taken), robot seats, and the
designers' reload-on-change file watch. `bottisota.commands.play` uses it; so
can any other front end (a second window, a phone server)."""
from __future__ import annotations

import os
import random
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bottisota.core.dice import Dice
from bottisota.core.errors import InputError, JournalWriteError, Problem
from bottisota.core.house_rules import HouseRules
from bottisota.core.i18n import _
from bottisota.engine.events import Event
from bottisota.engine.game import Entry, Game
from bottisota.formats.content import DEFAULT_ARENA, cards_dir, find, rules_file
from bottisota.formats.loading import bundled_rules, load_arena, load_catalogue
from bottisota.formats.robot_tables import Personality
from bottisota.robot.personalities import personality

if TYPE_CHECKING:
    from bottisota.core.arena import Arena
    from bottisota.core.cards import BotCard, Mod
    from bottisota.engine.state import GameState
    from bottisota.play.journal import Journal
    from bottisota.robot.player import Robot

DEFAULT_PERSONALITY = "aggressive"
POLL_SECONDS = 0.5       # --edit: how often the files are checked


def data_dir() -> Path:
    """Where saved games go: $XDG_DATA_HOME/bottisota/games (default ~/.local/share/...)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "bottisota" / "games"


def new_journal_path(folder: Path | None = None) -> Path:
    """A journal name no other session has: the time to the second, then -2, -3, ...
    (the name is only chosen here; the file appears with the first action)."""
    folder = folder or data_dir()
    stem = time.strftime("game-%Y%m%d-%H%M%S")
    path = folder / f"{stem}.jsonl"
    n = 2
    while path.exists():
        path = folder / f"{stem}-{n}.jsonl"
        n += 1
    return path


def parse_size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
        if w < 320 or h < 240 or w > 16384 or h > 16384:
            raise ValueError
    except ValueError:
        raise InputError([Problem("--size", 0, 0, "", _("expected WxH between 320x240 and "
                                  "16384x16384, not {text!r}").format(text=text))]) from None
    return (w, h)


def parse_players(text: str) -> list[str]:
    players = [p.strip() for p in text.split(",") if p.strip()]
    if len(players) < 1 or len(set(players)) != len(players):
        raise InputError(
            [Problem("--players", 0, 0, "", _("give one or more distinct names, e.g. red,blue"))]
        )
    return players


def parse_robot_specs(specs: list[str], players: list[str]) -> list[tuple[str, str]]:
    """`--robot blue --robot red:sniper` or `--robot blue,red:sniper` -> [(player, name)],
    every player checked against the seats."""
    seats = []
    for spec in (part.strip() for s in specs for part in s.split(",")):
        if not spec:
            continue
        player, _sep, name = spec.partition(":")
        if player not in players:
            raise InputError([Problem("--robot", 0, 0, "", _("{player!r} is not one of the players "
                                      "({players})").format(
                                              player=player, players=', '.join(players)))])
        seats.append((player, name))
    return seats


def robot_seats(specs: list[str], players: list[str], game: Game | None = None
                ) -> dict[str, RobotSeat]:
    """`--robot blue` or `--robot blue:sniper` -> {player: RobotSeat}. Every robot knows the
    robot seats (`peers`: robot watchers are asked during a robot's move, R23) and,
    given the game, has prepared its maps once (`Robot.prepare`); without it, each seat
    makes its robot when first asked (after the first frame)."""
    robots: dict[str, RobotSeat] = {}
    for player, name in parse_robot_specs(specs, players):
        robots[player] = RobotSeat(player, personality(name or DEFAULT_PERSONALITY), robots)
    if game is not None:
        for r in robots.values():
            r.prepare(game)
    return robots


class RobotSeat:
    """A seat played by a robot (`robot.player.Robot`), its personality read and checked
    at once (a bad table is refused before the game starts), the robot itself (planner,
    navigation, placement: modules the first frame does not need) made when the seat is
    first asked to decide, answer or prepare; it then answers as that robot does."""

    def __init__(self, player: str, personality: Personality,
                 peers: dict[str, Any]) -> None:   # Any: robot.player.Robot's peers, untyped yet
        self.player = player
        self.personality = personality
        self._peers = peers
        self._robot: Robot | None = None

    @property
    def robot(self) -> Robot:
        if self._robot is None:
            # start-up: the robot's modules are loaded with its first decision
            from bottisota.robot.player import Robot

            self._robot = Robot(self.player, self.personality, peers=self._peers)
        return self._robot

    def take_events(self) -> list[Event]:
        """The robot's `robot_decision` events since the last call (none before it exists)."""
        return self._robot.take_events() if self._robot is not None else []

    def __getattr__(self, name: str) -> Any:   # Any: the robot's own, forwarded (robot.player)
        if name.startswith("_"):          # (attributes of the seat's own not yet set)
            raise AttributeError(name)
        return getattr(self.robot, name)


def find_arena(name: str) -> Path:
    """An arena path as given, else an arena of that name (with or without .yaml): the
    designer's folders first (--content, BOTTISOTA_PATH), then the bundled ones."""
    return find("arena", name)


def load_static(arena_path: Path, round_limit: int | None = None,
                rules_now: Callable[[], HouseRules] | None = None
                ) -> tuple[Arena, dict[str, BotCard], dict[str, Mod], HouseRules]:
    """The arena, bot cards, mods and house rules as the files say now (--edit).
    `rules_now` reads the game's own house rules again (its --rules file, --set, the
    round limit); without it the bundled rules with `round_limit`."""
    rules = rules_now() if rules_now is not None else bundled_rules()
    if rules_now is None and round_limit is not None:
        rules = rules.overridden({"round_limit": round_limit})
    arena = load_arena(arena_path, rules, cache=True)
    cards, mods = load_catalogue()
    return arena, cards, mods, rules


class LazyJournal:
    """A journal whose file is created with the first action taken (no files for
    sessions that did nothing); until then undo/redo have nothing to write."""

    def __init__(self, path: Path, game: Game, seed: int | None) -> None:
        self.path = Path(path)
        self._game = game
        self._seed = seed
        self._rolls = list(game.state.dice.rolls[:game.state.dice.used])
        self._journal: Journal | None = None

    @property
    def created(self) -> bool:
        return self._journal is not None

    def _open(self) -> Journal:
        if self._journal is None:
            # the journal's writer is loaded with the first action, after the first frame
            from bottisota.play.journal import Journal
            from bottisota.play.journal import new_journal_path as unique_journal_path

            try:   # a folder that cannot be made is a journal that cannot be written
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as err:
                raise JournalWriteError(str(self.path), err.strerror or str(err)) from None
            try:   # claim the chosen name; another session may have taken it meanwhile
                os.close(os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
            except FileExistsError:
                self.path = unique_journal_path(self.path.parent)
            except OSError as err:
                raise JournalWriteError(str(self.path), err.strerror or str(err)) from None
            self._journal = Journal.create(self.path, self._game, seed=self._seed,
                                           rolls=self._rolls)
        return self._journal

    def record(self, entry: Entry, state: GameState) -> None:
        self._open().record(entry, state)

    def undone(self) -> None:
        if self._journal is not None:
            self._journal.undone()

    def redone(self) -> None:
        if self._journal is not None:
            self._journal.redone()

    def reloaded(self, game: Game) -> None:
        if self._journal is not None:
            self._journal.reloaded(game)


def build_game(arena_name: str | None, players: list[str], seed: int | None,
               dice: Dice | None, journal_path: Path | str | None,
               rules: HouseRules | None = None, robots_only: bool = False) -> tuple[Game, Path]:
    """A new game on an arena (the bundled default when none is named) with these house
    rules (default: the bundled ones) and the card deck; its journal file appears with
    the first action. `robots_only`: every seat is a robot, so the robots' round limit
    applies (D48)."""
    path = find_arena(arena_name or DEFAULT_ARENA)
    rules = rules or bundled_rules()
    if robots_only:
        rules = rules.for_robots_only()
    arena = load_arena(path, rules, cache=True)
    cards, mods = load_catalogue()
    if dice is None and seed is None:
        seed = random.SystemRandom().randrange(2 ** 31)    # journaled, so the game replays (D8)
    game = Game.new(arena, rules, cards, mods, players, seed=seed, dice=dice)
    if journal_path is not None:
        game.journal = LazyJournal(Path(journal_path), game, seed)
    return game, path


def watched_files(arena_path: Path, extra: list[Path] | None = None) -> Callable[[], list[Path]]:
    """The files a designer's edit may change: the arena, the rules, every card, and
    `extra` (a --rules file)."""
    def files() -> list[Path]:
        found = [arena_path, rules_file(), *(extra or [])]
        for sub in ("bots", "mods"):
            found += sorted((cards_dir() / sub).glob("*.yaml"))
        return found

    return files


class FileWatch:
    """Polls files' modification times (at most every POLL_SECONDS)."""

    def __init__(self, files: Callable[[], list[Path]]) -> None:
        self.files = files
        self.stamps = self._stamps()
        self.last_poll = 0.0

    def _stamps(self) -> dict[Path, float]:
        out = {}
        for p in self.files():
            try:
                out[p] = p.stat().st_mtime
            except OSError:
                out[p] = -1.0
        return out

    def changed(self, force: bool = False) -> bool:
        now = time.monotonic()
        if not force and now - self.last_poll < POLL_SECONDS:
            return False
        self.last_poll = now
        stamps = self._stamps()
        if stamps == self.stamps and not force:
            return False
        self.stamps = stamps
        return True


def reload_game(game: Game, load: Callable[[], Any],   # Any: a Game or the files' four
                robots: Mapping[str, RobotSeat]) -> str | None:
    """Run the game on the files as they are now. None on success, else why not (the
    game then goes on as it was)."""
    try:
        data = load()
        state = getattr(data, "state", None)
        arena, cards, mods, rules = ((state.arena, state.cards, state.mods, state.rules)
                                     if state is not None else data)
    except InputError as err:
        return str(err)
    except Exception as err:    # a file half-written or unreadable: never crash the table
        return _("the files cannot be loaded: {kind}: {err}").format(
                kind=type(err).__name__, err=err)
    refusal = game.reload(arena, cards, mods, rules)
    if refusal is not None:
        return _("files changed, but the game does not replay on them ({refusal}); "
                 "it goes on with the files it had").format(refusal=refusal)
    for robot in robots.values():
        robot.prepare(game)
    return None
