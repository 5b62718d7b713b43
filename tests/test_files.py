"""Tests of tricktable.files: the one way a file named from outside is read and written.

Real files, FIFOs, devices and folders; the suite runs as root, so "a place that refuses a new
file" is one the kernel refuses even to root (``/sys``), not one with permission bits.
"""

from __future__ import annotations

import os
import stat
import threading
import time
from pathlib import Path

import pytest

from tricktable.errors import TricktableError
from tricktable.files import (
    FileProblem,
    check_writable,
    read_bytes,
    read_text,
    shown,
    write_atomic,
)


def one_line(exc: pytest.ExceptionInfo[FileProblem]) -> str:
    text = str(exc.value)
    assert "\n" not in text and len(text) <= 200, text
    return text


def test_a_file_problem_is_a_tricktable_error() -> None:
    assert issubclass(FileProblem, TricktableError)


# ------------------------------------------------------------------------------- writing


def test_write_atomic_writes_a_new_file_and_replaces_a_regular_one(tmp_path: Path) -> None:
    target = tmp_path / "r.json"
    assert write_atomic(target, "one\n", "record") == target
    assert target.read_text(encoding="utf-8") == "one\n"
    write_atomic(target, b"two", "record")
    assert target.read_bytes() == b"two"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.json"]  # no probe, no temp left


def test_a_symlink_is_refused_and_its_target_untouched(tmp_path: Path) -> None:
    real = tmp_path / "real.json"
    real.write_text("mine", encoding="utf-8")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    for attempt in (check_writable, lambda p, w: write_atomic(p, "x", w)):
        with pytest.raises(FileProblem) as exc:
            attempt(link, "record")
        assert "symbolic link" in one_line(exc)
    assert link.is_symlink() and real.read_text(encoding="utf-8") == "mine"


def test_a_dangling_symlink_is_refused(tmp_path: Path) -> None:
    link = tmp_path / "link.json"
    link.symlink_to(tmp_path / "nowhere.json")
    with pytest.raises(FileProblem, match="symbolic link"):
        write_atomic(link, "x", "record")
    assert not (tmp_path / "nowhere.json").exists()


def test_a_fifo_is_refused_without_waiting_and_stays_a_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    start = time.monotonic()
    with pytest.raises(FileProblem) as exc:
        write_atomic(fifo, "x", "record")
    assert "a FIFO" in one_line(exc)
    assert time.monotonic() - start < 5
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


@pytest.mark.parametrize("device", ["/dev/full", "/dev/null"])
def test_a_device_is_refused_and_stays_a_device(device: str) -> None:
    with pytest.raises(FileProblem) as exc:
        write_atomic(device, "x", "record")
    assert "a device" in one_line(exc)
    assert stat.S_ISCHR(os.lstat(device).st_mode)


def test_a_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(FileProblem) as exc:
        check_writable(tmp_path, "record")
    assert "a folder" in one_line(exc)


def test_a_missing_folder_is_refused_before_any_work(tmp_path: Path) -> None:
    with pytest.raises(FileProblem) as exc:
        check_writable(tmp_path / "no" / "such" / "r.json", "record")
    assert "no folder" in one_line(exc)
    assert not (tmp_path / "no").exists()


def test_a_place_that_refuses_new_files_even_to_root() -> None:
    # sysfs refuses file creation to everybody, root included: permission bits would not.
    assert Path("/sys").is_dir()
    with pytest.raises(FileProblem) as exc:
        check_writable("/sys/tricktable-record.json", "record")
    assert one_line(exc).startswith("cannot write record /sys/tricktable-record.json")


def test_no_path_and_a_nul_byte_are_one_line() -> None:
    with pytest.raises(FileProblem, match="no record path"):
        check_writable("", "record")
    with pytest.raises(FileProblem, match="not a path"):
        check_writable("a\0b.json", "record")
    with pytest.raises(FileProblem, match="not a path"):
        read_text("a\0b.json", "record")


def test_a_file_that_became_a_symlink_is_refused_at_the_write(tmp_path: Path) -> None:
    target = tmp_path / "r.json"
    check_writable(target, "record")  # absent: fine before the work
    other = tmp_path / "other"
    other.write_text("keep", encoding="utf-8")
    target.symlink_to(other)  # ... and then, while the match is played, a link appears
    with pytest.raises(FileProblem, match="symbolic link"):
        write_atomic(target, "x", "record")
    assert other.read_text(encoding="utf-8") == "keep"


def test_two_writers_of_one_path_each_write_whole(tmp_path: Path) -> None:
    target = tmp_path / "r.json"
    texts = [str(n) * 100_000 for n in range(8)]
    threads = [threading.Thread(target=write_atomic, args=(target, t, "record")) for t in texts]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert target.read_text(encoding="utf-8") in texts
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]


# ------------------------------------------------------------------------------- reading


def test_read_text_reads_a_regular_file_and_through_a_symlink(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text("é{}", encoding="utf-8")
    assert read_text(path, "record") == "é{}"
    link = tmp_path / "link"
    link.symlink_to(path)
    assert read_text(link, "record") == "é{}"


def test_a_fifo_with_no_writer_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    start = time.monotonic()
    with pytest.raises(FileProblem) as exc:
        read_text(fifo, "record")
    assert "a FIFO" in one_line(exc)
    assert time.monotonic() - start < 5


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null", "/dev/urandom"])
def test_a_device_is_refused_without_reading_it(device: str) -> None:
    with pytest.raises(FileProblem) as exc:
        read_bytes(device, "record")
    assert "a device" in one_line(exc)


def test_a_folder_and_a_missing_file_are_refused(tmp_path: Path) -> None:
    with pytest.raises(FileProblem, match="a folder"):
        read_text(tmp_path, "record")
    with pytest.raises(FileProblem, match="No such file"):
        read_text(tmp_path / "absent.json", "record")


def test_the_size_limit(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_bytes(b"x" * 1000)
    assert len(read_bytes(path, "record", limit=1000)) == 1000
    with pytest.raises(FileProblem) as exc:
        read_bytes(path, "record", limit=999)
    assert "larger than" in one_line(exc)


def test_text_that_is_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin.json"
    path.write_bytes(b"\xff\xfe{}")
    with pytest.raises(FileProblem, match="not UTF-8"):
        read_text(path, "record")


def test_a_path_is_quoted_short_and_without_control_characters() -> None:
    long = "/tmp/" + "x" * 5000 + "\n\x1b[31m"
    text = shown(long)
    assert len(text) <= 80 and "\n" not in text
    assert shown("a\nb\x1b[31m.json") == "a\\nb\\x1b[31m.json"
    with pytest.raises(FileProblem) as exc:
        read_text(long, "record")
    assert len(one_line(exc)) < 160


def test_a_file_problem_is_caught_where_an_oserror_was() -> None:
    # callers written for open() (the TUI's save shows the error) keep catching it
    with pytest.raises(OSError) as caught:
        write_atomic("/dev/full", "x", "record")
    exc = caught.value
    assert isinstance(exc, FileProblem) and "a device" in str(exc)
    assert str(exc.strerror or exc) == str(exc)  # as `except OSError` callers print it
