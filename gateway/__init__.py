"""The gateway: Ray Serve ingress, channel adapters (Twilio SMS, ElevenLabs voice), settings,
admin API and the `gateway` CLI. No business rules live here."""
