"""Twilio Media Streams on the wire: the messages Twilio sends over a call's stream websocket
and the ones we send back. Field names are Twilio's own; nothing here knows who is calling.

https://www.twilio.com/docs/voice/media-streams/websocket-messages
"""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from gateway.voice.frames import Lenient, parse_frame


# -- Twilio -> us -------------------------------------------------------------------------------
class MediaFormat(Lenient):
    encoding: str = "audio/x-mulaw"
    sampleRate: int = 8000
    channels: int = 1


class StartBody(Lenient):
    streamSid: str = ""
    callSid: str
    accountSid: str = ""
    tracks: list[str] = Field(default_factory=lambda: ["inbound"])
    customParameters: dict[str, str] = Field(default_factory=dict)
    mediaFormat: MediaFormat = Field(default_factory=MediaFormat)


class TwilioConnected(Lenient):
    event: Literal["connected"]
    protocol: str = "Call"
    version: str = "1.0.0"


class TwilioStart(Lenient):
    event: Literal["start"]
    streamSid: str = ""
    start: StartBody

    @property
    def stream_sid(self) -> str:
        return self.streamSid or self.start.streamSid


class MediaBody(Lenient):
    payload: str
    track: str = "inbound"
    chunk: str | int | None = None
    timestamp: str | int | None = None


class TwilioMedia(Lenient):
    event: Literal["media"]
    streamSid: str = ""
    media: MediaBody


class MarkBody(BaseModel):
    name: str


class TwilioMark(Lenient):
    event: Literal["mark"]
    streamSid: str = ""
    mark: MarkBody


class TwilioStop(Lenient):
    event: Literal["stop"]
    streamSid: str = ""


class TwilioDtmf(Lenient):
    event: Literal["dtmf"]
    streamSid: str = ""


TwilioEvent = TwilioConnected | TwilioStart | TwilioMedia | TwilioMark | TwilioStop | TwilioDtmf
_TWILIO_EVENTS: dict[str, type[BaseModel]] = {
    "connected": TwilioConnected, "start": TwilioStart, "media": TwilioMedia, "mark": TwilioMark,
    "stop": TwilioStop, "dtmf": TwilioDtmf,
}


def parse_twilio_event(raw: str | bytes) -> TwilioEvent:
    return parse_frame(raw, "event", _TWILIO_EVENTS)  # type: ignore[return-value]  # the table holds only TwilioEvent members


# -- us -> Twilio -------------------------------------------------------------------------------
class OutboundMediaBody(BaseModel):
    payload: str


class TwilioMediaOut(BaseModel):
    event: Literal["media"] = "media"
    streamSid: str
    media: OutboundMediaBody


class TwilioMarkOut(BaseModel):
    event: Literal["mark"] = "mark"
    streamSid: str
    mark: MarkBody


class TwilioClear(BaseModel):
    event: Literal["clear"] = "clear"
    streamSid: str

