"""Redis sorted sets: one per board, a fast and disposable copy of PostgreSQL's order.

A board's key is ``lb:{<board>:<kind>:<period>}`` (the braces are a Redis Cluster hash tag,
so a board and its rebuild buffer live in the same slot). Its members are play ids (daily)
or zero-padded player ids (weekly, all-time) and its scores the sort keys of
:mod:`leaderboard.ranking`, lower is better. Each complete board also holds the *sentinel*
member ``~`` at ``+inf``: it sorts after every real entry (so ranks are untouched) and it
disappears with the key, so "the key exists" means "this board was built completely". A
flushed, evicted or never-built board has no key; readers then answer from PostgreSQL and a
rebuild is scheduled (:mod:`leaderboard.boards`). Writers add to a board only if its key
exists (``ZADD … LT``, in one script), so they never create a partial board.

Next to each sorted set, the hash ``<key>:info`` maps a member to its entry's details
(``username|won|cards|moves|seconds|undos|finished_at`` or ``username|wins|points|plays``),
so a page is one Redis round trip and no database query; on a daily board it also maps
``@<player id>`` to the player's member, so ``around=me`` needs no query either. A member
whose details are missing is completed from PostgreSQL by the reader.

Redis may also lose everything at once (restarted empty, flushed): the epoch marker and the
locks of :mod:`leaderboard.locks` tell and coordinate the rebuilds.

Every call here raises :class:`StoreUnavailable` when Redis is not configured or not
answering; callers fall back to PostgreSQL.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import redis
from django.conf import settings

from config import redis_guard

SENTINEL = "~"
_local = threading.local()


class StoreUnavailable(Exception):
    """Redis is not configured, or it failed to answer."""


def prefix() -> str:
    return settings.LEADERBOARD_REDIS_PREFIX


def board_key(kind: str, board: str, period: str) -> str:
    return f"{prefix()}{{{board}:{kind}:{period}}}"


def info_key(key: str) -> str:
    """The hash of a board's entry details (same hash slot as the board)."""
    return f"{key}:info"


def _client() -> redis.Redis:
    url = getattr(settings, "REDIS_URL", "") or ""
    if not url:
        raise StoreUnavailable("REDIS_URL is not set")
    cached = getattr(_local, "client", None)
    if cached is None or cached[0] != url:
        # The short timeouts of every Redis client here (config.redis_guard), no retries.
        client = redis.Redis.from_url(
            url, decode_responses=True, protocol=2, **redis_guard.options_from_settings()
        )
        _local.client = cached = (url, client)
    return cached[1]


def outage_known() -> bool:
    """Has this process's circuit breaker already reported Redis down (and logged it)?"""
    return redis_guard.breaker.is_open


@contextmanager
def guarded() -> Iterator[None]:
    """Redis calls under the process's circuit breaker: a Redis that failed a moment ago
    is not waited on again (:mod:`config.redis_guard`); any failure is StoreUnavailable."""
    try:
        with redis_guard.guarded():
            yield
    except redis_guard.RedisUnavailable as error:
        raise StoreUnavailable(str(error)) from error


def client() -> redis.Redis:
    """The Redis client (one per thread); :class:`StoreUnavailable` if not configured."""
    return _client()


def configured() -> bool:
    return bool(getattr(settings, "REDIS_URL", ""))


# Add each (key, member, score, info) to its board if the board exists; return the missing
# keys. The details are written when the score changed (ZADD LT CH) or were absent, so a
# stale, late write changes neither.
_PUSH = """
local missing = {}
for i = 1, #KEYS / 2 do
  local key, info_key = KEYS[2 * i - 1], KEYS[2 * i]
  local member, score, info, alias = ARGV[4 * i - 3], ARGV[4 * i - 2], ARGV[4 * i - 1], ARGV[4 * i]
  if redis.call('EXISTS', key) == 1 then
    local changed = redis.call('ZADD', key, 'LT', 'CH', score, member)
    if changed == 1 then
      redis.call('HSET', info_key, member, info)
    else
      redis.call('HSETNX', info_key, member, info)
    end
    if alias ~= '' then redis.call('HSET', info_key, alias, member) end
  else
    table.insert(missing, key)
  end
end
return missing
"""


# Set each (key, member) to exactly this score and details, or remove it (an empty score),
# if the board exists; return the missing keys. For moderation (leaderboard.moderation):
# hiding a play makes totals worse, which `ZADD LT` would refuse. A removed member's
# `@<player id>` alias goes only if it still names that member.
_REPLACE = """
local missing = {}
for i = 1, #KEYS / 2 do
  local key, info_key = KEYS[2 * i - 1], KEYS[2 * i]
  local member, score, info, alias = ARGV[4 * i - 3], ARGV[4 * i - 2], ARGV[4 * i - 1], ARGV[4 * i]
  if redis.call('EXISTS', key) == 1 then
    if score == '' then
      redis.call('ZREM', key, member)
      redis.call('HDEL', info_key, member)
      if alias ~= '' and redis.call('HGET', info_key, alias) == member then
        redis.call('HDEL', info_key, alias)
      end
    else
      redis.call('ZADD', key, score, member)
      redis.call('HSET', info_key, member, info)
      if alias ~= '' then redis.call('HSET', info_key, alias, member) end
    end
  else
    table.insert(missing, key)
  end
end
return missing
"""


# A page of a board. ARGV: mode, size, score, member.
#   first  : the first `size` entries
#   after  : the `size` entries after (score, member)
#   before : the `size` entries before (score, member)
#   around : (member, or `@<player id>` on a daily board), `size` entries before it and
#            `size` + 1 after it (the last one only tells whether more follow)
# Returns false if the board is not built, else {start, mine, m1, s1, i1, m2, s2, i2, ...}:
# start is the 0-based position of the first entry (-1 for `around` when the member is
# absent), mine the position of `around`'s member (else -1), then each member, its score and
# its details (false if missing).
_PAGE = """
local key = KEYS[1]
if redis.call('EXISTS', key) == 0 then return false end
local mode, size = ARGV[1], tonumber(ARGV[2])
local function before(score, member, inclusive)
  local n = redis.call('ZCOUNT', key, '-inf', '(' .. score)
  local same = redis.call('ZRANGE', key, score, score, 'BYSCORE')
  for _, m in ipairs(same) do
    if m < member or (inclusive and m == member) then n = n + 1 end
  end
  return n
end
local start, stop, mine = 0, 0, -1
if mode == 'first' then
  start, stop = 0, size - 1
elseif mode == 'after' then
  local p = before(ARGV[3], ARGV[4], true)
  start, stop = p, p + size - 1
elseif mode == 'before' then
  stop = before(ARGV[3], ARGV[4], false) - 1
  start = math.max(0, stop - size + 1)
  if stop < 0 then return {0, -1} end
else
  local member = ARGV[4]
  if string.sub(member, 1, 1) == '@' then
    member = redis.call('HGET', KEYS[2], member)
    if not member then return {-1, -1} end
  end
  local r = redis.call('ZRANK', key, member)
  if not r then return {-1, -1} end
  start, stop, mine = math.max(0, r - size), r + size + 1, r
end
local out = {start, mine}
local items = redis.call('ZRANGE', key, start, stop, 'WITHSCORES')
local members = {}
for i = 1, #items, 2 do
  if items[i] ~= '~' then table.insert(members, items[i]) end
end
local infos = {}
if #members > 0 then infos = redis.call('HMGET', KEYS[2], unpack(members)) end
local j = 0
for i = 1, #items, 2 do
  if items[i] ~= '~' then
    j = j + 1
    table.insert(out, items[i])
    table.insert(out, items[i + 1])
    table.insert(out, infos[j])
  end
end
return out
"""


@dataclass(frozen=True)
class Page:
    start: int  # 0-based position of the first entry (-1: `around` member absent)
    entries: list[tuple[int, str]]  # (sort key, member)
    infos: list[str | None] | None = None  # details per entry, when Redis had them
    mine: int = -1  # `around`: the position of the caller's entry


def script(name: str, text: str):
    scripts = getattr(_local, "scripts", None)
    if scripts is None:
        _local.scripts = scripts = {}
    conn = _client()
    entry = scripts.get(name)
    if entry is None or entry[0] is not conn:
        entry = (conn, conn.register_script(text))
        scripts[name] = entry
    return entry[1]


def push(items: Iterable[tuple[str, str, int, str, str]]) -> list[str]:
    """Add (key, member, sort key, details, alias) to each existing board; return the keys
    that are missing. ``alias`` (``@<player id>`` or "") names the member in the details."""
    items = list(items)
    if not items:
        return []
    argv: list[str] = []
    for _, member, score, info, alias in items:
        argv += [member, str(score), info, alias]
    keys = [k for item in items for k in (item[0], info_key(item[0]))]
    with guarded():
        return list(script("push", _PUSH)(keys=keys, args=argv))


def replace(items: Iterable[tuple[str, str, int | None, str, str]]) -> list[str]:
    """Set (key, member, sort key, details, alias) exactly on each existing board, or remove
    the member where the sort key is None; return the keys that are missing."""
    items = list(items)
    if not items:
        return []
    argv: list[str] = []
    for _, member, score, info, alias in items:
        argv += [member, "" if score is None else str(score), info, alias]
    keys = [k for item in items for k in (item[0], info_key(item[0]))]
    with guarded():
        return list(script("replace", _REPLACE)(keys=keys, args=argv))


def page(key: str, mode: str, size: int, score: int | None = None, member: str = "") -> Page | None:
    """A page of a built board, or None if the board is not built (flushed, evicted, new)."""
    args = [mode, size, "" if score is None else str(score), member]
    with guarded():
        reply = script("page", _PAGE)(keys=[key, info_key(key)], args=args)
    if reply is None:
        return None
    start, mine = int(reply[0]), int(reply[1])
    entries = [(int(float(reply[i + 1])), reply[i]) for i in range(2, len(reply), 3)]
    infos = [reply[i + 2] for i in range(2, len(reply), 3)]
    return Page(start, entries, infos, mine)


def exists(key: str) -> bool:
    with guarded():
        return bool(_client().exists(key))


def exist(keys: Iterable[str]) -> list[bool]:
    """Which of ``keys`` exist (one pipelined round trip; a key per hash slot in a cluster)."""
    keys = list(keys)
    if not keys:
        return []
    with guarded():
        pipe = _client().pipeline(transaction=False)
        for key in keys:
            pipe.exists(key)
        return [bool(found) for found in pipe.execute()]


# Swap a complete rebuild in, atomically, only if the buffers still hold every entry.
_FINISH_BUILD = """
local count, fields = tonumber(ARGV[1]), tonumber(ARGV[3])
if redis.call('ZCARD', KEYS[1]) ~= count or redis.call('HLEN', KEYS[2]) ~= fields then
  redis.call('UNLINK', KEYS[1], KEYS[2])
  return 0
end
redis.call('ZADD', KEYS[1], 'inf', '~')
-- UNLINK frees the old board in the background; RENAME over it would free it inline.
redis.call('UNLINK', KEYS[3], KEYS[4])
if count > 0 then redis.call('RENAME', KEYS[2], KEYS[4]) end
redis.call('RENAME', KEYS[1], KEYS[3])
local ttl = tonumber(ARGV[2])
if ttl > 0 then
  redis.call('EXPIRE', KEYS[3], ttl)
  if count > 0 then redis.call('EXPIRE', KEYS[4], ttl) end
end
return 1
"""


def build(
    key: str,
    entries: Iterable[tuple[int, str, str, str]],
    ttl: int = 0,
    batch: int = 10_000,
    keep_alive: Callable[[], object] | None = None,
) -> int:
    """Replace the board ``key`` with ``entries`` (sort key, member, details, alias)
    atomically; return the count. ``ttl`` (seconds, 0 = none) lets boards of the past expire;
    ``keep_alive`` is called after each batch (it renews the caller's lock).

    The entries go to buffer keys first; one script then checks that the buffers still hold
    every entry (a FLUSHDB may have hit them), adds the sentinel and renames both into
    place: readers see the old board (or none) until the new one is complete.
    """
    conn = _client()
    tmp, tmp_info = f"{key}:build", f"{key}:info:build"
    count = 0
    with guarded():
        conn.unlink(tmp, tmp_info)
        scores: dict[str, int] = {}
        infos: dict[str, str] = {}

        def flush() -> None:
            pipe = conn.pipeline(transaction=False)
            pipe.zadd(tmp, scores)
            pipe.hset(tmp_info, mapping=infos)
            pipe.execute()
            if keep_alive is not None:
                keep_alive()  # renew the rebuild's lock batch by batch

        fields = 0
        for score, member, info, alias in entries:
            scores[member] = score
            infos[member] = info
            if alias:
                infos[alias] = member
            if len(scores) >= batch:
                flush()
                count, fields = count + len(scores), fields + len(infos)
                scores, infos = {}, {}
        if scores:
            flush()
            count, fields = count + len(scores), fields + len(infos)
        done = script("finish", _FINISH_BUILD)(
            keys=[tmp, tmp_info, key, info_key(key)], args=[count, int(ttl), fields]
        )
    if not done:  # the buffers were flushed or evicted meanwhile: leave the board unbuilt
        raise StoreUnavailable(f"the rebuild buffers of {key} vanished")
    return count


def delete_all() -> int:
    """Delete every board key under the prefix (tests, and ``rebuild_leaderboards --clear``)."""
    conn = _client()
    removed = 0
    with guarded():
        for key in conn.scan_iter(match=f"{prefix()}*", count=1000):
            removed += conn.unlink(key)
    return removed
