"""Updates as the Bot API posts them to a webhook, for `gateway telegram` and the tests' sender:
a private-chat message from a user (text, or a shared contact), optionally as an edit."""
from __future__ import annotations

import itertools
import time
from typing import Any

_counter = itertools.count()


def new_update_id() -> int:
    """Increasing across calls and runs, as Telegram's update_id is."""
    return int(time.time() * 1000) * 100 + next(_counter) % 100


def _message(user_id: int, first_name: str, message_id: int) -> dict[str, Any]:
    user = {"id": user_id, "is_bot": False, "first_name": first_name}
    return {"message_id": message_id, "date": int(time.time()), "from": user,
            "chat": {"id": user_id, "type": "private", "first_name": first_name}}


def text_update(*, user_id: int, text: str, update_id: int | None = None, first_name: str = "Telegram user",
                edited: bool = False) -> dict[str, Any]:
    update_id = update_id or new_update_id()
    message = {**_message(user_id, first_name, update_id % 1_000_000), "text": text}
    if edited:
        message["edit_date"] = int(time.time())
    return {"update_id": update_id, ("edited_message" if edited else "message"): message}


def contact_update(*, user_id: int, phone: str, contact_user_id: int | None = None, update_id: int | None = None,
                   first_name: str = "Telegram user") -> dict[str, Any]:
    """A shared contact: the user's own (the request_contact button) unless `contact_user_id`
    names someone else (a forwarded contact)."""
    update_id = update_id or new_update_id()
    contact = {"phone_number": phone.lstrip("+"), "first_name": first_name,
               "user_id": user_id if contact_user_id is None else contact_user_id}
    return {"update_id": update_id, "message": {**_message(user_id, first_name, update_id % 1_000_000),
                                                "contact": contact}}
