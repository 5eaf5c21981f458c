"""`bottisota check`: every broken fixture is refused (exit 2) naming its line;
good files and the bundled content print ok (formats.md: one clear error,
file, line, column, key path, nothing half-loaded)."""
import argparse
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bottisota.cli import main as cli_main
from bottisota.commands.check import kind_of

ROOT = Path(__file__).parents[1]
BROKEN = Path(__file__).parent / "fixtures" / "broken"
GOOD = Path(__file__).parent / "fixtures" / "good"
BROKEN_FILES = sorted(BROKEN.glob("*.yaml"))


def expectation(path: Path) -> tuple[int, str]:
    """The first line of each broken fixture: `# expect: LINE TEXT`."""
    first = path.read_bytes().split(b"\n", 1)[0].decode()
    match = re.match(r"# expect: (\d+) (.+)", first)
    assert match, f"{path.name} has no '# expect:' line"
    return int(match.group(1)), match.group(2)


def run_check(capsys, *paths: str) -> tuple[int, str, str]:
    code = cli_main(["check", *map(str, paths)])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_at_least_fifteen_broken_fixtures():
    assert len(BROKEN_FILES) >= 15


@pytest.mark.parametrize("path", BROKEN_FILES, ids=lambda p: p.stem)
def test_broken_fixture_is_refused_naming_its_line(capsys, path):
    line, text = expectation(path)
    code, out, err = run_check(capsys, path)
    assert code == 2
    assert "Traceback" not in err
    assert f"{path}:{line}:" in err, err
    assert text in err, err
    assert not out.startswith("ok")


@pytest.mark.parametrize("name", ["typo_type", "self_crossing", "alias_bomb", "tab_indent"])
def test_broken_fixture_in_a_subprocess(name):
    path = BROKEN / f"{name}.yaml"
    line, text = expectation(path)
    result = subprocess.run([sys.executable, "-m", "bottisota", "check", str(path)],
                            capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert f":{line}:" in result.stderr and text in result.stderr


def test_a_file_over_five_megabytes_is_refused_unread(tmp_path, capsys):
    big = tmp_path / "big.yaml"
    with big.open("w") as fh:
        fh.write("name: big\nsize: [1000, 1000]\nfeatures:\n")
        row = "  - {type: pit, circle: [500, 500, 1]}\n"
        fh.write(row * (6 * 1024 * 1024 // len(row) + 1))
    code, _out, err = run_check(capsys, big)
    assert code == 2
    assert "the file is 6.0 MB; files over 5 MB are refused" in err


def test_more_than_twenty_thousand_features_are_refused(tmp_path, capsys):
    many = tmp_path / "many.yaml"
    many.write_text("size: [100, 100]\nfeatures:\n" + "- {type: pit, circle: [5, 5, 1]}\n" * 20001)
    code, _out, err = run_check(capsys, many)
    assert code == 2
    assert (
        f"{many}:3:1: error[E001 invalid-file]: "
        "features: at most 20000 items are allowed, got 20001: refused"
        in err
    )


def test_every_problem_of_one_file_is_listed(capsys):
    code, _out, err = run_check(capsys, BROKEN / "several_errors.yaml")
    assert code == 2
    lines = [ln for ln in err.splitlines() if "several_errors.yaml:" in ln]
    assert [int(ln.split(":")[1]) for ln in lines] == [5, 6, 7, 8]
    assert "features[1].rect: expected [x, y, w, h]" in lines[1]
    assert "missing key 'height'" in lines[2]
    assert "did you mean 'points'?" in lines[3]


def test_errors_of_several_files_are_all_listed(capsys):
    code, out, err = run_check(capsys, BROKEN / "typo_type.yaml", GOOD / "cards.yaml",
                               BROKEN / "hits_d7.yaml")
    assert code == 2
    assert "typo_type.yaml:5:" in err and "hits_d7.yaml:9:" in err
    assert f"ok  {GOOD / 'cards.yaml'} (card)" in out
    assert "2 of 3 files with problems" in err


def test_good_fixtures_are_ok(capsys):
    code, out, err = run_check(capsys, GOOD)
    assert code == 0, err
    assert out.strip().splitlines()[-1].startswith("ok: 6 files checked")


def test_bundled_arenas_and_cards_are_ok(capsys):
    code, out, err = run_check(capsys, ROOT / "arenas", ROOT / "cards")
    assert code == 0, err
    assert "(arena)" in out and "(rules)" in out


def test_a_missing_path_is_an_error(capsys):
    code, _out, err = run_check(capsys, BROKEN / "no-such-file.yaml")
    assert code == 2 and "no such file or folder" in err


def test_kind_from_folder_then_name_then_keys():
    assert kind_of(Path("x/arenas/a.yaml"), {}) == "arena"
    assert kind_of(Path("x/cards/bots/a.yaml"), {"size": 1}) == "card"
    assert kind_of(Path("x/rules.yaml"), {}) == "rules"
    assert kind_of(Path("a.yaml"), {"size": [1, 1]}) == "arena"
    assert kind_of(Path("a.yaml"), [{"locomotion": "walker"}]) == "card"
    assert kind_of(Path("a.yaml"), {"modifies": {}}) == "mod"
    assert kind_of(Path("a.yaml"), {"arena": "x.yaml"}) == "scenario"
    assert kind_of(Path("a.yaml"), {"blast_diameter": 8}) == "rules"
    assert kind_of(Path("a.yaml"), {"colour": "red"}) is None


def test_an_unrecognisable_file_is_refused_with_its_line(tmp_path, capsys):
    odd = tmp_path / "odd.yaml"
    odd.write_text("colour: red\n")
    code, _out, err = run_check(capsys, odd)
    assert (
        code == 2 and f"{odd}:1:1: error[E001 invalid-file]: cannot tell what this file is" in err
    )


def test_duplicate_keys_are_refused(tmp_path, capsys):
    twice = tmp_path / "twice.yaml"
    twice.write_text("size: [10, 10]\nname: a\nname: b\n")
    code, _out, err = run_check(capsys, twice)
    assert (
        code == 2
        and f"{twice}:3:1: error[E001 invalid-file]: name: key 'name' is given twice" in err
    )


def test_check_main_accepts_a_namespace(capsys):
    from bottisota.commands.check import main

    code = main(argparse.Namespace(paths=[str(GOOD / "mods.yaml")], kind=None, quiet=True))
    assert code == 0 and capsys.readouterr().out == "ok: 1 file checked\n"


def test_geometry_of_the_valid_features_is_checked_beside_key_errors(capsys):
    code, _out, err = run_check(capsys, BROKEN / "keys_and_geometry.yaml")
    lines = [ln for ln in err.splitlines() if "keys_and_geometry.yaml:" in ln]
    assert code == 2
    assert [int(ln.split(":")[1]) for ln in lines] == [5, 6, 7]
    assert "wall #2 overlaps pit #0 (features[0], line 4)" in lines[1]
    assert "did you mean 'height'?" in lines[2]


def test_bundled_lift_serves_its_landing():  # R48
    from bottisota.formats.loading import load_arena

    for path in sorted((ROOT / "arenas").glob("*.yaml")):
        arena = load_arena(path)
        assert all(f.top is not None for f in arena.by_type("lift"))


def test_hold_fire_must_name_a_bot(tmp_path, capsys):  # R23
    path = tmp_path / "hold.yaml"
    path.write_text("arena: {size: [60, 40]}\nbots:\n"
                    "  - {id: a, player: red, card: {locomotion: walker, move: 8, armour: 4, "
                    "structure: 6, weapons: []}, at: [10, 20]}\n"
                    "actions:\n  - {bot: a, move: [], hold_fire: [watchr]}\n")
    code, _out, err = run_check(capsys, path)
    assert code == 2
    assert f"{path}:5:" in err and "actions[0].hold_fire[0]: no bot has the id 'watchr'" in err
