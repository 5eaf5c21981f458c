"""The README screenshots come from the view's own drawing, and show what they claim;
`bottisota play` opens, journals and closes headless; robot seats play through the view."""
from __future__ import annotations

import argparse

import pygame
import pytest

from bottisota.view import style
from bottisota.view.app import TableApp
from bottisota.view.premeasure_overlay import BLAST_WIDTH
from bottisota.view.screenshots import SIZE, make_screenshots, screenshot_game

pytestmark = pytest.mark.usefixtures("video")   # tests/conftest.py


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    pygame.display.init()
    pygame.font.init()
    out = tmp_path_factory.mktemp("shots")
    paths = make_screenshots(out)
    return {p.name: pygame.image.load(str(p)) for p in paths}


def camera():
    return TableApp(screenshot_game("r1", "move"), SIZE).windows.camera


def colour_at(img: pygame.Surface, x: float, y: float) -> tuple[int, int, int]:
    return tuple(img.get_at(camera().to_ipx(x, y)))[:3]


def test_the_screenshots_are_written(shots):
    assert sorted(shots) == ["correction.png", "crowded-fight.png", "move-preview.png",
                             "premeasure.png", "results.png", "table-4k.png", "table.png",
                             "threat.png", "two-windows.png"]
    assert all(img.get_size() == SIZE for name, img in shots.items()
               if name not in ("table-4k.png", "two-windows.png"))
    assert shots["table-4k.png"].get_size() == (3840, 2160)


def test_table_screenshot_shows_each_bot_in_its_player_colour(shots):
    img = shots["table.png"]
    assert colour_at(img, 27.4, 40.0) == style.player_colour("red")    # beside the seat mark
    assert colour_at(img, 62.0, 21.4) == style.player_colour("sky")


def test_move_preview_screenshot_shows_the_ghost_path(shots):
    img = shots["move-preview.png"]
    assert colour_at(img, 33.5, 40.0) == style.GHOST          # the path r1 would drive
    assert colour_at(img, 33.5, 40.0) != colour_at(shots["table.png"], 33.5, 40.0)


def test_premeasure_screenshot_shows_the_blast_at_its_true_radius(shots):  # R34 D12
    img = shots["premeasure.png"]
    cam = camera()
    cx, cy = cam.to_px(62.0, 22.0)                           # the mortar aimed at s1
    r_px = cam.length(3.0)                                   # bundled blast_diameter 6
    edge = round(cx - r_px)
    assert tuple(img.get_at((edge + 1, round(cy))))[:3] == style.BLAST
    assert tuple(img.get_at((edge + BLAST_WIDTH + 2, round(cy))))[:3] != style.BLAST


def test_play_opens_journals_and_closes_headless(tmp_path, monkeypatch):
    from bottisota.commands.play import configure_parser, main

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    p = argparse.ArgumentParser()
    configure_parser(p)
    args = p.parse_args(["--seed", "3", "--size", "1024x700"])
    real_set_mode = pygame.display.set_mode

    def set_mode_then_quit(*a, **kw):
        screen = real_set_mode(*a, **kw)
        pygame.event.post(pygame.event.Event(pygame.QUIT))
        return screen

    monkeypatch.setattr(pygame.display, "set_mode", set_mode_then_quit)
    assert main(args) == 0
    # nothing was done: no journal file (it appears with the first action)
    assert not list((tmp_path / "bottisota" / "games").glob("game-*.jsonl"))


def test_play_freezes_what_its_first_frame_made_and_frees_it_at_the_end(tmp_path,
                                                                        monkeypatch):
    # a full garbage-collector round in a frame after an action took 13-30 ms (over the
    # 16 ms budget) walking what lasts as long as the window: the window's loop leaves it
    # out of those rounds after its first frame, once, and the command lets it go at its end
    import gc

    from bottisota.commands.play import configure_parser, main

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    frozen: list[int] = []                  # frames drawn at each freeze
    frames: list[int] = []
    real_freeze, real_settle = gc.freeze, TableApp.settle

    def settle(app):
        monkeypatch.setattr(gc, "freeze", lambda: (frozen.append(app.frames_drawn),
                                                  real_freeze()))
        real_settle(app)
        frames.append(gc.get_freeze_count())
        if len(frames) == 3:
            app.running = False

    monkeypatch.setattr(TableApp, "settle", settle)
    p = argparse.ArgumentParser()
    configure_parser(p)
    assert main(p.parse_args(["duel", "--headless", "--robot", "red,blue", "--seed", "3"])) == 0
    assert frozen == [1]                    # once, after the first frame
    assert frames[0] > 1000                 # the arena, cards, fonts... left out of the rounds
    assert gc.get_freeze_count() == 0       # and nothing left frozen by the command


def test_robot_seats_play_through_the_view():
    from bottisota.viewmodel.session import build_game, robot_seats

    game, _ = build_game("duel", ["red", "blue"], 11, None, None)
    app = TableApp(game, (1000, 700), robots=robot_seats(["red", "blue"], ["red", "blue"]),
                   robot_pace=0.0)
    app.step()
    assert game.history == []                # the first frame shows the table first
    for _ in range(4):
        app.step()
    assert len(game.history) == 4
    assert all(b.x > 0 and b.y > 0 for b in game.state.live_bots())


def test_play_with_physical_dice_asks_the_first_rolls_on_screen(tmp_path, monkeypatch):  # D8 R6
    from bottisota.commands.play import configure_parser, main

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    p = argparse.ArgumentParser()
    configure_parser(p)
    args = p.parse_args(["duel", "--physical-dice", "--size", "1024x700"])
    real_set_mode = pygame.display.set_mode

    def set_mode_then_type(*a, **kw):
        screen = real_set_mode(*a, **kw)
        for n in (pygame.K_2, pygame.K_1, pygame.K_1):        # starting player, then draws
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=n, mod=0, unicode="",
                                                 scancode=0))
        pygame.event.post(pygame.event.Event(pygame.QUIT))
        return screen

    monkeypatch.setattr(pygame.display, "set_mode", set_mode_then_type)
    try:
        code = main(args)
    except KeyboardInterrupt:
        code = "asked more dice than typed"
    assert code == 0
    # the rolls were asked on screen; nothing was played, so no journal file was made
    assert not list((tmp_path / "bottisota" / "games").glob("game-*.jsonl"))
