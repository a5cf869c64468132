"""The features protocol: every game that declares features provides all of it, builds its
observations from the typed View (never its JSON), and a game without features is refused in
one line naming it."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import gymnasium
import numpy as np
import pytest

import parlour.adapters.features as pf
import parlour.adapters.gymnasium as pg
from parlour.adapters import pettingzoo as pz
from parlour.adapters.encoding import layout_for
from parlour.adapters.features import Blocks, Features, features_of
from parlour.core.game import Game
from parlour.core.parts import load_part
from parlour.errors import InvalidOption
from parlour.games import GAMES
from tests.adapters.cases import CASES, case_id
from tests.conformance.playouts import random_position

WITH_FEATURES = sorted(name for name, game in GAMES.items() if game.parts.features is not None)


def test_the_built_in_games_declare_features() -> None:
    built_in = [g for g in GAMES.values() if type(g).__module__.startswith("parlour.games.")]
    assert len(built_in) >= 3
    for game in built_in:
        assert game.parts.features == f"parlour.games.{game.name}.features"


@pytest.mark.parametrize("name", WITH_FEATURES)
def test_features_provide_the_protocol(name: str) -> None:
    features = load_part(GAMES[name].parts, "features")
    assert isinstance(features, Features)
    assert features_of(GAMES[name]) is features
    assert features.env_id.startswith("parlour/") and features.env_id.endswith("-v0")


def spectator_and_seats(players: int) -> Iterator[int | None]:
    yield None
    yield from range(players)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_observations_come_from_the_typed_view(
    case: tuple[str, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Encoding never writes the view's JSON; every entry lies in 0..1 and the length is the
    documented size."""
    name, players = case
    game = GAMES[name]
    features = features_of(game)
    states = [random_position(game, players, 2, steps) for steps in (0, 9, 60)]
    views = [s.view(seat) for s in states for seat in spectator_and_seats(players)]

    def no_json(self: object) -> Any:
        raise AssertionError("the features read the view's JSON")

    monkeypatch.setattr(type(views[0]), "to_json", no_json)
    for view in views:
        obs = features.encode(view, players)
        assert obs.dtype == np.float32 and obs.shape == (features.size(players),)
        assert obs.min() >= 0.0 and obs.max() <= 1.0


@pytest.mark.parametrize("name", WITH_FEATURES)
def test_a_view_of_another_game_is_refused(name: str) -> None:
    other = next(g for n, g in GAMES.items() if n != name)
    players = max(GAMES[name].info.min_players, other.info.min_players)
    view = other.new(players, 1).view(0)
    with pytest.raises(TypeError):
        features_of(GAMES[name]).encode(view, players)


def bare(game: Game) -> Game:
    """``game`` with no features part."""
    cls = type(game)
    parts = dataclasses.replace(cls.parts, features=None)
    return type("Bare", (cls,), {"parts": parts})()  # type: ignore[no-any-return]


def test_a_game_without_features_is_refused_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    name = WITH_FEATURES[0]
    game = bare(GAMES[name])
    players = game.info.min_players
    with pytest.raises(InvalidOption, match="has no observation features") as caught:
        layout_for(game, players)
    assert game.title in str(caught.value) and "\n" not in str(caught.value)
    monkeypatch.setattr(pz, "find_game", lambda _: game)
    with pytest.raises(InvalidOption, match=game.title):
        pz.env(name, players)
    monkeypatch.setattr(pg, "find_game", lambda _: game)
    with pytest.raises(InvalidOption, match=game.title):
        pg.ParlourEnv(name, players)
    monkeypatch.setattr(pg, "GAMES", {**GAMES, name: game})
    assert name not in {g for _, g in pg._env_ids()}


def test_features_missing_members_are_named(monkeypatch: pytest.MonkeyPatch) -> None:
    class Half:
        env_id = "parlour/Half-v0"

        def size(self, players: int) -> int:
            return 1

    monkeypatch.setattr(pf, "load_part", lambda parts, part: Half())
    with pytest.raises(InvalidOption, match=r"lack encode, deck, .*length_bound"):
        features_of(GAMES[WITH_FEATURES[0]])


def test_every_game_with_features_has_its_gymnasium_id() -> None:
    ids = dict(pg.ENV_IDS)
    assert sorted(ids.values()) == WITH_FEATURES
    for env_id, name in ids.items():
        assert features_of(GAMES[name]).env_id == env_id
        assert env_id in gymnasium.registry


def test_blocks_check_their_length() -> None:
    blocks = Blocks(5)
    blocks.seat(1, 2)
    blocks.flags([True])
    with pytest.raises(AssertionError, match="filled 3 of 5"):
        blocks.done()
    blocks.scaled([3, 300], 6)
    assert list(blocks.done()) == [0.0, 1.0, 1.0, 0.5, 1.0]


def test_openspiel_refuses_a_game_without_features() -> None:
    import parlour.adapters.openspiel as pos

    game = bare(GAMES[WITH_FEATURES[0]])
    spiel = type("BareSpielGame", (pos.ParlourSpielGame,), {"parlour": game})
    with pytest.raises(InvalidOption, match=f"{game.title} has no observation features"):
        spiel({"players": game.info.min_players})
