"""Speed changes no ruling (issue 12): the same seeded robot games played with the
fast paths (batched sight, one walk per move) and with the plain per-line ones
give exactly the same events, dice and results."""
from __future__ import annotations

from bottisota.engine.game import Game
from bottisota.engine.movement.moves import preview_move
from bottisota.formats.loading import bundled_rules, load_arena, load_catalogue
from bottisota.formats.robot_tables import find_personality
from bottisota.geometry.arena_index import FAST_PATHS
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
            for e in game.history]


def test_fast_and_plain_paths_play_the_same_games():
    for seed, names in ((3, ["aggressive", "sniper"]), (11, ["sniper", "aggressive", "sniper"])):
        fast = _play(seed, names, fast=True)
        plain = _play(seed, names, fast=False)
        assert len(fast) > 10
        assert fast == plain
