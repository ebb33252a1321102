"""The Twilio REST clients of one process, built here only, from the settings: the Messages API
(texts), the Calls API (paging calls, a transfer's redirect) and the message and call history (an interrupted send's
lookup). None without credentials: then nothing is sent through Twilio and rows wait."""
from __future__ import annotations

from functools import cached_property

import httpx

from gateway.settings import Settings
from gateway.twilio.call_updates import TwilioCallUpdates
from gateway.twilio.calls import TwilioCalls
from gateway.twilio.history import TwilioHistory
from gateway.twilio.rest import TwilioRest

STATUS_CALLBACK_PATH = "/sms/twilio/status"  # where Twilio reports a text's delivery


class TwilioClients:
    """Each client is made on first use: a replica that only answers texts never builds the
    history's twilio.rest.Client."""

    def __init__(self, http: httpx.AsyncClient, *, api_base: str, account_sid: str, auth_token: str) -> None:
        self._http, self._base, self._sid, self._token = http, api_base, account_sid, auth_token

    @cached_property
    def messages(self) -> TwilioRest:
        return TwilioRest(self._http, api_base=self._base, account_sid=self._sid, auth_token=self._token)

    @cached_property
    def calls(self) -> TwilioCalls:
        return TwilioCalls(self._http, api_base=self._base, account_sid=self._sid, auth_token=self._token)

    @cached_property
    def call_updates(self) -> TwilioCallUpdates:
        return TwilioCallUpdates(self._http, api_base=self._base, account_sid=self._sid, auth_token=self._token)

    @cached_property
    def history(self) -> TwilioHistory:
        return TwilioHistory(self._http, api_base=self._base, account_sid=self._sid, auth_token=self._token)


def twilio_clients(settings: Settings, http: httpx.AsyncClient) -> TwilioClients | None:
    """The clients when Twilio credentials are configured, else None."""
    if not (settings.twilio_account_sid and settings.twilio_auth_token):
        return None
    return TwilioClients(http, api_base=settings.twilio_api_base, account_sid=settings.twilio_account_sid,
                         auth_token=settings.twilio_auth_token)


def status_callback_url(settings: Settings) -> str:
    return settings.public_url + STATUS_CALLBACK_PATH
