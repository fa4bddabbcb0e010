"""``dpcheck verify --scheduler``: the same tasks on a Dask distributed cluster give the same
report as the local run (issue 15), apart from timing fields."""
from __future__ import annotations

import json
import re

import pytest

distributed = pytest.importorskip("distributed")

from checks import engine  # noqa: E402
from checks.cli import main, report_json  # noqa: E402
from theory import registry  # noqa: E402

# proved, cited-with-scenarios, refuted-with-a-violated-statement (divergence rows and the
# exact mixture truth) and a privacy-loss-distribution truth (BLAS sums); ~20 s a run
IDS = ["liang-icml:lem-a.4", "liang-icml:lem-a.5", "liang-icml:lem-a.12",
       "liang-aaai:lem-a.4", "liang-aaai:lem-3.2",
       "dice:thm-3.7+t1"]
TIMING = re.compile(r'"seconds": [0-9.eE+-]+')


def _text(reports) -> str:
    return TIMING.sub('"seconds": 0', json.dumps(report_json(reports, seed=3, budget=60),
                                                 indent=2))


@pytest.fixture(scope="module")
def cluster():
    from distributed import LocalCluster
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as c:
        yield c


@pytest.mark.timeout(600)
def test_cluster_run_is_identical_to_the_local_run(cluster):
    rs = [registry.get(i) for i in IDS]
    local = engine.verify(rs, budget=60, seed=3, jobs=1)
    remote = engine.verify(rs, budget=60, seed=3, scheduler=cluster.scheduler_address)
    assert [r.id for r in remote] == IDS
    assert _text(remote) == _text(local)


def test_unreachable_scheduler_is_one_line(capsys):
    code = main(["verify", "liang-icml:lem-a.4", "--no-progress", "--no-cache",
                 "--scheduler", "tcp://127.0.0.1:9"])
    err = capsys.readouterr().err
    assert code == 2 and "cannot be reached" in err and "Traceback" not in err


def test_malformed_scheduler_address_is_one_line(capsys):
    code = main(["verify", "liang-icml:lem-a.4", "--no-progress", "--no-cache",
                 "--scheduler", "not an address"])
    err = capsys.readouterr().err
    assert code == 2 and "HOST:PORT" in err and "Traceback" not in err
