"""Movement by locomotion (R8-R15): which steps a bot may make, what each cm
costs, and the rhythm of its turns. Geometry is elsewhere (move_walk).

Every number comes from the house rules (`state.rules`) and the bot's card.
"""
from __future__ import annotations

from dataclasses import dataclass

from bottisota.core.actions import Back, DropMine, Forward, Lift, Loop, Refusal, Step, Strafe, Turn
from bottisota.core.house_rules import HouseRules
from bottisota.core.i18n import N_
from bottisota.core.limits import reaches
from bottisota.engine.mines import check_drop_mine
from bottisota.engine.movement.geometry import EPS
from bottisota.engine.state import Bot, GameState

# The rule that says how far (and how) each locomotion moves.
BUDGET_RULE = {"wheeled": "R8", "tracked": "R9", "walker": "R10", "flier": "R12", "hover": "R15"}
RHYTHM_TYPES = frozenset({"wheeled", "tracked", "flier"})   # turn in steps (R8, R9, R12)
FREE_TURNERS = frozenset({"walker", "hover"})               # turn freely (R10, R15)
STURDY = frozenset({"wheeled", "tracked"})                  # R17


def is_sturdy(bot: Bot | None) -> bool:
    """Wheeled and tracked bots are sturdier in collisions (R17)."""
    return bot is not None and bot.stats.locomotion in STURDY


def check_step(state: GameState, bot: Bot, step: Step, index: int) -> Refusal | None:
    """Whether this kind of step is open to the bot at all, whatever the arena
    (locomotion, first round, new bot, distances). None when it is."""
    loco = bot.stats.locomotion
    rules = state.rules
    at = bot.pos
    if isinstance(step, (Forward, Back)) and not step.cm >= 0:
        return Refusal("D30",
                N_("{step}: a distance must be 0 cm or more").format(step=step), at, index)
    if isinstance(step, Strafe):
        if not step.distance >= 0:
            return Refusal("D30",
                    N_("{step}: a distance must be 0 cm or more").format(step=step), at, index)
        if loco not in FREE_TURNERS:
            rule = BUDGET_RULE[loco]
            return Refusal(rule,
                    N_("{loco} bots move only forward and backward; {id} cannot strafe").format(
                        loco=loco, id=bot.id), at, index)
    if isinstance(step, Back) and loco == "flier" and step.cm > 0:
        return Refusal("R12",
                N_("fliers cannot reverse; {id} cannot move back").format(id=bot.id), at, index)
    if isinstance(step, Turn) and loco in RHYTHM_TYPES:
        units = abs(step.degrees) / rules.turn_step
        if abs(units - round(units)) > 1e-6:
            rule = BUDGET_RULE[loco]
            return Refusal(rule,
                    N_("{loco} bots turn in steps of {turn_step:g}°; {id} cannot turn "
                       "{degrees:g}°").format(
                        loco=loco, turn_step=rules.turn_step, id=bot.id,
                        degrees=step.degrees), at, index)
    if isinstance(step, Loop) and loco != "flier":
        return Refusal("R14",
                N_("only fliers fly loops; {id} is {loco}").format(
                    id=bot.id, loco=loco), at, index)
    if isinstance(step, Lift):
        if step.direction not in ("up", "down"):
            return Refusal("R48",
                    N_("a lift goes up or down, not {direction!r}").format(
                        direction=step.direction), at, index)
        if not bot.stats.is_ground:
            return Refusal("R48",
                    N_("lifts serve ground bots only; {id} is {loco}").format(
                        id=bot.id, loco=loco), at, index)
    if isinstance(step, DropMine):

        refusal = check_drop_mine(state, bot, step.weapon)
        if refusal is not None:
            return Refusal(refusal.rule, refusal.message, refusal.at, index)
    return None


def straight_multiplier(rules: HouseRules, loco: str, kind: str, bearing_deg: float = 0.0) -> float:
    """What each cm of a straight piece costs before stairs (R8, R9, R10, R15)."""
    if loco == "hover":
        return 1.0
    if loco == "walker":
        ahead = kind == "forward" or (kind == "strafe" and abs(bearing_deg % 360.0) < EPS)
        return 1.0 if ahead else rules.walker_side_cost
    if kind == "back":
        return rules.backward_cost
    return 1.0


def strafe_kind(bearing_deg: float) -> str:
    """How a strafe counts: straight ahead is forward (R10)."""
    return "forward" if abs(bearing_deg % 360.0) < EPS else "strafe"


@dataclass
class TurnRhythm:
    """Turn bookkeeping of one move (R8, R9, R12; free for R10, R15).

    Wheeled bots and fliers: the first turn step before any distance is free;
    afterwards each step needs `turn` cm of movement spent moving since the
    previous one (credits do not stack). The original counts the Turn value "of
    its movement" (liikkuvuudestaan) and lets a reversing bot turn "as often as
    before": a cm backward, costing `backward_cost` cm, earns that much credit.
    Tracked bots: the first is free at the start, then each step costs
    `turn` cm of movement. Walkers and hoverers turn freely.
    """

    locomotion: str
    turn_cm: float
    turn_step: float
    free_left: int
    since_turn: float = 0.0
    distance: float = 0.0
    used: int = 0

    @classmethod
    def start(cls, rules: HouseRules, bot: Bot) -> TurnRhythm:
        return cls(bot.stats.locomotion, bot.stats.turn, rules.turn_step,
                   int(rules.free_turns_at_start))

    def moved(self, cm: float, spent: float | None = None) -> None:
        """Distance moved (backward counts too); `spent`, the movement it cost
        (default: the distance), is what earns turn credit (R8)."""
        if cm > 0:
            self.since_turn += cm if spent is None else max(0.0, spent)
            self.distance += cm

    def turn(self, degrees: float) -> tuple[float, str | None]:
        """Make a turn: (movement it costs, why it may not be made or None)."""
        if self.locomotion in FREE_TURNERS or abs(degrees) < EPS:
            return 0.0, None
        units = int(round(abs(degrees) / self.turn_step))
        cost = 0.0
        for n in range(units):
            if self.free_left > 0 and self.distance <= EPS:
                self.free_left -= 1
            elif self.locomotion == "tracked":
                cost += self.turn_cm
            elif reaches(self.since_turn, self.turn_cm):
                self.since_turn = 0.0
            else:
                done = N_(" (after {n} of {units})").format(n=n, units=units) if n else ""
                return cost, (
                        N_("a {turn_step:g}° turn needs {turn_cm:g} cm of movement spent "
                           "since the previous turn, only {since_turn:.2f} cm spent{done}").format(
                            turn_step=self.turn_step, turn_cm=self.turn_cm,
                            since_turn=self.since_turn, done=done))
            self.used += 1
        return cost, None
