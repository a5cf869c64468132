"""The JSON Schemas that ship with Parlour (``parlour schema NAME``) describe exactly what Parlour
writes: states and views of every game at every player count (each seat and the spectator),
actions in notation and as integers, log entries, records and ``parlour replay`` output; and each
schema refuses a document with one field missing or of the wrong type, so it can fail.

jsonschema takes milliseconds a document: validators are compiled once, and states are checked
at a spread of points of the shared conformance playouts and of a few games played to the ends
they would otherwise miss (a loop, a card limit, a draw, table entries).
"""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from functools import cache, reduce
from importlib import resources
from operator import getitem
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

import parlour
from parlour.cards import deck54
from parlour.cli import main
from parlour.core import JSON, InvalidOption, ParlourError, Record, State, TableEntry
from parlour.core.schema import schema, schema_name, schema_names
from parlour.games import GAMES
from tests.conformance.playouts import CASES, Case, case_id, playouts, seats, spread

GAME_LIST = tuple(GAMES.values())
NAMES = schema_names(GAME_LIST)
DRAFT = "https://json-schema.org/draft/2020-12/schema"
LOOP_DEAL = "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA"  # M10's known loop


@cache
def validator(name: str) -> Draft202012Validator:
    return Draft202012Validator(schema(name, GAME_LIST))


@cache
def id_validator(game: str) -> Draft202012Validator:
    """The integer form of the game's actions: ``$defs/id`` of its action schema."""
    return Draft202012Validator(schema(f"{game}-action", GAME_LIST)["$defs"]["id"])


def assert_valid(name: str, doc: JSON, where: str) -> None:
    errors = validator(name).iter_errors(doc)
    found = [f"{list(e.absolute_path)}: {e.message[:160]}" for e in errors]
    assert not found, f"{where} does not fit schema {name}: {found[:3]}"


def schema_file(name: str) -> Path:
    """The file of the schema ``name``: a game's from the package its parts record names."""
    for game in GAMES.values():
        if name.startswith(f"{game.name}-") and game.parts.schemas is not None:
            document = name.removeprefix(f"{game.name}-")
            return Path(str(resources.files(game.parts.schemas).joinpath(f"{document}.json")))
    return Path(parlour.__file__).parent / "core" / "schemas" / f"{name}.json"


def check_states(game: str, states: tuple[State, ...] | list[State], where: str) -> None:
    """The states at a spread of points (the last included) and every seat's view of them."""
    for i in spread(len(states), 6):
        state = states[i]
        assert_valid(f"{game}-state", state.to_json(), f"{where} state {i}")
        for seat in seats(state):
            assert_valid(f"{game}-view", state.view(seat).to_json(), f"{where} {i} seat {seat}")


def check_log(game: str, state: State, where: str) -> None:
    """The spectator's whole log and the end of seat 0's, and each step's text in the game's
    notation (an action, or a table entry)."""
    public = [entry.to_json() for entry in state.log(None)]
    assert_valid("log", public, f"{where} spectator's log")
    assert_valid("log", [e.to_json() for e in state.tail(0, 40)], f"{where} seat 0's log")
    for entry in public[1:]:
        kind = "action" if entry["kind"] == "action" else "table-entry"
        assert_valid(f"{game}-{kind}", entry["text"], f"{where} log entry {entry['index']}")


class TestFiles:
    @pytest.mark.parametrize("name", NAMES)
    def test_each_is_a_draft_2020_12_schema_and_read_as_the_file(self, name: str) -> None:
        data = json.loads(schema_file(name).read_text(encoding="utf-8"))
        Draft202012Validator.check_schema(data)
        assert data["$schema"] == DRAFT
        assert data["$id"].endswith(f"/{name}.json")
        assert data["title"] and data["description"]
        assert schema(name, GAME_LIST) == data

    def test_every_game_ships_its_documents_named_by_any_alias(self) -> None:
        assert NAMES[:3] == ("record", "log", "replay")
        for game in GAME_LIST:
            assert {f"{game.name}-{d}" for d in ("state", "view", "action")} <= set(NAMES)
            top = schema(f"{game.name}-action", GAME_LIST)["$defs"]["id"]
            assert top.get("maximum", top.get("const")) == game.info.num_distinct_actions - 1
            for alias in game.info.names:
                assert schema_name(f"{alias.upper()}-view ", GAME_LIST) == f"{game.name}-view"
        with pytest.raises(InvalidOption, match="death-view"):
            schema_name("death-hand", GAME_LIST)


@pytest.mark.parametrize("case", CASES, ids=case_id)
class TestPlayouts:
    def test_states_and_every_seats_views(self, case: Case) -> None:
        for p in playouts(case):
            check_states(case[0], p.states, case_id(case))

    def test_actions_in_notation_and_as_ids_and_the_log(self, case: Case) -> None:
        game = case[0]
        for p in playouts(case):
            texts = {str(a) for s in p.states for a in s.legal_actions()}
            ids = {i for s in p.states for i in s.legal_action_ids()}
            for text in sorted(texts):
                assert_valid(f"{game}-action", text, f"{case_id(case)} legal action")
            assert all(id_validator(game).is_valid(i) for i in ids)
            check_log(game, p.final, case_id(case))


def random_game(
    game: str, players: int, seed: int, options: dict[str, Any], deal: JSON = None
) -> tuple[list[State], Record]:
    """A game played at random to its end (Game of Death table entries now and then, G13)."""
    rng = random.Random(seed)
    state = GAMES[game].new(players, seed, options, deal)
    states, actions, table = [state], list[str](), list[TableEntry]()
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        if game == "death" and rng.random() < 0.1:
            shown = state.to_json()["hands"][seat][:1]
            entry = rng.choice(
                [f"doh P{seat + 1}", f"delay P{seat + 1}", *(f"illegal {c}" for c in shown)]
            )
            try:
                state = state.apply_table(entry, by=seat)
            except ParlourError:  # the card shown follows after all, or a give is owed
                continue
            table.append(TableEntry(len(actions), entry, seat))
        else:
            action = rng.choice(state.legal_actions())
            state = state.apply(action)
            actions.append(str(action))
        states.append(state)
    record = Record(game, players, seed, options, deal, tuple(actions), None, tuple(table))
    return states, record


ENDS: dict[str, tuple[str, int, dict[str, Any], str | None, str]] = {
    "beggar-loop": ("beggar", 2, {"unpaid_penalty": "capture"}, LOOP_DEAL, "loop"),
    "beggar-limit": ("beggar", 3, {"unpaid_penalty": "next_player", "card_limit": 60}, None,
                     "limit"),
    "beor-draw": ("beor", 3, {"max_turns": 40, "natural_win": False}, None, "draw"),
    "death-table": ("death", 4, {"sober": [2]}, None, "end"),
}  # fmt: skip


@cache
def ending(name: str) -> tuple[list[State], Record]:
    game, players, options, deal, _ = ENDS[name]
    return random_game(game, players, 3, options, deal)


@pytest.mark.parametrize("name", ENDS)
def test_games_played_to_their_other_ends(name: str) -> None:
    states, record = ending(name)
    game, result = ENDS[name][0], ENDS[name][4]
    outcome = states[-1].outcome
    assert outcome is not None and outcome.result == result
    check_states(game, states, name)
    check_log(game, states[-1], name)
    assert_valid("record", record.to_json(), f"{name} record")
    if game == "death":
        assert record.table, "the game made table entries"


class TestRecordsAndReplay:
    @pytest.mark.parametrize("game", sorted(GAMES))
    def test_play_json_writes_records(self, game: str, capsys: pytest.CaptureFixture[str]) -> None:
        argv = ["play", game, "--json", "--seed", "11"]
        if GAMES[game].info.decisions:
            argv += ["--players", "3", "--seat", "1=random", "--seat", "2=heuristic"]
            argv += ["--seat", "3=random"]
        assert main(argv) == 0
        record = json.loads(capsys.readouterr().out)["record"]
        assert_valid("record", record, f"parlour play {game} --json")
        assert "seats" in record or not GAMES[game].info.decisions

    @staticmethod
    def records() -> Iterator[tuple[str, dict[str, JSON], dict[str, JSON]]]:
        """Per game, records of a playout to its end and half way; a Death one with G13's."""
        for game in sorted(GAMES):
            p = playouts((game, GAMES[game].info.min_players))[0]
            actions = tuple(str(a) for a in p.actions)
            half = actions[: len(actions) // 2]
            whole = Record(game, p.players, p.seed, p.options, None, actions).to_json()
            yield game, whole, Record(game, p.players, p.seed, p.options, None, half).to_json()
        record = ending("death-table")[1]
        table = tuple(t for t in record.table if t.at <= 30)
        short = replace(record, actions=record.actions[:30], table=table)
        yield "death", record.to_json(), short.to_json()

    def test_replay_prints_states_and_views_that_fit(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """The command itself, run as people run it, prints whole states (--json) and views;
        the same code in this process shows each seat's view half way."""
        script = Path(sys.executable).with_name("parlour")
        command = [str(script)] if script.exists() else [sys.executable, "-m", "parlour"]
        runs, printed = [], []
        for k, (game, whole, half) in enumerate(self.records()):
            paths = (tmp_path / f"{k}-whole.json", tmp_path / f"{k}-half.json")
            for path, record in zip(paths, (whole, half), strict=True):
                assert_valid("record", record, f"record {path.name}")
                path.write_text(json.dumps(record), encoding="utf-8")
            flags = ["--json"] if k < len(GAMES) else ["--view", "0"]
            argv = [*command, "replay", str(paths[0]), *flags]
            runs.append((game, flags, subprocess.Popen(argv, stdout=subprocess.PIPE, text=True)))
            for seat in (None, *range(half["players"])):
                view = ["--view", "spectator" if seat is None else str(seat)]
                assert main(["replay", str(paths[1]), *view]) == 0
                printed.append((game, view, capsys.readouterr().out))
        for game, flags, run in runs:
            printed.append((game, flags, run.communicate(timeout=120)[0]))
            assert run.returncode == 0, (game, flags)
        for game, flags, out in printed:
            assert (len(out.splitlines()) == 1) == ("--json" in flags)
            document = "view" if "--view" in flags else "state"
            assert_valid("replay", json.loads(out), f"parlour replay {game} {flags}")
            assert_valid(f"{game}-{document}", json.loads(out)[document], f"replay {flags}")


def paths(node: JSON, deep: bool, at: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Where ``node`` holds a value: each key of each object, and (``deep``) the first item of
    each list and what lies under them."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield (*at, key)
            if deep:
                yield from paths(value, deep, (*at, key))
    elif isinstance(node, list) and node and deep:
        yield (*at, 0)
        yield from paths(node[0], deep, (*at, 0))


def changed(doc: JSON, path: tuple[Any, ...], remove: bool) -> JSON:
    """A copy of ``doc`` with the value at ``path`` removed, or of another JSON type."""
    out = copy.deepcopy(doc)
    parent, key = reduce(getitem, path[:-1], out), path[-1]
    if remove:
        del parent[key]
    else:
        parent[key] = 7 if isinstance(parent[key], str) else "wrong"
    return out


def richest(states: tuple[State, ...]) -> State:
    """Of a spread of states, the one whose JSON holds the most non-empty values."""

    def filled(node: JSON) -> int:
        if isinstance(node, dict | list):
            inside = list(node.values()) if isinstance(node, dict) else node[:1]
            return bool(node) + sum(filled(v) for v in inside)
        return node is not None

    return max((states[i] for i in spread(len(states), 8)), key=lambda s: filled(s.to_json()))


@cache
def samples() -> dict[str, tuple[str, JSON, bool]]:
    """By test id: a schema, a document of it, and whether every value within is typed."""
    found: dict[str, tuple[str, JSON, bool]] = {}
    for game in sorted(GAMES):
        state = richest(playouts((game, GAMES[game].info.min_players + 1))[0].states)
        found[f"{game}-state"] = (f"{game}-state", state.to_json(), True)
        for seat in (0, None):
            found[f"{game}-view-{seat}"] = (f"{game}-view", state.view(seat).to_json(), True)
    loops, looped = ending("beggar-loop")
    found["beggar-loop-state"] = ("beggar-state", loops[-1].to_json(), True)
    found["beggar-loop-view"] = ("beggar-view", loops[-1].view(None).to_json(), True)
    found["record-with-deal"] = ("record", looped.to_json(), False)
    states, record = ending("death-table")
    found["record-with-table"] = ("record", replace(record, seats=("random",) * 4).to_json(), False)
    found["log"] = ("log", [e.to_json() for e in states[-1].log(0)[1:3]], False)
    outcome = states[-1].outcome
    assert outcome is not None
    found["replay"] = ("replay", {
        "game": "death", "players": 4, "over": True, "to_move": None, "legal": [],
        "outcome": outcome.to_json(), "view": states[-1].view(1).to_json(),
    }, False)  # fmt: skip
    return found


SAMPLES = [f"{g}-{d}" for g in sorted(GAMES) for d in ("state", "view-0", "view-None")]
SAMPLES += ["beggar-loop-state", "beggar-loop-view", "record-with-deal", "record-with-table"]
SAMPLES += ["log", "replay"]


@pytest.mark.parametrize("sample", SAMPLES)
def test_each_schema_refuses_a_field_missing_or_of_the_wrong_type(sample: str) -> None:
    name, doc, deep = samples()[sample]
    assert_valid(name, doc, sample)
    v = validator(name)
    top = schema(name, GAME_LIST)
    entry = top["$defs"]["entry"] if name == "log" else top
    checked = 0
    for path in paths(doc[0] if name == "log" else doc, deep):
        where = (0, *path) if name == "log" else path
        assert not v.is_valid(changed(doc, where, remove=False)), f"{name} takes {path} mistyped"
        if isinstance(path[-1], str) and (deep or path[0] in entry["required"]):
            assert not v.is_valid(changed(doc, where, remove=True)), f"{name} takes {path} gone"
        checked += 1
    assert checked >= len(entry["required"])
    extra = copy.deepcopy(doc)
    (extra[0] if name == "log" else extra)["unknown"] = 1
    assert not v.is_valid(extra), f"{name} takes an unknown field"


# Texts that are not canonical actions; a game not listed is still checked for its whole codec.
BAD_ACTIONS = {
    "beor": ["10H>red", "7h>red", "7H>r", "7H>red/red", "5H>red/black", "5H>black", "KS>red",
             "JK3>odd", "7H>red/", " 7H>red", "pass"],
    "beggar": ["PLAY", "play ", "pass", ""],
    "death": ["10H", "th", "JK1", "give 0>P2", "give 21>P1", "give 3>P11", "give 3>p2", "doh P2"],
}  # fmt: skip


@pytest.mark.parametrize("game", sorted(GAMES))
def test_action_schemas_take_every_codec_action_and_refuse_others(game: str) -> None:
    info = GAMES[game].info
    v, ids = validator(f"{game}-action"), id_validator(game)
    for i in range(info.num_distinct_actions):
        assert ids.is_valid(i) and v.is_valid(str(GAMES[game].action_from_id(i))), i
    assert not ids.is_valid(info.num_distinct_actions) and not ids.is_valid(-1)
    assert not ids.is_valid("0") and not v.is_valid(0)
    for text in BAD_ACTIONS.get(game, ()):
        assert not v.is_valid(text), f"{game}-action takes {text!r}"


def test_beor_action_pattern_is_exactly_the_codec() -> None:
    """Every card on every base, drawing from every stock: the schema takes exactly the moves
    some position may allow (B4, B7), the ones with an integer id."""
    game = GAMES["beor"]
    codec = {str(game.action_from_id(i)) for i in range(game.info.num_distinct_actions)}
    bases = ("black", "even", "odd", "red")
    texts = {
        f"{c}>{b}{s}" for c in deck54() for b in bases for s in ["", *(f"/{x}" for x in bases)]
    }
    assert {t for t in texts if validator("beor-action").is_valid(t)} == codec


def test_death_table_entries() -> None:
    v = validator("death-table-entry")
    assert all(v.is_valid(t) for t in ("doh P1", "delay P10", "illegal 7H"))
    assert not any(v.is_valid(t) for t in ("doh 1>P2", "doh P11", "illegal JK1", "7H", 3))


def run_schema(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["schema", *argv])
    return code, *capsys.readouterr()


class TestCommand:
    @pytest.mark.parametrize("name", NAMES)
    def test_prints_the_schema_file(self, name: str, capsys: pytest.CaptureFixture[str]) -> None:
        on_file = json.loads(schema_file(name).read_text(encoding="utf-8"))
        for flags, one_line in (([], False), (["--json"], True)):
            code, out, _ = run_schema(capsys, name, *flags)
            assert code == 0 and json.loads(out) == on_file
            assert (len(out.splitlines()) == 1) == one_line

    def test_a_game_alias_names_the_games_schema(self, capsys: pytest.CaptureFixture[str]) -> None:
        _, out, _ = run_schema(capsys, "game-of-death-view", "--json")
        assert json.loads(out) == schema("death-view", GAME_LIST)

    @pytest.mark.parametrize("argv", [[], ["--list"]])
    def test_lists_the_names(self, argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
        code, out, _ = run_schema(capsys, *argv)
        assert code == 0 and [line.split()[0] for line in out.splitlines()] == list(NAMES)
        _, out, _ = run_schema(capsys, *argv, "--json")
        assert [item["name"] for item in json.loads(out)] == list(NAMES)

    @pytest.mark.parametrize("argv", [["beor-hand"], ["beor-view", "--list"]])
    def test_bad_input_is_one_line_and_exit_2(
        self, argv: list[str], capsys: pytest.CaptureFixture[str]
    ) -> None:
        code, out, err = run_schema(capsys, *argv)
        assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
        assert err.startswith("parlour schema: error: ") and "Traceback" not in err
        assert all(name in err for name in NAMES) or argv[0] != "beor-hand"

    def test_parlour_help_lists_it(self, capsys: pytest.CaptureFixture[str]) -> None:
        with pytest.raises(SystemExit) as stop:
            main(["--help"])
        assert stop.value.code == 0 and "schema" in capsys.readouterr().out
