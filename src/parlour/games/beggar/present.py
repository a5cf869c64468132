"""How front ends show Beggar-My-Neighbour: the table from a seat's view, Enter to turn a card
(``auto`` to have them turned), the result in words, the rules in short, and a bots-only game
shown trick by trick in plain words.

Each trick of a watched game is one line: who turns what, who must pay how many and with which
cards, who takes the pile; then the counts so far (M8) and every hand's size.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

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
from parlour.core.words import catalog
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


def _count(count: int, one: str) -> str:
    """``1 card``, ``2 cards``."""
    return f"{count} {one}{'s' if count != 1 else ''}"


def describe_result(outcome: Outcome, labels: Sequence[str] | None = None) -> str:
    """The end of a game in plain words, ending with a full stop (``labels`` name the seats;
    by default "Player 1".."Player n")."""
    details: Mapping[str, JSON] = outcome.details
    cycle = details.get("cycle")
    if outcome.result == "loop" and isinstance(cycle, dict):
        return (
            f"The game never ends (M10): from card {cycle['start_cards']} (trick "
            f"{cycle['start_tricks']}) it repeats every {cycle['length_cards']} cards "
            f"({cycle['length_tricks']} tricks); the repeat was seen at card "
            f"{cycle['found_at_cards']} (trick {cycle['found_at_tricks']})."
        )
    name = (lambda s: labels[s]) if labels is not None else seat_name
    names = " and ".join(name(s) for s in outcome.winners)
    if outcome.result == "win":
        how = "wins"
    elif len(outcome.winners) > 1:
        how = "share the win"
    else:
        how = "wins on cards held at the limit (M11)"
    return f"{names} {how} after {details.get('cards')} cards and {details.get('tricks')} tricks."


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


def describe_trick(number: int, events: list[Event]) -> Styled:
    """One line for one trick, e.g. ``Trick 3: Player 1 7♥ · Player 2 K♠ → Player 1 pays 3:
    2♦ 5♠ J♥ → Player 2 pays 1: 4♣ ⇒ Player 1 takes 8 cards``."""
    line = Styled(f"Trick {number}: ", style="bold cyan")
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
            line.append(f" → {seat_name(paying)} pays {data['cards']}:", style="yellow")
            last = paying
        elif event.kind == "captured":
            line.append(f" ⇒ {event.text}", style="green")
        elif event.kind == "out":
            line.append(f" ✗ {event.text}", style="red")
    return line


class BeggarWatcher(Watcher):
    """A bots-only game shown trick by trick: the deal, then a line a trick with the counts so
    far (M8) and every hand's size, then the result."""

    def lines(self, start: State, *, fast: bool) -> Iterator[WatchLine]:
        assert isinstance(start, BeggarState)
        yield WatchLine(
            Styled.assemble(
                Styled("Beggar-My-Neighbour", style="bold"), f" for {start.players} players"
            ),
            start,
        )
        yield WatchLine(Styled("Deal, top card first:"), start)
        for seat, hand in enumerate(start.hands):
            line = Styled(f"  {seat_name(seat)}: ")
            for k, token in enumerate(hand):
                line.append(" " if k else "")
                line.append(_token_text(format_token(token)))
            yield WatchLine(line, start)
        yield WatchLine(Styled(f"  in M9 notation: {format_deal_ranks(start.deal)}"), start)
        state = start
        if fast:
            state = play_to_end(start)
        for number, (state, events) in enumerate(() if fast else tricks(start), 1):
            yield WatchLine(describe_trick(number, events), state)
            sizes = ", ".join(
                f"{seat_name(s)} {'out' if s in state.out else len(h)}"
                for s, h in enumerate(state.hands)
            )
            counts = f"   cards {state.cards} · tricks {state.tricks} · hands: {sizes}"
            yield WatchLine(Styled(counts, style="dim"), state, pause=True)
        assert state.outcome is not None
        yield WatchLine(Styled(describe_result(state.outcome), style="bold green"), state)

    def watched(self, end: State) -> Watched:
        """Every card turned is one ``play``; an attempt with no card is not an action (M8).
        The result is ``parlour beggar play``'s."""
        assert isinstance(end, BeggarState)
        return Watched(end, ("play",) * end.cards, end.summary())


class BeggarPresenter(Presenter):
    """Beggar-My-Neighbour at a table: hand sizes, the pile, the payment in progress."""

    rules = RULES
    words = catalog("parlour.games.beggar.words")
    input_help = "Enter turns your card · auto: turn your cards for you to the end of the game"
    deal_usage = "a deal in M9 notation (--Q-K.../-K--A...), the first hand leading"

    watcher = BeggarWatcher()

    def table(self, view: View, labels: Sequence[str], legal: Sequence[Action]) -> list[Block]:
        """Hand sizes, the pile (top last), the payment in progress and the M8 counts."""
        assert isinstance(view, BeggarView)
        detail = f"{_count(view.cards, 'card')}, {_count(view.tricks, 'trick')}"
        head = Heading(self.words("game.title"), detail, view.to_move)
        pile = Styled("Pile (top last): ", style="bold")
        if not view.pile:
            pile.append("empty", style="dim")
        shown = view.pile[-12:]
        if len(view.pile) > len(shown):
            pile.append(f"{len(view.pile) - len(shown)} more ", style="dim")
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
                hands.append("out (M3)", style="red")
            else:
                hands.append(_count(view.hand_sizes[seat], "card"))
        parts: list[Block] = [head, pile, hands]
        if view.owed and view.to_move is not None and view.court_player is not None:
            parts.append(
                Styled(
                    f"{seat_name(view.to_move)} must pay {view.owed} more card"
                    f"{'s' if view.owed > 1 else ''} to {seat_name(view.court_player)} (M1)",
                    style="yellow",
                )
            )
        return parts

    def result_text(self, outcome: Outcome, labels: Sequence[str], moves: int) -> str:
        return describe_result(outcome, labels).removesuffix(".")

    def numbered(self, legal: Sequence[Action]) -> list[Action]:
        """None: a card is turned with Enter, there is nothing to choose."""
        return []

    def prompt(self, view: View) -> str:
        assert view.seat is not None
        return f"{seat_name(view.seat)}, press Enter to turn your card (or auto, help)> "

    def read(self, view: View, line: str) -> Reply:
        """Enter (or ``turn``) turns the top card; ``auto`` turns them all from now on."""
        assert view.seat is not None
        word = line.lower()
        if word in _TURN:
            return Reply(actions=(str(PLAY),))
        if word in _AUTO:
            return Reply(
                message=f"{seat_name(view.seat)}'s cards will be turned for him from now on.",
                auto=True,
            )
        return Reply(message="Press Enter to turn your card; auto turns them for you; help, quit.")

    def deal_players(self, deal: str) -> int:
        """M9: one hand a player."""
        return len(parse_deal(deal))


PRESENTER = BeggarPresenter()
