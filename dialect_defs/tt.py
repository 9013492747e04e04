"""Triton 3.6's `tt` dialect: every op, type and enum of `TritonOps.td`, `TritonTypes.td`
and `TritonAttrDefs.td`, with the custom forms Triton prints.

Types: `!tt.ptr<f16>` (`PointerType`; address space 1 is elided, `!tt.ptr<f16, 3>`
otherwise) and `!tt.tensordesc<tensor<...>>` (`TensorDescType`).

Enums are `I32EnumAttr`s, stored as i32 `IntegerAttr` properties; their Python members
are named by the keyword Triton prints (`CacheModifier.ca`, `MemSemantic.acq_rel`), not by
the C++ case symbol, because that keyword is what the text spells. `RMWOp` and
`DescriptorReduceKind` have Python keywords among their cases (`and`, `or`), so they are
built with the functional enum API: `RMWOp["and"]`.

`tt.reduce`, `tt.scan` and `tt.map_elementwise` have no custom form in Triton: they read
and print in generic form (`"tt.reduce"(%x) <{axis = 0 : i32}> ({...}) : ...`).
`tt.func` has MLIR's function syntax, written by hand below.

Deviations from Triton:
* `tt.call`'s ODS operand group is named `operands`, which xDSL reserves; it is `args`
  here, and its format says `$args` where Triton's says `$operands`.
* Verifiers check what ODS traits and `Ops.cpp` check about counts, shapes, element
  types and the presence of encodings, but not what layouts make valid: the
  `DialectInferLayoutInterface` checks (dot operand encodings, layouts inferred for
  reshape/join/split/trans/reduce/expand_dims results) and `VerifyTensorLayoutsTrait`
  (layouts against the module's warp count) belong to the ttg dialect.
* Operand and result constraints are the shapes of ODS's (tensor, pointer, descriptor,
  i32, i64) where the custom form depends on them, not ODS's element type lists
  (`TT_Float`, `TT_Int`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    Float8E4M3FNType,
    FunctionType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    NoneAttr,
    Signedness,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    UnitAttr,
    i32,
    i64,
)
from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    SameVariadicOperandSize,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    param_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.traits import (
    ConditionallySpeculatable,
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    EffectInstance,
    MemoryEffect,
    MemoryEffectKind,
    MemoryReadEffect,
    MemoryWriteEffect,
    NoMemoryEffect,
    OpTrait,
    Pure,
    RecursiveMemoryEffect,
    ReturnLike,
    SymbolOpInterface,
    SymbolTable,
    has_effects,
)
from xdsl.utils.exceptions import VerifyException

from ttpipe.dialects.arith import i1_like
from ttpipe.dialects.props import bool_prop, i32_array, int_prop, unit_prop
from ttpipe.ir.base import DialectType, IntEnum
from ttpipe.ir import floats
from ttpipe.ir.printer import attribute_text
from ttpipe.ir.syntax import FormattedOp

I1 = IntegerType(1)
FALSE = IntegerAttr(0, I1)
TRUE = IntegerAttr(1, I1)


# ------------------------------------------------------------------ enums (TritonAttrDefs.td)


class CacheModifier(IntEnum):
    none = 1
    ca = 2
    cg = 3
    wb = 4
    cs = 5
    wt = 6
    cv = 7


class MemSemantic(IntEnum):
    relaxed = 1
    acquire = 2
    release = 3
    acq_rel = 4


class EvictionPolicy(IntEnum):
    evict_normal = 1
    evict_first = 2
    evict_last = 3


class PaddingOption(IntEnum):
    zero = 1
    nan = 2


RMWOp = IntEnum("RMWOp", [
    ("and", 1), ("or", 2), ("xor", 3), ("add", 4), ("fadd", 5),
    ("max", 6), ("min", 7), ("umax", 8), ("umin", 9), ("exch", 10),
], module=__name__)

DescriptorReduceKind = IntEnum("DescriptorReduceKind", [
    ("add", 1), ("min", 2), ("max", 3), ("inc", 4), ("dec", 5), ("and", 6), ("or", 7), ("xor", 8),
], module=__name__)


class MemSyncScope(IntEnum):
    gpu = 1
    cta = 2
    sys = 3


class ProgramIDDim(IntEnum):
    x = 0
    y = 1
    z = 2


class RoundingMode(IntEnum):
    rtz = 0
    rtne = 1


class PropagateNan(IntEnum):
    none = 0
    all = 0xFFFF


class InputPrecision(IntEnum):
    tf32 = 0
    tf32x3 = 1
    ieee = 2
    bf16x3 = 3
    bf16x6 = 4


class ScaleDotElemType(IntEnum):
    e4m3 = 0
    e5m2 = 1
    e2m3 = 2
    e3m2 = 3
    e2m1 = 4
    bf16 = 5
    fp16 = 6


def enum_attr(value: IntEnum) -> IntegerAttr:
    """The stored form of an `I32EnumAttr` case."""
    return IntegerAttr(int(value), i32)


# ------------------------------------------------------------------ types (TritonTypes.td)


@irdl_attr_definition
class PointerType(DialectType):
    """`!tt.ptr<pointee>` (address space 1) or `!tt.ptr<pointee, N>`."""

    name = "tt.ptr"
    pointeeType: Attribute = param_def()
    addressSpace: IntAttr = param_def()

    def __init__(self, pointeeType: Attribute, addressSpace: int | IntAttr = 1):
        if isinstance(addressSpace, int):
            addressSpace = IntAttr(addressSpace)
        super().__init__(pointeeType, addressSpace)

    @classmethod
    def parse_parameters(cls, parser):
        parser.expect("<")
        pointee = parser.parse_type()
        address_space = parser.parse_integer("address space") if parser.accept(",") else 1
        parser.expect(">")
        return cls(pointee, address_space)

    def print_body(self, printer) -> str:
        space = self.addressSpace.data
        pointee = printer.attr(self.pointeeType)
        return f"<{pointee}>" if space == 1 else f"<{pointee}, {space}>"


@irdl_attr_definition
class TensorDescType(DialectType):
    """`!tt.tensordesc<tensor<...>>`: a TMA-like descriptor of blocks of `blockType`."""

    name = "tt.tensordesc"
    blockType: TensorType = param_def(TensorType)

    @classmethod
    def parse_parameters(cls, parser):
        parser.expect("<")
        start = parser.skip()
        block = parser.parse_type()
        if not isinstance(block, TensorType):
            raise parser.error("expected a ranked tensor type", start)
        parser.expect(">")
        return cls(block)

    def print_body(self, printer) -> str:
        return f"<{printer.attr(self.blockType)}>"

    def signless_block_type(self) -> TensorType:
        """Triton's `getSignlessBlockType`: the block type with a signless integer element."""
        block = self.blockType
        element = block.element_type
        if isinstance(element, IntegerType) and element.signedness.data != Signedness.SIGNLESS:
            return TensorType(IntegerType(element.width.data), block.get_shape(), block.encoding)
        return block


# ------------------------------------------------------------------ type helpers (Types.cpp)


def get_pointee_type(type_: Attribute) -> Attribute:
    """Triton's `getPointeeType`: a tensor of pointers gives a tensor of the pointees."""
    if isinstance(type_, TensorType):
        element = type_.element_type
        if isinstance(element, PointerType):
            return TensorType(element.pointeeType, type_.get_shape(), type_.encoding)
        return type_
    if isinstance(type_, PointerType):
        return type_.pointeeType
    return type_


def get_pointer_type_same_shape(type_: Attribute) -> Attribute:
    """Triton's `getPointerTypeSameShape`: pointers (address space 1) to the elements of
    `type_`, in its shape."""
    if isinstance(type_, TensorType):
        return TensorType(PointerType(type_.element_type), type_.get_shape(), type_.encoding)
    return PointerType(type_)


def get_element_type_or_self(type_: Attribute) -> Attribute:
    return type_.element_type if isinstance(type_, TensorType) else type_


def _has_encoding(type_: TensorType) -> bool:
    return not isinstance(type_.encoding, NoneAttr)


def _shape(type_: Attribute) -> tuple[int, ...] | None:
    return type_.get_shape() if isinstance(type_, TensorType) else None


def _bit_width(type_: Attribute) -> int:
    if isinstance(type_, IntegerType):
        return type_.width.data
    if floats.is_float_type(type_):
        return floats.float_format(type_).width
    raise VerifyException(f"'{attribute_text(type_)}' is not an integer or float type")


# ------------------------------------------------------------------ memory effects


class _ReadsWritesGlobal(MemoryEffect):
    @classmethod
    def get_effects(cls, op: Operation):
        return frozenset((EffectInstance(MemoryEffectKind.READ), EffectInstance(MemoryEffectKind.WRITE)))


class _LoadEffects(MemoryEffect):
    """`tt.load` reads; a volatile load also writes."""

    @classmethod
    def get_effects(cls, op: Operation):
        effects = {EffectInstance(MemoryEffectKind.READ)}
        if op.isVolatile.value.data:
            effects.add(EffectInstance(MemoryEffectKind.WRITE))
        return frozenset(effects)


class _PureIfFlagged(MemoryEffect, ConditionallySpeculatable):
    """Ops with a `pure` flag: no effects and speculatable when set, else read and write."""

    @classmethod
    def get_effects(cls, op: Operation):
        if op.pure.value.data:
            return frozenset()
        return _ReadsWritesGlobal.get_effects(op)

    @classmethod
    def is_speculatable(cls, op: Operation) -> bool:
        return bool(op.pure.value.data)


# ------------------------------------------------------------------ op bases

MAX_TENSOR_NUM_ELEMENTS = 1048576


class TensorSizeTrait(OpTrait):
    """Triton's `TensorSizeTrait` (on every `tt` op): each tensor operand and result has a
    power-of-two number of elements, at most `MAX_TENSOR_NUM_ELEMENTS`."""

    def verify(self, op: Operation) -> None:
        for value in (*op.operands, *op.results):
            if isinstance(value.type, TensorType):
                count = math.prod(value.type.get_shape())
                if count > MAX_TENSOR_NUM_ELEMENTS:
                    raise VerifyException(f"Maximum allowed number of elements is {MAX_TENSOR_NUM_ELEMENTS}, "
                                          f"but '{op.name}' has more than that")
                if count & (count - 1):
                    raise VerifyException(f"Number of elements must be power-of-two, but '{op.name}' doesn't "
                                          f"follow the rule ({count}) elements")


def tt_traits(*traits: OpTrait):
    """The traits of a `tt` op: its own and `TensorSizeTrait`."""
    return traits_def(TensorSizeTrait(), *traits)


class _TritonOp(IRDLOperation):
    def error(self, message: str) -> VerifyException:
        """A verifier's error, worded as MLIR's `emitOpError`."""
        return VerifyException(f"'{self.name}' op {message}")


class TTOp(FormattedOp, _TritonOp):
    """An op with a custom form from its `SYNTAX` (ODS `assemblyFormat`)."""


class _GenericFormOp(_TritonOp):
    """An op that Triton reads and prints only in generic form."""

    @classmethod
    def parse_custom(cls, parser, name_offset: int) -> Operation:
        raise parser.error(f"custom op '{cls.name}' has no custom assembly form; use the generic form",
                           name_offset)


class _Cast(TTOp):
    src = operand_def()
    result = result_def()
    traits = tt_traits(Pure())
    SYNTAX: ClassVar = "$src attr-dict `:` type($src) `->` type($result)"

    def __init__(self, src: SSAValue, *, result_type: Attribute):
        super().__init__(operands=[src], result_types=[result_type])

    def verify_shapes(self) -> None:
        """`SameOperandsAndResultShape` and `SameOperandsAndResultEncoding`."""
        src, dst = self.src.type, self.result.type
        if isinstance(src, TensorType) != isinstance(dst, TensorType) or (
                isinstance(src, TensorType) and (src.get_shape() != dst.get_shape() or src.encoding != dst.encoding)):
            raise self.error("requires the same shape and encoding for all operands and results")

    def verify_(self) -> None:
        self.verify_shapes()


# ------------------------------------------------------------------ casts


@irdl_op_definition
class IntToPtrOp(_Cast):
    name = "tt.int_to_ptr"


@irdl_op_definition
class PtrToIntOp(_Cast):
    name = "tt.ptr_to_int"


@irdl_op_definition
class BitcastOp(_Cast):
    name = "tt.bitcast"

    def verify_(self) -> None:
        self.verify_shapes()
        src = get_element_type_or_self(self.src.type)
        dst = get_element_type_or_self(self.result.type)
        src_ptr, dst_ptr = isinstance(src, PointerType), isinstance(dst, PointerType)
        if src_ptr or dst_ptr:
            if not (src_ptr and dst_ptr):
                raise self.error("Cannot bitcast pointer to non-pointer type")
            if src.addressSpace != dst.addressSpace:
                raise self.error("Cannot bitcast pointer between different address spaces")
            return
        if _bit_width(src) != _bit_width(dst):
            raise self.error(f"Cannot bitcast data-type of size {_bit_width(src)} to data-type of size {_bit_width(dst)}")


@irdl_op_definition
class FpToFpOp(_Cast):
    name = "tt.fp_to_fp"
    rounding = opt_prop_def(IntegerAttr)
    SYNTAX: ClassVar = "$src attr-dict  (`,` `rounding` `=` $rounding^)? `:` type($src) `->` type($result)"
    ATTR_SYNTAX: ClassVar = {"rounding": RoundingMode}

    def __init__(self, src: SSAValue, *, result_type: Attribute, rounding: RoundingMode | IntegerAttr | None = None):
        IRDLOperation.__init__(self, operands=[src], result_types=[result_type],
                               properties={"rounding": int_prop(rounding)})

    def verify_(self) -> None:
        self.verify_shapes()
        src = get_element_type_or_self(self.src.type)
        dst = get_element_type_or_self(self.result.type)
        if _bit_width(dst) < _bit_width(src) and self.rounding is None:
            raise self.error("Rounding mode is required for FP downcast")


# ------------------------------------------------------------------ arithmetic and math


class _SameTypeOp(TTOp):
    """`SameOperandsAndResultType`."""

    traits = tt_traits(Pure())

    def verify_(self) -> None:
        types = {o.type for o in self.operands} | {r.type for r in self.results}
        if len(types) != 1:
            raise self.error("requires the same type for all operands and results")


@irdl_op_definition
class ClampFOp(_SameTypeOp):
    name = "tt.clampf"
    x = operand_def()
    min = operand_def()
    max = operand_def()
    propagateNan = prop_def(IntegerAttr)
    result = result_def()
    SYNTAX: ClassVar = "$x `,` $min `,` $max `,` `propagateNan` `=` $propagateNan attr-dict `:` type($result)"
    ATTR_SYNTAX: ClassVar = {"propagateNan": PropagateNan}
    SAME_TYPE: ClassVar = ("x", "min", "max", "result")


@irdl_op_definition
class PreciseSqrtOp(_SameTypeOp):
    name = "tt.precise_sqrt"
    x = operand_def()
    result = result_def()
    SYNTAX: ClassVar = "$x attr-dict `:` type($x)"
    SAME_TYPE: ClassVar = ("x", "result")


@irdl_op_definition
class PreciseDivFOp(_SameTypeOp):
    name = "tt.precise_divf"
    x = operand_def()
    y = operand_def()
    result = result_def()
    SYNTAX: ClassVar = "$x `,` $y attr-dict `:` type($x)"
    SAME_TYPE: ClassVar = ("x", "y", "result")


@irdl_op_definition
class MulhiUIOp(_SameTypeOp):
    name = "tt.mulhiui"
    x = operand_def()
    y = operand_def()
    result = result_def()
    SYNTAX: ClassVar = "$x `,` $y attr-dict `:` type($x)"
    SAME_TYPE: ClassVar = ("x", "y", "result")


# ------------------------------------------------------------------ pointer arithmetic


@irdl_op_definition
class AddPtrOp(TTOp):
    name = "tt.addptr"
    ptr = operand_def()
    offset = operand_def()
    result = result_def()
    traits = tt_traits(Pure())
    SYNTAX: ClassVar = "$ptr `,` $offset attr-dict `:` type($result) `,` type($offset)"
    TYPE_RULES: ClassVar = {"ptr": lambda s: s.type("result")}

    def __init__(self, ptr: SSAValue, offset: SSAValue):
        """`ptr + offset` (in elements), of `ptr`'s type."""
        super().__init__(operands=[ptr, offset], result_types=[ptr.type])

    def verify_(self) -> None:
        if self.ptr.type != self.result.type:
            raise self.error("result type must match ptr type")
        if _shape(self.ptr.type) != _shape(self.offset.type):
            raise self.error("requires the same shape for all operands and results")


@irdl_op_definition
class AdvanceOp(TTOp):
    name = "tt.advance"
    ptr = operand_def(PointerType)
    offsets = var_operand_def(i32)
    result = result_def(PointerType)
    traits = tt_traits(Pure())
    SYNTAX: ClassVar = "$ptr `,` `[` $offsets `]` attr-dict `:` type($result)"
    TYPE_RULES: ClassVar = {"ptr": lambda s: s.type("result"), "offsets": lambda s: i32}

    def verify_(self) -> None:
        if self.ptr.type != self.result.type:
            raise self.error("result type must match ptr type")


# ------------------------------------------------------------------ loads and stores


@irdl_op_definition
class LoadOp(TTOp):
    name = "tt.load"
    ptr = operand_def()
    mask = opt_operand_def()
    other = opt_operand_def()
    boundaryCheck = prop_def(DenseArrayBase, default_value=DenseArrayBase.from_list(i32, []))
    padding = opt_prop_def(IntegerAttr)
    cache = prop_def(IntegerAttr, default_value=enum_attr(CacheModifier.none))
    evict = prop_def(IntegerAttr, default_value=enum_attr(EvictionPolicy.evict_normal))
    isVolatile = prop_def(IntegerAttr, default_value=FALSE)
    result = result_def()
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = tt_traits(_LoadEffects())
    SYNTAX: ClassVar = """
      $ptr (`,` $mask^)? (`,` $other^)?
      oilist(
        `cacheModifier` `=` $cache |
        `evictionPolicy` `=` $evict
      )
      attr-dict `:` type($ptr)
    """
    ATTR_SYNTAX: ClassVar = {"cache": CacheModifier, "evict": EvictionPolicy}
    TYPE_RULES: ClassVar = {
        "result": lambda s: get_pointee_type(s.type("ptr")),
        "mask": lambda s: i1_like(get_pointee_type(s.type("ptr"))),
        "other": lambda s: get_pointee_type(s.type("ptr")),
    }

    def verify_(self) -> None:
        value_type = get_pointee_type(self.ptr.type)
        if self.result.type != value_type:
            raise self.error("result type must match the pointee type of ptr")
        if self.mask is not None and self.mask.type != i1_like(value_type):
            raise self.error("mask type must be i1 with the shape of ptr")
        if self.other is not None and self.other.type != value_type:
            raise self.error("other type must match the pointee type of ptr")


@irdl_op_definition
class StoreOp(TTOp):
    name = "tt.store"
    ptr = operand_def()
    value = operand_def()
    mask = opt_operand_def()
    boundaryCheck = prop_def(DenseArrayBase, default_value=DenseArrayBase.from_list(i32, []))
    cache = prop_def(IntegerAttr, default_value=enum_attr(CacheModifier.none))
    evict = prop_def(IntegerAttr, default_value=enum_attr(EvictionPolicy.evict_normal))
    traits = tt_traits(MemoryWriteEffect())
    SYNTAX: ClassVar = """
      $ptr `,` $value (`,` $mask^)?
      oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict)
      attr-dict `:` type($ptr)
    """
    ATTR_SYNTAX: ClassVar = {"cache": CacheModifier, "evict": EvictionPolicy}
    TYPE_RULES: ClassVar = {
        "value": lambda s: get_pointee_type(s.type("ptr")),
        "mask": lambda s: i1_like(get_pointee_type(s.type("ptr"))),
    }

    def verify_(self) -> None:
        value_type = get_pointee_type(self.ptr.type)
        if self.value.type != value_type:
            raise self.error("value type must match the pointee type of ptr")
        if self.mask is not None and self.mask.type != i1_like(value_type):
            raise self.error("mask type must be i1 with the shape of ptr")


# ------------------------------------------------------------------ atomics


def _verify_atomic_types(op: TTOp, values: dict[str, Attribute]) -> None:
    """`TypesMatchWith<"ptr type matches ... type", ..., "getPointerTypeSameShape($_self)">`."""
    for name, type_ in values.items():
        if op.ptr.type != get_pointer_type_same_shape(type_):
            raise op.error(f"failed to verify that ptr type matches {name} type")


@irdl_op_definition
class AtomicRMWOp(TTOp):
    name = "tt.atomic_rmw"
    atomic_rmw_op = prop_def(IntegerAttr)
    ptr = operand_def()
    val = operand_def()
    mask = opt_operand_def()
    sem = prop_def(IntegerAttr)
    scope = prop_def(IntegerAttr)
    result = result_def()
    traits = tt_traits(_ReadsWritesGlobal())
    SYNTAX: ClassVar = """
      $atomic_rmw_op `,` $sem `,` $scope `,` $ptr `,` $val (`,` $mask^)?  attr-dict `:`
      functional-type(operands, $result)
    """
    ATTR_SYNTAX: ClassVar = {"atomic_rmw_op": RMWOp, "sem": MemSemantic, "scope": MemSyncScope}

    def verify_(self) -> None:
        _verify_atomic_types(self, {"value": self.val.type})
        if self.mask is not None and self.mask.type != i1_like(self.val.type):
            raise self.error("mask type must be i1 with the shape of val")
        if _shape(self.result.type) != _shape(self.val.type):
            raise self.error("requires the same shape for all operands and results")


@irdl_op_definition
class AtomicCASOp(TTOp):
    name = "tt.atomic_cas"
    ptr = operand_def()
    cmp = operand_def()
    val = operand_def()
    sem = prop_def(IntegerAttr)
    scope = prop_def(IntegerAttr)
    result = result_def()
    traits = tt_traits(_ReadsWritesGlobal())
    SYNTAX: ClassVar = """
      $sem `,` $scope `,` $ptr `,` $cmp `,` $val attr-dict `:`
      functional-type(operands, $result)
     """
    ATTR_SYNTAX: ClassVar = {"sem": MemSemantic, "scope": MemSyncScope}

    def verify_(self) -> None:
        _verify_atomic_types(self, {"cmp": self.cmp.type, "value": self.val.type})
        if _shape(self.result.type) != _shape(self.val.type):
            raise self.error("requires the same shape for all operands and results")


# ------------------------------------------------------------------ shape manipulation


def _verify_same_element_type(op: TTOp, a: Attribute, b: Attribute) -> None:
    if get_element_type_or_self(a) != get_element_type_or_self(b):
        raise op.error("requires the same element type for all operands and results")


def _verify_same_encoding(op: TTOp, a: Attribute, b: Attribute) -> None:
    """`SameOperandsAndResultEncoding`: scalars have no encoding to compare."""
    if isinstance(a, TensorType) and isinstance(b, TensorType) and a.encoding != b.encoding:
        raise op.error("requires the same encoding for all operands and results")


@irdl_op_definition
class SplatOp(_Cast):
    name = "tt.splat"
    result = result_def(TensorType)

    def verify_(self) -> None:
        _verify_same_element_type(self, self.src.type, self.result.type)
        _verify_same_encoding(self, self.src.type, self.result.type)


@irdl_op_definition
class UnsplatOp(TTOp):
    name = "tt.unsplat"
    src = operand_def(TensorType)
    result = result_def()
    traits = tt_traits(Pure())
    SYNTAX: ClassVar = "$src attr-dict `:` type($src)"
    TYPE_RULES: ClassVar = {"result": lambda s: s.type("src").element_type}

    def __init__(self, src: SSAValue):
        """The one element of `src`."""
        super().__init__(operands=[src], result_types=[src.type.element_type])

    def verify_(self) -> None:
        if math.prod(self.src.type.get_shape()) != 1:
            raise self.error("source tensor must have exactly one element")
        if self.result.type != self.src.type.element_type:
            raise self.error("result type must be the element type of the source")


@irdl_op_definition
class ExpandDimsOp(TTOp):
    name = "tt.expand_dims"
    src = operand_def(TensorType)
    axis = prop_def(IntegerAttr)
    result = result_def(TensorType)
    traits = tt_traits(Pure())
    SYNTAX: ClassVar = "$src attr-dict `:` type($src) `->` type($result)"

    def __init__(self, src: SSAValue, *, axis: int, result_type: Attribute):
        super().__init__(operands=[src], result_types=[result_type], properties={"axis": int_prop(axis)})

    def verify_(self) -> None:
        shape = list(self.src.type.get_shape())
        axis = self.axis.value.data
        if not 0 <= axis <= len(shape):
            raise self.error(f"axis {axis} is out of range for a rank-{len(shape)} source")
        shape.insert(axis, 1)
        if tuple(shape) != self.result.type.get_shape():
            raise self.error(f"result shape must be {shape}")
        _verify_same_element_type(self, self.src.type, self.result.type)


@irdl_op_definition
class ReshapeOp(TTOp):
    name = "tt.reshape"
    src = operand_def(TensorType)
    allow_reorder = opt_prop_def(UnitAttr)
    efficient_layout = opt_prop_def(UnitAttr)
    result = result_def(TensorType)
    traits = tt_traits(Pure())
    SYNTAX: ClassVar = ("$src (`allow_reorder` $allow_reorder^)? (`efficient_layout` $efficient_layout^)? "
                        "attr-dict `:` type($src) `->` type($result)")
    ATTR_SYNTAX: ClassVar = {"allow_reorder": "unit", "efficient_layout": "unit"}

    def __init__(self, src: SSAValue, *, result_type: Attribute, allow_reorder: bool = False,
                 efficient_layout: bool = False):
        super().__init__(operands=[src], result_types=[result_type],
                         properties={"allow_reorder": unit_prop(allow_reorder),
                                     "efficient_layout": unit_prop(efficient_layout)})

    def verify_(self) -> None:
        src, dst = self.src.type, self.result.type
        if math.prod(src.get_shape()) != math.prod(dst.get_shape()):
            raise self.error("number of src and dst elements of reshape must be the same")
        if _has_encoding(src) != _has_encoding(dst):
            raise self.error("Op requires that either (a) src and dst both have encodings, or (b) neither does.")
        _verify_same_element_type(self, src, dst)


@irdl_op_definition
class BroadcastOp(_Cast):
    name = "tt.broadcast"
    src = operand_def(TensorType)
    result = result_def(TensorType)

    def verify_(self) -> None:
        src, dst = self.src.type.get_shape(), self.result.type.get_shape()
        if len(src) != len(dst):
            raise self.error("rank of source must be same as rank of result")
        for i, (s, d) in enumerate(zip(src, dst)):
            if s != 1 and s != d:
                raise self.error(f"Different dimensions at index {i} between source and result.  "
                                 "Broadcast requires the source dimension to be 1.")
        _verify_same_element_type(self, self.src.type, self.result.type)
        _verify_same_encoding(self, self.src.type, self.result.type)


class _BinaryTensorOp(TTOp):
    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)
    SYNTAX: ClassVar = "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)"
    SAME_TYPE: ClassVar = ("lhs", "rhs")

    def verify_operands(self) -> None:
        """`SameTypeOperands`."""
        if self.lhs.type != self.rhs.type:
            raise self.error("requires all operands to have the same type")


@irdl_op_definition
class CatOp(_BinaryTensorOp):
    name = "tt.cat"
    traits = tt_traits(NoMemoryEffect())

    def verify_(self) -> None:
        self.verify_operands()
        _verify_same_element_type(self, self.lhs.type, self.result.type)


@irdl_op_definition
class JoinOp(_BinaryTensorOp):
    name = "tt.join"
    traits = tt_traits(Pure())

    def verify_(self) -> None:
        self.verify_operands()
        shape = (*self.lhs.type.get_shape(), 2)
        if self.result.type.get_shape() != shape:
            raise self.error(f"result shape must be ({', '.join(map(str, shape))}), "
                             f"but got {self.result.type.get_shape()}")
        if self.result.type.element_type != self.lhs.type.element_type:
            raise self.error("result element type must match the input element type")
        if _has_encoding(self.lhs.type) and not _has_encoding(self.result.type):
            raise self.error("result encoding must be specified")


@irdl_op_definition
class SplitOp(TTOp):
    name = "tt.split"
    src = operand_def(TensorType)
    outLHS = result_def(TensorType)
    outRHS = result_def(TensorType)
    traits = tt_traits(Pure())
    SYNTAX: ClassVar = "$src attr-dict `:` type($src) `->` type($outLHS)"
    TYPE_RULES: ClassVar = {"outRHS": lambda s: s.type("outLHS")}

    def __init__(self, src: SSAValue, *, result_type: Attribute):
        """The two halves of `src` along its last dimension, each of `result_type`."""
        super().__init__(operands=[src], result_types=[result_type, result_type])

    def verify_(self) -> None:
        shape = self.src.type.get_shape()
        if not shape or shape[-1] != 2:
            raise self.error("last dimension of input tensor must be 2")
        for out in (self.outLHS, self.outRHS):
            if out.type.get_shape() != shape[:-1] or out.type.element_type != self.src.type.element_type:
                raise self.error("results must be the source tensor without its last dimension")
        if self.outLHS.type != self.outRHS.type:
            raise self.error("outLHS and outRHS types must match")


@irdl_op_definition
class TransOp(TTOp):
    name = "tt.trans"
    src = operand_def(TensorType)
    order = prop_def(DenseArrayBase)
    result = result_def(TensorType)
    traits = tt_traits(Pure())
    SYNTAX: ClassVar = "$src attr-dict `:` type($src) `->` type($result)"

    def __init__(self, src: SSAValue, *, order: Sequence[int] | DenseArrayBase, result_type: Attribute):
        super().__init__(operands=[src], result_types=[result_type], properties={"order": i32_array(order)})

    def verify_(self) -> None:
        order = list(self.order.get_values())
        shape = self.src.type.get_shape()
        if len(order) != len(shape):
            raise self.error("order must have the same size as the source tensor")
        if sorted(order) != list(range(len(order))):
            raise self.error("order must be a permutation of 0..n-1")
        if tuple(shape[i] for i in order) != self.result.type.get_shape():
            raise self.error("result shape must match the permutation of the source shape")
        _verify_same_element_type(self, self.src.type, self.result.type)


# ------------------------------------------------------------------ SPMD


@irdl_op_definition
class GetProgramIdOp(TTOp):
    name = "tt.get_program_id"
    axis = prop_def(IntegerAttr)
    result = result_def(i32)
    traits = tt_traits(Pure())
    SYNTAX: ClassVar = "$axis attr-dict `:` type($result)"
    ATTR_SYNTAX: ClassVar = {"axis": ProgramIDDim}

    def __init__(self, axis: int | IntegerAttr):
        """The program's coordinate in the launch grid along `axis` (0, 1, 2: x, y, z)."""
        super().__init__(result_types=[i32], properties={"axis": int_prop(axis)})


@irdl_op_definition
class GetNumProgramsOp(TTOp):
    name = "tt.get_num_programs"
    axis = prop_def(IntegerAttr)
    result = result_def(i32)
    traits = tt_traits(Pure())
    SYNTAX: ClassVar = "$axis attr-dict `:` type($result)"
    ATTR_SYNTAX: ClassVar = {"axis": ProgramIDDim}

    def __init__(self, axis: int | IntegerAttr):
        """The number of programs of the launch grid along `axis` (0, 1, 2: x, y, z)."""
        super().__init__(result_types=[i32], properties={"axis": int_prop(axis)})


# ------------------------------------------------------------------ dots


def _verify_dot_interface(op: TTOp, a_k: int, b_k: int, m: int, n: int) -> None:
    """Triton's `verifyDotOpInterface`, given the K sizes of A and B and the M and N sizes
    they give the result (which `tt.dot_scaled` scales for packed operands)."""
    a_shape, b_shape, c_shape = op.a.type.get_shape(), op.b.type.get_shape(), op.c.type.get_shape()
    if len(a_shape) not in (2, 3):
        raise op.error("expected operands to be 2d or 3d")
    if not len(a_shape) == len(b_shape) == len(c_shape):
        raise op.error("expected all operands to have the same rank")
    if a_k != b_k:
        raise op.error("expected the last dimension of the first operand to be equal to the "
                       "second-to-last dimension of the second operand")
    if len(a_shape) == 3 and not a_shape[0] == b_shape[0] == c_shape[0]:
        raise op.error("expected the first dimension of the first operand to be equal to the "
                       "first dimension of the result")
    if (m, n) != c_shape[-2:]:
        raise op.error("expected the output shape to be the concatenation of the last dimension "
                       "of the first operand and the last dimension of the second ")
    if op.c.type != op.d.type:
        raise op.error("result type must match the accumulator type")


@irdl_op_definition
class DotOp(TTOp):
    name = "tt.dot"
    a = operand_def(TensorType)
    b = operand_def(TensorType)
    c = operand_def(TensorType)
    inputPrecision = prop_def(IntegerAttr, default_value=enum_attr(InputPrecision.ieee))
    maxNumImpreciseAcc = prop_def(IntegerAttr, default_value=IntegerAttr(0, i32))
    d = result_def(TensorType)
    traits = tt_traits(Pure())
    SYNTAX: ClassVar = """
      $a`,` $b`,` $c (`,` `inputPrecision` `=` $inputPrecision^)? attr-dict `:`
      type($a) `*` type($b) `->` type($d)
    """
    ATTR_SYNTAX: ClassVar = {"inputPrecision": InputPrecision}
    TYPE_RULES: ClassVar = {"c": lambda s: s.type("d")}

    def __init__(self, a: SSAValue, b: SSAValue, c: SSAValue, *,
                 input_precision: InputPrecision | IntegerAttr | None = None,
                 max_num_imprecise_acc: int | IntegerAttr | None = None):
        """`a * b + c`, of `c`'s type; unset properties take their defaults."""
        super().__init__(operands=[a, b, c], result_types=[c.type],
                         properties={"inputPrecision": int_prop(input_precision),
                                     "maxNumImpreciseAcc": int_prop(max_num_imprecise_acc)})

    def verify_(self) -> None:
        a, b = self.a.type, self.b.type
        a_shape, b_shape = a.get_shape(), b.get_shape()
        _verify_dot_interface(self, a_shape[-1], b_shape[len(a_shape) - 2], a_shape[-2], b_shape[-1])
        if _bit_width(a.element_type) != _bit_width(b.element_type):
            raise self.error("element types of operands A and B must have same bit width")
        if _has_encoding(a) != _has_encoding(b):
            raise self.error("mismatching encoding between A and B operands")
        if _has_encoding(a) and not _has_encoding(self.c.type):
            raise self.error("miss encoding of C operand")


@irdl_op_definition
class DotScaledOp(TTOp):
    name = "tt.dot_scaled"
    a = operand_def(TensorType)
    b = operand_def(TensorType)
    c = operand_def(TensorType)
    a_scale = opt_operand_def(TensorType)
    b_scale = opt_operand_def(TensorType)
    a_elem_type = prop_def(IntegerAttr)
    b_elem_type = prop_def(IntegerAttr)
    fastMath = prop_def(IntegerAttr)
    lhs_k_pack = prop_def(IntegerAttr, default_value=TRUE)
    rhs_k_pack = prop_def(IntegerAttr, default_value=TRUE)
    d = result_def(TensorType)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = tt_traits(Pure())
    SYNTAX: ClassVar = """
      $a (`scale` $a_scale^)? `,` $b (`scale` $b_scale^)? `,` $c
      `lhs` `=` $a_elem_type `rhs` `=` $b_elem_type attr-dict
      `:` type($a) (`,` type($a_scale)^)? `*` type($b) (`,` type($b_scale)^)? `->` type($d)
    """
    ATTR_SYNTAX: ClassVar = {"a_elem_type": ScaleDotElemType, "b_elem_type": ScaleDotElemType}
    TYPE_RULES: ClassVar = {"c": lambda s: s.type("d")}

    def __init__(self, a: SSAValue, b: SSAValue, c: SSAValue, a_scale: SSAValue | None = None,
                 b_scale: SSAValue | None = None, *, a_elem_type: ScaleDotElemType | IntegerAttr,
                 b_elem_type: ScaleDotElemType | IntegerAttr, fast_math: bool | IntegerAttr,
                 lhs_k_pack: bool | IntegerAttr | None = None, rhs_k_pack: bool | IntegerAttr | None = None):
        """`(a * a_scale) x (b * b_scale) + c`, of `c`'s type; unset k-packs default to true."""
        super().__init__(operands=[a, b, c, a_scale, b_scale], result_types=[c.type],
                         properties={"a_elem_type": int_prop(a_elem_type), "b_elem_type": int_prop(b_elem_type),
                                     "fastMath": bool_prop(fast_math), "lhs_k_pack": bool_prop(lhs_k_pack),
                                     "rhs_k_pack": bool_prop(rhs_k_pack)})

    def verify_(self) -> None:
        a_shape, b_shape = self.a.type.get_shape(), self.b.type.get_shape()
        rank = len(a_shape)
        # e2m1 operands pack two values per i8, along K when k_pack is set, else along M or N
        a_packed = self.a_elem_type.value.data == ScaleDotElemType.e2m1
        b_packed = self.b_elem_type.value.data == ScaleDotElemType.e2m1
        lhs_k_pack, rhs_k_pack = self.lhs_k_pack.value.data, self.rhs_k_pack.value.data
        k = a_shape[-1] * (2 if a_packed and lhs_k_pack else 1)
        b_k = b_shape[rank - 2] * (2 if b_packed and rhs_k_pack else 1)
        m = a_shape[-2] * (2 if a_packed and not lhs_k_pack else 1)
        n = b_shape[-1] * (2 if b_packed and not rhs_k_pack else 1)
        _verify_dot_interface(self, k, b_k, m, n)
        for scale, dim, which in ((self.a_scale, m, "M"), (self.b_scale, n, "N")):
            if scale is None:
                continue
            scale_shape = scale.type.get_shape()
            if scale_shape[rank - 2] != dim:
                raise self.error(f"scales {which} dimension must match the operand {which} dimension")
            factor = 16 if isinstance(scale.type.element_type, Float8E4M3FNType) else 32
            if scale_shape[rank - 1] != k // factor:
                raise self.error("scales K dimension must match the operand K divided by the scale factor")


# ------------------------------------------------------------------ reduce, scan, map


def _verify_reduce_scan(op: _TritonOp, return_op: type[Operation]) -> None:
    """Triton's `verifyReduceScan` and `verifyRegionsImpl`."""
    srcs = op.srcs
    if not srcs:
        raise op.error("must have at least 1 operand")
    if len(srcs) != len(op.results):
        raise op.error("must have the same number of inputs as outputs")
    element_types = [s.type.element_type for s in srcs]
    for element, result in zip(element_types, op.results):
        if element != get_element_type_or_self(result.type):
            raise op.error("operand types and result types must agree")
    block = op.combineOp.block
    if len(block.args) != 2 * len(srcs):
        raise op.error(f"nested block must take {2 * len(srcs)} arguments, "
                       f"but given block with {len(block.args)} arguments")
    for i, arg in enumerate(block.args):
        expected = element_types[i % len(srcs)]
        if arg.type != expected:
            raise op.error(f"type mismatch on combine operation. Expected argument {i} "
                           f"to have type {attribute_text(expected)} but got {attribute_text(arg.type)}")
    terminator = block.last_op
    if not isinstance(terminator, return_op):
        raise op.error(f"combine operation must be terminated with a {return_op.name}")
    if len(terminator.operands) != len(srcs):
        raise op.error(f"expected combine operation to return {len(srcs)} values "
                       f"but got {len(terminator.operands)}")
    for i, value in enumerate(terminator.operands):
        if value.type != element_types[i]:
            raise op.error(f"type mismatch on combine operation. Expected argument {i} "
                           f"to have type {attribute_text(element_types[i])} but got {attribute_text(value.type)}")


@irdl_op_definition
class ReduceOp(_GenericFormOp):
    name = "tt.reduce"
    srcs = var_operand_def(TensorType)
    axis = prop_def(IntegerAttr)
    result = var_result_def()
    combineOp = region_def("single_block")
    traits = tt_traits(Pure())

    def __init__(self, srcs: Sequence[SSAValue], *, axis: int, result_types: Sequence[Attribute], combine: Region):
        """Reduces each of `srcs` along `axis`; `combine` takes the accumulators, then the
        values, one of each per operand, and returns the new accumulators."""
        super().__init__(operands=[srcs], result_types=[result_types], properties={"axis": int_prop(axis)},
                         regions=[combine])

    def verify_(self) -> None:
        first = self.srcs[0].type if self.srcs else None
        if any(s.type.get_shape() != first.get_shape() for s in self.srcs):
            raise self.error("requires the same shape for all operands")
        if any(s.type.encoding != first.encoding for s in self.srcs):
            raise self.error("requires the same encoding for all operands")
        axis = self.axis.value.data
        for src, result in zip(self.srcs, self.results):
            shape = list(src.type.get_shape())
            if not 0 <= axis < len(shape):
                raise self.error(f"axis {axis} is out of range for a rank-{len(shape)} operand")
            del shape[axis]
            if tuple(shape) != (_shape(result.type) or ()):
                raise self.error("result shape must be the operand shape without the reduced axis")
        _verify_reduce_scan(self, ReduceReturnOp)


@irdl_op_definition
class ReduceReturnOp(TTOp):
    name = "tt.reduce.return"
    result = var_operand_def()
    traits = tt_traits(HasParent(ReduceOp), Pure(), IsTerminator(), ReturnLike())
    SYNTAX: ClassVar = "$result attr-dict `:` type($result)"

    def __init__(self, result: Sequence[SSAValue]):
        super().__init__(operands=[result])


@irdl_op_definition
class ScanOp(_GenericFormOp):
    name = "tt.scan"
    srcs = var_operand_def(TensorType)
    axis = prop_def(IntegerAttr)
    reverse = prop_def(IntegerAttr)
    result = var_result_def(TensorType)
    combineOp = region_def("single_block")
    traits = tt_traits(Pure())

    def verify_(self) -> None:
        for src, result in zip(self.srcs, self.results):
            if src.type.get_shape() != result.type.get_shape() or src.type.encoding != result.type.encoding:
                raise self.error("requires the same shape and encoding for all operands and results")
        _verify_reduce_scan(self, ScanReturnOp)


@irdl_op_definition
class ScanReturnOp(TTOp):
    name = "tt.scan.return"
    result = var_operand_def()
    traits = tt_traits(HasParent(ScanOp), Pure(), IsTerminator(), ReturnLike())
    SYNTAX: ClassVar = "$result attr-dict `:` type($result)"


@irdl_op_definition
class MapElementwiseOp(_GenericFormOp):
    name = "tt.map_elementwise"
    srcs = var_operand_def(TensorType)
    pack = prop_def(IntegerAttr)
    result = var_result_def(TensorType)
    scalarOp = region_def()
    traits = tt_traits(RecursiveMemoryEffect())

    def verify_(self) -> None:
        if not self.srcs:
            raise self.error("MapElementwiseOp must have at least 1 operand")
        pack = self.pack.value.data
        if pack <= 0 or pack & (pack - 1):
            raise self.error("Pack must be a power of 2")
        first = self.srcs[0].type
        if any(v.type.get_shape() != first.get_shape() or v.type.encoding != first.encoding
               for v in (*self.srcs, *self.results)):
            raise self.error("requires the same shape and encoding for all operands and results")
        entry = self.scalarOp.blocks.first
        if entry is None:
            raise self.error("region must not be empty")
        expected = [s.type.element_type for s in self.srcs for _ in range(pack)]
        if len(entry.args) != len(expected):
            raise self.error("region has wrong number of arguments")
        if [a.type for a in entry.args] != expected:
            raise self.error("argument types did not match")
        returned = [r.type.element_type for r in self.results for _ in range(pack)]
        for op in self.scalarOp.walk():
            if has_effects(op, MemoryEffectKind.WRITE):
                raise VerifyException(f"'{op.name}' op Stores are not supported inside map_elementwise")
            if isinstance(op, MapElementwiseReturnOp) and [o.type for o in op.operands] != returned:
                raise self.error("region return does not match map_elementwise result")


@irdl_op_definition
class MapElementwiseReturnOp(TTOp):
    name = "tt.map_elementwise.return"
    result = var_operand_def()
    traits = tt_traits(HasParent(MapElementwiseOp), Pure(), IsTerminator(), ReturnLike())
    SYNTAX: ClassVar = "attr-dict ($result^ `:` type($result))?"


# ------------------------------------------------------------------ elementwise calls


def _verify_elementwise(op: TTOp) -> None:
    """MLIR's `Elementwise` trait with `SameOperandsAndResultEncoding`."""
    operands = [o.type for o in op.operands if isinstance(o.type, TensorType)]
    results = [r.type for r in op.results if isinstance(r.type, TensorType)]
    if not operands and not results:
        return
    if not operands:
        raise op.error("if a result is non-scalar, then at least one operand must be non-scalar")
    if len(results) != len(op.results):
        raise op.error("if an operand is non-scalar, then all results must be non-scalar")
    first = operands[0]
    if any(t.get_shape() != first.get_shape() for t in operands + results):
        raise op.error("all non-scalar operands/results must have the same shape and base type")
    if any(t.encoding != first.encoding for t in operands + results):
        raise op.error("requires the same encoding for all operands and results")


@irdl_op_definition
class ExternElementwiseOp(TTOp):
    name = "tt.extern_elementwise"
    srcs = var_operand_def()
    libname = prop_def(StringAttr)
    libpath = prop_def(StringAttr)
    symbol = prop_def(StringAttr)
    pure = prop_def(IntegerAttr)
    result = result_def()
    irdl_options = (SameVariadicOperandSize(),)
    traits = tt_traits(_PureIfFlagged())
    SYNTAX: ClassVar = "operands attr-dict `:` functional-type(operands, $result)"

    def verify_(self) -> None:
        _verify_elementwise(self)


@irdl_op_definition
class ElementwiseInlineAsmOp(TTOp):
    name = "tt.elementwise_inline_asm"
    asm_string = prop_def(StringAttr)
    constraints = prop_def(StringAttr)
    pure = prop_def(IntegerAttr)
    packed_element = prop_def(IntegerAttr)
    args = var_operand_def()
    result = var_result_def()
    traits = tt_traits(_PureIfFlagged())
    SYNTAX: ClassVar = "$asm_string attr-dict ($args^ `:` type($args))? `->` type($result)"
    ATTR_SYNTAX: ClassVar = {"asm_string": "str"}

    def verify_(self) -> None:
        _verify_elementwise(self)
        if self.args:
            first = self.args[0].type
            count = math.prod(first.get_shape()) if isinstance(first, TensorType) else 0
            packed = self.packed_element.value.data
            if packed <= 0 or count % packed:
                raise self.error(f"number of input elements {count} must be a multiple of the op's "
                                 f"packed_element attribute, {packed}")


@irdl_op_definition
class MakeRangeOp(TTOp):
    name = "tt.make_range"
    start = prop_def(IntegerAttr)
    end = prop_def(IntegerAttr)
    result = result_def(TensorType)
    traits = tt_traits(Pure())
    SYNTAX: ClassVar = "attr-dict `:` type($result)"

    def __init__(self, *, start: int, end: int, result_type: Attribute):
        """The i32 values `start, ..., end - 1` as a 1-D tensor of `result_type`."""
        super().__init__(result_types=[result_type],
                         properties={"start": int_prop(start), "end": int_prop(end)})

    def verify_(self) -> None:
        start, end = self.start.value.data, self.end.value.data
        if start >= end:
            raise self.error("start must be less than end")
        shape = self.result.type.get_shape()
        if len(shape) != 1:
            raise self.error("return type must be a 1D tensor")
        if end - start != shape[0]:
            raise self.error(f"number of elements in returned tensor, {shape[0]}, must match size of range "
                             f"[{start}, {end}), which has {end - start} elements")
        if self.result.type.element_type != i32:
            raise self.error("returned tensor must have i32 elements")


@irdl_op_definition
class HistogramOp(TTOp):
    name = "tt.histogram"
    src = operand_def(TensorType)
    mask = opt_operand_def()
    result = result_def(TensorType)
    traits = tt_traits(Pure())
    SYNTAX: ClassVar = "$src (`,` $mask^)? attr-dict `:` type($src) `->` type($result)"
    TYPE_RULES: ClassVar = {"mask": lambda s: i1_like(s.type("src"))}

    def verify_(self) -> None:
        if self.mask is not None and self.mask.type != i1_like(self.src.type):
            raise self.error("mask type must be i1 with the shape of src")


@irdl_op_definition
class GatherOp(TTOp):
    name = "tt.gather"
    src = operand_def(TensorType)
    indices = operand_def(TensorType)
    axis = prop_def(IntegerAttr)
    efficient_layout = opt_prop_def(UnitAttr)
    result = result_def(TensorType)
    traits = tt_traits(Pure())
    SYNTAX: ClassVar = """
    $src `[` $indices `]` attr-dict `:`
    functional-type(operands, results)
    """

    def verify_(self) -> None:
        src, indices, result = self.src.type, self.indices.type, self.result.type
        if indices.get_shape() != result.get_shape():
            raise self.error("indices and output shapes must match")
        if indices.encoding != result.encoding:
            raise self.error("indices and output encodings must match")
        if src.element_type != result.element_type:
            raise self.error("input and output element types must match")
        if len(src.get_shape()) != len(indices.get_shape()):
            raise self.error("input and indices ranks must match")
        axis = self.axis.value.data
        if axis >= len(src.get_shape()):
            raise self.error("gather dimension must be less than the input rank")
        for dim, (i, s) in enumerate(zip(indices.get_shape(), src.get_shape())):
            if dim != axis and i != s:
                raise self.error(f"indices dimension {dim} must match the corresponding input dimension")


# ------------------------------------------------------------------ debugging


@irdl_op_definition
class PrintOp(TTOp):
    name = "tt.print"
    prefix = prop_def(StringAttr)
    hex = prop_def(IntegerAttr)
    args = var_operand_def()
    isSigned = prop_def(DenseArrayBase)
    traits = tt_traits(MemoryWriteEffect())
    SYNTAX: ClassVar = """
    $prefix attr-dict (`:` $args^ `:` type($args))?
  """
    ATTR_SYNTAX: ClassVar = {"prefix": "str"}


@irdl_op_definition
class AssertOp(TTOp):
    name = "tt.assert"
    condition = operand_def()
    message = prop_def(StringAttr)
    traits = tt_traits(MemoryWriteEffect())
    SYNTAX: ClassVar = "$condition `,` $message attr-dict `:` type($condition)"
    ATTR_SYNTAX: ClassVar = {"message": "str"}

    def verify_(self) -> None:
        if get_element_type_or_self(self.condition.type) != I1:
            raise self.error("condition must be i1 or a tensor of i1")


# ------------------------------------------------------------------ tensor pointers and descriptors


def _tensor_pointer_base(result: Attribute) -> Attribute:
    """`getPointerType(getElementTypeOfTensorPointerType(result), getAddressSpace(result))`."""
    return PointerType(result.pointeeType.element_type, result.addressSpace)


@irdl_op_definition
class MakeTensorPtrOp(TTOp):
    name = "tt.make_tensor_ptr"
    base = operand_def(PointerType)
    shape = var_operand_def(i64)
    strides = var_operand_def(i64)
    offsets = var_operand_def(i32)
    order = prop_def(DenseArrayBase)
    result = result_def(PointerType)
    irdl_options = (SameVariadicOperandSize(),)
    traits = tt_traits(Pure())
    SYNTAX: ClassVar = ("$base `,` `[` $shape `]` `,` `[` $strides `]` `,` `[` $offsets `]` "
                        "attr-dict `:` type($result)")
    TYPE_RULES: ClassVar = {
        "base": lambda s: _tensor_pointer_base(s.type("result")),
        "shape": lambda s: i64,
        "strides": lambda s: i64,
        "offsets": lambda s: i32,
    }

    def verify_(self) -> None:
        if not isinstance(self.result.type.pointeeType, TensorType):
            raise self.error("result must be a pointer to a tensor")
        if self.base.type != _tensor_pointer_base(self.result.type):
            raise self.error("base type must point to the element type of the result's tensor")


@irdl_op_definition
class MakeTensorDescOp(TTOp):
    name = "tt.make_tensor_descriptor"
    base = operand_def(PointerType)
    shape = var_operand_def(i32)
    strides = var_operand_def(i64)
    padding = prop_def(IntegerAttr, default_value=enum_attr(PaddingOption.zero))
    result = result_def(TensorDescType)
    irdl_options = (SameVariadicOperandSize(),)
    traits = tt_traits(Pure())
    SYNTAX: ClassVar = "$base `,` `[` $shape `]` `,` `[` $strides `]` attr-dict `:` type($base) `,` type($result)"
    TYPE_RULES: ClassVar = {"shape": lambda s: i32, "strides": lambda s: i64}

    def __init__(self, base: SSAValue, shape: Sequence[SSAValue], strides: Sequence[SSAValue],
                 result_type: TensorDescType):
        """A descriptor of the tensor at `base` with `shape` (i32) and `strides` (i64, in
        elements), zero-filled outside it."""
        super().__init__(operands=[base, list(shape), list(strides)], result_types=[result_type])


def _verify_descriptor_block(op: TTOp, desc: TensorDescType, tensor: TensorType) -> None:
    """Triton's `verifyDescriptorLoadStoreType`."""
    block = desc.signless_block_type()
    block_shape, tensor_shape = block.get_shape(), tensor.get_shape()
    if len(block_shape) > len(tensor_shape):
        leading = block_shape[:len(block_shape) - len(tensor_shape)]
        if any(d != 1 for d in leading):
            raise op.error("ranked reduce load only allowed for unit dimension leading dim.")
        block_shape = block_shape[len(leading):]
    if block_shape != tensor_shape or block.element_type != tensor.element_type:
        raise op.error("tensor descriptor block and tensor types must match")


def _verify_gather_scatter(op: TTOp, desc: TensorDescType, result: TensorType, indices: TensorType) -> None:
    """Triton's `verifyGatherScatterOp` and `DescriptorGatherOp::verifyResultType`."""
    block = desc.signless_block_type()
    if len(block.get_shape()) != 2:
        raise op.error(f"block must be a 2D tensor, but got {attribute_text(block)}")
    if block.get_shape()[0] != 1:
        raise op.error(f"block must have exactly 1 row, but got {attribute_text(block)}")
    if len(indices.get_shape()) != 1:
        raise op.error(f"x offsets must be a 1D tensor, but got {attribute_text(indices)}")
    shape = result.get_shape()
    if len(shape) != 2:
        raise op.error(f"result must be a 2D tensor, but got {attribute_text(result)}")
    if shape[0] < 8:
        raise op.error(f"gather must have at least 8 rows, but got {shape[0]}")
    width = _bit_width(result.element_type)
    if width > 32:
        raise op.error("TMA dtype cannot be greater than 32 bits")
    min_cols = 32 // width * 8
    if shape[1] < min_cols:
        raise op.error(f"gather of {attribute_text(result.element_type)} must have at least {min_cols} columns, "
                       f"but got {shape[1]}")
    if shape[0] != indices.get_shape()[0]:
        raise op.error(f"result tensor must have as many rows as indices ({indices.get_shape()[0]}), "
                       f"but got {attribute_text(result)}")
    if shape[1] != block.get_shape()[1]:
        raise op.error(f"result tensor number of columns must match block ({block.get_shape()[1]}), "
                       f"but got {attribute_text(result)}")
    if result.element_type != block.element_type:
        raise op.error(f"result tensor element type must match block ({attribute_text(block.element_type)}), "
                       f"but got {attribute_text(result)}")


@irdl_op_definition
class DescriptorLoadOp(TTOp):
    name = "tt.descriptor_load"
    desc = operand_def(TensorDescType)
    indices = var_operand_def(i32)
    cache = prop_def(IntegerAttr, default_value=enum_attr(CacheModifier.none))
    evict = prop_def(IntegerAttr, default_value=enum_attr(EvictionPolicy.evict_normal))
    result = result_def(TensorType)
    traits = tt_traits(MemoryReadEffect())
    SYNTAX: ClassVar = """
    $desc `[` $indices `]`
    oilist(
      `cacheModifier` `=` $cache |
      `evictionPolicy` `=` $evict
    )
    attr-dict `:` qualified(type($desc)) `->` type($result)
  """
    ATTR_SYNTAX: ClassVar = {"cache": CacheModifier, "evict": EvictionPolicy}
    TYPE_RULES: ClassVar = {"indices": lambda s: i32}

    def __init__(self, desc: SSAValue, indices: Sequence[SSAValue], *, result_type: Attribute,
                 cache: IntegerAttr | None = None, evict: IntegerAttr | None = None):
        """The block of `desc` at `indices` (i32), as a tensor of `result_type`."""
        super().__init__(operands=[desc, list(indices)], result_types=[result_type],
                         properties={"cache": cache, "evict": evict})

    def verify_(self) -> None:
        _verify_descriptor_block(self, self.desc.type, self.result.type)


@irdl_op_definition
class DescriptorStoreOp(TTOp):
    name = "tt.descriptor_store"
    desc = operand_def(TensorDescType)
    src = operand_def(TensorType)
    indices = var_operand_def(i32)
    traits = tt_traits(_ReadsWritesGlobal())
    SYNTAX: ClassVar = """
    $desc `[` $indices `]` `,` $src
    attr-dict `:` qualified(type($desc)) `,` type($src)
  """
    TYPE_RULES: ClassVar = {"indices": lambda s: i32}

    def verify_(self) -> None:
        _verify_descriptor_block(self, self.desc.type, self.src.type)


@irdl_op_definition
class DescriptorReduceOp(TTOp):
    name = "tt.descriptor_reduce"
    kind = prop_def(IntegerAttr)
    desc = operand_def(TensorDescType)
    src = operand_def(TensorType)
    indices = var_operand_def(i32)
    traits = tt_traits(_ReadsWritesGlobal())
    SYNTAX: ClassVar = """
    $kind `,` $desc `[` $indices `]` `,` $src
    attr-dict `:` qualified(type($desc)) `,` type($src)
  """
    ATTR_SYNTAX: ClassVar = {"kind": DescriptorReduceKind}
    TYPE_RULES: ClassVar = {"indices": lambda s: i32}


@irdl_op_definition
class DescriptorGatherOp(TTOp):
    name = "tt.descriptor_gather"
    desc = operand_def(TensorDescType)
    x_offsets = operand_def(TensorType)
    y_offset = operand_def(i32)
    result = result_def(TensorType)
    traits = tt_traits(MemoryReadEffect())
    SYNTAX: ClassVar = """
    $desc `[` $x_offsets `,` $y_offset `]`
    attr-dict `:` functional-type(operands, results)
  """

    def verify_(self) -> None:
        _verify_gather_scatter(self, self.desc.type, self.result.type, self.x_offsets.type)


@irdl_op_definition
class DescriptorScatterOp(TTOp):
    name = "tt.descriptor_scatter"
    desc = operand_def(TensorDescType)
    x_offsets = operand_def(TensorType)
    y_offset = operand_def(i32)
    src = operand_def(TensorType)
    traits = tt_traits(_ReadsWritesGlobal())
    SYNTAX: ClassVar = """
    $desc `[` $x_offsets `,` $y_offset `]` `,` $src
    attr-dict `:` type(operands)
  """

    def verify_(self) -> None:
        _verify_gather_scatter(self, self.desc.type, self.src.type, self.x_offsets.type)


# ------------------------------------------------------------------ functions


_VISIBILITIES = ("public", "private", "nested")


@irdl_op_definition
class FuncOp(TTOp):
    """`tt.func`, in MLIR's function syntax (`function_interface_impl`):

        tt.func public @f(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32} loc(...)) -> i32
            attributes {noinline = false} { ... }

    The entry block's arguments are the signature's; a declaration has an empty body and
    spells argument types only.
    """

    name = "tt.func"
    sym_name = prop_def(StringAttr)
    function_type = prop_def(FunctionType)
    sym_visibility = opt_prop_def(StringAttr)
    arg_attrs = opt_prop_def(ArrayAttr)
    res_attrs = opt_prop_def(ArrayAttr)
    body = region_def()
    traits = tt_traits(IsolatedFromAbove(), SymbolOpInterface(), HasParent(ModuleOp))

    @property
    def is_declaration(self) -> bool:
        return not self.body.blocks

    @classmethod
    def parse_custom(cls, parser, name_offset: int) -> Operation:
        properties: dict[str, Attribute] = {}
        for word in _VISIBILITIES:
            if parser.accept_keyword(word):
                properties["sym_visibility"] = StringAttr(word)
                break
        properties["sym_name"] = StringAttr(parser.parse_symbol_name())
        parser.expect("(")
        args = parser.parse_comma_list(lambda: _parse_function_argument(parser), ")")
        parser.expect(")")
        named = [operand is not None for operand, *_ in args]
        if any(named) and not all(named):
            raise parser.error("expected SSA identifier or type for every argument, not a mix", name_offset)
        results: list[tuple[Attribute, DictionaryAttr]] = []
        if parser.accept("->"):
            results = _parse_function_results(parser)
        attributes: dict[str, Attribute] = {}
        if parser.accept_keyword("attributes"):
            for key, value in parser.parse_dictionary().data.items():
                (properties if key in cls.get_irdl_definition().properties else attributes)[key] = value
        properties["function_type"] = FunctionType.from_lists([t for _, t, _, _ in args], [t for t, _ in results])
        arg_attrs = [d for _, _, d, _ in args]
        if any(d.data for d in arg_attrs):
            properties["arg_attrs"] = ArrayAttr(arg_attrs)
        res_attrs = [d for _, d in results]
        if any(d.data for d in res_attrs):
            properties["res_attrs"] = ArrayAttr(res_attrs)
        body = Region()
        if parser.at("{"):
            if args and not all(named):
                raise parser.error("expected named arguments for a function with a body", name_offset)
            body = parser.parse_region(entry_args=[(o, t, loc) for o, t, _, loc in args], isolated=True)
        return cls.create(properties=properties, attributes=attributes, regions=[body])

    def print_custom(self, printer) -> None:
        out = " "
        if self.sym_visibility is not None:
            out += self.sym_visibility.data + " "
        printer.write(out + printer.attr(SymbolRefAttr(self.sym_name.data)) + "(")
        inputs = self.function_type.inputs.data
        arg_attrs = self.arg_attrs.data if self.arg_attrs is not None else [None] * len(inputs)
        texts = []
        if self.is_declaration:
            for type_, attrs in zip(inputs, arg_attrs):
                texts.append(printer.attr(type_) + _attr_dict_text(printer, attrs))
        else:
            for arg, attrs in zip(self.body.blocks.first.args, arg_attrs):
                text = f"{printer.value(arg)}: {printer.attr(arg.type)}" + _attr_dict_text(printer, attrs)
                if printer.options.debug_info:
                    text += " " + printer.location(arg.location)
                texts.append(text)
        printer.write(", ".join(texts) + ")")
        outputs = self.function_type.outputs.data
        if outputs:
            res_attrs = self.res_attrs.data if self.res_attrs is not None else [None] * len(outputs)
            items = ", ".join(printer.attr(t) + _attr_dict_text(printer, a) for t, a in zip(outputs, res_attrs))
            parens = len(outputs) > 1 or isinstance(outputs[0], FunctionType) or bool(res_attrs[0] and res_attrs[0].data)
            printer.write(f" -> ({items})" if parens else f" -> {items}")
        if self.attributes:
            printer.write(" attributes")
            printer.print_attr_dict(dict(self.attributes))
        if not self.is_declaration:
            printer.write(" ")
            printer.print_region(self.body, print_entry_args=False)

    def verify_(self) -> None:
        inputs = self.function_type.inputs.data
        for name in ("arg_attrs", "res_attrs"):
            attrs = getattr(self, name)
            expected = len(inputs) if name == "arg_attrs" else len(self.function_type.outputs.data)
            if attrs is not None and (len(attrs.data) != expected or
                                      not all(isinstance(d, DictionaryAttr) for d in attrs.data)):
                raise self.error(f"expects {name} to be an array of {expected} dictionaries")
        if self.is_declaration:
            return
        args = self.body.blocks.first.args
        if len(args) != len(inputs):
            raise self.error(f"entry block must have {len(inputs)} arguments to match function signature")
        for i, (arg, type_) in enumerate(zip(args, inputs)):
            if arg.type != type_:
                raise self.error(f"type of entry block argument #{i}({attribute_text(arg.type)}) must match the type "
                                 f"of the corresponding argument in function signature({attribute_text(type_)})")


def _parse_function_argument(parser):
    """`%name: type {attrs}? loc(...)?` or, in a declaration, `type {attrs}? loc(...)?`."""
    operand = parser.parse_operand() if parser.at("%") else None
    if operand is not None:
        parser.expect(":")
    type_ = parser.parse_type()
    attrs = parser.parse_dictionary() if parser.at("{") else DictionaryAttr({})
    return operand, type_, attrs, parser.try_location()


def _parse_function_results(parser) -> list[tuple[Attribute, DictionaryAttr]]:
    if not parser.accept("("):
        return [(parser.parse_type(), DictionaryAttr({}))]

    def result():
        type_ = parser.parse_type()
        return type_, parser.parse_dictionary() if parser.at("{") else DictionaryAttr({})

    results = parser.parse_comma_list(result, ")")
    parser.expect(")")
    return results


def _attr_dict_text(printer, attrs: DictionaryAttr | None) -> str:
    return " " + printer.dict_text(dict(attrs.data)) if attrs is not None and attrs.data else ""


@irdl_op_definition
class ReturnOp(TTOp):
    name = "tt.return"
    srcs = var_operand_def()
    traits = tt_traits(Pure(), HasParent(FuncOp), ReturnLike(), IsTerminator())
    SYNTAX: ClassVar = "attr-dict ($srcs^ `:` type($srcs))?"

    def verify_(self) -> None:
        function = self.parent_op()
        if not isinstance(function, FuncOp):
            return
        results = function.function_type.outputs.data
        if len(self.srcs) != len(results):
            raise self.error(f"has {len(self.srcs)} operands, but enclosing function "
                             f"(@{function.sym_name.data}) returns {len(results)}")
        for i, (value, type_) in enumerate(zip(self.srcs, results)):
            if value.type != type_:
                raise self.error(f"type of return operand {i} ({attribute_text(value.type)}) doesn't match function "
                                 f"result type ({attribute_text(type_)}) in function @{function.sym_name.data}")


@irdl_op_definition
class CallOp(TTOp):
    name = "tt.call"
    callee = prop_def(SymbolRefAttr)
    args = var_operand_def()
    arg_attrs = opt_prop_def(ArrayAttr)
    res_attrs = opt_prop_def(ArrayAttr)
    result = var_result_def()
    traits = tt_traits()
    SYNTAX: ClassVar = "$callee `(` $args `)` attr-dict `:` functional-type($args, results)"
    ATTR_SYNTAX: ClassVar = {"callee": "symbol"}

    def verify_(self) -> None:
        try:
            function = SymbolTable.lookup_symbol(self, self.callee)
        except ValueError:  # not inside a symbol table: nothing to check against
            return
        if not isinstance(function, FuncOp):
            raise self.error(f"'{self.callee.root_reference.data}' does not reference a valid function")
        fn_type = function.function_type
        if len(fn_type.inputs.data) != len(self.args):
            raise self.error("incorrect number of operands for callee")
        for i, (value, type_) in enumerate(zip(self.args, fn_type.inputs.data)):
            if value.type != type_:
                raise self.error(f"operand type mismatch: expected operand type {attribute_text(type_)}, but provided "
                                 f"{attribute_text(value.type)} for operand number {i}")
        if len(fn_type.outputs.data) != len(self.results):
            raise self.error("incorrect number of results for callee")
        for i, (result, type_) in enumerate(zip(self.results, fn_type.outputs.data)):
            if result.type != type_:
                raise self.error(f"result type mismatch at index {i}")


OPS = (
    IntToPtrOp, PtrToIntOp, BitcastOp, FpToFpOp,
    ClampFOp, PreciseSqrtOp, PreciseDivFOp, MulhiUIOp,
    AddPtrOp, AdvanceOp, LoadOp, StoreOp, AtomicRMWOp, AtomicCASOp,
    SplatOp, UnsplatOp, ExpandDimsOp, ReshapeOp, BroadcastOp, CatOp, JoinOp, SplitOp, TransOp,
    GetProgramIdOp, GetNumProgramsOp, DotOp, DotScaledOp,
    ReduceOp, ReduceReturnOp, ScanOp, ScanReturnOp, MapElementwiseOp, MapElementwiseReturnOp,
    ExternElementwiseOp, MakeRangeOp, ElementwiseInlineAsmOp, HistogramOp, GatherOp,
    PrintOp, AssertOp, MakeTensorPtrOp, MakeTensorDescOp,
    CallOp, FuncOp, ReturnOp,
    DescriptorLoadOp, DescriptorStoreOp, DescriptorReduceOp, DescriptorGatherOp, DescriptorScatterOp,
)
ATTRS = (PointerType, TensorDescType)
