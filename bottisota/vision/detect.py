"""Markers found in a frame and read as poses on the table.

The whole frame is searched, or only windows around where the referee expects each
bot (quicker, and no false id outside them). A marker's corners are met with the
plane at its own height (the floor under the bot plus its figure's height), and its
pose is the mean of the four corners and the bearing of its top edge. A marker
partly covered is not read at all: never a wrong reading.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from bottisota.core.compass import heading
from bottisota.vision.camera_model import CameraModel
from bottisota.vision.synthetic import DICTIONARY

WINDOW_SIDES = 4.0              # a window is this many marker sides across


@dataclass(frozen=True)
class Reading:
    """One marker seen: its id and where its centre is on the table, and its facing."""

    id: int
    x: float
    y: float
    facing: float
    pixels: float               # its side in pixels (how well it was seen)


def _detector() -> cv2.aruco.ArucoDetector:
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    params.cornerRefinementWinSize = 3
    # small markers (about 5 px a cell at 1080p): sample each cell finely, and try more
    # threshold windows, so a blurred marker is still read
    params.perspectiveRemovePixelPerCell = 10
    params.perspectiveRemoveIgnoredMarginPerCell = 0.2
    params.adaptiveThreshWinSizeMin = 3
    params.adaptiveThreshWinSizeMax = 33
    params.adaptiveThreshWinSizeStep = 5
    params.minMarkerPerimeterRate = 0.02
    return cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(DICTIONARY), params)


_DETECTOR: cv2.aruco.ArucoDetector | None = None


def detector() -> cv2.aruco.ArucoDetector:
    global _DETECTOR
    if _DETECTOR is None:
        _DETECTOR = _detector()
    return _DETECTOR


def find(frame: np.ndarray, windows: dict[int, tuple[int, int, int, int]] | None = None
         ) -> dict[int, np.ndarray]:
    """Marker corners (4 x 2 px) by id: in the whole frame, or only in the windows
    (x0, y0, x1, y1 px) given for each id, that id alone counted in its window."""
    grey = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    found: dict[int, np.ndarray] = {}
    if windows is None:
        corners, ids, _rejected = detector().detectMarkers(grey)
        for c, i in zip(corners, [] if ids is None else ids.ravel(), strict=True):
            found.setdefault(int(i), c.reshape(4, 2))
        return found
    for marker_id, (x0, y0, x1, y1) in windows.items():
        crop = grey[max(0, y0):max(0, y1), max(0, x0):max(0, x1)]
        if crop.size == 0:
            continue
        corners, ids, _rejected = detector().detectMarkers(crop)
        for c, i in zip(corners, [] if ids is None else ids.ravel(), strict=True):
            if int(i) == marker_id:
                found[marker_id] = c.reshape(4, 2) + np.array([max(0, x0), max(0, y0)])
    return found


def read(model: CameraModel, corners: np.ndarray, height: float, marker_id: int) -> Reading:
    """The pose of one marker from its corners (px), its plane at `height` cm."""
    table = model.to_table(corners, height)
    cx, cy = table.mean(axis=0)
    # "up" the marker four ways: both side edges, and both top and bottom edges turned
    # a right angle to the left; their sum averages out each corner's error
    tl, tr, br, bl = table
    across = (tr - tl) + (br - bl)
    up = (tl - bl) + (tr - br) + np.array([-across[1], across[0]])
    facing = heading(float(up[0]), float(up[1]))
    side = float(np.mean(np.linalg.norm(np.roll(corners, -1, axis=0) - corners, axis=1)))
    return Reading(marker_id, float(cx), float(cy), facing, side)


def windows_for(model: CameraModel, expected: dict[int, tuple[float, float, float]],
                side: float) -> dict[int, tuple[int, int, int, int]]:
    """Search windows (px) around where each marker should be: (x, y, z) cm by id."""
    out = {}
    w, h = model.size
    for marker_id, (x, y, z) in expected.items():
        (px, py), = model.project(np.array([[x, y, z]]))
        (qx, qy), = model.project(np.array([[x + side, y, z]]))
        half = max(24, int(math.hypot(qx - px, qy - py) * WINDOW_SIDES / 2))
        out[marker_id] = (int(px) - half, int(py) - half, min(w, int(px) + half),
                          min(h, int(py) + half))
    return out


def readings(model: CameraModel, frame: np.ndarray, heights: dict[int, float],
             expected: dict[int, tuple[float, float, float]] | None = None,
             side: float = 2.0) -> dict[int, Reading]:
    """Every known marker in the frame read as a pose: `heights` the z (cm) of each
    marker id's plane; with `expected` poses only windows around them are searched.
    Ids not in `heights` are left out (not one of the referee's bots)."""
    windows = windows_for(model, expected, side) if expected is not None else None
    found = find(frame, windows)
    return {i: read(model, c, heights[i], i) for i, c in found.items() if i in heights}
