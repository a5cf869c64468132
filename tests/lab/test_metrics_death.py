"""The Game of Death's figures (``games/death/figures.py``): a 10-player deal played by hand with
every drink counted here, the 52 black face card drinks of every deal (G5, G11) over random
playouts of 2 to 10 players, and a corrupted count refused."""

from __future__ import annotations

import random

import pytest

from parlour.cards import parse_card
from parlour.core.game import State
from parlour.games import find_game
from parlour.games.death import notation
from parlour.games.death.figures import BLACK_FACE_TOTAL, check_black_face
from parlour.lab.metrics import game_figures, leaders

GAME = find_game("death")

# Seats 0 and 1 hold 6 cards, the others 5 (G1). Seat 2 holds 2D and the four Aces; the black
# face cards other than the Aces are left in hands for the end (G11).
HANDS = [
    ["6C", "8C", "9C", "TC", "3D", "8D"],
    ["7C", "9D", "TD", "JD", "QD", "KD"],
    ["2D", "AC", "AD", "AH", "AS"],
    ["2H", "3H", "4H", "5H", "6H"],
    ["2S", "7H", "8H", "9H", "TH"],
    ["2C", "KS", "JH", "QH", "KH"],
    ["3C", "QS", "3S", "4S", "5S"],
    ["JS", "4D", "5D", "6D", "7D"],  # no club and no 3: passes on 3C (G2)
    ["4C", "KC", "6S", "7S", "8S"],
    ["5C", "QC", "JC", "9S", "TS"],
]
ACTIONS = [
    "2D",  # 1  seat 2 (G1)
    "2H",  # 2  seat 3 breaks suit: seat 2 drinks 1 (G4)
    "2S",  # 3  seat 4 breaks suit: seat 3 drinks 1
    "2C",  # 4  seat 5 breaks suit: seat 4 drinks 1; four 2s in a row: a social (G7)
    "3C",  # 5  seat 6
    "pass",  # 6  seat 7 has no club and no 3: drinks 1 (G2)
    "4C",  # 7  seat 8
    "5C",  # 8  seat 9
    "6C",  # 9  seat 0
    "7C",  # 10 seat 1
    "AC",  # 11 seat 2: gives 5 (G5)
    "give 5>P1",  # 12 to seat 0; the Ace sweeps, seat 2 leads (G8)
    "AD",  # 13 takes 10, sweeps
    "AH",  # 14 takes 5, sweeps
    "AS",  # 15 his last card (G10): gives 20
    "give 12>P4",  # 16 to seat 3
    "give 8>P5",  # 17 to seat 4; the Ace sweeps and seat 2 has no card: the end (G8)
]
# Drinks: every seat 1 for the social; seat 0 +5 given; seat 2 +1 broken +10 +5; seat 3 +1
# broken +12 given; seat 4 +1 broken +8 given; seat 7 +1 pass; then the hands (G11): seat 5 KS
# 8, seat 6 QS 6, seat 7 JS 4, seat 8 KC 4, seat 9 QC 3 + JC 2.
DRINKS = [1 + 5, 1, 1 + 1 + 10 + 5, 1 + 1 + 12, 1 + 1 + 8, 1 + 8, 1 + 6, 1 + 1 + 4, 1 + 4, 1 + 5]


def played(actions: list[str] = ACTIONS) -> State:
    state = GAME.new(10, 0, deal={"hands": HANDS})
    for action in actions:
        state = state.apply(action)
    return state


class TestAHandPlayedGame:
    def test_drinks_passes_socials_sweeps_and_the_first_out(self) -> None:
        state = played()
        figures = game_figures(state)
        assert figures == {
            "game": "death",
            "players": 10,
            "result": "end",
            "winners": [1],  # the fewest drinks, 1 (G12)
            "win_shares": [0.0, 1.0] + [0.0] * 8,
            "first": 2,  # the holder of 2D threw first (G1)
            # seat 1 sits at position 9, the last to throw after seat 2
            "position_win_shares": [0.0] * 9 + [1.0],
            "length": 17,
            "ended": True,
            "drinks_taken": DRINKS,
            "drinks_spread": 17 - 1,
            "passes": 1,
            "socials": 1,
            "ace_sweeps": 4,
            "first_out": 2,
            "first_out_at": 15,
            # AC 5 and AS 20 given, KS 8 QS 6 JS 4 KC 4 QC 3 JC 2 drunk from hands
            "black_face_drinks": 5 + 20 + 8 + 6 + 4 + 4 + 3 + 2,
            # Until the hands are shown at the end, at least two players are tied on the
            # fewest drinks; then seat 1 alone: no lead change, decided at the last step.
            "lead_changes": 0,
            "decided_at": 1.0,
        }
        assert DRINKS == [6, 1, 17, 14, 10, 9, 7, 6, 5, 6]

    def test_the_leader_is_the_fewest_drinks_alone(self) -> None:
        """G12: fewest drinks wins. After step 1 nobody has drunk (a tie of all); after step 6
        seats 0, 1, 5, 6, 8 and 9 share 1 drink; only the hand penalties leave seat 1 alone."""
        found = leaders(played())
        assert found == [None] * 17 + [1]


class TestFiftyTwo:
    @pytest.mark.parametrize("players", range(2, 11))
    def test_every_random_deal_adds_up_to_52(self, players: int) -> None:
        """G5, G11: each black face card is thrown and given, or drunk by its holder at the
        end, so every deal gives exactly 52 such drinks."""
        for seed in range(60):
            state = GAME.new(players, seed)
            rng = random.Random(seed * 11 + players)
            while not state.is_over:
                state = state.apply(rng.choice(state.legal_actions()))
            figures = game_figures(state)
            assert figures["black_face_drinks"] == 52
            assert figures["drinks_taken"] == list(state.outcome.scores)  # type: ignore[union-attr]
            assert sum(figures["win_shares"]) == pytest.approx(1.0)
            # G12: at the end the leader is the sole winner, or nobody on a shared win
            winners = figures["winners"]
            assert leaders(state)[-1] == (winners[0] if len(winners) == 1 else None)

    def test_the_total_is_the_seed_texts_table(self) -> None:
        assert BLACK_FACE_TOTAL == 20 + 8 + 6 + 4 + 5 + 4 + 3 + 2 == 52

    def test_a_corrupted_count_is_refused_naming_the_deal(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """An engine whose Ace of spades gave 19 would lose a drink: the check refuses it."""
        monkeypatch.setitem(notation.FACE, parse_card("AS"), 19)
        state = played([*ACTIONS[:-2], "give 12>P4", "give 7>P5"])
        with pytest.raises(
            ValueError, match=r"add up to 51 \(24 given.*27 drunk.*\"hands\""
        ) as err:
            game_figures(state)
        assert '"2D","AC","AD","AH","AS"' in str(err.value)

    def test_the_check_alone(self) -> None:
        state = played()
        assert check_black_face(25, 27, state) == 52
        with pytest.raises(ValueError, match="add up to 53"):
            check_black_face(26, 27, state)
