"""Starlette's server websocket as the bridge's TextSocket (Serve hands routes Starlette sockets)."""
from __future__ import annotations

from starlette.websockets import WebSocket, WebSocketState

from gateway.voice.bridge import SocketClosed


class StarletteTextSocket:
    def __init__(self, websocket: WebSocket) -> None:
        self.websocket = websocket

    async def recv(self) -> str | bytes:
        message = await self.websocket.receive()
        if message["type"] == "websocket.disconnect":
            raise SocketClosed(message.get("code"))
        return message.get("text") or message.get("bytes") or ""

    async def send(self, message: str) -> None:
        try:
            await self.websocket.send_text(message)
        except (RuntimeError, OSError) as exc:  # sending after the peer left
            raise SocketClosed(str(exc)) from exc

    async def close(self, code: int = 1000, reason: str = "") -> None:
        if self.websocket.application_state == WebSocketState.CONNECTED and \
                self.websocket.client_state == WebSocketState.CONNECTED:
            await self.websocket.close(code, reason)
