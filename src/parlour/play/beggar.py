"""Beggar-My-Neighbour at the terminal: a game shown trick by trick, in plain words.

Each trick is one line: who turns what, who must pay how many and with which cards, who takes
the pile; then the counts so far (M8) and every hand's size.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from rich.console import Console
from rich.text import Text

from parlour.cards import parse_card
from parlour.core.game import Event, seat_name
from parlour.games.beggar.notation import format_deal_ranks, format_token
from parlour.games.beggar.play import play_to_end
from parlour.games.beggar.rules import PLAY, BeggarState

__all__ = ["describe_result", "show_game", "tricks"]

_SUIT_STYLE = {"♥": "red", "♦": "red"}


def tricks(state: BeggarState) -> Iterator[tuple[BeggarState, list[Event]]]:
    """Play on from ``state``, yielding the state after each trick with that trick's events."""
    events: list[Event] = []
    while not state.is_over:
        state = state._apply(PLAY)
        events.extend(state.events)
        if any(e.kind in ("captured", "won", "loop", "limit") for e in state.events):
            yield state, events
            events = []


def _card_text(card: str) -> Text:
    """A card as people read it (``10♥`` in red); rank-only classes (``K``, ``-``) as they are."""
    pretty = parse_card(card).pretty() if len(card) > 1 else card
    return Text(pretty, style=_SUIT_STYLE.get(pretty[-1:], "bold"))


def describe_trick(number: int, events: list[Event]) -> Text:
    """One line for one trick, e.g. ``Trick 3: Player 1 7♥ · Player 2 K♠ → Player 1 pays 3:
    2♦ 5♠ J♥ → Player 2 pays 1: 4♣ ⇒ Player 1 takes 8 cards``."""
    line = Text(f"Trick {number}: ", style="bold cyan")
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
            line.append_text(_card_text(str(data["card"])))
        elif event.kind == "owes":
            paying = int(data["seat"])
            line.append(f" → {seat_name(paying)} pays {data['cards']}:", style="yellow")
            last = paying
        elif event.kind == "captured":
            line.append(f" ⇒ {event.text}", style="green")
        elif event.kind == "out":
            line.append(f" ✗ {event.text}", style="red")
    return line


def describe_result(state: BeggarState) -> str:
    """The end of a game in plain words."""
    outcome = state.outcome
    if outcome is None:
        return "The game is not over."
    if state.cycle is not None:
        c = state.cycle
        return (
            f"The game never ends (M10): from card {c.start_cards} (trick {c.start_tricks}) it "
            f"repeats every {c.length_cards} cards ({c.length_tricks} tricks); the repeat was "
            f"seen at card {c.found_at_cards} (trick {c.found_at_tricks})."
        )
    names = " and ".join(seat_name(s) for s in outcome.winners)
    how = (
        "wins"
        if outcome.result == "win"
        else (
            "share the win" if len(outcome.winners) > 1 else "wins on cards held at the limit (M11)"
        )
    )
    return f"{names} {how} after {state.cards} cards and {state.tricks} tricks."


def show_game(
    start: BeggarState, console: Console, *, delay: float = 0.0, fast: bool = False
) -> BeggarState:
    """Show a game from ``start`` to its end; ``delay`` seconds between tricks; ``fast`` shows
    only the deal and the result. Returns the final state."""
    console.print(Text("Beggar-My-Neighbour", style="bold"), f"for {start.players} players")
    console.print("Deal, top card first:", highlight=False)
    for seat, hand in enumerate(start.hands):
        line = Text(f"  {seat_name(seat)}: ")
        for k, token in enumerate(hand):
            line.append(" " if k else "")
            line.append_text(_card_text(format_token(token)))
        console.print(line, highlight=False)
    console.print(f"  in M9 notation: {format_deal_ranks(start.deal)}", highlight=False)
    state = start
    if fast:
        state = play_to_end(start)
    else:
        for number, (state, events) in enumerate(tricks(start), 1):
            console.print(describe_trick(number, events), highlight=False)
            sizes = ", ".join(
                f"{seat_name(s)} {'out' if s in state.out else len(h)}"
                for s, h in enumerate(state.hands)
            )
            console.print(
                f"   cards {state.cards} · tricks {state.tricks} · hands: {sizes}",
                style="dim",
                highlight=False,
            )
            if delay > 0 and not state.is_over:
                time.sleep(delay)
    console.print(Text(describe_result(state), style="bold green"), highlight=False)
    return state
