"""A page of curl examples replayed against the app, and what drifted (used by test_docs_replay).

A page (docs/api.md, docs/audit.md) is read as a terminal session: its ``sh`` blocks are the
commands, and the ``json`` and plain blocks after a ``sh`` block (up to the next ``sh`` block or
heading) show what they printed. The conventions, which the pages state in a comment at the top:

- Commands: ``curl`` (``-s``, ``-i``, ``-X``, ``-H``, ``-d`` or ``--data-binary`` with
  ``@file``, ``-o``), a function the page defines around it (``post() { curl … "$@"; }``),
  ``| jq …``, ``| grep …``, ``| tee file``, ``> file``, ``jq … file``, ``VAR=value``,
  ``VAR=$(jq -r FILTER file)``, ``tablebank verify|replay FILE`` and ``echo "exit $?"``. A block
  of anything else (``make run``) shows no output and is not run.
- Answers: a plain block starting ``HTTP/1.1`` is the status line and the headers that matter
  (others are not checked); a ``json`` block right under it is the body. The answers after a
  block of curls pair with them in order, and one answer after several curls is each one's. The
  output of ``jq``, ``grep``, ``tablebank`` and ``echo`` is compared as a terminal shows it: all
  that the block printed against all the blocks shown after it.
- ``…`` leaves things out: ``{"a": 1, …}`` may have more fields, ``[x, y, …]`` more items (those
  shown, in that order), ``"…"`` is any value and ``"in game …"`` any text. Without ``…`` an
  object has exactly the fields shown and a list exactly the items shown.
- Values that change with every run are shown as one run printed them and stand for what this
  run says: ids (UUIDs), hashes (64 hex digits), versions (16), tokens (43 characters of
  base64url), and times (RFC 3339, any time). A value is bound the first time it is seen; the
  same value later (in an answer, an ``If-Match``, a URL) must be the same, and two different
  values must differ.
- When an example runs: each game's examples in the order of its log, the games in the order the
  page creates them, then the examples about no game in page order. A request that records seq N
  runs when N is next; N comes from its answer (``"seq": N`` or a ``Location``) or from a
  ``# seq N`` comment (``# seq N: AMOUNT`` also checks the money its postings move), and such a
  request needs no answer shown. ``# after seq N`` runs an example right after seq N. Any other
  example of a game runs at the moment of the one before it on the page.
- An answer block with no command before it carries ``<!-- not replayed: why -->``.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import shlex
import subprocess
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient

ELLIPSIS = "\u2026"
_LEFT_OUT = "\u2026left out\u2026"  # a bare … as json reads it
NOT_REPLAYED = re.compile(r"<!--\s*not replayed:(.*?)-->")
SEQ_COMMENT = re.compile(r"#\s*(after )?seq (\d+)(?::\s*(\d+))?")
HEADING = re.compile(r"^#{1,6} ")
ASSIGNMENT = re.compile(r"(\w+)=(?:\$\(jq -r (\S+) (\S+)\)|(\S*))")
FUNCTION = re.compile(r"(\w+)\(\)\s*\{(.*)\}", re.S)
GAME_URL = re.compile(r"/games/\$\{?(\w+)")
# What prints a terminal's text rather than an HTTP answer.
TEXT_COMMANDS = ("jq", "grep", "tablebank", "echo")

# Values that change from run to run. A token may hold a run of 16 hex digits: tokens first.
SHAPES = {
    "uuid": r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
    "hash": r"[0-9a-f]{64}",
    "token": r"[A-Za-z0-9_-]{43}",
    "version": r"[0-9a-f]{16}",
    "time": r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z",
}
VARYING = re.compile(
    rf"(?P<uuid>\b{SHAPES['uuid']}\b)"
    rf"|(?P<hash>(?<![0-9a-f]){SHAPES['hash']}(?![0-9a-f]))"
    rf"|(?P<token>(?<![A-Za-z0-9_-]){SHAPES['token']}(?![A-Za-z0-9_-]))"
    rf"|(?P<version>(?<![0-9a-f]){SHAPES['version']}(?![0-9a-f]))"
    rf"|(?P<time>{SHAPES['time']})"
)


class Unreplayable(Exception):
    """A block the replay cannot read: the page must follow the conventions above."""


# --- Reading a page ---------------------------------------------------------------------------


@dataclass
class Block:
    lang: str  # "sh", "json" or "" (plain)
    text: str
    line: int  # of the opening fence, 1-based
    heading: str
    not_replayed: str | None = None
    under_previous: bool = False  # its fence opens on the line after the previous block's


def read_blocks(text: str) -> list[Block]:
    """The fenced blocks of a page, each with its heading and line."""
    blocks: list[Block] = []
    heading, skip, closed = "(top)", None, -2
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if HEADING.match(line):
            heading = line
        elif found := NOT_REPLAYED.search(line):
            skip = found[1].strip()
        elif line.startswith("```"):
            start, body = i, []
            i += 1
            while i < len(lines) and not lines[i].startswith("```"):
                body.append(lines[i])
                i += 1
            lang = line[3:].strip()
            blocks.append(
                Block(lang, "\n".join(body), start + 1, heading, skip, start == closed + 1)
            )
            skip, closed = None, i
        i += 1
    return blocks


@dataclass
class Command:
    """One command of a ``sh`` block, shell variables unexpanded."""

    text: str
    line: int
    words: list[str]  # the first stage, the page's functions expanded
    pipes: list[list[str]]
    redirect: str | None
    after: int | None = None  # "# after seq N"
    records: int | None = None  # "# seq N"
    moves: int | None = None  # "# seq N: AMOUNT"

    @property
    def definition(self) -> bool:
        return bool(ASSIGNMENT.fullmatch(self.text) or FUNCTION.fullmatch(self.text))

    @property
    def prints(self) -> bool:
        """Whether what it prints is on the page: not a definition, a redirection or ``make``."""
        return not (
            self.definition
            or self.redirect
            or "-o" in self.words
            or self.records is not None
            or self.words[:1] == ["make"]
        )

    @property
    def prints_text(self) -> bool:
        return any(stage[:1] and stage[0] in TEXT_COMMANDS for stage in [self.words, *self.pipes])


def split_commands(block: Block) -> Iterator[tuple[str, str, int]]:
    """(command, its comment, line): unquoted newlines and ``;`` end a command; ``\\``, quotes
    and a function's braces carry it on."""
    text, line = block.text, block.line + 1
    current: list[str] = []
    comment: list[str] = []
    quote, depth, start = "", 0, line
    i = 0
    while i < len(text):
        ch = text[i]
        if quote:
            current.append(ch)
            if ch == quote:
                quote = ""
            line += ch == "\n"
        elif ch == "\\" and text[i + 1 : i + 2] == "\n":
            current.append(" ")
            line += 1
            i += 1
        elif ch in "'\"":
            quote = ch
            current.append(ch)
        elif ch == "#" and (not current or current[-1].isspace()):
            end = text.find("\n", i)
            end = len(text) if end < 0 else end
            comment.append(text[i:end])
            i = end - 1
        elif ch == "\n" or (ch == ";" and depth == 0):
            if "".join(current).strip():
                yield "".join(current).strip(), " ".join(comment), start
            current, comment = [], []
            line += ch == "\n"
            start = line
        else:
            depth += (ch == "{") - (ch == "}")
            current.append(ch)
        i += 1
    if "".join(current).strip():
        yield "".join(current).strip(), " ".join(comment), start


def shell_words(text: str) -> list[str]:
    lexer = shlex.shlex(text, posix=True, punctuation_chars="|>")
    lexer.whitespace_split = True
    return list(lexer)


def parse_command(text: str, comment: str, line: int, functions: dict[str, list[str]]) -> Command:
    words = shell_words(text) if not FUNCTION.fullmatch(text) else []
    redirect = None
    if len(words) >= 2 and words[-2] == ">":
        redirect, words = words[-1], words[:-2]
    stages: list[list[str]] = [[]]
    for word in words:
        if word == "|":
            stages.append([])
        else:
            stages[-1].append(word)
    first = stages[0]
    if first and first[0] in functions:
        first = [
            word for body in functions[first[0]] for word in (first[1:] if body == "$@" else [body])
        ]
    command = Command(text, line, first, stages[1:], redirect)
    if found := SEQ_COMMENT.search(comment):
        if found[1]:
            command.after = int(found[2])
        else:
            command.records, command.moves = int(found[2]), found[3] and int(found[3])
    return command


# --- Answers as a page shows them ---------------------------------------------------------------


class Open(dict):  # type: ignore[type-arg]
    """A shown object with ``…``: it may have more fields."""


class Some(list):  # type: ignore[type-arg]
    """A shown list with ``…``: these items, in this order, among others."""


class _Any:
    def __repr__(self) -> str:
        return ELLIPSIS


ANY = _Any()


def _readable(text: str) -> str:
    """The text with each bare ``…`` made into something json reads."""
    out: list[str] = []
    stack: list[str] = []
    in_string = escaped = False
    previous = ""
    for ch in text:
        if in_string:
            out.append(ch)
            escaped, in_string = (ch == "\\" and not escaped), not (ch == '"' and not escaped)
            continue
        if ch == ELLIPSIS:
            member = stack[-1:] == ["{"] and previous in "{,"
            out.append(f'"{_LEFT_OUT}": null' if member else f'"{_LEFT_OUT}"')
            previous = '"'
            continue
        if ch == '"':
            in_string = True
        elif ch in "{[":
            stack.append(ch)
        elif ch in "}]" and stack:
            stack.pop()
        out.append(ch)
        previous = previous if ch.isspace() else ch
    return "".join(out)


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    fields = {key: value for key, value in pairs if key != _LEFT_OUT}
    return Open(fields) if len(fields) < len(pairs) else fields


def _shown(value: Any) -> Any:
    if isinstance(value, dict):
        return type(value)({key: _shown(item) for key, item in value.items()})
    if isinstance(value, list):
        items = [_shown(item) for item in value if item != _LEFT_OUT]
        return Some(items) if len(items) < len(value) else items
    return ANY if value in (_LEFT_OUT, ELLIPSIS) else value


def json_values(text: str, *, shown: bool) -> list[Any] | None:
    """The JSON values one after another in a text (a page's, with ``…``, if shown), or None."""
    decoder = json.JSONDecoder(object_pairs_hook=_object if shown else None)
    text = _readable(text) if shown else text
    values, i = [], 0
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i == len(text):
            return values or None
        try:
            value, i = decoder.raw_decode(text, i)
        except json.JSONDecodeError:
            return None
        values.append(_shown(value) if shown else value)


@dataclass
class Answer:
    """What a page shows one request answered."""

    line: int
    status: str | None = None  # "201 CREATED"
    headers: list[tuple[str, str]] = field(default_factory=list)
    body: str | None = None


def read_answers(blocks: list[Block]) -> list[Answer]:
    """The answers these blocks show: a status block and the json right under it are one."""
    answers: list[Answer] = []
    for block in blocks:
        last = answers[-1] if answers else None
        json_under_status = last and last.status and last.body is None and block.under_previous
        if block.lang == "json" and json_under_status:
            last.body = block.text  # type: ignore[union-attr]
            continue
        answer = Answer(block.line)
        if block.lang == "" and block.text.startswith("HTTP/"):
            head, _, body = block.text.partition("\n\n")
            status, *headers = head.splitlines()
            answer.status = status.split(" ", 1)[1]
            answer.headers = [
                (name, value) for name, _, value in (h.partition(": ") for h in headers)
            ]
            answer.body = body or None
        else:
            answer.body = block.text
        answers.append(answer)
    return answers


# --- Values that vary: bound when first seen ----------------------------------------------------


class Bindings:
    """What each varying value the page shows stands for in this run."""

    def __init__(self) -> None:
        self.real: dict[str, str] = {}

    def substitute(self, text: str) -> str:
        """A request's text with the page's values replaced by this run's (unseen ones kept)."""
        return VARYING.sub(lambda found: self.real.get(found[0], found[0]), text)

    def match(self, shown: str, actual: str) -> str | None:
        """Bind the varying values of a shown text to the actual text's; None, or why not."""
        pattern: list[str] = []
        names: dict[str, str] = {}  # group name -> the page's value
        position = 0
        for found in VARYING.finditer(shown):
            pattern.append(_literal(shown[position : found.start()]))
            position = found.end()
            value, kind = found[0], found.lastgroup or "time"
            if kind == "time":
                pattern.append(SHAPES["time"])
            elif value in self.real:
                pattern.append(re.escape(self.real[value]))
            elif value in names.values():
                pattern.append(f"(?P={next(n for n, v in names.items() if v == value)})")
            else:
                names[f"v{len(names)}"] = value
                pattern.append(f"(?P<v{len(names) - 1}>{SHAPES[kind]})")
        pattern.append(_literal(shown[position:]))
        found = re.fullmatch("".join(pattern), actual, re.S)
        if not found:
            return "differs"
        page_value = {real: mine for mine, real in self.real.items()}
        for name, value in names.items():
            real = found[name]
            if page_value.get(real, value) != value:
                return f"{value} and {page_value[real]} are shown apart but are one value, {real}"
            self.real[value], page_value[real] = real, value
        return None


def _literal(text: str) -> str:
    return ".*?".join(re.escape(part) for part in text.split(ELLIPSIS))


# --- Comparing ---------------------------------------------------------------------------------


def brief(value: Any, limit: int = 100) -> str:
    text = ELLIPSIS if value is ANY else json.dumps(value, ensure_ascii=False, default=repr)
    return text if len(text) <= limit else text[: limit - 1] + ELLIPSIS


def compare(shown: Any, actual: Any, where: str, bindings: Bindings) -> list[str]:
    """How the server's value differs from the one shown, field by field; empty if it agrees."""
    at = where or "the body"
    if shown is ANY:
        return []
    if isinstance(shown, dict):
        if not isinstance(actual, dict):
            return [f"{at}: an object is shown, the server says {brief(actual)}"]
        drifts = []
        for key, value in shown.items():
            if key in actual:
                drifts += compare(value, actual[key], f"{where}.{key}", bindings)
            else:
                drifts.append(f"{where}.{key}: shown as {brief(value)}, the server has no {key}")
        extra = [key for key in actual if key not in shown]
        if extra and not isinstance(shown, Open):
            said = ", ".join(f'"{key}": {brief(actual[key], 300)}' for key in extra)
            drifts.append(f"{at}: the server also says {said} (show it, or `…`)")
        return drifts
    if isinstance(shown, list):
        if not isinstance(actual, list):
            return [f"{at}: a list is shown, the server says {brief(actual)}"]
        if isinstance(shown, Some):
            return _compare_some(shown, actual, where, bindings)
        if len(shown) != len(actual):
            return _compare_lengths(shown, actual, where, bindings)
        drifts = []
        for index, (mine, theirs) in enumerate(zip(shown, actual, strict=True)):
            drifts += compare(mine, theirs, f"{where}[{index}]", bindings)
        return drifts
    if isinstance(shown, str) and isinstance(actual, str):
        why = bindings.match(shown, actual)
        if why and why != "differs":
            return [f"{at}: {why}"]
    elif type(shown) is type(actual) and shown == actual:
        return []
    else:
        why = "differs"
    return [f"{at}: shown as {brief(shown)}, the server says {brief(actual)}"] if why else []


def _compare_some(shown: list[Any], actual: list[Any], where: str, b: Bindings) -> list[str]:
    """Each item shown matches an item of the server's list after the one before it matched."""
    drifts: list[str] = []
    start = 0
    for mine in shown:
        for index in range(start, len(actual)):
            kept = dict(b.real)
            if not compare(mine, actual[index], "", b):
                start = index + 1
                break
            b.real = kept
        else:
            like = _same_first_field(mine, actual[start:])
            if like is None:
                drifts.append(f"{where or 'the body'}: no item like {brief(mine)} (in this order)")
            else:
                drifts += compare(mine, actual[start + like], f"{where}[{start + like}]", b)
    return drifts


def _compare_lengths(shown: list[Any], actual: list[Any], where: str, b: Bindings) -> list[str]:
    """Lists of other lengths: the items shown that the server lacks, and those it adds."""
    at = where or "the body"
    drifts = [f"{at}: {len(shown)} items shown, the server has {len(actual)}"]
    opcodes = SequenceMatcher(None, [brief(x) for x in shown], [brief(x) for x in actual])
    for op, i1, i2, j1, j2 in opcodes.get_opcodes():
        if op == "equal" or (op == "replace" and i2 - i1 == j2 - j1):
            for i, j in zip(range(i1, i2), range(j1, j2), strict=True):
                drifts += compare(shown[i], actual[j], f"{where}[{j}]", b)
            continue
        drifts += [f"{at}: {brief(shown[i])} is shown, not on the server" for i in range(i1, i2)]
        drifts += [f"{at}[{j}]: the server also has {brief(actual[j])}" for j in range(j1, j2)]
    return drifts


def _same_first_field(mine: Any, items: list[Any]) -> int | None:
    """The item that has the shown item's first field, to say how it differs."""
    if not isinstance(mine, dict) or not mine:
        return None
    key, value = next(iter(mine.items()))
    return next(
        (i for i, item in enumerate(items) if isinstance(item, dict) and item.get(key) == value),
        None,
    )


def compare_text(shown: str, printed: str, bindings: Bindings) -> list[str]:
    """A terminal's output against the page's: as JSON values if both are, else line by line."""
    mine, theirs = json_values(shown, shown=True), json_values(printed, shown=False)
    if mine is not None and theirs is not None:
        if len(mine) == len(theirs) == 1:
            return compare(mine[0], theirs[0], "", bindings)
        return compare(mine, theirs, "", bindings)
    drifts = []
    shown_lines, printed_lines = shown.strip("\n").splitlines(), printed.strip("\n").splitlines()
    for number, (a, b) in enumerate(zip(shown_lines, printed_lines, strict=False), 1):
        if bindings.match(a.rstrip(), b.rstrip()):
            drifts.append(f"line {number}: shown as {a.strip()!r}, printed {b.strip()!r}")
    if len(shown_lines) != len(printed_lines):
        drifts.append(f"{len(shown_lines)} lines shown, {len(printed_lines)} printed")
    return drifts


# --- The page's terminal -----------------------------------------------------------------------


@dataclass
class Reply:
    status: str  # "201 CREATED"
    headers: list[tuple[str, str]]
    body: str


@dataclass
class Shell:
    """The page's terminal: its variables, files (in ``cwd``) and last exit status."""

    client: FlaskClient
    cwd: Path
    run_cli: Callable[[list[str]], int]  # tablebank's main
    variables: dict[str, str] = field(default_factory=dict)
    lazy: dict[str, tuple[str, str]] = field(default_factory=dict)  # NAME=$(jq -r F file)
    status: int = 0

    def expand(self, word: str) -> str:
        def value(found: re.Match[str]) -> str:
            name = found[1] or found[2]
            if name == "?":
                return str(self.status)
            if name in self.lazy:
                filter_, file = self.lazy.pop(name)
                self.variables[name] = self.jq(["-r", filter_, file]).strip()
            if name not in self.variables:
                raise Unreplayable(f"${name} is used before the page sets it")
            return self.variables[name]

        return re.sub(r"\$\{(\w+)\}|\$(\w+|\?)", value, word)

    def jq(self, args: list[str], text: str | None = None) -> str:
        done = subprocess.run(
            ["jq", *args], input=text, capture_output=True, text=True, cwd=self.cwd, check=False
        )
        if done.returncode:
            raise Unreplayable(f"jq {' '.join(args)}: {done.stderr.strip()}")
        return done.stdout

    def define(self, text: str) -> None:
        if found := ASSIGNMENT.fullmatch(text):
            name, filter_, file, value = found.groups()
            if filter_:
                self.lazy[name] = (filter_, file)
            else:
                self.variables[name] = value
                self.lazy.pop(name, None)

    def curl(self, words: list[str], bindings: Bindings) -> tuple[Reply, bool, str | None]:
        """The server's reply to a curl command; whether it asked for headers (``-i``); where
        it saved the body (``-o``)."""
        method, headers, data, include, output, url = None, [], None, False, None, None
        words = [self.expand(word) for word in words[1:]]
        i = 0
        while i < len(words):
            word = words[i]
            if re.fullmatch(r"-[si]+", word):
                include = include or "i" in word
            elif word in ("-X", "-H", "-d", "--data", "--data-binary", "-o"):
                i += 1
                value = words[i]
                if word == "-X":
                    method = value
                elif word == "-H":
                    name, _, text = value.partition(":")
                    headers.append((name.strip(), bindings.substitute(text.strip())))
                elif word == "-o":
                    output = value
                elif value.startswith("@"):
                    data = (self.cwd / value[1:]).read_bytes()
                else:
                    data = bindings.substitute(value).encode()
            elif word.startswith("-"):
                raise Unreplayable(f"curl {word} is not understood by the replay")
            else:
                url = word
            i += 1
        if url is None:
            raise Unreplayable("curl without a URL")
        path = bindings.substitute(re.sub(r"^https?://[^/]+", "", url))
        method = method or ("POST" if data is not None else "GET")
        response = self.client.open(path, method=method, headers=headers, data=data)
        reply = Reply(response.status, list(response.headers.items()), response.get_data(True))
        if output:
            (self.cwd / output).write_text(reply.body)
        return reply, include, output

    def run(self, command: Command, bindings: Bindings) -> tuple[str, Reply | None]:
        """What a command printed, and the server's reply if it was a curl."""
        words = command.words
        reply = None
        if words[0] == "curl":
            reply, include, output = self.curl(words, bindings)
            text = "" if output else printed(reply, include)
        elif words[0] == "tablebank":
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                self.status = self.run_cli([self.expand(word) for word in words[1:]])
            text = re.sub(r"\x1b\[[0-9;]*m", "", out.getvalue())  # as a terminal shows it
        elif words[0] == "echo":
            text = " ".join(self.expand(word) for word in words[1:]) + "\n"
        elif words[0] == "jq":
            text = self.jq([self.expand(word) for word in words[1:]])
        else:
            raise Unreplayable(f"{words[0]} is not understood by the replay")
        for stage in command.pipes:
            text = self.pipe(text, [self.expand(word) for word in stage])
        if command.redirect:
            (self.cwd / command.redirect).write_text(text)
            text = ""
        return text, reply

    def pipe(self, text: str, words: list[str]) -> str:
        if words[0] == "jq":
            return self.jq(words[1:], text)
        if words[0] == "grep":
            flags = re.I if "-i" in words else 0
            pattern = next(word for word in words[1:] if not word.startswith("-"))
            return "".join(
                line for line in text.splitlines(True) if re.search(pattern, line, flags)
            )
        if words[0] == "tee":
            (self.cwd / words[1]).write_text(text)
            return text
        raise Unreplayable(f"| {words[0]} is not understood by the replay")


def printed(reply: Reply, include: bool) -> str:
    if not include:
        return reply.body
    head = "".join(f"{name}: {value}\n" for name, value in reply.headers)
    return f"HTTP/1.1 {reply.status}\n{head}\n{reply.body}"


# --- A page, planned and replayed ---------------------------------------------------------------


@dataclass
class Step:
    """One command of the page, the answers it must give, and when it runs."""

    command: Command
    block: Block
    index: int  # in page order
    answers: list[Answer] = field(default_factory=list)
    text_ends: bool = False  # holds the answers of its block's text output
    game: str | None = None  # the shell variable of the game it acts on
    creates: str | None = None
    order: tuple[int, ...] = ()


@dataclass
class Report:
    page: str
    commands: int = 0
    answers: int = 0
    not_replayed: int = 0
    drifts: list[str] = field(default_factory=list)

    def message(self, limit: int = 12) -> str:
        shown = self.drifts[:limit]
        more = f"\n… and {len(self.drifts) - limit} more" if len(self.drifts) > limit else ""
        return (
            f"{self.page}: what the page shows is not what the server answers\n"
            + "\n".join(shown)
            + more
        )


def plan(page: str, text: str) -> tuple[list[Step], Report]:
    """Every command of the page with the answers it must give, in the order they run."""
    report = Report(page)
    blocks = read_blocks(text)
    functions: dict[str, list[str]] = {}
    steps: list[Step] = []
    i = 0
    while i < len(blocks):
        block = blocks[i]
        if block.lang != "sh":
            if block.not_replayed is None:
                raise Unreplayable(
                    f"{page}:{block.line} ({block.heading}): an answer with no command before it"
                    " (mark it <!-- not replayed: why -->)"
                )
            report.not_replayed += 1
            i += 1
            continue
        j = i + 1
        while j < len(blocks) and blocks[j].lang != "sh" and blocks[j].heading == block.heading:
            if blocks[j].not_replayed is not None:
                break
            j += 1
        commands = []
        for command_text, comment, line in split_commands(block):
            if found := FUNCTION.fullmatch(command_text):
                functions[found[1]] = shell_words(found[2].strip().rstrip(";"))
            commands.append(parse_command(command_text, comment, line, functions))
        steps += _pair(page, block, commands, read_answers(blocks[i + 1 : j]), len(steps))
        i = j
    _schedule(page, steps)
    report.commands = sum(
        not step.command.definition and step.command.words[:1] != ["make"] for step in steps
    )
    report.answers = sum(len(step.answers) for step in steps)
    return sorted(steps, key=lambda step: step.order), report


def _pair(
    page: str, block: Block, commands: list[Command], answers: list[Answer], first: int
) -> list[Step]:
    """The block's commands as steps, each with the answers shown for it."""
    steps = [Step(command, block, first + n) for n, command in enumerate(commands)]
    where = f"{page}:{block.line} ({block.heading})"
    printing = [step for step in steps if step.command.prints]
    texts = [step for step in printing if step.command.prints_text]
    curls = [step for step in printing if not step.command.prints_text]
    if texts and curls:
        raise Unreplayable(f"{where}: a block mixes answers of curl and other output")
    if any(step.command.words[:1] == ["make"] for step in printing) and answers:
        raise Unreplayable(f"{where}: make is not replayed, so its block shows no output")
    if texts:
        texts[-1].text_ends, texts[-1].answers = True, answers
    elif len(answers) == len(curls) or (len(answers) == 1 and curls):
        for n, step in enumerate(curls):
            step.answers = [answers[n if len(answers) > 1 else 0]]
    elif answers or any(step.command.words[:1] == ["curl"] for step in curls):
        raise Unreplayable(f"{where}: {len(curls)} commands print, {len(answers)} answers shown")
    return steps


def _schedule(page: str, steps: list[Step]) -> None:
    """Give each step its place: the game it acts on, and when in that game's log it runs."""
    writers: dict[str, Step] = {}
    id_files: dict[str, str] = {}
    for step in steps:
        command = step.command
        if (found := ASSIGNMENT.fullmatch(command.text)) and found[2] == ".id":
            id_files[found[3]] = found[1]
        for stage in command.pipes:
            if stage[:1] == ["tee"]:
                writers[stage[1]] = step
        if command.redirect:
            writers[command.redirect] = step
        if found := GAME_URL.search(" ".join(command.words)):
            step.game = found[1]
    created = {}
    for file, name in id_files.items():
        if file in writers:
            writers[file].creates = name
            created[name] = writers[file].index
    rank = {name: n for n, name in enumerate(sorted(created, key=created.__getitem__))}
    moment: dict[str, int] = {}
    for step in steps:
        game = step.creates or step.game
        if step.command.definition:  # a value or a function, the same all along the page
            step.order = (-1, step.index)
            continue
        if game is None:
            step.order = (len(rank), step.index)
            continue
        if game not in rank:
            raise Unreplayable(f"{page}:{step.command.line}: ${game} is not created on the page")
        seq = _records(step)
        if step.creates:
            when = (-1, -1)
        elif step.command.after is not None:
            moment[game] = step.command.after
            when = (step.command.after, 0)
        elif seq is not None:
            moment[game] = seq
            when = (seq - 1, 1)
        else:
            when = (moment.get(game, -1), 0)
        step.order = (rank[game], *when, step.index)


def _records(step: Step) -> int | None:
    """The seq a step records: its ``# seq N``, or what its answer to a transaction POST shows."""
    if step.command.records is not None:
        return step.command.records
    words = " ".join(step.command.words)
    if "-X POST" not in words or "/transactions" not in words or "dry_run" in words:
        return None
    for answer in step.answers:
        for name, value in answer.headers:
            if name.lower() == "location" and (found := re.search(r"/transactions/(\d+)$", value)):
                return int(found[1])
        values = json_values(answer.body or "", shown=True)
        if values and isinstance(values[0], dict) and "code" not in values[0]:
            seq = values[0].get("seq")
            return seq if isinstance(seq, int) else None
    return None


def replay(page: str, text: str, shell: Shell) -> Report:
    """Run every example of a page in its order; what drifted, each with where it is shown."""
    steps, report = plan(page, text)
    bindings = Bindings()
    # A block's text output is compared once all of its commands have run, in page order.
    pending = Counter(step.block.line for step in steps if step.command.prints_text)
    printed: dict[int, dict[int, str]] = defaultdict(dict)
    shown = {step.block.line: step.answers for step in steps if step.text_ends}
    for step in steps:
        command = step.command
        where = f"{page}:{command.line} ({step.block.heading}) `{_short(command.text)}`"
        answers = step.answers or shown.get(step.block.line) or []
        where += f", shown at line {answers[0].line}" if answers else ""
        drifts: list[str] = []
        try:
            if command.definition:
                shell.define(command.text)
                continue
            if command.words[:1] == ["make"]:
                continue
            output, reply = shell.run(command, bindings)
            if command.prints_text:
                printed[step.block.line][step.index] = output if command.prints else ""
                pending[step.block.line] -= 1
                if not pending[step.block.line] and shown.get(step.block.line):
                    outputs = printed.pop(step.block.line)
                    terminal = "".join(outputs[index] for index in sorted(outputs))
                    page_text = "\n".join(answer.body or "" for answer in answers)
                    drifts += compare_text(page_text, terminal, bindings)
            elif reply is not None:
                if command.records is not None:
                    drifts += check_recorded(reply, command.records, command.moves)
                for answer in step.answers:
                    drifts += compare_reply(answer, reply, bindings)
        except Unreplayable as error:
            drifts = [str(error)]
        if drifts:
            report.drifts.append(where + "\n" + "\n".join(f"    {d}" for d in drifts))
    return report


def _short(text: str, limit: int = 120) -> str:
    text = re.sub(r"\s+", " ", text)
    text = re.sub(r""" -H ["']Content-Type: application/json["']""", "", text)
    return text if len(text) <= limit else text[: limit - 1] + ELLIPSIS


def check_recorded(reply: Reply, seq: int, moves: int | None) -> list[str]:
    """A ``# seq N`` request recorded seq N, moving the amount its comment says."""
    body = json_values(reply.body, shown=False) or [None]
    txn = body[0]
    if not reply.status.startswith("201") or not isinstance(txn, dict):
        return [f"# seq {seq}: the server answered {reply.status} {reply.body[:300]}"]
    drifts = []
    if txn.get("seq") != seq:
        drifts.append(f"# seq {seq}: the server recorded seq {txn.get('seq')}")
    moved = sum(posting["amount"] for posting in txn.get("postings", []))
    if moves is not None and moved != moves:
        drifts.append(f"# seq {seq}: {moves} shown, the server's postings move {moved}")
    return drifts


def compare_reply(answer: Answer, reply: Reply, bindings: Bindings) -> list[str]:
    """The server's reply against an answer shown: status, the headers shown, the body."""
    drifts = []
    body = json_values(answer.body, shown=True) if answer.body else None
    if answer.status:
        if answer.status.upper() != reply.status.upper():
            drifts.append(f"status: shown as {answer.status}, the server says {reply.status}")
    elif not reply.status.startswith("2") and not (
        body and isinstance(body[0], dict) and "code" in body[0]
    ):
        drifts.append(f"status: the server says {reply.status} {reply.body[:300]}")
    sent = {name.lower(): value for name, value in reply.headers}
    for name, value in answer.headers:
        if name.lower() not in sent:
            drifts.append(f"header {name}: shown as {value!r}, the server sends none")
        elif why := bindings.match(value, sent[name.lower()]):
            drifts.append(
                f"header {name}: shown as {value!r}, the server says {sent[name.lower()]!r}"
                + ("" if why == "differs" else f" ({why})")
            )
    if answer.body is None:
        return drifts
    if body is None:
        return drifts + compare_text(answer.body, reply.body, bindings)
    actual = json_values(reply.body, shown=False)
    if actual is None or len(body) != 1:
        return [*drifts, f"the body: shown as {brief(body)}, the server says {reply.body[:200]!r}"]
    return drifts + compare(body[0], actual[0], "", bindings)
