"""The bridge to Triton 3.6: its MLIR context, parser and printer (and, later, its passes)."""
