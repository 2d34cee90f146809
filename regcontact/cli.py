"""The ``regcontact`` command line.

    regcontact run CONFIG [--out DIR] [--set key.path=value ...]
    regcontact figures [NAME ...] [--out DIR] [--list]

A bad config or option stops with one line naming the key, the value and what was expected (exit status 2),
before anything runs or is written. Progress goes to stderr, the results table to stdout.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

__all__ = ["main"]


def _progress(message: str) -> None:
    print(f"[regcontact] {message}", file=sys.stderr, flush=True)


def _run(args: argparse.Namespace) -> int:
    from regcontact.config import ConfigError
    from regcontact.study import load_study
    from regcontact.study_result import format_table, write_results

    try:
        loaded = load_study(Path(args.config), args.set or [])
    except ConfigError as error:
        print(f"regcontact: config error: {error}", file=sys.stderr)
        return 2
    config = loaded.config
    out_dir = Path(args.out) if args.out else Path("results") / config["study"]["name"]
    for note in loaded.notes:
        _progress(f"note: {note}")

    start = time.perf_counter()
    result = loaded.kind.run(config, progress=_progress)
    result.notes.extend(loaded.notes)
    result.timings["total_s"] = time.perf_counter() - start
    csv_path, json_path = write_results(result, config, out_dir, command=sys.argv)

    columns = [c for c in loaded.kind.TABLE_COLUMNS if c in result.columns]
    print(f"{config['study']['name']}: {config['study'].get('description', '')}".rstrip(": "))
    print(format_table(result, columns))
    for line in result.summary:
        print(line)
    for line in result.failures:
        print(f"FAILED {line}")
    for note in result.notes:
        print(f"note: {note}")
    print(f"wrote {csv_path} and {json_path}")
    return 1 if result.failures else 0


def _figures(args: argparse.Namespace) -> int:
    from regcontact.figures import load_figures

    figures = load_figures()
    if args.list:
        print("\n".join(sorted(figures)))
        return 0
    unknown = [name for name in args.names if name not in figures]
    if unknown:
        print(f"regcontact: unknown figure {unknown[0]!r}; known: {', '.join(sorted(figures))}", file=sys.stderr)
        return 2
    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    for name in args.names or sorted(figures):
        start = time.perf_counter()
        paths = figures[name](out_dir)
        _progress(f"{name}: wrote {', '.join(str(p) for p in paths)} ({time.perf_counter() - start:.1f} s)")
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="regcontact", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)

    run = commands.add_parser("run", help="run a study from a TOML config")
    run.add_argument("config", help="the study's TOML file, e.g. studies/table1.toml")
    run.add_argument("--out", help="output folder (default: results/<study name>/)")
    run.add_argument(
        "--set", action="append", metavar="KEY=VALUE", help="override a config key, e.g. --set system.mu=2"
    )
    run.set_defaults(handler=_run)

    figures = commands.add_parser("figures", help="regenerate the paper figures")
    figures.add_argument("names", nargs="*", help="figures to draw (default: all)")
    figures.add_argument("--out", default="figures", help="output folder (default: figures/)")
    figures.add_argument("--list", action="store_true", help="list the figures and exit")
    figures.set_defaults(handler=_figures)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    return args.handler(args)


if __name__ == "__main__":
    sys.exit(main())
