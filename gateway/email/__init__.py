"""Inbound email through Mailgun routes (`forward()` to POST /email/inbound), replies through
Mailgun's messages API. The adapter verifies Mailgun's signature, judges whether the sender's
From is authenticated (SPF or DKIM passing aligned with its domain), and hands the same
MessageEnvelope the SMS adapter builds to the same PersonActor path."""
