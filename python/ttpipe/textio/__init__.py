"""Text I/O for Triton's IR: a fast parser over xDSL's IR, and the printer of `ttpipe.ir`.

`parse_module(text, name)` reads what Triton 3.6 prints (TTIR and TTGIR at any stage,
locations and forward-referenced location aliases included) into xDSL operations built
from the classes in `ttpipe.dialects`; `print_module(module)` prints text that Triton
parses back to the same module.
"""

from ttpipe.ir.diagnostics import DiagnosticError, SourceFile
from ttpipe.ir.printer import PrintOptions, print_module
from ttpipe.textio.parser import ParseOptions, parse_module

__all__ = [
    "DiagnosticError",
    "ParseOptions",
    "PrintOptions",
    "SourceFile",
    "parse_module",
    "print_module",
]
