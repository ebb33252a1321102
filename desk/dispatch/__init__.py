"""Vendor dispatch (the offer, its YES/NO, its reminder), the tenant's notices of a work order's
change, and their words. The dispatch record stays in the spine (spine.dispatch_record)."""
