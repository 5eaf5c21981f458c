"""Soak: 500 seeded random games finish, and every invariant holds after every action.

Invariants, checked after every action of every game (fixed seeds): every
live base wholly on the table, overlapping no wall and no other standing base
on its level beyond the contact tolerance (D4), on the floor under its centre;
no ground bot rests in a pit (R36), nor with its base under a higher floor
(R39, D29); movement spent never exceeds the movement allowed, damage stays below
structure for live bots (D7), and scores equal the kills (D22) and goals (D23) read
from the events.
"""
import math
import random
import time

from bottisota.engine.game import Game
from bottisota.engine.movement.physics import under_higher_floor
from bottisota.engine.random_play import play_random_game
from bottisota.formats.content import arenas_dir
from bottisota.formats.loading import arena_from_dict, bundled_rules, load_arena, load_catalogue

GAMES = 500
ROUND_LIMIT = 8
SMALL = {"name": "yard", "size": [40, 40], "features": [
    {"type": "wall", "rect": [18, 8, 4, 10]},
    {"type": "pit", "circle": [10, 30, 3]},
    {"type": "service", "circle": [34, 6, 2.5]},
    {"type": "service", "circle": [6, 6, 2.5]},
    {"type": "goal", "circle": [30, 30, 2], "respawn": [[20, 34], [30, 30]]},
    {"type": "platform", "rect": [26, 14, 10, 8], "height": 3},
    {"type": "ramp", "rect": [26, 22, 10, 4], "from": 0, "to": 3, "up": 180},
]}
EPS = 1e-6


class Tally:
    """Points each player should have, read from the events."""

    def __init__(self, players, seen=None):
        self.points = {p: 0 for p in players}
        self.seen = seen if seen is not None else {}

    def add(self, state, events):
        for e in events:
            self.seen[e["type"]] = self.seen.get(e["type"], 0) + 1
            if e["type"] == "goal_taken":
                self.points[state.bots[e["bot"]].player] += e["points"]
            if e["type"] == "destroyed" and e.get("by"):
                killer, victim = state.bots.get(e["by"]), state.bots[e["bot"]]
                if killer is not None and killer.player != victim.player:
                    self.points[killer.player] += state.rules.kill_points


def check_invariants(game: Game, tally: Tally, action, events=()) -> None:
    s = game.state
    fallen = {e["bot"] for e in events if e["type"] == "fall" and "drop" in e}
    index = s.index
    live = s.live_bots()
    for b in live:
        where = f"after {action}: {b.id} at ({b.x:.3f}, {b.y:.3f})"
        assert index.inside_table(b.x, b.y, b.radius), f"{where} is off the table"
        assert index.disc_blocked(b.x, b.y, b.radius - s.rules.contact_tolerance,
                                  doors=False) is None, f"{where} overlaps a wall"
        assert abs(index.floor_z(b.x, b.y) - b.z) < 1e-3, f"{where} floats at z {b.z}"
        if b.card.is_ground:
            assert not index.features_at(b.x, b.y, ["pit"]), f"{where} rests in a pit"
            how = "fell and rests" if b.id in fallen else "rests"
            assert not under_higher_floor(s, b.x, b.y, b.radius, b.z), \
                f"{where} {how} with its base under a higher floor (R39, D29)"
        assert b.moved <= b.stats.move + EPS, f"{where} moved {b.moved} of {b.stats.move}"
        assert b.damage < b.stats.structure, f"{where} damage {b.damage} not below structure"
    for i, a in enumerate(live):          # D4: standing bots at one level never overlap
        for b in live[i + 1:]:
            if a.z >= b.z + b.card.height or b.z >= a.z + a.card.height:
                continue                      # one stands clear above the other
            gap = math.hypot(a.x - b.x, a.y - b.y) - a.radius - b.radius
            assert gap >= -s.rules.contact_tolerance - EPS, \
                f"after {action}: {a.id} and {b.id} overlap by {-gap:.3f}"
    assert s.scores == tally.points, f"after {action}: scores {s.scores} vs {tally.points}"
    assert sum(s.kills.values()) * s.rules.kill_points <= sum(s.scores.values())


def play(seed: int, arena, cards, mods, seen: dict) -> int:
    rng = random.Random(seed)
    players = ["red", "blue", "green"][: 2 + seed % 2]
    game = Game.new(arena, bundled_rules(), cards, mods, players, seed=seed,
                    round_limit=ROUND_LIMIT)
    tally = Tally(players, seen)
    tally.add(game.state, game.start_events)

    def after(g, action, result):
        tally.add(g.state, result.events)
        check_invariants(g, tally, action, result.events)

    n = play_random_game(game, rng, max_actions=500, after=after)
    assert game.state.over, f"seed {seed}: the game did not end"
    return n


def test_500_seeded_random_games_keep_every_invariant():
    cards, mods = load_catalogue()
    arenas = [arena_from_dict(SMALL), load_arena(arenas_dir() / "duel.yaml")]
    start = time.perf_counter()
    actions = 0
    seen: dict[str, int] = {}
    for seed in range(GAMES):
        actions += play(seed, arenas[seed % 2], cards, mods, seen)
    took = time.perf_counter() - start
    print(f"\nsoak: {GAMES} games, {actions} actions in {took:.1f} s; events: "
          + ", ".join(f"{k} {v}" for k, v in sorted(seen.items())))
    assert actions > GAMES * 10
    # the games reach the parts of the referee they are meant to shake
    for kind in ("overwatch_fire", "destroyed", "removed", "drawn", "goal_taken", "service",
                 "mine_dropped", "part_installed", "game_over"):
        assert seen.get(kind, 0) > 0, f"no {kind} event in {GAMES} games"
