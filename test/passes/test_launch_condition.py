"""`launch_condition.TripsBetween`: the trips it counts, and its round trips through the IR
attribute and Triton's JSON metadata."""

import json

import pytest

from ttpipe.dialects import scf, tt
from ttpipe.passes.common.launch_condition import Bound, TripsBetween
from ttpipe.textio import parse_module

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


LONGER = TripsBetween(Bound(constant=0), Bound(argument=1), 2048, 13, 20, "ttpipe-row-ring",
                      "ttpipe-row-ring{sms=132 consumers=2}")
"""A condition whose other compile runs the pass with other options (`instead`)."""


def test_a_version_run_instead_round_trips():
    assert TripsBetween.from_attr(LONGER.to_attr()) == LONGER
    assert TripsBetween.from_json(json.loads(json.dumps(LONGER.to_json()))) == LONGER
    assert LONGER.to_attr().data["instead"].data == "ttpipe-row-ring{sms=132 consumers=2}"


CDIV = TripsBetween(Bound(constant=0), Bound(argument=1, add=2047, divisor=2048), 1, 13, 24, "ttpipe-row-ring")
"""`for i in range(tl.cdiv(n, 2048))`: the loop counts chunks."""


@pytest.mark.parametrize("n, trips", [(32768, 16), (24577, 13), (24576, 12), (1, 1), (0, 0),
                                      (-3000, 0)])
def test_a_divided_bound_counts_as_the_kernel_does(n, trips):
    assert CDIV.trips([None, n]) == trips
    assert Bound(argument=0, add=-1, divisor=2).value([-4]) == -2


def test_a_divided_bound_round_trips():
    assert TripsBetween.from_attr(CDIV.to_attr()) == CDIV
    assert TripsBetween.from_json(json.loads(json.dumps(CDIV.to_json()))) == CDIV
    assert {"upper_add", "upper_divisor"} <= set(CDIV.to_attr().data)


BOUNDS = """
tt.func @k(%n: i32, %m: i32) {{
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c7 = arith.constant 7 : i32
  %c8 = arith.constant 8 : i32
  %neg = arith.constant -8 : i32
  %upper = {upper}
  scf.for %i = %c0 to %upper step %c1 : i32 {{
  }}
  tt.return
}}
"""


@pytest.mark.parametrize("upper, bound", [
    ("arith.divsi %n7, %c8 : i32", Bound(argument=0, add=7, divisor=8)),   # tl.cdiv(n, 8)
    ("arith.divsi %n, %c8 : i32", Bound(argument=0, divisor=8)),           # n // 8
    ("arith.addi %c7, %m : i32", Bound(argument=1, add=7)),
    ("arith.divsi %n, %neg : i32", None),                                  # not a positive divisor
    ("arith.divsi %n, %m : i32", None),
    ("arith.muli %n, %c8 : i32", None),
])
def test_bounds_are_read_from_the_ir(upper, bound):
    text = BOUNDS.format(upper=upper).replace("%upper = arith.divsi %n7", "%n7 = arith.addi %n, %c7 : i32\n  %upper = arith.divsi %n7")
    func = next(op for op in parse_module(text).module.walk() if isinstance(op, tt.FuncOp))
    loop = next(op for op in func.walk() if isinstance(op, scf.ForOp))
    assert Bound.of(loop.upperBound, func) == bound
    assert Bound.of(loop.lowerBound, func) == Bound(constant=0)
