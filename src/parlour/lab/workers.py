"""How many worker threads a batch uses: the number asked for, or every core."""

from __future__ import annotations

import os

from parlour.core.inputs import quote
from parlour.errors import InvalidOption

__all__ = ["resolve_workers"]


def resolve_workers(workers: int | None) -> int:
    """``workers`` checked, or the machine's cores for ``None``.

    Raises:
        InvalidOption: workers not a whole number of at least 1.
    """
    if workers is None:
        return os.cpu_count() or 1
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise InvalidOption(f"workers must be a whole number of at least 1, got {quote(workers)}")
    return workers
