"""L2 features of the pm bundle."""
