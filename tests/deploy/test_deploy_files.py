"""The deployment files (Dockerfile, .dockerignore, deploy/compose.yaml, deploy/Caddyfile,
deploy/parlour.service) agree with the code: every ``parlour serve`` option they use is one that
``parlour serve --help`` lists and that the real parser takes with its value, the image installs
extras that pyproject.toml defines, the unit runs Parlour's own command, and Caddy proxies to
the compose service that runs the server, on its port. No Docker here: the files are read, not
run (docs/hosts.md, development note)."""

from __future__ import annotations

import argparse
import importlib
import ipaddress
import re
import shlex
import subprocess
import sys
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from parlour.cli import _build_parser

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = ROOT / "Dockerfile"
DOCKERIGNORE = ROOT / ".dockerignore"
COMPOSE = ROOT / "deploy" / "compose.yaml"
CADDYFILE = ROOT / "deploy" / "Caddyfile"
UNIT = ROOT / "deploy" / "parlour.service"


@cache
def pyproject() -> dict[str, Any]:
    with (ROOT / "pyproject.toml").open("rb") as f:
        return tomllib.load(f)


@cache
def compose() -> dict[str, Any]:
    """The compose file as YAML (PyYAML comes with the docs extra, through mkdocs)."""
    yaml = importlib.import_module("yaml")
    data = yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))
    assert isinstance(data, dict), "compose.yaml is not a mapping"
    return data


@cache
def serve_help_options() -> frozenset[str]:
    """The options ``parlour serve --help`` lists, from the installed ``parlour`` script."""
    script = Path(sys.executable).with_name("parlour")
    done = subprocess.run(
        [str(script), "serve", "--help"], capture_output=True, text=True, timeout=60, check=True
    )
    return frozenset(re.findall(r"(?<![\w-])--[a-z][a-z-]*", done.stdout))


def dockerfile_json(instruction: str) -> list[str]:
    """The exec-form argument list of the Dockerfile's (last) ``instruction`` line."""
    found = re.findall(rf"^{instruction}\s+(\[.*\])\s*$", DOCKERFILE.read_text(), re.M)
    assert found, f"the Dockerfile has no {instruction} in exec form"
    words = re.findall(r'"((?:[^"\\]|\\.)*)"', found[-1])
    return words


def unit_values(key: str) -> list[str]:
    """Every value of ``key=`` in the unit's sections (comments skipped)."""
    values = []
    for line in UNIT.read_text(encoding="utf-8").splitlines():
        if line.startswith(("#", ";")) or "=" not in line:
            continue
        name, _, value = line.partition("=")
        if name.strip() == key:
            values.append(value.strip())
    return values


def unit_value(key: str) -> str:
    values = unit_values(key)
    assert len(values) == 1, f"the unit has {len(values)} {key}= lines, wanted one"
    return values[0]


EXAMPLE_ENV = {"PARLOUR_DOMAIN": "play.example.org", "POSTGRES_PASSWORD": "x"}
"""What deploy/.env holds on a host (docs/hosts.md)."""


def interpolated(word: str) -> str:
    """``word`` with compose's ``${NAME}``, ``${NAME:?message}``, ``${NAME:-default}`` filled
    in from :data:`EXAMPLE_ENV`, as ``docker compose`` does from deploy/.env."""
    return re.sub(r"\$\{(\w+)(?:[:?-][^}]*)?\}", lambda m: EXAMPLE_ENV[m[1]], word)


def compose_command() -> list[str]:
    command = compose()["services"]["parlour"]["command"]
    assert isinstance(command, list), "the parlour service's command is not a list"
    return [str(word) for word in command]


def compose_serve_argv() -> list[str]:
    return [interpolated(word) for word in compose_command()]


def unit_serve_argv() -> list[str]:
    argv = shlex.split(unit_value("ExecStart"))
    assert Path(argv[0]).name == "parlour", f"ExecStart runs {argv[0]}, not parlour"
    return argv[1:]


SOURCES = {
    "compose.yaml": compose_serve_argv,
    "Dockerfile CMD": lambda: dockerfile_json("CMD"),
    "parlour.service ExecStart": unit_serve_argv,
}


def option_value(argv: list[str], option: str) -> str:
    assert option in argv, f"{option} is not given"
    return argv[argv.index(option) + 1]


@pytest.mark.parametrize("source", SOURCES)
def test_every_serve_option_exists_and_parses(source: str) -> None:
    argv = SOURCES[source]()
    assert argv[0] == "serve", f"{source} runs parlour {argv[0]}, not parlour serve"
    used = {word.split("=")[0] for word in argv if word.startswith("--")}
    assert used, f"{source} gives parlour serve no option"
    unknown = used - serve_help_options()
    assert not unknown, f"{source} uses options parlour serve --help does not list: {unknown}"
    # The real parser takes them with their values (a bad value exits with status 2).
    args = _build_parser().parse_args(argv)
    assert isinstance(args, argparse.Namespace)
    assert args.command == "serve"
    # Behind a proxy or in a container, the server must listen where the proxy reaches it.
    assert args.host == ("127.0.0.1" if source.startswith("parlour.service") else "0.0.0.0")


def test_the_help_check_catches_an_unknown_option() -> None:
    """The option list is read from real help text: an option that does not exist is not in it
    (so the test above can fail), and one that does is."""
    options = serve_help_options()
    assert "--db" in options
    assert "--port" in options
    assert "--no-such-option" not in options


def test_dockerfile_installs_extras_that_exist_and_only_the_servers() -> None:
    text = DOCKERFILE.read_text(encoding="utf-8")
    extras_defined = set(pyproject()["project"]["optional-dependencies"])
    groups = re.findall(r"'\.?(?:parlour)?\[([^\]]+)\]'", text)
    assert len(groups) == 2, f"wanted the wheels built and installed with extras, got {groups}"
    assert len(set(groups)) == 1, f"the build and the install name other extras: {groups}"
    extras = {e.strip() for e in groups[0].split(",")}
    assert extras <= extras_defined, f"extras not in pyproject.toml: {extras - extras_defined}"
    # The server, and the PostgreSQL driver that compose.yaml's --db postgresql://... needs.
    assert extras == {"serve", "postgres"}
    postgres = pyproject()["project"]["optional-dependencies"]["postgres"]
    assert any(dep.startswith("psycopg") for dep in postgres)


def test_dockerfile_is_multi_stage_and_runs_as_a_user() -> None:
    text = DOCKERFILE.read_text(encoding="utf-8")
    stages = re.findall(r"^FROM\s+(\S+)", text, re.M)
    assert len(stages) >= 2, "the Dockerfile builds the wheel in a stage of its own"
    assert all("slim" in image for image in stages)
    users = re.findall(r"^USER\s+(\S+)", text, re.M)
    assert users, "the image runs as root"
    assert users[-1] not in {"root", "0"}
    assert dockerfile_json("ENTRYPOINT") == ["parlour"]
    scripts = pyproject()["project"]["scripts"]
    assert scripts["parlour"] == "parlour.cli:main"


def test_healthcheck_asks_an_endpoint_the_server_has() -> None:
    """A HEALTHCHECK, when the Dockerfile has one, asks a path the app routes."""
    text = DOCKERFILE.read_text(encoding="utf-8")
    checks = re.findall(r"^HEALTHCHECK\b.*?(?<!\\)$", text, re.M | re.S)
    paths = re.findall(r"127\.0\.0\.1:8000(/[a-z]+)", "".join(checks))
    app = (ROOT / "src" / "parlour" / "server" / "app.py").read_text(encoding="utf-8")
    for path in paths:
        assert f'"{path}"' in app, f"the HEALTHCHECK asks {path}, which the app does not route"


def test_dockerignore_keeps_what_the_dockerfile_copies() -> None:
    ignored = {
        line.strip()
        for line in DOCKERIGNORE.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    }
    copied = []
    for line in re.findall(r"^COPY\s+(?!--from)(.+)$", DOCKERFILE.read_text(), re.M):
        copied += line.split()[:-1]
    assert copied, "the Dockerfile copies nothing"
    for path in copied:
        assert (ROOT / path).exists(), f"the Dockerfile copies {path}, which does not exist"
        assert path not in ignored, f".dockerignore leaves out {path}, which the Dockerfile copies"
    # What must never reach the image: the virtual environment, the databases, the history.
    assert {".venv", ".git", "*.db", "*.db-wal"} <= ignored


def test_compose_services_volumes_and_database() -> None:
    data = compose()
    services = data["services"]
    assert set(services) == {"parlour", "db", "caddy"}
    # Only Caddy is published; Parlour and PostgreSQL are on the project's network alone.
    assert [name for name, s in services.items() if s.get("ports")] == ["caddy"]
    assert services["parlour"]["build"]["context"] == ".."
    assert (COMPOSE.parent / services["parlour"]["build"]["context"] / "Dockerfile").exists()
    # PostgreSQL keeps its data in a named volume.
    mounts = dict(m.split(":")[:2] for m in services["db"]["volumes"])
    assert mounts.get("pgdata") == "/var/lib/postgresql/data"
    assert "pgdata" in data["volumes"]
    # --db names the db service, its user and database, and no password.
    url = option_value(compose_serve_argv(), "--db")
    found = re.fullmatch(r"postgresql://(\w+)@(\w+)(?::(\d+))?/(\w+)", url)
    assert found, f"--db {url} is not postgresql://USER@HOST[:PORT]/DB without a password"
    user, host, _port, db = found.groups()
    env = services["db"]["environment"]
    assert (user, host, db) == (env["POSTGRES_USER"], "db", env["POSTGRES_DB"])
    assert "PGPASSWORD" in services["parlour"]["environment"]
    assert services["parlour"]["depends_on"]["db"]["condition"] == "service_healthy"


def test_forwarded_headers_are_believed_from_caddy_alone() -> None:
    data = compose()
    services = data["services"]
    argv = compose_serve_argv()
    trusted = [argv[i + 1] for i, word in enumerate(argv) if word == "--trusted-proxy"]
    caddy = services["caddy"]["networks"]["parlour"]["ipv4_address"]
    assert trusted == [caddy], f"--trusted-proxy {trusted}, Caddy is at {caddy}"
    subnet = ipaddress.ip_network(data["networks"]["parlour"]["ipam"]["config"][0]["subnet"])
    assert ipaddress.ip_address(caddy) in subnet


def test_public_url_is_the_name_caddy_serves() -> None:
    """Caddy serves HTTPS for the name in PARLOUR_DOMAIN; Parlour's --public-url (links and
    accepted pages) is https:// and that same name."""
    public = option_value(compose_command(), "--public-url")
    assert re.fullmatch(r"https://\$\{PARLOUR_DOMAIN(?::\?[^}]*)?\}", public), public
    sites = re.findall(r"^(\S.*?)\s*\{\s*$", CADDYFILE.read_text(encoding="utf-8"), re.M)
    assert sites == ["{$PARLOUR_DOMAIN}"], f"Caddy serves {sites}"
    unit = shlex.split(unit_value("ExecStart"))
    assert option_value(unit, "--public-url").startswith("https://")
    assert option_value(unit, "--trusted-proxy") == "127.0.0.1"


def test_caddy_proxies_to_the_parlour_service_and_its_port() -> None:
    text = CADDYFILE.read_text(encoding="utf-8")
    upstreams = re.findall(r"^\s*reverse_proxy\s+(\S+):(\d+)\s*$", text, re.M)
    assert len(upstreams) == 1, f"wanted one reverse_proxy HOST:PORT, got {upstreams}"
    host, port = upstreams[0]
    services = compose()["services"]
    assert host in services, f"Caddy proxies to {host}, which is no compose service"
    assert services[host]["command"][0] == "serve"
    assert port == option_value(compose_serve_argv(), "--port")
    # The site's name comes from the environment compose gives Caddy, and the file is mounted.
    for name in re.findall(r"\{\$(\w+)", text):
        assert name in services["caddy"]["environment"]
    assert "./Caddyfile:/etc/caddy/Caddyfile:ro" in services["caddy"]["volumes"]


def test_unit_runs_parlour_as_a_user_with_hardening() -> None:
    argv = shlex.split(unit_value("ExecStart"))
    assert Path(argv[0]).is_absolute(), "systemd wants ExecStart's program as an absolute path"
    assert unit_value("User") not in {"root", "0"}
    assert unit_value("Restart") == "on-failure"
    assert unit_value("KillSignal") == "SIGTERM"
    assert unit_value("NoNewPrivileges") == "yes"
    assert unit_value("ProtectSystem") == "strict"
    assert re.fullmatch(r"\d+s?", unit_value("TimeoutStopSec"))
    # ProtectSystem=strict makes everything read-only: the database must lie in a folder the
    # unit makes writable.
    db = Path(option_value(argv, "--db"))
    writable = [Path(p) for p in unit_values("ReadWritePaths")]
    writable += [Path("/var/lib") / p for p in unit_values("StateDirectory")]
    assert any(db.is_relative_to(w) for w in writable), f"{db} is not in {writable}"
    assert unit_values("MemoryDenyWriteExecute") in ([], ["no"]), "numba needs W+X memory"


def test_hosts_page_names_the_files_and_is_in_the_nav() -> None:
    page = (ROOT / "docs" / "hosts.md").read_text(encoding="utf-8")
    for name in ("Dockerfile", "deploy/compose.yaml", "deploy/Caddyfile", "deploy/parlour.service"):
        assert name in page, f"docs/hosts.md does not mention {name}"
    for command in ("pg_dump", "pg_restore", ".backup", "PRAGMA integrity_check"):
        assert command in page
    assert "hosts.md" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
