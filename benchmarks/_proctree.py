"""Run a command and follow its whole process tree through /proc (Linux): the CPU time and
the peak resident memory of the command and of every process below it — the worker
server and the workers, which the command never waits for, so its own rusage lacks them.
Readings every ``every`` seconds; what a process does in its last interval before it ends
can be missed (its peak, VmHWM, is monotone: only growth in that interval)."""
from __future__ import annotations

import os
import subprocess
import time
from dataclasses import dataclass, field


@dataclass
class Tree:
    wall: float = 0.0
    returncode: int = 0
    stdout: str = ""
    stderr: str = ""
    cpu: dict = field(default_factory=dict)        # pid -> utime + stime, seconds
    peak: dict = field(default_factory=dict)       # pid -> VmHWM, bytes
    names: dict = field(default_factory=dict)      # pid -> first words of its command line
    peak_sum: int = 0                              # largest sum of RSS seen at one reading

    @property
    def cpu_total(self) -> float:
        return sum(self.cpu.values())

    @property
    def peak_max(self) -> int:
        return max(self.peak.values(), default=0)


def descendant_cpu(root: int) -> dict[int, float]:
    """utime + stime (seconds) of ``root`` and of every process below it, by pid, read
    from /proc now (empty where /proc cannot be read)."""
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    parent, stat = {}, {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return {}
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parent[int(name)] = int(fields[1])
        stat[int(name)] = (int(fields[11]) + int(fields[12])) / tick
    out = {}
    for pid, cpu in stat.items():
        p = pid
        while p in parent and p != root and p > 1:
            p = parent[p]
        if p == root:
            out[pid] = cpu
    return out


def _read(root: int, tree: Tree) -> None:
    rss_now = 0
    for pid, cpu in descendant_cpu(root).items():
        tree.cpu[pid] = cpu
        try:
            with open(f"/proc/{pid}/status") as fh:
                for line in fh:
                    if line.startswith("VmHWM:"):
                        tree.peak[pid] = max(tree.peak.get(pid, 0), int(line.split()[1]) << 10)
                    elif line.startswith("VmRSS:"):
                        rss_now += int(line.split()[1]) << 10
            if pid not in tree.names:
                with open(f"/proc/{pid}/cmdline", "rb") as fh:
                    tree.names[pid] = " ".join(
                        a.decode(errors="replace") for a in fh.read().split(b"\0")[:3])[:80]
        except OSError:
            continue
    tree.peak_sum = max(tree.peak_sum, rss_now)


def run(cmd: list[str], *, env=None, cwd=None, every: float = 0.1,
        timeout: float | None = None) -> Tree:
    tree = Tree()
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        while proc.poll() is None:
            _read(proc.pid, tree)
            if timeout is not None and time.perf_counter() - t0 > timeout:
                proc.kill()
                break
            time.sleep(every)
        tree.stdout, tree.stderr = proc.communicate()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    tree.wall = time.perf_counter() - t0
    tree.returncode = proc.returncode
    return tree


def gib(n: int) -> str:
    return f"{n / (1 << 30):.2f} GiB"
