"""The front desk's workflows: what acts on the spine's records for people.

    gateway  ->  actors  ->  prompts, tools  ->  desk  ->  spine

One folder per workflow, so "where does the next one go?" has an answer by name:

- `desk/outbound/`  the outbox row of everything the gateway starts, and the contact window
- `desk/oncall/`    paging the on-call ladder, its acknowledgement, its words
- `desk/dispatch/`  vendor dispatch, its YES/NO and reminder, tenant notices, their words
- `desk/console/`   the staff console's state: takeover, an admin's scope, the status cards
- `desk/portfolio/` the PMS CSV import and the demo portfolio
- `desk/followups/` follow-ups Clara promised (empty yet)
- `desk/pms/`       the PMS connectors' mapping to the portfolio import's rows (Buildium)

A desk module may import desk and spine, never tools, prompts, actors or gateway; it knows
nothing of Ray, HTTP or a provider's wire format.
"""
