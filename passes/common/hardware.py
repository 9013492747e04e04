"""NVIDIA hardware rules the passes share, as named constants and predicates.

Each name says what the hardware (or PTX) calls the thing; each docstring says where the
number comes from: the PTX ISA section (by title; its numbering moves between releases)
or the Triton 3.6 function that encodes the rule. Rules that depend on the target take its
compute capability `cc` (the NN of `ttg.target = "cuda:NN"`). Everything here is plain
Python over ints, so that the runtime can import it without the IR.
"""

from __future__ import annotations

from collections.abc import Sequence

TMA_DESCRIPTOR_BYTES = 128
"""A TMA descriptor (`CUtensorMap`) is 128 bytes (CUDA driver API, `CU_TENSOR_MAP_NUM_QWORDS * 8`)."""

TMA_DESCRIPTOR_ALIGN = 64
"""A `CUtensorMap` must be 64-byte aligned in memory (`cuTensorMapEncodeTiled`)."""

TMA_GLOBAL_ALIGN_BYTES = 16
"""A TMA tensor's global address and every stride but the innermost are multiples of 16
bytes (`cuTensorMapEncodeTiled`: `globalAddress`, `globalStrides`)."""

TMA_MIN_INNER_BOX_BYTES = 16
"""The innermost box dimension of a TMA copy spans at least 16 bytes (`boxDim[0] *
elementSize` a multiple of 16, `cuTensorMapEncodeTiled`)."""

TMA_MAX_COORDINATE_EXTENT = (1 << 31) - 1
"""The largest global dimension a tensormap built on the device takes: Triton's
`tt.make_tensor_descriptor` passes its shape as i32."""


def tma_copies_element_bits(bits: int) -> bool:
    """TMA copies elements of 1, 2, 4 and 8 bytes (Triton's `getTMAElementType`; packed fp4
    takes a padded form this predicate does not cover)."""
    return bits in (8, 16, 32, 64)


# ------------------------------------------------------------------ generations


def has_tensor_cores(cc: int) -> bool:
    """sm_70 (Volta) and later have tensor cores (`BlockedToMMA` declines below 70)."""
    return cc >= 70


def is_ampere_or_newer(cc: int) -> bool:
    """sm_80 and later: Triton 3.6's `BlockedToMMA` puts dots on tensor cores only from
    here on; sm_70 and sm_75 dots fall back to FMA with a remark ("deprecated")."""
    return cc >= 80


def is_hopper(cc: int) -> bool:
    """sm_90: wgmma (`getMMAVersionSafe`'s `90 <= cc < 100`)."""
    return 90 <= cc < 100


def has_tcgen05(cc: int) -> bool:
    """sm_100 and sm_103 (datacenter Blackwell): tcgen05.mma and tensor memory
    (`getMMAVersionSafe`'s `100 <= cc < 110`, `ScaledBlockedToMMAv5`'s `cc / 10 == 10`).
    sm_110 and sm_120 are Blackwell too but get mma.sync from Triton."""
    return 100 <= cc < 110


def has_fp64_tensor_cores(cc: int) -> bool:
    """sm_80 (A100) and sm_90 (H100) have fast fp64 tensor cores; elsewhere Triton keeps
    fp64 dots on FMA (`BlockedToMMA`: "Enable F64 MMA only on SM80/SM90")."""
    return cc in (80, 90)


def mma_sync_takes_fp8(cc: int) -> bool:
    """mma.sync multiplies e4m3/e5m2 natively on sm_89 and sm_120; elsewhere its fp8 forms
    are emulated (fp16 upcasts in SASS), so Triton upcasts to f16 first
    (`mmav2SupportsFp8Operands`)."""
    return cc in (89, 120)


def has_block_scaled_mma_sync(cc: int) -> bool:
    """sm_120 has block-scaled mma.sync (`mma.sync...kind::mxf8f6f4.block_scale`, PTX ISA
    "Warp Level Matrix Multiply-Accumulate Instructions"); Triton's `ScaledBlockedToMMA`."""
    return cc == 120


MMA_V1_VERSION, MMA_SYNC_VERSION, WGMMA_VERSION, TCGEN05_VERSION = 1, 2, 3, 5
"""`versionMajor` of `#ttg.nvidia_mma` (Triton's MMA versions): 1 Volta's mma.sync m8n8k4,
2 mma.sync, 3 wgmma, 5 tcgen05.mma."""


def mma_versions(cc: int) -> tuple[int, ...]:
    """The MMA versions a target has, in Triton's order of preference (`getMMAVersionSafe`;
    Triton asserts from sm_130 on, where this answers mma.sync)."""
    if cc < 75:
        return (MMA_V1_VERSION,)
    if is_hopper(cc):
        return (WGMMA_VERSION, MMA_SYNC_VERSION)
    if has_tcgen05(cc):
        return (TCGEN05_VERSION, MMA_SYNC_VERSION)
    return (MMA_SYNC_VERSION,)


def mma_version_minor(cc: int) -> int:
    """`versionMinor` of an mma.sync layout: 1 on sm_75 (Turing), else 0
    (`createMMAEncodingForDot`)."""
    return 1 if cc == 75 else 0


# ------------------------------------------------------------------ registers and warps

REGISTER_BITS = 32
"""A register is 32 bits; a dot-operand layout of mma.sync/wgmma packs `32 / bits`
elements along K into one (`kWidth` of `DotOperandEncodingAttr::get(opIdx, parent, eltTy)`)."""


def register_k_width(element_bits: int) -> int:
    """Elements of `element_bits` one register holds along K (at least 1)."""
    return max(REGISTER_BITS // element_bits, 1)


WARPS_PER_WARPGROUP = 4
"""A warpgroup is four contiguous warps (PTX ISA "Warpgroup"); wgmma is issued by one,
so a wgmma layout's warps tile in (4, 1) units (`warpsPerTileV3`)."""


def warpgroups(warps: int) -> int:
    """The warpgroups `warps` take, the last one padded: Triton lays a `ttg.warp_specialize`'s
    partitions out in whole warpgroups (`AllocateWarpGroups`; a one-warp producer takes 4)."""
    return -(-warps // WARPS_PER_WARPGROUP)


def fills_warpgroups(num_warps: int) -> bool:
    """wgmma needs whole warpgroups (`supportMMA` v3: `numWarps % 4 == 0`)."""
    return num_warps % WARPS_PER_WARPGROUP == 0


# ------------------------------------------------------------------ instruction shapes

MMA_SYNC_M, MMA_SYNC_N = 16, 8
"""mma.sync computes 16x8 tiles (`.m16n8k*`, PTX ISA "Warp Level Matrix Multiply-Accumulate
Instructions"): `instrShape` of `mmaVersionToInstrShape` v2 and `warpsPerTileV2`'s tile."""


def mma_sync_instr_shape(rank: int) -> list[int]:
    """`mmaVersionToInstrShape` v2: 16x8, with a unit batch dim for rank 3."""
    return [1] * (rank - 2) + [MMA_SYNC_M, MMA_SYNC_N]


MMA_K_BITS = 256
"""One wgmma or tcgen05.mma reads 32 bytes of K per row: k16 for f16/bf16, k8 for tf32, k32
for fp8/int8 (PTX ISA "wgmma.mma_async" and "tcgen05.mma" shapes; `mmaVersionToInstrShape`'s
`256 / bitwidth`)."""


def mma_k(element_bits: int) -> int:
    """K of one wgmma/tcgen05.mma instruction on `element_bits` operands."""
    return MMA_K_BITS // element_bits


def k_fills_one_mma(k: int, element_bits: int) -> bool:
    """A dot's K must cover one instruction's K for wgmma or tcgen05 (`supportMMA` v3/v5:
    "If k size is smaller than the native mma size, we cannot use MMA")."""
    return k >= mma_k(element_bits)


WGMMA_M = 64
"""A warpgroup's wgmma computes 64 rows (`.m64nNk*`, PTX ISA "wgmma.mma_async")."""

WGMMA_ROWS_PER_WARP = WGMMA_M // WARPS_PER_WARPGROUP
"""Each warp of a warpgroup holds 16 of the 64 rows (`instrShape[0]` of a wgmma layout)."""

MMA_V3_V5_N_MULTIPLE = 16
"""Triton takes wgmma and tcgen05 only for N a multiple of 16 (`supportMMA` v3/v5), stricter
than PTX's multiple of 8."""

WGMMA_N = tuple(range(256, 0, -8))
"""wgmma's N for f16/bf16/tf32/fp8: multiples of 8 up to 256 (PTX ISA "wgmma.mma_async"),
largest first as `mmaVersionToInstrShape` prefers them."""

WGMMA_N_INT8 = (224, 208, 192, 176, 160, 144, 128, 112, 96, 80, 64, 48, 32, 24, 16, 8)
"""wgmma's N for s8/u8 as `mmaVersionToInstrShape` lists them: 8, 16, 24, then multiples of 16
(PTX ISA "wgmma.mma_async"; Triton's list stops at 224)."""


def fits_wgmma_tcgen05_tile(m: int, n: int) -> bool:
    """A per-CTA result tile that wgmma and tcgen05 take (`supportMMA` v3/v5): M a multiple of
    64 (`WGMMA_M`, the smaller tcgen05 M), N of 16."""
    return m % WGMMA_M == 0 and n % MMA_V3_V5_N_MULTIPLE == 0


def wgmma_instr_shape(shape: Sequence[int], element_bits: int, is_int8: bool, num_warps: int) -> list[int] | None:
    """`mmaVersionToInstrShape` v3: [16, N, K] with the largest N that divides the tile and
    leaves every warp column a share; None where Triton would assert."""
    if shape[0] % WGMMA_M or shape[1] % 8:
        return None
    m_warps = max(shape[0] // WGMMA_ROWS_PER_WARP, 1)
    n_warps = max(num_warps // m_warps, 1)
    max_n = max(shape[1] // n_warps, 8)
    n = next((n for n in (WGMMA_N_INT8 if is_int8 else WGMMA_N) if shape[1] % n == 0 and n <= max_n), None)
    return None if n is None else [WGMMA_ROWS_PER_WARP, n, mma_k(element_bits)]


WGMMA_FP8_MIN_IMPRECISE_ACC = 32
"""wgmma accumulates fp8 products at reduced precision over one instruction's K (32); a dot
that asks for full f32 accumulation more often (`maxNumImpreciseAcc < 32`) cannot use wgmma
(`supportMMA` v3)."""

TCGEN05_M = (64, 128)
"""tcgen05.mma's M per CTA (`cta_group::1`; PTX ISA "tcgen05.mma" shapes)."""

TCGEN05_MAX_N = 256
"""tcgen05.mma's largest N (PTX ISA "tcgen05.mma" shapes)."""


def tcgen05_instr_shape(shape: Sequence[int], element_bits: int) -> list[int]:
    """`mmaVersionToInstrShape` v5: M 128 when the tile has it (else 64), N up to 256."""
    return [TCGEN05_M[1] if shape[0] >= TCGEN05_M[1] else TCGEN05_M[0], min(shape[1], TCGEN05_MAX_N),
            mma_k(element_bits)]


def tcgen05_takes_operand_bits(min_bits: int, tf32: bool) -> bool:
    """tcgen05.mma has no kind for full f32 or f64 operands, only tf32 (PTX ISA "tcgen05.mma"
    kinds; `BlockedToMMAv5`: 32-bit or wider operands need `inputPrecision = tf32`)."""
    return min_bits < 32 or tf32


TCGEN05_SCALED_M = 128
"""Block-scaled tcgen05.mma (`kind::mxf8f6f4`, `mxf4`) is taken with M = 128 per CTA
(`ScaledBlockedToMMAv5`)."""

TCGEN05_SCALED_MIN_N = 16
"""`ScaledBlockedToMMAv5` declines a result tile narrower than 16."""


def fits_tcgen05_scaled_tile(m: int, n: int) -> bool:
    """A per-CTA result tile `ScaledBlockedToMMAv5` takes."""
    return m >= TCGEN05_SCALED_M and n >= TCGEN05_SCALED_MIN_N


TCGEN05_CTA_GROUP = 2
"""`cta_group::2`: a tcgen05.mma over a pair of CTAs, each holding half of M and of B's N
(PTX ISA "tcgen05.mma"; `canUseTwoCTAs` takes a CTA split of [2, 1])."""


def fits_tcgen05_cta_pair(m: int, n: int) -> bool:
    """The smallest per-CTA tile `canUseTwoCTAs` puts on a CTA pair: M >= 64, N >= 32
    ("minimum size supported by 2CTAs mmav5")."""
    return m >= 64 and n >= 32


# ------------------------------------------------------------------ tensor memory (TMEM)

TMEM_ROWS = 128
"""Tensor memory has 128 lanes (rows); a warp reaches the 32 of its quarter (PTX ISA
"Tensor Memory")."""

TMEM_COLUMN_BITS = 32
"""A TMEM column is 32 bits wide; a narrower accumulator packs `32 / bits` elements into one
(`colStride` of `BlockedToMMAv5`)."""

TMEM_ACCESS_NUM_WARPS = (4, 8)
"""Triton loads and stores TMEM with 4 or 8 warps only (`supportMMA` v5,
`ScaledBlockedToMMAv5`)."""


def tmem_column_stride(element_bits: int) -> int:
    """Elements of `element_bits` one TMEM column holds."""
    return TMEM_COLUMN_BITS // element_bits


TCGEN05_CP_CHUNK_BITS = 32 * 128
"""tcgen05.cp copies 32x128-bit chunks (`.32x128b.warpx4`, PTX ISA "tcgen05.cp");
`isTmemCopyCompatible` wants whole chunks along the innermost dim."""

TCGEN05_CP_CHUNK_SCALES = TCGEN05_CP_CHUNK_BITS // 8
"""One-byte (e8m0) scales in one tcgen05.cp chunk: 512, which must lie contiguously."""


def tcgen05_scale_tile_shape(block_mn: int, num_scales: int) -> tuple[int, int, int, int, int]:
    """The 5-D view of a (block_mn, num_scales) scale tensor in the order Triton's kernels
    pre-shuffle it (`UseShmemForScales`): per 128 rows (TMEM's lanes) and per 4 scales (one
    32-bit column), 32 rows of a lane group, 4 lane groups, 4 scales (PTX ISA "tcgen05 Matrix
    Scale Factors" layout)."""
    return (block_mn // TMEM_ROWS, num_scales // 4, 32, 4, 4)


# ------------------------------------------------------------------ microscaling (mx) formats

MX_SCALE_BLOCK = 32
"""Elements along K that share one microscaling scale (OCP Microscaling Formats v1.0,
block size 32; `scale_vec::1X` of block-scaled tcgen05.mma)."""

E8M0_NAN = 0xFF
"""The e8m0 scale that stands for NaN (OCP Microscaling Formats v1.0, E8M0)."""


# ------------------------------------------------------------------ shared memory (NVMMA)

NVMMA_SWIZZLE_BYTES = (128, 64, 32)
"""The swizzle widths wgmma, tcgen05 and TMA read shared memory with, widest first
(`NVMMASharedEncodingAttr`; `CU_TENSOR_MAP_SWIZZLE_128B/64B/32B`)."""


# ------------------------------------------------------------------ shared memory and mbarriers

SM90_MAX_SHARED_MEMORY_PER_BLOCK = 232448
"""Shared memory one CTA may use on sm_90 (H100), with the opt-in
(`cudaFuncAttributeMaxDynamicSharedMemorySize`): 227 KB = 232448 bytes (CUDA C++
Programming Guide, "Technical Specifications per Compute Capability", 9.0); it is the
`max_shared_mem` Triton's launcher reads from the driver on an H100."""

SM90_SHARED_MEMORY_PER_SM = 233472
"""Shared memory of one SM on sm_90 (228 KB, CUDA C++ Programming Guide, "Technical
Specifications per Compute Capability", 9.0): what the CTAs resident on it share."""

SM90_MAX_WARPS_PER_SM = 64
"""Resident warps per SM on sm_90 (2048 threads, same table)."""

MAX_WARPS_PER_CTA = 32
"""Warps of one CTA (1024 threads a block, same table): a kernel asking for more does not
launch, though Triton and ptxas compile it."""


SM90_MAX_CTAS_PER_SM = 32
"""Resident CTAs per SM on sm_90 (same table)."""

SM90_SHARED_MEMORY_RESERVED_PER_CTA = 1024
"""Shared memory the hardware reserves per resident CTA on sm_90 (CUDA C++ Programming
Guide, "Shared Memory", compute capability 9.0: 1 KB per block)."""


def sm90_ctas_per_sm_by_warps(num_warps: int) -> int:
    """The CTAs of `num_warps` warps an sm_90 SM holds at once by its warp and CTA limits
    (registers and shared memory aside)."""
    return min(SM90_MAX_WARPS_PER_SM // num_warps, SM90_MAX_CTAS_PER_SM)

H100_BYTES_IN_FLIGHT_PER_SM = 32 * 1024
"""Bytes of loads an SM of an H100 SXM must keep in flight to stream at its memory
bandwidth (Little's law: 3.35 TB/s over 132 SMs is about 25 bytes per ns per SM, times a
loaded DRAM latency of about 1.25 us)."""

H100_SMS = 132
"""SMs of an H100 SXM (the PCIe card has 114)."""

H100_L2_BYTES = 50 * 1024 * 1024
"""L2 cache of an H100 (50 MB)."""

SM90_L1_ROWS_BYTES = 64 * 1024
"""Bytes of rows in flight on one sm_90 SM (one per CTA) below which the SM's L1 serves a
row kernel's second read: there L2 eviction priorities only cost (2.5-4.6 % measured at 16-32
KB per SM; from 64 KB on they pay, up to 34 %; docs/measurements.md, eighth session)."""

MBARRIER_BYTES = 8
"""An mbarrier object is a 64-bit word in shared memory (PTX ISA "Size and alignment of
mbarrier object"); Triton allocates each as `memdesc<1xi64>`."""


# ------------------------------------------------------------------ registers (setmaxnreg)

REGISTERS_PER_SM = 65536
"""32-bit registers of one SM's register file on sm_90 (CUDA C++ Programming Guide,
"Technical Specifications per Compute Capability", 9.0)."""

THREADS_PER_WARPGROUP = 32 * WARPS_PER_WARPGROUP

SETMAXNREG_MAX, SETMAXNREG_STEP = 256, 8
"""`setmaxnreg` takes 24 to 256 registers per thread in steps of 8 (PTX ISA "setmaxnreg")."""


def setmaxnreg_floor(registers: int) -> int:
    """The largest `setmaxnreg` count not above `registers` (capped at 256)."""
    return min(SETMAXNREG_MAX, registers - registers % SETMAXNREG_STEP)
