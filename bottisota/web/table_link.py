"""Each seat's join link and its QR code, for the table to show (`play --phones`)
and for `serve` to print.

`seat_links(tokens, host, port)` gives one `SeatLink` per seat: the short URL
and the QR code as a matrix of dark/light modules (segno), which the table
draws as squares (`view/phone_links.py`). Nothing here draws or opens sockets
beyond asking the system which address the LAN sees.
"""
from __future__ import annotations

import socket
from dataclasses import dataclass

import segno

from bottisota.web.hub import TABLE

LOOPBACK = "127.0.0.1"


@dataclass(frozen=True)
class SeatLink:
    seat: str                         # a player, or "table"
    url: str
    qr: tuple[tuple[bool, ...], ...]  # rows of modules, True = dark (quiet zone not included)


def lan_address() -> str:
    """This machine's address on the local network (the one a route out would use;
    no packet is sent), or the loopback address when there is none."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))
            return str(s.getsockname()[0])
    except OSError:
        return LOOPBACK


def public_host(bind: str) -> str:
    """The host to put in links for a server bound to `bind`."""
    if bind in ("0.0.0.0", "::", ""):
        return lan_address()
    return bind


def seat_url(host: str, port: int, token: str) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/s/{token}"


def qr_matrix(text: str) -> tuple[tuple[bool, ...], ...]:
    """The QR code of `text` (error correction M) as rows of booleans."""
    code = segno.make(text, error="m", micro=False)
    return tuple(tuple(bool(v) for v in row) for row in code.matrix)


def seat_links(tokens: dict[str, str], host: str, port: int,
               table: bool = False) -> list[SeatLink]:
    """The players' links in seat order (the table's own link too, when asked)."""
    names = [n for n in tokens if n != TABLE] + ([TABLE] if table and TABLE in tokens else [])
    out = []
    for name in names:
        url = seat_url(host, port, tokens[name])
        out.append(SeatLink(name, url, qr_matrix(url)))
    return out
