"""Starting a table session from the command line: the game (new or resumed), its
journal, robot seats, the window, and the designers' reload-on-change."""
from __future__ import annotations

import argparse
import os
import time
from pathlib import Path
from typing import Any, Callable

from bottisota.core.errors import InputError, Problem

DEFAULT_PERSONALITY = "aggressive"
POLL_SECONDS = 0.5       # --edit: how often the files are checked


def data_dir() -> Path:
    """Where saved games go: $XDG_DATA_HOME/bottisota/games (default ~/.local/share/...)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "bottisota" / "games"


def new_journal_path() -> Path:
    folder = data_dir()
    folder.mkdir(parents=True, exist_ok=True)
    return folder / time.strftime("game-%Y%m%d-%H%M%S.jsonl")


def parse_size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
        if w < 320 or h < 240:
            raise ValueError
    except ValueError:
        raise InputError([Problem("--size", 0, 0, "", f"expected WxH of at least 320x240, not {text!r}")])
    return (w, h)


def robot_seats(specs: list[str], players: list[str], game: Any = None) -> dict[str, Any]:
    """`--robot blue` or `--robot blue:sniper` -> {player: Robot}. Every robot knows the
    robot seats (`peers`: robot watchers are asked during a robot's move, R23) and,
    given the game, has prepared its maps once (`Robot.prepare`)."""
    from bottisota.robot.personalities import personality
    from bottisota.robot.player import Robot

    robots: dict[str, Any] = {}
    for player, name in parse_robot_specs(specs, players):
        robots[player] = Robot(player, personality(name or DEFAULT_PERSONALITY))
    for r in robots.values():
        r.peers = robots
        if game is not None:
            r.prepare(game)
    return robots


def parse_robot_specs(specs: list[str], players: list[str]) -> list[tuple[str, str]]:
    """`--robot blue --robot red:sniper` or `--robot blue,red:sniper` -> [(player, name)],
    every player checked against the seats."""
    seats = []
    for spec in (part.strip() for s in specs for part in s.split(",")):
        if not spec:
            continue
        player, _, name = spec.partition(":")
        if player not in players:
            raise InputError([Problem("--robot", 0, 0, "", f"{player!r} is not one of the players "
                                      f"({', '.join(players)})")])
        seats.append((player, name))
    return seats


def load_static(arena_path: Path, round_limit: int | None = None) -> tuple[Any, Any, Any, Any]:
    """The arena, bot cards, mods and house rules as the files say now (--edit)."""
    from bottisota.formats.loading import bundled_rules
    from bottisota.formats.loading import load_arena, load_catalogue

    rules = bundled_rules()
    if round_limit is not None:
        rules = rules.overridden({"round_limit": round_limit})
    arena = load_arena(arena_path, rules)
    cards, mods = load_catalogue()
    return arena, cards, mods, rules


def build_game(arena_name: str | None, players: list[str], seed: int | None,
               dice: Any, journal_path: str | None) -> Any:
    """A new game on an arena (the bundled default when none is named) with the
    bundled house rules and card deck."""
    from bottisota.formats.content import DEFAULT_ARENA
    from bottisota.formats.loading import bundled_rules
    from bottisota.formats.loading import load_arena, load_catalogue
    from bottisota.engine.game import Game
    from bottisota.view.render import find_arena_file

    path = find_arena_file(arena_name or DEFAULT_ARENA)
    rules = bundled_rules()
    arena = load_arena(path, rules)
    cards, mods = load_catalogue()
    return Game.new(arena, rules, cards, mods, players, seed=seed, dice=dice,
                    journal_path=journal_path), path


def ask_on_screen(screen: Any, purpose: str) -> int:
    """A physical die asked before the table is up (the starting player, the first draw)."""
    from bottisota.view import style
    from bottisota.view.prompts import read_typed_die

    return read_typed_die(screen, purpose, lambda: screen.fill(style.BACKGROUND))


def _files_for(arena_path: Path) -> Callable[[], list[Path]]:
    from bottisota.formats.content import cards_dir, rules_file

    def files() -> list[Path]:
        found = [arena_path, rules_file()]
        for sub in ("bots", "mods"):
            found += sorted((cards_dir() / sub).glob("*.yaml"))
        return found

    return files


def open_session(args: argparse.Namespace) -> int:
    """`bottisota play`: open the window and run the table until it is closed."""
    from bottisota.view.render import ensure_headless

    size = parse_size(args.size)
    players = [p.strip() for p in args.players.split(",") if p.strip()]
    if len(players) < 1 or len(set(players)) != len(players):
        raise InputError([Problem("--players", 0, 0, "", "give one or more distinct names, e.g. red,blue")])
    if not args.resume:
        parse_robot_specs(args.robot, players)   # a bad seat is refused before any journal
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        ensure_headless()
    import pygame

    from bottisota.view.app import TableApp
    from bottisota.view.calibration import display_key, load_scale

    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    pygame.display.init()
    pygame.font.init()
    flags = pygame.RESIZABLE | (pygame.FULLSCREEN if args.fullscreen else 0)
    screen = pygame.display.set_mode(size, flags)
    pygame.display.set_caption("Bottisota Referee")
    holder: dict[str, Any] = {}

    def ask(purpose: str) -> int:
        app = holder.get("app")
        return app.ask_die(purpose) if app is not None else ask_on_screen(screen, purpose)

    dice = None
    if args.physical_dice:
        from bottisota.core.dice import Dice

        dice = Dice(ask=ask)
    if args.resume:
        from bottisota.play.journal import resume

        game = resume(args.resume, ask if args.physical_dice else None)
        journal_name = str(args.resume)
        arena_path = Path(game.state.arena.source)
        players = list(game.state.players)
    else:
        journal_path = new_journal_path()
        game, arena_path = build_game(args.arena, players, args.seed, dice, str(journal_path))
        journal_name = str(journal_path)
    robots = robot_seats(args.robot, players, game)
    sizes = pygame.display.get_desktop_sizes()
    scale = load_scale(display_key(sizes[0] if sizes else size))
    app = TableApp(game, screen.get_size(), screen=screen, robots=robots,
                   journal_name=journal_name, physical_dice=args.physical_dice, true_scale=scale)
    holder["app"] = app
    if scale:
        app.use_true_scale = True
        app.camera = app._fit_camera()
    if args.edit:
        limit = game.state.rules.round_limit
        app.reloader = EditReloader(arena_path, lambda: load_static(arena_path, limit))
    try:
        app.run()
    finally:
        from bottisota.view.style import forget_fonts

        forget_fonts()
        pygame.quit()
    return 0


class EditReloader:
    """--edit: watch the arena, rules and card files; on a change the running game goes
    on with the new files (`Game.reload` replays its actions on them), or the
    validation error, or why the game no longer replays, is shown on screen and the
    game goes on as it was.

    `load()` gives the new static data: (arena, cards, mods, rules), or a Game built
    on the new files, whose static data is taken."""

    def __init__(self, arena_path: Path, load: Callable[[], Any]) -> None:
        self.files = _files_for(arena_path)
        self.load = load
        self.stamps = self._stamps()
        self.last_poll = 0.0
        self.error: str | None = None

    def _stamps(self) -> dict[Path, float]:
        out = {}
        for p in self.files():
            try:
                out[p] = p.stat().st_mtime
            except OSError:
                out[p] = -1.0
        return out

    def _static(self) -> tuple[Any, Any, Any, Any]:
        data = self.load()
        state = getattr(data, "state", None)
        if state is not None:
            return state.arena, state.cards, state.mods, state.rules
        return data

    def poll(self, app: Any, force: bool = False) -> bool:
        """Reload when a file changed (checked every POLL_SECONDS). True when the game
        now runs on the new files."""
        now = time.monotonic()
        if not force and now - self.last_poll < POLL_SECONDS:
            return False
        self.last_poll = now
        stamps = self._stamps()
        if stamps == self.stamps and not force:
            return False
        self.stamps = stamps
        from bottisota.view import style
        from bottisota.view.arena_layer import ArenaLayer

        try:
            arena, cards, mods, rules = self._static()
        except InputError as err:
            return self._show(app, str(err))
        except Exception as err:    # a file half-written or unreadable: never crash the table
            return self._show(app, f"the files cannot be loaded: {type(err).__name__}: {err}")
        game = app.game
        refusal = game.reload(arena, cards, mods, rules)
        if refusal is not None:
            return self._show(app, f"files changed, but the game does not replay on them "
                                   f"({refusal}); it goes on with the files it had")
        self.error = None
        for robot in app.robots.values():
            robot.prepare(game)
        app.arena_layer = ArenaLayer(game.state.arena, grid=app.show_grid)
        app.camera = app._fit_camera()
        app.plan = None
        app._changed()
        app.say(f"files changed: arena and cards reloaded; the game goes on "
                f"({len(game.history)} actions replayed)", style.LEGAL)
        return True

    def _show(self, app: Any, text: str) -> bool:
        from bottisota.view import style

        self.error = text
        for line in text.splitlines():
            app.say(line, style.REFUSAL)
        return False
