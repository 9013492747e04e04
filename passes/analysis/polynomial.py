"""Integer polynomials over IR values: the algebra the tile-access analysis states addresses,
masks and bounds in.

A `Poly` is a sum of integer multiples of monomials, each a product of atoms: SSA values
(scalars the analysis does not look through: kernel arguments, program ids, quotients),
`TileCoord(d)` (the position along dimension `d` of a tensor tile) and `Iteration(loop)`
(how many iterations of `loop` have run). Arithmetic is over the integers: the analysis
states what the IR computes when nothing overflows, which is what its pointer arithmetic
means (an address that wraps is no element of the tensor).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from math import gcd

from xdsl.ir import Operation, SSAValue


@dataclass(frozen=True)
class TileCoord:
    """The position `t_d` along dimension `dim` of a tile (0 <= t_d < its size)."""

    dim: int


@dataclass(frozen=True, eq=False)
class Iteration:
    """`j`, the iterations of `loop` run before the current one (the induction variable is
    `lower bound + j * step`); one atom per loop: equal where the loop is the same op."""

    loop: Operation

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Iteration) and other.loop is self.loop

    def __hash__(self) -> int:
        return id(self.loop)


Atom = SSAValue | TileCoord | Iteration
Monomial = frozenset[tuple[Atom, int]]
"""A product of atoms, each with its power; the empty monomial is the constant 1."""

ONE: Monomial = frozenset()


def _multiply(lhs: Monomial, rhs: Monomial) -> Monomial:
    powers = Counter(dict(lhs))
    powers.update(dict(rhs))
    return frozenset(powers.items())


class Poly:
    """sum(coefficient * monomial), with no zero coefficient (immutable)."""

    __slots__ = ("terms", )

    def __init__(self, terms: dict[Monomial, int] | None = None):
        self.terms: dict[Monomial, int] = {m: c for m, c in (terms or {}).items() if c}

    @staticmethod
    def constant(value: int) -> Poly:
        return Poly({ONE: value})

    @staticmethod
    def atom(atom: Atom) -> Poly:
        return Poly({frozenset({(atom, 1)}): 1})

    def __add__(self, other: Poly) -> Poly:
        terms = dict(self.terms)
        for monomial, coefficient in other.terms.items():
            terms[monomial] = terms.get(monomial, 0) + coefficient
        return Poly(terms)

    def __neg__(self) -> Poly:
        return Poly({m: -c for m, c in self.terms.items()})

    def __sub__(self, other: Poly) -> Poly:
        return self + -other

    def __mul__(self, other: Poly) -> Poly:
        terms: dict[Monomial, int] = {}
        for lm, lc in self.terms.items():
            for rm, rc in other.terms.items():
                monomial = _multiply(lm, rm)
                terms[monomial] = terms.get(monomial, 0) + lc * rc
        return Poly(terms)

    def scaled(self, factor: int) -> Poly:
        return Poly({m: c * factor for m, c in self.terms.items()})

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Poly) and self.terms == other.terms

    def __hash__(self) -> int:
        return hash(frozenset(self.terms.items()))

    def __repr__(self) -> str:
        if not self.terms:
            return "0"
        return " + ".join(f"{c}*{'*'.join(_atom_text(a) + (f'^{p}' if p > 1 else '') for a, p in m) or '1'}"
                          for m, c in self.terms.items())

    @property
    def is_zero(self) -> bool:
        return not self.terms

    def constant_value(self) -> int | None:
        """The integer this is, when it has no atom."""
        if not self.terms:
            return 0
        if set(self.terms) == {ONE}:
            return self.terms[ONE]
        return None

    def atoms(self) -> set[Atom]:
        return {atom for monomial in self.terms for atom, _ in monomial}

    def split(self, keep: Callable[[Monomial], bool]) -> tuple[Poly, Poly]:
        """(the terms whose monomial `keep` accepts, the others)."""
        kept = {m: c for m, c in self.terms.items() if keep(m)}
        return Poly(kept), Poly({m: c for m, c in self.terms.items() if m not in kept})

    def substitute(self, atom: Atom, value: Poly) -> Poly:
        """This with `value` in place of `atom`."""
        result = Poly()
        for monomial, coefficient in self.terms.items():
            term = Poly.constant(coefficient)
            for other, power in monomial:
                factor = value if other == atom else Poly.atom(other)
                for _ in range(power):
                    term = term * factor
            result = result + term
        return result

    def map_atoms(self, rename: Callable[[Atom], Atom | None]) -> Poly:
        """This with each atom `a` replaced by `rename(a)` (None: by 0)."""
        terms: dict[Monomial, int] = {}
        for monomial, coefficient in self.terms.items():
            renamed = [(rename(a), p) for a, p in monomial]
            if any(a is None for a, _ in renamed):
                continue
            key = frozenset(_merge(renamed).items())
            terms[key] = terms.get(key, 0) + coefficient
        return Poly(terms)

    def degree_in(self, is_atom: Callable[[Atom], bool]) -> int:
        """The largest total power of the atoms `is_atom` picks in one term."""
        return max((sum(p for a, p in m if is_atom(a)) for m in self.terms), default=0)

    def divided(self, divisor: Poly) -> Poly | None:
        """This divided by `divisor` (one term: a coefficient times a monomial) when every
        term is a multiple of it, else None."""
        if len(divisor.terms) != 1:
            return None
        (monomial, coefficient), = divisor.terms.items()
        needed = Counter(dict(monomial))
        quotient: dict[Monomial, int] = {}
        for term, value in self.terms.items():
            powers = Counter(dict(term))
            if value % coefficient or any(powers[a] < p for a, p in needed.items()):
                return None
            powers.subtract(needed)
            quotient[frozenset((a, p) for a, p in powers.items() if p)] = value // coefficient
        return Poly(quotient)

    def divisibility(self, atom_divisibility: Callable[[Atom], int]) -> int:
        """A number dividing this for every value of its atoms (`atom_divisibility` says one
        dividing each atom); 0 is divided by anything (returned as 0)."""
        result = 0
        for monomial, coefficient in self.terms.items():
            term = abs(coefficient)
            for atom, power in monomial:
                term *= atom_divisibility(atom) ** power
            result = gcd(result, term)
        return result


def _merge(pairs: list[tuple[Atom, int]]) -> dict[Atom, int]:
    powers: dict[Atom, int] = {}
    for atom, power in pairs:
        powers[atom] = powers.get(atom, 0) + power
    return powers


def _atom_text(atom: Atom) -> str:
    if isinstance(atom, TileCoord):
        return f"t{atom.dim}"
    if isinstance(atom, Iteration):
        return "j"
    return getattr(atom, "name_hint", None) or "v"


def ordered_terms(poly: Poly, position: Callable[[Atom], int]) -> list[tuple[list[Atom], int]]:
    """The terms of `poly` as (atoms with their powers spelt out, coefficient), in an order
    fixed by `position` (where each atom's value is defined), so that ops built from them
    come out the same on every run: fewest atoms first, then by position."""
    terms = []
    for monomial, coefficient in poly.terms.items():
        atoms = sorted((a for a, p in monomial for _ in range(p)), key=position)
        terms.append((atoms, coefficient))
    return sorted(terms, key=lambda t: (len(t[0]), [position(a) for a in t[0]], t[1]))


def sum_of(polys: Iterable[Poly]) -> Poly:
    result = Poly()
    for poly in polys:
        result = result + poly
    return result
