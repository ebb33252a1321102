"""Consent kept in the PMS: a tenant whose texts the office turned off there (Buildium's
`SMSOptInStatus` OptedOut) gets nothing the gateway starts by SMS. It is recorded as an opt-out of
their phone on the sms channel with the PMS as its source, which stops started messages (the
outbound queue's check) but not replies to what they write (spine OptOut.source). A person's own
STOP is never overwritten, and only an opt-out the PMS recorded is lifted when the PMS opts them
back in."""
from __future__ import annotations

from spine.context import Channel
from spine.records import OptOut
from spine.repo import Spine


async def apply_consent(spine: Spine, system: str, phones: list[tuple[str, bool]]) -> int:
    """`phones`: (E.164 phone, opted out in the PMS). Returns how many records changed."""
    changed = 0
    for phone, opted_out in phones:
        if not phone.startswith("+"):
            continue  # an unreadable phone: the sync reported it
        existing = await spine.opt_out_of(phone, Channel.SMS)
        if opted_out and not (existing and existing.opted_out):
            await spine.set_opt_out(OptOut(address=phone, opted_out=True, keyword=f"{system}:OptedOut",
                                           channel=Channel.SMS, source=system))
            changed += 1
        elif not opted_out and existing and existing.opted_out and existing.source == system:
            await spine.set_opt_out(OptOut(address=phone, opted_out=False, keyword=f"{system}:OptedIn",
                                           channel=Channel.SMS, source=system))
            changed += 1
    return changed
