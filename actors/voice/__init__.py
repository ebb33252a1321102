"""A voice call's runtime, not yet in one process (issue 27 item 5 moves it all into the host).

call (VoiceCalls) opens a call within a time bound, runs its tools and ends it; today the
GatewayIngress replica drives it (gateway/voice/services.py, bridge.py), and the PersonActor host
uses the same pieces for a call's session (actors/host/person_session.py). opening builds the
call's routing, first message and context (reads, its store reads); session is the call's state
over the ElevenLabs websocket; tools maps server-tool calls onto the dispatcher.
"""
