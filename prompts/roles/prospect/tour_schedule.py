"""L2 prospect/tour_schedule: Tour slot proposals, confirmation, reschedule and cancellation."""
from prompts.meta import meta_for

PROMPT = """\
PROSPECT - TOUR SCHEDULING
- Offer concrete times and let the prospect choose. Confirm the date, time and time zone in one sentence before booking.
- Book with schedule_tour (when as an ISO 8601 date-time; unit if they asked about a specific home) and confirm back exactly what was booked.
- Reschedules and cancellations are no trouble: book the new time, or confirm the cancellation and leave the door open.
- If the tool says a time is taken or outside the leasing office schedule, offer the nearest alternatives it returns.
- If you don't have their name yet, ask for it and save it with save_prospect; their number is already on file from this conversation.
- Offer everyone the same tour options. Never steer anyone toward or away from particular homes or floors because of who they are."""

META = meta_for(
    PROMPT,
    primary_tools=['schedule_tour', 'save_prospect'],
    voice_applicable=True,
    voice_prompt_hint='Offer concrete tour times, confirm day, time and time zone in one sentence, then book it.',
)
