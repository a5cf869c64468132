"""Parlour's games as OpenSpiel Python games.

Importing this module registers ``parlour_<name>`` for every registered Parlour game; a game
without observation features (its ``features`` part) is refused, naming it, when loaded::

    import pyspiel
    import parlour.adapters.openspiel  # registers the games

    game = pyspiel.load_game("parlour_NAME", {"players": 3})

Parameters: ``players`` and the game's options (``parlour games`` lists them): a switch as a
bool, a number as an int (0 for "none" where the option may be none), a choice as its text, a
list of players as text (``"1,3"``).

- **Chance nodes.** The deal is dealt card by card: each chance outcome is a card (its slot in
  ``deck54()`` order, the two Jokers 52 and 53), each equally likely among the cards the deal
  may take next, in the game's own dealing order (its features say it); so is any shuffle the
  rules make during play (``Features.reshuffle``), dealt again card by card after the action
  that made it. The deal and the shuffles follow exactly the distribution of Parlour's seeded
  games.
- **Players' actions** are the game's integer action ids (``Game.action_id``).
- **Information-state string**: the seat's log, every step as that seat saw it (redacted as
  ``State.log`` redacts it), then its current view as JSON: perfect recall. **Observation
  string**: the view's JSON. **Tensors** (both): the seat's observation features (the game's,
  built from its view); a Parlour view already keeps everything the seat may remember (cards
  known in hands, what passes showed), so the information-state tensor is those features
  too, not the whole sequence of moves.
- ``resample_from_infostate(player, sampler)`` deals a full state consistent with the player's
  view through the game's ``sample``; other seats' histories in it are unknown, so their
  information states start at the resample.
- **Serialisation**: OpenSpiel's own (the history of actions and chance outcomes, replayed).
- Returns are the outcome's returns (a win share of 1 split among the winners; a draw may give
  0 to all), so the games are general-sum with utilities from 0 to 1.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyspiel

from parlour.adapters.encoding import Layout, layout_for
from parlour.adapters.features import CARD_INDEX, DECK54, Observation
from parlour.adapters.spiel_parts import Shared, Trail
from parlour.core.game import Game, State
from parlour.core.options import OptionSpec, OptionValue
from parlour.games import GAMES

__all__ = ["SHORT_NAMES", "ParlourSpielGame", "ParlourSpielState", "game_type"]

_UNBOUNDED = 100_000
"""The length OpenSpiel is told for a game whose rules and options set no bound (a game that
ends only when a hand runs out or a position repeats): not a proven bound, a generous one."""


def _param_default(spec: OptionSpec) -> int | bool | str | None:
    """The OpenSpiel parameter default of an option, or None for an option not offered."""
    default = spec.default
    if spec.kind == "bool" and isinstance(default, bool):
        return default
    if spec.kind == "int":
        if default is None:
            return 0 if spec.nullable else None
        return int(default) if isinstance(default, int) else None
    if spec.kind == "choice" and isinstance(default, str):
        return default
    if spec.kind == "players" and isinstance(default, tuple):
        return ",".join(str(s) for s in default)  # player numbers from 1, as given
    return None


def _option_value(spec: OptionSpec, value: object) -> object:
    """An OpenSpiel parameter as the option value Parlour's validation reads."""
    if spec.kind == "int" and spec.nullable and value == 0:
        return None
    return value


def game_type(game: Game) -> pyspiel.GameType:
    """The OpenSpiel game type of ``game``: ``parlour_<name>``, its parameters and facts."""
    params: dict[str, Any] = {"players": game.info.default_players}
    for spec in game.info.options:
        default = _param_default(spec)
        if default is not None:
            params[spec.name] = default
    return pyspiel.GameType(
        short_name=f"parlour_{game.info.name}",
        long_name=f"Parlour {game.info.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.info.max_players,
        min_num_players=game.info.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


def _settings(game: Game, params: Mapping[str, Any]) -> tuple[int, dict[str, OptionValue]]:
    """The player count and Parlour options that OpenSpiel parameters give.

    Raises:
        InvalidOption: a bad player count or option, naming it.
    """
    players = game.check_players(params.get("players", game.info.default_players))
    chosen = {
        spec.name: _option_value(spec, params[spec.name])
        for spec in game.info.options
        if spec.name in params
    }
    return players, game.options(chosen)


class ParlourSpielGame(pyspiel.Game):  # type: ignore[misc]
    """A Parlour game as an OpenSpiel game (see the module docstring)."""

    parlour: Game

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        given = dict(params or {})
        kind = game_type(self.parlour)
        players, options = _settings(self.parlour, given)
        self.parlour.new(players, 0, options)  # the game's own checks refuse bad options now
        layout = layout_for(self.parlour, players)
        bound = layout.max_length(options)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.parlour.info.num_distinct_actions,
            max_chance_outcomes=1 + max(CARD_INDEX[c] for c in layout.deck),
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            max_game_length=_UNBOUNDED if bound is None else bound,
        )
        super().__init__(kind, info, given)

    @property
    def players(self) -> int:
        return _settings(self.parlour, self.get_parameters())[0]

    @property
    def options(self) -> dict[str, OptionValue]:
        """The Parlour options the parameters give (made on demand: OpenSpiel pickles a game
        as its parameters only)."""
        return _settings(self.parlour, self.get_parameters())[1]

    @property
    def layout(self) -> Layout:
        """The game's layout at this player count (made on demand: OpenSpiel pickles games,
        and a Parlour game need not pickle)."""
        return layout_for(self.parlour, self.players)

    def new_initial_state(self) -> ParlourSpielState:
        return ParlourSpielState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> ParlourObserver:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return ParlourObserver(self.layout, perfect_recall=recall)


class ParlourSpielState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state: the deal being dealt, a Parlour state, or a restock being dealt."""

    def __init__(self, game: ParlourSpielGame) -> None:
        super().__init__(game)
        self._shared = Shared(game.parlour, game.layout, game.options, None)
        self._drawn: list[str] = []
        self._redeal: tuple[str, ...] = ()
        self._redealt: list[str] = []
        self._trail = Trail([], [[] for _ in range(game.layout.players)])

    @property
    def _parlour(self) -> Game:
        return self._shared.game

    @property
    def _layout(self) -> Layout:
        return self._shared.layout

    @property
    def _options(self) -> dict[str, OptionValue]:
        return self._shared.options

    @property
    def _state(self) -> State | None:
        return self._shared.state

    @_state.setter
    def _state(self, state: State | None) -> None:
        self._shared.state = state

    @property
    def parlour_state(self) -> State | None:
        """The Parlour state (hidden cards included), ``None`` while the deal is dealt."""
        return self._state

    # -- whose node ---------------------------------------------------------------------------

    def current_player(self) -> int:
        state = self._state
        if state is None or self._redeal:
            return int(pyspiel.PlayerId.CHANCE)
        if state.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        mover = state.to_move
        assert mover is not None
        return mover

    def is_terminal(self) -> bool:
        return self._state is not None and not self._redeal and self._state.is_over

    def _remaining(self) -> tuple[str, ...]:
        if self._state is None:
            return self._layout.deal_outcomes(self._drawn)
        taken = set(self._redealt)
        return tuple(
            c for c in sorted(set(self._redeal), key=CARD_INDEX.__getitem__) if c not in taken
        )

    def chance_outcomes(self) -> list[tuple[int, float]]:
        cards = sorted(CARD_INDEX[c] for c in self._remaining())
        p = 1.0 / len(cards)
        return [(c, p) for c in cards]

    def _legal_actions(self, player: int) -> list[int]:
        assert self._state is not None
        return list(self._state.legal_action_ids())

    # -- moves ----------------------------------------------------------------------------------

    def _apply_action(self, action: int) -> None:
        if self._state is None:
            self._drawn.append(str(DECK54[action]))
            if not self._layout.deal_outcomes(self._drawn):
                deal = self._layout.deal(self._drawn)
                self._enter(self._parlour.new(self._layout.players, 0, self._options, deal))
        elif self._redeal:
            self._redealt.append(str(DECK54[action]))
            if len(self._redealt) == len(self._redeal):
                self._state = self._layout.redeal(self._state, self._redealt)
                self._redeal, self._redealt = (), []
        else:
            self._enter(self._state.apply_id(action))

    def _enter(self, state: State) -> None:
        """Take ``state`` on: each seat's log line, and a restock to deal again, if any."""
        self._state = state
        self._trail.states.append(state)
        if not state.is_over:
            self._redeal = self._layout.reshuffle(state)
            self._redealt = []

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"{'deal' if self._state is None else 'restock'} {DECK54[action]}"
        return str(self._parlour.action_from_id(action))

    def returns(self) -> list[float]:
        state = self._state
        if state is None or state.outcome is None or self._redeal:
            return [0.0] * self._layout.players
        return [float(r) for r in state.outcome.returns]

    def __str__(self) -> str:
        if self._state is None:
            return "dealing: " + " ".join(self._drawn)
        text = json.dumps(self._state.to_json(), sort_keys=True, ensure_ascii=False)
        if self._redeal:
            text += "\nrestock dealt: " + " ".join(self._redealt)
        return text

    # -- determinization ------------------------------------------------------------------------

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        """A state consistent with ``player_id``'s view, dealt by the game's ``sample``."""
        if self._state is None or self._redeal:
            raise pyspiel.SpielError("resample_from_infostate is for decision nodes")
        seed = int(probability_sampler() * 2**53)
        sampled = self._parlour.sample(self._state.view(player_id), random.Random(seed))
        clone = self.get_game().new_initial_state()
        clone._drawn = list(self._drawn)
        clone._state = sampled
        clone._trail = self._trail.resampled(player_id)
        return clone

    # -- for the observer -----------------------------------------------------------------------

    def observation_of(self, player: int) -> Observation:
        if self._state is None:
            return np.zeros(self._layout.size, dtype=np.float32)
        return self._layout.observe(self._state.view(player))

    def view_string(self, player: int) -> str:
        if self._state is None:
            return f"Player {player + 1}: the cards are being dealt"
        return json.dumps(self._state.view(player).to_json(), sort_keys=True, ensure_ascii=False)

    def history_string(self, player: int) -> str:
        return "\n".join(self._trail.lines(player))


class ParlourObserver:
    """OpenSpiel's Python observer: the observation features as the tensor, the view (after
    the log, for perfect recall) as the string."""

    def __init__(self, layout: Layout, *, perfect_recall: bool) -> None:
        self.tensor: Observation = np.zeros(layout.size, dtype=np.float32)
        self.dict = {"observation": self.tensor}
        self.perfect_recall = perfect_recall

    def set_from(self, state: ParlourSpielState, player: int) -> None:
        self.tensor[:] = state.observation_of(player)

    def string_from(self, state: ParlourSpielState, player: int) -> str:
        view = state.view_string(player)
        if not self.perfect_recall:
            return view
        return f"{state.history_string(player)}\n{view}"


def _register() -> tuple[str, ...]:
    names = []
    for game in GAMES.values():
        # A class of this module per game, found by name when OpenSpiel pickles a game.
        name = f"ParlourSpielGame_{game.info.name}"
        cls = type(name, (ParlourSpielGame,), {"parlour": game, "__module__": __name__})
        globals()[name] = cls
        kind = game_type(game)
        if kind.short_name not in pyspiel.registered_names():
            pyspiel.register_game(kind, cls)
        names.append(kind.short_name)
    return tuple(names)


SHORT_NAMES: tuple[str, ...] = _register()
"""The registered names, one per Parlour game."""
