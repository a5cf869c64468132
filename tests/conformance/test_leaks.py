"""No seat is ever shown a card the rules keep hidden from it (ARCHITECTURE.md, "The contract":
"Nothing hidden from that seat appears in it, its log or its JSON, in any notation").

At every state of every playout, for every seat and the spectator, the cards of
``state.hidden_from(seat)`` are searched for in every string the seat can be given, in every
notation Parlour prints a card in: the view's ``repr``, ``str`` and JSON, and the seat's whole
log so far (``repr`` and JSON of each entry, made of the step's events as
:meth:`Event.for_seat` tells them). ``hidden_from`` itself is exact (see
``test_public_cards.py``), so no card is excused.
"""

from __future__ import annotations

import pytest

from parlour.cards import Card, Rank, deck54, parse_card
from tests.conformance.cardscan import cards_named, text_of
from tests.conformance.playouts import CASES, Case, case_id, playouts, seats, spread


def _leak_report(text: str, leaked: set[str]) -> str:
    """The lines of ``text`` that name a leaked card, for the failure message."""
    lines = [line for line in text.splitlines() if cards_named(line) & leaked]
    return "\n".join(line[:300] for line in lines[:5])


def _who(seat: int | None) -> str:
    return "the spectator" if seat is None else f"seat {seat}"


class TestTheCardFinder:
    """The search finds a card in every form Parlour prints it in, and only as a card."""

    @pytest.mark.parametrize("card", deck54(), ids=str)
    def test_every_form_of_a_card_is_found(self, card: Card) -> None:
        forms = [str(card), card.pretty(), repr(card)]
        if card.suit is not None:
            forms.append(card.rank.letter + card.suit.symbol)
            if card.rank is Rank.TEN:
                forms.append("10" + card.suit.value)
            words = f"{card.rank.name.lower()} of {card.suit.name.lower()}"
            forms += [words, words.title(), words.upper()]
        else:
            forms.append(f"Joker {card.joker}")
        for form in forms:
            for text in (form, f"Player 2 draws {form} from black.", f'["{form}",'):
                assert cards_named(text) == {str(card)}, text

    @pytest.mark.parametrize(
        "text",
        [
            "Player 3 passes",
            "PASS",
            "such as",
            "GAS",
            "B5 G11 G13 M10",
            "give 3>P2",
            "doh 1>P3",
            "Black, Even, Odd, Red",
            "Social! everyone drinks 1 (G7)",
            "ASH THE",
        ],
    )
    def test_words_that_hold_card_letters_are_not_cards(self, text: str) -> None:
        assert cards_named(text) == set()


@pytest.mark.parametrize("case", CASES, ids=case_id)
class TestNothingHiddenIsShown:
    def test_hidden_from_lists_cards_in_their_canonical_notation(self, case: Case) -> None:
        """hidden_from names cards as ``str()`` writes them, and a spectator, who sees only
        what is public, is kept from every card kept from any seat."""
        for p in playouts(case):
            for i in spread(len(p.states), 12):
                state = p.states[i]
                spectator = state.hidden_from(None)
                for seat in seats(state):
                    hidden = state.hidden_from(seat)
                    assert isinstance(hidden, frozenset), p.where(i)
                    assert all(str(parse_card(c)) == c for c in hidden), p.where(i)
                    assert hidden <= spectator, (
                        f"{p.where(i)}: seat {seat} is kept from {sorted(hidden - spectator)}, "
                        "which the spectator is not"
                    )

    def test_no_view_log_entry_or_event_names_a_hidden_card(self, case: Case) -> None:
        """At every state, for every seat: its view, and its whole log so far (each entry is
        searched once, when its step is made; ``log(seat)`` is those entries, checked at a few
        states), name no card hidden from it now."""
        for p in playouts(case):
            checked = set(spread(len(p.states)))
            for seat in seats(p.states[0]):
                told: dict[str, int] = {}  # card named in the log so far -> the entry naming it
                for i, state in enumerate(p.states):
                    entry = state.tail(seat, 1)[0]
                    events = tuple(e for e in (x.for_seat(seat) for x in state.events) if e)
                    assert entry.events == events, f"{p.where(i)}: {_who(seat)}'s log entry"
                    for card in cards_named(text_of(entry)):
                        told.setdefault(card, i)
                    if i in checked:
                        assert state.log(seat) == tuple(
                            s.tail(seat, 1)[0] for s in p.states[: i + 1]
                        )
                    hidden = state.hidden_from(seat)
                    shown = text_of(state.view(seat))
                    leaked = (cards_named(shown) | told.keys()) & hidden
                    if leaked:
                        entries = sorted({told[c] for c in leaked if c in told})
                        text = shown + "".join(
                            "\n" + text_of(p.states[k].tail(seat, 1)[0]) for k in entries
                        )
                        raise AssertionError(
                            f"{p.where(i)}: {_who(seat)} is shown {sorted(leaked)}, hidden from "
                            f"it (view, or log entries {entries}):\n{_leak_report(text, leaked)}"
                        )
