"""Writing and reading files so that no game is lost: a save is whole or absent, never half
written, and a symlinked save path keeps its link.

:func:`write_text_atomic` writes to a temporary file in the target's own folder, flushes it to
disk (fsync) and renames it over the target (``os.replace``, atomic on POSIX and Windows), so a
crash or a kill mid-write leaves the old file as it was. :func:`read_text_limited` reads a file
a person named with a size limit and one-line errors.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

from parlour.core.inputs import parse_path
from parlour.errors import FileError

__all__ = [
    "MAX_READ_BYTES",
    "read_text_limited",
    "resolve_target",
    "shown_name",
    "write_text_atomic",
]

MAX_READ_BYTES = 64 * 1024 * 1024
"""The largest file :func:`read_text_limited` reads by default."""


def shown_name(path: str | os.PathLike[str], limit: int = 300) -> str:
    """A file name as a one-line message shows it: control characters (a newline in a name)
    become spaces, and a very long name is cut with ``...``."""
    text = "".join(c if c.isprintable() else " " for c in os.fspath(path))
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _reason(err: OSError) -> str:
    return err.strerror or type(err).__name__


def resolve_target(path: str | os.PathLike[str]) -> Path:
    """The file a write to ``path`` lands in: ``~`` expanded and symlinks followed (also a
    dangling one, to the file it names), so the write replaces the link's target and the link
    stays a link.

    Raises:
        InvalidInput: for an empty name or one with a NUL.
        FileError: for a path that is a folder, a device, a pipe or a socket (never replaced
            by a plain file), or a loop of links.
    """
    target = parse_path(path)
    try:
        real = Path(os.path.realpath(target, strict=False))
    except (OSError, RuntimeError) as err:  # a loop of symlinks
        raise FileError(f"cannot write {shown_name(target)}: {err}") from None
    if real.is_dir():
        raise FileError(f"cannot write {shown_name(target)}: it is a folder; name a file in it")
    try:
        mode = os.stat(real).st_mode
    except OSError:
        return real  # a new file (or one the write itself will name the problem of)
    if not stat.S_ISREG(mode):
        # A device (/dev/null), a pipe or a socket: renaming over it would replace it by a
        # plain file, and a save is never meant to go there.
        raise FileError(f"cannot write {shown_name(target)}: it is not a plain file")
    return real


def write_text_atomic(
    path: str | os.PathLike[str], text: str, *, overwrite: bool = True, encoding: str = "utf-8"
) -> Path:
    """Write ``text`` to ``path`` atomically and durably; returns the file written (the link's
    target when ``path`` is a symlink).

    The text goes to a temporary file beside the target (same folder, so the rename never crosses
    file systems), is fsynced, takes the mode of the file it replaces (or the usual mode for a new
    file under the umask), and is renamed over the target with ``os.replace``; the folder is then
    fsynced where the system allows. On any failure the temporary file is removed and the target
    is left as it was.

    With ``overwrite=False`` an existing target is never replaced: the new file is linked into
    place only if the name is still free at that instant (``os.link`` fails on an existing
    name), so two games saving at once cannot overwrite each other.

    Raises:
        InvalidInput: for an empty file name or one holding a NUL.
        FileError: one line naming the file and the reason (a folder, a missing folder, no
            permission, disk full, or, with ``overwrite=False``, a file already there).
    """
    target = resolve_target(path)
    shown = shown_name(path)
    folder = target.parent
    if not overwrite and os.path.lexists(target):
        raise FileError(f"cannot write {shown}: a file of that name is already there")
    try:
        existing_mode: int | None = stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        existing_mode = None
    try:
        fd, tmp_name = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as err:
        raise FileError(f"cannot write {shown}: {_reason(err)}") from None
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "w", encoding=encoding, newline="") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(tmp, existing_mode if existing_mode is not None else _new_file_mode())
        if overwrite:
            os.replace(tmp, target)
        else:
            _link_new(tmp, target, shown)
    except OSError as err:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise FileError(f"cannot write {shown}: {_reason(err)}") from None
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    _fsync_folder(folder)
    return target


def _link_new(tmp: Path, target: Path, shown: str) -> None:
    """Put ``tmp`` at ``target`` only if ``target`` does not exist, then drop ``tmp``."""
    try:
        os.link(tmp, target)
    except FileExistsError:
        raise FileError(f"cannot write {shown}: a file of that name is already there") from None
    except OSError:
        # A file system without hard links: claim the name with O_EXCL, then rename over it.
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        os.close(fd)
        os.replace(tmp, target)
        return
    tmp.unlink()


def _new_file_mode() -> int:
    """0o666 under the process's umask, as ``open(..., "w")`` would create a file."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def _fsync_folder(folder: Path) -> None:
    """Make the rename itself durable; some systems cannot open a folder, which is harmless."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def read_text_limited(
    path: str | os.PathLike[str], *, max_bytes: int = MAX_READ_BYTES, encoding: str = "utf-8"
) -> str:
    """The text of the file ``path`` (``~`` expanded), at most ``max_bytes`` long.

    Raises:
        InvalidInput: for an empty file name or one holding a NUL.
        FileError: one line naming the file and the reason (missing, a folder, no permission,
            too large, not UTF-8).
    """
    source = parse_path(path)
    shown = shown_name(path)
    try:
        if source.is_dir():
            raise FileError(f"cannot read {shown}: it is a folder")
        with open(source, "rb") as f:
            data = f.read(max_bytes + 1)
    except OSError as err:
        raise FileError(f"cannot read {shown}: {_reason(err)}") from None
    if len(data) > max_bytes:
        raise FileError(f"cannot read {shown}: it is larger than {max_bytes} bytes")
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as err:
        raise FileError(f"cannot read {shown}: not {encoding} text (byte {err.start})") from None
