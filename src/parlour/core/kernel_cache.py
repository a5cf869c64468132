"""numba's cache of a compiled kernel, checked against the whole kernel.

numba checks a cached function against the source of its own module only, but a kernel's
functions inline and call one another across modules (a game's trick in
``_engine.py`` is compiled into the batches of ``_batch.py``; both games' kernels inline the
generator of :mod:`parlour.core.splitmix`): after a change to one module alone, the cached
callers would go on running the old code. So :func:`share_stamp` gives the cache of every
kernel function one stamp, a digest of all the kernel's sources, before anything is compiled
or loaded: a change to any of them and numba compiles them all again (and caches them again).
Processes with other sources keep stamps of their own, so none runs another's machine code.
"""

from __future__ import annotations

import hashlib
import inspect
from collections.abc import Sequence
from types import ModuleType

__all__ = ["kernel_stamp", "share_stamp"]


def kernel_stamp(modules: Sequence[ModuleType]) -> bytes:
    """The sha256 of the sources of ``modules``, in that order."""
    sha = hashlib.sha256()
    for module in modules:
        sha.update(module.__name__.encode())
        sha.update(inspect.getsource(module).encode())
    return sha.digest()


def share_stamp(modules: Sequence[ModuleType], sources: Sequence[ModuleType] = ()) -> int:
    """Stamp the cache of every compiled function of ``modules`` with :func:`kernel_stamp` of
    ``modules`` and ``sources`` (modules whose code they inline but that other kernels share,
    such as :mod:`parlour.core.splitmix`: those keep numba's own check, so two kernels never
    stamp them in turn); returns how many were stamped. Call it before any of them is compiled
    or loaded.

    numba keeps the stamp its cache index is checked against on each function's cache file
    (``_cache._cache_file._source_stamp``, the sha256 of the function's own module); a function
    without one (no cache, or a numba that keeps it elsewhere) is left to numba's own check."""
    stamp = kernel_stamp([*modules, *sources])
    stamped = 0
    for module in modules:
        for value in vars(module).values():
            # Only the functions the module defines, not those it imports (from ``sources``).
            if getattr(getattr(value, "py_func", None), "__module__", None) != module.__name__:
                continue
            cache_file = getattr(getattr(value, "_cache", None), "_cache_file", None)
            if cache_file is not None and hasattr(cache_file, "_source_stamp"):
                cache_file._source_stamp = stamp
                stamped += 1
    return stamped
