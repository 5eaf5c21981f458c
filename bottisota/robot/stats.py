"""Balance figures from robot games: per personality and per bot card, win rate with
a 95% Wilson interval, kills, damage dealt and taken, rounds survived, and the
range at which shots were fired (how personalities differ)."""
from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field

from bottisota.core.i18n import N_, _, number

Z95 = 1.959963984540054          # the 95% normal quantile for the Wilson interval


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (0, 0 when n is 0)."""
    if n <= 0:
        return 0.0, 0.0
    p = successes / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Tally:
    """What one seat (a personality) or one bot (a card) did in one game."""

    kills: int = 0
    dealt: int = 0
    taken: int = 0
    rounds: int = 0                 # rounds on the table
    bots: int = 0                   # bots fielded (a personality) or 1 (a card)
    goals: int = 0                  # points from goal markers (D23)


@dataclass
class GameRecord:
    """The outcome of one robot game, small enough to send between processes."""

    seed: int
    rounds: int
    winners: list[str]
    seats: dict[str, str]                         # player -> personality
    players: dict[str, Tally] = field(default_factory=dict)
    cards: list[tuple[str, str, Tally]] = field(default_factory=list)  # (card, player, tally)
    ranges: dict[str, list[float]] = field(default_factory=dict)       # personality -> shot ranges
    card_ranges: dict[str, list[float]] = field(default_factory=dict)  # card -> shot ranges
    decisions: int = 0
    refusals: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)     # exceptions raised by the game
    slowest: float = 0.0            # the slowest decision, seconds
    timeouts: int = 0
    points: dict[str, int] = field(default_factory=dict)       # player -> score (D22, D23)
    kill_counts: dict[str, int] = field(default_factory=dict)  # player -> kills (D24 ties)
    first: str = ""                 # the starting player (R6)
    ended: str = ""                 # why the game ended (the game_over reason)
    mirrored: bool = False          # the seed's second game, seats swapped


@dataclass
class Row:
    """One line of the report: wins (outright), draws (a shared first place), losses."""

    label: str
    n: int
    wins: int
    kills: float
    dealt: float
    taken: float
    rounds: float
    goals: float = 0.0
    median_range: float | None = None
    draws: int = 0
    flag: str = ""                  # "over" / "under": its interval lies clear of the rest

    @property
    def losses(self) -> int:
        return self.n - self.wins - self.draws

    @property
    def rate(self) -> float:
        return self.wins / self.n if self.n else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.n)

    @property
    def draw_rate(self) -> float:
        return self.draws / self.n if self.n else 0.0

    @property
    def loss_rate(self) -> float:
        return self.losses / self.n if self.n else 0.0


def _row(label: str, tallies: list[Tally], wins: int, ranges: list[float] | None = None,
         draws: int = 0) -> Row:
    n = len(tallies)

    def avg(values: list[float]) -> float:
        return sum(values) / len(values) if values else 0.0

    return Row(label, n, wins, avg([t.kills for t in tallies]), avg([t.dealt for t in tallies]),
               avg([t.taken for t in tallies]),
               avg([t.rounds / max(t.bots, 1) for t in tallies]), avg([t.goals for t in tallies]),
               statistics.median(ranges) if ranges else None, draws)


def drew(record: GameRecord, player: str) -> bool:
    """A draw: the player shares first place with others (D24 ties), or nobody scored."""
    return len(record.winners) != 1 and (player in record.winners or not record.winners)


def sole_winner(record: GameRecord, player: str) -> bool:
    """A win is an outright win: a shared first place is not counted (D24 ties)."""
    return record.winners == [player]


def personality_rows(records: list[GameRecord]) -> list[Row]:
    """One row per personality (seats of the same personality are pooled)."""
    by: dict[str, list[Tally]] = {}
    wins: dict[str, int] = {}
    draws: dict[str, int] = {}
    ranges: dict[str, list[float]] = {}
    for r in records:
        for player, tally in r.players.items():
            name = r.seats[player]
            by.setdefault(name, []).append(tally)
            wins[name] = wins.get(name, 0) + (1 if sole_winner(r, player) else 0)
            draws[name] = draws.get(name, 0) + (1 if drew(r, player) else 0)
        for name, values in r.ranges.items():
            ranges.setdefault(name, []).extend(values)
    return flag_outliers([_row(name, by[name], wins[name], ranges.get(name), draws[name])
                          for name in sorted(by)])


def card_rows(records: list[GameRecord]) -> list[Row]:
    """One row per bot card: every bot of that card fielded, won when its player won
    (unflagged: see robot.rating)."""
    by: dict[str, list[Tally]] = {}
    wins: dict[str, int] = {}
    draws: dict[str, int] = {}
    ranges: dict[str, list[float]] = {}
    for r in records:
        for card, player, tally in r.cards:
            by.setdefault(card, []).append(tally)
            wins[card] = wins.get(card, 0) + (1 if sole_winner(r, player) else 0)
            draws[card] = draws.get(card, 0) + (1 if drew(r, player) else 0)
        for card, values in r.card_ranges.items():
            ranges.setdefault(card, []).extend(values)
    # no flags here: a card's flag comes from its rating (robot.rating), which holds the
    # personality and the first seat apart and corrects for testing every card at once
    return [_row(card, by[card], wins[card], ranges.get(card), draws=draws[card])
            for card in sorted(by)]


def flag_outliers(rows: list[Row]) -> list[Row]:
    """Mark a row "over" when its win interval lies wholly above that of all the other
    rows pooled, "under" when wholly below (too strong or too weak to be chance)."""
    if len(rows) < 2:
        return rows
    total_wins = sum(r.wins for r in rows)
    total_n = sum(r.n for r in rows)
    for row in rows:
        lo, hi = row.interval
        o_lo, o_hi = wilson(total_wins - row.wins, total_n - row.n)
        row.flag = "over" if lo > o_hi else "under" if hi < o_lo else ""
    return rows


TARGET_HALF_WIDTH = 0.05        # ±5 points: close enough to rank cards whose rates differ by 10


def games_for(rate: float, half_width: float = TARGET_HALF_WIDTH, z: float = Z95) -> int:
    """Samples that give a 95% interval of about ±half_width around this rate."""
    p = min(max(rate, 0.05), 0.95)
    return math.ceil(z * z * p * (1 - p) / (half_width * half_width))


def ranking_note(rows: list[Row], games: int) -> str:
    """Whether the intervals are narrow enough to rank the rows, and if not how many
    games would be needed for ±5 points."""
    if not rows:
        return ""
    widest = max(rows, key=lambda r: r.interval[1] - r.interval[0])
    half = (widest.interval[1] - widest.interval[0]) / 2
    if half <= TARGET_HALF_WIDTH + 1e-9:
        return _("intervals within ±{v} points: narrow enough to rank").format(
            v=number(100 * half, 1, fixed=True))
    need = games_for(widest.rate)
    per_game = widest.n / max(games, 1)
    total = math.ceil(need / max(per_game, 1e-9))
    return (_("intervals up to ±{v} points ({label}: {n} samples) are too wide to rank; "
              "about {total} games would give ±5 points").format(
                v=number(100 * half, 0, fixed=True), label=widest.label, n=widest.n, total=total))


FLAG_TEXT = {"over": N_("OVER-powered"), "under": N_("UNDER-powered"), "": ""}


def flag_text(flag: str) -> str:
    """A row's flag in the current language ("" for none)."""
    return _(FLAG_TEXT[flag]) if flag else ""


def _pct(lo_hi: tuple[float, float]) -> str:
    return f"{number(100 * lo_hi[0], 0)}-{number(100 * lo_hi[1], 0)}"


def _fixed(value: float, digits: int) -> str:
    """A table cell: `digits` places, in the language's decimal sign."""
    return number(value, digits, fixed=True)


def table(title: str, rows: list[Row]) -> str:
    """The rows as a fixed-width text table: wins, draws and losses with 95% intervals."""
    # the column names looked up outside the f-string, where Babel's extraction sees them
    win, draw, loss = _("win %"), _("draw %"), _("loss %")
    kills, dealt, taken = _("kills"), _("dealt"), _("taken")
    rounds, goals, reach, flag = _("rounds"), _("goals"), _("range"), _("flag")
    w = max([14, len(title)] + [len(row.label) for row in rows])    # the first column
    head = (f"{title:<{w}} {'n':>5} {win:>6} {'95%':>7} {draw:>7} {'95%':>7} "
            f"{loss:>7} {'95%':>7} {kills:>6} {dealt:>6} {taken:>6} "
            f"{rounds:>6} {goals:>6} {reach:>6}  {flag}")
    lines = [head, "-" * len(head)]
    for row in rows:
        rng = _fixed(row.median_range, 1) if row.median_range is not None else "-"
        lines.append(f"{row.label:<{w}} {row.n:>5} {_fixed(100 * row.rate, 1):>6} "
                     f"{_pct(row.interval):>7} {_fixed(100 * row.draw_rate, 1):>7} "
                     f"{_pct(wilson(row.draws, row.n)):>7} {_fixed(100 * row.loss_rate, 1):>7} "
                     f"{_pct(wilson(row.losses, row.n)):>7} {_fixed(row.kills, 2):>6} "
                     f"{_fixed(row.dealt, 2):>6} {_fixed(row.taken, 2):>6} "
                     f"{_fixed(row.rounds, 2):>6} {_fixed(row.goals, 2):>6} {rng:>6}  "
                     f"{flag_text(row.flag)}")
    return "\n".join(lines)


def _result(record: GameRecord, player: str) -> float:
    """1 for an outright win, 0.5 for a draw, 0 for a loss (D24)."""
    return 1.0 if sole_winner(record, player) else 0.5 if drew(record, player) else 0.0


def _cell(results: list[float]) -> str:
    """A cross-table cell: the score in percent (a draw counts half) and the samples."""
    if not results:
        return "-"
    return f"{_fixed(100 * sum(results) / len(results), 0)}/{len(results)}"


def cross_table(title: str, rows: list[str], columns: list[str],
                cells: dict[tuple[str, str], list[float]]) -> str:
    """A fixed-width table of score % / samples, rows by columns."""
    w = max([14, len(title)] + [len(r) for r in rows])
    cw = max([9] + [len(c) for c in columns])
    head = f"{title:<{w}} " + " ".join(f"{c:>{cw}}" for c in columns)
    lines = [head, "-" * len(head)]
    for r in rows:
        lines.append(f"{r:<{w}} " + " ".join(f"{_cell(cells.get((r, c), [])):>{cw}}"
                                             for c in columns))
    return "\n".join(lines)


def card_by_personality(records: list[GameRecord]) -> str:
    """Each card's score under each personality (a card fielded by the sniper against one
    fielded by the aggressive robot are different things)."""
    cells: dict[tuple[str, str], list[float]] = {}
    for r in records:
        for card, player, _t in r.cards:
            cells.setdefault((card, r.seats[player]), []).append(_result(r, player))
    cards = sorted({c for c, _p in cells})
    people = sorted({p for _c, p in cells})
    return cross_table(_("card × personality"), cards, people, cells)


def card_by_card(records: list[GameRecord]) -> str:
    """Each card's score against each card the other side fielded in the same game."""
    cells: dict[tuple[str, str], list[float]] = {}
    for r in records:
        for card, player, _t in r.cards:
            for other, other_player, _o in r.cards:
                if other_player != player:
                    cells.setdefault((card, other), []).append(_result(r, player))
    cards = sorted({c for c, _o in cells} | {o for _c, o in cells})
    return cross_table(_("card × card"), cards, cards, cells)


def endings(records: list[GameRecord]) -> list[tuple[str, int]]:
    """Why the drawn games (no sole winner) ended, most common first: the game's end
    (its reason) and whether anyone scored."""
    counts: dict[str, int] = {}
    for r in records:
        if len(r.winners) == 1:
            continue
        scored = any(r.points.values()) or any(r.kill_counts.values())
        why = _("{ending}, tied on points and kills").format(ending=r.ended or "?") \
            if scored else _("{ending}, nobody scored").format(ending=r.ended or "?")
        counts[why] = counts.get(why, 0) + 1
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))


LEGEND = N_("win/draw/loss %: outright wins, shared first places (D24) and losses, each "
            "with its 95% Wilson interval; kills, dealt, taken, goals: per game (a card: per "
            "bot fielded); rounds: rounds on the table per bot; range: the median distance "
            "in cm at which that personality or card fired (-: it never fired); a "
            "cross-table cell is the score in % (a draw counts half) / games.")
