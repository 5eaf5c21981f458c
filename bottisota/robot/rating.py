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

A card's verdict has to be the same whichever seed the games were played with, so
the margin has an indifference zone of ±zone points around it (default 3: with the
default margin of 10, win chances of 57–63 % against an average card are "at the
margin"). With the intervals corrected for testing every card at once (Holm's
step-down method) a card is

- OVER- (UNDER-) powered when its interval lies wholly above (below) the zone:
  clearly beyond the margin;
- even when its interval lies wholly inside ±(margin − zone): clearly within it;
- at the margin when its interval lies wholly within the zone, or, when
  `--until-decided` has played its most games, when the interval still reaches
  into the zone (a card whose strength lies at the margin gets that verdict from
  any seed, where a rule without the zone flags it with one seed and not another);
- undecided otherwise: more games would tell.

`--until-decided` looks at the games each time their number has doubled, and each
look may only spend a share of the error rate α = 0.05 (an O'Brien–Fleming-type
spending function of the share of the most games played: early looks need much
clearer evidence; the shares add up to α), so stopping at the first look where every
card is decided does not make false verdicts likelier. A card can still get
different verdicts from two seeds when its strength lies near an edge of one of
these bands (about ±2 standard errors of its rating at the last look); only more
games narrow that.
"""
from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from bottisota.core.i18n import N_, _, number
from bottisota.robot.stats import GameRecord

ALPHA = 0.05
RIDGE = 0.1
Z95 = 1.959963984540054         # the 95% normal quantile
DEFAULT_MARGIN = 10.0           # points of win chance either side of an even card
DEFAULT_ZONE = 3.0              # points either side of the margin that are "at the margin"


@dataclass(frozen=True)
class CardRating:
    """A card's fitted strength against the average card, and what it decides."""

    card: str
    rating: float               # log-odds against the average card
    low: float                  # 95% interval (not corrected)
    high: float
    p_flag: float               # p-value against |rating| <= margin + zone (a flag)
    p_even: float               # p-value against |rating| >= margin - zone (even)
    fielded: int                # bots of this card fielded in the games
    decision: str = ""          # "over", "under", "even", "margin" or "" (undecided)
    p_zone: float = 1.0         # p-value against |rating| outside the zone

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
    zone: float = DEFAULT_ZONE          # points either side of the margin
    alpha: float = ALPHA                # the error rate this look spent
    final: bool = False                 # the last look: straddling is "at the margin"

    def decided(self) -> bool:
        """Every card over, under, even or at the margin."""
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


def spent(share: float, alpha: float = ALPHA) -> float:
    """The error rate spent by the time this share (0..1) of the most games is played:
    an O'Brien–Fleming-type spending function (Lan and DeMets), alpha at the end and
    very little early."""
    if share <= 0:
        return 0.0
    z = statistics.NormalDist().inv_cdf(1 - alpha / 2)
    return min(alpha, 2.0 * normal_sf(z / math.sqrt(min(share, 1.0))))


def look_alpha(before: float, now: float, alpha: float = ALPHA) -> float:
    """The error rate one look may spend: what the spending function allows between the
    share of the games at the previous look and the share now."""
    return spent(now, alpha) - spent(before, alpha)


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


def rate(records: Sequence[GameRecord], margin: float = DEFAULT_MARGIN,
         zone: float = DEFAULT_ZONE, alpha: float = ALPHA, final: bool = False) -> Ratings:
    """Fit the model to the games and decide each card (see the module's text): `alpha`
    is the error rate this look may spend; `final` for the last look of
    `--until-decided`."""
    cards = sorted({card for r in records for card, _p, _t in r.cards})
    people = sorted({name for r in records for name in r.seats.values()})
    x, y, fielded = _design(records, cards, people)
    beta, cov = fit(x, y)
    k = len(cards)
    outer, inner = margin_logit(margin + zone), margin_logit(max(margin - zone, 0.0))
    ratings: list[CardRating] = []
    for i, card in enumerate(cards):
        a = np.full(len(beta), 0.0)
        a[:k] = -1.0 / k
        a[i] += 1.0
        value = float(a @ beta)
        se = math.sqrt(max(float(a @ cov @ a), 1e-300))
        size = abs(value)
        ratings.append(CardRating(card, value, value - Z95 * se, value + Z95 * se,
                                  normal_sf((size - outer) / se),
                                  normal_sf((inner - size) / se), int(fielded[i]),
                                  p_zone=max(normal_sf((size - inner) / se),
                                             normal_sf((outer - size) / se))))
    flags = holm([c.p_flag for c in ratings], alpha)
    evens = holm([c.p_even for c in ratings], alpha)
    zones = holm([c.p_zone for c in ratings], alpha)
    decided = tuple(_decided(c, flag, even, within, final, inner)
                    for c, flag, even, within in zip(ratings, flags, evens, zones, strict=True))
    persons = {people[0]: 0.0} if people else {}
    persons.update({p: float(beta[k + i - 1]) for i, p in enumerate(people) if i > 0})
    return Ratings(decided, persons, float(beta[-1]) if len(beta) else 0.0, len(y), margin,
                   zone, alpha, final)


def _decided(card: CardRating, flag: bool, even: bool, within: bool, final: bool,
             inner: float) -> CardRating:
    if flag:
        decision = "over" if card.rating > 0 else "under"
    elif even:
        decision = "even"
    elif within:
        decision = "margin"
    elif final:
        # the last look: an interval still reaching into the zone is at the margin,
        # unless it is so wide (a card seldom fielded) that it reaches both sides' zones
        decision = "" if card.low < -inner and card.high > inner else "margin"
    else:
        decision = ""
    return CardRating(card.card, card.rating, card.low, card.high, card.p_flag, card.p_even,
                      card.fielded, decision, card.p_zone)


DECISION_TEXT = {"over": N_("OVER-powered"), "under": N_("UNDER-powered"), "even": N_("even"),
                 "margin": N_("at the margin"), "": N_("undecided")}


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
               "seat held apart; intervals Holm-corrected for {cards} cards, error rate "
               "{alpha}: OVER/UNDER when clear beyond ±{outer} points against an average "
               "card, even when clear within ±{inner}, at the margin between").format(
                   n=ratings.comparisons, cards=len(ratings.cards),
                   alpha=number(ratings.alpha, 4),
                   outer=number(ratings.margin + ratings.zone, 1),
                   inner=number(max(ratings.margin - ratings.zone, 0.0), 1))]
    for c in sorted(ratings.cards, key=lambda c: -c.rating):
        if c.decision in ("over", "under", "margin"):
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
