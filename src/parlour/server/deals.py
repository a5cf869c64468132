"""What a room keeps of its match: its deals, the table penalties put to a vote, and how each
vote ended (:mod:`parlour.server.room` folds the stored events into them)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from parlour.core.game import State
from parlour.core.record import TableEntry
from parlour.server.clock import RoomClock

__all__ = ["Deal", "Decision", "Proposal"]


@dataclass
class Deal:
    """One deal of the room's match (a game may move the dealer each deal)."""

    number: int
    seed: int
    commitment: str
    state: State
    actions: list[str] = field(default_factory=list)
    table: list[TableEntry] = field(default_factory=list)
    clock: RoomClock | None = None
    """The deal's agreed time, when the game and the room's options have one."""


@dataclass
class Proposal:
    """A table penalty on another player, waiting for the other players' votes."""

    id: int
    entry: str
    by: int
    target: int
    yes: set[int]
    no: set[int]

    def to_json(self) -> dict[str, Any]:
        """The proposal as the frames carry it (``proposals``, and within ``decided``)."""
        return {
            "proposal": self.id,
            "entry": self.entry,
            "by": self.by,
            "target": self.target,
            "yes": sorted(self.yes),
            "no": sorted(self.no),
        }


@dataclass(frozen=True)
class Decision:
    """How a proposal ended: ``passed`` (a majority for it) or voted down (a majority can no
    longer be reached; bots vote no), and whether the penalty was ``applied`` (a passed one the
    rules refuse by then, or one that passed after the end, is not). ``at`` is the length of
    the deal's log when it was decided (the page places it after entry ``at - 1``), ``v`` the
    room version of the proposal or vote that decided it."""

    proposal: Proposal
    passed: bool
    applied: bool
    at: int
    v: int

    def to_json(self) -> dict[str, Any]:
        return {
            **self.proposal.to_json(),
            "passed": self.passed,
            "applied": self.applied,
            "at": self.at,
            "v": self.v,
        }
