"""``hidden_from(seat)`` is exact where the rules make cards public (issue 11 item 9), so the leak
checks need no exceptions: the winner's groups at a BEOR goal (B5), a card shown in an illegal
throw in the Game of Death (G13), and every hand at the Game of Death's end (G11).

Each test also shows that the cards concerned are named to everyone, so that a ``hidden_from``
still listing them would fail the leak checks.
"""

from __future__ import annotations

from itertools import chain, combinations

from parlour.cards import Card, Rank, parse_card
from parlour.core import Record, State, TableEntry, replay
from parlour.games import GAMES
from tests.conformance.cardscan import cards_named, text_of
from tests.conformance.playouts import CASES, Playout, play, playouts, seats

BEOR = GAMES["beor"]
DEATH = GAMES["death"]


def _told_to_everyone(state: State) -> set[str]:
    """The cards the events of the step that made ``state`` name to the spectator."""
    told = [e.for_seat(None) for e in state.events]
    return cards_named(text_of(*(e for e in told if e is not None)))


def _is_group(cards: tuple[Card, ...]) -> bool:
    """B5, written out again: three of one rank (no Jokers), or three consecutive ranks of one
    suit from A to Q."""
    if any(c.is_joker for c in cards):
        return False
    if len({c.rank for c in cards}) == 1:
        return True
    ranks = sorted(int(c.rank) for c in cards)
    return (
        len({c.suit for c in cards}) == 1
        and ranks == list(range(ranks[0], ranks[0] + 3))
        and Rank.KING not in {c.rank for c in cards}
    )


def _is_goal(hand: tuple[Card, ...]) -> bool:
    """B5: six cards forming two groups of three."""
    return len(hand) == 6 and any(
        _is_group(first) and _is_group(tuple(c for c in hand if c not in first))
        for first in combinations(hand, 3)
    )


def _hand(state: State, seat: int) -> tuple[Card, ...]:
    written = state.view(seat).to_json()["hand"]
    return tuple(parse_card(c) for c in written)


def _beor_goal_wins() -> list[tuple[Playout, int]]:
    """BEOR playouts won by a goal (B5), and the winner: from the shared playouts, else from
    more seeds at two players."""
    wins: list[tuple[Playout, int]] = []
    shared = (p for c in CASES if c[0] == "beor" for p in playouts(c))
    more = (play(BEOR, 2, seed) for seed in range(1, 40))
    for p in chain(shared, more):
        outcome = p.final.outcome
        assert outcome is not None
        if outcome.result == "win" and _is_goal(_hand(p.final, outcome.winners[0])):
            wins.append((p, outcome.winners[0]))
        if len(wins) >= 2:
            break
    return wins


def test_beor_the_winners_groups_are_hidden_from_nobody() -> None:
    """B5: the winner shows his two groups; they are public at the end."""
    wins = _beor_goal_wins()
    assert wins, "no BEOR playout ended with a goal (B5)"
    for p, winner in wins:
        final = p.final
        shown = {str(c) for c in _hand(final, winner)}
        assert shown <= _told_to_everyone(final), "the win names the groups to everyone"
        for seat in seats(final):
            assert not final.hidden_from(seat) & shown, (
                f"{p.where(len(p.actions))}: seat {seat} is still kept from the groups"
            )


def _an_illegal_card(state: State) -> Card | None:
    """A card of the mover's hand that is no legal throw now, and that others cannot see."""
    mover = state.to_move
    if mover is None:
        return None
    legal = {str(a) for a in state.legal_actions()}
    other = (mover + 1) % state.players
    for card in _hand(state, mover):
        if str(card) not in legal and str(card) in state.hidden_from(other):
            return card
    return None


def test_death_a_card_shown_in_an_illegal_throw_is_hidden_from_nobody() -> None:
    """G13: the card of an illegal throw is shown to the table and goes back to the hand, known
    to be there."""
    tried = 0
    for case in (c for c in CASES if c[0] == "death"):
        p = playouts(case)[0]
        if p.options:
            continue  # the illegal throw penalty is on by default only
        found = next(
            ((i, c) for i, s in enumerate(p.states) if (c := _an_illegal_card(s)) is not None),
            None,
        )
        if found is None:
            continue
        i, card = found
        state = p.states[i]
        mover = state.to_move
        assert mover is not None
        after = state.apply_table(f"illegal {card}", by=mover)
        assert str(card) in _told_to_everyone(after)
        assert card in _hand(after, mover), "the card goes back to the hand"
        assert after.to_move == mover and after.legal_actions() == state.legal_actions()
        for seat in seats(after):
            assert str(card) not in after.hidden_from(seat), f"{p.where(i)}, seat {seat}"
        on = after.apply(after.legal_actions()[0])
        if card in _hand(on, mover):
            assert all(str(card) not in on.hidden_from(s) for s in seats(on)), p.where(i + 1)
        record = Record(
            "death",
            p.players,
            p.seed,
            dict(p.options),
            None,
            tuple(str(a) for a in p.actions[:i]),
            table=(TableEntry(i, f"illegal {card}", mover),),
        )
        assert replay(record, DEATH)[-1].to_json() == after.to_json()
        tried += 1
    assert tried >= 3, "too few playouts held a card that did not follow"


def test_death_every_hand_is_public_at_the_end() -> None:
    """G11: at the end each player drinks for the black face cards he still holds, shown to
    the table; nothing is hidden from anyone any more."""
    for case in (c for c in CASES if c[0] == "death"):
        for p in playouts(case):
            final = p.final
            for seat in seats(final):
                assert final.hidden_from(seat) == frozenset(), (
                    f"{p.where(len(p.actions))}: seat {seat} is still kept from "
                    f"{sorted(final.hidden_from(seat))}"
                )
