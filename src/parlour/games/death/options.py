"""The Game of Death's options: their specs (for records, the command line and ``--help``) and
the typed options the rules read.

Options:
    difference_against_faces: J, Q, K count 11, 12, 13 as the covered card of G3 (default off).
    illegal_throw_penalty: a card shown that does not follow costs 2 drinks and goes back (G13,
        default on, for people's tables).
    sober: players (numbered from 1) who keep points instead of drinking (G14).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from parlour.core.inputs import quote
from parlour.core.log import JSON
from parlour.core.options import OptionSpec, OptionValue
from parlour.errors import InvalidOption

__all__ = ["MAX_PLAYERS", "MIN_PLAYERS", "OPTION_SPECS", "DeathOptions", "typed_options"]

MIN_PLAYERS, MAX_PLAYERS = 2, 10  # G1

OPTION_SPECS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "difference_against_faces",
        "bool",
        False,
        "going down from a J, Q or K (11, 12, 13) to a lower number card also drinks the "
        "difference",
        ruling="G3",
    ),
    OptionSpec(
        "illegal_throw_penalty",
        "bool",
        True,
        "an illegal throw costs 2 drinks and the card goes back (front ends for people)",
        ruling="G13",
    ),
    OptionSpec(
        "sober",
        "players",
        (),
        "players (numbered from 1) who play without drinking: drinks are kept as points",
        ruling="G14",
    ),
)


@dataclass(frozen=True, slots=True)
class DeathOptions:
    """The typed options of a game (see the module docstring); ``sober`` holds seats (from 0)."""

    difference_against_faces: bool = False
    illegal_throw_penalty: bool = True
    sober: frozenset[int] = frozenset()

    def to_json(self) -> dict[str, JSON]:
        """As a record's options: ``sober`` lists player numbers (from 1)."""
        return {
            "difference_against_faces": self.difference_against_faces,
            "illegal_throw_penalty": self.illegal_throw_penalty,
            "sober": [s + 1 for s in sorted(self.sober)],
        }


def typed_options(values: Mapping[str, OptionValue], players: int) -> DeathOptions:
    """Options checked by :func:`parlour.core.options.validate_options` as :class:`DeathOptions`.

    Raises:
        InvalidOption: ``sober`` names a player who is not at the table (G14).
    """
    sober = values["sober"]
    if not isinstance(sober, tuple):
        raise InvalidOption(f"option sober of death lists player numbers, got {quote(sober)}")
    if any(k > players for k in sober):
        raise InvalidOption(
            f"option sober of death names Player {max(sober)}, but there are {players} players"
        )
    return DeathOptions(
        difference_against_faces=bool(values["difference_against_faces"]),
        illegal_throw_penalty=bool(values["illegal_throw_penalty"]),
        sober=frozenset(k - 1 for k in sober),
    )
