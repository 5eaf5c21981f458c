"""Seats on phones: a small web server that lets every player pre-measure, plan
and (when the group allows it) act from their own device.

Layer: beside `view` (above engine, play and formats; below commands). Nothing
here imports pygame. Every answer a phone gets is computed by the core on the
server (`Game.preview`, `premeasure`, `Game.act`); `snapshot` alone turns the
core's results into JSON, `protocol` checks what phones send, `hub` holds the
game and the seats, `app` is the Starlette application and `table_link` gives
the seat links with their QR codes.
"""
