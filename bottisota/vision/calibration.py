"""The camera's calibration: the lens once, from a printed ChArUco board shown in
several frames; then the camera's pose over the table from markers at known table
positions (drawn by the projector, or a printed sheet laid at known spots). Kept in
the user's config folder beside the projector's calibration (`camera.json`), read
through the program's JSON limits.
"""
from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from bottisota.core.i18n import _
from bottisota.formats.json_text import loads_json
from bottisota.vision.camera_model import CameraModel, marker_corners
from bottisota.vision.detect import find
from bottisota.vision.synthetic import DICTIONARY

BOARD = (7, 5)                  # squares across and down
SQUARE_CM = 3.0
MARKER_CM = 2.2
FILE_NAME = "camera.json"
MAX_BYTES = 64 * 1024


class CalibrationError(ValueError):
    """A calibration that cannot be made or read (said in one sentence)."""


def board() -> cv2.aruco.CharucoBoard:
    """The printed ChArUco board (7 x 5 squares of 3 cm, markers of 2.2 cm)."""
    return cv2.aruco.CharucoBoard(BOARD, SQUARE_CM, MARKER_CM,
                                  cv2.aruco.getPredefinedDictionary(DICTIONARY))


def board_image(px_per_cm: float = 40.0) -> np.ndarray:
    """The board as a picture to print (its squares `SQUARE_CM` at 100 %)."""
    size = (round(BOARD[0] * SQUARE_CM * px_per_cm), round(BOARD[1] * SQUARE_CM * px_per_cm))
    return board().generateImage(size, marginSize=0)


def calibrate_lens(frames: Iterable[np.ndarray]) -> tuple[np.ndarray, np.ndarray, float]:
    """K and the distortion from frames showing the board at several angles, and the
    reprojection error in px."""
    detector = cv2.aruco.CharucoDetector(board())
    objects, images, size = [], [], None
    for frame in frames:
        size = (frame.shape[1], frame.shape[0])
        corners, ids, _mc, _mi = detector.detectBoard(frame)
        if ids is None or len(ids) < 8:
            continue
        # OpenCV's stubs want a list of arrays; the call takes the detector's array as is
        matcher: Any = board()
        obj, img = matcher.matchImagePoints(corners, ids)
        objects.append(obj.astype(np.float32))
        images.append(img.astype(np.float32))
    if size is None or len(objects) < 4:
        raise CalibrationError(_("the board was seen whole in {n} frames; at least 4 are "
                                 "needed, at different angles").format(n=len(objects)))
    error, matrix, distortion, _r, _t = cv2.calibrateCamera(objects, images, size, None, None)
    return matrix, distortion.ravel(), float(error)


def calibrate_pose(frame: np.ndarray, matrix: np.ndarray, distortion: np.ndarray,
                   known: dict[int, tuple[float, float, float, float, float]]
                   ) -> CameraModel:
    """The camera's pose from markers at known table positions: id -> (x, y, z, facing,
    side) cm; at least 3 must be seen."""
    found = find(frame)
    world, pixels = [], []
    for marker_id, (x, y, z, facing, side) in known.items():
        if marker_id in found:
            world.append(marker_corners(x, y, z, facing, side))
            pixels.append(found[marker_id])
    if len(world) < 3:
        raise CalibrationError(_("{n} of the calibration markers were seen; at least 3 are "
                                 "needed").format(n=len(world)))
    ok, rvec, tvec = cv2.solvePnP(np.vstack(world), np.vstack(pixels).astype(np.float64),
                                  matrix, distortion, flags=cv2.SOLVEPNP_ITERATIVE)
    if not ok:
        raise CalibrationError(_("the camera's pose could not be worked out from the markers"))
    return CameraModel(matrix, np.asarray(distortion, dtype=np.float64), rvec.ravel(),
                       tvec.ravel(), (frame.shape[1], frame.shape[0]))


def to_json(model: CameraModel) -> str:
    return json.dumps({"version": 1, "matrix": model.matrix.tolist(),
                       "distortion": np.asarray(model.distortion).tolist(),
                       "rvec": np.asarray(model.rvec).tolist(),
                       "tvec": np.asarray(model.tvec).tolist(), "size": list(model.size)},
                      indent=1)


def from_json(text: str, source: str) -> CameraModel:
    """A stored calibration (ValueError-free: one CalibrationError for anything wrong)."""
    try:
        data = loads_json(text, MAX_BYTES, 6)
        matrix = np.array(data["matrix"], dtype=np.float64).reshape(3, 3)
        distortion = np.array(data["distortion"], dtype=np.float64).ravel()
        rvec = np.array(data["rvec"], dtype=np.float64).reshape(3)
        tvec = np.array(data["tvec"], dtype=np.float64).reshape(3)
        size = (int(data["size"][0]), int(data["size"][1]))
    except (ValueError, KeyError, TypeError, IndexError) as err:
        raise CalibrationError(_("{source}: not a camera calibration ({error}); calibrate "
                                 "again").format(source=source, error=err)) from None
    if not (np.isfinite(matrix).all() and np.isfinite(distortion).all()
            and np.isfinite(rvec).all() and np.isfinite(tvec).all()) or min(size) <= 0:
        raise CalibrationError(_("{source}: not a camera calibration (numbers out of range); "
                                 "calibrate again").format(source=source))
    return CameraModel(matrix, distortion, rvec, tvec, size)


def save(model: CameraModel, folder: Path) -> Path:
    """Written atomically (a temporary file, then a rename)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / FILE_NAME
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".camera-")
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(to_json(model))
    os.replace(tmp, path)
    return path


def load(folder: Path) -> CameraModel:
    path = folder / FILE_NAME
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        raise CalibrationError(_("no camera calibration in {folder}: run bottisota camera "
                                 "calibrate first").format(folder=folder)) from None
    return from_json(text, str(path))


LENS_FILE = "camera-lens.json"


def save_lens(matrix: np.ndarray, distortion: np.ndarray, folder: Path) -> Path:
    """The lens alone (until the camera's pose is calibrated), written atomically."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / LENS_FILE
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".camera-lens-")
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(json.dumps({"version": 1, "matrix": np.asarray(matrix).tolist(),
                              "distortion": np.asarray(distortion).ravel().tolist()}))
    os.replace(tmp, path)
    return path


def load_lens(folder: Path) -> tuple[np.ndarray, np.ndarray]:
    path = folder / LENS_FILE
    try:
        data = loads_json(path.read_text(encoding="utf-8"), MAX_BYTES, 6)
        matrix = np.array(data["matrix"], dtype=np.float64).reshape(3, 3)
        distortion = np.array(data["distortion"], dtype=np.float64).ravel()
    except OSError:
        raise CalibrationError(_("no lens calibration in {folder}: run bottisota camera "
                                 "calibrate --lens first").format(folder=folder)) from None
    except (ValueError, KeyError, TypeError) as err:
        raise CalibrationError(_("{source}: not a lens calibration ({error}); calibrate "
                                 "again").format(source=path, error=err)) from None
    if not (np.isfinite(matrix).all() and np.isfinite(distortion).all()):
        raise CalibrationError(_("{source}: not a lens calibration (numbers out of range); "
                                 "calibrate again").format(source=path))
    return matrix, distortion


def read_known(path: str | Path) -> dict[int, tuple[float, float, float, float, float]]:
    """Markers at known table positions, from YAML: a list of {id, at: [x, y], side,
    facing (default 0), z (default 0)}; one clear message for anything wrong."""
    from bottisota.formats.yaml_source import load_yaml

    data, _marks = load_yaml(path, _("known markers"))
    out: dict[int, tuple[float, float, float, float, float]] = {}
    if not isinstance(data, list):
        raise CalibrationError(_("{path}: expected a list of markers, each {{id: 40, at: [10, "
                                 "10], side: 3}}").format(path=path))
    for n, item in enumerate(data):
        try:
            marker_id = int(item["id"])
            x, y = (float(v) for v in item["at"])
            out[marker_id] = (x, y, float(item.get("z", 0.0)), float(item.get("facing", 0.0)),
                              float(item["side"]))
        except (KeyError, TypeError, ValueError):
            raise CalibrationError(_("{path}: marker {n}: expected {{id: 40, at: [10, 10], "
                                     "side: 3}}").format(path=path, n=n)) from None
    return out
