"""The error types of Parlour. All are ``ValueError``s whose message names the input, the rule
or field, and the position, in one line that can be shown to a person as it is."""

from __future__ import annotations

__all__ = [
    "GameOver",
    "IllegalAction",
    "InvalidNotation",
    "InvalidOption",
    "InvalidRecord",
    "NotYourTurn",
    "ParlourError",
]


class ParlourError(ValueError):
    """Base class: a one-line message for a person."""


class InvalidNotation(ParlourError):
    """Text that is not a card, action, deal or position in the game's notation."""


class IllegalAction(ParlourError):
    """A well-formed action that the rules forbid here; the message names the rule."""


class NotYourTurn(IllegalAction):
    """An action for a seat that is not to move."""


class GameOver(IllegalAction):
    """An action after the game has ended."""


class InvalidRecord(ParlourError):
    """A game record that cannot be replayed: the message names the field or action index."""


class InvalidOption(ParlourError):
    """An unknown game option or a value outside its schema."""
