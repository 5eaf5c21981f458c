"""`bottisota schema`: JSON Schemas generated from the one declaration of each format,
and every bundled file valid by its schema exactly when `bottisota check` accepts it."""
import json
from pathlib import Path

import jsonschema
import pytest

from bottisota.cli import main as cli_main
from bottisota.commands.check import check_file, kind_of
from bottisota.core.arena import FEATURE_TYPES
from bottisota.core.errors import InputError
from bottisota.core.house_rules import HouseRules
from bottisota.formats import spec
from bottisota.formats.schema import FILE_NAMES, schema_of
from bottisota.formats.spec_types import (
    META_FIELDS,
    AnyValue,
    Choice,
    Keyed,
    MapOf,
    Num,
    Record,
    Seq,
    Tagged,
)
from bottisota.formats.yaml_source import load_yaml

ROOT = Path(__file__).parents[1]
COMMITTED = ROOT / "assets" / "schema"
BUNDLED = sorted(p for p in [*ROOT.glob("arenas/*.yaml"), *ROOT.glob("cards/**/*.yaml"),
                             *ROOT.glob("tests/scenarios/*.yaml"),
                             *ROOT.glob("tests/fixtures/good/*.yaml")]
                 if not p.name.startswith("invalid_"))
BROKEN = sorted([*(ROOT / "tests" / "fixtures" / "broken").glob("*.yaml"),
                 *ROOT.glob("tests/scenarios/invalid_*.yaml")])


def validator(kind: str) -> jsonschema.protocols.Validator:
    schema = schema_of(kind)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def kind_for(path: Path) -> str:
    data, _marks = load_yaml(path)
    if "robots" in path.parts:
        return "robot"
    return kind_of(path, data)


def test_schema_command_writes_every_format(tmp_path, capsys):
    assert cli_main(["schema", "-o", str(tmp_path)]) == 0
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written == sorted(FILE_NAMES.values())
    assert set(FILE_NAMES) == set(spec.FORMATS)
    assert capsys.readouterr().out.count("wrote ") == len(FILE_NAMES)
    for path in tmp_path.iterdir():
        data = json.loads(path.read_text())
        assert data["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_committed_schemas_equal_what_generation_produces(tmp_path):
    cli_main(["schema", "-o", str(tmp_path)])
    for name in FILE_NAMES.values():
        assert (COMMITTED / name).read_text() == (tmp_path / name).read_text(), (
            f"assets/schema/{name} is stale: run `bottisota schema`")


def _objects(node, where="$"):
    """Every schema object inside a schema, with where it is."""
    if isinstance(node, dict):
        yield where, node
        for key, value in node.items():
            yield from _objects(value, f"{where}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _objects(value, f"{where}[{i}]")


@pytest.mark.parametrize("kind", sorted(FILE_NAMES))
def test_every_property_is_described_and_every_record_closed(kind):
    for where, node in _objects(schema_of(kind)):
        assert "oneOf" not in node, f"{where}: a bare oneOf (use if/then)"
        props = node.get("properties")
        if isinstance(props, dict) and where.split(".")[-1] != "if":
            for name, sub in props.items():
                if sub is False or "const" in sub and len(sub) == 1:
                    continue
                assert sub.get("description"), f"{kind} {where}.{name} has no description"
            if node.get("type") == "object" and not where.endswith(".if"):
                branches = [b["then"] for b in node.get("allOf", []) if "then" in b]
                closed = node.get("additionalProperties") is False or branches and all(
                    b.get("additionalProperties") is False for b in branches)
                assert closed, f"{kind} {where} is open"


def test_features_are_discriminated_on_type_with_if_then():
    features = schema_of("arena")["properties"]["features"]["items"]
    assert features["properties"]["type"]["enum"] == list(FEATURE_TYPES)
    branches = {b["if"]["properties"]["type"]["const"]: b["then"] for b in features["allOf"]}
    assert set(branches) == set(FEATURE_TYPES)
    assert all(t["additionalProperties"] is False for t in branches.values())
    assert branches["platform"]["required"] == ["type", "height"]
    assert branches["wall"]["properties"]["height"]["default"] == 10.0
    assert schema_of("arena")["required"] == ["size"]


def test_rules_schema_has_every_house_rule_with_its_range():
    rules = schema_of("rules")
    assert sorted(k for k in rules["properties"] if k not in META_FIELDS) == sorted(
        HouseRules.names())
    assert "required" not in rules     # a partial rules file overrides some keys
    assert rules["additionalProperties"] is False
    crash = rules["properties"]["flier_crash_hits"]["anyOf"]
    assert {"type": "string", "pattern": "^[dD]6$"} in crash
    assert rules["properties"]["turn_step"]["exclusiveMinimum"] == 0
    assert rules["properties"]["repair_damage"]["minimum"] == 0


def test_actions_are_declared_not_any_value():
    actions = schema_of("scenario")["properties"]["actions"]["items"]
    assert set(actions["properties"]) >= {"bot", "move", "shoot", "hold_fire", "service"}
    move = next(b for b in actions["allOf"] if b["if"]["required"] == ["move"])
    assert move["then"]["properties"]["shoot"] is False
    assert "hold_fire" not in move["then"]["properties"]


def test_card_schema_accepts_one_card_or_a_list():
    one, many = schema_of("card")["anyOf"]
    assert one["required"] == ["id", "name", "locomotion", "move", "armour", "structure",
                               "weapons"]
    assert many["type"] == "array" and many["items"] == one


def _walk_spec(node, seen=None):
    """Every spec type inside a declaration."""
    seen = seen if seen is not None else set()
    if id(node) in seen:
        return
    seen.add(id(node))
    yield node
    children = []
    if isinstance(node, Record):
        children = [f.type for f in node.fields.values()]
    elif isinstance(node, Tagged):
        children = [f.type for f in node.common.values()]
        children += [f.type for v in node.variants.values() for f in v.values()]
    elif isinstance(node, Keyed):
        children = [f.type for f in node.variants.values()]
        children += [f.type for f in node.common.values()]
        children += [f.type for e in node.extras.values() for f in e.values()]
    elif isinstance(node, Seq):
        children = [node.item]
    elif isinstance(node, MapOf):
        children = [node.value] + ([node.keys] if node.keys is not None else [])
    elif isinstance(node, Choice):
        children = list(node.options)
    for child in children:
        yield from _walk_spec(child, seen)


@pytest.mark.parametrize("kind", sorted(spec.FORMATS))
def test_every_number_of_every_format_declares_its_range(kind):
    for node in _walk_spec(spec.FORMATS[kind]):
        if isinstance(node, Num):
            assert node.maximum is not None, f"{kind}: {node} has no maximum"
            assert node.positive or node.minimum is not None, f"{kind}: {node} has no minimum"
        if isinstance(node, Seq) and not node.length:
            assert node.max_items is not None, f"{kind}: a list without a length limit"


def test_actions_and_scenario_expectations_hold_no_any_value():
    for node in _walk_spec(spec.ACTION):
        assert not isinstance(node, AnyValue)
    anys = [n for n in _walk_spec(spec.EXPECT) if isinstance(n, AnyValue)]
    assert len(anys) == 1       # only the values of an expected event's keys are free


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_bundled_file_is_valid_by_its_schema_and_by_check(path):
    kind = kind_for(path)
    data, _marks = load_yaml(path)
    errors = [e.message for e in validator(kind).iter_errors(data)]
    assert errors == [], f"{path.name} against the {kind} schema: {errors[:3]}"
    assert check_file(path)[0] == kind


@pytest.mark.parametrize("path", BROKEN, ids=lambda p: p.stem)
def test_a_file_the_schema_refuses_is_refused_by_check(path):
    """The schema is never stricter than `check` (geometry is only in check)."""
    try:
        data, _marks = load_yaml(path)
        kind = kind_for(path)
    except InputError:
        return
    if kind is None:
        return
    refused_by_schema = any(True for _ in validator(kind).iter_errors(data))
    with pytest.raises(InputError):
        check_file(path)
    # scenario set-ups (R6: where bots stand, damage against the card, status caps)
    # are checked on the position, which no schema sees
    assert refused_by_schema or path.stem in ONLY_IN_CHECK \
        or path.stem.startswith("invalid_setup_"), path.stem


# geometry, references across keys or files, and NaN (JSON has none) are only in check
ONLY_IN_CHECK = {"expect_unknown_bot", "expect_unknown_player", "not_a_number_nan",
                 "conveyor_without_path", "duplicate_id", "lift_without_landing",
                 "off_table", "overlapping_teleporters", "self_crossing", "stairs_not_joining",
                 "wall_across_door", "wall_in_pit", "scenario_unknown_card"}


def test_an_editor_names_the_unknown_key_and_accepts_metadata():
    arena = {"size": [80, 60], "description": "for people", "x-editor": {"zoom": 2},
             "features": [{"type": "wall", "rect": [1, 1, 2, 2], "heigth": 4},
                          {"type": "pit", "circle": [20, 20, 2], "author": "me"}]}
    errors = list(validator("arena").iter_errors(arena))
    assert len(errors) == 1 and "'heigth'" in errors[0].message      # an unknown key, named
    assert list(errors[0].absolute_path) == ["features", 0]


def test_the_schema_refuses_numbers_out_of_their_range():
    errors = [e.message for e in validator("arena").iter_errors({"size": [3000, 60]})]
    assert errors == ["3000 is greater than the maximum of 1000.0"]
    bad_action = {"bot": "a", "move": [{"forward": 1}], "shoot": [{"weapon": "Gun"}]}
    scenario = {"arena": {"size": [60, 40]}, "actions": [bad_action]}
    assert list(validator("scenario").iter_errors(scenario))
