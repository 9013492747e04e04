"""The GPU tests' watchdog (`sm90a.run_cases`), on children that need no GPU: the results of a
child that finishes, and a hang named by the case it started last, however long the run."""

import sys

import pytest
from sm90a import run_cases

CHILD = """
import json, sys, time
for case in range(3):
    print(json.dumps({"started": case}), flush=True)
    time.sleep(float(sys.argv[1]) if case == 2 else 0.3)
    print(json.dumps({"case": case}), flush=True)
"""


def test_a_child_slower_in_all_than_the_watchdog_but_never_silent_passes():
    assert run_cases([sys.executable, "-c", CHILD, "0.3"], quiet_seconds=0.8) == [{"case": 0}, {"case": 1},
                                                                                 {"case": 2}]


def test_a_silent_child_is_a_hang_naming_its_case():
    with pytest.raises(pytest.fail.Exception, match="hang: nothing for 0.8 s .*last case started: 2"):
        run_cases([sys.executable, "-c", CHILD, "30"], quiet_seconds=0.8)
