"""Triton's `LinearLayout`: a linear map over GF(2) from named input dims to named output dims.

Follows Triton 3.6 `lib/Tools/LinearLayout.cpp` and `lib/Tools/LayoutUtils.cpp`. A layout maps
each input dim (`register`, `lane`, `warp`, `block`; `offset` for shared memory; `row`, `col`
for tensor memory) through one basis vector per bit of its index onto the output dims
(`dim0`, `dim1`, ...); an index's image is the XOR of the bases of its set bits. Input dims
and output dims keep the order they were given in, and the order matters as in Triton:
`a * b` puts `a`'s bases first, and the first output dim is the most minor one.

Differences: layouts are plain immutable Python values (no `StringAttr`s, no caches), and a
failed precondition raises `ValueError` where Triton asserts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from ttpipe.passes.common.integers import log2_exact

Basis = tuple[int, ...]


def _next_power_of_2(value: int) -> int:
    """`llvm::NextPowerOf2`: the smallest power of two strictly greater than `value`."""
    return 1 << value.bit_length()


def standard_out_dims(rank: int) -> list[str]:
    """`standardOutDimNames`: `["dim0", ..., "dim<rank-1>"]`."""
    return [f"dim{i}" for i in range(rank)]


class LinearLayout:
    """Bases per input dim (each a tuple over the output dims, in their order) and the size
    of each output dim."""

    __slots__ = ("_bases", "_out_dims")

    def __init__(self, bases: Mapping[str, Iterable[Iterable[int]]] | Iterable[tuple[str, Iterable[Iterable[int]]]],
                 out_dims: Mapping[str, int] | Sequence[str] | Sequence[tuple[str, int]]):
        items = bases.items() if isinstance(bases, Mapping) else bases
        self._bases: dict[str, tuple[Basis, ...]] = {name: tuple(tuple(b) for b in vectors)
                                                      for name, vectors in items}
        if isinstance(out_dims, Mapping):
            self._out_dims = dict(out_dims)
        elif out_dims and not isinstance(out_dims[0], str):
            self._out_dims = dict(out_dims)
        else:
            # Out-dim sizes inferred from the bases (Triton's `LinearLayout(bases, outDimNames)`).
            names = list(out_dims)
            sizes = dict.fromkeys(names, 1)
            for vectors in self._bases.values():
                for basis in vectors:
                    for name, value in zip(names, basis):
                        sizes[name] = max(sizes[name], _next_power_of_2(value))
            self._out_dims = sizes
        for vectors in self._bases.values():
            for basis in vectors:
                if len(basis) != len(self._out_dims):
                    raise ValueError("every basis needs one value per output dim")

    # ---------------------------------------------------------------- construction

    @staticmethod
    def empty() -> LinearLayout:
        return LinearLayout({}, {})

    @staticmethod
    def identity_1d(size: int, in_dim: str, out_dim: str) -> LinearLayout:
        """`identity1D`: index i -> i, `size` elements."""
        if size == 0:
            return LinearLayout.empty()
        return LinearLayout({in_dim: [(1 << i,) for i in range(log2_exact(size))]}, {out_dim: size})

    @staticmethod
    def zeros_1d(size: int, in_dim: str, out_dim: str, out_size: int = 1) -> LinearLayout:
        """`zeros1D`: `size` inputs all mapped to 0 (broadcast)."""
        if size == 0:
            return LinearLayout.empty()
        return LinearLayout({in_dim: [(0,)] * log2_exact(size)}, {out_dim: out_size})

    # ---------------------------------------------------------------- queries

    @property
    def bases(self) -> dict[str, tuple[Basis, ...]]:
        return dict(self._bases)

    @property
    def in_dims(self) -> list[str]:
        return list(self._bases)

    @property
    def out_dims(self) -> list[tuple[str, int]]:
        return list(self._out_dims.items())

    @property
    def out_dim_names(self) -> list[str]:
        return list(self._out_dims)

    def has_in_dim(self, name: str) -> bool:
        return name in self._bases

    def has_out_dim(self, name: str) -> bool:
        return name in self._out_dims

    def in_dim_bases(self, name: str) -> tuple[Basis, ...]:
        return self._bases.get(name, ())

    def in_dim_size_log2(self, name: str) -> int:
        return len(self._bases[name])

    def in_dim_size(self, name: str) -> int:
        return 1 << len(self._bases[name])

    def out_dim_size(self, name: str) -> int:
        return self._out_dims[name]

    def out_dim_size_log2(self, name: str) -> int:
        return log2_exact(self._out_dims[name])

    def out_dim_index(self, name: str) -> int:
        return list(self._out_dims).index(name)

    @property
    def total_in_dim_size_log2(self) -> int:
        return sum(len(v) for v in self._bases.values())

    @property
    def total_out_dim_size_log2(self) -> int:
        return sum(log2_exact(s) for s in self._out_dims.values())

    def basis(self, in_dim: str, index: int, out_dim: str) -> int:
        return self._bases[in_dim][index][self.out_dim_index(out_dim)]

    def _columns(self) -> list[int]:
        """Each basis as one integer: the output dims' bits concatenated, first dim lowest."""
        shifts, shift = [], 0
        for size in self._out_dims.values():
            shifts.append(shift)
            shift += log2_exact(size)
        columns = []
        for vectors in self._bases.values():
            for basis in vectors:
                columns.append(sum(v << s for v, s in zip(basis, shifts)))
        return columns

    @property
    def rank(self) -> int:
        """The rank of the layout's matrix over GF(2)."""
        pivots: dict[int, int] = {}
        rank = 0
        for column in self._columns():
            while column:
                top = column.bit_length() - 1
                if top not in pivots:
                    pivots[top] = column
                    rank += 1
                    break
                column ^= pivots[top]
        return rank

    @property
    def is_injective(self) -> bool:
        return self.rank == self.total_in_dim_size_log2

    def apply(self, inputs: Mapping[str, int]) -> dict[str, int]:
        """The output coordinates of the given input indices."""
        out = [0] * len(self._out_dims)
        for in_dim, value in inputs.items():
            for i, basis in enumerate(self._bases.get(in_dim, ())):
                if value >> i & 1:
                    out = [a ^ b for a, b in zip(out, basis)]
        return dict(zip(self._out_dims, out))

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, LinearLayout) and list(self._bases.items()) == list(other._bases.items())
                and list(self._out_dims.items()) == list(other._out_dims.items()))

    def __hash__(self) -> int:
        return hash((tuple(self._bases.items()), tuple(self._out_dims.items())))

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={list(map(list, v))}" for k, v in self._bases.items())
        return f"LinearLayout({inner}; out={self._out_dims})"

    # ---------------------------------------------------------------- transformations

    def __mul__(self, outer: LinearLayout) -> LinearLayout:
        """`operator*`: `self` is the minor part; `outer`'s bases follow and are shifted past
        `self`'s output sizes."""
        inner = self
        in_dims = supremum(inner.in_dims, outer.in_dims)
        out_names = supremum(inner.out_dim_names, outer.out_dim_names)
        out_log2 = {d: (inner.out_dim_size_log2(d) if inner.has_out_dim(d) else 0)
                    + (outer.out_dim_size_log2(d) if outer.has_out_dim(d) else 0) for d in out_names}
        bases = {}
        for in_dim in in_dims:
            n_inner = inner.in_dim_size_log2(in_dim) if inner.has_in_dim(in_dim) else 0
            n_outer = outer.in_dim_size_log2(in_dim) if outer.has_in_dim(in_dim) else 0
            rows = [[0] * len(out_names) for _ in range(n_inner + n_outer)]
            for j, out_dim in enumerate(out_names):
                if n_inner and inner.has_out_dim(out_dim):
                    for i in range(n_inner):
                        rows[i][j] = inner.basis(in_dim, i, out_dim)
                if n_outer and outer.has_out_dim(out_dim):
                    shift = inner.out_dim_size_log2(out_dim) if inner.has_out_dim(out_dim) else 0
                    for i in range(n_outer):
                        rows[n_inner + i][j] = outer.basis(in_dim, i, out_dim) << shift
            bases[in_dim] = rows
        return LinearLayout(bases, [(d, 1 << out_log2[d]) for d in out_names])

    def transpose_outs(self, names: Sequence[str]) -> LinearLayout:
        if sorted(names) != sorted(self._out_dims):
            raise ValueError("transpose_outs needs the same output dims")
        perm = [self.out_dim_index(n) for n in names]
        bases = {k: [tuple(b[i] for i in perm) for b in v] for k, v in self._bases.items()}
        return LinearLayout(bases, [(n, self._out_dims[n]) for n in names])

    def reshape_outs(self, new_out_dims: Sequence[tuple[str, int]]) -> LinearLayout:
        """`reshapeOuts`: flatten the output dims (first is most minor), split them as given."""
        total = 1
        for _, size in new_out_dims:
            total *= size
        if total != 1 << self.total_out_dim_size_log2:
            raise ValueError("reshape_outs must keep the total output size")
        shifts, shift = [], 0
        for size in self._out_dims.values():
            shifts.append(shift)
            shift += log2_exact(size)
        bases = {}
        for name, vectors in self._bases.items():
            rows = []
            for basis in vectors:
                flat = sum(v << s for v, s in zip(basis, shifts))
                row = []
                for _, size in new_out_dims:
                    row.append(flat % size)
                    flat //= size
                rows.append(row)
            bases[name] = rows
        return LinearLayout(bases, list(new_out_dims))

    def sublayout(self, in_dims: Iterable[str], out_dims: Iterable[str]) -> LinearLayout:
        """`sublayout`: the given dims, in this layout's own order."""
        in_set, out_set = set(in_dims), set(out_dims)
        keep = [i for i, n in enumerate(self._out_dims) if n in out_set]
        bases = {k: [tuple(b[i] for i in keep) for b in v] for k, v in self._bases.items() if k in in_set}
        return LinearLayout(bases, [(n, s) for n, s in self._out_dims.items() if n in out_set])

    def resize_in_dim(self, in_dim: str, size: int) -> LinearLayout:
        bases = self.bases
        bases[in_dim] = bases[in_dim][:log2_exact(size)]
        return LinearLayout(bases, self.out_dims)

    def compose(self, outer: LinearLayout) -> LinearLayout:
        """`compose`: `outer(self(x))`; `self`'s output dims are `outer`'s input dims."""
        names = self.out_dim_names
        bases = {}
        for in_dim, vectors in self._bases.items():
            rows = []
            for basis in vectors:
                image = outer.apply(dict(zip(names, basis)))
                rows.append(tuple(image[n] for n in outer.out_dim_names))
            bases[in_dim] = rows
        return LinearLayout(bases, outer.out_dims)

    def with_bases(self, bases: Mapping[str, Iterable[Iterable[int]]]) -> LinearLayout:
        """The same output dims, other bases."""
        return LinearLayout(bases, self.out_dims)


def supremum(x: Sequence[str], y: Sequence[str]) -> list[str]:
    """`supremum`: a merge of two orders that keeps the relative order of both."""
    result: list[str] = []
    pos_x = {e: i for i, e in enumerate(x)}
    pos_y = {e: i for i, e in enumerate(y)}
    i = j = 0
    inf = float("inf")
    while i < len(x) or j < len(y):
        while i < len(x) and x[i] in result:
            i += 1
        while j < len(y) and y[j] in result:
            j += 1
        if i >= len(x) and j >= len(y):
            break
        if i < len(x) and j < len(y) and x[i] == y[j]:
            result.append(x[i])
            i, j = i + 1, j + 1
            continue
        cand_x = pos_y[x[i]] if i < len(x) and x[i] in pos_y and pos_y[x[i]] >= j else inf
        cand_y = pos_x[y[j]] if j < len(y) and y[j] in pos_x and pos_x[y[j]] >= i else inf
        if i < len(x) and cand_x == inf:
            result.append(x[i])
            i += 1
        elif j < len(y) and cand_y == inf:
            result.append(y[j])
            j += 1
        elif cand_x <= cand_y:
            result.append(x[i])
            i += 1
        else:
            result.append(y[j])
            j += 1
    return result


def _quotient_out_dims(a: LinearLayout, b: LinearLayout) -> dict[str, int] | None:
    """The output sizes of C in `a == b * c` or `a == c * b`: a's over b's, dim by dim;
    None if b has a dimension a lacks or is larger somewhere."""
    if any(not a.has_in_dim(d) for d in b.in_dims) or any(not a.has_out_dim(d) for d in b.out_dim_names):
        return None
    c_out = {}
    for out_dim in a.out_dim_names:
        out_c = a.out_dim_size_log2(out_dim) - (b.out_dim_size_log2(out_dim) if b.has_out_dim(out_dim) else 0)
        if out_c < 0:
            return None
        c_out[out_dim] = 1 << out_c
    return c_out


def divide_left(a: LinearLayout, b: LinearLayout) -> LinearLayout | None:
    """`divideLeft`: C with `a == b * c`, or None."""
    c_out = _quotient_out_dims(a, b)
    if c_out is None:
        return None
    c_bases = {}
    for in_dim in a.in_dims:
        in_a = a.in_dim_size_log2(in_dim)
        in_b = b.in_dim_size_log2(in_dim) if b.has_in_dim(in_dim) else 0
        if in_a < in_b:
            return None
        for i in range(in_b):
            for out_dim in a.out_dim_names:
                expected = b.basis(in_dim, i, out_dim) if b.has_out_dim(out_dim) else 0
                if a.basis(in_dim, i, out_dim) != expected:
                    return None
        rows = []
        for i in range(in_b, in_a):
            row = []
            for out_dim in c_out:
                out_b = b.out_dim_size_log2(out_dim) if b.has_out_dim(out_dim) else 0
                v = a.basis(in_dim, i, out_dim)
                if v & ((1 << out_b) - 1):
                    return None
                row.append(v >> out_b)
            rows.append(row)
        c_bases[in_dim] = rows
    return LinearLayout(c_bases, list(c_out.items()))


def divide_right(a: LinearLayout, b: LinearLayout) -> LinearLayout | None:
    """`divideRight`: C with `a == c * b`, or None."""
    c_out = _quotient_out_dims(a, b)
    if c_out is None:
        return None
    c_bases = {}
    for in_dim in a.in_dims:
        in_a = a.in_dim_size_log2(in_dim)
        in_b = b.in_dim_size_log2(in_dim) if b.has_in_dim(in_dim) else 0
        in_c = in_a - in_b
        if in_c < 0:
            return None
        c_bases[in_dim] = [[a.basis(in_dim, i, d) for d in c_out] for i in range(in_c)]
        for i in range(in_c, in_a):
            for out_dim in b.out_dim_names:
                shift = a.out_dim_size_log2(out_dim) - b.out_dim_size_log2(out_dim)
                v = a.basis(in_dim, i, out_dim)
                if v & ((1 << shift) - 1) or v >> shift != b.basis(in_dim, i - in_c, out_dim):
                    return None
    return LinearLayout(c_bases, list(c_out.items()))


# -------------------------------------------------------------------- LayoutUtils


def identity_standard_nd(in_dim: str, shape: Sequence[int], order: Sequence[int]) -> LinearLayout:
    """`identityStandardND`: `in_dim` row-major over `order` (order[0] most minor) onto dim0..."""
    names = standard_out_dims(len(shape))
    layout = LinearLayout.empty()
    for dim in order:
        layout = layout * LinearLayout.identity_1d(shape[dim], in_dim, names[dim])
    return layout


def ensure_layout_not_larger_than(layout: LinearLayout, shape: Mapping[str, int],
                                  broadcast_registers: bool = True) -> LinearLayout:
    """`ensureLayoutNotLargerThan`: zero (or, for registers, drop) the largest bases of
    every output dim that is bigger than `shape`."""
    if not shape:
        return layout
    bases = {k: [list(b) for b in v] for k, v in layout.bases.items()}
    dropped: set[int] = set()
    for index, (out_dim, actual) in enumerate(layout.out_dims):
        desired = shape[out_dim]
        if actual <= desired:
            continue
        found = [(in_dim, i, b[index]) for in_dim, v in bases.items() for i, b in enumerate(v) if b[index]]
        found.sort(key=lambda item: -item[2])
        for in_dim, i, _ in found:
            if actual <= desired:
                break
            if not broadcast_registers and in_dim == "register":
                dropped.add(i)
            else:
                bases[in_dim][i][index] = 0
            actual >>= 1
    if not broadcast_registers and "register" in bases:
        bases["register"] = [b for i, b in enumerate(bases["register"]) if i not in dropped]
    return LinearLayout(bases, [(d, min(s, shape[d])) for d, s in layout.out_dims])


def ensure_layout_not_smaller_than(layout: LinearLayout, shape: Mapping[str, int]) -> LinearLayout:
    """`ensureLayoutNotSmallerThan`: repeat along the first input dim until every output dim
    reaches `shape`."""
    if not shape:
        return layout
    first = layout.in_dims[0]
    result = layout
    for out_dim, actual in layout.out_dims:
        desired = shape[out_dim]
        if actual < desired:
            result = result * LinearLayout.identity_1d(desired // actual, first, out_dim)
    return result


def reshape_layout(layout: LinearLayout, shape: Sequence[int]) -> LinearLayout:
    """`reshapeLayout`: the same map onto a tensor of another shape (row-major)."""
    src = list(reversed(layout.out_dim_names))
    new = list(reversed(list(zip(standard_out_dims(len(shape)), shape))))
    return layout.transpose_outs(src).reshape_outs(new).transpose_outs(standard_out_dims(len(shape)))


def transpose_linear_layout(layout: LinearLayout, order: Sequence[int]) -> LinearLayout:
    """`transposeLinearLayout`: output dim i takes the values of output dim `order[i]`."""
    bases = {k: [tuple(b[i] for i in order) for b in v] for k, v in layout.bases.items()}
    return LinearLayout(bases, layout.out_dim_names)


def remove_standard_dim(layout: LinearLayout, dim: int) -> LinearLayout:
    """`removeStandardDim`: drop output dim `dim` and renumber the rest."""
    names = layout.out_dim_names
    keep = names[:dim] + names[dim + 1:]
    sub = layout.sublayout(layout.in_dims, keep)
    renamed = standard_out_dims(len(keep))
    return LinearLayout(sub.bases, [(renamed[i], s) for i, (_, s) in enumerate(sub.out_dims)])
