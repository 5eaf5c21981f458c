"""Checks that see everything (issue 33.3, 33.5): scenarios checked as fully as they run,
warnings beside errors, unit hints, `explain` for defaults, robot keys in the schema,
`scenario run --content`, and the documents shipped with the program."""
from __future__ import annotations

import textwrap
from pathlib import Path

import jsonschema
import pytest
import yaml

from bottisota.cli import main as cli_main
from bottisota.formats import content
from bottisota.formats.docs import DOCUMENTS, defaults, document
from bottisota.formats.schema import schema_of

CARD = ("{locomotion: walker, move: 8, armour: 4, structure: 6, "
        "weapons: [{name: Torch, kind: gun, mount: turret, range: 50, to_hit: 4, hits: 1}]}")


def scenario(tmp_path: Path, weapon: str = "Torch", dice: str = "[6, 1]",
             rejected: str = "") -> Path:
    text = textwrap.dedent(f"""\
        name: a shot at the target
        arena: {{size: [80, 60], features: []}}
        dice: {dice}
        bots:
          - {{id: gunner, player: red, card: {CARD}, at: [20, 30], facing: 90}}
          - {{id: target, player: blue, card: {CARD}, at: [60, 30], facing: 270}}
        actions:
          - {{bot: gunner, move: []}}
          - {{bot: gunner, shoot: [{{weapon: {weapon}, target: target}}]}}
        expect:
          bots: {{target: {{damage: 0}}}}
        """) + rejected
    path = tmp_path / "scenario.yaml"
    path.write_text(text)
    return path


def check(capsys, *argv: str) -> tuple[int, str]:
    code = cli_main(["check", "--brief", *argv])
    out = capsys.readouterr()
    return code, out.out + out.err


def test_a_shot_with_a_misspelt_weapon_is_an_error_with_did_you_mean(tmp_path, capsys):
    # R18: the action would be refused, and the scenario would pass for the wrong reason
    code, text = check(capsys, str(scenario(tmp_path, weapon="Torchh")))
    assert code == 2
    assert ("scenario.yaml:9:36: error[E001 invalid-file]: actions[1].shoot[0].weapon: gunner "
            "has no weapon 'Torchh' (it has: Torch); the action would be refused (R18) — did "
            "you mean 'Torch'?") in text


def test_a_shot_the_scenario_expects_refused_is_left_alone(tmp_path, capsys):
    path = scenario(tmp_path, weapon="Torchh", rejected="  rejected: [1]\n")
    assert check(capsys, str(path)) == (0, f"ok  {path} (scenario)\nok: 1 file checked\n")


def test_too_few_forced_dice_are_an_error_at_dice(tmp_path, capsys):
    # D5: the to-hit roll needs a die; none is given
    code, text = check(capsys, str(scenario(tmp_path, dice="[]")))
    assert code == 2
    assert ("scenario.yaml:3:7: error[E001 invalid-file]: dice: 0 forced dice are too few for "
            "the actions: action 1 (line 9): forced dice ran out at roll 1") in text
    code, _text = check(capsys, str(scenario(tmp_path, dice="[6, 1]")))
    assert code == 0


def test_warnings_are_shown_beside_errors(tmp_path, capsys):
    path = tmp_path / "arena.yaml"
    path.write_text("name: W\nsize: [80, 60]\nfeatures:\n"
                    "  - {type: teleporter, id: tp, circle: [50, 50, 3]}\n"
                    "  - {type: platform, id: roof, rect: [50, 30, 20, 20]}\n")
    code, text = check(capsys, str(path))
    assert code == 2
    lines = text.splitlines()
    assert lines[0].startswith(f"{path}:4:5: warning[W012 lone-teleporter]: features[0]")
    assert lines[1].startswith(f"{path}:5:5: error[E001 invalid-file]: features[1]: missing "
                               "key 'height'")
    assert lines[2] == "1 of 1 file with problems (1 error, 1 warning)"


@pytest.mark.parametrize("value, hint", [
    ("10cm", "write the number alone in centimetres (10); every length is in cm"),
    ("1.2 m", "write the number alone in centimetres (120)"),
    ("45mm", "write the number alone in centimetres (4.5)"),
])
def test_a_number_with_a_unit_says_how_to_write_it(tmp_path, capsys, value, hint):
    path = tmp_path / "arena.yaml"
    path.write_text(f"name: U\nsize: [80, 60]\nfeatures:\n"
                    f"  - {{type: wall, rect: [{value}, 20, 4, 4], height: 3}}\n")
    code, text = check(capsys, str(path))
    assert code == 2
    assert f"features[0].rect[0]: expected a number, got '{value}': {hint}" in text


def test_a_table_in_metres_is_one_error_with_the_size_in_centimetres(tmp_path, capsys):
    path = tmp_path / "arena.yaml"
    path.write_text("name: M\nsize: [1.2, 0.8]\nfeatures:\n"
                    "  - {type: wall, rect: [0.3, 0.2, 0.04, 0.04], height: 3}\n"
                    "  - {type: wall, rect: [0.5, 0.2, 0.04, 0.04], height: 3}\n")
    code, text = check(capsys, str(path))
    assert code == 2
    assert text.splitlines() == [
        f"{path}:2:7: error[E001 invalid-file]: size: a table of 1.2 x 0.8 cm is too small to "
        "play on: sizes are in centimetres (did you mean 120 x 80?)",
        "1 of 1 file with problems (1 error)"]


def test_explain_prints_a_default(capsys):
    assert cli_main(["explain", "D23"]) == 0
    assert capsys.readouterr().out.startswith("D23 — Goal points are markers on the field")
    assert cli_main(["explain", "D999"]) == 2
    assert "no such default; the defaults are D1 to D" in capsys.readouterr().err


def test_every_default_of_the_doc_is_read():
    texts = defaults()
    numbers = sorted(int(n[1:]) for n in texts)
    assert numbers == list(range(1, len(numbers) + 1))
    assert texts["D4"].startswith("Two discs \"touch\" when the distance between centres")


def test_the_robot_schema_accepts_die_results_written_as_numbers():
    bundled = content.bundled_dir("robot")
    data = yaml.safe_load((bundled / "aggressive.yaml").read_text())
    data["place"][-1]["table"] = {6: "centre", "1-5": "near_enemy"}
    jsonschema.validate(data, schema_of("robot"))
    data["place"][-1]["table"] = {"seven": "centre"}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, schema_of("robot"))


def test_scenario_run_takes_content_folders(tmp_path, capsys):
    folder = tmp_path / "mine"
    (folder / "cards").mkdir(parents=True)
    card_text = yaml.safe_load("{" + CARD.strip("{}") + "}")
    (folder / "cards" / "torcher.yaml").write_text(
        yaml.safe_dump({"id": "torcher", "name": "Torcher", **card_text}))
    path = tmp_path / "s.yaml"
    path.write_text(textwrap.dedent("""\
        name: a card from my folder
        arena: {size: [80, 60], features: []}
        dice: [6, 1]
        bots:
          - {id: gunner, player: red, card: torcher, at: [20, 30], facing: 90}
          - {id: target, player: blue, card: torcher, at: [60, 30], facing: 270}
        actions:
          - {bot: gunner, move: []}
          - {bot: gunner, shoot: [{weapon: Torch, target: target}]}
        expect:
          bots: {target: {damage: 1}}
        """))
    try:
        assert cli_main(["scenario", "run", str(path), "--content", str(folder)]) == 0
        assert capsys.readouterr().out.startswith("PASS")
    finally:
        content.use_folders(None)


def test_the_documents_are_shipped_and_printed(capsys):
    for name, (file, _what) in DOCUMENTS.items():
        path = document(name)
        assert path is not None and path.name == file and path.is_file(), name
    assert cli_main(["docs", "formats"]) == 0
    assert capsys.readouterr().out.startswith("# File formats: the contract")
    assert cli_main(["docs"]) == 0
    assert "designing" in capsys.readouterr().out
    assert cli_main(["docs", "formatz"]) == 2
    assert "did you mean 'formats'" in capsys.readouterr().err


def test_the_formats_doc_documents_the_robot_personality():
    text = document("formats").read_text()
    assert "## Robot personality" in text
    for word in ("place:", "turn:", "overwatch:", "close_in", "keep_range", "damage_left",
                 "self_destruct", "fallback"):
        assert word in text, word


def test_the_wheel_carries_the_documents():
    pyproject = (Path(__file__).parents[1] / "pyproject.toml").read_text()
    assert '"bottisota.content.docs" = "docs"' in pyproject
    assert '"bottisota.content.docs" = ["*.md", "*.txt"]' in pyproject


def test_a_missing_key_brings_no_follow_on_errors(tmp_path, capsys):
    # the platform lacks its height: the stairs up to it and the lift to its landing
    # would not join only because of that, so they are not reported until it is fixed
    path = tmp_path / "arena.yaml"
    path.write_text("name: F\nsize: [80, 60]\nfeatures:\n"
                    "  - {type: platform, id: roof, rect: [50, 30, 20, 20]}\n"
                    "  - {type: stairs, rect: [42, 30, 8, 6], from: 0, to: 4, up: 90}\n"
                    "  - {type: lift, rect: [46, 40, 4, 4], top: 4}\n")
    code, text = check(capsys, str(path))
    assert code == 2
    assert text.splitlines() == [
        f"{path}:4:5: error[E001 invalid-file]: features[0]: missing key 'height' (its floor "
        "height, cm) in a platform feature", "1 of 1 file with problems (1 error)"]
    path.write_text(path.read_text().replace("20, 20]}", "20, 20], height: 9}"))
    code, text = check(capsys, str(path))
    assert "E004 slope-not-joining" in text and "E005 lift-without-landing" in text
