"""The email adapter's parts for one replica, built from the settings."""
from __future__ import annotations

import httpx

from gateway.api_turns import ApiTurns
from gateway.channel_inbound import ChannelInbound, TurnSubmitter
from gateway.email.delivery import EmailDelivery
from gateway.email.handler import EmailHandler
from gateway.email.mailgun import MailgunMessages
from gateway.errors import InboundNotAccepted
from gateway.settings import Settings
from spine.context import Channel
from spine.property import Property
from spine.repo import Spine


def mailgun_messages(settings: Settings, http: httpx.AsyncClient) -> MailgunMessages | None:
    """A sender when MAILGUN_API_KEY and MAILGUN_DOMAIN are set; None keeps replies in the outbox."""
    if not (settings.mailgun_api_key and settings.mailgun_domain):
        return None
    return MailgunMessages(http, api_base=settings.mailgun_api_base, domain=settings.mailgun_domain,
                           api_key=settings.mailgun_api_key)


class EmailChannel:
    def __init__(self, settings: Settings, spine: Spine, turns: TurnSubmitter, http: httpx.AsyncClient, *,
                 inline_budget_s: float) -> None:
        self.spine = spine
        self.delivery = EmailDelivery(spine, mailgun_messages(settings, http))
        self.turns = ApiTurns(turns, inline_budget_s=inline_budget_s)
        self.handler = EmailHandler(ChannelInbound(spine, Channel.EMAIL), self.turns, self.delivery)

    async def property_for(self, recipients: list[str]) -> Property | None:
        """The first property among the addresses the message was delivered to."""
        try:
            for address in recipients:
                if (prop := await self.spine.property_for_email(address)) is not None:
                    return prop
        except Exception as exc:
            raise InboundNotAccepted(f"{type(exc).__name__}: {exc}") from exc
        return None
