"""The house rules of ARCHITECTURE.md that code review would otherwise have to catch: imports
point down the layers only, rules modules do no I/O, and no code uses the global random state."""

from __future__ import annotations

import ast
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


def layer_of(path: Path) -> int:
    top = path.relative_to(SRC).parts[0].removesuffix(".py")
    return LAYERS.get(top, 0) if top != "__init__" else 0


def imported(tree: ast.AST) -> list[str]:
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
    return names


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(SRC)))
def test_imports_point_down(path: Path) -> None:
    own = layer_of(path)
    for name in imported(ast.parse(path.read_text())):
        if name.startswith("parlour."):
            target = name.split(".")[1]
            assert LAYERS.get(target, 0) <= own, f"{path.name} imports higher layer {name}"


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(SRC)))
def test_no_global_random_state(path: Path) -> None:
    """RULINGS 'Common': randomness comes only from a seed; only random.Random instances."""
    for node in ast.walk(ast.parse(path.read_text())):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "random"
        ):
            assert node.attr == "Random", f"{path.name} uses random.{node.attr}"
        if isinstance(node, ast.ImportFrom) and node.module in ("random", "numpy.random"):
            assert all(a.name == "Random" for a in node.names), f"{path.name}: {node.module}"


RULES_MODULES = [p for p in modules() if p.parent.parent.name == "games"]


@pytest.mark.parametrize("path", RULES_MODULES, ids=lambda p: str(p.relative_to(SRC)))
def test_rules_do_no_io(path: Path) -> None:
    """ARCHITECTURE: rules modules do no I/O: no printing, no clock, no files."""
    tree = ast.parse(path.read_text())
    assert not {"time", "os", "sys", "pathlib", "datetime"} & {
        n.split(".")[0] for n in imported(tree)
    }
    calls = {
        n.func.id
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
    }
    assert not {"print", "open", "input"} & calls
