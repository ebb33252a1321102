"""An opening's bookkeeping (the call's trace, context-build events) is written just after the
answer, the writes of calls ringing together at once: one refused write loses nothing else."""
from __future__ import annotations

import asyncio
import logging

from actors.dispatcher import Dispatcher
from actors.model.offline import OfflineModel
from actors.voice_call import VoiceCalls
from spine.repo import Spine
from spine.store.base import StoreUnavailable
from tests.voice.voice_helpers import MARCUS, YALE_LINE


class RefusingStore:
    """A store that refuses to write one item (a backend that rejects it) and serves the rest."""

    def __init__(self, inner, refused_pk: str) -> None:
        self.inner, self.refused_pk = inner, refused_pk

    async def put(self, item, **kwargs):
        if item.pk == self.refused_pk:
            raise StoreUnavailable(f"refused {item.pk}")
        return await self.inner.put(item, **kwargs)

    def __getattr__(self, name: str):
        return getattr(self.inner, name)


async def test_one_refused_trace_write_loses_nothing_else(spine, caplog):
    refusing = Spine(RefusingStore(spine.store, "TRACE#voice-CA_wb_bad"))
    calls = VoiceCalls(refusing, Dispatcher(refusing), OfflineModel())
    with caplog.at_level(logging.WARNING, logger="clara.voice"):
        await asyncio.gather(*(calls.start(caller_number=MARCUS, called_number=YALE_LINE, call_sid=sid)
                               for sid in ("CA_wb_bad", "CA_wb_ok")))
        await calls.drain()
    assert (await spine.get_trace("voice-CA_wb_ok")).participant_id == "p_marcus"
    assert await spine.get_trace("voice-CA_wb_bad") is None
    assert await calls.failed("voice-CA_wb_bad") and not await calls.failed("voice-CA_wb_ok")
    assert "refused TRACE#voice-CA_wb_bad" in caplog.text
