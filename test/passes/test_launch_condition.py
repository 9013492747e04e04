"""`launch_condition.TripsBetween`: the trips it counts, and its round trips through the IR
attribute and Triton's JSON metadata."""

import json

import pytest

from ttpipe.passes.common.launch_condition import Bound, TripsBetween

ROWS = TripsBetween(Bound(constant=0), Bound(argument=1), 2048, 13, 24, "ttpipe-row-ring")


@pytest.mark.parametrize("n, trips, holds", [
    (32768, 16, True), (24576, 12, False), (24577, 13, True), (49152, 24, True), (49153, 25, False),
    (0, 0, False), (-5, 0, False),  # scf.for runs no iteration where the upper bound is not above
])
def test_trips_are_counted_as_scf_for_runs_them(n, trips, holds):
    assert ROWS.trips([None, n]) == trips and ROWS.holds([None, n]) is holds


def test_both_bounds_may_be_arguments():
    condition = TripsBetween(Bound(argument=0), Bound(argument=2), 1024, 1, 4, "p")
    assert not condition.known and condition.trips([1000, None, 5096]) == 4
    assert TripsBetween(Bound(constant=0), Bound(constant=8192), 2048, 13, 24, "p").known


def test_round_trips():
    assert TripsBetween.from_attr(ROWS.to_attr()) == ROWS
    assert TripsBetween.from_json(json.loads(json.dumps(ROWS.to_json()))) == ROWS
    assert set(ROWS.to_attr().data) == {"lower", "upper_argument", "step", "at_least", "at_most", "without"}
