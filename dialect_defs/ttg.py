"""The TritonGPU (`ttg`) ops of Triton 3.6's `TritonGPUOps.td`, with their exact custom forms.

Layout attributes live in `ttpipe.dialects.ttg_attrs`, the memdesc and async-token types
in `ttpipe.dialects.ttg_types`. Ops without an ODS assembly format (`ttg.mask`,
`ttg.warp_specialize.partitions`) print in generic form, as Triton prints them;
`ttg.warp_specialize` has Triton's hand-written form:

    %r = ttg.warp_specialize(%a) attributes {...}
    default {
      ttg.warp_yield %x : i32
    }
    partition0(%arg0: i32) num_warps(4) {
      ttg.warp_return
    } : (i32) -> i32

Its partition regions belong to a `ttg.warp_specialize.partitions` op (isolated from
above) that the parser creates in the op's second region, as Triton's parser does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import DenseArrayBase, FunctionType, IntegerAttr, IntegerType, TensorType, i32
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_region_def,
    var_result_def,
)
from xdsl.traits import (
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    Pure,
    RecursiveMemoryEffect,
    ReturnLike,
)

from ttpipe.dialects.arith import i1_like
from ttpipe.dialects.props import bool_prop, i32_array, int_prop
from ttpipe.dialects.tt import CacheModifier, EvictionPolicy, PointerType
from ttpipe.dialects.ttg_types import AsyncTokenType, MemDescType
from ttpipe.ir.syntax import FormattedOp, ParseState

_I1 = IntegerType(1)


def _token(_: ParseState) -> AsyncTokenType:
    return AsyncTokenType()


def _i32(_: ParseState) -> IntegerType:
    return i32


def _pointee_like(type_):
    """Triton's `getPointeeType`: the pointee type, keeping a tensor's shape and encoding."""
    if isinstance(type_, TensorType):
        return TensorType(type_.element_type.pointeeType, type_.get_shape(), type_.encoding)
    return type_.pointeeType


# ------------------------------------------------------------------ layouts and async copies


@irdl_op_definition
class ConvertLayoutOp(FormattedOp, IRDLOperation):
    name = "ttg.convert_layout"
    src = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())
    SYNTAX: ClassVar = "$src attr-dict `:` type($src) `->` type($result)"

    def __init__(self, src: SSAValue, *, result_type: Attribute):
        super().__init__(operands=[src], result_types=[result_type])


@irdl_op_definition
class AsyncWaitOp(FormattedOp, IRDLOperation):
    name = "ttg.async_wait"
    asyncToken = var_operand_def(AsyncTokenType)
    num = prop_def(IntegerAttr)
    retToken = result_def(AsyncTokenType)
    SYNTAX: ClassVar = "($asyncToken^)? attr-dict"
    TYPE_RULES: ClassVar = {"asyncToken": _token, "retToken": _token}

    def __init__(self, tokens: Sequence[SSAValue] = (), *, num: int | IntegerAttr):
        """Wait until at most `num` cp.async groups are in flight."""
        super().__init__(operands=[tokens], result_types=[AsyncTokenType()], properties={"num": int_prop(num)})


@irdl_op_definition
class AsyncCommitGroupOp(FormattedOp, IRDLOperation):
    name = "ttg.async_commit_group"
    inputTokens = var_operand_def(AsyncTokenType)
    asyncToken = result_def(AsyncTokenType)
    SYNTAX: ClassVar = "(`tokens` $inputTokens^)? attr-dict"
    TYPE_RULES: ClassVar = {"inputTokens": _token, "asyncToken": _token}

    def __init__(self, tokens: Sequence[SSAValue] = ()):
        super().__init__(operands=[tokens], result_types=[AsyncTokenType()])


@irdl_op_definition
class AsyncCopyGlobalToLocalOp(FormattedOp, IRDLOperation):
    name = "ttg.async_copy_global_to_local"
    src = operand_def(TensorType)
    result = operand_def(MemDescType)
    mask = opt_operand_def()
    other = opt_operand_def()
    cache = prop_def(IntegerAttr, default_value=IntegerAttr(CacheModifier.none, i32))
    evict = prop_def(IntegerAttr, default_value=IntegerAttr(EvictionPolicy.evict_normal, i32))
    isVolatile = prop_def(IntegerAttr, default_value=IntegerAttr(0, _I1))
    contiguity = prop_def(IntegerAttr, default_value=IntegerAttr(1, i32))
    token = result_def(AsyncTokenType)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    SYNTAX: ClassVar = """
        $src `,` $result (`mask` $mask^)? (`other` $other^)?
        oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict)
        attr-dict `:` type($src) `->` type($result)
    """
    ATTR_SYNTAX: ClassVar = {"cache": CacheModifier, "evict": EvictionPolicy}
    TYPE_RULES: ClassVar = {
        "mask": lambda s: i1_like(s.type("src")),
        "other": lambda s: _pointee_like(s.type("src")),
        "token": _token,
    }

    def __init__(self, src: SSAValue, result: SSAValue, mask: SSAValue | None = None, other: SSAValue | None = None,
                 *, cache: CacheModifier | IntegerAttr | None = None, evict: EvictionPolicy | IntegerAttr | None = None,
                 is_volatile: bool | IntegerAttr | None = None, contiguity: int | IntegerAttr | None = None):
        """cp.async of the pointers `src` into the buffer `result`; unset properties take
        their defaults."""
        super().__init__(operands=[src, result, mask, other], result_types=[AsyncTokenType()],
                         properties={"cache": int_prop(cache), "evict": int_prop(evict),
                                     "isVolatile": bool_prop(is_volatile), "contiguity": int_prop(contiguity)})


# ------------------------------------------------------------------ shared memory


@irdl_op_definition
class LocalAllocOp(FormattedOp, IRDLOperation):
    name = "ttg.local_alloc"
    src = opt_operand_def(TensorType)
    alignment = opt_prop_def(IntegerAttr)
    result = result_def(MemDescType)
    SYNTAX: ClassVar = "($src^)? attr-dict `:` functional-type(operands, results)"

    def __init__(self, src: SSAValue | None = None, *, result_type: Attribute, alignment: int | None = None):
        """A shared memory buffer of `result_type`, holding `src` if given."""
        super().__init__(operands=[src], result_types=[result_type], properties={"alignment": int_prop(alignment)})


@irdl_op_definition
class LocalDeallocOp(FormattedOp, IRDLOperation):
    name = "ttg.local_dealloc"
    src = operand_def(MemDescType)
    SYNTAX: ClassVar = "$src attr-dict `:` qualified(type($src))"

    def __init__(self, src: SSAValue):
        super().__init__(operands=[src])


@irdl_op_definition
class MemDescIndexOp(FormattedOp, IRDLOperation):
    name = "ttg.memdesc_index"
    src = operand_def(MemDescType)
    index = operand_def(IntegerType)
    result = result_def(MemDescType)
    traits = traits_def(Pure())
    SYNTAX: ClassVar = "$src `[` $index `]` attr-dict `:` qualified(type($src)) `->` qualified(type($result))"
    TYPE_RULES: ClassVar = {"index": _i32}

    def __init__(self, src: SSAValue, index: SSAValue, *, result_type: Attribute):
        super().__init__(operands=[src, index], result_types=[result_type])


@irdl_op_definition
class MemDescSubsliceOp(FormattedOp, IRDLOperation):
    name = "ttg.memdesc_subslice"
    src = operand_def(MemDescType)
    offsets = prop_def(DenseArrayBase)
    result = result_def(MemDescType)
    traits = traits_def(Pure())
    SYNTAX: ClassVar = """
        $src `[` custom<Offsets>($offsets) `]` attr-dict `:` qualified(type($src))
        `->` qualified(type($result))
    """

    def __init__(self, src: SSAValue, *, offsets: Sequence[int] | DenseArrayBase, result_type: Attribute):
        super().__init__(operands=[src], result_types=[result_type], properties={"offsets": i32_array(offsets)})

    @staticmethod
    def parse_Offsets(parser, state: ParseState, name: str) -> None:
        state.props[name] = DenseArrayBase.from_list(i32, parser.parse_comma_list(parser.parse_integer))

    @staticmethod
    def print_Offsets(printer, op: Operation, name: str) -> None:
        printer.write(", ".join(str(v) for v in op.properties[name].get_values()))


class _MemDescView(FormattedOp, IRDLOperation):
    src = operand_def(MemDescType)
    result = result_def(MemDescType)
    traits = traits_def(Pure())
    SYNTAX: ClassVar = "$src attr-dict `:` qualified(type($src)) `->` qualified(type($result))"

    def __init__(self, src: SSAValue, *, result_type: Attribute):
        super().__init__(operands=[src], result_types=[result_type])


@irdl_op_definition
class MemDescTransOp(_MemDescView):
    name = "ttg.memdesc_trans"
    order = prop_def(DenseArrayBase)

    def __init__(self, src: SSAValue, *, order: Sequence[int] | DenseArrayBase, result_type: Attribute):
        IRDLOperation.__init__(self, operands=[src], result_types=[result_type],
                               properties={"order": i32_array(order)})


@irdl_op_definition
class MemDescReshapeOp(_MemDescView):
    name = "ttg.memdesc_reshape"


@irdl_op_definition
class MemDescReinterpretOp(_MemDescView):
    name = "ttg.memdesc_reinterpret"


@irdl_op_definition
class LocalLoadOp(FormattedOp, IRDLOperation):
    name = "ttg.local_load"
    src = operand_def(MemDescType)
    token = opt_operand_def(AsyncTokenType)
    result = result_def(TensorType)
    SYNTAX: ClassVar = "$src (`token` $token^)? attr-dict `:` qualified(type($src)) `->` type($result)"
    TYPE_RULES: ClassVar = {"token": _token}

    def __init__(self, src: SSAValue, token: SSAValue | None = None, *, result_type: Attribute):
        super().__init__(operands=[src, token], result_types=[result_type])


@irdl_op_definition
class LocalStoreOp(FormattedOp, IRDLOperation):
    name = "ttg.local_store"
    src = operand_def(TensorType)
    dst = operand_def(MemDescType)
    SYNTAX: ClassVar = "$src `,` $dst attr-dict `:` type($src) `->` qualified(type($dst))"

    def __init__(self, src: SSAValue, dst: SSAValue):
        super().__init__(operands=[src, dst])


@irdl_op_definition
class LocalBarrierOp(FormattedOp, IRDLOperation):
    name = "ttg.local_barrier"
    SYNTAX: ClassVar = "attr-dict"


# ------------------------------------------------------------------ pipelining


@irdl_op_definition
class PredicateStageOp(FormattedOp, IRDLOperation):
    name = "ttg.predicate_stage"
    iv = operand_def()
    ub = operand_def()
    step = operand_def()
    maxStage = prop_def(IntegerAttr)
    stage = prop_def(IntegerAttr)
    result = result_def(IntegerType)
    traits = traits_def(Pure())
    SYNTAX: ClassVar = ("$iv `,` $ub `,` $step `maxStage` $maxStage `stage` $stage attr-dict "
                        "`:` type($iv) `->` type($result)")
    ATTR_SYNTAX: ClassVar = {"maxStage": "i32", "stage": "i32"}
    SAME_TYPE: ClassVar = ("iv", "ub", "step")

    def __init__(self, iv: SSAValue, ub: SSAValue, step: SSAValue, *, max_stage: int, stage: int):
        """Whether `stage` of a loop of `max_stage + 1` stages runs at `iv` (an i1)."""
        super().__init__(operands=[iv, ub, step], result_types=[_I1],
                         properties={"maxStage": int_prop(max_stage), "stage": int_prop(stage)})


@irdl_op_definition
class MaskOp(IRDLOperation):
    """`ttg.mask`: no custom form, printed generically."""

    name = "ttg.mask"
    pred = operand_def(IntegerType)
    result = var_result_def()
    region = region_def("single_block")

    def __init__(self, pred: SSAValue, *, result_types: Sequence[Attribute], region: Region):
        super().__init__(operands=[pred], result_types=[result_types], regions=[region])


@irdl_op_definition
class MaskReturnOp(FormattedOp, IRDLOperation):
    name = "ttg.mask.return"
    result = var_operand_def()
    traits = traits_def(HasParent(MaskOp), Pure(), IsTerminator(), ReturnLike())
    SYNTAX: ClassVar = "$result attr-dict `:` type($result)"

    def __init__(self, values: Sequence[SSAValue] = ()):
        super().__init__(operands=[values])


# ------------------------------------------------------------------ conversions and scratch


@irdl_op_definition
class Fp4ToFpOp(FormattedOp, IRDLOperation):
    name = "ttg.fp4_to_fp"
    src = operand_def(TensorType)
    axis = prop_def(IntegerAttr)
    result = result_def(TensorType)
    traits = traits_def(Pure())
    SYNTAX: ClassVar = "$src attr-dict `:` type($src) `->` type($result)"

    def __init__(self, src: SSAValue, *, axis: int, result_type: Attribute):
        """The e2m1 pairs of `src` unpacked along `axis`."""
        super().__init__(operands=[src], result_types=[result_type], properties={"axis": int_prop(axis)})


@irdl_op_definition
class GlobalScratchAllocOp(FormattedOp, IRDLOperation):
    name = "ttg.global_scratch_alloc"
    nbytes = prop_def(IntegerAttr)
    alignment = prop_def(IntegerAttr)
    result = result_def(PointerType)
    SYNTAX: ClassVar = "attr-dict `:` qualified(type($result))"

    def __init__(self, *, nbytes: int, alignment: int, result_type: Attribute | None = None):
        """`nbytes` of global scratch memory, as an `!tt.ptr<i8>` unless `result_type` says otherwise."""
        super().__init__(result_types=[PointerType(IntegerType(8)) if result_type is None else result_type],
                         properties={"nbytes": int_prop(nbytes), "alignment": int_prop(alignment)})


# ------------------------------------------------------------------ warp specialization


@irdl_op_definition
class WarpSpecializeOp(FormattedOp, IRDLOperation):
    """`ttg.warp_specialize`: a default region run by the current warps and partition
    regions (held by a `ttg.warp_specialize.partitions` op) run by extra warp groups."""

    name = "ttg.warp_specialize"
    explicitCaptures = var_operand_def()
    partitionNumWarps = prop_def(DenseArrayBase)
    warpGroupStartIds = opt_prop_def(DenseArrayBase)
    requestedRegisters = opt_prop_def(DenseArrayBase)
    actualRegisters = opt_prop_def(DenseArrayBase)
    defaultPassthrough = var_result_def()
    defaultRegion = region_def()
    partitionOpHolder = region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect())

    def __init__(self, captures: Sequence[SSAValue] = (), *, default_region: Region,
                 partition_regions: Sequence[Region], partition_num_warps: Sequence[int],
                 result_types: Sequence[Attribute] = (), requested_registers: Sequence[int] | None = None):
        """The default region (ending in `ttg.warp_yield` of `result_types`) and partition
        regions (each with one block argument per capture, ending in `ttg.warp_return`) of
        `partition_num_warps` warps each."""
        partitions = WarpSpecializePartitionsOp(regions=partition_regions)
        super().__init__(operands=[captures], result_types=[result_types],
                         properties={"partitionNumWarps": i32_array(partition_num_warps),
                                     "requestedRegisters": None if requested_registers is None
                                     else i32_array(requested_registers)},
                         regions=[default_region, Region(Block([partitions]))])

    @property
    def partitions_op(self) -> WarpSpecializePartitionsOp:
        return self.partitionOpHolder.block.first_op

    @property
    def partition_regions(self) -> tuple[Region, ...]:
        """`getPartitionRegions`."""
        return tuple(self.partitions_op.regions)

    @classmethod
    def parse_custom(cls, parser, name_offset: int) -> WarpSpecializeOp:
        operands = parser.parse_delimited("(", ")", parser.parse_operand)
        attributes = dict(parser.parse_dictionary().data) if parser.accept_keyword("attributes") else {}
        parser.expect_keyword("default")
        default_region = parser.parse_region()
        partitions_offset = parser.skip()
        regions: list[Region] = []
        num_warps: list[int] = []
        while parser.accept_keyword(f"partition{len(regions)}"):
            arguments = parser.parse_delimited("(", ")", lambda: _parse_region_argument(parser))
            parser.expect_keyword("num_warps")
            parser.expect("(")
            num_warps.append(parser.parse_integer())
            parser.expect(")")
            regions.append(parser.parse_region(entry_args=arguments, isolated=True))
        parser.expect(":")
        types_offset = parser.skip()
        types = parser.parse_type()
        if not isinstance(types, FunctionType):
            raise parser.error("expected a function type", types_offset)
        inputs = types.inputs.data
        if len(inputs) != len(operands):
            raise parser.error(f"expected {len(operands)} operand types but had {len(inputs)}", types_offset)
        partitions = WarpSpecializePartitionsOp.create(regions=regions)
        partitions.location = parser.default_location(partitions_offset)
        properties = {"partitionNumWarps": DenseArrayBase.from_list(i32, num_warps)}
        for key in ("warpGroupStartIds", "requestedRegisters", "actualRegisters"):
            if key in attributes:
                properties[key] = attributes.pop(key)
        return cls.create(operands=[parser.resolve(o, t) for o, t in zip(operands, inputs)],
                          result_types=list(types.outputs.data), properties=properties,
                          attributes=attributes, regions=[default_region, Region(Block([partitions]))])

    def print_custom(self, printer) -> None:
        printer.write("(" + printer.values(self.operands) + ")")
        attributes = {k: v for k, v in self.properties.items() if k != "partitionNumWarps"}
        attributes.update(self.attributes)
        if attributes:
            printer.write(" attributes")
            printer.print_attr_dict(attributes)
        printer.newline()
        printer.write("default ")
        printer.print_region(self.defaultRegion, print_entry_args=False)
        for index, (region, num_warps) in enumerate(zip(self.partition_regions,
                                                         self.partitionNumWarps.get_values())):
            printer.newline()
            arguments = ", ".join(printer.block_arg(arg) for arg in region.first_block.args)
            printer.write(f"partition{index}({arguments}) num_warps({num_warps}) ")
            printer.print_region(region, print_entry_args=False)
        printer.write(" : " + printer.function_type([o.type for o in self.operands],
                                                    [r.type for r in self.results]))


def _parse_region_argument(parser):
    """`%name: type loc(...)?`, an argument of a partition region."""
    operand = parser.parse_operand()
    parser.expect(":")
    return operand, parser.parse_type(), parser.try_location()


@irdl_op_definition
class WarpSpecializePartitionsOp(IRDLOperation):
    """`ttg.warp_specialize.partitions`: holds the partition regions; printed by its parent."""

    name = "ttg.warp_specialize.partitions"
    partitionRegions = var_region_def()
    traits = traits_def(IsolatedFromAbove(), RecursiveMemoryEffect(), IsTerminator(),
                        HasParent(WarpSpecializeOp))

    def __init__(self, *, regions: Sequence[Region]):
        super().__init__(regions=[list(regions)])


@irdl_op_definition
class WarpYieldOp(FormattedOp, IRDLOperation):
    name = "ttg.warp_yield"
    values = var_operand_def()
    traits = traits_def(Pure(), IsTerminator(), ReturnLike(), HasParent(WarpSpecializeOp))
    SYNTAX: ClassVar = "($values^)? attr-dict (`:` type($values)^)?"

    def __init__(self, values: Sequence[SSAValue] = ()):
        """Ends the default region, which returns `values` as the op's results."""
        super().__init__(operands=[values])


@irdl_op_definition
class WarpReturnOp(FormattedOp, IRDLOperation):
    name = "ttg.warp_return"
    traits = traits_def(Pure(), IsTerminator(), ReturnLike(), HasParent(WarpSpecializePartitionsOp))
    SYNTAX: ClassVar = "attr-dict"

    def __init__(self):
        super().__init__()


OPS = (
    ConvertLayoutOp, AsyncWaitOp, AsyncCommitGroupOp, AsyncCopyGlobalToLocalOp, LocalAllocOp,
    LocalDeallocOp, MemDescIndexOp, MemDescSubsliceOp, MemDescTransOp, MemDescReshapeOp,
    MemDescReinterpretOp, LocalLoadOp, LocalStoreOp, LocalBarrierOp, PredicateStageOp, MaskOp,
    MaskReturnOp, Fp4ToFpOp, GlobalScratchAllocOp, WarpSpecializeOp, WarpSpecializePartitionsOp,
    WarpYieldOp, WarpReturnOp,
)
ATTRS = ()
