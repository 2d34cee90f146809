"""A sweep on Dask workers: a local cluster of two worker processes writes what a run in one process writes, and
a worker killed during the sweep has its chunk solved again (the scheduler's retries), nothing lost; a body from
a file of the user's runs there too."""

import os
import shutil
import signal
import threading
from pathlib import Path

import pytest

from regcontact.cli import main
from regcontact.studies import compliant_study
from regcontact.studies.chunk_checkpoints import ChunkCheckpoints
from regcontact.studies.loading import load_study
from regcontact.studies.study_result import write_results
from regcontact.studies.sweep_engines import DaskEngine
from tests.studies.sweep_study import assert_same_results, ball_study, run_reference, write_study

pytestmark = pytest.mark.slow

BODIES = Path(__file__).parent / "user_bodies"

#: The ball of ``user_bodies/ball.py`` (``docs/own-body.md``), 2 α × 2 masses in chunks of 2.
BALL_STUDY = ball_study("alpha = [1e2, 1e4]\nmass = [1.0, 2.5]\nchunk_size = 2")


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


def test_a_body_from_a_file_runs_on_the_cluster_as_in_one_process(tmp_path, engine):
    """A study naming ``bodies.py:Ball`` (a module that exists only in the process that loaded the study): the
    workers import the file's content as that process did, and the cluster writes what one process writes. The
    run is given 300 s (the workers compile the ball's solve once): a worker that cannot unpickle a chunk would
    otherwise leave it waiting."""
    shutil.copy(BODIES / "ball.py", tmp_path / "bodies.py")
    study = tmp_path / "ball.toml"
    study.write_text(BALL_STUDY, encoding="utf-8")
    assert main(["run", str(study), "--out", str(tmp_path / "local")]) == 0
    address = engine.client.scheduler.address
    codes: list[int] = []
    command = ["run", str(study), "--out", str(tmp_path / "cluster"), "--scheduler", address]
    runner = threading.Thread(target=lambda: codes.append(main(command)), daemon=True)
    runner.start()
    runner.join(timeout=300)
    assert not runner.is_alive(), "the cluster run did not finish within 300 s"
    assert codes == [0]
    assert_same_results(tmp_path / "cluster", tmp_path / "local", also=("device",))
