"""Soak test: every personality plays seeded games on every bundled arena with every
locomotion type, and never makes an illegal action or raises.

The default run is short (a few games, a short round limit) so a local `pytest`
stays fast; CI (CI=true) and BOTTISOTA_LONG_TESTS=1 play the full 100 games per
arena and locomotion (about 5-8 minutes on two cores).
"""
from __future__ import annotations

import os

import pytest

from bottisota.core.cards import LOCOMOTIONS
from bottisota.formats.content import arenas_dir
from bottisota.robot.match import play
from bottisota.robot.simulate import setup

LONG = os.environ.get("BOTTISOTA_LONG_TESTS") == "1" or os.environ.get("CI") == "true"
GAMES = 100 if LONG else 2
ROUNDS = 10 if LONG else 3
ARENAS = sorted(p.stem for p in arenas_dir().glob("*.yaml"))
PERSONALITIES = ["aggressive", "sniper", "scavenger"]


@pytest.mark.parametrize("locomotion", LOCOMOTIONS)
@pytest.mark.parametrize("arena_name", ARENAS)
def test_every_personality_plays_legal_games(arena_name, locomotion):
    # three seats, one per personality; the deck holds only this locomotion's cards
    world = setup(arena_name, PERSONALITIES, locomotion=locomotion)
    for seed in range(GAMES):
        record = play(world["arena"], world["rules"], world["cards"], world["mods"],
                      world["personalities"], seed=seed, round_limit=ROUNDS)
        assert record.refusals == [], (arena_name, locomotion, seed, record.refusals)
        assert record.errors == [], (arena_name, locomotion, seed, record.errors)
        assert record.rounds >= 1 and record.decisions > 0
        fielded = {card for card, _player, _tally in record.cards}
        assert all(world["cards"][c].locomotion == locomotion for c in fielded)
