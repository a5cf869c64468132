"""How front ends show Beggar-My-Neighbour: the table from a seat's view, Enter to turn a card
(``auto`` to have them turned), the result in words, the rules in short, and a bots-only game
shown trick by trick in plain words.

Each trick of a watched game is one line: who turns what, who must pay how many and with which
cards, who takes the pile; then the counts so far (M8) and every hand's size.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Self

from parlour.cards import Card, parse_card
from parlour.core.game import JSON, Action, Event, Outcome, State, View, seat_name
from parlour.core.present import (
    Block,
    Heading,
    Presenter,
    Reply,
    Styled,
    Watched,
    Watcher,
    WatchLine,
    card_text,
)
from parlour.core.words import Catalog, catalog
from parlour.games.beggar.notation import format_deal_ranks, format_token, parse_deal
from parlour.games.beggar.play import play_to_end
from parlour.games.beggar.rules import PLAY, BeggarState
from parlour.games.beggar.view import BeggarView

__all__ = [
    "PRESENTER",
    "BeggarPresenter",
    "BeggarWatcher",
    "describe_result",
    "describe_trick",
    "tricks",
]

RULES = "\n".join(
    (
        "Beggar-My-Neighbour: win every card. There are no decisions: in turn each player "
        "turns his top card onto the pile.",
        "• Court cards (M1): J, Q, K, A make the next player pay 1, 2, 3 or 4 cards. A court "
        "card turned while paying passes the debt on to the next player.",
        "• Capture (M2): when a payment ends with number cards only, the court card's player "
        "takes the pile under his hand and leads.",
        "• Out (M3, M6): a player who must play and has no card is out; the last player "
        "holding cards wins. Some deals never end (M10): the game stops when a position "
        "repeats.",
    )
)

_SUIT_STYLE = {"♥": "red", "♦": "red"}
_TURN = ("", "t", "turn", "play")
_AUTO = ("auto", "watch")


_WORDS = catalog("parlour.games.beggar.words")


def _seat(words: Catalog) -> Callable[[int], str]:
    """A seat's name in the catalog's language (``Player 1`` for seat 0)."""
    return lambda seat: words("ui.seat", number=seat + 1)


def _names(names: Sequence[str], words: Catalog) -> str:
    """``Player 1 and Player 2`` in the catalog's language."""
    if len(names) <= 1:
        return "".join(names)
    return words("ui.and", names=", ".join(names[:-1]), last=names[-1])


def _number(value: JSON) -> int:
    return value if isinstance(value, int) else 0


def describe_result(
    outcome: Outcome, labels: Sequence[str] | None = None, words: Catalog = _WORDS
) -> str:
    """The end of a game in plain words, ending with a full stop (``labels`` name the seats;
    by default "Player 1".."Player n"), in the language of ``words``."""
    details: Mapping[str, JSON] = outcome.details
    cycle = details.get("cycle")
    if outcome.result == "loop" and isinstance(cycle, dict):
        return words("ui.result.loop", **cycle)
    name = (lambda s: labels[s]) if labels is not None else _seat(words)
    names = _names([name(s) for s in outcome.winners], words)
    cards = words("ui.count.cards", _number(details.get("cards")))
    tricks = words("ui.count.tricks", _number(details.get("tricks")))
    if outcome.result == "time":
        # M12: every hand's count, the pile counting for nobody.
        hands = ", ".join(
            words("ui.result.hand", player=name(s), cards=words("ui.count.cards", held))
            for s, held in enumerate(outcome.scores)
        )
        key = "ui.result.time" if len(outcome.winners) == 1 else "ui.result.time_share"
        return words(key, names=names, cards=cards, tricks=tricks, hands=hands)
    if outcome.result == "win":
        key = "ui.result.win"
    elif len(outcome.winners) > 1:
        key = "ui.result.share"
    else:
        key = "ui.result.limit"
    return words(key, names=names, cards=cards, tricks=tricks)


def tricks(state: BeggarState) -> Iterator[tuple[BeggarState, list[Event]]]:
    """Play on from ``state``, yielding the state after each trick with that trick's events."""
    events: list[Event] = []
    while not state.is_over:
        # The package's own fast step: a watched game keeps no log of its own.
        state = state._apply(PLAY)
        events.extend(state.events)
        if any(e.kind in ("captured", "won", "loop", "limit") for e in state.events):
            yield state, events
            events = []


def _token_text(card: str) -> Styled:
    """A card as people read it (``10♥`` in red); rank-only classes (``K``, ``-``) as they are."""
    pretty = parse_card(card).pretty() if len(card) > 1 else card
    return Styled(pretty, style=_SUIT_STYLE.get(pretty[-1:], "bold"))


def describe_trick(number: int, events: list[Event], words: Catalog = _WORDS) -> Styled:
    """One line for one trick, e.g. ``Trick 3: Player 1 7♥ · Player 2 K♠ → Player 1 pays 3:
    2♦ 5♠ J♥ → Player 2 pays 1: 4♣ ⇒ Player 1 takes 8 cards`` (in the language of
    ``words``)."""
    seat_name = _seat(words)
    speaker = PRESENTER.speaking(words)
    line = Styled(words("ui.w.trick", number=number) + " ", style="bold cyan")
    paying: int | None = None
    last: int | None = None
    for event in events:
        data = event.data
        if event.kind == "turned":
            seat = int(data["seat"])
            if seat != last:
                if last is not None:
                    line.append(" · " if paying is None else " ")
                line.append(seat_name(seat) + " ")
                last = seat
            else:
                line.append(" ")
            line.append(_token_text(str(data["card"])))
        elif event.kind == "owes":
            paying = int(data["seat"])
            pays = words("ui.w.pays", player=seat_name(paying), cards=data["cards"])
            line.append(f" → {pays}", style="yellow")
            last = paying
        elif event.kind == "captured":
            line.append(f" ⇒ {speaker.event_text(event, seat_name)}", style="green")
        elif event.kind == "out":
            line.append(f" ✗ {speaker.event_text(event, seat_name)}", style="red")
    return line


class BeggarWatcher(Watcher):
    """A bots-only game shown trick by trick: the deal, then a line a trick with the counts so
    far (M8) and every hand's size, then the result (in the language of ``words``)."""

    def __init__(self, words: Catalog = _WORDS) -> None:
        self.words = words

    def lines(self, start: State, *, fast: bool) -> Iterator[WatchLine]:
        assert isinstance(start, BeggarState)
        w = self.words
        seat_name = _seat(w)
        title = w("ui.w.title", title="\0", players=start.players)
        before, _, after = title.partition("\0")
        yield WatchLine(
            Styled.assemble(before, Styled(w("game.title"), style="bold"), after), start
        )
        yield WatchLine(Styled(w("ui.w.deal")), start)
        for seat, hand in enumerate(start.hands):
            line = Styled(f"  {seat_name(seat)}: ")
            for k, token in enumerate(hand):
                line.append(" " if k else "")
                line.append(_token_text(format_token(token)))
            yield WatchLine(line, start)
        yield WatchLine(Styled("  " + w("ui.w.m9", deal=format_deal_ranks(start.deal))), start)
        state = start
        if fast:
            state = play_to_end(start)
        for number, (state, events) in enumerate(() if fast else tricks(start), 1):
            yield WatchLine(describe_trick(number, events, w), state)
            sizes = ", ".join(
                w(
                    "ui.w.hand",
                    player=seat_name(s),
                    size=w("ui.w.out") if s in state.out else len(h),
                )
                for s, h in enumerate(state.hands)
            )
            counts = w("ui.w.counts", cards=state.cards, tricks=state.tricks, hands=sizes)
            yield WatchLine(Styled(f"   {counts}", style="dim"), state, pause=True)
        assert state.outcome is not None
        result = describe_result(state.outcome, words=w)
        yield WatchLine(Styled(result, style="bold green"), state)

    def watched(self, end: State) -> Watched:
        """Every card turned is one ``play``; an attempt with no card is not an action (M8).
        The result is ``parlour beggar play``'s."""
        assert isinstance(end, BeggarState)
        return Watched(end, ("play",) * end.cards, end.summary())


class BeggarPresenter(Presenter):
    """Beggar-My-Neighbour at a table: hand sizes, the pile, the payment in progress."""

    rules = RULES
    words = _WORDS
    input_help = _WORDS("ui.input_help")
    deal_usage = "a deal in M9 notation (--Q-K.../-K--A...), the first hand leading"

    watcher = BeggarWatcher()

    def speaking(self, words: Catalog) -> Self:
        """This presenter, its help line and its watched games in the language of ``words``."""
        spoken = super().speaking(words)
        spoken.input_help = words("ui.input_help")
        spoken.watcher = BeggarWatcher(words)
        return spoken

    def table(self, view: View, labels: Sequence[str], legal: Sequence[Action]) -> list[Block]:
        """Hand sizes, the pile (top last), the payment in progress and the M8 counts."""
        assert isinstance(view, BeggarView)
        w = self.words
        detail = f"{w('ui.count.cards', view.cards)}, {w('ui.count.tricks', view.tricks)}"
        head = Heading(w("game.title"), detail, view.to_move)
        pile = Styled(w("ui.t.pile") + " ", style="bold")
        if not view.pile:
            pile.append(w("ui.t.empty"), style="dim")
        shown = view.pile[-12:]
        if len(view.pile) > len(shown):
            pile.append(w("ui.t.more", len(view.pile) - len(shown)) + " ", style="dim")
        for k, token in enumerate(shown):
            pile.append(" " if k else "")
            pile.append(
                card_text(token) if isinstance(token, Card) else Styled(format_token(token))
            )
        hands = Styled()
        for seat, label in enumerate(labels):
            hands.append("\n" if seat else "")
            hands.append(f"{label}: ")
            if seat in view.out:
                hands.append(w("ui.t.out"), style="red")
            else:
                hands.append(w("ui.count.cards", view.hand_sizes[seat]))
        parts: list[Block] = [head, pile, hands]
        if view.owed and view.to_move is not None and view.court_player is not None:
            owes = w(
                "ui.t.owes",
                view.owed,
                player=_seat(w)(view.to_move),
                court=_seat(w)(view.court_player),
            )
            parts.append(Styled(owes, style="yellow"))
        return parts

    def result_text(self, outcome: Outcome, labels: Sequence[str], moves: int) -> str:
        return describe_result(outcome, labels, self.words).removesuffix(".")

    def numbered(self, legal: Sequence[Action]) -> list[Action]:
        """None: a card is turned with Enter, there is nothing to choose."""
        return []

    def prompt(self, view: View) -> str:
        assert view.seat is not None
        return self.words("ui.prompt", player=seat_name(view.seat))

    def read(self, view: View, line: str) -> Reply:
        """Enter (or ``turn``) turns the top card; ``auto`` turns them all from now on."""
        assert view.seat is not None
        word = line.lower()
        if word in _TURN:
            return Reply(actions=(str(PLAY),))
        if word in _AUTO:
            player = _seat(self.words)(view.seat)
            return Reply(message=self.words("ui.auto_on", player=player), auto=True)
        return Reply(message=self.words("ui.press_enter"))

    def event_words(self, event: Event, name: Callable[[int], str]) -> tuple[str, dict[str, Any]]:
        """A payment's and a capture's count, a loop's length, and the winners of a card limit
        and of the agreed time (with its count of cards) as the browser's board says them."""
        key, values = super().event_words(event, name)
        data = event.data
        if event.kind in ("owes", "captured"):
            values["count"] = data.get("cards")
        elif event.kind == "loop":
            values["cards"] = data.get("length_cards")
            values["tricks"] = data.get("length_tricks")
        elif event.kind in ("limit", "time_up"):
            if event.kind == "time_up":
                values["count"] = data.get("cards")
            winners = data.get("winners")
            seats = [s for s in winners if isinstance(s, int)] if isinstance(winners, list) else []
            values["names"] = self.names([name(s) for s in seats])
        return key, values

    def deal_players(self, deal: str) -> int:
        """M9: one hand a player."""
        return len(parse_deal(deal))


PRESENTER = BeggarPresenter()
