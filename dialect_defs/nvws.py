"""The NVWS dialect (`nvws`): NVIDIA warp specialization, in the intermediate IR of Triton's
Blackwell/Hopper warp-specialization passes.

Follows Triton 3.6's `third_party/nvidia/include/Dialect/NVWS/IR/*.td` and `Ops.cpp`:

* types: `!nvws.aref<[buffer types]>` (an asynchronous reference to multi-buffered values)
  and `!nvws.token`;
* attributes: `#nvws.async_op<tma_load>` (the async ops an aref exit waits for),
  `#nvws<type_array[...]>` (the parameter of `!nvws.aref`) and `#nvws<int_array[...]>`;
* ops: the aref protocol (`aref.create`, `aref.put.enter`/`exit`, `aref.get.enter`/`exit`,
  `aref.buffer`), `warp_group` with its terminators, the token ops (`create_token`,
  `producer_acquire`, ...) and `descriptor_load`/`descriptor_gather` into shared memory.

In the ops' custom forms an unqualified `type($aref)` prints the aref type stripped to
`<[...]>`, as MLIR does for a value constrained to one dialect type.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import (
    I32,
    ArrayAttr,
    DenseArrayBase,
    IntAttr,
    IntegerAttr,
    IntegerType,
    TensorType,
    i32,
)
from xdsl.ir import Attribute
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    param_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
    var_region_def,
    var_result_def,
)
from xdsl.traits import HasParent, IsTerminator, Pure, RecursiveMemoryEffect

from ttpipe.ir.base import DialectAttribute, DialectType, IntEnum
from ttpipe.dialects.tt import I1, CacheModifier, EvictionPolicy, TensorDescType, enum_attr
from ttpipe.dialects.ttg_types import AsyncTokenType, MemDescType
from ttpipe.ir.syntax import FormattedOp, ParseState


def _i32(_: ParseState) -> IntegerType:
    return i32


# ------------------------------------------------------------------ enums and attributes


class TokenLoadType(IntEnum):
    """`create_token`'s `loadType` (an `I32EnumAttr`: prints as `N : i32` in attribute dicts)."""

    none = 0
    asyncLoadOp = 1
    tmaLoadOp = 2
    localStoreOp = 3
    TmemLoadOp = 4


class AsyncOp(IntEnum):
    """The kinds of asynchronous op an aref exit waits for."""

    none = 0
    tma_load = 1
    tc5mma = 2
    tmem_copy = 3
    cp_async = 4
    wgmma = 5


@irdl_attr_definition
class AsyncOpAttr(DialectAttribute):
    """`#nvws.async_op<tc5mma>`."""

    name = "nvws.async_op"
    value: IntAttr = param_def()

    @classmethod
    def get(cls, kind: AsyncOp) -> AsyncOpAttr:
        return cls(IntAttr(int(kind)))

    @property
    def kind(self) -> AsyncOp:
        return AsyncOp(self.value.data)

    def print_body(self, printer) -> str:
        return f"<{self.kind.name}>"

    @classmethod
    def parse_parameters(cls, parser) -> AsyncOpAttr:
        parser.expect("<")
        start = parser.skip()
        word = parser.parse_keyword("async op kind")
        if word not in AsyncOp.__members__:
            raise parser.error(f"expected one of {', '.join(AsyncOp.__members__)} but got '{word}'", start)
        parser.expect(">")
        return cls.get(AsyncOp[word])


class _ArrayOfAttr(DialectAttribute):
    """ODS `ArrayOfAttr`: the body is `[elem, ...]`. Not being `<...>`, it is not simple enough
    for MLIR's pretty dialect form: standalone it prints as `#nvws<type_array[...]>`."""

    elements: ArrayAttr  # declared by each subclass: xDSL compares only a definition's own params

    @classmethod
    def parse_element(cls, parser):
        raise NotImplementedError

    def element_text(self, printer, element) -> str:
        raise NotImplementedError

    def print_body(self, printer) -> str:
        return "[" + ", ".join(self.element_text(printer, e) for e in self.elements.data) + "]"

    def dialect_text(self, printer) -> str:
        dialect, mnemonic = self.name.split(".", 1)
        return f"#{dialect}<{mnemonic}{self.print_body(printer)}>"

    @classmethod
    def parse_parameters(cls, parser):
        return cls(ArrayAttr(parser.parse_delimited("[", "]", lambda: cls.parse_element(parser))))


@irdl_attr_definition
class TypeArrayAttr(_ArrayOfAttr):
    """`#nvws<type_array[i32, f16]>`; inside `!nvws.aref<...>` just its body `[i32, f16]`."""

    name = "nvws.type_array"
    elements: ArrayAttr = param_def()

    @classmethod
    def parse_element(cls, parser):
        return parser.parse_type()

    def element_text(self, printer, element) -> str:
        return printer.attr(element)


@irdl_attr_definition
class IntArrayAttr(_ArrayOfAttr):
    """`#nvws<int_array[1, 2]>`."""

    name = "nvws.int_array"
    elements: ArrayAttr[IntAttr] = param_def()

    @classmethod
    def parse_element(cls, parser):
        return IntAttr(parser.parse_integer())

    def element_text(self, printer, element) -> str:
        return str(element.data)


@irdl_attr_definition
class ArefType(DialectType):
    """`!nvws.aref<[!ttg.memdesc<...>, ...]>`: an asynchronous reference to buffers whose
    leading dimension is the multi-buffering depth."""

    name = "nvws.aref"
    baseType: TypeArrayAttr = param_def()

    @classmethod
    def get(cls, base_types) -> ArefType:
        return cls(TypeArrayAttr(ArrayAttr(list(base_types))))

    @property
    def base_types(self) -> tuple[Attribute, ...]:
        return self.baseType.elements.data

    def print_body(self, printer) -> str:
        return "<" + self.baseType.print_body(printer) + ">"

    @classmethod
    def parse_parameters(cls, parser) -> ArefType:
        parser.expect("<")
        base_type = TypeArrayAttr.parse_parameters(parser)
        parser.expect(">")
        return cls(base_type)


@irdl_attr_definition
class TokenType(DialectType):
    """`!nvws.token`: a producer/consumer synchronization token."""

    name = "nvws.token"

    def print_body(self, printer) -> str:
        return ""

    @classmethod
    def parse_parameters(cls, parser) -> TokenType:
        return cls()


# ------------------------------------------------------------------ aref ops


class _NVWSOp(FormattedOp, IRDLOperation):
    pass


def _aref_base_types(s: ParseState) -> list:
    return list(s.type("result").base_types)


@irdl_op_definition
class ArefCreateOp(_NVWSOp):
    """An aref over `buffers` (memdescs with the same leading, multi-buffering dimension)."""

    name = "nvws.aref.create"
    buffers = var_operand_def(MemDescType)
    result = result_def(ArefType)
    traits = traits_def(Pure())
    SYNTAX: ClassVar = "$buffers attr-dict `:` type($result)"
    TYPE_RULES: ClassVar = {"buffers": _aref_base_types}


@irdl_op_definition
class ArefBufferOp(_NVWSOp):
    """The aref's buffers at `stage`, for the holder of `token`."""

    name = "nvws.aref.buffer"
    aref = operand_def(ArefType)
    token = operand_def(AsyncTokenType)
    stage = opt_operand_def(i32)
    buffers = var_result_def(MemDescType)
    SYNTAX: ClassVar = """
    $aref (`[` $stage^ `]`)? `,` $token attr-dict
    `:` type($aref) `,` type($token) `->` type(results)
  """
    TYPE_RULES: ClassVar = {"stage": _i32}


class _ArefEnterOp(_NVWSOp):
    """Enters the region where the aref's buffers (at `stage`, phase `phase`) may be used."""

    aref = operand_def(ArefType)
    stage = opt_operand_def(i32)
    phase = opt_operand_def(i32)
    buffers = var_result_def(MemDescType)
    token = result_def(AsyncTokenType)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    SYNTAX: ClassVar = """
    $aref ( `[` $stage^ `,` $phase `]`)? attr-dict
    `:` type($aref) `->` type(results)
  """
    TYPE_RULES: ClassVar = {"stage": _i32, "phase": _i32}


class _ArefExitOp(_NVWSOp):
    """Leaves the region where the aref's buffers may be used, once `async_ops` complete."""

    aref = operand_def(ArefType)
    token = operand_def(AsyncTokenType)
    stage = opt_operand_def(i32)
    async_ops = prop_def(ArrayAttr[AsyncOpAttr])
    TYPE_RULES: ClassVar = {"stage": _i32}


@irdl_op_definition
class ArefGetEnterOp(_ArefEnterOp):
    name = "nvws.aref.get.enter"


@irdl_op_definition
class ArefPutEnterOp(_ArefEnterOp):
    name = "nvws.aref.put.enter"


@irdl_op_definition
class ArefGetExitOp(_ArefExitOp):
    name = "nvws.aref.get.exit"
    SYNTAX: ClassVar = """
    $aref (`[` $stage^ `]`)? `,` $token $async_ops attr-dict
    `:` type($aref) `,` type($token)
 """


@irdl_op_definition
class ArefPutExitOp(_ArefExitOp):
    name = "nvws.aref.put.exit"
    SYNTAX: ClassVar = """
    $aref (`[` $stage^ `]`)? `,` $token  $async_ops attr-dict
    `:` type($aref) `,` type($token)
 """


# ------------------------------------------------------------------ warp groups


@irdl_op_definition
class WarpGroupOp(_NVWSOp):
    """Warp-specialized partitions, each a region run by `numWarps[i]` warps:

        nvws.warp_group
        partition0 num_warps(4) {
          ...
        }

    Results (those of the first region's `warp_group.yield`) have no text: like Triton's
    parser, this one gives the op none."""

    name = "nvws.warp_group"
    numWarps = prop_def(DenseArrayBase)
    results_ = var_result_def()
    partitionRegions = var_region_def()
    traits = traits_def(RecursiveMemoryEffect())

    @classmethod
    def parse_custom(cls, parser, name_offset: int) -> WarpGroupOp:
        props: dict = {}
        attrs: dict = {}
        if parser.accept_keyword("attributes"):
            for key, value in parser.parse_dictionary().data.items():
                (props if key == "numWarps" else attrs)[key] = value
        num_warps: list[int] = []
        regions = []
        while parser.accept_keyword(f"partition{len(num_warps)}"):
            parser.expect_keyword("num_warps")
            parser.expect("(")
            num_warps.append(parser.parse_integer())
            parser.expect(")")
            regions.append(parser.parse_region())
        props["numWarps"] = DenseArrayBase.from_list(i32, num_warps)
        return cls.create(properties=props, attributes=attrs, regions=regions)

    def print_custom(self, printer) -> None:
        if self.attributes:
            printer.write(" attributes")
            printer.print_attr_dict(dict(self.attributes))
        for index, (region, num_warps) in enumerate(zip(self.regions, self.numWarps.get_values())):
            printer.newline()
            printer.write(f"partition{index} num_warps({num_warps}) ")
            printer.print_region(region, print_entry_args=False)


@irdl_op_definition
class WarpGroupYieldOp(_NVWSOp):
    """Yields the results of `nvws.warp_group` from its first region."""

    name = "nvws.warp_group.yield"
    values = var_operand_def()
    traits = traits_def(Pure(), IsTerminator(), HasParent(WarpGroupOp))
    SYNTAX: ClassVar = "($values^)? attr-dict (`:` type($values)^)?"


@irdl_op_definition
class WarpGroupReturnOp(_NVWSOp):
    """Ends a warp group region (the partitions communicate through memory)."""

    name = "nvws.warp_group.return"
    traits = traits_def(Pure(), IsTerminator(), HasParent(WarpGroupOp))
    SYNTAX: ClassVar = "attr-dict"


# ------------------------------------------------------------------ tokens


@irdl_op_definition
class CreateTokenOp(_NVWSOp):
    """A tensor of `numBuffers` tokens shared by a producer and its consumers."""

    name = "nvws.create_token"
    numBuffers = prop_def(IntegerAttr[I32])
    loadType = prop_def(IntegerAttr[I32])
    result = result_def(TensorType)
    SYNTAX: ClassVar = "attr-dict `:` type($result)"

    @property
    def load_kind(self) -> TokenLoadType:
        return TokenLoadType(self.loadType.value.data)


@irdl_op_definition
class ProducerAcquireOp(_NVWSOp):
    """The producer waits (in phase `phase`) until it may fill buffer `idx`."""

    name = "nvws.producer_acquire"
    token = operand_def(TensorType)
    idx = operand_def(i32)
    phase = operand_def(I1)
    SYNTAX: ClassVar = "$token `,` $idx `,` $phase attr-dict `:` type(operands)"


@irdl_op_definition
class ProducerCommitOp(_NVWSOp):
    """The producer signals that buffer `idx` is filled."""

    name = "nvws.producer_commit"
    token = operand_def(TensorType)
    idx = operand_def(i32)
    SYNTAX: ClassVar = "$token `,` $idx attr-dict `:` type(operands)"


@irdl_op_definition
class ConsumerWaitOp(_NVWSOp):
    """The consumer waits (in phase `phase`) until buffer `idx` is filled."""

    name = "nvws.consumer_wait"
    token = operand_def(TensorType)
    idx = operand_def(i32)
    phase = operand_def(I1)
    SYNTAX: ClassVar = "$token `,` $idx `,` $phase attr-dict `:` type(operands)"


@irdl_op_definition
class ConsumerReleaseOp(_NVWSOp):
    """The consumer signals that buffer `idx` may be refilled."""

    name = "nvws.consumer_release"
    token = operand_def(TensorType)
    idx = operand_def(i32)
    SYNTAX: ClassVar = "$token `,` $idx attr-dict `:` type(operands)"


# ------------------------------------------------------------------ descriptor loads


@irdl_op_definition
class DescriptorLoadOp(_NVWSOp):
    """`tt.descriptor_load` into the shared memory buffer `result`, `txCount` bytes."""

    name = "nvws.descriptor_load"
    desc = operand_def(TensorDescType)
    indices = var_operand_def(i32)
    txCount = prop_def(IntegerAttr[I32])
    result = operand_def(MemDescType)
    cache = prop_def(IntegerAttr[I32], default_value=enum_attr(CacheModifier.none))
    evict = prop_def(IntegerAttr[I32], default_value=enum_attr(EvictionPolicy.evict_normal))
    SYNTAX: ClassVar = """
    $desc `[` $indices `]` $txCount $result
    oilist(
      `cacheModifier` `=` $cache |
      `evictionPolicy` `=` $evict
    )
    attr-dict `:` type(operands)
  """
    ATTR_SYNTAX: ClassVar = {"txCount": "i32", "cache": CacheModifier, "evict": EvictionPolicy}


@irdl_op_definition
class DescriptorGatherOp(_NVWSOp):
    """`tt.descriptor_gather` into the shared memory buffer `result`, `txCount` bytes."""

    name = "nvws.descriptor_gather"
    desc = operand_def(TensorDescType)
    x_offsets = operand_def(TensorType)
    y_offset = operand_def(i32)
    txCount = prop_def(IntegerAttr[I32])
    result = operand_def(MemDescType)
    SYNTAX: ClassVar = """
    $desc `[` $x_offsets `,` $y_offset `]` $txCount $result
    attr-dict `:` type(operands)
  """
    ATTR_SYNTAX: ClassVar = {"txCount": "i32"}


OPS = (
    ArefCreateOp, ArefBufferOp, ArefGetEnterOp, ArefGetExitOp, ArefPutEnterOp, ArefPutExitOp,
    WarpGroupOp, WarpGroupYieldOp, WarpGroupReturnOp, CreateTokenOp, ProducerAcquireOp,
    ProducerCommitOp, ConsumerWaitOp, ConsumerReleaseOp, DescriptorLoadOp, DescriptorGatherOp,
)
ATTRS = (AsyncOpAttr, TypeArrayAttr, IntArrayAttr, ArefType, TokenType)
