"""Text made safe for an XML document (TwiML): characters XML 1.0 does not allow are dropped.

Twilio's helper library escapes `<`, `&` and quotes but passes control characters through, so a
reply or a page's script carrying `\\x0b` or `\\x1b` (pasted into a work order's brief, say) made
TwiML that no XML parser, Twilio's included, reads (issue 40 item 17). XML 1.0 allows tab, LF,
CR, and U+0020..U+D7FF, U+E000..U+FFFD, U+10000..U+10FFFF; everything else goes."""
from __future__ import annotations

import re

_ILLEGAL = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_safe(text: str) -> str:
    return _ILLEGAL.sub("", text)
