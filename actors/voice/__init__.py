"""A voice call. Its work runs in the caller's actor, in the PersonActor host: opening builds the
call's routing, first message and context (actors/host/person_session.py runs it, with the tools
and the end, for a Person or for a caller who is no Person yet, on their number's address actor).
The GatewayIngress replica keeps the wire's side (gateway/voice/services.py, bridge.py): call
(VoiceCalls) answers within a time bound, places each op (call_placement), writes the opening's
bookkeeping (bookkeeping) and the end's (call_trace), and forwards each op to the actor; session
is the call's state over the ElevenLabs websocket; tools maps server-tool calls onto tool uses.
"""
