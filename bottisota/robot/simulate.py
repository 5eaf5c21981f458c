"""`bottisota simulate ARENA --robots aggressive,sniper --games 1000`: robot-only games
in parallel processes, and the balance report they add up to.

Game i is seeded with `seed * SEED_STRIDE + i`, so the figures do not depend on
`--jobs`. The report gives per personality and per bot card: win rate with a
95% Wilson interval (outright wins; shared first places are not wins), kills,
damage dealt and taken per game, rounds survived per bot, goal points per game
and the median range of the shots each personality fired.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from multiprocessing import get_context
from pathlib import Path

from bottisota.core.errors import InputError, Problem
from bottisota.robot.match import play
from bottisota.robot.personalities import personality
from bottisota.robot.stats import GameRecord, card_rows, personality_rows, table

SEED_STRIDE = 100_003
DEFAULT_ROUND_LIMIT = 10        # robot games end here unless told otherwise (D24)
DEFAULT_ROBOTS = "aggressive,sniper"

_WORKER: dict = {}


def configure_parser(p: argparse.ArgumentParser) -> None:
    """The `simulate` subcommand's options."""
    p.add_argument("arena", help="arena file, or the name of a bundled arena (warehouse)")
    p.add_argument("--robots", default=DEFAULT_ROBOTS,
                   help="personalities, one per seat: bundled names or robot files "
                        f"(default {DEFAULT_ROBOTS})")
    p.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    p.add_argument("--jobs", type=int, default=None,
                   help="worker processes (default: the number of cores)")
    p.add_argument("--seed", type=int, default=1, help="first seed (default 1)")
    p.add_argument("--round-limit", type=int, default=DEFAULT_ROUND_LIMIT,
                   help=f"rounds per game (default {DEFAULT_ROUND_LIMIT})")
    p.add_argument("--locomotion", default=None,
                   help="deal only bot cards of these locomotions (comma-separated)")
    p.add_argument("--cards", default=None, help="deal only these bot cards (comma-separated ids)")
    p.add_argument("-o", "--output", default=None, help="write the chart to this PNG file")
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def arena_path(name: str) -> Path:
    """A path as given, or a bundled arena by name."""
    from bottisota.formats.content import arenas_dir

    path = Path(name)
    if path.is_file():
        return path
    for candidate in (arenas_dir() / name, arenas_dir() / f"{name}.yaml"):
        if candidate.is_file():
            return candidate
    known = ", ".join(sorted(p.stem for p in arenas_dir().glob("*.yaml")))
    raise InputError([Problem(name, 0, 0, "", f"no such arena file or bundled arena; "
                                              f"bundled: {known}")])


def deal(cards: dict, locomotion: str | None, ids: str | None) -> dict:
    """The bot cards a game deals from, filtered by locomotion or ids."""
    out = dict(cards)
    if locomotion:
        wanted = {w.strip() for w in locomotion.split(",") if w.strip()}
        out = {k: c for k, c in out.items() if c.locomotion in wanted}
    if ids:
        wanted = {w.strip() for w in ids.split(",") if w.strip()}
        unknown = wanted - set(cards)
        if unknown:
            raise InputError([Problem("--cards", 0, 0, "", "no bot card has the id "
                                      + ", ".join(sorted(unknown)))])
        out = {k: c for k, c in out.items() if k in wanted}
    if not out:
        raise InputError([Problem("--locomotion/--cards", 0, 0, "", "no bot card is left to deal")])
    return out


def setup(arena: str, robots: list[str], locomotion: str | None = None,
          cards: str | None = None) -> dict:
    """Everything a game needs, loaded once per process."""
    from bottisota.formats.loading import bundled_rules
    from bottisota.formats.loading import load_arena, load_catalogue

    rules = bundled_rules()
    catalogue, mods = load_catalogue()
    return {"arena": load_arena(arena_path(arena), rules), "rules": rules,
            "cards": deal(catalogue, locomotion, cards), "mods": mods,
            "personalities": [personality(r) for r in robots]}


def _init(arena: str, robots: list[str], locomotion: str | None, cards: str | None,
          round_limit: int | None, time_limit: float | None) -> None:
    from bottisota.robot.navigation import load_solver, prepare

    load_solver()       # before any fork: workers must not import it after the fork
    _WORKER.update(setup(arena, robots, locomotion, cards))
    # the games' own rules (their round limit): the same compiled arena and maps
    rules = _WORKER["rules"]
    if round_limit is not None:
        rules = rules.overridden({"round_limit": round_limit})
    prepare(_WORKER["arena"], rules, _WORKER["cards"].values())
    _WORKER["round_limit"] = round_limit
    _WORKER["time_limit"] = time_limit


def _play(seed: int) -> GameRecord:
    w = _WORKER
    return play(w["arena"], w["rules"], w["cards"], w["mods"], w["personalities"], seed,
                w["round_limit"], w["time_limit"])


def run(arena: str, robots: list[str], games: int, jobs: int = 1, seed: int = 1,
        round_limit: int | None = DEFAULT_ROUND_LIMIT, locomotion: str | None = None,
        cards: str | None = None, time_limit: float | None = None, progress: bool = False
        ) -> list[GameRecord]:
    """Play the games (in `jobs` processes) and return their records in seed order."""
    seeds = [seed * SEED_STRIDE + i for i in range(games)]
    init = (arena, robots, locomotion, cards, round_limit, time_limit)
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=games, unit="game", file=sys.stderr)
    records: list[GameRecord] = []
    if jobs <= 1:
        _init(*init)
        for s in seeds:
            records.append(_play(s))
            if bar is not None:
                bar.update()
    else:
        forking = "fork" in _start_methods()
        ctx = get_context("fork" if forking else "spawn")
        if forking:
            # prepare once here: the workers inherit the loaded cards and the prepared
            # navigation maps instead of each building them again
            _init(*init)
        pool_args = {} if forking else {"initializer": _init, "initargs": init}
        with ctx.Pool(jobs, **pool_args) as pool:
            chunk = max(1, min(16, games // (jobs * 8) or 1))
            for record in pool.imap_unordered(_play, seeds, chunksize=chunk):
                records.append(record)
                if bar is not None:
                    bar.update()
    if bar is not None:
        bar.close()
    return sorted(records, key=lambda r: r.seed)


def _start_methods() -> list[str]:
    from multiprocessing import get_all_start_methods

    return get_all_start_methods()


def report(records: list[GameRecord], seconds: float | None = None) -> str:
    """The terminal report: both tables and a summary."""
    people, cards = personality_rows(records), card_rows(records)
    lines = [table("personality", people), "", table("bot card", cards), ""]
    refusals = [f for r in records for f in r.refusals]
    slowest = max((r.slowest for r in records), default=0.0)
    timeouts = sum(r.timeouts for r in records)
    summary = (f"{len(records)} games, {sum(r.rounds for r in records) / max(len(records), 1):.1f} "
               f"rounds on average; slowest decision {1000 * slowest:.0f} ms, "
               f"{timeouts} searches cut by the time limit; {len(refusals)} refused actions")
    if seconds:
        summary += f"; {len(records) / seconds:.1f} games/s"
    lines.append(summary)
    errors = [f"seed {r.seed}: {e}" for r in records for e in r.errors]
    if errors:
        lines.append(f"{len(errors)} games stopped by an error in the rules:")
    lines += [f"  refused: {r}" for r in refusals[:5]]
    lines += [f"  error: {e}" for e in errors[:5]]
    return "\n".join(lines)


def main(args: argparse.Namespace) -> int:
    """Run `bottisota simulate`; exit 1 when a robot made an illegal action or a game
    stopped on an error."""
    robots = [r.strip() for r in args.robots.split(",") if r.strip()]
    if len(robots) < 2:
        raise InputError([Problem("--robots", 0, 0, "", "name at least two personalities, "
                                  "one per seat (aggressive,sniper)")])
    if args.games < 1:
        raise InputError([Problem("--games", 0, 0, "", "play at least one game")])
    setup(args.arena, robots, args.locomotion, args.cards)   # bad input fails here, once
    jobs = args.jobs or os.cpu_count() or 1
    started = time.perf_counter()
    records = run(args.arena, robots, args.games, jobs, args.seed, args.round_limit,
                  args.locomotion, args.cards,
                  progress=not args.quiet)
    took = time.perf_counter() - started
    print(report(records, took))
    if args.output:
        from bottisota.view.chart import draw_chart

        draw_chart(args.output, [("personality", personality_rows(records)),
                                 ("bot card", card_rows(records))],
                   title=f"{Path(args.arena).stem}: {len(records)} games, "
                         f"{' vs '.join(robots)}")
        print(f"chart written to {args.output}")
    return 1 if any(r.refusals or r.errors for r in records) else 0
