"""One session behind every face (issue 26): the preview's ghost of a refused plan,
pre-measures, and a die rolled by hand as a state the game waits in (D8), with
memory and journal agreeing after every action."""
from __future__ import annotations

import random

from bottisota.core.actions import Forward, Move, Pass, Place, Shoot, ShotOrder
from bottisota.core.dice import Dice, by_hand
from bottisota.engine.game import Game
from bottisota.formats.content import arenas_dir
from bottisota.formats.loading import bundled_rules, load_arena, load_catalogue
from bottisota.play.journal import journal_game, read, state_digest
from bottisota.viewmodel.core_calls import preview_move
from bottisota.viewmodel.game_session import Session

SPOTS = {"red": (20.0, 36.0, 90.0), "blue": (40.0, 36.0, 270.0)}


def duel(dice: Dice | None = None, seed: int | None = 2) -> Game:
    rules = bundled_rules()
    arena = load_arena(arenas_dir() / "duel.yaml", rules)
    cards, mods = load_catalogue()
    # seed 2: red draws an artillery bot (Mortar), blue a tractor
    return Game.new(arena, rules, cards, mods, ["red", "blue"], seed=seed, dice=dice)


def plain_action(game: Game):
    """Place on the duel spots, stand still, shoot the other bot when the rules let."""
    bot, due = game.active_bot(), game.expected()
    if due == "place":
        return Place(bot.id, *SPOTS[bot.player])
    if due == "move":
        return Move(bot.id, ())
    other = next((b for b in game.state.live_bots() if b.player != bot.player), None)
    for weapon in bot.stats.weapons:
        if other is not None:
            shot = Shoot(bot.id, (ShotOrder(weapon.name, other.id),))
            if game.legal(shot) is None:
                return shot
    return Pass(bot.id)


def test_the_ghost_of_a_refused_plan_is_kept():
    game = duel()
    while game.state.round < 2 or game.whose_turn() != "blue" or game.expected() != "move":
        assert game.act(plain_action(game)).ok
    blue = game.active_bot()
    assert (blue.x, blue.y, blue.facing) == (40.0, 36.0, 270.0)
    # the second step goes far past the tractor's move: refused at step 1
    pv = preview_move(game, Move(blue.id, (Forward(3), Forward(100))))
    assert pv.result is None and pv.refusal is not None and pv.refusal.step == 1
    assert pv.prefix is not None and pv.shown is pv.prefix      # the ghost: the legal part
    end = pv.prefix.path[-1]
    assert (round(end.x, 6), round(end.y, 6)) == (37.0, 36.0)   # 3 cm west of (40, 36)
    # the session asks the same once per state and plan
    session = Session(game)
    first = session.preview(Move(blue.id, (Forward(3), Forward(100))))
    assert session.preview(Move(blue.id, (Forward(3), Forward(100)))) is first
    assert first.prefix is not None and first.prefix.path[-1].x == end.x


def test_a_bot_does_not_premeasure_itself():
    game = duel()
    while game.state.round < 2 or game.expected() != "shoot":
        assert game.act(plain_action(game)).ok
    session = Session(game)
    me = game.active_bot()
    weapon = me.stats.weapons[0].name
    assert session.premeasure(me.id, weapon, me.id) == f"'{me.id}' is not another bot on the table"
    other = next(b for b in game.state.live_bots() if b.id != me.id)
    assert not isinstance(session.premeasure(me.id, weapon, other.id), str)


def test_act_gives_its_own_copy_of_the_events():
    game = duel()
    result = game.act(plain_action(game))
    assert result.ok and result.events == game.history[-1].events
    result.events.append({"type": "note", "text": "mine"})
    assert game.history[-1].events[-1] != {"type": "note", "text": "mine"}


def test_a_die_rolled_by_hand_is_waited_for_and_memory_and_journal_agree(tmp_path):  # D8
    start = random.Random(11)
    game = duel(Dice(ask=lambda purpose: start.randint(1, 6)), seed=None)
    path = tmp_path / "hand.jsonl"
    journal_game(game, path)
    game.state.dice.ask = by_hand             # from now on every die comes typed
    session = Session(game)
    hands = random.Random(5)
    waits = actions = 0
    while game.state.round <= 4 and not game.state.over:
        action = plain_action(game)
        before = state_digest(game.state)
        result = session.act(action, typed=[])
        while result.waiting is not None:
            waits += 1
            assert game.waiting is not None and game.waiting.purpose == result.waiting.purpose
            assert state_digest(game.state) == before          # waiting: nothing changed
            assert session.waiting().kind == "die"
            result = session.give_die(hands.randint(1, 6))
        assert result.ok, result.refusal
        assert game.waiting is None
        actions += 1
        replayed = read(path).game
        assert state_digest(replayed.state) == state_digest(game.state), action
        assert replayed.history[-1].events == game.history[-1].events
        assert [r.value for r in replayed.history[-1].rolls] == \
            [r.value for r in game.history[-1].rolls]
    assert waits >= 4 and actions >= 12
    assert session.undo() and session.redo()
    assert state_digest(read(path).game.state) == state_digest(game.state)


def test_typed_dice_beyond_the_need_are_counted_not_journaled(tmp_path):
    start = random.Random(3)
    game = duel(Dice(ask=lambda purpose: start.randint(1, 6)), seed=None)
    journal_game(game, tmp_path / "extra.jsonl")
    game.state.dice.ask = by_hand
    result = game.act(plain_action(game), typed=[4, 4, 4])       # a placement rolls nothing
    assert result.ok and result.unused == 3
    assert all(e.get("type") != "note" for e in game.history[-1].events)
    assert state_digest(read(tmp_path / "extra.jsonl").game.state) == state_digest(game.state)
