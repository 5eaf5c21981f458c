"""Card ratings that decide: a Bradley–Terry model of robot games, with intervals and
multiple-comparison-corrected flags (for `bottisota simulate`).

Every game is split into pairs of players. For a pair (i, j) the outcome is 1 when
i has the better result (D24), 0 when j has, and 0.5 for a draw. The model says

    P(i beats j) = logistic(sum_c θ_c (n_ic − n_jc) + π_i − π_j + σ (s_i − s_j))

where n_ic is how many bots of card c player i fielded, π the players'
personalities (the first is the reference) and s_i = 1 for the player who started
(R6). So a card's rating is its effect with the personality and the first seat
held apart. It is fitted by Newton's method with a weak ridge prior (λ = 0.1:
a card fielded once cannot run off to infinity) and its 95% interval comes from the
inverse Hessian. A card's rating is reported against the average card.

A card is decided when its interval, corrected for testing every card at once
(Holm's step-down method at α = 0.05), lies wholly outside ±margin (OVER- or
UNDER-powered) or wholly inside it (even). Anything else is undecided: more games
would tell. The margin is given in points of win chance against an average card
(default 10: 50 % ± 10 points).
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from bottisota.core.i18n import N_, _, number
from bottisota.robot.stats import GameRecord

ALPHA = 0.05
RIDGE = 0.1
DEFAULT_MARGIN = 10.0           # points of win chance either side of an even card


@dataclass(frozen=True)
class CardRating:
    """A card's fitted strength against the average card, and what it decides."""

    card: str
    rating: float               # log-odds against the average card
    low: float                  # 95% interval (not corrected)
    high: float
    p_flag: float               # one-sided p-value that |rating| exceeds the margin
    p_even: float               # one-sided p-value that |rating| is within the margin
    fielded: int                # bots of this card fielded in the games
    decision: str = ""          # "over", "under", "even" or "" (undecided)

    @property
    def win_chance(self) -> float:
        """The rating as a win chance against an average card (0..1)."""
        return logistic(self.rating)


@dataclass(frozen=True)
class Ratings:
    """Every card's rating from one set of games, and the model's other terms."""

    cards: tuple[CardRating, ...]
    personalities: dict[str, float]     # log-odds against the first personality
    first_seat: float                   # log-odds of starting (R6)
    comparisons: int                    # pairs of players the fit saw
    margin: float                       # points of win chance

    def decided(self) -> bool:
        """Every card over, under or even."""
        return all(c.decision for c in self.cards)

    def flagged(self) -> dict[str, str]:
        """The cards flagged over or under."""
        return {c.card: c.decision for c in self.cards if c.decision in ("over", "under")}


def logistic(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x)) if x > -700 else 0.0


def margin_logit(points: float) -> float:
    """The margin in points of win chance as log-odds (10 points: logit(0.6) = 0.405)."""
    p = min(max(0.5 + points / 100.0, 0.5 + 1e-9), 1 - 1e-9)
    return math.log(p / (1 - p))


def normal_sf(z: float) -> float:
    """P(Z > z) for a standard normal Z."""
    return 0.5 * math.erfc(z / math.sqrt(2.0))


def holm(p_values: Sequence[float], alpha: float = ALPHA) -> list[bool]:
    """Holm's step-down method: which hypotheses are rejected, keeping the chance of
    any false rejection among them at most alpha."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    rejected = [False] * len(p_values)
    m = len(p_values)
    for rank, i in enumerate(order):
        if p_values[i] > alpha / (m - rank):
            break
        rejected[i] = True
    return rejected


def outcome(record: GameRecord, a: str, b: str) -> float:
    """1 when a has the better result (D24: points, then kills), 0 when b has, 0.5 even."""
    key_a = (record.points.get(a, 0), record.kill_counts.get(a, 0))
    key_b = (record.points.get(b, 0), record.kill_counts.get(b, 0))
    return 1.0 if key_a > key_b else 0.0 if key_a < key_b else 0.5


def _design(records: Sequence[GameRecord], cards: list[str], people: list[str]
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The model's rows: feature differences, outcomes, and bots fielded per card."""
    col = {c: i for i, c in enumerate(cards)}
    pcol = {p: len(cards) + i - 1 for i, p in enumerate(people) if i > 0}
    seat_col = len(cards) + len(people) - 1
    rows: list[np.ndarray] = []
    ys: list[float] = []
    fielded = np.zeros(len(cards))
    width = seat_col + 1
    for r in records:
        counts: dict[str, np.ndarray] = {p: np.zeros(width) for p in r.seats}
        for card, player, _tally in r.cards:
            if player in counts:
                counts[player][col[card]] += 1
                fielded[col[card]] += 1
        for player, name in r.seats.items():
            if name in pcol:
                counts[player][pcol[name]] = 1
            if player == r.first:
                counts[player][seat_col] = 1
        players = list(r.seats)
        for i, a in enumerate(players):
            for b in players[i + 1:]:
                rows.append(counts[a] - counts[b])
                ys.append(outcome(r, a, b))
    x = np.array(rows) if rows else np.zeros((0, width))
    return x, np.array(ys), fielded


def fit(x: np.ndarray, y: np.ndarray, ridge: float = RIDGE, steps: int = 50
        ) -> tuple[np.ndarray, np.ndarray]:
    """Ridge-penalised logistic regression by Newton's method: the coefficients and
    their covariance (the inverse of the penalised Hessian)."""
    beta = np.zeros(x.shape[1])
    penalty = ridge * np.eye(x.shape[1])
    hessian = penalty.copy()
    for _step in range(steps):
        p = 1.0 / (1.0 + np.exp(-(x @ beta)))
        gradient = x.T @ (y - p) - ridge * beta
        hessian = (x.T * (p * (1 - p))) @ x + penalty
        step = np.linalg.solve(hessian, gradient)
        beta = beta + step
        if float(np.max(np.abs(step), initial=0.0)) < 1e-10:
            break
    p = 1.0 / (1.0 + np.exp(-(x @ beta)))
    hessian = (x.T * (p * (1 - p))) @ x + penalty
    return beta, np.linalg.inv(hessian)


def rate(records: Sequence[GameRecord], margin: float = DEFAULT_MARGIN) -> Ratings:
    """Fit the model to the games and decide each card (see the module's text)."""
    cards = sorted({card for r in records for card, _p, _t in r.cards})
    people = sorted({name for r in records for name in r.seats.values()})
    x, y, fielded = _design(records, cards, people)
    beta, cov = fit(x, y)
    k = len(cards)
    delta = margin_logit(margin)
    ratings: list[CardRating] = []
    for i, card in enumerate(cards):
        a = np.full(len(beta), 0.0)
        a[:k] = -1.0 / k
        a[i] += 1.0
        value = float(a @ beta)
        se = math.sqrt(max(float(a @ cov @ a), 1e-300))
        ratings.append(CardRating(card, value, value - 1.959963984540054 * se,
                                  value + 1.959963984540054 * se,
                                  normal_sf((abs(value) - delta) / se),
                                  normal_sf((delta - abs(value)) / se), int(fielded[i])))
    flags = holm([c.p_flag for c in ratings])
    evens = holm([c.p_even for c in ratings])
    decided = tuple(
            _decided(c, flag, even) for c, flag, even in zip(ratings, flags, evens, strict=True))
    persons = {people[0]: 0.0} if people else {}
    persons.update({p: float(beta[k + i - 1]) for i, p in enumerate(people) if i > 0})
    return Ratings(decided, persons, float(beta[-1]) if len(beta) else 0.0, len(y), margin)


def _decided(card: CardRating, flag: bool, even: bool) -> CardRating:
    decision = ("over" if card.rating > 0 else "under") if flag else "even" if even else ""
    return CardRating(card.card, card.rating, card.low, card.high, card.p_flag, card.p_even,
                      card.fielded, decision)


DECISION_TEXT = {"over": N_("OVER-powered"), "under": N_("UNDER-powered"), "even": N_("even"),
                 "": N_("undecided")}


def decision_text(decision: str) -> str:
    """A card's decision in the current language."""
    return _(DECISION_TEXT[decision])


def table(ratings: Ratings) -> str:
    """The ratings as a fixed-width table, strongest first."""
    card, bots, rating = _("card"), _("bots"), _("rating")
    chance, verdict = _("vs average %"), _("decision")
    rows = sorted(ratings.cards, key=lambda c: -c.rating)
    w = max([14] + [len(c.card) for c in rows])
    head = (f"{card:<{w}} {bots:>5} {rating:>7} {'95%':>13} {chance:>13} {'95%':>7}  "
            f"{verdict}")
    lines = [head, "-" * len(head)]
    for c in rows:
        lines.append(
                f"{c.card:<{w}} {c.fielded:>5} {number(c.rating, 2, fixed=True):>7} "
                f"{number(c.low, 2, fixed=True) + '..' + number(c.high, 2, fixed=True):>13} "
                f"{number(100 * c.win_chance, 1, fixed=True):>13} "
                f"{number(100 * logistic(c.low), 0) + '-' + number(100 * logistic(c.high), 0):>7}"
                f"  {decision_text(c.decision)}")
    return "\n".join(lines)


def summary(ratings: Ratings) -> list[str]:
    """What the ratings decide, in words."""
    lines = [_("card ratings: a Bradley–Terry model of {n} pairings, personality and first "
               "seat held apart; a card is decided when its interval, Holm-corrected for "
               "{cards} cards, lies clear outside (OVER/UNDER) or inside (even) ±{margin} "
               "points against an average card").format(
                   n=ratings.comparisons, cards=len(ratings.cards),
                   margin=number(ratings.margin, 0))]
    for c in sorted(ratings.cards, key=lambda c: -c.rating):
        if c.decision in ("over", "under"):
            lines.append(_("  {flag}: {card} wins {chance}% [{low}-{high}] against an "
                           "average card").format(
                               flag=decision_text(c.decision), card=c.card,
                               chance=number(100 * c.win_chance, 1, fixed=True),
                               low=number(100 * logistic(c.low), 1, fixed=True),
                               high=number(100 * logistic(c.high), 1, fixed=True)))
    open_cards = [c.card for c in ratings.cards if not c.decision]
    if open_cards:
        lines.append(_("  undecided: {cards}: more games would tell").format(
            cards=", ".join(open_cards)))
    else:
        lines.append(_("  every card is decided"))
    return lines
