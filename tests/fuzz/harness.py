"""What the fuzzing tests share: hostile values, running ``parlour`` in-process or as a process,
the checks every answer must pass, and the count of inputs tried.

An answer passes when it is a success (exit status 0), or a refusal: exit status 2 with exactly
one line on standard error, starting with the command's name, and never a Python traceback. An
internal error (exit status 70, "internal error") is a failure of Parlour, found by fuzzing.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from hypothesis import strategies as st

from parlour.cli import main
from parlour.errors import ERROR_CODES, ParlourError

__all__ = [
    "COUNTS",
    "HOSTILE_NUMBERS",
    "HOSTILE_TEXTS",
    "Answer",
    "assert_clean",
    "count",
    "hostile_json",
    "hostile_number",
    "hostile_text",
    "refusal",
    "run_main",
    "run_process",
    "to_text",
]

COUNTS: Counter[str] = Counter()
"""Inputs tried, by kind (``cli play``, ``record field``, ``library parse_action``, ...)."""


def count(kind: str) -> None:
    COUNTS[kind] += 1


HUGE = "9" * 5000
HOSTILE_NUMBERS: tuple[str, ...] = (
    "²",
    "٣",
    "1²",
    "½",
    "-1",
    "-0",
    "0",
    "+1",
    "1_000",
    "1.5",
    "1e3",
    "1e999",
    "0x10",
    "inf",
    "-inf",
    "nan",
    "NaN",
    "Infinity",
    "",
    " ",
    "\t",
    "99999999999999999999999",
    HUGE,
    "-" + HUGE,
    "0" * 4410 + "1",
    "9223372036854775808",
    "18446744073709551616",
    "１",
    "1 2",
    "1\n",
)
"""Numbers as a hostile user writes them: other scripts' digits, signs, exponents, infinities,
empty, more digits than ``int()`` converts (real ones, or leading zeros before a 1), past 64
bits."""

HOSTILE_TEXTS: tuple[str, ...] = (
    "",
    " ",
    "\n",
    "-",
    "--",
    "-x/y.json",
    "--deal=x",
    "~",
    "~nobody_here/x",
    "/",
    ".",
    "..",
    "/dev/null",
    "/proc/self/mem",
    "a\nb",
    "\x1b[31mred",
    "é",
    "😀",
    "\u202e",
    "x" * 5000,
    "[" * 3000,
    "{",
    "null",
    "P0",
    "P99",
    "=",
    "==",
    "a=b=c",
    "1=",
    "=1",
    "person=1",
    "ismcts:infs",
    "ismcts:nans",
    "ismcts:1e999s",
    "ismcts:-1",
    "ismcts:0",
    "ismcts:99999999999",
    "random,random",
    ",",
    "random,,",
    "heuristic:x",
    *HOSTILE_NUMBERS,
)
"""Words as a hostile user writes them: empty, option-like, paths that are folders or devices,
control characters, right-to-left marks, very long, deep brackets, broken bot budgets."""


def hostile_number() -> st.SearchStrategy[str]:
    """A number-like word that must never be taken for a valid large count."""
    return st.sampled_from(HOSTILE_NUMBERS) | st.from_regex(
        r"\A[-+]?[0-9²³¹٠-٩０-９_.eE]{1,30}\Z"
    ).filter(lambda t: not (t.isascii() and t.isdigit() and int(t) > 64))


def hostile_text() -> st.SearchStrategy[str]:
    """Any word: the hostile ones, and arbitrary text (no NUL: a process cannot be given one)."""
    return st.sampled_from(HOSTILE_TEXTS) | st.text(
        st.characters(blacklist_categories=["Cs"], blacklist_characters="\x00"), max_size=40
    ).filter(lambda t: not (t.strip().isascii() and t.strip().isdigit()))


def hostile_json() -> st.SearchStrategy[object]:
    """JSON values of every kind, hostile ones among them: wrong types, huge and negative
    numbers, long and odd texts, nested containers."""
    leaves = (
        st.none()
        | st.booleans()
        | st.sampled_from([-1, 0, 1, 2, 3, 10**30, -(10**30), 2**63, 2**64])
        # More digits than int() converts to text; built by map so that hypothesis's repr of
        # the strategy never tries to print it.
        | st.just(5000).map(lambda digits: 10**digits)
        | st.integers(-(2**70), 2**70)
        | st.floats(allow_nan=False, allow_infinity=False)
        | st.sampled_from(HOSTILE_TEXTS)
        | st.text(max_size=20)
    )
    return st.recursive(
        leaves,
        lambda inner: (
            st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
        ),
        max_leaves=8,
    )


_HUGE_MARK = "\ue000huge\ue000"


def to_text(value: object) -> str:
    """JSON text of ``value``; a whole number too long for ``json.dumps`` (more than 4,300
    digits) is written out digit by digit, as a hostile file would hold it."""

    def mark(v: object) -> object:
        if isinstance(v, int) and not isinstance(v, bool) and v.bit_length() > 10_000:
            return _HUGE_MARK
        if isinstance(v, list):
            return [mark(x) for x in v]
        if isinstance(v, dict):
            return {k: mark(x) for k, x in v.items()}
        return v

    return json.dumps(mark(value)).replace(json.dumps(_HUGE_MARK), HUGE)


def refusal(call: Callable[[], object]) -> ParlourError | None:
    """The ParlourError ``call`` raises (checked to be one line with a known code), or None
    when it returns; any other exception propagates, failing the test."""
    caught: ParlourError | None = None
    try:
        call()
    except ParlourError as err:
        caught = err
    if caught is not None:
        assert caught.code in ERROR_CODES, caught
        assert "\n" not in str(caught) and len(str(caught)) < 2000, str(caught)[:2000]
    return caught


@dataclass(frozen=True)
class Answer:
    code: int
    out: str
    err: str
    argv: tuple[str, ...]


def run_main(argv: Sequence[str], stdin: str = "") -> Answer:
    """``parlour ARGV`` in this process, standard input ``stdin``; argparse's exits become
    their status."""
    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(list(argv))
            except SystemExit as exit_:
                code = exit_.code if isinstance(exit_.code, int) else 1
    finally:
        sys.stdin = old_stdin
    return Answer(code, out.getvalue(), err.getvalue(), tuple(argv))


def run_process(argv: Sequence[str], stdin: str = "", timeout: float = 120) -> Answer:
    """``python -m parlour ARGV`` as a separate process."""
    done = subprocess.run(
        [sys.executable, "-m", "parlour", *argv],
        input=stdin,
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": "100"},
        check=False,
        timeout=timeout,
    )
    return Answer(done.returncode, done.stdout, done.stderr, tuple(argv))


def assert_clean(answer: Answer, *, allow_success: bool = True) -> None:
    """A success or a one-line refusal with exit status 2; never a traceback or an internal
    error."""
    shown = f"parlour {' '.join(repr(a)[:80] for a in answer.argv)}"
    assert "Traceback" not in answer.err, f"{shown}: {answer.err[-2000:]}"
    assert "internal error" not in answer.err, f"{shown}: {answer.err}"
    if answer.code == 0 and allow_success:
        return
    assert answer.code == 2, f"{shown}: exit status {answer.code}: {answer.err[-1000:]}"
    lines = answer.err.splitlines()
    # Warnings a command prints before refusing (e.g. "--agents is not used") come first; the
    # refusal is the last line, one line, naming the command.
    assert lines, f"{shown}: exit status 2 without a word"
    assert lines[-1].startswith("parlour") and ": error: " in lines[-1], f"{shown}: {answer.err}"
