"""The property's Telegram bot: Bot API updates at POST /telegram/webhook (authenticated by the
secret token set with setWebhook), replies through sendMessage. A Telegram user is a Person only
once they share their own contact; until then they are an unknown address, and Clara offers the
"share my phone number" button."""
