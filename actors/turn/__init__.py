"""One turn, run inside the PersonActor host: plain asyncio, no Ray.

interaction runs a turn end to end: opening (who the caller is and what Clara loads, derived with
authority), agent_loop (model, tool calls through a ToolRunner), trace_builder (the trace written
after). turn_types holds the typed messages between them.
"""
