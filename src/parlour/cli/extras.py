"""Which optional extra a missing library belongs to, so a command says what to install.

``pip install parlour`` is the core: the games, bots, records and the terminal table. The rooms
server, the lab, PostgreSQL and the learning adapters come with the extras ``serve``, ``lab``,
``postgres`` and ``rl`` (``all`` for every one). A command that needs a library the install
lacks ends with one line naming the extra (exit status 2), never a traceback. The extras and
their libraries are read from Parlour's own distribution metadata, so this module and
``pyproject.toml`` cannot disagree.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import metadata, util

__all__ = ["extra_for", "missing_extra_message", "require_extra"]

# Import names that differ from the name of the distribution that provides them.
_PROVIDED_BY = {
    "pyspiel": "open-spiel",
    "open_spiel": "open-spiel",
    "dask": "distributed",
    "stable_baselines3": "stable-baselines3",
    "sb3_contrib": "sb3-contrib",
    "psycopg_binary": "psycopg",
}
# Distributions whose import name is not their own name with "-" written "_".
_IMPORTED_AS = {"dm-tree": "tree"}
_REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9._-]+).*?;.*?extra\s*==\s*['\"]([a-z0-9_-]+)['\"]")


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


@lru_cache(maxsize=1)
def _extras() -> dict[str, str]:
    """Each distribution an extra requires, mapped to the narrowest extra that brings it."""
    try:
        requires = metadata.requires("parlour") or []
    except metadata.PackageNotFoundError:
        return {}
    found: dict[str, str] = {}
    for line in requires:
        match = _REQUIREMENT.match(line)
        if match is None or match.group(2) in ("all", "dev", "docs"):
            continue
        found.setdefault(_normal(match.group(1)), match.group(2))
    return found


def extra_for(module: str | None) -> str | None:
    """The extra that installs the top-level module ``module`` (``starlette`` -> ``serve``),
    or ``None`` when no extra does."""
    if not module:
        return None
    top = module.split(".")[0]
    return _extras().get(_normal(_PROVIDED_BY.get(top, top)))


def missing_extra_message(err: ModuleNotFoundError) -> str | None:
    """The one line for a command that stopped on a library of an extra, or ``None`` when the
    missing module belongs to no extra (then it is a bug, not a choice of install)."""
    extra = extra_for(err.name)
    if extra is None:
        return None
    return (
        f"this command needs the '{extra}' extra ({err.name} is not installed): "
        f"pip install 'parlour[{extra}]'"
    )


def require_extra(extra: str) -> None:
    """Stop a command that needs ``extra`` before it does anything, when a library that extra
    brings cannot be imported: the ``ModuleNotFoundError`` its first import would raise, which
    the command line says in one line (:func:`missing_extra_message`). The libraries are found,
    not imported (``importlib.util.find_spec``): the lab's commands import scipy and matplotlib
    only when they compute or draw, after reading their input, and a missing extra is said
    before anything about the input."""
    for dist, wanted in sorted(_extras().items()):
        if wanted != extra:
            continue
        module = _IMPORTED_AS.get(dist, dist.replace("-", "_"))
        if util.find_spec(module) is None:
            raise ModuleNotFoundError(f"No module named {module!r}", name=module)
