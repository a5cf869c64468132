"""No seat is ever shown a card the rules keep hidden from it (ARCHITECTURE.md, "The contract":
"Nothing hidden from that seat appears in it, its log or its JSON, in any notation").

At every state of every playout, for every seat and the spectator, the cards of
``state.hidden_from(seat)`` are searched for in every string the seat can be given: the view's
``repr``, ``str`` and JSON, the seat's log entry for the step that made the state, and every
event as :meth:`Event.for_seat` tells it, in every notation Parlour prints a card in. The whole
log is searched too, against what is hidden when it is shown. ``hidden_from`` itself is exact
(see ``test_public_cards.py``), so no card is excused.
"""

from __future__ import annotations

import pytest

from parlour.cards import Card, Rank, deck54, parse_card
from parlour.core import State
from tests.conformance.cardscan import cards_named, text_of
from tests.conformance.playouts import CASES, Case, Playout, case_id, playouts, seats, spread


def _leak_report(text: str, leaked: set[str]) -> str:
    """The lines of ``text`` that name a leaked card, for the failure message."""
    lines = [line for line in text.splitlines() if cards_named(line) & leaked]
    return "\n".join(line[:300] for line in lines[:5])


def _seen_by(state: State, seat: int | None) -> str:
    """Everything ``seat`` is given at ``state``: its view, its log entry for the last step,
    and each event of that step as told to it."""
    told = [e.for_seat(seat) for e in state.events]
    return text_of(state.view(seat), *state.tail(seat, 1), *(e for e in told if e is not None))


def _check_nothing_hidden_named(p: Playout, index: int, seat: int | None, text: str) -> None:
    hidden = p.states[index].hidden_from(seat)
    leaked = cards_named(text) & hidden
    assert not leaked, (
        f"{p.where(index)}: {'the spectator' if seat is None else f'seat {seat}'} is shown "
        f"{sorted(leaked)}, hidden from it:\n{_leak_report(text, leaked)}"
    )


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

    def test_views_log_entries_and_events_name_no_hidden_card(self, case: Case) -> None:
        for p in playouts(case):
            for i, state in enumerate(p.states):
                for seat in seats(state):
                    _check_nothing_hidden_named(p, i, seat, _seen_by(state, seat))

    def test_the_whole_log_names_no_card_hidden_now(self, case: Case) -> None:
        """``log(seat)`` is the entries made step by step (so the check above covers every
        entry), and read whole at any point it names no card hidden from the seat then."""
        for p in playouts(case):
            for i in spread(len(p.states)):
                state = p.states[i]
                for seat in seats(state):
                    log = state.log(seat)
                    assert log == tuple(s.tail(seat, 1)[0] for s in p.states[: i + 1]), (
                        f"{p.where(i)}: seat {seat}'s log is not its entries step by step"
                    )
                    assert state.log(seat, i // 2) == log[i // 2 :], p.where(i)
                    _check_nothing_hidden_named(p, i, seat, text_of(*log))
