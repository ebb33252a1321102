"""The one money format of every reply and tool message: "$2,525", "$2,525/mo", "$12.50"."""
from __future__ import annotations


def usd(amount: float | int) -> str:
    value = float(amount)
    return f"${value:,.0f}" if value == int(value) else f"${value:,.2f}"


def usd_monthly(amount: float | int) -> str:
    return f"{usd(amount)}/mo"
