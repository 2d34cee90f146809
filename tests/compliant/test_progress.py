from regcontact.compliant import SweepProgress


def test_without_a_bar_a_sweep_says_each_chunk_and_the_pace_of_the_first():
    lines: list[str] = []
    with SweepProgress(640, 576, say=lines.append, announce_above=500, started=0.0) as progress:
        progress.chunk_done(64)
        progress.chunk_done(64)
    assert lines[0].startswith("576 cases: the first 64 took ")
    assert lines[1].startswith("solved 128/640 cases (")
    assert lines[2].startswith("solved 192/640 cases (")
    assert len(lines) == 3
    assert progress.solved == 192


def test_a_small_sweep_is_not_announced_and_chunk_lines_can_be_off():
    lines: list[str] = []
    with SweepProgress(64, 64, say=lines.append, announce_above=100, chunk_lines=False) as progress:
        progress.chunk_done(64)
    assert lines == []
