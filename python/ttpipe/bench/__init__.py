"""Benchmarks of ttpipe-compiled kernels against stock Triton and cuBLAS: `python -m ttpipe.bench`."""
