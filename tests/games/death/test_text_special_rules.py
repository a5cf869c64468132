"""Becker's Game of Death rule text, "Special Rules": the Ace, the broken suit social, sweeping,
illegally played cards and the black face card penalty.

Tested sentence by sentence against ``seeds/beckers-game-of-death.txt``, with rulings G1-G14 of
``rules/RULINGS.md``. One test class per section, each test quoting its sentence; the deals are
built by hand (:mod:`.rules_text_helpers`) and the expected drinks come from the text.
"""

from __future__ import annotations

import pytest

from parlour.errors import IllegalAction

from .rules_text_helpers import (
    SOCIAL5_FIVES,
    SOCIAL5_HANDS,
    SOCIAL5_INTRO,
    build_deal,
    delta,
    hand,
    hand_penalty,
    js,
    legal,
    new,
    pending,
    play,
    swept,
    taken,
    text_with,
    texts,
)


class TestTheAce:
    def test_ace_effect_then_sweep_then_the_thrower_restarts(self) -> None:
        """ "If an Ace is thrown, the player must due what that card requires. Then the cards are
        swept off of the playing surface, and that player restarts play." """
        state = swept("5H", "AH 9S 3C", "8C").apply("5H")
        after = state.apply("AH")
        assert delta(state, after) == [0, 5, 0]
        assert js(after)["pile"] == []
        assert after.to_move == 1
        assert legal(after) == {"9S", "3C"}

    def test_black_ace_gives_then_sweeps(self) -> None:
        """ "If an Ace is thrown, the player must due what that card requires. Then the cards are
        swept" -- a black Ace's drinks are given first."""
        state = swept("5S", "AS 9H 3C", "8C").apply("5S").apply("AS")
        assert pending(state) == (1, 20)
        done = state.apply("give 20>P1")
        assert delta(state, done) == [20, 0, 0]
        assert (js(done)["pile"], done.to_move) == ([], 1)
        assert legal(done) == {"9H", "3C"}

    def test_ace_with_no_cards_left_ends_the_game(self) -> None:
        """ "If the player who threw the Ace has no more cards left to throw, the game ends." """
        deal = build_deal("2D AD", rest=1)
        state = play(new(deal), ["2D", "3D"])
        after = state.apply("AD")
        assert after.is_over and after.to_move is None
        assert legal(after) == set()
        assert taken(after) == [10, hand_penalty(deal["hands"][1])]


class TestBrokenSuitSocial:
    def test_example_five_players(self) -> None:
        """ "Usually just called a social, this occurs when all four cards of the same value are
        thrown consecutively. All players drink one. Plus the last player whose suit was broken
        still drinks one for the broken suit." -- "Example: 5 players in game. Player A throws
        the 5 of Clubs. Player B throws the 5 of Diamonds. Player A drinks one. Player C throws
        the 5 of Hearts. Player B drinks one. Player D throws the 5 of Spades. Player C drinks
        one. All players, including C and E (who did not throw a 5) drink one." """
        state = play(new(build_deal(*SOCIAL5_HANDS)), SOCIAL5_INTRO)
        assert (state.to_move, js(state)["pile"]) == (0, [])
        steps = [state]
        for card in SOCIAL5_FIVES:
            steps.append(steps[-1].apply(card))
        assert delta(steps[0], steps[1]) == [0, 0, 0, 0, 0]  # A: 5♣
        assert delta(steps[1], steps[2]) == [1, 0, 0, 0, 0]  # B: 5♦, A drinks one
        assert delta(steps[2], steps[3]) == [0, 1, 0, 0, 0]  # C: 5♥, B drinks one
        assert delta(steps[3], steps[4]) == [1, 1, 2, 1, 1]  # D: 5♠, C drinks one, all one
        assert text_with(steps[4], "Social", "(G7)")
        assert text_with(steps[4], "Player 3 drinks 1", "(G4)")

    def test_a_social_face_card_does_what_it_requires(self) -> None:
        """ "If the card is a face card, the player must do what that card requires." -- the
        fourth Queen breaks suit, takes 3 and makes a social (G6)."""
        state = swept("QD", "QS 3H", "QC 3C", "QH 6S")
        state = play(state, ["QD", "QS", "give 6>P1", "QC", "give 3>P1"])
        after = state.apply("QH")
        assert delta(state, after) == [1, 1, 2, 4]
        assert text_with(after, "Social", "(G7)")


class TestSweeping:
    def test_cards_stay_on_the_table_until_swept(self) -> None:
        """ "Cards are only swept off the tabe under two circumstances." -- otherwise the pile
        keeps every card thrown, top card first."""
        state = play(new(build_deal("2D 3S", "5D 5S", "9D 4S", rest=0)), ["2D", "5D", "9D"])
        assert js(state)["pile"] == ["9D", "5D", "2D"]
        state = play(state, ["3D", "pass", "pass"])  # seat 1 holds 5S, seat 2 4S: no diamond
        assert js(state)["pile"] == []

    def test_swept_when_an_ace_is_thrown(self) -> None:
        """ "1) When an Ace is thrown (See above rule)" """
        state = play(new(build_deal("2D", "3D 9S", rest=0)), ["2D", "3D"])
        after = state.apply("AD")
        assert js(state)["pile"] == ["3D", "2D"]
        assert js(after)["pile"] == []
        assert after.to_move == 0

    def test_swept_when_everyone_else_passes(self) -> None:
        """ "2) When a person throws a card and everyone else passes so that when it's their turn
        again, they were the last person to throw a card." """
        state = new(build_deal("2D", "5S 6S", "7S", "8S 9S", rest=0)).apply("2D")
        state = play(state, ["pass", "pass"])
        assert js(state)["pile"] == ["2D"]
        assert state.to_move == 3
        after = state.apply("pass")
        assert js(after)["pile"] == []
        assert after.to_move == 0
        assert legal(after) == set(hand(after, 0))
        assert taken(after) == [0, 1, 1, 1]

    def test_the_sweeper_leads_it_is_not_the_next_dealer_who_plays(self) -> None:
        """ "The sweeper is the dealer for the next round. The next dealer is the player to the
        left of the current dealer." -- names who clears the table; the last thrower leads (G9),
        not the player to his left."""
        state = play(new(build_deal("2D", "5S", "7S", rest=0)), ["2D", "pass", "pass"])
        assert state.to_move == 0
        assert not state.is_over

    def test_a_social_does_not_sweep(self) -> None:
        """ "Cards are only swept off the tabe under two circumstances." -- a social is not one
        of them (G7)."""
        state = play(new(build_deal(*SOCIAL5_HANDS)), SOCIAL5_INTRO + SOCIAL5_FIVES)
        assert js(state)["pile"] == ["5S", "5H", "5D", "5C"]
        assert state.to_move == 4


class TestIllegallyPlayedCards:
    def test_an_illegal_card_costs_two_and_goes_back(self) -> None:
        """ "If a player throws out a card which neither follows suit or value of the previously
        thrown card. That player is penalized 2 drinks. The illegally thrown card is put back in
        that players hand, and the player throws a legal card or passes." -- a table entry made
        by the player himself (G13)."""
        state = swept("9C", "7H 3C 8S", "4H").apply("9C")
        after = state.apply_table("illegal 7H", by=1)
        assert delta(state, after) == [0, 2, 0]
        assert hand(after, 1) == ["3C", "7H", "8S"]
        assert js(after)["pile"] == ["9C"]
        assert after.to_move == 1
        assert legal(after) == legal(state) == {"3C"}
        assert "Player 2" in " ".join(texts(after))
        assert after.apply("3C").to_move == 2

    def test_after_the_penalty_he_passes_if_he_cannot_throw(self) -> None:
        """ "... and the player throws a legal card or passes." """
        state = swept("9C", "7H 8S", "4H").apply("9C")
        after = state.apply_table("illegal 7H", by=1).apply("pass")
        assert delta(state, after) == [0, 3, 0]
        assert after.to_move == 2

    def test_a_plain_illegal_throw_is_refused_naming_the_rule(self) -> None:
        """ "If a player throws out a card which neither follows suit or value of the previously
        thrown card." -- without the table entry the throw is refused (G2, G13)."""
        state = swept("9C", "7H 3C", "4H").apply("9C")
        with pytest.raises(IllegalAction, match=r"7H does not follow 9C: neither suit nor rank"):
            state.apply("7H")
        with pytest.raises(IllegalAction, match="G2"):
            state.apply("7h")

    @pytest.mark.parametrize("card", ["3C", "5H"])
    def test_the_penalty_is_only_for_an_illegal_card_of_his_own(self, card: str) -> None:
        """ "If a player throws out a card which neither follows suit or value" -- a legal card
        (3♣) or a card he does not hold (5♥ is seat 0's) is no illegal throw."""
        state = swept("9C", "7H 3C", "4H").apply("9C")
        with pytest.raises(IllegalAction, match="G13"):
            state.apply_table(f"illegal {card}", by=1)

    def test_no_penalty_when_the_option_is_off(self) -> None:
        """ "That player is penalized 2 drinks." -- unless the table turns the penalty off
        (option ``illegal_throw_penalty``, G13)."""
        options = {"illegal_throw_penalty": False}
        state = swept("9C", "7H 3C", "4H", options=options).apply("9C")
        with pytest.raises(IllegalAction, match="illegal_throw_penalty"):
            state.apply_table("illegal 7H", by=1)


class TestBlackFaceCardPenalty:
    def test_example_king_of_spades_left_in_hand(self) -> None:
        """ "If the game ends, and a player is still holding Black Face Cards, this player is
        penalized for not making others drink. The player drinks the value that the card would
        normally give. Example: The game ends and you are holding the King of Spades in your
        hand still. Instead of giving 8, you take the 8 drinks." """
        deal = build_deal("2D", "3D KS 4H", rest=2)
        state = play(new(deal), ["2D", "3D"])
        assert taken(state) == [0, 0, 0]
        after = state.apply("4D")
        assert after.is_over
        assert taken(after) == [0, 8, hand_penalty(deal["hands"][2])]
        assert text_with(after, "Player 2", "8", "(G11)")

    def test_every_black_face_card_is_counted(self) -> None:
        """ "The player drinks the value that the card would normally give." """
        state = play(new(build_deal("2D", "3D JS QC AC", rest=2)), ["2D", "3D", "4D"])
        assert taken(state)[1] == 4 + 3 + 5

    def test_no_penalty_for_red_face_cards(self) -> None:
        """ "There is no penalty for Red Face Cards in your hand at the end of the game." """
        state = play(new(build_deal("2D", "3D KH AD QD JH", rest=2)), ["2D", "3D", "4D"])
        assert state.is_over
        assert taken(state)[1] == 0
        assert state.outcome is not None
        assert state.outcome.details["drinks_taken"][1] == 0
