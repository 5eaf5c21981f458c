"""Start-up stays light: a command imports only what it uses (the phone server, Babel's
.po reader and locale data, scipy, package metadata are loaded when needed); the
compiled catalogue comes from the user's cache, never stale; numbers written without
Babel read exactly as Babel writes them. (Start-up speed itself: bench/startup.py.)"""
from __future__ import annotations

import gettext
import io
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest
from babel import Locale
from hypothesis import given, settings
from hypothesis import strategies as st

from bottisota.core import i18n

ROOT = Path(__file__).resolve().parents[1]

# what `bottisota play` must not have loaded by the end of its first frame (the journal's
# writer comes with the first action, the threat view's model when it is switched on, the
# robot seat's planner with its first decision; on a second start the content comes from
# the cache of checked files, without PyYAML)
NOT_AT_FIRST_FRAME = ("starlette", "uvicorn", "segno", "asyncio", "bottisota.web", "scipy",
                      "babel", "importlib.metadata", "bottisota.view.projector",
                      "bottisota.view.phone_links", "bottisota.view.edit_reload",
                      "bottisota.play", "bottisota.formats.codec", "bottisota.viewmodel.threat",
                      "bottisota.view.render", "bottisota.view.screenshots",
                      "bottisota.view.preview", "bottisota.view.chart", "yaml",
                      "bottisota.robot.player", "bottisota.robot.planner",
                      "bottisota.robot.navigation", "bottisota.robot.placement",
                      "bottisota.robot.decide", "bottisota.robot.aim",
                      "cv2", "bottisota.vision")        # OpenCV only with play --camera
# what `bottisota --help` must not load: the rules, the view, the libraries they need
NOT_FOR_HELP = ("numpy", "shapely", "pygame", "yaml", "babel", "scipy", "starlette",
                "bottisota.engine", "bottisota.view", "bottisota.web", "importlib.metadata")

FIRST_FRAME = r"""
import os, sys
from bottisota.view.app import TableApp
step = TableApp.step

def first_step(self, *args, **kwargs):
    out = step(self, *args, **kwargs)
    print("loaded", *sorted(sys.modules), flush=True)
    os._exit(0)

TableApp.step = first_step
from bottisota.cli import main
main(["play", "--robot", "blue", "--seed", "1", "--headless", "--frames", "1"])
"""

HELP = r"""
import sys
from bottisota.cli import main
try:
    main(["--help"])
except SystemExit:
    pass
print("loaded", *sorted(sys.modules), flush=True)
"""


WARM = "from bottisota.core import i18n; [i18n.translations(lang) for lang in i18n.LANGUAGES]"


def loaded_by(script: str, tmp_path: Path) -> set[str]:
    """The modules a fresh process had loaded at the end of `script` on a second start:
    the catalogues compiled and the content files' checked values kept in its cache
    folder by a first run (as after the command's first run)."""
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path), XDG_CACHE_HOME=str(tmp_path / "cache"),
               SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYTHONPATH=str(ROOT))
    subprocess.run([sys.executable, "-c", WARM], check=True, env=env, cwd=tmp_path, timeout=120)
    subprocess.run([sys.executable, "-c", script], capture_output=True, env=env, cwd=tmp_path,
                   timeout=120)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         env=env, cwd=tmp_path, timeout=120)
    line = [ln for ln in out.stdout.splitlines() if ln.startswith("loaded ")]
    assert line, out.stdout + out.stderr
    return set(line[-1].split()[1:])


def under(modules: set[str], names: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if any(m == n or m.startswith(n + ".") for n in names))


def test_the_first_frame_of_play_loads_no_phone_server_babel_or_scipy(tmp_path):
    loaded = loaded_by(FIRST_FRAME, tmp_path)
    assert "bottisota.view.app" in loaded and "pygame" in loaded     # it did draw a frame
    assert under(loaded, NOT_AT_FIRST_FRAME) == []


def test_the_robot_seat_acts_after_the_first_frame_and_spares_come_one_a_frame():
    """The first frame shows the table as set up (no robot action, no journal file, no
    spare surfaces: they cost milliseconds each); the robot seat acts on the next frame,
    and the surfaces later frames reuse are made one a frame after the first."""
    import pygame

    from bottisota.view.app import TableApp
    from bottisota.viewmodel.session import build_game, robot_seats

    pygame.display.init()
    game, _path = build_game("duel", ["red", "blue"], 1, None, None)
    app = TableApp(game, (1000, 700), robots=robot_seats(["red", "blue"], ["red", "blue"]),
                   robot_pace=0.0)
    app.spare_budget_ms = float("inf")      # every frame counts as light here (see below)
    app.step()
    assert game.history == [] and app.frames_drawn == 1
    assert app.windows.layers.buffers == {} and app.windows.layers.arena.make_spare() is True
    app.windows.layers.arena._spare = None                       # (as the first frame left it)
    app.step()
    assert len(game.history) == 1                          # the robot's first action
    size = app.windows.layers.arena.drawn_size
    assert app.windows.layers.arena._spare is not None and app.windows.layers.buffers == {}
    assert app.windows.layers.arena._zoomed is None
    app.step()
    # a zoom's
    assert app.windows.layers.arena._zoomed is not None and app.windows.layers.buffers == {}
    app.step()
    assert list(app.windows.layers.buffers) == [("clean", size)]
    app.step()
    assert list(app.windows.layers.buffers) == [("clean", size), ("base", size)]
    assert app.windows.layers.threat._spare is None
    app.step()
    assert app.windows.layers.threat._spare is not None          # the threat shading's, ahead
    assert app.windows.layers.make_spares() is False             # all made: nothing more


def test_no_spare_surface_is_made_after_a_heavy_frame():
    """A spare surface costs milliseconds: it is made only after a frame lighter than the
    app's `spare_budget_ms`, never on top of a frame that already drew much."""
    import pygame

    from bottisota.view.app import SPARE_AFTER_LIGHT_FRAME_MS, TableApp
    from bottisota.viewmodel.session import build_game

    pygame.display.init()
    game, _path = build_game("duel", ["red", "blue"], 1, None, None)
    app = TableApp(game, (1000, 700))
    assert app.spare_budget_ms == SPARE_AFTER_LIGHT_FRAME_MS == 6.0
    app.spare_budget_ms = 0.0                # every frame heavier than that
    for _ in range(4):
        app.step()
    assert app.windows.layers.arena._spare is None and app.windows.layers.buffers == {}
    app.spare_budget_ms = float("inf")
    app.step()
    assert app.windows.layers.arena._spare is not None


def test_the_default_font_is_pygames_font_none_pixel_for_pixel():
    """`style.default_font` opens pygame's default font from its path (cheaper than
    `Font(None, size)`, which reads it through importlib.resources): same metrics, same
    pixels, at every size the view uses."""
    import pygame

    from bottisota.view import style

    pygame.font.init()
    for size in range(1, 161):
        ours, pygames = style.default_font(size), pygame.font.Font(None, size)
        assert (ours.get_height(), ours.get_ascent(), ours.get_descent(),
                ours.get_linesize()) == (pygames.get_height(), pygames.get_ascent(),
                                         pygames.get_descent(), pygames.get_linesize())
        for text in ("Round 1 · red-2 4+ 50%", "ÅÄÖ åäö 12,5 cm", "W"):
            assert ours.size(text) == pygames.size(text)
            a, b = ours.render(text, True, (230, 120, 40)), pygames.render(text, True,
                                                                        (230, 120, 40))
            assert pygame.image.tobytes(a, "RGBA") == pygame.image.tobytes(b, "RGBA")


def test_a_first_start_loads_yaml_and_fills_the_cache_of_checked_files(tmp_path):
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path), XDG_CACHE_HOME=str(tmp_path / "cache"),
               SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", FIRST_FRAME], capture_output=True, text=True,
                         env=env, cwd=tmp_path, timeout=120)
    loaded = set([ln for ln in out.stdout.splitlines() if ln.startswith("loaded ")][-1].split())
    assert "yaml" in loaded
    kept = (tmp_path / "cache" / "bottisota").glob("*.pickle")
    kinds = sorted(p.name.rsplit("-", 1)[0] for p in kept)
    builds = ("arena-layer", "walls-grown", "nav-base")     # arena builds (issue 32)
    assert [k for k in kinds if k not in builds] == ["arena", "catalogue", "robot", "rules"]
    assert "arena-layer" in kinds      # the first frame's layer, kept for the next start


def test_the_command_leaves_the_garbage_collector_as_it_found_it():
    """`cli._run` pauses the cyclic collector while the command's modules are imported and
    keeps what they made out of its rounds while the command runs; after it (or a refused
    command line) the collector runs and sees every object again."""
    import gc

    from bottisota.cli import main

    assert main(["explain", "R19"]) == 0
    assert gc.isenabled() and gc.get_freeze_count() == 0
    with pytest.raises(SystemExit):
        main(["play", "--no-such-option"])
    assert gc.isenabled() and gc.get_freeze_count() == 0
    gc.disable()                     # a caller that keeps it off: left off
    try:
        assert main(["explain", "R19"]) == 0
        assert not gc.isenabled() and gc.get_freeze_count() == 0
    finally:
        gc.enable()


def test_help_loads_neither_the_rules_nor_the_view(tmp_path):
    loaded = loaded_by(HELP, tmp_path)
    assert "argparse" in loaded
    assert under(loaded, NOT_FOR_HELP) == []


def test_version_is_read_when_asked(capsys):
    from bottisota.cli import build_parser, version

    parser = build_parser()
    with pytest.raises(SystemExit) as done:
        parser.parse_args(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out == f"bottisota {version()}\n"


# --- the compiled catalogue in the user's cache ------------------------------------------

@pytest.fixture
def cache(tmp_path, monkeypatch):
    """An empty cache folder; the catalogues compiled afresh in this test and after it."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    i18n._compiled.cache_clear()
    yield tmp_path / "cache" / "bottisota"
    monkeypatch.undo()                       # the real catalogue and cache folder again
    i18n._compiled.cache_clear()
    i18n._patterns.cache_clear()
    i18n._prefixes.cache_clear()
    i18n._translated.cache_clear()
    i18n.set_language()


def same_catalogue(a: gettext.GNUTranslations, b: gettext.GNUTranslations) -> None:
    assert a._catalog == b._catalog            # type: ignore[attr-defined]
    assert a.plural(1) == b.plural(1) and a.plural(5) == b.plural(5)   # type: ignore[attr-defined]


@pytest.mark.parametrize("lang", ["en", "fi"])
def test_a_catalogue_is_compiled_once_then_read_from_the_cache(cache, monkeypatch, lang):
    fresh, pairs = i18n._compiled(lang)
    files = list(cache.glob(f"bottisota-{lang}-*.json"))
    assert len(files) == 1
    i18n._compiled.cache_clear()

    def no_babel(text: str, lang: str) -> None:
        raise AssertionError("compiled again despite the cache")

    monkeypatch.setattr(i18n, "compile_catalogue", no_babel)
    cached, cached_pairs = i18n._compiled(lang)
    same_catalogue(cached, fresh)
    assert cached_pairs == pairs


@pytest.mark.parametrize("lang", ["en", "fi"])
def test_the_cached_catalogue_is_babels(cache, lang):
    """What the cache gives back is what Babel compiles from the .po, text for text."""
    cached, pairs = i18n._compiled(lang)
    i18n._compiled.cache_clear()
    cached, pairs = i18n._compiled(lang)                    # read back from the file
    mo, babel_pairs = i18n.compile_catalogue(i18n.catalogue_text(lang), lang)
    same_catalogue(cached, gettext.GNUTranslations(io.BytesIO(mo)))
    assert pairs == babel_pairs
    if lang == "fi":
        assert cached.gettext("start the referee's table view (the default)") != \
            "start the referee's table view (the default)"


def test_an_edited_catalogue_is_compiled_afresh_and_replaces_the_old(cache, monkeypatch):
    i18n._compiled("fi")
    old = list(cache.glob("bottisota-fi-*.json"))
    text = i18n.catalogue_text("fi").replace(
        'msgstr "Bottisota-tuomari"', 'msgstr "Bottisota-erotuomari"')
    assert text != i18n.catalogue_text("fi")
    monkeypatch.setattr(i18n, "catalogue_text", lambda lang: text)
    i18n._compiled.cache_clear()
    tr, _pairs = i18n._compiled("fi")
    assert tr.gettext("Bottisota Referee") == "Bottisota-erotuomari"
    new = list(cache.glob("bottisota-fi-*.json"))
    assert len(new) == 1 and new != old                 # the stale one is gone


@pytest.mark.parametrize("damage", ["garbage", "truncated", "other-format", "bad-mo"])
def test_a_damaged_cache_file_is_compiled_again(cache, damage):
    fresh, pairs = i18n._compiled("fi")
    (path,) = cache.glob("bottisota-fi-*.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    if damage == "garbage":
        path.write_bytes(b"\x00\xff not json")
    elif damage == "truncated":
        path.write_text(path.read_text(encoding="utf-8")[:500], encoding="utf-8")
    elif damage == "other-format":
        path.write_text(json.dumps(dict(data, format=-1)), encoding="utf-8")
    else:
        path.write_text(json.dumps(dict(data, mo="AAAA")), encoding="utf-8")
    i18n._compiled.cache_clear()
    again, again_pairs = i18n._compiled("fi")
    same_catalogue(again, fresh)
    assert again_pairs == pairs
    i18n._compiled.cache_clear()
    assert i18n._read_cached(path, data["source"]) is not None    # rewritten whole


def test_a_cache_folder_that_cannot_be_written_only_costs_time(tmp_path, monkeypatch, cache):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    i18n._compiled.cache_clear()
    tr, _pairs = i18n._compiled("fi")
    assert tr.gettext("Bottisota Referee") != "Bottisota Referee"
    assert blocker.read_text(encoding="utf-8") == "not a folder"


# --- numbers written without Babel ----------------------------------------------------------

@pytest.mark.parametrize("lang", sorted(i18n.DECIMAL_MARK))
def test_the_decimal_marks_are_babels(lang):
    assert i18n.DECIMAL_MARK[lang] == Locale.parse(lang).number_symbols["latn"]["decimal"]


@settings(max_examples=400, deadline=None)
@given(value=st.one_of(st.floats(-2e9, 2e9), st.integers(-10**6, 10**6).map(lambda n: n / 8),
                       st.floats(-1.0, 1.0)),
       digits=st.integers(0, 6), fixed=st.booleans(), lang=st.sampled_from(i18n.LANGUAGES))
def test_numbers_read_exactly_as_babel_writes_them(value, digits, fixed, lang):
    rounded = round(value, digits)
    if rounded == 0:
        rounded = 0.0
    assert i18n._formatted(rounded, digits, fixed, lang) == \
        i18n.babel_formatted(rounded, digits, fixed, lang)


@pytest.mark.parametrize("value", [math.inf, -math.inf, math.nan, 1e12, -3.5e10])
def test_numbers_beyond_plain_ones_are_babels(value):
    for lang in i18n.LANGUAGES:
        assert i18n._formatted(value, 2, False, lang) == \
            i18n.babel_formatted(value, 2, False, lang)


def test_no_home_folder_means_no_cache_not_a_failure(monkeypatch, cache):
    monkeypatch.delenv("XDG_CACHE_HOME")

    def homeless() -> Path:
        raise RuntimeError("Could not determine home directory.")

    monkeypatch.setattr(Path, "home", homeless)
    i18n._compiled.cache_clear()
    tr, _pairs = i18n._compiled("fi")
    assert tr.gettext("Bottisota Referee") == "Bottisota-tuomari"


OPENBLAS = r"""
import os, sys
import bottisota.cli
print("numpy-loaded" if "numpy" in sys.modules else "numpy-not-loaded",
      os.environ.get("OPENBLAS_NUM_THREADS"))
"""


@pytest.mark.parametrize(("given", "expected"), [(None, "1"), ("3", "3")])
def test_the_command_keeps_numpys_blas_to_one_thread_unless_the_user_set_it(given, expected):
    """numpy's OpenBLAS would start a thread per core on import (some 70 ms of CPU at
    every start, a set per simulate worker): the command asks for one before anything
    imports numpy, and keeps a user's own setting."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("OPENBLAS_NUM_THREADS", None)
    if given is not None:
        env["OPENBLAS_NUM_THREADS"] = given
    out = subprocess.run([sys.executable, "-c", OPENBLAS], capture_output=True, text=True,
                         env=env, timeout=120, check=True)
    assert out.stdout.split() == ["numpy-not-loaded", expected]
