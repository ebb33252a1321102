"""A paging call a machine answered (Twilio's answering-machine detection): the page left as a short
voicemail, since nobody will press a key. The step stays unanswered, so the ladder goes on at its
timeout exactly as for a call nobody picked up; the text with the code is how it is taken."""
from __future__ import annotations

from desk.oncall.texts import UNIT_UNKNOWN
from spine.oncall import Page
from spine.work import number_in

MACHINE_PREFIX = "machine_"  # machine_start, machine_end_beep, machine_end_silence, machine_end_other


def answered_by_machine(answered_by: str) -> bool:
    """Twilio's `AnsweredBy`: `human`, `machine_*`, `fax` or `unknown`; only a machine gets the voicemail
    (`unknown` is treated as a person: better a prompt to a person than a voicemail to nobody)."""
    return answered_by.startswith(MACHINE_PREFIX) or answered_by == "fax"


def voicemail_script(page: Page, property_name: str) -> str:
    unit = f"unit {' '.join(page.unit)}" if page.unit else UNIT_UNKNOWN
    wo = f", work order {' '.join(str(number_in(page.work_order_display_id)))}" if page.work_order_display_id \
        else ""
    return (f"This is Clara for {property_name}, with an urgent page: {unit}{wo}: {page.reason}. "
            f"To take it, reply ACK to the text. Goodbye.")
