"""One action of Beggar-My-Neighbour worked through: a card turned and everything it settles
without another card (seed texts ``beggar-my-neighbour.*.txt``, rulings M1-M6, M8, M10, M11), and
the table's stop when the agreed time runs out (M12).

:class:`Turn` works on mutable copies of a position, one method per ruling, and never escapes
:meth:`parlour.games.beggar.rules.BeggarState._apply`, so states stay immutable.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from parlour.core.inputs import quote
from parlour.errors import GameOver, IllegalAction, InvalidNotation
from parlour.games.beggar.events import (
    BeggarEvent,
    Captured,
    LimitReached,
    Looped,
    Owes,
    TimeUp,
    WentOut,
    Won,
)
from parlour.games.beggar.history import Cycle, History, position_key
from parlour.games.beggar.notation import HONOUR, Token
from parlour.games.beggar.options import BeggarOptions, UnpaidPenalty
from parlour.games.beggar.sentences import said

__all__ = ["Turn", "refuse_time"]


def refuse_time(text: str, options: BeggarOptions, over: bool) -> None:
    """M12: the table entry ``time`` is taken only in a game with an agreed time
    (``time_limit``) that is not over.

    Raises:
        InvalidNotation: the text is not ``time``, the game's one table entry.
        IllegalAction: the game has no agreed time (M12).
        GameOver: the game is over (M12).
    """
    if text.lower() != "time":
        raise InvalidNotation(said("refusal.entry", text=quote(text)))
    if options.time_limit is None:
        raise IllegalAction(said("refusal.time.no_limit"))
    if over:
        raise GameOver(said("refusal.time.over"))


class Turn:
    """One action worked through on mutable copies of a position; one method per ruling."""

    __slots__ = (
        "cards",
        "court",
        "cycle",
        "hands",
        "history",
        "known",
        "log",
        "out",
        "owed",
        "pile",
        "to_move",
        "tricks",
        "turned",
        "unseen",
        "winners",
    )

    def __init__(
        self,
        hands: Sequence[tuple[Token, ...]],
        pile: tuple[Token, ...],
        to_move: int,
        owed: int,
        court: int | None,
        out: tuple[int, ...],
        cards: int,
        tricks: int,
        unseen: tuple[int, ...],
        history: History,
        known: int,
    ) -> None:
        """A position in progress: ``to_move`` holds a card; ``unseen`` counts the cards of
        each hand nobody has seen; ``known`` the positions of ``history`` in its past (M10)."""
        self.hands = list(hands)
        self.pile = pile
        self.to_move = to_move
        self.owed = owed
        self.court = court
        self.out = out
        self.cards = cards
        self.tricks = tricks
        self.unseen = unseen
        self.history = history
        self.known = known
        self.turned: tuple[int, Token] | None = None
        self.log: list[BeggarEvent] = []
        self.winners: tuple[int, ...] | None = None
        self.cycle: Cycle | None = None

    def fields(self) -> tuple[Any, ...]:
        """The position worked through to, in the order of ``BeggarState._make`` after the
        deal, the options and the kind of cards (which a turn never changes)."""
        return (
            tuple(self.hands),
            self.pile,
            self.to_move,
            self.owed,
            self.court,
            self.out,
            self.cards,
            self.tricks,
            self.unseen,
            self.history,
            self.known,
            self.turned,
            tuple(self.log),
            self.winners,
            self.cycle,
        )

    def play(self, options: BeggarOptions) -> None:
        """The player to move turns his top card, and the table settles what follows."""
        self.turn_card()
        if self.winners is None:
            self.run_out(options.unpaid_penalty)
        if self.winners is None:
            self.check_limit(options.card_limit)

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
        if self.unseen[p]:
            unseen = list(self.unseen)
            unseen[p] -= 1
            self.unseen = tuple(unseen)
        self.pile = (*self.pile, card)
        self.cards += 1
        # M8: every action turns exactly one card. Kept as a pair here, on the hot path of
        # whole games, and made a TurnedCard only when the state's events are asked for.
        self.turned = (p, card)
        owed = HONOUR[card]
        if owed:
            self.owed = owed
            self.court = p
            self.to_move = self.next_in(p)
            self.log.append(Owes(self.to_move, owed))
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
        self.take_pile(seat)
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

    def take_pile(self, seat: int) -> None:
        """M2: the pile goes under ``seat``'s hand; M8: a pile taken is a trick."""
        self.log.append(Captured(seat, len(self.pile)))
        self.hands[seat] = self.hands[seat] + self.pile
        self.pile = ()
        self.tricks += 1

    def go_out(self, seat: int) -> None:
        """M3, M5: ``seat`` holds no card and is out."""
        self.out = (*self.out, seat)
        self.log.append(WentOut(seat))

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
            self.take_pile(seat)
        self.owed = 0
        self.court = None
        self.winners = (seat,)
        self.log.append(Won(seat))

    def check_loop(self) -> None:
        """M10: a position (hands by class, in order, and the leader) seen before at a trick
        boundary of this line of play repeats forever; the game ends as a loop."""
        key = position_key(self.hands, self.to_move)
        self.history, self.cycle = self.history.record(self.known, key, self.cards, self.tricks)
        if self.cycle is None:
            self.known += 1
        else:
            self.winners = ()
            self.log.append(Looped(self.cycle))

    def check_limit(self, limit: int | None) -> None:
        """M11: after ``card_limit`` cards the player holding most cards wins; ties share.

        Checked once everything the last card settles without another card has happened (a
        capture, players going out, the end of M6), so a limit at or beyond a game's length
        never changes its result. The pile on the table counts for nobody."""
        if limit is not None and self.cards >= limit and self.winners is None:
            self.winners = self.most_cards()
            self.log.append(LimitReached(self.cards, self.winners))

    def time_up(self) -> None:
        """M12: the agreed time ran out. Play stops at once, as under M11: the cards on the
        pile count for nobody, the player holding most cards wins, equal most share the win."""
        self.winners = self.most_cards()
        self.log.append(TimeUp(self.cards, self.winners))

    def most_cards(self) -> tuple[int, ...]:
        """M11, M12: the seats holding most cards (a seat that is out holds none)."""
        sizes = [0 if s in self.out else len(h) for s, h in enumerate(self.hands)]
        top = max(sizes)
        return tuple(s for s, k in enumerate(sizes) if k == top)
