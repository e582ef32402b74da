"""The container image serves a game end to end (docs/deploy.md, "A container").

- The image's own command, run here as a container would run it: the Dockerfile's ENTRYPOINT
  and CMD with its ENV (this checkout's ``tablebank``, a folder of the test as the volume),
  then compose's environment on PostgreSQL (its URL's form, the password from a pgpass file
  and the admin token from a file, as the secrets give them). ``/readyz`` answers 200, a game
  is created and a payment recorded over HTTP, and the HEALTHCHECK's own command passes against
  it (and fails once the server is gone).
- The image itself, built and run by podman from Debian (``.ci/run`` installs it) on a Debian
  base made with debootstrap, since no container registry is reachable here: the same checks,
  the store kept on its volume across a second container.
"""

from __future__ import annotations

import contextlib
import os
import resource
import shutil
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path, PurePosixPath
from urllib.parse import urlsplit, urlunsplit

import pytest
from container import ROOT, compose, healthcheck_command, image, service_environment
from server import TRANSPORT_ERRORS, Client, free_port
from stores import PostgresStore

pytestmark = pytest.mark.e2e

VOLUME = PurePosixPath("/var/lib/tablebank")  # the image's (tests/test_container.py)
START_TIMEOUT = 30.0  # seconds for a server to answer /readyz
POLL = 0.1
TOKEN = "t" * 40  # an admin token: 16 characters at least


def require(reason: str) -> None:
    """Skip for ``reason``, or fail where every test must run (``TABLEBANK_REQUIRE_ALL=1``)."""
    if os.environ.get("TABLEBANK_REQUIRE_ALL") == "1":
        pytest.fail(f"{reason} (TABLEBANK_REQUIRE_ALL=1)", pytrace=False)
    pytest.skip(reason)


def wait_ready(client: Client, alive: object = None) -> None:
    """Return once ``/readyz`` answers 200; fail past ``START_TIMEOUT``."""
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        with contextlib.suppress(*TRANSPORT_ERRORS):
            if client.call("GET", "/readyz", timeout=2).status == 200:
                return
        if time.monotonic() > deadline or (callable(alive) and not alive()):
            pytest.fail("the server did not become ready", pytrace=False)
        time.sleep(POLL)


def play(client: Client) -> dict:
    """A game created and a payment of 7 recorded over HTTP; the game as it is after."""
    created = client.call(
        "POST", "/api/v1/games", {"name": "club", "ruleset": "classic", "players": ["A", "B"]}
    )
    assert created.status == 201, created
    game = created.body
    paid = client.call(
        "POST",
        f"/api/v1/games/{game['id']}/transactions",
        {"type": "payment", "from": "bank", "to": "p1", "amount": 7},
        token=game["banker_token"],
    )
    assert paid.status == 201, paid
    assert paid.body["balances"]["p1"] == 1507  # 1,500 to start (classic) and the 7
    return game


def healthcheck(environment: dict[str, str]) -> int:
    """The image's HEALTHCHECK command run here (this Python for the image's ``python3``): its
    exit status."""
    command = healthcheck_command(image().healthcheck)
    assert command[0] == "python3"
    done = subprocess.run(
        [sys.executable, *command[1:]], env=environment, capture_output=True, timeout=30
    )
    return done.returncode


def base_environment() -> dict[str, str]:
    """This process's environment without any TABLEBANK_ or libpq setting of its own."""
    return {k: v for k, v in os.environ.items() if not k.startswith(("TABLEBANK_", "PG"))}


@contextlib.contextmanager
def entrypoint(environment: dict[str, str], log: Path) -> Iterator[Client]:
    """The image's ENTRYPOINT and CMD run with ``environment``, this checkout's ``tablebank``
    for the image's; a client of it once ``/readyz`` answers."""
    command = image().command
    assert command[0] == "tablebank"
    command = [str(Path(sys.executable).with_name("tablebank")), *command[1:]]
    client = Client(f"http://127.0.0.1:{environment['TABLEBANK_PORT']}")
    with log.open("ab") as out:
        process = subprocess.Popen(
            command, env=environment, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        wait_ready(client, lambda: process.poll() is None)
        yield client
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def in_folder(path: str, volume: Path) -> str:
    """An image's path under its volume, moved to ``volume`` here."""
    relative = PurePosixPath(path).relative_to(VOLUME)
    return str(volume / relative)


def test_the_images_command_serves_a_game_with_its_store_in_the_volume(tmp_path: Path) -> None:
    volume = tmp_path / "volume"
    volume.mkdir(mode=0o700)
    environment = {**base_environment(), **image().env}
    environment["PATH"] = os.environ["PATH"]  # the image's names /opt/tablebank/bin
    environment["TABLEBANK_DB"] = in_folder(environment["TABLEBANK_DB"], volume)
    environment["TABLEBANK_PORT"] = str(free_port())
    with entrypoint(environment, tmp_path / "server.log") as client:
        game = play(client)
        assert healthcheck(environment) == 0
    store = Path(environment["TABLEBANK_DB"])
    assert store.parent == volume and store.stat().st_size > 0
    assert store.stat().st_mode & 0o077 == 0  # only the image's user may read the games
    assert healthcheck(environment) != 0  # no server: the engine marks it unhealthy
    with entrypoint(environment, tmp_path / "server.log") as client:
        again = client.call("GET", f"/api/v1/games/{game['id']}", token=game["banker_token"])
        assert again.status == 200 and again.body["balances"]["p1"] == 1507


def test_composes_environment_serves_a_game_on_postgresql_with_its_secrets(
    postgres: PostgresStore, tmp_path: Path
) -> None:
    service = compose()["services"]["tablebank"]
    environment = {**base_environment(), **image().env, **service_environment(service)}
    environment["PATH"] = os.environ["PATH"]
    environment["TABLEBANK_PORT"] = str(free_port())
    db = postgres.new(durable=True)
    try:
        # Compose's URL with the test database's place, the password left out as compose does.
        given, test = urlsplit(environment["TABLEBANK_DB"]), urlsplit(db)
        assert given.password is None
        netloc = f"{test.username}@{test.hostname}:{test.port or 5432}"
        environment["TABLEBANK_DB"] = urlunsplit(
            given._replace(netloc=netloc, path=test.path, query=test.query)
        )
        secrets = tmp_path / "secrets"
        secrets.mkdir(mode=0o700)
        pgpass = secrets / "pgpass"
        line = f"{test.hostname}:{test.port or 5432}:{test.path.lstrip('/')}:{test.username}"
        pgpass.write_text(f"{line}:{test.password}\n")
        pgpass.chmod(0o600)  # libpq ignores a pgpass file others may read
        token = secrets / "admin-token"
        token.write_text(TOKEN + "\n")
        token.chmod(0o600)
        assert environment["PGPASSFILE"] == "/run/secrets/pgpass"
        assert environment["TABLEBANK_ADMIN_TOKEN_FILE"] == "/run/secrets/admin-token"
        environment["PGPASSFILE"] = str(pgpass)
        environment["TABLEBANK_ADMIN_TOKEN_FILE"] = str(token)
        with entrypoint(environment, tmp_path / "server.log") as client:
            game = play(client)
            assert healthcheck(environment) == 0
            listed = client.call("GET", "/api/v1/games", token=TOKEN)
            assert listed.status == 200, listed
            assert game["id"] in {each["id"] for each in listed.body["items"]}
            assert client.call("GET", "/api/v1/games").status == 401
    finally:
        postgres.drop(db)


# The image in podman -----------------------------------------------------------------------

BASE = "localhost/debian:bookworm-slim"
TAG = "localhost/tablebank:test"
BUILD_TAG = "localhost/tablebank-build:test"  # the Dockerfile's first stage
BUILD_TIMEOUT = 600  # seconds; the build took 47-90 s from nothing here, 5-35 s with its layers


def program(name: str) -> str | None:
    """Where a program is, on the PATH or in the folders root's programs are in."""
    return shutil.which(name) or shutil.which(name, path="/usr/sbin:/sbin")


def podman() -> list[str]:
    """podman, with runc where it is installed: crun refuses a host whose cgroups are hybrid
    (v1 controllers beside a v2 tree), as this kind of machine's are."""
    found = program("podman")
    if found is None:
        require("podman is not installed (apt-get install podman runc debootstrap)")
    assert found is not None
    return [found, "--runtime", "runc"] if program("runc") else [found]


def limits() -> list[str]:
    """This process's own limits for the container: podman's defaults (a million open files)
    are over the hard limits here, and raising one needs a capability the machine withholds."""
    _, files = resource.getrlimit(resource.RLIMIT_NOFILE)
    return ["--ulimit", f"nofile={files}:{files}", "--ulimit", "nproc=4096:4096"]


def run(command: list[str], timeout: float = 120) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{' '.join(command)}:\n{done.stdout}{done.stderr}"[-4000:]
    return done


def base_image(engine: list[str], work: Path) -> None:
    """A Debian bookworm to build ``FROM`` (the Dockerfile's BASE), made with debootstrap from
    Debian's packages when podman has none yet (no container registry is reachable)."""
    if subprocess.run([*engine, "image", "exists", BASE], capture_output=True).returncode == 0:
        return
    debootstrap = program("debootstrap")
    if debootstrap is None:
        require("debootstrap is not installed (apt-get install debootstrap)")
    assert debootstrap is not None
    root = work / "rootfs"
    run([debootstrap, "--variant=minbase", "bookworm", str(root)], timeout=BUILD_TIMEOUT)
    for left in ("var/cache/apt/archives", "var/lib/apt/lists", "usr/share/doc", "usr/share/man"):
        for each in (root / left).glob("*"):  # as Debian's slim image has none of these
            if each.is_file():
                each.unlink()
            elif each.is_dir():
                shutil.rmtree(each)
    tar = subprocess.Popen(["tar", "-C", str(root), "-c", "."], stdout=subprocess.PIPE)
    imported = subprocess.run(
        [*engine, "import", "-", BASE], stdin=tar.stdout, capture_output=True, timeout=300
    )
    assert tar.stdout is not None
    tar.stdout.close()
    assert tar.wait() == 0 and imported.returncode == 0, imported.stderr
    shutil.rmtree(root)


def build_options(work: Path) -> list[str]:
    """What the build's RUN steps need from this machine: its CA bundle for pip, where one is
    configured (an HTTPS proxy with a CA of its own stands between this machine and PyPI)."""
    bundle = next(
        (
            each
            for each in (
                os.environ.get("PIP_CERT"),
                os.environ.get("SSL_CERT_FILE"),
                "/etc/ssl/certs/ca-certificates.crt",  # Debian's, with the machine's own CAs
            )
            if each and Path(each).is_file()
        ),
        None,
    )
    if bundle is None:
        return []
    pip_conf = work / "pip.conf"
    pip_conf.write_text("[global]\ncert = /run/build-ca.crt\n")
    return ["-v", f"{bundle}:/run/build-ca.crt:ro", "-v", f"{pip_conf}:/etc/pip.conf:ro"]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """The image built from this checkout by podman; the podman command to run it with."""
    engine = podman()
    work = tmp_path_factory.mktemp("image")
    base_image(engine, work)
    common = ["--format=docker", "--network=host", *limits(), *build_options(work)]
    common += [f"--build-arg=BASE={BASE}"]  # docker: OCI's format has no HEALTHCHECK
    # The build stage under a name of its own, so that what the next build starts from is
    # kept by a tag, not only by the build cache; then the image, from that stage's layers.
    run(
        [*engine, "build", *common, "--target=build", f"--tag={BUILD_TAG}", str(ROOT)],
        timeout=BUILD_TIMEOUT,
    )
    run([*engine, "build", *common, f"--tag={TAG}", str(ROOT)], timeout=BUILD_TIMEOUT)
    # What earlier builds left and no tag holds now (the images these replace): a machine may
    # be kept for years.
    run([*engine, "image", "prune", "--force"])
    return engine


@contextlib.contextmanager
def container(engine: list[str], volume: str, port: int) -> Iterator[tuple[str, Client]]:
    """A container of the image on ``volume`` at ``port`` of this machine; its name and a
    client of it once ``/readyz`` answers."""
    name = f"tablebank-test-{uuid.uuid4().hex[:12]}"
    run(
        [
            *engine,
            "run",
            "--detach",
            f"--name={name}",
            "--network=host",  # no bridge to set up: the server binds this machine's port
            *limits(),
            f"--env=TABLEBANK_PORT={port}",
            f"--volume={volume}:{VOLUME}",
            TAG,
        ]
    )
    client = Client(f"http://127.0.0.1:{port}")
    try:
        wait_ready(client)
        yield name, client
    finally:
        stopped = subprocess.run([*engine, "rm", "--force", "--time=15", name], capture_output=True)
        assert stopped.returncode == 0, stopped.stderr


def test_the_image_built_by_podman_serves_a_game_and_keeps_it_on_its_volume(
    built: list[str],
) -> None:
    engine = built
    volume = f"tablebank-test-{uuid.uuid4().hex[:12]}"
    port = free_port()
    try:
        with container(engine, volume, port) as (name, client):
            game = play(client)
            checked = subprocess.run(
                [*engine, "healthcheck", "run", name], capture_output=True, text=True
            )
            assert checked.returncode == 0, checked.stderr  # the image's HEALTHCHECK
            user = run([*engine, "exec", name, "id", "-u"]).stdout.strip()
            assert user == "10001"
            listed = run([*engine, "exec", name, "ls", "-l", str(VOLUME)]).stdout
            assert "-rw------- 1 tablebank tablebank" in listed and "tablebank.sqlite" in listed
        with container(engine, volume, port) as (_, client):  # a new container, the same volume
            again = client.call("GET", f"/api/v1/games/{game['id']}", token=game["banker_token"])
            assert again.status == 200 and again.body["balances"]["p1"] == 1507
    finally:
        subprocess.run([*engine, "volume", "rm", "--force", volume], capture_output=True)
