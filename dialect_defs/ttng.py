"""The TritonNvidiaGPU dialect (`ttng`): Hopper and Blackwell ops and tensor memory (TMEM).

Follows Triton 3.6's `TritonNvidiaGPUOps.td` and `TritonNvidiaGPUAttrDefs.td`:

* attributes: `#ttng.tensor_memory` (the TMEM memory space of a `!ttg.memdesc`),
  `#ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>` (alias `#tmem`)
  and `#ttng.tensor_memory_scales_encoding<>` (alias `#tmem_scales`);
* mbarrier ops (`init_barrier`, `wait_barrier`, `arrive_barrier`, ...), TMA copies
  (`async_tma_*`, `tensormap_*`), wgmma (`warp_group_dot`, `warp_group_dot_wait`) and
  tcgen05 (`tc_gen5_mma`, `tc_gen5_mma_scaled`, `tc_gen5_commit`, `tmem_*`).

The custom directives of `Ops.cpp` are `custom<Token>` (`[%dep]`: the optional async token
an op takes and gives for its TMEM operand) and `custom<BarriersAndPreds>` (`, %bar[%pred]`
for each mbarrier a tcgen05 MMA arrives on when it completes).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    I32,
    BoolAttr,
    IntAttr,
    IntegerAttr,
    IntegerType,
    TensorType,
    UnitAttr,
    i32,
    i64,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    opt_result_def,
    param_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from ttpipe.ir.base import DialectAttribute
from ttpipe.dialects.tt import (
    FALSE,
    I1,
    CacheModifier,
    DescriptorReduceKind,
    EvictionPolicy,
    InputPrecision,
    PointerType,
    ScaleDotElemType,
    TensorDescType,
    enum_attr,
)
from ttpipe.dialects.props import bool_prop, int_prop, unit_prop
from ttpipe.dialects.ttg_attrs import BoolData, read_bool
from ttpipe.dialects.ttg_types import AsyncTokenType, MemDescType
from ttpipe.ir.syntax import FormattedOp, ParseState


def _i1(_: ParseState) -> IntegerType:
    return I1


def _i32(_: ParseState) -> IntegerType:
    return i32


def _token_types(with_token: bool) -> list[AsyncTokenType]:
    """The types of an optional async token result."""
    return [AsyncTokenType()] if with_token else []


# ------------------------------------------------------------------ attributes


def _parse_struct(parser, cls, fields: dict[str, type]) -> dict[str, int | bool]:
    """ODS `struct(params)`: `name = value` pairs in any order, between `<` and `>`."""
    parser.expect("<")
    values: dict[str, int | bool] = {}

    def parse_field() -> None:
        start = parser.skip()
        key = parser.parse_keyword("parameter name")
        if key not in fields:
            raise parser.error(f"unknown parameter '{key}' of {cls.name}; expected one of {', '.join(fields)}", start)
        if key in values:
            raise parser.error(f"duplicate parameter '{key}' of {cls.name}", start)
        parser.expect("=")
        values[key] = read_bool(parser) if fields[key] is bool else parser.parse_integer(f"unsigned integer for '{key}'")

    parser.parse_comma_list(parse_field, ">")
    parser.expect(">")
    return values


def _struct_text(items: list[tuple[str, int | bool]]) -> str:
    return "<" + ", ".join(f"{k} = {str(v).lower() if isinstance(v, bool) else v}" for k, v in items) + ">"


@irdl_attr_definition
class TensorMemorySpaceAttr(DialectAttribute):
    """`#ttng.tensor_memory`: the memory space of a memdesc that lives in TMEM."""

    name = "ttng.tensor_memory"

    def print_body(self, printer) -> str:
        return ""

    @classmethod
    def parse_parameters(cls, parser) -> TensorMemorySpaceAttr:
        return cls()


@irdl_attr_definition
class TensorMemoryEncodingAttr(DialectAttribute):
    """`#ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1[, CTASplitM = ..]
    [, CTASplitN = ..][, twoCTAs = true]>`: a TMEM allocation laid out in blockM x blockN
    blocks (blockM of the 128 TMEM lanes); `colStride` is the column stride between two
    elements of a row (1: packed); `twoCTAs` lays it out for `cta_group::2`."""

    name = "ttng.tensor_memory_encoding"
    ALIAS_NAME: ClassVar[str] = "tmem"
    FIELDS: ClassVar[dict[str, type]] = {
        "blockM": int, "blockN": int, "colStride": int, "CTASplitM": int, "CTASplitN": int, "twoCTAs": bool,
    }
    DEFAULTS: ClassVar[dict[str, int | bool]] = {"CTASplitM": 1, "CTASplitN": 1, "twoCTAs": False}

    _block_m: IntAttr = param_def()
    _block_n: IntAttr = param_def()
    _col_stride: IntAttr = param_def()
    _cta_split_m: IntAttr = param_def()
    _cta_split_n: IntAttr = param_def()
    _two_ctas: BoolData = param_def()

    @classmethod
    def get(cls, block_m: int, block_n: int, col_stride: int, cta_split_m: int = 1, cta_split_n: int = 1,
            two_ctas: bool = False) -> TensorMemoryEncodingAttr:
        return cls(IntAttr(block_m), IntAttr(block_n), IntAttr(col_stride), IntAttr(cta_split_m),
                   IntAttr(cta_split_n), BoolData(two_ctas))

    @property
    def block_m(self) -> int:
        return self._block_m.data

    @property
    def block_n(self) -> int:
        return self._block_n.data

    @property
    def col_stride(self) -> int:
        return self._col_stride.data

    @property
    def cta_split_m(self) -> int:
        return self._cta_split_m.data

    @property
    def cta_split_n(self) -> int:
        return self._cta_split_n.data

    @property
    def two_ctas(self) -> bool:
        return self._two_ctas.data

    def verify(self) -> None:
        """`TensorMemoryEncodingAttr::verify`."""
        if not (_is_pow2(self.cta_split_m) and _is_pow2(self.cta_split_n)):
            raise VerifyException("CTASplitM and CTASplitN must be greater than 0 and a power of 2")
        if self.block_m not in (64, 128):
            raise VerifyException(f"blockM must be 64 or 128 but got {self.block_m}")
        if not _is_pow2(self.block_n):
            raise VerifyException(f"blockN must be a power of 2 but got {self.block_n}")
        if self.block_n > 512:
            raise VerifyException(f"blockN must be less than or equal to 512 but got {self.block_n}")
        if self.col_stride not in (1, 2, 4):
            raise VerifyException(f"colStride must be 1, 2, or 4 but got {self.col_stride}")

    def print_body(self, printer) -> str:
        values = zip(self.FIELDS, (self.block_m, self.block_n, self.col_stride, self.cta_split_m,
                                   self.cta_split_n, self.two_ctas))
        return _struct_text([(k, v) for k, v in values if k not in self.DEFAULTS or self.DEFAULTS[k] != v])

    @classmethod
    def parse_parameters(cls, parser) -> TensorMemoryEncodingAttr:
        start = parser.pos
        values = {**cls.DEFAULTS, **_parse_struct(parser, cls, cls.FIELDS)}
        missing = [k for k in cls.FIELDS if k not in values]
        if missing:
            raise parser.error(f"struct is missing required parameter: {missing[0]}", start)
        return cls.get(*(values[k] for k in cls.FIELDS))


@irdl_attr_definition
class TensorMemoryScalesEncodingAttr(DialectAttribute):
    """`#ttng.tensor_memory_scales_encoding<[CTASplitM = ..][, CTASplitN = ..]>`: the TMEM
    layout of tcgen05 block scales (32x4x4B chunks repeated over the 4 warps' lanes)."""

    name = "ttng.tensor_memory_scales_encoding"
    ALIAS_NAME: ClassVar[str] = "tmem_scales"
    FIELDS: ClassVar[dict[str, type]] = {"CTASplitM": int, "CTASplitN": int}

    _cta_split_m: IntAttr = param_def()
    _cta_split_n: IntAttr = param_def()

    @classmethod
    def get(cls, cta_split_m: int = 1, cta_split_n: int = 1) -> TensorMemoryScalesEncodingAttr:
        return cls(IntAttr(cta_split_m), IntAttr(cta_split_n))

    @property
    def cta_split_m(self) -> int:
        return self._cta_split_m.data

    @property
    def cta_split_n(self) -> int:
        return self._cta_split_n.data

    def print_body(self, printer) -> str:
        return _struct_text([(k, v) for k, v in zip(self.FIELDS, (self.cta_split_m, self.cta_split_n)) if v != 1])

    @classmethod
    def parse_parameters(cls, parser) -> TensorMemoryScalesEncodingAttr:
        values = _parse_struct(parser, cls, cls.FIELDS)
        return cls.get(values.get("CTASplitM", 1), values.get("CTASplitN", 1))


def _is_pow2(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


# ------------------------------------------------------------------ custom directives


class _TokenDirective:
    """`custom<Token>($dep, type($token))`: `[]` gives a token, `[%dep]` also takes one."""

    @staticmethod
    def parse_Token(parser, state: ParseState, dep: str, token: str) -> None:
        if not parser.accept("["):
            return
        state.result_types[token.removeprefix("type:")] = [AsyncTokenType()]
        if parser.accept("]"):
            return
        state.operands[dep] = [parser.parse_operand()]
        state.operand_types[dep] = [AsyncTokenType()]
        parser.expect("]")

    @staticmethod
    def print_Token(printer, op, dep: str, token: str) -> None:
        if getattr(op, token.removeprefix("type:")) is None:
            return
        dep_value = getattr(op, dep)
        printer.write("[" + (printer.value(dep_value) if dep_value is not None else "") + "]")


class _BarriersAndPredsDirective:
    """`custom<BarriersAndPreds>($barriers, $barrier_preds)`: `, %bar[%pred]` per mbarrier."""

    @staticmethod
    def parse_BarriersAndPreds(parser, state: ParseState, barriers: str, preds: str) -> None:
        state.operands[barriers] = []
        state.operands[preds] = []
        while parser.accept(","):
            state.operands[barriers].append(parser.parse_operand())
            parser.expect("[")
            state.operands[preds].append(parser.parse_operand())
            parser.expect("]")

    @staticmethod
    def print_BarriersAndPreds(printer, op, barriers: str, preds: str) -> None:
        for barrier, pred in zip(getattr(op, barriers), getattr(op, preds), strict=True):
            printer.write(f", {printer.value(barrier)}[{printer.value(pred)}]")


# ------------------------------------------------------------------ ops


class _TTNGOp(FormattedOp, IRDLOperation):
    pass


@irdl_op_definition
class FenceAsyncSharedOp(_TTNGOp):
    """`fence.proxy.async`: orders generic-proxy shared memory accesses before async-proxy ones."""

    name = "ttng.fence_async_shared"
    bCluster = prop_def(BoolAttr)
    SYNTAX: ClassVar = "attr-dict"

    def __init__(self, *, b_cluster: bool | IntegerAttr):
        super().__init__(properties={"bCluster": bool_prop(b_cluster)})


@irdl_op_definition
class ClusterArriveOp(_TTNGOp):
    """`barrier.cluster.arrive` (`.relaxed`: without memory ordering)."""

    name = "ttng.cluster_arrive"
    relaxed = prop_def(BoolAttr)
    SYNTAX: ClassVar = "attr-dict"


@irdl_op_definition
class ClusterWaitOp(_TTNGOp):
    """`barrier.cluster.wait`: waits for every thread of the cluster to arrive."""

    name = "ttng.cluster_wait"
    SYNTAX: ClassVar = "attr-dict"


@irdl_op_definition
class WarpGroupDotOp(_TTNGOp):
    """wgmma: `$d = $a * $b + $c`; `$a` is in registers or shared memory, `$b` in shared memory."""

    name = "ttng.warp_group_dot"
    a = operand_def(TensorType | MemDescType)
    b = operand_def(MemDescType)
    c = operand_def(TensorType)
    useC = opt_operand_def(I1)
    inputPrecision = prop_def(IntegerAttr[I32], default_value=enum_attr(InputPrecision.ieee))
    maxNumImpreciseAcc = prop_def(IntegerAttr[I32], default_value=IntegerAttr(0, i32))
    isAsync = prop_def(BoolAttr, default_value=FALSE)
    d = result_def(TensorType)
    SYNTAX: ClassVar = """
    $a`,` $b`,` $c (`,` $useC^)? attr-dict
    `:` type($a) `*` qualified(type($b)) `->` type($d)
  """
    TYPE_RULES: ClassVar = {"c": lambda s: s.type("d"), "useC": _i1}

    def __init__(self, a: SSAValue, b: SSAValue, c: SSAValue, use_c: SSAValue | None = None, *,
                 input_precision: InputPrecision | IntegerAttr | None = None,
                 max_num_imprecise_acc: int | IntegerAttr | None = None, is_async: bool | IntegerAttr | None = None):
        """`a * b + c` (`a * b` where `use_c` is false), of `c`'s type; unset properties take
        their defaults."""
        super().__init__(operands=[a, b, c, use_c], result_types=[c.type],
                         properties={"inputPrecision": int_prop(input_precision),
                                     "maxNumImpreciseAcc": int_prop(max_num_imprecise_acc),
                                     "isAsync": bool_prop(is_async)})


@irdl_op_definition
class WarpGroupDotWaitOp(_TTNGOp):
    """Waits until at most `pendings` async wgmma ops are outstanding; forwards `inputs`."""

    name = "ttng.warp_group_dot_wait"
    inputs = var_operand_def(TensorType | MemDescType)
    pendings = prop_def(IntegerAttr[I32])
    outputs = var_result_def(TensorType | MemDescType)
    SYNTAX: ClassVar = "$inputs attr-dict `:` type($inputs)"
    TYPE_RULES: ClassVar = {"outputs": lambda s: s.operand_types.get("inputs", [])}

    def __init__(self, inputs: Sequence[SSAValue] = (), *, pendings: int | IntegerAttr):
        """Wait for all but `pendings` wgmmas; the outputs forward `inputs`."""
        super().__init__(operands=[inputs], result_types=[[value.type for value in inputs]],
                         properties={"pendings": int_prop(pendings)})


@irdl_op_definition
class InitBarrierOp(_TTNGOp):
    """`mbarrier.init`: an mbarrier in shared memory expecting `count` arrivals per phase."""

    name = "ttng.init_barrier"
    alloc = operand_def(MemDescType)
    count = prop_def(IntegerAttr[I32])
    SYNTAX: ClassVar = "$alloc `,` $count attr-dict `:` qualified(type($alloc))"
    ATTR_SYNTAX: ClassVar = {"count": "i32"}

    def __init__(self, alloc: SSAValue, *, count: int):
        super().__init__(operands=[alloc], properties={"count": int_prop(count)})


@irdl_op_definition
class InvalBarrierOp(_TTNGOp):
    """`mbarrier.inval`: makes an mbarrier's memory reusable."""

    name = "ttng.inval_barrier"
    alloc = operand_def(MemDescType)
    SYNTAX: ClassVar = "$alloc attr-dict `:` qualified(type($alloc))"

    def __init__(self, alloc: SSAValue):
        super().__init__(operands=[alloc])


@irdl_op_definition
class BarrierExpectOp(_TTNGOp):
    """`mbarrier.arrive.expect_tx`: the mbarrier's phase also waits for `size` bytes (TMA)."""

    name = "ttng.barrier_expect"
    alloc = operand_def(MemDescType)
    size = prop_def(IntegerAttr[I32])
    pred = operand_def(I1)
    SYNTAX: ClassVar = """
    $alloc `,` $size attr-dict `,` $pred `:` qualified(type($alloc))
  """
    ATTR_SYNTAX: ClassVar = {"size": "i32"}
    TYPE_RULES: ClassVar = {"pred": _i1}

    def __init__(self, alloc: SSAValue, pred: SSAValue, *, size: int):
        """Arrive on the mbarrier `alloc`, expecting `size` more bytes."""
        super().__init__(operands=[alloc, pred], properties={"size": int_prop(size)})


@irdl_op_definition
class WaitBarrierOp(_TTNGOp):
    """`mbarrier.try_wait.parity`: waits for the mbarrier phase `phase` to complete; `deps`
    are buffers the wait guards."""

    name = "ttng.wait_barrier"
    alloc = operand_def(MemDescType)
    phase = operand_def(i32)
    pred = opt_operand_def(I1)
    deps = var_operand_def(MemDescType)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    SYNTAX: ClassVar = """
    $alloc `,` $phase (`,` $pred^)? (`deps` $deps^)?
    attr-dict `:` qualified(type($alloc)) (`,` type($deps)^)?
  """
    TYPE_RULES: ClassVar = {"phase": _i32, "pred": _i1}

    def __init__(self, alloc: SSAValue, phase: SSAValue, pred: SSAValue | None = None, deps: Sequence[SSAValue] = ()):
        super().__init__(operands=[alloc, phase, pred, deps])


@irdl_op_definition
class ArriveBarrierOp(_TTNGOp):
    """`mbarrier.arrive`: decrements the mbarrier's pending arrivals by `count`."""

    name = "ttng.arrive_barrier"
    alloc = operand_def(MemDescType)
    count = prop_def(IntegerAttr[I32])
    pred = opt_operand_def(I1)
    SYNTAX: ClassVar = """
    $alloc `,` $count (`,` $pred^)? attr-dict `:` qualified(type($alloc))
  """
    ATTR_SYNTAX: ClassVar = {"count": "i32"}
    TYPE_RULES: ClassVar = {"pred": _i1}

    def __init__(self, alloc: SSAValue, pred: SSAValue | None = None, *, count: int | IntegerAttr):
        """Arrive `count` times on the mbarrier `alloc` (thread 0 of the warps running it),
        where `pred` holds."""
        super().__init__(operands=[alloc, pred], properties={"count": int_prop(count)})


@irdl_op_definition
class AsyncCopyMbarrierArriveOp(_TTNGOp):
    """`cp.async.mbarrier.arrive`: arrives on the mbarrier once prior cp.async copies land."""

    name = "ttng.async_copy_mbarrier_arrive"
    barrier = operand_def(MemDescType)
    noIncrement = opt_prop_def(UnitAttr)
    SYNTAX: ClassVar = "$barrier attr-dict `:` qualified(type($barrier))"


@irdl_op_definition
class AsyncTMACopyGlobalToLocalOp(_TTNGOp):
    """TMA load of the box at `coord` of a tensor descriptor into shared memory; completion
    is signalled on the mbarrier `barrier`."""

    name = "ttng.async_tma_copy_global_to_local"
    desc = operand_def(TensorDescType)
    coord = var_operand_def(i32)
    barrier = operand_def(MemDescType)
    result = operand_def(MemDescType)
    pred = operand_def(I1)
    cache = prop_def(IntegerAttr[I32], default_value=enum_attr(CacheModifier.none))
    evict = prop_def(IntegerAttr[I32], default_value=enum_attr(EvictionPolicy.evict_normal))
    isVolatile = prop_def(BoolAttr, default_value=FALSE)
    SYNTAX: ClassVar = """
    $desc `[` $coord `]` $result `,` $barrier `,` $pred
    oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict)
    attr-dict `:` qualified(type($desc)) `,` qualified(type($barrier)) `->` qualified(type($result))
  """
    ATTR_SYNTAX: ClassVar = {"cache": CacheModifier, "evict": EvictionPolicy}
    TYPE_RULES: ClassVar = {"coord": _i32, "pred": _i1}

    def __init__(self, desc: SSAValue, coord: Sequence[SSAValue], barrier: SSAValue, result: SSAValue,
                 pred: SSAValue, *, cache: CacheModifier | IntegerAttr | None = None,
                 evict: EvictionPolicy | IntegerAttr | None = None, is_volatile: bool | IntegerAttr | None = None):
        """TMA load of the box at `coord` into the buffer `result`, arriving on `barrier`;
        unset properties take their defaults."""
        super().__init__(operands=[desc, coord, barrier, result, pred],
                         properties={"cache": int_prop(cache), "evict": int_prop(evict),
                                     "isVolatile": bool_prop(is_volatile)})


@irdl_op_definition
class AsyncTMACopyLocalToGlobalOp(_TTNGOp):
    """TMA store of a shared memory buffer to the box at `coord` of a tensor descriptor."""

    name = "ttng.async_tma_copy_local_to_global"
    desc = operand_def(TensorDescType)
    coord = var_operand_def(i32)
    src = operand_def(MemDescType)
    SYNTAX: ClassVar = """
    $desc `[` $coord `]` $src
    attr-dict `:` qualified(type($desc)) `,` qualified(type($src))
  """
    TYPE_RULES: ClassVar = {"coord": _i32}

    def __init__(self, desc: SSAValue, coord: Sequence[SSAValue], src: SSAValue):
        super().__init__(operands=[desc, coord, src])


@irdl_op_definition
class AsyncTMAReduceOp(_TTNGOp):
    """TMA reduction (`cp.reduce.async.bulk.tensor`) of a shared memory buffer into global memory."""

    name = "ttng.async_tma_reduce"
    kind = prop_def(IntegerAttr[I32])
    desc = operand_def(TensorDescType)
    coord = var_operand_def(i32)
    src = operand_def(MemDescType)
    SYNTAX: ClassVar = """
    $kind `,` $desc `[` $coord `]` $src
    attr-dict `:` qualified(type($desc)) `,` qualified(type($src))
  """
    ATTR_SYNTAX: ClassVar = {"kind": DescriptorReduceKind}
    TYPE_RULES: ClassVar = {"coord": _i32}

    def __init__(self, desc: SSAValue, coord: Sequence[SSAValue], src: SSAValue, *,
                 kind: DescriptorReduceKind | IntegerAttr):
        super().__init__(operands=[desc, coord, src], properties={"kind": int_prop(kind)})


@irdl_op_definition
class AsyncTMAGatherOp(_TTNGOp):
    """TMA gather4: rows `x_offsets` at column `y_offset` into shared memory."""

    name = "ttng.async_tma_gather"
    desc = operand_def(TensorDescType)
    x_offsets = operand_def(TensorType)
    y_offset = operand_def(i32)
    barrier = operand_def(MemDescType)
    result = operand_def(MemDescType)
    pred = operand_def(I1)
    SYNTAX: ClassVar = """
    $desc `[` $x_offsets `,` $y_offset `]` $result `,` $barrier `,` $pred
    attr-dict `:` type(operands)
  """

    def __init__(self, desc: SSAValue, x_offsets: SSAValue, y_offset: SSAValue, barrier: SSAValue, result: SSAValue,
                 pred: SSAValue):
        super().__init__(operands=[desc, x_offsets, y_offset, barrier, result, pred])


@irdl_op_definition
class AsyncTMAScatterOp(_TTNGOp):
    """TMA scatter4: shared memory rows to rows `x_offsets` at column `y_offset`."""

    name = "ttng.async_tma_scatter"
    desc = operand_def(TensorDescType)
    x_offsets = operand_def(TensorType)
    y_offset = operand_def(i32)
    src = operand_def(MemDescType)
    SYNTAX: ClassVar = """
    $desc `[` $x_offsets `,` $y_offset `]` $src
    attr-dict `:` type(operands)
  """

    def __init__(self, desc: SSAValue, x_offsets: SSAValue, y_offset: SSAValue, src: SSAValue):
        super().__init__(operands=[desc, x_offsets, y_offset, src])


@irdl_op_definition
class TMAStoreWaitOp(_TTNGOp):
    """`cp.async.bulk.wait_group.read`: at most `pendings` TMA stores still read shared memory."""

    name = "ttng.async_tma_store_wait"
    pendings = prop_def(IntegerAttr[I32])
    SYNTAX: ClassVar = "attr-dict"

    def __init__(self, *, pendings: int):
        super().__init__(properties={"pendings": int_prop(pendings)})


@irdl_op_definition
class TCGen5MMAOp(_TokenDirective, _BarriersAndPredsDirective, _TTNGOp):
    """tcgen05.mma: `$d (TMEM) += $a * $b` (`useD` false: `=`); when async, arrives on each
    mbarrier in `barriers` whose predicate holds once done."""

    name = "ttng.tc_gen5_mma"
    a = operand_def(MemDescType)
    b = operand_def(MemDescType)
    d = operand_def(MemDescType)
    acc_dep = opt_operand_def(AsyncTokenType)
    useD = operand_def(I1)
    pred = operand_def(I1)
    barriers = var_operand_def(MemDescType)
    barrier_preds = var_operand_def(I1)
    is_async = opt_prop_def(UnitAttr)
    two_ctas = opt_prop_def(UnitAttr)
    token = opt_result_def(AsyncTokenType)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    SYNTAX: ClassVar = """
    $a `,` $b `,` $d `` custom<Token>($acc_dep, type($token)) `,` $useD`,`
    $pred `` custom<BarriersAndPreds>($barriers, $barrier_preds)
    attr-dict `:` qualified(type($a)) `,` qualified(type($b)) `,`
    qualified(type($d)) (`,` qualified(type($barriers))^)?
  """
    TYPE_RULES: ClassVar = {"useD": _i1, "pred": _i1, "barrier_preds": _i1}

    def __init__(self, a: SSAValue, b: SSAValue, d: SSAValue, use_d: SSAValue, pred: SSAValue, *,
                 acc_dep: SSAValue | None = None, barriers: Sequence[SSAValue] = (),
                 barrier_preds: Sequence[SSAValue] = (), is_async: bool = False, two_ctas: bool = False,
                 with_token: bool = False):
        """`d (+)= a * b` in TMEM after `acc_dep`, arriving on each of `barriers` whose
        predicate holds once done; `with_token`: give a token."""
        super().__init__(operands=[a, b, d, acc_dep, use_d, pred, barriers, barrier_preds],
                         result_types=[_token_types(with_token)],
                         properties={"is_async": unit_prop(is_async), "two_ctas": unit_prop(two_ctas)})


@irdl_op_definition
class TCGen5MMAScaledOp(_TokenDirective, _BarriersAndPredsDirective, _TTNGOp):
    """tcgen05.mma with block scaling: `$d += ($a * $a_scale) x ($b * $b_scale)`, the scales in
    TMEM; `a_type`/`b_type` name the element formats (e2m1, e4m3, ...)."""

    name = "ttng.tc_gen5_mma_scaled"
    a = operand_def(MemDescType)
    b = operand_def(MemDescType)
    d = operand_def(MemDescType)
    acc_dep = opt_operand_def(AsyncTokenType)
    a_scale = operand_def(MemDescType)
    b_scale = operand_def(MemDescType)
    a_type = prop_def(IntegerAttr[I32])
    b_type = prop_def(IntegerAttr[I32])
    useD = operand_def(I1)
    pred = operand_def(I1)
    barriers = var_operand_def(MemDescType)
    barrier_preds = var_operand_def(I1)
    is_async = opt_prop_def(UnitAttr)
    token = opt_result_def(AsyncTokenType)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    SYNTAX: ClassVar = """
    $a `,` $b `,` $d `` custom<Token>($acc_dep, type($token)) `,` $a_scale `,`
    $b_scale `,` $useD `,` $pred `lhs` `=` $a_type `rhs` `=` $b_type
    `` custom<BarriersAndPreds>($barriers, $barrier_preds)
    attr-dict `:` qualified(type($a)) `,` qualified(type($b)) `,`
    qualified(type($d)) `,` qualified(type($a_scale)) `,`
    qualified(type($b_scale)) (`,` qualified(type($barriers))^)?
  """
    ATTR_SYNTAX: ClassVar = {"a_type": ScaleDotElemType, "b_type": ScaleDotElemType}
    TYPE_RULES: ClassVar = {"useD": _i1, "pred": _i1, "barrier_preds": _i1}

    def __init__(self, a: SSAValue, b: SSAValue, d: SSAValue, a_scale: SSAValue, b_scale: SSAValue,
                 use_d: SSAValue, pred: SSAValue, *, a_type: ScaleDotElemType | IntegerAttr,
                 b_type: ScaleDotElemType | IntegerAttr, acc_dep: SSAValue | None = None,
                 barriers: Sequence[SSAValue] = (), barrier_preds: Sequence[SSAValue] = (), is_async: bool = False,
                 with_token: bool = False):
        """`d (+)= (a * a_scale) x (b * b_scale)` in TMEM after `acc_dep`, arriving on each of
        `barriers` whose predicate holds once done; `with_token`: give a token."""
        super().__init__(operands=[a, b, d, acc_dep, a_scale, b_scale, use_d, pred, barriers, barrier_preds],
                         result_types=[_token_types(with_token)],
                         properties={"a_type": int_prop(a_type), "b_type": int_prop(b_type),
                                     "is_async": unit_prop(is_async)})


@irdl_op_definition
class TCGen5CommitOp(_TTNGOp):
    """tcgen05.commit: the mbarrier arrives once all prior async tcgen05 ops complete."""

    name = "ttng.tc_gen5_commit"
    barrier = operand_def(MemDescType)
    pred = opt_operand_def(I1)
    two_ctas = opt_prop_def(UnitAttr)
    SYNTAX: ClassVar = """
    $barrier (`,` $pred^)? attr-dict `:` qualified(type($barrier))
  """
    TYPE_RULES: ClassVar = {"pred": _i1}


@irdl_op_definition
class TMEMLoadOp(_TokenDirective, _TTNGOp):
    """tcgen05.ld: a TMEM buffer into a distributed tensor."""

    name = "ttng.tmem_load"
    src = operand_def(MemDescType)
    dep = opt_operand_def(AsyncTokenType)
    result = result_def(TensorType)
    token = opt_result_def(AsyncTokenType)
    SYNTAX: ClassVar = """
    $src `` custom<Token>($dep, type($token))
    attr-dict `:` qualified(type($src)) `->` type($result)
  """

    def __init__(self, src: SSAValue, dep: SSAValue | None = None, *, result_type: Attribute,
                 with_token: bool = False):
        """Load the TMEM buffer `src` after `dep`; `with_token`: give a token."""
        super().__init__(operands=[src, dep], result_types=[result_type, _token_types(with_token)])


@irdl_op_definition
class TMEMStoreOp(_TokenDirective, _TTNGOp):
    """tcgen05.st: a distributed tensor into a TMEM buffer."""

    name = "ttng.tmem_store"
    dst = operand_def(MemDescType)
    dep = opt_operand_def(AsyncTokenType)
    src = operand_def(TensorType)
    pred = operand_def(I1)
    token = opt_result_def(AsyncTokenType)
    SYNTAX: ClassVar = """
    $src `,` $dst `` custom<Token>($dep, type($token)) `,` $pred
    attr-dict `:` type($src) `->` qualified(type($dst))
  """
    TYPE_RULES: ClassVar = {"pred": _i1}

    def __init__(self, dst: SSAValue, src: SSAValue, pred: SSAValue, dep: SSAValue | None = None, *,
                 with_token: bool = False):
        """Store `src` into the TMEM buffer `dst` after `dep`; `with_token`: give a token."""
        super().__init__(operands=[dst, dep, src, pred], result_types=[_token_types(with_token)])


@irdl_op_definition
class TMEMAllocOp(_TTNGOp):
    """Allocates TMEM, optionally initialised from a tensor."""

    name = "ttng.tmem_alloc"
    src = opt_operand_def(TensorType)
    result = result_def(MemDescType)
    token = opt_result_def(AsyncTokenType)
    SYNTAX: ClassVar = """
    ($src^)? attr-dict `:` functional-type(operands, results)
  """

    def __init__(self, src: SSAValue | None = None, *, result_type: Attribute, with_token: bool = False):
        """A TMEM buffer of `result_type`, holding `src` if given; `with_token`: give a token."""
        super().__init__(operands=[src], result_types=[result_type, _token_types(with_token)])


@irdl_op_definition
class TMEMSubSliceOp(_TTNGOp):
    """A view of a TMEM allocation's columns starting at column `N`."""

    name = "ttng.tmem_subslice"
    src = operand_def(MemDescType)
    N = prop_def(IntegerAttr[I32])
    result = result_def(MemDescType)
    traits = traits_def(Pure())
    SYNTAX: ClassVar = """
    $src attr-dict `:` qualified(type($src)) `->` qualified(type($result))
  """


@irdl_op_definition
class TMEMCopyOp(_TTNGOp):
    """tcgen05.cp: shared memory to TMEM (block scales into the `#tmem_scales` layout)."""

    name = "ttng.tmem_copy"
    src = operand_def(MemDescType)
    dst = operand_def(MemDescType)
    barrier = opt_operand_def(MemDescType)
    SYNTAX: ClassVar = "$src `,` $dst (`,` $barrier^)? attr-dict `:` qualified(type(operands))"


@irdl_op_definition
class ReinterpretTensorDescOp(_TTNGOp):
    """A raw TMA descriptor pointer viewed as a typed tensor descriptor."""

    name = "ttng.reinterpret_tensor_descriptor"
    rawDesc = operand_def(PointerType)
    result = result_def(TensorDescType)
    traits = traits_def(Pure())
    SYNTAX: ClassVar = """
    $rawDesc attr-dict `:` qualified(type($rawDesc))  `to` qualified(type($result))
  """

    def __init__(self, raw_desc: SSAValue, *, result_type: Attribute):
        super().__init__(operands=[raw_desc], result_types=[result_type])


@irdl_op_definition
class TensormapCreateOp(_TTNGOp):
    """`tensormap.replace`: writes a TMA descriptor (CUtensorMap) at `desc_ptr` on device."""

    name = "ttng.tensormap_create"
    desc_ptr = operand_def(PointerType)
    global_address = operand_def(PointerType)
    box_dim = var_operand_def(i32)
    global_dim = var_operand_def(i32)
    global_stride = var_operand_def(i64)
    element_stride = var_operand_def(i32)
    elem_type = prop_def(IntegerAttr[I32])
    interleave_layout = prop_def(IntegerAttr[I32])
    swizzle_mode = prop_def(IntegerAttr[I32])
    fill_mode = prop_def(IntegerAttr[I32])
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    SYNTAX: ClassVar = """
    $desc_ptr `,` $global_address `,`
    `[` $box_dim `]` `,`
    `[` $global_dim `]` `,`
    `[` $global_stride `]` `,`
    `[` $element_stride `]`
    attr-dict `:` functional-type(operands, results)
  """

    def __init__(self, desc_ptr: SSAValue, global_address: SSAValue, box_dim: Sequence[SSAValue],
                 global_dim: Sequence[SSAValue], global_stride: Sequence[SSAValue],
                 element_stride: Sequence[SSAValue], *, elem_type: int, interleave_layout: int, swizzle_mode: int,
                 fill_mode: int):
        """Write the CUtensorMap of these dims and modes (their CUDA enum values) at `desc_ptr`."""
        super().__init__(operands=[desc_ptr, global_address, box_dim, global_dim, global_stride, element_stride],
                         properties={"elem_type": int_prop(elem_type), "interleave_layout": int_prop(interleave_layout),
                                     "swizzle_mode": int_prop(swizzle_mode), "fill_mode": int_prop(fill_mode)})


@irdl_op_definition
class TensormapFenceproxyAcquireOp(_TTNGOp):
    """`fence.proxy.tensormap::generic.acquire`: makes a device-written TMA descriptor visible."""

    name = "ttng.tensormap_fenceproxy_acquire"
    desc_ptr = operand_def(PointerType)
    SYNTAX: ClassVar = """
    $desc_ptr attr-dict `:` qualified(type($desc_ptr))
  """

    def __init__(self, desc_ptr: SSAValue):
        super().__init__(operands=[desc_ptr])


OPS = (
    FenceAsyncSharedOp, ClusterArriveOp, ClusterWaitOp, WarpGroupDotOp, WarpGroupDotWaitOp,
    InitBarrierOp, InvalBarrierOp, BarrierExpectOp, WaitBarrierOp, ArriveBarrierOp,
    AsyncCopyMbarrierArriveOp, AsyncTMACopyGlobalToLocalOp, AsyncTMACopyLocalToGlobalOp,
    AsyncTMAReduceOp, AsyncTMAGatherOp, AsyncTMAScatterOp, TMAStoreWaitOp, TCGen5MMAOp,
    TCGen5MMAScaledOp, TCGen5CommitOp, TMEMLoadOp, TMEMStoreOp, TMEMAllocOp, TMEMSubSliceOp,
    TMEMCopyOp, ReinterpretTensorDescOp, TensormapCreateOp, TensormapFenceproxyAcquireOp,
)
ATTRS = (TensorMemorySpaceAttr, TensorMemoryEncodingAttr, TensorMemoryScalesEncodingAttr)
