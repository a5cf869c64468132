"""Why the Game of Death refuses an action or a table entry, in words naming the rule.

The position decides what is legal (:meth:`Position.legal_actions`); these functions say why
something else is not, so that each refusal names its ruling (G1, G2, G5, G13). Each refusal is
a sentence of the game's catalog (``refusal.*``), said in English here and in the language
spoken by the front ends.
"""

from __future__ import annotations

from collections.abc import Collection

from parlour.core.game import Action
from parlour.games.death.notation import Give, IllegalShow, TablePenalty, Throw
from parlour.games.death.position import Position
from parlour.games.death.sentences import said

__all__ = ["refuse_action", "refuse_penalty", "refuse_show"]


def _no_such_player(seat: int, players: int, key: str = "refusal.no_player") -> str | None:
    if 0 <= seat < players:
        return None
    return said(key, player=seat + 1, players=players)


def refuse_action(action: Action, pos: Position) -> str:
    """Why ``action``, not a legal action in ``pos``, is refused."""
    p = pos.to_move
    assert p is not None
    if isinstance(action, Give):
        nobody = _no_such_player(action.seat, len(pos.hands))
        if nobody:
            return nobody
    if pos.pending is not None:
        giver, left = pos.pending
        if isinstance(action, Give):
            if action.seat == giver:
                return said("refusal.give.self", player=p + 1)
            return said("refusal.give.left", left)
        return said("refusal.give.first", left, player=giver + 1)
    if isinstance(action, Give):
        return said("refusal.give.none")
    if isinstance(action, Throw):
        card = action.card
        if card not in pos.hands[p]:
            return said("refusal.not_in_hand", card=str(card), player=p + 1)
        if not pos.started:
            return said("refusal.opening")
        return said("refusal.not_following", card=str(card), top=str(pos.pile[-1]))
    return said("refusal.must_throw")


def refuse_penalty(
    entry: TablePenalty, *, by: int | None, votes: frozenset[int], players: int
) -> str | None:
    """G13: a D'oh! or a delay of game on oneself needs no vote; on another player it needs
    a majority of the other players (those other than the penalised one), ``by`` voting for
    it; a referee (``by`` None) enters what the table decided. ``None``: not refused."""
    nobody = _no_such_player(entry.seat, players, "refusal.penalty.no_player")
    if nobody:
        return nobody
    if by is None or by == entry.seat:
        return None
    others = players - 1
    support = len((votes | {by}) - {entry.seat})
    if 2 * support > others:
        return None
    key = f"refusal.penalty.majority.{entry.reason}"
    return said(key, support, player=entry.seat + 1, others=others)


def refuse_show(
    entry: IllegalShow, by: int | None, pos: Position, legal: Collection[Action]
) -> str | None:
    """G13: an illegal throw is entered for the player to move, by himself or a referee,
    with the option ``illegal_throw_penalty`` on, for a card of his hand that is no legal
    throw (``legal``), and not while drinks are still to give (G5). ``None``: not refused."""
    p = pos.to_move
    assert p is not None
    if not pos.options.illegal_throw_penalty:
        return said("refusal.show.off")
    if by is not None and by != p:
        return said("refusal.show.by", player=p + 1, by=by + 1)
    if pos.pending is not None:
        giver, left = pos.pending
        return said("refusal.give.first", left, player=giver + 1)
    if entry.card not in pos.hands[p]:
        return said("refusal.show.not_in_hand", card=str(entry.card), player=p + 1)
    if Throw(entry.card) in legal:
        return said("refusal.show.legal", card=str(entry.card))
    return None
