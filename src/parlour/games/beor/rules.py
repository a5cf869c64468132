"""BEOR multi-player: the rules as a state machine (seed text ``beor-multiplayer.txt``, rulings
B1-B11).

A turn is one action: play a card on a base whose theme it fits and whose stock is not empty,
then draw (B4); a 3 or 8 turns the base's stock over first (B6); a 4 or 7 may draw from any
non-empty stock (B7). A player with no legal play at the start of his turn loses inside the
action that made it his turn (B8), so the seat to move always has a legal action.

Options:
    natural_win: a hand dealt as two groups wins at once (B5), default on.
    flip_reverses_order: a flip reverses the stock as well as turning it (B6), default on.
    restock_skip_jokers: a Joker never stays as a base at a restock (B9), default on.
    max_turns: the game is a draw after this many turns (B10), default 2000.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import chain
from operator import attrgetter
from typing import ClassVar, Self, TypeVar

from parlour.cards import Card, Rank, deck54
from parlour.core.game import (
    JSON,
    Action,
    Event,
    Game,
    GameInfo,
    Outcome,
    State,
    View,
    seat_name,
)
from parlour.core.options import OptionSpec
from parlour.core.rng import check_seed, derive_seed, make_rng
from parlour.errors import InvalidNotation
from parlour.games.beor.deal import BeorDeal, deal_from_seed, deck_for, parse_deal
from parlour.games.beor.notation import (
    BASES,
    Move,
    fits,
    goal_groups,
    parse_action,
    shows_theme,
    why_not_fits,
)
from parlour.games.beor.view import BeorView, StockView

__all__ = ["BeorGame", "BeorOptions", "BeorState"]

_T = TypeVar("_T")

Known = frozenset[tuple[int, Card]]
"""Publicly known cards of a stock, by offset from its bottom (stable while cards are drawn)."""


@dataclass(frozen=True, slots=True)
class BeorOptions:
    """The typed options of a game (see the module docstring)."""

    natural_win: bool = True
    flip_reverses_order: bool = True
    restock_skip_jokers: bool = True
    max_turns: int = 2000

    def to_json(self) -> dict[str, JSON]:
        return {
            "natural_win": self.natural_win,
            "flip_reverses_order": self.flip_reverses_order,
            "restock_skip_jokers": self.restock_skip_jokers,
            "max_turns": self.max_turns,
        }


RawEvent = tuple[object, ...]
"""An event as recorded on the hot path; :func:`_events_of` turns it into words."""


class _Turn:
    """One action worked through on shallow copies (only what the action touches is rebuilt);
    one method per rule. Never escapes :meth:`BeorState._apply`, so states stay immutable."""

    __slots__ = (
        "bases",
        "face_up",
        "hands",
        "known",
        "known_hands",
        "known_scrap",
        "legal",
        "log",
        "options",
        "out",
        "restocks",
        "result",
        "scrap",
        "seed",
        "stocks",
        "to_move",
        "turn",
        "winner",
    )

    def __init__(self, s: BeorState) -> None:
        self.options = s._options
        self.seed = s._seed
        self.hands = list(s._hands)
        self.bases = list(s._bases)
        self.stocks = list(s._stocks)
        self.face_up = s._face_up
        self.known = s._known
        self.known_hands = s._known_hands
        self.scrap = s._scrap
        self.known_scrap = s._known_scrap
        self.out = s._out
        self.to_move = s._to_move
        self.turn = s._turn
        self.restocks = s._restocks
        self.winner: int | None = None
        self.result: str | None = None
        self.log: list[RawEvent] = []
        self.legal: tuple[Action, ...] | None = None

    def play(self, move: Move) -> None:
        """Text: 'First, play a card from your hand onto one of the bases'."""
        p = self.to_move
        card = move.card
        hand = self.hands[p]
        k = hand.index(card)
        self.hands[p] = hand[:k] + hand[k + 1 :]
        if card in self.known_hands[p]:
            self.known_hands = _replace(self.known_hands, p, self.known_hands[p] - {card})
        self.bases[move.base] = (card, *self.bases[move.base])
        self.log.append(("played", p, card, move.base))
        if card.rank is Rank.THREE or card.rank is Rank.EIGHT:
            self.flip(move.base)

    def flip(self, i: int) -> None:
        """B6: a 3 or 8 turns the base's stock over before the draw: its order reverses (option
        ``flip_reverses_order``) and it changes face."""
        stock = self.stocks[i]
        if self.options.flip_reverses_order:
            n = len(stock)
            self.stocks[i] = stock[::-1]
            if self.known[i]:
                self.known = _replace(
                    self.known, i, frozenset((n - 1 - k, c) for k, c in self.known[i])
                )
        up = not self.face_up[i]
        self.face_up = _replace(self.face_up, i, up)
        self.reveal_top(i)
        self.log.append(("flipped", i, up))

    def reveal_top(self, i: int) -> None:
        """B6: the top card of a face-up stock is public."""
        stock = self.stocks[i]
        if self.face_up[i] and stock:
            self.known = _replace(self.known, i, self.known[i] | {(len(stock) - 1, stock[0])})

    def draw(self, i: int) -> None:
        """Text: 'Then, draw a card from that base's associated stock' (or any stock, B7). A
        card drawn from a face-up stock is publicly known to be in that hand (B6)."""
        p = self.to_move
        stock = self.stocks[i]
        card = stock[0]
        self.stocks[i] = stock[1:]
        known = self.known[i]
        public = False
        if known:
            entry = (len(stock) - 1, card)
            public = entry in known
            if public:
                self.known = _replace(self.known, i, known - {entry})
        self.hands[p] = (*self.hands[p], card)
        if public:
            self.known_hands = _replace(self.known_hands, p, self.known_hands[p] | {card})
        self.log.append(("drew", p, i, card, public))
        self.reveal_top(i)

    def check_goal(self, seat: int) -> bool:
        """B5: six cards forming two groups of three win."""
        groups = goal_groups(self.hands[seat])
        if groups is None:
            return False
        self.win(seat, groups)
        return True

    def win(self, seat: int, groups: tuple[tuple[Card, ...], tuple[Card, ...]] | None) -> None:
        self.winner = seat
        self.result = "win"
        self.log.append(("won", seat, groups))

    def restock(self) -> None:
        """B9: for each base keep the topmost card that shows its theme; shuffle every other
        base card with the scrap pile and deal it all round-robin into four face-down stocks."""
        skip = self.options.restock_skip_jokers
        kept: list[Card] = []
        pool: list[Card] = list(self.scrap)
        for i, pile in enumerate(self.bases):
            keep = next(c for c in pile if shows_theme(c, i, skip_jokers=skip))
            kept.append(keep)
            pool += [c for c in pile if c != keep]
            self.bases[i] = (keep,)
        self.restocks += 1
        rng = make_rng(derive_seed(self.seed, "restock", self.restocks))
        rng.shuffle(pool)
        self.stocks = [tuple(pool[i::4]) for i in range(4)]
        self.face_up = (False,) * 4
        self.known = (frozenset(),) * 4
        self.scrap = ()
        self.known_scrap = frozenset()
        self.log.append(("restocked", tuple(kept), len(pool)))

    def next_turn(self) -> None:
        """Clockwise to the next player still in; B8: a player with no legal play at the
        start of his turn loses (2 players: the other wins; more: his hand goes to the scrap
        pile and the last player left wins)."""
        n = len(self.hands)
        seat = self.to_move
        while self.winner is None:
            seat = (seat + 1) % n
            if seat in self.out:
                continue
            self.to_move = seat
            # B8 needs the legal plays anyway; the new state keeps them.
            self.legal = _legal_of(self.hands[seat], self.stocks)
            if self.legal:
                return
            self.out = (*self.out, seat)
            self.log.append(("lost", seat))
            self.scrap = self.scrap + self.hands[seat]
            self.known_scrap = self.known_scrap | self.known_hands[seat]
            self.hands[seat] = ()
            self.known_hands = _replace(self.known_hands, seat, frozenset())
            left = [s for s in range(n) if s not in self.out]
            if len(left) == 1:
                self.win(left[0], None)


def _replace(values: tuple[_T, ...], index: int, value: _T) -> tuple[_T, ...]:
    return (*values[:index], value, *values[index + 1 :])


def _events_of(raw: RawEvent) -> list[Event]:
    """Plain words for one recorded event; a card drawn unseen is named to its drawer only."""
    kind = raw[0]
    if kind == "played":
        _, p, card, base = raw
        assert isinstance(p, int) and isinstance(card, Card) and isinstance(base, int)
        return [
            Event(
                "played",
                f"{seat_name(p)} plays {card.pretty()} on {BASES[base]}",
                {"seat": p, "card": str(card), "base": BASES[base]},
            )
        ]
    if kind == "flipped":
        _, i, up = raw
        assert isinstance(i, int)
        side = "face up" if up else "face down"
        return [
            Event(
                "flipped",
                f"The {BASES[i]} stock is turned {side} (B6)",
                {"stock": BASES[i], "face_up": bool(up)},
            )
        ]
    if kind == "drew":
        _, p, i, card, public = raw
        assert isinstance(p, int) and isinstance(i, int) and isinstance(card, Card)
        named = Event(
            "drew",
            f"{seat_name(p)} draws {card.pretty()} from {BASES[i]}",
            {"seat": p, "stock": BASES[i], "card": str(card)},
            audience=None if public else frozenset({p}),
        )
        if public:
            return [named]
        unseen = Event(
            "drew", f"{seat_name(p)} draws from {BASES[i]}", {"seat": p, "stock": BASES[i]}
        )
        return [unseen, named]
    if kind == "restocked":
        _, kept, count = raw
        assert isinstance(kept, tuple)
        names = ", ".join(f"{BASES[i]} {c.pretty()}" for i, c in enumerate(kept))
        return [
            Event(
                "restocked",
                f"Restock: the bases keep {names}; {count} cards go into four face-down "
                "stocks (B9)",
                {"kept": [str(c) for c in kept], "cards": count},
            )
        ]
    if kind == "lost":
        seat = raw[1]
        assert isinstance(seat, int)
        return [Event("lost", f"{seat_name(seat)} cannot play and loses (B8)", {"seat": seat})]
    if kind == "won":
        _, seat, groups = raw
        assert isinstance(seat, int)
        if groups is None:
            text = f"{seat_name(seat)} is the last player left and wins (B8)"
        else:
            assert isinstance(groups, tuple)
            shown = ", ".join(" ".join(c.pretty() for c in sorted(g)) for g in groups)
            text = f"{seat_name(seat)} wins with two groups: {shown} (B5)"
        return [Event("won", text, {"seat": seat})]
    turns = raw[1]
    return [
        Event(
            "draw",
            f"Turn limit of {turns} reached: the game is a draw (B10)",
            {"turns": turns},
        )
    ]


FITS: dict[Card, tuple[bool, bool, bool, bool]] = {
    c: (fits(c, 0), fits(c, 1), fits(c, 2), fits(c, 3)) for c in deck54()
}


def _moves_of(card: Card, open_stocks: int) -> tuple[Move, ...]:
    """Every legal move of ``card`` while the stocks in the bit mask ``open_stocks`` (bit i:
    stock i not empty) have cards: B4 themes on bases with stock, and B7 draws for a 4 or 7."""
    out: list[Move] = []
    for base in range(4):
        if FITS[card][base] and open_stocks >> base & 1:
            out.append(Move(card, base))
            if card.rank in (Rank.FOUR, Rank.SEVEN):
                out += [Move(card, base, s) for s in range(4) if s != base and open_stocks >> s & 1]
    return tuple(out)


# Moves are made once, for every card and every set of non-empty stocks: building frozen
# dataclasses is the slowest part of listing actions.
MOVES_BY_MASK = tuple({c: _moves_of(c, mask) for c in deck54()} for mask in range(16))
_CODE = attrgetter("code")


def _open_stocks(stocks: tuple[tuple[Card, ...], ...] | list[tuple[Card, ...]]) -> int:
    """Bit i set when stock i has cards."""
    return (
        (1 if stocks[0] else 0)
        | (2 if stocks[1] else 0)
        | (4 if stocks[2] else 0)
        | (8 if stocks[3] else 0)
    )


def _legal_of(
    hand: tuple[Card, ...], stocks: tuple[tuple[Card, ...], ...] | list[tuple[Card, ...]]
) -> tuple[Action, ...]:
    """Every legal move of ``hand`` (cards in sort order), B4 and B7."""
    table = MOVES_BY_MASK[_open_stocks(stocks)]
    return tuple(chain.from_iterable(map(table.__getitem__, sorted(hand, key=_CODE))))


class BeorState(State):
    """An immutable BEOR position (see the module docstring)."""

    __slots__ = (
        "_bases",
        "_face_up",
        "_hands",
        "_known",
        "_known_hands",
        "_known_scrap",
        "_legal",
        "_log",
        "_options",
        "_out",
        "_restocks",
        "_result",
        "_scrap",
        "_seed",
        "_stocks",
        "_to_move",
        "_turn",
        "_winner",
    )

    game: ClassVar[Game]

    def __init__(self, deal: BeorDeal, options: BeorOptions, seed: int) -> None:
        """The start of ``deal``: seat 0 to play (B3), a natural win checked first (B5)."""
        n = len(deal.hands)
        self._options = options
        self._seed = seed
        self._restocks = 0
        self._hands = deal.hands
        self._bases: tuple[tuple[Card, ...], ...] = tuple((c,) for c in deal.bases)
        self._stocks = deal.stocks
        self._face_up: tuple[bool, ...] = (False,) * 4
        self._known: tuple[Known, ...] = (frozenset(),) * 4
        self._known_hands: tuple[frozenset[Card], ...] = (frozenset(),) * n
        self._scrap: tuple[Card, ...] = ()
        self._known_scrap: frozenset[Card] = frozenset()
        self._out: tuple[int, ...] = ()
        self._to_move = 0
        self._turn = 0
        self._winner: int | None = None
        self._result: str | None = None
        self._log: tuple[RawEvent, ...] = ()
        if options.natural_win:
            # B5: the goal is checked after the deal, first qualifying seat in turn order.
            for seat in range(n):
                groups = goal_groups(deal.hands[seat])
                if groups is not None:
                    self._winner, self._result = seat, "win"
                    self._log = (("won", seat, groups),)
                    break

    @property
    def players(self) -> int:
        return len(self._hands)

    @property
    def to_move(self) -> int | None:
        return None if self._result is not None else self._to_move

    @property
    def is_over(self) -> bool:
        return self._result is not None

    @property
    def turn(self) -> int:
        """Turns played so far (B10)."""
        return self._turn

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        return self._hands

    @property
    def bases(self) -> tuple[tuple[Card, ...], ...]:
        """The base piles, top card first, in the order black, even, odd, red."""
        return self._bases

    @property
    def options(self) -> BeorOptions:
        return self._options

    @property
    def outcome(self) -> Outcome | None:
        if self._result is None:
            return None
        n = self.players
        winners = () if self._winner is None else (self._winner,)
        ranks = [1 if self._result == "draw" and s not in self._out else 2 for s in range(n)]
        if self._winner is not None:
            ranks = [1 if s == self._winner else 2 for s in range(n)]
        for place, seat in enumerate(reversed(self._out)):
            ranks[seat] = n - len(self._out) + 1 + place
        return Outcome(
            result=self._result,
            winners=winners,
            ranks=tuple(ranks),
            returns=tuple(1.0 if s in winners else 0.0 for s in range(n)),
            scores=tuple(1 if s in winners else 0 for s in range(n)),
            details={"turns": self._turn, "out": list(self._out)},
        )

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(e for raw in self._log for e in _events_of(raw))

    def _legal_actions(self) -> tuple[Action, ...]:
        # States are immutable, so the legal actions are worked out once per state.
        try:
            return self._legal
        except AttributeError:
            pass
        self._legal: tuple[Action, ...] = _legal_of(self._hands[self._to_move], self._stocks)
        return self._legal

    def _is_legal(self, action: Action) -> bool:
        """B4 and B7 checked directly: the card in hand, fitting a base with stock, and a 4 or
        7 for a draw from another non-empty stock."""
        if not isinstance(action, Move):
            return False
        card, stocks = action.card, self._stocks
        if card not in self._hands[self._to_move] or not stocks[action.base]:
            return False
        if not FITS[card][action.base]:
            return False
        if action.stock is None:
            return True
        return (
            card.rank in (Rank.FOUR, Rank.SEVEN)
            and action.stock != action.base
            and bool(stocks[action.stock])
        )

    def _parse(self, text: str) -> Action:
        return parse_action(text)

    def _refusal(self, text: str) -> str:
        try:
            move = parse_action(text)
        except InvalidNotation as err:
            return str(err)
        hand = self._hands[self._to_move]
        if move.card not in hand:
            return f"{move.card} is not in {seat_name(self._to_move)}'s hand"
        if not fits(move.card, move.base):
            return why_not_fits(move.card, move.base)
        if not self._stocks[move.base]:
            return f"{BASES[move.base]} has no stock left (B4)"
        if move.stock is not None and move.card.rank not in (Rank.FOUR, Rank.SEVEN):
            return "only a 4 or 7 may draw from another stock (B7)"
        if move.stock is not None and not self._stocks[move.stock]:
            return f"{BASES[move.stock]} has no stock left to draw from (B7)"
        return f"{text.strip()!r} is not legal here"

    def _apply(self, action: Action) -> Self:
        assert isinstance(action, Move)
        t = _Turn(self)
        t.play(action)
        t.draw(action.base if action.stock is None else action.stock)
        t.turn += 1
        if not t.check_goal(self._to_move):
            if not any(t.stocks):
                t.restock()
            if t.turn >= self._options.max_turns:
                t.result = "draw"
                t.log.append(("draw", t.turn))
            else:
                t.next_turn()
        nxt = type(self).__new__(type(self))
        nxt._options = self._options
        nxt._seed = self._seed
        nxt._restocks = t.restocks
        nxt._hands = tuple(t.hands)
        nxt._bases = tuple(t.bases)
        nxt._stocks = tuple(t.stocks)
        nxt._face_up = t.face_up
        nxt._known = t.known
        nxt._known_hands = t.known_hands
        nxt._scrap = t.scrap
        nxt._known_scrap = t.known_scrap
        nxt._out = t.out
        nxt._to_move = t.to_move
        nxt._turn = t.turn
        nxt._winner = t.winner
        nxt._result = t.result
        nxt._log = tuple(t.log)
        if t.legal is not None and t.result is None:
            nxt._legal = t.legal
        return nxt

    def view(self, seat: int | None) -> BeorView:
        """RULINGS 'Public information' and B6: own hand, bases, each stock's size, face and
        publicly known cards, cards known to be in other hands, sizes, who is out."""
        self._check_seat(seat)
        return BeorView(
            seat=seat,
            players=self.players,
            options=self._options,
            to_move=self.to_move,
            turn=self._turn,
            hand=None if seat is None else tuple(sorted(self._hands[seat])),
            hand_sizes=tuple(len(h) for h in self._hands),
            known_in_hands=tuple(tuple(sorted(k)) for k in self._known_hands),
            bases=self._bases,
            stocks=tuple(
                StockView(len(st), up, tuple(sorted(k, key=lambda kc: kc[0])))
                for st, up, k in zip(self._stocks, self._face_up, self._known, strict=True)
            ),
            scrap_size=len(self._scrap),
            known_scrap=tuple(sorted(self._known_scrap)),
            out=self._out,
            winner=self._winner,
            result=self._result,
        )

    def hidden_from(self, seat: int | None) -> frozenset[str]:
        """Cards in other hands not publicly known, and stock and scrap cards not known."""
        hidden: set[Card] = set()
        for s, hand in enumerate(self._hands):
            if s != seat:
                hidden |= set(hand) - self._known_hands[s]
        for stock, known in zip(self._stocks, self._known, strict=True):
            shown = {c for _, c in known}
            hidden |= set(stock) - shown
        hidden |= set(self._scrap) - self._known_scrap
        visible = {c for b in self._bases for c in b}
        if seat is not None:
            visible |= set(self._hands[seat])
        return frozenset(str(c) for c in hidden - visible)

    def to_json(self) -> dict[str, JSON]:
        return {
            "to_move": self.to_move,
            "turn": self._turn,
            "hands": [[str(c) for c in h] for h in self._hands],
            "bases": {n: [str(c) for c in b] for n, b in zip(BASES, self._bases, strict=True)},
            "stocks": {
                n: {"cards": [str(c) for c in st], "face_up": up}
                for n, st, up in zip(BASES, self._stocks, self._face_up, strict=True)
            },
            "scrap": [str(c) for c in self._scrap],
            "out": list(self._out),
            "winner": self._winner,
            "result": self._result,
        }


class BeorGame(Game):
    """BEOR multi-player for 2 to 5 players (rulings B1-B11)."""

    info: ClassVar[GameInfo] = GameInfo(
        name="beor",
        title="BEOR",
        aliases=("black-even-odd-red",),
        min_players=2,
        max_players=5,
        default_players=2,
        decisions=True,
        options=(
        OptionSpec(
            "natural_win", "bool", True, "a hand dealt as two groups wins at once", ruling="B5"
        ),
        OptionSpec(
            "flip_reverses_order",
            "bool",
            True,
            "a 3 or 8 reverses the stock as well as turning it over",
            ruling="B6",
        ),
        OptionSpec(
            "restock_skip_jokers",
            "bool",
            True,
            "a Joker never stays as a base at a restock",
            ruling="B9",
        ),
        OptionSpec(
            "max_turns",
            "int",
            2000,
            "the game is a draw after this many turns",
            minimum=1,
            ruling="B10",
        ),
    ),
        # A card (54 with the Jokers), a base (4), and the stock drawn from: its own or any
        # of the four (B7).
        num_distinct_actions=54 * 4 * 5,
        max_game_length=2000,
        summary="runs and sets built through themed piles, for 2 to 5 players",
    )

    def typed_options(self, given: Mapping[str, object] | None) -> BeorOptions:
        values = self.options(given)
        max_turns = values["max_turns"]
        assert isinstance(max_turns, int)
        return BeorOptions(
            natural_win=bool(values["natural_win"]),
            flip_reverses_order=bool(values["flip_reverses_order"]),
            restock_skip_jokers=bool(values["restock_skip_jokers"]),
            max_turns=max_turns,
        )

    def new(
        self,
        players: int,
        seed: int,
        options: Mapping[str, object] | None = None,
        deal: JSON = None,
    ) -> BeorState:
        """A new game from ``deal`` (a record's deal) or dealt from ``seed`` (B1-B3); the seed
        drives the later restock shuffles either way."""
        players = self.check_players(players)
        seed = check_seed(seed)
        typed = self.typed_options(options)
        cards = (
            deal_from_seed(players, make_rng(seed)) if deal is None else parse_deal(deal, players)
        )
        return BeorState(cards, typed, seed)

    def sample(self, view: View, rng: random.Random) -> BeorState:
        """A full state consistent with ``view``: every publicly known card where it is known
        to be, the rest of the unseen cards shuffled into the unknown places."""
        if not isinstance(view, BeorView):
            raise TypeError("BeorGame.sample needs a BeorView")
        seen = [c for b in view.bases for c in b] + list(view.hand or ())
        seen += [c for k in view.known_in_hands for c in k] + list(view.known_scrap)
        seen += [c for st in view.stocks for _, c in st.known]
        unseen = [c for c in deck_for(view.players) if c not in set(seen)]
        rng.shuffle(unseen)

        def take(k: int) -> list[Card]:
            out = unseen[:k]
            del unseen[:k]
            return out

        hands: list[tuple[Card, ...]] = []
        for seat, size in enumerate(view.hand_sizes):
            if seat == view.seat and view.hand is not None:
                hands.append(view.hand)
            else:
                known = list(view.known_in_hands[seat])
                hands.append(tuple(known + take(size - len(known))))
        stocks: list[tuple[Card, ...]] = []
        for st in view.stocks:
            by_offset = dict(st.known)
            bottom_up = [by_offset[k] if k in by_offset else take(1)[0] for k in range(st.size)]
            stocks.append(tuple(reversed(bottom_up)))
        scrap = list(view.known_scrap) + take(view.scrap_size - len(view.known_scrap))
        state = BeorState.__new__(BeorState)
        state._options = view.options
        state._seed = rng.randrange(2**63)
        state._restocks = 0
        state._hands = tuple(hands)
        state._bases = view.bases
        state._stocks = tuple(stocks)
        state._face_up = tuple(st.face_up for st in view.stocks)
        state._known = tuple(frozenset(st.known) for st in view.stocks)
        state._known_hands = tuple(frozenset(k) for k in view.known_in_hands)
        state._scrap = tuple(scrap)
        state._known_scrap = frozenset(view.known_scrap)
        state._out = view.out
        state._to_move = view.to_move if view.to_move is not None else 0
        state._turn = view.turn
        state._winner = view.winner
        state._result = view.result
        state._log = ()
        return state


BeorState.game = BeorGame()
