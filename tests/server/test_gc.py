"""What rooms leaving memory leave behind is freed by reference counting alone, without the
garbage collector (issue 27, point 1: the full collection that gives back what reference cycles
hold stops the event loop for a time that grows with the rooms held, so the fewer cycles the
server makes, the less that collection has to find).

Checked in process with the collector off: an eviction called off because a socket came back
(a cancelled task, whose exception's traceback holds its frame), an eviction done, and the room
that left memory, each gone as soon as the last reference to it goes."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from parlour.server.hub import Conn, Hub, Settings
from parlour.server.protocol import Bucket
from tests.server.test_clock import FakeTime, Table, run, settle

IDLE = 60.0


@contextmanager
def collector_off() -> Iterator[None]:
    was = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def test_evictions_and_rooms_that_left_memory_are_freed_without_the_collector(
    tmp_path: Path,
) -> None:
    async def work() -> None:
        fake = FakeTime()
        table = Table(tmp_path / "rooms.db", fake)
        settings = Settings(takeover=3600.0, bot_delay=0.0, bot_workers=0, room_idle=IDLE)
        hub = table.hub = Hub(table.store, settings, fake)
        await hub.start()
        try:
            with collector_off():
                room = await table.make(["person", "person"], {}, game="beor", name="r1")
                sent: list[object] = []  # what the socket is sent (no cycle of the test's own)
                ann = Conn("r1", 0, sent.append, Bucket(1000.0, 1000))
                await hub.join(room, ann)
                hub.leave(room, ann)
                await settle()
                task = hub.memory.evicting["r1"]
                first = weakref.ref(task)
                await hub.join(room, ann)  # back within the idle time: that eviction is
                hub.leave(room, ann)  # called off, and a new one waits
                await settle(task.done)
                assert task.cancelled()
                del task
                assert first() is None, "a called-off eviction is freed at once"

                task = hub.memory.evicting["r1"]
                second = weakref.ref(task)
                gone = weakref.ref(room)
                del room, ann
                fake.advance(IDLE)
                await settle(task.done)
                del task
                assert "r1" not in hub.rooms
                assert second() is None, "an eviction done is freed at once"
                assert gone() is None, "the room that left memory is freed at once"
        finally:
            await hub.stop()

    run(work)
