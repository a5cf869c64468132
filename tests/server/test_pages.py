"""The browser pages as files and as HTTP: served by the package itself (no other site, no build
step), with a Content-Security-Policy; invite QR codes; every word the pages show exists in
English, Romanian and Dutch with the same placeholders; every event the games log has words;
each game's board and catalogs served from its package at the addresses ``/api/games`` lists.

The pages themselves are driven in a real browser by ``tests/browser/``."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from parlour.core.parts import part_file
from parlour.games import GAMES
from parlour.games.death.events import Why
from parlour.server.app import STATIC, qr_rows
from parlour.server.bots import OFFERED
from parlour.server.protocol import REJECT_CODES
from tests.server.client import ServerProcess, create_room, http_get, http_post, running_server

LANGS = ("en", "ro", "nl")
JS = sorted((STATIC / "js").glob("*.js"))
BOARDS = {name: g.parts.board for name, g in GAMES.items() if g.parts.board is not None}


def board_js(name: str) -> str:
    raw = part_file(BOARDS[name], "board.js")
    assert raw is not None
    return raw.decode("utf-8")


def catalog_json(name: str, lang: str) -> dict[str, object]:
    raw = part_file(GAMES[name].parts.words, f"{lang}.json")
    assert raw is not None
    obj = json.loads(raw)
    assert isinstance(obj, dict)
    return obj


def load(path: Path) -> dict[str, object]:
    obj = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(obj, dict)
    return obj


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with running_server(tmp_path_factory.mktemp("pages") / "rooms.db") as server:
        yield server


class TestServed:
    @pytest.mark.parametrize("path", ["/", "/r/someroom"])
    def test_the_lobby_and_a_table_are_one_shell_with_a_strict_policy(
        self, server: ServerProcess, path: str
    ) -> None:
        response = http_get(server.url + path)
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/html")
        assert '<script type="module" src="/static/js/app.js">' in response.text
        policy = response.headers["content-security-policy"]
        assert "script-src 'self'" in policy and "default-src 'self'" in policy
        assert "unsafe" not in policy
        # Nothing is fetched from another site: every address in the shell is this server's.
        assert not re.search(r'(src|href)="(https?:)?//', response.text)

    def test_every_module_and_text_file_is_served_from_the_package(
        self, server: ServerProcess
    ) -> None:
        files = [p for p in STATIC.rglob("*") if p.is_file()]
        assert len(files) >= 15
        for path in files:
            rel = path.relative_to(STATIC).as_posix()
            response = http_get(f"{server.url}/static/{rel}")
            assert response.status_code == 200, rel
            assert response.content == path.read_bytes(), rel
            assert "content-security-policy" in response.headers
        assert (
            http_get(f"{server.url}/static/js/app.js")
            .headers["content-type"]
            .startswith(("text/javascript", "application/javascript"))
        )

    def test_no_module_imports_from_another_site(self) -> None:
        for path in JS:
            text = path.read_text(encoding="utf-8")
            for target in re.findall(r'from "([^"]+)"|import\("([^"]+)"\)', text):
                name = next(t for t in target if t)
                assert name.startswith("./"), f"{path.name} imports {name}"
                assert (path.parent / name).is_file(), f"{path.name} imports a missing {name}"

    def test_a_board_imports_only_the_pages_own_modules(self) -> None:
        for name in BOARDS:
            text = board_js(name)
            targets = re.findall(r'from "([^"]+)"|import\("([^"]+)"\)', text)
            assert targets, name
            for target in targets:
                module = next(t for t in target if t)
                assert module.startswith("/static/js/"), f"{name}'s board imports {module}"
                assert (STATIC / "js" / module.removeprefix("/static/js/")).is_file(), module

    def test_each_game_board_and_words_are_served_from_its_package(
        self, server: ServerProcess
    ) -> None:
        listed = {g["game"]: g for g in http_get(server.url + "/api/games").json()["games"]}
        assert set(listed) == set(GAMES)
        for name, game in GAMES.items():
            urls = listed[name]
            assert urls["words"] == {lang: f"/games/{name}/words/{lang}.json" for lang in LANGS}
            files = [(urls["words"][lang], game.parts.words, f"{lang}.json") for lang in LANGS]
            if game.parts.board is not None:
                assert urls["board"] == {
                    "js": f"/games/{name}/board.js",
                    "css": f"/games/{name}/board.css",
                }
                files += [(urls["board"][k], game.parts.board, f"board.{k}") for k in ("js", "css")]
            else:
                assert urls["board"] is None
            for url, package, file in files:
                response = http_get(server.url + url)
                assert response.status_code == 200, url
                assert response.content == part_file(package, file), url
                kind = {"js": "text/javascript", "css": "text/css", "json": "application/json"}
                assert response.headers["content-type"].startswith(kind[file.split(".")[-1]])
                assert "content-security-policy" in response.headers
                assert response.headers["cache-control"] == "no-cache"
                again = http_get(
                    server.url + url, headers={"If-None-Match": response.headers["etag"]}
                )
                assert again.status_code == 304 and again.content == b"", url

    def test_a_path_outside_the_pages_is_not_served(self, server: ServerProcess) -> None:
        name = sorted(GAMES)[0]
        for bad in (
            "/static/../app.py",
            "/static/%2e%2e/app.py",
            "/static/nothing.js",
            "/games/nogame/board.js",
            "/games/nogame/words/en.json",
            f"/games/{name}/__init__.py",
            f"/games/{name}/game.py",
            f"/games/{name}/words/fr.json",
            f"/games/{name}/words/__init__.py",
            f"/games/{name}/%2e%2e/game.py",
        ):
            assert http_get(server.url + bad).status_code == 404, bad

    def test_room_creation_answers_each_invite_as_a_qr_code(self, server: ServerProcess) -> None:
        body = {"game": "death", "players": 3, "seats": ["person", "person", "random"]}
        room = create_room(server.url, body)
        people = [s for s in room["seats"] if s["kind"] == "person"]
        assert len(people) == 2
        assert "qr" not in room["seats"][2]
        for rows in [s["qr"] for s in people] + [room["spectate_qr"]]:
            assert_qr(rows)
        assert people[0]["qr"] != people[1]["qr"]

    def test_seats_offer_the_difficulty_levels_and_never_the_oracle(
        self, server: ServerProcess
    ) -> None:
        games = {g["game"]: g for g in http_get(server.url + "/api/games").json()["games"]}
        for name in ("beor", "death"):
            assert games[name]["seat_kinds"] == ["person", "easy", "medium", "hard", "expert"]
        body = {"game": "death", "players": 2, "seats": ["person", "oracle"]}
        answer = http_post(server.url + "/api/rooms", json=body)
        assert answer.status_code == 400
        assert "for measurement only" in answer.text


def assert_qr(rows: list[str]) -> None:
    """A QR symbol: square, 21 + 4k modules, its three finder patterns in place."""
    n = len(rows)
    assert n >= 21 and (n - 21) % 4 == 0
    assert all(len(r) == n and set(r) <= {"0", "1"} for r in rows)
    finder = ["1111111", "1000001", "1011101", "1011101", "1011101", "1000001", "1111111"]
    for top, left in ((0, 0), (0, n - 7), (n - 7, 0)):
        assert [rows[top + i][left : left + 7] for i in range(7)] == finder


def test_qr_rows_hold_a_long_invite_link() -> None:
    link = "http://192.168.100.200:65535/r/" + "A" * 12 + "#t=" + "x" * 43
    assert_qr(qr_rows(link))
    assert len(qr_rows(link)) > len(qr_rows("http://a/"))


class TestWords:
    def test_romanian_and_dutch_have_every_english_key_with_its_placeholders(self) -> None:
        en = load(STATIC / "i18n" / "en.json")
        for lang in ("ro", "nl"):
            other = load(STATIC / "i18n" / f"{lang}.json")
            missing = [k for k in en if k not in other]
            assert not missing, f"{lang} lacks {missing}"
            for key, text in other.items():
                base = re.sub(r"\.(one|few|other)$", "", key)
                source = en.get(key, en.get(f"{base}.other", en.get(base)))
                assert source is not None, f"{lang} has an unknown key {key}"
                assert set(re.findall(r"\{\w+\}", str(text))) == set(
                    re.findall(r"\{\w+\}", str(source))
                ), f"{lang} {key}: {text!r} against {source!r}"
                assert text != "", f"{lang} {key} is empty"

    def test_the_languages_differ_where_people_read(self) -> None:
        words = {lang: load(STATIC / "i18n" / f"{lang}.json") for lang in LANGS}
        for key in ("lobby.create", "table.your_turn", "card.name", "lobby.commitment"):
            assert len({words[lang][key] for lang in LANGS}) == 3, key
        for name in GAMES:
            goals = {str(catalog_json(name, lang)["rules.goal"]) for lang in LANGS}
            assert len(goals) == 3, name

    def test_every_option_has_its_help_in_each_language(self) -> None:
        for name, game in GAMES.items():
            for lang in LANGS:
                words = catalog_json(name, lang)
                for option in game.info.options:
                    assert f"ui.option.{option.name}" in words, (name, lang, option.name)

    def test_every_literal_key_the_pages_use_has_english_words(self) -> None:
        en = load(STATIC / "i18n" / "en.json")
        pages = [path.read_text(encoding="utf-8") for path in JS]
        boards = {name: board_js(name) for name in BOARDS}
        used: set[str] = set()
        for text in [*pages, *boards.values()]:
            used |= set(re.findall(r'\bt\("([a-z_.0-9]+)"', text))
        assert len(used) > 80
        missing = sorted(
            k for k in used if k not in en and f"{k}.other" not in en and k not in ("", ".")
        )
        assert not missing
        for name, text in boards.items():
            catalog = catalog_json(name, "en")
            wanted = set(re.findall(r'\bw\("([a-z_.0-9]+)"', text))
            assert wanted, name
            assert sorted(wanted - set(catalog)) == [], name

    def test_no_page_file_names_a_game(self) -> None:
        for path in STATIC.rglob("*"):
            if path.is_file() and path.suffix in (".js", ".json", ".css", ".html"):
                text = path.read_text(encoding="utf-8").lower()
                for name in GAMES:
                    assert name not in text, f"{path.name} names {name}"

    def test_every_key_family_built_at_run_time_is_complete(self) -> None:
        en = load(STATIC / "i18n" / "en.json")
        kinds = ("person", *OFFERED, "random", "heuristic", "ismcts", "bot")
        wanted = [f"kind.{k}" for k in kinds]
        wanted += [f"rank.{r}" for r in "A23456789TJQK"] + [f"suit.{s}" for s in "SHDC"]
        wanted += [f"reject.{code}" for code in REJECT_CODES if code != "stale"]
        assert [k for k in wanted if k not in en] == []
        death = catalog_json("death", "en")
        assert [w for w in Why if f"ui.why.{w.name.lower()}" not in death] == []
        beor = catalog_json("beor", "en")
        assert [b for b in ("black", "even", "odd", "red") if f"ui.base.{b}" not in beor] == []


def logged_kinds(game_name: str, games: int) -> set[str]:
    game = GAMES[game_name]
    kinds: set[str] = set()
    rng = random.Random(3)
    options = {"card_limit": 400} if game_name == "beggar" else {}
    for seed in range(games):
        players = rng.randint(game.info.min_players, min(game.info.max_players, 5))
        state = game.new(players, seed, options)
        while not state.is_over:
            state = state.apply(rng.choice(state.legal_actions()))
        for entry in state.log(None, 0):
            kinds |= {e.kind for e in entry.events}
    return kinds


@pytest.mark.parametrize(("game", "games"), [("beor", 30), ("death", 20), ("beggar", 20)])
def test_every_event_the_games_log_is_put_into_words_by_the_page(game: str, games: int) -> None:
    """The table words each event from its data with the game's catalog (event.KIND, or a
    variant event.KIND.X its board chooses): an event kind without words would fall back to the
    server's English."""
    catalog = catalog_json(game, "en")
    known = {k.split(".")[1] for k in catalog if k.startswith("event.")}
    kinds = logged_kinds(game, games)
    assert len(kinds) >= 4
    assert kinds <= known, f"no words for {sorted(kinds - known)}"
