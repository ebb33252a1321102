"""TwiML of a transfer, built with the twilio library: the `<Dial>` to one person (15 s, its
`action` the result route, the person's leg first fetching the whisper), the whisper's one-digit
`<Gather>`, and the caller handed back to Clara (`<Connect><Stream>`, as /voice/twiml does, with the
transfer named in signed stream parameters so the bridge knows why the caller is back)."""
from __future__ import annotations

import hashlib
import hmac

from twilio.twiml.voice_response import Dial, Gather, VoiceResponse

from gateway.twilio.twiml_voice import connect_stream, stream_parameters

DIAL_TIMEOUT_S = 15  # how long a person's phone rings before the next one (EliseAI's 15 s)
WHISPER_GATHER_S = 8
SORRY = "Sorry, this transfer cannot be completed. Goodbye."
NO_KEY = "No key was pressed. Goodbye."
TRANSFER_ID, TRANSFER_TOKEN = "transfer_id", "transfer_token"


def dial(phone: str, result_url: str, whisper_url: str) -> str:
    response = VoiceResponse()
    verb = Dial(timeout=DIAL_TIMEOUT_S, action=result_url, method="POST")
    verb.number(phone, url=whisper_url, method="POST")
    response.append(verb)
    return str(response)


def whisper(words: str, prompt: str, gather_url: str) -> str:
    response = VoiceResponse()
    gather = Gather(num_digits=1, action=gather_url, method="POST", timeout=WHISPER_GATHER_S)
    gather.say(words)
    gather.say(prompt)
    response.append(gather)
    response.say(NO_KEY)
    response.hangup()
    return str(response)


def connect_person() -> str:
    """An empty response: the whisper ends and Twilio bridges the person to the caller."""
    return str(VoiceResponse())


def say_and_hang_up(*lines: str) -> str:
    response = VoiceResponse()
    for line in lines:
        response.say(line)
    response.hangup()
    return str(response)


def transfer_token(secret: str, call_sid: str, transfer_id: str) -> str:
    return hmac.new(secret.encode(), f"transfer|{call_sid}|{transfer_id}".encode(), hashlib.sha256).hexdigest()


def back_to_clara(secret: str, public_url: str, call_sid: str, caller: str, called: str, transfer_id: str) -> str:
    """The caller's stream again, naming the failed transfer (HMAC-bound to this call, as the
    caller's number is: a forged stream start cannot claim to be a transfer's return)."""
    params = stream_parameters(secret, call_sid, caller, called)
    params[TRANSFER_ID] = transfer_id
    params[TRANSFER_TOKEN] = transfer_token(secret, call_sid, transfer_id)
    return connect_stream(public_url, f"{public_url.rstrip('/')}/voice/twiml?stage=ended", params)


def returning_transfer(secret: str | None, call_sid: str, params: dict[str, str]) -> str | None:
    """The transfer a stream start says the caller is back from, if its token is valid; else None."""
    transfer_id, token = params.get(TRANSFER_ID, ""), params.get(TRANSFER_TOKEN, "")
    if not secret or not transfer_id or len(token) != 64:
        return None
    expected = transfer_token(secret, call_sid, transfer_id).encode()
    return transfer_id if hmac.compare_digest(expected, token.encode("utf-8", "replace")) else None
