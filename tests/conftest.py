"""Test setup: no screen, no sound, no network; fixtures several test files share."""
import atexit
import os
import shutil
import tempfile

import pytest

# The tests write saved games, crash logs, calibrations and compiled catalogues
# where the program would: into folders of their own, never the user's home.
_HOME = tempfile.mkdtemp(prefix="bottisota-tests-")
atexit.register(shutil.rmtree, _HOME, True)
for _variable, _folder in (("XDG_DATA_HOME", "data"), ("XDG_STATE_HOME", "state"),
                           ("XDG_CONFIG_HOME", "config"), ("XDG_CACHE_HOME", "cache")):
    os.environ[_variable] = os.path.join(_HOME, _folder)

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


@pytest.fixture(scope="module")
def catalogue():
    """The bundled bot cards and mods."""
    from bottisota.formats.loading import load_catalogue

    return load_catalogue()


@pytest.fixture(scope="module")
def duel():
    """The bundled duel arena."""
    from bottisota.formats.content import arenas_dir
    from bottisota.formats.loading import load_arena

    return load_arena(arenas_dir() / "duel.yaml")


@pytest.fixture(scope="module")
def robot_journal(catalogue, duel, tmp_path_factory) -> list[str]:
    """The lines of a seeded robot game on the duel arena (decisions as notes), 8 actions."""
    from bottisota.formats.loading import bundled_rules
    from bottisota.formats.robot_tables import find_personality
    from bottisota.play.journal import journal_to
    from bottisota.robot.match import play

    cards, mods = catalogue
    path = tmp_path_factory.mktemp("robots") / "robots.jsonl"
    play(duel, bundled_rules(), cards, mods,
         [find_personality("aggressive"), find_personality("sniper")], seed=7,
         round_limit=None, time_limit=0.05, max_actions=8, on_start=journal_to(path))
    return path.read_text(encoding="utf-8").splitlines()


@pytest.fixture
def video():
    """pygame's display and fonts up, no events left from an earlier test (view tests)."""
    import pygame

    pygame.display.init()
    pygame.font.init()
    pygame.event.clear()
    yield


os.environ["LANGUAGE"] = "en"     # the tests read English unless they ask for Finnish


@pytest.fixture(autouse=True)
def english():
    """Every test starts in English (the catalogue's ids) and leaves English behind."""
    from bottisota.core.i18n import set_language

    set_language("en")
    yield
    set_language("en")


@pytest.fixture(params=["en", "fi"])
def language(request):
    """Run a test in each language the referee speaks."""
    from bottisota.core.i18n import set_language

    set_language(request.param)
    yield request.param
    set_language("en")
