"""The runtime's protocol: what the actors/ process folders say to each other, and nothing of
how any of them does its work. Every process folder (client, host, turn, dispatcher, control)
imports it; it imports none of them. Actor keys, typed Ray handles, a turn's request and result."""
