"""Loading arenas, cards, mods, house rules and scenarios into values (formats.md)."""
from pathlib import Path

import pytest

from bottisota.core.actions import Forward, Move, Service, Shoot, ShotOrder, Strafe, Turn
from bottisota.core.errors import InputError
from bottisota.engine.setup import new_state
from bottisota.formats.loading import (
    WALL_DEFAULT_HEIGHT,
    arena_from_dict,
    bundled_rules,
    card_from_dict,
    load_arena,
    load_cards,
    load_catalogue,
    load_mods,
    load_rules,
    rules_with_overrides,
)
from bottisota.play.scenario import load_scenario, parse_scenario, start_state

GOOD = Path(__file__).parent / "fixtures" / "good"


@pytest.fixture(scope="module")
def warehouse():
    return load_arena(GOOD / "arena_all_features.yaml")


def test_every_feature_type_loads_with_its_keys(warehouse):
    types = [f.type for f in warehouse.features]
    assert types == ["wall", "door", "platform", "stairs", "ramp", "escalator", "lift", "pit",
                     "conveyor", "service", "teleporter", "teleporter", "goal"]
    assert warehouse.size == (120.0, 90.0)
    assert warehouse.name == "Warehouse"
    stairs = warehouse.features[3]
    assert (stairs.from_z, stairs.to_z, stairs.up) == (0.0, 4.0, 270.0)
    assert stairs.shape.bounds == (100.0, 50.0, 108.0, 70.0)
    escalator = warehouse.features[5]
    assert (escalator.speed, escalator.carries) == (2.0, "up")
    assert warehouse.features[6].top == 4.0
    assert warehouse.by_id("tp-west").shape.bounds == pytest.approx((8.5, 78.5, 11.5, 81.5))


def test_wall_and_door_height_default_to_ten(warehouse):
    assert WALL_DEFAULT_HEIGHT == 10
    assert warehouse.features[0].height == 10.0       # given
    assert warehouse.features[1].height == 10.0       # door: the default


def test_conveyor_keeps_its_path_and_width(warehouse):
    belt = warehouse.features[8]
    assert belt.path == ((0.0, 20.0), (25.0, 20.0), (25.0, 30.0))
    assert belt.width == 4.0
    assert belt.shape.area == pytest.approx(140.0)


def test_goal_points_and_respawn_spots(warehouse):  # D23
    goal = warehouse.features[12]
    assert goal.points == 2
    assert goal.respawn == ((20.0, 60.0), (80.0, 80.0))
    bare = arena_from_dict({"size": [40, 40], "features": [{"type": "goal", "circle": [5, 5, 1]}]})
    assert bare.features[0].points is None             # the caller uses rules.goal_points


def test_feature_remembers_its_line(warehouse):
    assert [f.line for f in warehouse.features[:3]] == [5, 6, 7]


def test_inline_arena_without_name_or_features():
    arena = arena_from_dict({"size": [60, 40]})
    assert arena.features == () and arena.size == (60.0, 40.0)


def test_arena_errors_are_all_reported_and_nothing_is_returned():
    with pytest.raises(InputError) as err:
        arena_from_dict({"size": [60], "features": [{"type": "wal", "rect": [0, 0, 1, 1]},
                                                    {"type": "pit"}]})
    paths = [p.path for p in err.value.problems]
    assert paths == ["size", "features[0].type", "features[1]"]


def test_bot_cards_from_a_list_file_with_defaults():  # D3
    cards = load_cards(GOOD / "cards.yaml")
    rammer, kite = cards["rammer"], cards["kite"]
    assert (rammer.move, rammer.turn, rammer.copies, rammer.base, rammer.height) == (
        12.0, 3.0, 2, 2.0, 2.0)
    spray = rammer.weapon("Scatter")
    assert (spray.kind, spray.mount, spray.hits, spray.ammo, spray.effect) == (
        "spray", "turret", "d6", 2, "rust")
    gun = rammer.weapon("Nose cannon")
    assert (gun.armour_mod, gun.explosive, gun.ammo, gun.effect) == (0, False, None, None)
    assert (kite.turn, kite.min_move, kite.base, kite.height) == (2.0, 6.0, 3.0, 1.5)


def test_inline_card_needs_five_keys_and_takes_the_bots_id():  # D3
    card = card_from_dict({"locomotion": "walker", "move": 8, "armour": 4, "structure": 6,
                           "weapons": []}, inline=True, default_id="b")
    assert (card.id, card.name, card.turn, card.min_move, card.base, card.height) == (
        "b", "b", 2.0, 0.0, 2.0, 2.0)
    with pytest.raises(InputError) as err:
        card_from_dict({"locomotion": "walker", "move": 8, "armour": 4, "structure": 6,
                        "weapons": []})
    assert {p.message.split(" (")[0] for p in err.value.problems} == {
        "missing key 'id'", "missing key 'name'"}


def test_card_base_default_follows_house_rules():  # D3
    rules = bundled_rules().overridden({"base_diameter": 3.0})
    card = card_from_dict({"locomotion": "walker", "move": 8, "armour": 4, "structure": 6,
                           "weapons": []}, inline=True, default_id="x", rules=rules)
    assert card.base == 3.0 and card.radius == 1.5


def test_mods_load_with_modifiers_and_weapons():
    mods = load_mods(GOOD / "mods.yaml")
    assert mods["turbo"].modifies == {"move": 3.0}
    assert mods["turbo"].deck == "parts"
    roof = mods["roof_gun"]
    assert roof.deck == "research" and roof.modifies == {"armour_mod": 1.0, "hit_mod": -1.0}
    assert roof.weapons[0].ammo == 4


def test_duplicate_card_ids_across_files_are_refused(tmp_path):
    body = (
        "id: twin\nname: Twin\nlocomotion: walker\nmove: 8\narmour: 4\nstructure: 6\nweapons: []\n"
    )
    (tmp_path / "a.yaml").write_text(body)
    (tmp_path / "b.yaml").write_text(body)
    with pytest.raises(InputError) as err:
        load_cards(tmp_path)
    assert len(err.value.problems) == 1
    assert "'twin' is used again" in err.value.problems[0].message
    assert err.value.problems[0].line == 1


def test_bundled_rules_load_every_number():
    rules = load_rules(Path(__file__).parents[1] / "cards" / "rules.yaml")
    assert rules == bundled_rules()
    assert rules.flier_crash_hits == "d6" and rules.round_limit is None


def test_rule_overrides_change_only_the_named_values():
    rules = rules_with_overrides(bundled_rules(), {"blast_diameter": 8, "round_limit": 10})
    assert rules.blast_diameter == 8.0 and rules.round_limit == 10
    assert rules.overwatch_range == bundled_rules().overwatch_range
    with pytest.raises(InputError) as err:
        rules_with_overrides(bundled_rules(), {"blast_diameter": "big", "overwach_range": 3})
    messages = [p.message for p in err.value.problems]
    assert messages[0] == "expected a number, got 'big'"
    assert messages[1].endswith("did you mean 'overwatch_range'?")


def test_catalogue_holds_the_bundled_cards():
    cards, mods = load_catalogue()
    assert all(c.id == key for key, c in cards.items())
    assert all(m.id == key for key, m in mods.items())


# --- new_state ----------------------------------------------------------------------------

def test_new_state_seats_players_sets_z_ammo_and_goals(warehouse):  # D2 D3 D23
    mods = load_mods(GOOD / "mods.yaml")
    state = new_state(warehouse, bots=[
        {"id": "a", "player": "red", "at": [80, 60], "facing": -90, "parts": ["turbo"],
         "card": {"locomotion": "walker", "move": 8, "armour": 4, "structure": 6,
                  "weapons": [{"name": "Pod", "kind": "rocket", "ammo": 2}]}},
        {"id": "b", "player": "blue", "at": [104, 60], "facing": 450, "ammo": {"Pod": 1},
         "status": {"rust": 2}, "overwatch": True, "damage": 1,
         "card": {"locomotion": "hover", "move": 10, "armour": 4, "structure": 6,
                  "weapons": [{"name": "Pod", "kind": "rocket", "ammo": 2}]}},
        {"id": "c", "player": "red", "at": [10, 10],
         "card": {"locomotion": "walker", "move": 8, "armour": 4, "structure": 6,
                  "weapons": []}},
    ], mods=mods, dice=[3, 4], round=3)
    a, b = state.bots["a"], state.bots["b"]
    assert state.players == ["red", "blue"]
    assert state.scores == {"red": 0, "blue": 0} and state.kills == {"red": 0, "blue": 0}
    assert (a.z, a.facing, a.ammo, a.stats.move, a.parts) == (4.0, 270.0, {"Pod": 2}, 11.0,
                                                              ["turbo"])
    assert (b.z, b.facing, b.ammo, b.rust, b.overwatch, b.damage) == (
        2.0, 90.0, {"Pod": 1}, 2, True, 1)          # halfway up the stairs (x 100..108)
    assert state.round == 3 and state.dice.d6("t") == 3
    goal = state.goals[0]
    assert (goal.feature, goal.x, goal.y, goal.r, goal.points, goal.spots_left) == (
        12, 50.0, 45.0, 2.0, 2, [(20.0, 60.0), (80.0, 80.0)])


def test_new_state_goal_points_default_from_rules():  # D23
    arena = arena_from_dict({"size": [40, 40], "features": [{"type": "goal", "circle": [5, 5, 1]}]})
    rules = bundled_rules().overridden({"goal_points": 3})
    assert new_state(arena, rules).goals[0].points == 3


def test_new_state_refuses_unknown_card_and_part_with_a_hint():
    arena = arena_from_dict({"size": [40, 40]})
    with pytest.raises(InputError) as err:
        new_state(arena, bots=[{"id": "a", "player": "red", "card": "x-unknown-card",
                                "at": [5, 5], "parts": ["no-such-part"]}],
                  cards={"x-known-card": None}, mods={})
    assert [p.path for p in err.value.problems] == ["bots[0].card", "bots[0].parts[0]"]


# --- scenarios -----------------------------------------------------------------------------

def test_scenario_with_an_arena_file_beside_it():
    spec = load_scenario(GOOD / "scenario_arena_file.yaml")
    assert spec.arena.name == "Warehouse" and len(spec.arena.features) == 13
    assert spec.rules.blast_diameter == 8.0
    assert (spec.seed, spec.dice, spec.round) == (7, None, 3)
    assert spec.actions == [
        Move("a", (Forward(4.0), Turn(45.0), Strafe(90.0, 2.0)), hold_fire=("b",)),
        Shoot("a", (ShotOrder("Gun", "b"),)),
        Service("c", "repair"),
    ]
    assert spec.action_lines == [11, 12, 13]
    assert spec.expect == {"bots": {"a": {"x": 76, "y": 60}}, "scores": {"red": 0},
                           "rejected": [1]}
    state = start_state(spec)
    assert state.bots["c"].facing == 90.0 and state.bots["b"].ammo == {"Pod": 1}


def test_invalid_shared_scenario_names_line_5_and_suggests_wall():
    text = ("name: typo\narena:\n  size: [80, 60]\n  features:\n"
            "    - {type: wal, rect: [10, 10, 2, 20]}\nbots: []\nactions: []\n")
    with pytest.raises(InputError) as err:
        parse_scenario(text, "invalid_arena.yaml")
    (problem,) = err.value.problems
    assert (problem.line, problem.path) == (5, "arena.features[0].type")
    assert problem.message.endswith("did you mean 'wall'?")


def test_scenario_geometry_problem_of_an_inline_arena_has_the_scenario_path():
    text = ("arena:\n  size: [80, 60]\n  features:\n"
            "    - {type: pit, circle: [40, 30, 6]}\n"
            "    - {type: wall, rect: [39, 20, 2, 20]}\n")
    with pytest.raises(InputError) as err:
        parse_scenario(text, "s.yaml")
    (problem,) = err.value.problems
    assert (problem.line, problem.path) == (5, "arena.features[1]")


def test_scenario_dice_and_seed_together_are_refused():
    with pytest.raises(InputError) as err:
        parse_scenario("arena: {size: [10, 10]}\ndice: [1]\nseed: 3\n")
    assert err.value.problems[0].line == 3


def test_builders_make_a_state_with_rule_overrides_and_forced_dice():  # D3 D8
    from tests.builders import arena, bot, card, state, weapon

    a = arena({"type": "platform", "rect": [40, 0, 40, 60], "height": 4})
    s = state(a, bot("g", "red", [50, 30], 90, card(weapons=[weapon(ammo=3)])),
              bot("t", "blue", [10, 30], card_value=card(locomotion="wheeled")),
              dice=[6, 1], blast_diameter=8)
    assert s.rules.blast_diameter == 8.0
    assert (s.bots["g"].z, s.bots["g"].ammo, s.bots["t"].z) == (4.0, {"Gun": 3}, 0.0)
    assert s.bots["t"].card.locomotion == "wheeled" and s.bots["t"].card.id == "t"
    assert [s.dice.d6("a"), s.dice.d6("b")] == [6, 1]


def test_parts_keep_counts_whole_numbers():
    # formats.md mods: armour_mod and hit_mod are added to d6 rolls, structure to points
    from bottisota.core.cards import BotCard, Mod

    card = BotCard(id="c", name="C", locomotion="walker", move=8, armour=4, structure=6)
    plate = Mod(id="plate", name="Plate", modifies={"armour_mod": 1.0, "structure": 2.0,
                                                      "move": 1.5})
    moved = card.with_mods([plate])
    assert (moved.armour_mod, moved.structure, moved.move) == (1, 8, 9.5)
    assert isinstance(moved.armour_mod, int) and isinstance(moved.structure, int)
