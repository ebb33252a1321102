"""Moving a live call to /voice/transfer/{transfer_id}: Twilio's Calls API, `POST
/2010-04-01/Accounts/{AccountSid}/Calls/{CallSid}.json` with `Url` (gateway.twilio.call_updates, the twilio library's `calls(sid).update_async`).

`transfer_to_staff` wrote the transfer and answered "redirecting"; here that answer becomes what
happened: "connecting" only when Twilio accepted the update (2xx), else honestly that the call could
not be moved (and the transfer is failed, with its event). The run that wrote the transfer hands it
over on its result (`ToolResult.call_move`), so the update leaves without reading it back; what can
wait (Twilio's answer recorded, transfer/started) follows the update. The same tool result delivered
again (a retried webhook, a replay) does not post twice: the transfer records Twilio's answer."""
from __future__ import annotations

import asyncio
import logging
from urllib.parse import quote

import httpx

from desk.transfer.progress import change, note
from gateway.settings import Settings
from gateway.twilio.call_updates import TwilioCallUpdates
from gateway.twilio.client import twilio_clients
from spine.records import EventKind, TraceEvent
from spine.repo import Spine
from spine.toolspec import ToolResult
from spine.transfer import Transfer, TransferOutcome
from tools.handlers.transfer import TransferOut

log = logging.getLogger("clara.voice.transfer")
TOOL = "transfer_to_staff"


def transfer_url(public_url: str, transfer_id: str, leg: str = "") -> str:
    return f"{public_url.rstrip('/')}/voice/transfer/{quote(transfer_id)}{leg}"


class CallRedirects:
    def __init__(self, spine: Spine, updates: TwilioCallUpdates | None, public_url: str) -> None:
        self.spine, self.updates, self.public_url = spine, updates, public_url

    @classmethod
    def from_settings(cls, settings: Settings, spine: Spine, http: httpx.AsyncClient | None) -> CallRedirects:
        twilio = twilio_clients(settings, http) if http is not None else None
        return cls(spine, twilio.call_updates if twilio else None, settings.public_url)

    async def deliver(self, result: ToolResult, trace_lines: list[TraceEvent] | None = None) -> ToolResult:
        """`trace_lines`: where the caller collects the call's trace lines to write them with the
        tool call's entry (the server-tool webhook); without it they are written here."""
        if result.name != TOOL or result.is_error:
            return result
        move, result = result.call_move, result.model_copy(update={"call_move": None})
        out = TransferOut.model_validate_json(result.content)
        if out.status != "redirecting" or out.transfer_id is None:
            return result
        if move is not None and move.transfer.id == out.transfer_id:  # the run that wrote it: nothing to read
            transfer = await self._redirect(move.transfer, move.version, trace_lines)
            return _answer(result, out, accepted=_accepted(transfer.redirect_status))
        found = await self.spine.read_transfer(out.transfer_id)  # a replayed result: moved already?
        if found is None:
            return _answer(result, out, accepted=False)
        transfer = found[0] if found[0].redirect_status is not None else await self._redirect(*found, trace_lines)
        return _answer(result, out, accepted=_accepted(transfer.redirect_status))

    async def _redirect(self, transfer: Transfer, version: int, trace_lines: list[TraceEvent] | None) -> Transfer:
        """The update first (the caller is waiting on it), then the record (by compare-and-set on
        the `version` it was read or written at) and its event."""
        status = 0
        if self.updates is not None:
            status = await self.updates.redirect(transfer.call_sid, transfer_url(self.public_url, transfer.id))
        else:
            log.warning("transfer %s: no Twilio credentials, the call cannot be moved", transfer.id)
        # The caller's part is done; what follows is bookkeeping. Requests already waiting on this
        # loop (other callers' tool calls, other transfers' updates) go first: in a burst of 50
        # transfers each update otherwise waited behind the others' records (bench/voice_transfer.py).
        await asyncio.sleep(0)
        accepted = _accepted(status)

        def edit(t: Transfer) -> Transfer | None:
            if t.redirect_status is not None:
                return None
            t.redirect_status = status
            if not accepted:
                t.outcome, t.ended_at = TransferOutcome.FAILED, self.spine.clock()
            return t

        changed = await change(self.spine, transfer.id, edit, held=(transfer, version)) or transfer
        await note(self.spine, changed, EventKind.TRANSFER_STARTED, f"{transfer.urgency}: {transfer.reason}"[:200],
                   targets=[t.label for t in transfer.targets], in_office_hours=transfer.in_office_hours,
                   redirect_status=status, trace_lines=trace_lines)
        if not accepted and changed.redirect_status == status:
            await note(self.spine, changed, EventKind.TRANSFER_FAILED, f"redirect refused ({status or 'unreachable'})",
                       trace_lines=trace_lines)
        return changed


def _accepted(status: int | None) -> bool:
    return status is not None and 200 <= status < 300


def _answer(result: ToolResult, out: TransferOut, *, accepted: bool) -> ToolResult:
    first = out.targets[0] if out.targets else "the team"
    if accepted:
        said = out.model_copy(update={"status": "connecting", "message": (
            f"Twilio accepted: the call is moving to {first} now. Say only that you are connecting them, "
            "in one short sentence; if nobody answers, the caller comes back to you.")})
    else:
        said = out.model_copy(update={"status": "not_connected", "message": (
            "The call could not be moved to a person (the phone system refused). Tell the caller honestly that you "
            "could not connect them, and offer to take a message for the team (escalate_to_human).")})
    return result.model_copy(update={"content": said.model_dump_json()})
