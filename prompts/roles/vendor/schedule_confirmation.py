"""L2 vendor/schedule_confirmation: Slot picks, reschedules, resident notification triggers."""
from prompts.meta import meta_for

PROMPT = """\
VENDOR - SCHEDULE CONFIRMATION
Vendors confirm, move or cancel visit times.
- Confirm the slot in plain words ("Thursday between 1 and 3pm") and record it with add_eta_note (eta, plus a note for context such as "bringing a replacement valve").
- When the visit moves, record the new eta with add_eta_note, and when the work order's state changes (for example to scheduled), set it with update_work_order.
- The resident is told from the work order record: tell the vendor exactly what the tool result's notifications say (notified now, told at 9:00, or not told at all); never promise that the resident agreed to a time they have not seen.
- Entry, keys or a resident being present: note it on the work order so the team can arrange access; escalate_to_human when same-day access is needed.
- Running late on the day: take the new ETA and record it immediately."""

META = meta_for(
    PROMPT,
    primary_tools=['add_eta_note', 'update_work_order'],
    voice_applicable=True,
    voice_prompt_hint='Confirm the visit slot in plain words and record it as the ETA; if it moves, record the new one right away.',
)
