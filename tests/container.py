"""The container image's recipe and the compose file, read as an engine reads them: the
``Dockerfile``'s last stage (its ENV, USER, VOLUME, HEALTHCHECK, ENTRYPOINT and CMD) and
``deploy/compose.yaml``'s services. Shared by ``tests/test_container.py`` (what they say) and
``tests/e2e/test_image.py`` (what the image's command does when run).

Imported as ``from container import ...`` (pytest puts ``tests`` on the path).
"""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
DOCKERFILE = ROOT / "Dockerfile"
COMPOSE = ROOT / "deploy" / "compose.yaml"


@dataclass
class Stage:
    """One ``FROM`` of a Dockerfile and what its instructions set."""

    base: str
    name: str | None = None
    env: dict[str, str] = field(default_factory=dict)
    user: str | None = None
    volumes: list[str] = field(default_factory=list)
    healthcheck: list[str] = field(default_factory=list)  # ["CMD", ...] or ["NONE"]
    healthcheck_options: dict[str, str] = field(default_factory=dict)
    entrypoint: list[str] = field(default_factory=list)
    cmd: list[str] = field(default_factory=list)
    copied_from: list[str] = field(default_factory=list)  # COPY --from=STAGE

    @property
    def command(self) -> list[str]:
        """What a container of this stage runs: ENTRYPOINT, then CMD as its arguments."""
        return [*self.entrypoint, *self.cmd]


def instructions(text: str) -> list[tuple[str, str]]:
    """A Dockerfile's instructions, each (KEYWORD, its arguments), continuation lines joined
    and comments left out."""
    found: list[tuple[str, str]] = []
    pending = ""
    for line in text.splitlines():
        stripped = line.strip()
        if not pending and (not stripped or stripped.startswith("#")):
            continue
        if pending and stripped.startswith("#"):  # a comment inside a continued instruction
            continue
        if stripped.endswith("\\"):
            pending += stripped[:-1] + " "
            continue
        whole = pending + stripped
        pending = ""
        keyword, _, arguments = whole.partition(" ")
        found.append((keyword.upper(), arguments.strip()))
    return found


def exec_form(arguments: str) -> list[str]:
    """An instruction's command: its JSON array, or a shell form run by ``/bin/sh -c``."""
    if arguments.startswith("["):
        words = json.loads(arguments)
        assert isinstance(words, list) and all(isinstance(w, str) for w in words)
        return words
    return ["/bin/sh", "-c", arguments]


def options(arguments: str) -> tuple[dict[str, str], str]:
    """An instruction's leading ``--name=value`` options, and the rest."""
    found: dict[str, str] = {}
    rest = arguments
    while rest.startswith("--"):
        word, _, rest = rest.partition(" ")
        name, _, value = word[2:].partition("=")
        found[name] = value
        rest = rest.lstrip()
    return found, rest


def stages(text: str | None = None) -> list[Stage]:
    """Every stage of the Dockerfile, in order; ARG defaults substituted in FROM."""
    args: dict[str, str] = {}
    found: list[Stage] = []
    for keyword, arguments in instructions(DOCKERFILE.read_text() if text is None else text):
        if keyword == "ARG" and not found:
            name, _, default = arguments.partition("=")
            args[name] = default
        elif keyword == "FROM":
            _, rest = options(arguments)
            words = rest.split()
            base = words[0]
            for name, value in args.items():
                base = base.replace(f"${{{name}}}", value).replace(f"${name}", value)
            name = words[2] if len(words) == 3 and words[1].upper() == "AS" else None
            found.append(Stage(base=base, name=name))
        elif not found:
            continue
        elif keyword == "ENV":
            stage = found[-1]
            for word in shlex.split(arguments):
                key, _, value = word.partition("=")
                stage.env[key] = value
        elif keyword == "USER":
            found[-1].user = arguments
        elif keyword == "VOLUME":
            words = exec_form(arguments) if arguments.startswith("[") else arguments.split()
            found[-1].volumes.extend(words)
        elif keyword == "HEALTHCHECK":
            given, rest = options(arguments)
            found[-1].healthcheck_options = given
            if rest.upper() == "NONE":
                found[-1].healthcheck = ["NONE"]
            else:
                keyword_, _, command = rest.partition(" ")
                assert keyword_.upper() == "CMD", rest
                found[-1].healthcheck = ["CMD", *exec_form(command.strip())]
        elif keyword == "ENTRYPOINT":
            found[-1].entrypoint = exec_form(arguments)
            found[-1].cmd = []  # an ENTRYPOINT resets the CMD inherited before it
        elif keyword == "CMD":
            found[-1].cmd = exec_form(arguments)
        elif keyword == "COPY":
            given, _ = options(arguments)
            if "from" in given:
                found[-1].copied_from.append(given["from"])
    return found


def image() -> Stage:
    """The stage the image is: the Dockerfile's last."""
    return stages()[-1]


def compose() -> dict[str, Any]:
    """``deploy/compose.yaml`` as a mapping."""
    loaded = yaml.safe_load(COMPOSE.read_text())
    assert isinstance(loaded, dict)
    return loaded


def service_environment(service: dict[str, Any]) -> dict[str, str]:
    """A compose service's ``environment:``, mapping or ``KEY=value`` list, as strings."""
    given = service.get("environment") or {}
    if isinstance(given, list):
        return dict(item.split("=", 1) for item in given)
    return {key: "" if value is None else str(value) for key, value in given.items()}


def healthcheck_command(words: list[str]) -> list[str]:
    """The command a HEALTHCHECK (or a compose ``healthcheck.test``) runs: ``CMD`` words as
    they are, ``CMD-SHELL`` through ``/bin/sh -c``."""
    if words[0] == "CMD-SHELL":
        return ["/bin/sh", "-c", " ".join(words[1:])]
    assert words[0] == "CMD", words
    return words[1:]
