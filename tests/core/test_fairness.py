"""Fair deals: the commitment to a seed, records that carry it, and ``parlour verify``."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from parlour.cli import main
from parlour.core.fairness import COMMITMENT_PREFIX, commitment, draw_seed, verify
from parlour.core.record import Record, replay
from parlour.core.rng import MAX_SEED
from parlour.errors import InvalidRecord
from parlour.games import GAMES, find_game
from parlour.games.death.match import dealer_of, match_game


def _played(game: str, players: int, seed: int, number: int | None = 0) -> dict[str, Any]:
    """A finished game with random legal moves, as a committed record."""
    g = GAMES[game]
    deal = None if number is None else g.match_deal(players, seed, number)
    state = g.new(players, seed, None, deal)
    rng = random.Random(seed)
    actions = []
    while not state.is_over:
        action = rng.choice(state.legal_actions())
        actions.append(str(action))
        state = state.apply(action)
    record = Record(
        g.name, players, seed, {}, None, tuple(actions), commitment=commitment(seed),
        deal_number=number,
    )  # fmt: skip
    return record.to_json()


def test_the_commitment_is_sha256_of_the_documented_bytes() -> None:
    # printf 'parlour seed commitment v1\n%s' 1234 | sha256sum
    expected = hashlib.sha256(b"parlour seed commitment v1\n1234").hexdigest()
    assert COMMITMENT_PREFIX == b"parlour seed commitment v1\n"
    assert commitment(1234) == expected
    assert commitment(0) == hashlib.sha256(b"parlour seed commitment v1\n0").hexdigest()


@given(st.integers(0, MAX_SEED), st.integers(0, MAX_SEED))
def test_commitments_are_64_hex_digits_and_differ_between_seeds(a: int, b: int) -> None:
    ca, cb = commitment(a), commitment(b)
    assert len(ca) == 64 and set(ca) <= set("0123456789abcdef")
    assert (ca == cb) == (a == b)


def test_drawn_seeds_are_in_range_and_vary() -> None:
    seeds = {draw_seed() for _ in range(64)}
    assert len(seeds) == 64 and all(0 <= s <= MAX_SEED for s in seeds)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_genuine_record_verifies(game: str) -> None:
    players = GAMES[game].info.min_players + 1
    record = _played(game, players, 99)
    found = verify(record, find_game)
    assert (found.game, found.players, found.seed) == (game, players, 99)
    assert found.steps == len(record["actions"])
    end = replay(Record.from_json(record), GAMES[game])[-1].outcome
    assert end is not None and found.outcome.to_json() == end.to_json()


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda r: r.update(seed=r["seed"] + 1), "does not match its seed"),
        (lambda r: r.update(commitment="0" * 64), "does not match its seed"),
        (lambda r: r.pop("commitment"), "is missing"),
        (lambda r: r.update(commitment="XYZ"), "64 lowercase hexadecimal"),
        (lambda r: r.update(actions=r["actions"][:-1]), "not over"),
        (lambda r: r.update(actions=["9X>nowhere", *r["actions"][1:]]), "action 0"),
        (lambda r: r.update(deal_number=-1), "deal_number"),
    ],
)
def test_a_tampered_record_is_refused_naming_the_problem(change: Any, words: str) -> None:
    record = _played("beor", 2, 5)
    change(record)
    with pytest.raises(InvalidRecord, match=words):
        verify(record, find_game)


def test_records_keep_the_new_fields_and_old_records_replay_as_before() -> None:
    record = _played("death", 4, 11, number=3)
    assert Record.from_json(record).to_json() == record
    old = {k: v for k, v in record.items() if k not in ("commitment", "deal_number")}
    assert "deal_number" not in Record.from_json(old).to_json()
    g = GAMES["beor"]
    plain = _played("beor", 3, 8, number=None)
    state = g.new(3, 8)
    assert replay(Record.from_json(plain), g)[0].to_json() == state.to_json()


@pytest.mark.parametrize("number", [0, 1, 2, 5])
def test_a_death_deal_number_moves_the_dealer(number: int) -> None:
    """G12: "the dealer moves one seat clockwise each deal"; the deal starts left of him."""
    g = GAMES["death"]
    record = Record("death", 4, 21, {}, None, (), deal_number=number)
    start = replay(record, g)[0]
    assert start.to_json() == match_game(4, 21, number).to_json()
    hands = g.match_deal(4, 21, number)["hands"]
    first = (dealer_of(4, number) + 1) % 4
    assert [len(h) for h in hands][first] == 13


def test_parlour_verify(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "game.json"
    good.write_text(json.dumps(_played("death", 3, 4)))
    assert main(["verify", str(good)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"Verified: seed 4 matches commitment {commitment(4)}")
    assert main(["verify", str(good), "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["verified"] is True and shown["seed"] == 4
    bad = tmp_path / "bad.json"
    record = _played("death", 3, 4)
    record["seed"] = 5
    bad.write_text(json.dumps(record))
    assert main(["verify", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "does not match its seed" in err
    assert main(["verify", str(tmp_path / "missing.json")]) == 2
    assert "Traceback" not in capsys.readouterr().err
