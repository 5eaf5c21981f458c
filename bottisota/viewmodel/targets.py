"""A pre-measured target in words: the odds when it can be shot, else why not
("no sight: wall 'crate'", "out of range 34.2/30", "out of arc 158°"); and whether
a weapon may be chosen, and a shot queued, at all (the core's refusal, with its rule)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from bottisota.core.actions import Refusal, Shoot, ShotOrder
from bottisota.core.i18n import _, number, translated
from bottisota.engine.game import Game, not_yet_allowed
from bottisota.engine.shooting.targeting import find_weapon

if TYPE_CHECKING:
    from bottisota.engine.shooting.premeasure import Premeasure, TargetMeasure


def target_words(t: TargetMeasure, pm: Premeasure) -> str:
    """The label under a target of the pre-measure `pm`."""
    if t.can_fire:
        mod = f"{t.modifier:+d}" if t.modifier else ""
        return _("{need}+{mod} {chance}%  {distance} cm").format(
                   need=t.need, mod=mod, chance=round(t.chance * 100),
                   distance=number(t.distance, 1))
    return why_not(t, pm)


def why_not(t: TargetMeasure, pm: Premeasure) -> str:
    if t.reason is not None:
        rule = getattr(t.reason, "rule", "")
        msg = getattr(t.reason, "message", str(t.reason))
        return f"{rule}: {msg}" if rule else str(msg)
    if t.fails == "arc":
        arc = " " + _("(arc ±{half}°)").format(
                half=number(pm.arc_half)) if getattr(pm, "arc_half", None) is not None else ""
        return _("out of arc {off}°{arc}").format(off=number(abs(t.off_nose), 0), arc=arc)
    if t.fails == "range":
        return _("out of range {distance}/{reach}").format(
                distance=number(t.distance, 1), reach=number(pm.reach))
    if t.sight_decides and not t.in_sight:
        blocker = t.blocker
        if not blocker:
            return _("no sight")
        return _("no sight: {blocker}").format(blocker=translated(blocker))
    return _("cannot be shot")


def verdict(t: TargetMeasure) -> str:
    """A word for the ring's shape: "clear", "arc", "range" or "sight"."""
    if t.can_fire:
        return "clear"
    if t.fails in ("arc", "range"):
        return str(t.fails)
    return "sight"


def weapon_refusal(game: Game, bot_id: str, weapon: str) -> Refusal | None:
    """Why `bot_id` cannot fire `weapon` at anybody this shooting phase (the first
    round R7, a new bot R56, a mine R21, out of ammo R49), or None: such a weapon is
    not chosen for a shot."""
    state = game.state
    bot = state.bots.get(bot_id)
    if bot is None:
        return None
    not_now = not_yet_allowed(state, bot, "shoot")
    if not_now is not None:
        return not_now
    return find_weapon(state, bot, weapon)[1]


def order_refusal(game: Game, bot_id: str, orders: Sequence[ShotOrder], weapon: str,
                  target: str) -> Refusal | None:
    """Why a shot of `weapon` at `target`, with the other weapons' shots already
    queued, would be refused (arc, range, sight, contact, ammo: the core's own check),
    or None."""
    others = tuple(o for o in orders if o.weapon != weapon)
    return game.legal(Shoot(bot_id, (*others, ShotOrder(weapon, target))))
