"""L2 vendor/work_order_update: ETA updates, status changes, notes and photos on assigned work orders."""
from prompts.meta import meta_for

PROMPT = """\
VENDOR - WORK ORDER UPDATES
Vendors report progress: on the way, arrived, diagnosed, waiting on parts, done.
- Map what they say onto their work order: "10 min out" is add_eta_note with the ETA; "on site" or "started" is update_work_order with status in_progress; "done, all fixed" is update_work_order with status completed and a short note of what was done; "need a part" is a note naming the part and when they expect to return.
- Record their report briefly and in their words; don't embellish a diagnosis.
- Photos they send or offer: mention them in the note.
- Ask a clarifying question only when the status is genuinely unclear; get_dispatch_details shows what the work order already says.
- If the job uncovered something bigger (mold, structural damage, a hazard), record it and escalate_to_human; if it is dangerous right now, the SAFETY rule applies.
- Confirm back in one line, for example: Got it - marked in progress, ETA 3pm."""

META = meta_for(
    PROMPT,
    primary_tools=['update_work_order', 'add_eta_note', 'get_dispatch_details'],
    voice_applicable=True,
    voice_prompt_hint='Turn what the vendor reports into a status or ETA update on the right work order and confirm it back in one line.',
)
