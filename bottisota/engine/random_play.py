"""A small random player: any legal action, chosen with its own random stream.

Used by the soak test (500 seeded games) and handy for smoke tests. It asks
`Game.legal` about every candidate, so every action it returns is legal; it
knows nothing about tactics.
"""
from __future__ import annotations

import random
from collections.abc import Callable

from bottisota.core.actions import (
    Action,
    Back,
    DropMine,
    Forward,
    Move,
    Pass,
    Place,
    SelfDestruct,
    Service,
    SetOverwatch,
    Shoot,
    ShotOrder,
    Step,
    Strafe,
    Turn,
)
from bottisota.engine.game import ActResult, Game
from bottisota.engine.overwatch import watchers
from bottisota.engine.services import CHOICES
from bottisota.engine.shooting.shots import weapons_that_bear
from bottisota.engine.state import Bot

PLACE_TRIES = 60
MOVE_TRIES = 6


def _active(game: Game) -> Bot:
    """The bot whose decision is due (random_action checked there is one)."""
    bot = game.active_bot()
    if bot is None:
        raise ValueError("no bot is active: no action is due")
    return bot


def random_action(game: Game, rng: random.Random) -> Action:
    """A random legal action of the kind `game.expected()` asks for."""
    due = game.expected()
    bot = game.active_bot()
    if due == "over" or bot is None:
        raise ValueError("the game is over: no action is due")
    if due == "place":
        return _place(game, rng)
    if due == "move":
        return _move(game, rng)
    return _shooting_phase(game, rng)


def _place(game: Game, rng: random.Random) -> Place:
    bot = _active(game)
    w, h = game.state.arena.size
    r = bot.radius
    for _ in range(PLACE_TRIES):
        action = Place(bot.id, round(rng.uniform(r, w - r), 2), round(rng.uniform(r, h - r), 2),
                       float(rng.randrange(0, 360, 45)))
        if game.legal(action) is None:
            return action
    step = 2 * r
    y = r
    while y <= h - r:
        x = r
        while x <= w - r:
            action = Place(bot.id, x, y, 0.0)
            if game.legal(action) is None:
                return action
            x += step
        y += step
    raise RuntimeError(f"no legal place for {bot.id} on the table")


def _steps(game: Game, rng: random.Random) -> tuple[Step, ...]:
    bot = _active(game)
    card = bot.stats
    budget = max(0.0, card.move - bot.moved)
    steps: list[Step] = []
    loco = card.locomotion
    if loco in ("walker", "hover"):
        if rng.random() < 0.7:
            steps.append(Turn(float(rng.randrange(-180, 180, 15))))
        if loco == "hover" and rng.random() < 0.3:
            steps.append(Strafe(float(rng.randrange(0, 360, 30)), round(rng.uniform(0, budget), 1)))
        else:
            steps.append(Forward(round(rng.uniform(0, budget), 1)))
    else:
        if rng.random() < 0.6:
            steps.append(Turn(rng.choice((-45.0, 45.0))))
        if loco != "flier" and rng.random() < 0.15:
            steps.append(Back(round(rng.uniform(0, budget / 2), 1)))
        else:
            low = min(card.min_move, budget) if loco == "flier" else 0.0
            steps.append(Forward(round(rng.uniform(low, budget), 1)))
    mines = [w for w in card.weapons if w.is_mine]
    if mines and game.state.round > 1 and rng.random() < 0.3:
        steps.insert(rng.randrange(len(steps) + 1), DropMine(rng.choice(mines).name))
    return tuple(steps)


def _move(game: Game, rng: random.Random) -> Move:
    bot = _active(game)
    holders = [w.id for w in watchers(game.state, bot) if rng.random() < 0.3]
    for _ in range(MOVE_TRIES):
        action = Move(bot.id, _steps(game, rng), tuple(holders))
        if game.legal(action) is None:
            return action
    return Move(bot.id, (), tuple(holders))


def _shooting_phase(game: Game, rng: random.Random) -> Action:
    state = game.state
    bot = _active(game)
    options: list[Action] = []
    enemies = [b for b in state.live_bots() if b.player != bot.player]
    if enemies and state.round > 1 and not bot.new:
        target = rng.choice(enemies)
        names = weapons_that_bear(state, bot.id, target.id)
        names = [n for n in names if not getattr(bot.stats.weapon(n), "is_mine", True)]
        if names:
            chosen = rng.sample(names, rng.randint(1, len(names)))
            options.append(Shoot(bot.id, tuple(ShotOrder(n, target.id) for n in chosen)))
    options.append(SetOverwatch(bot.id))
    options.append(Service(bot.id, rng.choice(CHOICES)))
    if rng.random() < 0.05:
        options.append(SelfDestruct(bot.id))
    rng.shuffle(options)
    for action in options:
        if game.legal(action) is None:
            return action
    return Pass(bot.id)


def play_random_game(game: Game, rng: random.Random, max_actions: int = 10_000,
                     after: Callable[[Game, Action, ActResult], object] | None = None) -> int:
    """Play random legal actions until the game is over; `after(game, action, result)`
    is called after each one. Returns the number of actions."""
    n = 0
    while game.expected() != "over" and n < max_actions:
        action = random_action(game, rng)
        result = game.act(action)
        if result.refusal is not None:
            raise AssertionError(f"a legal action was refused: {action}: {result.refusal}")
        n += 1
        if after is not None:
            after(game, action, result)
    return n
