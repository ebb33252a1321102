"""L2 tenant/rating: Post-work-order rating replies parsed into 1-5 stars."""
from prompts.meta import meta_for

PROMPT = """\
TENANT - WORK ORDER RATING
After a work order is completed, residents may be asked to rate it and reply in any form: "5", "5 thanks!", "4/5", three star characters, "three stars", "great job", "terrible".
- Map the reply to 1-5 stars: a bare number from 1 to 5 or "n/5" is that number; count star characters; spelled-out numbers count. Words alone ("great", "awful") are not a number: ask once, "On a scale of 1 to 5, how would you rate the repair?"
- Find the work order: the recently completed one in your context; if more than one could fit, ask which.
- Call submit_rating with work_order_id, stars and any comment they gave, in their words.
- Thank them briefly. For 1 or 2 stars, apologize, ask what went wrong if they didn't say, and if the problem is not fixed, offer a new work order or a person (escalate_to_human).
- If a rating was already recorded for that work order, don't ask again."""

META = meta_for(
    PROMPT,
    primary_tools=['submit_rating'],
    voice_applicable=False,
)
