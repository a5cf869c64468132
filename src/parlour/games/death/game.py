"""Becker's Game of Death as a :class:`~parlour.core.game.Game`: its facts, new deals (G1),
determinization, the integer action codec, JSON round trips and old records' table entries."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import ClassVar

from parlour.cards import deck52
from parlour.core.game import JSON, Action, Game, GameInfo, GameParts, View
from parlour.core.inputs import quote
from parlour.core.rng import check_seed, derive_seed, make_rng
from parlour.errors import IllegalAction, InvalidNotation, InvalidOption, InvalidRecord
from parlour.games.death.notation import (
    NUM_DISTINCT_ACTIONS,
    is_table_text,
    parse_deal,
    parse_table_entry,
)
from parlour.games.death.notation import action_from_id as _action_from_id
from parlour.games.death.notation import action_id as _action_id
from parlour.games.death.options import MAX_PLAYERS, MIN_PLAYERS, OPTION_SPECS, DeathOptions
from parlour.games.death.options import typed_options as _typed_options
from parlour.games.death.position import Position
from parlour.games.death.rules import DeathState
from parlour.games.death.sample import sample_state
from parlour.games.death.sentences import WORDS
from parlour.games.death.view import DeathView

__all__ = ["DeathGame", "dealer_of", "match_deal"]


def dealer_of(players: int, number: int) -> int:
    """The dealer of deal ``number`` of a match (0 is the first): seat n-1 first, then
    clockwise (G12), so that seat 0 sits left of the first dealer (RULINGS "Common")."""
    return (players - 1 + number) % players


def match_deal(players: int, seed: int, number: int) -> dict[str, JSON]:
    """The deal of game ``number`` of a match, as a record's deal: shuffled from
    ``derive_seed(seed, "deal", number)``, all 52 cards one at a time from the player left of
    that deal's dealer (G1, G12). Here rather than in :mod:`~parlour.games.death.match`, which
    needs :class:`DeathGame`, so that :meth:`DeathGame.match_deal` makes no import cycle."""
    deck = list(deck52())
    make_rng(derive_seed(seed, "deal", number)).shuffle(deck)
    first = (dealer_of(players, number) + 1) % players
    hands: list[list[str]] = [[] for _ in range(players)]
    for i, card in enumerate(deck):
        hands[(first + i) % players].append(str(card))
    return {"hands": hands}


class DeathGame(Game):
    """Becker's Game of Death for 2 to 10 players (rulings G1-G14); options in
    :mod:`parlour.games.death.options`."""

    info: ClassVar[GameInfo] = GameInfo(
        name="death",
        title="Becker's Game of Death",
        aliases=("game-of-death", "beckers-game-of-death"),
        min_players=MIN_PLAYERS,
        max_players=MAX_PLAYERS,
        default_players=4,
        decisions=True,
        options=OPTION_SPECS,
        # 52 throws, a pass, and a give of 1 to 20 drinks to one of 10 seats (G5).
        num_distinct_actions=NUM_DISTINCT_ACTIONS,
        # 52 throws; after each, at most one pass by each other player, for then the turn
        # comes back to the last thrower, who leads (G9; none before 2♦ and none after an
        # Ace, whose thrower leads, G8); and at most 52 gives, each of a drink at least, of
        # the 52 that the black face cards give in all (G5: 38 in spades, 14 in clubs).
        max_game_length=52 + 52 * (MAX_PLAYERS - 1) + 52,
        summary="follow suit or rank, drink and give drinks, for 2 to 10 players",
    )
    parts: ClassVar[GameParts] = GameParts(
        presenter="parlour.games.death.present",
        words=WORDS,
        schemas="parlour.games.death.schemas",
        board="parlour.games.death.web",
        features="parlour.games.death.features",
        strategy="parlour.games.death.strategy",
        figures="parlour.games.death.figures",
    )

    def typed_options(
        self, given: Mapping[str, object] | None, players: int = MAX_PLAYERS
    ) -> DeathOptions:
        """The options checked and typed (see :mod:`parlour.games.death.options`).

        Raises:
            InvalidOption: naming the option.
        """
        return _typed_options(self.options(given), players)

    def new(
        self,
        players: int,
        seed: int,
        options: Mapping[str, object] | None = None,
        deal: JSON = None,
    ) -> DeathState:
        """A new game from ``deal`` or dealt from ``seed``: all 52 cards round-robin from
        seat 0 (G1)."""
        players = self.check_players(players)
        seed = check_seed(seed)
        typed = self.typed_options(options, players)
        if deal is None:
            deck = list(deck52())
            make_rng(seed).shuffle(deck)
            hands = tuple(tuple(deck[s::players]) for s in range(players))
        else:
            hands = parse_deal(deal, players)
        return DeathState._make(Position.start(hands, typed))

    def match_deal(self, players: int, seed: int, number: int) -> JSON:
        """Deal ``number`` of a match: the dealer moves one seat clockwise each deal and deals
        all 52 cards one at a time from the player on his left (G1, G12).

        Raises:
            InvalidOption: ``players`` or ``seed`` out of range, or ``number`` not a whole
                number of at least 0 (naming ``deal_number``).
        """
        if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number < 2**31:
            raise InvalidOption(
                f"deal_number must be a whole number from 0 to 2147483647, got {quote(number)}"
            )
        return match_deal(self.check_players(players), check_seed(seed), number)

    def sample(self, view: View, rng: random.Random) -> DeathState:
        if not isinstance(view, DeathView):
            raise TypeError("DeathGame.sample needs a DeathView")
        return sample_state(view, rng)

    def action_id(self, action: Action) -> int:
        """Throws 0-51 (the cards in ``deck52()`` order), the pass 52, ``give K>Pn`` 53 +
        10 (K-1) + (n-1).

        Raises:
            InvalidNotation: not an action of the Game of Death, or a give of more than 20
                drinks or to a seat past 10.
        """
        return _action_id(action)

    def action_from_id(self, action_id: int) -> Action:
        return _action_from_id(self._check_action_id(action_id))

    def state_from_json(self, obj: object) -> DeathState:
        """The state ``DeathState.to_json`` wrote; it plays on exactly alike.

        Raises:
            InvalidRecord: naming the field that is missing, wrong or at odds with the rest.
        """
        return DeathState._make(Position.from_json(obj))

    def view_from_json(self, obj: object) -> DeathView:
        return self.checked_view(DeathView.from_json(obj))

    def upgrade_record_actions(
        self, actions: tuple[str, ...]
    ) -> tuple[tuple[str, ...], tuple[tuple[int, str, int | None], ...]]:
        """Records written before table entries kept ``doh N>Pk``, ``delay N>Pk`` and
        ``illegal CARD`` among the actions: they move out as table entries made by a referee
        (``by`` None) after the actions before them.

        Raises:
            InvalidRecord: a penalty of more than one drink (G13 refuses it), or an entry
                that is no table entry.
        """
        kept: list[str] = []
        moved: list[tuple[int, str, int | None]] = []
        for index, text in enumerate(actions):
            if not is_table_text(text):
                kept.append(text)
                continue
            try:
                entry = parse_table_entry(text)
            except (InvalidNotation, IllegalAction) as err:
                raise InvalidRecord(f"action {index} {quote(text)} is refused: {err}") from None
            moved.append((len(kept), str(entry), None))
        return tuple(kept), tuple(moved)


GAME = DeathGame()
"""The one instance of the game: the registry's (entry point ``parlour.games``) and the states'."""
DeathState.game = GAME
