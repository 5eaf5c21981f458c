"""`bottisota serve [ARENA] [--host H] [--port P]`: the game served to phones, with no
pygame window (a browser on the laptop, opened with the table's link, is the table).

The port is bound first; then the game and its journal are made, and each seat's
link is printed once the server can take its connection (a taken port: one
message, exit 2, no files). Plain `serve` listens on this machine only
(127.0.0.1); `--host 0.0.0.0` (or a LAN address) lets phones on the network join.
`--robot blue` gives a seat to a robot, which the server plays (`--robot-pace`
seconds after each action) while anyone is connected.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from bottisota.core.dice import by_hand
from bottisota.core.errors import InputError, Problem
from bottisota.core.i18n import _
from bottisota.core.printable import printable
from bottisota.engine.game import Game
from bottisota.formats.content import DEFAULT_ARENA, arenas_dir
from bottisota.formats.loading import bundled_rules, load_arena, load_catalogue
from bottisota.play.journal import journal_game, new_journal_path, resume
from bottisota.viewmodel.session import RobotSeat, parse_robot_specs, robot_seats
from bottisota.web.hub import Hub
from bottisota.web.server import BindError, bind, listening_on, serve_forever
from bottisota.web.table_link import public_host, seat_links
from bottisota.web.tokens import seat_tokens

DEFAULT_PORT = 8765


def configure_parser(p: argparse.ArgumentParser) -> None:
    p.add_argument("arena", nargs="?", help=_("arena file or bundled arena name (default: "
                                              "warehouse)"))
    p.add_argument("--players", default="red,blue", help=_("seat names in order (default "
                                                           "red,blue)"))
    p.add_argument("--seed", type=int, help=_("dice seed (default: a fresh one, journaled)"))
    p.add_argument("--physical-dice", action="store_true",
                   help=_("players type their physical dice on the phone (needs --phones-commit)"))
    p.add_argument("--phones-commit", action="store_true",
                   help=_("let each seat commit its own actions on its own turn from its phone"))
    p.add_argument("--host", default="127.0.0.1",
                   help=_("address to listen on (default 127.0.0.1, this machine only; "
                          "0.0.0.0 for the local network)"))
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=_("port (default "
                                                                    "{default_port})").format(
                                                                      default_port=DEFAULT_PORT))
    p.add_argument("--resume", metavar="GAME.jsonl",
                   help=_("go on with a journaled game; phones rejoin with the same links"))
    p.add_argument("--robot", action="append", default=[], metavar="PLAYER[:PERSONALITY]",
                   help=_("a seat played by a robot: blue, blue:sniper, or red,blue "
                          "(repeatable)"))
    p.add_argument("--robot-pace", type=float, default=1.5, metavar="SECONDS",
                   help=_("robot seats wait this long after each action (default 1.5)"))


def _journal_dir() -> Path:
    """Where saved games go (the same place as `play`'s)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "bottisota" / "games"


def _arena_file(name: str | None) -> Path:
    name = name or DEFAULT_ARENA
    for c in (Path(name), arenas_dir() / name, arenas_dir() / f"{name}.yaml"):
        if c.is_file():
            return c
    raise InputError([Problem(name, 0, 0, "", _("no such arena file (nor a bundled arena of "
                                                "that name)"))])


def _players(text: str) -> list[str]:
    players = [p.strip() for p in text.split(",") if p.strip()]
    if not players or len(set(players)) != len(players) or "table" in players:
        raise InputError([Problem("--players", 0, 0, "", _("give one or more distinct names "
                                                           "(not 'table'), e.g. red,blue"))])
    return players


def check_options(args: argparse.Namespace) -> None:
    """Options that do not fit together, refused before anything is made."""
    if args.robot and args.physical_dice:
        raise InputError([Problem("--robot", 0, 0, "", _(
            "robot seats roll their own decisions: a served game with robots cannot use "
            "--physical-dice"))])
    if args.physical_dice and not args.phones_commit:
        raise InputError([Problem("--physical-dice", 0, 0, "", _("phones type the dice only "
                                                                 "when they commit: add "
                                                                 "--phones-commit"))])
    if args.physical_dice and not args.resume:
        # the starting player and the first draw are rolled before any phone has joined
        raise InputError([Problem("--physical-dice", 0, 0, "", _(
            "a served game rolls its start before any phone joins: start it at the table "
            "with `bottisota play --physical-dice`, then serve it with --resume GAME.jsonl "
            "--physical-dice --phones-commit"))])
    if not args.robot_pace >= 0:
        raise InputError([Problem("--robot-pace", 0, 0, "", _("must be 0 or more seconds"))])
    if not 0 <= args.port <= 65535:
        raise InputError([Problem("--port", 0, 0, "", _("expected 0 to 65535, not {port}").format(
                                                          port=args.port))])


def build(args: argparse.Namespace) -> tuple[Any, Hub, str]:
    """The game (new or resumed), its hub and journal path."""
    check_options(args)
    if args.resume:
        journal = str(args.resume)
        # dice rolled by hand come typed with each commit (the game waits for the next)
        game = resume(journal, by_hand if args.physical_dice else None)
    else:
        players = _players(args.players)
        parse_robot_specs(args.robot, players)    # a bad seat is refused before anything else
        rules = bundled_rules()
        if {p for p, _name in parse_robot_specs(args.robot, players)} >= set(players):
            rules = rules.for_robots_only()         # D48: a robots-only game ends
        arena = load_arena(_arena_file(args.arena), rules)
        cards, mods = load_catalogue()
        folder = _journal_dir()
        folder.mkdir(parents=True, exist_ok=True)
        game = Game.new(arena, rules, cards, mods, players, seed=args.seed)
        journal = str(new_journal_path(folder))
        journal_game(game, journal)
    tokens = seat_tokens(journal, list(game.state.players), robots=[
        p for p, _name in parse_robot_specs(args.robot, list(game.state.players))])
    robots = robot_seats(args.robot, list(game.state.players), game)
    hub = Hub(game, tokens, commit=args.phones_commit, physical=args.physical_dice,
              robots=robots, drive_robots=True, robot_pace=args.robot_pace)
    return game, hub, journal


def main(args: argparse.Namespace) -> int:
    """Bind the port, then make or resume the game, then print the links and serve:
    a taken port is one message and exit 2, with no journal or seats file made."""
    check_options(args)
    try:
        sock = bind(args.host, args.port)
    except BindError as err:
        print(_("bottisota: {err}").format(err=err), file=sys.stderr)
        return 2
    try:
        game, hub, journal = build(args)
    except BaseException:
        sock.close()
        raise
    port = sock.getsockname()[1]
    humans = {n: t for n, t in hub_tokens(hub).items() if n not in hub.robots}
    links = seat_links(humans, public_host(args.host), port, table=True)
    for link in links:
        print(printable(f"{link.seat}: {link.url}"), flush=True)
    for player, robot in hub.robots.items():
        name = robot.personality.name if isinstance(robot, RobotSeat) else "?"
        print(printable(_("{player}: played by a robot ({personality})").format(
            player=player, personality=name)), flush=True)
    print(_("journal: {journal}").format(journal=journal), flush=True)
    print(listening_on(args.host), flush=True)
    serve_forever(hub, args.host, port, sock=sock)
    return 0


def hub_tokens(hub: Hub) -> dict[str, str]:
    return {name: seat.token for name, seat in hub.seats.items()}
