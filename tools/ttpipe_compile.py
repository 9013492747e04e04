"""`ttpipe-compile`: see `ttpipe.compile`."""

import sys

from ttpipe.compile import main as _main


def main() -> None:
    sys.exit(_main())
