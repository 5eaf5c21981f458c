"""Dice modes (D8): one seeded stream per game, forced rolls, typed-in physical dice."""
import pytest

from bottisota.commands.dice_prompt import prompt_dice
from bottisota.core.actions import Move, Pass, Place, Shoot, ShotOrder
from bottisota.core.cards import BotCard, Weapon
from bottisota.core.dice import Dice
from bottisota.core.errors import DiceExhausted
from bottisota.engine.game import Game
from bottisota.formats.loading import bundled_rules
from tests.builders import arena

GUN = Weapon("Gun", kind="gun", mount="turret", range=100, to_hit=2, hits=1)
CARDS = [BotCard("gunner", "Gunner", "walker", move=8, armour=4, structure=3, copies=3,
                 weapons=(GUN,))]
TABLE = arena(size=(60, 60))


def game_with(dice: Dice) -> Game:
    return Game.new(TABLE, bundled_rules(), CARDS, [], ["red", "blue"], dice=dice)


def test_the_same_seed_gives_the_same_game():  # D8
    a, b = game_with(Dice(seed=42)), game_with(Dice(seed=42))
    assert a.start_events == b.start_events
    assert [r.value for r in a.state.dice.rolls] == [r.value for r in b.state.dice.rolls]
    assert all(r.purpose for r in a.state.dice.rolls)


def test_typed_dice_are_asked_again_until_a_d6_result():  # D8
    typed = iter(["0", "six", " 4 "])
    said = []
    dice = prompt_dice(lambda prompt: next(typed), said.append)
    assert dice.d6("to-hit: a's Gun vs b, needs 4+") == 4
    assert said == ["'0' is not a d6 result: type a number from 1 to 6",
                    "'six' is not a d6 result: type a number from 1 to 6"]
    assert dice.rolls[0].purpose == "to-hit: a's Gun vs b, needs 4+"


def test_forced_dice_running_out_stops_with_the_roll_it_needed():  # D8
    game = game_with(Dice(forced=[1, 1, 1]))
    for bot, x in (("red-1", 10), ("blue-1", 50)):
        game.act(Place(bot, x, 30))
        game.act(Move(bot, ()))
        game.act(Pass(bot))
    game.act(Move("red-1", ()))
    with pytest.raises(DiceExhausted, match="roll 4 .*to-hit: red-1's Gun vs blue-1"):
        game.act(Shoot("red-1", (ShotOrder("Gun", "blue-1"),)))
