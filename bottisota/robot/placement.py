"""Where a robot puts a new bot (R6, R55): spots on a grid, ranked by the rolled wish,
the first one the rules accept is taken."""
from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from bottisota.core.actions import Place
from bottisota.engine.state import Bot, GameState
from bottisota.robot.candidates import bearing_to
from bottisota.robot.planner import goal_spots, service_spots
from bottisota.robot.situation import discs

SPACING = 6.0                   # cm between the spots tried
NEAR_ENEMY = 25.0               # cm: "near" an enemy, not on top of it


def _spots(state: GameState, bot: Bot) -> list[tuple[float, float]]:
    w, h = state.arena.size
    r = bot.radius
    nx, ny = max(int(w // SPACING), 1), max(int(h // SPACING), 1)
    return [(min(max((i + 0.5) * w / nx, r), w - r), min(max((j + 0.5) * h / ny, r), h - r))
            for j in range(ny) for i in range(nx)]


def placement_cost(state: GameState, bot: Bot, wish: str,
                   spots: list[tuple[float, float]] | None = None
                   ) -> Callable[[float, float], float]:
    """Cost of each spot for the wish (lower is better). For "cover" the enemies'
    sight of every spot in `spots` is asked in one batched query."""
    enemies = [b for b in state.live_bots() if b.player != bot.player]
    w, h = state.arena.size

    def nearest(points, x, y) -> float:
        return min((math.hypot(px - x, py - y) for px, py in points), default=0.0)

    foes = [(e.x, e.y) for e in enemies]
    goals, services = goal_spots(state), service_spots(state)
    if wish == "near_enemy" and foes:
        return lambda x, y: abs(nearest(foes, x, y) - NEAR_ENEMY)
    if wish == "far_from_enemies" and foes:
        return lambda x, y: -nearest(foes, x, y)
    if wish == "near_goal" and goals:
        return lambda x, y: nearest(goals, x, y)
    if wish == "near_service" and services:
        return lambda x, y: nearest(services, x, y)
    if wish == "cover" and foes:
        seen = _seen_counts(state, bot, enemies, spots or [])

        def hidden(x: float, y: float) -> float:
            count = seen.get((x, y))
            if count is None:
                count = _seen_counts(state, bot, enemies, [(x, y)])[(x, y)]
            return count * 100.0 - nearest(foes, x, y) * 0.1
        return hidden
    return lambda x, y: math.hypot(x - w / 2, y - h / 2)


def _seen_counts(state: GameState, bot: Bot, enemies: list[Bot],
                 spots: list[tuple[float, float]]) -> dict[tuple[float, float], int]:
    """How many enemies see a bot's middle at each spot (R22, D15): one batched
    sight query for every spot and enemy."""
    if not spots:
        return {}
    mid = bot.stats.height / 2.0
    rows = np.array([(e.x, e.y, e.z + e.stats.height, x, y, mid)
                     for x, y in spots for e in enemies], dtype=float)
    clear = np.array(state.index.sight_many(rows, discs=discs(state)), dtype=bool)
    counts = clear.reshape(len(spots), len(enemies)).sum(axis=1).tolist()
    return dict(zip(spots, counts, strict=True))


def place(state: GameState, bot: Bot, wish: str, legal: Callable[[Place], object]) -> Place:
    """The best spot for the wish that `legal` accepts (returns None for legal),
    facing the nearest enemy or the table's centre."""
    spots = _spots(state, bot)
    if wish == "cover":             # sight lines cost: rank by distance first, test a few
        far = placement_cost(state, bot, "far_from_enemies")
        spots = sorted(spots, key=lambda s: far(*s))[:40]
    cost = placement_cost(state, bot, wish, spots)
    ranked = sorted(spots, key=lambda s: (cost(*s), s))
    enemies = [b for b in state.live_bots() if b.player != bot.player]
    w, h = state.arena.size
    fallback = None
    for x, y in ranked:
        look = min(enemies, key=lambda e: math.hypot(e.x - x, e.y - y)).pos if enemies \
            else (w / 2, h / 2)
        facing = round(bearing_to(x, y, *look) / 45.0) * 45.0 % 360.0 \
            if (x, y) != look else 0.0
        action = Place(bot.id, round(x, 2), round(y, 2), facing)
        if legal(action) is None:
            return action
        fallback = fallback or action
    return fallback or Place(bot.id, w / 2, h / 2, 0.0)
