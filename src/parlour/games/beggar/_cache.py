"""numba's cache of the compiled kernel, kept fresh as a whole.

numba checks a cached function against the source of its own module only, but the kernel's
functions inline and call one another across modules (the trick of :mod:`._engine` is compiled
into the batches of :mod:`._batch`): after a change to ``_engine.py`` alone, the cached batches
would go on playing the old rules. So :func:`refresh` keeps, beside the cache, a digest of every
kernel module's source; when it differs from the sources in hand, the kernel's cached files are
removed before anything is compiled, and numba compiles and caches them again.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

__all__ = ["KERNEL_MODULES", "refresh"]

KERNEL_MODULES = ("_random", "_engine", "_bits", "_batch", "_backward")
"""The modules of compiled code, each ``parlour/games/beggar/NAME.py``."""

_STAMP = "parlour-beggar-kernel.sha256"


def digest(folder: Path) -> str:
    """The sha256 of the kernel modules' sources in ``folder``, in :data:`KERNEL_MODULES`
    order."""
    sha = hashlib.sha256()
    for name in KERNEL_MODULES:
        sha.update((folder / f"{name}.py").read_bytes())
    return sha.hexdigest()


def refresh(cache: Path | None) -> bool:
    """Remove the kernel's cached machine code in ``cache`` (numba's cache folder of the
    kernel modules) unless it was built from the sources in hand; returns whether it did.
    ``None`` (caching is off) does nothing. Two processes that refresh at once at worst
    both remove the files; numba then compiles again."""
    if cache is None:
        return False
    stamp = cache / _STAMP
    current = digest(Path(__file__).parent)
    try:
        if stamp.read_text(encoding="ascii") == current:
            return False
    except OSError:
        pass
    try:
        cache.mkdir(parents=True, exist_ok=True)
        for path in cache.iterdir():
            if path.suffix in (".nbi", ".nbc") and path.name.split(".")[0] in KERNEL_MODULES:
                path.unlink(missing_ok=True)
        partial = cache / f"{_STAMP}.{os.getpid()}"
        partial.write_text(current, encoding="ascii")
        partial.replace(stamp)
    except OSError:
        # A cache folder we may not write to: numba cannot cache there either.
        return False
    return True
