"""Difficulty levels and the oracle: the levels are fixed view-only agents, the oracle is refused
everywhere a table is set and plays only in measurements, on the arena's deals."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from parlour.bots import LEVELS, build_agent, make_agent
from parlour.bots.arena import play_game
from parlour.bots.ismcts import Ismcts
from parlour.bots.levels import Careless, level_setting
from parlour.bots.oracle import Oracle, make_oracle, play_measured
from parlour.bots.random_agent import RandomAgent
from parlour.cli import main
from parlour.core import InvalidOption, State, make_rng
from parlour.core.game import JSON
from parlour.games import find_game
from parlour.games.death.notation import Give
from parlour.games.death.strategy import split_gives
from parlour.server.bots import check_kind

from .test_agents import positions

GAMES = ("beor", "death")


class TestOracleIsForMeasurementOnly:
    @pytest.mark.parametrize(
        "spec", ["oracle", "ORACLE", "oracle:expert", "oracle:ismcts:50", "oracle-hands:hard"]
    )
    def test_make_agent_refuses_it_in_one_line(self, spec: str) -> None:
        with pytest.raises(InvalidOption, match="for measurement only") as caught:
            make_agent(spec, find_game("beor"))
        assert "\n" not in str(caught.value)

    def test_parlour_play_refuses_it_with_status_2(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        assert main(["play", "beor", "--seat", "2=oracle", "--seed", "1"]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "for measurement only" in err[0], err

    def test_the_arena_refuses_it(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert main(["arena", "death", "--agents", "oracle,heuristic", "--games", "1"]) == 2
        assert "for measurement only" in capsys.readouterr().err

    def test_the_server_refuses_it_as_a_seat(self) -> None:
        with pytest.raises(InvalidOption, match=r"seat 2: .*for measurement only"):
            check_kind(find_game("death"), "oracle", "seat 2")

    def test_make_oracle_wants_an_oracle_spec_and_a_search(self) -> None:
        game = find_game("beor")
        with pytest.raises(InvalidOption, match="not an oracle spec"):
            make_oracle("expert", game)
        with pytest.raises(InvalidOption, match="runs a search"):
            make_oracle("oracle:heuristic", game)
        oracle = make_oracle("oracle:ismcts:20", game)
        assert isinstance(oracle, Oracle) and oracle.search.budget.iterations == 20

    def test_the_hands_oracle_is_only_for_games_that_hide_more_than_hands(self) -> None:
        assert make_oracle("oracle-hands", find_game("beor")).show_hands is not None
        with pytest.raises(InvalidOption, match="hides nothing but the hands"):
            make_oracle("oracle-hands:expert", find_game("death"))


class TestOracleSeesTheTruth:
    def test_its_choice_follows_the_hidden_cards(self) -> None:
        """Two worlds with the same view: the view-only search cannot tell them apart, the
        oracle can (in BEOR it knows the card each draw will bring)."""
        game = find_game("beor")
        oracle = make_oracle("oracle:ismcts:200", game)
        differed = 0
        for state in positions("beor", 2, 3, 6):
            seat = state.to_move
            assert seat is not None
            view = state.view(seat)
            choices = {
                str(oracle.choose_state(game.sample(view, make_rng(k)), random.Random(1)))
                for k in range(4)
            }
            differed += len(choices) > 1
        assert differed

    def test_the_hands_oracle_knows_every_hand_but_not_the_stocks(self) -> None:
        """``oracle-hands`` searches worlds with every player's true hand, while the order of
        BEOR's face-down stocks is dealt anew in each: what no player has seen stays hidden."""
        game = find_game("beor")
        strategy = game.strategy
        assert strategy is not None and strategy.show_hands is not None
        stocks_differ = 0
        for state in positions("beor", 3, 4, 5):
            seat = state.to_move
            assert seat is not None
            shown = strategy.show_hands(state, seat)
            true = state.to_json()
            worlds = [game.sample(shown, make_rng(k)).to_json() for k in range(4)]
            def hands(json: JSON) -> list[list[str]]:
                assert isinstance(json, dict) and isinstance(json["hands"], list)
                return [sorted(map(str, h)) for h in json["hands"] if isinstance(h, list)]

            for world in worlds:
                assert hands(world) == hands(true)
            stocks_differ += len({repr(world["stocks"]) for world in worlds}) > 1
        assert stocks_differ

    def test_measured_games_are_the_arenas_games(self) -> None:
        """Without an oracle, a measured game is the arena's game of the same seed and index."""
        for index in range(3):
            measured = play_measured("death", 3, ["heuristic", "random"], 4, index)
            arena = play_game("death", 3, ["heuristic", "random"], 4, index)
            assert measured.plan == arena.plan
            assert [s for s, r in enumerate(measured.returns) if r > 0] == list(arena.winners)
            assert measured.figures["drinks_taken"] == arena.figures["drinks_taken"]
            assert measured.decisions == arena.decisions

    def test_a_measured_oracle_game_is_deterministic(self) -> None:
        one = play_measured("beor", 2, ["oracle:ismcts:30", "heuristic"], 6, 1)
        two = play_measured("beor", 2, ["oracle:ismcts:30", "heuristic"], 6, 1)
        assert (one.returns, one.decisions) == (two.returns, two.decisions)


class TestLevels:
    @pytest.mark.parametrize("game", GAMES)
    def test_every_level_is_an_agent_and_existing_specs_stay(self, game: str) -> None:
        g = find_game(game)
        agents = {level: make_agent(level, g) for level in LEVELS}
        assert isinstance(agents["easy"], Careless)
        assert type(agents["medium"]) is type(make_agent("heuristic", g))
        hard, expert = agents["hard"], agents["expert"]
        assert isinstance(hard, Ismcts) and isinstance(expert, Ismcts)
        assert expert.budget.iterations and hard.budget.iterations
        assert expert.budget.iterations > hard.budget.iterations
        for spec in ("random", "heuristic", "ismcts", "ismcts:20", "ismcts:1s", "ismcts:9:random"):
            make_agent(spec, g)

    def test_easy_is_random_in_the_game_of_death_and_half_careless_in_beor(self) -> None:
        death, beor = make_agent("easy", find_game("death")), make_agent("easy", find_game("beor"))
        assert isinstance(death, Careless) and death.slip == 1.0
        assert isinstance(beor, Careless) and beor.slip == 0.5

    def test_a_level_takes_another_budget_for_measurement(self) -> None:
        agent = make_agent("expert:100", find_game("beor"))
        assert isinstance(agent, Ismcts) and agent.budget.iterations == 100
        with pytest.raises(InvalidOption, match="the budget is a number of iterations"):
            make_agent("expert:lots", find_game("beor"))

    def test_unknown_levels_name_the_choices(self) -> None:
        with pytest.raises(InvalidOption, match="agents are easy, medium, hard, expert"):
            make_agent("grandmaster", find_game("death"))

    def test_easy_slips_as_often_as_it_says(self) -> None:
        """``easy`` is the heuristic with random slips: never slipping is the heuristic, always
        slipping is the random agent, move for move."""
        game = find_game("beor")
        heuristic = make_agent("heuristic", game)
        for state in positions("beor", 2, 11, 5):
            seat = state.to_move
            assert seat is not None
            view, legal = state.view(seat), state.legal_actions()
            never = Careless(heuristic, slip=0.0).choose(view, legal, random.Random(4))
            always = Careless(heuristic, slip=1.0).choose(view, legal, random.Random(4))
            # The slip's draw comes first from the generator, then the chosen player's.
            after_draw = [random.Random(4), random.Random(4)]
            for r in after_draw:
                r.random()
            assert never == heuristic.choose(view, legal, after_draw[0])
            assert always == RandomAgent().choose(view, legal, after_draw[1])

    @pytest.mark.parametrize("game", GAMES)
    @pytest.mark.parametrize("level", ["easy", "hard", "expert"])
    def test_levels_see_only_views(self, game: str, level: str) -> None:
        """The same view in different worlds gets the same choice, for every level's setting
        (the search levels at a small budget, so the test stays fast)."""
        g = find_game(game)
        agent = make_agent(f"{level}:12" if level != "easy" else level, g)
        for state in positions(game, 3, 5, 3):
            seat = state.to_move
            assert seat is not None
            view = state.view(seat)
            worlds = [state, g.sample(view, make_rng(1)), g.sample(view, make_rng(2))]
            choices = {
                str(agent.choose(w.view(seat), w.legal_actions(), random.Random(9))) for w in worlds
            }
            assert len(choices) == 1


class TestDeathSearch:
    def give_position(self) -> State:
        game = find_game("death")
        for seed in range(40):
            rng = random.Random(seed)
            state = game.new(4, seed)
            while not state.is_over:
                legal = state.legal_actions()
                gives = [a for a in legal if isinstance(a, Give)]
                if gives and max(a.drinks for a in gives) >= 3:
                    return state
                state = state.apply(rng.choice(legal))
        raise AssertionError("no give of 3 or more drinks in 40 random games")

    def test_the_expert_searches_split_gives(self) -> None:
        """The expert's search looks at giving part of the drinks too (G5 lets a give be
        split), where the game's narrowed candidates give all that is left to one player."""
        game = find_game("death")
        state = self.give_position()
        seat = state.to_move
        legal = state.legal_actions()
        most = max(a.drinks for a in legal if isinstance(a, Give))
        expert = build_agent("expert:200", game)
        assert isinstance(expert, Ismcts)
        visits = expert.visits(state.view(seat), legal, random.Random(2))
        shares = {a.drinks for a in legal if isinstance(a, Give) and str(a) in visits}
        assert most in shares and len(shares) > 1
        narrow = Ismcts(
            game,
            expert.evaluate,
            expert.budget,
            candidates=game.strategy.candidates if game.strategy else None,
        )
        narrowed = narrow.visits(state.view(seat), legal, random.Random(2))
        assert {a.drinks for a in legal if isinstance(a, Give) and str(a) in narrowed} == {most}

    def test_the_expert_plays_for_the_result(self) -> None:
        strategy = find_game("death").strategy
        assert strategy is not None
        setting = level_setting("expert", strategy)
        assert setting.result_weight > 0 and not setting.narrow
        assert replace(setting, result_weight=0).result_weight == 0


def test_split_gives_search_halves_only_where_there_is_someone_to_split_between() -> None:
    """G5: with three players or more a give may be split, so the search tries all that is
    left or half of it to each player; with one player to give to it tries only the whole."""
    four = tuple(Give(d, s) for s in (1, 2, 3) for d in range(1, 9))
    wider = split_gives(four)
    assert sorted((a.drinks, a.seat) for a in wider if isinstance(a, Give)) == [
        (4, 1),
        (4, 2),
        (4, 3),
        (8, 1),
        (8, 2),
        (8, 3),
    ]
    two = tuple(Give(d, 1) for d in range(1, 9))
    assert split_gives(two) == (Give(8, 1),)
    death, beor = find_game("death").strategy, find_game("beor").strategy
    assert death is not None and beor is not None
    assert death.wide_candidates is split_gives and beor.wide_candidates is None
