"""Questions the table asks a player: overwatch fire-or-hold, physical dice."""
from __future__ import annotations

from collections.abc import Callable, Iterator

import pygame

from bottisota.core.i18n import _, number, translated
from bottisota.view import style
from bottisota.viewmodel.watcher_question import WatcherQuestion


def pending_events() -> Iterator[pygame.event.Event]:
    """Queued events one at a time: what a handler leaves unread stays queued (a
    physical-dice question asked in the middle of a frame reads the rest)."""
    while True:
        event = pygame.event.poll()
        if event.type == pygame.NOEVENT:
            return
        yield event


DIGIT_KEYS = {getattr(pygame, f"K_{n}"): n for n in range(1, 7)}
DIGIT_KEYS.update({getattr(pygame, f"K_KP{n}"): n for n in range(1, 7)})


def read_typed_die(surface: pygame.Surface, purpose: str, redraw: Callable[[], object]) -> int:
    """Physical dice (D8): wait for a typed 1-6, redrawing what lies under the question
    every frame; closing the window raises KeyboardInterrupt."""
    error = ""
    while True:
        for event in pending_events():
            if event.type == pygame.QUIT:
                raise KeyboardInterrupt
            if event.type == pygame.KEYDOWN:
                if event.key in DIGIT_KEYS:
                    return DIGIT_KEYS[event.key]
                error = _("type a number from 1 to 6")
        redraw()
        draw_dice_prompt(surface, purpose, error)
        pygame.display.flip()
        pygame.time.wait(15)


OverwatchPrompt = WatcherQuestion    # the session's question, drawn as the table's prompt


def draw_question(surface: pygame.Surface, lines: list[str], keys: str,
                  colour: style.Colour = style.TEXT) -> pygame.Rect:
    """A boxed question in the middle of the view."""
    w, h = surface.get_size()
    size = max(18, h // 28)
    labs = [style.label(t, size, colour) for t in lines] + [style.label(keys, size, style.TEXT_DIM)]
    bw = max(lab.get_width() for lab in labs) + 40
    bh = sum(lab.get_height() + 6 for lab in labs) + 30
    rect = pygame.Rect((w - bw) // 2, (h - bh) // 2, bw, bh)
    pygame.draw.rect(surface, style.PANEL, rect, border_radius=6)
    pygame.draw.rect(surface, colour, rect, 3, border_radius=6)
    y = rect.y + 15
    for lab in labs:
        surface.blit(lab, lab.get_rect(midtop=(rect.centerx, y)))
        y += lab.get_height() + 6
    return rect


def draw_overwatch_prompt(surface: pygame.Surface, prompt: OverwatchPrompt,
                          owner: str, colour: style.Colour) -> None:
    offer = prompt.current
    if offer is None:
        return
    when = _("after the move ends (R24)") if getattr(offer, "after_move", False) else \
        _("at ({x}, {y})").format(x=number(offer.at.x), y=number(offer.at.y))
    weapons = ", ".join(offer.weapons) or "-"
    draw_question(surface, [_("OVERWATCH - {owner}: {watcher} may fire at {bot}").format(
                                owner=owner, watcher=offer.watcher, bot=prompt.move.bot),
                            _("{when} with {weapons}").format(when=when, weapons=weapons)],
                  _("F: fire    H: hold"), colour)


def draw_dice_prompt(surface: pygame.Surface, purpose: str, error: str = "") -> None:
    lines = [_("Roll a d6 (physical dice)"), translated(purpose)]
    if error:
        lines.append(error)
    draw_question(surface, lines, _("type 1 - 6"), style.OKABE_ITO["yellow"])
