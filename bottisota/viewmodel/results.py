"""Results on the table: what an action did, shown where it happened for a few
seconds (the moved path drawn along, hit and miss markers with their dice,
"-2 structure", a destroyed marker: one card per bot per action) and banners for
what everyone must notice (overwatch fire, mines, falls, scores, a new round, the
winner).

`effects_of(events, state)` turns an action's events into `Effect`s; `Effects`
ages them frame by frame. Pure data: painters draw them.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any  # Any: events from memory or from a journal file

from bottisota.core.i18n import _
from bottisota.viewmodel.words import describe

if TYPE_CHECKING:
    from bottisota.engine.state import GameState

SHOW_SECONDS = 4.0        # a marker stays this long
BANNER_SECONDS = 3.0
PATH_SECONDS = 1.2        # the moved path is drawn along in this time
MAX_EFFECTS = 60

# kinds
PATH, MARK, BANNER, WINNER = "path", "mark", "banner", "winner"


@dataclass
class Effect:
    """One result shown on the table for a while (a path, a marker, a banner)."""

    kind: str
    text: str
    at: tuple[float, float] | None = None        # table cm
    tone: str = "plain"
    points: tuple[tuple[float, float], ...] = ()  # a path
    bot: str | None = None
    duration: float = SHOW_SECONDS
    age: float = 0.0

    @property
    def progress(self) -> float:
        """0 -> 1 over the effect's life (a path is drawn along in its first PATH_SECONDS)."""
        span = PATH_SECONDS if self.kind == PATH else self.duration
        return max(0.0, min(1.0, self.age / span)) if span > 0 else 1.0

    @property
    def done(self) -> bool:
        return self.kind != WINNER and self.age >= self.duration

    def as_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "text": self.text, "at": list(self.at) if self.at else None,
                "tone": self.tone, "points": [list(p) for p in self.points], "bot": self.bot,
                "progress": round(self.progress, 3)}


def _pos(state: GameState, bot_id: object) -> tuple[float, float] | None:
    b = state.bots.get(bot_id) if isinstance(bot_id, str) and bot_id else None
    return (b.x, b.y) if b is not None else None


def _xy(v: object) -> tuple[float, float] | None:
    if isinstance(v, (list, tuple)) and len(v) == 2:
        return (float(v[0]), float(v[1]))
    return None


def effects_of(events: Sequence[Mapping[str, Any]], state: GameState) -> list[Effect]:
    """The effects of one action's events (`state`: the state after them)."""
    out: list[Effect] = []
    for e in events:
        kind = e.get("type")
        if kind == "path":
            pts = tuple((float(p[0]), float(p[1])) for p in e.get("points") or ())
            if len(pts) >= 2:
                out.append(Effect(PATH, "", pts[-1], points=pts, bot=e.get("bot"),
                                  duration=SHOW_SECONDS))
        elif kind == "to_hit":
            mod = f"{e['mod']:+d}" if e.get("mod") else ""
            text = (_("{bot}: HIT {roll}{mod} ({need}+)") if e["hit"]
                    else _("{bot}: miss {roll}{mod} ({need}+)"))
            out.append(Effect(MARK, text.format(bot=e["target"], roll=e["roll"], mod=mod,
                                                need=e["need"]),
                              _pos(state, e["target"]),
                              "alarm" if e["hit"] else "dim", bot=e["target"]))
        elif kind == "armour_test":
            text = (_("{bot}: armour holds {roll} ({need}+)") if e["passed"]
                    else _("{bot}: armour fails {roll} ({need}+)"))
            out.append(Effect(MARK, text.format(bot=e["bot"], roll=e["roll"], need=e["need"]),
                              _pos(state, e["bot"]),
                              "dice", bot=e["bot"]))
        elif kind == "damaged":
            amount = int(e["amount"])
            text = (_("{bot}: −{amount} structure").format(
                        bot=e['bot'], amount=amount) if amount > 0
                    else _("{bot}: +{v} repaired").format(bot=e['bot'], v=-amount))
            out.append(Effect(MARK, text, _pos(state, e["bot"]), "alarm" if amount > 0 else "good",
                              bot=e["bot"]))
        elif kind == "destroyed":
            out.append(Effect(MARK, _("{bot} DESTROYED").format(
                                        bot=e['bot']), _pos(state, e["bot"]), "alarm",
                              bot=e["bot"],
                              duration=SHOW_SECONDS * 1.5))
        elif kind in ("overwatch_fire", "mine_strike", "fall", "pit", "score", "round",
                      "self_destruct", "goal_taken", "player_out", "teleport"):
            at = _xy(e.get("at")) or _pos(state, e.get("bot"))
            tone = "good" if kind in ("score", "goal_taken", "round") else "alarm"
            out.append(Effect(BANNER, describe(e), at, tone, bot=e.get("bot"),
                              duration=BANNER_SECONDS))
        elif kind == "game_over":
            out.append(Effect(WINNER, describe(e), None, "good", duration=float("inf")))
    return one_card_per_bot(out)


_TONE_WEIGHT = {"alarm": 3, "dice": 2, "good": 1}


def one_card_per_bot(effects: list[Effect]) -> list[Effect]:
    """An action's markers gathered into one card per bot, a line each ("s1: HIT 5 (4+)",
    "armour fails 2 (5+)", "−2 structure"), where the bot's first marker was; the card keeps
    the most alarming tone and the longest life of its parts."""
    out: list[Effect] = []
    cards: dict[str, Effect] = {}
    for e in effects:
        card = cards.get(e.bot or "") if e.kind == MARK else None
        if card is None:
            if e.kind == MARK and e.bot:
                e = Effect(MARK, e.text, e.at, e.tone, bot=e.bot, duration=e.duration)
                cards[e.bot or ""] = e
            out.append(e)
            continue
        prefix = f"{e.bot}: "
        part = e.text[len(prefix):] if e.text.startswith(prefix) else e.text
        card.text = f"{card.text}\n{part}"
        if _TONE_WEIGHT.get(e.tone, 0) > _TONE_WEIGHT.get(card.tone, 0):
            card.tone = e.tone
        card.duration = max(card.duration, e.duration)
    return out


@dataclass
class Effects:
    """The effects now showing, oldest first."""

    items: list[Effect] = field(default_factory=list)

    def add(self, effects: list[Effect]) -> None:
        self.items.extend(effects)
        del self.items[:-MAX_EFFECTS]

    def update(self, dt: float) -> bool:
        """Age every effect; drop the finished ones. True while any is still moving."""
        for e in self.items:
            e.age += dt
        self.items = [e for e in self.items if not e.done]
        return any(e.kind == PATH and e.progress < 1.0 for e in self.items)

    def clear(self) -> None:
        self.items = []

    def skip(self) -> None:
        """Finish the animations at once (the markers stay)."""
        for e in self.items:
            if e.kind == PATH:
                e.age = max(e.age, PATH_SECONDS)

    @property
    def banners(self) -> list[Effect]:
        return [e for e in self.items if e.kind in (BANNER, WINNER)]

    @property
    def winner(self) -> Effect | None:
        return next((e for e in self.items if e.kind == WINNER), None)
