"""The game's turn flow (R6, R7, D18-D20), destruction and respawn (R54-R56), the end (D24)."""
import pytest

from bottisota.commands.dice_prompt import prompt_dice
from bottisota.core.actions import Forward, Move, Pass, Place, SetOverwatch, Shoot, ShotOrder
from bottisota.core.cards import BotCard, Weapon
from bottisota.core.dice import Dice
from bottisota.engine.game import Game
from bottisota.formats.loading import bundled_rules
from tests.builders import arena

GUN = Weapon("Gun", kind="gun", mount="turret", range=100, to_hit=2, hits=1)
GUNNER = BotCard("gunner", "Gunner", "walker", move=8, armour=4, structure=1, copies=2,
                 weapons=(GUN,))
SPARE = BotCard("spare", "Spare", "hover", move=10, armour=4, structure=1, weapons=(GUN,))
TABLE = arena({"type": "wall", "rect": [28, 0, 4, 20]}, {"type": "pit", "circle": [30, 45, 4]},
              size=(60, 60))


def new_game(dice, **kw) -> Game:
    return Game.new(TABLE, bundled_rules(), [GUNNER, SPARE], [], ["red", "blue"],
                    dice=Dice(forced=dice), **kw)


def shoot(bot, target):
    return Shoot(bot, (ShotOrder("Gun", target),))


def test_random_starting_player_draws_a_random_bot_to_place():  # R6 D18
    game = new_game([2, 3])        # pick(2): 2 -> blue; pick(3): 3 -> the third card
    assert game.state.players == ["blue", "red"]
    assert game.whose_turn() == "blue" and game.expected() == "place"
    b = game.active_bot()
    assert (b.id, b.card.id, b.new, b.on_table) == ("blue-1", "spare", True, False)
    assert game.state.deck == ["gunner", "gunner"]
    assert [e["type"] for e in game.start_events] == ["seats", "drawn", "turn"]


@pytest.mark.parametrize("x, y, why", [
    (30, 10, "wall #0"),            # overlaps the wall
    (0.5, 30, "not wholly on the table"),
])
def test_placing_on_illegal_spots_is_refused(x, y, why):  # R6
    game = new_game([1, 1])
    refusal = game.act(Place("red-1", x, y)).refusal
    assert refusal.rule == "R6" and why in refusal.message
    assert game.expected() == "place"


def test_a_ground_bot_may_not_be_placed_in_a_pit_but_a_hoverer_may():  # R6 R36
    walker = new_game([1, 1])                                    # red draws a gunner (walker)
    assert "pit" in walker.act(Place("red-1", 30, 45)).refusal.message
    hover = new_game([1, 3])                                     # red draws the spare (hover)
    assert hover.act(Place("red-1", 30, 45)).ok


def test_bases_may_not_overlap_at_placement():  # R6 D4
    game = new_game([1, 1, 1])
    game.act(Place("red-1", 10, 30, 90))
    game.act(Move("red-1", ()))
    game.act(Pass("red-1"))
    assert "overlap red-1" in game.act(Place("blue-1", 11.5, 30)).refusal.message
    assert game.act(Place("blue-1", 12.0, 30)).ok                # touching is fine


def test_turns_follow_the_seat_order_and_phases():  # D18 D19
    game = new_game([1, 1, 1])
    assert game.act(Move("red-1", ())).refusal.rule == "D18"     # place first
    game.act(Place("red-1", 10, 30, 90))
    assert game.expected() == "move"
    assert game.act(Place("red-1", 12, 30)).refusal.rule == "D18"
    game.act(Move("red-1", (Forward(3),)))
    assert game.expected() == "shoot"
    assert game.state.bots["red-1"].pos == (13.0, 30.0)           # facing 90 is +x (D2)
    game.act(Pass("red-1"))
    assert game.whose_turn() == "blue" and game.expected() == "place"
    assert game.act(Pass("red-1")).refusal.rule == "D18"


def test_first_round_forbids_shooting_and_overwatch_then_allows_them():  # R7
    game = new_game([1, 1, 1, 3])
    game.act(Place("red-1", 10, 30, 90))
    game.act(Move("red-1", ()))
    assert game.act(shoot("red-1", "blue-1")).refusal.rule in ("R7", "D19")
    assert game.act(SetOverwatch("red-1")).refusal.rule == "R7"
    game.act(Pass("red-1"))
    game.act(Place("blue-1", 50, 30, 270))
    game.act(Move("blue-1", ()))
    assert game.act(shoot("blue-1", "red-1")).refusal.rule == "R7"
    game.act(Pass("blue-1"))
    assert game.state.round == 2 and game.whose_turn() == "red"
    assert not game.state.bots["red-1"].new                      # R56 ends after the first turn
    game.act(Move("red-1", ()))
    assert game.act(SetOverwatch("red-1")).ok


def play_to_round_two(game: Game) -> None:
    game.act(Place("red-1", 10, 30, 90))
    game.act(Move("red-1", ()))
    game.act(Pass("red-1"))
    game.act(Place("blue-1", 50, 30, 270))
    game.act(Move("blue-1", ()))
    game.act(Pass("blue-1"))


def test_destroyed_bot_is_removed_and_its_player_draws_a_new_one_next_turn():  # R55 R56 D22
    game = new_game([1, 1, 1, 6, 1])
    play_to_round_two(game)
    game.act(Move("red-1", ()))
    result = game.act(shoot("red-1", "blue-1"))
    kinds = [e["type"] for e in result.events]
    assert kinds.index("destroyed") < kinds.index("removed") < kinds.index("turn_ended")
    assert game.state.bots["blue-1"].removed and game.state.scores == {"red": 5, "blue": 0}
    # blue's next turn: a new random bot (the last card, so no roll) placed anywhere
    assert game.whose_turn() == "blue" and game.expected() == "place"
    new = game.active_bot()
    assert (new.id, new.card.id, new.new) == ("blue-2", "spare", True)
    assert game.act(Place("blue-2", 55, 55, 180)).ok
    game.act(Move("blue-2", (Forward(2),)))
    assert game.act(shoot("blue-2", "red-1")).refusal.rule == "R56"
    assert game.act(SetOverwatch("blue-2")).refusal.rule == "R56"
    assert game.act(Pass("blue-2")).ok


def test_with_the_deck_empty_a_destroyed_bots_player_is_out_and_the_game_ends():  # R54 D24
    game = new_game([1, 1, 1, 6, 1, 6, 1])
    play_to_round_two(game)
    game.act(Move("red-1", ()))
    game.act(shoot("red-1", "blue-1"))
    game.act(Place("blue-2", 55, 55, 180))
    game.act(Move("blue-2", ()))
    game.act(Pass("blue-2"))
    assert game.state.deck == [] and game.state.round == 3
    game.act(Move("red-1", ()))
    result = game.act(shoot("red-1", "blue-2"))
    assert game.state.out == ["blue"]
    assert game.state.over and game.expected() == "over" and game.whose_turn() is None
    over = [e for e in result.events if e["type"] == "game_over"][0]
    assert over["winners"] == ["red"] and over["scores"] == {"red": 10, "blue": 0}
    assert game.act(Pass("red-1")).refusal.rule == "D24"


def test_round_limit_ends_the_game_most_points_win():  # D24
    game = new_game([1, 1, 1], round_limit=1)
    play_to_round_two(game)
    assert game.state.over and game.state.round == 1
    assert game.state.played == ["red", "blue"]


def test_physical_dice_are_asked_for_with_their_purpose():  # D8
    typed = iter(["x", "1", "1", "1", "7", "6", "1"])
    asked: list[str] = []
    said: list[str] = []

    def read(prompt: str) -> str:
        asked.append(prompt)
        return next(typed)

    game = Game.new(TABLE, bundled_rules(), [GUNNER, SPARE], [], ["red", "blue"],
                    dice=prompt_dice(read, said.append))
    assert asked[0] == "roll a d6 for starting player (R6) (1 of 2): "
    assert said == ["'x' is not a d6 result: type a number from 1 to 6"]
    assert asked[2].startswith("roll a d6 for draw: red's bot from the deck of 3")
    play_to_round_two(game)
    game.act(Move("red-1", ()))
    game.act(shoot("red-1", "blue-1"))
    assert asked[4] == "roll a d6 for to-hit: red-1's Gun vs blue-1, needs 2+: "
    assert said[-1] == "'7' is not a d6 result: type a number from 1 to 6"
    assert asked[6].startswith("roll a d6 for armour: blue-1 vs red-1's Gun (1 of 1)")
    assert game.state.bots["blue-1"].destroyed
    assert [r.value for r in game.state.dice.rolls] == [1, 1, 1, 6, 1]


def test_undo_then_redo_returns_the_same_state():  # D8
    game = Game.new(TABLE, bundled_rules(), [GUNNER, SPARE], [], ["red", "blue"], seed=11)
    import random

    from bottisota.engine.random_play import play_random_game

    play_random_game(game, random.Random(3), max_actions=12)
    before = snapshot(game)
    last = game.history[-1]
    assert game.undo()
    assert snapshot(game) != before and len(game.history) == 11
    assert game.redo()
    assert snapshot(game) == before
    assert game.history[-1].events == last.events


def snapshot(game: Game):
    s = game.state
    return (s.round, s.phase, s.active, dict(s.scores), list(s.deck), s.dice.used,
            [(b.id, round(b.x, 6), round(b.y, 6), b.facing, b.damage, b.destroyed, b.removed,
              b.overwatch, b.moved) for b in s.bots.values()])
