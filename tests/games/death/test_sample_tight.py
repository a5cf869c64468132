"""Determinization where the voids leave little room (G2: a pass shows its player holds no
card of the top card's suit or rank): with ten players and many passes, a quick random deal of
the unseen cards can fail again and again although the table's own deal exists; the sampler
must still find deals, every one agreeing with the view, and not always the same one."""

from __future__ import annotations

import random

from parlour.games import find_game
from parlour.games.death.view import DeathView

from .test_codec_and_json import random_game


def test_a_tight_ten_player_view_is_sampled() -> None:
    game = find_game("death")
    state = random_game(10, 8869, {"sober": [1]})[45]
    view = state.view(1)
    assert isinstance(view, DeathView)
    # The view is tight: five players have shown voids, one of them in three suits.
    assert sum(bool(v) for v in view.void_suits) >= 5
    assert max(len(v) for v in view.void_suits) == 3
    hands = set()
    for k in range(30):
        world = game.sample(view, random.Random(k))
        assert world.view(1) == view
        hands.add(repr(world.to_json()["hands"]))
    assert len(hands) > 10
