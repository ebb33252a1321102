"""The offline policy's vocabulary: the English and Spanish phrasings each rule listens for.
Emergencies are not here: they are spine.intent.emergency's, the one vocabulary the gateway shares."""
from __future__ import annotations

from typing import Any

from spine.intent.patterns import rx

GREETING = rx(r"^\s*(?:yo|hey+|hi+|hello|sup|what'?s\s+up|wassup|whats\s+up|is\s+this|hola|buenas|qu[eé]\s+onda)\b")
INTRODUCTION = rx(r"\b(?:this\s+is|it'?s|i'?m|i\s+am|my\s+name\s+is|soy|me\s+llamo)\s+[A-Z][a-z]+")  # own name
NOT_A_NAME = {"I", "Clara", "OK", "Okay", "Hi", "Hey", "Hello", "Yo", "Is", "This", "What", "Thanks", "WO", "Sup",
              "Hola", "Buenas", "Gracias"}
STATUS = rx(r"\bstatus\b", r"\bupdates?\b", r"\bany\s+news\b", r"\bprogress\b", r"\bcheck(?:ing)?\s+on\b",
            r"\bwhen\s+(?:will|is|are)\b", r"\bwhat'?s\s+happening\b", r"\bdetails?\b", r"\binfo\b",
            r"\bestado\b", r"\bc[oó]mo\s+va\b", r"\bnovedades\b", r"\bcu[aá]ndo\s+(?:viene|vienen|llega)\b")
WORK_TALK = rx(r"\bwork\s*orders?\b", r"\brepairs?\b", r"\brequests?\b", r"\btickets?\b", r"\bmaintenance\b",
               r"\bplumber\b", r"\btech(?:nician)?\b", r"\bsomeone\s+(?:coming|come)\b", r"\b[oó]rden(?:es)?\s+de\s+trabajo\b",
               r"\breparaci[oó]n\b", r"\bplomero\b", r"\bt[eé]cnico\b")
ETA_TALK = rx(r"\b(?:min(?:ute)?s?|hours?|hrs?)\s+(?:out|away)\b", r"\bon\s+my\s+way\b", r"\bomw\b", r"\beta\b",
              r"\brunning\s+late\b", r"\bbe\s+there\b", r"\barriv\w*", r"\bheading\s+(?:over|to|there)\b",
              r"\ben\s+route\b", r"\bllego\b", r"\bllegando\b", r"\ben\s+camino\b", r"\bvoy\s+para\b",
              r"\bestoy\s+a\s+\d+\s+minutos\b")
DONE_TALK = rx(r"\b(?:all\s+)?done\b", r"\bfinished\b", r"\bcompleted?\b", r"\bfixed\b", r"\ball\s+set\b",
               r"\bwrapped\s+up\b", r"\btermin[eéa]\w*\b", r"\blisto\b", r"\bqued[oó]\s+arreglad[oa]\b")
HANDOFF_TALK = rx(r"\bcan'?t\s+make\s+it\b", r"\bcannot\s+make\s+it\b", r"\bhand\s*off\b", r"\breassign\b",
                  r"\bsomeone\s+else\b", r"\bnot\s+my\s+trade\b", r"\bno\s+(?:puedo|voy\s+a\s+poder)\s+ir\b",
                  r"\botro\s+(?:t[eé]cnico|proveedor)\b")
# A vendor reporting progress without an ETA: parts, delays, findings. It is a note on the job.
PROGRESS_TALK = rx(r"\bbackorder\w*", r"\bback[\s-]ordered\b", r"\bwaiting\s+(?:on|for)\b", r"\bpart\b", r"\bparts\b",
                   r"\bneed\s+to\s+come\s+back\b", r"\bcoming\s+back\b", r"\bordered\b", r"\bdelay\w*",
                   r"\bi'?m\s+at\b", r"\bon\s+site\b", r"\bfound\b", r"\bturned\s+out\b", r"\brefacci[oó]n\w*",
                   r"\bpieza\w*", r"\bestoy\s+en\b", r"\bregreso\b")
MINE = rx(r"\bmy\b", r"\bmi\b")  # "my sink is fixed" is a tenant talking, not a vendor closing a job
ACCEPT_TALK = rx(r"\baccept\b", r"\bi'?ll\s+take\s+(?:it|the\s+job|wo|work)\b", r"\bcan\s+take\b", r"\bon\s+it\b",
                 r"\bacepto\b", r"\blo\s+tomo\b")
AVAILABILITY = rx(r"\bavailab\w*", r"\bvacanc\w*", r"\bdo\s+you\s+have\b", r"\bany\s+(?:units|apartments|openings|places)\b",
                  r"\blooking\s+for\b", r"\bmov(?:e|ing)\s+in\b", r"\bopenings?\b", r"\bfor\s+rent\b",
                  r"\bopening\s+up\b", r"\bget\s+into\b", r"\bleasing\s+with\b", r"\bdisponibles?\b",
                  r"\btienen\b.*\b(?:departamentos?|apartamentos?|rec[aá]maras?|cuartos?|habitaciones|estudios?)\b",
                  r"\bbusco\b", r"\bbuscando\b", r"\brentan\b", r"\bse\s+renta\b", r"\bmudarme\b", r"\bvacantes?\b")
PRICING = rx(r"\bprices?\b", r"\bpricing\b", r"\bhow\s+much\b", r"\bcost\b", r"\brent\s+(?:for|on|is)\b",
             r"\bmonthly\s+rent\b", r"\bprecios?\b", r"\bcu[aá]nto\s+(?:cuesta|es|cobran|sale)\b", r"\bcosto\b")
TOUR = rx(r"\btour\w*", r"\bvisit\b", r"\bviewing\b", r"\bshowing\b", r"\bsee\s+(?:the|a|unit|it)\b",
          r"\bcome\s+(?:see|by|look)\b", r"\bvisita\w*", r"\bver\s+(?:el|la|los|un|una)\b", r"\bconocer\s+el\b")
APPLY = rx(r"\bappl(?:y|ication)\b", r"\bsolicitud\b", r"\baplicar\b")
FACILITIES: list[tuple[str, Any]] = [
    ("get_pool_status", rx(r"\bpool\b", r"\balberca\b", r"\bpiscina\b")),
    ("get_pet_policy", rx(r"\bpets?\b", r"\bdogs?\b", r"\bcats?\b", r"\bmascotas?\b", r"\bperros?\b", r"\bgatos?\b")),
    ("get_parking_rules", rx(r"\bpark\w*", r"\bcars?\b", r"\btow\w*", r"\bgarage\b", r"\bestaciona\w*",
                             r"\bcoche\b", r"\bcarro\b")),
    ("get_property_hours", rx(r"\bhours\b", r"\bwhen\s+(?:is|are|does)\b.*\b(?:open|close)", r"\boffice\b",
                              r"\bquiet\b", r"\bhorarios?\b", r"\boficina\b")),
    ("get_property_amenities", rx(r"\bamenit\w*", r"\bgym\b", r"\bfitness\b", r"\brooftop\b", r"\blaundry\b",
                                  r"\bpackages?\b", r"\bbike\b", r"\blounge\b", r"\bgimnasio\b", r"\blavander[ií]a\b",
                                  r"\bamenidades\b")),
]
BALANCE = rx(r"\bbalance\b", r"\bowe\b", r"\brent\s+due\b", r"\bpay\s+(?:my\s+)?rent\b",
             r"\bhow\s+much\s+is\s+my\s+rent\b", r"\bsaldo\b", r"\bdebo\b", r"\bpagar\s+la\s+renta\b")
LEASE = rx(r"\blease\b", r"\brenew\w*", r"\bcontrato\b", r"\brenova\w*")
RENEW_YES = rx(r"\baccept\w*\b.*\brenew", r"\b(?:i'?ll|i\s+will|we'?ll|want\s+to|yes,?\s+(?:i'?ll\s+)?)\s*renew\b",
               r"\b(?:quiero|voy\s+a|s[ií],?)\s+renovar\b", r"\bacepto\b.*\brenova")
RENEW_NO = rx(r"\bnot\s+(?:going\s+to\s+)?renew", r"\bdecline\b", r"\bwon'?t\s+(?:be\s+)?renew", r"\bmoving\s+out\b",
              r"\bno\s+(?:voy\s+a\s+|quiero\s+)?renovar\b", r"\bme\s+mudo\b")
APPLIANCES = rx(r"\bappliances?\b", r"\bwhat\s+(?:model|brand)\b", r"\belectrodom[eé]sticos\b")
HUMAN = rx(r"\bhuman\b", r"\breal\s+person\b", r"\bmanager\b",
           r"\bspeak\s+(?:to|with)\s+(?:someone|somebody|a\s+person)\b",
           r"\btalk\s+to\s+(?:someone|somebody|a\s+person)\b", r"\bcall\s+me\b", r"\bcomplain\w*",
           r"\bhablar\s+con\s+(?:alguien|una\s+persona|el\s+gerente)\b", r"\bpersona\s+real\b", r"\bll[aá]me(?:n)?me\b",
           r"\bqueja\b")
PM_OPEN = rx(r"\bopen\s+work\s*orders\b", r"\blist\s+(?:the\s+)?work\s*orders\b", r"\bwhat'?s\s+open\b",
             r"\bwhat\s+is\s+open\b", r"\bwhich\s+work\s*orders\b", r"\bwork\s*orders?\s+(?:are\s+)?open\b",
             r"\banything\s+open\b", r"\bopen\s+(?:tickets|requests|jobs)\b", r"\b[oó]rdenes\s+abiertas\b")
PM_WHO_IN_UNIT = rx(r"\bwho\s+(?:is|lives|'s)\s+(?:in|at)\s+(?:unit\s+|apt\.?\s+|#)?\d", r"\bwho\s+rents\b",
                    r"\bqui[eé]n\s+vive\s+en\b")
PM_LOOKUP = rx(r"\blook\s*up\b", r"\bwho\s+is\b", r"\bfind\b", r"\bcontact\s+for\b", r"\bbusca\b")
PM_ASSIGN = rx(r"\bassign\b", r"\basigna\w*")
PM_CLOSE = rx(r"\bclose\b", r"\bcierra\w*")
PM_RENEWAL = rx(r"\bsend\b.*\brenewal\b", r"\brenewal\s+(?:offer\s+)?(?:to|for)\b", r"\benv[ií]a\w*\b.*\brenovaci[oó]n\b")
PM_CREATE = rx(r"\b(?:create|open|new)\b.*\bwork\s*order\b")
PM_TOURS = rx(r"\btours?\b.*\b(?:scheduled|booked|today|tonight|tomorrow|this\s+week|next\s+week|coming\s+up)\b",
              r"\b(?:any|what|which|how\s+many|list\s+(?:the\s+)?|my)\s+tours\b", r"\btour\s+(?:schedule|calendar)\b",
              r"\b(?:visitas|recorridos)\b.*\b(?:hoy|ma[ñn]ana|semana|programad[oa]s|agendad[oa]s)\b",
              r"\b(?:hay|qu[eé]|cu[aá]ntas|cu[aá]les)\s+(?:visitas|recorridos)\b")
WEEK = rx(r"\bthis\s+week\b", r"\bthe\s+week\b", r"\bnext\s+7\s+days\b", r"\besta\s+semana\b", r"\bla\s+semana\b")
YES = rx(r"^\s*(?:yes|yeah|yep|sure|ok(?:ay)?|please|si|sí|claro|dale|por\s+favor)\b")
NO = rx(r"^\s*(?:no|nope|nah|not\s+now)\b")
THANKS = rx(r"^\s*(?:thanks?|thank\s+you|thx|ty|gracias|muchas\s+gracias)\b")
# What a prospect may ask that fair housing forbids Clara to answer on: she answers everyone alike.
PROTECTED_CLASS = rx(
    r"\bdemographic\w*", r"\bwhat\s+kind\s+of\s+people\b", r"\bethnic\w*", r"\brac(?:e|ial)\b", r"\bwhite\b",
    r"\bblack\b", r"\bhispanic\w*", r"\blatino\w*", r"\basian\b", r"\bimmigrants?\b", r"\bchurch\w*", r"\bmosque\w*",
    r"\bsynagogue\w*", r"\breligio\w*", r"\bchristian\w*", r"\bmuslims?\b", r"\bjewish\b", r"\bfamil(?:y|ies)\b",
    r"\bkids?\b", r"\bchildren\b", r"\bsafe\s+(?:neighbou?rhood|area)\b", r"\bdisab\w*", r"\bwheelchair\b",
    r"\bsection\s*8\b", r"\bvouchers?\b", r"\bsource\s+of\s+income\b", r"\bon\s+(?:disability|ssi|welfare)\b",
    r"\bservice\s+(?:animal|dog)\b", r"\bincome\b", r"\bssi\b", r"\bssdi\b", r"\bchild\s+support\b",
    r"\bbenefits\b", r"\bwelfare\b", r"\bsingle\s+(?:mom|mother|dad|father)\b", r"\bgay\b", r"\bold(?:er)?\s+people\b",
    r"\bretirees\b", r"\bniños\b", r"\bhijos\b", r"\bfamilias\b", r"\bgente\b", r"\breligi[oó]n\b", r"\biglesias?\b",
    r"\bdiscapacidad\b", r"\bsilla\s+de\s+ruedas\b", r"\bvale\s+de\s+vivienda\b", r"\bcup[oó]n\b", r"\bingresos\b",
    r"\bvecindario\b", r"\bbarrio\b")
