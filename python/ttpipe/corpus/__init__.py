"""IR corpus: Triton kernels of our own, compiled for sm_90a and sm_100a with
the IR captured before and after every pass of the NVIDIA backend's
``make_ttir`` and ``make_ttgir`` stages (see :mod:`ttpipe.corpus.build`)."""
