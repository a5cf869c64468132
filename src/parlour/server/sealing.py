"""Deal seeds sealed at rest: whoever reads the database (its file, a backup, a ``pg_dump``)
does not learn the seed of a running deal, and so none of its hidden cards.

**What is stored.** A deal's event keeps its public ``number`` and ``commitment`` as they are;
its secret ``seed`` (63 bits) is replaced by ``"sealed": "s1.NONCE.MASKED"``: a fresh random
128-bit ``NONCE`` and the seed XORed with a 64-bit mask, the first 8 bytes of
HMAC-SHA256(K, ``NONCE`` + the room's id + the event's version), where K is a subkey of the
server key (HMAC-SHA256(key, ``parlour seed mask v1``)). Opening recomputes the mask, and the
seed it gives must match the deal's SHA-256 commitment (:mod:`parlour.core.fairness`), so a
wrong key, a changed nonce or a sealed value moved to another event is found, not dealt.

**Why this construction.** The standard library has no block cipher, and Parlour does not add
a cryptography library to its server for this. What the standard library does have, HMAC-SHA256,
is a pseudorandom function under the assumption that HKDF (RFC 5869) and HMAC-DRBG (NIST SP
800-90A) rest on; a mask drawn from it for one fresh random nonce is a one-time pad as long as
the 8-byte value it covers, used once (two seals share a nonce with chance 2^-128): this is not
a keystream over data of any length, there is nothing to reuse and no padding. Integrity comes
from the commitment, a SHA-256 of the seed that the deal keeps anyway. A host who wants AES
could replace :class:`Sealer` alone; the stored form names its version (``s1``).

**The key** is 32 random bytes in hexadecimal in a file of its own, made (0600, never
overwritten) at the first start: for an SQLite database ``DB.key`` beside it (the key then
travels with a copy of the folder, not with a copy of the database file); for PostgreSQL
``parlour.key`` in the server's working directory (its data folder: ``/data`` in the image,
``/var/lib/parlour`` in the systemd unit), since the database is elsewhere. ``--key-file``
names another file. A key file that other users may read is refused. The database keeps a
check of the key (:data:`CHECK_TABLE`): a server started with another key file, or without
it while sealed seeds are stored, is refused with one line, never dealing from wrong seeds.

**Finished deals** keep their seal: the record (``GET /api/rooms/ROOM/record``) reveals the
seed from the room in memory, and stored events are never rewritten after they are committed
(other processes may have read them). So the key file belongs in every backup.

**Older databases** held plain seeds: at start :func:`prepare` seals the seed of every deal
still running (the finished ones are public in their records), and SQLite's copies of the old
pages are wiped (``secure_delete`` and a checkpoint of the write-ahead log).
"""

from __future__ import annotations

import hmac
import json
import os
import secrets
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Any

from parlour.core.fairness import commitment

if TYPE_CHECKING:
    from parlour.server.store import EventRow, Store

__all__ = [
    "CHECK_TABLE",
    "KeyError_",
    "Sealer",
    "default_key_path",
    "load_key",
    "opened",
    "prepare",
    "private_file",
    "sealed",
]

CHECK_TABLE = "CREATE TABLE IF NOT EXISTS sealing (name TEXT PRIMARY KEY, value TEXT NOT NULL);\n"
"""One row, ``key_check``: a digest of the server key (not the key), the same in both stores
(made with their tables: on PostgreSQL under the lock that keeps starting processes apart)."""


class KeyError_(Exception):  # noqa: N801 - not the builtin KeyError
    """The key file or the database's check of it refuses the start (one line)."""


class Sealer:
    """Seals and opens the seeds of deal events with the server ``key``."""

    def __init__(self, key: bytes) -> None:
        self._mask_key = hmac.digest(key, b"parlour seed mask v1", "sha256")
        self.check = hmac.digest(key, b"parlour key check v1", "sha256").hex()[:32]

    def _mask(self, nonce: bytes, room: str, v: int) -> int:
        where = nonce + room.encode("utf-8", "surrogatepass") + b"\0" + str(v).encode("ascii")
        return int.from_bytes(hmac.digest(self._mask_key, where, "sha256")[:8], "big")

    def seal(self, room: str, v: int, data: dict[str, Any]) -> dict[str, Any]:
        """``data`` without its ``seed``, sealed instead (data without a seed as it is)."""
        seed = data.get("seed")
        if not isinstance(seed, int):
            return data
        nonce = secrets.token_bytes(16)
        masked = seed ^ self._mask(nonce, room, v)
        out = {k: value for k, value in data.items() if k != "seed"}
        out["sealed"] = f"s1.{nonce.hex()}.{masked:016x}"
        return out

    def open(self, room: str, v: int, data: dict[str, Any]) -> dict[str, Any]:
        """``data`` with its seed again.

        Raises:
            ValueError: the seal is malformed or its seed does not match the commitment.
        """
        sealed = data.get("sealed")
        if sealed is None:
            return data
        version, nonce, masked = str(sealed).split(".")
        if version != "s1" or len(nonce) != 32 or len(masked) != 16:
            raise ValueError(f"room {room} event {v}: a sealed seed of an unknown form")
        seed = int(masked, 16) ^ self._mask(bytes.fromhex(nonce), room, v)
        if not hmac.compare_digest(commitment(seed), str(data.get("commitment"))):
            raise ValueError(
                f"room {room} event {v}: the sealed seed does not open with this key file"
            )
        out = {k: value for k, value in data.items() if k != "sealed"}
        out["seed"] = seed
        return out


def sealed(sealer: Sealer | None, room: str, event: EventRow) -> dict[str, Any]:
    """What a store writes of ``event``'s data."""
    return event.data if sealer is None else sealer.seal(room, event.v, event.data)


def opened(sealer: Sealer | None, room: str, v: int, data: dict[str, Any]) -> dict[str, Any]:
    """What a store reads back as an event's data (ValueError: sealed, and no key)."""
    if "sealed" in data and sealer is None:
        raise ValueError(f"room {room} event {v}: the seed is sealed and no key is loaded")
    return data if sealer is None else sealer.open(room, v, data)


def private_file(path: str) -> None:
    """Make the SQLite file ``path`` readable by this user alone (0600) before SQLite opens it:
    a new file is created so (its ``-wal`` and ``-shm`` files take its mode); an existing one
    that others may read is changed to 0600."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        for name in (path, path + "-wal", path + "-shm"):
            try:
                mode = stat.S_IMODE(os.stat(name).st_mode)
            except FileNotFoundError:
                continue
            if mode & 0o077:
                os.chmod(name, 0o600)
    else:
        os.close(fd)


def default_key_path(db: str) -> Path:
    """``DB.key`` beside an SQLite file; ``parlour.key`` here for PostgreSQL."""
    if db.startswith(("postgresql://", "postgres://")):
        return Path("parlour.key")
    return Path(db + ".key")


def load_key(path: Path) -> bytes:
    """The key in ``path``, made there (0600) when there is no such file.

    Raises:
        KeyError_: the file cannot be made or read, others may read it, or it holds no key.
    """
    try:
        if not path.exists():
            _create(path)
        mode = path.stat().st_mode & 0o777
        if mode & 0o077:
            raise KeyError_(
                f"key file {path}: other users may read it (mode {mode:04o}); chmod 600 {path}"
            )
        text = path.read_text(encoding="ascii").strip()
        key = bytes.fromhex(text)
    except (OSError, UnicodeDecodeError, ValueError) as err:
        if isinstance(err, KeyError_):
            raise
        reason = "it holds no key" if isinstance(err, ValueError) else str(err)
        raise KeyError_(f"key file {path}: {reason}") from None
    if len(key) != 32:
        raise KeyError_(f"key file {path}: it holds no key (64 hexadecimal digits)")
    return key


def _create(path: Path) -> None:
    """Write a new key to a private temporary file, then link it to ``path`` (so two servers
    starting at once agree on one key, and nobody reads half a key)."""
    temp = path.with_name(f".{path.name}.{secrets.token_hex(6)}")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.write(fd, (secrets.token_bytes(32).hex() + "\n").encode("ascii"))
        os.fsync(fd)
    finally:
        os.close(fd)
    try:
        os.link(temp, path)
    except FileExistsError:
        pass  # another process made it first: theirs is the key
    finally:
        temp.unlink()


async def prepare(store: Store, key_path: Path) -> tuple[Sealer, int]:
    """The sealer of the key in ``key_path`` (made at the first start), checked against the
    database's check of it, and how many plain seeds of running deals it sealed.

    Raises:
        KeyError_: the key file is missing or holds another key than the database's deals
            were sealed with, or it cannot be used (:func:`load_key`).
    """
    _, rows = await store.query(_CHECK, ())  # the table is made by the store's open
    if rows and not key_path.exists():
        raise KeyError_(
            f"key file {key_path} is missing: this database's deals are sealed with the key "
            "file made at its first start; restore it from your backup, or name it with "
            "--key-file"
        )
    sealer = Sealer(load_key(key_path))
    await store.query(
        "INSERT INTO sealing (name, value) VALUES ('key_check', ?) ON CONFLICT (name) DO NOTHING",
        (sealer.check,),
    )
    _, rows = await store.query(_CHECK, ())
    if rows[0][0] != sealer.check:
        raise KeyError_(
            f"key file {key_path} holds another key than the one this database's deals are "
            "sealed with; restore the key file made at its first start, or name it with "
            "--key-file"
        )
    return sealer, await _migrate(store, sealer)


_CHECK = "SELECT value FROM sealing WHERE name = 'key_check'"


async def _migrate(store: Store, sealer: Sealer) -> int:
    """Seal the plain seed of each room's running deal (its last deal event)."""
    _, rows = await store.query(
        "SELECT e.room, e.v, e.data FROM events e JOIN rooms r ON r.room = e.room "
        "WHERE NOT r.over AND e.kind IN ('deal', 'rematch') AND e.data LIKE ? "
        "ORDER BY e.room, e.v",
        ('%"seed":%',),
    )
    last: dict[str, tuple[int, dict[str, Any]]] = {}
    for room, v, data in rows:
        last[room] = (int(v), json.loads(data))
    sqlite = not store.shared
    if last and sqlite:
        await store.query("PRAGMA secure_delete = ON", ())  # the old bytes are zeroed
    for room, (v, data) in last.items():
        text = json.dumps(sealer.seal(room, v, data), separators=(",", ":"), sort_keys=True)
        await store.query("UPDATE events SET data = ? WHERE room = ? AND v = ?", (text, room, v))
    if last and sqlite:
        await store.query("PRAGMA wal_checkpoint(TRUNCATE)", ())
        await store.query("PRAGMA secure_delete = OFF", ())
    return len(last)
