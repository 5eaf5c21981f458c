"""Content where the designer keeps it: --content folders and BOTTISOTA_PATH add arenas,
cards, mods and robots; names work in every command, a miss lists what exists with a
did-you-mean; house rules per command with --rules and --set."""
from __future__ import annotations

import pytest

from bottisota.cli import main as cli_main
from bottisota.formats import content
from bottisota.formats.loading import load_catalogue

CARD = ("id: {id}\nname: {name}\nlocomotion: wheeled\nmove: 12\narmour: 4\nstructure: 6\n"
        "weapons:\n  - {{name: Gun, kind: gun, range: 20}}\n")
ARENA = "name: Pocket\nsize: [40, 30]\nfeatures:\n  - {type: wall, rect: [18, 0, 2, 12]}\n"


@pytest.fixture
def folder(tmp_path, monkeypatch):
    root = tmp_path / "mine"
    (root / "arenas").mkdir(parents=True)
    (root / "cards").mkdir()
    (root / "mods").mkdir()
    (root / "arenas" / "pocket.yaml").write_text(ARENA)
    (root / "cards" / "zipper.yaml").write_text(CARD.format(id="zipper", name="Zipper"))
    (root / "mods" / "magnet.yaml").write_text("id: magnet\nname: Magnet\nmodifies: {turn: 1}\n")
    monkeypatch.delenv(content.ENV, raising=False)
    yield root
    content.use_folders(None)


def run(capsys, *argv):
    code = cli_main([*map(str, argv)])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_check_and_render_accept_a_bundled_name(tmp_path, capsys):
    assert run(capsys, "check", "warehouse")[0] == 0
    assert run(capsys, "render", "warehouse", "-o", tmp_path / "w.svg")[0] == 0


def test_a_miss_lists_the_arenas_with_a_did_you_mean(tmp_path, capsys):
    for argv in (["check", "warehose"], ["render", "warehose", "-o", tmp_path / "a.svg"],
                 ["simulate", "warehose", "--games", "1"]):
        code, _out, err = run(capsys, *argv)
        assert code == 2 and "did you mean 'warehouse'?" in err and "duel" in err, err


def test_content_folder_names_work_in_every_command(folder, tmp_path, capsys):
    assert run(capsys, "check", "--content", folder, "pocket")[0] == 0
    assert run(capsys, "render", "--content", folder, "pocket", "-o", tmp_path / "p.pdf")[0] == 0
    code, out, err = run(capsys, "simulate", "--content", folder, "pocket", "--games", "1",
                         "--jobs", "1", "--round-limit", "1", "--cards", "zipper,scout",
                         "--quiet")
    assert code == 0, err
    assert "zipper" in out


def test_the_environment_variable_adds_folders(folder, monkeypatch):
    monkeypatch.setenv(content.ENV, str(folder))
    assert content.find("arena", "pocket") == folder / "arenas" / "pocket.yaml"
    cards, mods = load_catalogue()
    assert "zipper" in cards and "scout" in cards and "magnet" in mods


def test_a_user_card_takes_the_place_of_a_bundled_one_with_a_warning(folder, capsys):
    (folder / "cards" / "scout.yaml").write_text(CARD.format(id="scout", name="House scout"))
    content.use_folders([str(folder)])
    assert load_catalogue()[0]["scout"].name == "House scout"
    code, _out, err = run(capsys, "check", "--content", folder, folder / "cards")
    assert code == 0 and "W020 shadows-bundled" in err


def test_simulate_cards_has_a_did_you_mean(capsys):
    code, _out, err = run(capsys, "simulate", "duel", "--cards", "scoot", "--games", "1")
    assert code == 2 and "did you mean 'scout'?" in err and "brawler" in err


def test_a_missing_content_folder_is_an_error(tmp_path, capsys):
    code, _out, err = run(capsys, "check", "--content", tmp_path / "nope", "duel")
    assert code == 2 and "--content: no such folder" in err


def test_rules_overrides_per_command(tmp_path, capsys):
    from argparse import Namespace

    from bottisota.commands.options import house_rules

    partial = tmp_path / "fast.yaml"
    partial.write_text("belt_speed: 4\ngoal_points: 2\n")
    rules = house_rules(Namespace(rules=str(partial), set=["belt_speed=3", "round_limit=8"]))
    assert (rules.belt_speed, rules.goal_points, rules.round_limit) == (3, 2, 8)
    code, _out, err = run(capsys, "check", "duel", "--set", "belt_sped=3")
    assert code == 2 and "did you mean 'belt_speed'?" in err
    code, _out, err = run(capsys, "check", "duel", "--set", "belt_speed=fast")
    assert code == 2 and "belt_speed" in err and "Traceback" not in err


@pytest.mark.parametrize("value", ["[" * 3_000 + "]" * 3_000, "{a: " * 2_000, "[" * 50_000,
                                   "&a [*a]", "9" * 30])
def test_a_hostile_set_value_is_one_message_not_a_crash(value, capsys):
    # A --set value is read by the files' YAML reader, with its limits: nesting deeper than
    # the files may go was a crash (RecursionError) in PyYAML's own loader.
    code, _out, err = run(capsys, "check", "duel", "--set", f"belt_speed={value}")
    assert code == 2, err[-300:]
    assert "--set: belt_speed: expected a number" in err
    assert "Traceback" not in err and "unexpected error" not in err


def test_set_values_read_as_yaml_scalars():
    from bottisota.commands.options import parse_sets

    given = ["belt_speed=3", "base_diameter=2.5", "round_limit=null", "sturdy_reroll=true",
             "self_destruct_hits=2d6", "kill_points=a: b: c", "turn_step=[1, 2]"]
    assert parse_sets(given) == {"belt_speed": 3, "base_diameter": 2.5, "round_limit": None,
                                 "sturdy_reroll": True, "self_destruct_hits": "2d6",
                                 "kill_points": "a: b: c", "turn_step": [1, 2]}


def test_a_partial_rules_file_with_a_typo_is_understood(tmp_path, capsys):
    typo = tmp_path / "house.yaml"
    typo.write_text("blast_diametr: 8\n")
    code, _out, err = run(capsys, "check", typo)
    assert code == 2 and "did you mean 'blast_diameter'?" in err
    assert "cannot tell what this file is" not in err
    good = tmp_path / "rules.yaml"
    good.write_text("blast_diameter: 8\n")
    assert run(capsys, "check", good)[0] == 0


def test_a_designer_robot_is_found_by_name(folder, tmp_path, capsys):
    from bottisota.formats.robot_tables import find_personality

    (folder / "robots").mkdir()
    bundled = content.bundled_dir("robot") / "aggressive.yaml"
    (folder / "robots" / "bully.yaml").write_text(bundled.read_text())
    content.use_folders([str(folder)])
    assert find_personality("bully") is not None
    code, _out, err = run(capsys, "simulate", "duel", "--robots", "aggressive,bullly",
                          "--content", folder, "--games", "1")
    assert code == 2 and "did you mean 'bully'?" in err and "yours: bully" in err
