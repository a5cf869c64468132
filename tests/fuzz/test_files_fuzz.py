"""Fuzzing what Parlour reads from files: records (``replay``, ``verify``, the library's
``replay_json``) and saved searches (``beggar search --out``), each mutated field by field
(every field given a hostile JSON value) and structurally (fields dropped or added, the text cut,
bytes changed, brackets nested). Every answer is a result or one line with exit status 2 (a
``ParlourError`` with its code from the library), never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.core.jsontext import parse_json
from parlour.errors import InvalidRecord
from parlour.games import GAMES, replay_json
from parlour.games.beggar.lab.search import SearchState, new_search, search_step
from tests.fuzz.harness import assert_clean, count, hostile_json, refusal, run_main, to_text


def _records() -> list[dict[str, object]]:
    """A short real record of every game, with the optional fields a record may carry."""
    out = []
    for game in GAMES.values():
        players = game.info.min_players + 1
        state = game.new(players, 7)
        actions: list[str] = []
        while not state.is_over and len(actions) < 12:
            action = state.legal_actions()[0]
            actions.append(str(action))
            state = state.apply(action)
        out.append(
            {
                "format": 1,
                "game": game.name,
                "players": players,
                "seed": 7,
                "options": {},
                "actions": actions,
                "seats": ["random"] * players,
                "commitment": "0" * 64,
            }
        )
    return out


RECORDS = _records()
FIELDS = [
    "format",
    "game",
    "players",
    "seed",
    "options",
    "deal",
    "actions",
    "table",
    "seats",
    "commitment",
    "deal_number",
]


@st.composite
def mutated_record(draw: st.DrawFn) -> tuple[str, str]:
    """(how it was mutated, the record's JSON text)."""
    record = json.loads(json.dumps(draw(st.sampled_from(RECORDS))))  # a copy
    how = draw(st.sampled_from(["field", "field", "item", "drop", "cut", "bytes", "nest", "wrap"]))
    if how == "field":
        record[draw(st.sampled_from(FIELDS))] = draw(hostile_json())
    elif how == "item" and record["actions"]:
        index = draw(st.integers(0, len(record["actions"]) - 1))
        record["actions"][index] = draw(hostile_json())
    elif how == "drop":
        record.pop(draw(st.sampled_from(sorted(record))))
    elif how == "nest":
        depth = draw(st.sampled_from([10, 70, 3000]))
        record[draw(st.sampled_from(FIELDS))] = json.loads(
            "[" * min(depth, 60) + "]" * min(depth, 60)
        )
        text = to_text(record)
        return how, text[:-1] + ', "x": ' + "[" * depth + "]" * depth + "}"
    text = to_text([record] if how == "wrap" else record)
    if how == "cut":
        text = text[: draw(st.integers(0, len(text)))]
    elif how == "bytes":
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.text(max_size=4)) + text[at + 1 :]
    return how, text


@given(mutated_record())
def test_library_reads_a_mutated_record_or_names_the_problem(case: tuple[str, str]) -> None:
    how, text = case
    count(f"record ({how}) through the library")
    refusal(lambda: replay_json(parse_json(text, error=InvalidRecord)))


def test_commands_read_a_mutated_record_or_name_the_problem(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    folder = tmp_path_factory.mktemp("fuzz-records")

    @given(
        mutated_record(),
        st.sampled_from(["replay", "replay --view 0", "verify", "play --resume --json"]),
    )
    def check(case: tuple[str, str], command: str) -> None:
        how, text = case
        count(f"record ({how}) through parlour {' '.join(command.split()[:2])}")
        path = folder / "record.json"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        words = command.split()
        at = 2 if words[:2] == ["play", "--resume"] else 1
        assert_clean(run_main([*words[:at], str(path), *words[at:]]))

    check()


# -- saved searches ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def saved_search() -> dict[str, object]:
    return search_step(new_search(2, 3, "random", None, 3), 300).to_json()


SEARCH_FIELDS = [
    "players",
    "seed",
    "strategy",
    "options",
    "top_k",
    "deals",
    "next_index",
    "top",
    "extended",
]
TOP_FIELDS = ["deal", "result", "cards", "tricks"]


def test_a_mutated_saved_search_is_read_or_refused(
    saved_search: dict[str, object], tmp_path_factory: pytest.TempPathFactory
) -> None:
    folder = tmp_path_factory.mktemp("fuzz-searches")

    @given(
        st.sampled_from(SEARCH_FIELDS + [f"top.{f}" for f in TOP_FIELDS]),
        hostile_json(),
        st.booleans(),
    )
    def check(field: str, value: object, through_command: bool) -> None:
        data = json.loads(json.dumps(saved_search))
        if field.startswith("top."):
            data["top"][0][field[4:]] = value
        else:
            data[field] = value
        if through_command:
            count("saved search through parlour beggar search")
            path = folder / "search.json"
            path.write_text(to_text(data))
            answer = run_main(
                [
                    "beggar",
                    "search",
                    "--out",
                    str(path),
                    "--deals",
                    "20",
                    "--workers",
                    "1",
                    "--json",
                ]
            )
            assert_clean(answer)
            if answer.code == 0:  # what was read and searched on is what the file said
                found = json.loads(answer.out)
                assert all(g["cards"] >= 0 for g in found["top"])
        else:
            count("saved search through the library")
            read: list[SearchState] = []
            if refusal(lambda: read.append(SearchState.from_json(data))) is None:
                state = read[0]
                assert 0 <= state.next_index < 2**63 and all(g.cards >= 0 for g in state.top)

    check()


@given(st.text(max_size=300))
def test_any_text_as_json(text: str) -> None:
    count("JSON text")
    refusal(lambda: parse_json(text))


def test_a_record_on_disk_is_never_changed_by_reading(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    text = json.dumps(RECORDS[0])
    path.write_text(text)
    for argv in (
        ["replay", str(path)],
        ["verify", str(path)],
        ["replay", str(path), "--view", "1"],
    ):
        run_main(argv)
    assert path.read_text() == text


# -- lab run files ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def run_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("fuzz-run") / "run.db"
    argv = [
        "lab",
        "run",
        "beor",
        "--agents",
        "random",
        "--games",
        "3",
        "--seed",
        "1",
        "--workers",
        "1",
        "--out",
        str(path),
        "--json",
    ]
    assert run_main(argv).code == 0
    return path


@st.composite
def mutated_run(
    draw: st.DrawFn, spec: dict[str, object], rows: list[dict[str, object]]
) -> tuple[str, str, int]:
    """(``"spec"`` or ``"row"``, the new JSON text, the row's index)."""
    where = draw(st.sampled_from(["spec", "row", "figure"]))
    index = draw(st.integers(0, len(rows) - 1))
    if where == "spec":
        changed: dict[str, object] = json.loads(json.dumps(spec))
        target = changed
    else:
        changed = json.loads(json.dumps(rows[index]))
        target = changed["figures"] if where == "figure" else changed  # type: ignore[assignment]
    key = draw(st.sampled_from([*sorted(target), "unknown"]))
    if draw(st.integers(0, 4)) == 0:
        target.pop(key, None)
    else:
        target[key] = draw(hostile_json())
    text = to_text(changed)
    if draw(st.integers(0, 9)) == 0:
        text = draw(st.sampled_from(["", "{", "[" * 3000, "null", "NaN", text[: len(text) // 2]]))
    return where, text, index


def test_a_mutated_run_file_is_reported_or_refused(
    run_file: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    import shutil
    import sqlite3

    with sqlite3.connect(run_file) as db:
        spec = json.loads(db.execute("SELECT spec FROM runs").fetchone()[0])
        rows = [json.loads(r) for (r,) in db.execute("SELECT row FROM games ORDER BY idx")]
    folder = tmp_path_factory.mktemp("fuzz-runs")

    # Each example copies and opens a SQLite file: a quarter of the profile's examples.
    @settings(max_examples=max(10, settings().max_examples // 4))
    @given(mutated_run(spec, rows), st.booleans())
    def check(case: tuple[str, str, int], resume: bool) -> None:
        where, text, index = case
        path = folder / "run.db"
        shutil.copy(run_file, path)
        with sqlite3.connect(path) as db:
            if where == "spec":
                db.execute("UPDATE runs SET spec = ?", (text,))
            else:
                db.execute("UPDATE games SET row = ? WHERE idx = ?", (text, index))
        db.close()
        if resume:
            count(f"run file ({where}) through parlour lab run")
            argv = [
                "lab",
                "run",
                "beor",
                "--agents",
                "random",
                "--games",
                "3",
                "--seed",
                "1",
                "--workers",
                "1",
                "--out",
                str(path),
                "--json",
            ]
        else:
            count(f"run file ({where}) through parlour lab report")
            argv = ["lab", "report", str(path), "--json"]
        assert_clean(run_main(argv))

    check()
