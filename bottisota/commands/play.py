"""`bottisota play`: the referee's table view (the default command).

With no display it says so at once and exits 2; `--headless` runs the table
without a window for scripted use (robot seats play; `--frames`, `--screenshot`).
`--phones` serves the same game to the players' phones on the local network
(`bottisota.web`): the table shows each seat's QR code and link (F6 hides them)
and draws what a seat shows on it; `--phones-commit` lets seats act from phones.
"""
from __future__ import annotations

import argparse
import gc
import os
import sys
import threading
import time
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

from bottisota.commands.options import add_content, add_rules, house_rules  # noqa: E402
from bottisota.core.dice import Dice  # noqa: E402
from bottisota.core.errors import InputError, Problem  # noqa: E402
from bottisota.core.i18n import N_, _  # noqa: E402
from bottisota.core.printable import printable  # noqa: E402
from bottisota.engine.movement.geometry import wall_reaches  # noqa: E402
from bottisota.engine.shooting.geometry import barriers  # noqa: E402
from bottisota.view import style  # noqa: E402
from bottisota.view.app import TableApp  # noqa: E402
from bottisota.view.app_state import FPS  # noqa: E402
from bottisota.view.prompts import read_typed_die  # noqa: E402
from bottisota.view.robot_worker import RobotWorker  # noqa: E402
from bottisota.viewmodel.calibration_store import display_key, load_calibration, save_calibration  # noqa: E402
from bottisota.viewmodel.model import PANEL_MODES, turn_line  # noqa: E402
from bottisota.viewmodel.session import (  # noqa: E402
    build_game,
    load_static,
    new_journal_path,
    parse_players,
    parse_robot_specs,
    parse_size,
    robot_seats,
)
from bottisota.viewmodel.sizes import READING_DISTANCE_CM, UI_SCALES  # noqa: E402

if TYPE_CHECKING:
    from bottisota.view.projector import ProjectorWindow
    from bottisota.view.windows import WindowHost

PHONES_PORT = 8765
CAMERAS: list[Any] = []         # --camera: the live camera of the table open now
PHONES_HOST = "0.0.0.0"

NO_DISPLAY = N_("bottisota: no display to open the table on (DISPLAY and WAYLAND_DISPLAY are "
              "unset).\nRun it on a desktop, or use `bottisota play --headless` for scripted use.")


def configure_parser(p: argparse.ArgumentParser) -> None:
    p.add_argument("arena", nargs="?", metavar="ARENA",
                   help=_("arena file or bundled arena name (default: the bundled default arena)"))
    p.add_argument("--players", default="red,blue", help=_("seat names, comma-separated "
                                                           "(default red,blue)"))
    p.add_argument("--robot", action="append", default=[], metavar="PLAYER[:PERSONALITY]",
                   help=_("a seat played by a robot: blue, blue:sniper, or red,blue (repeatable)"))
    p.add_argument("--seed", type=int, default=None, help=_("seed of the dice"))
    p.add_argument("--physical-dice", action="store_true", help=_("ask every roll on screen "
                                                                  "(1-6)"))
    p.add_argument("--fullscreen", action="store_true", help=_("start in full screen"))
    p.add_argument("--resume", metavar="GAME.jsonl", help=_("go on with a saved game (its "
                                                            "journal)"))
    p.add_argument("--edit", action="store_true",
                   help=_("designers: reload the arena and cards when their files change"))
    p.add_argument("--size", default="1600x900", help=_("window size WxH (default 1600x900)"))
    p.add_argument("--ui-scale", type=float, default=1.0, choices=UI_SCALES,
                   help=_("text size factor for the whole view (key F4 steps it)"))
    p.add_argument("--panel", choices=PANEL_MODES, default="side",
                   help=_("where the panel goes: side, bottom or hidden (key Tab)"))
    p.add_argument("--projector", action="store_true",
                   help=_("open the table alone in a second window on the second display "
                          "(key F5)"))
    p.add_argument("--distance", type=float, default=READING_DISTANCE_CM / 100.0,
                   metavar="METRES",
                   help=_("the projector's texts are sized to be read from this far away "
                          "(default {metres} m)").format(metres=READING_DISTANCE_CM / 100.0))
    p.add_argument("--robot-pace", type=float, default=1.5, metavar="SECONDS",
                   help=_("robot seats wait this long after each action (default 1.5; key N "
                          "skips)"))
    p.add_argument("--headless", action="store_true",
                   help=_("no window: robot seats play on (scripted use, tests)"))
    p.add_argument("--frames", type=int, default=None,
                   help=_("--headless: stop after this many frames (default: until nobody acts)"))
    p.add_argument("--screenshot", metavar="PNG", help=_("--headless: save the last frame"))
    p.add_argument("--phones", action="store_true",
                   help=_("serve the game to the players' phones on the local network: the "
                          "table shows each seat's QR code and link (F6 hides them)"))
    p.add_argument("--phones-commit", action="store_true",
                   help=_("with --phones: each seat may act for its own bots on its own turn"))
    p.add_argument("--phones-port", type=int, default=PHONES_PORT, metavar="PORT",
                   help=_("with --phones: the port phones connect to (default {port})").format(
                       port=PHONES_PORT))
    p.add_argument("--rounds", type=int, default=None, metavar="N",
                   help=_("end the game after round N (the same as --set round_limit=N)"))
    p.add_argument("--host", default=None, metavar="ADDRESS",
                   help=_("with --phones: the address to listen on (default {host}, every "
                          "interface: phones on the local network; 127.0.0.1: this machine "
                          "only)").format(host=PHONES_HOST))
    p.add_argument("--camera", default=None, metavar="SRC",
                   help=_("a camera over the table (the extra bottisota[camera]): a camera "
                          "number, or a folder of frames or a video recorded by one; rings "
                          "each miniature off its place, reads moves made by hand (F9: the "
                          "game takes the camera's places)"))
    p.add_argument("--camera-folder", default=None, metavar="DIR",
                   help=_("with --camera: where the camera's calibration is kept (default: "
                          "beside the projector's)"))
    p.add_argument("--camera-side", type=float, default=2.0, metavar="CM",
                   help=_("with --camera: the markers' black square, cm (default 2)"))
    add_content(p)
    add_rules(p)


DEAD_DISPLAY = N_("bottisota: the display {display} does not answer (no window can be opened "
                  "there).\nRun it on a desktop, or use `bottisota play --headless` for "
                  "scripted use.")


def _fell_back(driver: str) -> bool:
    """SDL found no display it could open and fell back to drawing nowhere (a DISPLAY
    naming no X server), though nobody asked for that driver."""
    asked = os.environ.get("SDL_VIDEODRIVER", "")
    return driver in ("offscreen", "dummy") and asked not in ("offscreen", "dummy")


def has_display() -> bool:
    """Whether a window can be opened: on X11/Wayland systems a display must be named."""
    if os.environ.get("SDL_VIDEODRIVER") not in (None, "", "x11", "wayland"):
        return True
    if not sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def main(args: argparse.Namespace) -> int:
    """Open the table view and play until the window is closed."""
    size = parse_size(args.size)
    players = parse_players(args.players)
    if not args.resume:
        parse_robot_specs(args.robot, players)   # a bad seat is refused before anything else
    if not args.robot_pace >= 0:
        raise InputError([Problem("--robot-pace", 0, 0, "", _("must be 0 or more seconds"))])
    if not 0.5 <= args.distance <= 30:
        raise InputError([Problem("--distance", 0, 0, "", _("expected 0.5 to 30 metres"))])
    args.house_rules = game_rules(args)
    _check_phone_options(args)
    _check_camera_options(args)
    if args.headless:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
    elif not has_display():
        print(_(NO_DISPLAY), file=sys.stderr)
        return 2
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    try:
        pygame.display.init()
        if not args.headless and _fell_back(pygame.display.get_driver()):
            print(_(DEAD_DISPLAY).format(display=os.environ.get("DISPLAY")
                                         or os.environ.get("WAYLAND_DISPLAY") or "?"),
                  file=sys.stderr)
            return 2
        pygame.font.init()
        screen, note = _open_window(size, args.fullscreen and not args.headless)
    except pygame.error as err:
        print(_("bottisota: cannot open a window: {err}\nUse `bottisota play --headless` for "
                "scripted use.").format(
                  err=err), file=sys.stderr)
        return 2
    try:
        return _play(args, players, screen, note)
    finally:
        _join_workers()
        while CAMERAS:              # --camera: its thread stopped with the table
            CAMERAS.pop().close()
        gc.unfreeze()               # what the window's `settle` froze is collected as before
        style.forget_fonts()
        pygame.quit()


def game_rules(args: argparse.Namespace) -> Any:
    """The house rules of a new game: bundled, `--rules FILE`, `--set`, then `--rounds`
    (the round limit, D24). A resumed game keeps its journal's rules: these options
    are refused with --resume."""
    given = [flag for flag, value in (("--rules", args.rules), ("--set", args.set),
                                      ("--rounds", args.rounds)) if value]
    if args.resume and given:
        raise InputError([Problem(given[0], 0, 0, "",
                                  _("a resumed game keeps the rules its journal holds"))])
    rules = house_rules(args)
    if args.rounds is not None:
        if not 1 <= args.rounds <= 1000:
            raise InputError([Problem("--rounds", 0, 0, "", _("expected 1 to 1000 rounds"))])
        rules = rules.overridden({"round_limit": args.rounds})
    return rules


def edit_loader(args: argparse.Namespace, game: Any, arena_path: Path,
                robots_only: bool = False) -> Any:
    """What `--edit` reloads: the files as they are now, with the game's own house
    rules read again (its --rules file, --set, --rounds, the robots' round limit). A
    resumed game keeps the rules its journal holds."""
    if args.resume:
        kept = game.state.rules
        return lambda: load_static(arena_path, rules_now=lambda: kept)

    def rules_now() -> Any:
        rules = game_rules(args)
        return rules.for_robots_only() if robots_only else rules

    return lambda: load_static(arena_path, rules_now=rules_now)


def _check_phone_options(args: argparse.Namespace) -> None:
    """--phones-commit and --phones-port mean something only with --phones."""
    for flag, given in (("--phones-commit", args.phones_commit),
                        ("--phones-port", args.phones_port != PHONES_PORT),
                        ("--host", args.host is not None)):
        if given and not args.phones:
            raise InputError([Problem(flag, 0, 0, "", _("add --phones (the phone server)"))])
    if not 0 <= args.phones_port <= 65535:
        raise InputError([Problem("--phones-port", 0, 0, "",
                                  _("expected 0 to 65535, not {port}").format(
                                      port=args.phones_port))])


def _check_camera_options(args: argparse.Namespace) -> None:
    """--camera-folder and --camera-side mean something only with --camera; the camera
    needs OpenCV (the extra), said before any window opens."""
    for flag, given in (("--camera-folder", args.camera_folder is not None),
                        ("--camera-side", args.camera_side != 2.0)):
        if given and not args.camera:
            raise InputError([Problem(flag, 0, 0, "", _("add --camera (the camera over the "
                                                        "table)"))])
    if not 0.5 <= args.camera_side <= 10:
        raise InputError([Problem("--camera-side", 0, 0, "", _("a side from 0.5 to 10 cm"))])
    if args.camera:
        from bottisota.commands.camera import require_opencv

        require_opencv()


def _start_camera(app: TableApp, args: argparse.Namespace) -> Any:
    """`--camera SRC`: the camera read on its own thread, its readings on the table."""
    from bottisota.commands.camera import calibration_folder
    from bottisota.viewmodel.camera_feed import CameraCheck
    from bottisota.vision import calibration
    from bottisota.vision.frames import FrameError, source
    from bottisota.vision.live import LiveCamera

    try:
        model = calibration.load(calibration_folder(args.camera_folder))
        frames = source(args.camera)
    except (calibration.CalibrationError, FrameError) as err:
        raise InputError([Problem("--camera", 0, 0, "", str(err))]) from None
    feed = LiveCamera(model, frames, side=args.camera_side,
                      recorded=not args.camera.isdigit()).start()
    app.camera_hooks.start(CameraCheck(feed))
    app.say(_("camera: {source}: every miniature is checked after each action").format(
        source=args.camera), "dim")
    return feed


def _open_window(size: tuple[int, int], fullscreen: bool) -> tuple[pygame.Surface, str | None]:
    """The window, and a note when full screen was asked for and could not be had."""
    flags = pygame.RESIZABLE | (pygame.FULLSCREEN if fullscreen else 0)
    note = None
    try:
        screen = pygame.display.set_mode(size, flags)
    except pygame.error as err:
        if not fullscreen:
            raise
        screen = pygame.display.set_mode(size, pygame.RESIZABLE)   # no full screen here
        note = _("full screen is not available here ({err}); a window is used instead").format(
                   err=err)
    pygame.display.set_caption(_("Bottisota Referee"))
    try:
        with warnings.catch_warnings():       # the display module's window, asked once
            warnings.simplefilter("ignore", DeprecationWarning)
            pygame.Window.from_display_module().focus()   # keys work without a first click
    except (pygame.error, AttributeError):
        pass
    return screen, note


def _desktop_key(index: int, fallback: tuple[int, int]) -> str:
    try:
        sizes = pygame.display.get_desktop_sizes()
    except pygame.error:
        sizes = []
    size = sizes[index] if index < len(sizes) else (sizes[-1] if sizes else fallback)
    return display_key(size, index)


def _build_ahead(state: Any) -> None:
    """What the arena's first wall contact and first sight line would build (the walls
    grown by every base in the game, the sight levels), built on a thread of its own,
    so that no frame (the first drag against a wall) pays for it; a daemon, so a window
    closed early does not wait for it."""
    radii = [c.radius for c in state.cards.values()] + [b.radius for b in state.bots.values()]
    reaches = wall_reaches(state.rules, radii)

    def build() -> None:
        state.index.build_ahead(reaches)
        barriers(state.index)               # the walls and doors a first shot is tested on

    threading.Thread(target=build, name="build-ahead", daemon=True).start()


def _journal_header(state: Any) -> None:
    """The journal's header text (the rules, the whole arena, the cards as data: 0.1 s
    on an arena of 2,000 features), made once, so that the frame holding the first
    action only writes it (`journal.static_text`; a second caller waits for the first)."""
    from bottisota.play.journal import static_text

    static_text(state)


def _journal_ahead(state: Any) -> None:
    """`_journal_header` on a thread of its own after the first frame (a robot seat's
    thread also asks for it before its first decision)."""
    threading.Thread(target=_journal_header, args=(state,), name="build-ahead-journal",
                     daemon=True).start()


def _join_workers() -> None:
    """Waits for the threads `play` started (the arena built ahead, a robot deciding)
    before the window is closed: one still inside Shapely or the rules while Python
    shuts down may crash it."""
    for thread in threading.enumerate():
        if thread.daemon and thread.name.startswith(("build-ahead", "robot-", "labels")):
            thread.join()


def _play(args: argparse.Namespace, players: list[str], screen: pygame.Surface,
          note: str | None = None) -> int:
    holder: dict[str, Any] = {}

    def ask(purpose: str) -> int:
        app = holder.get("app")
        if app is not None:
            return app.ask_die(purpose)
        return read_typed_die(screen, purpose, lambda: screen.fill(style.BACKGROUND))

    dice = Dice(ask=ask) if args.physical_dice else None
    robots_only = False
    if args.resume:
        from bottisota.play.journal import resume  # a new game writes its journal later

        game = resume(args.resume, ask if args.physical_dice else None)
        journal_name = str(args.resume)
        arena_path = Path(game.state.arena.source)
        players = list(game.state.players)
    else:
        journal_path = new_journal_path()
        robots_only = {p for p, _name in parse_robot_specs(args.robot, players)} >= set(players)
        game, arena_path = build_game(args.arena, players, args.seed, dice, journal_path,
                                      rules=args.house_rules, robots_only=robots_only)
        journal_name = str(journal_path)
    _build_ahead(game.state)
    # no game given: a robot builds its maps when it first moves, after the first frame
    robots = robot_seats(args.robot, players)
    key = _desktop_key(0, screen.get_size())
    cal, notes = load_calibration(key)
    app = TableApp(game, screen.get_size(), screen=screen, robots=robots,
                   journal_name=journal_name, physical_dice=args.physical_dice, calibration=cal,
                   ui_scale=args.ui_scale, robot_pace=0.0 if args.headless else args.robot_pace)
    app.windows.calibration_key = lambda: _desktop_key(
        1 if app.windows.projector is not None else 0, screen.get_size())
    app.windows.calibration_saver = save_calibration
    app.windows.open_projector = lambda a: _open_projector(a, screen)
    app.after_first_frame.append(lambda: _journal_ahead(app.game.state))
    app.frame.labels_in_background = True   # a crowded table's labels placed off the frame
    app.vm.panel = args.panel
    if robots and not args.phones:          # robot decisions off the frame loop
        app.actions.robot_worker = RobotWorker(app.frame.overlays,
                                               prepare=lambda: _journal_header(app.game.state))
    app.windows.camera = app.windows.fit_camera()               # the table's area with that panel
    app.vm.reading_distance_cm = args.distance * 100.0
    holder["app"] = app
    if args.camera:
        CAMERAS.append(_start_camera(app, args))
    notice = getattr(game.journal, "notice", None)
    if notice:          # a torn last line was cut on resume, or an old journal version
        app.say(_("journal: {notice}").format(notice=notice), "alarm")
    for text in notes + ([note] if note else []):
        app.say(text, "alarm")
    if cal is not None:
        app.vm.true_scale = True
        app.windows.camera = app.windows.fit_camera()
    if args.edit:
        from bottisota.view.edit_reload import EditReloader  # designers' --edit only

        app.reloader = EditReloader(arena_path, edit_loader(args, game, arena_path, robots_only),
                                    [Path(args.rules)] if args.rules else None)
    if args.projector and not args.headless:
        app.windows.toggle_projector()
    if args.phones:
        # the phone server (asyncio, starlette, uvicorn, QR codes) only when asked for
        from bottisota.view.phone_links import PhoneTable
        from bottisota.web.server import listening_on, start_phones

        host = args.host or PHONES_HOST
        try:        # bound first; the links below are printed once it takes connections
            phones = start_phones(game, journal_name, host=host, port=args.phones_port,
                                  commit=args.phones_commit, physical=args.physical_dice,
                                  robots=robots, session=app.session)
        except OSError as err:
            print(_("bottisota: the phone server could not start: {err}").format(err=err),
                  file=sys.stderr)
            return 2
        app.phones = PhoneTable(phones)
        for link in phones.links:
            print(printable(f"{link.seat}: {link.url}"), flush=True)
        print(listening_on(host), flush=True)
        app.say(_("phones: each seat scans its QR code (F6 hides the links)"), "dim")
        try:
            code = _headless(app, args) if args.headless else _run(app)
        finally:
            phones.stop()
        if not args.headless:
            _goodbye(game, journal_name)
        return code
    if args.headless:
        return _headless(app, args)
    app.run()
    _goodbye(game, journal_name)
    return 0


def _goodbye(game: Any, journal_name: str) -> None:
    """On closing the window: where the game is saved and how to go on with it."""
    path = Path(journal_name)
    if not path.is_file():
        print(_("no action was taken: nothing was saved"))
        return
    print(_("the game is saved in {path}").format(path=path))
    if not game.state.over:
        print(_("go on with it: bottisota play --resume {path}").format(path=path))


def _open_projector(app: WindowHost, screen: pygame.Surface) -> ProjectorWindow:
    """The projector's window (key F5 or --projector), on the second display."""
    from bottisota.view.projector import ProjectorWindow  # only when a projector is opened

    return ProjectorWindow.open(app, 1, load_calibration(_desktop_key(1, screen.get_size()))[0])


def _run(app: TableApp) -> int:
    """The window's loop (TableApp.run), each frame run by `PhoneTable.frame`."""
    clock = pygame.time.Clock()
    phones = app.phones
    assert phones is not None
    while app.running:
        dt = clock.tick(FPS) / 1000.0
        phones.frame(app, dt)
        pygame.display.flip()
        app.settle()
    return 0


def _headless(app: TableApp, args: argparse.Namespace) -> int:
    """Frames without a window: robot seats act each frame; stops after --frames, or
    when a frame changes nothing (the game is over or a human seat is due)."""
    frames = 0
    idle = 0
    while app.running and (args.frames is None or frames < args.frames):
        before = app.vm.version
        if app.phones is not None:
            app.phones.frame(app, 1.0 / 60)
        else:
            app.step(1.0 / 60)
        frames += 1
        app.settle()
        worker = app.actions.robot_worker
        if worker is not None and worker.pending:   # a robot decides: frames go on at 60 Hz
            worker.wait(1.0 / 60)                   # (a decision made, not yet acted on,
            continue                                # is not an idle frame either)
        idle = idle + 1 if app.vm.version == before else 0
        if args.frames is None and idle >= 2:
            check = app.camera_hooks.check
            if check is None or check.feed.idle:
                break
            time.sleep(0.01)            # the camera's reading is still to come
    if args.screenshot:
        # drawn at once: a frame after an action may leave its panel's new words to
        # the next frame, and the picture must show the panel as the table stands
        pygame.image.save(app.draw(), args.screenshot)
    print(printable(turn_line(app.game)))
    for line in app.vm.log.lines[-5:]:
        print(printable(("(undone) " if line.undone else "") + line.text))
    failed = app.actions.journal_error
    if failed is not None:      # the game could not go on: its journal's code (74)
        raise failed
    return 0
