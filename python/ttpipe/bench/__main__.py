"""`python -m ttpipe.bench`: see `ttpipe.bench.harness`."""

import sys

from ttpipe.bench.harness import main

sys.exit(main())
