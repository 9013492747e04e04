"""A kernel version that pays only for some launches: the condition a pass writes on the
function it rewrote (`ttpipe.launch_when`), under which the rewritten kernel is the faster
one, and which the Triton plug-in reads to choose, at every launch, between that compile and
one made without the pass (`ttpipe.triton.versions`).

The condition is on the trip count of a loop whose bounds the launch knows: each bound is a
constant, or one of the kernel's integer arguments (its index among the `tt.func`'s
arguments) plus a constant, divided by a positive constant as `arith.divsi` divides (toward
zero): `N`, and `tl.cdiv(N, BLOCK)` and `N // BLOCK` as Triton prints them
(`arith.divsi (arith.addi N, BLOCK - 1), BLOCK`); the step a constant.
`TripsBetween.holds` counts the trips as `scf.for` runs them (signed; none where the upper
bound is not above the lower) and checks them against an inclusive range. Where the other
compile is not made without the pass but with the pass invoked otherwise (`instead`: its
options changed, e.g. `ttpipe-row-ring{consumers=2}` for longer rows), that compile carries
a condition of its own, and a launch outside both ranges falls through to a third.

    ttpipe.launch_when = {at_least = 13 : i64, at_most = 24 : i64, lower = 0 : i64,
                          step = 2048 : i64, upper_argument = 5 : i64, without = "ttpipe-row-ring"}

A bound `(N + 2047) / 2048` adds `upper_add = 2047 : i64, upper_divisor = 2048 : i64`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import DictionaryAttr, IntegerAttr, StringAttr, i64
from xdsl.ir import Attribute, BlockArgument, SSAValue

from ttpipe.dialects import arith, tt
from ttpipe.passes.common.arith_canonicalize import trunc_div
from ttpipe.passes.common.builder import OpBuilder, constant_int_value
from ttpipe.passes.common.integers import scf_for_trips

ATTRIBUTE = "ttpipe.launch_when"


@dataclass(frozen=True)
class Bound:
    """A loop bound the launch knows: a constant, or `(argument + add) / divisor` of the
    kernel's argument `argument` (`arith.divsi`, divisor > 0)."""

    constant: int | None = None
    argument: int | None = None
    add: int = 0
    divisor: int = 1

    @staticmethod
    def of(value: SSAValue, func: tt.FuncOp) -> Bound | None:
        """`value` as a bound: a constant, or an argument of `func` plus a constant, divided by
        a positive constant, either or both left out; None otherwise."""
        if (constant := constant_int_value(value)) is not None:
            return Bound(constant=constant)
        divisor = 1
        if isinstance(value.owner, arith.DivSIOp):
            divisor = constant_int_value(value.owner.rhs) or 0
            if divisor <= 0:
                return None
            value = value.owner.lhs
        add = 0
        if isinstance(value.owner, arith.AddIOp):
            for term, other in ((value.owner.lhs, value.owner.rhs), (value.owner.rhs, value.owner.lhs)):
                if (constant := constant_int_value(other)) is not None:
                    value, add = term, constant
                    break
        if isinstance(value, BlockArgument) and value.owner is func.body.first_block:
            return Bound(argument=value.index, add=add, divisor=divisor)
        return None

    def value(self, arguments: Sequence[int]) -> int:
        if self.argument is None:
            return self.constant
        return trunc_div(arguments[self.argument] + self.add, self.divisor)

    def build(self, b: OpBuilder, func: tt.FuncOp, type_: Attribute) -> SSAValue:
        """The bound as an SSA value of `type_` at `b`'s point (anywhere in `func`)."""
        if self.argument is None:
            return b.constant(self.constant, type_)
        value = func.body.block.args[self.argument]
        if self.add:
            value = b.addi(value, b.constant(self.add, type_))
        return b.divsi(value, b.constant(self.divisor, type_)) if self.divisor != 1 else value


@dataclass(frozen=True)
class TripsBetween:
    """The rewritten kernel pays where `at_least <= trips <= at_most`, the trips of a loop
    from `lower` to `upper` by `step`; elsewhere the kernel compiled `without` the pass does."""

    lower: Bound
    upper: Bound
    step: int
    at_least: int
    at_most: int
    without: str
    """The pass that built the version (the other compile runs the pipeline without it)."""
    instead: str | None = None
    """The pass's invocation (`name{options}`) the other compile runs in its place; None:
    the other compile leaves the pass out."""

    @property
    def known(self) -> bool:
        """Both bounds are constants: the compile itself can tell."""
        return self.lower.argument is None and self.upper.argument is None

    def trips(self, arguments: Sequence[int]) -> int:
        """The loop's trips for the kernel's `arguments` (by `tt.func` argument index)."""
        return scf_for_trips(self.lower.value(arguments), self.upper.value(arguments), self.step)

    def holds(self, arguments: Sequence[int]) -> bool:
        return self.at_least <= self.trips(arguments) <= self.at_most

    def to_attr(self) -> DictionaryAttr:
        fields: dict[str, Attribute] = {"step": IntegerAttr(self.step, i64), "at_least": IntegerAttr(self.at_least, i64),
                                        "at_most": IntegerAttr(self.at_most, i64), "without": StringAttr(self.without)}
        if self.instead is not None:
            fields["instead"] = StringAttr(self.instead)
        for name, bound in (("lower", self.lower), ("upper", self.upper)):
            if bound.argument is None:
                fields[name] = IntegerAttr(bound.constant, i64)
            else:
                fields[f"{name}_argument"] = IntegerAttr(bound.argument, i64)
                fields |= {f"{name}_{part}": IntegerAttr(getattr(bound, part), i64)
                           for part, unset in (("add", 0), ("divisor", 1)) if getattr(bound, part) != unset}
        return DictionaryAttr(fields)

    @staticmethod
    def from_attr(attr: DictionaryAttr) -> TripsBetween:
        data = attr.data

        def bound(name: str) -> Bound:
            if name in data:
                return Bound(constant=data[name].value.data)
            parts = {part: data[f"{name}_{part}"].value.data for part in ("add", "divisor") if f"{name}_{part}" in data}
            return Bound(argument=data[f"{name}_argument"].value.data, **parts)

        return TripsBetween(bound("lower"), bound("upper"), data["step"].value.data, data["at_least"].value.data,
                            data["at_most"].value.data, data["without"].data,
                            data["instead"].data if "instead" in data else None)

    def to_json(self) -> dict:
        """For Triton's kernel metadata (JSON): the same fields."""
        return {"lower": vars(self.lower), "upper": vars(self.upper), "step": self.step, "at_least": self.at_least,
                "at_most": self.at_most, "without": self.without, "instead": self.instead}

    @staticmethod
    def from_json(data: dict) -> TripsBetween:
        return TripsBetween(Bound(**data["lower"]), Bound(**data["upper"]), data["step"], data["at_least"],
                            data["at_most"], data["without"], data.get("instead"))


def set_launch_condition(func: tt.FuncOp, condition: TripsBetween) -> None:
    func.attributes[ATTRIBUTE] = condition.to_attr()


def pop_launch_condition(func: tt.FuncOp) -> TripsBetween | None:
    """The function's launch condition, taken off it (None where it has none)."""
    attr = func.attributes.pop(ATTRIBUTE, None)
    return None if attr is None else TripsBetween.from_attr(attr)
