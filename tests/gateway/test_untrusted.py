"""Counts and JSON from outside: ASCII digits only, and nesting too deep is a ValueError (a 400
at every route), never a RecursionError (a 500)."""
from __future__ import annotations

import pytest
from starlette.requests import Request

from gateway.twilio.webhook import read_limited
from gateway.untrusted import json_value, whole_number
from gateway.voice.elevenlabs_wire import parse_agent_event
from gateway.voice.frames import UnknownMessage
from gateway.voice.twilio_media import parse_twilio_event


@pytest.mark.parametrize("raw,expected", [("0", 0), ("12", 12), (" 3 ", 3), ("", None), (None, None),
                                          ("\u00b2", None), ("\u0663", None), ("-1", None), ("+1", None),
                                          ("1 2", None), ("1" * 19, None)])
def test_a_whole_number_is_ascii_digits_only(raw, expected):
    assert whole_number(raw) == expected


def test_json_nested_deeper_than_the_parser_takes_is_a_value_error():
    assert json_value(b"[[[1]]]") == [[[1]]] and json_value('{"a": [1]}') == {"a": [1]}
    with pytest.raises(ValueError, match="recursion"):
        json_value("[" * 100_000 + "]" * 100_000)
    with pytest.raises(ValueError, match="expected value"):
        json_value(b"\xff{")


@pytest.mark.parametrize("parse,key,kind", [(parse_twilio_event, "event", "media"),
                                            (parse_agent_event, "type", "agent_response")])
def test_a_deep_voice_frame_is_an_unknown_message_the_socket_logs_and_skips(parse, key, kind):
    with pytest.raises(UnknownMessage, match="not JSON"):
        parse(f'{{"{key}": "{kind}", "x": ' + "[" * 5000 + "]" * 5000 + "}")


async def test_a_declared_length_of_no_ascii_digits_is_not_trusted_and_the_body_is_read():
    """'²'.isdigit() is True: the old check went on to int('²') and a 500 (httpx cannot send such a
    header, so the ASGI request is built as a server would pass it)."""
    body = [{"type": "http.request", "body": b"Body=hi", "more_body": False}]

    async def receive():
        return body.pop(0)

    request = Request({"type": "http", "method": "POST", "path": "/sms/twilio",
                       "headers": [(b"content-length", "\u00b2".encode("latin-1"))]}, receive)
    assert await read_limited(request) == b"Body=hi"
