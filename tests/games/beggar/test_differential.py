"""Differential tests: the Beggar-My-Neighbour engine against the independent reference.

``tests/games/beggar/reference.py`` was written from the rule texts and RULINGS.md alone. Every
test compares ``result``, ``winners``, ``cards``, ``tricks`` and ``cycle`` and names the rulings
it checks. All randomness comes from seeded ``random.Random`` instances.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any, Literal

import pytest

from parlour.games.beggar import format_deal_ranks, play_deal, random_deal
from tests.games.beggar.reference import ReferenceResult, reference_play

Key = Literal["result", "winners", "cards", "tricks", "cycle"]
KEYS: tuple[Key, ...] = ("result", "winners", "cards", "tricks", "cycle")
MODES = ("capture", "next_player")

# The non-terminating 2-player deal (Casella et al., 2024): a 62-trick cycle.
LOOP_DEAL = "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA"

# RULINGS.md worked examples: (deal, unpaid_penalty, winner, cards, tricks).
WORKED_EXAMPLES: list[tuple[str, str, int, int, int]] = [
    ("--Q-K--K-AQ-------J--A-J--/------Q-----JA---AKQ---K-J", "capture", 0, 192, 20),
    ("---K-AJ---Q---JK-Q------JA/-K---Q-A--Q-------KJ-A----", "capture", 0, 681, 92),
    ("-QKA-JA-K-Q-J-----/----K---Q---J----/--QJ-A--A---K----", "capture", 2, 782, 97),
    ("-QKA-JA-K-Q-J-----/----K---Q---J----/--QJ-A--A---K----", "next_player", 2, 586, 79),
    ("K---Q---Q------K--/--K---A--J-A-J---/--K----JAQA--J-Q-", "capture", 1, 167, 22),
    ("K---Q---Q------K--/--K---A--J-A-J---/--K----JAQA--J-Q-", "next_player", 1, 839, 108),
]

RANDOM_DEALS_PER_CASE = 600  # x 3 player counts x 2 modes = 3,600 full games
LIMITED_DEALS_PER_CASE = 300  # x 3 x 2 = 1800 games with a card_limit
CLI_DEALS = 50

Mismatch = tuple[str, str, int | None, dict[str, Any], dict[str, Any]]


def engine(deal: str, mode: str = "capture", card_limit: int | None = None) -> dict[str, Any]:
    """The engine's answer, reduced to the compared keys."""
    outcome = play_deal(deal, {"unpaid_penalty": mode, "card_limit": card_limit})
    return {key: outcome[key] for key in KEYS}


def reference(deal: str, mode: str = "capture", card_limit: int | None = None) -> dict[str, Any]:
    """The reference's answer as a plain dict with the compared keys."""
    outcome: ReferenceResult = reference_play(deal, mode, card_limit)
    return {key: outcome[key] for key in KEYS}


def describe(mismatches: list[Mismatch]) -> str:
    lines = [f"{len(mismatches)} deal(s) differ; first ones:"]
    for deal, mode, limit, ref, eng in mismatches[:5]:
        lines.append(f"  {deal} mode={mode} card_limit={limit}\n    ref={ref}\n    eng={eng}")
    return "\n".join(lines)


def compare(deals: list[tuple[str, str, int | None]]) -> list[Mismatch]:
    mismatches: list[Mismatch] = []
    for deal, mode, limit in deals:
        ref = reference(deal, mode, limit)
        eng = engine(deal, mode, limit)
        if ref != eng:
            mismatches.append((deal, mode, limit, ref, eng))
    return mismatches


def rank_deals(players: int, count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [format_deal_ranks(random_deal(players, rng)) for _ in range(count)]


@pytest.mark.parametrize(("deal", "mode", "winner", "cards", "tricks"), WORKED_EXAMPLES)
def test_reference_reproduces_worked_examples(
    deal: str, mode: str, winner: int, cards: int, tricks: int
) -> None:
    """Rulings M1-M9 (and M4 in both modes): the reference itself matches the RULINGS table."""
    assert reference(deal, mode) == {
        "result": "win",
        "winners": [winner],
        "cards": cards,
        "tricks": tricks,
        "cycle": None,
    }


@pytest.mark.parametrize(("deal", "mode", "winner", "cards", "tricks"), WORKED_EXAMPLES)
def test_engine_matches_worked_examples(
    deal: str, mode: str, winner: int, cards: int, tricks: int
) -> None:
    """Rulings M1-M9 (and M4 in both modes): the engine matches the table and the reference."""
    expected = {
        "result": "win",
        "winners": [winner],
        "cards": cards,
        "tricks": tricks,
        "cycle": None,
    }
    assert engine(deal, mode) == expected
    assert engine(deal, mode) == reference(deal, mode)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_deals_agree(players: int, mode: str) -> None:
    """Rulings M1-M8 and M10 (M4 in the given mode): full games of seeded random deals agree."""
    seed = 7_000 + 10 * players + MODES.index(mode)
    deals = rank_deals(players, RANDOM_DEALS_PER_CASE, seed)
    mismatches = compare([(deal, mode, None) for deal in deals])
    assert not mismatches, describe(mismatches)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_deals_with_card_limit_agree(players: int, mode: str) -> None:
    """Ruling M11: with a card_limit drawn up to just past the game's length, both stop alike.

    Limits fall anywhere in a game, including on the card that completes a payment and on the
    very last card, so the order of capture (M2), outs (M5), end (M6) and the limit is exercised.
    """
    rng = random.Random(9_000 + 10 * players + MODES.index(mode))
    cases: list[tuple[str, str, int | None]] = []
    for _ in range(LIMITED_DEALS_PER_CASE):
        deal = format_deal_ranks(random_deal(players, rng))
        length = reference_play(deal, mode)["cards"]
        cases.append((deal, mode, rng.randint(1, length + 2)))
    mismatches = compare(cases)
    assert not mismatches, describe(mismatches)
    stopped = sum(reference(deal, mode, limit)["result"] == "limit" for deal, _, limit in cases)
    assert stopped > LIMITED_DEALS_PER_CASE // 2  # the limit really was exercised


@pytest.mark.parametrize(("deal", "mode", "winner", "cards", "tricks"), WORKED_EXAMPLES)
def test_card_limit_at_the_end_of_worked_examples(
    deal: str, mode: str, winner: int, cards: int, tricks: int
) -> None:
    """Ruling M11 against M6/M8: limits one short of, at, and one past the game's last card."""
    for limit in (1, 2, cards // 2, cards - 1, cards, cards + 1):
        ref = reference(deal, mode, limit)
        assert engine(deal, mode, limit) == ref, f"card_limit={limit}"
        assert ref["cards"] <= limit
    past = engine(deal, mode, cards + 1)
    assert past == {
        "result": "win",
        "winners": [winner],
        "cards": cards,
        "tricks": tricks,
        "cycle": None,
    }
    early = engine(deal, mode, cards - 1)
    assert early["result"] == "limit"
    assert early["cards"] == cards - 1


def test_card_limit_ties_share_the_win() -> None:
    """Ruling M11: the players holding most cards share the win; before any capture each seat
    holds its dealt hand less the cards it played."""
    deal = "--Q-K--K-AQ-------J--A-J--/------Q-----JA---AKQ---K-J"
    # Two cards: seat 0 plays '-', seat 1 plays '-': 25 cards each, a shared win.
    assert engine(deal, "capture", 2) == reference(deal, "capture", 2)
    assert engine(deal, "capture", 2)["winners"] == [0, 1]
    # Three cards: seat 0 has played two, seat 1 one: seat 1 alone holds most.
    assert engine(deal, "capture", 3) == reference(deal, "capture", 3)
    assert engine(deal, "capture", 3)["winners"] == [1]


def test_known_never_ending_deal_is_a_loop() -> None:
    """Ruling M10: the known non-terminating 2-player deal ends as a loop of 62 tricks."""
    ref = reference(LOOP_DEAL)
    eng = engine(LOOP_DEAL)
    assert eng["result"] == "loop"
    assert eng["winners"] == []
    assert eng == ref
    cycle = eng["cycle"]
    assert cycle["length_tricks"] == 62
    assert cycle["found_at_cards"] == eng["cards"]
    assert cycle["found_at_tricks"] == eng["tricks"]
    assert cycle["found_at_cards"] - cycle["start_cards"] == cycle["length_cards"]
    assert cycle["found_at_tricks"] - cycle["start_tricks"] == cycle["length_tricks"]
    # M4 does not apply to 2 players, so the other mode loops identically.
    assert engine(LOOP_DEAL, "next_player") == ref


def test_known_never_ending_deal_with_card_limit() -> None:
    """Rulings M10 and M11: a limit before the repeat stops the game, one after it does not."""
    found = reference(LOOP_DEAL)["cards"]
    for limit in (100, found - 1, found, found + 1, 10 * found):
        assert engine(LOOP_DEAL, "capture", limit) == reference(LOOP_DEAL, "capture", limit)
    assert engine(LOOP_DEAL, "capture", found - 1)["result"] == "limit"
    assert engine(LOOP_DEAL, "capture", 10 * found)["result"] == "loop"


def test_two_player_modes_are_identical() -> None:
    """Ruling M4 applies to 3-4 players only: with 2 players both modes give the same game."""
    deals = rank_deals(2, 300, 4_242)
    differ = [d for d in deals if engine(d, "capture") != engine(d, "next_player")]
    assert not differ, f"{len(differ)} 2-player deals depend on unpaid_penalty, e.g. {differ[0]}"


def test_random_deals_follow_the_deal_rulings() -> None:
    """Rulings M7 and M9: hands dealt one at a time from seat 0, one deck of cards exactly once."""
    rng = random.Random(31_337)
    for players in (2, 3, 4):
        for _ in range(20):
            hands = format_deal_ranks(random_deal(players, rng)).split("/")
            assert len(hands) == players
            sizes = [len(hand) for hand in hands]
            assert sizes == [len(range(seat, 52, players)) for seat in range(players)]
            joined = "".join(hands)
            assert sorted(joined) == sorted("AKQJ" * 4 + "-" * 36)


def test_cli_json_matches_reference(tmp_path: Path) -> None:
    """Rulings M1-M10 through the command line: `parlour beggar play --deals FILE --json` prints
    one JSON object per deal, in file order, with play_deal's keys, agreeing with the reference."""
    rng = random.Random(2_024)
    deals = [format_deal_ranks(random_deal(2 + i % 3, rng)) for i in range(CLI_DEALS)]
    deals.append(LOOP_DEAL)
    deal_file = tmp_path / "deals.txt"
    deal_file.write_text("\n".join(deals) + "\n", encoding="utf-8")
    completed = subprocess.run(
        [sys.executable, "-m", "parlour", "beggar", "play", "--deals", str(deal_file), "--json"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    lines = [line for line in completed.stdout.splitlines() if line.strip()]
    assert len(lines) == len(deals)
    mismatches: list[Mismatch] = []
    for deal, line in zip(deals, lines, strict=True):
        printed = json.loads(line)
        expected = play_deal(deal)
        assert set(printed) == set(expected), line
        assert printed["deal"] == expected["deal"]
        got: dict[str, Any] = {key: printed[key] for key in KEYS}
        ref = reference(deal)
        if got != ref:
            mismatches.append((deal, "capture", None, ref, got))
    assert not mismatches, describe(mismatches)
    assert json.loads(lines[-1])["result"] == "loop"
