"""Beggar-My-Neighbour: the rules as a state machine (seed texts ``beggar-my-neighbour.*.txt``,
rulings M1-M11).

There are no decisions: the only action is ``play`` (turn your top card). A player who must play
and holds no card goes out at once inside the action that made it his turn (M3), so the seat to
move always has a card and every action puts exactly one card on the pile (M8 counts those).

Options:
    unpaid_penalty: ``capture`` (default) or ``next_player``: who settles a payment whose payer
        runs out (M4).
    card_limit: stop after N cards and let the player holding most cards win (M11); none by
        default, so only M6 or M10 end the game.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import ClassVar, Self

from parlour.cards import Card, deck52
from parlour.core.game import JSON, Action, Event, Game, GameInfo, Outcome, State, View, seat_name
from parlour.core.options import OptionSpec
from parlour.core.rng import check_seed, make_rng
from parlour.errors import InvalidNotation
from parlour.games.beggar.notation import (
    HONOUR,
    MAX_PLAYERS,
    MIN_PLAYERS,
    Deal,
    RankClass,
    Token,
    format_deal,
    format_deal_ranks,
    format_token,
    parse_deal,
    random_deal,
)

__all__ = [
    "PLAY",
    "BeggarGame",
    "BeggarOptions",
    "BeggarState",
    "BeggarView",
    "Cycle",
    "Play",
    "UnpaidPenalty",
]


class UnpaidPenalty(Enum):
    """Ruling M4: what happens when the payer runs out in the middle of a payment."""

    CAPTURE = "capture"
    NEXT_PLAYER = "next_player"


@dataclass(frozen=True, slots=True)
class BeggarOptions:
    """The typed options of a game (see the module docstring)."""

    unpaid_penalty: UnpaidPenalty = UnpaidPenalty.CAPTURE
    card_limit: int | None = None

    def to_json(self) -> dict[str, JSON]:
        return {"unpaid_penalty": self.unpaid_penalty.value, "card_limit": self.card_limit}


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Turn your top card face up onto the pile: the one action of the game."""

    def __str__(self) -> str:
        return "play"


PLAY = Play()


@dataclass(frozen=True, slots=True)
class Cycle:
    """Ruling M10: where a never-ending game repeats, in cards and tricks."""

    found_at_cards: int
    found_at_tricks: int
    start_cards: int
    start_tricks: int

    @property
    def length_cards(self) -> int:
        return self.found_at_cards - self.start_cards

    @property
    def length_tricks(self) -> int:
        return self.found_at_tricks - self.start_tricks

    def to_json(self) -> dict[str, int]:
        return {
            "found_at_cards": self.found_at_cards,
            "found_at_tricks": self.found_at_tricks,
            "start_cards": self.start_cards,
            "start_tricks": self.start_tricks,
            "length_cards": self.length_cards,
            "length_tricks": self.length_tricks,
        }


# Raw events, kept compact on the hot path and turned into Event objects when asked for.
_TURNED, _OWES, _OUT, _CAPTURED, _WON, _LOOP, _LIMIT = range(7)


class _Table:
    """One action worked through on mutable copies; one method per ruling. Never escapes
    :meth:`BeggarState._apply`, so states stay immutable."""

    __slots__ = (
        "cards",
        "court",
        "cycle",
        "hands",
        "log",
        "out",
        "owed",
        "pile",
        "played",
        "seen",
        "to_move",
        "tricks",
        "winners",
    )

    def __init__(self, state: BeggarState) -> None:
        self.hands = list(state._hands)
        self.pile = state._pile
        self.to_move = state._to_move
        self.owed = state._owed
        self.court = state._court
        self.out = state._out
        self.cards = state._cards
        self.tricks = state._tricks
        self.seen = state._seen
        self.played = list(state._played)
        self.log: list[tuple[int, int, int]] = []
        self.winners: tuple[int, ...] | None = None
        self.cycle: Cycle | None = None

    def next_in(self, seat: int) -> int:
        """M5: the next player clockwise who is still in."""
        n = len(self.hands)
        nxt = (seat + 1) % n
        while nxt in self.out:
            nxt = (nxt + 1) % n
        return nxt

    def turn_card(self) -> None:
        """Seed text: the player turns his top card onto the middle of the table.

        M1: a court card demands 1-4 cards from the next player and ends any payment in
        progress. A number card passes play on, or pays one card of a payment.
        """
        p = self.to_move
        hand = self.hands[p]
        card = hand[0]
        self.hands[p] = hand[1:]
        self.played[p] += 1
        self.pile = (*self.pile, card)
        self.cards += 1
        self.log.append((_TURNED, p, len(self.pile) - 1))
        owed = HONOUR[card]
        if owed:
            self.owed = owed
            self.court = p
            self.to_move = self.next_in(p)
            self.log.append((_OWES, self.to_move, owed))
        elif self.owed:
            self.owed -= 1
            if not self.owed:
                assert self.court is not None
                self.capture(self.court)
        else:
            self.to_move = self.next_in(p)

    def capture(self, seat: int) -> None:
        """M2: the pile goes under the capturer's hand in the order played; he leads next.

        M5: at the end of each trick every other player who holds no card is out.
        """
        self.log.append((_CAPTURED, seat, len(self.pile)))
        self.hands[seat] = self.hands[seat] + self.pile
        self.pile = ()
        self.tricks += 1
        self.owed = 0
        self.court = None
        self.to_move = seat
        n = len(self.hands)
        for k in range(1, n):
            other = (seat + k) % n
            if other not in self.out and not self.hands[other]:
                self.go_out(other)
        if self.players_in() == 1:
            self.win(seat)
        else:
            self.check_loop()

    def go_out(self, seat: int) -> None:
        self.out = (*self.out, seat)
        self.log.append((_OUT, seat, 0))

    def players_in(self) -> int:
        return len(self.hands) - len(self.out)

    def run_out(self, penalty: UnpaidPenalty) -> None:
        """M3: a player who must play and has no card is out. M6: when one player is left he
        takes any pile and wins. M4: a payer who runs out leaves the court-card player to
        capture (default) or the next player still in to pay the rest (``next_player``)."""
        while self.winners is None and not self.hands[self.to_move]:
            seat = self.to_move
            self.go_out(seat)
            if self.players_in() == 1:
                self.win(self.next_in(seat))
            elif self.owed and penalty is UnpaidPenalty.CAPTURE:
                assert self.court is not None
                self.capture(self.court)
            else:
                self.to_move = self.next_in(seat)

    def win(self, seat: int) -> None:
        """M6: the last player holding cards takes any pile left (a trick, M8) and wins."""
        if self.pile:
            self.log.append((_CAPTURED, seat, len(self.pile)))
            self.hands[seat] = self.hands[seat] + self.pile
            self.pile = ()
            self.tricks += 1
        self.owed = 0
        self.court = None
        self.winners = (seat,)
        self.log.append((_WON, seat, 0))

    def check_loop(self) -> None:
        """M10: a position (hands by class, in order, and the leader) seen before at a trick
        boundary repeats forever; the game ends as a loop."""
        key = position_key(self.hands, self.to_move)
        first = self.seen.setdefault(key, (self.cards, self.tricks))
        # The memo is shared along one deterministic line of play, so an entry from a later
        # trick (made when an earlier state was played on before) is not a repeat.
        if first[1] < self.tricks:
            self.cycle = Cycle(self.cards, self.tricks, first[0], first[1])
            self.winners = ()
            self.log.append((_LOOP, self.to_move, 0))

    def check_limit(self, limit: int | None) -> None:
        """M11: after ``card_limit`` cards the player holding most cards wins; ties share.

        Checked once everything the last card settles without another card has happened (a
        capture, players going out, the end of M6), so a limit at or beyond a game's length
        never changes its result. The pile on the table counts for nobody."""
        if limit is not None and self.cards >= limit and self.winners is None:
            sizes = [0 if s in self.out else len(h) for s, h in enumerate(self.hands)]
            top = max(sizes)
            self.winners = tuple(s for s, k in enumerate(sizes) if k == top)
            self.log.append((_LIMIT, self.cards, 0))


_CLASS_CHAR = {t: (t.value if isinstance(t, RankClass) else "-JQKA"[h]) for t, h in HONOUR.items()}


def position_key(hands: list[tuple[Token, ...]] | tuple[tuple[Token, ...], ...], lead: int) -> str:
    """M10: a trick-boundary position with cards compared by class J/Q/K/A/number."""
    char = _CLASS_CHAR
    return f"{lead}|" + "/".join("".join([char[t] for t in hand]) for hand in hands)


class BeggarState(State):
    """An immutable Beggar-My-Neighbour position (see the module docstring)."""

    __slots__ = (
        "_cards",
        "_court",
        "_cycle",
        "_deal",
        "_full",
        "_hands",
        "_log",
        "_options",
        "_out",
        "_owed",
        "_pile",
        "_played",
        "_seen",
        "_to_move",
        "_tricks",
        "_winners",
    )

    game: ClassVar[Game]

    def __init__(
        self,
        deal: Deal,
        options: BeggarOptions,
        *,
        hands: tuple[tuple[Token, ...], ...] | None = None,
        pile: tuple[Token, ...] = (),
        to_move: int = 0,
        owed: int = 0,
        court: int | None = None,
        out: tuple[int, ...] = (),
        cards: int = 0,
        tricks: int = 0,
    ) -> None:
        """A position: by default the start of ``deal`` (M7: seat 0 leads)."""
        self._deal = deal
        self._options = options
        self._hands = deal if hands is None else hands
        self._full = any(isinstance(t[0], Card) for t in (*self._hands, pile) if t)
        self._played = (0,) * len(self._hands)
        self._pile = pile
        self._to_move = to_move
        self._owed = owed
        self._court = court
        self._out = out
        self._cards = cards
        self._tricks = tricks
        self._log: tuple[tuple[int, int, int], ...] = ()
        self._winners: tuple[int, ...] | None = None
        self._cycle: Cycle | None = None
        self._seen: dict[str, tuple[int, int]] = {}
        if owed == 0 and not pile:
            self._seen[position_key(self._hands, to_move)] = (cards, tricks)

    # -- the contract ---------------------------------------------------------------------

    @property
    def players(self) -> int:
        return len(self._hands)

    @property
    def to_move(self) -> int | None:
        return None if self._winners is not None else self._to_move

    @property
    def outcome(self) -> Outcome | None:
        if self._winners is None:
            return None
        return self._make_outcome(self._winners)

    @property
    def is_over(self) -> bool:
        return self._winners is not None

    @property
    def options(self) -> BeggarOptions:
        return self._options

    @property
    def deal(self) -> Deal:
        """The deal this game started from."""
        return self._deal

    @property
    def hands(self) -> tuple[tuple[Token, ...], ...]:
        """Every hand, top card first (hidden information: views never show it)."""
        return self._hands

    @property
    def pile(self) -> tuple[Token, ...]:
        """The face-up pile in the order played (its last card is on top)."""
        return self._pile

    @property
    def owed(self) -> int:
        """Cards still to pay for the last court card (0 when no payment is in progress)."""
        return self._owed

    @property
    def court_player(self) -> int | None:
        """Who turned the last court card of a payment in progress (M1, M2)."""
        return self._court

    @property
    def out(self) -> tuple[int, ...]:
        """Seats that are out, in the order they went out (M3, M5)."""
        return self._out

    @property
    def cards(self) -> int:
        """Cards placed on the pile so far (M8)."""
        return self._cards

    @property
    def tricks(self) -> int:
        """Piles taken so far, the final one included (M8)."""
        return self._tricks

    @property
    def cycle(self) -> Cycle | None:
        """The repeat that ended a never-ending game (M10), else ``None``."""
        return self._cycle

    def _legal_actions(self) -> tuple[Action, ...]:
        return (PLAY,)

    def _refusal(self, text: str) -> str:
        return (
            f"{text!r} is not an action of Beggar-My-Neighbour: the only action is 'play', "
            "turn your top card (the game has no decisions)"
        )

    def _apply(self, action: Action) -> Self:
        table = _Table(self)
        table.turn_card()
        if table.winners is None:
            table.run_out(self._options.unpaid_penalty)
        if table.winners is None:
            table.check_limit(self._options.card_limit)
        nxt = type(self).__new__(type(self))
        nxt._deal = self._deal
        nxt._full = self._full
        nxt._played = tuple(table.played)
        nxt._options = self._options
        nxt._hands = tuple(table.hands)
        nxt._pile = table.pile
        nxt._to_move = table.to_move
        nxt._owed = table.owed
        nxt._court = table.court
        nxt._out = table.out
        nxt._cards = table.cards
        nxt._tricks = table.tricks
        nxt._seen = self._seen
        nxt._log = tuple(table.log)
        nxt._winners = table.winners
        nxt._cycle = table.cycle
        return nxt

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(self._event(*raw) for raw in self._log)

    def _event(self, kind: int, a: int, b: int) -> Event:
        if kind == _TURNED:
            card = self._pile_at(b)
            return Event(
                "turned",
                f"{seat_name(a)} turns {format_token(card, pretty=True)}",
                {"seat": a, "card": format_token(card)},
            )
        if kind == _OWES:
            return Event(
                "owes",
                f"{seat_name(a)} must pay {b} card{'s' if b > 1 else ''}",
                {"seat": a, "cards": b},
            )
        if kind == _OUT:
            return Event("out", f"{seat_name(a)} is out", {"seat": a})
        if kind == _CAPTURED:
            return Event(
                "captured",
                f"{seat_name(a)} takes the pile ({b} card{'s' if b > 1 else ''})",
                {"seat": a, "cards": b},
            )
        if kind == _WON:
            return Event("won", f"{seat_name(a)} wins with all 52 cards", {"seat": a})
        if kind == _LOOP:
            cycle = self._cycle
            assert cycle is not None
            return Event(
                "loop",
                f"The game never ends: the position repeats every {cycle.length_cards} cards "
                f"({cycle.length_tricks} tricks) (M10)",
                cycle.to_json(),
            )
        winners = self._winners or ()
        names = " and ".join(seat_name(s) for s in winners)
        return Event(
            "limit",
            f"Card limit of {a} reached: {names} {'hold' if len(winners) > 1 else 'holds'} "
            "the most cards (M11)",
            {"cards": a, "winners": list(winners)},
        )

    def _pile_at(self, index: int) -> Token:
        """The card turned by the last action: on the pile, or just captured with it."""
        if index < len(self._pile):
            return self._pile[index]
        # The pile was captured by this action: the card is now in a hand's last block.
        for raw_kind, seat, size in self._log:
            if raw_kind == _CAPTURED:
                return self._hands[seat][len(self._hands[seat]) - size + index]
        raise AssertionError("turned card not found")

    def _make_outcome(self, winners: tuple[int, ...]) -> Outcome:
        n = self.players
        held = tuple(len(h) for h in self._hands)
        if self._cycle is not None:
            result = "loop"
        elif len(self._out) == n - 1:
            result = "win"
        else:
            result = "limit"
        # Places: players still in by cards held (all equal in a loop), then those out, the
        # last one out best.
        still_in = [s for s in range(n) if s not in self._out]
        ranks = [0] * n
        for seat in still_in:
            ahead = 0 if result == "loop" else sum(held[o] > held[seat] for o in still_in)
            ranks[seat] = 1 + ahead
        for place, seat in enumerate(reversed(self._out)):
            ranks[seat] = len(still_in) + 1 + place
        share = 1.0 / len(winners) if winners else 0.0
        return Outcome(
            result=result,
            winners=winners,
            ranks=tuple(ranks),
            returns=tuple(share if s in winners else 0.0 for s in range(n)),
            scores=held,
            details={
                "cards": self._cards,
                "tricks": self._tricks,
                "cycle": None if self._cycle is None else self._cycle.to_json(),
            },
        )

    def summary(self) -> dict[str, JSON]:
        """The result line of ``parlour beggar play --json`` (the game must be over)."""
        outcome = self.outcome
        if outcome is None:
            raise ValueError("the game is not over")
        return {
            "deal": format_deal_ranks(self._deal),
            "result": outcome.result,
            "winners": list(outcome.winners),
            "cards": self._cards,
            "tricks": self._tricks,
            "cycle": None if self._cycle is None else self._cycle.to_json(),
        }

    def view(self, seat: int | None) -> BeggarView:
        """What anyone at the table sees: hand sizes and the face-up pile, no card of any hand
        (the hands are face down, even to their owners)."""
        self._check_seat(seat)
        return BeggarView(
            seat=seat,
            players=self.players,
            options=self._options,
            full_cards=self._full,
            hand_sizes=tuple(len(h) for h in self._hands),
            pile=self._pile,
            to_move=self.to_move,
            owed=self._owed,
            court_player=self._court,
            out=self._out,
            cards=self._cards,
            tricks=self._tricks,
            winners=self._winners,
            cycle=self._cycle,
        )

    def hidden_from(self, seat: int | None) -> frozenset[str]:
        """The cards nobody has seen: those of each hand's deal not yet turned. The hands are
        face down even to their owners; every other card was turned face up at some time."""
        return frozenset(
            format_token(t)
            for hand, dealt, played in zip(self._hands, self._deal, self._played, strict=True)
            for t in hand[: max(0, len(dealt) - played)]
        )

    def to_json(self) -> dict[str, JSON]:
        return {
            "to_move": self.to_move,
            "hands": [[format_token(t) for t in hand] for hand in self._hands],
            "pile": [format_token(t) for t in reversed(self._pile)],
            "owed": self._owed,
            "court_player": self._court,
            "out": list(self._out),
            "cards": self._cards,
            "tricks": self._tricks,
            "over": self.is_over,
        }


@dataclass(frozen=True, slots=True)
class BeggarView(View):
    """A seat's view: hand sizes, the face-up pile (in play order), the payment in progress,
    who is out, the counts of M8; never a card of any hand."""

    seat: int | None
    players: int
    options: BeggarOptions
    full_cards: bool
    hand_sizes: tuple[int, ...]
    pile: tuple[Token, ...]
    to_move: int | None
    owed: int
    court_player: int | None
    out: tuple[int, ...]
    cards: int
    tricks: int
    winners: tuple[int, ...] | None
    cycle: Cycle | None

    def to_json(self) -> dict[str, JSON]:
        return {
            "seat": self.seat,
            "players": self.players,
            "options": self.options.to_json(),
            "hand_sizes": list(self.hand_sizes),
            "pile": [format_token(t) for t in reversed(self.pile)],
            "to_move": self.to_move,
            "owed": self.owed,
            "court_player": self.court_player,
            "out": list(self.out),
            "cards": self.cards,
            "tricks": self.tricks,
            "over": self.winners is not None,
        }


class BeggarGame(Game):
    """Beggar-My-Neighbour for 2 to 4 players (rulings M1-M11)."""

    info: ClassVar[GameInfo] = GameInfo(
        name="beggar",
        title="Beggar-My-Neighbour",
        aliases=("beggar-my-neighbour", "beggar-my-neighbor", "bmn"),
        min_players=MIN_PLAYERS,
        max_players=MAX_PLAYERS,
        default_players=2,
        decisions=False,
        options=(
            OptionSpec(
                "unpaid_penalty",
                "choice",
                UnpaidPenalty.CAPTURE.value,
                "when a payer runs out mid-payment: the court-card player captures (capture) or "
                "the next player still in pays the rest (next_player)",
                choices=tuple(p.value for p in UnpaidPenalty),
                ruling="M4",
            ),
            OptionSpec(
                "card_limit",
                "int",
                None,
                "stop after N cards; the player holding most cards wins, ties share",
                minimum=1,
                nullable=True,
                ruling="M11",
            ),
        ),
        num_distinct_actions=1,
        # Only a card limit (M11) or a repeat (M10) ends some deals: no bound of its own.
        max_game_length=None,
        summary="turn cards and pay for court cards; no decisions, for 2 to 4 players",
    )

    def typed_options(self, given: Mapping[str, object] | None) -> BeggarOptions:
        """Validated options as :class:`BeggarOptions`; raises InvalidOption naming the option."""
        values = self.options(given)
        limit = values["card_limit"]
        return BeggarOptions(
            UnpaidPenalty(values["unpaid_penalty"]),
            limit if isinstance(limit, int) else None,
        )

    def new(
        self,
        players: int,
        seed: int,
        options: Mapping[str, object] | None = None,
        deal: JSON = None,
    ) -> BeggarState:
        """A new game from ``deal`` (M9 notation) or, without one, dealt from ``seed`` (M7).

        Raises:
            InvalidOption: bad player count, seed or option.
            InvalidNotation: a bad deal (M9, M7).
        """
        players = self.check_players(players)
        seed = check_seed(seed)
        typed = self.typed_options(options)
        if deal is None:
            hands = random_deal(players, make_rng(seed))
        elif isinstance(deal, str):
            hands = parse_deal(deal, players)
        else:
            raise InvalidNotation(f"a Beggar-My-Neighbour deal is an M9 string, got {deal!r}")
        return BeggarState(hands, typed)

    def sample(self, view: View, rng: random.Random) -> BeggarState:
        """A full state consistent with ``view``: the unseen cards shuffled into hands of the
        viewed sizes. Views show no hand card, so every arrangement is equally possible."""
        if not isinstance(view, BeggarView):
            raise TypeError("BeggarGame.sample needs a BeggarView")
        if view.full_cards:
            unseen: list[Token] = [c for c in deck52() if c not in set(view.pile)]
        else:
            counts = dict.fromkeys(RankClass, 0)
            for t in view.pile:
                counts[t] += 1  # type: ignore[index]
            deck = {RankClass.NUMBER: 36} | {c: 4 for c in RankClass if c is not RankClass.NUMBER}
            unseen = [cls for cls in RankClass for _ in range(deck[cls] - counts[cls])]
        rng.shuffle(unseen)
        hands: list[tuple[Token, ...]] = []
        start = 0
        for size in view.hand_sizes:
            hands.append(tuple(unseen[start : start + size]))
            start += size
        state = BeggarState(
            tuple(hands),
            view.options,
            pile=view.pile,
            to_move=view.to_move if view.to_move is not None else 0,
            owed=view.owed,
            court=view.court_player,
            out=view.out,
            cards=view.cards,
            tricks=view.tricks,
        )
        state._winners = view.winners
        state._cycle = view.cycle
        return state

    def format_deal(self, state: BeggarState) -> str:
        """The deal of ``state``'s game in the notation it was given (M9)."""
        return format_deal(state.deal)


BeggarState.game = BeggarGame()
