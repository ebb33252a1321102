"""The exceptions the spine raises, under one base its callers catch: `SpineError`.

    SpineError
    ├── StoreError             a store could not do what was asked (spine.store.base)
    │   ├── StoreUnavailable   the backend is down, unreachable, or slower than its bound
    │   └── ConditionFailed    a conditional put lost (create-if-absent, or the version moved)
    ├── InvalidPhoneNumber     a wire address that is no phone number (also a ValueError)
    └── BrokenMergeChain       merge pointers that lead to no surviving Person
        └── MergeCycle         ... because they loop

Each layer has its own base: tools.errors.ToolError, actors.errors.ActorError,
gateway's GatewayError. prompts raises none of its own (it is pure functions over typed values).
"""
from __future__ import annotations

__all__ = ["SpineError"]


class SpineError(Exception):
    """Base of every exception the spine raises."""
