"""Robot-only games in parallel processes (for `bottisota simulate`, whose options and
report are in bottisota.commands.simulate).

Game i is seeded with `seed * SEED_STRIDE + i`, so the figures do not depend on
`--jobs`. The report gives per personality and per bot card: win rate with a
95% Wilson interval (outright wins; shared first places are not wins), kills,
damage dealt and taken per game, rounds survived per bot, goal points per game
and the median range of the shots each personality fired.
"""
from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Callable
from functools import partial
from multiprocessing import get_context
from multiprocessing.pool import Pool
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TypedDict

from bottisota.core.arena import Arena
from bottisota.core.cards import BotCard, Mod
from bottisota.core.errors import InputError, Problem
from bottisota.core.house_rules import HouseRules
from bottisota.core.i18n import N_
from bottisota.formats.content import given_folders, use_folders
from bottisota.formats.robot_tables import Personality
from bottisota.formats.spec_types import did_you_mean
from bottisota.robot.match import play
from bottisota.robot.personalities import personality
from bottisota.robot.stats import GameRecord

SEED_STRIDE = 100_003
DEFAULT_ROUND_LIMIT = 10        # robot games end here unless told otherwise (D24)
DEFAULT_ROBOTS = "aggressive,sniper"

if TYPE_CHECKING:
    from bottisota.robot.sweep import Override


class World(TypedDict):
    """What a game needs, loaded once per process (`setup`)."""

    arena: Arena
    rules: HouseRules
    cards: dict[str, BotCard]
    mods: dict[str, Mod]
    personalities: list[Personality]


# what a process needs to set itself up to play (`init_args`; picklable): arena,
# robots, locomotion, cards, round limit, time limit, rules, journals folder, content
# folders, card overrides, journal_game
InitArgs = tuple[str, list[str], str | None, str | None, int | None, float | None,
                 HouseRules | None, str | None, list[str] | None, tuple["Override", ...],
                 Callable[..., object] | None]


class Worker(TypedDict, total=False):
    """A process's set-up (filled by `_init`): the world (`World`'s keys) and how its
    games are played and journaled."""

    arena: Arena
    rules: HouseRules
    cards: dict[str, BotCard]
    mods: dict[str, Mod]
    personalities: list[Personality]
    journals: str | None
    journal_game: Callable[..., object] | None
    round_limit: int | None
    time_limit: float | None
    init: InitArgs


class Progress(Protocol):
    """A progress bar (tqdm's): told of each game played."""

    def update(self, n: float | None = 1) -> bool | None: ...

    def close(self) -> None: ...


_WORKER: Worker = {}


def arena_path(name: str) -> Path:
    """A path as given, or an arena by name (the designer's folders, then bundled)."""
    from bottisota.formats.content import find

    return find("arena", name)


def deal(cards: dict[str, BotCard], locomotion: str | None,
         ids: str | None) -> dict[str, BotCard]:
    """The bot cards a game deals from, filtered by locomotion or ids."""
    out = dict(cards)
    if locomotion:
        wanted = {w.strip() for w in locomotion.split(",") if w.strip()}
        out = {k: c for k, c in out.items() if c.locomotion in wanted}
    if ids:
        wanted = {w.strip() for w in ids.split(",") if w.strip()}
        unknown = wanted - set(cards)
        if unknown:
            first = sorted(unknown)[0]
            raise InputError([Problem("--cards", 0, 0, "", N_("no bot card has the id ")
                                      + ", ".join(sorted(unknown))
                                      + did_you_mean(first, sorted(cards))
                                      + " (cards: " + ", ".join(sorted(cards)) + ")")])
        out = {k: c for k, c in out.items() if k in wanted}
    if not out:
        raise InputError([Problem("--locomotion/--cards", 0, 0, "",
                N_("no bot card is left to deal"))])
    return out


def setup(arena: str, robots: list[str], locomotion: str | None = None,
          cards: str | None = None, rules: HouseRules | None = None,
          overrides: tuple[Override, ...] = ()) -> World:
    """Everything a game needs, loaded once per process (`overrides`: a sweep's card
    changes, `Override`s)."""
    from bottisota.formats.loading import bundled_rules, load_arena, load_catalogue

    rules = rules or bundled_rules()
    catalogue, mods = load_catalogue()
    for override in overrides:
        catalogue = override.apply(catalogue)
    return {"arena": load_arena(arena_path(arena), rules), "rules": rules,
            "cards": deal(catalogue, locomotion, cards), "mods": mods,
            "personalities": [personality(r) for r in robots]}


def _init(arena: str, robots: list[str], locomotion: str | None, cards: str | None,
          round_limit: int | None, time_limit: float | None, rules: HouseRules | None = None,
          journals: str | None = None, folders: list[str] | None = None,
          overrides: tuple[Override, ...] = (),
          journal_game: Callable[..., object] | None = None) -> None:
    from bottisota.robot.navigation import load_solver, prepare

    load_solver()       # before any fork: workers must not import it after the fork

    if folders is not None:
        use_folders(folders)          # a spawned worker starts without the --content folders
    world = setup(arena, robots, locomotion, cards, rules, overrides)
    _WORKER["arena"], _WORKER["rules"] = world["arena"], world["rules"]
    _WORKER["cards"], _WORKER["mods"] = world["cards"], world["mods"]
    _WORKER["personalities"] = world["personalities"]
    _WORKER["journals"] = journals if journal_game is not None else None
    _WORKER["journal_game"] = journal_game
    # the games' own rules (their round limit): the same compiled arena and maps
    game_rules = _WORKER["rules"]
    if round_limit is not None:
        game_rules = game_rules.overridden({"round_limit": round_limit})
    prepare(_WORKER["arena"], game_rules, _WORKER["cards"].values())
    _WORKER["round_limit"] = round_limit
    _WORKER["time_limit"] = time_limit


Unit = tuple[int, bool]          # a game: its seed, and whether its seats are swapped


def units(games: int, seed: int = 1, mirror: bool = True, first: int = 0) -> list[Unit]:
    """The games to play: seeds `seed * SEED_STRIDE + first + k`; with `mirror`, each seed
    twice, the second time with the seats swapped (the other personality starts and draws
    the first card), so the luck of the draw and of the first seat cancel out."""
    if not mirror:
        return [(seed * SEED_STRIDE + first + k, False) for k in range(games)]
    pairs = (games + 1) // 2
    return [(seed * SEED_STRIDE + first + k, swapped)
            for k in range(pairs) for swapped in (False, True)]


def _play(unit: Unit | int) -> GameRecord:
    seed, swapped = unit if isinstance(unit, tuple) else (unit, False)
    w = _WORKER
    journals, journal_game = w.get("journals"), w.get("journal_game")
    start = (partial(journal_game, path=str(journal_file(journals, seed, swapped)))
             if journals and journal_game is not None else None)
    people = w["personalities"][::-1] if swapped else w["personalities"]
    record = play(w["arena"], w["rules"], w["cards"], w["mods"], people, seed,
                  w["round_limit"], w["time_limit"], on_start=start)
    record.mirrored = swapped
    return record


def play_batch(init: InitArgs, batch: list[Unit]) -> list[GameRecord]:
    """Play these games in this process, set up for `init` (once per process and set-up:
    how a cluster worker plays its share)."""
    global _WORKER
    if _WORKER.get("init") != init:
        _WORKER = {}
        _init(*init)
        _WORKER["init"] = init
    return [_play(u) for u in batch]


def journal_file(folder: str | Path, seed: int, swapped: bool = False) -> Path:
    """Where game `seed`'s journal goes (its seats-swapped twin's: game-SEED-swapped)."""
    return Path(folder) / (f"game-{seed}-swapped.jsonl" if swapped else f"game-{seed}.jsonl")


def order(records: list[GameRecord]) -> list[GameRecord]:
    """Records in the order of their games: by seed, the seats-swapped twin second."""
    return sorted(records, key=lambda r: (r.seed, r.mirrored))


class Runner:
    """Plays batches of games on this machine, in `jobs` processes kept open between
    batches (`simulate --until-decided` plays many)."""

    def __init__(self, init: InitArgs, jobs: int = 1) -> None:
        self.init = init
        self.jobs = jobs
        self.pool: Pool | None = None
        if jobs <= 1:
            play_batch(init, [])
            return
        forking = _can_fork()
        ctx = get_context("fork" if forking else _fresh_start_method())
        # prepare once here: forked workers inherit the loaded cards and the prepared
        # navigation maps, fresh ones read the maps this wrote to the disk cache
        # (geometry.build_cache), instead of each building them again
        play_batch(init, [])
        pool_args = ({"initializer": _forked} if forking
                     else {"initializer": _init, "initargs": init})
        self.pool = ctx.Pool(jobs, **pool_args)

    def play(self, batch: list[Unit], bar: Progress | None = None) -> list[GameRecord]:
        """The batch's records, in the games' order."""
        records: list[GameRecord] = []
        if self.pool is None:
            for u in batch:
                records.append(_play(u))
                if bar is not None:
                    bar.update()
            return order(records)
        chunk = max(1, min(16, len(batch) // (self.jobs * 8) or 1))
        try:
            for record in self.pool.imap_unordered(_play, batch, chunksize=chunk):
                records.append(record)
                if bar is not None:
                    bar.update()
        except BaseException:
            self.close(terminate=True)
            raise
        return order(records)

    def close(self, terminate: bool = False) -> None:
        if self.pool is not None:
            if terminate:
                self.pool.terminate()
            else:
                self.pool.close()        # all games are in: let the workers finish and leave
            self.pool.join()
            self.pool = None

    def __enter__(self) -> Runner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close(terminate=exc[0] is not None)


def init_args(arena: str, robots: list[str], locomotion: str | None = None,
              cards: str | None = None, round_limit: int | None = DEFAULT_ROUND_LIMIT,
              time_limit: float | None = None, rules: HouseRules | None = None,
              journals: str | Path | None = None, overrides: tuple[Override, ...] = (),
              journal_game: Callable[..., object] | None = None) -> InitArgs:
    """What a process needs to set itself up to play (picklable: sent to workers).
    With `journals`, every game is journaled there by `journal_game(game, path=...)`
    (play.journal's, handed over by the command: robot does not import play)."""
    return (arena, robots, locomotion, cards, round_limit, time_limit, rules,
            str(journals) if journals else None, given_folders(), overrides, journal_game)


def run(arena: str, robots: list[str], games: int, jobs: int = 1, seed: int = 1,
        round_limit: int | None = DEFAULT_ROUND_LIMIT, locomotion: str | None = None,
        cards: str | None = None, time_limit: float | None = None, progress: bool = False,
        rules: HouseRules | None = None, journals: str | Path | None = None,
        mirror: bool = False, overrides: tuple[Override, ...] = (),
        journal_game: Callable[..., object] | None = None) -> list[GameRecord]:
    """Play the games (in `jobs` processes) and return their records in the games'
    order; with `journals` (and `journal_game`, see init_args), every game is journaled
    there as game-SEED.jsonl."""
    batch = units(games, seed, mirror)
    init = init_args(arena, robots, locomotion, cards, round_limit, time_limit, rules,
                     journals, overrides, journal_game)
    bar: Progress | None = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(batch), unit="game", file=sys.stderr)
    try:
        with Runner(init, jobs) as runner:
            return runner.play(batch, bar)
    finally:
        if bar is not None:
            bar.close()


def _start_methods() -> list[str]:
    from multiprocessing import get_all_start_methods

    return get_all_start_methods()


def _can_fork() -> bool:
    """Fork (sharing the prepared maps) only from a single-threaded process: a fork taken
    while another thread holds a lock (a web server, a pygame window) can deadlock."""
    return "fork" in _start_methods() and threading.active_count() == 1


def _fresh_start_method() -> str:
    return "forkserver" if "forkserver" in _start_methods() else "spawn"


def _forked() -> None:
    """A forked worker dies on the pool's SIGTERM, even if the parent had a window that
    had turned SIGTERM into a quit event."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def worst_games(records: list[GameRecord], count: int = 5) -> list[GameRecord]:
    """The games most worth watching: those a rules error stopped or with refused robot
    actions, else the most one-sided (most kills by the winners) and the longest."""
    broken = [r for r in records if r.errors or r.refusals]
    if broken:
        return broken

    def lopsided(r: GameRecord) -> tuple[bool, int, int]:
        top = sum(r.players[p].kills for p in r.winners if p in r.players)
        return (len(r.winners) == 1, top, r.rounds)

    return sorted(records, key=lopsided, reverse=True)[:count]


def keep_journals(records: list[GameRecord], folder: str | Path, keep: str) -> list[Path]:
    """Delete the journals not chosen by `keep` (all, worst or a number N: the first N
    games); the kept paths."""
    if keep == "all":
        chosen = records
    elif keep == "worst":
        chosen = worst_games(records)
    else:
        chosen = records[:int(keep)]
    wanted = {journal_file(folder, r.seed, r.mirrored) for r in chosen}
    for r in records:
        path = journal_file(folder, r.seed, r.mirrored)
        if path not in wanted and path.exists():
            path.unlink()
    return sorted(p for p in wanted if p.exists())
