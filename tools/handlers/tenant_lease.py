"""Tenant catalog, lease side: lease details, balance, renewal response."""
from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import BaseModel, Field

from spine.money import usd_monthly
from spine.property import Lease
from spine.work import RenewalOffer, RenewalStatus, RenewalWorkflow
from tools.handlers.base import HandlerContext, Tool, ToolFailure, unit_field
from tools.handlers.tenant import UnitIn
from tools.schema import ToolInput


async def _lease(ctx: HandlerContext) -> Lease:
    lease = await ctx.spine.current_lease(ctx.target.unit_id or "")
    if lease is None:
        raise ToolFailure(f"no lease on file for unit {ctx.target.unit_number}")
    return lease


class LeaseOut(BaseModel):
    """Lease terms. No balance here: the balance needs financial responsibility (get_balance)."""

    unit: str | None
    start: date
    end: date
    monthly_rent_usd: int
    deposit_usd: int


async def get_lease_details(ctx: HandlerContext, args: UnitIn) -> LeaseOut:
    lease = await _lease(ctx)
    return LeaseOut(unit=ctx.target.unit_number, start=lease.start, end=lease.end,
                    monthly_rent_usd=lease.monthly_rent_usd, deposit_usd=lease.deposit_usd)


class BalanceOut(BaseModel):
    unit: str | None
    balance_usd: float
    monthly_rent_usd: int
    rent_due: str = "on the 1st of each month"


async def get_balance(ctx: HandlerContext, args: UnitIn) -> BalanceOut:
    lease = await _lease(ctx)
    return BalanceOut(unit=ctx.target.unit_number, balance_usd=lease.balance_usd,
                      monthly_rent_usd=lease.monthly_rent_usd)


class RenewalIn(ToolInput):
    decision: Literal["accept", "decline"]
    term_months: int | None = Field(None, ge=1, le=36, description="Which offered term, when accepting")
    unit: str | None = unit_field()


class RenewalOut(BaseModel):
    renewal_id: str
    status: str
    term_months: int | None = None
    monthly_rent_usd: int | None = None
    offers: list[RenewalOffer] = Field(default_factory=list)


def _offers_text(workflow: RenewalWorkflow) -> str:
    return ", ".join(f"{o.term_months} months at {usd_monthly(o.monthly_rent_usd)}" for o in workflow.offers)


def _chosen_offer(workflow: RenewalWorkflow, term_months: int | None) -> RenewalOffer:
    if term_months is None:
        if len(workflow.offers) == 1:
            return workflow.offers[0]
        raise ToolFailure(f"which term? The offers are {_offers_text(workflow)}")
    for offer in workflow.offers:
        if offer.term_months == term_months:
            return offer
    raise ToolFailure(f"there is no {term_months}-month offer; the offers are {_offers_text(workflow)}")


async def respond_to_renewal(ctx: HandlerContext, args: RenewalIn) -> RenewalOut:
    offered = [w for w in await ctx.spine.renewals_of_unit(ctx.target.unit_id or "")
               if w.status == RenewalStatus.OFFERED]
    if not offered:
        raise ToolFailure(f"there is no open renewal offer for unit {ctx.target.unit_number}")
    workflow = offered[-1]
    if args.decision == "decline":
        workflow.status = RenewalStatus.DECLINED
        await ctx.spine.put_renewal(workflow)
        return RenewalOut(renewal_id=workflow.id, status=workflow.status)
    offer = _chosen_offer(workflow, args.term_months)
    workflow.status, workflow.chosen_term_months = RenewalStatus.ACCEPTED, offer.term_months
    await ctx.spine.put_renewal(workflow)
    return RenewalOut(renewal_id=workflow.id, status=workflow.status, term_months=offer.term_months,
                      monthly_rent_usd=offer.monthly_rent_usd, offers=workflow.offers)


TOOLS = [
    Tool("get_lease_details", "Lease terms for the tenant's unit: dates, rent, deposit.", UnitIn, get_lease_details),
    Tool("get_balance", "Current balance owed on the tenant's lease.", UnitIn, get_balance),
    Tool("respond_to_renewal", "Accept (with a term) or decline the open lease renewal offer.",
         RenewalIn, respond_to_renewal),
]
