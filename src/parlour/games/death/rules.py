"""Becker's Game of Death: the rules as a state machine (seed text
``beckers-game-of-death.txt``, rulings G1-G14).

The holder of 2♦ throws it first (G1). Each player throws a card of the top card's suit or rank,
or passes and drinks 1 when he has none (G2). A throw's effects come in the order of G6:
breaking suit (G4), going down (G3), the face card's give or take (G5), the social (G7), the Ace
sweep (G8), the end check (G10). A black face card's drinks are given by its thrower in ``give``
actions before play goes on (G5). The game ends when an Ace's thrower has no card to lead (G8)
or when the turn would come back to the first player who threw his last card (G10); then each
player drinks the give value of the black face cards he still holds (G11).

Options:
    difference_against_faces: J, Q, K count 11, 12, 13 as the covered card of G3 (default off).
    illegal_throw_penalty: front ends may charge 2 drinks for an illegal throw (G13, default on).
    sober: players (numbered from 1) who keep points instead of drinking (G14).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from operator import attrgetter
from typing import ClassVar, Self

from parlour.cards import Card, Rank, Suit, deck52
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
from parlour.core.rng import check_seed, make_rng
from parlour.errors import InvalidNotation, InvalidOption
from parlour.games.death.notation import (
    FACE,
    PASS,
    TABLE_REASONS,
    Give,
    IllegalThrow,
    Penalty,
    Throw,
    is_black_face,
    parse_action,
    parse_deal,
)
from parlour.games.death.view import DeathView

__all__ = ["DeathGame", "DeathOptions", "DeathState"]

TWO_OF_DIAMONDS = Card(Rank.TWO, Suit.DIAMONDS)
# Actions are made once: building frozen dataclasses is the slowest part of listing actions.
THROWS = {c: Throw(c) for c in deck52()}
GIVES = {k: {s: Give(k, s) for s in range(10)} for k in range(1, 21)}
_CODE = attrgetter("code")
MIN_PLAYERS, MAX_PLAYERS = 2, 10


@dataclass(frozen=True, slots=True)
class DeathOptions:
    """The typed options of a game (see the module docstring); ``sober`` holds seats."""

    difference_against_faces: bool = False
    illegal_throw_penalty: bool = True
    sober: frozenset[int] = frozenset()

    def to_json(self) -> dict[str, JSON]:
        return {
            "difference_against_faces": self.difference_against_faces,
            "illegal_throw_penalty": self.illegal_throw_penalty,
            "sober": [s + 1 for s in sorted(self.sober)],
        }


def drink_words(seat: int, drinks: int, options: DeathOptions) -> str:
    """``Player 2 drinks 6``, or ``Player 2 takes 6 points`` for a sober player (G14)."""
    if seat in options.sober:
        return f"{seat_name(seat)} takes {drinks} point{'s' if drinks != 1 else ''}"
    return f"{seat_name(seat)} drinks {drinks}"


RawEvent = tuple[object, ...]
"""An event as recorded on the hot path; :func:`_event_of` turns it into words."""

# Why a player drinks, in words (G-rulings); ``{card}`` and ``{other}`` name the cards.
_REASONS = {
    "pass": "pass (G2)",
    "broken": "suit broken (G4)",
    "down": "{card} under {other} (G3)",
    "take": "{card} takes {value} (G5)",
    "hand": "still holding {card} (G11)",
    "illegal": "illegal throw of {card}; it goes back (G13)",
    "doh": "D'oh! (G13)",
    "delay": "delay of game (G13)",
}
_DRINK_KINDS = {"hand": "hand_penalty", "illegal": "penalty", "doh": "penalty", "delay": "penalty"}
_SWEEPS = {"ace": "an Ace (G8)", "all_pass": "everyone else passed (G9)"}


def _event_of(raw: RawEvent, options: DeathOptions) -> Event:
    """Plain words for one recorded event (a sober player's drinks are points, G14)."""
    kind = raw[0]
    if kind == "drank":
        _, seat, drinks, why, card, other = raw
        assert isinstance(seat, int) and isinstance(drinks, int) and isinstance(why, str)
        reason = _REASONS[why].format(
            card=card.pretty() if isinstance(card, Card) else "",
            other=other.pretty() if isinstance(other, Card) else "",
            value=drinks,
        )
        return Event(
            _DRINK_KINDS.get(why, "drank"),
            f"{drink_words(seat, drinks, options)}: {reason}",
            {"seat": seat, "drinks": drinks, "reason": reason},
        )
    if kind == "threw":
        _, seat, card = raw
        assert isinstance(seat, int) and isinstance(card, Card)
        return Event(
            "threw", f"{seat_name(seat)} throws {card.pretty()}", {"seat": seat, "card": str(card)}
        )
    if kind == "last_card":
        seat = raw[1]
        assert isinstance(seat, int)
        return Event("last_card", f"{seat_name(seat)} has thrown his last card", {"seat": seat})
    if kind == "owes_give":
        _, seat, value, card = raw
        assert isinstance(seat, int) and isinstance(card, Card)
        return Event(
            "owes_give",
            f"{seat_name(seat)} gives {value} for {card.pretty()} (G5)",
            {"seat": seat, "drinks": value, "card": str(card)},
        )
    if kind == "social":
        card = raw[1]
        assert isinstance(card, Card)
        return Event("social", "Social! everyone drinks 1 (G7)", {"rank": card.rank.letter})
    if kind == "gave":
        _, seat, target, drinks = raw
        assert isinstance(seat, int) and isinstance(target, int)
        return Event(
            "gave",
            f"{seat_name(seat)} gives {drinks} to {seat_name(target)}",
            {"seat": seat, "to": target, "drinks": drinks},
        )
    if kind == "swept":
        _, leader, why = raw
        assert isinstance(leader, int) and isinstance(why, str)
        return Event(
            "swept",
            f"The pile is swept after {_SWEEPS[why]}; {seat_name(leader)} leads",
            {"leader": leader},
        )
    if kind == "passed":
        seat = raw[1]
        assert isinstance(seat, int)
        return Event("passed", f"{seat_name(seat)} passes", {"seat": seat})
    _, why, seat = raw
    assert isinstance(seat, int)
    text = (
        f"{seat_name(seat)} threw an Ace and has no card to lead (G8)"
        if why == "ace"
        else f"the turn comes back to {seat_name(seat)}, the first out (G10)"
    )
    return Event("ended", f"The game ends: {text}", {})


class _Turn:
    """One action worked through on copies; one method per rule. Never escapes
    :meth:`DeathState._apply`, so states stay immutable."""

    def __init__(self, s: DeathState) -> None:
        self.options = s._options
        self.hands = list(s._hands)
        self.pile = s._pile
        self.pile_seats = s._pile_seats
        self.swept = s._swept
        self.taken = list(s._taken)
        self.given = list(s._given)
        self.pending = s._pending
        self.to_move = s._to_move
        self.last_thrower = s._last_thrower
        self.passed = s._passed
        self.first_out = s._first_out
        self.void_suits = list(s._void_suits)
        self.void_ranks = list(s._void_ranks)
        self.over = False
        self.log: list[RawEvent] = []

    def drink(
        self, seat: int, drinks: int, why: str, card: Card | None = None, other: Card | None = None
    ) -> None:
        """``seat`` drinks; ``why`` names the rule (see :data:`_REASONS`)."""
        self.taken[seat] += drinks
        self.log.append(("drank", seat, drinks, why, card, other))

    def throw(self, card: Card) -> None:
        """G2 and G6: the card goes on the pile, then its effects in order."""
        p = self.to_move
        hand = self.hands[p]
        k = hand.index(card)
        self.hands[p] = hand[:k] + hand[k + 1 :]
        covered = self.pile[-1] if self.pile else None
        covered_by = self.pile_seats[-1] if self.pile_seats else None
        self.pile = (*self.pile, card)
        self.pile_seats = (*self.pile_seats, p)
        self.last_thrower = p
        self.passed = frozenset()
        self.log.append(("threw", p, card))
        if not self.hands[p] and self.first_out is None:
            # G10: the first player to throw his last card; the game ends when the turn would
            # come back to him.
            self.first_out = p
            self.log.append(("last_card", p))
        if covered is not None and covered_by is not None:
            self.break_suit(card, covered, covered_by)
            self.go_down(card, covered)
        self.face(card)
        self.social()
        if self.pending is None:
            self.after_throw(p, card.rank == Rank.ACE)

    def break_suit(self, card: Card, covered: Card, covered_by: int) -> None:
        """G4: a same-rank card of another suit makes the thrower of the covered card drink
        1, even if he has since passed or run out of cards."""
        if card.rank == covered.rank and card.suit != covered.suit:
            self.drink(covered_by, 1, "broken")

    def go_down(self, card: Card, covered: Card) -> None:
        """G3: same suit, both cards 2-10, the new card lower: the thrower drinks the
        difference (option ``difference_against_faces``: J, Q, K count 11-13 as the covered
        card)."""
        if card.suit != covered.suit or not 2 <= card.rank <= 10:
            return
        top = int(covered.rank)
        if not 2 <= top <= 10 and not (
            self.options.difference_against_faces and Rank.JACK <= covered.rank <= Rank.KING
        ):
            return
        if card.rank < top:
            self.drink(self.to_move, top - int(card.rank), "down", card, covered)

    def face(self, card: Card) -> None:
        """G5: black face cards give, red face cards take, on every throw, leads included."""
        value = FACE.get(card)
        if value is None:
            return
        p = self.to_move
        if is_black_face(card):
            self.pending = (p, value, card.rank == Rank.ACE)
            self.log.append(("owes_give", p, value, card))
        else:
            self.drink(p, value, "take", card)

    def social(self) -> None:
        """G7: the last four cards since the last sweep are the four of one rank: every
        player drinks 1. No sweep."""
        if len(self.pile) >= 4 and len({c.rank for c in self.pile[-4:]}) == 1:
            self.log.append(("social", self.pile[-1]))
            for seat in range(len(self.hands)):
                self.taken[seat] += 1

    def give(self, drinks: int, target: int) -> None:
        """G5: the thrower splits the drinks as he likes among the other players."""
        assert self.pending is not None
        p, left, ace = self.pending
        self.given[p] += drinks
        self.taken[target] += drinks
        self.log.append(("gave", p, target, drinks))
        self.pending = None if drinks == left else (p, left - drinks, ace)
        if self.pending is None:
            self.after_throw(p, ace)

    def after_throw(self, p: int, ace: bool) -> None:
        """G8: after an Ace the pile is swept and its thrower leads; with no card the game
        ends. Otherwise the turn passes on."""
        if ace:
            self.sweep(p, "ace")
            if not self.hands[p]:
                self.end("ace", p)
            return
        self.advance(p)

    def sweep(self, leader: int, why: str) -> None:
        self.swept = self.swept + self.pile
        self.pile = ()
        self.pile_seats = ()
        self.passed = frozenset()
        self.to_move = leader
        self.log.append(("swept", leader, why))

    def pass_turn(self) -> None:
        """G2: with no legal card he passes and drinks 1. What he lacks is public: no card of
        the top card's suit or rank."""
        p = self.to_move
        top = self.pile[-1]
        assert top.suit is not None
        self.void_suits[p] = self.void_suits[p] | {top.suit}
        self.void_ranks[p] = self.void_ranks[p] | {int(top.rank)}
        self.passed = self.passed | {p}
        self.log.append(("passed", p))
        self.drink(p, 1, "pass")
        self.advance(p)

    def advance(self, p: int) -> None:
        """The turn goes clockwise. G10: when it would come back to the first player out the
        game ends; players with no cards are skipped. G9: when it comes back to the last
        thrower, everyone else holding cards has passed: sweep, and he leads."""
        n = len(self.hands)
        seat = p
        for _ in range(n):
            seat = (seat + 1) % n
            if seat == self.first_out:
                self.end("first_out", seat)
                return
            if not self.hands[seat]:
                continue
            if seat == self.last_thrower:
                self.sweep(seat, "all_pass")
                return
            self.to_move = seat
            return
        raise AssertionError("no player to move")

    def end(self, why: str, seat: int) -> None:
        """G10/G8 end; G11: each player drinks the give value of his black face cards."""
        self.over = True
        self.log.append(("ended", why, seat))
        for seat, hand in enumerate(self.hands):
            for card in sorted(hand):
                if is_black_face(card):
                    self.drink(seat, FACE[card], "hand", card)


class DeathState(State):
    """An immutable Game of Death position (see the module docstring)."""

    __slots__ = (
        "_first_out",
        "_given",
        "_hands",
        "_last_thrower",
        "_legal",
        "_log",
        "_options",
        "_over",
        "_passed",
        "_pending",
        "_pile",
        "_pile_seats",
        "_swept",
        "_taken",
        "_to_move",
        "_void_ranks",
        "_void_suits",
    )

    game: ClassVar[Game]

    def __init__(self, hands: tuple[tuple[Card, ...], ...], options: DeathOptions) -> None:
        """The start of a deal: G1, the holder of 2♦ is to throw it."""
        n = len(hands)
        self._options = options
        self._hands = hands
        self._pile: tuple[Card, ...] = ()
        self._pile_seats: tuple[int, ...] = ()
        self._swept: tuple[Card, ...] = ()
        self._taken = (0,) * n
        self._given = (0,) * n
        self._pending: tuple[int, int, bool] | None = None
        self._to_move = next(s for s, h in enumerate(hands) if TWO_OF_DIAMONDS in h)
        self._last_thrower: int | None = None
        self._passed: frozenset[int] = frozenset()
        self._first_out: int | None = None
        self._void_suits: tuple[frozenset[Suit], ...] = (frozenset(),) * n
        self._void_ranks: tuple[frozenset[int], ...] = (frozenset(),) * n
        self._over = False
        self._log: tuple[RawEvent, ...] = ()

    @property
    def players(self) -> int:
        return len(self._hands)

    @property
    def to_move(self) -> int | None:
        return None if self._over else self._to_move

    @property
    def is_over(self) -> bool:
        return self._over

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        return self._hands

    @property
    def drinks_taken(self) -> tuple[int, ...]:
        return self._taken

    @property
    def drinks_given(self) -> tuple[int, ...]:
        return self._given

    @property
    def options(self) -> DeathOptions:
        return self._options

    @property
    def outcome(self) -> Outcome | None:
        """G12: drinks taken and given; the winners took the fewest (ties share)."""
        if not self._over:
            return None
        taken = self._taken
        fewest = min(taken)
        winners = tuple(s for s, t in enumerate(taken) if t == fewest)
        return Outcome(
            result="end",
            winners=winners,
            ranks=tuple(1 + sum(o < t for o in taken) for t in taken),
            returns=tuple(1 / len(winners) if s in winners else 0.0 for s in range(len(taken))),
            scores=taken,
            details={
                "drinks_taken": list(taken),
                "drinks_given": list(self._given),
                "first_out": self._first_out,
            },
        )

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(_event_of(raw, self._options) for raw in self._log)

    @property
    def _started(self) -> bool:
        return bool(self._pile or self._swept)

    def _legal_actions(self) -> tuple[Action, ...]:
        # States are immutable, so the legal actions are worked out once per state.
        try:
            return self._legal
        except AttributeError:
            pass
        p = self._to_move
        legal: tuple[Action, ...]
        if self._pending is not None:
            _, left, _ = self._pending
            legal = tuple(
                GIVES[k][s] for s in range(self.players) if s != p for k in range(1, left + 1)
            )
        elif not self._started:
            legal = (THROWS[TWO_OF_DIAMONDS],)
        else:
            hand = sorted(self._hands[p], key=_CODE)
            if not self._pile:
                legal = tuple(THROWS[c] for c in hand)
            else:
                top = self._pile[-1]
                suit, rank = top.suit, top.rank
                follows = [THROWS[c] for c in hand if c.suit is suit or c.rank is rank]
                legal = tuple(follows) if follows else (PASS,)
        self._legal: tuple[Action, ...] = legal
        return legal

    def _is_legal(self, action: Action) -> bool:
        if isinstance(action, Penalty):
            return 0 <= action.seat < self.players and action.reason in TABLE_REASONS
        if isinstance(action, IllegalThrow):
            return (
                self._options.illegal_throw_penalty
                and self._pending is None
                and action.card in self._hands[self._to_move]
                and Throw(action.card) not in self._legal_actions()
            )
        return action in self._legal_actions()

    def _parse(self, text: str) -> Action:
        return parse_action(text)

    def _refusal(self, text: str) -> str:
        try:
            action = parse_action(text)
        except InvalidNotation as err:
            return str(err)
        p = self._to_move
        who = seat_name(p)
        if isinstance(action, Penalty | Give) and not 0 <= action.seat < self.players:
            return f"there is no {seat_name(action.seat)}: the players are 1 to {self.players}"
        if isinstance(action, IllegalThrow):
            if not self._options.illegal_throw_penalty:
                return "the illegal throw penalty is off (option illegal_throw_penalty, G13)"
            if action.card not in self._hands[p]:
                return f"{action.card} is not in {who}'s hand"
            return f"{action.card} is a legal throw, not an illegal one (G13)"
        if self._pending is not None:
            giver, left, _ = self._pending
            if isinstance(action, Give):
                if action.seat == giver:
                    return f"{who} cannot give drinks to himself (G5)"
                return f"only {left} drink{'s' if left > 1 else ''} are left to give (G5)"
            return f"{seat_name(giver)} must first give {left} drinks (G5)"
        if isinstance(action, Give):
            return "there are no drinks to give: only a black face card gives (G5)"
        hand = self._hands[p]
        if isinstance(action, Throw):
            card = action.card
            if card not in hand:
                return f"{card} is not in {who}'s hand"
            if not self._started:
                return "the holder of 2D throws it first (G1)"
            top = self._pile[-1]
            return f"{card} does not follow {top}: neither suit nor rank (G2)"
        return "you must throw when you can (G2)"

    def _apply(self, action: Action) -> Self:
        t = _Turn(self)
        if isinstance(action, Throw):
            t.throw(action.card)
        elif isinstance(action, Give):
            t.give(action.drinks, action.seat)
        elif isinstance(action, Penalty):
            t.drink(action.seat, action.drinks, action.reason)
        elif isinstance(action, IllegalThrow):
            t.drink(t.to_move, 2, "illegal", action.card)
        else:
            t.pass_turn()
        nxt = type(self).__new__(type(self))
        nxt._options = self._options
        nxt._hands = tuple(t.hands)
        nxt._pile = t.pile
        nxt._pile_seats = t.pile_seats
        nxt._swept = t.swept
        nxt._taken = tuple(t.taken)
        nxt._given = tuple(t.given)
        nxt._pending = t.pending
        nxt._to_move = t.to_move
        nxt._last_thrower = t.last_thrower
        nxt._passed = t.passed
        nxt._first_out = t.first_out
        nxt._void_suits = tuple(t.void_suits)
        nxt._void_ranks = tuple(t.void_ranks)
        nxt._over = t.over
        nxt._log = tuple(t.log)
        return nxt

    def view(self, seat: int | None) -> DeathView:
        self._check_seat(seat)
        return DeathView(
            seat=seat,
            players=self.players,
            options=self._options,
            to_move=self.to_move,
            hand=None if seat is None else tuple(sorted(self._hands[seat])),
            hand_sizes=tuple(len(h) for h in self._hands),
            pile=self._pile,
            pile_seats=self._pile_seats,
            swept=self._swept,
            drinks_taken=self._taken,
            drinks_given=self._given,
            pending_give=None if self._pending is None else self._pending[:2],
            passed=self._passed,
            last_thrower=self._last_thrower,
            first_out=self._first_out,
            void_suits=self._void_suits,
            void_ranks=self._void_ranks,
            over=self._over,
            started=self._started,
        )

    def hidden_from(self, seat: int | None) -> frozenset[str]:
        return frozenset(str(c) for s, hand in enumerate(self._hands) if s != seat for c in hand)

    def to_json(self) -> dict[str, JSON]:
        return {
            "to_move": self.to_move,
            "hands": [[str(c) for c in h] for h in self._hands],
            "pile": [str(c) for c in reversed(self._pile)],
            "drinks_taken": list(self._taken),
            "drinks_given": list(self._given),
            "pending_give": None
            if self._pending is None
            else {"seat": self._pending[0], "drinks": self._pending[1]},
            "first_out": self._first_out,
            "over": self._over,
        }


class DeathGame(Game):
    """Becker's Game of Death for 2 to 10 players (rulings G1-G14)."""

    info: ClassVar[GameInfo] = GameInfo(
        name="death",
        title="Becker's Game of Death",
        aliases=("game-of-death", "beckers-game-of-death"),
        min_players=MIN_PLAYERS,
        max_players=MAX_PLAYERS,
        default_players=4,
        decisions=True,
        options=(
        OptionSpec(
            "difference_against_faces",
            "bool",
            False,
            "going down from a J, Q or K (11, 12, 13) to a lower number card also drinks the "
            "difference",
            ruling="G3",
        ),
        OptionSpec(
            "illegal_throw_penalty",
            "bool",
            True,
            "an illegal throw costs 2 drinks and the card goes back (front ends for people)",
            ruling="G13",
        ),
        OptionSpec(
            "sober",
            "players",
            (),
            "players (numbered from 1) who play without drinking: drinks are kept as points",
            ruling="G14",
        ),
    ),
        # 52 throws, a pass, and a give of 1 to 20 drinks to one of 10 seats (G5).
        num_distinct_actions=52 + 1 + 20 * 10,
        # 52 throws, at most 9 passes after each, and 52 drinks to give one at a time.
        max_game_length=52 + 52 * (MAX_PLAYERS - 1) + 52,
        summary="follow suit or rank, drink and give drinks, for 2 to 10 players",
    )

    def typed_options(
        self, given: Mapping[str, object] | None, players: int = MAX_PLAYERS
    ) -> DeathOptions:
        values = self.options(given)
        sober = values["sober"]
        assert isinstance(sober, tuple)
        if any(k > players for k in sober):
            raise InvalidOption(
                f"option sober of death names Player {max(sober)}, but there are {players} players"
            )
        return DeathOptions(
            difference_against_faces=bool(values["difference_against_faces"]),
            illegal_throw_penalty=bool(values["illegal_throw_penalty"]),
            sober=frozenset(k - 1 for k in sober),
        )

    def new(
        self,
        players: int,
        seed: int,
        options: Mapping[str, object] | None = None,
        deal: JSON = None,
    ) -> DeathState:
        """A new game from ``deal`` or dealt from ``seed``: all 52 cards round-robin from
        seat 0 (G1)."""
        players = self.check_players(players)
        seed = check_seed(seed)
        typed = self.typed_options(options, players)
        if deal is None:
            deck = list(deck52())
            make_rng(seed).shuffle(deck)
            hands = tuple(tuple(deck[s::players]) for s in range(players))
        else:
            hands = parse_deal(deal, players)
        return DeathState(hands, typed)

    def sample(self, view: View, rng: random.Random) -> DeathState:
        from parlour.games.death.sample import sample_state

        if not isinstance(view, DeathView):
            raise TypeError("DeathGame.sample needs a DeathView")
        return sample_state(view, rng)


DeathState.game = DeathGame()
