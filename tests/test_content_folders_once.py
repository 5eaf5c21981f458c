"""A content folder given twice, spelled two ways (relative and absolute, `--content`
and BOTTISOTA_PATH, through a link), is read once: its cards do not clash with
themselves (issue 28)."""
from __future__ import annotations

from pathlib import Path

from bottisota.formats import content
from bottisota.formats.loading import load_catalogue
from tests.test_content import folder, run  # noqa: F401  (the fixture)


def test_one_folder_two_spellings_is_one_folder(folder, monkeypatch, capsys):  # noqa: F811
    monkeypatch.chdir(folder.parent)
    link = folder.parent / "link"
    link.symlink_to(folder)
    content.use_folders(["mine", str(folder), str(link)])
    monkeypatch.setenv(content.ENV, f"{folder}:mine/../mine")
    assert content.user_folders() == [Path("mine")]            # the first spelling
    cards, _mods = load_catalogue()
    assert "zipper" in cards
    content.use_folders(None)
    code, _out, err = run(capsys, "simulate", "--content", "mine", "--content", folder, "pocket",
                          "--games", "1", "--jobs", "1", "--round-limit", "1",
                          "--cards", "zipper,scout", "--quiet")
    assert code == 0, err


def test_the_bundled_content_given_as_a_folder_is_not_read_twice(monkeypatch):
    monkeypatch.delenv(content.ENV, raising=False)
    content.use_folders([str(content.content_root())])
    try:
        assert content.user_folders() == []
        assert "scout" in load_catalogue()[0]
    finally:
        content.use_folders(None)
