"""The bot deck (R6, R54, R55) and the extra-parts deck (R50, R52), as events.

The bot deck holds card ids, one per copy (a card's `copies`); drawing takes
one at random with `state.dice.pick`, and destroyed bots never go back (R54).
The parts deck holds the ids of mods with `deck: parts`; a part goes back to
it when its bot is destroyed (R50).
"""
from __future__ import annotations

from collections.abc import Iterable

from bottisota.core.cards import BotCard, Mod
from bottisota.core.i18n import N_
from bottisota.engine.event_types import DrawnEvent, PlacedEvent
from bottisota.engine.events import Event, apply_event, r2
from bottisota.engine.state import Bot, GameState


def bot_deck(cards: Iterable[BotCard]) -> list[str]:
    """A fresh bot deck: each card id as many times as its `copies` (R4, R6)."""
    deck: list[str] = []
    for card in cards:
        deck.extend([card.id] * max(0, int(card.copies)))
    return deck


def parts_deck(mods: Iterable[Mod]) -> list[str]:
    """A fresh extra-parts deck: every mod with `deck: parts` once (R50)."""
    return [m.id for m in mods if m.deck == "parts"]


# --- drawing -----------------------------------------------------------------------

def draw_bot(state: GameState, player: str) -> list[DrawnEvent]:
    """Draw a random bot for the player (R6, R55): a `drawn` event, or nothing when
    the deck is empty."""
    if not state.deck:
        return []
    i = state.dice.pick(len(state.deck),
            N_("draw: {player}'s bot from the deck of {deck}").format(
                player=player, deck=len(state.deck)))
    card = state.deck[i]
    bot_id = _new_bot_id(state, player)
    drawn: DrawnEvent = {"type": "drawn", "player": player, "card": card, "bot": bot_id}
    apply_event(state, drawn)
    return [drawn]


def _new_bot_id(state: GameState, player: str) -> str:
    """The drawn bot's id: the player's name and a number, counted per player (the
    player's first bot is `red-1`); a game journaled before version 3 takes the shared
    counter of bots and mines (its red's first bot could be `red-2`)."""
    if state.ids_per_player:
        n = 1 + sum(1 for b in state.bots.values() if b.player == player)
    else:
        n = state.next_id
    while f"{player}-{n}" in state.bots:
        n += 1
        if not state.ids_per_player:
            state.next_id = n
    return f"{player}-{n}"


def draw_part(state: GameState, bot: Bot, service: str) -> list[Event]:
    """Install a random extra part from the parts deck (R50); nothing when it is empty."""
    if not state.parts_deck:
        return []
    i = state.dice.pick(len(state.parts_deck),
                        N_("extra part for {id} from the deck of {parts_deck}").format(
                            id=bot.id, parts_deck=len(state.parts_deck)))
    return [apply_event(state, {"type": "part_installed", "bot": bot.id,
                                "part": state.parts_deck[i], "service": service})]


def place_event(state: GameState, bot: Bot, x: float, y: float, facing: float,
                new: bool = False) -> Event:
    """Put a drawn bot on the table (applied); `new` marks a bot placed afresh (R56)."""
    z = state.index.floor_z(x, y)
    event: PlacedEvent = {"type": "placed", "bot": bot.id, "x": r2(x), "y": r2(y), "z": r2(z),
                    "facing": round(facing % 360.0, 4)}
    if new:
        event["new"] = True
    return apply_event(state, event)
