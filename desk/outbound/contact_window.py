"""When a started message may reach a person.

Routine: 09:00-19:00 in the property's time zone (EliseAI's window for residents). Outside it, a
message waits for the next 09:00 local; an emergency does not.

Marketing, also: 08:00-21:00 in the recipient's zone (the TCPA's calling window). The store keeps
no zone for a person (spine.identity.Person has none), so the recipient's zone is their phone
number's, when its area code lies in one zone (`recipient_zone`; phonenumbers' own table), else the
property's (an email or Telegram address, a toll-free number or a zone-spanning area code). A
marketing message goes at the first instant inside both windows; for a recipient so far away that
the two never meet, inside the TCPA's alone.
"""
from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import phonenumbers
from phonenumbers import timezone as phone_zones

from spine.context import Channel
from spine.notification import Purpose

WINDOW_OPENS = time(9, 0)
WINDOW_CLOSES = time(19, 0)
MARKETING_OPENS = time(8, 0)
MARKETING_CLOSES = time(21, 0)
_PHONE_CHANNELS = frozenset({Channel.SMS, Channel.VOICE})


def in_window(now: datetime, timezone: str) -> bool:
    local = now.astimezone(ZoneInfo(timezone)).time()
    return WINDOW_OPENS <= local < WINDOW_CLOSES


def next_window(now: datetime, timezone: str) -> datetime:
    """The next 09:00 local at or after `now` (UTC): today's before 09:00, else tomorrow's. Built
    from the local date, so a daylight-saving change moves it with the clock on the wall."""
    return _next_opening(now, timezone, WINDOW_OPENS)


def in_marketing_window(now: datetime, timezone: str) -> bool:
    local = now.astimezone(ZoneInfo(timezone)).time()
    return MARKETING_OPENS <= local < MARKETING_CLOSES


def recipient_zone(property_zone: str, channel: Channel, address: str | None) -> str:
    """The zone a message to `address` on `channel` lands in, as far as the address tells."""
    if channel not in _PHONE_CHANNELS or not address:
        return property_zone
    try:
        zones = phone_zones.time_zones_for_number(phonenumbers.parse(address))
    except phonenumbers.NumberParseException:
        return property_zone
    return zones[0] if len(zones) == 1 and zones[0] != phone_zones.UNKNOWN_TIMEZONE else property_zone


def sending_opens(now: datetime, purpose: Purpose, property_zone: str, recipient: str) -> datetime:
    """When a non-urgent message of `purpose` may go: `now` if it may go now, else the instant."""
    if purpose != Purpose.MARKETING:
        return now if in_window(now, property_zone) else next_window(now, property_zone)
    if in_window(now, property_zone) and in_marketing_window(now, recipient):
        return now
    days = [now.date() + timedelta(days=d) for d in range(-1, 3)]
    openings = sorted(t for day in days for t in (_at(day, WINDOW_OPENS, property_zone),
                                                   _at(day, MARKETING_OPENS, recipient)) if t > now)
    both = next((t for t in openings if in_window(t, property_zone) and in_marketing_window(t, recipient)), None)
    if both is not None:
        return both
    return now if in_marketing_window(now, recipient) else _next_opening(now, recipient, MARKETING_OPENS)


def _at(day: date, at: time, timezone: str) -> datetime:
    return datetime.combine(day, at, tzinfo=ZoneInfo(timezone)).astimezone(UTC)


def _next_opening(now: datetime, timezone: str, opens: time) -> datetime:
    local = now.astimezone(ZoneInfo(timezone))
    day = local.date() if local.time() < opens else local.date() + timedelta(days=1)
    return _at(day, opens, timezone)
