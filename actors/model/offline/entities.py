"""What the offline policy reads out of one message: work orders, units, bedrooms, dates, times,
ETAs, emergencies and the maintenance problem. Plain regexes; English only."""
from __future__ import annotations

import re
from calendar import monthrange
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta


def rx(*parts: str) -> re.Pattern[str]:
    return re.compile("|".join(parts), re.IGNORECASE)


WORK_ORDER = re.compile(r"\b(?:wo|work\s*order)\s*[-_#:]?\s*#?\s*(\d{1,6})\b", re.IGNORECASE)
UNIT = re.compile(r"(?:\b(?:unit|apt\.?|apartment|suite)\s*#?\s*|#)(\d{1,5}[a-z]?)\b", re.IGNORECASE)
NUMBER_WORDS = {"studio": 0, "one": 1, "two": 2, "three": 3, "four": 4}
BEDROOMS = re.compile(r"\b(\d|one|two|three|four)\s*-?\s*(?:br|bd|bdr|bdrm|beds?|bedrooms?)s?\b|\b(studio)s?\b",
                      re.IGNORECASE)
MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
MONTH_DAY = re.compile(
    r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?(?:\s+(\d{1,2})(?:st|nd|rd|th)?)?\b", re.IGNORECASE)
ISO_DATE = re.compile(r"\b(20\d\d)-(\d\d)-(\d\d)\b")
SLASH_DATE = re.compile(r"\b(\d{1,2})/(\d{1,2})\b")
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
WEEKDAY = re.compile(r"\b(mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?\b", re.IGNORECASE)
CLOCK = re.compile(r"\b(\d{1,2})(?::(\d\d))?\s*([ap])\.?m\b\.?|\b(noon)\b", re.IGNORECASE)
MINUTES = re.compile(r"\b(\d{1,3})\s*(?:-\s*)?(?:min(?:ute)?s?)\b", re.IGNORECASE)
HOURS = re.compile(r"\b(\d{1,2}|an?)\s*(?:hours?|hrs?)\b", re.IGNORECASE)
EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.-]+")
PHONE = re.compile(r"\+?1?[\s.-]?\(?\d{3}\)?[\s.-]?\d{3}[\s.-]?\d{4}\b")
STARS = re.compile(r"\b([1-5])\s*(?:stars?|/\s*5|out of 5)\b", re.IGNORECASE)
TERM = re.compile(r"\b(\d{1,2})[\s-]*(?:months?|mo)\b", re.IGNORECASE)
DOLLARS = re.compile(r"\$\s*([\d,]+(?:\.\d\d)?)")
VENDOR_ID = re.compile(r"\bv_[a-z0-9_]+\b")
MAX_TEXT = 2000  # the longest description a work order takes; an SMS is at most 1600
MEDIA_NOTE = re.compile(r"\n?\[attached media:[^\]]*\]", re.IGNORECASE)

EMERGENCIES: dict[str, re.Pattern[str]] = {
    "gas": rx(r"\bsmell(?:s|ing)?\s+(?:of\s+|like\s+)?gas\b", r"\bgas\s+(?:leak|smell)", r"\bcarbon\s+monoxide\b",
              r"\bco\s+(?:alarm|detector)\s+(?:is\s+)?(?:going|beeping)"),
    "fire": rx(r"\bfire\b", r"\bsmoke\s+(?:is\s+)?(?:coming|everywhere|pouring|filling)",
               r"\bsomething\s+is\s+burning\b", r"\bburning\s+smell\b", r"\bflames?\b"),
    "flood": rx(r"\bflood(?:ing|ed)?\b", r"\bburst\s+pipe\b", r"\bpipe\s+burst\b",
                r"\bwater\s+(?:is\s+)?(?:everywhere|pouring)", r"\bceiling\s+(?:is\s+)?(?:leaking|caving|collaps)"),
    "electrical": rx(r"\bspark(?:s|ing)\b", r"\bexposed\s+wires?\b", r"\belectrical\s+fire\b",
                     r"\bgetting\s+shocked\b"),
    "threat": rx(r"\bbreak[\s-]?in\b", r"\bbroke\s+in\b", r"\bintruder\b", r"\bgun\b", r"\bweapon\b", r"\bthreaten",
                 r"\bassault", r"\bsomeone\s+(?:is\s+)?trying\s+to\s+(?:get|break)\s+in"),
}

FIXTURES = ("garbage disposal", "water heater", "air conditioning", "smoke detector", "toilet", "sink", "faucet",
            "disposal", "dishwasher", "refrigerator", "fridge", "freezer", "oven", "stove", "microwave", "washer",
            "dryer", "ac", "a/c", "heater", "heat", "furnace", "shower", "bathtub", "tub", "drain", "pipe", "outlet",
            "lights", "light", "door", "lock", "window", "ceiling", "thermostat", "garage door", "hot water")
# In FIXTURES' order: the first named fixture wins, wherever it stands in the text.
FIXTURE_PATTERNS = [(f, re.compile(rf"\b{re.escape(f)}\b")) for f in FIXTURES]
SYMPTOMS: list[tuple[str, re.Pattern[str]]] = [
    ("overflowing", rx(r"\boverflow\w*")), ("leaking", rx(r"\bleak\w*", r"\bdrip\w*")),
    ("clogged", rx(r"\bclog\w*", r"\bbacked\s+up\b", r"\bwon'?t\s+drain\b")), ("jammed", rx(r"\bjam\w*", r"\bstuck\b")),
    ("running", rx(r"\bkeeps?\s+running\b", r"\bwon'?t\s+stop\s+running\b", r"\brunning\s+(?:toilet|constantly)")),
    ("no hot water", rx(r"\bno\s+hot\s+water\b")), ("no heat", rx(r"\bno\s+heat\b", r"\bheat\s+is\s+out\b")),
    ("broken", rx(r"\bbroken?\b", r"\bnot\s+working\b",
                  r"\b(?:doesn'?t|does\s+not|won'?t|isn'?t|stopped)\s+(?:work|turn|start|flush|open|close|lock)\w*",
                  r"\bout\s+of\s+order\b", r"\bdead\b")),
    ("mold", rx(r"\bmold\w*", r"\bmildew\b")),
    ("pests", rx(r"\broach\w*", r"\bmice\b", r"\brats?\b", r"\bbed\s*bugs?\b", r"\bpests?\b")),
    ("noisy", rx(r"\bnois\w+", r"\bhumming\b", r"\bbanging\b", r"\bsqueak\w*")),
    ("smells", rx(r"\bsmell\w*", r"\bodor\b")),
    ("needs repair", rx(r"\bfix\b", r"\brepair\s+(?:the|my|a|our)\b", r"\bneeds?\s+(?:a\s+)?repair",
                        r"\bcrack\w*", r"\bdamag\w*")),
]
URGENT = rx(r"\boverflow\w*", r"\bno\s+(?:heat|water|power|hot\s+water)\b", r"\burgent\w*", r"\basap\b",
            r"\bright\s+now\b")


@dataclass
class Problem:
    symptom: str | None
    fixture: str | None
    priority: str

    @property
    def brief(self) -> str:
        if self.symptom in ("no hot water", "no heat"):
            return self.symptom
        return " ".join(p for p in (self.symptom, self.fixture) if p) or "maintenance request"


@dataclass
class Entities:
    text: str                        # the words, without the attached-media note
    message: str = ""                # as received (clipped): what a work order description keeps
    work_orders: list[str] = field(default_factory=list)   # "WO-7"
    units: list[str] = field(default_factory=list)
    bedrooms: int | None = None
    day: date | None = None          # a specific day mentioned
    month_level: bool = False        # the day stands for a whole month ("next month", "in January")
    clock: time | None = None
    eta: tuple[str, str] | None = None  # (for the tool, for the reply): ("10 minutes", "in about 10 minutes")
    emergency: str | None = None
    problem: Problem | None = None
    email: str | None = None
    phone: str | None = None
    stars: int | None = None
    term_months: int | None = None
    dollars: float | None = None
    vendor_id: str | None = None

    def when(self) -> datetime | None:
        return datetime.combine(self.day, self.clock) if self.day and self.clock else None

    def move_in_by(self) -> date | None:
        if self.day is None:
            return None
        return self.day.replace(day=monthrange(self.day.year, self.day.month)[1]) if self.month_level else self.day


def extract(message: str, today: date) -> Entities:
    text = MEDIA_NOTE.sub("", message).strip()[:MAX_TEXT]
    ents = Entities(text=text, message=message.strip()[:MAX_TEXT])
    ents.work_orders = list(dict.fromkeys(f"WO-{int(n)}" for n in WORK_ORDER.findall(text)))
    ents.units = list(dict.fromkeys(UNIT.findall(WORK_ORDER.sub(" ", text))))
    if m := BEDROOMS.search(text):
        word = (m.group(1) or m.group(2)).lower()
        ents.bedrooms = NUMBER_WORDS[word] if word in NUMBER_WORDS else int(word)
    ents.day, ents.month_level = _day(text, today)
    ents.clock = _clock(text)
    ents.eta = _eta(text, ents.clock)
    ents.emergency = next((kind for kind, pattern in EMERGENCIES.items() if pattern.search(text)), None)
    ents.problem = _problem(text, ents.emergency)
    ents.email = m.group() if (m := EMAIL.search(text)) else None
    ents.phone = m.group().strip() if (m := PHONE.search(text)) else None
    ents.stars = int(m.group(1)) if (m := STARS.search(text)) else None
    ents.term_months = int(m.group(1)) if (m := TERM.search(text)) else None
    ents.dollars = float(m.group(1).replace(",", "")) if (m := DOLLARS.search(text)) else None
    ents.vendor_id = m.group() if (m := VENDOR_ID.search(text)) else None
    return ents


def _day(text: str, today: date) -> tuple[date | None, bool]:
    lowered = text.lower()
    if "next month" in lowered:
        year, month = (today.year + 1, 1) if today.month == 12 else (today.year, today.month + 1)
        return date(year, month, 1), True
    if m := ISO_DATE.search(text):
        return date(int(m.group(1)), int(m.group(2)), int(m.group(3))), False
    if m := MONTH_DAY.search(text):
        month = MONTHS.index(m.group(1).lower()) + 1
        year = today.year + (1 if month < today.month else 0)
        day = int(m.group(2)) if m.group(2) and 1 <= int(m.group(2)) <= monthrange(year, month)[1] else 1
        return date(year, month, day), m.group(2) is None
    if m := SLASH_DATE.search(text):
        month, day = int(m.group(1)), int(m.group(2))
        if 1 <= month <= 12 and 1 <= day <= monthrange(today.year, month)[1]:
            candidate = date(today.year, month, day)
            return (candidate if candidate >= today else date(today.year + 1, month, day)), False
    if "tomorrow" in lowered:
        return today + timedelta(days=1), False
    if "today" in lowered or "tonight" in lowered:
        return today, False
    if m := WEEKDAY.search(text):
        index = next(i for i, name in enumerate(WEEKDAYS) if name.startswith(m.group(1).lower()[:3]))
        return today + timedelta(days=(index - today.weekday() - 1) % 7 + 1), False
    return None, False


def _clock(text: str) -> time | None:
    m = CLOCK.search(text)
    if m is None:
        return None
    if m.group(4):
        return time(12, 0)
    hour = int(m.group(1)) % 12 + (12 if m.group(3).lower() == "p" else 0)
    minute = int(m.group(2) or 0)
    return time(hour, minute) if hour < 24 and minute < 60 else None


def clock_text(at: time) -> str:
    suffix = "am" if at.hour < 12 else "pm"
    hour = at.hour % 12 or 12
    return f"{hour}:{at.minute:02d}{suffix}" if at.minute else f"{hour}{suffix}"


def _eta(text: str, clock: time | None) -> tuple[str, str] | None:
    if m := MINUTES.search(text):
        return f"{m.group(1)} minutes", f"in about {m.group(1)} minutes"
    if m := HOURS.search(text):
        amount = "1" if m.group(1).lower() in ("a", "an") else m.group(1)
        unit = "hour" if amount == "1" else "hours"
        return f"{amount} {unit}", f"in about {amount} {unit}"
    if clock is not None:
        day = "tomorrow " if "tomorrow" in text.lower() else ""
        return f"{day}{clock_text(clock)}", f"{day}at {clock_text(clock)}"
    return None


def _problem(text: str, emergency: str | None) -> Problem | None:
    lowered = text.lower()
    symptom = next((name for name, pattern in SYMPTOMS if pattern.search(text)), None)
    fixture = next((f for f, pattern in FIXTURE_PATTERNS if pattern.search(lowered)), None)
    if symptom is None and emergency is None:
        return None
    if fixture == "hot water" and symptom == "no hot water":
        fixture = None
    priority = "emergency" if emergency else "urgent" if URGENT.search(text) else "normal"
    return Problem(symptom=symptom, fixture=fixture, priority=priority)
