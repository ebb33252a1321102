"""A fire or flood told as past, that put the sender out of a home: "we lost our home in the flood
last spring", "se nos quemó la casa en octubre", "our unit flooded last month and the floors are
still warped". spine.intent.emergency reads such a telling past only when the message dates it weeks or
more back or speaks from after it (staying with family, insurance paying) and says nothing of now
(today, last night, right now, 911): a fire or flood happening now, smoke, gas or anything else it
finds outside the telling is still an emergency. In any doubt the telling stands as an emergency."""
from __future__ import annotations

from spine.intent.patterns import rx

_DISASTER = r"(?:fire|flood|flooding|blaze|incendio|inundaci[oó]n|fuego)"
_HOME = (r"(?:home|house|apartment|apt|place|building|rental|condo|trailer|unit|basement|neighborhood|street|casa|"
         r"depa\w*|apartamento|piso|bajo|edificio|vivienda|hogar|casita|colonia|barrio|calle|zona)")
_PAST_DISASTER = rx(
    r"\b(?:lost|losing\s+out\s+on)\s+(?:our|my|the|their|his|her|everything)\s+(?:\w+\s+){0,2}?(?:in|to|from)\s+"
    r"(?:a|an|the|that)\s+(?:\w+\s+){0,2}?" + _DISASTER + r"\b",
    r"\b(?:our|my|the|their|his|her)\s+(?:\w+\s+)?" + _HOME + r"\s+(?:was\s+|got\s+|had\s+been\s+)?(?:burned|burnt|flooded|"
    r"destroyed|damaged)\b(?:\s+(?:down|out|by\s+(?:a|an|the)\s+(?:\w+\s+)?" + _DISASTER + r"))?",
    r"\b(?:displaced|homeless|burned\s+out|flooded\s+out)\s+(?:by|in|after|from|since)\s+(?:a|an|the|that|our)\s+"
    r"(?:\w+\s+){0,2}?" + _DISASTER + r"\b",
    r"\b(?:after|since|because\s+of|due\s+to)\s+(?:a|an|the|that|our)\s+(?:\w+\s+){0,2}?" + _DISASTER + r"\b",
    r"\b(?:a|an|the)\s+" + _DISASTER + r"\s+(?:in|at)\s+(?:our|my|the)\s+" + _HOME + r"\s+(?:\w+\s+){0,3}?"
    r"(?:left|displaced|forced)\s+(?:us|me|them)\b",
    r"\b(?:perd[ií]|perdimos|perdieron)\s+(?:\w+\s+){0,3}?(?:en|por|con)\s+(?:el|la|un|una)\s+(?:\w+\s+)?"
    + _DISASTER + r"\b",
    r"\b(?:se\s+(?:nos|me|les|le)\s+)?(?:quem[oó]|inund[oó])\s+(?:la|el|nuestra|nuestro|mi|su)\s+" + _HOME + r"\b",
    r"\b(?:la|el|nuestra|nuestro|mi|su)\s+" + _HOME + r"\s+se\s+(?:nos\s+|me\s+|les\s+)?(?:quem[oó]|inund[oó])\b",
    r"\b(?:despu[eé]s|desde|por|tras|a\s+causa|debido)\s+(?:del|de\s+la|de\s+el|de\s+un|de\s+una|el|la|un|una|al|a\s+la|"
    r"lo\s+del)\s+(?:\w+\s+)?" + _DISASTER + r"\b",
    r"\b(?:damnificad[oa]s|desplazad[oa]s)\s+(?:por|del|de\s+la|de)\s+(?:\w+\s+){0,2}?" + _DISASTER + r"\b",
    r"\b(?:un|una|el|la)\s+" + _DISASTER + r"\s+en\s+(?:nuestr[oa]|mi|el|la)\s+" + _HOME + r"\s+(?:\w+\s+){0,4}?"
    r"(?:nos|me|los)\s+dej[oó]\b",
)
_MONTHS = (r"(?:january|february|march|april|may|june|july|august|september|october|november|december|enero|febrero|"
           r"marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre|octubre|noviembre|diciembre)")
_PAST_BY = rx(
    r"\b(?:last|past|this\s+past)\s+(?:week|month|year|spring|summer|fall|autumn|winter)\b",
    r"\b(?:\w+|\d+)\s+(?:weeks?|months?|years?)\s+ago\b", r"\b(?:in|back\s+in|since|of|this\s+past)\s+" + _MONTHS + r"\b",
    r"\bearlier\s+this\s+year\b", r"\blast\s+year'?s\b",
    r"\bhace\s+(?:\w+\s+){0,2}?(?:semanas?|mes(?:es)?|a[nñ]os?)\b",
    r"\b(?:el|la)\s+(?:mes|semana|a[nñ]o|primavera|verano|oto[nñ]o|invierno)\s+pasad[oa]\b",
    r"\b(?:del|el)\s+a[nñ]o\s+pasado\b", r"\b(?:en|de|desde)\s+" + _MONTHS + r"\b",
    # or told from after it: staying with family, in a hotel or a shelter, insurance paying
    r"\b(?:staying|living|sleeping)\s+(?:with|at|in)\s+(?:relatives|family|friends|(?:my|our)\s+\w+|a\s+(?:hotel|motel|"
    r"shelter|friend'?s))\b", r"\b(?:insurance|fema|red\s+cross)\b", r"\btemporary\s+housing\b", r"\bsince\s+then\b",
    r"\b(?:aseguradora|cruz\s+roja)\b", r"\bel\s+seguro\s+(?:nos|me|les|le)\s+(?:paga|cubre|da)\b", r"\bdesde\s+entonces\b",
    r"\b(?:estamos|vivimos|nos\s+quedamos|me\s+quedo|estoy)\s+(?:con|en\s+casa\s+de|donde|en\s+un\s+(?:hotel|albergue))\b",
)
_NOW = rx(
    r"\bright\s+now\b", r"\bas\s+we\s+speak\b", r"\bstill\s+(?:burning|on\s+fire|flooding|smoking|smoldering|coming|"
    r"pouring|leaking|rising)\b", r"\btonight\b", r"\bthis\s+(?:morning|afternoon|evening)\b", r"\btoday\b",
    r"\byesterday\b", r"\blast\s+night\b", r"\bjust\s+now\b", r"\b911\b", r"\bhelp\s*!", r"\bemergency\b",
    r"\bahora\s+mismo\b", r"\bahorita\b", r"\ben\s+este\s+momento\b", r"\btodav[ií]a\s+(?:sale|hay|se\s+est[aá]|est[aá]\s+"
    r"(?:saliendo|entrando|quemando))\b", r"\bsigue\s+(?:saliendo|entrando|quem[aá]ndose|el\s+fuego)\b", r"\banoche\b",
    r"\bayer\b", r"\bhoy\b", r"\bauxilio\b", r"\bemergencia\b", r"\burgente\b",
)


def without_past_disasters(text: str) -> str | None:
    """`text` with its past fire and flood tellings blanked, when it tells one, dates it and says
    nothing of now; None otherwise (read the whole text)."""
    if not _PAST_DISASTER.search(text) or not _PAST_BY.search(text) or _NOW.search(text):
        return None
    return _PAST_DISASTER.sub(" ", text)
