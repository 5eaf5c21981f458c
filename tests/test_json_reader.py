"""The one JSON reader (issue 26 item 4, issue 28 "deep JSON"): every JSON the program
reads (a phone message, the calibration file, the seat tokens' file, a journal line)
refuses a text nested 100,000 deep with one clear sentence, never a RecursionError."""
from __future__ import annotations

import json

import pytest

from bottisota.core.errors import InputError, JournalError
from bottisota.formats.json_text import JsonLimitError, loads_limited, read_json_file
from bottisota.viewmodel import calibration_store as cs
from bottisota.web.protocol import MAX_BYTES, ProtocolError, parse
from bottisota.web.tokens import seat_tokens, tokens_path

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

DEEP = "[" * 100_000 + "]" * 100_000
SMALL_DEEP = "[" * 20_000 + "]" * 20_000      # 40 KB: under the small files' size limit


def test_the_reader_refuses_deep_text_at_its_column_with_and_without_bytes():
    for raw in (None, DEEP.encode()):
        with pytest.raises(JsonLimitError) as err:
            loads_limited(DEEP, raw=raw)
        assert str(err.value) == "nested more than 64 levels deep at column 65"


def test_the_reader_names_the_line_past_the_first_and_refuses_nan():
    with pytest.raises(JsonLimitError, match="at line 3, column 1"):
        loads_limited('{"a":\n 1,\n}')
    with pytest.raises(JsonLimitError, match="NaN is not a number"):
        loads_limited('{"a": NaN}')
    assert loads_limited('{"a": 1, "a": 2}') == {"a": 2}     # the last of a key, as json


def test_a_file_is_refused_with_its_name_line_and_column(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text('{"a":\n' + DEEP + "}", encoding="utf-8")
    with pytest.raises(InputError) as err:
        read_json_file(path)
    assert str(err.value) == (f"{path}:2:64: not JSON this program reads: "
                              "nested more than 64 levels deep")


# --- a phone message ----------------------------------------------------------------------------

def test_a_deep_phone_message_is_a_protocol_error():
    with pytest.raises(ProtocolError, match="too long"):
        parse(DEEP)                                   # 200,000 bytes: over the size first
    deep = '{"type": "ping", "x": ' + "[" * 3000 + "]" * 3000 + "}"
    assert len(deep) <= MAX_BYTES
    with pytest.raises(ProtocolError, match="nested more than 16 levels deep at column 38"):
        parse(deep)
    with pytest.raises(ProtocolError, match="not JSON: NaN is not a number"):
        parse('{"type": "ping", "x": NaN}')


def test_the_socket_answers_a_deep_message_and_stays_open():
    """Through the real handler (Starlette's TestClient websocket)."""
    from test_web import TOKENS, client, new_game

    hub, c = client(new_game(), commit=True)
    with c.websocket_connect("/ws/" + TOKENS["red"]) as ws:
        ws.receive_json()
        for raw in ('{"type": "ping", "x": ' + "[" * 3000 + "]" * 3000 + "}",
                    "[" * 4000 + "]" * 4000, DEEP):
            ws.send_text(raw)
            reply = ws.receive_json()
            assert reply["type"] == "error" and ("nested more than 16 levels" in reply["message"]
                                                 or "too long" in reply["message"])
        ws.send_json({"type": "ping", "id": 7})
        while (reply := ws.receive_json()).get("re") != 7:
            pass
        assert reply["type"] == "pong"


# --- the calibration file -----------------------------------------------------------------------

def test_a_deep_calibration_file_is_ignored_with_one_message(tmp_path):
    path = tmp_path / "displays.json"
    path.write_text(SMALL_DEEP, encoding="utf-8")
    loaded = cs.read_calibrations(path)
    assert loaded.displays == {} and loaded.unreadable
    assert loaded.messages == [f"{path}:1:5: not JSON this program reads: nested more than 4 "
                               "levels deep: the calibration is ignored"]
    path.write_text(DEEP, encoding="utf-8")
    loaded = cs.read_calibrations(path)
    assert loaded.displays == {} and loaded.messages == [
        f"{path}: the file is 0.2 MB; files over 65536 bytes are refused: the calibration "
        "is ignored"]


# --- the seat tokens' file ----------------------------------------------------------------------

def test_a_deep_tokens_file_is_refused_and_not_replaced(tmp_path):
    journal = tmp_path / "g.jsonl"
    path = tokens_path(journal)
    path.write_text(DEEP, encoding="utf-8")
    with pytest.raises(InputError, match="files over 65536 bytes are refused"):
        seat_tokens(journal, ["red", "blue"])
    path.write_text('{"seats":\n' + SMALL_DEEP + "}", encoding="utf-8")
    with pytest.raises(InputError) as err:
        seat_tokens(journal, ["red", "blue"])
    assert str(err.value) == (f"{path}:2:4: not JSON this program reads: nested more than 4 "
                              "levels deep")
    assert path.read_text(encoding="utf-8").startswith('{"seats":\n[[[')      # kept as it was
    path.write_text(json.dumps({"seats": {"red": "r", "blue": "b", "table": "t"}}))
    assert seat_tokens(journal, ["red", "blue"]) == {"red": "r", "blue": "b", "table": "t"}


def test_serve_with_a_deep_tokens_file_exits_2_with_one_message(tmp_path, monkeypatch, capsys):
    from test_web import new_game

    from bottisota.cli import main
    from bottisota.commands import serve

    journal = tmp_path / "g.jsonl"
    new_game(str(journal)).journal.close()
    tokens_path(journal).write_text(SMALL_DEEP, encoding="utf-8")
    monkeypatch.setattr(serve, "serve_forever", lambda *a: pytest.fail("served"))
    assert main(["serve", "--resume", str(journal)]) == 2
    err = capsys.readouterr().err
    assert err == f"{tokens_path(journal)}:1:5: not JSON this program reads: nested more " \
                  "than 4 levels deep\n"


# --- a journal line -----------------------------------------------------------------------------

def test_a_deep_journal_line_is_refused_at_its_line(tmp_path, capsys):
    from test_web import new_game

    from bottisota.cli import main
    from bottisota.play.journal import resume
    from bottisota.play.journal_file import parse_line

    journal = tmp_path / "g.jsonl"
    new_game(str(journal)).journal.close()
    with journal.open("a", encoding="utf-8") as fh:
        fh.write(DEEP + "\n")
    with pytest.raises(JournalError, match=r"g\.jsonl:2: "):     # refused unsealed, unread
        resume(str(journal))
    with pytest.raises(JournalError) as err:
        parse_line(str(journal), 2, DEEP.encode())
    assert str(err.value) == (f"{journal}:2: not a journal line: nested more than 64 levels "
                              "deep at column 65")
    journal.write_text(DEEP + "\n", encoding="utf-8")                # the header read as JSON
    with pytest.raises(JournalError) as err:
        resume(str(journal))
    assert str(err.value) == (f"{journal}:1: not a journal line: nested more than 64 levels "
                              "deep at column 65")
    assert main(["replay", str(journal)]) == 2
    assert capsys.readouterr().err.strip().endswith("nested more than 64 levels deep at column 65")
