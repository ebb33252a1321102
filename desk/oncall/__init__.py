"""On-call paging: the ladder's start, steps and exhaustion, its acknowledgement, and its words.
The plans and pages themselves are records of the spine (spine.oncall, spine.repo.oncall)."""
