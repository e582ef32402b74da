"""The container image and the compose file an admin runs (docs/deploy.md, "A container"): the
image starts ``tablebank serve`` configured by environment variables that each name an option
of it, as a user that is not root, with the SQLite store in the folder its volume is, and a
HEALTHCHECK that asks ``/readyz``; the compose file runs that image on PostgreSQL with the
admin token as a secret. What the image's command does when run: tests/e2e/test_image.py.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
from pathlib import PurePosixPath
from unittest import mock
from urllib.parse import urlsplit

import pytest
from container import (
    COMPOSE,
    compose,
    exec_form,
    healthcheck_command,
    image,
    instructions,
    service_environment,
    stages,
)
from test_deploy import serve_options

from api import cli


def serve_arguments(command: list[str], environment: dict[str, str]) -> argparse.Namespace:
    """What ``tablebank serve`` makes of a container's command in its environment."""
    assert PurePosixPath(command[0]).name == "tablebank", command
    clean = {k: v for k, v in os.environ.items() if not k.startswith("TABLEBANK_")}
    with mock.patch.dict(os.environ, {**clean, **environment}, clear=True):
        parsed = cli.parser().parse_args(command[1:])
    assert parsed.command == "serve"
    return parsed


def test_the_image_is_built_in_two_stages_on_a_slim_debian() -> None:
    build, final = stages()
    assert build.base == final.base == "debian:bookworm-slim"
    assert final.copied_from == [build.name]  # the virtualenv, without the build's tools


def test_the_image_runs_tablebank_serve_on_all_addresses_of_port_8000() -> None:
    stage = image()
    assert stage.command == ["tablebank", "serve"]
    parsed = serve_arguments(stage.command, stage.env)
    assert (parsed.host, parsed.port) == ("0.0.0.0", 8000)  # published by the engine
    assert parsed.log_format == "json"


def test_the_images_environment_names_options_of_serve_only() -> None:
    options = serve_options()
    names = [name for name in image().env if name.startswith("TABLEBANK_")]
    assert names and all(name in options for name in names), names


def test_the_image_runs_as_a_user_that_is_not_root() -> None:
    user = image().user
    assert user not in (None, "", "root", "0") and not (user or "").startswith(("0:", "root:"))


def test_the_sqlite_store_is_in_the_folder_the_volume_is() -> None:
    stage = image()
    (volume,) = stage.volumes
    db = serve_arguments(stage.command, stage.env).db
    assert PurePosixPath(db).parent == PurePosixPath(volume) == PurePosixPath("/var/lib/tablebank")


def test_the_healthcheck_asks_readyz_on_the_port_the_server_listens_on() -> None:
    stage = image()
    command = healthcheck_command(stage.healthcheck)
    assert command[:2] == ["python3", "-c"]  # the slim image has no curl
    assert "/readyz" in command[2] and "TABLEBANK_PORT" in command[2]
    assert stage.healthcheck_options["timeout"] == "5s"  # /readyz's own bound is 2 s


def test_the_dockerfile_reader_reads_what_an_engine_would() -> None:
    text = (
        "ARG BASE=x:1\nFROM ${BASE} AS b\nFROM $BASE\n# c\nENV A=1 \\\n  B='two words'\n"
        'USER u\nVOLUME ["/v"]\nHEALTHCHECK --timeout=3s CMD ["p", "-c", "q"]\n'
        'ENTRYPOINT ["e"]\nCMD serve now\n'
    )
    assert [keyword for keyword, _ in instructions(text)][:3] == ["ARG", "FROM", "FROM"]
    first, last = stages(text)
    assert (first.base, first.name, last.base) == ("x:1", "b", "x:1")
    assert last.env == {"A": "1", "B": "two words"} and last.user == "u"
    assert last.volumes == ["/v"] and last.healthcheck == ["CMD", "p", "-c", "q"]
    assert last.healthcheck_options == {"timeout": "3s"}
    assert last.command == ["e", "/bin/sh", "-c", "serve now"]
    assert exec_form('["a", "b"]') == ["a", "b"]


def test_compose_runs_the_image_on_postgresql_with_the_admin_token_as_a_secret() -> None:
    services = compose()["services"]
    tablebank, postgres = services["tablebank"], services["postgres"]
    assert tablebank["build"]["context"] == ".."  # the Dockerfile at the checkout's top
    assert postgres["image"] == "postgres:15"
    assert tablebank["depends_on"]["postgres"]["condition"] == "service_healthy"
    environment = service_environment(tablebank)
    db = urlsplit(environment["TABLEBANK_DB"])
    assert (db.scheme, db.hostname, db.port, db.path) == (
        "postgresql",
        "postgres",
        5432,
        "/tablebank",
    )
    assert db.password is None  # it would show in `docker inspect`: a secret, by libpq
    assert environment["PGPASSFILE"] == "/run/secrets/pgpass"
    assert "pgpass" in tablebank["secrets"] and "admin-token" in tablebank["secrets"]
    assert environment["TABLEBANK_ADMIN_TOKEN_FILE"] == "/run/secrets/admin-token"
    assert set(compose()["secrets"]) == {"admin-token", "pgpass", "postgres-password"}
    assert postgres["environment"]["POSTGRES_PASSWORD_FILE"] == "/run/secrets/postgres-password"


def test_composes_environment_names_options_of_serve_only() -> None:
    options = serve_options()
    environment = service_environment(compose()["services"]["tablebank"])
    names = [name for name in environment if name.startswith("TABLEBANK_")]
    assert names and all(name in options for name in names), names
    parsed = serve_arguments(image().command, {**image().env, **environment})
    assert parsed.admin_token_file == "/run/secrets/admin-token"
    assert (parsed.proxy_hops, parsed.workers) == (1, 2)


def test_compose_restarts_the_server_checks_readyz_and_keeps_the_stores_on_volumes() -> None:
    loaded = compose()
    tablebank, postgres = loaded["services"]["tablebank"], loaded["services"]["postgres"]
    assert tablebank["restart"] == postgres["restart"] == "unless-stopped"
    assert healthcheck_command(tablebank["healthcheck"]["test"]) == healthcheck_command(
        image().healthcheck
    )
    assert "tablebank:/var/lib/tablebank" in tablebank["volumes"]
    assert "postgres:/var/lib/postgresql/data" in postgres["volumes"]
    assert set(loaded["volumes"]) == {"tablebank", "postgres"}
    # Published on loopback only: the players reach the TLS proxy, never the server itself.
    assert tablebank["ports"] == ["127.0.0.1:8000:8000"]


@pytest.mark.parametrize("name", ["TABLEBANK_HOST", "TABLEBANK_PORT", "TABLEBANK_DB"])
def test_each_of_the_images_settings_is_the_environments_not_the_commands(name: str) -> None:
    """The command names no option, so one ``-e`` or ``environment:`` entry changes one."""
    stage = image()
    assert not any(word.startswith("--") for word in stage.command)
    assert name in stage.env


def test_debians_docker_compose_accepts_the_compose_file() -> None:
    found = shutil.which("docker-compose")
    if found is None:
        reason = "docker-compose is not installed (apt-get install docker-compose)"
        if os.environ.get("TABLEBANK_REQUIRE_ALL") == "1":
            pytest.fail(f"{reason} (TABLEBANK_REQUIRE_ALL=1)", pytrace=False)
        pytest.skip(reason)
    # `config` reads and checks the file as `up` would, with no engine running (1.29 here:
    # Debian's, stricter than the plugin of Docker's own packages, which reads it too).
    done = subprocess.run(
        [found, "--file", str(COMPOSE), "config", "--quiet"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
