"""A sweep on Dask workers: a local cluster of two worker processes writes what a run in one process writes, and
a worker killed during the sweep has its chunk solved again (the scheduler's retries), nothing lost."""

import os
import signal
from pathlib import Path

import pytest

from regcontact.cli import main
from regcontact.studies import compliant_study
from regcontact.studies.chunk_checkpoints import ChunkCheckpoints
from regcontact.studies.loading import load_study
from regcontact.studies.study_result import write_results
from regcontact.studies.sweep_engines import DaskEngine
from tests.studies.sweep_study import assert_same_results, run_reference, write_study

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    return run_reference(tmp_path_factory.mktemp("reference"))


@pytest.fixture(scope="module")
def engine():
    with DaskEngine.connect(local_workers=2) as engine:
        yield engine


def test_a_two_worker_cluster_writes_the_results_of_a_run_in_one_process(tmp_path, reference, engine, capsys):
    address = engine.client.scheduler.address
    out = tmp_path / "out"
    assert main(["run", str(write_study(tmp_path)), "--out", str(out), "--scheduler", address]) == 0
    assert f"cluster: dask cluster at {address} (2 workers)" in capsys.readouterr().err
    assert_same_results(out, reference, also=("device",))


def test_a_sweep_stopped_in_one_process_resumes_on_the_cluster(tmp_path, reference, engine, monkeypatch, capsys):
    config, out = str(write_study(tmp_path)), str(tmp_path / "out")
    real = ChunkCheckpoints.save

    def save(self, first, runs):
        if self.kept >= 2:
            raise KeyboardInterrupt
        real(self, first, runs)

    monkeypatch.setattr(ChunkCheckpoints, "save", save)
    assert main(["run", config, "--out", out]) == 130
    monkeypatch.undo()
    address = engine.client.scheduler.address
    assert main(["run", config, "--out", out, "--resume", "--scheduler", address]) == 0
    assert "sending 4 chunks of 2 cases to 2 Dask workers" in capsys.readouterr().err
    assert_same_results(tmp_path / "out", reference, also=("device",))


def test_a_worker_killed_during_the_sweep_has_its_chunk_solved_again(tmp_path, engine):
    # 60 chunks of 2 (the workers have compiled them already): chunks are still out when the first is back.
    loaded = load_study(write_study(tmp_path), ["sweep.alpha={logspace=[2, 5, 120]}"])
    local = compliant_study.CompliantSweepStudy().run(loaded.config)
    pids = engine.client.run(os.getpid)
    killed: list[list[str]] = []

    class KillingAWorker(ChunkCheckpoints):
        """On the first chunk back, kills a worker that holds another."""

        def save(self, first, runs):
            super().save(first, runs)
            if not killed:
                busy = {worker: keys for worker, keys in engine.client.processing().items() if keys}
                worker, keys = next(iter(busy.items()))
                os.kill(pids[worker], signal.SIGKILL)
                killed.append(keys)

    checkpoints = KillingAWorker(tmp_path / "out" / "chunks", loaded.config)
    result = compliant_study.CompliantSweepStudy().run(loaded.config, checkpoints=checkpoints, engine=engine)
    assert killed and killed[0], "no worker held a chunk when the first came back"
    assert checkpoints.held() == 60
    for name, folder in (("local", tmp_path / "local"), ("cluster", tmp_path / "cluster")):
        write_results(local if name == "local" else result, loaded.config, folder)
    assert (tmp_path / "cluster" / "results.csv").read_bytes() == (tmp_path / "local" / "results.csv").read_bytes()


def test_bad_cluster_options_are_refused_in_one_line_before_anything_runs(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["run", str(write_study(tmp_path)), "--out", str(out), "--local-cluster", "0"]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "regcontact: config error: --local-cluster = 0: expected a number of worker processes of at least 1"
    )
    rigid = Path(__file__).parents[2] / "studies" / "rigid_painleve.toml"
    assert main(["run", str(rigid), "--out", str(out), "--scheduler", "tcp://127.0.0.1:1"]) == 2
    assert capsys.readouterr().err == (
        "regcontact: config error: --scheduler = 'tcp://127.0.0.1:1': expected a study of kind 'compliant_sweep' "
        "(this kind runs in one process)\n"
    )
    assert not out.exists()
