"""``view_from_json`` reads back only views that some deal gives (ARCHITECTURE.md, "The
contract"): a view edited so that no full state shows it (a scrap pile or a hand of the wrong
size) is refused with InvalidRecord, so ``sample`` is never handed one it cannot keep its
contract for."""

from __future__ import annotations

import json

import pytest

from parlour.core import make_rng
from parlour.errors import InvalidRecord
from parlour.games import GAMES


def _mid_game_view(name: str, players: int, seat: int) -> dict[str, object]:
    game = GAMES[name]
    state = game.new(players, 11)
    for _ in range(12):
        state = state.apply(state.legal_actions()[0])
    view: dict[str, object] = json.loads(json.dumps(state.view(seat).to_json()))
    assert game.view_from_json(view) == state.view(seat)  # the genuine view reads back
    return view


def test_beor_a_scrap_pile_of_another_size_is_refused() -> None:
    view = _mid_game_view("beor", 3, 0)
    view["scrap_size"] = int(str(view["scrap_size"])) + 1
    with pytest.raises(InvalidRecord, match="not a view that any deal of the game gives"):
        GAMES["beor"].view_from_json(view)


def test_death_hand_sizes_that_do_not_add_up_are_refused() -> None:
    view = _mid_game_view("death", 4, 1)
    sizes = list(view["hand_sizes"])  # type: ignore[call-overload]
    sizes[2] += 1  # one card more than the 52 (G1)
    view["hand_sizes"] = sizes
    with pytest.raises(InvalidRecord, match="must hold the 52 cards"):
        GAMES["death"].view_from_json(view)


def test_death_voids_no_deal_can_meet_are_refused() -> None:
    """G2: a seat that passed shows it lacks a suit; a view where the unseen cards cannot be
    dealt around those voids is one no deal gives."""
    view = _mid_game_view("death", 2, 0)
    view["voids"] = [{"suits": [], "ranks": []}, {"suits": ["C", "D", "H", "S"], "ranks": []}]
    with pytest.raises(InvalidRecord, match="not a view that any deal of the game gives"):
        GAMES["death"].view_from_json(view)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_genuine_view_read_back_samples_to_itself(name: str) -> None:
    game = GAMES[name]
    view = game.view_from_json(_mid_game_view(name, game.info.min_players, 0))
    assert game.sample(view, make_rng(3)).view(0) == view
