"""Service points (R49-R52, R54): reload, and with a short move a repair or a part.

A bot whose centre ended its movement on a service point (D17) may use it as
its shooting-phase choice (D19). Every choice reloads all weapons (R49); a bot
that moved at most the overwatch share of its movement (R23) may in addition
repair two damage points, all its rust, all its leaflet penalty, or take a
random extra part (R50). Damage repairs stop once the bot deck is empty (R54);
a part is not given by the service point that gave the bot its last one (R52).
"""
from __future__ import annotations

from bottisota.core.actions import SERVICE_CHOICES, Refusal, Service
from bottisota.core.arena import Feature
from bottisota.core.i18n import N_
from bottisota.engine.deck import draw_part
from bottisota.engine.events import Event, apply_event
from bottisota.engine.reducers import starting_ammo
from bottisota.engine.state import Bot, GameState
from bottisota.engine.turns import can_set_overwatch_after

CHOICES: tuple[str, ...] = SERVICE_CHOICES
EXTRAS: frozenset[str] = frozenset({"repair", "rust", "leaflet", "part"})


def service_key(feature: Feature) -> str:
    """How a service point is remembered (R52): its id, else its index."""
    return feature.id or f"#{feature.index}"


def service_point_under(state: GameState, bot: Bot) -> Feature | None:
    """The service point the bot's centre is on (D17), if any."""
    found = state.index.features_at(bot.x, bot.y, ["service"])
    return found[0] if found else None


def check_service(state: GameState, action: Service, deck_exhausted: bool) -> Refusal | None:
    """Why this service choice is not allowed now (R49, R50, R52, R54), or None."""
    bot = state.bots[action.bot]
    if action.choice not in CHOICES:
        return Refusal("R49",
                N_("unknown service {choice!r}; choose one of ").format(choice=action.choice)
                       + ", ".join(CHOICES), at=bot.pos)
    point = service_point_under(state, bot)
    if point is None:
        return Refusal("R49",
                N_("{id} did not end its movement on a service point").format(
                    id=bot.id), at=bot.pos)
    if action.choice in EXTRAS and not can_set_overwatch_after(state, bot):
        limit = state.rules.overwatch_move_fraction * bot.stats.move
        return Refusal("R50",
                N_("{id} moved {moved:.2f} cm, more than {limit:.2f}: reload only").format(
                    id=bot.id, moved=bot.moved, limit=limit), at=bot.pos)
    if action.choice == "repair":
        if deck_exhausted:
            return Refusal("R54",
                    N_("the bot deck is empty: service points no longer repair damage"),
                           at=bot.pos)
        if bot.damage == 0:
            return Refusal("R50", N_("{id} has no damage to repair").format(id=bot.id), at=bot.pos)
    if action.choice == "rust" and bot.rust == 0:
        return Refusal("R50", N_("{id} has no rust to repair").format(id=bot.id), at=bot.pos)
    if action.choice == "leaflet" and bot.leaflet == 0:
        return Refusal("R50",
                N_("{id} has no leaflet penalty to repair").format(id=bot.id), at=bot.pos)
    if action.choice == "part":
        if bot.part_from == service_key(point):
            return Refusal("R52",
                    N_("{id} got its last part here at {label}: it must first get one at "
                       "another service point").format(
                        id=bot.id, label=point.label), at=bot.pos)
        if not state.parts_deck:
            return Refusal("R50", N_("the extra-parts deck is empty"), at=bot.pos)
    return None


def reload_events(state: GameState, bot: Bot) -> list[Event]:
    """R49: every weapon with ammo back to full."""
    events = []
    for weapon, full in starting_ammo(bot.stats).items():
        if bot.ammo.get(weapon) != full:
            events.append(apply_event(state, {"type": "ammo", "bot": bot.id, "weapon": weapon,
                                              "left": full, "cause": "reload"}))
    return events


def use_service(state: GameState, action: Service) -> list[Event]:
    """Carry out a checked service choice (R49, R50): reload, then the extra."""
    bot = state.bots[action.bot]
    point = service_point_under(state, bot)
    events: list[Event] = [apply_event(state, {"type": "service", "bot": bot.id,
                                               "choice": action.choice,
                                               "at": point.label if point else None})]
    events += reload_events(state, bot)
    if action.choice == "repair":
        amount = min(bot.damage, state.rules.repair_damage)
        events.append(apply_event(state, {"type": "damaged", "bot": bot.id, "amount": -amount,
                                          "cause": "repair"}))
    elif action.choice == "rust":
        events.append(apply_event(state, {"type": "status", "bot": bot.id, "rust": 0}))
    elif action.choice == "leaflet":
        events.append(apply_event(state, {"type": "status", "bot": bot.id, "leaflet": 0}))
    elif action.choice == "part" and point is not None:
        events += draw_part(state, bot, service_key(point))
    return events
