"""TOOL_ROLE_MATRIX, scope checks, tool specs and handlers, and the dispatch gate."""
