"""Balance figures from robot games: per personality and per bot card, win rate with
a 95% Wilson interval, kills, damage dealt and taken, rounds survived, and the
range at which shots were fired (how personalities differ)."""
from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field

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
    decisions: int = 0
    refusals: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)     # exceptions raised by the game
    slowest: float = 0.0            # the slowest decision, seconds
    timeouts: int = 0


@dataclass
class Row:
    """One line of the report."""

    label: str
    n: int
    wins: int
    kills: float
    dealt: float
    taken: float
    rounds: float
    goals: float = 0.0
    median_range: float | None = None

    @property
    def rate(self) -> float:
        return self.wins / self.n if self.n else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.n)


def _row(label: str, tallies: list[Tally], wins: int, ranges: list[float] | None = None) -> Row:
    n = len(tallies)

    def avg(values: list[float]) -> float:
        return sum(values) / len(values) if values else 0.0

    return Row(label, n, wins, avg([t.kills for t in tallies]), avg([t.dealt for t in tallies]),
               avg([t.taken for t in tallies]),
               avg([t.rounds / max(t.bots, 1) for t in tallies]), avg([t.goals for t in tallies]),
               statistics.median(ranges) if ranges else None)


def sole_winner(record: GameRecord, player: str) -> bool:
    """A win is an outright win: a shared first place is not counted (D24 ties)."""
    return record.winners == [player]


def personality_rows(records: list[GameRecord]) -> list[Row]:
    """One row per personality (seats of the same personality are pooled)."""
    by: dict[str, list[Tally]] = {}
    wins: dict[str, int] = {}
    ranges: dict[str, list[float]] = {}
    for r in records:
        for player, tally in r.players.items():
            name = r.seats[player]
            by.setdefault(name, []).append(tally)
            wins[name] = wins.get(name, 0) + (1 if sole_winner(r, player) else 0)
        for name, values in r.ranges.items():
            ranges.setdefault(name, []).extend(values)
    return [_row(name, by[name], wins[name], ranges.get(name)) for name in sorted(by)]


def card_rows(records: list[GameRecord]) -> list[Row]:
    """One row per bot card: every bot of that card fielded, won when its player won."""
    by: dict[str, list[Tally]] = {}
    wins: dict[str, int] = {}
    for r in records:
        for card, player, tally in r.cards:
            by.setdefault(card, []).append(tally)
            wins[card] = wins.get(card, 0) + (1 if sole_winner(r, player) else 0)
    return [_row(card, by[card], wins[card]) for card in sorted(by)]


def table(title: str, rows: list[Row]) -> str:
    """The rows as a fixed-width text table."""
    head = (f"{title:<14} {'n':>6} {'win %':>6} {'95% interval':>14} {'kills':>6} "
            f"{'dealt':>6} {'taken':>6} {'rounds':>7} {'goals':>6} {'range':>6}")
    lines = [head, "-" * len(head)]
    for row in rows:
        lo, hi = row.interval
        rng = f"{row.median_range:6.1f}" if row.median_range is not None else f"{'-':>6}"
        lines.append(f"{row.label:<14} {row.n:>6} {100 * row.rate:>6.1f} "
                     f"{100 * lo:>6.1f}-{100 * hi:<6.1f} {row.kills:>7.2f} {row.dealt:>6.2f} "
                     f"{row.taken:>6.2f} {row.rounds:>7.2f} {row.goals:>6.2f} {rng}")
    return "\n".join(lines)
