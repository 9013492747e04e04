"""The bottom layer: what every dialect and every pass builds on, importing no other part of
ttpipe.

- `diagnostics`: source files, `FILE:LINE:COL: error:` diagnostics, remark/warning handlers;
- `base`: base classes of dialect attributes, types and enums;
- `syntax`: the declarative assembly-format engine behind `FormattedOp`, the base of op classes;
- `printer`: the MLIR-faithful printer (as MLIR keeps its AsmPrinter in IR and its parser apart);
- `floats`: float formats, bit patterns and their text.

Above it: `ttpipe.dialects`, then `ttpipe.textio` (the parser) and `ttpipe.passes`, then the
pass driver (`ttpipe.pipeline`), then the Triton bridge and the command-line tools.
"""
