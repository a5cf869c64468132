"""The compiled kernel (``games/beggar/fast.py``) against the rules engine, deal by deal.

Every comparison is of ``summary()``'s figures: result, winners, cards, tricks and the loop's
cycle (rulings M1-M11). Two players without a card limit play on bit planes, everything else card
by card; both paths are compared. Deals come from seeded generators only.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from parlour.errors import InvalidNotation, InvalidOption
from parlour.games.beggar import format_deal_ranks, play_deal, random_deal
from parlour.games.beggar.fast import (
    CHUNK,
    LOOP_SCORE,
    DealArray,
    FastResults,
    backward_deals,
    climb,
    encode_deals,
    play_deals,
    play_random,
    random_deals,
)

MODES = ("capture", "next_player")
LOOP_DEAL = "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA"
# RULINGS.md worked examples: (deal, unpaid_penalty, winner, cards, tricks).
WORKED_EXAMPLES = [
    ("--Q-K--K-AQ-------J--A-J--/------Q-----JA---AKQ---K-J", "capture", 0, 192, 20),
    ("---K-AJ---Q---JK-Q------JA/-K---Q-A--Q-------KJ-A----", "capture", 0, 681, 92),
    ("-QKA-JA-K-Q-J-----/----K---Q---J----/--QJ-A--A---K----", "capture", 2, 782, 97),
    ("-QKA-JA-K-Q-J-----/----K---Q---J----/--QJ-A--A---K----", "next_player", 2, 586, 79),
    ("K---Q---Q------K--/--K---A--J-A-J---/--K----JAQA--J-Q-", "capture", 1, 167, 22),
    ("K---Q---Q------K--/--K---A--J-A-J---/--K----JAQA--J-Q-", "next_player", 1, 839, 108),
]
M7_SIZES = {2: (26, 26), 3: (18, 17, 17), 4: (13, 13, 13, 13)}
AGREEMENT_DEALS = 800  # per player count and mode: 4,800 games of the rules engine
LIMITED_DEALS = 300  # per player count and mode, each with a card limit of its own


def rules(deal: str, options: dict[str, Any]) -> dict[str, Any]:
    """The rules engine's figures of a deal, less the deal itself."""
    summary = play_deal(deal, options)
    del summary["deal"]
    return summary


def kernel(deals: DealArray, options: dict[str, Any], *, bits: bool = True) -> FastResults:
    return play_deals(deals, options, bit_planes=bits)


def rank_deals(players: int, count: int, seed: int) -> list[str]:
    """Deals shuffled the rules engine's way (M7), so the kernel meets deals it did not deal."""
    rng = random.Random(seed)
    return [format_deal_ranks(random_deal(players, rng)) for _ in range(count)]


def mismatches(deals: list[str], options: dict[str, Any], results: FastResults) -> list[str]:
    bad = []
    for i, deal in enumerate(deals):
        expected = rules(deal, options)
        if results.summary(i) != expected:
            bad.append(f"{deal} {options}: rules {expected}, kernel {results.summary(i)}")
    return bad


@pytest.mark.slow
class TestWorkedExamples:
    @pytest.mark.parametrize(("deal", "mode", "winner", "cards", "tricks"), WORKED_EXAMPLES)
    @pytest.mark.parametrize("bits", [True, False])
    def test_the_rulings_table(
        self, deal: str, mode: str, winner: int, cards: int, tricks: int, bits: bool
    ) -> None:
        """M1-M9 (M4 in both modes): the worked examples of RULINGS.md, on both paths."""
        results = kernel(encode_deals([deal]), {"unpaid_penalty": mode}, bits=bits)
        assert results.summary(0) == {
            "result": "win",
            "winners": [winner],
            "cards": cards,
            "tricks": tricks,
            "cycle": None,
        }

    @pytest.mark.parametrize(("deal", "mode", "winner", "cards", "tricks"), WORKED_EXAMPLES)
    def test_limits_around_the_last_card(
        self, deal: str, mode: str, winner: int, cards: int, tricks: int
    ) -> None:
        """M11 against M6/M8: limits early, one short of, at and past the game's last card."""
        for limit in (1, 2, 3, cards // 2, cards - 1, cards, cards + 1):
            options = {"unpaid_penalty": mode, "card_limit": limit}
            got = kernel(encode_deals([deal]), options).summary(0)
            assert got == rules(deal, options), f"card_limit={limit}"
        past = kernel(encode_deals([deal]), {"unpaid_penalty": mode, "card_limit": cards + 1})
        assert (past.summary(0)["result"], past.summary(0)["winners"]) == ("win", [winner])


@pytest.mark.slow
class TestAgreement:
    @pytest.mark.parametrize("mode", MODES)
    @pytest.mark.parametrize("players", [2, 3, 4])
    def test_random_deals(self, players: int, mode: str) -> None:
        """M1-M8, M10 (M4 in the given mode): 800 deals a case (4,800 in all) agree with
        rules.py, figure by figure; two players on both the bit-plane and the card-by-card
        path."""
        deals = rank_deals(players, AGREEMENT_DEALS, 70_000 + 10 * players + MODES.index(mode))
        options = {"unpaid_penalty": mode}
        array = encode_deals(deals)
        bad = mismatches(deals, options, kernel(array, options))
        if players == 2:
            bad += mismatches(deals, options, kernel(array, options, bits=False))
        assert not bad, f"{len(bad)} deals differ, e.g. {bad[:3]}"

    @pytest.mark.parametrize("mode", MODES)
    @pytest.mark.parametrize("players", [2, 3, 4])
    def test_random_deals_with_card_limits(self, players: int, mode: str) -> None:
        """M11: a limit anywhere in the game, up to just past its end, stops both alike (on the
        card completing a payment, on the last card, with ties sharing the win)."""
        rng = random.Random(80_000 + 10 * players + MODES.index(mode))
        deals = rank_deals(players, LIMITED_DEALS, rng.randrange(1 << 30))
        full = kernel(encode_deals(deals), {"unpaid_penalty": mode})
        bad = []
        stopped = 0
        for i, deal in enumerate(deals):
            options = {"unpaid_penalty": mode, "card_limit": rng.randint(1, int(full.cards[i]) + 2)}
            got = kernel(encode_deals([deal]), options).summary(0)
            stopped += got["result"] == "limit"
            if got != rules(deal, options):
                bad.append(f"{deal} {options}: {got}")
        assert not bad, f"{len(bad)} deals differ, e.g. {bad[:3]}"
        assert stopped > LIMITED_DEALS // 2

    def test_loop_detection_off_needs_a_limit(self) -> None:
        """M10/M11: without loop detection only a card limit makes every game stop."""
        deals = encode_deals(rank_deals(3, 50, 5))
        with pytest.raises(InvalidOption, match="card_limit"):
            play_deals(deals, detect_loops=False)
        options = {"card_limit": 200}
        off = play_deals(deals, options, detect_loops=False)
        on = play_deals(deals, options)
        assert [off.summary(i) for i in range(50)] == [on.summary(i) for i in range(50)]


class TestNeverEnding:
    @pytest.mark.parametrize("bits", [True, False])
    def test_the_known_loop(self, bits: bool) -> None:
        """M10: the known never-ending deal is a loop, seen where rules.py sees it: found after
        474 cards (66 tricks), a cycle of 62 tricks from trick 4."""
        results = kernel(encode_deals([LOOP_DEAL]), {}, bits=bits)
        assert results.summary(0) == rules(LOOP_DEAL, {})
        cycle = results.summary(0)["cycle"]
        assert isinstance(cycle, dict)
        assert (cycle["found_at_tricks"], cycle["start_tricks"], cycle["length_tricks"]) == (
            66,
            4,
            62,
        )

    @pytest.mark.parametrize("detect", [True, False])
    def test_with_card_limits(self, detect: bool) -> None:
        """M10 and M11: a limit before the repeat stops the game, one at or after it does not
        (with detection on); without detection the limit always stops it."""
        found = 474
        for limit in (1, 100, found - 1, found, found + 1, 3 * found, 10 * found):
            options = {"card_limit": limit}
            got = play_deals(encode_deals([LOOP_DEAL]), options, detect_loops=detect)
            expected = rules(LOOP_DEAL, options)
            if detect:
                assert got.summary(0) == expected, f"card_limit={limit}"
            else:
                assert got.summary(0)["result"] == "limit"
                assert got.summary(0)["cards"] == limit


class TestSearch:
    def test_a_loop_scores_above_any_game(self) -> None:
        """M10: a search ranks a never-ending game above every game that ends."""
        results = play_deals(encode_deals([WORKED_EXAMPLES[1][0], LOOP_DEAL]))
        assert list(results.scores) == [681, LOOP_SCORE]

    def test_climbs_report_the_games_they_found(self) -> None:
        """A climb's best deal replays to the figures it reports, by the rules engine too (M8);
        climbs are reproducible and do not depend on the climbs around them."""
        options = {"unpaid_penalty": "next_player"}
        climbs = climb(3, 5, 0, 3, options, max_plays=400, patience=100)
        again = play_deals(climbs.deals, options)
        for i in range(3):
            deal = climbs.deals.deal(i)
            assert climbs.results.summary(i) == again.summary(i) == rules(deal, options)
            assert 1 <= climbs.plays[i] <= 400
        alone = climb(3, 5, 1, 1, options, max_plays=400, patience=100)
        assert alone.deals.deal(0) == climbs.deals.deal(1)
        assert int(alone.plays[0]) == int(climbs.plays[1])

    def test_backward_deals_run_into_the_game(self) -> None:
        """M1, M2: a deal found by unplaying tricks plays the cards put back, then the rest of
        the game it runs into: the rules engine plays exactly the cards predicted and the
        same seat wins."""
        deal, _, winner, _, _ = WORKED_EXAMPLES[0]
        found = backward_deals(deal, tricks=30, budget=5_000, depth=500)
        deals = [found.deals.deal(i) for i in range(len(found.deals))]
        assert len(set(deals)) == len(deals) == 8
        assert list(found.cards) == sorted(found.cards, reverse=True)
        for text, cards in zip(deals, found.cards, strict=True):
            summary = rules(text, {})
            assert (summary["cards"], summary["winners"]) == (cards, [winner]), text

    def test_backward_play_is_for_two_players(self) -> None:
        with pytest.raises(InvalidOption, match="2 players"):
            backward_deals(WORKED_EXAMPLES[2][0], tricks=5, budget=10, depth=10)
        with pytest.raises(InvalidOption, match="budget"):
            backward_deals(LOOP_DEAL, tricks=5, budget=0, depth=10)


class TestRandomDeals:
    @pytest.mark.parametrize("players", [2, 3, 4])
    def test_seed_reproducible_and_split_free(self, players: int) -> None:
        """A seed's stream is fixed: the same deals again, and any slice of it is the same."""
        whole = random_deals(players, 300, 12)
        again = random_deals(players, 300, 12)
        part = random_deals(players, 100, 12, start=150)
        assert np.array_equal(whole.classes, again.classes)
        assert np.array_equal(whole.classes[150:250], part.classes)
        assert not np.array_equal(whole.classes, random_deals(players, 300, 13).classes)

    @pytest.mark.parametrize("players", [2, 3, 4])
    def test_deals_follow_m7_and_m9(self, players: int) -> None:
        """M7: hand sizes as dealt one at a time from seat 0; M9: one deck exactly once."""
        deals = random_deals(players, 200, 3)
        for i in range(len(deals)):
            hands = deals.deal(i).split("/")
            assert tuple(len(h) for h in hands) == M7_SIZES[players]
            assert sorted("".join(hands)) == sorted("AKQJ" * 4 + "-" * 36)

    def test_deals_are_shuffled_evenly(self) -> None:
        """Every place of the deck holds each court class about equally often."""
        deals = random_deals(2, 40_000, 99).classes
        for cls in range(1, 5):
            share = (deals == cls).mean(axis=0)
            assert np.all(np.abs(share - 4 / 52) < 0.012), share

    @pytest.mark.parametrize("players", [2, 3, 4])
    def test_playing_the_stream_plays_its_deals(self, players: int) -> None:
        """play_random deals inside the kernel the very deals random_deals gives."""
        inside = play_random(players, 2_000, 21, start=500)
        outside = play_deals(random_deals(players, 2_000, 21, start=500))
        for field in ("result", "winners", "cards", "tricks", "cycle_start_cards"):
            assert np.array_equal(getattr(inside, field), getattr(outside, field)), field

    @pytest.mark.parametrize("players", [2, 3])
    def test_results_do_not_depend_on_workers(self, players: int) -> None:
        """The same figures on 1 and 3 threads, over several pieces of work."""
        count = 2 * CHUNK + 123
        one = play_random(players, count, 8, workers=1)
        three = play_random(players, count, 8, workers=3)
        assert np.array_equal(one.cards, three.cards)
        assert np.array_equal(one.winners, three.winners)
        done: list[int] = []
        play_random(players, count, 8, workers=2, progress=done.append)
        assert done[-1] == count and done == sorted(done)


class TestNotation:
    def test_round_trip(self) -> None:
        """M9: encoding then formatting gives the rank-only deal back."""
        deals = [*rank_deals(2, 5, 1), *rank_deals(3, 5, 2), *rank_deals(4, 5, 3)]
        for deal in deals:
            assert encode_deals([deal]).deal(0) == deal

    def test_full_card_deals_play_like_their_ranks(self) -> None:
        """M9/M10: suits and pips never matter; a full-card deal is encoded by class."""
        rng = random.Random(4)
        full = random_deal(3, rng)
        array = encode_deals([full])
        assert array.deal(0) == format_deal_ranks(full)
        assert play_deals(array).summary(0) == rules(format_deal_ranks(full), {})

    def test_bad_deals_name_the_deal(self) -> None:
        with pytest.raises(InvalidNotation, match="deal 1"):
            encode_deals([LOOP_DEAL, "AAAA/KKKK"])
        with pytest.raises(InvalidNotation, match="hands"):
            encode_deals([LOOP_DEAL, rank_deals(3, 1, 0)[0]])
        bad = encode_deals([LOOP_DEAL]).classes.copy()
        bad[0, 0] = 4
        with pytest.raises(InvalidNotation, match="4 aces"):
            DealArray(bad, np.array([[26, 26]], dtype=np.int64))
        with pytest.raises(InvalidNotation, match="M7"):
            DealArray(
                bad * 0 + encode_deals([LOOP_DEAL]).classes, np.array([[20, 32]], dtype=np.int64)
            )

    def test_bad_arguments_name_the_field(self) -> None:
        with pytest.raises(InvalidOption, match="2 to 4 players"):
            play_random(5, 10, 1)
        with pytest.raises(InvalidOption, match="workers"):
            play_random(2, 10, 1, workers=0)
        with pytest.raises(InvalidOption, match="count"):
            random_deals(2, -1, 1)
        with pytest.raises(InvalidOption, match="unpaid_penalty"):
            play_random(3, 10, 1, {"unpaid_penalty": "pay"})
