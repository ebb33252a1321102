"""L0, the L2 feature directory, prompt assembly with the cache breakpoint, and the voice prompt."""
