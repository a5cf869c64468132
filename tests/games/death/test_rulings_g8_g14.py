"""Rulings G8-G14 of ``rules/RULINGS.md`` for Becker's Game of Death.

One test class per ruling, each test quoting the ruling's sentence: the Ace (G8), the all-pass
sweep (G9), the end (G10), the hand penalty (G11), the result (G12), illegal throws and table
penalties (G13) and sober players (G14). Deals are built by hand (:mod:`.rules_text_helpers`).
"""

from __future__ import annotations

import random

import pytest

from parlour.errors import GameOver, IllegalAction, InvalidNotation, InvalidOption

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
        """ "Engines offer only legal actions." -- throws, passes and gives; no table entry."""
        state = GAME.new(4, 3)
        for _ in range(40):
            for action in legal(state):
                assert action == "pass" or action.startswith("give ") or len(action) == 2
            state = state.apply(sorted(legal(state))[0])

    def test_the_illegal_throw_penalty_is_on_by_default(self) -> None:
        """ "an illegal throw costs 2 drinks and the card goes back (option
        ``illegal_throw_penalty``, default on for people)." """
        state = swept("9C", "7H 3C", "4H").apply("9C")
        after = state.apply_table("illegal 7H", by=1)
        assert delta(state, after) == [0, 2, 0]
        assert text_with(after, "Player 2 drinks 2", "(G13)")
        assert after.to_move == 1 and legal(after) == {"3C"}

    @pytest.mark.parametrize("value", ["sometimes", 3])
    def test_the_option_is_validated(self, value: object) -> None:
        """ "option ``illegal_throw_penalty``" -- true or false."""
        with pytest.raises(InvalidOption):
            GAME.new(3, 0, options={"illegal_throw_penalty": value})

    @pytest.mark.parametrize(
        ("entry", "seat", "reason"), [("doh P1", 0, "D'oh!"), ("delay P3", 2, "delay of game")]
    )
    def test_table_penalties_name_the_player_and_the_reason_one_drink_each(
        self, entry: str, seat: int, reason: str
    ) -> None:
        """ "Table penalties ("D'oh!", delay of game) are explicit table entries that name the
        player and the reason, one drink each" """
        state = new(build_deal("2D", "3D 9S", "5C", rest=0)).apply("2D")
        after = state.apply_table(entry, by=seat)
        assert delta(state, after) == [1 if s == seat else 0 for s in range(3)]
        assert text_with(after, f"Player {seat + 1} drinks 1", reason, "(G13)")
        assert [e.kind for e in after.events] == ["penalty"]
        assert after.to_move == 1
        step = after.log(None)[-1]
        assert (step.kind, step.seat, step.text) == ("table", seat, entry)

    def test_old_notation_of_one_drink_is_read_more_is_refused(self) -> None:
        """ ""D'oh! drinks" are counted one per occurrence" -- ``doh 1>P1`` is ``doh P1``; a
        penalty of 2 drinks is refused naming G13."""
        state = new(build_deal("2D", "3D 9S", "5C", rest=0)).apply("2D")
        after = state.apply_table("doh 1>p1", by=0)
        assert delta(state, after) == [1, 0, 0]
        assert after.log(0)[-1].text == "doh P1"
        with pytest.raises(IllegalAction, match=r"one drink.*\(G13\)"):
            state.apply_table("doh 2>P1", by=0)

    @pytest.mark.parametrize("text", ["dance", "doh", "doh P0", "illegal", "illegal 1Z"])
    def test_entries_in_no_notation_are_bad_notation(self, text: str) -> None:
        """ "explicit table entries" -- in the notation ``doh Pk``, ``delay Pk``,
        ``illegal CARD``."""
        state = new(build_deal("2D", "3D 9S", "5C", rest=0))
        with pytest.raises(InvalidNotation):
            state.apply_table(text, by=0)

    def test_table_penalties_for_players_with_no_cards(self) -> None:
        """ "table entries that name the player" -- any player of the game."""
        state = play(new(build_deal("2D", "3D 9S", rest=2)), ["2D"])
        after = state.apply_table("doh P1", by=0)
        assert delta(state, after) == [1, 0, 0]
        with pytest.raises(IllegalAction, match="no Player 4"):
            state.apply_table("doh P4")

    @pytest.mark.parametrize(
        ("players", "by", "votes", "allowed"),
        [
            (4, 0, [], False),  # 1 of the 3 others
            (4, 0, [1], True),  # 2 of 3
            (4, 0, [3], False),  # the penalised player's vote does not count
            (5, 0, [1], False),  # 2 of 4 is no majority
            (5, 0, [1, 2], True),
            (4, 3, [], True),  # on himself
            (4, None, [], True),  # a referee enters what the table decided
        ],
    )
    def test_a_penalty_on_another_player_needs_a_majority_of_the_other_players(
        self, players: int, by: int | None, votes: list[int], allowed: bool
    ) -> None:
        """ "A player may always declare a D'oh! on himself; a penalty on another player needs
        a majority of the other players" -- here on Player 4 (seat 3)."""
        hands = ["2D", "3D 9S", "5C", "6C", "7C"][:players]
        state = new(build_deal(*hands, rest=0)).apply("2D")
        if allowed:
            assert delta(state, state.apply_table("doh P4", by=by, votes=votes))[3] == 1
        else:
            with pytest.raises(IllegalAction, match=r"majority of the other \d players.*G13"):
                state.apply_table("doh P4", by=by, votes=votes)

    def test_bots_vote_no_so_against_bots_a_person_penalises_only_himself(self) -> None:
        """ "bots vote no (they never delay the game), so against bots a person can only
        penalise himself" -- Player 1 at a table of three with two bots."""
        state = new(build_deal("2D", "3D 9S", "5C", rest=0)).apply("2D")
        for target in ("P2", "P3"):
            with pytest.raises(IllegalAction, match="G13"):
                state.apply_table(f"delay {target}", by=0)
        assert delta(state, state.apply_table("delay P1", by=0)) == [1, 0, 0]

    def test_an_illegal_throw_needs_an_illegal_card(self) -> None:
        """ "an illegal throw costs 2 drinks and the card goes back" """
        state = swept("9C", "7H 3C", "4H").apply("9C")
        with pytest.raises(IllegalAction, match="legal throw"):
            state.apply_table("illegal 3C", by=1)

    def test_an_illegal_throw_is_entered_by_its_thrower_or_a_referee(self) -> None:
        """ "People's front ends may apply the text's penalty: an illegal throw costs 2 drinks"
        -- of the player to move; nobody else throws for him."""
        state = swept("9C", "7H 3C", "4H").apply("9C")
        with pytest.raises(IllegalAction, match="G13"):
            state.apply_table("illegal 7H", by=2)
        assert delta(state, state.apply_table("illegal 7H")) == [0, 2, 0]

    def test_no_illegal_throw_while_drinks_are_to_give(self) -> None:
        """ "the game waits until all are assigned" (G5) -- no throw, illegal or not, comes
        before; a delay of game may (the text: "delaying drinking a previous drink")."""
        state = swept("QS", "3H", "4H").apply("QS")
        with pytest.raises(IllegalAction, match="G5"):
            state.apply_table("illegal 2S", by=0)
        assert delta(state, state.apply_table("delay P1", by=0)) == [1, 0, 0]

    def test_an_illegally_thrown_card_is_public_until_thrown(self) -> None:
        """ "an illegal throw costs 2 drinks and the card goes back" -- every seat saw it: it is
        known to be in his hand (no longer hidden) until he throws it."""
        state = swept("9C", "7H 3C", "4H 8H").apply("9C")
        assert "7H" in state.hidden_from(0)
        after = state.apply_table("illegal 7H", by=1)
        for seat in (None, 0, 1, 2):
            assert after.view(seat).to_json()["known_in_hands"][1] == ["7H"]
            assert "7H" not in after.hidden_from(seat)
        assert "3C" in after.hidden_from(0)
        sampled = GAME.sample(after.view(2), random.Random(0))
        assert "7H" in js(sampled)["hands"][1]
        later = play(after, ["3C", "pass", "3H"])
        assert later.view(0).to_json()["known_in_hands"][1] == ["7H"]
        thrown = later.apply("7H")
        assert not thrown.is_over
        assert thrown.view(0).to_json()["known_in_hands"][1] == []

    def test_no_entry_once_the_game_is_over(self) -> None:
        """ "Table penalties ... one drink each" -- during the game: at the end the result is
        settled (G12)."""
        end = play(new(build_deal("2D", "3D 5H", rest=2)), ["2D", "3D", "4D"])
        assert end.is_over
        for text in ("doh P1", "delay P2", "illegal 5H"):
            with pytest.raises(GameOver):
                end.apply_table(text, by=0)


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
