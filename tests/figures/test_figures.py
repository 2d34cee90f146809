"""The figure command: every figure module registers, unknown names are refused."""

import pytest

from regcontact.cli import main
from regcontact.figures import FIGURE_MODULES, load_figures


def test_every_figure_module_registers_its_figures(capsys):
    figures = load_figures()
    assert {
        "preclik_fig3_impulse_velocity_solutions",
        "preclik_fig6_compliant_forces",
        "preclik_fig7_force_integrals",
        "champneys_fig9_mode_regions",
        "champneys_fig12_fast_scale_portraits",
    } <= set(figures)
    assert {draw.__module__ for draw in figures.values()} == set(FIGURE_MODULES)
    assert main(["figures", "--list"]) == 0
    assert [line.split()[0] for line in capsys.readouterr().out.splitlines()] == sorted(figures)


def test_unknown_figure_is_refused(tmp_path, capsys):
    assert main(["figures", "no_such_figure", "--out", str(tmp_path / "f")]) == 2
    assert "unknown figure 'no_such_figure'" in capsys.readouterr().err
    assert not (tmp_path / "f").exists()


@pytest.mark.slow
def test_fig7_reads_the_table1_study_and_its_rigid_references(tmp_path):
    """Fig. 7 draws the Table 1 study's integrals against the rigid references of its ``results.json`` (the
    time-stepping reaction of the rod's one contact): drawn whole, PNG and CSV written."""
    out = tmp_path / "figures"
    assert main(["figures", "preclik_fig7_force_integrals", "--out", str(out)]) == 0
    assert (out / "preclik_fig7_force_integrals.png").stat().st_size > 0
    assert (out / "preclik_fig7_force_integrals.csv").read_text().count("\n") > 10


def test_every_figure_module_is_private_and_a_name_is_registered_once():
    from regcontact.figures import figure

    assert all(module.rsplit(".", 1)[1].startswith("_") for module in FIGURE_MODULES)
    taken = next(iter(load_figures()))
    with pytest.raises(ValueError, match="registered twice"):
        figure(taken)(lambda out_dir: [])


@pytest.mark.slow
def test_a_full_disk_leaves_no_half_written_figure_and_keeps_the_former_one(tmp_path, capsys, monkeypatch):
    """A figure is drawn into a folder of its own inside ``--out`` and its files are moved in when all are
    written: a disk that fills while its PNG is written leaves the former PNG and CSV as they were, no partial
    file and no drawing folder, and one line naming the figure and the reason."""
    import errno

    from matplotlib.figure import Figure

    name, out = "champneys_fig9_mode_regions", tmp_path / "figures"
    assert main(["figures", name, "--out", str(out)]) == 0
    before = {path.name: path.read_bytes() for path in out.iterdir()}
    assert set(before) == {f"{name}.png", f"{name}.csv"}

    def full_disk(self, path, *args, **kwargs):
        with open(path, "wb") as handle:
            handle.write(b"\x89PNG half")
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(Figure, "savefig", full_disk)
    capsys.readouterr()
    assert main(["figures", name, "--out", str(out)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith(f"regcontact: {name}: cannot write to {out}: No space left"), err
    assert {path.name: path.read_bytes() for path in out.iterdir()} == before
