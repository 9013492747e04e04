"""`ttpipe-opt`: see `ttpipe.opt`."""

import sys

from ttpipe.opt import main as _main


def main() -> None:
    sys.exit(_main())
