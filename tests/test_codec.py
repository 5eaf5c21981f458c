"""Actions <-> formats.md mappings: exact round trips and clear refusals."""
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bottisota.core.actions import (
    Back,
    DropMine,
    Forward,
    Lift,
    Loop,
    Move,
    Pass,
    Place,
    SelfDestruct,
    Service,
    SetOverwatch,
    Shoot,
    ShotOrder,
    Strafe,
    Turn,
)
from bottisota.formats.codec import (
    ActionFormatError,
    action_from_dict,
    action_to_dict,
    steps_from_list,
)

FORMATS_EXAMPLES = [
    ({"bot": "a", "move": [{"forward": 4}, {"turn": 45}, {"forward": 3}]},
     Move("a", (Forward(4.0), Turn(45.0), Forward(3.0)))),
    ({"bot": "a", "shoot": [{"weapon": "Spray", "target": "b"}]},
     Shoot("a", (ShotOrder("Spray", "b"),))),
    ({"bot": "a", "overwatch": True}, SetOverwatch("a")),
    ({"bot": "a", "self_destruct": True}, SelfDestruct("a")),
    ({"bot": "a", "service": "part"}, Service("a", "part")),
    ({"bot": "a", "place": [10, 20.5, 90]}, Place("a", 10.0, 20.5, 90.0)),
    ({"bot": "a", "pass": True}, Pass("a")),
    ({"bot": "a", "move": [{"back": 2}], "hold_fire": ["c"]}, Move("a", (Back(2.0),), ("c",))),
    ({"bot": "a", "shoot": [{"weapon": "Mortar", "at": [30, 12.5]}]},
     Shoot("a", (ShotOrder("Mortar", None, (30.0, 12.5)),))),
]


@pytest.mark.parametrize("data,action", FORMATS_EXAMPLES)
def test_formats_md_actions_read_and_write_exactly(data, action):
    assert action_from_dict(data) == action
    assert action_to_dict(action) == data


def test_every_step_form():
    steps = steps_from_list([{"forward": 1.5}, {"back": 2}, {"turn": -45},
                             {"strafe": {"bearing": 90, "distance": 3}}, {"loop": True},
                             {"lift": "up"}, {"lift": "down"}, {"drop_mine": "Limpet"}])
    assert steps == (Forward(1.5), Back(2.0), Turn(-45.0), Strafe(90.0, 3.0), Loop(),
                     Lift("up"), Lift("down"), DropMine("Limpet"))


def test_place_without_facing_faces_zero():  # D2
    assert action_from_dict({"bot": "a", "place": [1, 2]}) == Place("a", 1.0, 2.0, 0.0)


@pytest.mark.parametrize("data,path,text", [
    ({"bot": "a", "mvoe": []}, "mvoe", "did you mean 'move'?"),
    ({"bot": "a", "move": [{"forwrd": 3}]}, "move[0].forwrd", "did you mean 'forward'?"),
    ({"bot": "a", "move": [{"forward": "far"}]}, "move[0].forward", "expected a number"),
    ({"bot": "a", "move": [{"forward": 1, "turn": 2}]}, "move[0].turn", "one step per entry"),
    ({"bot": "a", "service": "repiar"}, "service", "did you mean 'repair'?"),
    ({"bot": "a", "overwatch": True, "pass": True}, "pass", "one action per entry"),
    ({"move": []}, "", "missing key 'bot'"),
    ({"bot": "a", "shoot": [{"target": "b"}]}, "shoot[0]", "missing key 'weapon'"),
    ({"bot": "a", "overwatch": True, "hold_fire": ["b"]}, "hold_fire", "unknown key"),
    ({"bot": "a", "move": [{"lift": "sideways"}]}, "move[0].lift", "one of up, down"),
])
def test_bad_actions_name_the_key_path(data, path, text):
    with pytest.raises(ActionFormatError) as err:
        action_from_dict(data)
    assert err.value.path == path
    assert text in err.value.message


numbers = st.floats(min_value=-1000, max_value=1000, allow_nan=False, allow_infinity=False)
names = st.text(alphabet="abcdefgh-_ ", min_size=1, max_size=8).filter(str.strip)
steps = st.one_of(
    st.builds(Forward, numbers), st.builds(Back, numbers), st.builds(Turn, numbers),
    st.builds(Strafe, numbers, numbers), st.just(Loop()),
    st.builds(Lift, st.sampled_from(["up", "down"])), st.builds(DropMine, names))
shots = st.builds(ShotOrder, names, st.one_of(st.none(), names),
                  st.one_of(st.none(), st.tuples(numbers, numbers)))
actions = st.one_of(
    st.builds(Move, names, st.lists(steps, max_size=6).map(tuple),
              st.lists(names, max_size=2).map(tuple)),
    st.builds(Shoot, names, st.lists(shots, min_size=1, max_size=3).map(tuple)),
    st.builds(SetOverwatch, names), st.builds(SelfDestruct, names), st.builds(Pass, names),
    st.builds(Service, names, st.sampled_from(["reload", "repair", "rust", "leaflet", "part"])),
    st.builds(Place, names, numbers, numbers, numbers))


@given(actions)
def test_round_trip_is_exact(action):
    assert action_from_dict(action_to_dict(action)) == action
