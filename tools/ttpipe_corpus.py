"""Console entry point ``ttpipe-corpus``: build the IR corpus (see :mod:`ttpipe.corpus.build`)."""

import sys

from ttpipe.corpus.build import main as build_main


def main():
    sys.exit(build_main())


if __name__ == "__main__":
    main()
