"""The direct path ends a stream when its client hangs up, even while the stream is silent:
the body's generator is closed (its ``finally`` leaves the channel), and a HEAD never
starts it (config.direct_asgi)."""

from __future__ import annotations

import asyncio

from django.http import StreamingHttpResponse

from config.direct_asgi import _send_response


def _silent_stream(log: list[str]) -> StreamingHttpResponse:
    async def body():
        log.append("subscribed")
        try:
            yield "retry: 1000\n\n"
            await asyncio.sleep(3600)  # a quiet channel
            yield "never"
        finally:
            log.append("left")

    return StreamingHttpResponse(body(), content_type="text/event-stream")


async def _serve(head: bool, log: list[str]) -> list[dict]:
    sent: list[dict] = []

    async def receive() -> dict:
        await asyncio.sleep(0.2)
        return {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        sent.append(message)

    await asyncio.wait_for(_send_response(_silent_stream(log), head, receive, send), 5)
    return sent


def test_a_hang_up_closes_a_silent_stream():
    log: list[str] = []
    sent = asyncio.run(_serve(False, log))
    assert log == ["subscribed", "left"]
    assert sent[0]["type"] == "http.response.start" and sent[0]["status"] == 200
    assert sent[1]["body"] == b"retry: 1000\n\n"


def test_head_never_starts_the_stream():
    log: list[str] = []
    sent = asyncio.run(_serve(True, log))
    assert log == []
    assert [m["type"] for m in sent] == ["http.response.start", "http.response.body"]
    assert sent[1]["body"] == b""
