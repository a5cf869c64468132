"""How the records under ``tests/review/records/`` were made (``python -m
tests.review.make_records``, from the repository root, writes them again, exactly alike): real
deals played by the ``medium`` bot, with one move planted where a blunder was wanted, or two
hidden cards swapped. ``records/README.md`` tells what each record holds and why its planted
move is a blunder.

The tests never make records here: they read the stored ones, so that a change in a bot or a
deal cannot quietly change what they check (``test_fixtures.py`` checks the claims each record
makes against the rules).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from parlour.bots import make_agent
from parlour.core import Record
from parlour.core.game import JSON, Game, State
from parlour.core.rng import make_rng
from parlour.games import find_game
from parlour.games.beor import deal_from_seed
from parlour.games.death import DeathState

from .helpers import holdings

RECORDS = Path(__file__).parent / "records"

# The planted blunders: (game, players, seed, step, seat, the move played, the move thrown away).
BEOR_BLUNDER = ("beor", 2, 12, 22, 0, "KS>black", "6H>even")
DEATH_BLUNDER = ("death", 4, 32, 58, 0, "AD", "7D")

# The hidden-card pairs: the deal's seed, and the cards swapped in the second record.
BEOR_HIDDEN_SEED = 5
DEATH_HIDDEN_SEED = 9


def play(game: Game, start: State, actions: list[str], rng: random.Random) -> list[str]:
    """``actions`` played from ``start``, then the medium bot for every seat to the end."""
    bot = make_agent("medium", game)
    state = start
    for text in actions:
        state = state.apply(text)
    played = list(actions)
    while not state.is_over:
        seat = state.to_move
        action = bot.choose(state.view(seat), state.legal_actions(), rng)
        played.append(str(action))
        state = state.apply(action)
    return played


def bot_moves(game: Game, start: State, count: int, rng: random.Random) -> list[str]:
    """The medium bot's first ``count`` moves from ``start``."""
    bot = make_agent("medium", game)
    state, moves = start, []
    for _ in range(count):
        action = bot.choose(state.view(state.to_move), state.legal_actions(), rng)
        moves.append(str(action))
        state = state.apply(action)
    return moves


def planted(spec: tuple[str, int, int, int, int, str, str]) -> Record:
    """A deal dealt from its seed where the bot plays every move but one: at ``step`` the seat
    plays the planted move instead of ``best``; the seat loses the deal."""
    name, players, seed, step, seat, blunder, best = spec
    game = find_game(name)
    start = game.new(players, seed)
    before = bot_moves(game, start, step, random.Random(seed))
    state = start
    for text in before:
        state = state.apply(text)
    assert state.to_move == seat
    legal = {str(a) for a in state.legal_actions()}
    assert blunder in legal and best in legal, (legal, blunder, best)
    actions = play(game, start, [*before, blunder], random.Random(seed))
    record = Record(name, players, seed, {}, None, tuple(actions))
    from parlour.core.record import replay

    outcome = replay(record, game)[-1].outcome
    assert outcome is not None and seat not in outcome.winners
    return record


def beor_hidden() -> tuple[Record, Record]:
    """A 2-player BEOR deal played by the bot to the end, with its deal written out, and the
    same record with a card of Player 2's hand that Player 2 never plays swapped with a card
    of a face-down stock that nobody draws or sees (chosen by ``swap``)."""
    game = find_game("beor")
    seed = BEOR_HIDDEN_SEED
    deal = deal_from_seed(2, make_rng(seed)).to_json()
    actions = play(game, game.new(2, seed, deal=deal), [], random.Random(seed))
    first = Record("beor", 2, seed, {}, deal, tuple(actions))
    return first, swap(game, first, seat=0)


def death_hidden() -> tuple[Record, Record]:
    """A 4-player Game of Death deal played by the bot to the end with its deal written out,
    and the same record with a card of Player 2 and one of Player 3 swapped: cards neither of
    them throws and whose swap no pass gives away (chosen by ``swap``)."""
    game = find_game("death")
    seed = DEATH_HIDDEN_SEED
    start = game.new(4, seed)
    assert isinstance(start, DeathState)
    deal: JSON = {"hands": [[str(c) for c in hand] for hand in start.hands]}
    actions = play(game, game.new(4, seed, deal=deal), [], random.Random(seed))
    first = Record("death", 4, seed, {}, deal, tuple(actions))
    return first, swap(game, first, seat=0)


def views_before_end(record: Record, game: Game, seat: int) -> list[JSON]:
    """``seat``'s view of every state of the record, as JSON, but the last one when the game
    is over there (the Game of Death shows every hand at the end, G11)."""
    from parlour.core.record import replay

    states = replay(record, game)
    if states[-1].is_over:
        states = states[:-1]
    return [s.view(seat).to_json() for s in states]


def _places(deal: Any) -> list[tuple[str, str, int]]:
    """Every card's place in a deal: (hands or stocks, which one, index), hands and stocks
    only."""
    places: list[tuple[str, str, int]] = []
    for key in ("hands", "stocks"):
        holders = deal.get(key)
        if holders is None:
            continue
        named = enumerate(holders) if isinstance(holders, list) else holders.items()
        for name, pile in named:
            places += [(key, str(name), i) for i in range(len(pile))]
    return places


def _pile(deal: Any, place: tuple[str, str, int]) -> list[str]:
    key, name, _ = place
    holders = deal[key]
    pile: list[str] = holders[int(name)] if isinstance(holders, list) else holders[name]
    return pile


def swap(game: Game, record: Record, seat: int) -> Record:
    """The record with two cards of its deal swapped, the first pair (in deal order) that
    lies outside ``seat``'s hand, keeps every action legal, leaves every view of ``seat``
    before the end unchanged (for BEOR every view, the last one too), and still lies apart
    at the end of the deal (neither card is played or drawn)."""
    from parlour.errors import InvalidRecord

    wanted = views_before_end(record, game, seat)
    places = [p for p in _places(record.deal) if p[:2] != ("hands", str(seat))]
    everything = game.name == "beor"
    for i, a in enumerate(places):
        for b in places[i + 1 :]:
            if a[:2] == b[:2]:
                continue  # two cards of one pile or hand: move a card to another holder
            deal = json.loads(json.dumps(record.deal))
            pile_a, pile_b = _pile(deal, a), _pile(deal, b)
            pile_a[a[2]], pile_b[b[2]] = pile_b[b[2]], pile_a[a[2]]
            other = Record(record.game, record.players, record.seed, {}, deal, record.actions)
            try:
                if views_before_end(other, game, seat) != wanted:
                    continue
                if not differs_throughout(record, other, game):
                    continue
                if everything and _last_view(other, game, seat) != _last_view(record, game, seat):
                    continue
            except InvalidRecord:
                continue
            return other
    raise AssertionError("no swap keeps the views")


def differs_throughout(record: Record, other: Record, game: Game) -> bool:
    """Whether the two records' deals differ in every state, the last one too: the swapped
    cards stay where they were dealt (a card drawn at once would make the deals alike)."""
    from parlour.core.record import replay

    pairs = zip(replay(record, game), replay(other, game), strict=True)
    return all(holdings(a) != holdings(b) for a, b in pairs)


def _last_view(record: Record, game: Game, seat: int) -> JSON:
    from parlour.core.record import replay

    return replay(record, game)[-1].view(seat).to_json()


def write(name: str, record: Record) -> None:
    text = json.dumps(record.to_json(), indent=1) + "\n"
    (RECORDS / f"{name}.json").write_text(text)


def main() -> None:
    RECORDS.mkdir(exist_ok=True)
    write("beor_blunder", planted(BEOR_BLUNDER))
    write("death_blunder", planted(DEATH_BLUNDER))
    first, second = beor_hidden()
    write("beor_hidden_a", first)
    write("beor_hidden_b", second)
    first, second = death_hidden()
    write("death_hidden_a", first)
    write("death_hidden_b", second)


if __name__ == "__main__":
    main()
