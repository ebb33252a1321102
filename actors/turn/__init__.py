"""One turn, run inside the PersonActor host: plain asyncio, no Ray.

interaction runs a turn end to end: opening (who the caller is and what Clara loads, derived with
authority), agent_loop (model, tool calls through a ToolRunner), trace_builder (the trace written
after); a call's opening (call_opening) and its tools' shared rules (call_tools), run by the host's
sessions. The typed messages between them are the runtime's protocol (actors.protocol.turn).
"""
