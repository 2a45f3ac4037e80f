"""Coordination in Redis between the processes that rebuild boards.

* **Locks** (:func:`lock`, :func:`renew`, :func:`unlock`): ``SET NX EX`` with an owner token,
  so only the holder renews or releases one, and a holder that dies frees it when it expires.
* **The epoch marker** ``lb:epoch``: Redis may lose everything at once (restarted empty,
  flushed) while readers never ask for some boards again. The marker is set when the live
  boards were restored from PostgreSQL, so its absence means "Redis lost its boards (or
  never had them)". :func:`claim_restore` takes it (``SET NX``, with an expiry so a
  restorer that dies lets the next one try) and :func:`finish_restore` makes it permanent
  only if no flush took it meanwhile.
"""

from __future__ import annotations

import uuid

from .store import StoreUnavailable, client, guarded, prefix, script


def lock(name: str, seconds: int) -> str | None:
    """Take a short named lock (``SET NX EX``); its token, or None if someone holds it or
    Redis is down. A holder that dies frees it after ``seconds``; a long holder renews it
    (:func:`renew`)."""
    token = uuid.uuid4().hex
    try:
        with guarded():
            if client().set(f"{prefix()}lock:{name}", token, nx=True, ex=seconds):
                return token
    except StoreUnavailable:
        pass
    return None


# Renew (ARGV[2] > 0: seconds) or release (0) a lock only while it holds the caller's token:
# an expired lock may already be someone else's.
_OWN_LOCK = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if tonumber(ARGV[2]) > 0 then return redis.call('EXPIRE', KEYS[1], ARGV[2]) end
return redis.call('DEL', KEYS[1])
"""


def renew(name: str, token: str, seconds: int) -> bool:
    """Extend a lock this caller holds; False if it expired (or Redis is down)."""
    try:
        with guarded():
            keys = [f"{prefix()}lock:{name}"]
            return bool(script("own_lock", _OWN_LOCK)(keys=keys, args=[token, seconds]))
    except StoreUnavailable:
        return False


def unlock(name: str, token: str) -> None:
    try:
        with guarded():
            script("own_lock", _OWN_LOCK)(keys=[f"{prefix()}lock:{name}"], args=[token, 0])
    except StoreUnavailable:
        pass


def epoch_key() -> str:
    return f"{prefix()}epoch"


def claim_restore(seconds: int) -> str | None:
    """A token if Redis has no epoch marker (it lost its boards, or never had any) and this
    caller now holds the restore for ``seconds``; None if the marker is there."""
    token = f"restoring:{uuid.uuid4().hex}"
    with guarded():
        if client().set(epoch_key(), token, nx=True, ex=seconds):
            return token
    return None


# Make the marker permanent only if it still holds this restorer's token: a flush during
# the restore removed it, and then the next check must restore again.
_FINISH_RESTORE = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
return 1
"""


def finish_restore(token: str, when: str) -> bool:
    """Mark the restore done (the marker's value becomes ``done:<when>``); False if the
    marker vanished meanwhile."""
    with guarded():
        done = script("finish_restore", _FINISH_RESTORE)(
            keys=[epoch_key()], args=[token, f"done:{when}"]
        )
    return bool(done)


def abandon_restore(token: str) -> None:
    """Give the marker back after a failed restore, so the next check tries again."""
    try:
        with guarded():
            script("own_lock", _OWN_LOCK)(keys=[epoch_key()], args=[token, 0])
    except StoreUnavailable:
        pass
