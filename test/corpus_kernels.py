"""The corpus's kernel directories, for the tests that run over all of them."""

import pathlib

CORPUS = pathlib.Path(__file__).parent / "corpus"
KERNEL_DIRS = sorted(p for p in CORPUS.glob("*/*") if p.is_dir())
CORPUS_KERNELS = 45
"""(kernel, target) compiles in the corpus (`ttpipe-corpus`): a test over fewer checks less."""
