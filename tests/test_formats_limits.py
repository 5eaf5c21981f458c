"""The one YAML reader's limits hold for every file kind (issue 16): hostile files get
one message with file:line:col and exit 2, never a traceback, a crash, a hang or a
quote of a file that is not of the kind expected."""
from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bottisota.cli import main as cli_main
from bottisota.core.errors import InputError
from bottisota.formats.json_text import loads_json
from bottisota.formats.limits import LimitError, check_json_text, line_count
from bottisota.formats.loading import load_arena
from bottisota.formats.yaml_source import MAX_ALIAS_NODES, parse_text

ROOT = Path(__file__).parents[1]
KIND_PLACES = {"arena": "arenas/x.yaml", "card": "cards/bots/x.yaml", "mod": "cards/mods/x.yaml",
               "rules": "cards/rules.yaml", "scenario": "scenarios/x.yaml",
               "robot": "cards/robots/x.yaml"}
SECRET = "root:$6$SECRETHASH$abcdefgh:19000:0:99999:7:::\nalice:OTHERSECRET:19000:0:99999:7:::\n"


def check(capsys, *paths) -> tuple[int, str]:
    code = cli_main(["check", *map(str, paths)])
    out = capsys.readouterr()
    return code, out.out + out.err


def run_cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bottisota", *args], capture_output=True,
                          text=True, timeout=timeout, cwd=ROOT)


def _refusal(text: str) -> tuple[int, int, str]:
    with pytest.raises(InputError) as caught:
        parse_text(text, "x.yaml")
    problem = caught.value.problems[0]
    return problem.line, problem.column, problem.message


_BLOCK_MAP = "".join("  " * i + f"k{i}:\n" for i in range(10)) + "  " * 10


@pytest.mark.parametrize(("before", "where"), [
    ("", (1, 65)),                       # brackets alone: the 65th opens level 65
    (_BLOCK_MAP, (11, 75)),              # 10 block mappings, then the 55th bracket
    ("- " * 10, (1, 75)),                # 10 block lists, then the 55th bracket
    ("a: {b: ", (1, 70)),                # a block mapping, a flow mapping, the 63rd bracket
    ("{a: [{b: ", (1, 71)),              # three flow levels, then the 62nd bracket
])
@pytest.mark.parametrize("run", [100, 25_000, 1_000_000])
def test_a_deep_run_of_brackets_is_refused_where_level_65_opens(before, where, run):
    # libyaml reads a run of brackets ahead up to its own limit of 1,000 levels before
    # any event reaches the count: a run past that limit is refused at the same bracket,
    # with the same words, as a run within it.
    started = time.process_time()
    assert _refusal(before + "[" * run + "\n") == (
        *where, "nested more than 64 levels deep: refused")
    assert time.process_time() - started < 5


def test_brackets_inside_quotes_are_text_not_nesting():
    data, _ = parse_text("a: '" + "[" * 5_000 + "'\n", "x.yaml")
    assert data == {"a": "[" * 5_000}


@pytest.mark.parametrize("kind", sorted(KIND_PLACES))
def test_25000_nested_brackets_are_refused_for_every_kind(tmp_path, kind):
    path = tmp_path / KIND_PLACES[kind]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("[" * 25_000 + "\n")
    result = run_cli("check", str(path))
    assert result.returncode == 2, result.stderr[-500:]
    assert "Traceback" not in result.stderr
    assert (
        f"{path}:1:65: error[E001 invalid-file]: nested more than 64 levels deep: refused"
        in result.stderr
    )


def test_deep_mappings_are_refused_on_the_event_stream():
    text = "".join("  " * i + f"k{i}:\n" for i in range(100)) + "  " * 100 + "v\n"
    with pytest.raises(InputError) as err:
        parse_text(text, "deep.yaml")
    assert "nested more than 64 levels deep" in str(err.value)
    assert str(err.value).startswith("deep.yaml:65:")


def test_an_alias_bomb_in_a_robot_table_is_refused_fast(tmp_path):
    path = tmp_path / "cards" / "robots" / "bomb.yaml"
    path.parent.mkdir(parents=True)
    lines = ["name: bomb", "a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1]"]
    for prev, name in zip("abcdefgh", "bcdefghi", strict=True):
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 9) + "]")
    lines.append("turn: *i")
    path.write_text("\n".join(lines) + "\n")
    start = time.monotonic()
    result = run_cli("check", str(path), timeout=30)
    assert time.monotonic() - start < 20
    assert result.returncode == 2 and "an alias bomb?" in result.stderr
    assert f"repeat more than {MAX_ALIAS_NODES}" in result.stderr


def test_merge_keys_are_applied_and_explicit_keys_win():
    data, marks = parse_text("base: &b {move: 8, armour: 4}\n"
                             "card:\n  <<: *b\n  armour: 5\n")
    assert data["card"] == {"armour": 5, "move": 8}
    assert marks.at("card.armour") == (4, 11)


def test_keys_are_read_as_their_text():
    data, _ = parse_text("4: a\n1-3: b\ntrue: c\nnull: d\n1.5: e\n")
    assert data == {"4": "a", "1-3": "b", "true": "c", "null": "d", "1.5": "e"}


def test_dates_stay_text_and_unknown_tags_are_refused():
    data, _ = parse_text("version: 2024-05-01\n")
    assert data == {"version": "2024-05-01"}
    with pytest.raises(InputError) as err:
        parse_text("a: !!python/object/apply:os.system [ls]\n", "t.yaml")
    assert "t.yaml:1:4: the tag !!python/object/apply:os.system is not allowed" in str(err.value)


@pytest.mark.parametrize("text", [
    "a: [1, 2\n", "a: {b: 1\n", "a: 'open\n", "a:\n  - b\n c: 1\n", "a: [", "- a\nb: 1",
    "a: *undefined\n", "a: 1\n\n\n  b: ]\n",
])
def test_no_message_points_past_the_last_line(text):
    with pytest.raises(InputError) as err:
        parse_text(text, "t.yaml")
    for problem in err.value.problems:
        assert 1 <= problem.line <= line_count(text), (text, str(problem))


def test_utf16_and_binary_files_are_not_arena_files(tmp_path, capsys):
    utf16 = tmp_path / "utf16.yaml"
    utf16.write_text("size: [80, 60]\n", encoding="utf-16")
    binary = tmp_path / "binary.yaml"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    code, text = check(capsys, "--kind", "arena", utf16, binary)
    assert code == 2
    assert (
        f"{utf16}:1:1: error[E001 invalid-file]: "
        "not an arena file: it is UTF-16 text; save it as UTF-8"
        in text
    )
    assert (
        f"{binary}:3:1: error[E001 invalid-file]: "
        "not an arena file: it holds binary data (a NUL byte), not text"
        in text
    )
    assert "PNG" not in text and "IHDR" not in text


def test_a_password_file_named_as_an_arena_is_refused_unquoted(tmp_path, capsys):
    shadow = tmp_path / "arenas" / "shadow.yaml"
    shadow.parent.mkdir()
    shadow.write_text(SECRET)
    code, text = check(capsys, shadow)
    assert code == 2
    assert (
        f"{shadow}:1:1: error[E001 invalid-file]: "
        "not an arena file: it has none of the keys size, features"
        in text
    )
    assert "SECRET" not in text and "$6$" not in text and "alice" not in text


@pytest.mark.parametrize("secret", [SECRET, "password: SECRET1\nuser: SECRET2\n",
                                    "- SECRET\n- [SECRET, 2]\n", "{{{SECRET\n"])
def test_a_scenario_never_prints_the_file_it_names_as_its_arena(tmp_path, capsys, secret):
    target = tmp_path / "elsewhere" / "shadow"
    target.parent.mkdir()
    target.write_text(secret)
    scenario = tmp_path / "s.yaml"
    scenario.write_text(f"arena: {target}\nbots: []\nactions: []\n")
    code = cli_main(["scenario", "run", str(scenario)])
    text = "".join(capsys.readouterr())
    assert code == 2 and f"{target}:" in text
    assert "SECRET" not in text and "$6$" not in text and "alice" not in text


def test_a_5000_character_arena_path_is_one_message(tmp_path, capsys):
    scenario = tmp_path / "s.yaml"
    scenario.write_text("arena: " + "a/" * 2500 + "x.yaml\nbots: []\nactions: []\n")
    code = cli_main(["scenario", "run", str(scenario)])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err
    assert f"{scenario}:1:8: arena:" in err and len(err) < 400


def test_a_device_or_folder_is_not_read(tmp_path):
    with pytest.raises(InputError) as err:
        load_arena(tmp_path)
    assert "cannot read the file" in str(err.value)


def test_json_text_is_refused_before_json_loads_recurses():
    check_json_text('{"a": [1, 2, {"b": "[[[["}]}')
    with pytest.raises(LimitError) as err:
        check_json_text('{"a":\n' + "[" * 100_000 + "]" * 100_000 + "}", max_depth=64)
    assert (err.value.line, err.value.column) == (2, 64)
    with pytest.raises(LimitError) as err:
        check_json_text('{"n": ' + "9" * 400 + "}")
    assert "a number of 400 characters" in str(err.value)
    with pytest.raises(LimitError):
        check_json_text("[1]" * 10, max_bytes=20)
    with pytest.raises(ValueError):
        loads_json('{"x": NaN}')
    with pytest.raises(ValueError):
        loads_json("[Infinity]")
    assert loads_json('{"x": [1.5, "Infinity"]}') == {"x": [1.5, "Infinity"]}


META = ("description: for people\nauthor: A. Designer\nversion: 1.2\nlicense: CC-BY-4.0\n"
        "x-editor: {zoom: 2}\n")


@pytest.mark.parametrize("kind,body", [
    ("arena", "name: meta\nsize: [80, 60]\nfeatures:\n  - {type: wall, rect: [1, 1, 2, 2], "
              "description: north wall, author: me, x-colour: red}\n"),
    ("card", "id: meta-card\nname: Meta\nlocomotion: walker\nmove: 8\narmour: 4\nstructure: 6\n"
             "weapons: [{name: Gun, kind: gun, description: a gun, x-art: gun.png}]\n"),
    ("mod", "id: meta-mod\nname: Meta mod\nmodifies: {move: 1}\n"),
    ("rules", "belt_speed: 3\n"),
    ("scenario", "arena: {size: [60, 40], description: inline}\nbots: []\nactions: []\n"),
    ("robot", "name: meta\nplace: [{table: {1-6: centre}}]\nturn: [{table: {1-6: hold}}]\n"
              "overwatch: [{table: {1-6: fire}}]\n"),
])
def test_metadata_keys_are_accepted_everywhere_and_ignored(tmp_path, capsys, kind, body):
    path = tmp_path / KIND_PLACES[kind].replace("cards/rules.yaml", "house.yaml")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(META + body)
    code, text = check(capsys, "--kind", kind, path)
    assert code == 0, text


def test_a_description_on_a_feature_is_not_a_typo_of_rotate(tmp_path):
    path = tmp_path / "a.yaml"
    path.write_text("size: [80, 60]\nfeatures:\n  - {type: wall, rect: [1, 1, 2, 2], "
                    "description: the north wall}\n")
    arena = load_arena(path)
    assert arena.features[0].type == "wall"


def test_the_same_card_id_in_two_files_is_an_error_in_check(tmp_path, capsys):
    card = ("id: twin\nname: Twin\nlocomotion: walker\nmove: 8\narmour: 4\nstructure: 6\n"
            "weapons: []\n")
    folder = tmp_path / "cards" / "bots"
    folder.mkdir(parents=True)
    (folder / "a.yaml").write_text(card)
    (folder / "b.yaml").write_text("# the same id again\n" + card)
    code, text = check(capsys, folder)
    assert code == 2
    assert f"{folder / 'b.yaml'}:2:5: error[E006 duplicate-id]: " \
           "id: the bot card id 'twin' is used again (first in " \
           f"{folder / 'a.yaml'})" in text


def test_many_overlaps_are_summarised(tmp_path, capsys):
    path = tmp_path / "tele.yaml"
    path.write_text("size: [100, 100]\nfeatures:\n"
                    + "  - {type: teleporter, circle: [50, 50, 2]}\n" * 100)
    code, text = check(capsys, path)
    lines = [line for line in text.splitlines() if line.startswith(str(path))]
    assert code == 2 and len(lines) == 21
    assert lines[-1].endswith("... and 4930 more overlaps like this (between teleporter "
                              "features)")
    assert re.match(
        rf"{re.escape(str(path))}:\d+:5: error\[E003 overlap\]: features\[\d+\]", lines[-1]
    )


@pytest.mark.parametrize("name", ["expect_x_not_a_number", "expect_z_null",
                                  "expect_destroyed_text", "expect_unknown_bot",
                                  "expect_unknown_player", "expect_unknown_key"])
def test_scenario_run_refuses_expectations_of_the_wrong_type(capsys, name):  # issue 11 item 8
    path = ROOT / "tests" / "fixtures" / "broken" / f"{name}.yaml"
    line = int(re.match(r"# expect: (\d+)", path.read_text()).group(1))
    assert cli_main(["scenario", "run", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path}:{line}:" in err and "Traceback" not in err
