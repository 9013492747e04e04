"""What the compile tests share: a `@triton.jit` kernel compiled for sm_90a or sm_100a through the
Triton plug-in, with Triton's backend and no GPU."""

import triton
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

import ttpipe.triton


def compile_sm90a(kernel, signature: dict[str, str], constexprs: dict, options: dict, pipeline: str | None = None,
                  aligned: tuple[str, ...] | None = None):
    """`kernel` compiled for sm_90a through the plug-in's `pipeline` (None: its default), the
    `aligned` arguments (by default every pointer and i32) specialized as multiples of 16, as
    the JIT sees them."""
    return _compile(kernel, signature, constexprs, options, pipeline, aligned, GPUTarget("cuda", 90, 32))


def compile_sm100a(kernel, signature: dict[str, str], constexprs: dict, options: dict, pipeline: str | None = None,
                   aligned: tuple[str, ...] | None = None):
    """`compile_sm90a` for sm_100a."""
    return _compile(kernel, signature, constexprs, options, pipeline, aligned, GPUTarget("cuda", 100, 32))


def _compile(kernel, signature: dict[str, str], constexprs: dict, options: dict, pipeline: str | None,
             aligned: tuple[str, ...] | None, target: GPUTarget):
    if aligned is None:
        aligned = tuple(name for name, kind in signature.items() if kind.startswith("*") or kind == "i32")
    names = list(signature)
    attrs = {(names.index(name), ): [["tt.divisibility", 16]] for name in aligned}
    with ttpipe.triton.installed(pipeline):
        return triton.compile(ASTSource(kernel, signature, constexprs, attrs), target=target, options=options)
