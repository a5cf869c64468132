"""Issue 18, point 12: the words on the table read as people write them. One card, one trick,
one drink left to give are singular; Beggar-My-Neighbour's log says what a card of a rank-only
deal is ("a number card"), never its notation's ``-``; a player out of BEOR is told so instead
of an empty ``Your hand:`` line."""

from __future__ import annotations

import io
import random
import re

from rich.console import Console

from parlour.core.game import State
from parlour.games import find_game
from parlour.games.death.present import parse_split
from parlour.play.draw import blocks
from parlour.play.table import Table, check_seat_specs

ONE_PLURAL = re.compile(r"\b1 (cards|tricks|drinks|moves)\b")


def render(name: str, state: State, seat: int | None) -> str:
    labels = [f"Player {s + 1}" for s in range(state.players)]
    legal = state.legal_actions() if seat is not None and state.to_move == seat else ()
    out = io.StringIO()
    Console(file=out, width=160, color_system=None).print(
        blocks(find_game(name).presenter.table(state.view(seat), labels, legal), labels)
    )
    return out.getvalue()


def test_beggar_counts_one_card_and_one_trick_in_the_singular() -> None:
    """The header says ``1 trick`` (never ``1 tricks``) and a hand of one card ``1 card``."""
    state = find_game("beggar").new(2, 3)
    seen_trick = seen_card = False
    while not state.is_over:
        text = render("beggar", state, 0)
        assert not ONE_PLURAL.search(text), text
        seen_trick |= ", 1 trick" in text.splitlines()[0]
        seen_card |= bool(re.search(r"Player \d: 1 card$", text, re.MULTILINE))
        state = state.apply("play")
    assert seen_trick and seen_card


def test_beggar_log_says_a_rank_only_card_as_people_would() -> None:
    """M9: a rank-only deal knows a number card only as ``-``; the log says "a number card"
    and a court card by its name."""
    deal = "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA"
    state = find_game("beggar").new(2, 0, deal=deal)
    texts: list[str] = []
    for _ in range(8):
        state = state.apply("play")
        texts += [e.text for e in state.events]
    assert texts[:4] == [
        "Player 1 turns a number card",
        "Player 2 turns a number card",
        "Player 1 turns a number card",
        "Player 2 turns a number card",
    ]
    assert "Player 1 turns a king" in texts
    assert not any(t.endswith(" -") for t in texts)


def test_beor_counts_one_card_in_the_singular_and_says_who_is_out() -> None:
    """B8: with 3 or more players a loser's cards go to the scrap pile; his screen says "You
    are out (B8): you hold no cards." instead of an empty hand, and counts of one are singular
    (hands, stocks, the scrap pile). Seed 1 with these random moves puts a player out after
    1021 moves; each screen with a count of one on it is checked on the way."""
    game = find_game("beor")
    rng = random.Random(1)
    table = Table(game, check_seat_specs(game, ["random"] * 3), 1)
    singular = 0
    while not table.state.is_over:
        state = table.state
        view = state.view(None)
        ones = [*view.hand_sizes, *(s.size for s in view.stocks), view.scrap_size]  # type: ignore[attr-defined]
        if 1 in ones:
            text = render("beor", state, state.to_move)
            assert not ONE_PLURAL.search(text), text
            singular += "1 card" in text
        out = view.out  # type: ignore[attr-defined]
        if out:
            seat = min(out)
            text = render("beor", state, seat)
            assert "You are out (B8): you hold no cards." in text
            assert "Your hand:" not in text
            assert singular
            return
        table.apply(rng.choice(state.legal_actions()))
    raise AssertionError("the game ended with nobody out")


def test_a_give_of_one_drink_left_says_is() -> None:
    """G5: "only 1 is left to give", "only 3 are left to give"."""
    assert parse_split("2=2", 1, "3 = all to Player 3") == (
        "That gives 2 drinks, but only 1 is left to give (G5)."
    )
    assert parse_split("2=4", 3, "3 = all to Player 3") == (
        "That gives 4 drinks, but only 3 are left to give (G5)."
    )
