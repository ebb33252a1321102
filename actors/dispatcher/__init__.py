"""The DispatcherActor: a Ray actor process that runs tools.

dispatcher gates every tool call through TOOL_ROLE_MATRIX and its scope checks, runs it and the
speculative prefetch; dispatcher_actor is its Ray actor and the ToolRunner hosts call it through.
"""
