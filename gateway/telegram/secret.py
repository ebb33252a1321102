"""TELEGRAM_WEBHOOK_SECRET as Telegram allows it: setWebhook's `secret_token` is 1-256 characters of
A-Z, a-z, 0-9, `_` and `-` (Bot API). Anything else Telegram refuses at setWebhook, or, set by other
means, never sends back, so every update would be a 403 (issue 40 item 17). Checked before
`gateway telegram set-webhook` sends it and by `gateway check-config`."""
from __future__ import annotations

import re

ALLOWED = re.compile(r"[A-Za-z0-9_-]{1,256}")


def secret_problem(secret: str | None) -> str | None:
    """Why the secret is not one Telegram accepts, or None (also when unset: Telegram is optional)."""
    if secret is None or ALLOWED.fullmatch(secret):
        return None
    bad = sorted({c for c in secret if not re.fullmatch(r"[A-Za-z0-9_-]", c)})
    what = f"{len(secret)} characters (at most 256)" if len(secret) > 256 else \
        f"characters Telegram does not allow: {' '.join(repr(c) for c in bad)}"
    return (f"TELEGRAM_WEBHOOK_SECRET: {what}; Telegram takes 1-256 of A-Z a-z 0-9 _ - "
            "(e.g. python -c 'import secrets; print(secrets.token_urlsafe(32))')")
