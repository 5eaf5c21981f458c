"""Self-destruct (D21): the bot explodes like an explosive weapon centred on
itself, then is destroyed. Not in the first round (R7), nor on a new bot's
first move (R56). Nobody scores for it, nor for the kills it causes.
"""
from __future__ import annotations

from bottisota.core.actions import Refusal
from bottisota.core.cards import Weapon
from bottisota.core.i18n import N_
from bottisota.engine.damage import destroy
from bottisota.engine.events import Event, apply_event
from bottisota.engine.shooting.blast import resolve_blast
from bottisota.engine.state import GameState

CAUSE = "self-destruct"


def check_self_destruct(state: GameState, bot_id: str) -> Refusal | None:
    """Why the bot may not self-destruct now, or None when it may (R7, R56, D21)."""
    bot = state.bots.get(bot_id)
    if bot is None:
        return Refusal("D21", N_("there is no bot {bot_id!r}").format(bot_id=bot_id))
    if not bot.on_table:
        return Refusal("D21", N_("{bot_id} is not on the table").format(bot_id=bot_id), at=bot.pos)
    if state.round <= 1:
        return Refusal("R7",
                N_("{bot_id} may not self-destruct in the first round").format(
                    bot_id=bot_id), at=bot.pos)
    if bot.new:
        return Refusal("R56",
                N_("{bot_id} is a new bot on its first move and may not self-destruct").format(
                    bot_id=bot_id), at=bot.pos)
    return None


def blast_name(bot_id: str) -> str:
    """The name the explosion goes by as a weapon in the events (journaled as is)."""
    return f"{bot_id}'s {CAUSE}"


def exploding_bot(weapon_name: str) -> str | None:
    """The bot whose self-destruct `weapon_name` is (a blast's, a to-hit's weapon), or
    None for a real weapon: the log names the explosion in words."""
    bot_id, sep, rest = weapon_name.rpartition("'s ")
    return bot_id if sep and rest == CAUSE and bot_id else None


def self_destruct_weapon(state: GameState, bot_id: str) -> Weapon:
    """The explosion as a weapon: explosive, rules.self_destruct_hits hits at
    to-hit rules.self_destruct_to_hit (D21)."""
    rules = state.rules
    return Weapon(name=blast_name(bot_id), kind="gun", mount="turret", range=0.0,
                  to_hit=rules.self_destruct_to_hit, hits=rules.self_destruct_hits,
                  explosive=True)


def self_destruct(state: GameState, bot_id: str) -> list[Event] | Refusal:
    """The bot explodes (D21): a blast centred on it strikes every other bot in
    the area (R34, R35), each off the centre (the centre is the bot itself), each
    with its own to-hit and hit count; then the bot is destroyed. The explosion
    has no shooter modifiers, and no kill scores for anybody (by=None)."""
    refusal = check_self_destruct(state, bot_id)
    if refusal is not None:
        return refusal
    bot = state.bots[bot_id]
    events: list[Event] = [apply_event(state, {"type": "self_destruct", "bot": bot_id})]
    events += resolve_blast(state, None, self_destruct_weapon(state, bot_id), bot.pos, bot.z,
                            centre_bot_id=None, by=None, exclude=(bot_id,))
    events += destroy(state, bot, CAUSE, by=None)
    return events
