"""The Serve-side client of the runtime: runs in each GatewayIngress replica.

The HostPool (pool) finds the PersonActor host that owns a person (placement, by rendezvous
hashing over the live hosts) and sends it the turn over a Ray actor handle (actors.protocol.handles). A phone call's replica side
lives here too: calls (CallService: the open budget, forwarding each op to the caller's actor),
call_session (LiveCall: one live call on the media bridge), call_placement, call_bookkeeping and
call_trace.
"""
