"""The last hostile inputs of the commands (issue 30, point 3), each of which ended as an
internal error (exit status 70) or a hang: a number written with thousands of leading zeros,
standard streams closed or full, a saved search with fields it does not have or kept in a pipe,
and a bots-only match printed as JSON."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import IO

import pytest
from jsonschema import Draft202012Validator

from parlour.core.record import Record
from parlour.core.schema import schema
from parlour.games import GAMES, replay_json
from tests.fuzz.harness import HUGE, Answer, assert_clean, count, run_main, run_process

ZEROS = "0" * 4410 + "1"
"""4,411 characters: past the 4,300 digits ``int()`` converts, yet the number 1."""

ZEROS_3 = "0" * 5000 + "3"


def refused_naming(answer: Answer, *names: str) -> None:
    """Exit status 2 and one line on standard error naming each of ``names``."""
    assert_clean(answer, allow_success=False)
    assert answer.code == 2, answer.err
    assert len(answer.err.splitlines()) == 1, answer.err
    for name in names:
        assert name in answer.err, answer.err


# -- numbers with leading zeros ------------------------------------------------------------------

BOTS_BEOR = ["play", "beor", "--seat", "1=random", "--seed", "4", "--json"]


@pytest.mark.parametrize(
    ("argv", "option", "value"),
    [
        ([*BOTS_BEOR, "--options", "max_turns=ZEROS"], "max_turns", 1),
        ([*BOTS_BEOR, "--options", "max_turns=ZEROS_3"], "max_turns", 3),
        (["play", "beggar", "--seed", "4", "--json", "--options", "card_limit=ZEROS_3"], "", 3),
        (["play", "beggar", "--seed", "4", "--json", "--card-limit", "ZEROS_3"], "", 3),
    ],
    ids=["play-max_turns-1", "play-max_turns-3", "play-beggar-options", "play-card-limit-flag"],
)
def test_leading_zeros_are_dropped_from_an_option(argv: list[str], option: str, value: int) -> None:
    """``max_turns=000…0001`` is max_turns 1: the record says so and the game stops there."""
    count("hostile: leading zeros")
    argv = [a.replace("ZEROS_3", ZEROS_3).replace("ZEROS", ZEROS) for a in argv]
    answer = run_main(argv)
    assert answer.code == 0, answer.err
    got = json.loads(answer.out)
    if option:
        assert got["record"]["options"][option] == value
    else:  # Beggar-My-Neighbour: the card limit (M11) ends the deal after that many cards
        assert got["record"]["options"]["card_limit"] == value
        assert got["result"]["cards"] == value and got["result"]["result"] == "limit"


ARENA = ["arena", "beor", "--agents", "random,heuristic", "--games", "2", "--workers", "1"]


def test_leading_zeros_in_the_arena_and_beggar_play() -> None:
    count("hostile: leading zeros")
    arena = run_main([*ARENA, "--seed", "1", "--json", "--options", f"max_turns={ZEROS_3}"])
    plain = run_main([*ARENA, "--seed", "1", "--json", "--options", "max_turns=3"])
    assert arena.code == plain.code == 0, arena.err
    assert _without_timing(json.loads(arena.out)) == _without_timing(json.loads(plain.out))
    beggar = run_main(["beggar", "play", "--random", "--seed", "2", "--json", "--options",
                       f"card_limit={ZEROS_3}"])  # fmt: skip
    assert beggar.code == 0, beggar.err
    assert json.loads(beggar.out)["cards"] == 3


def _without_timing(figures: object) -> object:
    """An arena's figures without what depends on the clock."""
    if isinstance(figures, dict):
        return {
            k: _without_timing(v)
            for k, v in figures.items()
            if "second" not in k and "time" not in k
        }
    if isinstance(figures, list):
        return [_without_timing(v) for v in figures]
    return figures


SEAT_ARGS = ["--seat", "1=random", "--seat", "2=random"]


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        ([*BOTS_BEOR, "--options", "max_turns=HUGE"], "max_turns"),
        (
            ["arena", "beor", "--agents", "random,heuristic", "--options", "max_turns=HUGE"],
            "max_turns",
        ),
        (["beggar", "play", "--random", "--options", "card_limit=HUGE"], "card_limit"),
        (["beggar", "play", "--random", "--card-limit", "HUGE"], "--card-limit"),
        ([*BOTS_BEOR, "--seed", "HUGE"], "--seed"),
        (["play", "beor", *SEAT_ARGS, "--json", "--players", "HUGE"], "--players"),
        (["play", "beor", "--json", "--seat", "HUGE=random"], "--seat"),
        (["play", "death", "--json", "--deals", "HUGE"], "--deals"),
        (["arena", "beor", "--agents", "random,heuristic", "--games", "HUGE"], "--games"),
        (["beggar", "stats", "--games", "HUGE"], "--games"),
        (["beggar", "search", "--deals", "HUGE"], "--deals"),
    ],
    ids=lambda v: str(v)[:40],
)
def test_a_number_of_thousands_of_digits_is_refused_by_name(argv: list[str], named: str) -> None:
    count("hostile: huge numbers")
    argv = [a.replace("HUGE", HUGE) for a in argv]
    refused_naming(run_main(argv), named)


@pytest.mark.parametrize(
    ("argv", "expect"),
    [
        ([*BOTS_BEOR, "--seed", ZEROS], {"seed": 1}),
        (["play", "beor", *SEAT_ARGS, "--json", "--players", "0" * 5000 + "3"], {"players": 3}),
        (
            ["play", "beor", "--json", "--seat", f"{ZEROS}=random", "--seat", "2=random"],
            {"seats": ["random", "random"]},
        ),
    ],
    ids=["seed", "players", "seat"],
)
def test_a_flags_leading_zeros_are_dropped(argv: list[str], expect: dict[str, object]) -> None:
    count("hostile: leading zeros")
    answer = run_main(argv)
    assert answer.code == 0, answer.err
    record = json.loads(answer.out)["record"]
    assert {k: record[k] for k in expect} == expect


def test_a_records_option_with_leading_zeros_replays(tmp_path: Path) -> None:
    """An option's value written as text in a record goes through the same parser."""
    count("hostile: leading zeros")
    record = {"format": 1, "game": "beor", "players": 2, "seed": 1,
              "options": {"max_turns": ZEROS_3}, "actions": []}  # fmt: skip
    path = tmp_path / "zeros.json"
    path.write_text(json.dumps(record))
    answer = run_main(["replay", str(path), "--json"])
    assert answer.code == 0, answer.err
    assert json.loads(answer.out)["state"]["options"]["max_turns"] == 3
    big = tmp_path / "big.json"
    big.write_text(json.dumps(record).replace(json.dumps(ZEROS_3), HUGE))
    for command in (["replay"], ["verify"], ["play", "--resume"]):
        refused_naming(run_main([*command, str(big)]), "big.json", "5000 digits")


# -- standard streams closed or full ---------------------------------------------------------------


def _process(
    argv: Sequence[str], *, close: int | None = None, stdout: int | IO[bytes] = -1, cwd: Path
) -> Answer:
    """``python -m parlour ARGV`` with descriptor ``close`` closed in the child (as the shell's
    ``<&-`` or ``>&-``), standard input the null device otherwise."""

    def closing() -> None:
        if close is not None:
            os.close(close)

    done = subprocess.run(
        [sys.executable, "-m", "parlour", *argv],
        stdin=subprocess.DEVNULL if close != 0 else None,
        stdout=stdout if close != 1 else None,
        stderr=subprocess.PIPE,
        preexec_fn=closing,
        env={**os.environ, "COLUMNS": "100"},
        cwd=cwd,
        check=False,
        timeout=120,
    )
    out = done.stdout.decode() if isinstance(done.stdout, bytes) else ""
    return Answer(done.returncode, out, done.stderr.decode(), tuple(argv))


STDIN_VARIANTS = [
    [],
    ["beor", "--seed", "3"],
    ["beor", "--seed", "3", "--seat", "2=person"],
    ["beor", "--seed", "3", "--seat", "1=random", "--seat", "2=random", "--delay", "0"],
    ["beggar", "--seed", "3"],
    ["--resume", "SAVED"],
]


@pytest.mark.parametrize("argv", STDIN_VARIANTS, ids=lambda v: " ".join(v) or "menu")
def test_play_with_standard_input_closed_ends_as_with_no_input(
    argv: list[str], tmp_path: Path
) -> None:
    """``parlour play <&-`` says and does what ``parlour play </dev/null`` does."""
    count("hostile: closed standard input")
    saved = tmp_path / "saved.json"
    first = str(GAMES["beor"].new(2, 5).legal_actions()[0])
    start = Record("beor", 2, 5, {}, None, (first,), ("person", "random"))
    saved.write_text(json.dumps(start.to_json()))
    argv = ["play", *(str(saved) if a == "SAVED" else a for a in argv)]
    closed = _process(argv, close=0, cwd=tmp_path)
    saved.write_text(json.dumps(start.to_json()))
    empty = _process(argv, cwd=tmp_path)
    assert "internal error" not in closed.err and "Traceback" not in closed.err, closed.err
    assert (closed.code, closed.out, closed.err) == (empty.code, empty.out, empty.err)
    assert closed.code == 0


def test_output_to_a_full_disk_is_one_line(tmp_path: Path) -> None:
    """``> /dev/full``: one line saying the output cannot be written, exit status 2, never an
    internal error nor Python's noise at exit."""
    count("hostile: full standard output")
    for argv in (["games", "--json"], ["schema", "record"], [*BOTS_BEOR], ["games"]):
        with open("/dev/full", "wb") as full:
            answer = _process(argv, stdout=full, cwd=tmp_path)
        refused_naming(answer, "cannot write the output", "No space left on device")


def test_output_closed_is_quiet_and_the_save_is_whole(tmp_path: Path) -> None:
    """``>&-``: no file Parlour opens takes descriptor 1; the command ends as with ``>
    /dev/null``, its save written."""
    count("hostile: closed standard output")
    save = tmp_path / "bots.json"
    answer = _process([*BOTS_BEOR, "--save", str(save)], close=1, cwd=tmp_path)
    assert (answer.code, answer.err) == (0, ""), answer.err
    assert Record.from_json(json.loads(save.read_text())).game == "beor"


# -- saved searches ------------------------------------------------------------------------------

SEARCH = ["beggar", "search", "--deals", "300", "--seed", "3", "--workers", "1"]


@pytest.fixture(scope="module")
def saved_search(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    path = tmp_path_factory.mktemp("search") / "search.json"
    answer = run_main([*SEARCH, "--strategy", "backward", "--out", str(path), "--json"])
    assert answer.code == 0, answer.err
    data: dict[str, object] = json.loads(path.read_text())
    top = data["top"]
    assert isinstance(top, list)
    # The deals played backward from are deals of its top: such a file is read and goes on.
    path.write_text(json.dumps({**data, "extended": [top[0]["deal"]]}))
    assert run_main([*SEARCH, "--strategy", "backward", "--out", str(path)]).code == 0
    return data


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({"extended": ["garbage"]}, "extended[0]"),
        ({"bogus": 1}, "'bogus'"),
        ({"top": "FIRST_WITH_X"}, "top[0]"),
    ],
    ids=["extended-garbage", "unknown-field", "unknown-field-of-a-game"],
)
def test_a_saved_search_with_fields_it_has_not_is_refused(
    saved_search: dict[str, object], change: dict[str, object], named: str, tmp_path: Path
) -> None:
    count("hostile: saved searches")
    data = {**saved_search, **change}
    if change.get("top") == "FIRST_WITH_X":
        top = saved_search["top"]
        assert isinstance(top, list)
        data["top"] = [{**top[0], "x": 1}, *top[1:]]
    path = tmp_path / "search.json"
    path.write_text(json.dumps(data))
    before = path.read_bytes()
    answer = run_main([*SEARCH, "--strategy", "backward", "--out", str(path)])
    refused_naming(answer, named, "saved search")
    assert path.read_bytes() == before


def test_a_search_out_that_is_not_a_plain_file_is_refused(tmp_path: Path) -> None:
    """A pipe would be read (to resume) and wait for a writer for ever: refused as a save is,
    like a folder and a device."""
    count("hostile: saved searches")
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    for out in (pipe, tmp_path, Path("/dev/full")):
        answer = run_process([*SEARCH, "--out", str(out)], timeout=60)
        refused_naming(answer, "--out", "not a plain file" if out != tmp_path else "folder")


# -- a match as JSON -------------------------------------------------------------------------------


def test_a_bots_only_match_prints_every_deal_and_the_totals(tmp_path: Path) -> None:
    """``parlour play death --deals 3 --json``: the match, as the ``play`` schema says: every
    deal's record (each replays to its result) and the totals the terminal shows."""
    count("hostile: match as JSON")
    save = tmp_path / "match.json"
    argv = ["play", "death", "--deals", "3", "--json", "--seed", "5", "--save", str(save)]
    answer = run_main(argv)
    assert answer.code == 0, answer.err
    assert len(answer.out.splitlines()) == 1
    match = json.loads(answer.out)
    validator = Draft202012Validator(schema("play", tuple(GAMES.values())))
    assert not list(validator.iter_errors(match))
    assert [d["deal"] for d in match["deals"]] == [0, 1, 2]
    taken = [0] * 4
    for deal in match["deals"]:
        record, states = replay_json(deal["record"])
        outcome = states[-1].outcome
        assert outcome is not None and record.deal_number == deal["deal"]
        assert outcome.to_json() == deal["result"]
        taken = [t + d for t, d in zip(taken, deal["result"]["drinks_taken"], strict=True)]
    assert match["totals"]["drinks_taken"] == taken == match["scores"]
    assert match["totals"]["winners"] == [s for s in range(4) if taken[s] == min(taken)]
    wins = [sum(s in d["result"]["winners"] for d in match["deals"]) for s in range(4)]
    assert match["wins"] == wins
    saved = [save, tmp_path / "match-2.json", tmp_path / "match-3.json"]
    assert [json.loads(p.read_text()) for p in saved] == [d["record"] for d in match["deals"]]
    # One game (no --deals) keeps its shape, which the schema also takes.
    one = json.loads(run_main(["play", "death", "--json", "--seed", "5"]).out)
    assert set(one) == {"record", "result"} and not list(validator.iter_errors(one))


def test_the_play_schema_refuses_a_match_with_a_field_missing_or_unknown() -> None:
    validator = Draft202012Validator(schema("play", tuple(GAMES.values())))
    match = json.loads(run_main(["play", "death", "--deals", "2", "--json", "--seed", "1"]).out)
    assert validator.is_valid(match)
    for field in ("deals", "wins", "scores", "totals"):
        assert not validator.is_valid({k: v for k, v in match.items() if k != field}), field
    assert not validator.is_valid({**match, "unknown": 1})
    assert not validator.is_valid({**match, "deals": []})
    deal = {k: v for k, v in match["deals"][0].items() if k != "record"}
    assert not validator.is_valid({**match, "deals": [deal]})
