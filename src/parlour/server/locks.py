"""One lock per room, held in memory only while it is used (issue 27, point 1).

The hub serializes the work on a room (loading it, folding a request, a clock running out)
under that room's lock. A lock nobody holds or waits for is worth nothing, so it is made when
the first user comes and dropped when the last one leaves: a room id that was only looked up
(a made-up one included, however long) or a room that has left memory leaves no lock behind,
and every user of one room at a time shares the same lock.
"""

from __future__ import annotations

import asyncio
from contextlib import AbstractAsyncContextManager
from types import TracebackType

__all__ = ["RoomLocks"]


class _Entry:
    __slots__ = ("lock", "users")

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.users = 0
        """Holders and waiters: the entry is dropped when this comes back to 0."""


class _Held:
    """``async with locks(key)``: the lock of ``key`` held for the block."""

    __slots__ = ("_entry", "_key", "_locks")

    def __init__(self, locks: RoomLocks, key: str) -> None:
        self._locks, self._key = locks, key
        self._entry: _Entry | None = None

    async def __aenter__(self) -> None:
        entry = self._locks.take(self._key)
        try:
            await entry.lock.acquire()
        except BaseException:  # cancelled while waiting
            self._locks.give_back(self._key, entry)
            raise
        self._entry = entry

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        entry, self._entry = self._entry, None
        assert entry is not None
        entry.lock.release()
        self._locks.give_back(self._key, entry)


class RoomLocks:
    """The locks of the rooms in use: ``async with locks(room_id): ...``; ``len`` counts the
    locks held in memory (each one held or waited for)."""

    def __init__(self) -> None:
        self._entries: dict[str, _Entry] = {}

    def __call__(self, key: str) -> AbstractAsyncContextManager[None]:
        return _Held(self, key)

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: object) -> bool:
        return key in self._entries

    def locked(self, key: str) -> bool:
        """Whether someone holds the lock of ``key`` now."""
        entry = self._entries.get(key)
        return entry is not None and entry.lock.locked()

    def take(self, key: str) -> _Entry:
        entry = self._entries.get(key)
        if entry is None:
            entry = self._entries[key] = _Entry()
        entry.users += 1
        return entry

    def give_back(self, key: str, entry: _Entry) -> None:
        entry.users -= 1
        if entry.users == 0 and self._entries.get(key) is entry:
            del self._entries[key]
