"""Why the Game of Death refuses an action or a table entry, in words naming the rule.

The position decides what is legal (:meth:`Position.legal_actions`); these functions say why
something else is not, so that each refusal names its ruling (G1, G2, G5, G13).
"""

from __future__ import annotations

from collections.abc import Collection

from parlour.core.game import Action, seat_name
from parlour.games.death.notation import TABLE_REASONS, Give, IllegalShow, TablePenalty, Throw
from parlour.games.death.position import Position

__all__ = ["refuse_action", "refuse_penalty", "refuse_show"]


def _no_such_player(seat: int, players: int) -> str | None:
    if 0 <= seat < players:
        return None
    return f"there is no {seat_name(seat)}: the players are 1 to {players}"


def refuse_action(action: Action, pos: Position) -> str:
    """Why ``action``, not a legal action in ``pos``, is refused."""
    p = pos.to_move
    assert p is not None
    who = seat_name(p)
    if isinstance(action, Give):
        nobody = _no_such_player(action.seat, len(pos.hands))
        if nobody:
            return nobody
    if pos.pending is not None:
        giver, left = pos.pending
        if isinstance(action, Give):
            if action.seat == giver:
                return f"{who} cannot give drinks to himself (G5)"
            return f"only {left} drink{'s' if left > 1 else ''} are left to give (G5)"
        return f"{seat_name(giver)} must first give {left} drinks (G5)"
    if isinstance(action, Give):
        return "there are no drinks to give: only a black face card gives (G5)"
    if isinstance(action, Throw):
        card = action.card
        if card not in pos.hands[p]:
            return f"{card} is not in {who}'s hand"
        if not pos.started:
            return "the holder of 2D throws it first (G1)"
        return f"{card} does not follow {pos.pile[-1]}: neither suit nor rank (G2)"
    return "you must throw when you can (G2)"


def refuse_penalty(
    entry: TablePenalty, *, by: int | None, votes: frozenset[int], players: int
) -> str | None:
    """G13: a D'oh! or a delay of game on oneself needs no vote; on another player it needs
    a majority of the other players (those other than the penalised one), ``by`` voting for
    it; a referee (``by`` None) enters what the table decided. ``None``: not refused."""
    nobody = _no_such_player(entry.seat, players)
    if nobody:
        return f"{nobody} (G13)"
    if by is None or by == entry.seat:
        return None
    others = players - 1
    support = len((votes | {by}) - {entry.seat})
    if 2 * support > others:
        return None
    return (
        f"a {TABLE_REASONS[entry.reason]} penalty on {seat_name(entry.seat)} needs a majority "
        f"of the other {others} players, and {support} voted for it (G13)"
    )


def refuse_show(
    entry: IllegalShow, by: int | None, pos: Position, legal: Collection[Action]
) -> str | None:
    """G13: an illegal throw is entered for the player to move, by himself or a referee,
    with the option ``illegal_throw_penalty`` on, for a card of his hand that is no legal
    throw (``legal``), and not while drinks are still to give (G5). ``None``: not refused."""
    p = pos.to_move
    assert p is not None
    who = seat_name(p)
    if not pos.options.illegal_throw_penalty:
        return "the illegal throw penalty is off (option illegal_throw_penalty, G13)"
    if by is not None and by != p:
        return (
            f"an illegal throw is entered by {who}, the player to move, or a referee, "
            f"not by {seat_name(by)} (G13)"
        )
    if pos.pending is not None:
        giver, left = pos.pending
        return f"{seat_name(giver)} must first give {left} drinks (G5)"
    if entry.card not in pos.hands[p]:
        return f"{entry.card} is not in {who}'s hand (G13)"
    if Throw(entry.card) in legal:
        return f"{entry.card} is a legal throw, not an illegal one (G13)"
    return None
