"""The tool policy as one table: every tool against every demo caller (the way Cerbos and OpenFGA
keep policy tests). Read a row left to right: what each caller gets for that call.

Codes:
  Y  allowed, and the tool is in the caller's catalog
  s  refused by scope; the tool is in the catalog (this call names something outside the scope)
  n  refused by scope, and never in the catalog: no unit the caller holds could pass that scope
  t  refused: the unit / work order named could not be resolved; the tool is in the catalog
  r  refused by role; not in the catalog
  u  refused: unknown tool
  v  allowed (the gate passes it), but offered on phone calls only, never in a text catalog
Callers (column order below): tenants at pf_yale (Marcus primary, Jordan roommate, Ellen
guarantor of unit 204); Mike, in-house vendor; Carlos, primary of 110 and Carlos Plumbing, at
pf_yale and at pf_capitol (where he is only a vendor); a prospect minted for +14155559876; staff of
org_propflow: Priya pm, Sam viewer, Lena leasing_agent, Olga org_admin, Max maintenance; Priya again
at pf_beacon (her pm role is org-wide, so it reaches pf_yale from there); Nora, pm scoped to pf_beacon
only, at pf_yale (no role there) and at pf_beacon (her role acts on pf_beacon's records only); and an
unknown caller with no Person.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from spine.identity import Claim, ClaimKind, Person, PersonRole, PersonRoleSource, PersonRoleType, RoleScope
from spine.repo import Spine

PROSPECT_PHONE = "+14155559876"


@dataclass(frozen=True)
class Who:
    person_id: str | None
    property_id: str = "pf_yale"


CALLERS: dict[str, Who] = {
    "marcus": Who("p_marcus"), "jordan": Who("p_jordan"), "ellen": Who("p_ellen"), "mike": Who("p_mike"),
    "carlos": Who("p_carlos"), "carlos@capitol": Who("p_carlos", "pf_capitol"), "prospect": Who("p_prospect_9876"),
    "priya": Who("p_priya"), "sam": Who("p_sam"), "lena": Who("p_lena"), "olga": Who("p_olga"),
    "max": Who("p_max"), "priya@beacon": Who("p_priya", "pf_beacon"), "nora": Who("p_nora"),
    "nora@beacon": Who("p_nora", "pf_beacon"), "other": Who(None),
}
COLUMNS = tuple(CALLERS)


async def add_table_people(spine: Spine) -> None:
    """People the demo data lacks: the router-minted prospect, an org_admin and a maintenance tech."""
    await spine.put_person(Person(id="p_prospect_9876", display_name="Prospect 9876",
                                  claims=[Claim(kind=ClaimKind.PHONE, value=PROSPECT_PHONE)]))
    await spine.put_role(PersonRole(id="pr_9876_yale", person_id="p_prospect_9876", role_type=PersonRoleType.PROSPECT,
                                    source=PersonRoleSource.ROUTER_MINT, scope=RoleScope(property_id="pf_yale")))
    for pid, name, role in (("p_olga", "Olga Brandt", PersonRoleType.ORG_ADMIN),
                            ("p_max", "Max Klein", PersonRoleType.MAINTENANCE)):
        await spine.put_person(Person(id=pid, display_name=name))
        await spine.put_role(PersonRole(id=f"sr_{pid}", person_id=pid, role_type=role,
                                        source=PersonRoleSource.MANUAL_PM, scope=RoleScope(org_id="org_propflow")))


@dataclass(frozen=True)
class Row:
    tool: str
    input: dict[str, Any]
    cells: str  # one code per caller, in COLUMNS order

    def codes(self) -> dict[str, str]:
        codes = self.cells.split()
        assert len(codes) == len(COLUMNS), f"{self.tool}: {len(codes)} codes for {len(COLUMNS)} callers"
        return dict(zip(COLUMNS, codes, strict=True))


WO = "work_order_id"
ALL_Y = "Y Y Y Y Y Y Y Y Y Y Y Y Y Y Y Y"
ALL_V = ALL_Y.replace("Y", "v")

# fmt: off
ROWS: list[Row] = [
    #                                                                  mar jor ell mik car c@c pro pri sam len olg max p@b nor n@b oth
    # --- tenant catalog ---------------------------------------------------------------------------------------------
    Row("create_work_order", {"description": "sink leaks"},             "Y   Y   Y   r   Y   r   r   r   r   r   r   r   r   r   r   r"),
    Row("create_work_order", {"description": "leak", "unit": "204"},    "Y   Y   Y   r   s   r   r   r   r   r   r   r   r   r   r   r"),
    Row("create_work_order", {"description": "leak", "unit": "110"},    "s   s   s   r   Y   r   r   r   r   r   r   r   r   r   r   r"),
    Row("create_work_order", {"description": "leak", "unit": "999"},    "t   t   t   r   t   r   r   r   r   r   r   r   r   r   r   r"),
    Row("get_unit_appliances", {},                                      "Y   Y   Y   r   Y   r   r   r   r   r   r   r   r   r   r   r"),
    Row("request_photo", {"reason": "the leak", WO: "WO-7"},            "Y   Y   Y   r   s   r   r   r   r   r   r   r   r   r   r   r"),
    Row("get_work_order_detail", {WO: "WO-7"},                          "Y   Y   Y   r   s   r   r   r   r   r   r   r   r   r   r   r"),
    Row("get_work_order_detail", {WO: "WO-42"},                         "s   s   s   r   s   r   r   r   r   r   r   r   r   r   r   r"),
    Row("get_work_order_detail", {WO: "WO-51"},                         "s   s   s   r   s   r   r   r   r   r   r   r   r   r   r   r"),
    Row("get_work_order_detail", {WO: "WO-90"},                         "s   s   s   r   s   r   r   r   r   r   r   r   r   r   r   r"),
    Row("get_work_order_detail", {WO: "WO-404"},                        "t   t   t   r   t   r   r   r   r   r   r   r   r   r   r   r"),
    Row("get_lease_details", {},                                        "Y   Y   Y   r   Y   r   r   r   r   r   r   r   r   r   r   r"),
    Row("submit_rating", {WO: "WO-7", "stars": 5},                      "Y   Y   Y   r   s   r   r   r   r   r   r   r   r   r   r   r"),
    Row("get_balance", {},                                              "Y   n   Y   r   Y   r   r   r   r   r   r   r   r   r   r   r"),
    Row("get_balance", {"unit": "110"},                                 "s   n   s   r   Y   r   r   r   r   r   r   r   r   r   r   r"),
    Row("respond_to_renewal", {"decision": "accept", "term_months": 12}, "Y   n   n   r   Y   r   r   r   r   r   r   r   r   r   r   r"),
    Row("respond_to_renewal", {"decision": "decline", "unit": "204"},   "Y   n   n   r   s   r   r   r   r   r   r   r   r   r   r   r"),
    Row("get_troubleshooting_steps", {"issue": "toilet keeps running"}, "Y   Y   Y   r   Y   r   r   r   r   r   r   r   r   r   r   r"),
    # --- vendor catalog ---------------------------------------------------------------------------------------------
    Row("accept_dispatch", {WO: "WO-7"},                                "r   r   r   Y   s   s   r   r   r   r   r   r   r   r   r   r"),
    Row("update_work_order", {WO: "WO-42", "status": "in_progress"},    "r   r   r   s   Y   s   r   r   r   r   r   r   r   r   r   r"),
    Row("update_work_order", {WO: "WO-404", "note": "done"},            "r   r   r   t   t   t   r   r   r   r   r   r   r   r   r   r"),
    Row("add_eta_note", {WO: "wo_42", "eta": "today 4pm"},              "r   r   r   s   Y   s   r   r   r   r   r   r   r   r   r   r"),
    Row("get_dispatch_details", {WO: "42"},                             "r   r   r   s   Y   s   r   r   r   r   r   r   r   r   r   r"),
    Row("get_dispatch_details", {WO: "WO-51"},                          "r   r   r   s   s   Y   r   r   r   r   r   r   r   r   r   r"),
    Row("get_dispatch_details", {WO: "WO-90"},                          "r   r   r   Y   s   s   r   r   r   r   r   r   r   r   r   r"),
    Row("handoff_to_other_vendor", {WO: "WO-7", "reason": "busy"},      "r   r   r   Y   s   s   r   r   r   r   r   r   r   r   r   r"),
    # --- prospect catalog -------------------------------------------------------------------------------------------
    Row("save_prospect", {"bedrooms": 2},                               "r   r   r   r   r   r   Y   r   r   r   r   r   r   r   r   r"),
    Row("schedule_tour", {"when": "2031-01-10T14:00:00"},               "r   r   r   r   r   r   Y   r   r   r   r   r   r   r   r   r"),
    Row("send_application_link", {},                                    "r   r   r   r   r   r   Y   r   r   r   r   r   r   r   r   r"),
    Row("get_available_units", {"bedrooms": 2},                         "r   r   r   r   r   r   Y   r   r   r   r   r   r   r   r   r"),
    Row("get_pricing_details", {},                                      "r   r   r   r   r   r   Y   r   r   r   r   r   r   r   r   r"),
    # --- pm catalog -------------------------------------------------------------------------------------------------
    Row("pm_lookup_person", {"name": "Marcus"},                         "r   r   r   r   r   r   r   Y   Y   Y   Y   Y   Y   r   Y   r"),
    Row("pm_list_open_work_orders", {},                                 "r   r   r   r   r   r   r   Y   Y   Y   Y   Y   Y   r   Y   r"),
    Row("pm_list_open_work_orders", {"property_id": "pf_yale"},         "r   r   r   r   r   r   r   Y   Y   Y   Y   Y   Y   r   s   r"),
    Row("pm_list_open_work_orders", {"property_id": "pf_beacon"},       "r   r   r   r   r   r   r   Y   Y   Y   Y   Y   Y   r   Y   r"),
    Row("pm_list_open_work_orders", {"property_id": "pf_capitol"},      "r   r   r   r   r   r   r   s   s   s   s   s   s   r   s   r"),
    Row("pm_list_open_work_orders", {"property_id": "pf_nowhere"},      "r   r   r   r   r   r   r   t   t   t   t   t   t   r   t   r"),
    Row("pm_create_work_order", {"unit": "204", "description": "x"},    "r   r   r   r   r   r   r   Y   r   r   Y   Y   t   r   t   r"),
    Row("pm_create_work_order", {"unit": "501", "description": "x",
                                 "property_id": "pf_beacon"},           "r   r   r   r   r   r   r   Y   r   r   Y   Y   Y   r   Y   r"),
    Row("pm_create_work_order", {"unit": "12", "description": "x",
                                 "property_id": "pf_capitol"},          "r   r   r   r   r   r   r   s   r   r   s   s   s   r   s   r"),
    Row("pm_assign_vendor", {WO: "WO-42", "vendor_id": "v_sparks"},     "r   r   r   r   r   r   r   Y   r   r   Y   Y   Y   r   s   r"),
    Row("pm_assign_vendor", {WO: "WO-90", "vendor_id": "v_inhouse"},    "r   r   r   r   r   r   r   Y   r   r   Y   Y   Y   r   Y   r"),
    Row("pm_assign_vendor", {WO: "WO-51", "vendor_id": "v_carlos"},     "r   r   r   r   r   r   r   s   r   r   s   s   s   r   s   r"),
    Row("pm_close_work_order", {WO: "WO-7"},                            "r   r   r   r   r   r   r   Y   r   r   Y   r   Y   r   s   r"),
    Row("pm_close_work_order", {WO: "WO-90"},                           "r   r   r   r   r   r   r   Y   r   r   Y   r   Y   r   Y   r"),
    Row("pm_close_work_order", {WO: "WO-51"},                           "r   r   r   r   r   r   r   s   r   r   s   r   s   r   s   r"),
    Row("pm_send_renewal", {"unit": "204", "term_months": 12,
                            "monthly_rent_usd": 2525},                  "r   r   r   r   r   r   r   Y   r   Y   Y   r   t   r   t   r"),
    Row("pm_send_renewal", {"unit": "999", "term_months": 12,
                            "monthly_rent_usd": 2525},                  "r   r   r   r   r   r   r   t   r   t   t   r   t   r   t   r"),
    Row("pm_list_tours", {},                                            "r   r   r   r   r   r   r   Y   r   Y   Y   r   Y   r   Y   r"),
    Row("pm_list_tours", {"day": "tomorrow", "days": 7,
                          "property_id": "pf_yale"},                    "r   r   r   r   r   r   r   Y   r   Y   Y   r   Y   r   s   r"),
    Row("pm_list_tours", {"property_id": "pf_beacon"},                  "r   r   r   r   r   r   r   Y   r   Y   Y   r   Y   r   Y   r"),
    Row("pm_list_tours", {"property_id": "pf_capitol"},                 "r   r   r   r   r   r   r   s   r   s   s   r   s   r   s   r"),
    Row("pm_list_tours", {"day": "2026-12-24"},                         "r   r   r   r   r   r   r   Y   r   Y   Y   r   Y   r   Y   r"),
    # --- facility and universal: everyone, unknown callers included -------------------------------------------------
    Row("get_property_amenities", {},                                   ALL_Y),
    Row("get_property_hours", {},                                       ALL_Y),
    Row("get_pet_policy", {},                                           ALL_Y),
    Row("get_parking_rules", {},                                        ALL_Y),
    Row("get_pool_status", {},                                          ALL_Y),
    Row("escalate_to_human", {"reason": "wants a person"},              ALL_Y),
    # --- the voice step-up (its handlers refuse off the phone) ------------------------------------------------------
    Row("send_verification_code", {},                                   ALL_V),
    Row("check_verification_code", {"code": "123456"},                  ALL_V),
    # --- a person on the phone: every role, not the other lane (Nora has no role at pf_yale; no Person) --------------
    Row("transfer_to_staff", {"reason": "wants a person"},              "v   v   v   v   v   v   v   v   v   v   v   v   v   r   v   r"),
    # --- not a tool -------------------------------------------------------------------------------------------------
    Row("delete_all_work_orders", {},                                   "u   u   u   u   u   u   u   u   u   u   u   u   u   u   u   u"),
]
# fmt: on

# code -> (allowed, rule prefix, in the caller's catalog)
EXPECT: dict[str, tuple[bool, str, bool]] = {
    "Y": (True, "allowed", True),
    "s": (False, "scope:", True),
    "n": (False, "scope:", False),
    "t": (False, "target", True),
    "r": (False, "role", False),
    "u": (False, "unknown-tool", False),
    "v": (True, "allowed", False),
}
