"""Buildium: its records as its Open API spells them (records.py) and their mapping to the
portfolio import's rows (mapping.py)."""
