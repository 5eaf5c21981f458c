"""Speed changes no ruling (issue 12): the same seeded robot games and random games
played with the fast paths (batched sight, the point grid, remembered answers, one
walk per move) and with the plain per-line ones give exactly the same events,
dice, results and final states."""
from __future__ import annotations

import random

from bottisota.engine.game import Game
from bottisota.engine.movement.moves import preview_move
from bottisota.engine.random_play import play_random_game
from bottisota.formats.loading import bundled_rules, load_arena, load_catalogue
from bottisota.formats.robot_tables import find_personality
from bottisota.geometry.arena_index import FAST_PATHS
from bottisota.play.journal import state_digest
from bottisota.robot.match import decision_notes
from bottisota.robot.player import Robot
from bottisota.robot.simulate import arena_path


def _play(seed: int, names: list[str], fast: bool, rounds: int = 5) -> list:
    """Every entry of one robot game: the action, its events and its dice."""
    rules = bundled_rules()
    arena = load_arena(arena_path("warehouse"), rules)      # a fresh arena: no shared caches
    cards, mods = load_catalogue()
    players = [f"{n}-{i}" for i, n in enumerate(names)]
    saved = FAST_PATHS.on
    FAST_PATHS.on = fast
    try:
        game = Game.new(arena, rules, cards, mods, players, seed=seed, round_limit=rounds)
        robots = {p: Robot(p, find_personality(n)) for p, n in zip(players, names, strict=True)}
        for r in robots.values():
            r.peers = robots
        if not fast:
            game.preview_move = preview_move     # no cache: every question walks
            game.previewer = lambda state: preview_move
        for _ in range(400):
            if game.expected() == "over":
                break
            robot = robots[game.whose_turn()]
            action = robot.decide(game)
            result = game.act(action, decision_notes(robots, robot))
            assert result.ok, result.refusal
    finally:
        FAST_PATHS.on = saved
    return [(str(e.action), e.events, [(r.purpose, r.value) for r in e.rolls])
            for e in game.history] + [state_digest(game.state)]


def test_fast_and_plain_paths_play_the_same_games():
    for seed, names in ((3, ["aggressive", "sniper"]), (11, ["sniper", "aggressive", "sniper"])):
        fast = _play(seed, names, fast=True)
        plain = _play(seed, names, fast=False)
        assert len(fast) > 10
        assert fast == plain


def _play_random(arena_name: str, seed: int, fast: bool, actions: int = 150) -> list:
    """A seeded random game (every legal kind of action, moves across the levels
    and doors of the arena): every entry and the final state's digest."""
    rules = bundled_rules()
    arena = load_arena(arena_path(arena_name), rules)     # a fresh arena: no shared caches
    cards, mods = load_catalogue()
    saved = FAST_PATHS.on
    FAST_PATHS.on = fast
    try:
        game = Game.new(arena, rules, cards, mods, ["red", "blue", "green"], seed=seed,
                        round_limit=6)
        if not fast:
            game.preview_move = preview_move     # no cache: every question walks
        play_random_game(game, random.Random(seed), max_actions=actions)
    finally:
        FAST_PATHS.on = saved
    return [(str(e.action), e.events, [(r.purpose, r.value) for r in e.rolls])
            for e in game.history] + [state_digest(game.state)]


def test_fast_and_plain_paths_play_the_same_random_games():
    # the factory: platforms at two heights, stairs, a ramp, walls of several
    # heights and a door; the random player tries every kind of action
    for arena, seed in (("factory", 4), ("factory", 9), ("warehouse", 2)):
        fast = _play_random(arena, seed, fast=True)
        plain = _play_random(arena, seed, fast=False)
        assert len(fast) > 20
        assert fast == plain
