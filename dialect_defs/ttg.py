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

from typing import ClassVar

from xdsl.dialects.builtin import DenseArrayBase, FunctionType, IntegerAttr, IntegerType, TensorType, i32
from xdsl.ir import Block, Operation, Region
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


@irdl_op_definition
class AsyncWaitOp(FormattedOp, IRDLOperation):
    name = "ttg.async_wait"
    asyncToken = var_operand_def(AsyncTokenType)
    num = prop_def(IntegerAttr)
    retToken = result_def(AsyncTokenType)
    SYNTAX: ClassVar = "($asyncToken^)? attr-dict"
    TYPE_RULES: ClassVar = {"asyncToken": _token, "retToken": _token}


@irdl_op_definition
class AsyncCommitGroupOp(FormattedOp, IRDLOperation):
    name = "ttg.async_commit_group"
    inputTokens = var_operand_def(AsyncTokenType)
    asyncToken = result_def(AsyncTokenType)
    SYNTAX: ClassVar = "(`tokens` $inputTokens^)? attr-dict"
    TYPE_RULES: ClassVar = {"inputTokens": _token, "asyncToken": _token}


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


# ------------------------------------------------------------------ shared memory


@irdl_op_definition
class LocalAllocOp(FormattedOp, IRDLOperation):
    name = "ttg.local_alloc"
    src = opt_operand_def(TensorType)
    alignment = opt_prop_def(IntegerAttr)
    result = result_def(MemDescType)
    SYNTAX: ClassVar = "($src^)? attr-dict `:` functional-type(operands, results)"


@irdl_op_definition
class LocalDeallocOp(FormattedOp, IRDLOperation):
    name = "ttg.local_dealloc"
    src = operand_def(MemDescType)
    SYNTAX: ClassVar = "$src attr-dict `:` qualified(type($src))"


@irdl_op_definition
class MemDescIndexOp(FormattedOp, IRDLOperation):
    name = "ttg.memdesc_index"
    src = operand_def(MemDescType)
    index = operand_def(IntegerType)
    result = result_def(MemDescType)
    traits = traits_def(Pure())
    SYNTAX: ClassVar = "$src `[` $index `]` attr-dict `:` qualified(type($src)) `->` qualified(type($result))"
    TYPE_RULES: ClassVar = {"index": _i32}


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


@irdl_op_definition
class MemDescTransOp(_MemDescView):
    name = "ttg.memdesc_trans"
    order = prop_def(DenseArrayBase)


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


@irdl_op_definition
class LocalStoreOp(FormattedOp, IRDLOperation):
    name = "ttg.local_store"
    src = operand_def(TensorType)
    dst = operand_def(MemDescType)
    SYNTAX: ClassVar = "$src `,` $dst attr-dict `:` type($src) `->` qualified(type($dst))"


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


@irdl_op_definition
class MaskOp(IRDLOperation):
    """`ttg.mask`: no custom form, printed generically."""

    name = "ttg.mask"
    pred = operand_def(IntegerType)
    result = var_result_def()
    region = region_def("single_block")


@irdl_op_definition
class MaskReturnOp(FormattedOp, IRDLOperation):
    name = "ttg.mask.return"
    result = var_operand_def()
    traits = traits_def(HasParent(MaskOp), Pure(), IsTerminator(), ReturnLike())
    SYNTAX: ClassVar = "$result attr-dict `:` type($result)"


# ------------------------------------------------------------------ conversions and scratch


@irdl_op_definition
class Fp4ToFpOp(FormattedOp, IRDLOperation):
    name = "ttg.fp4_to_fp"
    src = operand_def(TensorType)
    axis = prop_def(IntegerAttr)
    result = result_def(TensorType)
    traits = traits_def(Pure())
    SYNTAX: ClassVar = "$src attr-dict `:` type($src) `->` type($result)"


@irdl_op_definition
class GlobalScratchAllocOp(FormattedOp, IRDLOperation):
    name = "ttg.global_scratch_alloc"
    nbytes = prop_def(IntegerAttr)
    alignment = prop_def(IntegerAttr)
    result = result_def(PointerType)
    SYNTAX: ClassVar = "attr-dict `:` qualified(type($result))"


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


@irdl_op_definition
class WarpYieldOp(FormattedOp, IRDLOperation):
    name = "ttg.warp_yield"
    values = var_operand_def()
    traits = traits_def(Pure(), IsTerminator(), ReturnLike(), HasParent(WarpSpecializeOp))
    SYNTAX: ClassVar = "($values^)? attr-dict (`:` type($values)^)?"


@irdl_op_definition
class WarpReturnOp(FormattedOp, IRDLOperation):
    name = "ttg.warp_return"
    traits = traits_def(Pure(), IsTerminator(), ReturnLike(), HasParent(WarpSpecializePartitionsOp))
    SYNTAX: ClassVar = "attr-dict"


OPS = (
    ConvertLayoutOp, AsyncWaitOp, AsyncCommitGroupOp, AsyncCopyGlobalToLocalOp, LocalAllocOp,
    LocalDeallocOp, MemDescIndexOp, MemDescSubsliceOp, MemDescTransOp, MemDescReshapeOp,
    MemDescReinterpretOp, LocalLoadOp, LocalStoreOp, LocalBarrierOp, PredicateStageOp, MaskOp,
    MaskReturnOp, Fp4ToFpOp, GlobalScratchAllocOp, WarpSpecializeOp, WarpSpecializePartitionsOp,
    WarpYieldOp, WarpReturnOp,
)
ATTRS = ()
