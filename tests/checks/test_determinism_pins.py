"""The process-wide pins of :mod:`checks.determinism`: Hypothesis' local-constant pool is
empty, so a seeded search gives the same examples whatever modules were imported before it
(without the pin it does not — the test shows both), and BLAS runs one thread.  Each
check runs in a fresh interpreter: the pins are process-wide and the engine sets them on
import."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

_PROBE = """
import json, sys
sys.path[:0] = [{root!r}, {mods!r}]
from hypothesis import given, settings, seed, strategies as st
from checks.determinism import pin_hypothesis
pinned = pin_hypothesis() if {pin} else None
again = pin_hypothesis() if {pin} else None

def run():
    got = []

    @seed(5)
    @settings(max_examples=300, database=None, derandomize=False, deadline=None)
    @given(st.floats(allow_nan=False), st.integers())
    def f(x, i):
        got.append((x, i))
    f()
    return got

before = run()
import constants_of_a_user_module            # literals Hypothesis would otherwise mix in
after = run()
planted = any(x == 123456.789 or i == 777777777 for x, i in after)
print(json.dumps({{"pinned": pinned, "again": again, "same": before == after,
                  "planted": planted}}))
"""


def _probe(tmp_path, pin: bool) -> dict:
    (tmp_path / "constants_of_a_user_module.py").write_text(textwrap.dedent("""
        A = 123456.789
        B = 777777777
        C = "a-literal-string"
    """), encoding="utf-8")
    code = _PROBE.format(root=str(ROOT), mods=str(tmp_path), pin=pin)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_pinned_hypothesis_draws_the_same_examples_whatever_was_imported(tmp_path):
    got = _probe(tmp_path, pin=True)
    assert got == {"pinned": True, "again": True, "same": True, "planted": False}


def test_unpinned_hypothesis_mixes_in_a_new_module_s_literals(tmp_path):
    """The control: what the pin prevents does happen without it (if a future Hypothesis
    stops doing it, this test says so and the pin may go)."""
    got = _probe(tmp_path, pin=False)
    assert got["pinned"] is None
    assert not got["same"] and got["planted"]


def test_blas_runs_one_thread_once_pinned():
    code = textwrap.dedent(f"""
        import json, sys
        sys.path.insert(0, {str(ROOT)!r})
        import numpy
        from threadpoolctl import threadpool_info, threadpool_limits
        from checks.determinism import pin_blas_threads
        threadpool_limits(limits=3, user_api="blas")   # start multi-threaded, any machine
        before = [i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"]
        ok = pin_blas_threads()
        again = pin_blas_threads()
        after = [i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"]
        print(json.dumps([before, ok, again, after]))
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, check=True)
    before, ok, again, after = json.loads(out.stdout.strip().splitlines()[-1])
    assert before and all(n == 3 for n in before)      # the probe starts multi-threaded
    assert ok is True and again is True
    assert after == [1] * len(before)
