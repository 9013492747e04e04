"""Load and launch a cubin from `ttpipe-compile` with the CUDA driver API (cuda-python's
`cuda.bindings.driver`), without Triton's launcher.

    kernel = ttpipe.runtime.Kernel.from_files("k.cubin")          # reads k.json next to it
    kernel[(grid_x,)](x, y, out, 0.5, n)                          # torch tensors, scalars

Arguments follow the `signature` of the launch metadata (constexprs are already folded into
the kernel and are not passed):

* `*T` pointers: a tensor with `data_ptr()` on the GPU, a raw device address, or None.
* Scalars (`i1`...`i64`, `u1`...`u64`, `fp16`, `bf16`, `fp32`, `fp64`): Python numbers,
  stored in the parameter's own width (fp16/bf16 as their 16-bit patterns).
* `tensordesc<T[...]>`: a `TensorDescriptor` (this module's, or anything with `base`,
  `shape`, `strides` and optionally `padding`, like Triton's). As Triton 3.6's launcher
  does, the launch passes it as a CUtensorMap (built on the host by
  cuTensorMapEncodeTiled from the descriptor and the compile step's `tensordesc_meta`:
  element type, box size, swizzle) followed by the shape as i32 and the strides as i64.

After the arguments come two pointers every Triton 3.6 kernel takes: global scratch
(`global_scratch_size` bytes per CTA, allocated stream-ordered for the launch when the
kernel needs any, else NULL) and profile scratch (the same for `profile_scratch_size`).
The launch is cuLaunchKernelEx: `grid_x * num_ctas` CTAs along x, `32 * num_warps`
threads, `shared` bytes of dynamic shared memory (opted into past 48 KB with
cuFuncSetAttribute), and a cluster of `num_ctas` CTAs when it is over 1.

Every driver call's result is checked: a failure raises `CudaError` naming the call.
"""

from __future__ import annotations

import ctypes
import json
import struct
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from ttpipe.passes.common.hardware import TMA_DESCRIPTOR_ALIGN, TMA_DESCRIPTOR_BYTES

DEFAULT_SHARED_LIMIT = 48 * 1024
"""Dynamic shared memory a kernel gets without opting in (cuFuncSetAttribute)."""


_INTEGERS = {
    "i1": (ctypes.c_int8, 0, 1), "i8": (ctypes.c_int8, -2**7, 2**7 - 1), "i16": (ctypes.c_int16, -2**15, 2**15 - 1),
    "i32": (ctypes.c_int32, -2**31, 2**31 - 1), "i64": (ctypes.c_int64, -2**63, 2**63 - 1),
    "u1": (ctypes.c_uint8, 0, 1), "u8": (ctypes.c_uint8, 0, 2**8 - 1), "u16": (ctypes.c_uint16, 0, 2**16 - 1),
    "u32": (ctypes.c_uint32, 0, 2**32 - 1), "u64": (ctypes.c_uint64, 0, 2**64 - 1),
}
"""Integer parameter type -> (C type, smallest and largest value a launch accepts)."""

_TMA_ELEMENT_TYPES = (
    "UINT8", "UINT16", "UINT32", "INT32", "UINT64", "INT64", "FLOAT16", "FLOAT32", "FLOAT32_FTZ", "FLOAT64",
    "BFLOAT16", "TFLOAT32", "TFLOAT32_FTZ", "16U4_ALIGN8B", "16U4_ALIGN16B", "16U6_ALIGN16B")
"""`tensordesc_meta`'s `elem_type` is the PTX `tensormap` element-type code (f32.ftz is 8,
f64 9, bf16 10); the host's CUtensorMapDataType numbers some of them differently, so they
are matched by name: code i is CU_TENSOR_MAP_DATA_TYPE_<_TMA_ELEMENT_TYPES[i]>."""


class CudaError(RuntimeError):
    """A CUDA driver call that failed, or a launch the driver would reject."""


def _driver():
    try:
        from cuda.bindings import driver
    except ImportError as exc:
        raise CudaError("ttpipe.runtime needs cuda-python (pip install -e '.[gpu]')") from exc
    return driver


def _check(call: str, result: tuple) -> Any:
    """The values a cuda-python call returns after its CUresult, or CudaError."""
    driver = _driver()
    status, *values = result
    if status != driver.CUresult.CUDA_SUCCESS:
        _, name = driver.cuGetErrorName(status)
        _, text = driver.cuGetErrorString(status)
        name = name.decode() if isinstance(name, bytes) else str(status)
        text = text.decode() if isinstance(text, bytes) else ""
        raise CudaError(f"{call} failed: {name}: {text}")
    if not values:
        return None
    return values[0] if len(values) == 1 else tuple(values)


@dataclass
class TensorDescriptor:
    """A host-side description of a tensor for a `tensordesc` argument (as Triton's own)."""

    base: Any
    shape: Sequence[int]
    strides: Sequence[int]
    block_shape: Sequence[int]
    padding: str = "zero"
    """'zero' or 'nan': what TMA loads out of bounds."""

    @classmethod
    def from_tensor(cls, tensor, block_shape: Sequence[int], padding: str = "zero") -> TensorDescriptor:
        return cls(tensor, list(tensor.shape), list(tensor.stride()), list(block_shape), padding)


def _device_pointer(value, what: str) -> int:
    if value is None:
        return 0
    if isinstance(value, int):
        return value
    if getattr(value, "is_cuda", True) is False:
        raise CudaError(f"{what} is not on the GPU (device {value.device})")
    if not hasattr(value, "data_ptr"):
        raise CudaError(f"{what} must be a GPU tensor, a device address or None, not {type(value).__name__}")
    return int(value.data_ptr())


def _scalar(kind: str, value, what: str) -> ctypes._SimpleCData:
    if kind in _INTEGERS:
        ctype, low, high = _INTEGERS[kind]
        number = int(value)
        if not low <= number <= high:
            raise CudaError(f"{what} = {number} does not fit in {kind}")
        return ctype(number)
    if kind == "fp32":
        return ctypes.c_float(float(value))
    if kind == "fp64":
        return ctypes.c_double(float(value))
    if kind == "fp16":
        return ctypes.c_uint16(struct.unpack("<H", struct.pack("<e", float(value)))[0])
    if kind == "bf16":  # the upper half of the float32 pattern, as Triton's launcher packs it
        return ctypes.c_uint16(struct.unpack("<I", struct.pack("<f", float(value)))[0] >> 16)
    raise CudaError(f"{what} has a type the runtime cannot pass: {kind}")


class _AlignedBytes:
    """A copy of `data` at an address aligned to `align`, alive as long as the object."""

    def __init__(self, data: bytes, align: int):
        self._buffer = (ctypes.c_ubyte * (len(data) + align))()
        self.address = ctypes.addressof(self._buffer)
        self.address += -self.address % align
        ctypes.memmove(self.address, data, len(data))


def encode_tensor_map(descriptor, meta: dict, what: str) -> tuple[bytes, list[int], list[int]]:
    """The CUtensorMap for a descriptor argument, and the shape and strides the kernel
    receives after it (the shape's last size doubled for fp4 padded to a byte per element)."""
    driver = _driver()
    if "swizzle" not in meta:
        raise CudaError(f"{what}: the kernel does not take this descriptor as a CUtensorMap "
                        f"(its shared layout is not NVMMA), which the runtime cannot launch")
    shape = [int(s) for s in descriptor.shape]
    strides = [int(s) for s in descriptor.strides]
    block = [int(b) for b in meta["block_size"]]
    rank = len(block)
    if len(shape) != rank or len(strides) != rank:
        raise CudaError(f"{what}: the kernel takes a rank-{rank} descriptor, not rank {len(shape)}")
    if strides[-1] != 1:
        raise CudaError(f"{what}: the innermost stride must be 1, not {strides[-1]}")
    if meta["fp4_padded"]:
        shape[-1] *= 2
    elem_size = meta["elem_size"]
    data_type = getattr(driver.CUtensorMapDataType, f"CU_TENSOR_MAP_DATA_TYPE_{_TMA_ELEMENT_TYPES[meta['elem_type']]}")
    fill = (driver.CUtensorMapFloatOOBfill.CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA
            if getattr(descriptor, "padding", "zero") == "nan" else
            driver.CUtensorMapFloatOOBfill.CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE)
    # The driver orders dimensions innermost first and takes the outer strides in bytes.
    sizes = [driver.cuuint64_t(size) for size in shape[::-1]]
    byte_strides = [driver.cuuint64_t(stride * elem_size) for stride in strides[-2::-1]]
    box = [driver.cuuint32_t(size) for size in block[::-1]]
    element_strides = [driver.cuuint32_t(1)] * rank
    tensor_map = _check("cuTensorMapEncodeTiled", driver.cuTensorMapEncodeTiled(
        data_type, rank, _device_pointer(descriptor.base, what), sizes, byte_strides, box, element_strides,
        driver.CUtensorMapInterleave.CU_TENSOR_MAP_INTERLEAVE_NONE, driver.CUtensorMapSwizzle(meta["swizzle"]),
        driver.CUtensorMapL2promotion.CU_TENSOR_MAP_L2_PROMOTION_L2_128B, fill))
    return ctypes.string_at(tensor_map.getPtr(), TMA_DESCRIPTOR_BYTES), shape, strides


def _descriptor_rank(kind: str) -> int:
    return kind[kind.index("[") + 1:kind.index("]")].count(",") + 1


def parameter_types(signature: Sequence[str]) -> list[str]:
    """The kernel's parameters for arguments of these types, in order: each argument's own
    type, except that a `tensordesc` becomes `CUtensorMap` followed by its sizes (`i32`)
    and strides (`i64`); then the global and profile scratch pointers (`*i8`)."""
    types: list[str] = []
    for kind in signature:
        if kind.startswith("tensordesc"):
            rank = _descriptor_rank(kind)
            types += ["CUtensorMap"] + ["i32"] * rank + ["i64"] * rank
        else:
            types.append(kind)
    return types + ["*i8", "*i8"]


class Kernel:
    """A loaded cubin: `kernel[grid](*args, stream=None)` launches it."""

    def __init__(self, cubin: bytes, metadata: dict, device: int = 0):
        driver = _driver()
        self.metadata = metadata
        self.name: str = metadata["name"]
        self.signature: list[str] = list(metadata["signature"])
        self.num_warps: int = metadata["num_warps"]
        self.num_ctas: int = metadata.get("num_ctas", 1)
        self.shared: int = metadata.get("shared") or 0
        self.device = device
        descriptors = sum(kind.startswith("tensordesc") for kind in self.signature)
        self.parameter_types = parameter_types(self.signature)
        self._tensordesc_meta = list(metadata.get("tensordesc_meta") or [])
        if len(self._tensordesc_meta) != descriptors:
            raise CudaError(f"{self.name}: the metadata describes {len(self._tensordesc_meta)} descriptors, "
                            f"the signature has {descriptors}")
        _check("cuInit", driver.cuInit(0))
        self._device = _check("cuDeviceGet", driver.cuDeviceGet(device))
        self._context = self._make_current()
        self._module = _check("cuModuleLoadData", driver.cuModuleLoadData(cubin))
        self._function = _check("cuModuleGetFunction", driver.cuModuleGetFunction(self._module, self.name.encode()))
        optin = _check("cuDeviceGetAttribute", driver.cuDeviceGetAttribute(
            driver.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, self._device))
        if self.shared > optin:
            raise CudaError(f"{self.name} needs {self.shared} bytes of shared memory; device {device} has {optin}")
        if self.shared > DEFAULT_SHARED_LIMIT:
            _check("cuFuncSetAttribute", driver.cuFuncSetAttribute(
                self._function, driver.CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                self.shared))
        if self.num_ctas > 8:  # clusters over 8 CTAs are not portable; H100 and B200 run 16
            _check("cuFuncSetAttribute", driver.cuFuncSetAttribute(
                self._function, driver.CUfunction_attribute.CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1))

    @classmethod
    def from_files(cls, cubin_path: str, metadata_path: str | None = None, device: int = 0) -> Kernel:
        """Load `K.cubin` with its `K.json` (as `ttpipe-compile -o K.cubin` writes them)."""
        cubin = Path(cubin_path)
        json_path = Path(metadata_path) if metadata_path else cubin.with_suffix(".json")
        return cls(cubin.read_bytes(), json.loads(json_path.read_text()), device)

    @classmethod
    def from_compiled(cls, compiled, device: int = 0) -> Kernel:
        """Load a `ttpipe.compile.Compiled`."""
        return cls(compiled.cubin, compiled.metadata, device)

    def _make_current(self):
        """The current context, after making the device's primary context current if none was."""
        driver = _driver()
        context = _check("cuCtxGetCurrent", driver.cuCtxGetCurrent())
        if context is None or int(context) == 0:
            context = _check("cuDevicePrimaryCtxRetain", driver.cuDevicePrimaryCtxRetain(self._device))
            _check("cuCtxSetCurrent", driver.cuCtxSetCurrent(context))
        return context

    def close(self) -> None:
        """Unload the module."""
        if self._module is not None:
            _check("cuModuleUnload", _driver().cuModuleUnload(self._module))
            self._module = None

    def __getitem__(self, grid):
        grid = (grid, ) if isinstance(grid, int) else tuple(grid)

        def launch(*args, stream=None):
            self.launch(grid, *args, stream=stream)

        return launch

    def launch(self, grid: Sequence[int], *args, stream=None) -> None:
        """Launch on `grid` (1 to 3 sizes, in clusters of `num_ctas` CTAs along x)."""
        driver = _driver()
        if self._module is None:
            raise CudaError(f"{self.name} was closed")
        if not 1 <= len(grid) <= 3:
            raise CudaError(f"grid must have 1 to 3 sizes, not {len(grid)}")
        grid_x, grid_y, grid_z = (*grid, 1, 1)[:3]
        if len(args) != len(self.signature):
            raise CudaError(f"{self.name} takes {len(self.signature)} arguments ({', '.join(self.signature)}), "
                            f"not {len(args)}")
        if grid_x * grid_y * grid_z == 0:
            return
        self._make_current()
        stream_handle = _stream_handle(stream, self.device)
        keep: list[Any] = []
        addresses = self._parameters(args, keep)
        scratch = []
        for what in ("global", "profile"):
            size = self.metadata.get(f"{what}_scratch_size") or 0
            pointer = 0
            if size > 0:
                total = size * grid_x * grid_y * grid_z * self.num_ctas
                pointer = int(_check("cuMemAllocAsync", driver.cuMemAllocAsync(total, stream_handle)))
                scratch.append(pointer)
            value = ctypes.c_uint64(pointer)
            keep.append(value)
            addresses.append(ctypes.addressof(value))
        if len(addresses) != len(self.parameter_types):
            raise CudaError(f"{self.name}: {len(addresses)} parameters packed for {len(self.parameter_types)}")
        params = (ctypes.c_void_p * len(addresses))(*addresses)
        try:
            _check("cuLaunchKernelEx", driver.cuLaunchKernelEx(
                self._config(grid_x, grid_y, grid_z, stream_handle), self._function, ctypes.addressof(params), 0))
        finally:
            for pointer in scratch:
                _check("cuMemFreeAsync", driver.cuMemFreeAsync(pointer, stream_handle))

    def _parameters(self, args, keep: list) -> list[int]:
        """The address of each kernel parameter's value; `keep` holds the values alive."""
        addresses: list[int] = []

        def push(value) -> None:
            keep.append(value)
            addresses.append(value.address if isinstance(value, _AlignedBytes) else ctypes.addressof(value))

        descriptor_index = 0
        for index, (kind, value) in enumerate(zip(self.signature, args)):
            what = f"{self.name} argument {index} ({kind})"
            if kind.startswith("*"):
                push(ctypes.c_uint64(_device_pointer(value, what)))
            elif kind.startswith("tensordesc"):
                meta = self._tensordesc_meta[descriptor_index]
                descriptor_index += 1
                if len(value.shape) != _descriptor_rank(kind):
                    raise CudaError(f"{what}: a rank-{_descriptor_rank(kind)} descriptor is expected")
                tensor_map, shape, strides = encode_tensor_map(value, meta, what)
                push(_AlignedBytes(tensor_map, TMA_DESCRIPTOR_ALIGN))
                for size in shape:
                    push(_scalar("i32", size, what + " shape"))
                for stride in strides:
                    push(_scalar("i64", stride, what + " stride"))
            else:
                push(_scalar(kind, value, what))
        return addresses

    def _config(self, grid_x: int, grid_y: int, grid_z: int, stream_handle: int):
        driver = _driver()
        attributes = []
        if self.num_ctas > 1:
            cluster = driver.CUlaunchAttribute()
            cluster.id = driver.CUlaunchAttributeID.CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION
            cluster.value.clusterDim.x, cluster.value.clusterDim.y, cluster.value.clusterDim.z = self.num_ctas, 1, 1
            spread = driver.CUlaunchAttribute()
            spread.id = driver.CUlaunchAttributeID.CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE
            spread.value.clusterSchedulingPolicyPreference = (
                driver.CUclusterSchedulingPolicy.CU_CLUSTER_SCHEDULING_POLICY_SPREAD)
            attributes += [cluster, spread]
        if self.metadata.get("launch_cooperative_grid"):
            cooperative = driver.CUlaunchAttribute()
            cooperative.id = driver.CUlaunchAttributeID.CU_LAUNCH_ATTRIBUTE_COOPERATIVE
            cooperative.value.cooperative = 1
            attributes.append(cooperative)
        if self.metadata.get("launch_pdl"):
            pdl = driver.CUlaunchAttribute()
            pdl.id = driver.CUlaunchAttributeID.CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION
            pdl.value.programmaticStreamSerializationAllowed = 1
            attributes.append(pdl)
        config = driver.CUlaunchConfig()
        config.gridDimX, config.gridDimY, config.gridDimZ = grid_x * self.num_ctas, grid_y, grid_z
        config.blockDimX, config.blockDimY, config.blockDimZ = 32 * self.num_warps, 1, 1
        config.sharedMemBytes = self.shared
        config.hStream = driver.CUstream(stream_handle)
        config.attrs = attributes
        config.numAttrs = len(attributes)
        return config


def _stream_handle(stream, device: int) -> int:
    """A CUstream handle from an int, an object with `cuda_stream` (torch.cuda.Stream), or
    None: torch's current stream when torch is loaded, else the legacy default stream."""
    if stream is None:
        torch = sys.modules.get("torch")
        return torch.cuda.current_stream(device).cuda_stream if torch is not None else 0
    return int(getattr(stream, "cuda_stream", stream))
