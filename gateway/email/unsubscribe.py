"""`GET/POST /email/unsubscribe/{token}`: the link every started email carries (desk.outbound.unsubscribe).

POST is RFC 8058's one-click: a mail client posts `List-Unsubscribe=One-Click` and the address is
opted out of email at once, no sign-in. GET (a person clicking the link) shows a page with one
button that posts it: RFC 8058 forbids unsubscribing on GET, because mail scanners fetch links.
A token that is not ours is 404 and changes nothing.
"""
from __future__ import annotations

from html import escape

from fastapi import APIRouter, Depends
from fastapi.responses import HTMLResponse

from desk.outbound.unsubscribe import UNSUBSCRIBE_PATH, address_of_token, unsubscribe_by_token
from gateway.context import GatewayContext, get_context
from spine.masking import mask_addresses

router = APIRouter()

_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<meta name="viewport" content="width=device-width,initial-scale=1"></head><body><main><h1>{title}</h1>
<p>{text}</p>{form}</main></body></html>"""
_NOT_OURS = "This unsubscribe link is not valid. To stop email, reply \"unsubscribe\" to any message."


def _page(title: str, text: str, form: str = "", status: int = 200) -> HTMLResponse:
    return HTMLResponse(_PAGE.format(title=escape(title), text=escape(text), form=form), status_code=status)


@router.get(UNSUBSCRIBE_PATH + "{token}")
async def unsubscribe_page(token: str, ctx: GatewayContext = Depends(get_context)) -> HTMLResponse:
    address = await address_of_token(ctx.spine, token)
    if address is None:
        return _page("Link not valid", _NOT_OURS, status=404)
    form = (f'<form method="post" action="{escape(UNSUBSCRIBE_PATH + token)}">'
            '<input type="hidden" name="List-Unsubscribe" value="One-Click">'
            '<button type="submit">Unsubscribe</button></form>')
    return _page("Unsubscribe", f"Stop email from Clara to {mask_addresses(address)}?", form)


@router.post(UNSUBSCRIBE_PATH + "{token}")
async def unsubscribe_one_click(token: str, ctx: GatewayContext = Depends(get_context)) -> HTMLResponse:
    address = await unsubscribe_by_token(ctx.spine, token)
    if address is None:
        return _page("Link not valid", _NOT_OURS, status=404)
    return _page("Unsubscribed", f"{mask_addresses(address)} will get no more email from us. "
                                 "Reply \"subscribe\" to any message to receive email again.")
