"""Becker's Game of Death rule text, last part: delay of game, "D'oh!" drinks, ending the game
and the special note on sober players.

Tested sentence by sentence against ``seeds/beckers-game-of-death.txt``, with rulings G1-G14 of
``rules/RULINGS.md`` (G13: the social rules become table penalties, G14: sober players). One test
class per section, each test quoting its sentence; deals are built by hand
(:mod:`.rules_text_helpers`).
"""

from __future__ import annotations

from itertools import pairwise

import pytest

from parlour.errors import GameOver, IllegalAction, InvalidNotation, InvalidOption, ParlourError

from .rules_text_helpers import (
    ENDING5_ACTIONS,
    ENDING5_HANDS,
    build_deal,
    delta,
    hand_penalty,
    js,
    legal,
    new,
    pending,
    play,
    sober_seats,
    swept,
    taken,
    text_with,
    texts,
)


class TestDelayOfGame:
    def test_a_delay_of_game_penalty_of_one_drink(self) -> None:
        """ "If a player is doing something that is stopping the play of the game, the other
        players may vote to give this person a delay of game penalty of one drink." -- a table
        entry naming the player, voted by the other players (G13); the turn does not change."""
        state = new(build_deal("2D", "3D 9S", "5C", rest=0)).apply("2D")
        after = state.apply_table("delay P3", by=0, votes=[1])
        assert delta(state, after) == [0, 0, 1]
        assert after.to_move == state.to_move == 1
        assert legal(after) == legal(state)
        assert js(after)["pile"] == js(state)["pile"]
        assert text_with(after, "Player 3 drinks 1", "delay of game", "(G13)")

    def test_the_other_players_vote(self) -> None:
        """ "the other players may vote to give this person a delay of game penalty" -- one of
        the two other players is no majority (G13)."""
        state = new(build_deal("2D", "3D 9S", "5C", rest=0)).apply("2D")
        with pytest.raises(IllegalAction, match=r"majority.*\(G13\)"):
            state.apply_table("delay P3", by=0)
        with pytest.raises(IllegalAction, match="G13"):
            state.apply_table("delay P3", by=0, votes=[2])  # his own vote does not count

    def test_a_delay_penalty_is_no_legal_action(self) -> None:
        """ "the other players may vote to give this person a delay of game penalty" -- it is
        the table's decision, not a move of the player to move (G13)."""
        state = new(build_deal("2D", "3D 9S", "5C", rest=0)).apply("2D")
        assert not any(a.startswith(("delay", "doh", "illegal")) for a in legal(state))
        with pytest.raises(InvalidNotation, match="table entries"):
            state.apply("delay P3")

    def test_delaying_a_drink_is_penalised_during_a_give(self) -> None:
        """ "Also eligible for a Delay of Game Penalty drink is a player who is obviously delaying
        drinking a previous drink." -- a penalty can come at any time, a pending give included."""
        state = swept("KC", "3H", "4H").apply("KC").apply("give 2>P2")
        after = state.apply_table("delay P2", by=0, votes=[2])
        assert delta(state, after) == [0, 1, 0]
        assert pending(after) == pending(state) == (0, 2)
        assert after.to_move == 0


class TestDoh:
    def test_a_doh_drink(self) -> None:
        """ "These are drinks you get for doing something that makes you say, "D'oh!"" -- a
        table entry naming the player, one drink a D'oh! (G13); a player declares it on himself
        without a vote."""
        state = new(build_deal("2D", "3D 9S", "5C", rest=0)).apply("2D")
        after = state.apply_table("doh P1", by=0)
        assert delta(state, after) == [1, 0, 0]
        assert (after.to_move, legal(after)) == (1, legal(state))
        assert js(after)["drinks_given"] == [0, 0, 0]
        assert text_with(after, "Player 1 drinks 1", "D'oh!")

    def test_throwing_before_the_drinks_are_assigned(self) -> None:
        """ "Throwing a card before the current player has assigned all of their drinks." -- the
        throw is refused; the thrower may declare a D'oh! on himself."""
        state = swept("5C", "KC 3H", "7C").apply("5C").apply("KC")
        with pytest.raises(IllegalAction):
            state.apply("7C", seat=2)
        after = state.apply_table("doh P3", by=2)
        assert delta(state, after) == [0, 0, 1]
        assert pending(after) == (1, 4)

    def test_going_out_of_turn(self) -> None:
        """ "Going out of turn." -- refused."""
        state = new(build_deal("2D", "3D 9S", "5D", rest=0)).apply("2D")
        with pytest.raises(IllegalAction):
            state.apply("5D", seat=2)

    def test_throwing_multiple_cards_at_once(self) -> None:
        """ "Throwing out multiple cards at once." -- refused."""
        state = new(build_deal("2D", "3D 9D", "5C", rest=0)).apply("2D")
        with pytest.raises(ParlourError):
            state.apply("3D 9D")

    def test_trying_to_give_out_drinks_on_a_take_card(self) -> None:
        """ "Trying to give out drinks on a take card." -- refused."""
        state = swept("QH", "3S", "4S").apply("QH")
        with pytest.raises(IllegalAction):
            state.apply("give 3>P2")

    def test_telling_someone_to_drink_the_wrong_number_of_drinks(self) -> None:
        """ "Telling someone to drink the wrong number of drinks." -- a give of more than is
        owed, of none, or to nobody at the table is refused."""
        state = swept("QS", "3H", "4H").apply("QS")
        for wrong in ("give 7>P2", "give 2>P4"):
            with pytest.raises(IllegalAction):
                state.apply(wrong)
        with pytest.raises(InvalidNotation, match="count from 1"):
            state.apply("give 0>P2")


class TestEndingTheGame:
    def test_a_an_ace_and_no_cards_to_restart_with(self) -> None:
        """ "A) A player throws an Ace and has no further cards to restart with." -- a black Ace
        is given out first (G8)."""
        deal = build_deal("2D AC", "2C 5H", rest=2)
        state = play(new(deal), ["2D", "2C", "3C", "AC"])
        assert not state.is_over
        assert pending(state) == (0, 5)
        end = state.apply("give 5>P3")
        assert end.is_over and end.to_move is None and legal(end) == set()
        assert taken(end) == [1, 0, 5 + hand_penalty(deal["hands"][2])]
        assert js(end)["drinks_given"] == [5, 0, 0]

    def test_b_example_five_players(self) -> None:
        """ "B) Once play returns to the first person who threw out their last card. Example: 5
        players. Player 1 throws out the 9 of Clubs and no longer has any cards left. Player 2
        passes (takes a drink for passing), Player 3 also passes. player 4 throws out a 9 of
        Hearts. (Player 1 drinks for a Broken Suit) Player 5 throws out a 10 of hearts. Player 1
        has no cards left to throw, game ends." """
        deal = build_deal(*ENDING5_HANDS, rest=4)
        state = play(new(deal), ENDING5_ACTIONS[:6])
        assert js(state)["first_out"] == 0
        assert js(state)["hands"][0] == []
        steps = [state]
        for action in ENDING5_ACTIONS[6:]:
            assert not steps[-1].is_over
            steps.append(steps[-1].apply(action))
        assert [delta(a, b) for a, b in pairwise(steps[:-1])] == [
            [0, 1, 0, 0, 0],
            [0, 0, 1, 0, 0],
            [1, 0, 0, 0, 0],
        ]
        end = steps[-1]
        assert end.is_over and end.to_move is None and legal(end) == set()
        penalty = hand_penalty(deal["hands"][4])
        assert taken(end) == [2, 1, 1, 0, penalty]
        assert js(end)["over"] is True
        assert end.outcome is not None
        assert end.outcome.winners == (3,)
        assert end.outcome.details["first_out"] == 0
        with pytest.raises(GameOver):
            end.apply("pass")


class TestSoberNote:
    def test_a_sober_player_keeps_points(self) -> None:
        """ "A player can play the game without drinking an achoholic beverage as long as
        everyone playing agrees that this person can play and knows this fact." -- his drinks
        are kept as points and the texts say "points" for him (G14)."""
        options = {"sober": [2]}
        state = new(build_deal("2D", "5C KH", "9S", rest=0), options).apply("2D")
        after = state.apply("pass")
        assert delta(state, after) == [0, 1, 0]
        said = " ".join(texts(after))
        assert "Player 2" in said and "point" in said
        assert "Player 2 drinks" not in said
        for seat in (None, 0, 1, 2):
            assert sober_seats(after.view(seat).to_json()["sober"], 3) in ({1}, {2})
        plain = new(build_deal("2D", "5C KH", "9S", rest=0)).apply("2D").apply("pass")
        assert sober_seats(plain.view(0).to_json()["sober"], 3) == set()
        assert "Player 2 drinks 1" in " ".join(texts(plain))

    @pytest.mark.parametrize("sober", [[0], [4], ["x"], [1.5], "x", [True]])
    def test_only_players_of_the_game_can_be_sober(self, sober: object) -> None:
        """ "A player can play the game without drinking" -- one of the players, counted from
        1 (G14); anything else is an invalid option."""
        with pytest.raises(InvalidOption):
            new(build_deal("2D", "5C", "9S", rest=0), {"sober": sober})
