"""Publishing an event: ``XADD`` to the channel's stream (bounded), from any process.

Publishing is best effort: with Redis down (or the process's breaker open) the event is
dropped with a log line. Clients lose nothing they cannot re-read: a stream that cannot
reach Redis tells them to poll the board instead (docs/live.md, "Degradation").
"""

from __future__ import annotations

import json
import logging
from typing import Any

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder

from config.redis_guard import RedisUnavailable, client, guarded

from . import channels

log = logging.getLogger(__name__)


def encode(data: Any) -> str:
    return json.dumps(data, cls=DjangoJSONEncoder, separators=(",", ":"), ensure_ascii=False)


def publish(channel: str, event: str, data: dict[str, Any]) -> str | None:
    """Append ``event`` to ``channel``; its stream id, or None when Redis is unavailable."""
    if not getattr(settings, "REDIS_URL", ""):
        return None
    try:
        with guarded():
            pipe = client().pipeline(transaction=False)
            pipe.xadd(
                channel,
                {"event": event, "data": encode(data)},
                maxlen=settings.REALTIME_HISTORY,
                approximate=True,
            )
            pipe.expire(channel, channels.ttl_of(channel))
            added, _ = pipe.execute()
    except RedisUnavailable as error:
        log.info("realtime: %s event on %s dropped: %s", event, channel, error)
        return None
    return added.decode() if isinstance(added, bytes) else str(added)
