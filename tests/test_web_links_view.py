"""The seats' QR codes drawn on the table (`play --phones`), headless."""
from __future__ import annotations

import pygame

from bottisota.view.phone_links import QUIET, draw_phone_links, module_px
from bottisota.web.table_link import seat_links

TOKENS = {"red": "r" * 22, "blue": "b" * 22, "table": "t" * 22}


def test_each_seat_gets_a_scannable_card_in_a_row(video):
    links = seat_links(TOKENS, "192.168.1.20", 8765)
    surface = pygame.Surface((1280, 400))
    area = pygame.Rect(0, 0, 1280, 400)
    rects = draw_phone_links(surface, links, area, text_px=18)
    assert len(rects) == 2 and not rects[0].colliderect(rects[1])
    assert all(area.contains(r) for r in rects)
    module = module_px(links, area, 18)
    assert module >= 3
    # the quiet zone is white; the QR's top-left finder module is dark
    card = rects[0]
    left = card.centerx - (len(links[0].qr) * module) // 2
    top = card.top + QUIET * module
    assert links[0].qr[0][0]
    assert surface.get_at((left + module // 2, top + module // 2))[:3] == (0, 0, 0)
    assert surface.get_at((left - module, top - module))[:3] == (255, 255, 255)
