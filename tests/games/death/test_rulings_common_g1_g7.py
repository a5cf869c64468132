"""Rulings "Common" and G1-G7 of ``rules/RULINGS.md`` for Becker's Game of Death.

One test class per ruling, each test quoting the ruling's sentence: card notation, piles top
first, seat names, seeded randomness and public information (Common); the deal and the start
(G1), legal throws and forced passes (G2), going down (G3), breaking suit (G4), face cards (G5),
the order of effects (G6) and socials (G7). Deals are built by hand (:mod:`.rules_text_helpers`).
"""

from __future__ import annotations

import re

import pytest

from parlour.errors import IllegalAction, InvalidOption

from .rules_text_helpers import (
    GAME,
    build_deal,
    cards_named,
    delta,
    gives,
    hand,
    index_of,
    js,
    legal,
    new,
    pending,
    play,
    swept,
    taken,
    text_with,
)

ACTION_RE = re.compile(r"^(?:[A2-9TJQK][SHDC]|pass|give [1-9][0-9]*>P(?:[1-9]|10))$")


class TestCommon:
    @pytest.mark.parametrize("text", ["TD", "td", "10D", "10d", "10♦", "T♦"])
    def test_card_notation_accepts_10_lower_case_and_symbols(self, text: str) -> None:
        """ "Parsing also accepts ``10H``, lower case and the suit symbols ♠♥♦♣." """
        state = new(build_deal("2D", "TD 9S", rest=0)).apply("2D")
        assert js(state.apply(text)) == js(state.apply("TD"))

    def test_actions_print_canonically_and_parse_back(self) -> None:
        """ "``str()`` of a card is the canonical ASCII form, and ``parse(format(x)) == x`` for
        every card, action and record." """
        for state in (
            new(build_deal("2D", "TD 9S", rest=0)).apply("2D"),
            new(build_deal("2D", "9S", rest=0)).apply("2D"),
            swept("QS", "3H", "4H").apply("QS"),
        ):
            for action in state.legal_actions():
                assert ACTION_RE.match(str(action)), str(action)
                assert js(state.apply(str(action))) == js(state.apply(action))

    def test_piles_are_listed_top_card_first(self) -> None:
        """ "Piles in JSON and strings are listed top card first" """
        state = play(new(build_deal("2D", "3D 9S", "5C", rest=0)), ["2D", "3D"])
        assert js(state)["pile"] == ["3D", "2D"]
        assert state.view(2).to_json()["pile"] == ["3D", "2D"]

    def test_messages_name_seats_from_player_1(self) -> None:
        """ "Seats are numbered 0..n-1 clockwise ... Messages to people say "Player 1".."Player
        n"." """
        state = new(build_deal("5C", "2D", "9S", rest=0)).apply("2D")
        assert text_with(state, "Player 2")
        assert state.to_move == 2

    def test_the_same_seed_deals_the_same_cards(self) -> None:
        """ "Randomness comes only from a seed recorded in the game record; the same record
        always replays to the same states and events" """
        assert js(GAME.new(4, 7)) == js(GAME.new(4, 7))
        assert len({str(js(GAME.new(4, seed))["hands"]) for seed in range(5)}) == 5

    def test_a_view_shows_public_information_only(self) -> None:
        """ "Public information is everything a player at a real table could see or remember:
        every card played face up ... pile sizes" -- never a card of another hand."""
        state = play(new(build_deal("2D 4S", "3D 9S KH", "5D 6C", rest=0)), ["2D", "3D"])
        data = js(state)
        for seat in range(3):
            view = state.view(seat).to_json()
            assert sorted(view["hand"]) == sorted(data["hands"][seat])
            assert view["hand_sizes"] == [len(h) for h in data["hands"]]
            assert view["pile"] == ["3D", "2D"]
            others = {c for s, h in enumerate(data["hands"]) if s != seat for c in h}
            assert not cards_named(str(view)) & others


class TestG1:
    def test_any_hand_sizes_in_a_dealt_game(self) -> None:
        """ "All 52 cards (no Jokers), round-robin from seat 0; 2 to 10 players." -- a deal in
        a record may hold hands of any sizes."""
        state = new(build_deal("3S 4S", "2D 5S", rest=2))
        assert [len(h) for h in js(state)["hands"]] == [2, 2, 48]
        assert state.to_move == 1

    def test_the_holder_of_2d_throws_it_first_and_play_goes_clockwise(self) -> None:
        """ "The holder of 2♦ throws it first; play goes clockwise." """
        state = new(build_deal("3D", "4D", "2D", "5D", rest=0))
        assert (state.to_move, legal(state)) == (2, {"2D"})
        state = state.apply("2D")
        assert state.to_move == 3
        state = state.apply("5D")
        assert state.to_move == 0


class TestG2:
    def test_same_suit_or_same_rank_as_the_top_card(self) -> None:
        """ "Same suit or same rank as the top card of the pile" """
        state = swept("8H", "3H 8C 9C", "8S").apply("8H")
        assert legal(state) == {"3H", "8C"}
        with pytest.raises(IllegalAction, match=r"9C does not follow 8H: neither suit nor rank"):
            state.apply("9C")

    def test_a_new_lead_may_be_any_card(self) -> None:
        """ "a new lead (start, after a sweep) may be any card." """
        state = swept("8H", "3H", "8S")
        assert legal(state) == set(hand(state, 0))
        assert len(legal(state)) == 52 - 3  # 2D was thrown, 3H and 8S are theirs

    def test_with_no_legal_card_he_passes_and_drinks_one(self) -> None:
        """ "A player with a legal card must throw one; with none, he passes and drinks 1." """
        state = swept("8H", "3C", "8S").apply("8H")
        assert legal(state) == {"pass"}
        assert delta(state, state.apply("pass")) == [0, 1, 0]
        state = swept("8H", "3H 8C", "8S").apply("8H")
        assert "pass" not in legal(state)


class TestG3:
    def test_same_suit_number_cards_lower_drink_the_difference(self) -> None:
        """ "Same suit, both cards 2-10, new card lower: the thrower drinks the difference." """
        state = swept("TS", "3S 4H", "5H").apply("TS")
        assert delta(state, state.apply("3S")) == [0, 7, 0]

    def test_higher_costs_nothing(self) -> None:
        """ "new card lower" -- a higher card costs nothing."""
        state = swept("3S", "TS 4H", "5H").apply("3S")
        assert delta(state, state.apply("TS")) == [0, 0, 0]

    @pytest.mark.parametrize(
        ("face", "card", "setup", "on"),
        [("QC", "5C", ["give 3>P3"], 7), ("KH", "9H", [], 4), ("JS", "3S", ["give 4>P3"], 8)],
    )
    def test_faces_count_only_with_the_option(
        self, face: str, card: str, setup: list[str], on: int
    ) -> None:
        """ "Option ``difference_against_faces`` (default off): J=11, Q=12, K=13 also count as
        the previous card." """
        keeper = "6S" if card[1] == "H" else "6H"
        for option, drinks in ((None, 0), (False, 0), (True, on)):
            options = None if option is None else {"difference_against_faces": option}
            state = swept(face, f"{card} {keeper}", "TS", options=options)
            state = play(state, [face, *setup])
            assert delta(state, state.apply(card)) == [0, drinks, 0], option

    def test_a_face_card_never_goes_down(self) -> None:
        """ "both cards 2-10" -- a Jack thrown on a King costs no difference, option or not."""
        for option in (False, True):
            options = {"difference_against_faces": option}
            state = swept("KC", "JC 6H", "8H", options=options).apply("KC").apply("give 4>P3")
            after = state.apply("JC")
            assert delta(state, after) == [0, 0, 0]
            assert pending(after) == (1, 2)

    @pytest.mark.parametrize("value", ["maybe", 2, None])
    def test_the_option_is_validated(self, value: object) -> None:
        """ "Option ``difference_against_faces``" -- true or false."""
        with pytest.raises(InvalidOption):
            GAME.new(3, 0, options={"difference_against_faces": value})
        with pytest.raises(InvalidOption):
            GAME.new(3, 0, options={"no_such_option": True})


class TestG4:
    def test_the_thrower_of_the_covered_card_drinks(self) -> None:
        """ "A same-rank card of another suit makes the player who threw the covered card drink
        1" -- not the player before the breaker."""
        state = swept("5C", "7H 9H", "8H", "5H 6S").apply("5C")
        state = play(state, ["pass", "pass"])
        after = state.apply("5H")
        assert delta(state, after) == [1, 0, 0, 0]

    def test_even_if_he_has_run_out_of_cards(self) -> None:
        """ "even if he has since passed or run out of cards." """
        state = play(new(build_deal("2D", "2C 5H", rest=2)), ["2D"])
        assert js(state)["hands"][0] == []
        after = state.apply("2C")
        assert delta(state, after) == [1, 0, 0]

    def test_a_lead_breaks_nothing(self) -> None:
        """ "A same-rank card of another suit" -- on a swept table there is no covered card."""
        state = swept("2H", "3S", "4S")
        assert delta(state, state.apply("2H")) == [0, 0, 0]


class TestG5:
    def test_the_effect_applies_on_leads(self) -> None:
        """ "The effect applies on every throw, leads included." """
        state = swept("QH", "3S", "4S")
        assert delta(state, state.apply("QH")) == [3, 0, 0]
        state = swept("QS", "3H", "4H")
        assert pending(state.apply("QS")) == (0, 6)

    def test_giving_to_players_with_no_cards_too(self) -> None:
        """ "Giving: the thrower splits the drinks as he likes among the other players (those
        with no cards too); the game waits until all are assigned." """
        state = play(new(build_deal("2D", "2C 5H", rest=2)), ["2D", "2C", "JC"])
        assert pending(state) == (2, 2)
        assert legal(state) == gives(2, 2, 3)
        after = state.apply("give 2>P1")
        assert taken(after)[0] == 1 + 2
        assert js(after)["drinks_given"] == [0, 0, 2]

    def test_not_to_himself(self) -> None:
        """ "among the other players" """
        state = play(new(build_deal("2D", "2C 5H", rest=2)), ["2D", "2C", "JC"])
        with pytest.raises(IllegalAction, match=r"Player 3 cannot give drinks to himself \(G5\)"):
            state.apply("give 1>P3")

    def test_taking_the_thrower_drinks_them(self) -> None:
        """ "Taking: the thrower drinks them." """
        state = new(build_deal("2D", "KD 4S", rest=0)).apply("2D")
        after = state.apply("KD")
        assert delta(state, after) == [0, 8]
        assert js(after)["drinks_given"] == [0, 0]


class TestG6:
    def test_break_then_face_then_social_and_all_stack(self) -> None:
        """ "Order of effects for one throw: breaking-suit drink, going-down drink, face
        give/take, social, Ace sweep, end check. All stack." """
        state = swept("QD", "QS 3H", "QC 3C", "QH 6S")
        state = play(state, ["QD", "QS", "give 6>P1", "QC", "give 3>P1"])
        after = state.apply("QH")
        assert delta(state, after) == [1, 1, 2, 4]
        assert index_of(after, "(G4)") < index_of(after, "(G5)") < index_of(after, "(G7)")

    def test_take_then_ace_sweep_then_end(self) -> None:
        """ "face give/take, social, Ace sweep, end check" """
        state = play(new(build_deal("2D AD", rest=1)), ["2D", "3D"])
        after = state.apply("AD")
        assert index_of(after, "(G5)") < index_of(after, "(G8)")
        assert after.is_over
        assert index_of(after, "(G8)") < index_of(after, "(G11)")


class TestG7:
    def test_passes_do_not_break_a_social(self) -> None:
        """ "When the last four cards on the pile since the last sweep are the four cards of one
        rank (passes do not break it), every player drinks 1." """
        state = swept("5S 5D", "5H 8H", "7C 8C", "5C 9S")
        state = play(state, ["5S", "5H", "pass", "5C"])
        after = state.apply("5D")
        assert delta(state, after) == [1, 1, 1, 2]

    def test_every_player_drinks_those_with_no_cards_too(self) -> None:
        """ "every player drinks 1." """
        state = swept("5S 5D", "5H 8H", "5C 9S", "")
        state = play(state, ["5S", "5H", "5C"])
        assert state.to_move == 0
        after = state.apply("5D")
        assert delta(state, after) == [1, 1, 2, 1]

    def test_four_of_a_rank_around_a_sweep_are_no_social(self) -> None:
        """ "the last four cards on the pile since the last sweep" """
        state = swept("5S AC 5D", "5H 8H", "5C 8S", "7H 9H")
        state = play(state, ["5S", "5H", "5C", "pass", "AC", "give 5>P2"])
        assert (state.to_move, js(state)["pile"]) == (0, [])
        after = state.apply("5D")
        assert delta(state, after) == [0, 0, 0, 0]
        assert js(after)["pile"] == ["5D"]

    def test_no_sweep(self) -> None:
        """ "No sweep." """
        state = swept("5S 5D", "5H 8H", "7C 8C", "5C 9S")
        after = play(state, ["5S", "5H", "pass", "5C", "5D"])
        assert js(after)["pile"] == ["5D", "5C", "5H", "5S"]
        assert after.to_move == 1
