"""Issue 25, point 5: a light core install.

``pip install parlour`` brings the games, bots, records and the terminal (numpy, numba, rich);
the server, the lab, PostgreSQL and the learning adapters are extras. These tests run Parlour in
a new process where the extras' libraries cannot be imported (an import hook answers
``ModuleNotFoundError`` for them, as an install without them would), and check that the core
works there and that a command needing an extra says which one in one line, exit status 2.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from parlour.cli.extras import extra_for, missing_extra_message

EXTRAS_LIBRARIES = (
    "starlette", "uvicorn", "websockets", "segno", "scipy", "matplotlib", "distributed",
    "dask", "psycopg", "pettingzoo", "gymnasium", "pyspiel", "open_spiel", "torch",
    "stable_baselines3", "sb3_contrib", "prometheus_client",
)  # fmt: skip

BLOCKER = textwrap.dedent(
    """
    import sys
    from importlib.abc import MetaPathFinder

    BLOCKED = {blocked!r}

    class NotInstalled(MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in BLOCKED:
                raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
            return None

    sys.meta_path.insert(0, NotInstalled())
    """
)


def run_core(code: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a new interpreter that cannot import the extras' libraries."""
    script = BLOCKER.format(blocked=set(EXTRAS_LIBRARIES)) + textwrap.dedent(code)
    return subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300, check=False
    )


def parlour_core(*args: str) -> subprocess.CompletedProcess[str]:
    return run_core(f"from parlour.cli import main\nraise SystemExit(main({list(args)!r}))\n")


def test_the_games_import_without_the_extras_and_import_none_of_them() -> None:
    done = run_core(
        """
        import json, random
        import parlour.games
        from parlour.games import GAMES
        heavy = sorted({m.split(".")[0] for m in sys.modules} & BLOCKED)
        # a whole game of each, with random moves, on the core alone
        ends = {}
        for name, game in GAMES.items():
            state = game.new(game.info.default_players, 7)
            rng = random.Random(7)
            while not state.is_over:
                state = state.apply(rng.choice(state.legal_actions()))
            ends[name] = state.outcome.returns
        print(json.dumps({"heavy": heavy, "games": sorted(ends)}))
        """
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["heavy"] == []
    assert len(found["games"]) >= 3


def test_the_terminal_commands_work_on_the_core() -> None:
    listed = parlour_core("games", "--json")
    assert listed.returncode == 0, listed.stderr
    assert len(json.loads(listed.stdout)) >= 3


@pytest.mark.parametrize(
    ("args", "extra"),
    [
        (("serve", "--port", "0"), "serve"),
        (("lab", "run", "beor", "--agents", "random", "--games", "2", "--out", "{tmp}"), "lab"),
        (("lab", "report", "{tmp}"), "lab"),
        (("lab", "plan", "{tmp}", "--metric", "length", "--change", "0.25"), "lab"),
        (
            (
                "lab",
                "compare",
                "beor",
                "--agents",
                "random",
                "--variant",
                "v:max_turns=50",
                "--out",
                "{tmp}",
            ),
            "lab",
        ),
    ],
)
def test_a_command_needing_an_extra_names_it_in_one_line(
    args: tuple[str, ...], extra: str, tmp_path: Path
) -> None:
    done = parlour_core(*(a.format(tmp=tmp_path / "run.db") for a in args))
    assert done.returncode == 2, (done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert f"needs the '{extra}' extra" in lines[0]
    assert f"pip install 'parlour[{extra}]'" in lines[0]
    assert "Traceback" not in done.stderr


def test_the_extras_come_from_the_distribution_metadata() -> None:
    assert extra_for("starlette") == "serve"
    assert extra_for("scipy.stats") == "lab"
    assert extra_for("pyspiel") == "rl"
    assert extra_for("psycopg") == "postgres"
    assert extra_for("rich") is None  # the core
    err = ModuleNotFoundError("No module named 'matplotlib'", name="matplotlib")
    assert missing_extra_message(err) == (
        "this command needs the 'lab' extra (matplotlib is not installed): "
        "pip install 'parlour[lab]'"
    )
    assert missing_extra_message(ModuleNotFoundError("x", name="nothing_of_ours")) is None
