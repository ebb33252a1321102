"""Tool handlers, one module per catalog. Handlers do the work; the gate already decided who
may call them, so no handler looks at roles."""
