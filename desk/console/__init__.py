"""The staff console's state: a conversation's takeover and handback, what a signed-in admin may
see (AdminScope), and the status cards counted from the records."""
