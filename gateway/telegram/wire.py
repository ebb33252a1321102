"""The Bot API objects the gateway reads and writes (https://core.telegram.org/bots/api), as
pydantic models. Unknown fields are ignored: Telegram adds fields without notice."""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
MAX_TEXT_CHARS = 4096  # sendMessage's limit for one message
ALLOWED_UPDATES = ["message", "edited_message"]


class _Wire(BaseModel):
    model_config = ConfigDict(extra="ignore", populate_by_name=True)


class User(_Wire):
    id: int
    is_bot: bool = False
    first_name: str = ""
    last_name: str | None = None
    username: str | None = None


class Chat(_Wire):
    id: int
    type: str  # private | group | supergroup | channel


class Contact(_Wire):
    phone_number: str
    first_name: str = ""
    last_name: str | None = None
    user_id: int | None = None  # set when the contact is a Telegram user


class Message(_Wire):
    message_id: int
    date: int
    chat: Chat
    from_: User | None = Field(default=None, alias="from")
    text: str | None = None
    caption: str | None = None
    contact: Contact | None = None
    photo: list[dict] | None = None
    document: dict | None = None
    voice: dict | None = None
    video: dict | None = None
    sticker: dict | None = None

    def attachments(self) -> int:
        """Media the gateway does not read, counted."""
        return sum(1 for part in (self.photo, self.document, self.voice, self.video, self.sticker) if part)


class Update(_Wire):
    update_id: int
    message: Message | None = None
    edited_message: Message | None = None


class KeyboardButton(_Wire):
    text: str
    request_contact: bool | None = None


class ReplyKeyboardMarkup(_Wire):
    keyboard: list[list[KeyboardButton]]
    resize_keyboard: bool = True
    one_time_keyboard: bool = True
    input_field_placeholder: str | None = None


class ReplyKeyboardRemove(_Wire):
    remove_keyboard: Literal[True] = True


def share_contact_keyboard() -> ReplyKeyboardMarkup:
    """The one-button keyboard that sends the user's own contact (request_contact)."""
    return ReplyKeyboardMarkup(keyboard=[[KeyboardButton(text="Share my phone number", request_contact=True)]],
                               input_field_placeholder="Or just type your question")
