"""Every command ends bad input with one message and exit 2 (issue 16 item 5); a bug ends
with a crash log the user is pointed to (exit 70), never a traceback on the terminal."""
import subprocess
import sys

import pytest

from bottisota import cli

BAD_INPUT = [
    ["check", "{tmp}/missing.yaml"],
    ["check", "--kind", "arena", "{tmp}/not-yaml.txt"],
    ["render", "{tmp}/missing.yaml", "-o", "{tmp}/out.png"],
    ["render", "duel", "--scale", "0", "-o", "{tmp}/out.png"],
    ["simulate", "{tmp}/missing.yaml", "--games", "1", "--quiet"],
    ["simulate", "duel", "--games", "0", "--quiet"],
    ["scenario", "run", "{tmp}/missing.yaml"],
    ["replay", "{tmp}/missing.jsonl"],
    ["replay", "{tmp}/not-yaml.txt"],
    ["schema", "-o", "{tmp}/not-yaml.txt"],
    ["play", "--resume", "{tmp}/missing.jsonl"],
    ["play", "--size", "10x10"],
    ["play", "--players", "a,a"],
]


@pytest.mark.parametrize("argv", BAD_INPUT, ids=lambda a: " ".join(a[:2]))
def test_bad_input_is_one_message_and_exit_2(argv, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    (tmp_path / "not-yaml.txt").write_text("root:x:0:0:root:/root:/bin/bash\n")
    code = cli.main([a.format(tmp=tmp_path) for a in argv])
    err = capsys.readouterr().err
    assert code == 2, err
    assert "Traceback" not in err and err.strip()
    assert not (tmp_path / "missing.jsonl").exists()        # nothing made on the way
    assert not (tmp_path / "state").exists()                # no crash log: not a bug


def test_argument_errors_exit_2():
    with pytest.raises(SystemExit) as done:
        cli.main(["nosuchcommand"])
    assert done.value.code == 2


def test_a_bug_goes_to_a_crash_log_and_exit_70(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))

    def broken(args):
        raise ZeroDivisionError("a bug deep inside")

    import bottisota.commands.check as check

    monkeypatch.setattr(check, "main", broken)
    code = cli.main(["check", "whatever.yaml"])
    err = capsys.readouterr().err
    assert code == cli.EXIT_BUG == 70
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert "ZeroDivisionError: a bug deep inside" in err and "bug report" in err
    logs = list((tmp_path / "state" / "bottisota").glob("crash-*.log"))
    assert len(logs) == 1 and str(logs[0]) in err
    text = logs[0].read_text()
    assert "Traceback" in text and "a bug deep inside" in text and "check whatever.yaml" in text


def test_the_crash_log_falls_back_to_the_temp_folder(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("XDG_STATE_HOME", str(blocker))      # cannot make a folder under it
    monkeypatch.setattr(cli.tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    assert cli.log_folder() == tmp_path / "tmp"


def test_a_bug_in_a_real_process_prints_no_traceback(tmp_path):
    code = ("import sys; from bottisota import cli; import bottisota.commands.check as c; "
            "c.main = lambda args: 1 / 0; sys.exit(cli.main(['check', 'x']))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, env={"XDG_STATE_HOME": str(tmp_path),
                               "XDG_CACHE_HOME": str(tmp_path / "cache"), "PATH": ""})
    assert done.returncode == 70
    assert "Traceback" not in done.stderr and "crash-" in done.stderr


def test_an_expectation_of_another_type_is_a_failed_expectation_not_a_traceback():
    # found by bench/fuzz.py: an event expectation {x: [..]} met a number in the outcome
    from bottisota.play.scenario import _same

    assert _same("x", [1, 2], 3.0) is False
    assert _same("facing", "north", 90.0) is False
    assert _same("hits", [1], 2.0) is False
    assert _same("x", 3.0, 3.0) is True
