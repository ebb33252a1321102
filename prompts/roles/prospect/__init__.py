"""L2 features of the prospect bundle."""
