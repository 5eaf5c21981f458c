"""The referee's eyes (the optional extra `bottisota[camera]`): a webcam over the table
reads a square marker (ArUco, DICT_4X4_50) on each bot, turns camera pixels into table
centimetres with a calibrated 3-D camera model, warns when a miniature stands somewhere
other than where the referee has it, and turns a miniature moved by hand into the move
a player would have planned.

- `camera_model.py`: the pinhole camera with lens distortion; pixels <-> table cm at a
  known height.
- `synthetic.py`: webcam frames rendered from a table of markers (tests and demos).
- `detect.py`: markers found in a frame (or in windows around where they should be)
  and read as poses on the table.
- `frames.py`: frame sources: a webcam, a folder of images or a video, synthetic.
- `watch.py`: check mode: still frames waited for, medians read, drift found.
- `move_input.py`: a miniature moved by hand -> the move a player would have planned.
- `markers.py`: marker ids for bots and printable marker sheets.
- `calibration.py`: the lens from a ChArUco board, the camera's pose from markers at
  known table positions; stored like the projector's calibration.

Nothing outside this package imports OpenCV (an import contract), and nothing imports
this package unless the camera is asked for.
"""
