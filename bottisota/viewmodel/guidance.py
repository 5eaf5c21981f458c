"""What can be done now, and why not otherwise: the panel's guide.

Every "why not" is the core's own refusal (`Game.legal`, `not_yet_allowed`),
with its rule; nothing is judged here. `danger(preview)` says when a planned
move would (or could) destroy the mover, so the view asks for a second key.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bottisota.core.actions import Pass, SelfDestruct, Service, SetOverwatch
from bottisota.engine.game import not_yet_allowed
from bottisota.engine.movement.physics import fall_damage_range
from bottisota.engine.services import CHOICES as SERVICE_CHOICES


@dataclass(frozen=True)
class Option:
    """One thing the player could do: its name, key, and why not (None: it can)."""

    name: str
    key: str
    why_not: str | None = None

    @property
    def enabled(self) -> bool:
        return self.why_not is None

    def line(self) -> str:
        if self.why_not is None:
            return f"{self.key}: {self.name}"
        return f"{self.key}: no {self.name.lower()} - {self.why_not}"

    def as_dict(self) -> dict:
        return {"name": self.name, "key": self.key, "why_not": self.why_not}


def shooting_options(game: Any, bot_id: str, service_choice: str) -> list[Option]:
    """The shooting phase's choices for the active bot, each with the core's verdict."""
    state = game.state
    bot = state.bots[bot_id]
    shoot = not_yet_allowed(state, bot, "shoot")
    if shoot is None and not bot.stats.weapons:
        shoot_why: str | None = f"{bot_id} carries no weapon"
    else:
        shoot_why = str(shoot) if shoot is not None else None
    ow = game.legal(SetOverwatch(bot_id))
    sd = game.legal(SelfDestruct(bot_id))
    sv = game.legal(Service(bot_id, service_choice))
    return [Option("Fire", "F", shoot_why),
            Option("Overwatch", "V", str(ow) if ow is not None else None),
            Option(f"Service: {service_choice}", "Shift+R", str(sv) if sv is not None else None),
            Option("Self-destruct", "X X", str(sd) if sd is not None else None),
            Option("Pass", "P", str(game.legal(Pass(bot_id)) or "") or None)]


def headline(game: Any, robots: dict, options: list[Option] | None = None) -> str:
    """One sentence: who must do what now."""
    due = game.expected()
    if due == "over":
        return "the game is over"
    bot = game.active_bot()
    who = game.whose_turn() or "?"
    if bot is None:
        return f"{who} to {due}"
    if bot.player in robots:
        return f"robot {who} is playing {bot.id} ({due})"
    if due == "place":
        return f"{who}: click the table to place {bot.id} (Left/Right turn it first)"
    if due == "move":
        return f"{who}: plan {bot.id}'s move (arrows or drag), Enter commits"
    if options is not None and not options[0].enabled:
        return f"{who}: {bot.id} cannot shoot now ({options[0].why_not}) - P passes"
    return f"{who}: {bot.id} may shoot - pick a weapon (1-9), click a target, F fires"


def danger(preview: Any, bot: Any) -> str | None:
    """Why a previewed move destroys (or may destroy) its mover, else None."""
    result = getattr(preview, "result", None)
    if result is None:
        return None
    if result.destroyed:
        cause = next((e.get("cause") for e in result.events
                      if e.get("type") == "destroyed" and e.get("bot") == bot.id), None)
        return f"this move destroys {bot.id}" + (
            f" ({str(cause).replace('_', ' ')})" if cause else ""
        )
    left = bot.stats.structure - bot.damage
    for e in result.events:
        if e.get("type") == "fall" and e.get("bot") == bot.id and "drop" in e:
            low, high = fall_damage_range(float(e["drop"]))
            if low >= left:
                return f"this move's {e['drop']:g} cm fall destroys {bot.id}"
            if high >= left:
                return (f"this move's {e['drop']:g} cm fall may destroy {bot.id} "
                        f"({low}-{high} damage, {left} left)")
    return None


__all__ = ["Option", "SERVICE_CHOICES", "danger", "headline", "shooting_options"]
