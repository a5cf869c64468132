"""Ruling M10's loop history belongs to one line of play.

M10: "Detect a repeated position (all hands in order + whose lead, at a trick boundary, cards
compared by class J/Q/K/A/number since suits and pips never matter) and end the game with the
result "loop", reporting the cards and tricks played when the repeat was seen, where the cycle
starts, and its length in cards and tricks."

States are immutable and a line of play shares one history; search, undo and a server's threads
play on from earlier states. These tests check that a branch sees exactly its own past: it finds
the loop a fresh replay finds, never a position another branch reached, and results stay those
of the worked examples of RULINGS.md and of ``reference.py``.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from parlour.games.beggar import PLAY, BeggarGame, BeggarState, History, Position
from parlour.games.beggar import history as history_module

from .reference import reference_play
from .rules_text_helpers import LOOP_DEAL

GAME = BeggarGame()
# The known never-ending deal: the position after 34 cards (4 tricks) comes back after 474.
LOOP_END = {"cards": 474, "tricks": 66, "start_cards": 34, "start_tricks": 4}

# RULINGS.md, M9's worked examples: (deal, options, winner, cards, tricks).
WORKED = [
    ("--Q-K--K-AQ-------J--A-J--/------Q-----JA---AKQ---K-J", {}, 0, 192, 20),
    ("---K-AJ---Q---JK-Q------JA/-K---Q-A--Q-------KJ-A----", {}, 0, 681, 92),
    ("-QKA-JA-K-Q-J-----/----K---Q---J----/--QJ-A--A---K----", {}, 2, 782, 97),
    (
        "-QKA-JA-K-Q-J-----/----K---Q---J----/--QJ-A--A---K----",
        {"unpaid_penalty": "next_player"},
        2,
        586,
        79,
    ),
    ("K---Q---Q------K--/--K---A--J-A-J---/--K----JAQA--J-Q-", {}, 1, 167, 22),
    (
        "K---Q---Q------K--/--K---A--J-A-J---/--K----JAQA--J-Q-",
        {"unpaid_penalty": "next_player"},
        1,
        839,
        108,
    ),
]


def line(start: BeggarState, limit: int = 2000) -> list[BeggarState]:
    """Every state from ``start`` to the end of the game, through the public ``apply``
    (every game here ends within ``limit`` cards; a loop that goes unseen does not)."""
    states = [start]
    while not states[-1].is_over:
        assert len(states) <= limit, f"no end after {limit} cards: a loop went unseen (M10)"
        states.append(states[-1].apply(PLAY))
    return states


def start(deal: str, options: dict[str, object] | None = None) -> BeggarState:
    return GAME.new(deal.count("/") + 1, 0, options, deal)


def cycle_figures(state: BeggarState) -> dict[str, int]:
    cycle = state.cycle
    assert cycle is not None
    return {
        "cards": cycle.found_at_cards,
        "tricks": cycle.found_at_tricks,
        "start_cards": cycle.start_cards,
        "start_tricks": cycle.start_tricks,
    }


class TestBranches:
    @pytest.mark.parametrize("at", [0, 1, 33, 34, 35, 120, 300, 473])
    def test_playing_on_from_an_earlier_state_finds_the_loop_of_a_fresh_replay(
        self, at: int
    ) -> None:
        """M10: the repeat is "seen" after 474 cards and the cycle starts after 34, however
        often the line was played before from any earlier state."""
        first = line(start(LOOP_DEAL))
        assert cycle_figures(first[-1]) == LOOP_END
        branch = line(first[at])
        fresh = line(start(LOOP_DEAL))
        assert cycle_figures(branch[-1]) == LOOP_END
        assert branch[-1].to_json() == fresh[-1].to_json()
        # At every step the branch remembers exactly the positions a fresh replay remembers.
        for mine, theirs in zip(branch, fresh[at:], strict=True):
            assert mine.positions == theirs.positions

    def test_two_branches_from_one_state_do_not_see_each_others_positions(self) -> None:
        """M10 compares positions of one game: a branch that went further first must not
        lend its later positions to a shorter branch from the same state."""
        states = line(start(LOOP_DEAL))
        middle = states[100]
        fresh = {s.cards: s.positions for s in states}
        long_branch = middle
        for _ in range(300):
            long_branch = long_branch.apply(PLAY)
        short_branch = middle
        for _ in range(60):
            short_branch = short_branch.apply(PLAY)
            assert short_branch.positions == fresh[short_branch.cards]
        assert all(p.cards <= short_branch.cards for p in short_branch.positions)
        assert len(long_branch.positions) > len(short_branch.positions)
        assert long_branch.positions[: len(short_branch.positions)] == short_branch.positions
        assert cycle_figures(line(short_branch)[-1]) == LOOP_END
        assert cycle_figures(line(long_branch)[-1]) == LOOP_END

    def test_a_position_of_another_branch_is_no_repeat(self) -> None:
        """M10: "Detect a repeated position": a position reached only on another branch of
        the line was not seen on this one. Branches from one history that reach different
        positions keep their own."""
        root = History([Position("0|AK/--", 0, 0)])
        left, found = root.record(1, "1|K/A--", 3, 1)
        assert found is None and left is root  # the tip extends the line in place
        right, found = root.record(1, "0|--/KA", 5, 1)
        assert found is None and right is not root  # a branch copies its own past
        assert [p.key for p in left.past(2)] == ["0|AK/--", "1|K/A--"]
        assert [p.key for p in right.past(2)] == ["0|AK/--", "0|--/KA"]
        _, found = right.record(2, "1|K/A--", 9, 2)
        assert found is None
        _, found = left.record(2, "1|K/A--", 9, 2)
        assert found is not None and (found.start_cards, found.start_tricks) == (3, 1)
        _, found = right.record(2, "0|AK/--", 9, 2)
        assert found is not None and (found.found_at_cards, found.length_cards) == (9, 9)

    def test_a_straight_line_never_copies_its_history(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """A straight line of play costs O(1) a trick: the state at the tip extends the one
        history in place; only the new game makes one."""
        made = []
        real = history_module.History.__init__

        def counting(self: History, positions: object = ()) -> None:
            made.append(1)
            real(self, positions)  # type: ignore[arg-type]

        monkeypatch.setattr(history_module.History, "__init__", counting)
        end = line(start(LOOP_DEAL))[-1]
        assert len(made) == 1 and len(end.positions) == LOOP_END["tricks"]

    def test_threads_playing_on_from_one_state_each_find_the_loop(self) -> None:
        """A server plays many games in threads: eight threads playing on at once from one
        state each see their own line and find the loop of a fresh replay."""
        middle = line(start(LOOP_DEAL))[50]
        gate = threading.Barrier(8)

        def play_on(_: int) -> dict[str, int]:
            gate.wait()
            return cycle_figures(line(middle)[-1])

        with ThreadPoolExecutor(8) as pool:
            results = list(pool.map(play_on, range(8)))
        assert results == [LOOP_END] * 8


class TestResultsStay:
    @pytest.mark.parametrize(("deal", "options", "winner", "cards", "tricks"), WORKED)
    def test_worked_examples_from_the_middle(
        self, deal: str, options: dict[str, object], winner: int, cards: int, tricks: int
    ) -> None:
        """RULINGS.md's worked examples, played to the end once, then again from a state in
        the middle of the same line."""
        states = line(start(deal, options))
        again = line(states[len(states) // 2])[-1]
        for end in (states[-1], again):
            assert end.outcome is not None and end.outcome.winners == (winner,)
            assert (end.cards, end.tricks) == (cards, tricks)

    @pytest.mark.parametrize("deal", [LOOP_DEAL, WORKED[1][0], WORKED[2][0]])
    def test_branches_agree_with_the_reference(self, deal: str) -> None:
        """``reference.py`` (written from the rule texts alone) and a branch played on after
        the line was played to its end give the same result, cards, tricks and cycle."""
        states = line(start(deal))
        end = line(states[len(states) // 3])[-1]
        expected = reference_play(deal)
        summary = end.summary()
        for key in ("result", "winners", "cards", "tricks", "cycle"):
            assert summary[key] == expected[key]
