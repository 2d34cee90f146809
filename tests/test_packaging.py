"""What ships: the version from the installed metadata (git tags at build time), ``py.typed``, ``CITATION.cff``,
the released CHANGELOG section, and the commit a non-editable install writes into ``results.json``."""

import importlib.metadata
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import regcontact
from regcontact.studies import study_result

ROOT = Path(__file__).parents[1]
CHECKOUT = (ROOT / ".git").exists() and shutil.which("git") is not None


def test_the_version_is_the_installed_metadata():
    assert regcontact.__version__ == importlib.metadata.version("regcontact")


def test_an_installed_commit_is_read_from_the_shipped_file(tmp_path, monkeypatch):
    monkeypatch.setattr(study_result, "_COMMIT_FILE", tmp_path / "_commit.txt")
    assert study_result.installed_commit() is None
    (tmp_path / "_commit.txt").write_text("0123abc+dirty\n")
    assert study_result.installed_commit() == "0123abc+dirty"


def test_a_git_archive_names_its_commit(tmp_path):
    """``.git_archival.txt`` is substituted by ``git archive`` (``.gitattributes``); the build hook reads it."""
    hatch_build = pytest.importorskip("hatch_build", reason="the build hook needs hatchling (the dev extra)")
    assert ".git_archival.txt export-subst" in " ".join((ROOT / ".gitattributes").read_text().split())
    (tmp_path / ".git_archival.txt").write_text((ROOT / ".git_archival.txt").read_text())
    assert hatch_build.archive_commit(tmp_path) is None  # not substituted: no commit, no error
    (tmp_path / ".git_archival.txt").write_text("node: 0123abc\ndescribe-name: v0.2.0\n")
    assert hatch_build.archive_commit(tmp_path) == "0123abc"


@pytest.mark.slow
@pytest.mark.skipif(not CHECKOUT, reason="builds a wheel from the git checkout: needs .git and git")
def test_a_wheel_ships_py_typed_and_its_commit_reaches_results_json(tmp_path):
    """``pip install .`` (non-editable) runs away from the checkout: results.json names the commit all the same."""
    pytest.importorskip("hatch_vcs", reason="builds without isolation: needs hatch-vcs (the dev extra)")
    build = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", str(tmp_path)]
    subprocess.run([*build, str(ROOT)], check=True, capture_output=True)
    (wheel,) = tmp_path.glob("regcontact-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        assert "regcontact/py.typed" in names
        built_from = archive.read("regcontact/_commit.txt").decode().strip()
    assert built_from == study_result.git_commit()
    version = wheel.name.split("-")[1]
    tags = subprocess.run(["git", "tag", "--points-at", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout
    if "v" + version in tags.split():  # at a release tag the version is the tag's
        assert re.fullmatch(r"\d+\.\d+\.\d+", version)
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target), str(wheel)],
        check=True,
        capture_output=True,
    )
    code = (
        "import regcontact\nfrom regcontact.studies.study_result import package_versions\n"
        "v = package_versions()\nprint(regcontact.__file__, regcontact.__version__, v['regcontact_git_commit'])"
    )
    env = {**os.environ, "PYTHONPATH": str(target)}
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True)
    file, installed_version, commit = out.stdout.split()
    assert Path(file).is_relative_to(target)
    assert (installed_version, commit) == (version, built_from)


def test_citation_names_the_toolkit_and_the_papers_it_reproduces():
    citation = (ROOT / "CITATION.cff").read_text()
    assert citation.startswith("cff-version: 1.2.0")
    assert "title: regcontact" in citation
    assert "Solution existence and non-uniqueness of Coulomb friction" in citation
    assert "The Painlevé paradox in contact mechanics" in citation


def test_the_changelog_keeps_unreleased_above_the_released_sections():
    headings = re.findall(r"^## (.+)$", (ROOT / "CHANGELOG.md").read_text(), flags=re.M)
    assert headings[0] == "Unreleased"
    assert "0.2.0 (2026-11-26)" in headings[1:]
    assert all(re.fullmatch(r"\d+\.\d+\.\d+ \(\d{4}-\d{2}-\d{2}\)", heading) for heading in headings[1:])
