"""The offline policy's vocabulary: the English phrasings each rule listens for."""
from __future__ import annotations

from typing import Any

from actors.model.offline.entities import rx

EMERGENCY_BRIEFS = {"gas": "possible gas leak", "fire": "fire or smoke", "flood": "active flooding",
                    "electrical": "sparking / electrical hazard", "threat": "safety threat"}
PROPERTY_EMERGENCIES = ("gas", "flood", "electrical")  # damage to the building: also a work order

GREETING = rx(r"^\s*(?:yo|hey+|hi+|hello|sup|what'?s\s+up|wassup|whats\s+up|is\s+this)\b")
INTRODUCTION = rx(r"\b(?:this\s+is|it'?s|i'?m|i\s+am|my\s+name\s+is)\s+[A-Z][a-z]+")  # the caller's own name
NOT_A_NAME = {"I", "Clara", "OK", "Okay", "Hi", "Hey", "Hello", "Yo", "Is", "This", "What", "Thanks", "WO", "Sup"}
STATUS = rx(r"\bstatus\b", r"\bupdates?\b", r"\bany\s+news\b", r"\bprogress\b", r"\bcheck(?:ing)?\s+on\b",
            r"\bwhen\s+(?:will|is|are)\b", r"\bwhat'?s\s+happening\b", r"\bdetails?\b", r"\binfo\b")
WORK_TALK = rx(r"\bwork\s*orders?\b", r"\brepairs?\b", r"\brequests?\b", r"\btickets?\b", r"\bmaintenance\b",
               r"\bplumber\b", r"\btech(?:nician)?\b", r"\bsomeone\s+(?:coming|come)\b")
ETA_TALK = rx(r"\b(?:min(?:ute)?s?|hours?|hrs?)\s+(?:out|away)\b", r"\bon\s+my\s+way\b", r"\bomw\b", r"\beta\b",
              r"\brunning\s+late\b", r"\bbe\s+there\b", r"\barriv\w*", r"\bheading\s+(?:over|to|there)\b",
              r"\ben\s+route\b")
DONE_TALK = rx(r"\b(?:all\s+)?done\b", r"\bfinished\b", r"\bcompleted?\b", r"\bfixed\b", r"\ball\s+set\b",
               r"\bwrapped\s+up\b")
HANDOFF_TALK = rx(r"\bcan'?t\s+make\s+it\b", r"\bcannot\s+make\s+it\b", r"\bhand\s*off\b", r"\breassign\b",
                  r"\bsomeone\s+else\b", r"\bnot\s+my\s+trade\b")
MINE = rx(r"\bmy\b")  # "my sink is fixed" is a tenant talking, not a vendor closing a job
ACCEPT_TALK = rx(r"\baccept\b", r"\bi'?ll\s+take\s+(?:it|the\s+job)\b", r"\bcan\s+take\b", r"\bon\s+it\b")
AVAILABILITY = rx(r"\bavailab\w*", r"\bvacanc\w*", r"\bdo\s+you\s+have\b", r"\bany\s+(?:units|apartments|openings)\b",
                  r"\blooking\s+for\b", r"\bmov(?:e|ing)\s+in\b", r"\bopenings?\b", r"\bfor\s+rent\b")
PRICING = rx(r"\bprices?\b", r"\bpricing\b", r"\bhow\s+much\b", r"\bcost\b", r"\brent\s+(?:for|on|is)\b",
             r"\bmonthly\s+rent\b")
TOUR = rx(r"\btour\w*", r"\bvisit\b", r"\bviewing\b", r"\bshowing\b", r"\bsee\s+the\s+(?:unit|apartment|place)\b")
APPLY = rx(r"\bappl(?:y|ication)\b")
FACILITIES: list[tuple[str, Any]] = [
    ("get_pool_status", rx(r"\bpool\b")), ("get_pet_policy", rx(r"\bpets?\b", r"\bdogs?\b", r"\bcats?\b")),
    ("get_parking_rules", rx(r"\bpark\w*", r"\bcars?\b", r"\btow\w*", r"\bgarage\b")),
    ("get_property_hours", rx(r"\bhours\b", r"\bwhen\s+(?:is|are|does)\b.*\b(?:open|close)", r"\boffice\b",
                              r"\bquiet\b")),
    ("get_property_amenities", rx(r"\bamenit\w*", r"\bgym\b", r"\bfitness\b", r"\brooftop\b", r"\blaundry\b",
                                  r"\bpackages?\b", r"\bbike\b", r"\blounge\b")),
]
BALANCE = rx(r"\bbalance\b", r"\bowe\b", r"\brent\s+due\b", r"\bpay\s+(?:my\s+)?rent\b",
             r"\bhow\s+much\s+is\s+my\s+rent\b")
LEASE = rx(r"\blease\b", r"\brenew\w*")
RENEW_YES = rx(r"\baccept\w*\b.*\brenew", r"\b(?:i'?ll|i\s+will|we'?ll|want\s+to|yes,?\s+(?:i'?ll\s+)?)\s*renew\b")
RENEW_NO = rx(r"\bnot\s+(?:going\s+to\s+)?renew", r"\bdecline\b", r"\bwon'?t\s+(?:be\s+)?renew", r"\bmoving\s+out\b")
APPLIANCES = rx(r"\bappliances?\b", r"\bwhat\s+(?:model|brand)\b")
HUMAN = rx(r"\bhuman\b", r"\breal\s+person\b", r"\bmanager\b",
           r"\bspeak\s+(?:to|with)\s+(?:someone|somebody|a\s+person)\b",
           r"\btalk\s+to\s+(?:someone|somebody|a\s+person)\b", r"\bcall\s+me\b", r"\bcomplain\w*")
PM_OPEN = rx(r"\bopen\s+work\s*orders\b", r"\blist\s+(?:the\s+)?work\s*orders\b", r"\bwhat'?s\s+open\b")
PM_LOOKUP = rx(r"\blook\s*up\b", r"\bwho\s+is\b", r"\bfind\b")
PM_ASSIGN = rx(r"\bassign\b")
PM_CLOSE = rx(r"\bclose\b")
PM_RENEWAL = rx(r"\bsend\b.*\brenewal\b")
PM_CREATE = rx(r"\b(?:create|open|new)\b.*\bwork\s*order\b")
