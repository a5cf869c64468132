"""Becker's Game of Death rule text, first half: objects, rules, throwing, changing suit, the
values of face cards and passing.

Tested sentence by sentence against ``seeds/beckers-game-of-death.txt``; rulings G1-G14 of
``rules/RULINGS.md`` settle what the text leaves open. One test class per section, each test
quoting its sentence; the deals are built by hand (:mod:`.rules_text_helpers`) so that every
scenario is exact, and the expected drinks come from the text.
"""

from __future__ import annotations

import pytest

from parlour.errors import IllegalAction, InvalidNotation, InvalidOption, ParlourError

from .rules_text_helpers import (
    DECK,
    GAME,
    GIVE,
    NUMBER,
    TAKE,
    build_deal,
    delta,
    gives,
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
)


class TestObjects:
    def test_make_everyone_else_drink_more_than_you_do(self) -> None:
        """ "Objects of the Game: To make everyone else drink more than you do." -- the winner
        is whoever took the fewest drinks (G12)."""
        deal = build_deal("2D", "3D JC 6H", rest=2)
        state = play(new(deal), ["2D", "3D", "4D"])
        assert state.is_over
        rest = deal["hands"][2]
        assert taken(state) == [0, 2, hand_penalty(rest)]
        assert state.outcome is not None
        assert state.outcome.winners == (0,)
        ranks = state.outcome.ranks
        assert ranks[0] < ranks[1] < ranks[2]


class TestRulesDealingAndStarting:
    @pytest.mark.parametrize("players", range(2, 11))
    def test_deal_out_all_of_the_cards(self, players: int) -> None:
        """ "Deal out all of the cards." -- all 52, no Jokers, round-robin from seat 0 (G1)."""
        for seed in range(3):
            data = js(GAME.new(players, seed))
            assert sorted(c for h in data["hands"] for c in h) == sorted(DECK)
            sizes = [len(h) for h in data["hands"]]
            assert sizes == [52 // players + (s < 52 % players) for s in range(players)]
            assert data["pile"] == []
            assert data["drinks_taken"] == [0] * players == data["drinks_given"]
            assert (data["pending_give"], data["first_out"], data["over"]) == (None, None, False)

    @pytest.mark.parametrize(
        "hands",
        [
            [DECK[:26], DECK[26:51]],  # a card missing
            [DECK[:26], [*DECK[26:51], "AS"]],  # a card twice
            [DECK[:26], [*DECK[26:51], "JK1"]],  # a Joker
            [DECK[:26], [*DECK[26:51], "1X"]],  # not a card
        ],
    )
    def test_a_deal_must_hold_all_of_the_cards_once(self, hands: list[list[str]]) -> None:
        """ "Deal out all of the cards." -- a deal holds the 52 cards exactly once (G1)."""
        with pytest.raises(InvalidNotation):
            GAME.new(2, 0, deal={"hands": hands})

    def test_a_deal_has_one_hand_per_player(self) -> None:
        """ "Deal out all of the cards." -- to the players of the game, one hand each (G1)."""
        with pytest.raises(InvalidNotation):
            GAME.new(3, 0, deal={"hands": [DECK[:26], DECK[26:]]})

    @pytest.mark.parametrize("players", [0, 1, 11])
    def test_two_to_ten_players(self, players: int) -> None:
        """ "Deal out all of the cards." -- to 2 to 10 players (G1)."""
        with pytest.raises(InvalidOption):
            GAME.new(players, 0)

    def test_two_of_diamonds_starts(self) -> None:
        """ "2 of Diamonds starts." -- its holder throws it first (G1)."""
        state = new(build_deal("3D 4D", "5D", "2D 9S", rest=1))
        assert state.to_move == 2
        assert legal(state) == {"2D"}
        with pytest.raises(IllegalAction):
            state.apply("9S")
        for seed in range(5):
            dealt = GAME.new(4, seed)
            holder = next(s for s, h in enumerate(js(dealt)["hands"]) if "2D" in h)
            assert (dealt.to_move, legal(dealt)) == (holder, {"2D"})

    def test_the_next_player_throws_same_suit_or_same_value(self) -> None:
        """ "The next player has two choices: A) Throw down a card of the same suit, or
        B) Throw down a card of the same numerical value" """
        state = new(build_deal("2D", "3D 9D 2S 5C KH", rest=0)).apply("2D")
        assert state.to_move == 1
        assert legal(state) == {"3D", "9D", "2S"}

    def test_neither_a_nor_b_passes_and_takes_a_drink(self) -> None:
        """ "If the player can do neither A or B, then that player passes and takes a drink." """
        state = new(build_deal("2D", "5C KH 9S", rest=0)).apply("2D")
        assert legal(state) == {"pass"}
        after = state.apply("pass")
        assert delta(state, after) == [0, 1]
        assert text_with(after, "Player 2", "1")

    def test_a_thrown_card_cannot_be_taken_back(self) -> None:
        """ "Once a legally playable card is thrown, it cannot be taken back." """
        before = new(build_deal("2D", "3D 9D", "5C", rest=0)).apply("2D")
        after = before.apply("3D")
        assert js(after)["pile"] == ["3D", "2D"]
        assert hand(after, 1) == ["9D"]
        assert after.to_move == 2
        for text in ("undo", "take back 3D", "3D"):
            with pytest.raises(ParlourError):
                after.apply(text)
        assert hand(before, 1) == ["3D", "9D"]  # states are values: the old one is untouched


class TestThrowingCards:
    def test_same_suit_higher_no_drinks(self) -> None:
        """ "If a player throws out a card of the same suit, with a higher numerical value, that
        is between 2-10, no drinks are taken by anyone. Example: The 2 of Diamonds is thrown, the
        next player throws the 6 of Diamonds. Play moves on to the next player, and no one
        drinks." """
        state = new(build_deal("2D", "6D 7S", "8S", rest=0)).apply("2D")
        after = state.apply("6D")
        assert taken(after) == [0, 0, 0]
        assert after.to_move == 2

    def test_example_nine_of_clubs_then_three_of_clubs_drinks_six(self) -> None:
        """ "Example: A 9 of Clubs is thrown, the next card thrown is the 3 of Clubs. This player
        must drink 6. Play moves on." """
        state = swept("9C", "3C 7H", "8H")
        state = state.apply("9C")
        after = state.apply("3C")
        assert delta(state, after) == [0, 6, 0]
        assert after.to_move == 2
        text = text_with(after, "Player 2 drinks 6", "(G3)")
        assert ("3♣" in text and "9♣" in text) or ("3C" in text and "9C" in text)

    @pytest.mark.parametrize(("high", "low"), [("TH", "3H"), ("5S", "4S"), ("8C", "3C")])
    def test_lower_card_drinks_the_difference(self, high: str, low: str) -> None:
        """ "If the card is less that 10, but lower than the previous card, that player must drink
        one drink per each value the new card is lower than the previous card." """
        state = swept(high, f"{low} 7H").apply(high)
        after = state.apply(low)
        assert delta(state, after) == [0, NUMBER[high[0]] - NUMBER[low[0]]]

    def test_a_face_card_does_what_it_requires(self) -> None:
        """ "If the card is a face card, the player must do what that card requires." """
        state = swept("5H", "QH 7S", "KC 7C").apply("5H")
        after = state.apply("QH")
        assert delta(state, after) == [0, 3, 0]
        assert pending(after) is None and after.to_move == 2
        state = swept("5C", "KC 7H", "8H").apply("5C")
        after = state.apply("KC")
        assert delta(state, after) == [0, 0, 0]
        assert pending(after) == (1, 4)
        assert after.to_move == 1


class TestChangingSuit:
    def test_change_suit_with_the_same_value(self) -> None:
        """ "You change suit by throwing out a card of the same numerical value as the previously
        thrown card." """
        state = swept("7S", "7H 8S 3C").apply("7S")
        assert legal(state) == {"7H", "8S"}
        after = state.apply("7H")
        assert js(after)["pile"] == ["7H", "7S"]

    def test_example_four_of_spades_broken_by_four_of_hearts(self) -> None:
        """ "When you change a suit (Breaking Suit) the player who threw the previous card has to
        drink one. Example: I throw the 4 of Spades. You Break my suit with the 4 of Hearts. I
        drink one." """
        state = swept("4S", "4H 9C").apply("4S")
        after = state.apply("4H")
        assert delta(state, after) == [1, 0]
        assert text_with(after, "Player 1 drinks 1", "(G4)")

    def test_the_new_suit_is_followed(self) -> None:
        """ "You change suit by throwing out a card of the same numerical value" -- and the next
        player follows the new card (G2)."""
        state = swept("4S", "4H 9C").apply("4S").apply("4H")
        expected = {c for c in hand(state, 0) if c[1] == "H" or c[0] == "4"}
        assert legal(state) == expected
        assert "5S" not in expected and "5S" in hand(state, 0)

    def test_breaking_with_a_face_card_does_what_it_requires(self) -> None:
        """ "If the card is a Face Card. You must do what that card requires." -- the break drink
        and the card's own effect both apply (G6)."""
        state = swept("JC", "JH 9S", "8S").apply("JC").apply("give 2>P3")
        after = state.apply("JH")
        assert delta(state, after) == [1, 2, 0]
        state = swept("JH", "JS 9H", "8H").apply("JH")
        after = state.apply("JS")
        assert delta(state, after) == [1, 0, 0]
        assert pending(after) == (1, 4)


class TestValuesOfFaceCards:
    @pytest.mark.parametrize("card", sorted(TAKE))
    def test_red_face_cards_take(self, card: str) -> None:
        """ "Black Face Cards give. Red Face Cards take." -- "Ace of Hearts: Take 5 ... King of
        Hearts: Take 4 ... Queen of Hearts: Take 3 ... Jack of Hearts: Take 2 ... Ace of
        Diamonds: Take 10 ... King of Diamonds: Take 8 ... Queen of Diamonds: Take 6 ... Jack of
        Diamonds: Take 4" """
        state = swept(card, "3S 4S")
        after = state.apply(card)
        assert delta(state, after) == [TAKE[card], 0]
        assert pending(after) is None
        assert js(after)["drinks_given"] == [0, 0]

    @pytest.mark.parametrize("card", sorted(GIVE))
    def test_black_face_cards_give(self, card: str) -> None:
        """ "Black Face Cards give." -- "Ace of Spades: Give 20 ... King of Spades: Give 8 ...
        Queen of Spades: Give 6 ... Jack of Spades: Give 4 ... Ace of Clubs: Give 5 ... King of
        Clubs: Give 4 ... Queen of Clubs: Give 3 ... Jack of Clubs: Give 2" """
        state = swept(card, "3H", "4H")
        after = state.apply(card)
        assert delta(state, after) == [0, 0, 0]
        assert pending(after) == (0, GIVE[card])
        assert after.to_move == 0
        assert legal(after) == gives(0, GIVE[card], 3)
        done = after.apply(f"give {GIVE[card]}>P2")
        assert delta(after, done) == [0, GIVE[card], 0]
        assert js(done)["drinks_given"] == [GIVE[card], 0, 0]
        assert pending(done) is None

    def test_you_may_split_the_drinks_you_give(self) -> None:
        """ "You may split up the drinks that you give out" """
        state = swept("KS", "3H", "4H").apply("KS")
        part = state.apply("give 5>P2")
        assert pending(part) == (0, 3)
        assert legal(part) == gives(0, 3, 3)
        done = part.apply("give 3>P3")
        assert delta(state, done) == [0, 5, 3]
        assert js(done)["drinks_given"] == [8, 0, 0]
        assert pending(done) is None and done.to_move == 1

    def test_you_can_not_split_the_drinks_you_must_take(self) -> None:
        """ "but you can not split the drinks you must take." -- the thrower drinks them all at
        once, and there is nothing to give."""
        state = swept("KD", "3H", "4H")
        after = state.apply("KD")
        assert delta(state, after) == [8, 0, 0]
        assert pending(after) is None
        with pytest.raises(IllegalAction):
            after.apply("give 4>P2")

    def test_the_next_player_waits_for_the_black_face_card(self) -> None:
        """ "If a player throws out a black face card, the next player may not play a card until
        the previous player has assigned all of their drinks." """
        state = swept("6C", "QC 3H", "4C 9H").apply("6C").apply("QC")
        assert state.to_move == 1
        assert legal(state) == gives(1, 3, 3)
        with pytest.raises(IllegalAction):
            state.apply("4C", seat=2)
        with pytest.raises(IllegalAction):
            state.apply("4C")
        state = state.apply("give 1>P1").apply("give 2>P3")
        assert state.to_move == 2
        assert "4C" in legal(state)

    def test_red_ace_no_waiting(self) -> None:
        """ "If you throw out a red Ace, you do not have to wait until you have finished your
        drinks before throwing your next card." """
        state = swept("AH", "3S", "4S")
        after = state.apply("AH")
        assert delta(state, after) == [5, 0, 0]
        assert pending(after) is None
        assert after.to_move == 0
        assert legal(after) == set(hand(after, 0))

    def test_black_ace_gives_before_starting_again(self) -> None:
        """ "If you throw a black Ace, you must give out those drinks before starting again." """
        state = swept("AS", "3H", "4H").apply("AS")
        assert pending(state) == (0, 20)
        assert legal(state) == gives(0, 20, 3)
        part = state.apply("give 12>P2")
        assert legal(part) == gives(0, 8, 3)
        done = part.apply("give 8>P3")
        assert delta(state, done) == [0, 12, 8]
        assert (done.to_move, js(done)["pile"]) == (0, [])
        assert legal(done) == set(hand(done, 0))


class TestPassing:
    def test_pass_if_and_only_if_no_legal_card(self) -> None:
        """ "You may pass, if and only if, you have no legal cards to play." """
        state = swept("5C", "7C 9H", "8H").apply("5C")
        assert legal(state) == {"7C"}
        with pytest.raises(IllegalAction, match=r"you must throw when you can \(G2\)"):
            state.apply("pass")
        after = state.apply("7C")
        assert legal(after) == {"pass"}

    def test_must_throw_even_if_it_requires_heavy_drinking(self) -> None:
        """ "As long as you have a legally playable card, you must throw it. Even if it requires
        you to drink heavily." """
        state = new(build_deal("2D", "AD 5C", rest=0)).apply("2D")
        assert legal(state) == {"AD"}
        after = state.apply("AD")
        assert delta(state, after) == [0, 10]

    def test_if_you_pass_you_must_drink_one(self) -> None:
        """ "If you pass, you must drink one." """
        state = swept("5C", "7H 9H", "8C").apply("5C")
        after = state.apply("pass")
        assert delta(state, after) == [0, 1, 0]
        assert after.to_move == 2
        assert text_with(after, "Player 2 drinks 1")
        assert state.view(0).to_json()["passed"] == []
        assert after.view(0).to_json()["passed"] == [1]

    def test_passing_while_holding_a_playable_card_is_cheating(self) -> None:
        """ "Passing while holding legally playable cards is considered cheating." -- so the
        game never allows it (G13: engines offer only legal actions)."""
        state = new(build_deal("2D", "3D 9S", rest=0)).apply("2D")
        assert "pass" not in legal(state)
        with pytest.raises(IllegalAction, match="G2"):
            state.apply("pass")
