"""Rolling on a personality's tables: the first rule whose conditions hold, one roll.

Every roll is drawn from the game's dice (`state.dice`, D8), so a seeded game
replays the same decisions, and forced dice force them in tests.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bottisota.core.dice import Dice
from bottisota.core.i18n import N_
from bottisota.engine.event_types import RobotDecisionEvent
from bottisota.formats.robot_tables import Rule
from bottisota.robot.situation import Situation


@dataclass(frozen=True, slots=True)
class Decision:
    """One robot decision: which rule matched, what the die showed, what it chose."""

    player: str
    bot: str
    section: str                 # "place" | "turn" | "overwatch"
    rule: Rule
    roll: int
    choice: Any                  # Any: a row of the YAML table, Intention (turn) or a word

    def text(self) -> str:
        """'blue rolled 5 on 'enemy 10-30 cm, in arc': keep range, fire all'."""
        choice = str(self.choice).replace("_", " ")
        return N_("{player} rolled {roll} on '{label}': {choice}").format(
                   player=self.player, roll=self.roll, label=self.rule.label, choice=choice)

    def event(self, personality: str) -> RobotDecisionEvent:
        """The informational `robot_decision` event for the journal (no reducer)."""
        return {"type": "robot_decision", "player": self.player, "bot": self.bot,
                "personality": personality, "section": self.section,
                "rule": self.rule.label, "line": self.rule.line, "dice": self.rule.dice,
                "roll": self.roll, "choice": str(self.choice), "text": self.text()}


def roll_dice(dice: Dice, spec: str, purpose: str) -> int:
    """A d6 or 2d6 result from the game's stream."""
    if spec == "2d6":
        return dice.d6(purpose + N_(" (1 of 2d6)")) + dice.d6(purpose + N_(" (2 of 2d6)"))
    return dice.d6(purpose)


# what a robot's die is for, one whole text per table (the dice purposes are journaled)
_PURPOSES = {"place": N_("robot: {player}'s place table, '{label}'"),
             "turn": N_("robot: {player}'s turn table, '{label}'"),
             "overwatch": N_("robot: {player}'s overwatch table, '{label}'")}


def first_rule(rules: tuple[Rule, ...], situation: Situation) -> Rule:
    """The first rule whose `when` holds (the validator makes the last one a fallback)."""
    for rule in rules:
        if situation.matches(rule.when):
            return rule
    return rules[-1]


def roll_on(rules: tuple[Rule, ...], situation: Situation, dice: Dice, section: str) -> Decision:
    """Pick the rule for this situation and roll on its table."""
    rule = first_rule(rules, situation)
    bot = situation.bot
    roll = roll_dice(dice, rule.dice,
                     _PURPOSES[section].format(player=bot.player, label=rule.label))
    return Decision(bot.player, bot.id, section, rule, roll, rule.choice(roll))
