"""The atomic writer and the limited reader (parlour.core.files): a save is whole or absent, a
symlink keeps pointing at its file, a folder or an empty name is a one-line refusal."""

from __future__ import annotations

from pathlib import Path

import pytest

from parlour.core.files import read_text_limited, write_text_atomic
from parlour.errors import FileError, InvalidInput


def test_writes_and_replaces_whole(tmp_path: Path) -> None:
    target = tmp_path / "game.json"
    assert write_text_atomic(target, "one") == target
    write_text_atomic(str(target), "two")
    assert target.read_text() == "two"
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]  # no temporary file left


def test_keeps_the_mode_of_the_file_it_replaces(tmp_path: Path) -> None:
    target = tmp_path / "game.json"
    target.write_text("old")
    target.chmod(0o640)
    write_text_atomic(target, "new")
    assert target.stat().st_mode & 0o777 == 0o640


def test_a_symlink_stays_a_link_and_its_target_is_written(tmp_path: Path) -> None:
    real = tmp_path / "saves" / "real.json"
    real.parent.mkdir()
    real.write_text("old")
    link = tmp_path / "game.json"
    link.symlink_to(real)
    assert write_text_atomic(link, "new") == real
    assert link.is_symlink() and real.read_text() == "new"
    dangling = tmp_path / "later.json"
    dangling.symlink_to(tmp_path / "saves" / "later-real.json")
    write_text_atomic(dangling, "x")
    assert dangling.is_symlink() and (tmp_path / "saves" / "later-real.json").read_text() == "x"


def test_a_folder_is_refused_in_one_line(tmp_path: Path) -> None:
    with pytest.raises(FileError, match="it is a folder") as err:
        write_text_atomic(tmp_path, "x")
    assert "\n" not in str(err.value)
    with pytest.raises(FileError, match="No such file or directory"):
        write_text_atomic(tmp_path / "missing" / "g.json", "x")


@pytest.mark.parametrize("name", ["", " ", "a\0b"])
def test_empty_or_nul_names_are_refused(name: str) -> None:
    with pytest.raises(InvalidInput):
        write_text_atomic(name, "x")


def test_no_overwrite_never_replaces(tmp_path: Path) -> None:
    target = tmp_path / "g.json"
    write_text_atomic(target, "first", overwrite=False)
    with pytest.raises(FileError, match="already there"):
        write_text_atomic(target, "second", overwrite=False)
    assert target.read_text() == "first"
    assert [p.name for p in tmp_path.iterdir()] == ["g.json"]


def test_a_failed_write_leaves_the_old_file(tmp_path: Path) -> None:
    target = tmp_path / "g.json"
    target.write_text("old")
    with pytest.raises(UnicodeEncodeError):
        write_text_atomic(target, "\udcff")  # a lone surrogate cannot be written as UTF-8
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["g.json"]


def test_a_file_in_place_of_a_folder_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "plain").write_text("")
    with pytest.raises(FileError, match="Not a directory") as err:
        write_text_atomic(tmp_path / "plain" / "g.json", "x")
    assert "\n" not in str(err.value)


def test_reader_limits(tmp_path: Path) -> None:
    f = tmp_path / "r.json"
    f.write_bytes(b"x" * 100)
    assert read_text_limited(f) == "x" * 100
    with pytest.raises(FileError, match="larger than 10 bytes"):
        read_text_limited(f, max_bytes=10)
    f.write_bytes(b"\xff")
    with pytest.raises(FileError, match="not utf-8 text"):
        read_text_limited(f)
    with pytest.raises(FileError, match="it is a folder"):
        read_text_limited(tmp_path)
    with pytest.raises(FileError, match="No such file"):
        read_text_limited(tmp_path / "nope")


def test_a_device_or_a_pipe_is_never_replaced(tmp_path: Path) -> None:
    """Renaming over /dev/null would replace the device with a plain file."""
    import os

    for target in (Path("/dev/null"), tmp_path / "pipe"):
        if target.name == "pipe":
            os.mkfifo(target)
        before = target.stat()
        with pytest.raises(FileError, match="it is not a plain file"):
            write_text_atomic(target, "x")
        after = target.stat()
        assert (after.st_mode, after.st_ino) == (before.st_mode, before.st_ino)
    assert list(Path("/dev").glob(".null.*.tmp")) == []
