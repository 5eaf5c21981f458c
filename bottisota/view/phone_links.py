"""The seats' join links on the table (`play --phones`): one QR code per seat with
the seat's name and short URL under it, drawn in a row across a rectangle.

The links and QR matrices come from `bottisota.web.table_link.seat_links`;
this module only draws them (dark modules on a white card with the quiet
zone QR readers need, sized so a phone can scan it across the table).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pygame

from bottisota.view import style

QUIET = 4               # modules of white around a QR code (the standard's quiet zone)
MIN_MODULE_PX = 3       # smaller modules do not scan from a phone held over the table
GAP_PX = 16


def _url_text(link: Any) -> str:
    return link.url.split("://", 1)[-1]


def card_size(link: Any, module: int, text_px: int) -> tuple[int, int]:
    """A seat's card: the QR code with its quiet zone, and the name and URL under it
    (as wide as the URL when that is wider)."""
    n = len(link.qr) + 2 * QUIET
    url_w = style.label(_url_text(link), max(10, text_px * 3 // 4), (0, 0, 0)).get_width()
    return max(n * module, url_w + 8), n * module + 2 * text_px + 8


def module_px(links: Sequence[Any], area: pygame.Rect, text_px: int) -> int:
    """The largest module size that fits every seat's card in a row inside `area`."""
    if not links:
        return MIN_MODULE_PX
    n = max(len(link.qr) for link in links) + 2 * QUIET
    by_width = (area.width - GAP_PX * (len(links) - 1)) // (n * len(links))
    by_height = (area.height - 2 * text_px - 8) // n
    return max(MIN_MODULE_PX, min(by_width, by_height, 12))


def draw_phone_links(surface: pygame.Surface, links: Sequence[Any], area: pygame.Rect,
                     text_px: int = 20) -> list[pygame.Rect]:
    """Draw each seat's QR code, name and URL in a row, centred in `area`; returns
    the cards' rectangles (for tests and for keeping labels off them)."""
    module = module_px(links, area, text_px)
    sizes = [card_size(link, module, text_px) for link in links]
    total = sum(w for w, _h in sizes) + GAP_PX * max(0, len(links) - 1)
    x = area.centerx - total // 2
    rects = []
    for link, (w, h) in zip(links, sizes, strict=True):
        card = pygame.Rect(x, area.centery - h // 2, w, h)
        pygame.draw.rect(surface, (255, 255, 255), card)
        top = card.top + QUIET * module
        left = card.centerx - (len(link.qr) * module) // 2
        for r, row in enumerate(link.qr):
            for c, dark in enumerate(row):
                if dark:
                    surface.fill((0, 0, 0), (left + c * module, top + r * module,
                                             module, module))
        name = style.label(link.seat, text_px, (0, 0, 0))
        url = style.label(_url_text(link), max(10, text_px * 3 // 4), (0, 0, 0))
        y = card.top + (len(link.qr) + 2 * QUIET) * module
        surface.blit(name, name.get_rect(midtop=(card.centerx, y)))
        surface.blit(url, url.get_rect(midtop=(card.centerx, y + text_px + 2)))
        rects.append(card)
        x += w + GAP_PX
    return rects
