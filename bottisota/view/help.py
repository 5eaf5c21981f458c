"""The help overlay (F1 or ?): every key and mouse action of the table view, read
from the key-binding table (`view.keys`)."""
from __future__ import annotations

import pygame

from bottisota.core.i18n import _
from bottisota.view import style
from bottisota.view.keys import sections
from bottisota.view.widgets import wrap

KEYS: list[tuple[str, list[tuple[str, str]]]] = sections()   # the key-binding table's


def help_lines() -> list[str]:
    """The help as plain lines (also used by tests)."""
    out = []
    for title, rows in KEYS:
        out.append(_(title))
        out.extend(f"  {_(k)}: {_(v)}" for k, v in rows)
    return out


def draw_help(surface: pygame.Surface) -> None:
    """A dark panel over the view listing every key, in two columns; each key's text
    wraps within its column (the Finnish words are longer), and the size is chosen so
    that everything fits."""
    w, h = surface.get_size()
    shade = pygame.Surface((w, h), pygame.SRCALPHA)
    shade.fill((0, 0, 0, 215))
    surface.blit(shade, (0, 0))
    col_w = (w - 80) // 2
    rows_total = sum(len(r) + 2 for _t, r in KEYS)
    size = max(12, min(h * 2 // rows_total, w // 70))
    while size > 12 and _layout(size, col_w, h) is None:
        size -= 1
    for x, y, text, tsize, colour in _layout(size, col_w, h) or _layout(12, col_w, 10 ** 6) or []:
        surface.blit(style.label(text, tsize, colour), (x, y))


def _layout(size: int, col_w: int, h: int) -> list[tuple[int, int, str, int, style.Colour]] | None:
    """Where each line of the help goes at font `size` in two columns `col_w` wide and
    `h` tall (None: it does not fit)."""
    font = style.font(size)
    line = font.get_linesize()
    key_w = min(col_w // 3, max(font.size(_(k))[0] for _t, rows in KEYS for k, _v in rows) + 20)
    out: list[tuple[int, int, str, int, style.Colour]] = []
    x, y = 40, 30
    for title, rows in KEYS:
        laid = [(wrap(_(k), font, key_w - 10), wrap(_(v), font, col_w - key_w - 20))
                for k, v in rows]
        need = round(line * 1.3) + sum(max(len(a), len(b)) for a, b in laid) * line + line
        if y + need > h - 20:
            if x != 40:
                return None
            x, y = 40 + col_w, 30
        out.append((x, y, _(title), round(size * 1.2), style.OKABE_ITO["yellow"]))
        y += round(line * 1.3)
        for key_rows, what_rows in laid:
            for i, text in enumerate(key_rows):
                out.append((x + 10, y + i * line, text, size, style.TEXT))
            for i, text in enumerate(what_rows):
                out.append((x + 10 + key_w, y + i * line, text, size, style.TEXT_DIM))
            y += max(len(key_rows), len(what_rows)) * line
        y += line
    return out
