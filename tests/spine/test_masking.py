"""Phone numbers never reach a log in full (issue 13, finding 8): every clara.* log record is masked
to the last four digits, whatever its call site formatted in; ids and dates stay readable."""
from __future__ import annotations

import logging

import spine  # noqa: F401  (importing the spine installs the masking, as every process does)


def test_a_number_formatted_into_any_clara_log_line_is_masked(caplog):
    with caplog.at_level(logging.INFO):
        logging.getLogger("clara.actors").warning("lease on %s moved; sid %s on %s", "addr:+13105557777",
                                                  "SM0123456789abcdef", "2026-12-01")
        logging.getLogger("clara.sms").info("from (206) 555-1001 and whatsapp:+14155551234")
    text = " ".join(r.getMessage() for r in caplog.records)
    assert "3105557777" not in text and "…7777" in text and "…1001" in text and "…1234" in text
    assert "2065551001" not in text.replace("(", "").replace(")", "").replace(" ", "").replace("-", "")
    assert "SM0123456789abcdef" in text and "2026-12-01" in text


def test_other_libraries_logs_are_left_alone(caplog):
    with caplog.at_level(logging.INFO):
        logging.getLogger("httpx").info("GET /x?n=+13105557777")
    assert "+13105557777" in caplog.records[-1].getMessage()
