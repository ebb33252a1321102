"""The property-management systems' connectors: mapping a PMS's records (properties, units,
residents, work orders) to the spine's. Empty yet: the next workflow of this wave is built here;
the CSV import of an export is desk.portfolio."""
