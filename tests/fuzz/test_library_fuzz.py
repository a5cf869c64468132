"""Fuzzing the library's public API at random positions of every game: ``parse_action``,
``apply`` (text, objects, seats), ``apply_id``, ``apply_table``, ``view``, ``Game.options``,
``Game.new``, ``state_from_json`` and ``view_from_json`` on mutated JSON. Every call returns or
raises a ``ParlourError`` with a known code and a one-line message; nothing else escapes, and a
refused call leaves the state as it was."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from parlour.core import State, View, make_rng
from parlour.games import GAMES
from tests.conformance.playouts import random_position
from tests.fuzz.harness import HOSTILE_TEXTS, count, hostile_json, refusal

NAMES = sorted(GAMES)


@st.composite
def positions(draw: st.DrawFn) -> State:
    """A position of a random game and player count, reached by seeded random play."""
    game = GAMES[draw(st.sampled_from(NAMES))]
    players = draw(st.integers(game.info.min_players, game.info.max_players))
    seed = draw(st.integers(0, 2**20))
    return random_position(game, players, seed, draw(st.integers(0, 80)))


def action_texts(state: State) -> st.SearchStrategy[str]:
    """Texts near the game's notation (its legal actions, edited) and hostile ones."""
    legal = [str(a) for a in state.legal_actions()] or ["pass"]
    near = st.tuples(st.sampled_from(legal), st.text(max_size=6), st.integers(0, 12)).map(
        lambda t: t[0][: t[2]] + t[1] + t[0][t[2] :]
    )
    typical = st.sampled_from(
        [
            "give 3>P2",
            "give 999999>P1",
            "give 1>P0",
            "doh P1",
            "delay P2",
            "doh 2>P1",
            "illegal 7C",
            "illegal ZZ",
            "pass",
            "2D",
            "10H",
            "JH>odd",
            "JH>odd/red",
            "xx>even",
            "restock",
            "P1",
            "give ²>P2",
            "give 1>P٣",
            "doh P" + "9" * 5000,
        ]
    )
    return near | typical | st.sampled_from(HOSTILE_TEXTS) | st.text(max_size=30)


def _unchanged(state: State, before: dict[str, object]) -> None:
    assert state.to_json() == before, "a refused call changed the state"


@given(st.data())
def test_parse_action_and_apply_on_any_text(data: st.DataObject) -> None:
    state = data.draw(positions())
    before = state.to_json()
    text = data.draw(action_texts(state))
    name = state.game.name
    count(f"library: parse_action/apply ({name})")
    refusal(lambda: state.parse_action(text))
    refusal(lambda: state.apply(text))
    seat = data.draw(st.sampled_from([None, 0, 1, -1, 99, True, "1", 1.0, 10**30]))
    refusal(lambda: state.apply(text, seat=seat))  # type: ignore[arg-type]
    _unchanged(state, before)


@given(st.data())
def test_apply_table_and_ids(data: st.DataObject) -> None:
    state = data.draw(positions())
    before = state.to_json()
    name = state.game.name
    count(f"library: apply_table/apply_id ({name})")
    text = data.draw(action_texts(state))
    by = data.draw(st.sampled_from([None, 0, 1, 2, -1, 99, "0", True]))
    votes = data.draw(st.sampled_from([(), (0,), (0, 1), (0, 1, 2, 3), (99,), ("x",), None]))
    refusal(lambda: state.apply_table(text, by=by, votes=votes or ()))  # type: ignore[arg-type]
    action_id = data.draw(
        st.integers(-5, state.game.info.num_distinct_actions + 5)
        | st.sampled_from([10**30, 1.5, "3", None, True])
    )
    refusal(lambda: state.apply_id(action_id))  # type: ignore[arg-type]
    refusal(lambda: state.view(data.draw(st.sampled_from([-1, 99, "0", 1.0, 10**30]))))  # type: ignore[arg-type]
    _unchanged(state, before)


@given(
    st.sampled_from(NAMES),
    st.dictionaries(st.text(max_size=25), hostile_json(), max_size=3),
    st.booleans(),
)
def test_options_of_any_shape(name: str, given_options: dict[str, object], named: bool) -> None:
    game = GAMES[name]
    count(f"library: Game.options ({name})")
    if named and game.info.options:
        # Real option names with hostile values.
        given_options = {
            spec.name: value
            for spec, value in zip(game.info.options, given_options.values(), strict=False)
        }
    refusal(lambda: game.options(given_options))
    refusal(lambda: game.new(game.info.min_players, 1, given_options))


@given(st.sampled_from(NAMES), hostile_json(), hostile_json(), hostile_json())
def test_new_with_any_players_seed_and_deal(
    name: str, players: object, seed: object, deal: object
) -> None:
    game = GAMES[name]
    count(f"library: Game.new ({name})")
    refusal(lambda: game.new(players, seed))  # type: ignore[arg-type]
    refusal(lambda: game.new(game.info.min_players, 1, None, deal))  # type: ignore[arg-type,unused-ignore]


@given(st.data())
def test_state_and_view_json_mutated(data: st.DataObject) -> None:
    state = data.draw(positions())
    game = state.game
    seat = data.draw(st.sampled_from([None, *range(state.players)]))
    for what, obj, read in (
        ("state", state.to_json(), game.state_from_json),
        ("view", state.view(seat).to_json(), game.view_from_json),
    ):
        copy = json.loads(json.dumps(obj))
        key = data.draw(st.sampled_from(sorted(copy)))
        how = data.draw(st.sampled_from(["value", "drop", "inner"]))
        if how == "drop":
            copy.pop(key)
        elif how == "inner" and isinstance(copy[key], list) and copy[key]:
            copy[key][data.draw(st.integers(0, len(copy[key]) - 1))] = data.draw(hostile_json())
        else:
            copy[key] = data.draw(hostile_json())
        count(f"library: {what}_from_json ({game.name})")
        read_back: list[object] = []
        if refusal(lambda: read_back.append(read(copy))) is None and what == "view":  # noqa: B023
            # A view that is read back is one some deal gives: sample keeps its contract.
            view = read_back[0]
            assert isinstance(view, View)
            count(f"library: sample of a view read back ({game.name})")
            world = game.sample(view, make_rng(data.draw(st.integers(0, 2**32))))
            assert world.view(view.seat) == view


@given(st.data())
def test_the_rest_of_the_api_with_any_arguments(data: st.DataObject) -> None:
    """``log``, ``tail``, ``hidden_from``, ``action_id``, ``action_from_id``, ``check_players``
    and ``match_deal`` given values of any kind."""
    state = data.draw(positions())
    game = state.game
    before = state.to_json()
    count(f"library: log/tail/hidden_from/codec/match_deal ({game.name})")

    def anything() -> object:
        return data.draw(hostile_json() | st.sampled_from([-1, 0, 1, 2, 99, None]))

    refusal(lambda: state.log(anything(), anything()))  # type: ignore[arg-type]
    refusal(lambda: state.tail(anything(), anything()))  # type: ignore[arg-type]
    refusal(lambda: state.hidden_from(anything()))  # type: ignore[arg-type]
    refusal(lambda: game.action_id(anything()))  # type: ignore[arg-type]
    refusal(lambda: game.action_from_id(anything()))  # type: ignore[arg-type]
    refusal(lambda: game.check_players(anything()))
    refusal(lambda: game.match_deal(anything(), anything(), anything()))  # type: ignore[arg-type]
    _unchanged(state, before)


@given(st.data())
def test_the_presenters_reading_of_any_line(data: st.DataObject) -> None:
    """What each game reads at the table prompt (its presenter: the Game of Death's give
    split, Beggar-My-Neighbour's Enter, table entries, typed deals) given any line: a reply, a
    short message or a ParlourError, and the actions a reply names are applied or refused
    like any typed action."""
    state = data.draw(positions())
    presenter = state.game.presenter
    count(f"library: presenter reading a line ({state.game.name})")
    line = data.draw(action_texts(state) | st.from_regex(r"\A[0-9 =,pP]{0,12}\Z"))
    if state.to_move is not None:
        view = state.view(state.to_move)
        replies: list[object] = []
        if refusal(lambda: replies.append(presenter.read(view, line))) is None:
            reply = replies[0]
            if reply is not None:
                assert len(getattr(reply, "message", "") or "") < 300
                for text in getattr(reply, "actions", ()):
                    refusal(lambda: state.apply(text))  # noqa: B023  called at once
        refusal(lambda: presenter.forfeit(view, line))
    refusal(lambda: presenter.entry_target(line))
    refusal(lambda: presenter.deal_players(line))
