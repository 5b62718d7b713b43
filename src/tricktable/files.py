"""The one way tricktable reads and writes a file named from outside.

Records, reports, rules files and databases are named by people (``--save``, ``--out``,
``--rules``, ``replay PATH``) and soon by strangers. Reading and writing them here, and only
here, gives every command the same guarantees:

- **writing** is checked before the work starts (:func:`check_writable`: the target is a
  regular file or absent, never a symlink, a device, a FIFO or a folder, and its folder takes a
  new file), then done atomically (:func:`write_atomic`: a temporary file beside the target,
  flushed, then renamed over it), so a crash never leaves half a file and nothing that is not
  a plain file is ever replaced; a journal grows by appending (:func:`append_bytes`: one
  write, flushed to disk when asked; a crash leaves at most its last line cut, which its
  reader ignores);
- **reading** takes regular files only, opened without blocking (a FIFO with no writer or a
  device such as ``/dev/zero`` is refused at once, never waited on), and never more than a size
  limit, so a huge or endless input is one line, not a ``MemoryError``.

Every failure is a :class:`FileProblem`, one line naming the path (shortened) and why.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path
from typing import Final

from tricktable.errors import TricktableError

#: the most a record, a rules file or any other text input may hold (bytes)
MAX_TEXT_BYTES: Final = 64 * 1024 * 1024
#: the longest a path is quoted in an error line (characters)
_PATH_QUOTE: Final = 80


class FileProblem(TricktableError, OSError):
    """A path that cannot be read or written as asked: what it is, and why.

    Also an ``OSError``: code written for the ``open()`` these functions replace (``except
    OSError``: a record that could not be saved is shown, not raised) still catches it.
    """


def shown(path: str | os.PathLike[str]) -> str:
    """``path`` as an error line quotes it: at most 80 characters, control characters escaped."""
    text = os.fspath(path)
    text = text.encode("unicode_escape", "backslashreplace").decode("ascii")
    if len(text) > _PATH_QUOTE:
        text = text[: _PATH_QUOTE - 1] + "…"
    return text


def kind_of(mode: int) -> str:
    """What a file of ``st_mode`` ``mode`` is, as an error line says it ('a FIFO')."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    return "not a regular file"


def check_writable(path: str | os.PathLike[str], what: str = "file") -> Path:
    """Check, before any work, that ``path`` can be written as a new regular file; the path.

    The target must be absent or a regular file (a symbolic link, even to a regular file, is
    refused: writing through it would change a file elsewhere), and its folder must exist and
    accept a new file — tried for real, since permission bits say nothing of a read-only
    mount or of root. Raises :class:`FileProblem`.
    """
    if not os.fspath(path):  # Path("") would be the current folder
        raise FileProblem(f"no {what} path given")
    target = Path(path)
    try:
        mode = os.lstat(target).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise FileProblem(f"cannot write {what} {shown(target)}: {exc.strerror or exc}") from None
    except ValueError:  # a NUL byte: no file can have this name
        raise FileProblem(f"cannot write {what} {shown(target)}: not a path") from None
    if mode is not None and not stat.S_ISREG(mode):
        raise FileProblem(
            f"cannot write {what} {shown(target)}: it is {kind_of(mode)}; give a regular file"
        )
    folder = target.parent
    if not folder.is_dir():
        raise FileProblem(f"cannot write {what} {shown(target)}: no folder {shown(folder)}")
    try:
        fd, probe = tempfile.mkstemp(prefix=f".{target.name[:40]}.", suffix=".probe", dir=folder)
    except OSError as exc:
        raise FileProblem(
            f"cannot write {what} {shown(target)}: {exc.strerror or exc} in {shown(folder)}"
        ) from None
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(probe)
    return target


def write_atomic(path: str | os.PathLike[str], data: str | bytes, what: str = "file") -> Path:
    """Write ``data`` to ``path`` atomically (UTF-8 for text); the path written.

    Checked as :func:`check_writable` checks, again at the moment of writing (the target may
    have changed since the check). A temporary file of its own in the same folder is written,
    flushed to disk and renamed over the target, so two writers of one path never write into
    each other's file and the last to finish wins whole.
    """
    target = check_writable(path, what)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name[:40]}.", suffix=".tmp", dir=target.parent)
    except OSError as exc:
        raise FileProblem(f"cannot write {what} {shown(target)}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(payload)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, target)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise FileProblem(f"cannot write {what} {shown(target)}: {exc.strerror or exc}") from None
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return target


def append_bytes(
    path: str | os.PathLike[str],
    data: bytes,
    what: str = "file",
    fresh: bool = False,
    sync: bool = True,
) -> Path:
    """Append ``data`` to the regular file ``path`` with one write, flushed to disk; the path.

    ``fresh`` empties the file first. The file is made when absent; a symbolic link, a FIFO,
    a device or a folder at ``path`` is refused (:class:`FileProblem`), never written through.
    ``sync`` false leaves the flush to the kernel: the write survives the process at once,
    and a power cut only once the kernel has written it (within seconds).
    """
    target = Path(path)
    flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0)
    flags |= getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    if fresh:
        flags |= os.O_TRUNC
    try:
        fd = os.open(target, flags, 0o644)
    except OSError as exc:
        raise FileProblem(f"cannot write {what} {shown(target)}: {exc.strerror or exc}") from None
    except ValueError:  # a NUL byte: no file can have this name
        raise FileProblem(f"cannot write {what} {shown(target)}: not a path") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise FileProblem(
                f"cannot write {what} {shown(target)}: it is {kind_of(mode)}; give a regular file"
            )
        view = memoryview(data)
        while view:  # one write as a rule; a short one (a full disk, a signal) goes on
            view = view[os.write(fd, view) :]
        if sync:
            os.fsync(fd)
    except FileProblem:
        raise
    except OSError as exc:
        raise FileProblem(f"cannot write {what} {shown(target)}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    return target


def read_bytes(
    path: str | os.PathLike[str], what: str = "file", limit: int = MAX_TEXT_BYTES
) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them; else FileProblem.

    Opened with ``O_NONBLOCK`` and checked with ``fstat`` on the open descriptor: a FIFO, a
    device or a folder is refused without waiting for a writer or reading a byte.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise FileProblem(f"cannot read {what} {shown(path)}: {exc.strerror or exc}") from None
    except ValueError:  # a NUL byte: no file can have this name
        raise FileProblem(f"cannot read {what} {shown(path)}: not a path") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise FileProblem(
                f"cannot read {what} {shown(path)}: it is {kind_of(info.st_mode)}, "
                "not a regular file"
            )
        if info.st_size > limit:
            raise FileProblem(_too_big(what, path, limit))
        chunks: list[bytes] = []
        size = 0
        while size <= limit:  # the file may grow while it is read
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise FileProblem(_too_big(what, path, limit))
        return b"".join(chunks)
    except FileProblem:
        raise  # an OSError too: said once, not wrapped again
    except OSError as exc:
        raise FileProblem(f"cannot read {what} {shown(path)}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def read_text(path: str | os.PathLike[str], what: str = "file", limit: int = MAX_TEXT_BYTES) -> str:
    """The UTF-8 text of the regular file ``path`` (see :func:`read_bytes`)."""
    data = read_bytes(path, what, limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise FileProblem(f"{what} {shown(path)} is not UTF-8 text") from None


def _too_big(what: str, path: str | os.PathLike[str], limit: int) -> str:
    return f"{what} {shown(path)} is larger than {limit // (1024 * 1024)} MiB; refused"
