"""Where frames come from: a webcam (its focus and exposure locked, so a marker's size
and the light do not wander), a folder of images or a video file (recorded turns,
tests), or synthetic frames rendered from a scene."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import cv2
import numpy as np

from bottisota.core.i18n import _

IMAGE_TYPES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff")


class FrameError(OSError):
    """A frame source that cannot be opened or read (said in one sentence)."""


def folder_frames(folder: str | Path) -> Iterator[np.ndarray]:
    """Every image of a folder in name order, grey."""
    paths = sorted(p for p in Path(folder).iterdir() if p.suffix.lower() in IMAGE_TYPES)
    if not paths:
        raise FrameError(_("no images in {folder}").format(folder=folder))
    for path in paths:
        frame = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE)
        if frame is None:
            raise FrameError(_("{path}: not an image").format(path=path))
        yield frame


def video_frames(path: str | Path) -> Iterator[np.ndarray]:
    """A video file's frames, grey."""
    capture = cv2.VideoCapture(str(path))
    if not capture.isOpened():
        raise FrameError(_("{path}: not a video OpenCV can read").format(path=path))
    try:
        while True:
            ok, frame = capture.read()
            if not ok:
                return
            yield cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    finally:
        capture.release()


def webcam_frames(index: int = 0, size: tuple[int, int] = (1920, 1080)) -> Iterator[np.ndarray]:
    """A webcam's frames, grey, with autofocus and auto exposure turned off where the
    camera allows it."""
    capture = cv2.VideoCapture(index)
    if not capture.isOpened():
        raise FrameError(_("no camera at index {index}").format(index=index))
    capture.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
    capture.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
    capture.set(cv2.CAP_PROP_AUTOFOCUS, 0)
    capture.set(cv2.CAP_PROP_AUTO_EXPOSURE, 1)      # 1: manual on V4L2
    try:
        while True:
            ok, frame = capture.read()
            if not ok:
                raise FrameError(_("the camera at index {index} stopped giving frames").format(
                    index=index))
            yield cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    finally:
        capture.release()


def synthetic_frames(make: Callable[[int], np.ndarray], count: int) -> Iterator[np.ndarray]:
    """`count` frames from a function of the frame's number (a test's scene over time)."""
    for n in range(count):
        yield make(n)


def source(spec: str) -> Iterator[np.ndarray]:
    """Frames from `spec`: a folder, a video file, or a webcam's number."""
    if spec.isdigit():
        return webcam_frames(int(spec))
    path = Path(spec)
    if path.is_dir():
        return folder_frames(path)
    if path.is_file():
        return video_frames(path)
    raise FrameError(_("{spec}: no such folder, video or camera number").format(spec=spec))
