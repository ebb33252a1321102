"""The property's Telegram bot: Bot API updates at POST /telegram/webhook (authenticated by the
secret token set with setWebhook), replies through sendMessage. A Telegram user is a Person only
once they share their own contact; until then they are an unknown address, and Clara offers the
"share my phone number" button."""
from gateway.telegram.botapi import TelegramBotApi, TelegramError
from gateway.telegram.channel import TelegramChannel
from gateway.telegram.delivery import TelegramDelivery
from gateway.telegram.handler import TelegramHandler, TelegramResult
from gateway.telegram.updates import contact_update, text_update
from gateway.telegram.wire import Update

__all__ = [
    "TelegramBotApi",
    "TelegramChannel",
    "TelegramDelivery",
    "TelegramError",
    "TelegramHandler",
    "TelegramResult",
    "Update",
    "contact_update",
    "text_update",
]
