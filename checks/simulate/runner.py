"""Run an algorithm N times on a problem, as one batched tensor computation per chunk.

``simulate`` advances all runs of a chunk together (a Python loop over the T steps only,
never over runs), chunks over runs so that memory stays below ``memory_bytes`` (the chunk
size is a deterministic function of the problem and the budget, never of the machine), and
draws every random number from an explicit ``torch.Generator`` seeded from
``(seed, stream, chunk index)``: the same arguments on the same device give the same bits.
``stream`` separates the runs with the canary (``D'``) from those without (``D``).
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Callable, Sequence

import numpy as np
import torch

from checks.simulate.algorithms import Algorithm, Batch, Hyper
from checks.simulate.problems import Problem

Tensor = torch.Tensor

DEFAULT_MEMORY_BYTES = 512 * 2**20
DTYPES = {"float32": torch.float32, "float64": torch.float64}


def resolve_device(device: str | torch.device = "auto") -> torch.device:
    """``auto`` → CUDA when available, else CPU; ``cuda`` without a GPU is an error."""
    if isinstance(device, torch.device):
        device = str(device)
    if device == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if device == "cpu":
        return torch.device("cpu")
    if device.startswith("cuda"):
        if not torch.cuda.is_available():
            raise ValueError(f"device must be 'auto' or 'cpu' here: no CUDA device is "
                             f"available, got {device!r}")
        return torch.device(device)
    raise ValueError(f"device must be 'auto', 'cpu' or 'cuda[:k]', got {device!r}")


def resolve_dtype(dtype: str | torch.dtype) -> torch.dtype:
    if isinstance(dtype, torch.dtype):
        if dtype not in DTYPES.values():
            raise ValueError(f"dtype must be float32 or float64, got {dtype!r}")
        return dtype
    if dtype not in DTYPES:
        raise ValueError(f"dtype must be one of {sorted(DTYPES)}, got {dtype!r}")
    return DTYPES[dtype]


def chunk_seed(seed: int, stream: int, chunk: int) -> int:
    """A 63-bit torch seed for one chunk, from numpy's SeedSequence (independent streams)."""
    ss = np.random.SeedSequence([int(seed), int(stream), int(chunk)])
    return int(ss.generate_state(1, dtype=np.uint64)[0] & np.uint64(2**63 - 1))


def bytes_per_run(problem: Problem, n_record: int, dtype: torch.dtype) -> int:
    """Working memory of one run inside a chunk (an overestimate, in bytes)."""
    e = torch.finfo(dtype).bits // 8
    per = problem.d * (10 + n_record) + 2
    if not problem.inert:
        per += problem.n_base * (4 * problem.d + 3)
    return e * per + 8


def chunk_size(problem: Problem, runs: int, n_record: int, dtype: torch.dtype,
               memory_bytes: int = DEFAULT_MEMORY_BYTES) -> int:
    if memory_bytes < 1:
        raise ValueError(f"memory_bytes must be >= 1, got {memory_bytes}")
    return max(1, min(runs, memory_bytes // bytes_per_run(problem, n_record, dtype)))


class InclusionClock:
    """I.i.d. Bernoulli(q) inclusion of one example at every step, for N runs, drawn as
    geometric gaps between inclusions (exactly the same law as one uniform per step, but
    about q uniforms per step instead of one).  ``block(L)`` returns, for each of the next L
    steps, the sorted indices of the runs whose batch contains the example.
    """

    def __init__(self, N: int, q: float, gen: torch.Generator, device, dtype=None):
        if not 0.0 <= q <= 1.0:
            raise ValueError(f"q must be in [0, 1], got {q}")
        self.N, self.q, self.gen, self.device = N, q, gen, device
        self.t0 = 0
        self.next = self._gaps(N) - 1 if 0.0 < q < 1.0 else None   # step of next inclusion

    def _gaps(self, k: int) -> Tensor:
        u = 1.0 - torch.rand(k, device=self.device, dtype=torch.float64, generator=self.gen)
        return (torch.log(u) / math.log1p(-self.q)).floor().to(torch.int64) + 1

    def block(self, L: int) -> list[Tensor]:
        if self.q in (0.0, 1.0):
            self.t0 += L
            ix = (torch.arange(self.N, device=self.device) if self.q == 1.0 else
                  torch.zeros(0, dtype=torch.int64, device=self.device))
            return [ix] * L
        end = self.t0 + L
        ts, rs = [], []
        idx = torch.nonzero(self.next < end).squeeze(1)
        while idx.numel():
            t = self.next[idx]
            ts.append(t - self.t0)
            rs.append(idx)
            t = t + self._gaps(idx.numel())
            self.next[idx] = t
            idx = idx[t < end]
        self.t0 = end
        if not ts:
            return [torch.zeros(0, dtype=torch.int64, device=self.device)] * L
        t_all = torch.cat(ts).to(torch.int32)
        order = torch.argsort(t_all, stable=True)       # group by step (runs stay sorted
        r_all = torch.cat(rs)[order]                    # within a round)
        counts = torch.bincount(t_all, minlength=L)
        return list(torch.split(r_all, counts.tolist()))

    def dense(self, L: int, dtype=torch.float64) -> Tensor:
        """The next L steps as a 0/1 tensor of shape ``(L, N)`` (for tests and inspection)."""
        M = torch.zeros(L, self.N, dtype=dtype, device=self.device)
        for t, ix in enumerate(self.block(L)):
            M[t, ix] = 1.0
        return M


CLOCK_BLOCK = 64


class _SampledBatch(Batch):
    """Mini-batches of one step for a chunk of runs (Poisson or fixed-size, see algorithms).

    The canary's membership is either a dense 0/1 column ``canary_mask`` (N, 1) or the
    index list ``canary_idx`` of the runs that sampled it (from :class:`InclusionClock`).
    """

    def __init__(self, problem: Problem, theta: Tensor, X, y, base_mask, canary_mask,
                 canary_grad_const, canary_idx=None):
        self.problem, self.theta, self.X, self.y = problem, theta, X, y
        self.base_mask, self._canary_mask, self.canary_idx = base_mask, canary_mask, canary_idx
        self.canary_grad_const = canary_grad_const

    @property
    def canary_mask(self):
        if self._canary_mask is None and self.canary_idx is not None:
            m = torch.zeros(self.theta.shape[0], 1, device=self.theta.device,
                            dtype=self.theta.dtype)
            m[self.canary_idx] = 1.0
            self._canary_mask = m
        return self._canary_mask

    def _canary_grads(self, transform, rows=None):
        if self.canary_grad_const is not None:
            return transform(self.canary_grad_const)                     # (1, d)
        th = self.theta if rows is None else self.theta[rows]
        return transform(self.problem.canary_grad(th))

    def sum(self, transform):
        out = torch.zeros_like(self.theta)
        return self.accumulate(out, transform, 1.0)

    def accumulate(self, out, transform, alpha=1.0):
        if self.base_mask is not None:
            G = transform(self.problem.example_grads(self.theta, self.X, self.y))
            out.add_(torch.einsum("nk,nkd->nd", self.base_mask, G), alpha=alpha)
        if self.canary_idx is not None:
            ix = self.canary_idx
            if ix.numel():
                g = self._canary_grads(transform, ix).expand(ix.numel(), out.shape[1])
                # the runs in ix are distinct, so either form adds each row once (no
                # order-dependent sums).  CPU: index_put_ is O(|ix|) where index_add_
                # touches all of out; CUDA: index_put_'s accumulate path sorts the indices
                # and waits on the host (~400 us a step at 10^6 runs), index_add_ does not.
                if out.is_cuda:
                    out.index_add_(0, ix, g, alpha=alpha)
                else:
                    out.index_put_((ix,), alpha * g, accumulate=True)
        elif self._canary_mask is not None:
            out.addcmul_(self._canary_mask, self._canary_grads(transform), value=alpha)
        return out

    def size(self):
        n = torch.zeros(self.theta.shape[0], 1, device=self.theta.device, dtype=self.theta.dtype)
        if self.base_mask is not None:
            n = n + self.base_mask.sum(1, keepdim=True)
        if self.canary_mask is not None:
            n = n + self.canary_mask
        return n


@dataclass
class SimResult:
    """Iterates of ``runs`` runs at the steps in ``record_at``: ``theta[i]`` is θ_{record_at[i]}."""

    theta: Tensor                  # (len(record_at), runs, d), on CPU
    record_at: tuple[int, ...]
    with_canary: bool
    seconds: float
    meta: dict = field(default_factory=dict)

    @property
    def final(self) -> Tensor:
        return self.theta[-1]


def _validate(problem, hp, runs, T, with_canary, record_at):
    if not isinstance(runs, int) or isinstance(runs, bool) or not 1 <= runs <= 2**40:
        raise ValueError(f"runs must be an integer in [1, 2**40], got {runs!r}")
    if not isinstance(T, int) or isinstance(T, bool) or not 0 <= T <= 2**40:
        raise ValueError(f"T must be an integer in [0, 2**40], got {T!r}")
    if with_canary and problem.canary is None:
        raise ValueError("with_canary=True but the problem has no canary")
    n_here = problem.n if with_canary else problem.n_base
    if hp.b > problem.n:
        raise ValueError(f"b must be <= n = {problem.n} (q = b/n <= 1), got {hp.b}")
    if hp.sampling == "fixed" and hp.b > n_here:
        raise ValueError(f"b must be <= the dataset size {n_here} for fixed-size sampling, "
                         f"got {hp.b}")
    rec = tuple(sorted(set(int(t) for t in (record_at if record_at is not None else (T,)))))
    if not rec or rec[0] < 0 or rec[-1] > T:
        raise ValueError(f"record_at must be steps in [0, {T}], got {record_at!r}")
    return rec


def simulate(problem: Problem, algorithm: Algorithm, hp: Hyper, *, runs: int, T: int,
             with_canary: bool = True, seed: int = 0, device: str | torch.device = "auto",
             dtype: str | torch.dtype = "float32", record_at: Sequence[int] | None = None,
             memory_bytes: int = DEFAULT_MEMORY_BYTES,
             progress: Callable[[int], None] | None = None,
             checkpoint=None) -> SimResult:
    """Run ``algorithm`` ``runs`` times for ``T`` steps on ``D'`` (with canary) or ``D``.

    θ_0 = 0 (Algorithm 1).  Returns the iterates at ``record_at`` (default: only θ_T).
    ``progress(k)`` is called with the number of run-steps just completed.
    ``checkpoint`` (a :class:`checks.simulate.checkpoint.Checkpoint`) saves every finished
    chunk and skips the chunks already saved by an interrupted run of the same call.
    """
    algorithm.check(hp)
    rec = _validate(problem, hp, runs, T, with_canary, record_at)
    dev = resolve_device(device)
    dt = resolve_dtype(dtype)
    d = problem.d
    q = hp.b / problem.n
    X, y = problem.tensors(dev, dt)
    cs = chunk_size(problem, runs, len(rec), dt, memory_bytes)
    out = torch.empty(len(rec), runs, d, dtype=dt)
    canary_const = None
    if with_canary and problem.canary_constant():
        canary_const = problem.canary_grad(torch.zeros(1, d, device=dev, dtype=dt))
    stream = 1 if with_canary else 0
    t0 = time.perf_counter()
    ck_config = None
    if checkpoint is not None:
        ck_config = {"problem": problem.summary(), "algorithm": algorithm.name,
                     "hyper": hp.as_dict(), "runs": runs, "T": T, "seed": seed,
                     "stream": stream, "device": dev.type, "dtype": str(dt),
                     "record_at": rec, "chunk_runs": cs}
    for ci, start in enumerate(range(0, runs, cs)):
        N = min(cs, runs - start)
        if checkpoint is not None:
            saved = checkpoint.load(ck_config, ci, (len(rec), N, d))
            if saved is not None:
                out[:, start:start + N] = saved.to(dt)
                if progress is not None:
                    progress(N * T)
                continue
        gen = torch.Generator(device=dev)
        gen.manual_seed(chunk_seed(seed, stream, ci))
        ring = [torch.empty(N, d, device=dev, dtype=dt) for _ in range(4)]
        calls = [0]

        def noise(std: float = 1.0):
            z = ring[calls[0] % 4]
            calls[0] += 1
            return z.normal_(0.0, std, generator=gen)

        state = algorithm.init_state(torch.zeros(N, d, device=dev, dtype=dt), hp)
        k = 0
        if rec[0] == 0:
            out[0, start:start + N] = state["theta"].to("cpu")
            k = 1
        joint = hp.sampling == "fixed" and not problem.inert
        n_here = problem.n_base + (1 if with_canary else 0)
        clock = None
        if with_canary and not joint:
            # Poisson: q = b/n; fixed-size over inert data: the canary's marginal b/n_here,
            # independently at every step (the draws of the other examples do not matter).
            clock = InclusionClock(N, q if hp.sampling == "poisson" else hp.b / n_here,
                                   gen, dev)
        block = None
        for t in range(T):
            calls[0] = 0
            base_mask = canary_mask = canary_idx = None
            if clock is not None:
                if t % CLOCK_BLOCK == 0:
                    block = clock.block(CLOCK_BLOCK)
                canary_idx = block[t % CLOCK_BLOCK]
            if not problem.inert:
                if hp.sampling == "poisson":
                    base_mask = (torch.rand(N, problem.n_base, device=dev, dtype=dt,
                                            generator=gen) < q).to(dt)
                else:
                    keys = torch.rand(N, n_here, device=dev, dtype=dt, generator=gen)
                    idx = keys.topk(hp.b, dim=1).indices
                    mask = torch.zeros(N, n_here, device=dev, dtype=dt).scatter_(1, idx, 1.0)
                    base_mask = mask[:, :problem.n_base]
                    if with_canary:
                        canary_mask = mask[:, problem.n_base:]
            batch = _SampledBatch(problem, state["theta"], X, y, base_mask, canary_mask,
                                  canary_const, canary_idx)
            state = algorithm.step(state, batch, noise, hp)
            if k < len(rec) and rec[k] == t + 1:
                out[k, start:start + N] = state["theta"].to("cpu")
                k += 1
            if progress is not None:
                progress(N)
        if not torch.isfinite(out[:, start:start + N]).all():
            raise FloatingPointError(
                f"non-finite iterate in runs {start}..{start + N - 1}: reduce eta or use "
                f"float64 (eta={hp.eta}, dtype={dt})")
        if checkpoint is not None:
            checkpoint.save(ck_config, ci, out[:, start:start + N])
    seconds = time.perf_counter() - t0
    meta = {"problem": problem.summary(), "algorithm": algorithm.name, "hyper": hp.as_dict(),
            "runs": runs, "T": T, "seed": seed, "device": str(dev), "dtype": str(dt).split(".")[-1],
            "q": q, "chunk_runs": cs, "with_canary": with_canary}
    return SimResult(theta=out, record_at=rec, with_canary=with_canary, seconds=seconds, meta=meta)


def simulate_pair(problem: Problem, algorithm: Algorithm, hp: Hyper, *, runs: int, T: int,
                  **kwargs) -> tuple[SimResult, SimResult]:
    """``runs`` runs on ``D' = D ∪ {canary}`` and ``runs`` on ``D`` (independent streams)."""
    return (simulate(problem, algorithm, hp, runs=runs, T=T, with_canary=True, **kwargs),
            simulate(problem, algorithm, hp, runs=runs, T=T, with_canary=False, **kwargs))


def run_steps_per_second(result: SimResult) -> float:
    steps = result.meta["runs"] * result.meta["T"]
    return steps / result.seconds if result.seconds > 0 else math.inf
