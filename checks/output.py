"""Writing output files: atomically, with the user's umask, never over someone's file.

Every command that writes a file goes through :func:`write_atomic`:

* a temporary file in the destination folder, then ``os.replace`` — an interrupted run
  leaves either the old file or the new one, never half of one;
* the mode follows the umask like any tool's output (``mkstemp`` alone would give 0600);
* an existing file is replaced only when it is a previous dpcheck output (it carries
  :data:`MARK` near its start, or is a figure/data file inside a dpcheck output folder)
  or ``force=True`` (``--force``); anything else is refused with one line — ``--out
  notes.py`` must not destroy ``notes.py``;
* an empty path is an error, not "print to the terminal".
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

#: written near the start of every text output (JSON key, Markdown/HTML comment, table
#: header) so that a later run may replace it
MARK = "dpcheck"
#: suffixes of files dpcheck writes beside its own marked outputs (figures, tables)
DATA_SUFFIXES = (".png", ".csv", ".svg")


class OutputError(ValueError):
    """A destination that cannot or must not be written (one-line message)."""


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def is_dpcheck_output(path: Path) -> bool:
    """Whether ``path`` looks like a file dpcheck wrote (safe to replace)."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(4096)
    except OSError:
        return False
    if path.suffix.lower() in DATA_SUFFIXES:
        return any(is_dpcheck_output(p) for p in path.parent.glob("*.json")) or \
            any(is_dpcheck_output(p) for p in path.parent.glob("*.md"))
    return MARK.encode() in head


def check_destination(path, *, force: bool = False) -> Path:
    """Validate ``path`` as an output destination; return it as a Path."""
    if path is None or str(path).strip() == "":
        raise OutputError("--out must name a file, got an empty path")
    p = Path(path).expanduser()
    if p.is_dir():
        raise OutputError(f"--out {str(path)!r} is a folder; name a file")
    if p.exists() and not force and not is_dpcheck_output(p):
        raise OutputError(f"--out {str(path)!r} exists and is not a dpcheck output; "
                          "choose another name or pass --force to replace it")
    return p


def write_atomic(path, data: str | bytes, *, force: bool = False) -> str:
    """Write ``data`` to ``path`` (see the module docstring); returns the path."""
    p = check_destination(path, force=force)
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=p.parent, prefix=f".{p.name}.", suffix=".tmp")
    except OSError as exc:
        raise OutputError(f"cannot write {str(path)!r}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data.encode("utf-8") if isinstance(data, str) else data)
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, p)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise OutputError(f"cannot write {str(path)!r}: {exc.strerror or exc}") from None
        raise
    return str(p)
