"""The house rules of ARCHITECTURE.md that code review would otherwise have to catch: imports
point down the layers only, rules modules do no I/O, no code uses the global random state, no
module is over 400 lines, no game package has an import cycle, and outside ``games/`` nothing
knows a game by name (no comparisons with its name, no dicts keyed by it, no isinstance of its
State or View, no import of its modules; issue 11)."""

from __future__ import annotations

import ast
import importlib
from functools import cache, lru_cache
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "parlour"

# Lower number = lower layer; a module may import only its own layer or lower ones.
LAYERS = {
    "errors": 0,
    "cards": 0,
    "core": 1,
    "games": 2,
    "bots": 3,
    "lab": 4,
    "adapters": 4,
    "play": 5,
    "server": 5,
    "cli": 6,
    "__main__": 7,
}


def modules() -> list[Path]:
    return sorted(p for p in SRC.rglob("*.py"))


# A game package's face modules serve a higher layer and may import it (ARCHITECTURE.md, "Per
# game"): by module name (``games/NAME/features.py``) or by subpackage (``games/NAME/lab/``).
FACES = {"features": "adapters", "figures": "lab", "commands": "cli", "lab": "lab", "cli": "cli"}


@cache
def parsed(path: Path) -> ast.Module:
    """The syntax tree of the module at ``path``, parsed once for all the tests here (most of
    them read every module); no test changes a tree."""
    return ast.parse(path.read_text())


@cache
def walked(tree: ast.AST) -> tuple[ast.AST, ...]:
    """Every node of ``tree`` (``ast.walk``'s order), listed once: the tests here walk each
    module's tree several times, and walking was most of this file's processor time."""
    return tuple(ast.walk(tree))


def face_of(path: Path) -> str | None:
    """The layer a game's face module serves, or ``None`` for its rules modules and for every
    module outside ``games/``."""
    parts = path.relative_to(SRC).with_suffix("").parts
    if len(parts) < 3 or parts[0] != "games":
        return None
    return next((FACES[p] for p in parts[2:] if p in FACES), None)


def layer_of(path: Path) -> int:
    face = face_of(path)
    if face is not None:
        return LAYERS[face]
    top = path.relative_to(SRC).parts[0].removesuffix(".py")
    return LAYERS.get(top, 0) if top != "__init__" else 0


def imported(tree: ast.AST) -> list[str]:
    names: list[str] = []
    for node in walked(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
    return names


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(SRC)))
def test_imports_point_down(path: Path) -> None:
    own = layer_of(path)
    for name in imported(parsed(path)):
        if name.startswith("parlour."):
            target = name.split(".")[1]
            assert LAYERS.get(target, 0) <= own, f"{rel(path)} imports higher layer {name}"
            face = face_of(path)
            if face in ("lab", "adapters") and target in ("lab", "adapters"):
                assert target == face, f"{rel(path)} serves {face} but imports {name}"


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(SRC)))
def test_front_ends_do_not_import_each_other(path: Path) -> None:
    """ARCHITECTURE.md: the two front ends (play/, server/) never import each other."""
    top = path.relative_to(SRC).parts[0]
    if top not in ("play", "server"):
        return
    other = "server" if top == "play" else "play"
    for name in imported(parsed(path)):
        assert not name.startswith(f"parlour.{other}"), f"{path.name} imports {name}"


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(SRC)))
def test_no_global_random_state(path: Path) -> None:
    """RULINGS 'Common': randomness comes only from a seed; only random.Random instances."""
    for node in walked(parsed(path)):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "random"
        ):
            assert node.attr == "Random", f"{path.name} uses random.{node.attr}"
        if isinstance(node, ast.ImportFrom) and node.module in ("random", "numpy.random"):
            assert all(a.name == "Random" for a in node.names), f"{path.name}: {node.module}"


RULES_MODULES = [
    p
    for p in modules()
    if "games" in p.relative_to(SRC).parts[:1]
    and len(p.relative_to(SRC).parts) >= 3
    and face_of(p) is None
]


@pytest.mark.parametrize("path", RULES_MODULES, ids=lambda p: str(p.relative_to(SRC)))
def test_rules_do_no_io(path: Path) -> None:
    """ARCHITECTURE: rules modules do no I/O: no printing, no clock, no files."""
    tree = parsed(path)
    io = {"time", "os", "sys", "pathlib", "datetime"} & {n.split(".")[0] for n in imported(tree)}
    assert not io, f"{rel(path)} imports {', '.join(sorted(io))}"
    calls = {
        n.func.id for n in walked(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
    }
    calls &= {"print", "open", "input"}
    assert not calls, f"{rel(path)} calls {', '.join(sorted(calls))}"


# -- Contract 2: every game in its own package, known to nothing else by name (issue 11) ------

GAMES_DIR = SRC / "games"
MAX_LINES = 400


def game_packages() -> list[Path]:
    return sorted(p.parent for p in GAMES_DIR.glob("*/__init__.py"))


def outside_games() -> list[Path]:
    return [p for p in modules() if GAMES_DIR not in p.parents]


def rel(path: Path) -> str:
    return path.relative_to(SRC).as_posix()


@lru_cache(maxsize=1)
def game_names() -> frozenset[str]:
    """Every name and alias of every registered game, and every game package's name."""
    from parlour.games import GAMES

    names = {name for game in GAMES.values() for name in game.info.names}
    return frozenset(names | {p.name for p in game_packages()})


def import_targets(path: Path, tree: ast.AST, package: str | None = None) -> list[tuple[int, str]]:
    """Every module an import statement anywhere in the file names (``TYPE_CHECKING`` blocks
    and imports inside functions too), with its line; ``from P import N`` gives ``P.N`` too,
    since ``N`` may be a module."""
    package = package or ".".join(("parlour", *path.relative_to(SRC).parent.parts))
    found: list[tuple[int, str]] = []
    for node in walked(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                module = f"{base}.{node.module}" if node.module else base
            else:
                module = node.module or ""
            found.append((node.lineno, module))
            found += [(node.lineno, f"{module}.{a.name}") for a in node.names if a.name != "*"]
    return found


@pytest.mark.parametrize("path", modules(), ids=rel)
def test_no_module_over_400_lines(path: Path) -> None:
    """STYLE: 'a module over ~400 lines is asking to be split along a seam'."""
    lines = len(path.read_text().splitlines())
    assert lines <= MAX_LINES, f"{rel(path)} has {lines} lines; split it along a seam"


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module, or a module importing
    itself (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(edges[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                component.append(top)
                if top == node:
                    break
            if len(component) > 1 or node in edges[node]:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def package_imports(package: Path, prefix: str | None = None) -> dict[str, set[str]]:
    """Which of the package's modules each of its modules imports (``__init__`` for a name
    taken from the package itself). Naming the package alone adds no edge: importing any of
    its modules loads it first anyway, so ``from package import module`` depends on that
    module only."""
    prefix = prefix or ".".join(("parlour", *package.relative_to(SRC).parts))
    names = {p.stem for p in package.glob("*.py")}
    edges: dict[str, set[str]] = {}
    for path in sorted(package.glob("*.py")):
        edges[path.stem] = set()
        for _, target in import_targets(path, parsed(path), prefix):
            if target.startswith(prefix + "."):
                first = target.removeprefix(prefix + ".").split(".")[0]
                edges[path.stem].add(first if first in names else "__init__")
    return edges


def test_package_imports_follow_modules_and_names(tmp_path: Path) -> None:
    for name, text in {
        "__init__": "from pkg.x import X\n",
        "x": "from pkg import y\nX = 1\n",
        "y": "def f():\n    from pkg import X\n",
        "z": "from . import x\n",
    }.items():
        (tmp_path / f"{name}.py").write_text(text)
    edges = package_imports(tmp_path, "pkg")
    assert edges == {"__init__": {"x"}, "x": {"y"}, "y": {"__init__"}, "z": {"x"}}
    assert cycles(edges) == [["__init__", "x", "y"]]


@pytest.mark.parametrize("package", game_packages(), ids=lambda p: p.name)
def test_no_import_cycle_inside_a_game(package: Path) -> None:
    """ARCHITECTURE 'Per game': no import cycle, counting imports under TYPE_CHECKING and
    inside functions (either one only hides the cycle)."""
    found = cycles(package_imports(package))
    assert not found, f"games/{package.name}: import cycles among {found}"


def test_the_cycle_finder_finds_cycles() -> None:
    edges = {"rules": {"view"}, "view": {"rules"}, "notation": set(), "game": {"game"}}
    assert cycles(edges) == [["game"], ["rules", "view"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def names_a_game(node: ast.AST) -> str | None:
    """The game name ``node`` is (a string) or holds (a tuple, list or set of strings)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value if node.value.strip().lower() in game_names() else None
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return next((n for n in map(names_a_game, node.elts) if n is not None), None)
    return None


def game_name_uses(tree: ast.AST) -> list[str]:
    """Comparisons with a game's name, dicts keyed by game names, ``case "beor":``."""
    found: list[str] = []
    for node in walked(tree):
        if isinstance(node, ast.Compare):
            for side in (node.left, *node.comparators):
                if (name := names_a_game(side)) is not None:
                    found.append(f"line {node.lineno}: compares with {name!r}")
        elif isinstance(node, ast.Dict):
            for key in node.keys:
                if key is not None and (name := names_a_game(key)) is not None:
                    found.append(f"line {node.lineno}: a dict keyed by {name!r}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id == "dict":
                for word in node.keywords:
                    if word.arg is not None and word.arg in game_names():
                        found.append(f"line {node.lineno}: a dict keyed by {word.arg!r}")
        elif isinstance(node, ast.MatchValue) and (name := names_a_game(node.value)):
            found.append(f"line {node.lineno}: case {name!r}")
    return found


@pytest.mark.parametrize("path", outside_games(), ids=rel)
def test_no_game_known_by_name_outside_games(path: Path) -> None:
    """Issue 11: front ends, bots and the lab look a game's facts up (``game.info``, its
    strategy and presenter): no ``name == "death"``, no dict keyed by game names."""
    found = game_name_uses(parsed(path))
    found.sort(key=lambda text: int(text.split()[1].rstrip(":")))
    assert not found, f"{rel(path)}: " + "; ".join(found)


def test_game_name_uses_are_found() -> None:
    source = (
        'if game.name == "death": pass\n'
        'x = name in ("beor", "chess")\n'
        'BUDGET = {"beggar": 1, "other": 2}\n'
        "y = dict(beor=1)\n"
        'match name:\n    case "game-of-death": pass\n'
        'ok = {"game": "beor"}; fine = name == "deathly"\n'
    )
    found = game_name_uses(ast.parse(source))
    assert [f.split(":")[0] for f in found] == [f"line {n}" for n in (1, 2, 3, 4, 6)]


def resolved_names(tree: ast.AST) -> dict[str, str]:
    """What each imported local name stands for, as a dotted path."""
    names: dict[str, str] = {}
    for node in walked(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.asname:
                    names[a.asname] = a.name
                else:
                    names[a.name.split(".")[0]] = a.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for a in node.names:
                names[a.asname or a.name] = f"{node.module}.{a.name}"
    return names


def dotted(node: ast.AST, names: dict[str, str]) -> str | None:
    if isinstance(node, ast.Name):
        return names.get(node.id)
    if isinstance(node, ast.Attribute):
        base = dotted(node.value, names)
        return None if base is None else f"{base}.{node.attr}"
    return None


def is_game_state_or_view(target: str) -> bool:
    """Whether ``target`` (dotted) is a class of a game package deriving from State or View."""
    if not target.startswith("parlour.games.") or target.count(".") < 3:
        return False
    from parlour.core.game import State, View

    module, _, name = target.rpartition(".")
    found = getattr(importlib.import_module(module), name, None)
    return isinstance(found, type) and issubclass(found, State | View)


@pytest.mark.parametrize("path", outside_games(), ids=rel)
def test_no_isinstance_of_a_games_state_or_view(path: Path) -> None:
    """Issue 11: no isinstance of a concrete game's State or View outside its package (what a
    front end needs to draw a game comes from the game's presenter)."""
    tree = parsed(path)
    names = resolved_names(tree)
    found: list[tuple[int, str]] = []
    for node in walked(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("isinstance", "issubclass")
            and len(node.args) == 2
        ):
            kinds = node.args[1]
            for kind in kinds.elts if isinstance(kinds, ast.Tuple) else [kinds]:
                target = dotted(kind, names)
                if target is not None and is_game_state_or_view(target):
                    found.append((node.lineno, f"{node.func.id}(..., {target})"))
    assert not found, f"{rel(path)}: " + "; ".join(f"line {n}: {t}" for n, t in sorted(found))


def module_of(target: str) -> str:
    """The deepest module of ``parlour`` that a dotted import target names or lies in."""
    parts = target.split(".")
    while parts:
        place = SRC.parent.joinpath(*parts)
        if place.with_suffix(".py").exists() or (place / "__init__.py").exists():
            return ".".join(parts)
        parts.pop()
    return target


def game_imports(path: Path) -> list[tuple[int, str]]:
    """The game modules (``parlour.games.NAME`` and below) that the file imports, by line."""
    found = {
        (line, module_of(target))
        for line, target in import_targets(path, parsed(path))
        if target.startswith("parlour.games.")
    }
    return sorted((line, m) for line, m in found if m.count(".") >= 2)


@pytest.mark.parametrize("path", outside_games(), ids=rel)
def test_no_import_of_a_games_private_modules(path: Path) -> None:
    """A game's private modules (``_engine``, ``_bits`` ...) are its own: the other layers
    use its public face."""
    found = [
        f"line {line}: {target}"
        for line, target in game_imports(path)
        if any(part.startswith("_") for part in target.split(".")[3:])
    ]
    assert not found, f"{rel(path)} imports private modules: " + "; ".join(found)


@pytest.mark.parametrize("path", outside_games(), ids=rel)
def test_games_are_found_through_the_registry(path: Path) -> None:
    """Adding a game touches only its package and the list of games: outside ``games/``
    a game is found with ``parlour.games`` (``find_game``, ``GAMES``), never imported by
    name, without exception (a game's own commands and lab live in its package)."""
    found = [f"line {line}: {m}" for line, m in game_imports(path)]
    assert not found, f"{rel(path)} imports a game by name: " + "; ".join(found)
