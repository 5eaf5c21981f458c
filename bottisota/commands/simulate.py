"""`bottisota simulate ARENA --robots aggressive,sniper --games 1000`: robot-only games
and the balance report they add up to.

Game i is seeded with `seed * SEED_STRIDE + i`, so the figures do not depend on
`--jobs`. The report gives per personality and per bot card: wins (outright),
draws (a shared first place) and losses with 95% Wilson intervals, kills, damage
dealt and taken per game, rounds survived per bot, goal points per game and the
median range of the shots each personality fired. It says when the intervals are
too wide to rank and how many games would do, and gives each card a rating and a
verdict (OVER- or UNDER-powered, even, at the margin: robot.rating), in the table and
the chart.
`--journals DIR --keep worst|all|N` keeps the journals of chosen games to replay.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from bottisota.commands.options import add_content, add_rules, house_rules
from bottisota.core.errors import InputError, Problem
from bottisota.core.i18n import _, ngettext, number
from bottisota.core.printable import printable
from bottisota.robot.rating import (
    ALPHA,
    DEFAULT_MARGIN,
    DEFAULT_ZONE,
    Ratings,
    decision_text,
    look_alpha,
    rate,
)
from bottisota.robot.rating import summary as rating_summary
from bottisota.robot.rating import table as rating_table
from bottisota.robot.simulate import (
    DEFAULT_ROBOTS,
    DEFAULT_ROUND_LIMIT,
    Runner,
    init_args,
    keep_journals,
    order,
    setup,
    units,
)
from bottisota.robot.stats import (
    LEGEND,
    GameRecord,
    Row,
    card_by_card,
    card_by_personality,
    card_rows,
    endings,
    flag_text,
    personality_rows,
    ranking_note,
    table,
)
from bottisota.robot.sweep import Override
from bottisota.robot.sweep import parse as parse_sweep

if TYPE_CHECKING:
    from bottisota.robot.cluster import ClusterRunner


def configure_parser(p: argparse.ArgumentParser) -> None:
    """The `simulate` subcommand's options."""
    p.add_argument("arena", help=_("arena file, or the name of an arena (warehouse)"))
    p.add_argument("--robots", default=DEFAULT_ROBOTS,
                   help=_("personalities, one per seat: names or robot files (default "
                          "{default_robots})").format(
                            default_robots=DEFAULT_ROBOTS))
    p.add_argument("--games", type=int, default=100, help=_("games to play (default 100)"))
    p.add_argument("--jobs", type=int, default=None,
                   help=_("worker processes (default: the number of cores)"))
    p.add_argument("--seed", type=int, default=1, help=_("first seed (default 1)"))
    p.add_argument("--round-limit", type=int, default=DEFAULT_ROUND_LIMIT,
                   help=_("rounds per game (default {default_round_limit})").format(
                            default_round_limit=DEFAULT_ROUND_LIMIT))
    p.add_argument("--locomotion", default=None,
                   help=_("deal only bot cards of these locomotions (comma-separated)"))
    p.add_argument("--cards", default=None, help=_("deal only these bot cards "
                                                   "(comma-separated ids)"))
    p.add_argument("-o", "--output", default=None, help=_("write the chart to this PNG file"))
    p.add_argument("--journals", default=None, metavar="DIR",
                   help=_("keep the journals of chosen games in this folder (replay them "
                          "with `bottisota replay` or on the table)"))
    p.add_argument("--keep", default="worst", metavar="worst|all|N",
                   help=_("which journals to keep: worst (errors, refusals, else the most "
                          "one-sided games), all, or the first N games (default worst)"))
    p.add_argument("--mirror", action=argparse.BooleanOptionalAction, default=True,
                   help=_("play each seed twice, the second time with the seats swapped, so "
                          "the luck of the draw and of the first seat cancel out (default: "
                          "on; --no-mirror plays each seed once)"))
    p.add_argument("--until-decided", action="store_true",
                   help=_("after --games, keep doubling the games played until every card "
                          "is decided (OVER, UNDER, even or at the margin) or --max-games "
                          "are played"))
    p.add_argument("--max-games", type=int, default=20000,
                   help=_("the most games --until-decided plays (default 20000)"))
    p.add_argument("--margin", type=float, default=DEFAULT_MARGIN,
                   help=_("points of win chance against an average card within which a "
                          "card is even (default {margin})").format(margin=DEFAULT_MARGIN))
    p.add_argument("--zone", type=float, default=DEFAULT_ZONE,
                   help=_("points either side of the margin within which a card is at the "
                          "margin rather than flagged or even (default {zone})").format(
                            zone=DEFAULT_ZONE))
    p.add_argument("--sweep", default=None, metavar="CARD.KEY=A..B[:STEP]",
                   help=_("play the games once for each value of one number of one card "
                          "or weapon (brawler.armour=3..5, 'sniper.Rail gun.range=30..50:10')"))
    p.add_argument("--cluster", default=None, metavar="ADDRESS",
                   help=_("play the games on this Dask scheduler (tcp://host:8786; needs "
                          "the extra bottisota[cluster])"))
    p.add_argument("--quiet", action="store_true", help=_("no progress bar"))
    add_content(p)
    add_rules(p)


def report(records: list[GameRecord], seconds: float | None = None,
           ratings: Ratings | None = None) -> str:
    """The terminal report: the personality and card tables, the cards' ratings and what
    they decide (`ratings`: those of the last look, else one look at the games), the
    cross tables, draws with why they ended, and a summary."""
    ratings = ratings or rate(records)
    people, cards = personality_rows(records), decided_rows(card_rows(records), ratings)
    lines = [table(_("personality"), people), "", table(_("bot card"), cards), "",
             rating_table(ratings), *rating_summary(ratings), "",
             card_by_personality(records), "", card_by_card(records), ""]
    lines.append(f"{_('personalities')}: {ranking_note(people, len(records))}")
    for row in people:
        if row.flag:
            lo, hi = row.interval
            lines.append(_("  {v}: {label} wins {v2}% [{v3}-{v4}], clear of "
                           "the others pooled").format(
                             v=flag_text(row.flag), label=row.label,
                             v2=number(100 * row.rate, 1, fixed=True),
                             v3=number(100 * lo, 1, fixed=True),
                             v4=number(100 * hi, 1, fixed=True)))
    draws = sum(1 for r in records if len(r.winners) != 1)
    refusals = [f for r in records for f in r.refusals]
    slowest = max((r.slowest for r in records), default=0.0)
    mirrored = sum(1 for r in records if r.mirrored)
    summary = (_("{records} games ({draws} drawn: no sole winner), {v} rounds on "
                 "average; slowest decision {v2} ms; {refusals} refused actions").format(
                   records=len(records), draws=draws,
                   v=number(sum(r.rounds for r in records) / max(len(records), 1), 1, fixed=True),
                   v2=number(1000 * slowest, 0, fixed=True),
                   refusals=len(refusals)))
    if seconds:
        summary += _("; {records} games/s").format(
            records=number(len(records) / seconds, 1, fixed=True))
    lines.append(summary)
    if mirrored:
        lines.append(_("  {pairs} seeds played twice, the second time with the seats "
                       "swapped").format(pairs=mirrored))
    for why, count in endings(records):
        lines.append(_("  drawn: {count} × {why}").format(count=count, why=why))
    errors = [_("seed {seed}: {e}").format(seed=r.seed, e=e) for r in records for e in r.errors]
    if errors:
        lines.append(_("{errors} games stopped by an error in the rules:").format(
                         errors=len(errors)))
    lines += [_("  refused: {r}").format(r=r) for r in refusals[:5]]
    lines += [_("  error: {e}").format(e=e) for e in errors[:5]]
    lines += ["", _(LEGEND)]
    return "\n".join(lines)


def decided_rows(rows: list[Row], ratings: Ratings) -> list[Row]:
    """The card rows flagged by what their ratings decide (over or under only)."""
    flags = ratings.flagged()
    for row in rows:
        row.flag = flags.get(row.label, "")
    return rows


def _keep_value(keep: str) -> str:
    if keep in ("worst", "all") or keep.isdigit() and int(keep) > 0:
        return keep
    raise InputError([Problem("--keep", 0, 0, "", _("'{keep}': expected worst, all or a "
                                                    "number of games above 0").format(
                                                      keep=keep))])


def _runner(args: argparse.Namespace, init: tuple, jobs: int) -> Runner | ClusterRunner:
    if args.cluster:
        from bottisota.robot.cluster import ClusterRunner

        return ClusterRunner(args.cluster, init)
    return Runner(init, jobs)


class Played(NamedTuple):
    """The games of one set-up and the ratings of the last look at them."""

    records: list[GameRecord]
    ratings: Ratings


def play_games(args: argparse.Namespace, init: tuple, jobs: int,
               progress: bool) -> Played:
    """The games of one set-up: `--games` of them, and with `--until-decided` twice as
    many at each look until every card is decided or `--max-games` are played. Each
    look spends its share of the error rate (robot.rating.spent), so stopping early does
    not make false verdicts likelier; doubling keeps the looks few, so the last look
    keeps most of it. At the last look a card still straddling an edge of the zone is
    at the margin."""
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(unit="game", file=sys.stderr)
    try:
        with _runner(args, init, jobs) as runner:
            records = runner.play(units(args.games, args.seed, args.mirror), bar)
            before = 0.0
            while True:
                if not args.until_decided:
                    ratings = rate(records, args.margin, args.zone)
                    break
                now = min(len(records) / args.max_games, 1.0)
                last = len(records) >= args.max_games
                ratings = rate(records, args.margin, args.zone,
                               look_alpha(before, now, ALPHA), final=last)
                if last or ratings.decided():
                    break
                before = now
                seeds = len({r.seed for r in records})
                # the games double from look to look: few looks, each spending little
                more = min(len(records), args.max_games - len(records))
                records += runner.play(units(more, args.seed, args.mirror, first=seeds), bar)
        return Played(order(records), ratings)
    finally:
        if bar is not None:
            bar.close()


def sweep_report(card: str, results: list[tuple[Override, Played]]) -> str:
    """One line per swept value: the card's rating, interval, win chance and decision,
    and the other cards flagged at that value."""
    value, rating_w, chance, verdict, games = (_("value"), _("rating"), _("vs average %"),
                                               _("decision"), _("games"))
    head = (f"{value:>10} {games:>6} {rating_w:>7} {'95%':>13} {chance:>13}  {verdict}")
    lines = [_("sweep of {card}").format(card=card), head, "-" * len(head)]
    notes = []
    for override, (records, ratings) in results:
        mine = next((c for c in ratings.cards if c.card == card), None)
        if mine is None:
            lines.append(f"{number(override.value, 2):>10} {len(records):>6} "
                         + _("not fielded"))
            continue
        lines.append(f"{number(override.value, 2):>10} {len(records):>6} "
                     f"{number(mine.rating, 2, fixed=True):>7} "
                     f"{span(mine.low, mine.high):>13} "
                     f"{number(100 * mine.win_chance, 1, fixed=True):>13}  "
                     f"{decision_text(mine.decision)}")
        others = {c: d for c, d in ratings.flagged().items() if c != card}
        if others:
            notes.append(_("  at {value}: {flags}").format(
                value=number(override.value, 2),
                flags=", ".join(f"{c} {decision_text(d)}" for c, d in sorted(others.items()))))
    return "\n".join(lines + notes)


def span(low: float, high: float) -> str:
    """An interval of ratings, `-0.12..0.40`."""
    return number(low, 2, fixed=True) + ".." + number(high, 2, fixed=True)


def main(args: argparse.Namespace) -> int:
    """Run `bottisota simulate`; exit 1 when a robot made an illegal action or a game
    stopped on an error."""
    robots = [r.strip() for r in args.robots.split(",") if r.strip()]
    if len(robots) < 2:
        raise InputError([Problem("--robots", 0, 0, "", _("name at least two personalities, "
                                                          "one per seat (aggressive,sniper)"))])
    if args.games < 1:
        raise InputError([Problem("--games", 0, 0, "", _("play at least one game"))])
    if not 0 <= args.zone < args.margin:
        raise InputError([Problem("--zone", 0, 0, "", _("the zone is at least 0 and less "
                                                        "than the margin ({margin})").format(
                                                          margin=number(args.margin, 1)))])
    keep = _keep_value(getattr(args, "keep", "worst"))
    journals = getattr(args, "journals", None)
    journal_game: Callable[..., object] | None = None
    if journals:
        Path(journals).mkdir(parents=True, exist_ok=True)
        from bottisota.play import journal

        journal_game = journal.journal_game
    rules = house_rules(args)
    # bad input fails here, once
    dealt = setup(args.arena, robots, args.locomotion, args.cards, rules)["cards"]
    sweep = parse_sweep(args.sweep, dealt) if args.sweep else []
    jobs = args.jobs or os.cpu_count() or 1
    started = time.perf_counter()
    if sweep:
        results = []
        for override in sweep:
            init = init_args(args.arena, robots, args.locomotion, args.cards,
                             args.round_limit, None, rules, None, (override,))
            results.append((override, play_games(args, init, jobs, not args.quiet)))
        print(printable(sweep_report(sweep[0].card, results), lines_ok=True))
        records = [r for _o, played in results for r in played.records]
        return 1 if any(r.refusals or r.errors for r in records) else 0
    init = init_args(args.arena, robots, args.locomotion, args.cards, args.round_limit,
                     None, rules, journals, journal_game=journal_game)
    records, ratings = play_games(args, init, jobs, not args.quiet)
    took = time.perf_counter() - started
    print(printable(report(records, took, ratings), lines_ok=True))
    if journals:
        kept = keep_journals(records, journals, keep)
        print(ngettext("kept {n} journal in {journals} ({keep}); replay one with: "
                       "bottisota replay {file}",
                       "kept {n} journals in {journals} ({keep}); replay one with: "
                       "bottisota replay {file}", len(kept)).format(
                  n=len(kept), journals=journals, keep=keep, file=kept[0] if kept else 'FILE'))
    if args.output:
        from bottisota.view.chart import draw_chart

        draw_chart(args.output, [(_("personality"), personality_rows(records)),
                                 (_("bot card"), decided_rows(card_rows(records), ratings))],
                   title=_("{stem}: {records} games, {robots}").format(
                             stem=Path(args.arena).stem, records=len(records),
                             robots=' vs '.join(robots)))
        print(_("chart written to {output}").format(output=args.output))
    return 1 if any(r.refusals or r.errors for r in records) else 0
