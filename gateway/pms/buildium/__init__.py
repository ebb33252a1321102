"""Buildium's Open API client, the sync that feeds desk.pms.buildium's mapping, and its webhook route."""
