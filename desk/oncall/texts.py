"""What a page says, to whom: the on-call people (English, staff and vendors), the reporter (their
language), the property's managers. Only what the ladder did is said."""
from __future__ import annotations

from spine.oncall import Page
from spine.work import number_in

UNIT_UNKNOWN = "unit unknown"  # said, not left out: the on-call person must know to ask


def _where(page: Page, property_name: str) -> str:
    unit = f", unit {page.unit}" if page.unit else f", {UNIT_UNKNOWN}"
    wo = f", {page.work_order_display_id}" if page.work_order_display_id else ""
    return f"{property_name}{unit}{wo}"


def page_sms(page: Page, property_name: str) -> str:
    return (f"URGENT page, {_where(page, property_name)}: {page.reason}. Code {page.code}. "
            f"Reply ACK to take it (ACK {page.code} if you hold several pages).")


def page_call_script(page: Page, property_name: str) -> str:
    unit = f", unit {' '.join(page.unit)}" if page.unit else f", {UNIT_UNKNOWN}"
    wo = f", work order {number_in(page.work_order_display_id)}" if page.work_order_display_id else ""
    return f"This is Clara for {property_name}, with an urgent page{unit}{wo}: {page.reason}."


CALL_PROMPT = "Press 1 to take it. Press 2 to pass it to the next person."
CALL_NO_DIGIT = "No key was pressed. You can still reply ACK to the text. Goodbye."
CALL_PASSED = "Thank you. The page goes to the next person on call. Goodbye."
CALL_GONE = "This page is no longer open. Thank you. Goodbye."


def call_taken(property_name: str) -> str:
    return f"Thank you. The page is yours; the details are in a text from {property_name}. Goodbye."


def call_taken_by_other(name: str) -> str:
    return f"Thank you. {name} has already taken this page. Goodbye."


def ack_confirmation(page: Page, property_name: str, address: str, reporter_told: bool | None,
                     dispatched_to: str | None = None) -> str:
    """`reporter_told`: None when there is no reporter to tell (or they are the acknowledger).
    `dispatched_to`: the vendor the ACK accepted the work order for (a vendor contact's ACK)."""
    where = f" at {address}" if address else ""
    told = {True: " The reporter is being told you have it.", None: "",
            False: " The reporter could not be told automatically: please contact them."}[reporter_told]
    taken = (f" {page.work_order_display_id} is assigned to {dispatched_to} and scheduled: no need to reply YES."
             if dispatched_to and page.work_order_display_id else "")
    return f"You have the page ({page.code}): {page.reason}, {_where(page, property_name)}{where}.{told}{taken}"


def ack_ambiguous(pages: list[Page]) -> str:
    codes = ", ".join(f"ACK {p.code} ({p.reason})" for p in pages)
    return f"You hold {len(pages)} open pages. Reply with the code of the one you take: {codes}."


def ack_unknown_code(pages: list[Page]) -> str:
    return "No open page of yours has that code. " + ack_ambiguous(pages)


def already_taken(name: str, page: Page) -> str:
    return f"{name} has already taken page {page.code} ({page.reason})."


def reporter_has_it(name: str, team: str, language: str) -> str:
    if language == "es":
        return f"{name} de {team} se encarga de su emergencia y se pondrá en contacto."
    return f"{name} from {team} has it and will be in touch."


def reporter_no_answer(language: str, managers_told: bool) -> str:
    """`managers_told`: a message to at least one of the property's managers was queued (one that
    was blocked, or no manager at all, is not claimed)."""
    if language == "es":
        told = ("los administradores de la propiedad ya fueron avisados" if managers_told
                else "no pudimos avisar automáticamente a los administradores de la propiedad")
        return (f"Todavía no hemos logrado comunicarnos con nadie del equipo de guardia. Seguimos intentándolo y "
                f"{told}. Si alguien está en peligro, llame al 911 ahora.")
    told = ("the property's managers have been told" if managers_told
            else "the property's managers could not be reached automatically")
    return f"No one on the on-call team has answered yet. We keep trying, and {told}. If anyone is in danger, call 911 now."


def managers_exhausted(page: Page, property_name: str, asked: int) -> str:
    return (f"No one answered the on-call page for {_where(page, property_name)}: {page.reason}. "
            f"{asked} {'person was' if asked == 1 else 'people were'} paged, every level, every repeat. "
            f"Please call the reporter or reply ACK {page.code} to take it.")


def team_label(role_types: set[str], vendor_name: str | None, vendor_in_house: bool, language: str = "en") -> str:
    """How the reporter hears who has it: 'maintenance', 'Carlos Plumbing', 'the property team'."""
    if vendor_name is not None and not vendor_in_house:
        return vendor_name
    if vendor_name is not None or "maintenance" in role_types:
        return "mantenimiento" if language == "es" else "maintenance"
    return "el equipo de la propiedad" if language == "es" else "the property team"
