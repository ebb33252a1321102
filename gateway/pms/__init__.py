"""The HTTP side of the property-management systems of record (their API clients and webhook
routes); their mappings to the portfolio import live in desk.pms."""
