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


def test_the_links_sit_in_a_corner_and_go_once_every_seat_joined(video):
    """Issue 30: the QR codes take the table's bottom-right corner, not its middle, and
    hide by themselves once every seat's page has connected."""
    import warnings
    from types import SimpleNamespace

    from bottisota.view.phone_links import PhoneTable, corner
    from bottisota.web.app import make_app
    from bottisota.web.hub import Hub
    from bottisota.web.server import Phones
    from tests.test_web import new_game

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    links = seat_links(TOKENS, "192.168.1.20", 8765)
    area = pygame.Rect(0, 0, 1600, 900)
    spot = corner(links, area, 20)
    assert spot.bottomright == area.bottomright
    assert spot.width <= area.width * 0.6 and spot.height <= area.height * 0.6
    rects = draw_phone_links(pygame.Surface(area.size), links, spot.inflate(-16, -16), 20)
    assert all(r.left > area.centerx and r.top > area.centery - 100 for r in rects)
    assert module_px(links, spot.inflate(-16, -16), 20) >= 3

    hub = Hub(new_game(), dict(TOKENS))
    app = make_app(hub)
    running = SimpleNamespace(server=SimpleNamespace(config=SimpleNamespace(app=app)))
    table = PhoneTable(Phones(hub, running, links))
    assert [link.seat for link in table.waiting_links()] == ["red", "blue"]
    client = TestClient(app)
    with client.websocket_connect(f"/ws/{TOKENS['red']}") as ws:
        ws.receive_json()
        assert len(table.waiting_links()) == 2            # blue has not joined yet
        with client.websocket_connect(f"/ws/{TOKENS['blue']}") as ws2:
            ws2.receive_json()
            assert table.waiting_links() == []
    assert table.waiting_links() == []                    # joined once is enough
