"""Every registered game's message catalogs: the same keys and placeholders in every language as
in English, every plural complete for its language, the rules sections numbered without gaps."""

from __future__ import annotations

import ast
import importlib.util
import json
import pickle
import re
from pathlib import Path

import pytest

from parlour.core.parts import part_file
from parlour.core.words import LANGUAGES, Entry, catalog, placeholders
from parlour.games import GAMES

PLURALS = {"en": {"one", "other"}, "nl": {"one", "other"}, "ro": {"one", "few", "other"}}
PREFIXES = ("event.", "refusal.", "rules.", "ui.", "game.")
REQUIRED = ("game.title", "game.summary", "rules.title", "rules.goal", "ui.notation")


def raw(game: str, lang: str) -> dict[str, Entry]:
    package = GAMES[game].parts.words
    found = part_file(package, f"{lang}.json")
    assert found is not None, f"{package} has no {lang}.json"
    data = json.loads(found)
    assert isinstance(data, dict)
    return data


def fields(entry: Entry) -> frozenset[str]:
    if isinstance(entry, str):
        return placeholders(entry)
    return frozenset().union(*(placeholders(form) for form in entry.values()))


def problems(english: dict[str, Entry], other: dict[str, Entry], lang: str) -> list[str]:
    """What is wrong with the catalog ``other`` of ``lang`` against the English one."""
    found = [f"missing {k}" for k in english.keys() - other.keys()]
    found += [f"extra {k}" for k in other.keys() - english.keys()]
    for key in english.keys() & other.keys():
        ours, theirs = english[key], other[key]
        if isinstance(ours, str) != isinstance(theirs, str):
            found.append(f"{key}: a plural in one language, a template in the other")
            continue
        if fields(ours) != fields(theirs):
            found.append(
                f"{key}: placeholders {sorted(fields(theirs))} against {sorted(fields(ours))}"
            )
        if not isinstance(theirs, str) and set(theirs) != PLURALS[lang]:
            wanted = sorted(PLURALS[lang])
            found.append(f"{key}: plural forms {sorted(theirs)}, {lang} has {wanted}")
    return sorted(found)


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalog_matches_english(game: str, lang: str) -> None:
    english = raw(game, "en")
    assert problems(english, raw(game, lang), lang) == []


@pytest.mark.parametrize("game", sorted(GAMES))
def test_keys_follow_the_convention(game: str) -> None:
    english = raw(game, "en")
    assert [k for k in english if not k.startswith(PREFIXES)] == []
    assert [k for k in REQUIRED if k not in english] == []
    for key, entry in english.items():
        if isinstance(entry, str):
            assert entry.strip(), key
            continue
        assert set(entry) == PLURALS["en"], key
        assert all(isinstance(form, str) and form for form in entry.values()), key
        assert "count" in fields(entry), f"{key}: a plural says its number as {{count}}"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_rules_sections_have_no_gaps(game: str) -> None:
    english = raw(game, "en")
    numbered = [k for k in english if k.startswith("rules.section.")]
    sections = sorted({int(k.split(".")[2]) for k in numbered})
    assert sections == list(range(1, len(sections) + 1)), sections
    for n in sections:
        assert f"rules.section.{n}.heading" in english
        items = sorted(
            int(m.group(1))
            for k in numbered
            if (m := re.fullmatch(rf"rules\.section\.{n}\.item\.(\d+)", k))
        )
        assert items and items == list(range(1, len(items) + 1)), (n, items)


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_entry_formats(game: str, lang: str) -> None:
    words = catalog(GAMES[game].parts.words, lang)
    for key, entry in raw(game, lang).items():
        values = {name: "X" for name in fields(entry) if name != "count"}
        for n in (0, 1, 2, 5, 20, 101):
            assert words(key, count=n, **values)


def test_the_check_finds_a_mismatch() -> None:
    plural = {"one": "{count}", "other": "{count}"}
    english: dict[str, Entry] = {"ui.a": "{player} wins", "ui.b": plural}
    wrong: dict[str, Entry] = {"ui.a": "{name} câștigă", "ui.b": plural}
    assert problems(english, wrong, "ro") == [
        "ui.a: placeholders ['name'] against ['player']",
        "ui.b: plural forms ['one', 'other'], ro has ['few', 'one', 'other']",
    ]
    assert problems(english, {"ui.a": "{player}"}, "nl") == ["missing ui.b"]


_KEY = re.compile(r"refusal\.[a-z0-9_.]+[a-z0-9_]")


def _refusal_keys(game: str) -> tuple[set[str], set[str]]:
    """The ``refusal.`` keys the game's own modules name: whole keys, and the fixed starts of
    keys made with an f-string (``f"refusal.fits.{base}"``)."""
    package = GAMES[game].parts.words.rpartition(".")[0]
    spec = importlib.util.find_spec(package)
    assert spec is not None and spec.submodule_search_locations, package
    keys: set[str] = set()
    starts: set[str] = set()
    for folder in spec.submodule_search_locations:
        for path in Path(folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.JoinedStr):
                    head = node.values[0] if node.values else None
                    if isinstance(head, ast.Constant) and str(head.value).startswith("refusal."):
                        starts.add(str(head.value))
                elif isinstance(node, ast.Constant) and _KEY.fullmatch(str(node.value)):
                    keys.add(str(node.value))
    return keys, starts


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_refusal_a_game_raises_is_in_its_catalogs(game: str) -> None:
    english = raw(game, "en")
    keys, starts = _refusal_keys(game)
    assert sorted(keys - english.keys()) == []
    for start in starts:
        assert any(k.startswith(start) for k in english), start


def test_the_refusals_made_from_parts_of_a_move_are_all_there() -> None:
    from parlour.games.beor.notation import BASES
    from parlour.games.death.notation import TABLE_REASONS

    beor, death = raw("beor", "en"), raw("death", "en")
    assert [b for b in BASES if f"refusal.fits.{b}" not in beor] == []
    for reason in TABLE_REASONS:
        assert f"refusal.penalty.majority.{reason}" in death
        assert f"refusal.penalty.one_drink.{reason}" in death


def test_a_refusal_carries_its_key_and_says_the_english_of_its_catalog() -> None:
    from parlour.errors import IllegalAction, InvalidNotation
    from parlour.games.death.sentences import said

    state = GAMES["death"].new(3, seed=1)
    with pytest.raises(IllegalAction) as refused:
        state.parse_action("give 3>P2")
    err = refused.value
    assert err.key == "refusal.give.none" and err.values == {}
    assert str(err) == catalog(GAMES["death"].parts.words, "en")(err.key)
    again = pickle.loads(pickle.dumps(err))
    assert (again.key, again.values, str(again)) == (err.key, err.values, str(err))
    sentence = pickle.loads(pickle.dumps(said("refusal.give.left", 2)))
    assert sentence == "only 2 drinks are left to give (G5)"
    assert (sentence.key, sentence.values) == ("refusal.give.left", {"count": 2})
    plain = InvalidNotation("no key")
    assert plain.key is None and plain.values == {} and plain.sentence == "no key"


@pytest.mark.parametrize("game", ["beor", "death"])
def test_a_card_that_is_no_card_is_said_in_the_games_words(game: str) -> None:
    # parse_card's refusal names refusal.card: the games that read cards at their table hold
    # it, its English exactly the message.
    from parlour.cards import parse_card
    from parlour.errors import InvalidNotation

    with pytest.raises(InvalidNotation) as refused:
        parse_card(" zz ")
    err = refused.value
    assert (err.key, err.values) == ("refusal.card", {"text": "'zz'"})
    words = GAMES[game].parts.words
    assert catalog(words, "en")("refusal.card", text=err.values["text"]) == str(err)
    assert "'zz' nu e o carte" in catalog(words, "ro")("refusal.card", text=err.values["text"])


# -- the sentences a game says: every said("refusal.KEY", ...) gives the key's placeholders ----


def _strings(node: ast.expr | None) -> list[str] | None:
    """The keys an expression may be: a string, an f-string's fixed start ending in ``.``
    (``f"refusal.fits.{base}"``: every key with that start), either arm of ``a if c else b``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr) and node.values:
        head = node.values[0]
        start = head.value if isinstance(head, ast.Constant) else None
        if isinstance(start, str) and start.endswith("."):
            return [f"{start}*"]
        return None
    if isinstance(node, ast.IfExp):
        body, orelse = _strings(node.body), _strings(node.orelse)
        return None if body is None or orelse is None else body + orelse
    return None


def _name_keys(function: ast.FunctionDef, name: str, tree: ast.Module) -> list[str] | None:
    """The keys the variable ``name`` of ``function`` may hold: what it is assigned, or as a
    parameter its default and what calls of ``function`` in the module pass for it."""
    found: list[str] = []
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == name for t in node.targets
        ):
            keys = _strings(node.value)
            if keys is None:
                return None
            found += keys
    params = function.args.args
    position = next((i for i, p in enumerate(params) if p.arg == name), None)
    if position is not None:
        defaults = function.args.defaults
        first_default = len(params) - len(defaults)
        if position >= first_default:
            found += _strings(defaults[position - first_default]) or []
        for call in ast.walk(tree):
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)):
                continue
            if call.func.id != function.name:
                continue
            passed = [kw.value for kw in call.keywords if kw.arg == name]
            if position < len(call.args):
                passed.append(call.args[position])
            for value in passed:
                keys = _strings(value)
                if keys is None:
                    return None
                found += keys
    return found or None


def said_calls(source: str) -> list[tuple[int, list[str] | None, frozenset[str]]]:
    """Each ``said(KEY, ...)`` of ``source``: its line, the keys it may say (``None``: not
    found out) and the placeholders it gives (its keywords; ``count`` when a number follows
    the key)."""
    tree = ast.parse(source)
    functions = [f for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)]
    calls: list[tuple[int, list[str] | None, frozenset[str]]] = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
            continue
        if node.func.id != "said" or not node.args:
            continue
        key = node.args[0]
        keys = _strings(key)
        if keys is None and isinstance(key, ast.Name):
            around = [f for f in functions if f.lineno <= node.lineno <= (f.end_lineno or 0)]
            keys = _name_keys(around[-1], key.id, tree) if around else None
        given = {kw.arg for kw in node.keywords if kw.arg is not None}
        given |= {"count"} if len(node.args) > 1 else set()
        calls.append((node.lineno, keys, frozenset(given)))
    return calls


def said_problems(source: str, english: dict[str, Entry]) -> list[str]:
    """What is wrong with the ``said`` calls of ``source`` against the English catalog: a key
    it does not hold, placeholders other than the key's, a key not found out."""
    found: list[str] = []
    for line, keys, given in said_calls(source):
        if keys is None:
            found.append(f"line {line}: the key is not a string the check can read")
            continue
        for key in keys:
            if key.endswith("*"):  # which one of the family a call says, the play decides
                family = {k: fields(e) for k, e in english.items() if k.startswith(key[:-1])}
                if given not in family.values():
                    says = sorted(sorted(f) for f in family.values())
                    found.append(f"line {line}: {key} gets {sorted(given)}, says {says}")
            elif key not in english:
                found.append(f"line {line}: no key {key}")
            elif fields(english[key]) != given:
                wanted = sorted(fields(english[key]))
                found.append(f"line {line}: {key} gets {sorted(given)}, says {wanted}")
    return found


def _game_sources(game: str) -> list[Path]:
    package = GAMES[game].parts.words.rpartition(".")[0]
    spec = importlib.util.find_spec(package)
    assert spec is not None and spec.submodule_search_locations, package
    return sorted(p for f in spec.submodule_search_locations for p in Path(f).rglob("*.py"))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_sentence_a_game_says_gets_its_placeholders(game: str) -> None:
    # Each said("refusal.KEY", ...) of the game's modules names a key of its English catalog
    # and gives exactly that key's placeholders (the other languages have the same ones:
    # test_catalog_matches_english), so it formats in every language the front ends speak.
    english = raw(game, "en")
    found: list[str] = []
    calls = 0
    for path in _game_sources(game):
        source = path.read_text(encoding="utf-8")
        calls += len(said_calls(source))
        found += [f"{path.name} {p}" for p in said_problems(source, english)]
    assert found == []
    if any(k.startswith("refusal.") for k in english):
        assert calls, f"{game} has refusals in its catalog but says none"


def test_the_sentence_check_finds_a_wrong_call() -> None:
    english: dict[str, Entry] = {
        "refusal.a": "{text} is no move",
        "refusal.b": {"one": "1 left", "other": "{count} left"},
        "refusal.fits.black": "{card} is red",
        "refusal.fits.red": "{card} is black ({rank})",
    }
    good = (
        'said("refusal.a", text=t)\n'
        'said(f"refusal.fits.{b}", card=c)\n'
        "said('refusal.b', n)\n"
        "def f(k='refusal.a'):\n    return said(k, text=t)\n"
    )
    assert said_problems(good, english) == []
    bad = (
        'said("refusal.a", card=t)\n'
        'said("refusal.c")\n'
        "said('refusal.b')\n"
        'said(f"refusal.fits.{b}", text=c)\n'
        "def g(k):\n    return said(k)\n"
        "def h(s, key='refusal.a'):\n    return said(key, text=s)\n"
        "h(1, key='refusal.d')\n"
    )
    assert said_problems(bad, english) == [
        "line 1: refusal.a gets ['card'], says ['text']",
        "line 2: no key refusal.c",
        "line 3: refusal.b gets [], says ['count']",
        "line 4: refusal.fits.* gets ['text'], says [['card'], ['card', 'rank']]",
        "line 6: the key is not a string the check can read",
        "line 8: no key refusal.d",
    ]
