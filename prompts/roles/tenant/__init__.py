"""L2 features of the tenant bundle."""
