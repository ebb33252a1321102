"""L2 feature prompts, one directory per MetaRole, one module per feature (PROMPT + META)."""
