"""What can be done now, and why not otherwise: the panel's guide.

Every "why not" is the core's own refusal (`Game.legal`, `not_yet_allowed`),
with its rule; nothing is judged here. `danger(preview)` says when a planned
move would (or could) destroy the mover, so the view asks for a second key.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bottisota.core.actions import Pass, SelfDestruct, Service, SetOverwatch
from bottisota.core.i18n import _, number, translated
from bottisota.engine.game import not_yet_allowed
from bottisota.engine.movement.physics import fall_damage_range
from bottisota.engine.services import CHOICES as SERVICE_CHOICES

if TYPE_CHECKING:
    from bottisota.engine.game import Game
    from bottisota.engine.state import Bot
    from bottisota.viewmodel.core_calls import MovePreview


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
        return _("{key}: no {name} - {why}").format(
                   key=self.key, name=self.name.lower(), why=self.why_not)

    def as_dict(self) -> dict[str, str | None]:
        return {"name": self.name, "key": self.key, "why_not": self.why_not}


def shooting_options(game: Game, bot_id: str, service_choice: str) -> list[Option]:
    """The shooting phase's choices for the active bot, each with the core's verdict."""
    state = game.state
    bot = state.bots[bot_id]
    shoot = not_yet_allowed(state, bot, "shoot")
    if shoot is None and not bot.stats.weapons:
        shoot_why: str | None = _("{bot} carries no weapon").format(bot=bot_id)
    else:
        shoot_why = translated(shoot) if shoot is not None else None
    ow = game.legal(SetOverwatch(bot_id))
    sd = game.legal(SelfDestruct(bot_id))
    sv = game.legal(Service(bot_id, service_choice))
    return [
        Option(_("Fire"), "F", shoot_why),
        Option(_("Overwatch"), "V", translated(ow) if ow is not None else None),
        Option(
            _("Service: {choice}").format(choice=_(service_choice)),
            "Shift+R",
            translated(sv) if sv is not None else None,
        ),
        Option(_("Self-destruct"), "X X", translated(sd) if sd is not None else None),
        Option(_("Pass"), "P", translated(game.legal(Pass(bot_id)) or "") or None),
    ]


def headline(game: Game, robots: Mapping[str, object],
             options: list[Option] | None = None) -> str:
    """One sentence: who must do what now."""
    due = game.expected()
    if due == "over":
        return _("the game is over")
    bot = game.active_bot()
    who = game.whose_turn() or "?"
    if bot is None:
        return _("{who} to {due}").format(who=who, due=_(due))
    if bot.player in robots:
        return _("robot {who} is playing {bot} ({due})").format(who=who, bot=bot.id, due=_(due))
    if due == "place":
        return _("{who}: click the table to place {bot} (Left/Right turn it first)").format(
            who=who, bot=bot.id)
    if due == "move":
        return _("{who}: plan {bot}'s move (arrows or drag), Enter commits").format(
                who=who, bot=bot.id)
    if options is not None and not options[0].enabled:
        return _("{who}: {bot} cannot shoot now ({why}) - P passes").format(
            who=who, bot=bot.id, why=options[0].why_not)
    return _("{who}: {bot} may shoot - pick a weapon (1-9), click a target, F fires").format(
        who=who, bot=bot.id)


def danger(preview: MovePreview, bot: Bot) -> str | None:
    """Why a previewed move destroys (or may destroy) its mover, else None."""
    result = getattr(preview, "result", None)
    if result is None:
        return None
    if result.destroyed:
        cause = next((e.get("cause") for e in result.events
                      if e.get("type") == "destroyed" and e.get("bot") == bot.id), None)
        return _("this move destroys {bot}").format(
                bot=bot.id) + (f" ({_(str(cause).replace('_', ' '))})" if cause else "")
    left = bot.stats.structure - bot.damage
    for e in result.events:
        if e.get("type") == "fall" and e.get("bot") == bot.id and "drop" in e:
            low, high = fall_damage_range(float(e["drop"]))
            if low >= left:
                return _("this move's {drop} cm fall destroys {bot}").format(
                        drop=number(e["drop"]), bot=bot.id)
            if high >= left:
                return _("this move's {drop} cm fall may destroy {bot} ({low}-{high} damage, "
                         "{left} left)").format(drop=number(e["drop"]), bot=bot.id, low=low,
                                                high=high, left=left)
    return None


__all__ = ["Option", "SERVICE_CHOICES", "danger", "headline", "shooting_options"]
