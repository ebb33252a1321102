"""The bearer-token admin JSON API (traces, actors, events)."""
