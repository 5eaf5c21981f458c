"""A crowded table on the projector (32 bots, a fight of 20 results, the threat view,
banners, both strips) at 1920x1080 and 3840x2160 at true scale: every text readable
from the reading distance, no text over another or over a bot, no leader line over a
bot, nothing of the strips or legends over the arena."""
from __future__ import annotations

import math
import os

import pygame
import pytest

from bottisota.view import label_layer, overlays, screenshots, style
from bottisota.viewmodel.labels import (
    leader_end,
    rects_overlap,
    segment_meets_disc,
    segment_meets_rect,
)
from bottisota.viewmodel.results import MARK

pytestmark = pytest.mark.usefixtures("video")   # tests/conftest.py

def crowded_projector(size: tuple[int, int], px_per_cm: float, monkeypatch):
    pygame.font.init()
    app = screenshots.crowded_projector(size, px_per_cm)
    assert len(app.state.bots) == 32
    assert sum(1 for e in app.vm.effects.items if e.kind == MARK) == 20
    written: list[tuple[str, int]] = []
    real = style.label

    def recorded(text: str, size: int, colour: style.Colour = style.TEXT) -> pygame.Surface:
        written.append((text, size))
        return real(text, size, colour)

    for cache in (overlays._bands, label_layer._tags):
        cache.clear()
    style.forget_fonts()
    monkeypatch.setattr(style, "label", recorded)
    surface = app.windows.projector.draw(app)
    monkeypatch.setattr(style, "label", real)
    if os.environ.get("BOTTISOTA_SAVE_PICTURES"):
        pygame.image.save(surface, f"crowded-{size[0]}.png")
    return app, written


def cap_px(size: int) -> int:
    return style.font(size).render("H", True, (255, 255, 255)).get_bounding_rect().h


@pytest.mark.parametrize("size, px_per_cm, full", [((1920, 1080), 12.0, 5),
                                                   ((3840, 2160), 24.0, 13)])
def test_a_crowded_table_reads_from_the_chairs(size, px_per_cm, full, monkeypatch):
    app, written = crowded_projector(size, px_per_cm, monkeypatch)
    proj = app.windows.projector
    cam = proj.camera
    assert cam.scale == pytest.approx(px_per_cm)                       # true scale
    least_cm = app.vm.reading_distance_cm / 200.0                      # 1.5 cm at 3 m
    assert written, "the projector wrote no text"
    small = {(t, s) for t, s in written if cap_px(s) / px_per_cm < least_cm}
    assert not small, f"texts under {least_cm} cm: {sorted(small)[:5]}"
    # no text box over another, a bot's base, a strip or a legend
    labels = proj.layers.labels
    cards = [lb for lb in labels if lb.key.startswith("fx:")]
    assert len(cards) == 20, f"only {len(cards)} of 20 result cards placed"
    # every result shows: a full card, or where the table is too crowded a short one
    # (the newest cards full, as many as leave none out)
    assert sum(1 for c in cards if "\n" in c.text) >= full
    named = {lb.key for lb in labels} | {lb.text.split(":")[0] for lb in cards}
    assert set(app.state.bots) <= named             # a bot whose card found no room keeps its name
    margin = [tuple(r) for r in proj.layers.margin.boxes]
    bases = [(*cam.to_px(b.x, b.y), cam.length(b.radius)) for b in app.state.bots.values()]
    for i, a in enumerate(labels):
        for b in labels[i + 1:]:
            assert not rects_overlap(a.rect, b.rect), (a.text, b.text)
        for box in margin:
            assert not rects_overlap(a.rect, box), a.text
        for x, y, r in bases:
            nx = min(max(x, a.rect[0]), a.rect[0] + a.rect[2])
            ny = min(max(y, a.rect[1]), a.rect[1] + a.rect[3])
            assert (nx - x) ** 2 + (ny - y) ** 2 >= r * r, a.text
        if a.leader:
            end = leader_end(a.rect)
            for x, y, r in bases:
                if math.dist((x, y), a.anchor) >= r:            # not the bot it labels
                    assert not segment_meets_disc(a.anchor, end, (x, y, r)), a.text
            for b in labels:                                    # nor another text box
                bx, by, bw, bh = b.rect
                ax, ay = a.anchor
                if b is not a and not (bx <= ax <= bx + bw and by <= ay <= by + bh):
                    assert not segment_meets_rect(a.anchor, end, b.rect), (a.text, b.text)
    # strips and legends in the margin, none over the arena
    table = pygame.Rect(cam.table_rect())
    assert len(proj.layers.margin.boxes) == 3                          # two strips, the legend
    for box in proj.layers.margin.boxes:
        assert not box.colliderect(table), (box, table)


def test_the_reading_distance_sets_the_projector_s_text_size(monkeypatch):
    app, written = crowded_projector((1920, 1080), 12.0, monkeypatch)
    near = min(s for _t, s in written)
    app.vm.reading_distance_cm = 600.0                                 # play --distance 6
    app.windows.projector.layers = None
    for cache in (overlays._bands, label_layer._tags):
        cache.clear()
    style.forget_fonts()
    again: list[int] = []
    real = style.label
    monkeypatch.setattr(style, "label", lambda t, s, c=style.TEXT: again.append(s) or real(t, s, c))
    app.frame._labels_placed = False
    app.windows.projector.draw(app)
    assert min(again) >= 2 * near - 2
    assert cap_px(min(again)) / 12.0 >= 3.0                             # 6 m / 200


def test_a_short_card_keeps_the_bot_and_what_came_of_it():
    from bottisota.view.overlays import short_card

    card = "s1: HIT 5 (4+)\narmour fails 2 (5+)\n−2 structure"
    assert short_card(card, "s1") == "s1: −2 structure"
    assert short_card("s1: HIT 5 (4+)\ns1 DESTROYED", "s1") == "s1 DESTROYED"
    assert short_card("s1: miss 2 (4+)", "s1") == "s1: miss 2 (4+)"
