"""Crazy Eights' actions, their notation and their integer ids.

The ids are OpenSpiel's (``crazy_eights``), so the action mapping between the two is the
identity: a card is ``rank * 4 + suit`` with ranks ``2 3 4 5 6 7 8 9 T J Q K A`` (0 to 12) and
suits ``C D H S`` (0 to 3); 52 is a draw, 53 a pass, 54 to 57 name the suit clubs, diamonds,
hearts or spades after an 8.

Notation: a card played is the card (``7H``, ``10♥`` and ``play 7H`` read too); ``draw``;
``pass``; a suit named after an 8 is the suit's name (``hearts``; ``nominate hearts``,
``call H`` and ``♥`` read too).

>>> parse_action("10♥"), parse_action("call h"), str(parse_action(" Draw "))
(Play(card=Card(Rank.TEN, Suit.HEARTS)), Nominate(suit=<Suit.HEARTS: 'H'>), 'draw')
>>> [action_id(a) for a in (parse_action("2C"), parse_action("AS"), Draw(), Pass())]
[0, 51, 52, 53]
"""

from __future__ import annotations

from dataclasses import dataclass

from parlour.cards import Card, Rank, Suit, parse_card
from parlour.core.game import Action
from parlour.core.inputs import quote
from parlour.errors import InvalidNotation
from parlour_crazy_eights.sentences import said

__all__ = [
    "ACTIONS",
    "CARDS",
    "DRAW_ID",
    "NOMINATE_ID",
    "PASS_ID",
    "RANKS",
    "SUITS",
    "SUIT_NAMES",
    "Draw",
    "Nominate",
    "Pass",
    "Play",
    "action_id",
    "card_id",
    "parse_action",
]

SUITS: tuple[Suit, ...] = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
"""The suits in OpenSpiel's order (its ``kSuitChar`` is ``CDHS``)."""
RANKS: tuple[Rank, ...] = (*(Rank(r) for r in range(2, 14)), Rank.ACE)
"""The ranks in OpenSpiel's order: 2 lowest, the Ace highest."""
SUIT_NAMES: dict[Suit, str] = {
    Suit.CLUBS: "clubs",
    Suit.DIAMONDS: "diamonds",
    Suit.HEARTS: "hearts",
    Suit.SPADES: "spades",
}
_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}
_RANK_INDEX = {r: i for i, r in enumerate(RANKS)}

CARDS: tuple[Card, ...] = tuple(Card(r, s) for r in RANKS for s in SUITS)
"""The 52 cards by id: ``CARDS[card_id(c)] is c``."""
DRAW_ID = 52
PASS_ID = 53
NOMINATE_ID = 54
"""The id of the first suit named (clubs); the four suits follow in :data:`SUITS` order."""


def card_id(card: Card) -> int:
    """A card's id (and the id of playing it): ``rank * 4 + suit`` in OpenSpiel's orders."""
    return _RANK_INDEX[card.rank] * 4 + _SUIT_INDEX[card.suit]  # type: ignore[index]


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Play ``card`` from the hand onto the discard pile (a card of the 52: a Joker, or
    anything else, raises :class:`InvalidNotation`, a ``ValueError``)."""

    card: Card

    def __post_init__(self) -> None:
        if not isinstance(self.card, Card) or self.card.is_joker:
            raise InvalidNotation(said("refusal.no_jokers"))

    def __str__(self) -> str:
        return str(self.card)


@dataclass(frozen=True, slots=True)
class Draw(Action):
    """Draw the top card of the stock."""

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """End the turn without playing (after the most draws a turn allows, or with no stock)."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Nominate(Action):
    """Name the suit the next player must follow, after playing an 8 (a suit: anything else
    raises :class:`InvalidNotation`, a ``ValueError``)."""

    suit: Suit

    def __post_init__(self) -> None:
        if not isinstance(self.suit, Suit):
            raise InvalidNotation(said("refusal.no_suit"))

    def __str__(self) -> str:
        return SUIT_NAMES[self.suit]


ACTIONS: tuple[Action, ...] = (
    *(Play(c) for c in CARDS),
    Draw(),
    Pass(),
    *(Nominate(s) for s in SUITS),
)
"""Every action by id (58, as OpenSpiel's ``num_distinct_actions``)."""
_IDS: dict[Action, int] = {a: i for i, a in enumerate(ACTIONS)}


def action_id(action: Action) -> int:
    """The id of ``action`` (:data:`ACTIONS`).

    Raises:
        InvalidNotation: ``action`` is not a Crazy Eights action.
    """
    try:
        return _IDS[action]
    except (KeyError, TypeError):
        raise InvalidNotation(f"{quote(action)} is not a Crazy Eights action") from None


_SUIT_TEXT: dict[str, Suit] = {
    **{name: s for s, name in SUIT_NAMES.items()},
    **{name[:-1]: s for s, name in SUIT_NAMES.items()},
    **{s.symbol: s for s in SUITS},
}
_LETTERS: dict[str, Suit] = {s.value.lower(): s for s in SUITS}


def parse_action(text: str) -> Action:
    """The action ``text`` names (see the module docstring), legal or not.

    Raises:
        InvalidNotation: the text is no action of the game; the message says how to write one
            (``refusal.notation`` of the game's words).
    """
    if not isinstance(text, str):
        raise InvalidNotation(said("refusal.not_text", text=quote(text)))
    words = text.strip().lower().split()
    if words in (["draw"], ["pass"]):
        return Draw() if words[0] == "draw" else Pass()
    if len(words) == 2 and words[0] in ("nominate", "call", "name"):
        suit = _SUIT_TEXT.get(words[1]) or _LETTERS.get(words[1])
        if suit is not None:
            return Nominate(suit)
    if len(words) == 1 and words[0] in _SUIT_TEXT:
        return Nominate(_SUIT_TEXT[words[0]])
    if len(words) == 2 and words[0] == "play":
        words = words[1:]
    if len(words) == 1:
        try:
            card = parse_card(words[0])
        except InvalidNotation:
            pass
        else:
            if not card.is_joker:
                return Play(card)
    raise InvalidNotation(said("refusal.notation", text=quote(text.strip())))
