"""Caller: who is calling a tool and where, never what they may do.

A Caller names a Person.id, the inbound property, the interaction and the channel. What the
person may do is their Authority (tools.authority), derived from the store: the process that
derived it may attach it to the Caller it builds (`Caller.of`), but it is private and never
serialized, so a Caller that crossed a process boundary carries none and the gate derives it
again. Nothing a Caller says is a claim the gate takes.
"""
from __future__ import annotations

import time

from pydantic import BaseModel, PrivateAttr

from spine.admin_access import OPERATOR
from spine.context import Channel
from spine.repo import Spine
from tools.authority import Authority, CallerFacts, derive_authority


class Caller(BaseModel):
    person_id: str | None
    property_id: str
    org_id: str | None
    interaction_id: str
    channel: Channel = Channel.SMS
    # Ask Clara as someone else: the signed-in staff Person's id (or OPERATOR). Like person_id it
    # names who, never what they may do: the gate derives this Person's authority from the store
    # too and allows only what both may do (tools/gate.py); the operator adds no cap.
    impersonated_by: str | None = None

    _authority: Authority | None = PrivateAttr(default=None)
    _impersonator: Caller | None = PrivateAttr(default=None)

    @classmethod
    def of(cls, authority: Authority, interaction_id: str, channel: Channel = Channel.SMS,
           impersonated_by: str | None = None) -> Caller:
        """The Caller of a derivation made in this process: the gate decides on it without
        asking the store again."""
        caller = cls(person_id=authority.person_id, property_id=authority.property_id, org_id=authority.org_id,
                     interaction_id=interaction_id, channel=channel, impersonated_by=impersonated_by)
        caller._authority = authority
        return caller

    def derived(self) -> Authority | None:
        """The authority derived for this Person here in this process, if any (whatever the
        public fields were changed to since, it must still be about them)."""
        authority = self._authority
        if authority is not None and (authority.person_id, authority.property_id) == (self.person_id,
                                                                                    self.property_id):
            return authority
        return None

    async def facts(self, spine: Spine) -> CallerFacts:
        """The gate's facts: the attached derivation's, else derived from the store once."""
        authority = self.derived()
        if authority is None:
            authority = self._authority = await derive_authority(spine, self.person_id, self.property_id, time.time())
        return authority.facts

    def impersonator(self) -> Caller | None:
        """The impersonating staff Person as a caller at the same property, in the same
        interaction: its authority is not given, so the gate derives it from the store (once per
        interaction: the Caller is kept here). None when nobody impersonates, or the operator does."""
        by = self.impersonated_by
        if by is None or by == OPERATOR or by == self.person_id:
            return None
        kept = self._impersonator
        if kept is None or (kept.person_id, kept.property_id, kept.interaction_id) != (by, self.property_id,
                                                                                      self.interaction_id):
            kept = self._impersonator = Caller(person_id=by, property_id=self.property_id, org_id=self.org_id,
                                               interaction_id=self.interaction_id, channel=self.channel)
        return kept


async def load_caller(spine: Spine, person_id: str | None, property_id: str, interaction_id: str,
                      channel: Channel = Channel.SMS, impersonated_by: str | None = None) -> Caller:
    """A Caller with its authority derived from the store now."""
    authority = await derive_authority(spine, person_id, property_id, time.time())
    return Caller.of(authority, interaction_id, channel, impersonated_by)
