"""ttpipe's Python passes over Triton's IR; each module states its algorithm."""
