"""The office's workflows over the spine (ARCHITECTURE.md, "Layout and dependency direction"):
desk may import desk and spine; tools, prompts, actors and gateway may import desk."""
