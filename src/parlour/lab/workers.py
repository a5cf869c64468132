"""How many worker threads a batch uses: the number asked for, or every core."""

from __future__ import annotations

import os

from parlour.games.beggar.fast import check_workers

__all__ = ["resolve_workers"]


def resolve_workers(workers: int | None) -> int:
    """``workers`` checked, or the machine's cores for ``None``.

    Raises:
        InvalidOption: workers below 1.
    """
    return os.cpu_count() or 1 if workers is None else check_workers(workers)
