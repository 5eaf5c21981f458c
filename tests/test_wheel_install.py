"""Installed as a wheel, outside the checkout: a designer's folder with an arena, cards
and a mod is checked, rendered, previewed (headless) and simulated, and nothing is
written into site-packages. Slow (builds and installs a wheel): runs when CI=true or
BOTTISOTA_LONG_TESTS=1."""
from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
LONG = os.environ.get("CI") == "true" or os.environ.get("BOTTISOTA_LONG_TESTS") == "1"

pytestmark = pytest.mark.skipif(not LONG, reason="slow: set BOTTISOTA_LONG_TESTS=1 (CI runs it)")

ARENA = """name: Shed
size: [50, 40]
features:
  - {type: wall, id: back, rect: [24, 0, 2, 40], height: 10}
  - {type: door, id: hatch, rect: [24, 16, 2, 8]}
  - {type: platform, id: loft, rect: [34, 24, 16, 16], height: 4}
  - {type: stairs, rect: [38, 16, 8, 8], from: 0, to: 4, up: 0}
  - {type: goal, id: loot, circle: [42, 32, 2], points: 2, respawn: [[10, 10]]}
"""
CARD = """id: bruiser
name: Bruiser
locomotion: tracked
move: 10
armour: 4
structure: 7
weapons:
  - {name: Shove, kind: push, range: 6, strength: 5}
  - {name: Pistol, kind: gun, range: 20}
"""
MOD = "id: plating\nname: Plating\ndeck: parts\nmodifies: {structure: 1}\n"


def files_under(folder: Path) -> dict[str, int]:
    return {str(p.relative_to(folder)): p.stat().st_mtime_ns for p in folder.rglob("*")
            if p.is_file() and "__pycache__" not in p.parts}


def test_a_designer_folder_works_with_the_installed_wheel(tmp_path):
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps",
                    "-q", "-w", str(wheels), str(ROOT)], check=True, cwd=tmp_path, timeout=600)
    wheel = next(wheels.glob("bottisota-*.whl"))
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    py = venv / "bin" / "python"
    subprocess.run([str(py), "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)],
                   check=True, timeout=300)
    site = Path(subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()"
                                "['purelib'])"], capture_output=True, text=True,
                               check=True).stdout.strip())
    # the dependencies come from this test's environment (its own site-packages only:
    # a .pth path line adds the folder without running its editable-install hooks)
    (site / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    designer = tmp_path / "designer"
    for sub, name, text in (("arenas", "shed.yaml", ARENA), ("cards", "bruiser.yaml", CARD),
                            ("mods", "plating.yaml", MOD)):
        (designer / sub).mkdir(parents=True, exist_ok=True)
        (designer / sub / name).write_text(text)
    work = tmp_path / "work"
    work.mkdir()
    env = {**os.environ, "BOTTISOTA_PATH": str(designer), "SDL_VIDEODRIVER": "dummy",
           "SDL_AUDIODRIVER": "dummy", "PYTHONPATH": ""}
    before = files_under(site)

    def bottisota(*argv: str) -> subprocess.CompletedProcess:
        result = subprocess.run([str(venv / "bin" / "bottisota"), *argv], cwd=work, env=env,
                                capture_output=True, text=True, timeout=600)
        assert result.returncode == 0, (argv, result.stdout, result.stderr)
        assert "Traceback" not in result.stderr
        return result

    where = subprocess.run([str(py), "-c", "import bottisota, bottisota.formats.content as c; "
                            "print(bottisota.__file__); print(c.content_root())"],
                           cwd=work, env=env, capture_output=True, text=True, check=True)
    assert str(site) in where.stdout and str(ROOT) not in where.stdout
    assert bottisota("--version").stdout.startswith("bottisota 0.")
    checked = bottisota("check", "--strict", "shed", str(designer / "cards"),
                        str(designer / "mods"))
    assert "ok: 3 files checked" in checked.stdout
    bottisota("check", "warehouse")
    bottisota("render", "shed", "-o", "shed.pdf")
    assert "etu-90" in bottisota("--lang", "fi", "explain", "R19").stdout   # rule texts shipped
    bottisota("render", "shed", "-o", "shed.svg")
    bottisota("render", "shed", "-o", "shed.png")
    assert (work / "shed.pdf").read_bytes().startswith(b"%PDF")
    bottisota("preview", "shed", str(designer / "cards" / "bruiser.yaml"), "--frames", "2")
    out = bottisota("simulate", "shed", "--games", "2", "--jobs", "1", "--round-limit", "2",
                    "--cards", "bruiser,scout", "--quiet").stdout
    assert "bruiser" in out
    assert files_under(site) == before
