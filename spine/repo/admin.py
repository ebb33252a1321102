"""Spine methods of admin access records (spine/admin_access.py): tokens and sessions, each under
the hash of its secret and indexed by whom it signs in as, so revoking a person ends all of both.
A mixin of `Spine` (spine/repo/__init__.py), like repo_records."""
from __future__ import annotations

import spine.keys as keys
from spine.admin_access import AdminSession, AdminToken, secret_hash
from spine.repo.base import RepoBase


class AdminRecords(RepoBase):
    async def put_admin_token(self, token: AdminToken) -> None:
        await self._put(token, keys.admin_token(token.token_hash), gsi1pk=keys.admin_tokens_of(token.person_id),
                        gsi1sk=token.created_at.isoformat())

    async def admin_token(self, token: str) -> AdminToken | None:
        return await self._get(AdminToken, keys.admin_token(secret_hash(token)))

    async def admin_token_of_hash(self, token_hash: str) -> AdminToken | None:
        """The token record a session was opened with (sessions hold the token's hash)."""
        return await self._get(AdminToken, keys.admin_token(token_hash))

    async def admin_tokens_of(self, person_id: str) -> list[AdminToken]:
        return await self._index(AdminToken, keys.admin_tokens_of(person_id))

    async def put_admin_session(self, session: AdminSession) -> None:
        await self._put(session, keys.admin_session(session.session_hash), gsi1pk=keys.admin_sessions_of(session.identity),
                        gsi1sk=session.created_at.isoformat())

    async def admin_session(self, session_id: str) -> AdminSession | None:
        return await self._get(AdminSession, keys.admin_session(secret_hash(session_id)))

    async def end_admin_session(self, session_id: str) -> None:
        await self.store.delete(keys.admin_session(secret_hash(session_id)))

    async def revoke_admin_access(self, person_id: str) -> int:
        """Revoke every token of the person and end their sessions; how many tokens were live."""
        live = 0
        for token in await self.admin_tokens_of(person_id):
            live += token.usable()
            if not token.revoked:
                await self.put_admin_token(token.model_copy(update={"revoked": True}))
        for session in await self._index(AdminSession, keys.admin_sessions_of(person_id)):
            await self.store.delete(keys.admin_session(session.session_hash))
        return live
