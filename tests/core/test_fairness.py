"""Fair deals: the commitment to a seed, records that carry it, and ``parlour verify``."""

from __future__ import annotations

import hashlib
import io
import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from parlour.cards import deck52
from parlour.cli import main
from parlour.core.fairness import COMMITMENT_PREFIX, Verified, commitment, draw_seed, verify
from parlour.core.record import Record, replay
from parlour.core.rng import MAX_SEED, derive_seed, make_rng
from parlour.errors import InvalidRecord, ParlourError
from parlour.games import GAMES, find_game
from parlour.games.death.match import dealer_of, match_game


def _played(game: str, players: int, seed: int, number: int | None = 0) -> dict[str, Any]:
    """A finished game of random legal actions, as a committed record (``number``: the
    record's deal_number, ``None`` for none)."""
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


# -- the commitment --------------------------------------------------------------------------


def _sha256sum(seed: int) -> str:
    """What the module docstring's shell line computes, built here without Parlour."""
    return hashlib.sha256(b"parlour seed commitment v1\n" + str(seed).encode("ascii")).hexdigest()


def test_the_commitment_is_sha256_of_the_documented_bytes() -> None:
    # printf 'parlour seed commitment v1\n%s' 1234 | sha256sum
    assert COMMITMENT_PREFIX == b"parlour seed commitment v1\n"
    for seed in (0, 1, 1234, MAX_SEED):
        assert commitment(seed) == _sha256sum(seed)
    assert commitment(1234) == (
        "b965b63421f3af4e273e1eadb45b718ba799420dcf71fb55f0a830aa9b8e1245"
    )  # fmt: skip


@pytest.mark.skipif(not shutil.which("sha256sum"), reason="no sha256sum here")
def test_the_documented_shell_line_gives_the_commitment() -> None:
    line = "printf 'parlour seed commitment v1\\n%s' 987654321 | sha256sum"
    out = subprocess.run(["sh", "-c", line], capture_output=True, text=True, check=True).stdout
    assert out.split()[0] == commitment(987654321)


@pytest.mark.parametrize("seed", [-1, MAX_SEED + 1, True, "7", 1.0])
def test_only_seeds_have_commitments(seed: Any) -> None:
    with pytest.raises(ParlourError, match="seed"):
        commitment(seed)


@given(st.integers(0, MAX_SEED), st.integers(0, MAX_SEED))
def test_commitments_are_64_hex_digits_and_differ_between_seeds(a: int, b: int) -> None:
    ca, cb = commitment(a), commitment(b)
    assert len(ca) == 64 and set(ca) <= set("0123456789abcdef")
    assert (ca == cb) == (a == b)


def test_drawn_seeds_are_in_range_and_vary() -> None:
    seeds = {draw_seed() for _ in range(64)}
    assert len(seeds) == 64 and all(0 <= s <= MAX_SEED for s in seeds)
    assert any(s > 2**62 for s in {draw_seed() for _ in range(64)})  # the whole range


# -- verify ----------------------------------------------------------------------------------


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("number", [None, 0, 3])
def test_a_genuine_record_verifies(game: str, number: int | None) -> None:
    players = GAMES[game].info.min_players + 1
    record = _played(game, players, 99, number)
    found = verify(record, find_game)
    assert isinstance(found, Verified)
    states = replay(Record.from_json(record), GAMES[game])
    end = states[-1].outcome
    assert end is not None and found.outcome.to_json() == end.to_json()
    assert found == Verified(game, players, 99, commitment(99), number or 0, end, len(states) - 1)
    assert found.steps == len(record["actions"])


def _tamper_action(record: dict[str, Any]) -> None:
    """Well-formed notation that the replay refuses: the second action again at the third (a
    card no longer in hand), or where every action reads the same (Beggar-My-Neighbour's
    turns), one more action after the end."""
    actions = record["actions"]
    if actions[1] != actions[2]:
        actions[2] = actions[1]
    else:
        actions.append(actions[0])


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda r: r.update(seed=r["seed"] + 1), "'commitment' does not match its seed"),
        (lambda r: r.update(commitment=_sha256sum(6)), "'commitment' does not match its seed"),
        (lambda r: r.update(commitment="0" * 64), "'commitment' does not match its seed"),
        (lambda r: r.pop("commitment"), "'commitment' is missing: this game was not dealt"),
        (lambda r: r.update(commitment=None), "'commitment' is missing"),
        (lambda r: r.update(commitment=r["commitment"].upper()), "'commitment' must be 64"),
        (lambda r: r.update(commitment=r["commitment"][:63]), "'commitment' must be 64"),
        (lambda r: r.update(commitment=7), "'commitment' must be 64"),
        (lambda r: r.update(actions=r["actions"][:-1]), "the recorded game is not over"),
        (lambda r: r.update(actions=[]), "the recorded game is not over"),
        (_tamper_action, r"action \d+ .* is illegal"),
        (lambda r: r.update(deal_number=-1), "'deal_number' must be a whole number"),
        (lambda r: r.update(deal_number=True), "'deal_number' must be a whole number"),
        (lambda r: r.update(deal_number="1"), "'deal_number' must be a whole number"),
        (lambda r: r.update(deal={"hands": []}), "either 'deal' or 'deal_number'"),
        (lambda r: r.update(game="chess"), "'game'"),
        (lambda r: r.update(sneaky=1), "unknown field 'sneaky'"),
    ],
)
def test_a_tampered_record_is_refused_naming_the_problem(
    game: str, change: Any, words: str
) -> None:
    record = _played(game, 2, 5)
    change(record)
    with pytest.raises(InvalidRecord, match=words) as caught:
        verify(record, find_game)
    assert "\n" not in str(caught.value)


def test_a_committed_record_with_its_own_deal_is_refused() -> None:
    """A deal written into the record is not the seed's: the commitment proves nothing."""
    g = GAMES["death"]
    record = _played("death", 3, 5, number=None)
    record["deal"] = g.match_deal(3, 5, 0)
    with pytest.raises(InvalidRecord, match="'deal' is set"):
        verify(record, find_game)


@pytest.mark.parametrize("obj", [None, [], "record", 3, {}])
def test_verify_refuses_what_is_not_a_record(obj: object) -> None:
    with pytest.raises(InvalidRecord, match="record"):
        verify(obj, find_game)


# -- records: the new fields -----------------------------------------------------------------


def test_records_keep_the_new_fields() -> None:
    record = _played("death", 4, 11, number=3)
    assert record["commitment"] == commitment(11) and record["deal_number"] == 3
    back = Record.from_json(record)
    assert (back.commitment, back.deal_number) == (commitment(11), 3)
    assert back.to_json() == record
    zero = _played("beor", 2, 11, number=0)
    assert zero["deal_number"] == 0 and Record.from_json(zero).to_json() == zero
    old = {k: v for k, v in record.items() if k not in ("commitment", "deal_number")}
    back = Record.from_json(old)
    assert (back.commitment, back.deal_number) == (None, None)
    assert "commitment" not in back.to_json() and "deal_number" not in back.to_json()
    # Existing fields still construct by position.
    positional = Record("beor", 2, 1, {}, None, ("x",), None, ())
    assert positional.commitment is None and positional.deal_number is None


@pytest.mark.parametrize("game", sorted(GAMES))
def test_old_records_replay_as_before(game: str) -> None:
    """Without deal_number a record deals from its seed alone, state for state as before; a
    commitment changes nothing in the replay."""
    g = GAMES[game]
    plain = _played(game, 3, 8, number=None)
    del plain["commitment"]
    state = g.new(3, 8)
    expected = [state.to_json()]
    for text in plain["actions"]:
        state = state.apply(text)
        expected.append(state.to_json())
    assert [s.to_json() for s in replay(Record.from_json(plain), g)] == expected
    plain["commitment"] = commitment(8)
    assert [s.to_json() for s in replay(Record.from_json(plain), g)] == expected


@pytest.mark.parametrize("game", ["beor", "beggar"])
def test_games_without_a_match_deal_ignore_the_deal_number(game: str) -> None:
    g = GAMES[game]
    assert g.match_deal(3, 8, 4) is None
    record = Record(game, 3, 8, deal_number=4)
    assert replay(record, g)[0].to_json() == g.new(3, 8).to_json()


@pytest.mark.parametrize("number", [0, 1, 2, 5])
def test_a_death_deal_number_moves_the_dealer(number: int) -> None:
    """G12: "the dealer moves one seat clockwise each deal"; he deals the 52 cards one at a
    time from the player on his left (G1), who gets the 18th card of three players' deal."""
    g = GAMES["death"]
    start = replay(Record("death", 3, 21, deal_number=number), g)[0]
    assert start.to_json() == match_game(3, 21, number).to_json()
    dealer = (2 + number) % 3  # seat 2 deals first; seat 0 sits left of him
    assert dealer_of(3, number) == dealer
    left = (dealer + 1) % 3
    hands = g.match_deal(3, 21, number)["hands"]
    assert [len(h) for h in hands] == [18 if s == left else 17 for s in range(3)]
    deck = list(deck52())
    make_rng(derive_seed(21, "deal", number)).shuffle(deck)
    assert hands[left][:2] == [str(deck[0]), str(deck[3])]
    assert hands[(left + 1) % 3][0] == str(deck[1])
    # The holder of 2D throws first (G1), wherever the deal began.
    assert start.to_move == next(s for s, h in enumerate(hands) if "2D" in h)


def test_a_death_record_without_a_deal_number_is_not_deal_0_of_a_match() -> None:
    """deal_number 0 is the first deal of a match (derived from the seed); no deal_number is
    the old deal from the seed itself, which old records were played with."""
    g = GAMES["death"]
    without = replay(Record("death", 4, 21), g)[0]
    assert without.to_json() == g.new(4, 21).to_json()
    assert replay(Record("death", 4, 21, deal_number=0), g)[0].to_json() != without.to_json()


def test_the_death_match_deal_refuses_a_bad_number() -> None:
    with pytest.raises(ParlourError, match="deal_number"):
        GAMES["death"].match_deal(3, 1, -1)


# -- parlour verify --------------------------------------------------------------------------


def _write(tmp_path: Path, record: dict[str, Any], name: str = "game.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(record))
    return str(path)


def test_parlour_verify_says_what_it_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = _played("death", 3, 4, number=2)
    assert main(["verify", _write(tmp_path, record)]) == 0
    out = capsys.readouterr().out
    steps = len(record["actions"])
    assert out.startswith(f"Verified: the seed 4 matches commitment {commitment(4)}; ")
    assert (
        f"Becker's Game of Death (deal_number 2) for 3 players replays to its end in {steps} "
        "steps: Player "
    ) in out
    assert "with the fewest drinks taken (G12)" in out and out.count("\n") == 1


def test_parlour_verify_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = _played("beor", 2, 4)
    assert main(["verify", _write(tmp_path, record), "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    end = replay(Record.from_json(record), GAMES["beor"])[-1].outcome
    assert end is not None
    assert shown == {
        "verified": True,
        "game": "beor",
        "players": 2,
        "seed": 4,
        "commitment": commitment(4),
        "deal_number": 0,
        "steps": len(record["actions"]),
        "outcome": json.loads(json.dumps(end.to_json())),
    }


def test_parlour_verify_reads_stdin(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(_played("beggar", 2, 6))))
    assert main(["verify", "-"]) == 0
    assert capsys.readouterr().out.startswith("Verified: the seed 6 matches")


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda r: r.update(seed=5), "record field 'commitment' does not match its seed"),
        (lambda r: r.pop("commitment"), "record field 'commitment' is missing"),
        (lambda r: r.update(actions=r["actions"][:3]), "the recorded game is not over"),
    ],
)
def test_parlour_verify_refuses_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: Any, words: str
) -> None:
    record = _played("death", 3, 4)
    change(record)
    assert main(["verify", _write(tmp_path, record)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and words in captured.err
    assert main(["verify", _write(tmp_path, record), "--json"]) == 2
    assert words in capsys.readouterr().err


def test_parlour_verify_names_a_missing_or_broken_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = str(tmp_path / "missing.json")
    assert main(["verify", missing]) == 2
    err = capsys.readouterr().err
    assert missing in err and err.count("\n") == 1 and "Traceback" not in err
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    assert main(["verify", str(broken)]) == 2
    err = capsys.readouterr().err
    assert "broken.json is not JSON" in err and err.count("\n") == 1
