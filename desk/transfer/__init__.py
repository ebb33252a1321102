"""A caller reaches a person: who a transfer rings (the office in hours, else the on-call levels),
what the person hears first (the whisper), and how a transfer moves on, connects or fails."""
