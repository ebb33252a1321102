"""The outbound path: `queue_outbound` (the one "may we contact this person now" check and the
outbox row of everything the gateway starts) and the contact window (quiet hours)."""
