"""Rulings G8-G14 of ``rules/RULINGS.md`` for Becker's Game of Death.

One test class per ruling, each test quoting the ruling's sentence: the Ace (G8), the all-pass
sweep (G9), the end (G10), the hand penalty (G11), the result (G12), illegal throws and table
penalties (G13) and sober players (G14). Deals are built by hand (:mod:`.rules_text_helpers`).
"""

from __future__ import annotations

import pytest

from parlour.errors import IllegalAction, InvalidOption, ParlourError

from .rules_text_helpers import (
    ENDING5_ACTIONS,
    ENDING5_HANDS,
    GAME,
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


class TestG8:
    def test_swept_and_the_same_player_leads_any_card(self) -> None:
        """ "After its effect the pile is swept and the same player leads any card" """
        state = swept("5C", "AC 9H 3S", "8C").apply("5C").apply("AC")
        assert pending(state) == (1, 5)
        after = state.apply("give 5>P3")
        assert (after.to_move, js(after)["pile"]) == (1, [])
        assert legal(after) == {"9H", "3S"}  # neither follows A♣: a new lead

    def test_if_he_has_none_the_game_ends(self) -> None:
        """ "if he has none, the game ends." -- though others still hold cards and nobody went
        out before."""
        deal = build_deal("2D AD", "3S", rest=2)
        state = play(new(deal), ["2D", "pass", "3D"])
        assert js(state)["first_out"] is None
        after = state.apply("AD")
        assert after.is_over and after.to_move is None
        assert js(after)["hands"][1] == ["3S"]
        assert taken(after) == [10, 1, hand_penalty(deal["hands"][2])]


class TestG9:
    def test_the_last_thrower_leads_when_all_others_with_cards_passed(self) -> None:
        """ "When every other player still holding cards has passed since the last throw, the
        pile is swept and the last thrower leads any card." """
        state = new(build_deal("2D 3H", "5S 6S", "9D", "7S 8S", rest=2))
        state = play(state, ["2D", "pass", "9D", "pass", "pass"])
        assert sorted(state.view(1).to_json()["passed"]) == [0, 3]
        assert (state.to_move, js(state)["pile"]) == (1, ["9D", "2D"])
        after = state.apply("pass")
        assert (after.to_move, js(after)["pile"]) == (2, [])
        assert legal(after) == set(hand(after, 2))
        assert taken(after) == [1, 2, 0, 1]

    def test_players_with_no_cards_need_not_pass(self) -> None:
        """ "every other player still holding cards" """
        state = new(build_deal("2D", "5S 6S", "", rest=0)).apply("2D")
        after = state.apply("pass")
        assert (after.to_move, js(after)["pile"]) == (0, [])
        assert taken(after) == [0, 1, 0]


class TestG10:
    def test_play_goes_on_until_the_turn_comes_back(self) -> None:
        """ "when a player throws his last card, play goes on until the turn would come back to
        him, then the game ends." """
        state = play(new(build_deal("2D", "3D 5H", rest=2)), ["2D"])
        assert js(state)["first_out"] == 0 and not state.is_over
        state = state.apply("3D")
        assert not state.is_over and state.to_move == 2
        end = state.apply("4D")
        assert end.is_over and js(end)["over"] is True
        assert end.to_move is None and js(end)["to_move"] is None

    def test_a_give_is_finished_before_the_end(self) -> None:
        """ "play goes on until the turn would come back to him" -- a black face card thrown
        just before is given out first (G5)."""
        state = play(new(build_deal("2D", "2C 5H", rest=2)), ["2D", "2C", "JC"])
        assert not state.is_over
        end = state.apply("give 2>P2")
        assert end.is_over
        assert js(end)["drinks_given"] == [0, 0, 2]

    def test_the_five_player_example_ends_at_player_1(self) -> None:
        """ "Once play returns to the first person who threw out their last card." """
        state = play(new(build_deal(*ENDING5_HANDS, rest=4)), ENDING5_ACTIONS[:-1])
        assert not state.is_over and state.to_move == 4
        assert state.apply("TH").is_over

    def test_players_with_no_cards_are_skipped(self) -> None:
        """ "Players with no cards are skipped (no pass, no drink)." """
        state = play(new(build_deal("2D", "3D 5H", "", rest=0)), ["2D", "3D"])
        assert state.to_move == 0
        assert not state.is_over and js(state)["first_out"] is None
        assert taken(state) == [0, 0, 0]
        assert not any("Player 3" in t for t in texts(state))


class TestG11:
    def test_hand_penalty_in_the_state_and_the_outcome(self) -> None:
        """ "At the end each player drinks the give value of every black J, Q, K, A still in
        his hand. Red cards cost nothing." """
        deal = build_deal("2D", "3D AS QC KH AD", rest=2)
        state = play(new(deal), ["2D", "3D"])
        before = taken(state)
        end = state.apply("4D")
        assert delta(state, end) == [0, 20 + 3, hand_penalty(deal["hands"][2])]
        assert before == [0, 0, 0]
        assert end.outcome is not None
        assert list(end.outcome.details["drinks_taken"]) == taken(end)
        assert js(end)["drinks_given"] == [0, 0, 0]
        assert text_with(end, "Player 2", "20", "(G11)")
        assert not any("Player 1" in t and "(G11)" in t for t in texts(end))


class TestG12:
    def test_the_fewest_drinks_win_and_ties_share(self) -> None:
        """ "Drinks taken and given per player; the winner is whoever took the fewest (ties
        share)." """
        state = play(new(build_deal("2D", "3D 5H 6H", rest=2)), ["2D", "3D", "4D"])
        outcome = state.outcome
        assert outcome is not None
        assert taken(state)[:2] == [0, 0] and taken(state)[2] > 0
        assert outcome.winners == (0, 1)
        assert outcome.returns == (0.5, 0.5, 0.0)
        assert outcome.ranks[0] == outcome.ranks[1] < outcome.ranks[2]
        assert list(outcome.details["drinks_taken"]) == taken(state)
        assert list(outcome.details["drinks_given"]) == [0, 0, 0]
        assert outcome.details["first_out"] == 0

    def test_drinks_given_are_reported(self) -> None:
        """ "Drinks taken and given per player" """
        state = play(new(build_deal("2D", "2C 5H", rest=2)), ["2D", "2C", "JC", "give 2>P2"])
        assert state.outcome is not None
        assert list(state.outcome.details["drinks_given"]) == [0, 0, 2]
        assert state.outcome.winners == (0,)


class TestG13:
    def test_engines_offer_only_legal_actions(self) -> None:
        """ "Engines offer only legal actions." """
        state = GAME.new(4, 3)
        for _ in range(40):
            for action in legal(state):
                assert action == "pass" or action.startswith("give ") or len(action) == 2
            state = state.apply(sorted(legal(state))[0])

    def test_the_illegal_throw_penalty_is_on_by_default(self) -> None:
        """ "an illegal throw costs 2 drinks and the card goes back (option
        ``illegal_throw_penalty``, default on for people)." """
        state = swept("9C", "7H 3C", "4H").apply("9C")
        after = state.apply("illegal 7H")
        assert delta(state, after) == [0, 2, 0]
        assert text_with(after, "Player 2 drinks 2", "(G13)")

    @pytest.mark.parametrize("value", ["sometimes", 3])
    def test_the_option_is_validated(self, value: object) -> None:
        """ "option ``illegal_throw_penalty``" -- true or false."""
        with pytest.raises(InvalidOption):
            GAME.new(3, 0, options={"illegal_throw_penalty": value})

    @pytest.mark.parametrize(("action", "seat"), [("doh 3>P1", 0), ("delay 1>P3", 2)])
    def test_table_penalties_name_the_player_the_drinks_and_the_reason(
        self, action: str, seat: int
    ) -> None:
        """ "Table penalties ("D'oh!", delay of game) are explicit actions that name the player,
        the drinks and the reason." """
        state = new(build_deal("2D", "3D 9S", "5C", rest=0)).apply("2D")
        after = state.apply(action)
        drinks = int(action.split()[1].split(">")[0])
        assert delta(state, after) == [drinks if s == seat else 0 for s in range(3)]
        assert text_with(after, f"Player {seat + 1} drinks {drinks}", "(G13)")
        assert after.to_move == 1

    def test_table_penalties_for_players_with_no_cards(self) -> None:
        """ "explicit actions that name the player" -- any player of the game."""
        state = play(new(build_deal("2D", "3D 9S", rest=2)), ["2D"])
        after = state.apply("doh 1>P1")
        assert delta(state, after) == [1, 0, 0]
        with pytest.raises(ParlourError):
            state.apply("doh 1>P4")

    def test_an_illegal_throw_needs_an_illegal_card(self) -> None:
        """ "an illegal throw costs 2 drinks and the card goes back" """
        state = swept("9C", "7H 3C", "4H").apply("9C")
        with pytest.raises(IllegalAction):
            state.apply("illegal 3C")


class TestG14:
    def test_drinks_are_kept_as_points(self) -> None:
        """ "A player may play without drinking (the text allows it): drinks are then kept as
        points, and the front ends say "points" for him." """
        deal = build_deal("2D", "3D 5H", rest=2)
        state = play(new(deal, {"sober": [3]}), ["2D", "3D", "4D"])
        assert state.is_over
        assert taken(state) == [0, 0, hand_penalty(deal["hands"][2])]
        said = texts(state)
        assert any("Player 3" in t and "point" in t for t in said)
        assert not any("Player 3 drinks" in t for t in said)
        assert state.outcome is not None and state.outcome.winners == (0, 1)

    def test_others_still_drink(self) -> None:
        """ "the front ends say "points" for him." -- and drinks for everyone else."""
        state = swept("9C", "3C 7H", "8H", options={"sober": [1]}).apply("9C")
        after = state.apply("3C")
        assert delta(state, after) == [0, 6, 0]
        assert text_with(after, "Player 2 drinks 6")
