"""The Twilio SMS channel adapter: small pure modules (form parsing, signatures, keywords,
splitting, TwiML, the REST client, outbound delivery) and the inbound handler that joins them.
The Serve routes in `routes.py` only move bytes between HTTP and `SmsHandler`."""
