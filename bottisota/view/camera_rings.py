"""What the camera's check mode shows on the table: for every miniature standing
elsewhere than the referee has it, a ring where it belongs (its facing marked), a
dashed line from where it was seen, and a label "put red-1 here" beside the ring
(never on a bot); `bottisota camera watch --picture` saves it as a PNG."""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path

import pygame

from bottisota.core.compass import vector
from bottisota.core.i18n import _, number
from bottisota.view import style
from bottisota.view.camera import Camera
from bottisota.viewmodel.camera_feed import DriftLike

RING = (255, 255, 255)
SEEN = (255, 170, 0)


def draw_drifts(surface: pygame.Surface, cam: Camera, drifts: Sequence[DriftLike],
                radius_cm: float = 1.6, radii: Mapping[str, float] | None = None) -> None:
    """A "put it here" ring for every drift (just outside its base: `radii` by bot, cm),
    the way from where it stands dashed."""
    for d in drifts:
        ex, ey = cam.to_px(d.expected.x, d.expected.y)
        sx, sy = cam.to_px(d.seen.x, d.seen.y)
        r = max(8, round(cam.length((radii or {}).get(d.bot, radius_cm - 0.4) + 0.4)))
        length = math.hypot(ex - sx, ey - sy)
        for k in range(0, max(1, int(length // 8)), 2):
            t0, t1 = k * 8 / max(length, 1), min(1.0, (k + 1) * 8 / max(length, 1))
            pygame.draw.line(surface, SEEN, (sx + (ex - sx) * t0, sy + (ey - sy) * t0),
                             (sx + (ex - sx) * t1, sy + (ey - sy) * t1), 3)
        pygame.draw.circle(surface, SEEN, (round(sx), round(sy)), max(4, r // 3), 3)
        pygame.draw.circle(surface, RING, (round(ex), round(ey)), r, 4)
        vx, vy = vector(d.expected.facing)
        tip = (ex + vx * r * 1.5, ey - vy * r * 1.5)
        pygame.draw.line(surface, RING, (ex + vx * r, ey - vy * r), tip, 4)
        text = _("put {bot} here ({cm} cm off)").format(bot=d.bot, cm=number(d.distance, 1))
        label = style.label(text, max(18, round(cam.length(1.2))), style.TEXT)
        back = pygame.Surface((label.get_width() + 12, label.get_height() + 6))
        back.fill(style.LABEL_BACK)
        back.blit(label, (6, 3))
        surface.blit(back, (round(ex + r * 1.6), round(ey - back.get_height() / 2)))


def drift_picture(path: str | Path, arena, state, drifts: Sequence[DriftLike],
                  scale: float = 10.0) -> Path:
    """The table as the referee has it, with the drifts' rings, as a PNG."""
    from bottisota.view.render import ensure_headless, render_arena

    ensure_headless()
    pygame.font.init()
    surface, cam = render_arena(arena, scale, state=state, legend=False)
    draw_drifts(surface, cam, drifts)
    pygame.image.save(surface, str(path))
    return Path(path)
