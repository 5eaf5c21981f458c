"""Webcam frames rendered from a table of markers, for tests and demos: the table
top, each bot's marker on its figure's top seen through the camera model (lens
distortion included), then what a real webcam adds: blur, sensor noise, uneven
light, JPEG compression, and hands over the table."""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from bottisota.vision.camera_model import CameraModel

DICTIONARY = cv2.aruco.DICT_4X4_50
BITS = 4                                    # a 4x4 marker: 6 cells with its black border
TABLE_GREY = 150


@dataclass(frozen=True)
class Marker:
    """One printed marker: its id, where its centre stands (table cm, at height z: the
    figure's top), its facing (its top toward the bot's front) and its black square's
    side (cm)."""

    id: int
    x: float
    y: float
    z: float
    facing: float
    side: float = 2.0


@dataclass
class Scene:
    """What the camera sees: the table, the markers, and hands (polygons in table cm at
    a height) covering part of it."""

    table: tuple[float, float]
    markers: list[Marker] = field(default_factory=list)
    hands: list[tuple[list[tuple[float, float]], float]] = field(default_factory=list)


def marker_image(marker_id: int, cell: int = 32) -> np.ndarray:
    """The marker's picture with one white cell around it (the quiet zone)."""
    dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARY)
    inner = cv2.aruco.generateImageMarker(dictionary, marker_id, (BITS + 2) * cell, borderBits=1)
    return cv2.copyMakeBorder(inner, cell, cell, cell, cell, cv2.BORDER_CONSTANT, value=255)


def pixel_rays(model: CameraModel) -> np.ndarray:
    """Every pixel's ray on the table's axes (h x w x 3), lens distortion included."""
    w, h = model.size
    xs, ys = np.meshgrid(np.arange(w, dtype=np.float64), np.arange(h, dtype=np.float64))
    px = np.stack([xs.ravel(), ys.ravel()], axis=1).reshape(-1, 1, 2)
    normal = cv2.undistortPoints(px, model.matrix, model.distortion).reshape(-1, 2)
    rays = np.hstack([normal, np.ones((len(normal), 1))]) @ model.rotation
    return rays.reshape(h, w, 3)


def paste(frame: np.ndarray, model: CameraModel, rays: np.ndarray, picture: np.ndarray,
          centre: tuple[float, float, float], facing: float, size: tuple[float, float],
          supersample: int = 3) -> None:
    """Lay a flat picture on the table (its top toward `facing`, `size` cm across and
    down, centred at `centre` at its height) and draw it as the camera sees it, each
    pixel's ray met with the picture's plane (so the lens bends it as it would)."""
    x, y, z = centre
    a = math.radians(facing)
    ahead = np.array([math.sin(a), math.cos(a)])
    right = np.array([math.cos(a), -math.sin(a)])
    half_w, half_h = size[0] / 2, size[1] / 2
    world = np.array([[x + ahead[0] * dy + right[0] * dx, y + ahead[1] * dy + right[1] * dx, z]
                      for dx, dy in ((-half_w, half_h), (half_w, half_h), (half_w, -half_h),
                                     (-half_w, -half_h))])
    px = model.project(world)
    w, h = model.size
    x0, y0 = max(0, int(px[:, 0].min()) - 2), max(0, int(px[:, 1].min()) - 2)
    x1, y1 = min(w, int(px[:, 0].max()) + 3), min(h, int(px[:, 1].max()) + 3)
    if x1 <= x0 or y1 <= y0:
        return
    box = rays[y0:y1, x0:x1]
    if supersample > 1:
        box = cv2.resize(box, ((x1 - x0) * supersample, (y1 - y0) * supersample),
                         interpolation=cv2.INTER_LINEAR)
    c = model.centre
    lam = (z - c[2]) / box[..., 2]
    tx = c[0] + box[..., 0] * lam - x
    ty = c[1] + box[..., 1] * lam - y
    u = (tx * right[0] + ty * right[1]) / size[0] + 0.5          # 0..1 across
    v = 0.5 - (tx * ahead[0] + ty * ahead[1]) / size[1]          # 0..1 down
    ph, pw = picture.shape[:2]
    map_x = (u * pw - 0.5).astype(np.float32)
    map_y = (v * ph - 0.5).astype(np.float32)
    src = picture.astype(np.float32)
    drawn = cv2.remap(src, map_x, map_y, cv2.INTER_AREA if supersample == 1 else cv2.INTER_LINEAR,
                      borderMode=cv2.BORDER_CONSTANT, borderValue=-1.0)
    inside = ((u >= 0) & (u <= 1) & (v >= 0) & (v <= 1)).astype(np.float32)
    if supersample > 1:
        drawn = cv2.resize(np.where(inside > 0, drawn, 0), (x1 - x0, y1 - y0),
                           interpolation=cv2.INTER_AREA)
        inside = cv2.resize(inside, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)
        drawn = np.where(inside > 1e-6, drawn / np.maximum(inside, 1e-6), 0)
    region = frame[y0:y1, x0:x1]
    frame[y0:y1, x0:x1] = region * (1.0 - inside) + drawn * inside


_RAYS: dict[int, tuple[CameraModel, np.ndarray]] = {}


def rays_of(model: CameraModel) -> np.ndarray:
    """`pixel_rays`, kept for the last few models (a test renders many frames)."""
    key = id(model)
    kept = _RAYS.get(key)
    if kept is None or kept[0] is not model:
        if len(_RAYS) > 4:
            _RAYS.clear()
        kept = _RAYS[key] = (model, pixel_rays(model))
    return kept[1]


def render(model: CameraModel, scene: Scene, blur: float = 0.0, noise: float = 0.0,
           jpeg: int | None = None, light: float = 0.0, seed: int = 0) -> np.ndarray:
    """A grey-scale frame (uint8) of the scene through the camera: `blur` the Gaussian
    sigma in px, `noise` the sensor noise sigma in grey levels, `light` how uneven the
    light is (0..1), `jpeg` the JPEG quality it is compressed at."""
    w, h = model.size
    frame = np.full((h, w), TABLE_GREY, dtype=np.float32)
    tw, th = scene.table
    outline = model.project(np.array([[0, 0, 0], [tw, 0, 0], [tw, th, 0], [0, th, 0]]))
    cv2.fillPoly(frame, [np.round(outline).astype(np.int32)], 185.0)
    rays = rays_of(model)
    for m in scene.markers:
        quiet = m.side * (BITS + 4) / (BITS + 2)           # the printed square with its margin
        paste(frame, model, rays, marker_image(m.id), (m.x, m.y, m.z), m.facing, (quiet, quiet))
    for polygon, z in scene.hands:
        pts = model.project(np.array([(x, y, z) for x, y in polygon]))
        cv2.fillPoly(frame, [np.round(pts).astype(np.int32)], 95.0)
    if light:
        yy, xx = np.mgrid[0:h, 0:w]
        frame *= 1.0 - light * (0.5 * xx / w + 0.3 * yy / h)
    if blur:
        frame = np.asarray(cv2.GaussianBlur(frame, (0, 0), blur), dtype=np.float32)
    if noise:
        frame += np.random.default_rng(seed).normal(0.0, noise, frame.shape)
    out = np.clip(frame, 0, 255).astype(np.uint8)
    if jpeg is not None:
        ok, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, jpeg])
        decoded = cv2.imdecode(data, cv2.IMREAD_GRAYSCALE) if ok else None
        if decoded is not None:
            out = np.asarray(decoded, dtype=np.uint8)
    return out


def scattered(seed: int, count: int = 16, table: tuple[float, float] = (120.0, 90.0)
              ) -> list[Marker]:
    """Markers of 2 cm on figure tops of 2, 5 and 6 cm at random spots (seeded), never
    closer than 5 cm apart, as bots stand: the tests' and the bench's tables."""
    rng = np.random.default_rng(seed)
    spots: list[tuple[float, float]] = []
    while len(spots) < count:
        p = (float(rng.uniform(6, table[0] - 6)), float(rng.uniform(6, table[1] - 6)))
        if all(math.hypot(p[0] - q[0], p[1] - q[1]) > 5 for q in spots):
            spots.append(p)
    return [Marker(i, x, y, float(rng.choice([2.0, 5.0, 6.0])), float(rng.uniform(0, 360)))
            for i, (x, y) in enumerate(spots)]


def hand(x: float, y: float, length: float = 14.0, width: float = 8.0,
         facing: float = 200.0, z: float = 12.0) -> tuple[list[tuple[float, float]], float]:
    """A hand and forearm reaching over the table toward (x, y), at height z."""
    a = math.radians(facing)
    fx, fy = math.sin(a), math.cos(a)
    rx, ry = math.cos(a), -math.sin(a)
    far = (x + fx * length, y + fy * length)
    half = width / 2
    return ([(x - rx * half, y - ry * half), (x + rx * half, y + ry * half),
             (far[0] + rx * half, far[1] + ry * half), (far[0] - rx * half, far[1] - ry * half)],
            z)
