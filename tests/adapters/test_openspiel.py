"""The OpenSpiel games: OpenSpiel's own random_sim_test with serialisation on every game and
player count, chance nodes for the deal and BEOR's restocks, resampling, pickling, and
OpenSpiel's Python ISMCTS and MCTS bots playing whole games."""

from __future__ import annotations

import pickle
import random
from collections import Counter

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import parlour.adapters.openspiel as pos
from parlour.adapters.encoding import layout_for
from parlour.adapters.features import DECK54
from parlour.cards import Card
from parlour.errors import InvalidOption
from parlour.games import GAMES
from parlour.games.beor.deal import _choose_bases, deal_from_seed, deck_for
from tests.adapters.cases import CASES, case_id

# A BEOR game played at random runs to hundreds of turns (the heuristic wins in about 45):
# the searches play BEOR with the B10 option max_turns at 60 so that a whole game and every
# rollout stay short.
SEARCH_PARAMS = {"beor": {"max_turns": 60}}


def load(name: str, players: int, **params: object) -> pyspiel.Game:
    return pyspiel.load_game(f"parlour_{name}", {"players": players, **params})


def test_every_game_is_registered() -> None:
    assert sorted(pos.SHORT_NAMES) == sorted(f"parlour_{n}" for n in GAMES)
    game = pyspiel.load_game("parlour_beor", {"players": 3})
    assert game.num_players() == 3 and game.num_distinct_actions() == 164
    assert game.max_chance_outcomes() == 54
    assert game.get_type().provides_information_state_tensor


# OpenSpiel's serialisation is the history of actions, replayed in full at every step of the
# simulation: a random BEOR game runs to its B10 limit of 2,000 turns (48 s for 5 players on a
# 2-core machine), so BEOR plays under a lower limit, which the simulation then also checks as a
# terminal state (a draw). test_parameters_are_the_games_options plays the default limit out.
SIM_PARAMS: dict[str, dict[str, object]] = {"beor": {"max_turns": 150}}


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_openspiel_random_sim_test_with_serialisation(case: tuple[str, int]) -> None:
    name, players = case
    game = load(name, players, **SIM_PARAMS.get(name, {}))
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def play_out(state: pyspiel.State, rng: random.Random) -> pyspiel.State:
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_deal_is_chance_nodes_of_cards(case: tuple[str, int]) -> None:
    name, players = case
    game = load(name, players)
    state = game.new_initial_state()
    deck = layout_for(GAMES[name], players).deck
    drawn: list[str] = []
    rng = random.Random(1)
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        probabilities = {p for _, p in outcomes}
        assert len(probabilities) == 1 and abs(sum(p for _, p in outcomes) - 1) < 1e-9
        assert {str(DECK54[a]) for a, _ in outcomes} <= set(deck)
        action = rng.choice(outcomes)[0]
        drawn.append(str(DECK54[action]))
        state.apply_action(action)
    assert len(drawn) >= len(deck) - 1
    real = state.parlour_state
    assert real is not None and real.to_move == state.current_player()
    dealt = Counter(c for hand in real.to_json()["hands"] for c in hand)
    assert set(dealt) <= set(drawn) and max(dealt.values()) == 1


def test_beor_chooses_bases_as_the_game_does() -> None:
    """B2 in the chance deal: the same pick as the game's own setup on random turnings."""
    features = layout_for(GAMES["beor"], 2).features
    rng = random.Random(0)
    cards = [c for c in DECK54 if not c.is_joker]
    for _ in range(300):
        turned: list[Card] = rng.sample(cards, rng.randint(4, 12))
        texts = [str(c) for c in turned]
        ours = features._split(2, texts)  # type: ignore[attr-defined]
        for k in range(4, len(turned) + 1):
            pick = _choose_bases(turned[:k])
            if pick is not None:
                assert ours is not None and ours[0] == [turned[i] for i in pick]
                assert ours[1] == texts[k:]
                break
        else:
            assert ours is None


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_beor_chance_deal_makes_the_seeded_deal(players: int) -> None:
    """The cards a seeded deal turned (Jokers included) and then dealt, drawn in that order,
    make the same deal through the chance deal, and complete it."""
    layout = layout_for(GAMES["beor"], players)
    for seed in range(40):
        made = deal_from_seed(players, random.Random(seed))
        deck = list(deck_for(players))
        random.Random(seed).shuffle(deck)  # the first shuffle of deal_from_seed
        turned: list[Card] = []
        prefix: list[str] = []
        while len(turned) < 4 or _choose_bases(turned) is None:
            card = deck.pop(0)
            prefix.append(str(card))
            if not card.is_joker:
                turned.append(card)
        hands = [c for i in range(6) for hand in made.hands for c in hand[i : i + 1]]
        stocks = [
            c for i in range(max(map(len, made.stocks))) for s in made.stocks for c in s[i : i + 1]
        ]
        drawn = prefix + [str(c) for c in hands + stocks]
        assert layout.deal_outcomes(drawn) == ()
        assert layout.deal_outcomes(drawn[:-1]) == (drawn[-1],)
        assert layout.deal(drawn) == made.to_json()


def test_beor_restocks_are_chance_nodes() -> None:
    """After the action that empties the last stock, every card of the new stocks is dealt by
    chance, and the game goes on from the stocks so dealt."""
    game = load("beor", 2)
    rng = random.Random(3)
    state = game.new_initial_state()
    restocks = 0
    while not state.is_terminal() and restocks < 2:
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            continue
        state.apply_action(rng.choice(state.legal_actions()))
        if state.is_chance_node():
            real = state.parlour_state
            assert real is not None
            stocks = real.to_json()["stocks"]
            assert isinstance(stocks, dict)
            pool = sorted(c for s in stocks.values() for c in s["cards"])
            outcomes = sorted(str(DECK54[a]) for a, _ in state.chance_outcomes())
            assert outcomes == pool
            dealt: list[str] = []
            while state.is_chance_node():
                action = rng.choice(state.chance_outcomes())[0]
                dealt.append(str(DECK54[action]))
                state.apply_action(action)
            after = state.parlour_state
            assert after is not None
            new = after.to_json()["stocks"]
            assert isinstance(new, dict)
            assert [c for s in new.values() for c in s["cards"]] == dealt
            restocks += 1
    assert restocks == 2


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_resample_keeps_the_information_state(case: tuple[str, int]) -> None:
    name, players = case
    game = load(name, players)
    rng = random.Random(7)
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal() and steps < 20:
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            continue
        player = state.current_player()
        sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
        other = state.resample_from_infostate(player, sampler)
        assert other.information_state_string(player) == state.information_state_string(player)
        assert np.array_equal(
            other.information_state_tensor(player), state.information_state_tensor(player)
        )
        assert other.legal_actions() == state.legal_actions()
        state.apply_action(rng.choice(state.legal_actions()))
        steps += 1


@pytest.mark.parametrize("name", sorted(GAMES))
def test_pickled_states_play_on_alike(name: str) -> None:
    game = load(name, 3)
    rng = random.Random(5)
    state = game.new_initial_state()
    for _ in range(90):
        if state.is_terminal():
            break
        outcomes = state.chance_outcomes() if state.is_chance_node() else None
        action = rng.choice(outcomes)[0] if outcomes else rng.choice(state.legal_actions())
        state.apply_action(action)
    copy = pickle.loads(pickle.dumps(state))
    assert str(copy) == str(state) and copy.history() == state.history()
    for _ in range(40):
        if state.is_terminal():
            break
        outcomes = state.chance_outcomes() if state.is_chance_node() else None
        action = rng.choice(outcomes)[0] if outcomes else rng.choice(state.legal_actions())
        state.apply_action(action)
        copy.apply_action(action)
        assert str(copy) == str(state)
        for p in range(3):
            assert copy.information_state_string(p) == state.information_state_string(p)
    assert str(pickle.loads(pickle.dumps(game))) == str(game)


def test_parameters_are_the_games_options() -> None:
    game = load("beor", 2, max_turns=10)
    state = play_out(game.new_initial_state(), random.Random(0))
    real = state.parlour_state
    assert real is not None and real.outcome is not None
    assert real.outcome.details["turns"] <= 10 and game.max_game_length() == 10
    default = load("beor", 5)  # B10: 2,000 turns unless a player goes out first
    state = play_out(default.new_initial_state(), random.Random(0))
    real = state.parlour_state
    assert real is not None and real.outcome is not None
    assert default.max_game_length() == 2000 and real.outcome.details["turns"] <= 2000
    assert state.returns() == list(real.outcome.returns)
    beggar = load("beggar", 2, card_limit=30)
    real = play_out(beggar.new_initial_state(), random.Random(0)).parlour_state
    assert real is not None and real.outcome is not None and real.outcome.details["cards"] <= 30
    assert load("death", 4, sober="1,3").options["sober"] == (1, 3)
    assert load("death", 4).options["sober"] == ()
    with pytest.raises(InvalidOption, match="max_turns"):
        load("beor", 2, max_turns=0)
    with pytest.raises(InvalidOption, match="2 to 5 players"):
        load("beor", 6)


def seeded(seed: int) -> np.random.RandomState:
    return np.random.RandomState(seed)


def search_game(bots: list[pyspiel.Bot], game: pyspiel.Game, seed: int) -> pyspiel.State:
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
        else:
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    return state


# The searches play each game at its fewest and most players (every count in between is
# simulated, dealt and checked above; a whole searched game costs seconds).
EXTREMES = [
    (name, n)
    for name, n in CASES
    if n in (GAMES[name].info.min_players, GAMES[name].info.max_players)
]


@pytest.mark.slow
@pytest.mark.parametrize("case", EXTREMES, ids=case_id)
def test_openspiel_ismcts_and_mcts_play_whole_games(case: tuple[str, int]) -> None:
    name, players = case
    game = load(name, players, **SEARCH_PARAMS.get(name, {}))
    # A few simulations a move: what is checked is that both searches play whole games through
    # the adapter (clones, resampled information sets, rollouts) and end with the engine's
    # returns, not how well they play. No decisions in Beggar-My-Neighbour: a search only
    # confirms its one action.
    simulations = 4 if GAMES[name].info.decisions else 2
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    for kind in ("ismcts", "mcts"):
        bots: list[pyspiel.Bot] = [
            ismcts.ISMCTSBot(game, evaluator, 2.0, simulations, random_state=seeded(p))
            if kind == "ismcts"
            else mcts.MCTSBot(
                game, 2.0, simulations, evaluator, solve=False, random_state=seeded(p)
            )
            for p in range(players)
        ]
        end = search_game(bots, game, seed=players)
        real = end.parlour_state
        assert real is not None and real.outcome is not None
        assert end.returns() == list(real.outcome.returns)
        assert sum(end.returns()) in (0.0, 1.0)
