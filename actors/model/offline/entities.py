"""What the offline policy reads out of one message: work orders, units, bedrooms, dates, times,
ETAs, emergencies (spine.intent.emergency, the gateway's one emergency vocabulary) and the maintenance
problem. Plain regexes, English and Spanish; a Spanish fixture is named in English in the brief,
so staff read one language on their work orders."""
from __future__ import annotations

import copy
import re
from calendar import monthrange
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from functools import lru_cache

from spine.intent.emergency import EmergencyMatch, detect_emergency, normalize
from spine.intent.mentions import bedrooms, without_work_orders, work_order_ids
from spine.intent.patterns import rx

UNIT = re.compile(r"(?:\b(?:unit|apt\.?|apartment|suite)\s*#?\s*|#)(\d{1,5}[a-z]?)\b", re.IGNORECASE)
MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
SPANISH_MONTHS = {"enero": 1, "febrero": 2, "marzo": 3, "abril": 4, "mayo": 5, "junio": 6, "julio": 7, "agosto": 8,
                  "septiembre": 9, "setiembre": 9, "octubre": 10, "noviembre": 11, "diciembre": 12}
MONTH_DAY = re.compile(
    r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)(?:uary|ruary|ch|il|e|y|ust|t|tember|ober|ember)?\.?"
    r"(?:\s+(\d{1,2})(?:st|nd|rd|th)?)?\b", re.IGNORECASE)
SPANISH_DAY = re.compile(r"\b(?:(\d{1,2})\s+de\s+)?(" + "|".join(SPANISH_MONTHS) + r")\b", re.IGNORECASE)
TOMORROW_ES = re.compile(r"(?<!de la )(?<!por la )\bma[ñn]ana\b")  # "de la mañana" is the morning
NEXT_MONTH = re.compile(r"\bnext\s+month\b|\bpr[oó]ximo\s+mes\b|\bmes\s+que\s+viene\b", re.IGNORECASE)
ISO_DATE = re.compile(r"\b(20\d\d)-(\d\d)-(\d\d)\b")
SLASH_DATE = re.compile(r"\b(\d{1,2})/(\d{1,2})\b")
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
WEEKDAY = re.compile(r"\b(mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?\b", re.IGNORECASE)
SPANISH_WEEKDAYS = ["lunes", "martes", "mi[eé]rcoles", "jueves", "viernes", "s[aá]bado", "domingo"]
SPANISH_WEEKDAY = re.compile(r"\b(" + "|".join(SPANISH_WEEKDAYS) + r")\b", re.IGNORECASE)
CLOCK = re.compile(r"\b(\d{1,2})(?::(\d\d))?\s*([ap])\.?m\b\.?|\b(noon|mediod[ií]a)\b", re.IGNORECASE)
SPANISH_CLOCK = re.compile(r"\ba\s+las?\s+(\d{1,2})(?::(\d\d))?(?:\s+de\s+la\s+(ma[ñn]ana|tarde|noche))?\b",
                           re.IGNORECASE)
MINUTES = re.compile(r"\b(\d{1,3})\s*(?:-\s*)?(?:min(?:ute)?s?|minutos?)\b", re.IGNORECASE)
HOURS = re.compile(r"\b(\d{1,2}|an?)\s*(?:hours?|hrs?|horas?)\b", re.IGNORECASE)
EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.-]+")
PHONE = re.compile(r"\+?1?[\s.-]?\(?\d{3}\)?[\s.-]?\d{3}[\s.-]?\d{4}\b")
STARS = re.compile(r"\b([1-5])\s*(?:stars?|/\s*5|out of 5|estrellas?|de 5)(?!\w)", re.IGNORECASE)
TERM = re.compile(r"\b(\d{1,2})[\s-]*(?:months?|mo|meses|mes)\b", re.IGNORECASE)
DOLLARS = re.compile(r"\$\s*([\d,]+(?:\.\d\d)?)")
VENDOR_ID = re.compile(r"\bv_[a-z0-9_]+\b")
MAX_TEXT = 2000  # the longest description a work order takes; an SMS is at most 1600
MEDIA_NOTE = re.compile(r"\n?\[attached media:[^\]]*\]", re.IGNORECASE)

FIXTURES = ("garbage disposal", "water heater", "air conditioning", "smoke detector", "toilet", "sink", "faucet",
            "disposal", "dishwasher", "refrigerator", "fridge", "freezer", "oven", "stove", "microwave", "washer",
            "dryer", "ac", "a/c", "heater", "heat", "furnace", "shower", "bathtub", "tub", "drain", "pipe", "outlet",
            "lights", "light", "door", "lock", "window", "ceiling", "thermostat", "garage door", "hot water")
SPANISH_FIXTURES = {"inodoro": "toilet", "escusado": "toilet", "taza del baño": "toilet", "triturador": "disposal",
                    "calentador": "water heater", "aire acondicionado": "air conditioning", "lavabo": "sink",
                    "fregadero": "sink", "llave": "faucet", "grifo": "faucet", "lavaplatos": "dishwasher",
                    "lavavajillas": "dishwasher", "refrigerador": "refrigerator", "nevera": "refrigerator",
                    "estufa": "stove", "horno": "oven", "lavadora": "washer", "secadora": "dryer",
                    "calefacción": "heat", "regadera": "shower", "ducha": "shower", "tina": "bathtub",
                    "drenaje": "drain", "tubería": "pipe", "enchufe": "outlet", "luces": "lights", "luz": "light",
                    "puerta": "door", "cerradura": "lock", "ventana": "window", "techo": "ceiling", "termostato": "thermostat"}
# In this order: the first named fixture wins, wherever it stands in the text.
FIXTURE_PATTERNS = [(f, re.compile(rf"\b{re.escape(f)}\b")) for f in FIXTURES] + \
    [(english, re.compile(rf"\b{re.escape(word)}\b")) for word, english in SPANISH_FIXTURES.items()]
SYMPTOMS: list[tuple[str, re.Pattern[str]]] = [
    ("overflowing", rx(r"\boverflow\w*", r"\bse\s+desborda\w*", r"\bderrama\w*")),
    ("leaking", rx(r"\bleak\w*", r"\bdrip\w*", r"\bgote\w*", r"\bfugas?\b")),
    ("clogged", rx(r"\bclog\w*", r"\bbacked\s+up\b", r"\bwon'?t\s+drain\b", r"\btapad[oa]\b", r"\batascad[oa]\b")),
    ("jammed", rx(r"\bjam\w*", r"\bstuck\b", r"\btrabad[oa]\b")),
    ("running", rx(r"\bkeeps?\s+running\b", r"\bwon'?t\s+stop\s+running\b", r"\brunning\s+(?:toilet|constantly|again)",
                   r"\b(?:is|it'?s)\s+running\b", r"\bno\s+(?:deja\s+de|para\s+de)\s+correr\b", r"\bsigue\s+corriendo\b")),
    ("no hot water", rx(r"\bno\s+hot\s+water\b", r"\bno\s+hay\s+agua\s+caliente\b")),
    ("no heat", rx(r"\bno\s+heat\b", r"\bheat\s+is\s+out\b", r"\bno\s+(?:hay|tengo)\s+calefacci[oó]n\b")),
    ("broken", rx(r"\bbroken?\b", r"\bnot\s+working\b",
                  r"\b(?:doesn'?t|does\s+not|won'?t|isn'?t|stopped)\s+(?:work|turn|start|flush|open|close|lock)\w*",
                  r"\bout\s+of\s+order\b", r"\bdead\b", r"\bno\s+(?:funciona|sirve|prende|enciende|cierra|abre)\b",
                  r"\bdescompuest[oa]\b", r"\brot[oa]\b")),
    ("mold", rx(r"\bmold\w*", r"\bmildew\b", r"\bmoho\b", r"\bhongos\b")),
    ("pests", rx(r"\broach\w*", r"\bmice\b", r"\brats?\b", r"\bbed\s*bugs?\b", r"\bpests?\b", r"\bcucarachas?\b",
                 r"\bratas?\b", r"\bratones\b", r"\bchinches\b", r"\bplagas?\b")),
    ("noisy", rx(r"\bnois\w+", r"\bhumming\b", r"\bbanging\b", r"\bsqueak\w*", r"\bruido\w*")),
    ("chirping", rx(r"\bchirp\w*", r"\bbeep\w*", r"\bpita\w*")),
    ("smells", rx(r"\bsmell\w*", r"\bodor\b")),
    ("needs repair", rx(r"\bfix\b", r"\brepair\s+(?:the|my|a|our)\b", r"\bneeds?\s+(?:a\s+)?repair",
                        r"\bcrack\w*", r"\bdamag\w*")),
]
URGENT = rx(r"\boverflow\w*", r"\bno\s+(?:heat|water|power|hot\s+water)\b", r"\burgent\w*", r"\basap\b",
            r"\bright\s+now\b", r"\bno\s+hay\s+(?:agua|luz|calefacci[oó]n)\b", r"\burgente\b", r"\bse\s+desborda\w*")


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
    named_day: str | None = None     # "today" or "tomorrow" when the day was said so (relative to the caller)
    month_level: bool = False        # the day stands for a whole month ("next month", "in January")
    clock: time | None = None
    eta: tuple[str, str] | None = None  # (for the tool, for the reply): ("10 minutes", "in about 10 minutes")
    emergency: EmergencyMatch | None = None
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
    """What the words name. The model reads the same ask on every round of a turn, so the
    reading is kept; each caller gets its own copy, as rules assign fields (the lists are only
    ever replaced, never changed in place)."""
    if len(message) > MAX_TEXT:
        return _extracted(message, today)
    return copy.copy(_extracted_kept(message, today))


def _extracted(message: str, today: date) -> Entities:
    text = normalize(MEDIA_NOTE.sub("", message))[:MAX_TEXT]
    ents = Entities(text=text, message=message.strip()[:MAX_TEXT])
    ents.work_orders = work_order_ids(text)
    ents.units = list(dict.fromkeys(UNIT.findall(without_work_orders(text))))
    ents.bedrooms = bedrooms(text)
    ents.day, ents.month_level = _day(text, today)
    ents.named_day = _named_day(text)
    ents.clock = _clock(text)
    ents.eta = _eta(text, ents.clock)
    ents.emergency = detect_emergency(text)
    ents.problem = _problem(text, ents.emergency)
    ents.email = m.group() if (m := EMAIL.search(text)) else None
    ents.phone = m.group().strip() if (m := PHONE.search(text)) else None
    ents.stars = int(m.group(1)) if (m := STARS.search(text)) else None
    ents.term_months = int(m.group(1)) if (m := TERM.search(text)) else None
    ents.dollars = float(m.group(1).replace(",", "")) if (m := DOLLARS.search(text)) else None
    ents.vendor_id = m.group() if (m := VENDOR_ID.search(text)) else None
    return ents


_extracted_kept = lru_cache(maxsize=256)(_extracted)


def _day(text: str, today: date) -> tuple[date | None, bool]:
    if NEXT_MONTH.search(text):
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
    if m := SPANISH_DAY.search(text):
        month = SPANISH_MONTHS[m.group(2).lower()]
        year = today.year + (1 if month < today.month else 0)
        day = int(m.group(1)) if m.group(1) and 1 <= int(m.group(1)) <= monthrange(year, month)[1] else 1
        return date(year, month, day), m.group(1) is None
    if named := _named_day(text):
        return today + timedelta(days=1 if named == "tomorrow" else 0), False
    if m := WEEKDAY.search(text):
        index = next(i for i, name in enumerate(WEEKDAYS) if name.startswith(m.group(1).lower()[:3]))
        return today + timedelta(days=(index - today.weekday() - 1) % 7 + 1), False
    if m := SPANISH_WEEKDAY.search(text):
        index = next(i for i, name in enumerate(SPANISH_WEEKDAYS) if re.fullmatch(name, m.group(1), re.IGNORECASE))
        return today + timedelta(days=(index - today.weekday() - 1) % 7 + 1), False
    return None, False


def _named_day(text: str) -> str | None:
    lowered = text.lower()
    if "tomorrow" in lowered or TOMORROW_ES.search(lowered):
        return "tomorrow"
    if "today" in lowered or "tonight" in lowered or re.search(r"\bhoy\b", lowered):
        return "today"
    return None


def _clock(text: str) -> time | None:
    m = CLOCK.search(text)
    if m is None:
        return _spanish_clock(text)
    if m.group(4):
        return time(12, 0)
    hour = int(m.group(1)) % 12 + (12 if m.group(3).lower() == "p" else 0)
    minute = int(m.group(2) or 0)
    return time(hour, minute) if hour < 24 and minute < 60 else None


def _spanish_clock(text: str) -> time | None:
    """'a las 3 de la tarde', 'a las 11'; a bare hour under 8 is read as afternoon (nobody tours at 3am)."""
    m = SPANISH_CLOCK.search(text)
    if m is None:
        return None
    hour, minute, part = int(m.group(1)), int(m.group(2) or 0), (m.group(3) or "").lower()
    if (part in ("tarde", "noche") and hour < 12) or (not part and hour < 8):
        hour += 12
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
        day = "tomorrow " if "tomorrow" in text.lower() or "mañana" in text.lower() else ""
        return f"{day}{clock_text(clock)}", f"{day}at {clock_text(clock)}"
    return None


def _problem(text: str, emergency: EmergencyMatch | None) -> Problem | None:
    symptom = next((name for name, pattern in SYMPTOMS if pattern.search(text)), None)
    if symptom is None and emergency is None:
        return None  # before the fixtures: most messages name no problem, and there are dozens
    lowered = text.lower()
    fixture = next((f for f, pattern in FIXTURE_PATTERNS if pattern.search(lowered)), None)
    if fixture == "hot water" and symptom == "no hot water":
        fixture = None
    priority = "emergency" if emergency else "urgent" if URGENT.search(text) else "normal"
    return Problem(symptom=symptom, fixture=fixture, priority=priority)
