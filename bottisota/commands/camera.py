"""`bottisota camera ...`: the referee's eyes (the extra `bottisota[camera]`).

- `camera markers -o sheet.svg [--count N] [--side CM]`: a sheet of bot markers to print.
- `camera board -o board.png`: the ChArUco board to print for the lens calibration.
- `camera calibrate --lens FRAMES`: the lens, from frames (a folder, a video or a camera
  number) of the printed board held at several angles.
- `camera calibrate --pose FRAME --known MARKERS.yaml`: the camera's pose over the table
  from markers at known table positions (`- {id: 40, at: [10, 10], side: 3}`, a
  facing and a height optional).
- `camera watch GAME.jsonl --frames SRC`: check mode on a game: after the table is still,
  every bot's marker read (bots get markers 0, 1, 2, … in the order they were placed),
  each miniature standing elsewhere than the referee has it named, and a moved
  miniature turned into the move a player would plan, with the rules' answer.
"""
from __future__ import annotations

import argparse
from pathlib import Path

from bottisota.core.errors import InputError, Problem
from bottisota.core.i18n import _, number


def configure_parser(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="camera_command", required=True)
    m = sub.add_parser("markers", help=_("write a sheet of bot markers to print"))
    m.add_argument("-o", "--output", default="markers.svg", help=_("the SVG file to write"))
    m.add_argument("--count", type=int, default=12, help=_("how many markers (default 12)"))
    m.add_argument("--side", type=float, default=2.0,
                   help=_("each marker's black square, cm (default 2)"))
    b = sub.add_parser("board", help=_("write the ChArUco board to print for the lens"))
    b.add_argument("-o", "--output", default="board.png", help=_("the PNG file to write"))
    c = sub.add_parser("calibrate", help=_("calibrate the lens, or the camera's pose"))
    c.add_argument("--lens", metavar="FRAMES",
                   help=_("frames of the printed board: a folder, a video or a camera number"))
    c.add_argument("--pose", metavar="FRAME", help=_("an image of the table with the markers"))
    c.add_argument("--known", metavar="FILE",
                   help=_("the markers' table positions (YAML: - {id: 40, at: [10, 10], "
                          "side: 3})"))
    c.add_argument("--folder", default=None, help=_("where the calibration is kept"))
    w = sub.add_parser("watch", help=_("check a game's miniatures against the camera"))
    w.add_argument("journal", metavar="GAME.jsonl", help=_("the game's journal"))
    w.add_argument("--frames", required=True, metavar="SRC",
                   help=_("a folder of images, a video or a camera number"))
    w.add_argument("--side", type=float, default=2.0, help=_("the markers' side, cm"))
    w.add_argument("--folder", default=None, help=_("where the calibration is kept"))
    w.add_argument("--picture", default=None, metavar="PNG",
                   help=_("also save the table with a ring where each miniature belongs"))


def _bad(key: str, text: str) -> InputError:
    return InputError([Problem(key, 0, 0, "", text)])


def require_opencv() -> None:
    """The extra is installed, or one clear message (exit 2)."""
    try:
        import cv2  # noqa: F401  (only to say clearly that the extra is missing)
    except ImportError:
        raise _bad("camera", _("the camera needs OpenCV: install the extra with pip install "
                               "'bottisota[camera]'")) from None


def calibration_folder(folder: str | None) -> Path:
    """Where the camera's calibration is kept: the folder given, or the user's config
    folder (beside the projector's calibration)."""
    if folder:
        return Path(folder)
    from bottisota.viewmodel.calibration_store import config_dir

    return config_dir()


def main(args: argparse.Namespace) -> int:
    require_opencv()
    command = args.camera_command
    if command == "markers":
        return _markers(args)
    if command == "board":
        import cv2

        from bottisota.vision.calibration import board_image

        cv2.imwrite(args.output, board_image())
        print(_("wrote {out}: print it at 100% on a flat card; each square is 3 cm").format(
            out=args.output))
        return 0
    if command == "calibrate":
        return _calibrate(args)
    return _watch(args)


def _markers(args: argparse.Namespace) -> int:
    from bottisota.vision.markers import IDS, write_sheet

    if not 1 <= args.count <= IDS:
        raise _bad("--count", _("from 1 to {most} markers").format(most=IDS))
    if not 0.5 <= args.side <= 10:
        raise _bad("--side", _("a side from 0.5 to 10 cm"))
    write_sheet(args.output, list(range(args.count)), args.side)
    print(_("wrote {out}: {n} markers of {side} cm; print at 100%").format(
        out=args.output, n=args.count, side=number(args.side)))
    return 0


def _calibrate(args: argparse.Namespace) -> int:
    from bottisota.vision import calibration
    from bottisota.vision.frames import FrameError, source

    folder = calibration_folder(args.folder)
    try:
        if args.lens:
            matrix, distortion, error = calibration.calibrate_lens(source(args.lens))
            path = calibration.save_lens(matrix, distortion, folder)
            print(_("lens calibrated ({error} px off on average): {path}").format(
                error=number(error, 2), path=path))
            return 0
        if args.pose and args.known:
            import cv2

            frame = cv2.imread(args.pose, cv2.IMREAD_GRAYSCALE)
            if frame is None:
                raise _bad("--pose", _("{path}: not an image").format(path=args.pose))
            matrix, distortion = calibration.load_lens(folder)
            model = calibration.calibrate_pose(frame, matrix, distortion,
                                               calibration.read_known(args.known))
            path = calibration.save(model, folder)
            x, y, z = model.centre
            print(_("camera at x {x}, y {y}, {z} cm over the table: {path}").format(
                x=number(x, 1), y=number(y, 1), z=number(z, 1), path=path))
            return 0
    except (calibration.CalibrationError, FrameError) as err:
        raise _bad("camera", str(err)) from None
    raise _bad("calibrate", _("give --lens FRAMES, or --pose FRAME with --known FILE"))


def _watch(args: argparse.Namespace) -> int:
    from bottisota.play.journal import load
    from bottisota.vision import calibration
    from bottisota.vision.frames import FrameError, source
    from bottisota.vision.markers import assign
    from bottisota.vision.move_input import plan
    from bottisota.vision.watch import Pose, TableWatch

    try:
        model = calibration.load(calibration_folder(args.folder))
        game = load(args.journal)
        bots = list(game.state.bots.values())
        watch = TableWatch(model, assign([b.id for b in bots]),
                           {b.id: b.z + b.stats.height for b in bots}, args.side)
        expected = {b.id: Pose(b.x, b.y, b.facing) for b in bots}
        seen = watch.settle(source(args.frames), expected)
    except (calibration.CalibrationError, FrameError) as err:
        raise _bad("camera", str(err)) from None
    for bot in bots:
        if bot.id not in seen:
            print(_("{bot}: its marker #{id} was not seen").format(bot=bot.id,
                                                                   id=watch.markers[bot.id]))
    drifts = watch.drifts(expected, seen)
    for d in drifts:
        print(_("{bot} stands {cm} cm and {deg}° from where the referee has it: put it at "
                "x {x}, y {y}, facing {f}°").format(
                    bot=d.bot, cm=number(d.distance, 1), deg=number(d.turn, 0),
                    x=number(d.expected.x, 1), y=number(d.expected.y, 1),
                    f=number(d.expected.facing, 0)))
    active = game.active_bot()
    moved = next((d for d in drifts if active is not None and d.bot == active.id), None)
    if moved is not None and game.expected() == "move":
        got = plan(game, moved.bot, moved.seen)
        steps = ", ".join(str(s) for s in got.move.steps) or _("no steps")
        if got.refusal is None and got.result is not None:
            print(_("{bot} moved by hand: {steps} ({spent} of {allowed} cm); Enter on the "
                    "table commits it").format(bot=moved.bot, steps=steps,
                                               spent=number(got.result.spent, 1),
                                               allowed=number(got.result.allowed, 1)))
        else:
            print(_("{bot} moved by hand: {steps}, refused: {why}").format(
                bot=moved.bot, steps=steps, why=got.refusal))
    if not drifts:
        print(_("every miniature stands where the referee has it"))
    if args.picture:
        from bottisota.view.camera_rings import drift_picture

        drift_picture(args.picture, game.state.arena, game.state, drifts)
        print(_("wrote {out}").format(out=args.picture))
    return 0
