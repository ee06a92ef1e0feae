"""The ``--backend``, ``--address`` and ``--jobs`` options of the commands that run shards of work.

``--backend local`` (default) runs in this process or in ``--jobs`` worker
processes; ``--backend ray`` on a Ray cluster (``--address``, else the
``RAY_ADDRESS`` environment variable, else a Ray instance started for the run).
Results are the same on every backend for the same seed (docs/scale.md).
"""

from __future__ import annotations

import argparse

from matador.arena.backend import Backend, BackendError, make_backend
from matador.cli.common import CliError, count


def add_backend_options(parser: argparse.ArgumentParser, jobs: bool = True) -> None:
    """Add ``--backend``, ``--address`` (and ``--jobs`` unless the command has it already)."""
    parser.add_argument("--backend", choices=["local", "ray"], default="local",
                        help="where to run: local (this process or --jobs processes) or ray "
                             "(a Ray cluster; needs matador[ray]) (default local)")
    parser.add_argument("--address", metavar="ADDR",
                        help="the Ray cluster to use with --backend ray (auto, HOST:PORT or "
                             "ray://HOST:10001; default: $RAY_ADDRESS, else a local Ray "
                             "instance for this run)")
    if jobs:
        parser.add_argument("--jobs", type=_positive, default=1, metavar="J",
                            help="worker processes with --backend local (default 1)")


def _positive(text: str) -> int:
    value = count(text)
    if value == 0:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def backend_of(args: argparse.Namespace) -> Backend:
    """The backend the options ask for; a :class:`CliError` naming the option otherwise."""
    try:
        return make_backend(args.backend, jobs=args.jobs, address=args.address)
    except BackendError as e:
        raise CliError("--address" if args.address and args.backend == "local" else "--backend",
                       str(e)) from None
