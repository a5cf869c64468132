"""A room in memory: its deals, open proposals and rematch requests, rebuilt by folding the
stored events (:mod:`parlour.server.store`) and advanced only by events that were stored first.

:meth:`Room.prepare` checks a request from a seat against the rules and turns it into the next
event (or raises :class:`Refused` with the protocol's reject code); the server stores the event,
then :meth:`Room.fold` applies it; :meth:`Room.frame` makes what one seat (or a spectator) may
see. Nothing here does I/O.
"""

from __future__ import annotations

import contextlib
from collections import OrderedDict
from typing import Any

from parlour.core.fairness import commitment, draw_seed
from parlour.core.game import Game, State, seat_name
from parlour.core.record import Record, TableEntry
from parlour.errors import GameOver, IllegalAction, InvalidNotation, NotYourTurn, ParlourError
from parlour.server.clock import RoomClock
from parlour.server.deals import Deal, Decision, Proposal
from parlour.server.protocol import Refused
from parlour.server.store import EventRow, RoomRow

__all__ = ["Deal", "Decision", "Proposal", "Room", "new_deal_event"]

_REMEMBERED_ANSWERS = 512
"""How many answers to client ids a room keeps per seat beyond its stored acks (rejects)."""
_DECISIONS_SHOWN = 20
"""How many of the deal's latest decided proposals the frames carry."""


def new_deal_event(v: int, number: int, kind: str = "deal", seat: int | None = None) -> EventRow:
    """The event that starts deal ``number`` with a fresh secret seed and its commitment."""
    seed = draw_seed()
    data = {"seed": seed, "number": number, "commitment": commitment(seed)}
    return EventRow(v, kind, seat, data)


class Room:
    """A room's game as the server holds it; every change comes through :meth:`fold`."""

    def __init__(self, row: RoomRow, game: Game) -> None:
        self.row = row
        self.game = game
        self.v = -1
        self.deals: list[Deal] = []
        self.proposals: dict[int, Proposal] = {}
        self.decided: list[Decision] = []
        """The current deal's latest decided proposals (:data:`_DECISIONS_SHOWN` at most)."""
        self.rematch: set[int] = set()
        self.acks: dict[tuple[int, str], int] = {}
        self.abandoned = False
        """Ended by an ``abandon`` event: nobody came for days (:mod:`.retention`); the deal
        stays as it was, unfinished, and nothing more is played here."""
        self.answers: dict[int, OrderedDict[str, dict[str, Any]]] = {}

    # -- facts ---------------------------------------------------------------------------------

    @property
    def id(self) -> str:
        return self.row.room

    @property
    def deal(self) -> Deal:
        return self.deals[-1]

    @property
    def state(self) -> State:
        return self.deals[-1].state

    @property
    def clock(self) -> RoomClock | None:
        """The current deal's agreed time, if it has one."""
        return self.deal.clock

    @property
    def over(self) -> bool:
        """Whether nothing is played now: the game has ended, or the room was abandoned."""
        return self.abandoned or self.state.is_over

    @property
    def persons(self) -> tuple[int, ...]:
        return tuple(s.seat for s in self.row.seats if s.kind == "person")

    def target(self, text: str) -> int | None:
        """The player a table penalty names, or None for any other text."""
        try:
            return self.game.presenter.entry_target(text)
        except ParlourError:
            return None

    def kind(self, seat: int) -> str:
        return self.row.seats[seat].kind

    # -- folding stored events -------------------------------------------------------------------

    def fold(self, event: EventRow, after: State | None = None) -> bool:
        """Apply a stored event; True when it ended the deal. Events were checked by
        :meth:`prepare` before they were stored, so a refusal here means the database holds
        something this version cannot play, and it is raised as it is. ``after`` is the state
        an action leads to, when the caller has made it already."""
        running = bool(self.deals) and not self.over
        if event.v != self.v + 1:
            raise ValueError(f"room {self.id}: event {event.v} after {self.v}")
        data = event.data
        if event.kind in ("deal", "rematch") and "seed" in data:
            self._start_deal(int(data["number"]), int(data["seed"]), str(data["commitment"]))
        elif event.kind == "rematch":
            assert event.seat is not None
            self.rematch.add(event.seat)
        elif event.kind == "action":
            # ``after``: the state the server made from this very event while checking it.
            deal = self.deal
            if after is None:
                after = deal.state.apply(str(data["action"]), seat=event.seat)
            deal.state = after
            deal.actions.append(str(data["action"]))
        elif event.kind == "table":
            self._table(str(data["entry"]), event.seat, frozenset(data.get("votes", ())))
        elif event.kind == "propose":
            assert event.seat is not None
            self._propose(event.v, str(data["entry"]), event.seat)
        elif event.kind == "vote":
            assert event.seat is not None
            self._vote(int(data["proposal"]), event.seat, bool(data["yes"]), event.v)
        elif event.kind == "abandon":
            self._abandon(float(data["at"]))
        elif event.kind != "clock":  # a clock event only stops or starts the clock (its stamp)
            raise ValueError(f"room {self.id}: unknown event kind {event.kind!r}")
        stamp = data.get("clock")
        clock = self.deal.clock
        if stamp is not None and clock is not None:
            clock.set(stamp, self.over)
        if event.client_id is not None and event.seat is not None:
            self.acks[(event.seat, event.client_id)] = event.v
        self.v = event.v
        return running and self.state.is_over

    def _start_deal(self, number: int, seed: int, commit: str) -> None:
        deal = self.game.match_deal(self.row.players, seed, number)
        state = self.game.new(self.row.players, seed, self.row.options, deal)
        limit = self.game.time_limit(self.row.options)
        clock = None if limit is None or self.game.time_up_entry is None else RoomClock(limit)
        self.deals.append(Deal(number, seed, commit, state, clock=clock))
        self.proposals.clear()
        self.decided.clear()
        self.rematch.clear()

    def _abandon(self, at: float) -> None:
        self.abandoned = True
        self.proposals.clear()
        self.rematch.clear()
        clock = self.deal.clock
        if clock is not None and clock.since is not None:
            clock.used, clock.since = clock.used_at(at), None

    def _table(self, entry: str, by: int | None, votes: frozenset[int]) -> None:
        deal = self.deal
        deal.state = deal.state.apply_table(entry, by=by, votes=votes)
        deal.table.append(TableEntry(len(deal.actions), entry, by, tuple(sorted(votes))))

    def _propose(self, pid: int, entry: str, by: int) -> None:
        target = self.target(entry)
        assert target is not None
        bots = {s.seat for s in self.row.seats if s.kind != "person"} - {target}
        self.proposals[pid] = Proposal(pid, entry, by, target, {by}, bots)
        self._settle(pid, pid)

    def _vote(self, pid: int, seat: int, yes: bool, v: int) -> None:
        proposal = self.proposals[pid]
        (proposal.yes if yes else proposal.no).add(seat)
        self._settle(pid, v)

    def _settle(self, pid: int, v: int) -> None:
        """A proposal passes with a majority of the players other than its target, and is
        dropped once that majority cannot be reached; either way the frames tell how it ended
        (:attr:`decided`)."""
        p = self.proposals[pid]
        others = self.row.players - 1
        if 2 * len(p.yes) > others:
            del self.proposals[pid]
            applied = False
            if not self.over:
                # The same on every replay of the events: a penalty the rules refuse now (the
                # game moved on since it was proposed) is dropped, the room goes on.
                with contextlib.suppress(ParlourError):
                    self._table(p.entry, p.by, frozenset(p.yes - {p.by}))
                    applied = True
            self._decide(Decision(p, True, applied, self.state.log_length(), v))
        elif 2 * (others - len(p.no)) <= others:
            del self.proposals[pid]
            self._decide(Decision(p, False, False, self.state.log_length(), v))

    def _decide(self, decision: Decision) -> None:
        self.decided.append(decision)
        del self.decided[:-_DECISIONS_SHOWN]

    # -- checking requests -------------------------------------------------------------------------

    def refused(self, key: str, neutral: str, **values: str | int) -> Refused:
        """An ``illegal`` reject of the table (proposals and votes) in the game's words: its
        English catalog's sentence ``key`` (naming its ruling), else the ``neutral`` one."""
        words = self.game.words()
        message = words(key, None, **values) if key in words else neutral.format(**values)
        return Refused("illegal", message, key, values)

    def prepare_act(self, seat: int, v: int, text: str, client_id: str | None) -> EventRow:
        """The event for ``text`` played or entered by ``seat`` at version ``v``.

        Raises:
            Refused: ``stale``, ``game_over``, ``not_your_turn``, ``bad_notation``, ``illegal``.
        """
        if v != self.v:
            raise Refused("stale", f"the room is at version {self.v}, not {v}: resync and retry")
        state = self.state
        if self.abandoned:
            raise _abandoned()
        if state.is_over:
            raise Refused("game_over", "the game is over: ask for a rematch to play again")
        nxt = self.v + 1
        target = self.target(text)
        if target is not None and target != seat:
            if self.row.players < 3:
                raise self.refused(
                    "refusal.vote.alone",
                    "a penalty on another player needs the other players' majority, and "
                    "Player {player} is the only other player",
                    player=seat + 1,
                )
            # Checked as if every other player had voted for it: what the vote cannot mend
            # (a player who is not at the table) is refused now, not after the vote.
            everyone = frozenset(range(self.row.players)) - {seat, target}
            try:
                state.apply_table(text, by=seat, votes=everyone)
            except ParlourError as err:
                raise Refused.of("illegal", err) from None
            return EventRow(nxt, "propose", seat, {"entry": text.strip()}, client_id)
        first: ParlourError | None = None
        try:
            action = state.parse_action(text) if state.to_move == seat else None
        except (InvalidNotation, IllegalAction) as err:
            action, first = None, err
        except GameOver as err:  # pragma: no cover - checked above
            raise Refused.of("game_over", err) from None
        if action is not None:
            return EventRow(nxt, "action", seat, {"action": str(action)}, client_id)
        try:
            if type(state)._table_entry is State._table_entry:
                raise InvalidNotation("this game has no table entries")
            after = state.apply_table(text, by=seat)
        except InvalidNotation:
            pass
        except ParlourError as err:
            raise Refused.of("illegal", err) from None
        else:
            assert after.step is not None
            if after.step.text == self.game.time_up_entry:
                raise Refused(
                    "illegal",
                    "the table ends the game when the agreed time runs out; no player makes "
                    f"{after.step.text!r}",
                )
            return EventRow(nxt, "table", seat, {"entry": after.step.text, "votes": []}, client_id)
        if state.to_move != seat:
            raise Refused("not_your_turn", str(NotYourTurn(_turn_text(state, seat))))
        if isinstance(first, IllegalAction):
            raise Refused.of("illegal", first)
        if first is not None:
            raise Refused.of("bad_notation", first)
        raise Refused("bad_notation", f"{text!r} is not a move here")

    def prepare_vote(
        self, seat: int, proposal: object, yes: object, client_id: str | None
    ) -> EventRow:
        if isinstance(proposal, bool) or not isinstance(proposal, int) or not isinstance(yes, bool):
            raise Refused("bad_message", "a vote is {proposal: a proposal number, yes: true|false}")
        if self.abandoned:
            raise _abandoned()
        p = self.proposals.get(proposal)
        if p is None:
            raise self.refused(
                "refusal.vote.none", "there is no open proposal {proposal}", proposal=proposal
            )
        if seat == p.target:
            raise self.refused(
                "refusal.vote.own", "the penalised player does not vote on his penalty"
            )
        if seat in p.yes or seat in p.no:
            raise self.refused(
                "refusal.vote.twice",
                "Player {player} has voted on proposal {proposal}",
                player=seat + 1,
                proposal=proposal,
            )
        return EventRow(self.v + 1, "vote", seat, {"proposal": proposal, "yes": yes}, client_id)

    def prepare_rematch(self, seat: int, client_id: str | None) -> EventRow:
        if self.abandoned:
            raise _abandoned()
        if not self.over:
            raise Refused("illegal", "a rematch starts once the game is over")
        if seat in self.rematch:
            raise Refused("illegal", f"{seat_name(seat)} has asked for the rematch already")
        if set(self.persons) <= self.rematch | {seat}:
            event = new_deal_event(self.v + 1, self.deal.number + 1, "rematch", seat)
            return EventRow(event.v, "rematch", seat, event.data, client_id)
        return EventRow(self.v + 1, "rematch", seat, {}, client_id)

    # -- answers to client ids --------------------------------------------------------------------

    def answer_for(self, seat: int, client_id: str) -> dict[str, Any] | None:
        """The first answer given to ``client_id`` from ``seat``, if any."""
        v = self.acks.get((seat, client_id))
        if v is not None:
            return {"type": "ack", "id": client_id, "v": v}
        return self.answers.get(seat, OrderedDict()).get(client_id)

    def remember(self, seat: int, client_id: str, answer: dict[str, Any]) -> None:
        kept = self.answers.setdefault(seat, OrderedDict())
        kept[client_id] = answer
        while len(kept) > _REMEMBERED_ANSWERS:
            kept.popitem(last=False)

    # -- what people see -------------------------------------------------------------------------

    def match(self) -> dict[str, Any]:
        """The match table: each finished deal's result and the running totals (G12)."""
        n = self.row.players
        deals, wins, scores = [], [0] * n, [0] * n
        for deal in self.deals:
            outcome = deal.state.outcome
            if outcome is None:
                continue
            for s in outcome.winners:
                wins[s] += 1
            for s in range(n):
                scores[s] += outcome.scores[s]
            deals.append({"deal": deal.number, **outcome.to_json()})
        return {"deals": deals, "wins": wins, "scores": scores}

    def record(self, number: int) -> Record:
        """The record of deal ``number``, seed revealed; only for a finished deal."""
        deal = self.deals[number]
        return Record(
            self.game.name,
            self.row.players,
            deal.seed,
            dict(self.row.options),
            None,
            tuple(deal.actions),
            tuple(s.kind for s in self.row.seats),
            tuple(deal.table),
            commitment=deal.commitment,
            deal_number=deal.number,
        )


def _abandoned() -> Refused:
    return Refused(
        "game_over", "the room was abandoned (nobody came for days): start a new room to play"
    )


def _turn_text(state: State, seat: int) -> str:
    mover = state.to_move
    who = "nobody" if mover is None else seat_name(mover)
    return f"it is {who}'s turn, not {seat_name(seat)}'s"
