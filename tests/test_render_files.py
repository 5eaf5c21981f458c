"""`bottisota render` by file type: PNG with its DPI, SVG in millimetres at 1:1, PDF
tiled onto A4 or Letter pages (vector: no raster image of the table), and clear
refusals for sizes that cannot be made."""
from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
import zlib

import pygame
import pytest

from bottisota.cli import main as cli_main
from bottisota.view.pdf_out import LABEL, MARGIN, OVERLAP, PAPERS

SIZES = {"warehouse": (120, 90), "duel": (60, 60), "factory": (120, 90)}


def render(capsys, *argv) -> tuple[int, str, str]:
    code = cli_main(["render", *map(str, argv)])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("arena", sorted(SIZES))
def test_svg_is_xml_in_millimetres_the_size_of_the_table(tmp_path, capsys, arena):
    out = tmp_path / "plan.svg"
    assert render(capsys, arena, "-o", out)[0] == 0
    root = ET.parse(out).getroot()
    w, h = SIZES[arena]
    # the table at 1:1, and the key's column beside it (19.6 cm: never over the table)
    assert root.get("width") == f"{w * 10 + 196:g}mm" and root.get("height") == f"{h * 10}mm"
    assert root.get("viewBox") == f"0 0 {w * 10 + 196:g} {h * 10}"
    ns = "{http://www.w3.org/2000/svg}"
    key = next(g for g in root.iter(f"{ns}g") if g.get("id") == "key")
    assert key.get("transform") == f"translate({w * 10 + 8} 6)"
    assert not list(root.iter(f"{ns}image"))
    texts = [t.text for t in root.iter(f"{ns}text")]
    assert "h 10" in texts                      # wall heights labelled
    assert any(t and t.startswith("10 cm of table at 1:1") for t in texts)   # the scale bar


def test_svg_at_half_scale_is_half_the_size(tmp_path, capsys):
    out = tmp_path / "plan.svg"
    assert render(capsys, "duel", "-o", out, "--scale", "1:2", "--no-key")[0] == 0
    assert ET.parse(out).getroot().get("width") == "300mm"


def test_svg_marks_respawn_spots_teleporter_links_belts_and_ids(tmp_path, capsys):
    out = tmp_path / "plan.svg"
    assert render(capsys, "warehouse", "-o", out, "--ids")[0] == 0
    text = out.read_text()
    assert "floor-goal R1" in text and "floor-goal R2" in text       # respawn spots
    assert text.count('stroke-dasharray="2 1.2"') >= 3               # 3 teleporters: 3 links
    assert "belt 2 cm" in text and "escalator 0-4, 2 cm up" in text
    assert "#bay-door" in text and "wall and door tops" in text      # ids and the height key


def expected_pages(width_mm: float, height_mm: float, paper: str) -> int:
    def fit(length, area):
        return 1 if length <= area else 1 + math.ceil((length - area) / (area - OVERLAP))

    pw, ph = PAPERS[paper]
    best = min(fit(width_mm, w - 2 * MARGIN) * fit(height_mm, h - 2 * MARGIN - LABEL)
               for w, h in ((pw, ph), (ph, pw)))
    return best + 1                                                  # and the assembly map


def pdf_pages(data: bytes) -> int:
    return len(re.findall(rb"/Type /Page\b", data))


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("arena, ratio", [("warehouse", 1), ("duel", 1), ("warehouse", 2)])
def test_pdf_page_count_for_the_paper(tmp_path, capsys, paper, arena, ratio):
    out = tmp_path / "plan.pdf"
    code, printed, _err = render(capsys, arena, "-o", out, "--paper", paper,
                                 "--scale", f"1:{ratio}")
    assert code == 0
    data = out.read_bytes()
    assert data.startswith(b"%PDF")
    w, h = SIZES[arena]
    pages = expected_pages(w * 10 / ratio, h * 10 / ratio, paper)
    assert pdf_pages(data) == pages and f"= {pages} pages" in printed


def test_pdf_is_vector_with_labelled_tiles(tmp_path, capsys):
    out = tmp_path / "plan.pdf"
    assert render(capsys, "duel", "-o", out)[0] == 0
    data = out.read_bytes()
    assert b"/Image" not in data and b"/XObject" not in data
    streams = [zlib.decompress(m) for m in re.findall(rb"stream\n(.*?)\nendstream", data, re.S)]
    tile = streams[1].decode("latin-1")
    assert " re W n" in tile and " l " in tile and ("\nf*" in tile or "\nB*" in tile)
    assert "(A1: column A of" in tile
    assert "(assembly" not in tile
    assert "build plan at 1:1" in streams[0].decode("latin-1")


def test_png_carries_its_dpi_and_size(tmp_path, capsys):
    out = tmp_path / "plan.png"
    code, printed, _err = render(capsys, "duel", "-o", out, "--scale", "10")
    assert code == 0 and "25.4 dpi" in printed
    assert pygame.image.load(str(out)).get_size() == (796, 600)     # 60 cm + the key's 19.6


@pytest.mark.parametrize("scale", ["300", "1000"])
def test_a_png_too_large_is_refused_with_the_largest_scale(tmp_path, capsys, scale):
    code, _out, err = render(capsys, "warehouse", "-o", tmp_path / "a.png", "--scale", scale)
    assert code == 2 and "too large" in err and "--scale 97 or less" in err and ".pdf" in err
    assert not (tmp_path / "a.png").exists()


def test_render_duel_at_scale_500_is_refused_not_aborted(tmp_path, capsys, monkeypatch):
    # issue 16: `render duel --scale 500` used to segfault at 30000 x 30000 px
    monkeypatch.chdir(tmp_path)                       # the default output, arena.png, here
    code, _out, err = render(capsys, "duel", "--scale", "500")
    assert code == 2 and "too large" in err and "--scale 158 or less" in err
    assert len(err.strip().splitlines()) == 1 and not list(tmp_path.iterdir())


def test_unknown_extension_and_bad_scale_are_refused(tmp_path, capsys):
    code, _out, err = render(capsys, "duel", "-o", tmp_path / "a.tga")
    assert code == 2 and "use .png, .svg or .pdf" in err
    code, _out, err = render(capsys, "duel", "-o", tmp_path / "a.svg", "--scale", "3")
    assert code == 2 and "print ratio" in err
    code, _out, err = render(capsys, "duel", "-o", tmp_path / "a.pdf", "--scale", "1:0")
    assert code == 2 and "ratio" in err


def test_too_many_pages_are_refused(tmp_path, capsys):
    code, _out, err = render(capsys, "warehouse", "-o", tmp_path / "a.pdf", "--scale", "10:1")
    assert code == 2 and "pages" in err and "Traceback" not in err


def test_findings_are_marked_on_the_plan(tmp_path, capsys):
    arena = tmp_path / "lone.yaml"
    arena.write_text("size: [40, 30]\nfeatures:\n  - {type: teleporter, circle: [10, 10, 1.5]}\n")
    out = tmp_path / "plan.svg"
    assert render(capsys, arena, "-o", out, "--findings")[0] == 0
    texts = [t.text for t in ET.parse(out).getroot().iter("{http://www.w3.org/2000/svg}text")]
    assert "W012" in texts


def test_a_door_over_a_wall_is_drawn_cutting_it(tmp_path, capsys):
    from pathlib import Path

    good = Path(__file__).parent / "fixtures" / "good" / "door_over_wall.yaml"
    out = tmp_path / "plan.png"
    assert render(capsys, good, "-o", out, "--scale", "10", "--no-key")[0] == 0
    img = pygame.image.load(str(out))
    door_px = tuple(img.get_at((410, 600 - 300)))[:3]          # (41, 30): inside the gate
    wall_px = tuple(img.get_at((410, 600 - 100)))[:3]          # (41, 10): the wall
    from bottisota.view.blueprint import DOOR

    assert door_px == DOOR and wall_px != DOOR


def test_the_key_and_the_scale_bar_lie_beside_the_table_never_over_it(tmp_path, capsys):
    # issue 33: the key covered tp-east in the tutorial's own plan; at --scale 8 it was cut
    for scale in ("8", "20"):
        out = tmp_path / f"plan-{scale}.png"
        assert render(capsys, "warehouse", "-o", out, "--scale", scale)[0] == 0
        img = pygame.image.load(str(out))
        table_w = round(120 * float(scale))
        # the key's column: ink there, and the whole column is inside the picture
        ink = [(x, y) for x in range(table_w + 2, img.get_width(), 2)
               for y in range(0, img.get_height(), 2) if img.get_at((x, y))[:3] != (255, 255, 255)]
        assert ink, "no key beside the table"
    out = tmp_path / "plan.svg"
    assert render(capsys, "warehouse", "-o", out)[0] == 0
    root = ET.parse(out).getroot()
    ns = "{http://www.w3.org/2000/svg}"
    groups = {g.get("id"): g for g in root.iter(f"{ns}g")}
    for name in ("key", "scale-bar"):
        x = float(groups[name].get("transform").split("(")[1].split()[0])
        assert x >= 1200, name                     # right of the 1200 mm table


def test_every_pdf_tile_carries_the_whole_scale_bar_in_its_margin():
    from bottisota.view import blueprint, pdf_out
    from bottisota.view.render import load_arena_file

    bp = blueprint.build(load_arena_file("warehouse"))
    for paper in ("a4", "letter"):
        t = pdf_out.tiling(1200, 900, paper)
        bar, height = blueprint.scale_bar(1.0, t.area[0])
        # 10 cm of table at 1:1 is 100 mm, and the bar with its label fits a tile's width
        shapes = [i for i in bar if isinstance(i, blueprint.Shape)]
        assert max(x for s in shapes for ring in s.rings for x, _y in ring) == pytest.approx(100)
        assert 100 + blueprint.SCALE_LABEL_W <= t.area[0]
        assert height + 1 <= pdf_out.MARGIN                 # in the top margin, off the plan
        page = pdf_out._tile(bp, pdf_out.Paper(bp, 1.0), t, 1, 1)
        assert any("10 cm of table at 1:1" in op for op in page.ops)


def test_labels_never_print_over_each_other():
    # issue 33: "z 6" collided with "h 9"
    from bottisota.view import blueprint
    from bottisota.view.render import load_arena_file

    for name in ("warehouse", "factory", "duel"):
        arena = load_arena_file(name)
        groups = [g for f in arena.features if (g := blueprint._labels(f, True))]
        bp = blueprint.Blueprint("t", arena.size)
        blueprint._place_labels(bp, groups)
        boxes = []
        texts = [i for i in bp.items if isinstance(i, blueprint.Text)]
        i = 0
        for g in groups:
            first = texts[i]
            boxes.append(g.box(first.x - g.x, first.y - g.y))
            i += len(g.lines)
        overlaps = [(a, b) for n, a in enumerate(boxes) for b in boxes[n + 1:]
                    if blueprint._overlap(a, b) > 0]
        assert not overlaps, name


def test_a_belt_is_marked_along_its_whole_length():
    from bottisota.view import blueprint
    from bottisota.view.render import load_arena_file

    arena = load_arena_file("warehouse")
    belt = next(f for f in arena.features if f.type == "conveyor")
    from shapely.geometry import LineString

    length = LineString(belt.path).length
    bp = blueprint.Blueprint("t", arena.size)
    blueprint._belt_arrows(bp, belt)
    marks = [i for i in bp.items if isinstance(i, blueprint.Line)]
    assert len(marks) == int(length // blueprint.BELT_ARROW_EVERY) >= 5
    # spread along the belt: the first near its start, the last near its end
    line = LineString(belt.path)
    along = sorted(line.project(__import__("shapely").geometry.Point(m.points[1])) for m in marks)
    assert along[0] < length * 0.25 and along[-1] > length * 0.75


def test_paper_names_are_read_in_any_case(tmp_path, capsys):
    out = tmp_path / "plan.pdf"
    assert render(capsys, "duel", "-o", out, "--paper", "A4")[0] == 0
    assert render(capsys, "duel", "-o", out, "--paper", "Letter")[0] == 0


def test_labels_on_one_spot_are_moved_apart():
    # "z 6" and "h 9" anchored at one point (a wall standing on a platform's middle)
    from bottisota.view import blueprint

    groups = [blueprint.LabelGroup(["z 6"], 30.0, 30.0, blueprint.INK),
              blueprint.LabelGroup(["h 9"], 30.0, 30.0, blueprint.INK),
              blueprint.LabelGroup(["stairs 0-6", "#up"], 30.3, 30.2, blueprint.INK)]
    bp = blueprint.Blueprint("t", (60.0, 60.0))
    blueprint._place_labels(bp, groups)
    firsts = [i for i in bp.items if isinstance(i, blueprint.Text) and i.bold]
    boxes = [g.box(t.x - g.x, t.y - g.y) for g, t in zip(groups, firsts, strict=True)]
    assert (firsts[0].x, firsts[0].y) == (30.0, 30.0)          # the first stays on its spot
    assert all(blueprint._overlap(a, b) == 0 for n, a in enumerate(boxes)
               for b in boxes[n + 1:])
