"""The story ``parlour review`` tells of a game of Beggar-My-Neighbour, which has no decisions to
judge: trick by trick, who took each pile and the lead (M2), the longest payment chains (M1),
the biggest swings in the cards held, who went out (M3, M5) and how the game ended (M6, M10,
M11, M12).

Everything is read from the states of the replayed record and the typed events each action
left (:mod:`.events`); no rule is worked out again here. The document's schema is
``parlour schema beggar-story``.

- A *trick* ends when a pile is taken (M2, M8: the final pile counts too). Trick 1 is led by
  the first hand (M7); each pile's taker leads the next (M2). A *lead change* is a pile taken
  by another player than the one who led it, when play goes on after it.
- A *payment chain* (M1) is the run of court cards of one trick: from its first court card,
  every card is a payment until the pile is taken, and a court card turned while paying starts
  a new payment by the next player. Its length is its court cards (``honours``) and the cards
  turned from the first of them to the end (``cards``). A chain still being paid when a card
  limit or the time stopped the game (M11, M12) was never taken and is not listed.
- A *swing* is what a capture moved: the cards of the pile that the taker did not put there
  himself (``gain``).
- ``step`` counts actions, an index into the record's ``actions``: every action turns exactly
  one card (M8), so the card of step ``s`` is card ``s + 1`` of the game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from parlour.core.game import JSON, State, seat_name
from parlour.core.record import Record
from parlour.games.beggar.events import (
    Captured,
    LimitReached,
    Looped,
    TimeUp,
    TurnedCard,
    WentOut,
    Won,
)
from parlour.games.beggar.history import Cycle
from parlour.games.beggar.notation import HONOUR, Token, format_token
from parlour.games.beggar.rules import BeggarState

__all__ = ["MAX_MOMENTS", "STORY", "TOP", "story"]

TOP = 3
"""How many payment chains and swings the story lists (the longest, the biggest)."""

MAX_MOMENTS = 12
"""The most moments a story tells, so the terminal's table of them stays readable."""


@dataclass(frozen=True, slots=True)
class Capture:
    """A pile taken (M2): after ``step``, trick number ``trick`` (M8) went to ``taker``."""

    step: int
    trick: int
    taker: int
    cards: int
    gain: int
    hands: tuple[int, ...]

    def to_json(self) -> dict[str, JSON]:
        return {
            "step": self.step,
            "trick": self.trick,
            "taker": self.taker,
            "cards": self.cards,
            "gain": self.gain,
            "hands": list(self.hands),
        }


@dataclass(frozen=True, slots=True)
class Chain:
    """A payment chain (M1) from the court card of ``step`` to the pile taken at ``end_step``."""

    step: int
    end_step: int
    court: tuple[Token, ...]
    cards: int
    taker: int
    pile: int

    def to_json(self) -> dict[str, JSON]:
        return {
            "step": self.step,
            "end_step": self.end_step,
            "honours": len(self.court),
            "court_cards": [format_token(t) for t in self.court],
            "cards": self.cards,
            "taker": self.taker,
            "pile": self.pile,
        }


@dataclass(slots=True)
class _Reading:
    """What the walk through the states has found so far."""

    leader: int
    tricks: int
    captures: list[Capture] = field(default_factory=list)
    changes: list[dict[str, JSON]] = field(default_factory=list)
    chains: list[Chain] = field(default_factory=list)
    outs: list[dict[str, JSON]] = field(default_factory=list)
    # The trick in progress: the cards each seat put on the pile, and the chain if one began.
    put: dict[int, int] = field(default_factory=dict)
    chain_step: int | None = None
    court: list[Token] = field(default_factory=list)
    chain_cards: int = 0
    end_step: int | None = None

    def turned(self, event: TurnedCard, step: int) -> None:
        self.put[event.seat] = self.put.get(event.seat, 0) + 1
        if HONOUR[event.card] and self.chain_step is None:
            self.chain_step = step
        if self.chain_step is not None:
            self.chain_cards += 1
            if HONOUR[event.card]:
                self.court.append(event.card)

    def captured(self, event: Captured, step: int, after: BeggarState) -> None:
        self.tricks += 1
        gain = event.cards - self.put.get(event.seat, 0)
        hands = tuple(len(h) for h in after.hands)
        self.captures.append(Capture(step, self.tricks, event.seat, event.cards, gain, hands))
        if self.chain_step is not None:
            chain = Chain(
                self.chain_step, step, tuple(self.court), self.chain_cards, event.seat, event.cards
            )
            self.chains.append(chain)
        if event.seat != self.leader and not after.is_over:
            self.changes.append({"step": step, "trick": self.tricks, "leader": event.seat})
        self.leader = event.seat
        self.put, self.chain_step, self.court, self.chain_cards = {}, None, [], 0


def _read(record: Record, states: tuple[State, ...]) -> tuple[_Reading, BeggarState]:
    """Walk the states of ``record`` once, collecting what each action's events say."""
    beggar = [s for s in states if isinstance(s, BeggarState)]
    if not beggar or len(beggar) != len(states):
        raise TypeError("the story of Beggar-My-Neighbour is told from its own states")
    first = beggar[0]
    reading = _Reading(
        leader=first.to_move if first.to_move is not None else 0, tricks=first.tricks
    )
    step = -1
    for after in beggar[1:]:
        events = after.typed_events
        if events and isinstance(events[0], TurnedCard):
            step += 1
        for event in events:
            if isinstance(event, TurnedCard):
                reading.turned(event, step)
            elif isinstance(event, Captured):
                reading.captured(event, step, after)
            elif isinstance(event, WentOut):
                reading.outs.append({"step": max(step, 0), "seat": event.seat})
    if step + 1 != len(record.actions):
        raise ValueError(
            f"the states hold {step + 1} actions, the record {len(record.actions)}: "
            "they are not the record's"
        )
    reading.end_step = max(step, 0)
    return reading, beggar[-1]


def _cycle(cycle: Cycle | None, final: BeggarState, base: int) -> dict[str, JSON] | None:
    """M10's figures, with the steps where the cycle starts and where the repeat was seen, and
    the position that repeats (hands by class, whose lead)."""
    if cycle is None:
        return None
    found: dict[str, JSON] = dict(cycle.to_json())
    found["start_step"] = cycle.start_cards - base
    found["found_at_step"] = cycle.found_at_cards - base - 1
    position = next((p for p in final.positions if p.cards == cycle.start_cards), None)
    found["position"] = None if position is None else position.to_json()
    return found


def _cards_said(tokens: tuple[Token, ...]) -> str:
    """Court cards as the log says them: ``K♦ J♦``, or ``K J`` in a rank-only game (M9)."""
    return " ".join(format_token(t, pretty=True) for t in tokens)


def _names(seats: tuple[int, ...] | list[int]) -> str:
    return " and ".join(seat_name(s) for s in seats)


def _ending(final: BeggarState, reading: _Reading, base: int) -> dict[str, JSON]:
    """The last moment: how the game ended (or that the record stops before its end)."""
    step = reading.end_step or 0
    cards = final.cards - base
    tricks = f"{cards} cards and {final.tricks} tricks"
    text = f"The record stops after {tricks}; the game is not over"
    for event in final.typed_events:
        if isinstance(event, Won):
            text = f"{seat_name(event.seat)} wins with all 52 cards after {tricks} (M6)"
        elif isinstance(event, Looped):
            c = event.cycle
            text = (
                f"The position after trick {c.start_tricks} is back after trick "
                f"{c.found_at_tricks}: the game never ends (M10)"
            )
        elif isinstance(event, LimitReached | TimeUp):
            limit = isinstance(event, LimitReached)
            cause, rule = ("The card limit came", "M11") if limit else ("Time is up", "M12")
            names = _names(event.winners)
            won = (
                "hold the most cards and share the win"
                if len(event.winners) > 1
                else "holds the most cards and wins"
            )
            text = f"{cause} after {tricks}: {names} {won} ({rule})"
    return {"step": step, "text": text}


def _moments(reading: _Reading, final: BeggarState, base: int) -> list[dict[str, JSON]]:
    """The notable moments, in order of step: a dozen at most (:data:`MAX_MOMENTS`)."""
    told: list[tuple[int, int, str]] = []  # (step, rank among moments of a step, text)
    end = _ending(final, reading, base)
    told.append((end["step"], 9, end["text"]))
    cycle = final.cycle
    if cycle is not None:
        told.append(
            (
                cycle.start_cards - base,
                0,
                f"The cycle starts: the position after trick {cycle.start_tricks} comes back "
                f"every {cycle.length_cards} cards, {cycle.length_tricks} tricks (M10)",
            )
        )
    if reading.changes:
        first = reading.changes[0]
        leader = first["leader"]
        assert isinstance(leader, int)
        taken = next(c for c in reading.captures if c.step == first["step"])
        told.append(
            (
                taken.step,
                2,
                f"First change of lead: {seat_name(leader)} takes trick {taken.trick} "
                f"({taken.cards} cards) and leads",
            )
        )
    won = final.outcome is not None and final.outcome.result == "win"
    for out in reading.outs:
        seat = out["seat"]
        step = out["step"]
        assert isinstance(seat, int) and isinstance(step, int)
        if won and step == reading.end_step:
            continue  # the last one out: the end says it
        told.append((step, 8, f"{seat_name(seat)} is out: no card left (M3, M5)"))
    for rank, chain in enumerate(longest_chains(reading.chains)):
        what = "Longest payment chain" if rank == 0 else "Payment chain"
        told.append(
            (
                chain.step,
                1,
                f"{what}: {_cards_said(chain.court)}, {len(chain.court)} court cards in "
                f"{chain.cards} cards; {seat_name(chain.taker)} takes {chain.pile} cards",
            )
        )
    for rank, swing in enumerate(biggest_swings(reading.captures)):
        what = "Biggest swing" if rank == 0 else "Swing"
        told.append(
            (
                swing.step,
                3,
                f"{what}: {seat_name(swing.taker)} takes {swing.cards} cards, {swing.gain} from "
                f"the others, and holds {swing.hands[swing.taker]}",
            )
        )
    # At most 1 + 1 + 1 + 3 + 3 + 3: a game of 4 players has 3 out at most, and then no cycle.
    told.sort(key=lambda m: (m[0], m[1]))
    return [{"step": step, "text": text} for step, _, text in told]


def longest_chains(chains: list[Chain]) -> list[Chain]:
    """The :data:`TOP` longest payment chains of two court cards or more: most court cards
    first, then most cards, then the earliest."""
    ranked = sorted(
        (c for c in chains if len(c.court) >= 2), key=lambda c: (-len(c.court), -c.cards, c.step)
    )
    return ranked[:TOP]


def biggest_swings(captures: list[Capture]) -> list[Capture]:
    """The :data:`TOP` captures that moved most cards from the others to the taker (a gain of
    at least one card), the biggest first, then the earliest."""
    return sorted((c for c in captures if c.gain > 0), key=lambda c: (-c.gain, c.step))[:TOP]


def story(record: Record, states: tuple[State, ...]) -> dict[str, JSON]:
    """The story of the game ``record`` replays to ``states`` (``replay(record, game)``): the
    document ``parlour schema beggar-story`` describes.

    Raises:
        TypeError: the states are not Beggar-My-Neighbour's.
        ValueError: the states are not the record's (another number of actions).
    """
    reading, final = _read(record, states)
    first = states[0]
    assert isinstance(first, BeggarState)
    base = first.cards
    outcome = final.outcome
    return {
        "game": "beggar",
        "players": final.players,
        "cards_played": final.cards - base,
        "tricks": final.tricks,
        "result": None if outcome is None else outcome.result,
        "winners": [] if outcome is None else list(outcome.winners),
        "held": [len(h) for h in final.hands],
        "lead_changes": reading.changes,
        "longest_payment_chains": [c.to_json() for c in longest_chains(reading.chains)],
        "biggest_swings": [c.to_json() for c in biggest_swings(reading.captures)],
        "out": reading.outs,
        "cycle": _cycle(final.cycle, final, base),
        "captures": [c.to_json() for c in reading.captures],
        "moments": _moments(reading, final, base),
    }


STORY: Callable[[Record, tuple[State, ...]], dict[str, JSON]] = story
"""The story part of :class:`~parlour.core.parts.GameParts` (``parlour review``)."""
