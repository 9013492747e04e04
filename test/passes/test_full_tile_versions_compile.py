"""`ttpipe-full-tile-versions` through the plug-in and Triton's backend to sm_90a PTX (no GPU
needed): the bench's pointwise kernels and row sum, compiled as the JIT compiles them for a
size that is no multiple of 16, get 16-byte accesses for their full blocks, and keep the
masked one-element accesses for the last block."""

import pytest
from plugin_compile import compile_sm90a
from ptx_accesses import global_accesses

from ttpipe.bench import kernels

POINTWISE = {"x_ptr": "*bf16", "y_ptr": "*bf16", "scale": "fp32", "bias": "fp32", "n": "i32", "BLOCK": "constexpr"}
ROW_SUM = {"x_ptr": "*bf16", "y_ptr": "*fp32", "stride": "i32", "N": "i32", "BLOCK": "constexpr"}


def ptx(kernel, signature: dict[str, str], aligned: tuple[str, ...], pipeline: str) -> str:
    """The kernel's PTX through `pipeline`, the `aligned` arguments specialized as multiples of 16."""
    return compile_sm90a(kernel, signature, {"BLOCK": 2048}, {"num_warps": 8}, pipeline, aligned).asm["ptx"]


@pytest.mark.parametrize("kernel", [kernels.pointwise, kernels.pointwise_persistent], ids=lambda k: k.__name__)
def test_full_blocks_of_an_odd_size_store_16_bytes_a_thread(triton_cache, kernel):
    versioned = ptx(kernel, POINTWISE, ("x_ptr", "y_ptr"), "ttgir-sm90")
    as_written = ptx(kernel, POINTWISE, ("x_ptr", "y_ptr"), "ttgir-sm90{full-tile-versions=false}")
    # as written, every element is its own store; with the version, the full blocks store
    # 8 bf16 elements a thread at once and the last block as before
    assert global_accesses(as_written, "st") and not any(".v4." in s for s in global_accesses(as_written, "st"))
    stores = global_accesses(versioned, "st")
    assert any(".v4." in s for s in stores) and set(global_accesses(as_written, "st")) <= set(stores)


def test_a_block_a_program_loads_16_bytes_a_thread(triton_cache):
    versioned = ptx(kernels.pointwise, POINTWISE, ("x_ptr", "y_ptr"), "ttgir-sm90")
    loads = global_accesses(versioned, "ld")
    assert any(".v4." in load for load in loads) and not all(".v4." in load for load in loads)


def test_a_row_loop_versions_its_full_chunks(triton_cache):
    # rows at a stride of a multiple of 16 elements, N odd: every chunk but the row's last is full
    versioned = ptx(kernels.row_sum, ROW_SUM, ("x_ptr", "y_ptr", "stride"), "ttgir-sm90")
    as_written = ptx(kernels.row_sum, ROW_SUM, ("x_ptr", "y_ptr", "stride"), "ttgir-sm90{full-tile-versions=false}")
    assert not any(".v4." in load for load in global_accesses(as_written, "ld"))
    assert any(".v4." in load for load in global_accesses(versioned, "ld"))


def test_sizes_the_jit_knows_aligned_are_left_alone(triton_cache):
    versioned = ptx(kernels.pointwise, POINTWISE, ("x_ptr", "y_ptr", "n"), "ttgir-sm90")
    as_written = ptx(kernels.pointwise, POINTWISE, ("x_ptr", "y_ptr", "n"), "ttgir-sm90{full-tile-versions=false}")
    assert versioned == as_written
