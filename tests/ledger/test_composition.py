"""``TableBank`` is composed, not stacked: its parts are plain objects, each handed the others
it needs, and each method of the bank is the method of the part whose job it is."""

from __future__ import annotations

from eventsourcing.application import Application

from ledger.application import PartMethod, TableBank
from ledger.storage import Storage

PARTS = ("reading", "tokens", "writing", "setup", "exchange")


def test_each_method_of_the_bank_is_its_parts_own(bank: TableBank) -> None:
    delegated = {
        name: part for name, part in vars(TableBank).items() if isinstance(part, PartMethod)
    }
    own = {name for name in vars(TableBank) if not name.startswith("_")} - set(delegated)
    assert own == {"close"}  # closing the parts is the bank's only method of its own
    assert {"game", "record_request", "create_game", "import_game"} <= set(delegated)
    for name, part in delegated.items():
        bound = getattr(bank, name)
        assert bound.__self__ is getattr(bank, part.part), name
        assert bound.__func__ is part.method, name


def test_only_the_storage_is_an_eventsourcing_application(bank: TableBank) -> None:
    assert isinstance(bank.storage, Storage)
    assert not isinstance(bank, Application)
    classes = [type(getattr(bank, name)) for name in PARTS]
    for cls in classes:
        assert not issubclass(cls, Application), cls
        assert not any(issubclass(cls, other) for other in classes if other is not cls), cls


def test_the_store_keeps_the_name_its_tables_and_settings_have(bank: TableBank) -> None:
    """The library names the tables (``tablebank_events``) and reads ``TABLEBANK_*``
    settings by the application's name: that of the class when it was the bank."""
    assert bank.storage.name == "TableBank"
