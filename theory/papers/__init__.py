"""One module or package per paper key; each exposes ``RESULTS`` in the paper's order."""
