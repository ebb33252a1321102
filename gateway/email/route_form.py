"""A signed form as Mailgun's `forward()` posts it, for `gateway email` and the tests' sender.

Mailgun posts the parsed message's fields, every MIME header both as its own field and inside
`message-headers` (JSON, topmost first), and the signature trio. Its own checks sit at the top
of the headers: `X-Mailgun-Spf` (SPF of MAIL FROM) and `X-Mailgun-Dkim-Check-Result`, with
the sender's DKIM-Signature below. `spf` / `dkim` choose what those checks say ("pass", "fail",
"none"), so a caller can send an authenticated message or a forged one.
"""
from __future__ import annotations

import json
import secrets
import time
import uuid
from collections.abc import Sequence
from email.utils import formatdate

from gateway.email.signature import sign


def new_message_id(domain: str) -> str:
    return f"{uuid.uuid4().hex}@{domain or 'mail.example'}"


def _headers(*, from_: str, to: str, subject: str, message_id: str, sender: str, spf: str, dkim: str,
             references: Sequence[str]) -> list[list[str]]:
    domain = sender.rsplit("@", 1)[-1]
    headers = [["X-Mailgun-Incoming", "Yes"], ["X-Envelope-From", f"<{sender}>"]]
    if spf != "none":
        headers.append(["X-Mailgun-Spf", spf.capitalize()])
    if dkim != "none":
        headers.append(["X-Mailgun-Dkim-Check-Result", dkim.capitalize()])
    headers.append(["Received", f"from mail.{domain} by mxa.mailgun.org with ESMTP; {formatdate()}"])
    if dkim != "none":
        headers.append(["DKIM-Signature", f"v=1; a=rsa-sha256; c=relaxed/relaxed; d={from_.rsplit('@', 1)[-1]}; "
                                          "s=s1; h=from:to:subject:date:message-id; bh=...; b=..."])
    headers += [["From", from_], ["To", to], ["Subject", subject], ["Date", formatdate()],
                ["Message-Id", f"<{message_id}>"], ["Mime-Version", "1.0"],
                ["Content-Type", 'text/plain; charset="utf-8"']]
    if references:
        headers += [["In-Reply-To", references[-1]], ["References", " ".join(references)]]
    return headers


def route_form(*, signing_key: str, from_: str, to: str, text: str, subject: str = "", message_id: str | None = None,
               sender: str | None = None, spf: str = "pass", dkim: str = "pass", references: Sequence[str] = (),
               body_plain: str | None = None, timestamp: str | None = None, token: str | None = None,
               attachment_count: int = 0) -> dict[str, str]:
    """The fields of one signed route POST. `from_` may carry a display name ("Marcus <m@x>")."""
    address = from_.rsplit("<", 1)[-1].rstrip(">").strip()
    sender = sender or address
    message_id = message_id or new_message_id(address.rsplit("@", 1)[-1])
    timestamp = timestamp or str(int(time.time()))
    token = token or secrets.token_hex(25)  # Mailgun's tokens are 50 characters
    headers = _headers(from_=from_, to=to, subject=subject, message_id=message_id, sender=sender, spf=spf,
                       dkim=dkim, references=references)
    form = dict(headers)
    form.update({
        "recipient": to, "sender": sender, "from": from_, "subject": subject,
        "body-plain": text if body_plain is None else body_plain, "stripped-text": text,
        "message-headers": json.dumps(headers), "Message-Id": f"<{message_id}>",
        "timestamp": timestamp, "token": token, "signature": sign(signing_key, timestamp, token),
    })
    if attachment_count:
        form["attachment-count"] = str(attachment_count)
    return form
