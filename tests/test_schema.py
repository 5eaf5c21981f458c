"""`bottisota schema`: JSON Schemas written from the same format descriptions."""
import json
from pathlib import Path

from bottisota.cli import main as cli_main
from bottisota.core.arena import FEATURE_TYPES
from bottisota.core.house_rules import HouseRules
from bottisota.formats.schema import FILE_NAMES, schema_of

COMMITTED = Path(__file__).parents[1] / "assets" / "schema"


def test_schema_command_writes_every_format(tmp_path, capsys):
    assert cli_main(["schema", "-o", str(tmp_path)]) == 0
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written == sorted(FILE_NAMES.values())
    assert capsys.readouterr().out.count("wrote ") == 5
    for path in tmp_path.iterdir():
        data = json.loads(path.read_text())
        assert data["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_committed_schemas_match_the_format_descriptions(tmp_path):
    cli_main(["schema", "-o", str(tmp_path)])
    for name in FILE_NAMES.values():
        assert (COMMITTED / name).read_text() == (tmp_path / name).read_text(), (
            f"assets/schema/{name} is stale: run `bottisota schema`")


def test_arena_schema_lists_every_feature_type_and_closes_each():
    features = schema_of("arena")["properties"]["features"]["items"]
    assert features["properties"]["type"]["enum"] == list(FEATURE_TYPES)
    by_type = {o["properties"]["type"]["const"]: o for o in features["oneOf"]}
    assert set(by_type) == set(FEATURE_TYPES)
    assert all(o["additionalProperties"] is False for o in by_type.values())
    assert by_type["platform"]["required"] == ["type", "height"]
    assert by_type["wall"]["properties"]["height"]["default"] == 10.0
    assert schema_of("arena")["required"] == ["size"]


def test_rules_schema_has_every_house_rule_and_dice_amounts():
    rules = schema_of("rules")
    assert sorted(rules["properties"]) == sorted(HouseRules.names())
    assert rules["additionalProperties"] is False
    crash = rules["properties"]["flier_crash_hits"]["anyOf"]
    assert {"type": "string", "pattern": "^[dD]6$"} in crash


def test_card_schema_accepts_one_card_or_a_list():
    card = schema_of("card")
    one, many = card["anyOf"]
    assert one["required"] == ["id", "name", "locomotion", "move", "armour", "structure",
                               "weapons"]
    assert many["type"] == "array" and many["items"] == one
