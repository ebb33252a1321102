"""Session-scoped private Ray instance (placeholder until the runtime engineer fills it in)."""
