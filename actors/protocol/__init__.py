"""The runtime's protocol: what the actors/ process folders say to each other, and nothing of
how any of them does its work. Every process folder (client, host, turn, dispatcher, control)
imports it; it imports none of them: actor keys (keys), typed Ray handles (handles), a turn's
types (turn), a call's ops and replies (session), what a host answers (host)."""
