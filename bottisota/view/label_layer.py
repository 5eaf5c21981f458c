"""Labels on the table: painters ask for labels (`LabelSink.want`), the view model's
placement pass (`viewmodel.labels.place_labels`) puts them where none overlaps
another or a bot, and `draw_labels` paints them: text on black, a leader line back
to the anchor when a label had to move away."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import pygame

from bottisota.view import style
from bottisota.viewmodel.labels import RINGS, LabelWish, LastPass, PlacedLabel, place_labels_pass

PAD = 3


class LabelSink:
    """Labels asked for during one frame, at one font size, plus the bot discs."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.wishes: list[LabelWish] = []
        self.discs: list[tuple[float, float, float]] = []
        self.radii: dict[str, float] = {}
        self._firsts = 0           # wishes placed before the others (result cards)

    def want(self, text: str, anchor: tuple[float, float], tone: str = "plain",
             key: str = "", radius: float = 0.0, first: bool = False,
             unless: str = "", reach: int = RINGS) -> None:
        """A label for `anchor` (a disc of `radius` px kept clear); `first`: placed before
        every label asked for without it (in the order asked); `unless`: not wanted when
        the label of that key was placed (a short card after the full one)."""
        w, h = text_block_size(text, self.size)
        k = key or f"{text}@{round(anchor[0])},{round(anchor[1])}"
        wish = LabelWish(text, (w + 2 * PAD, h + 2 * PAD), anchor, 4.0, tone, k, unless, reach)
        if first:
            self.wishes.insert(self._firsts, wish)
            self._firsts += 1
        else:
            self.wishes.append(wish)
        self.radii[k] = max(self.radii.get(k, 0.0), radius)

    def instead(self, key: str, card: str) -> None:
        """The label of `key` only if the label of `card` finds no place (a bot's name
        and its result card, which names it)."""
        self.wishes = [replace(w, unless=card) if w.key == key else w for w in self.wishes]

    def disc(self, cx: float, cy: float, r: float) -> None:
        self.discs.append((cx, cy, r))

    def key(self) -> tuple:
        return (self.size, tuple((w.text, round(w.anchor[0]), round(w.anchor[1]), w.tone)
                                 for w in self.wishes),
                tuple((round(x), round(y), round(r)) for x, y, r in self.discs))

    def place(self, bounds: tuple[float, float, float, float],
              taken: Sequence[tuple[float, float, float, float]] = (),
              last: LastPass | None = None) -> tuple[list[PlacedLabel], int, LastPass]:
        """Place the wishes (`last`: this window's last pass, see `place_labels_pass`);
        the labels, how many were left out, and this pass for the next."""
        placed, left_out, now = place_labels_pass(self.wishes, self.discs, bounds, self.radii,
                                                  list(taken), last)
        shortened = {w.key for w in self.wishes if w.unless and w.unless == w.key}
        if not shortened or shortened <= {p.key for p in placed}:
            return placed, left_out, now
        # a card found no room even in short: the newest n cards full (a short one where
        # the full finds no room), the older ones short; n is searched by halves for the
        # most full cards that leave none out (else the pass that shows the most cards)
        order = [w.key for w in self.wishes if w.key in shortened and w.unless != w.key]
        full = sum(1 for p in placed if p.key in shortened and "\n" in p.text)
        best, best_left, shown = placed, left_out, sum(1 for p in placed if p.key in shortened)
        lo, hi = 0, min(full, len(order) - 1)
        tried = now
        while lo <= hi:
            n = (lo + hi + 1) // 2 if lo < hi else lo
            keep = set(order[:n])
            wishes = [w for w in self.wishes if w.key not in shortened or w.unless == w.key
                      or w.key in keep]
            # each trial starts from the last pass made (the same answer as a fresh
            # pass: only the cards' wording differs between them)
            again, missed, then = place_labels_pass(wishes, self.discs, bounds, self.radii,
                                                    list(taken), tried)
            tried = then
            count = sum(1 for p in again if p.key in shortened)
            if count > shown or (count == shown == len(shortened)):
                best, best_left, shown, now = again, missed, count, then
            if count == len(shortened):
                lo = n + 1                  # every card shows: try more of them full
            else:
                hi = n - 1
        return best, best_left, now


_tags: dict[tuple, pygame.Surface] = {}


def text_block_size(text: str, size: int) -> tuple[int, int]:
    """A label's text size in px: one line, or several (a result card) one under another."""
    if "\n" not in text:
        return style.text_size(text, size)
    lines = text.split("\n")
    line = style.font(size).get_linesize()
    return (max(style.text_size(t, size)[0] for t in lines), line * (len(lines) - 1)
            + style.text_size(lines[-1], size)[1])


def _tag(text: str, tone: str, size: int, w: int, h: int) -> pygame.Surface:
    """A label's box with its text (made once per text, tone and size)."""
    key = (text, tone, size, w, h)
    tag = _tags.get(key)
    if tag is None:
        colour = style.tone(tone)
        tag = pygame.Surface((w, h))
        tag.fill(style.LABEL_BACK)
        pygame.draw.rect(tag, colour, tag.get_rect(), 1)
        for i, line in enumerate(text.split("\n")):
            tag.blit(style.label(line, size, colour),
                     (PAD, PAD + i * style.font(size).get_linesize()))
        if len(_tags) > 2000:
            _tags.clear()
        _tags[key] = tag
    return tag


def draw_labels(surface: pygame.Surface, placed: list[PlacedLabel], size: int) -> None:
    clip = surface.get_clip()
    for p in placed:
        x, y, w, h = p.rect
        cx, cy = x + w / 2, y + h / 2
        if not clip.colliderect((x, y, w, h)) and not clip.collidepoint(p.anchor) and not (
                p.leader and clip.colliderect(_line_box(p.anchor, (cx, cy)))):
            continue                             # carried off the window by a pan or zoom
        if p.leader:
            colour = style.tone(p.tone)
            pygame.draw.line(surface, style.LABEL_BACK, p.anchor, (cx, cy), 4)
            pygame.draw.line(surface, colour, p.anchor, (cx, cy), 2)
        surface.blit(_tag(p.text, p.tone, size, round(w), round(h)), (round(x), round(y)))


def _line_box(a: tuple[float, float], b: tuple[float, float]) -> pygame.Rect:
    """The pixels a leader line (4 px wide) from a to b may touch."""
    left, top = min(a[0], b[0]), min(a[1], b[1])
    return pygame.Rect(int(left) - 4, int(top) - 4, int(abs(a[0] - b[0])) + 9,
                       int(abs(a[1] - b[1])) + 9)
