"""`bottisota simulate ARENA --robots aggressive,sniper --games 1000`: robot-only games
and the balance report they add up to.

Game i is seeded with `seed * SEED_STRIDE + i`, so the figures do not depend on
`--jobs`. The report gives per personality and per bot card: wins (outright),
draws (a shared first place) and losses with 95% Wilson intervals, kills, damage
dealt and taken per game, rounds survived per bot, goal points per game and the
median range of the shots each personality fired. It says when the intervals are
too wide to rank and how many games would do, and flags a card whose interval lies
clear of all the others pooled (OVER- or UNDER-powered), in the table and the chart.
`--journals DIR --keep worst|all|N` keeps the journals of chosen games to replay.
"""
from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from bottisota.commands.options import add_content, add_rules, house_rules
from bottisota.core.errors import InputError, Problem
from bottisota.core.i18n import _, ngettext, number
from bottisota.core.printable import printable
from bottisota.robot.simulate import (
    DEFAULT_ROBOTS,
    DEFAULT_ROUND_LIMIT,
    keep_journals,
    run,
    setup,
)
from bottisota.robot.stats import (
    GameRecord,
    card_rows,
    flag_text,
    personality_rows,
    ranking_note,
    table,
)


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
    p.add_argument("--quiet", action="store_true", help=_("no progress bar"))
    add_content(p)
    add_rules(p)


def report(records: list[GameRecord], seconds: float | None = None) -> str:
    """The terminal report: both tables, the ranking advice, flags and a summary."""
    people, cards = personality_rows(records), card_rows(records)
    lines = [table(_("personality"), people), "", table(_("bot card"), cards), ""]
    for title, rows in ((_("personalities"), people), (_("cards"), cards)):
        lines.append(f"{title}: {ranking_note(rows, len(records))}")
        for row in rows:
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
    errors = [_("seed {seed}: {e}").format(seed=r.seed, e=e) for r in records for e in r.errors]
    if errors:
        lines.append(_("{errors} games stopped by an error in the rules:").format(
                         errors=len(errors)))
    lines += [_("  refused: {r}").format(r=r) for r in refusals[:5]]
    lines += [_("  error: {e}").format(e=e) for e in errors[:5]]
    return "\n".join(lines)


def _keep_value(keep: str) -> str:
    if keep in ("worst", "all") or keep.isdigit() and int(keep) > 0:
        return keep
    raise InputError([Problem("--keep", 0, 0, "", _("'{keep}': expected worst, all or a "
                                                    "number of games above 0").format(
                                                      keep=keep))])


def main(args: argparse.Namespace) -> int:
    """Run `bottisota simulate`; exit 1 when a robot made an illegal action or a game
    stopped on an error."""
    robots = [r.strip() for r in args.robots.split(",") if r.strip()]
    if len(robots) < 2:
        raise InputError([Problem("--robots", 0, 0, "", _("name at least two personalities, "
                                                          "one per seat (aggressive,sniper)"))])
    if args.games < 1:
        raise InputError([Problem("--games", 0, 0, "", _("play at least one game"))])
    keep = _keep_value(getattr(args, "keep", "worst"))
    journals = getattr(args, "journals", None)
    if journals:
        Path(journals).mkdir(parents=True, exist_ok=True)
    rules = house_rules(args)
    setup(args.arena, robots, args.locomotion, args.cards, rules)   # bad input fails here, once
    jobs = args.jobs or os.cpu_count() or 1
    started = time.perf_counter()
    records = run(args.arena, robots, args.games, jobs, args.seed, args.round_limit,
                  args.locomotion, args.cards,
                  progress=not args.quiet, rules=rules, journals=journals)
    took = time.perf_counter() - started
    print(printable(report(records, took), lines_ok=True))
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
                                 (_("bot card"), card_rows(records))],
                   title=_("{stem}: {records} games, {robots}").format(
                             stem=Path(args.arena).stem, records=len(records),
                             robots=' vs '.join(robots)))
        print(_("chart written to {output}").format(output=args.output))
    return 1 if any(r.refusals or r.errors for r in records) else 0
