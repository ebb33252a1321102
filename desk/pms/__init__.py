"""Property-management systems of record: each a mapping from its records to the portfolio
import's rows (desk.portfolio), run by the one importer. No HTTP here (gateway.pms holds the clients)."""
