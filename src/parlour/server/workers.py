"""Several server processes on one port: ``parlour serve --workers N``.

The command binds the port once, then the :class:`Supervisor` starts N server processes
(``multiprocessing``'s spawn) that inherit that one listening socket and accept from it in
turn, as uvicorn's own ``--workers`` does. One socket rather than ``SO_REUSEPORT``: the kernel
keeps one queue of connections for all of them, so a connection waiting for a process that
dies is accepted by another instead of being reset, a process started again needs no port of
its own, and the port is bound (and refused, when taken) once, in the supervisor. Each process
has its own hub, store connection and bot workers; they share the rooms through PostgreSQL
(:mod:`parlour.server.pgstore`: a refused append, ``LISTEN``/``NOTIFY``, presence).

The supervisor starts a process again when one dies, and on SIGTERM or Ctrl-C closes its copy
of the port and sends each process SIGTERM, which drains it (``parlour.cli.serve``): sockets
closed with 1012, requests in flight stored and answered. A process still running after
:data:`STOP_SECONDS` is killed. A process whose supervisor is gone (killed) stops by itself.

This module imports nothing of Parlour's but its log: a spawned server process imports what
it needs.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable
from multiprocessing import get_context, resource_tracker
from multiprocessing.connection import wait
from multiprocessing.process import BaseProcess
from typing import Any

from parlour.server.logs import event

__all__ = ["STOP_SECONDS", "Supervisor", "watch_parent"]

STOP_SECONDS = 9.0
"""How long the processes have to stop after SIGTERM before they are killed."""

RESTART_PAUSE = 1.0
"""A process that dies within this many seconds of its start is started again only after as
long (a process that cannot start at all does not spin the machine)."""


class Supervisor:
    """``count`` processes each running ``target(*args, supervisor_pid)``, ``sock`` their
    shared listening socket (closed here when they stop)."""

    def __init__(
        self,
        count: int,
        target: Callable[..., None],
        args: tuple[Any, ...],
        sock: socket.socket,
    ) -> None:
        self.count = count
        self.target = target
        self.args = args
        self.sock = sock
        self.context = get_context("spawn")

    def _start(self, index: int) -> tuple[BaseProcess, float]:
        process = self.context.Process(
            target=self.target,
            args=(*self.args, os.getpid()),
            name=f"parlour-server-{index}",
        )
        # Started with SIGINT blocked (kept across exec): a Ctrl-C while it imports is left to
        # this process, which stops them all; the child ignores SIGINT before unblocking it.
        # (Python's resource tracker first: starting it unblocks SIGINT in this thread.)
        resource_tracker.ensure_running()
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            process.start()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        return process, time.monotonic()

    def run(self) -> int:
        """Run until SIGTERM or SIGINT, then stop every process; the exit status (0)."""
        reader, writer = os.pipe()
        os.set_blocking(reader, False)
        os.set_blocking(writer, False)
        stopping: list[int] = []

        def on_signal(signum: int, frame: Any) -> None:
            stopping.append(signum)

        previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGINT, signal.SIGTERM)}
        wakeup = signal.set_wakeup_fd(writer)
        processes: dict[int, tuple[BaseProcess, float]] = {}
        try:
            for index in range(self.count):
                processes[index] = self._start(index)
            while not stopping:
                sentinels = {p.sentinel: k for k, (p, _) in processes.items()}
                ready = wait([reader, *sentinels], timeout=None)
                with contextlib.suppress(OSError):
                    os.read(reader, 512)
                for item in ready:
                    died = sentinels.get(item) if isinstance(item, int) else None
                    if died is None or stopping:
                        continue
                    process, began = processes[died]
                    process.join()
                    event(
                        "server.process_died",
                        logging.WARNING,
                        pid=process.pid,
                        status=process.exitcode,
                    )
                    if time.monotonic() - began < RESTART_PAUSE:
                        wait([reader], timeout=RESTART_PAUSE)  # a stop signal cuts it short
                        if stopping:
                            break
                    processes[died] = self._start(died)
            self._stop([p for p, _ in processes.values()])
        finally:
            signal.set_wakeup_fd(wakeup)
            for sig, handler in previous.items():
                signal.signal(sig, handler)
            os.close(reader)
            os.close(writer)
        return 0

    def _stop(self, processes: list[BaseProcess]) -> None:
        self.sock.close()  # with the processes' copies closed, new connections are refused
        for process in processes:
            if process.is_alive() and process.pid is not None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(process.pid, signal.SIGTERM)
        deadline = time.monotonic() + STOP_SECONDS
        for process in processes:
            process.join(max(0.0, deadline - time.monotonic()))
        for process in processes:
            if process.is_alive():
                event("server.process_killed", logging.WARNING, pid=process.pid)
                process.kill()
                process.join()


def watch_parent(parent: int) -> None:
    """In a server process: stop gracefully (SIGTERM to itself) once the supervisor ``parent``
    is gone, even killed with SIGKILL."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        with contextlib.suppress(OSError):
            sys.stderr.flush()
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=watch, name="parlour-supervisor-watch", daemon=True).start()
