"""The game from another distribution in every face of Parlour, found through its entry point
alone: ``parlour games``, ``arena``, ``lab run``, the bots, its words in three languages, and a
whole game at the terminal through a pseudo-terminal."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

from parlour.bots import make_agent
from parlour.core.present import Styled
from parlour.core.words import LANGUAGES, catalog, placeholders
from parlour.games import GAMES, load_games

GAME = GAMES["crazy-eights"]
WORDS = "parlour_crazy_eights.words"


def _parlour(*args: str, cwd: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "parlour", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_it_is_registered_through_its_entry_point() -> None:
    from importlib.metadata import entry_points

    (point,) = [p for p in entry_points(group="parlour.games") if p.name == "crazy-eights"]
    assert point.value == "parlour_crazy_eights.game:GAME"
    assert load_games((point,)) == {"crazy-eights": GAME}
    assert type(GAME).__module__ == "parlour_crazy_eights.game"


def test_parlour_games_lists_it(tmp_path: Path) -> None:
    games = json.loads(_parlour("games", "--json", cwd=tmp_path))
    (mine,) = [g for g in games if g["name"] == "crazy-eights"]
    assert mine["title"] == "Crazy Eights" and mine["aliases"] == ["crazy_eights", "eights"]
    assert (mine["min_players"], mine["max_players"]) == (2, 5)
    assert {o["name"]: o["default"] for o in mine["options"]} == {
        "max_draw_cards": 5,
        "max_turns": 100,
    }


def test_arena_plays_it(tmp_path: Path) -> None:
    out = json.loads(
        _parlour(
            "arena", "crazy_eights", "--agents", "heuristic,random", "--games", "12",
            "--players", "3", "--seed", "1", "--workers", "1", "--json", cwd=tmp_path,
        )
    )  # fmt: skip
    assert out["game"] == "crazy-eights" and out["games"] == 12
    text = json.dumps(out)
    assert "heuristic" in text and "random" in text


def test_lab_run_measures_it(tmp_path: Path) -> None:
    out = json.loads(
        _parlour(
            "lab", "run", "crazy-eights", "--agents", "heuristic", "--games", "12",
            "--seed", "2", "--workers", "1",
            "--json", "--out", str(tmp_path / "run.db"), cwd=tmp_path,
        )
    )  # fmt: skip
    assert out["game"] == "crazy-eights" and out["games"] == 12
    metrics = out["metrics"]
    assert 0 < metrics["length"]["value"] <= (GAME.info.max_game_length or 0)
    # The game's own figures (its figures part), after the lab's generic ones.
    ends = metrics["went_out"]["value"] + metrics["blocked"]["value"]
    assert ends + metrics["card_limit"]["value"] == pytest.approx(1.0)
    assert len(metrics["points"]) == 2 and metrics["draws"]["value"] > 0


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_the_levels_play_it(level: str) -> None:
    import random

    state = GAME.new(2, 5)
    agent = make_agent(level, GAME)
    rng = random.Random(5)
    for _ in range(6):
        mover = state.to_move
        assert mover is not None
        legal = state.legal_actions()
        state = state.apply(agent.choose(state.view(mover), legal, rng))
        if state.is_over:
            break


def test_the_heuristic_beats_random_play() -> None:
    import random

    heuristic, chance = make_agent("heuristic", GAME), make_agent("random", GAME)
    wins = 0.0
    for seed in range(60):
        state = GAME.new(2, seed)
        rng = random.Random(seed)
        agents = (heuristic, chance) if seed % 2 else (chance, heuristic)
        while (mover := state.to_move) is not None:
            state = state.apply(agents[mover].choose(state.view(mover), state.legal_actions(), rng))
        outcome = state.outcome
        assert outcome is not None
        wins += outcome.returns[agents.index(heuristic)]
    assert wins >= 40


def test_its_words_exist_in_every_language() -> None:
    """The same keys and placeholders in ro and nl as in English, and the catalog the game
    gives is its own."""
    english = catalog(WORDS, "en")
    assert GAME.words("en").entries == english.entries
    for lang in LANGUAGES:
        found = catalog(WORDS, lang)
        assert set(found.entries) == set(english.entries), lang
        for key, entry in english.entries.items():
            theirs = found.entries[key]
            assert type(theirs) is type(entry), (lang, key)
            mine_texts = [entry] if isinstance(entry, str) else list(entry.values())
            their_texts = [theirs] if isinstance(theirs, str) else list(theirs.values())
            wanted = set().union(*(placeholders(t) for t in mine_texts)) - {"count"}
            for text in their_texts:
                assert placeholders(text) - {"count"} <= wanted | {"count"}, (lang, key)
        if lang == "ro":
            assert found("ui.stock", count=20) == "Talon: 20 de cărți"
            assert found("ui.stock", count=3) == "Talon: 3 cărți"


def test_the_presenter_reads_a_draw_in_the_seats_language() -> None:
    view = GAME.new(2, 1).view(0)
    romanian = GAME.presenter.speaking(GAME.words("ro"))
    reply = romanian.read(view, "Trage")
    assert reply is not None and reply.actions == ("draw",)
    assert romanian.read(view, "7H") is None
    blocks = romanian.table(view, ["A", "B"], [])
    assert any("Talon: 37 de cărți" in b.plain for b in blocks if isinstance(b, Styled))


def _spawn(*args: str, cwd: Path) -> pexpect.spawn[str]:
    env = dict(os.environ, COLUMNS="120", LINES="50", TERM="xterm", NO_COLOR="1")
    return pexpect.spawn(
        sys.executable,
        ["-m", "parlour", "play", *args],
        cwd=str(cwd),
        env=env,
        encoding="utf-8",
        timeout=60,
        dimensions=(50, 120),
    )


@pytest.mark.slow
def test_a_whole_game_at_the_terminal_against_a_bot(tmp_path: Path) -> None:
    """A person picks the first move every time until the game is over, and the table shows
    the pile, the suit to follow, the moves and the result in the game's own words."""
    child = _spawn("crazy-eights", "--seed", "3", "--seat", "2=random", cwd=tmp_path)
    seen: list[str] = []
    for _ in range(500):
        index = child.expect([r"Player 1> ", r"Play another game\?[^\n]*\[y/N\]> "])
        seen.append(f"{child.before}{child.after}")
        if index == 1:
            child.sendline("n")
            break
        child.sendline("1")
    else:
        raise AssertionError("the game did not end")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    out = "".join(seen)
    assert "Crazy Eights" in out and "Discard pile:" in out and "Suit to follow:" in out
    assert "Your hand:" in out and re.search(r"1\)\s\S+", out)
    assert "Game over" in out and "points" in out
