"""Beggar-My-Neighbour rulings M6-M11 of ``rules/RULINGS.md`` and its worked examples.

One test class per ruling: the end of the game (M6), the deal (M7), counting cards and tricks
(M8), the deal notation (M9), never-ending games ending as a loop (M10) and the ``card_limit``
time limit (M11), then the worked examples of RULINGS.md. Each test quotes its ruling; the deals
come from :mod:`.rules_text_helpers`.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from parlour.cards import Card, Rank, Suit
from parlour.errors import GameOver, InvalidNotation, InvalidOption
from parlour.games.beggar import (
    BeggarState,
    RankClass,
    format_deal,
    format_deal_ranks,
    parse_deal,
    play_deal,
)

from .rules_text_helpers import (
    GAME,
    LOOP_DEAL,
    SEVEN_TRICKS,
    SIZES,
    build_deal,
    event,
    full_cards,
    hand,
    kinds,
    new,
    pile,
    play,
    play_to_end,
)


class TestM6End:
    def test_the_last_player_holding_cards_takes_the_pile_and_wins(self) -> None:
        """M6: "The game ends when one player holds cards and the others are out; that player
        takes any pile left and wins." """
        state = play(new(build_deal(SEVEN_TRICKS + "K", "-" * 26)), 34)
        assert state.is_over
        assert state.pile == ()
        assert [len(h) for h in state.hands] == [52, 0]
        assert hand(state, 0).endswith("K-")
        assert state.outcome is not None
        assert (state.outcome.result, state.outcome.winners) == ("win", (0,))

    def test_two_players_end_when_the_one_to_play_has_no_card(self) -> None:
        """M6: "With 2 players it ends as soon as the player who must play has no card." """
        state = play(new(build_deal(SEVEN_TRICKS + "--", "-" * 26)), 34)
        assert not state.is_over
        assert state.hands[1] == ()
        state = play(state)
        assert state.is_over
        assert state.out == (1,)
        assert [len(h) for h in state.hands] == [52, 0]
        assert (state.cards, state.tricks) == (35, 8)

    def test_three_players_end_when_two_are_out(self) -> None:
        """M6: "The game ends when one player holds cards and the others are out" """
        state = new(build_deal("AAAAKKKKQQQQJJJJ--", "-" * 17, "-" * 17))
        state = play(state, 45)
        assert not state.is_over
        state = play(state)
        assert state.outcome is not None
        assert state.outcome.winners == (0,)
        assert state.out == (1, 2)
        assert [len(h) for h in state.hands] == [52, 0, 0]


class TestM7Deal:
    @pytest.mark.parametrize(("players", "sizes"), list(SIZES.items()))
    def test_dealt_one_at_a_time_from_seat_zero(self, players: int, sizes: tuple[int, ...]) -> None:
        """M7: "Cards are dealt one at a time from the top of the shuffled deck starting with
        seat 0, so with 3 players seat 0 holds 18 cards. Seat 0 leads." """
        for seed in (0, 1, 2):
            state = GAME.new(players, seed)
            assert tuple(len(h) for h in state.hands) == sizes
            assert state.to_move == 0

    def test_uneven_hand_sizes_are_refused(self) -> None:
        """Setup: "deal the cards as evenly as possible" (M7: "with 3 players seat 0 holds 18
        cards"). A split as even as 17/18/17 is a deal a table could make and plays; 16/19/17
        and 25/27 are not."""
        hands = build_deal("", "", "").split("/")
        moved = "/".join([hands[0][1:], hands[1] + hands[0][0], hands[2]])
        assert [len(h) for h in parse_deal(moved)] == [17, 18, 17]
        twice = "/".join([hands[0][2:], hands[1] + hands[0][:2], hands[2]])
        with pytest.raises(InvalidNotation, match=r"16/19/17 cards.*18/17/17"):
            parse_deal(twice)
        hands = build_deal("", "").split("/")
        with pytest.raises(InvalidNotation, match=r"25/27 cards.*26/26"):
            parse_deal(hands[0][1:] + "/" + hands[1] + "-")


class TestM8Counting:
    def test_cards_count_each_card_placed_and_tricks_each_pile_taken(self) -> None:
        """M8: "cards = cards actually placed on the pile during the game [...]. tricks = piles
        taken" """
        state = new(build_deal("-A", "-----"))
        counts = []
        for _ in range(7):
            state = play(state)
            counts.append((state.cards, state.tricks))
        assert counts == [(1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (6, 0), (7, 1)]
        assert state.view(1).cards == 7
        assert state.view(1).tricks == 1

    def test_an_attempt_with_no_card_is_not_counted(self) -> None:
        """M8: "(an attempt by a player with no card is not counted)" and "tricks [...] including
        the final one": 32 cards in 7 tricks, then K and seat 1's last card; the pile left is
        the eighth trick."""
        state = play(new(build_deal(SEVEN_TRICKS + "K", "-" * 26)), 34)
        assert state.is_over
        assert (state.cards, state.tricks) == (34, 8)
        result = play_deal(build_deal(SEVEN_TRICKS + "K", "-" * 26))
        assert (result["cards"], result["tricks"]) == (34, 8)

    def test_the_final_capture_is_one_trick(self) -> None:
        """M8: "tricks = piles taken, including the final one." The game ends on a capture."""
        result = play_deal(build_deal(SEVEN_TRICKS + "J", "-" * 26))
        assert result["result"] == "win"
        assert result["winners"] == [0]
        assert (result["cards"], result["tricks"]) == (34, 8)


class TestM9DealNotation:
    def test_one_string_per_hand_top_card_first_the_first_hand_leads(self) -> None:
        """M9: "One string per hand, top card first, hands separated by /, the first hand
        leads" """
        deal = build_deal("KQ-", "-JA")
        state = new(deal)
        assert [hand(state, s) for s in (0, 1)] == deal.split("/")
        state = play(state)
        assert event(state, "turned") == {"seat": 0, "card": "K"}

    def test_rank_only_tokens(self) -> None:
        """M9: "A K Q J for court cards and - for any number card" """
        parsed = parse_deal(build_deal("AKQJ-", ""))
        assert parsed[0][:5] == (
            RankClass.ACE,
            RankClass.KING,
            RankClass.QUEEN,
            RankClass.JACK,
            RankClass.NUMBER,
        )
        assert format_deal(parsed) == build_deal("AKQJ-", "")

    def test_full_card_hands_are_accepted(self) -> None:
        """M9: "Full-card hands (AS TH ...) are accepted too." Common: parsing also accepts 10H,
        lower case and the suit symbols."""
        deal = full_cards(build_deal("AKQJ-", ""))
        parsed = parse_deal(deal)
        assert parsed[0][:2] == (Card(Rank.ACE, Suit.SPADES), Card(Rank.KING, Suit.SPADES))
        assert format_deal(parsed) == deal
        assert format_deal_ranks(parsed) == build_deal("AKQJ-", "")
        loose = deal.lower().replace("ts", "10♠").replace("2h", "2♥")
        assert parse_deal(loose) == parsed
        state = new(deal)
        assert str(state.hands[0][0]) == "AS"

    @pytest.mark.parametrize(
        ("mangle", "problem"),
        [
            (lambda d: "A" + d[1:], "5 aces"),
            (lambda d: d[:-1] + "-", "3 jacks"),
            (lambda d: d.replace("-", "X", 1), "'X'"),
            (lambda d: d.replace("-", "7", 1), "'7'"),
            (lambda d: d.replace("/", ""), "hands"),
            (lambda d: d + "/", "hand"),
            (lambda d: "/".join([d, d, d, d, d]), "hands"),
        ],
    )
    def test_a_deal_must_use_one_deck_exactly_once(
        self, mangle: Callable[[str], str], problem: str
    ) -> None:
        """M9: "A deal must use the cards of one deck exactly once (rank-only: 4 of each court
        rank and 36 numbers)." Each refusal names the problem."""
        bad = mangle(build_deal("-", "-"))
        with pytest.raises(InvalidNotation, match=re.escape(problem)):
            parse_deal(bad)

    def test_mixed_notations_are_refused(self) -> None:
        """M9: rank-only hands or full-card hands ("Full-card hands (AS TH ...) are accepted
        too"), not both in one deal."""
        rank_only = build_deal("", "").split("/")
        full = full_cards(build_deal("", "")).split("/")
        with pytest.raises(InvalidNotation, match="mix"):
            parse_deal(rank_only[0] + "/" + full[1])

    def test_the_number_of_hands_must_match_the_players(self) -> None:
        """M9: "One string per hand" -- a 2-hand deal is not a 3-player deal."""
        with pytest.raises(InvalidNotation, match="3 players"):
            GAME.new(3, 0, deal=build_deal("", ""))
        with pytest.raises(InvalidNotation, match="3 players"):
            parse_deal(build_deal("", ""), 3)


class TestM10NeverEndingGames:
    def test_the_known_never_ending_deal_ends_as_a_loop(self) -> None:
        """M10: "Detect a repeated position [...] and end the game with the result "loop",
        reporting the cards and tricks played when the repeat was seen, where the cycle starts,
        and its length in cards and tricks." """
        result = play_deal(LOOP_DEAL)
        assert result["result"] == "loop"
        assert result["winners"] == []
        cycle = result["cycle"]
        assert isinstance(cycle, dict)
        assert cycle["found_at_cards"] == result["cards"]
        assert cycle["found_at_tricks"] == result["tricks"]
        assert cycle["found_at_cards"] == cycle["start_cards"] + cycle["length_cards"]
        assert cycle["found_at_tricks"] == cycle["start_tricks"] + cycle["length_tricks"]
        assert cycle["length_cards"] > 0
        assert cycle["length_tricks"] > 0

    def test_the_cycle_is_the_first_repeat_of_a_trick_boundary_position(self) -> None:
        """M10: "Detect a repeated position (all hands in order + whose lead, at a trick
        boundary, cards compared by class J/Q/K/A/number since suits and pips never matter)" """
        state = new(LOOP_DEAL)
        seen: dict[tuple[str, ...], tuple[int, int]] = {}

        def position(s: BeggarState) -> tuple[str, ...]:
            # Whose lead: the seat to move, or (once over) the capturer, who would lead.
            lead = s.to_move if not s.is_over else event(s, "captured")["seat"]
            return (str(lead), *(hand(s, seat) for seat in range(2)))

        seen[position(state)] = (0, 0)
        repeat = None
        while not state.is_over:
            state = play(state)
            if not state.pile and not state.is_over:
                key = position(state)
                if key in seen and repeat is None:
                    repeat = (seen[key], (state.cards, state.tricks))
                seen.setdefault(key, (state.cards, state.tricks))
        assert state.outcome is not None
        assert state.outcome.result == "loop"
        assert "loop" in kinds(state)
        cycle = state.cycle
        assert cycle is not None
        if repeat is None:
            # The final state itself is the repeat (it is over, so the loop above skipped it).
            key = position(state)
            assert key in seen
            repeat = (seen[key], (state.cards, state.tricks))
        assert repeat == (
            (cycle.start_cards, cycle.start_tricks),
            (cycle.found_at_cards, cycle.found_at_tricks),
        )

    def test_suits_and_pips_do_not_matter(self) -> None:
        """M10: "cards compared by class J/Q/K/A/number since suits and pips never matter" --
        the same deal with real cards loops at the same point."""
        ranks = play_deal(LOOP_DEAL)
        state = play_to_end(new(full_cards(LOOP_DEAL), {"card_limit": 5000}), 6000)
        assert state.outcome is not None
        assert state.outcome.result == "loop"
        assert (state.cards, state.tricks) == (ranks["cards"], ranks["tricks"])


class TestM11TimeLimit:
    def test_card_limit_stops_the_game_and_most_cards_wins(self) -> None:
        """M11: "Option card_limit = N: stop after N cards played; the player holding most cards
        wins" """
        state = play(new(build_deal("---", "---", "---"), {"card_limit": 3}), 2)
        assert not state.is_over
        state = play(state)
        assert state.is_over
        assert [len(h) for h in state.hands] == [17, 16, 16]
        assert state.cards == 3
        assert state.outcome is not None
        assert (state.outcome.result, state.outcome.winners) == ("limit", (0,))
        assert state.outcome.returns == (1.0, 0.0, 0.0)
        assert event(state, "limit")["winners"] == [0]
        with pytest.raises(GameOver):
            state.apply("play")

    def test_cards_on_the_pile_are_held_by_nobody(self) -> None:
        """M11: "the player holding most cards wins" -- a pile still in play counts for nobody,
        but a payment completed by the N-th card is taken first (M2)."""
        state = play(new(build_deal("K", "---"), {"card_limit": 2}), 2)
        assert pile(state) == "K-"
        assert state.outcome is not None
        assert state.outcome.scores == (25, 25)
        assert state.outcome.winners == (0, 1)
        state = play(new(build_deal("J", "-"), {"card_limit": 2}), 2)
        assert event(state, "captured") == {"seat": 0, "cards": 2}
        assert state.outcome is not None
        assert (state.outcome.result, state.outcome.winners) == ("limit", (0,))
        assert state.outcome.scores == (27, 25)

    def test_ties_share_the_win(self) -> None:
        """M11: "(ties share the win)" """
        state = play(new(build_deal("--", "--"), {"card_limit": 2}), 2)
        assert state.outcome is not None
        assert (state.outcome.result, state.outcome.winners) == ("limit", (0, 1))
        assert state.outcome.returns == (0.5, 0.5)
        assert state.outcome.ranks == (1, 1)
        state = play(new(build_deal("--", "--", "--"), {"card_limit": 5}), 5)
        assert [len(h) for h in state.hands] == [16, 15, 16]
        assert state.outcome is not None
        assert state.outcome.winners == (0, 2)
        assert state.outcome.returns == (0.5, 0.0, 0.5)
        assert state.outcome.ranks[0] == state.outcome.ranks[2] == 1
        assert state.outcome.ranks[1] > 1

    def test_without_a_limit_only_m6_or_m10_end_the_game(self) -> None:
        """M11: "Without it, only M6 or M10 end the game." """
        deal = "---K-AJ---Q---JK-Q------JA/-K---Q-A--Q-------KJ-A----"
        assert play_deal(deal)["cards"] == 681
        for seed in range(8):
            state = play_to_end(GAME.new(2 + seed % 3, seed), 20000)
            assert state.outcome is not None
            assert state.outcome.result in ("win", "loop")

    @pytest.mark.parametrize(
        "options",
        [{"card_limit": 0}, {"card_limit": "ten"}, {"unpaid_penalty": "pay"}, {"limit": 5}],
    )
    def test_bad_options_are_refused(self, options: dict[str, object]) -> None:
        """M4/M11 name the options unpaid_penalty and card_limit; other values are refused."""
        with pytest.raises(InvalidOption):
            GAME.new(2, 0, options=options)


class TestWorkedExamples:
    @pytest.mark.parametrize(
        ("deal", "penalty", "winner", "cards", "tricks"),
        [
            ("--Q-K--K-AQ-------J--A-J--/------Q-----JA---AKQ---K-J", "capture", 0, 192, 20),
            ("---K-AJ---Q---JK-Q------JA/-K---Q-A--Q-------KJ-A----", "capture", 0, 681, 92),
            ("-QKA-JA-K-Q-J-----/----K---Q---J----/--QJ-A--A---K----", "capture", 2, 782, 97),
            ("-QKA-JA-K-Q-J-----/----K---Q---J----/--QJ-A--A---K----", "next_player", 2, 586, 79),
            ("K---Q---Q------K--/--K---A--J-A-J---/--K----JAQA--J-Q-", "capture", 1, 167, 22),
            ("K---Q---Q------K--/--K---A--J-A-J---/--K----JAQA--J-Q-", "next_player", 1, 839, 108),
        ],
    )
    def test_worked_example(
        self, deal: str, penalty: str, winner: int, cards: int, tricks: int
    ) -> None:
        """RULINGS.md, "Worked examples (deal notation of M9; counts by M8)"."""
        result = play_deal(deal, {"unpaid_penalty": penalty})
        assert result["result"] == "win"
        assert result["winners"] == [winner]
        assert (result["cards"], result["tricks"]) == (cards, tricks)
        assert result["cycle"] is None
        state = play_to_end(new(deal, {"unpaid_penalty": penalty}))
        assert (state.cards, state.tricks) == (cards, tricks)
        assert len(state.hands[winner]) == 52
