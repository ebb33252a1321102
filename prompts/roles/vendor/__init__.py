"""L2 features of the vendor bundle."""
