"""The write path.

Group commit (``ledger.commit``): writes of several games that arrive together share one store
transaction; a write that clashes with another process fails alone and is retried; each write
is answered only after the commit that holds it. The first attempt of a write trusts this
process's cached game (a stale one is caught by the store), and a snapshot is taken of the
game in hand.

Every write here is a payment of 100 from Ann (p1) to Bob (p2) in a classic game where each
starts with 1,500 (docs/rules.md, "Set-up and starting cash"): after n payments Ann has
1,500 - 100 n and Bob 1,500 + 100 n.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any, cast
from uuid import UUID

import pytest
from eventsourcing.persistence import OperationalError

from ledger.application import TableBank
from ledger.commit import GroupCommit
from ledger.errors import LedgerError
from ledger.game import Game

PAY = {"type": "payment", "from": "p1", "to": "p2", "amount": 100}
SET_UP = 3  # one starting_cash transaction per player


def new_game(bank: TableBank, name: str) -> str:
    created = bank.create_game(name, "classic", ["Ann", "Bob", "Cy"], {})
    assert created["last_seq"] == SET_UP
    return str(created["id"])


def cash(bank: TableBank, game_id: str) -> tuple[int, int]:
    balances = bank.game(game_id)["balances"]
    return balances["p1"], balances["p2"]


def record_at_once(bank: TableBank, games: list[str]) -> list[dict[str, Any]]:
    """One payment on each game, from a thread each, all started together."""
    answers: list[Any] = [None] * len(games)

    def write(n: int) -> None:
        answers[n] = bank.record(games[n], PAY)

    threads = [threading.Thread(target=write, args=(n,)) for n in range(len(games))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert all(answers), "a write did not return"
    return answers


@pytest.fixture
def bank(store_env: dict[str, str]) -> Iterator[TableBank]:
    app = TableBank(env=store_env)
    yield app
    app.close()


def waiting(group: GroupCommit) -> int:
    with group._ready:
        return len(group._waiting)


def until_waiting(group: GroupCommit, writes: int) -> None:
    """Wait (5 s at most) until ``writes`` writes wait for the commit: a leader's gather that
    holds the commit until the others have joined it."""
    for _ in range(1000):
        if waiting(group) == writes:
            return
        threading.Event().wait(0.005)


def test_writes_of_several_games_that_arrive_together_share_one_commit(bank: TableBank) -> None:
    games = [new_game(bank, f"g{n}") for n in range(4)]
    group = bank.writing.group_commit

    # The leader waits in gather until the other three writes are waiting behind it.
    def gather() -> None:
        until_waiting(group, len(games))
        gather.called += 1  # type: ignore[attr-defined]

    gather.called = 0  # type: ignore[attr-defined]
    group.gather = gather
    rounds, writes = group.rounds, group.writes
    answers = record_at_once(bank, games)
    assert gather.called == 1  # type: ignore[attr-defined]
    assert (group.rounds - rounds, group.writes - writes) == (1, 4)
    assert [a["seq"] for a in answers] == [SET_UP + 1] * 4
    for game_id in games:
        assert cash(bank, game_id) == (1400, 1600)
        assert [t["seq"] for t in bank.transactions(game_id)] == [1, 2, 3, 4]


def test_each_commit_tells_how_many_writes_it_saved(store_env: dict[str, str]) -> None:
    # What a server's metrics count (tablebank_group_commit_size): 4 writes in one commit, then
    # a write alone; a refusal saves nothing and is not told.
    sizes: list[int] = []
    bank = TableBank(env=store_env, committed=sizes.append)
    try:
        games = [new_game(bank, f"g{n}") for n in range(4)]
        group = bank.writing.group_commit

        def gather() -> None:
            until_waiting(group, len(games))

        group.gather = gather
        record_at_once(bank, games)
        group.gather = lambda: None
        bank.record(games[0], PAY)
        with pytest.raises(LedgerError):
            bank.record(games[0], {**PAY, "amount": 1_000_000})
    finally:
        bank.close()
    assert sizes == [4, 1]


def test_a_write_that_clashes_with_another_process_fails_alone_and_is_retried(
    bank: TableBank, store_env: dict[str, str]
) -> None:
    if store_env.get("PERSISTENCE_MODULE") == "eventsourcing.popo":
        pytest.skip("one in-memory store cannot be shared by two banks")
    games = [new_game(bank, f"g{n}") for n in range(3)]
    other = TableBank(env=store_env)  # another server on the same database
    try:
        group = bank.writing.group_commit
        clashed = [False]

        def gather() -> None:
            # Every write is drafted and waiting: the other server now records on game 0, so
            # the version game 0's write would take is taken, and the commit of all three
            # fails whole.
            until_waiting(group, len(games))
            if not clashed[0]:
                clashed[0] = True
                other.record(games[0], PAY)

        group.gather = gather
        answers = record_at_once(bank, games)
    finally:
        other.close()
    assert clashed[0]
    # Game 0: the other server's payment (seq 4), then ours, retried on the fresh game (seq 5).
    assert answers[0]["seq"] == SET_UP + 2
    assert cash(bank, games[0]) == (1300, 1700)
    # Games 1 and 2 were saved once each, unharmed by game 0's clash.
    for n in (1, 2):
        assert answers[n]["seq"] == SET_UP + 1
        assert cash(bank, games[n]) == (1400, 1600)
        assert len(list(bank.transactions(games[n]))) == SET_UP + 1


def test_a_write_alone_is_committed_alone_and_its_refusal_records_nothing(
    bank: TableBank,
) -> None:
    game = new_game(bank, "alone")
    group = bank.writing.group_commit
    rounds, writes = group.rounds, group.writes
    bank.record(game, PAY)
    assert (group.rounds - rounds, group.writes - writes) == (1, 1)
    with pytest.raises(LedgerError):
        bank.record(game, {**PAY, "amount": 5000})  # Ann has 1,400: refused
    assert (group.rounds - rounds, group.writes - writes) == (1, 1)  # nothing went to the store
    assert cash(bank, game) == (1400, 1600)


def test_the_game_just_saved_is_what_the_cache_holds(bank: TableBank) -> None:
    """The next write finds the game as this write left it, without reading its event back."""
    game = new_game(bank, "cached")
    bank.record(game, PAY)
    assert bank.storage.repository.cache is not None
    # Read straight from the cache: a load would fast-forward the cached game first.
    cached = bank.storage.repository.cache.get(UUID(game))
    assert isinstance(cached, Game)
    assert cached.last_seq == SET_UP + 1
    assert cached.state["balances"]["p1"] == 1400


def test_a_store_error_in_a_commit_of_several_reaches_only_its_own_write(
    bank: TableBank, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A commit of several that fails is retried write by write: a write whose own save fails
    gets that error, and the others are saved."""
    games = [new_game(bank, f"g{n}") for n in range(3)]
    group = bank.writing.group_commit
    doomed = bank.storage.load_game(games[1]).id
    real_record = bank.storage._record

    def record(processing: Any) -> Any:
        if doomed in processing.aggregates:
            raise OSError("the disk went away")
        return real_record(processing)

    monkeypatch.setattr(bank.storage, "_record", record)

    def gather() -> None:
        until_waiting(group, len(games))

    group.gather = gather
    told: list[int] = []
    group.committed = told.append
    outcomes: list[Any] = [None] * 3

    def write(n: int) -> None:
        try:
            outcomes[n] = bank.record(games[n], PAY)["seq"]
        except OSError as error:
            outcomes[n] = str(error)

    threads = [threading.Thread(target=write, args=(n,)) for n in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert outcomes == [SET_UP + 1, "the disk went away", SET_UP + 1]
    assert told == [1, 1]  # the two saved, each alone; nothing of the failed commit
    monkeypatch.undo()
    assert cash(bank, games[0]) == (1400, 1600)
    assert cash(bank, games[2]) == (1400, 1600)
    assert cash(bank, games[1]) == (1500, 1500)  # nothing of it was saved


def test_a_game_the_store_refused_is_saved_apart_from_the_next_commits(
    bank: TableBank, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One game failing again and again (a full disk for its rows, a trigger) costs the others
    no failed commit: after its write failed alone, its next ones are saved apart, and the
    others' are committed together as if it were not there."""
    games = [new_game(bank, f"g{n}") for n in range(3)]
    group = bank.writing.group_commit
    doomed = bank.storage.load_game(games[1]).id
    real_record = bank.storage._record
    commits: list[list[int]] = []  # the games of each store transaction tried, by index

    def record(processing: Any) -> Any:
        ids = [bank.storage.load_game(g).id for g in games]
        commits.append(sorted(ids.index(a) for a in processing.aggregates))
        if doomed in processing.aggregates:
            raise OperationalError("could not extend file: No space left on device")
        return real_record(processing)

    monkeypatch.setattr(bank.storage, "_record", record)
    with pytest.raises(OperationalError):
        bank.record(games[1], PAY)  # alone: refused, and game 1 is kept apart for a while

    def gather() -> None:
        until_waiting(group, len(games))

    group.gather = gather
    commits.clear()
    outcomes: list[Any] = [None] * 3

    def write(n: int) -> None:
        try:
            outcomes[n] = bank.record(games[n], PAY)["seq"]
        except OperationalError:
            outcomes[n] = "refused"

    threads = [threading.Thread(target=write, args=(n,)) for n in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert outcomes == [SET_UP + 1, "refused", SET_UP + 1]
    # Games 0 and 2 in one commit, game 1 apart; not a commit of all three that failed and
    # then each alone (four store transactions).
    assert commits == [[0, 2], [1]]


def test_a_write_on_a_game_another_process_wrote_since_is_recorded_on_the_store_s_game(
    bank: TableBank, store_env: dict[str, str]
) -> None:
    """The first attempt trusts this process's cached game; the other server's payments make
    its save clash, and the write is recorded after them."""
    if store_env.get("PERSISTENCE_MODULE") == "eventsourcing.popo":
        pytest.skip("one in-memory store cannot be shared by two banks")
    game = new_game(bank, "shared")
    bank.record(game, PAY)  # this bank's cache: seq 4, Ann 1,400
    with TableBank(env=store_env) as other:
        other.record(game, PAY)
        other.record(game, PAY)
    answer = bank.record(game, PAY)
    assert answer["seq"] == SET_UP + 4
    assert cash(bank, game) == (1100, 1900)


def test_a_refusal_on_a_stale_cached_game_is_not_the_answer(
    bank: TableBank, store_env: dict[str, str]
) -> None:
    """Ann has 100 in this bank's cache; another server then gave her 1,000: a payment of 500
    from her is allowed by the store's game (docs/rules.md, "Money conservation": a player
    never ends below zero, else ``insufficient_funds``), and recorded."""
    if store_env.get("PERSISTENCE_MODULE") == "eventsourcing.popo":
        pytest.skip("one in-memory store cannot be shared by two banks")
    game = new_game(bank, "stale")
    bank.record(game, {**PAY, "amount": 1400})  # Ann 100, Bob 2,900
    with TableBank(env=store_env) as other:
        other.record(game, {"type": "payment", "from": "p2", "to": "p1", "amount": 1000})
    answer = bank.record(game, {**PAY, "amount": 500})
    assert answer["seq"] == SET_UP + 3
    assert cash(bank, game) == (600, 2400)
    with pytest.raises(LedgerError):  # and a refusal on the store's game is still refused
        bank.record(game, {**PAY, "amount": 601})


def test_a_game_written_past_a_hundred_versions_is_snapshotted_as_the_store_has_it(
    bank: TableBank, store_env: dict[str, str]
) -> None:
    """Every 100th version is snapshotted from the game in hand; the snapshot is the game as
    the store's events rebuild it, and a cold load from it gives the same game."""
    game = new_game(bank, "long")
    uid = UUID(game)
    start = bank.storage.load_game(game).version
    back = {"type": "payment", "from": "p2", "to": "p1", "amount": 100}
    for n in range(start, 101):
        bank.record(game, PAY if n % 2 == 0 else back)
    assert bank.storage.load_game(game).version == 101
    assert bank.storage.snapshots is not None
    snapshots: list[Any] = list(bank.storage.snapshots.get(uid))
    assert [s.originator_version for s in snapshots] == [100]
    rebuilt: Any = None  # the game at version 100 from its events alone, not from the snapshot
    for ev in bank.storage.events.get(uid, lte=100):
        rebuilt = cast(Any, ev).mutate(rebuilt)
    assert isinstance(rebuilt, Game)
    assert snapshots[0].state["state"] == rebuilt.state
    if store_env.get("PERSISTENCE_MODULE") != "eventsourcing.popo":
        with TableBank(env=store_env) as cold:
            assert cold.game(game) == bank.game(game)


def test_a_game_written_by_two_servers_in_turn_clashes_once_on_each(
    bank: TableBank, store_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Behind a load balancer, one game's writes alternate between servers: after its first
    clash, a server loads that game from the store before each write, so it clashes no more."""
    if store_env.get("PERSISTENCE_MODULE") == "eventsourcing.popo":
        pytest.skip("one in-memory store cannot be shared by two banks")
    from eventsourcing.persistence import IntegrityError

    game = new_game(bank, "balanced")
    with TableBank(env=store_env) as other:
        clashes = {"bank": 0, "other": 0}
        for name, each in (("bank", bank), ("other", other)):
            real_save = each.writing.group_commit.save

            def save(*objs: Any, _real: Any = real_save, _name: str = name) -> None:
                try:
                    _real(*objs)
                except IntegrityError:
                    clashes[_name] += 1
                    raise

            monkeypatch.setattr(each.writing.group_commit, "save", save)
        for n in range(10):
            (bank if n % 2 == 0 else other).record(game, PAY)
    assert clashes == {"bank": 1, "other": 1}
    assert cash(bank, game) == (500, 2500)  # ten payments of 100, each recorded once
    assert bank.storage.load_game(game).last_seq == SET_UP + 10
