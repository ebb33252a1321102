"""Singletons per namespace, each its own Ray actor: the control loops.

reconciler keeps the PersonActor hosts at the configured size and replaces lost ones
(host_health reads their liveness); scheduler (the PagingScheduler) drives on-call ladders and
sends the outbox rows that are due.
"""
