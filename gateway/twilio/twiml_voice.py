"""TwiML for the voice webhook, built with the twilio library: connect the call to our media
bridge, then (when the bridge ends) hang up, or apologize if the bridge failed."""
from __future__ import annotations

import hashlib
import hmac
from urllib.parse import urlsplit, urlunsplit

from twilio.twiml.voice_response import Connect, VoiceResponse

from gateway.xml_text import xml_safe

STREAM_PATH = "/voice/twilio/stream"
ENDED_QUERY = "stage=ended"
APOLOGY = ("Sorry, Clara can't take your call right now. Please text this number, or call back in a few "
           "minutes, and our team will help you.")


def stream_url(public_url: str) -> str:
    """The bridge's websocket URL on the public host (wss for https, ws for http)."""
    parts = urlsplit(public_url)
    scheme = "wss" if parts.scheme == "https" else "ws"
    return urlunsplit((scheme, parts.netloc, parts.path.rstrip("/") + STREAM_PATH, "", ""))


def connect_stream(public_url: str, action_url: str, parameters: dict[str, str]) -> str:
    response = VoiceResponse()
    connect = Connect(action=action_url, method="POST")
    stream = connect.stream(url=stream_url(public_url))
    for name, value in parameters.items():
        stream.parameter(name=name, value=xml_safe(value))
    response.append(connect)
    return str(response)


def call_ended(bridge_failed: bool) -> str:
    response = VoiceResponse()
    if bridge_failed:
        response.say(APOLOGY)
    response.hangup()
    return str(response)


# The stream's <Parameter>s reach the bridge over a websocket nobody signs, so the caller's number
# travels with an HMAC the signed voice webhook made: a forged `start` cannot claim a caller.
# The same token carries whether Twilio's STIR/SHAKEN verdict verified the caller ("1"), so the
# call's opening knows it without reading the store and a forged `start` cannot claim it either.
CALL_TOKEN = "call_token"
VERIFIED = "verified"


def call_token(secret: str, call_sid: str, caller: str, called: str, verified: bool = False) -> str:
    message = f"{call_sid}|{caller}|{called}|{int(verified)}".encode()
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


def stream_parameters(secret: str, call_sid: str, caller: str, called: str, verified: bool = False) -> dict[str, str]:
    return {"caller": caller, "called": called, VERIFIED: str(int(verified)),
            CALL_TOKEN: call_token(secret, call_sid, caller, called, verified)}


def verified_caller(secret: str | None, call_sid: str, parameters: dict[str, str]) -> str | None:
    """The caller's number if the parameters carry a valid token for this call, else None (also
    for a token that is not even ASCII hex: compared as bytes, never raising). Once it is valid,
    `stir_verified(parameters)` is what the signed voice webhook recorded."""
    caller, called, token = (parameters.get(k, "") for k in ("caller", "called", CALL_TOKEN))
    if not secret or not token or len(token) != 64:
        return None
    expected = call_token(secret, call_sid, caller, called, stir_verified(parameters)).encode()
    return caller if hmac.compare_digest(expected, token.encode("utf-8", "replace")) else None


def stir_verified(parameters: dict[str, str]) -> bool:
    return parameters.get(VERIFIED) == "1"
