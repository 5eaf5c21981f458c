"""Walk each move once (issue 12): a move whose preview rolls no die, meets no
watcher in reach and touches no active mine is committed from its preview. Its
events and the state after it are exactly those of the live walk, whatever the
move (random 5-step moves of every locomotion, watchers on overwatch near and
far, active mines beside the paths)."""
from __future__ import annotations

import random

from bottisota.core.actions import Forward, Move, Refusal, Strafe, Turn
from bottisota.engine.movement import moves
from bottisota.engine.overwatch import OverwatchInterrupt
from bottisota.engine.setup import new_state
from bottisota.engine.state import Mine
from bottisota.formats.loading import bundled_rules, load_arena
from bottisota.geometry.arena_index import FAST_PATHS
from bottisota.play.journal import state_digest
from bottisota.robot.simulate import arena_path

LOCOS = ("walker", "wheeled", "tracked", "hover", "flier")
SPOTS = [(15, 15), (30, 12), (45, 20), (60, 12), (100, 15), (20, 40), (40, 35),
         (70, 30), (95, 40), (110, 25)]


def _state(seed: int):
    rng = random.Random(seed)
    rules = bundled_rules()
    arena = load_arena(arena_path("factory"), rules)
    bots = []
    for k, (x, y) in enumerate(SPOTS):
        bots.append({"id": f"b{k}", "player": ("red", "blue")[k % 2], "at": [x, y],
                     "facing": rng.choice(range(0, 360, 45)),
                     "card": {"locomotion": LOCOS[k % len(LOCOS)], "move": 20, "turn": 2,
                              "armour": 4, "structure": 6,
                              "weapons": [{"name": "Gun", "kind": "gun", "mount": "turret",
                                           "range": rng.choice((8, 20, 60)), "to_hit": 4,
                                           "hits": 1}]}})
    state = new_state(arena, rules, bots, dice=seed, round=2, placement=False)
    for b in state.bots.values():
        b.overwatch = rng.random() < 0.4
    for k in range(rng.randint(0, 4)):
        x, y = SPOTS[rng.randrange(len(SPOTS))]
        state.mines.append(Mine(f"m{k}", "b0", "red", "Mine", x + rng.uniform(-6, 6),
                                y + rng.uniform(-6, 6), 0.0, 1.0, active=rng.random() < 0.7))
    return state, rng


def _move(rng: random.Random, bot_id: str) -> Move:
    steps = []
    for k in range(5):
        if k % 2:
            steps.append(Turn(rng.choice((-45, 45))))
        elif rng.random() < 0.3:
            steps.append(Strafe(rng.choice((90, -90)), round(rng.uniform(0.5, 3), 2)))
        else:
            steps.append(Forward(round(rng.uniform(0.5, 5), 2)))
    return Move(bot_id, tuple(steps))


def _commit(seed: int, bot_id: str, fast: bool):
    state, rng = _state(seed)
    move = _move(rng, bot_id)
    saved = FAST_PATHS.on
    FAST_PATHS.on = fast
    try:
        checked = moves.preview_move(state, move)
        quiet = (not isinstance(checked, Refusal)
                 and moves._quiet(state, state.bots[bot_id], checked, OverwatchInterrupt()))
        result = moves.commit_move(state, move, OverwatchInterrupt(), checked=checked)
    finally:
        FAST_PATHS.on = saved
    events = result if isinstance(result, Refusal) else (result.events, result.path,
                                                          result.pieces, result.spent)
    return quiet, events, state_digest(state), [r.value for r in state.dice.rolls]


def test_a_quiet_commit_is_the_live_walk():  # R23, R31, D30
    quiet_seen = loud_seen = 0
    for seed in range(60):
        bot_id = f"b{seed % len(SPOTS)}"
        quiet, fast, fast_state, fast_dice = _commit(seed, bot_id, fast=True)
        _, plain, plain_state, plain_dice = _commit(seed, bot_id, fast=False)
        assert fast == plain, seed
        assert fast_state == plain_state, seed
        assert fast_dice == plain_dice, seed
        quiet_seen += quiet
        loud_seen += not quiet
    assert quiet_seen > 10 and loud_seen > 10      # both kinds of move were met
