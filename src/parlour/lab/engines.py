"""Which engine plays a lab run: ``fast`` (the game's compiled kernel, a
:class:`~parlour.lab.figures.LabKernel`) or ``python`` (the rules engine, through the agents).

``fast`` is the default wherever the game's kernel plays the run (every seat's agent is one of
its agents, and it refuses none of the run's settings); ``--engine fast`` elsewhere is refused
with the reason, never played on the rules engine instead. A run's engine is part of its
settings, so a run file is never filled by both, unless every agent of the run is one the
kernel plays exactly as the rules engine does (:func:`same_rows`): then both engines give the
same rows and either may resume the run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from parlour.core.inputs import quote
from parlour.errors import InvalidOption
from parlour.games import find_game
from parlour.lab.figures import kernel_for

if TYPE_CHECKING:
    from parlour.lab.runspec import RunSpec

__all__ = ["ENGINES", "agent_names", "fast_refusal", "resolve_engine", "same_rows"]

ENGINES = ("fast", "python")
"""The engines, ``fast`` (the game's compiled kernel) and ``python`` (its rules engine)."""


def agent_names(spec: RunSpec) -> list[str]:
    """The run's agents as the kernels name them: stripped, in lower case."""
    return [a.strip().lower() for a in spec.agents]


def fast_refusal(spec: RunSpec) -> str | None:
    """Why the game's compiled kernel cannot play ``spec`` (one sentence), or None when it
    can."""
    game = find_game(spec.game)
    kernel = kernel_for(game)
    if kernel is None:
        return f"{game.title} has no compiled kernel"
    others = [a for a in agent_names(spec) if a not in kernel.agents]
    if others:
        plays = ", ".join(sorted(kernel.agents))
        return (
            f"the compiled kernel of {game.title} plays the agents {plays}, not {quote(others[0])}"
        )
    return kernel.refuses(spec) if kernel.refuses is not None else None


def resolve_engine(spec: RunSpec, engine: str) -> str:
    """The engine that plays ``spec``: ``engine``, or for ``""`` (not given) ``fast`` where the
    kernel plays the run and ``python`` elsewhere.

    Raises:
        InvalidOption: an unknown engine, or ``fast`` for a run the kernel cannot play.
    """
    if engine not in ("", *ENGINES):
        raise InvalidOption(f"--engine: one of {', '.join(ENGINES)}, got {quote(engine)}")
    refusal = fast_refusal(spec)
    if engine == "fast" and refusal is not None:
        raise InvalidOption(f"--engine fast: {refusal}; use --engine python")
    if engine:
        return engine
    return "python" if refusal is not None else "fast"


def same_rows(spec: RunSpec) -> bool:
    """Whether both engines give ``spec``'s games the same rows: the kernel plays the run and
    every agent of it is one the kernel plays exactly as the rules engine does."""
    names = agent_names(spec)
    kernel = kernel_for(find_game(spec.game))
    return (
        kernel is not None
        and bool(names)
        and all(a in kernel.same for a in names)
        and fast_refusal(spec) is None
    )
