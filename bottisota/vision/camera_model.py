"""A pinhole camera with lens distortion over the table: table points (x, y, z in cm,
y up, z up from the table top) to pixels, and pixels back to the table at a known
height (a marker on a figure's top: the floor under the bot plus its height).

A homography from the table plane is off by centimetres for markers on figure tops
and raised floors; meeting each pixel's ray with the plane at the marker's own height
is what keeps every height to a fraction of a millimetre.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

Point3 = tuple[float, float, float]


@dataclass(frozen=True)
class CameraModel:
    """Intrinsics (K, distortion) and the pose: world (table cm) -> camera frame by the
    rotation vector `rvec` and translation `tvec` (cm)."""

    matrix: np.ndarray          # 3x3 K
    distortion: np.ndarray      # k1 k2 p1 p2 k3
    rvec: np.ndarray            # 3
    tvec: np.ndarray            # 3
    size: tuple[int, int]       # image width, height (px)

    @property
    def rotation(self) -> np.ndarray:
        return cv2.Rodrigues(np.asarray(self.rvec, dtype=np.float64))[0]

    @property
    def centre(self) -> np.ndarray:
        """The camera's position on the table's axes (cm)."""
        return -self.rotation.T @ np.asarray(self.tvec, dtype=np.float64)

    def project(self, points: np.ndarray) -> np.ndarray:
        """Table points (N x 3, cm) -> pixels (N x 2), lens distortion included."""
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 1, 3)
        px, _jac = cv2.projectPoints(pts, np.asarray(self.rvec, dtype=np.float64),
                                     np.asarray(self.tvec, dtype=np.float64),
                                     self.matrix, self.distortion)
        return px.reshape(-1, 2)

    def to_table(self, pixels: np.ndarray, height: float | np.ndarray) -> np.ndarray:
        """Pixels (N x 2) -> table points (N x 2, cm) where each pixel's ray meets the
        plane z = height (one height, or one per pixel)."""
        px = np.asarray(pixels, dtype=np.float64).reshape(-1, 1, 2)
        normal = cv2.undistortPoints(px, self.matrix, self.distortion).reshape(-1, 2)
        rays_cam = np.hstack([normal, np.ones((len(normal), 1))])
        rays = rays_cam @ self.rotation             # R^T applied to each row
        c = self.centre
        z = np.broadcast_to(np.asarray(height, dtype=np.float64), (len(rays),))
        lam = (z - c[2]) / rays[:, 2]
        return c[:2] + rays[:, :2] * lam[:, None]


def overhead(table: tuple[float, float], size: tuple[int, int] = (1920, 1080),
             height: float = 125.0, tilt: tuple[float, float] = (0.0, 0.0),
             distortion: tuple[float, ...] = (0.0, 0.0, 0.0, 0.0, 0.0),
             margin: float = 1.08) -> CameraModel:
    """A camera `height` cm over the table's middle looking down, the image's top toward
    the table's far edge (+y), its focal length such that the table fills the frame
    (with `margin`); `tilt` turns it a few degrees about x and y."""
    w, h = table
    f = min(size[0] / (w * margin), size[1] / (h * margin)) * height
    matrix = np.array([[f, 0.0, size[0] / 2.0], [0.0, f, size[1] / 2.0], [0.0, 0.0, 1.0]])
    down = np.diag([1.0, -1.0, -1.0])               # x right, image y down, looking down
    tx, ty = (math.radians(a) for a in tilt)
    rx = cv2.Rodrigues(np.array([tx, 0.0, 0.0]))[0]
    ry = cv2.Rodrigues(np.array([0.0, ty, 0.0]))[0]
    rotation = rx @ ry @ down
    centre = np.array([w / 2.0, h / 2.0, height])
    tvec = -rotation @ centre
    rvec = cv2.Rodrigues(rotation)[0].ravel()
    return CameraModel(matrix, np.array(distortion, dtype=np.float64), rvec, tvec, size)


def marker_corners(x: float, y: float, z: float, facing: float, side: float) -> np.ndarray:
    """A marker's four corners on the table (4 x 3, cm) in ArUco's order (top-left,
    top-right, bottom-right, bottom-left), its top toward the bot's facing (D2)."""
    a = math.radians(facing)
    fx, fy = math.sin(a), math.cos(a)               # ahead
    rx, ry = math.cos(a), -math.sin(a)              # to the right
    s = side / 2.0
    return np.array([[x + (fx - rx) * s, y + (fy - ry) * s, z],
                     [x + (fx + rx) * s, y + (fy + ry) * s, z],
                     [x + (-fx + rx) * s, y + (-fy + ry) * s, z],
                     [x + (-fx - rx) * s, y + (-fy - ry) * s, z]])
