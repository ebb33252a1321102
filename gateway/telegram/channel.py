"""The Telegram adapter's parts for one replica, built from the settings."""
from __future__ import annotations

import httpx

from gateway.api_turns import ApiTurns
from gateway.channel_inbound import ChannelInbound, TurnSubmitter
from gateway.errors import InboundNotAccepted
from gateway.settings import Settings
from gateway.telegram.botapi import TelegramBotApi, bot_id
from gateway.telegram.delivery import TelegramDelivery
from gateway.telegram.handler import TelegramHandler
from spine.context import Channel
from spine.property import Property
from spine.repo import Spine


def bot_api(settings: Settings, http: httpx.AsyncClient) -> TelegramBotApi | None:
    """A Bot API client when TELEGRAM_BOT_TOKEN is set; None keeps replies in the outbox."""
    if not settings.telegram_bot_token:
        return None
    return TelegramBotApi(http, api_base=settings.telegram_api_base, token=settings.telegram_bot_token)


class TelegramChannel:
    def __init__(self, settings: Settings, spine: Spine, turns: TurnSubmitter, http: httpx.AsyncClient, *,
                 inline_budget_s: float) -> None:
        self.spine = spine
        self.bot_id = bot_id(settings.telegram_bot_token)
        self.delivery = TelegramDelivery(spine, bot_api(settings, http))
        self.turns = ApiTurns(turns, inline_budget_s=inline_budget_s)
        self.handler = TelegramHandler(ChannelInbound(spine, Channel.TELEGRAM), self.turns, self.delivery)

    async def property(self) -> Property | None:
        """The property this gateway's bot answers for: the one recorded with the bot's id (from
        TELEGRAM_BOT_TOKEN); without a token, the only property that has a bot at all."""
        try:
            if not self.bot_id:  # found once, then looked up by id like a configured bot
                bots = [p.telegram_bot_id for p in await self.spine.list_properties() if p.telegram_bot_id]
                if len(bots) != 1:
                    return None
                self.bot_id = bots[0]
            return await self.spine.property_for_telegram_bot(self.bot_id)
        except Exception as exc:
            raise InboundNotAccepted(f"{type(exc).__name__}: {exc}") from exc
