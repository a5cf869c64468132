"""Fuzzing the command line: every subcommand, each of its arguments given a hostile value (and
sometimes given twice, after ``--``, or beside a stray word), run in this process. Every answer
is a success or one line with exit status 2, never a traceback or an internal error; and a few
of the issue's examples as real processes."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.core.inputs import parse_duration
from parlour.errors import ParlourError
from tests.fuzz.harness import (
    HUGE,
    assert_clean,
    count,
    hostile_number,
    hostile_text,
    run_main,
    run_process,
)

EXAMPLE_DEAL = "--Q-K--K-AQ-------J--A-J--/------Q-----JA---AKQ---K-J"


@dataclass(frozen=True)
class Slot:
    """An argument of a command: its flag (``""`` for a positional at ``index``) and kind."""

    flag: str
    kind: str  # "count", "duration", "text"
    index: int = -1


@dataclass(frozen=True)
class Command:
    name: str
    base: tuple[str, ...]
    slots: tuple[Slot, ...]


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """A record, a committed record and a lab run file for the commands to read."""
    folder = tmp_path_factory.mktemp("fuzz-files")
    record = folder / "record.json"
    record.write_text(
        json.dumps(
            {"format": 1, "game": "beor", "players": 2, "seed": 1, "options": {}, "actions": []}
        )
    )
    run_db = folder / "run.db"
    answer = run_main(
        [
            "lab",
            "run",
            "beor",
            "--agents",
            "random",
            "--games",
            "2",
            "--seed",
            "1",
            "--workers",
            "1",
            "--out",
            str(run_db),
            "--json",
        ]
    )
    assert answer.code == 0, answer.err
    return {"record": str(record), "run": str(run_db), "folder": str(folder)}


def commands(files: dict[str, str]) -> list[Command]:
    record, run_db = files["record"], files["run"]
    count_, text, dur = "count", "text", "duration"
    return [
        Command("games", ("games",), (Slot("--json", "flag"),)),
        Command("replay", ("replay", record), (Slot("", text, 1), Slot("--view", count_))),
        Command("schema", ("schema", "record"), (Slot("", text, 1),)),
        Command("verify", ("verify", record), (Slot("", text, 1),)),
        Command(
            # The record has no move: any budget judges nothing, so no fuzz input searches.
            "review",
            ("review", record, "--json"),
            (
                Slot("", text, 1),
                Slot("--seat", count_),
                Slot("--budget", text),
                Slot("--seed", count_),
                Slot("--threshold", text),
                Slot("--html", text),
            ),
        ),
        Command(
            "arena",
            (
                "arena",
                "beor",
                "--agents",
                "random,random",
                "--games",
                "1",
                "--workers",
                "1",
                "--seed",
                "1",
            ),
            (
                Slot("", text, 1),
                Slot("--players", count_),
                Slot("--agents", text),
                Slot("--games", count_),
                Slot("--seed", count_),
                Slot("--workers", count_),
                Slot("--options", text),
                Slot("--save", text),
            ),
        ),
        Command(
            "play",
            ("play", "beor", "--seat", "1=random", "--json", "--seed", "1"),
            (
                Slot("", text, 1),
                Slot("--players", count_),
                Slot("--seat", text),
                Slot("--seed", count_),
                Slot("--save", text),
                Slot("--resume", text),
                Slot("--delay", dur),
                Slot("--deal", text),
                Slot("--options", text),
                Slot("--card-limit", count_),
                Slot("--deals", count_),
            ),
        ),
        Command(
            "beggar play",
            ("beggar", "play", EXAMPLE_DEAL, "--json"),
            (
                Slot("", text, 2),
                Slot("--deal", text),
                Slot("--players", count_),
                Slot("--seed", count_),
                Slot("--deals", text),
                Slot("--card-limit", count_),
                Slot("--options", text),
                Slot("--unpaid-penalty", text),
            ),
        ),
        Command(
            "beggar stats",
            ("beggar", "stats", "--games", "20", "--seed", "1", "--workers", "1", "--json"),
            (
                Slot("--players", count_),
                Slot("--games", count_),
                Slot("--seed", count_),
                Slot("--engine", text),
                Slot("--workers", count_),
                Slot("--plot", text),
                Slot("--card-limit", count_),
                Slot("--options", text),
            ),
        ),
        Command(
            "beggar search",
            ("beggar", "search", "--deals", "50", "--seed", "1", "--workers", "1", "--json"),
            (
                Slot("--players", count_),
                Slot("--minutes", dur),
                Slot("--deals", count_),
                Slot("--seed", count_),
                Slot("--top", count_),
                Slot("--workers", count_),
                Slot("--strategy", text),
                Slot("--backend", text),
                Slot("--scheduler", text),
                Slot("--out", text),
                Slot("--card-limit", count_),
                Slot("--options", text),
            ),
        ),
        Command(
            "lab run",
            (
                "lab",
                "run",
                "beor",
                "--agents",
                "random",
                "--games",
                "1",
                "--seed",
                "2",
                "--workers",
                "1",
                "--json",
                "--out",
                str(Path(files["folder"]) / "fuzz-run.db"),
            ),
            (
                Slot("", text, 2),
                Slot("--players", count_),
                Slot("--agents", text),
                Slot("--games", count_),
                Slot("--seed", count_),
                Slot("--options", text),
                Slot("--backend", text),
                Slot("--scheduler", text),
                Slot("--workers", count_),
                Slot("--out", text),
            ),
        ),
        Command(
            "lab compare",
            (
                "lab",
                "compare",
                "beor",
                "--agents",
                "random",
                "--games",
                "1",
                "--seed",
                "2",
                "--workers",
                "1",
                "--json",
                "--variant",
                "plain:natural_win=false",
                "--out",
                str(Path(files["folder"]) / "fuzz-compare.db"),
            ),
            (
                Slot("", text, 2),
                Slot("--players", count_),
                Slot("--variant", text),
                Slot("--games", count_),
                Slot("--options", text),
                Slot("--workers", count_),
            ),
        ),
        Command(
            "lab report",
            ("lab", "report", run_db, "--json"),
            (Slot("", text, 2), Slot("--html", text)),
        ),
        Command(
            # The host is never a valid address here, so no server ever starts.
            "serve",
            ("serve", "--host", "256.0.0.1", "--db", str(Path(files["folder"]) / "s.db")),
            (
                Slot("--port", count_),
                Slot("--takeover", dur),
                Slot("--bot-delay", dur),
                Slot("--bot-workers", count_),
                Slot("--max-rooms", count_),
                Slot("--rate", count_),
                Slot("--allow-origin", text),
                Slot("--public-url", text),
                Slot("--trusted-proxy", text),
                Slot("--db", text),
            ),
        ),
    ]


def _never_a_long_duration(text: str) -> str:
    """A hostile duration that is valid becomes one that is not (no fuzz input searches for
    minutes)."""
    try:
        parse_duration(text, field="x", allow_zero=True)
    except ParlourError:
        return text
    return "inf"


WRITTEN = frozenset({"--save", "--out", "--plot", "--html", "--db", "--resume"})
"""The flags whose file a command may write (``--resume`` saves back into the game it reads)."""


def _stays_in_the_folder(name: str) -> bool:
    text = name.strip()
    return not text.startswith("/") or text == "/dev/null" or text.startswith("/proc/")


@st.composite
def mutated(draw: st.DrawFn, all_commands: list[Command]) -> tuple[str, list[str]]:
    command = draw(st.sampled_from(all_commands))
    argv = list(command.base)
    slot = draw(st.sampled_from(command.slots))
    if slot.kind == "flag":
        value = ""
    elif slot.kind == "count":
        value = draw(hostile_number())
    elif slot.kind == "duration":
        value = _never_a_long_duration(draw(hostile_number() | hostile_text()))
    elif slot.flag in WRITTEN:
        # Written files stay in the fuzzing folder: no absolute name outside it but the
        # places nothing can be made (/proc) and /dev/null (a device, refused).
        value = draw(hostile_text().filter(_stays_in_the_folder))
    else:
        value = draw(hostile_text())
    how = draw(st.sampled_from(["set", "set", "set", "twice", "after --", "stray"]))
    if slot.flag == "":
        if slot.index < len(argv):
            argv[slot.index] = value
        else:
            argv.append(value)
    elif slot.kind == "flag":
        argv.append(slot.flag)
    elif slot.flag in argv and how != "twice":
        argv[argv.index(slot.flag) + 1] = value
    else:
        argv += [slot.flag, value]
    if how == "twice" and slot.flag:
        argv += [slot.flag, value]
    elif how == "after --":
        argv += ["--", value]
    elif how == "stray":
        argv.insert(draw(st.integers(1, len(argv))), value)
    return command.name, argv


@contextlib.contextmanager
def inside(folder: str) -> Iterator[None]:
    """Run in ``folder``, which is also the home folder (``~``): a fuzzed file name lands
    there, never in the checkout or the user's home."""
    before, home = os.getcwd(), os.environ.get("HOME")
    os.chdir(folder)
    os.environ["HOME"] = folder
    try:
        yield
    finally:
        os.chdir(before)
        if home is None:
            del os.environ["HOME"]
        else:
            os.environ["HOME"] = home


def test_every_subcommand_with_hostile_arguments(
    files: dict[str, str], tmp_path_factory: pytest.TempPathFactory
) -> None:
    all_commands = commands(files)
    work = str(tmp_path_factory.mktemp("fuzz-cwd"))

    @given(mutated(all_commands))
    def check(case: tuple[str, list[str]]) -> None:
        name, argv = case
        count(f"command line: parlour {name}")
        with inside(work):
            answer = run_main(argv)
        assert_clean(answer)

    check()


def test_any_words_at_the_top_level(tmp_path_factory: pytest.TempPathFactory) -> None:
    work = str(tmp_path_factory.mktemp("fuzz-words"))

    @given(st.lists(hostile_text(), min_size=0, max_size=4))
    def check(words: list[str]) -> None:
        count("command line: any words")
        with inside(work):
            assert_clean(run_main(words))

    check()


@given(
    st.sampled_from(["replay", "verify", "play --resume", "beggar play --deals"]),
    st.sampled_from(["a\x00b", "\x00", "x.json\x00", ""]),
)
def test_a_nul_or_empty_file_name_is_one_line(command: str, name: str) -> None:
    """A NUL cannot come through a process's arguments, but it can through main()."""
    count("command line: NUL and empty file names")
    answer = run_main([*command.split(), name])
    assert answer.code == 2
    assert_clean(answer, allow_success=False)


# -- the issue's examples as real processes ---------------------------------------------------

PROCESS_EXAMPLES = [
    (["play", "beor", "--options", "max_turns=²", "--seat", "1=random", "--json"], "max_turns"),
    (["play", "beor", "--seat", "²=random"], "--seat"),
    (["replay", "RECORD", "--view", "²"], "--view"),
    (["replay", "RECORD", "--view", HUGE], "--view"),
    (
        ["play", "death", "--watch", "--players", "3", "--seat", "1=random", "--delay", "inf"],
        "--delay",
    ),
    (
        ["play", "death", "--watch", "--players", "3", "--seat", "1=random", "--delay", "nan"],
        "--delay",
    ),
    (["beggar", "search", "--minutes", "inf"], "--minutes"),
    (["play", "beor", "--players", "0", "--seat", "1=random", "--json"], "--players"),
    (["play", "beor", "--save", "", "--seat", "1=random", "--json"], "--save"),
    (["arena", "beor", "--agents", "random,heuristic", "--save", ""], "--save"),
    (["replay", "--json", "--", "-x/y.json"], "-x/y.json"),
    (["beggar", "play", "--deal", EXAMPLE_DEAL, "--deal", EXAMPLE_DEAL], "--deal"),
    (["replay", "DEEP"], "nests"),
]


@pytest.mark.parametrize(("argv", "names"), PROCESS_EXAMPLES, ids=lambda v: str(v)[:40])
def test_issue_examples_in_a_process(
    argv: list[str], names: str, files: dict[str, str], tmp_path: Path
) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 3000 + "]" * 3000)
    argv = [{"RECORD": files["record"], "DEEP": str(deep)}.get(a, a) for a in argv]
    count("command line: processes")
    answer = run_process(argv, timeout=60)
    assert answer.code == 2, answer.err
    assert_clean(answer, allow_success=False)
    assert len(answer.err.splitlines()) == 1
    assert names in answer.err


# -- every file name a command reads or writes, with every kind of bad path ---------------------

BAD_PATHS = [
    "WORK",
    ".",
    "..",
    "missing-folder/x.out",
    "/dev/null",
    "/proc/self/x.out",
    "/proc/self/status",
    "/proc/self/mem",
    "a\nb",
    "x" * 300,
    "d" * 200 + "/" + "e" * 200,
    "~nobody_here/x",
    "RECORD",
    "RUN",
    "RECORD/inside",
]
"""A folder (the fuzzing folder itself, by its absolute name), a missing folder, a device, a
place no file can be made, a file that is not of the
kind the command wants (a record where a run file goes, a run file where a record goes), a name
under a plain file, names too long for the system."""

PATH_COMMANDS = [
    ["replay", "PATH"],
    ["verify", "PATH"],
    ["review", "PATH", "--json"],
    ["review", "RECORD", "--json", "--html", "PATH"],
    ["play", "--resume", "PATH", "--json"],
    ["play", "beor", "--seat", "1=random", "--json", "--seed", "1", "--save", "PATH"],
    [
        "arena",
        "beor",
        "--agents",
        "random,heuristic",
        "--games",
        "1",
        "--workers",
        "1",
        "--seed",
        "1",
        "--save",
        "PATH",
    ],
    ["beggar", "play", "--deals", "PATH", "--json"],
    ["beggar", "stats", "--games", "10", "--workers", "1", "--seed", "1", "--plot", "PATH"],
    ["beggar", "search", "--deals", "20", "--workers", "1", "--seed", "1", "--out", "PATH"],
    [
        "lab",
        "run",
        "beor",
        "--agents",
        "random",
        "--games",
        "1",
        "--workers",
        "1",
        "--seed",
        "1",
        "--out",
        "PATH",
    ],
    [
        "lab",
        "compare",
        "beor",
        "--agents",
        "random",
        "--games",
        "1",
        "--workers",
        "1",
        "--variant",
        "v:natural_win=false",
        "--seed",
        "1",
        "--out",
        "PATH",
    ],
    ["lab", "report", "PATH"],
    ["lab", "report", "RUN", "--html", "PATH"],
    ["serve", "--host", "256.0.0.1", "--db", "PATH"],
]


def test_every_file_argument_with_every_bad_path(
    files: dict[str, str], tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Each command that reads or writes a file, given each kind of bad path: a result or one
    line with exit status 2, and a file it only reads is left as it was."""
    import shutil

    work = Path(tmp_path_factory.mktemp("fuzz-paths"))

    # Each pair runs a command: a fifth of the profile's examples (all pairs under make fuzz).
    @settings(max_examples=max(12, settings().max_examples // 5))
    @given(st.sampled_from(PATH_COMMANDS), st.sampled_from(BAD_PATHS))
    def check(command: list[str], bad: str) -> None:
        # Fresh copies: a command may rightly write over a file it was told to write.
        record = work / "record.json"
        run_db = work / "run.db"
        shutil.copy(files["record"], record)
        shutil.copy(files["run"], run_db)
        before = (record.read_bytes(), run_db.read_bytes())
        names = {"RECORD": str(record), "RUN": str(run_db), "WORK": str(work)}
        path = names.get(bad, bad.replace("RECORD", str(record)))
        argv = [path if a == "PATH" else names.get(a, a) for a in command]
        count("command line: bad file names")
        with inside(str(work)):
            assert_clean(run_main(argv))
        reads = ("replay", "verify", "review")
        only_reads = command[0] in reads or command[:2] == ["lab", "report"]
        if only_reads and "--html" not in command:
            assert (record.read_bytes(), run_db.read_bytes()) == before

    check()
