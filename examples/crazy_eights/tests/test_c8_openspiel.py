"""OpenSpiel's C++ ``crazy_eights`` checks this game: the same deals, played move by move.

For each of 200 seeds and each of 2, 3, 4 and 5 players, Parlour deals from the seed and
OpenSpiel's chance nodes are driven to deal the same cards: the dealer (chance action
``52 + dealer``), one card at a time to the seat after the dealer and round (a card of that
seat's hand), the 8s turned up and put back, the starter, and later every card drawn (the top
of Parlour's stock). Then both play the same moves, drawn from a seeded generator among the legal
ones, and at every step they agree on the player to move and the legal actions; at the end they
agree that it is over and on the returns.

The action mapping is the identity: Parlour's integer ids are OpenSpiel's
(:mod:`parlour_crazy_eights.notation`): a card ``rank * 4 + suit`` (ranks 2..A, suits C D H S),
52 draw, 53 pass, 54..57 the suit named. OpenSpiel's returns are minus the penalty points,
which Parlour gives as the outcome's ``scores`` (its ``returns`` are win shares).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pyspiel
import pytest

from parlour.games import GAMES
from parlour_crazy_eights.notation import DRAW_ID, card_id
from parlour_crazy_eights.rules import C8State

SEEDS = 200
GAME = GAMES["crazy-eights"]


def _deal_in_openspiel(state: C8State) -> Any:
    """OpenSpiel's state after its chance nodes dealt what Parlour dealt."""
    n = state.players
    params = {"players": n, **state.options.to_json()}
    spiel = pyspiel.load_game("crazy_eights", params).new_initial_state()
    spiel.apply_action(52 + state.dealer)  # "Decide Player d to be the dealer"
    pending = [list(h) for h in state.hands]
    size = len(pending[0])
    for k in range(1, n * size + 1):
        assert spiel.is_chance_node()
        spiel.apply_action(card_id(pending[(state.dealer + k) % n].pop()))
    for card in (*state.turned, state.discard[0]):
        assert spiel.is_chance_node(), "the dealer turns up cards until one is not an 8"
        spiel.apply_action(card_id(card))
    return spiel


def _play_both(players: int, seed: int, options: dict[str, int] | None = None) -> str:
    """One game played in both; how it ended."""
    state = GAME.new(players, seed, options)
    assert isinstance(state, C8State)
    spiel = _deal_in_openspiel(state)
    rng = random.Random(seed)
    steps = 0
    while not state.is_over:
        where = f"{players} players, seed {seed}, step {steps}"
        assert not spiel.is_terminal() and not spiel.is_chance_node(), where
        assert spiel.current_player() == state.to_move, where
        legal = state.legal_action_ids()
        assert list(legal) == spiel.legal_actions(), where
        chosen = legal[rng.randrange(len(legal))]
        drawn = state.stock[0] if chosen == DRAW_ID else None
        state = state.apply_id(chosen)
        spiel.apply_action(chosen)
        if drawn is not None:
            assert spiel.is_chance_node(), where
            spiel.apply_action(card_id(drawn))
        steps += 1
    assert spiel.is_terminal(), f"{players} players, seed {seed}: OpenSpiel plays on"
    outcome = state.outcome
    assert outcome is not None
    assert spiel.returns() == [-float(p) for p in outcome.scores]
    assert outcome.details["openspiel_returns"] == spiel.returns()
    assert steps > 10, "whole games, not a few moves"
    return outcome.result


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_legal_actions_and_returns_agree_with_openspiel(players: int) -> None:
    ends = Counter(_play_both(players, seed) for seed in range(SEEDS))
    assert ends["win"] and ends["blocked"], ends  # both of the rules' ends are reached


@pytest.mark.parametrize("players", [2, 5])
def test_they_agree_with_other_parameters(players: int) -> None:
    """OpenSpiel's ``max_draw_cards`` and ``max_turns`` set otherwise: the card limit ends
    games too."""
    options = {"max_draw_cards": 2, "max_turns": 25}
    ends = Counter(_play_both(players, seed, options) for seed in range(50))
    assert ends["limit"], ends


def test_openspiel_defaults_are_the_games() -> None:
    """The options default to OpenSpiel's parameters."""
    params = pyspiel.load_game("crazy_eights").get_parameters()
    defaults = {spec.name: spec.default for spec in GAME.info.options}
    assert defaults == {k: params[k] for k in ("max_draw_cards", "max_turns")}
    assert params["use_special_cards"] is False and params["reshuffle"] is False
    assert (
        GAME.info.num_distinct_actions == pyspiel.load_game("crazy_eights").num_distinct_actions()
    )


def test_the_codec_names_actions_as_openspiel_does() -> None:
    """``Play 7H`` is OpenSpiel's ``Play H7`` (it writes the suit first), and so on."""
    spiel = pyspiel.load_game("crazy_eights", {"players": 2}).new_initial_state()
    spiel.apply_action(52)
    for i in range(GAME.info.num_distinct_actions):
        mine = str(GAME.action_from_id(i))
        theirs = spiel.action_to_string(0, i)
        if i < 52:
            assert theirs == f"Play {mine[1]}{mine[0]}"
        elif i == 52:
            assert (mine, theirs) == ("draw", "Draw")
        elif i == 53:
            assert (mine, theirs) == ("pass", "Pass")
        else:
            assert theirs == f"Nominate suit {mine[0].upper()}"
