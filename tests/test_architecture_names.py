"""Issue 25: no layer outside ``games/`` knows a game, in any file it ships.

``lab/``, ``adapters/``, ``server/`` (Python, JavaScript, JSON, CSS, HTML), ``play/``, ``cli/``,
``bots/`` and ``core/`` hold no game's name, alias or title, not even in a comment or a file
name, and there are no exemptions. The names come from the registry (every game the entry-point
group ``parlour.games`` finds, a game from another distribution included) and from the game
packages' folders. The scanner is checked on a planted tree: it must find a name planted in
``lab/``, ``server/static/`` and ``cli/``, or a clean house would prove nothing.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import pytest

from parlour.games import GAMES

SRC = Path(__file__).resolve().parents[1] / "src" / "parlour"
TEXT_SUFFIXES = {".py", ".js", ".mjs", ".css", ".json", ".html", ".svg", ".md", ".txt", ".toml"}
SHORTEST = 3  # an alias shorter than this would match ordinary words


@lru_cache(maxsize=1)
def game_terms() -> tuple[str, ...]:
    """Every registered game's name, aliases and title, and every game package's folder name,
    lower case, with ``-`` and ``_`` variants (``crazy-eights``, ``crazy_eights``, ``crazy
    eights``) and each word of a name of several words that is not an ordinary word."""
    terms: set[str] = {p.parent.name for p in (SRC / "games").glob("*/__init__.py")}
    for game in GAMES.values():
        for name in (*game.info.names, game.info.title):
            low = name.lower()
            terms |= {low, low.replace("-", "_"), low.replace("_", "-"), re.sub("[-_]", " ", low)}
        terms.add(re.split(r"[-_ ]", game.info.title.lower())[0])
    common = {"the", "game", "becker's", "a", "of"}
    return tuple(sorted(t for t in terms if len(t) >= SHORTEST and t not in common))


def mentions(root: Path, terms: tuple[str, ...]) -> list[str]:
    """``path:line: term`` for every mention of a term in a text file under ``root`` (but not
    under ``root/games``), and ``path: file name`` for a file named after a game."""
    pattern = re.compile("|".join(re.escape(t) for t in sorted(terms, key=len, reverse=True)), re.I)
    found: list[str] = []
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root)
        if not path.is_file() or relative.parts[0] == "games" or "__pycache__" in relative.parts:
            continue
        if (hit := pattern.search(relative.as_posix())) is not None:
            found.append(f"{relative.as_posix()}: file name ({hit.group(0).lower()})")
        if path.suffix not in TEXT_SUFFIXES:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if (hit := pattern.search(line)) is not None:
                found.append(f"{relative.as_posix()}:{number}: {hit.group(0).lower()}")
    return found


def test_the_names_come_from_the_registry() -> None:
    terms = game_terms()
    for game in GAMES.values():
        assert game.name in terms
    assert len(GAMES) >= 3


@pytest.mark.parametrize(
    "layer", ["core", "bots", "lab", "adapters", "play", "server", "cli", "top"]
)
def test_no_layer_outside_games_names_a_game(layer: str) -> None:
    """``grep -rilE '<names>' src/parlour --exclude-dir=games`` finds nothing, layer by layer
    (``top``: the modules beside the layers, such as ``cards.py`` and ``errors.py``)."""
    found = mentions(SRC, game_terms())
    if layer == "top":
        mine = [f for f in found if "/" not in f.split(":")[0]]
    else:
        mine = [f for f in found if f.startswith(f"{layer}/")]
    assert not mine, f"{layer}/ names a game:\n" + "\n".join(mine[:40])


@pytest.mark.parametrize(
    ("where", "text"),
    [
        ("lab/metrics_x.py", 'KIND = {"beor": 1}\n'),
        ("lab/report.py", "# Beggar-My-Neighbour's figures come first\n"),
        ("server/static/js/table.js", 'switch (game) { case "death": break; }\n'),
        ("server/static/app.css", ".board-beor .pile { color: red; }\n"),
        ("server/static/i18n/en.json", '{"ev.played": "plays", "title": "BEOR"}\n'),
        ("cli/common.py", 'if args.game == "game-of-death":\n    pass\n'),
        ("cli/beggar.py", "x = 1\n"),
    ],
)
def test_a_planted_name_is_found(tmp_path: Path, where: str, text: str) -> None:
    terms = ("beor", "death", "game-of-death", "beggar", "beggar-my-neighbour")
    clean = (tmp_path / where).with_name("clean" + Path(where).suffix)
    clean.parent.mkdir(parents=True)
    clean.write_text("value = 1\n")
    (tmp_path / "games" / "beor").mkdir(parents=True)
    (tmp_path / "games" / "beor" / "rules.py").write_text('NAME = "beor"\n')
    assert mentions(tmp_path, terms) == []
    clean.unlink()
    planted = tmp_path / where
    planted.write_text(text)
    found = mentions(tmp_path, terms)
    assert found and all(f.startswith(where) for f in found), found
