"""`ttpipe-bench-io`: see `ttpipe.bench_io`."""

import sys

from ttpipe.bench_io import main as _main


def main() -> None:
    sys.exit(_main())
