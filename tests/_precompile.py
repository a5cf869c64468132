"""Compile the games' numba kernels once, while pytest's workers start (tests/conftest.py).

Every kernel is ``cache=True``: numba keeps its machine code beside the sources
(``__pycache__/*.nbi`` and ``*.nbc``) and a later process loads it in well under a second. On a
fresh clone that cache is empty, and every xdist worker whose first test needed a kernel
compiled the same kernel at the same time as the others: Beggar-My-Neighbour's took 34 to 70 s
inside ``tests/test_cli.py::TestStats::test_json_figures`` with three workers on two cores.

So the controller starts this module in the background (:func:`start`) before the workers
start. It compiles the kernels by playing a few games through the routes the tests call: the
bots' compiled playouts (:func:`parlour.bots.warm_up`) and the lab's kernel (``--engine fast``)
of every game, found game-agnostically, then the entries of a game's ``fast`` module that the
lab does not reach (:data:`EXTRAS`); Beggar-My-Neighbour in a process of its own, the other
games in another, side by side. Its process holds an exclusive lock on a file until every game
is compiled; each worker, once it has collected the tests, takes that lock shared (:func:`wait`),
so the workers collect while the kernels compile and run no test before they are in the cache.
A run of sources already compiled (:data:`DONE`) starts nothing.

``python -m tests._precompile`` runs it by hand and says what each game took;
``python -m tests._precompile GAME ...`` compiles those games' kernels in this process.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

LOCK_ENV = "PARLOUR_PRECOMPILE_LOCK"
"""The lock file's path, which the workers inherit from the controller's environment."""

DONE = ROOT / "build" / "numba-precompiled"
"""The :func:`stamp` of the sources whose kernels the cache was last seen to hold: a later run
of the same sources starts no compilation (a few seconds of processor time saved)."""

TIMEOUT = 300.0
"""The longest a game's compilation may take (a fresh clone's slowest, Beggar-My-Neighbour's,
takes about 25 s of processor time); past it the game's tests compile what they need."""


def _beggar() -> None:
    """Beggar-My-Neighbour's ``fast`` module, as its tests, ``stats`` and the search use it."""
    from parlour.games.beggar import fast

    for players in (2, 3, 4):
        deals = fast.random_deals(players, 2, 1)
        for options in (None, {"card_limit": 500}):
            fast.play_deals(deals, options)
            fast.play_deals(deals, options, bit_planes=False)
            fast.play_random(players, 2, 1, options)
        fast.play_deals(deals, {"card_limit": 500}, detect_loops=False)
        fast.climb(players, 1, 0, 1, max_plays=2, patience=1)
    deal = "--Q-K--K-AQ-------J--A-J--/------Q-----JA---AKQ---K-J"
    fast.backward_deals(deal, tricks=2, budget=20, depth=2)


def _beor() -> None:
    """BEOR's kernel as ``fast.play_games`` plays it for each player count."""
    from parlour.games.beor import fast
    from parlour.games.beor.options import BeorOptions

    for players in range(2, 5):
        fast.play_games(players, 1, tuple(fast.AGENTS), BeorOptions(), [0, 1])


def _death() -> None:
    """The Game of Death's step functions (``playout.py``), which its tests call one by one."""
    import numpy as np

    from parlour.games.death import playout
    from parlour.games.death.game import DeathGame
    from parlour.games.death.rules import DeathState

    def new(players: int, seed: int) -> DeathState:
        state = DeathGame().new(players, seed)
        assert isinstance(state, DeathState)
        return state

    state = new(4, 3)
    w = playout.encode(state)
    codes = playout.legal_codes(w)
    playout.heuristic_code(w)
    playout.random_code(w, 12345)
    playout.table(w)
    playout.apply_code(w, codes[0])
    positions = np.stack([playout.encode(state), playout.encode(new(5, 4))])
    playout.play_many(positions, 1, 50, True)
    playout.play_many(positions, 1, 50, False)


EXTRAS: dict[str, Callable[[], None]] = {"beggar": _beggar, "beor": _beor, "death": _death}
"""What a game's tests compile beyond its lab kernel and playouts."""

ALONE = ("beggar",)
"""Games compiled in a process of their own: Beggar-My-Neighbour's kernels take about as long
as all the others' together (numba compiles one function at a time in a process)."""


def compile_game(name: str) -> None:
    """Compile (or load) the kernels of the game ``name``: its compiled playouts, its lab
    kernel for every agent it plays, then its :data:`EXTRAS`."""
    from parlour.bots import warm_up
    from parlour.games import find_game
    from parlour.lab.figures import kernel_for
    from parlour.lab.run import RunSpec, play_batch

    game = find_game(name)
    warm_up(game, background=False)
    kernel = kernel_for(game)
    if kernel is not None:
        agents = tuple(sorted(kernel.agents))
        spec = RunSpec(name, game.info.min_players, agents, 4, 1, engine="fast").checked()
        play_batch(json.dumps(spec.to_json()), range(4))
    extra = EXTRAS.get(name)
    if extra is not None:
        extra()


def stamp() -> str:
    """What the kernels compiled in the cache depend on: the sources of ``src`` (a kernel
    inlines modules of its own and of :mod:`parlour.core`), this module, numba's and Python's
    versions, numba's cache folder and the index files in it (one removed, and the kernels
    are compiled again)."""
    sha = hashlib.sha256()
    for path in [*sorted((ROOT / "src").rglob("*.py")), Path(__file__)]:
        sha.update(str(path.relative_to(ROOT)).encode())
        sha.update(path.read_bytes())
    cache = os.environ.get("NUMBA_CACHE_DIR", "")
    for path in sorted(Path(cache or ROOT / "src").rglob("*.nbi")):
        sha.update(str(path).encode())
    sha.update(version("numba").encode())
    sha.update(sys.version.encode())
    sha.update(cache.encode())
    return sha.hexdigest()


def compile_all() -> dict[str, tuple[int | None, float]]:
    """Compile every game's kernels: the games of :data:`ALONE` in a process each, the other
    games together in one more, all at once; each process's exit status (None: stopped after
    :data:`TIMEOUT`) and the seconds it took. When every one succeeds, :data:`DONE` keeps the
    :func:`stamp` they compiled. A game that fails is left to its tests, which compile what they
    need and report the failure."""
    started = time.monotonic()
    groups = [*([name] for name in ALONE), ["--others"]]
    procs = {
        " ".join(group): subprocess.Popen(
            [sys.executable, "-m", "tests._precompile", *group],
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for group in groups
    }

    def ended(proc: subprocess.Popen[bytes]) -> tuple[int | None, float]:
        try:
            code: int | None = proc.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            code = None
        return code, time.monotonic() - started

    with ThreadPoolExecutor(max_workers=len(procs)) as pool:
        done = dict(zip(procs, pool.map(ended, procs.values()), strict=True))
    if all(code == 0 for code, _ in done.values()):
        DONE.parent.mkdir(parents=True, exist_ok=True)
        DONE.write_text(stamp())
    return done


def start(lock: Path) -> subprocess.Popen[bytes] | None:
    """Start :func:`compile_all` in the background, holding an exclusive lock on ``lock`` (which
    this call takes before it returns, so that no worker can take it first) until it ends; None
    when :data:`DONE` says the cache already holds these sources' kernels."""
    try:
        if DONE.read_text() == stamp():
            return None
    except FileNotFoundError:
        pass
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        # The child inherits the open file and with it the lock; this process's copy closes.
        return subprocess.Popen(
            [sys.executable, "-m", "tests._precompile", "--all"],
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            pass_fds=(fd,),
            start_new_session=True,  # its own process group, which pytest_unconfigure can stop
        )
    finally:
        os.close(fd)


def wait() -> None:
    """Return once the compilation :func:`start` began is over (at once when none was begun):
    the lock is free when its process has ended, however it ended."""
    path = os.environ.get(LOCK_ENV)
    if not path:
        return
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_SH)
    finally:
        os.close(fd)


def main(args: list[str]) -> int:
    if args == ["--all"]:
        compile_all()
        return 0
    if not args:
        for group, (code, seconds) in compile_all().items():
            print(f"{group}: exit {code}, done after {seconds:.1f} s")
        return 0
    if args == ["--others"]:
        from parlour.games import load_games

        args = [name for name in load_games() if name not in ALONE]
    for name in args:
        started = time.monotonic()
        compile_game(name)
        print(f"{name}: {time.monotonic() - started:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
