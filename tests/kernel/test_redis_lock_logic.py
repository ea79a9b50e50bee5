"""Fast unit tests of the Redis lock's Lua protocol on fakeredis (no server).

The real-server behaviour (TTL expiry under load, a SIGKILLed holder, Redis restarts) is
proven in ``test_redis_lock.py``; these pin the token/fence rules of each script so a
change to one is caught in milliseconds, for every interleaving hypothesis tries.
"""

from __future__ import annotations

import fakeredis
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared.errors import LockHeld, LockLost
from shared.kernel.lock.redis_lock import RedisKernelLock


def fresh(ttl: float = 30.0) -> tuple[fakeredis.FakeRedis, RedisKernelLock]:
    client = fakeredis.FakeRedis()
    return client, RedisKernelLock(client, "unit", ttl=ttl, default_wait=0)


def test_second_acquire_is_refused_while_held() -> None:
    _, lock = fresh()
    first = lock.try_acquire("memory-weaver")
    assert first is not None
    assert lock.try_acquire("memory-committer") is None
    with pytest.raises(LockHeld, match="memory-weaver"), lock.hold("memory-committer"):
        pass


def test_fence_grows_on_every_acquisition_and_survives_release() -> None:
    _, lock = fresh()
    fences = []
    for _ in range(3):
        with lock.hold("w") as lease:
            fences.append(lease.fence)
    assert fences == [1, 2, 3]
    assert lock.holder() is None


def test_taken_over_lease_cannot_ensure_or_release_the_new_holder() -> None:
    client, lock = fresh()
    stale = lock.try_acquire("old")
    assert stale is not None
    client.delete(lock.key)  # the lease expired
    fresh_lease = lock.try_acquire("new")
    assert fresh_lease is not None and fresh_lease.fence == stale.fence + 1
    with pytest.raises(LockLost):
        stale.ensure()
    # The stale holder's release must not free the new holder's lock.
    assert lock._release_script(keys=[lock.key], args=[stale.token]) == 0
    holder = lock.holder()
    assert holder is not None and holder["owner"] == "new"
    fresh_lease.ensure()


def test_renew_refuses_a_foreign_token_or_an_outranked_fence() -> None:
    client, lock = fresh()
    lease = lock.try_acquire("w")
    assert lease is not None
    assert lock._renew(lease.token, lease.fence)
    assert not lock._renew("not-the-token", lease.fence)
    client.incr(lock.fence_key)  # someone acquired after a lost key: this fence is old
    assert not lock._renew(lease.token, lease.fence)
    with pytest.raises(LockLost):
        lease.ensure()


def test_acquire_sets_a_ttl_in_milliseconds() -> None:
    client, lock = fresh(ttl=2.5)
    assert lock.try_acquire("w") is not None
    assert 0 < client.pttl(lock.key) <= 2500


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["acquire", "expire", "release"]), min_size=1, max_size=25))
def test_at_most_one_lease_ensures_at_any_time(ops: list[str]) -> None:
    """Whatever the order of acquisitions, expiries and releases, only the newest holds."""
    client, lock = fresh()
    leases = []
    for op in ops:
        if op == "acquire":
            lease = lock.try_acquire("w")
            if lease is not None:
                leases.append(lease)
        elif op == "expire":
            client.delete(lock.key)
        elif leases:
            lock._release_script(keys=[lock.key], args=[leases[-1].token])
        valid = []
        for lease in leases:
            try:
                lease.ensure()
            except LockLost:
                continue
            valid.append(lease.fence)
        assert len(valid) <= 1
        if valid:
            assert valid[0] == max(lease.fence for lease in leases)
