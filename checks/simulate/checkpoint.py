"""Checkpoints for long simulator runs (issue 6, *Determinism and interruption*).

:func:`checks.simulate.runner.simulate` draws every chunk of runs from its own generator
seeded by ``(seed, stream, chunk index)``, so a chunk's final iterates do not depend on
the other chunks.  A :class:`Checkpoint` stores each finished chunk in a directory (one
file per chunk, written to a temporary file and moved into place with ``os.replace``, so
a kill never leaves a half-written chunk); a re-run of the same command loads the
finished chunks and computes only the missing ones, which gives bit-for-bit the numbers
of an uninterrupted run.

Files are named by a hash of everything that determines a chunk's numbers (problem,
algorithm, hyper-parameters, runs, T, seed, stream, device type, dtype, recorded steps,
chunk size), so a checkpoint of a different configuration is never reused.
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
import time
from pathlib import Path

import torch


class Checkpoint:
    """Per-chunk results of simulator runs under ``directory``."""

    def __init__(self, directory: str | os.PathLike):
        if directory is None or str(directory) == "":
            raise ValueError("checkpoint directory must be a non-empty path, got "
                             f"{directory!r}")
        self.directory = Path(directory)
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ValueError(f"checkpoint directory {str(directory)!r} cannot be created: "
                             f"{exc.strerror or exc}") from None
        if not os.access(self.directory, os.W_OK):
            raise ValueError(f"checkpoint directory {str(directory)!r} is not writable")
        self.loaded = 0      # chunks taken from disk in this process
        self.saved = 0       # chunks written in this process

    @staticmethod
    def key(config: dict) -> str:
        text = json.dumps(config, sort_keys=True, default=str)
        return hashlib.sha256(text.encode()).hexdigest()[:20]

    def path(self, config: dict, chunk: int) -> Path:
        return self.directory / f"sim-{self.key(config)}-chunk{int(chunk):06d}.pt"

    def load(self, config: dict, chunk: int, shape: tuple[int, ...]) -> torch.Tensor | None:
        """The chunk's saved iterates, or None when absent or unreadable (then it is
        simply computed again)."""
        p = self.path(config, chunk)
        if not p.exists():
            return None
        try:
            t = torch.load(p, map_location="cpu", weights_only=True)
        except Exception:   # noqa: BLE001 - a damaged file is recomputed, never trusted
            return None
        if not isinstance(t, torch.Tensor) or tuple(t.shape) != tuple(shape):
            return None
        self.loaded += 1
        return t

    def save(self, config: dict, chunk: int, tensor: torch.Tensor) -> Path:
        """Atomically write the chunk's iterates (temp file + ``os.replace``)."""
        p = self.path(config, chunk)
        fd, tmp = tempfile.mkstemp(prefix=p.name + ".", suffix=".tmp", dir=self.directory)
        try:
            with os.fdopen(fd, "wb") as fh:
                torch.save(tensor.detach().to("cpu").clone(), fh)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, p)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
        self.saved += 1
        _test_pause(self)
        return p

    def files(self) -> list[Path]:
        return sorted(self.directory.glob("sim-*-chunk*.pt"))

    def clear(self) -> None:
        """Remove every chunk file (after a run finished and its outputs are written)."""
        for p in self.files():
            try:
                p.unlink()
            except OSError:
                pass


#: test hook (never set in normal use): after this many chunks saved by one process, write
#: ``paused`` into the checkpoint folder and wait to be interrupted — so a test can interrupt
#: a run at a known point instead of racing it with a poller
PAUSE_ENV = "DPCHECK_TEST_PAUSE_AFTER_CHUNKS"


def _test_pause(ck: "Checkpoint") -> None:
    k = os.environ.get(PAUSE_ENV)
    if not k or ck.saved < int(k):
        return
    (ck.directory / "paused").write_text(str(ck.saved))
    while True:                      # until SIGINT (KeyboardInterrupt) or SIGKILL
        time.sleep(0.05)
