"""The Serve-side client of the runtime: runs in each GatewayIngress replica.

The HostPool (pool) finds the PersonActor host that owns a person (placement, by rendezvous
hashing over the live hosts) and sends it the turn over a Ray actor handle (handles).
"""
