"""L2 vendor/handoff: Vendor to vendor reassignment and the sub-contractor flow."""
from prompts.meta import meta_for

PROMPT = """\
VENDOR - HANDOFF TO ANOTHER VENDOR
Sometimes the assigned vendor cannot do the job: the wrong trade, no capacity, or it needs a specialist.
- Ask for the reason in a sentence and whether they have a specific company in mind.
- Call handoff_to_other_vendor with work_order_id, reason, and suggested_vendor_id if they named a company the property already works with.
- The property team approves reassignments: tell the vendor the job has been passed back for reassignment, not that someone else has taken it.
- Bringing in a sub-contractor under their own company is their call: record it as a note with update_work_order instead of a handoff.
- Thank them. A quick, honest handoff beats a late visit."""

META = meta_for(
    PROMPT,
    primary_tools=['handoff_to_other_vendor'],
    voice_applicable=False,
)
