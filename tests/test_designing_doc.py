"""docs/designing.md runs as written: its files are written in order into a fresh
folder and every `$ bottisota ...` line is run there (exit code 0, or 2 where the
line says `# exits 2`). The doc's claims about the findings are checked too."""
from __future__ import annotations

import re
import shlex
from pathlib import Path

from bottisota.cli import main as cli_main
from bottisota.formats import content

DOC = Path(__file__).parents[1] / "docs" / "designing.md"
BLOCK = re.compile(r"```(\w+)([^\n]*)\n(.*?)```", re.S)


def steps() -> list[tuple[str, str, str]]:
    """('file', path, text), ('run', command, expected code) and ('output', '', text: what
    the command before prints, shown as a `text` block) in the doc's order."""
    out = []
    for lang, info, body in BLOCK.findall(DOC.read_text()):
        file = re.search(r"file=(\S+)", info)
        if file:
            out.append(("file", file.group(1), body))
        elif lang == "text":
            out.append(("output", "", body))
        elif lang == "console":
            for line in body.splitlines():
                if line.startswith("$ bottisota"):
                    command, _, note = line[2:].partition("#")
                    out.append(("run", command.strip(), "2" if "exits 2" in note else "0"))
    return out


def test_the_doc_has_files_and_commands():
    kinds = [s[0] for s in steps()]
    assert kinds.count("file") >= 5 and kinds.count("run") >= 10


def test_every_command_of_the_tutorial_runs(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(content.ENV, raising=False)
    outputs = []
    for kind, what, body in steps():
        if kind == "output":
            # the doc's sample output is what the command before printed, line for line
            _cmd, out, err = outputs[-1]
            printed = (out + err).splitlines()
            for line in body.splitlines():
                assert line in printed, f"the doc shows {line!r}; the command printed:\n" \
                    + "\n".join(printed)
            continue
        if kind == "file":
            path = tmp_path / what
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(body)
            continue
        argv = shlex.split(what)[1:]
        code = cli_main(argv)
        printed = capsys.readouterr()
        outputs.append((what, printed.out, printed.err))
        assert code == int(body), f"{what}: exit {code}\n{printed.out}\n{printed.err}"
        assert "Traceback" not in printed.err
    content.use_folders(None)
    first_check = outputs[0][2]
    for code in ("W012 lone-teleporter", "W010 push-without-strength", "W013 never-hits"):
        assert code in first_check, first_check
    for name in ("yard.pdf", "yard-letter.pdf", "yard-half.pdf", "yard.svg", "yard.png"):
        assert (tmp_path / name).stat().st_size > 1000
    assert sorted(p.name for p in (tmp_path / "journals").iterdir()) == \
        ["game-100003-swapped.jsonl", "game-100003.jsonl"]
    simulate_out = next(out for cmd, out, _ in outputs if cmd.startswith("bottisota simulate"))
    assert "shover" in simulate_out and "card ratings" in simulate_out
    sweep_out = next(out for cmd, out, _ in outputs if "--sweep" in cmd)
    assert "sweep of shover" in sweep_out
    assert any(out.startswith("bottisota ") for cmd, out, _ in outputs if "--version" in cmd)


def test_the_version_option(capsys):
    assert cli_main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("bottisota 0.")
