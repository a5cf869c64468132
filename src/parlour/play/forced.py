"""What the table decides for a person, and what it asks before charging: the moves a seat must
make with no choice (made for him and said in the log, issue 18), and the cost of a forbidden
move the rules charge for (a card thrown against the rules), asked before it is made so
that a typo costs nothing. Both are read from the game's presenter and its rules, never from
its name.
"""

from __future__ import annotations

from parlour.errors import ParlourError
from parlour.play.speech import presenter_of, say, seat_called
from parlour.play.table import Table

__all__ = ["forced_moves", "forfeit_cost"]


def forced_moves(table: Table, seat: int) -> tuple[tuple[str, ...], str] | None:
    """The moves ``seat`` must make, with no choice (a pass that is the only legal move, or a
    give that can go to one player only), and what to say; ``None`` when the person chooses.
    (A lone card to throw is still the person's to throw: he may first make a table entry.)"""
    if not table.has_decisions:
        return None
    presenter = presenter_of(table.game)
    state = table.state
    legal = state.legal_actions()
    if len(legal) == 1 and str(legal[0]).lower() == "pass":
        return ("pass",), say("forced.pass", name=seat_called(seat))
    if presenter.numbered(legal):
        return None
    # The game asks in its own way (a give, G5): forced when one answer only is legal.
    view = state.view(seat)
    found: list[tuple[str, ...]] = []
    for number in range(1, table.players + 1):
        reply = presenter.read(view, str(number))
        if reply is None or not reply.actions:
            continue
        trial = state
        try:
            for text in reply.actions:
                trial = trial.apply(text)
        except ParlourError:
            continue
        found.append(reply.actions)
    if len(found) != 1:
        return None
    said = ", ".join(found[0])
    return found[0], say("forced.one", name=seat_called(seat), moves=said)


def forfeit_cost(table: Table, seat: int, entry: str) -> tuple[str, int] | None:
    """What the table entry ``entry`` (a forfeit, :meth:`Presenter.forfeit`) would do if
    ``seat`` made it now: the thing it names (``6C``) and the drinks it costs; ``None`` when
    the rules charge nothing here (they refuse the entry)."""
    try:
        trial = table.state.apply_table(entry, by=seat)
    except ParlourError:
        return None
    step = trial.step
    assert step is not None
    cost = 0
    for event in trial.events:
        drinks = event.data.get("drinks") if event.data else None
        cost += drinks if isinstance(drinks, int) else 0
    return step.text.split(" ", 1)[-1], cost
