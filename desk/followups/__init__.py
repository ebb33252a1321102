"""Follow-ups: what Clara promised to come back about (a check-in after a work order closes, a
reminder of a tour), kept in the store and sent through desk.outbound. Empty yet: the next
workflow of this wave is built here."""
