"""L2 features of the other bundle."""
