"""The gateway layer's exceptions. Callers of the gateway catch `GatewayError`; each kind below
says what went wrong and how the gateway answers it. A class lives beside the code that raises
it; the shared ones (the bases and the three raised from several packages) live here.

    GatewayError
    ├── ConfigError                 gateway.settings: a setting refused (one line per problem, exit 2)
    ├── ServeStartError             gateway.cli.serve: the gateway could not start (exit 1)
    │   └── ConfigProblems          `gateway check-config` found problems (exit 2)
    ├── WebhookRejected             here: a webhook refused before anything ran (`status`, `reason`)
    ├── InboundNotAccepted          here: the store could not take an inbound; 503, the provider retries
    ├── SignatureRejected           gateway.voice.signature: ElevenLabs-Signature missing, stale or wrong
    ├── ProviderError               here: a provider refused a send or could not be reached (`status`)
    │   ├── TwilioRestError         gateway.twilio.rest (`code`: Twilio's error code)
    │   ├── MailgunError            gateway.email.mailgun
    │   ├── TelegramError           gateway.telegram.botapi
    │   ├── ElevenLabsError         gateway.voice.elevenlabs
    │   └── BuildiumError           gateway.pms.buildium.client: refused, or failing past the retries
    │       └── BuildiumTimeout     no answer: a write may have happened (look it up before writing again)
    ├── MalformedInput              here, also a ValueError: input from outside we cannot use (400)
    │   ├── MalformedWebhook        gateway.sms.inbound: not a usable Twilio form
    │   │   └── UnsupportedSender   a signed message whose From is not a phone (recorded, refused)
    │   ├── RecutWebhook            gateway.twilio.params: a signed form Twilio never sends (403)
    │   │   └── WrongChannelParameter   another channel's parameter (WhatsApp's on an SMS): 400
    │   ├── MalformedEmail          gateway.email.inbound: not a usable Mailgun message
    │   ├── TwimlError              gateway.twilio.twiml_sms: not a TwiML <Response>
    │   ├── UnknownMessage          gateway.voice.frames: a frame not JSON or of a type not handled
    │   │   └── MalformedMessage    a handled frame type that does not validate
    │   └── ScenarioError           gateway.evals.scenario: a scenario file that cannot be read
    ├── SocketClosed                gateway.voice.bridge: a text socket's peer went away
    ├── AskRefused                  gateway.admin.ask: Ask Clara names what does not exist (400)
    ├── AskForbidden                gateway.admin.ask: Ask Clara outside the signed-in scope (403)
    └── PageUnauthorized            gateway.admin.auth: an admin page without a valid session

The layers below have their own bases (the store's StoreError, the actors' and tools' errors);
the gateway turns them into one of its answers at its routes, never a 500 at a caller."""
from __future__ import annotations


class GatewayError(Exception):
    """Base of every exception the gateway layer raises."""


class WebhookRejected(GatewayError):
    """A webhook refused before anything ran; `status` is the HTTP answer, `reason` says why."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status, self.reason = status, reason


class InboundNotAccepted(GatewayError):
    """The store could not record the inbound: nothing was accepted, the provider should retry (503)."""


class ProviderError(GatewayError):
    """A provider refused a send or could not be reached; `status` is its HTTP status, if any."""

    def __init__(self, message: str, *, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class MalformedInput(GatewayError, ValueError):
    """Input from outside (a webhook form, an email, a frame, a document, a file) that cannot be
    used; the message says what is wrong."""
