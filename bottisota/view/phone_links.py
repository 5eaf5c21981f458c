"""The phones beside the table view (`play --phones`).

- `draw_phone_links`: one QR code per seat with the seat's name and short URL
  under it, drawn in a row across a rectangle (dark modules on a white card
  with the quiet zone QR readers need, sized so a phone can scan it across the
  table). The links and QR matrices come from `bottisota.web.table_link`.
  `corner` is the rectangle they take in the table's bottom-right corner, off
  the middle of the table.
- `PhoneTable`: what the table view does for the phones. Each frame holds the
  hub's `table_lock` (`frame`), so a phone's commit never lands in the middle
  of the view's frame; the view's own changes to the game take the hub's
  `lock` (`changing`), so they never land in the middle of a phone's answer;
  phones' pre-measures and plans only read the game, and run beside the frame
  without making it wait (an answer not yet started waits for the frame's
  end: `Hub.table_idle`). Changes made from a phone between two frames reach
  the view's log, results and caches (`sync`); the work seats pushed with
  "Show on table" is drawn as the server measured it (`Hub.on_table`, read
  without a lock; measured again here only after the game changed, a few
  seats a frame), with the table's own painters, and the links of the seats not
  yet joined are shown in a corner until every seat has opened its page (or a
  key, F6, hides or shows them: `draw`).
"""
from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import pygame

from bottisota.core.actions import Move
from bottisota.core.i18n import _
from bottisota.view import style
from bottisota.view.bots_layer import player_colours
from bottisota.view.camera import Camera
from bottisota.view.move_overlay import draw_move_preview
from bottisota.view.premeasure_overlay import draw_premeasure
from bottisota.viewmodel.core_calls import premeasure, preview_move
from bottisota.viewmodel.results import effects_of

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


def corner(links: Sequence[Any], area: pygame.Rect, text_px: int,
           module: int = 5) -> pygame.Rect:
    """Where the links go: a rectangle in the bottom-right corner of `area` just large
    enough for their cards in a row at `module` px (smaller when the area is)."""
    while True:
        sizes = [card_size(link, module, text_px) for link in links]
        w = sum(cw for cw, _h in sizes) + GAP_PX * max(0, len(links) - 1) + 2 * GAP_PX
        h = max((ch for _w, ch in sizes), default=0) + 2 * GAP_PX
        if module <= MIN_MODULE_PX or (w <= area.width * 0.6 and h <= area.height * 0.6):
            break
        module -= 1
    w, h = min(w, area.width), min(h, area.height)
    return pygame.Rect(area.right - w, area.bottom - h, w, h)


# --- the table's side of the phones ------------------------------------------------------

LINKS_KEY = pygame.K_F6       # shows / hides the seats' links
MEASURED_PER_FRAME = 2        # seats' work the frame measures itself at most (after a change)


def game_mark(game: Any) -> tuple:
    """What tells whether the game changed: its state object, history and dice."""
    return (id(game.state), len(game.history), game.state.dice.used)


class PhoneTable:
    """The table view's side of a phone server (`bottisota.web.server.Phones`): see the
    module doc. The view holds one as `app.phones`."""

    def __init__(self, phones: Any, show_links: bool = True) -> None:
        self.phones = phones
        self.hub = phones.hub
        self.show_links = show_links
        self._seen: tuple | None = game_mark(self.hub.game)    # what the view has taken in
        self._work: tuple[tuple, list] | None = None
        self._seats: dict[str, tuple[tuple, tuple]] = {}    # each seat's measured work
        self.wait_ms = 0.0

    @property
    def links(self) -> list[Any]:
        return list(self.phones.links)

    def joined(self) -> frozenset[str]:
        """The seats whose page has connected to the server (none known without one)."""
        running = self.phones.running
        if running is None:
            return frozenset()
        from bottisota.web.app import joined_seats
        return joined_seats(running.server.config.app)

    def waiting_links(self) -> list[Any]:
        """The links still to scan: every seat's until each has joined, then none."""
        links = self.links
        joined = self.joined()
        return [] if links and all(link.seat in joined for link in links) else links

    # --- the frame ----------------------------------------------------------------------

    def frame(self, app: Any, dt: float) -> pygame.Surface:
        """One frame of the view under the hub's `table_lock`: phones' changes first
        (`wait_ms`: how long the frame waited for a phone's commit to finish; a
        phone's pre-measure or plan does not make it wait)."""
        asked = time.perf_counter()
        with self.hub.table_lock:
            self.wait_ms = (time.perf_counter() - asked) * 1000.0
            self.hub.table_idle.clear()          # phones' answers start after the frame
            try:
                self.sync(app)
                out = app.step(dt)
                self._seen = game_mark(app.game)
            finally:
                self.hub.table_idle.set()
        return out

    @contextmanager
    def changing(self) -> Iterator[None]:
        """Around every change the view makes to the game (`GameActions.apply`): no
        phone's answer reads the game half changed."""
        with self.hub.table_lock, self.hub.lock:
            yield

    def sync(self, app: Any) -> bool:
        """Bring what phones did since the last frame into the view: the log (with the
        seat that acted), the results on the table and the view's caches."""
        game = app.game
        mark = game_mark(game)
        seen, self._seen = self._seen, mark
        if seen is None or seen == mark:
            return False
        before, now = seen[1], len(game.history)
        log = app.vm.log
        if now < before:                          # the table's seat undid from a browser
            log.undone(now + 1)
            app.vm.effects.clear()
        for n in range(before + 1, now + 1):
            if any(line.entry == n and line.undone for line in log.lines):
                log.redone(n)
                continue
            log.forget_undone()
            who = self.hub.last_actor or _("a phone")
            log.say(_("from {seat}'s phone:").format(seat=who) if who in self.hub.seats
                    else f"{who}:", "dim", n)
            events = game.history[n - 1].events
            log.events(events, n)
            app.vm.effects.add(effects_of(events, game.state))
        app.vm.robot_wait = app.vm.robot_pace
        app.actions.changed()
        return True

    # --- keys -----------------------------------------------------------------------------

    def toggle_links(self, app: Any) -> None:
        self.show_links = not self.show_links
        app.say(_("seat links shown (F6 hides them)") if self.show_links
                else _("seat links hidden (F6 shows them)"), "dim")

    # --- drawing ----------------------------------------------------------------------------

    def shared(self, game: Any) -> list[tuple[str, Any, str | None, Any]]:
        """The work seats show on the table: (seat, pre-measure or None, its focus,
        move preview or None). As the server measured it when that was for the game
        as it is now; else measured here by the core (each seat's kept until the game
        or that seat's work changes), at most MEASURED_PER_FRAME seats a frame (the
        others wait for a later frame, or for the server's)."""
        published_mark, published = self.hub.on_table      # one read: never half replaced
        if published_mark == self.hub.game_mark():
            return [(w.seat, w.premeasure, w.focus, w.preview) for w in published]
        work = [(w.seat, w.measure, w.move) for w in published]
        mark = game_mark(game)
        key = (mark, repr(work))
        if self._work is not None and self._work[0] == key:
            return self._work[1]
        out = []
        state = game.state
        kept = self._seats
        self._seats = {}
        budget = MEASURED_PER_FRAME
        complete = True
        for seat, req, move in work:
            seat_key = (mark, repr(req), repr(move))
            got = kept.get(seat)
            if got is None or got[0] != seat_key:
                if budget <= 0:
                    complete = False
                    continue
                budget -= 1
                pm = focus = pv = None
                if req is not None:
                    aim = req.get("target") or (tuple(req["at"]) if req.get("at") else None)
                    pm = premeasure(state, req["bot"], req["weapon"], aim,
                                    bool(req.get("overwatch")))
                    focus = req.get("target")
                if isinstance(move, Move) and move.bot in state.bots:
                    pv = preview_move(game, move)
                got = (seat_key, (seat, pm, focus, pv))
            self._seats[seat] = got
            out.append(got[1])
        self._work = (key, out) if complete else None
        return out

    def draw(self, surface: pygame.Surface, cam: Camera, area: pygame.Rect, app: Any) -> None:
        """What the seats show on the table, named by seat; then the seats' links."""
        state = app.game.state
        colours = player_colours(state)
        size = app.windows.sizes(cam).table
        clip = surface.get_clip()
        surface.set_clip(area)
        try:
            for seat, pm, focus, pv in self.shared(app.game):
                bot_id = None
                if pm is not None and pm.bot in state.bots:
                    draw_premeasure(surface, cam, state, pm, focus, None, arc_fill=False)
                    bot_id = pm.bot
                if pv is not None and pv.move.bot in state.bots:
                    draw_move_preview(surface, cam, state.bots[pv.move.bot], pv, colours,
                                      state.bots)
                    bot_id = pv.move.bot
                if bot_id is not None:
                    bot = state.bots[bot_id]
                    tag = style.label(
                        _("{seat}'s phone").format(seat=seat), size, colours.get(seat, style.TEXT)
                    )
                    x, y = cam.to_px(bot.x, bot.y)
                    r = max(4, round(bot.radius * cam.scale))
                    surface.blit(tag, tag.get_rect(midbottom=(x, y - r - 4)))
            links = self.waiting_links() if self.show_links else []
            if links:
                text_px = app.windows.sizes().panel
                draw_phone_links(surface, links, corner(links, area, text_px).inflate(-16, -16),
                                 text_px=text_px)
        finally:
            surface.set_clip(clip)
