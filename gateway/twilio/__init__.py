"""Twilio, in one room: its REST API (Messages, Calls, the message history), the webhooks'
signatures and parameter sets, and TwiML for SMS and voice. The channels (gateway/sms/,
gateway/voice/) and the outbox sender use Twilio only through here."""
