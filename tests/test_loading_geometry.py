"""Geometry checks of arenas: shapes, the table, overlaps, slopes that join (formats.md)."""
import pytest

from bottisota.core.errors import InputError
from bottisota.formats.arena_checks import floor_z, slope_ends
from bottisota.formats.loading import arena_from_dict, bundled_rules


def problems(*features, size=(80, 60), rules=None):
    with pytest.raises(InputError) as err:
        arena_from_dict({"size": list(size), "features": list(features)}, rules=rules)
    return [(p.path, p.message) for p in err.value.problems]


def loads(*features, size=(80, 60), rules=None):
    return arena_from_dict({"size": list(size), "features": list(features)}, rules=rules)


PLATFORM = {"type": "platform", "rect": [40, 30, 30, 20], "height": 4}


def test_stairs_reaching_the_platform_join():  # D16
    arena = loads(PLATFORM, {"type": "stairs", "rect": [50, 20, 6, 10], "from": 0, "to": 4,
                             "up": 0})
    stairs = arena.features[1]
    low, high = slope_ends(stairs)
    assert low == pytest.approx((53.0, 19.9)) and high == pytest.approx((53.0, 30.1))
    assert floor_z(arena.features, 53.0, 25.0) == pytest.approx(2.0)


def test_stairs_that_claim_the_wrong_top_do_not_join():  # D16
    (problem,) = problems(PLATFORM, {"type": "stairs", "rect": [50, 20, 6, 10], "from": 0,
                                     "to": 3.4, "up": 0})
    assert problem == ("features[1].to", "stairs #1 does not join: it claims to 3.4 but the floor "
                       "just beyond its high end, at (53.00, 30.10), is at 4 (more than the "
                       "step height 0.5 apart)")


def test_a_difference_within_the_step_height_still_joins():  # D16
    loads(PLATFORM, {"type": "ramp", "rect": [50, 20, 6, 10], "from": 0.5, "to": 3.5, "up": 0})


def test_step_height_comes_from_the_house_rules():  # D16
    rules = bundled_rules().overridden({"step_height": 0.2})
    (problem,) = problems(PLATFORM, {"type": "ramp", "rect": [50, 20, 6, 10], "from": 0.5,
                                     "to": 4, "up": 0}, rules=rules)
    assert problem[0] == "features[1].from"
    assert "low end, at (53.00, 19.90), is at 0" in problem[1]


def test_rotated_escalator_climbing_west_joins():  # D2
    loads(PLATFORM, {"type": "escalator", "rect": [70, 35, 10, 6], "from": 0, "to": 4,
                     "up": 270, "speed": 2})
    (problem,) = problems(PLATFORM, {"type": "escalator", "rect": [70, 35, 10, 6], "from": 0,
                                     "to": 4, "up": 90, "speed": 2})
    assert problem[0] == "features[1].from"
    assert "(69.90, 38.00), is at 4" in problem[1]


def test_from_above_to_is_refused():
    (problem,) = problems({"type": "ramp", "rect": [10, 10, 5, 5], "from": 4, "to": 0, "up": 0})
    assert problem[0] == "features[0].from"


@pytest.mark.parametrize("first,second", [
    ({"type": "wall", "rect": [10, 10, 10, 2]}, {"type": "wall", "rect": [15, 5, 2, 10]}),
    ({"type": "pit", "circle": [20, 20, 3]}, {"type": "pit", "circle": [22, 20, 3]}),
    ({"type": "platform", "rect": [10, 10, 20, 20], "height": 4},
     {"type": "wall", "rect": [10, 10, 20, 1], "height": 6}),
    ({"type": "conveyor", "path": [[5, 20], [30, 20]], "width": 4},
     {"type": "pit", "circle": [30, 20, 3]}),
    ({"type": "teleporter", "circle": [20, 20, 1.5]},
     {"type": "teleporter", "circle": [23, 20, 1.5]}),     # touching, not overlapping
])
def test_features_that_may_share_a_spot_load(first, second):
    assert len(loads(first, second).features) == 2


@pytest.mark.parametrize("second,label", [
    ({"type": "service", "circle": [20, 20, 2]}, "service #1 overlaps pit #0"),
    ({"type": "goal", "circle": [21, 20, 2]}, "goal #1 overlaps pit #0"),
    ({"type": "ramp", "rect": [18, 18, 4, 4], "from": 0, "to": 0.4, "up": 0},
     "ramp #1 overlaps pit #0"),
])
def test_features_that_cannot_share_a_spot(second, label):
    (problem,) = problems({"type": "pit", "circle": [20, 20, 3]}, second)
    assert problem[0] == "features[1]" and problem[1].startswith(label)


@pytest.mark.parametrize("feature,path,message", [
    ({"type": "wall", "rect": [10, 10, 0, 5]}, "features[0].rect",
     "a rect needs a width and a height above 0: [x, y, w, h]"),
    ({"type": "pit", "circle": [10, 10, 0]}, "features[0].circle",
     "a circle needs a radius above 0: [x, y, r]"),
    ({"type": "wall", "polygon": [[0, 0], [5, 5], [0, 0], [5, 5]]}, "features[0].polygon",
     "a polygon needs at least 3 different points"),
    ({"type": "wall", "polygon": [[1, 1], [5, 1], [9, 1]]}, "features[0].polygon",
     "the polygon has no area: its points lie on one line"),
    ({"type": "pit", "circle": [2, 30, 3]}, "features[0].circle",
     "pit #0 reaches off the table: it spans x -1.00..5.00, y 27.00..33.00; the table is 80 x 60"),
    ({"type": "goal", "circle": [10, 10, 1], "respawn": [[90, 10]]}, "features[0].respawn[0]",
     "respawn spot (90, 10) is off the table"),
    ({"type": "wall", "circle": [10, 10, 1], "rotate": 30}, "features[0].rotate",
     "'rotate' applies to rect and polygon, not to circle"),
    ({"type": "wall", "rect": [1, 1, 2, 2], "circle": [10, 10, 1]}, "features[0].circle",
     "a feature has one shape; it gives both 'rect' and 'circle'"),
    ({"type": "pit", "path": [[1, 1], [5, 1]]}, "features[0]",
     "missing key 'width' (a path strip needs its width, cm)"),
])
def test_bad_shapes(feature, path, message):
    assert problems(feature) == [(path, message)]


def test_feature_ids_are_unique_and_numbers_become_text():
    arena = loads({"type": "pit", "id": 7, "circle": [10, 10, 1]})
    assert arena.features[0].id == "7"
    assert problems({"type": "pit", "id": "a", "circle": [10, 10, 1]},
                    {"type": "pit", "id": "a", "circle": [30, 10, 1]}) == [
        ("features[1].id", "the id 'a' is already used by features[0]")]


def test_lift_with_its_landing_beside_it_loads():  # R48
    loads(PLATFORM, {"type": "lift", "rect": [36, 34, 4, 4], "top": 4})
    (problem,) = problems(PLATFORM, {"type": "lift", "rect": [30, 34, 4, 4], "top": 4})
    assert problem[0] == "features[1].top"


def test_an_arena_of_two_platforms_loads():
    # features that may share a spot: nothing to compare for overlaps
    from bottisota.formats.loading import arena_from_dict

    arena = arena_from_dict({"name": "levels", "size": [40, 40], "features": [
        {"type": "platform", "rect": [0, 0, 10, 10], "height": 2},
        {"type": "platform", "rect": [5, 5, 10, 10], "height": 4}]})
    assert len(arena.features) == 2


def test_a_scenario_bot_may_be_new():  # R56
    from bottisota.engine.setup import new_state
    from tests.builders import arena as make_arena

    state = new_state(make_arena(), bots=[{"id": "a", "player": "red", "at": [10, 10],
        "new": True, "card": {"locomotion": "walker", "move": 8, "armour": 4,
                              "structure": 6, "weapons": []}}])
    assert state.bots["a"].new is True
