"""The identity spine: who is talking, what roles they hold, and the store that remembers it.

Nothing in here imports from the layers above (tools, prompts, actors, gateway).
"""

from spine.logmask import install_log_masking

install_log_masking()
