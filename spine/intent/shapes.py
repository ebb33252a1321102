"""The intent classifier's shape features: regexes over the folded text (lowercase, accents
removed) for what a message is about, whatever its words: a bedroom count, money, a resident's own
home, a relative's, a seeker's lease elsewhere, an applicant's house-rule questions (pets, parking,
lease length, a deposit), an owner's property or manager, a vendor or realtor filling vacancies or
selling, a job, a wrong number asking for a shop, a friend's search, a particular home asked
after. Each names a kind of sender, not a phrasing from any one set, so a weight learnt on one
style carries to others."""
from __future__ import annotations

import re

_HOME_WORDS = r"(?:house|home|condo|duplex|triplex|fourplex|townhouse|rentals?|propert(?:y|ies)|units)"
_THAT_HOME = (r"(?:house|home|place|cottage|loft|townhouse|townhome|duplex|condo|apartment|apt|bungalow|cabin|casita|studio|"
              r"flat|unit|rental|listing)")
_ESTA_CASA = r"(?:casa|casita|depa|departamento|depto|piso|chalet|adosado|apartamento|duplex|atico|estudio|loft|cabana)"

SHAPES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("<bedrooms>", re.compile(r"\b\d\s*-?\s*(?:br|bd|bdr|bed|beds|bedrooms?|b1b|rec[aá]maras?|cuartos|habitaciones)\b"
                              r"|\b(?:one|two|three|una|dos|tres)[\s-]+(?:bed|bedrooms?|rec[aá]maras?|cuartos|habitaciones)\b"
                              r"|\b\d\s*bd?\s*/?\s*\d\s*ba?\b",
                              re.IGNORECASE)),
    ("<money>", re.compile(r"\$\s?\d|\b\d{3,4}\s*(?:/\s*mo(?:nth)?|a month|al mes)\b", re.IGNORECASE)),
    ("<link>", re.compile(r"https?://|www\.|\.(?:com|co|net|info|ly)\b/?", re.IGNORECASE)),
    ("<my_home>", re.compile(r"\b(?:my|our|mi|nuestro)\s+(?:apartment|apt|unit|lease|rent|balance|departamento|"
                             r"depa|depto|apartamento|piso|contrato|renta|alquiler|unidad)\b|\b(?:unit|apt|del|el)\s+\d{3}\b|\bin\s+\d{3}\b|\bi\s+live\b|"
                             r"\bvivo\s+en\b|"
                             # "I'm in 1204", "we're in 3B", "Jess from 410", "estamos en el 2C": a unit of ours
                             r"\b(?:i'?m|we'?re|i\s+am|we\s+are)\s+in\s+(?:unit\s+|apt\s+|#)?\d{1,4}[a-z]?\b|"
                             r"\bfrom\s+(?:unit\s+|apt\s+|#)?\d{3,4}[a-z]?\b|(?<!interested )(?<!interesad[oa] )\b(?:in|en\s+el)\s+\d[a-z]\b|"
                             r"\b(?:estoy|estamos|vivimos)\s+en\s+el\s+\d{1,4}[a-z]?\b|\b(?:unit|apt|#)\s*\d{1,4}[a-z]?\b", re.IGNORECASE)),
    ("<date>", re.compile(r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w*\b|\b(?:enero|febrero|marzo|abril|"
                          r"mayo|junio|julio|agosto|septiembre|octubre|noviembre|diciembre)\b|\bnext\s+month\b|"
                          r"\bpr[oó]ximo\s+mes\b|\bmes\s+que\s+viene\b", re.IGNORECASE)),
    # A resident speaking of the home they already have: renewing, leaving, a bill, a repair.
    ("<resident>", re.compile(r"\b(?:renew\w*|renova\w*|move[\s-]?out|moving\s+out|notice|aviso|sublet\w*|"
                              r"work\s+order|late\s+fee|recargo|autopay|balance|saldo|debo)\b|"
                              r"\bi(?:'m|\s+am)\s+(?:a\s+)?(?:resident|tenant)\b|\bi\s+live\s+(?:here|there)\b|"
                              r"\bvivo\s+aqui\b|\bya\s+vivo\b|\bsoy\s+(?:residente|inquilin[oa])\b|\b(?:current|existing)\s+residents?\b|"
                              r"\bsame\s+(?:building|complex|community)\b|\baqui\s+mismo\b|"
                              r"\b(?:my|mi)\s+(?:deposit|deposito|car|carro|spot|lugar|key|llave|package|paquete|"
                              r"ceiling|sink|toilet|door|puerta|neighbor|vecino)\b|\bsalir(?:me)?\s+del\b|"
                              # a resident just gone: the keys handed back, the deposit owed
                              r"\b(?:turned\s+in|returned|dropped\s+off)\s+(?:my|the)\s+keys\b|\bentregue\s+(?:las\s+)?llaves\b|"
                              r"\bregresen\s+(?:el|mi)\s+deposito\b|\bdeposit\s+back\b|"
                              r"\bstay(?:ing)?\s+(?:another|one\s+more)\s+year\b|\bquedarme\s+otro\s+ano\b|"
                              r"\b(?:vacate|vacating|dejare|desocupare)\b|\bya\s+vivimos\b|\blos\s+que\s+(?:ya\s+)?vivimos\b|"
                              # renting from us now (present tense), not wanting to rent
                              r"\b(?:rento|rentamos|alquilo|alquilamos)\s+(?:con\s+(?:ustedes|vosotros)|aqui|de\s+ustedes)\b|"
                              r"\b(?:soy|somos)\s+(?:el|la|los|las)\s+que\s+(?:renta|rentamos|alquila|vive|vivimos)\b|"
                              r"\b(?:vivo|vivimos)\s+en\s+(?:uno\s+de\s+)?sus\s+(?:departamentos|apartamentos|pisos|edificios|casas)\b|"
                              r"\binquilin[oa]s?\s+(?:suy[oa]s?|de\s+ustedes)\b|\bse\s+me\s+vencio\s+el\s+contrato\b|"
                              r"\bi(?:'m|\s+am)?\s+rent(?:ing)?\s+from\s+you\b")),
    # A resident speaking of the unit beside theirs, or a relative's home: neither is theirs to rent.
    ("<other_home>", re.compile(r"\b(?:next\s+to|above|below|across\s+from)\s+(?:mine|me|us|ours)\b|"
                                r"\b(?:upstairs|downstairs)\s+from\s+(?:me|us)\b|\bthe\s+(?:unit|apartment|apt)\s+"
                                r"(?:upstairs|downstairs)\b|\b(?:depa\w*|departamento|apartamento|piso|unidad)\s+de\s+"
                                r"(?:al\s+lado|arriba|abajo|enfrente)\b|\b(?:abajo|arriba|enfrente)\s+del\s+mio\b|"
                                r"\b(?:my|our)\s+(?:son|daughter|mom|mother|dad|father|client|niece|nephew|brother|sister)'s\s+"
                                r"(?:apartment|apt|unit|lease|place)\b|"
                                # a relative who rents here already: "my son rents from you", "mi mama vive en el 7A"
                                r"\b(?:my|our)\s+(?:son|daughter|mom|mother|dad|father|grandma|grandpa|aunt|uncle|cousin|niece|"
                                r"nephew|brother|sister)\s+(?:rents\s+from\s+you|lives\s+(?:in|at)\s+(?:your|unit|apt|#?\d))|"
                                r"\bmi\s+(?:hij[oa]|mama|papa|madre|padre|abuel\w+|ti[oa]|prim[oa]|herman[oa]|sobrin[oa])\s+"
                                r"(?:renta\s+con|es\s+inquilin|vive\s+en\s+(?:su|el|la|uno|sus))")),
    # Someone who has just moved in: a resident, however new.
    ("<new_resident>", re.compile(r"\bnew\s+here\b|\bfirst\s+(?:month|week)\s+here\b|\bjust\s+moved\s+in\b|"
                                  r"\bmoved\s+in\s+(?:yesterday|last\s+week)\b|\b(?:primer\s+mes|primera\s+semana)\s+aqui\b|"
                                  r"\bme\s+mude\s+ayer\b|\bacabo\s+de\s+(?:llegar|mudarme)\s+al\b|\bsoy\s+nuev[oa]\s+aqui\b|"
                                  r"\bnuev[oa]s?\s+(?:en\s+el\s+edificio|vecin[oa]s?)\b")),
    # Someone seeking a home: looking, moving in, applying, a budget, a lease still to sign.
    ("<seeking>", re.compile(r"\b(?:looking|lookin|searching|hunting|shopping)\s+(?:for|4|around)\b|"
                             r"\b(?:busco|buscamos|buscando|ando\s+buscando)\b|\bmov(?:e|ing)\s+in\b|"
                             r"\bmud(?:ar(?:me|nos|se)?|o|amos|anza)\b|\bapply\w*|\bapplied\b|\baplicar\b|\baplique\b|\bsolicit\w+|\bbudget\b|"
                             r"\bpresupuesto\b|\bfirst\s+(?:apartment|apt|place|home)\b|\bprimer\s+(?:depa\w*|hogar|"
                             r"apartamento|departamento)\b|\blease\s+(?:terms?|lengths?|options?)\b|"
                             r"\bask\s+(?:about|abt)\s+(?:units|apartments|renting|leasing|moving)\b|"
                             r"\bpreguntar\s+por\b|\bbecom\w+\s+a\s+(?:resident|tenant)\b|\bnew\s+(?:residents?|"
                             r"tenants?|renters?)\b|\bnuevos?\s+inquilinos?\b|\bprospective\b|\brelocat\w+|"
                             # a lease that ends somewhere else: "my lease" then is not one of ours
                             r"\belsewhere\b|\b(?:my|our)\s+current\s+(?:place|landlord|rental)\b|\ben\s+otro\s+lugar\b|"
                             r"\bdonde\s+(?:vivo|estoy)\s+ahora\b|\bdonde\s+(?:rento|rentamos|alquilo|alquilamos|estoy\s+rentando)\b|"
                             # a landlord elsewhere ending the lease: selling, moving back in, not renewing
                             r"\b(?:my|our|the)\s+(?:landlord|owner)\s+(?:is\s+)?(?:selling|sold|moving\s+(?:back|in)|won'?t\s+renew|"
                             r"isn'?t\s+renewing|is\s+not\s+renewing)\b|\b(?:el|mi|nuestro)\s+(?:dueno|propietario|casero|arrendador)\s+"
                             r"(?:\w+\s+){0,4}?(?:vendio|va\s+a\s+vender|esta\s+vendiendo|la\s+necesita|lo\s+necesita|lo\s+va\s+a\s+ocupar|"
                             r"no\s+(?:me|nos)\s+(?:lo\s+|la\s+)?(?:quiere\s+|quieren\s+)?renov\w+)\b|\b(?:my|our)\s+(?:old|last|previous|former)\s+(?:apartment|apt|place|"
                             r"building|landlord|rental)\b|\bacross\s+town\b|\b(?:del\s+)?otro\s+lado\s+de\s+la\s+ciudad\b|"
                             r"\bneed\s+(?:a|an|a\s+new)\s+(?:apartment|apt|place|home|unit|studio)\b|"
                             r"\bnecesito\s+(?:un|una)\s+(?:depa\w*|departamento|apartamento|casa|lugar|cuarto)\b|"
                             r"\bany\s+(?:vacant|open|available|empty)\s+(?:apartments|units|places|studios)\b|"
                             r"\bhold\s+(?:a|an|the|one)\s+(?:unit|apartment|apt|place)\b|\bapartar(?:me)?\s+(?:uno|un|una|el|la)\b")),
    # A move that brings someone here: a new job, a transfer, a first time renting.
    ("<moving>", re.compile(r"\bcambiar(?:me|nos)\b|\bmoving\s+(?:here\s+|down\s+|up\s+)?from\b|\b(?:nos\s+)?venimos\s+(?:de|a|por)\b|\bme\s+cambio\b|\btransferred\b|\btrasladaron\b|"
                            r"\b(?:got|new)\s+(?:a\s+)?(?:new\s+)?job\b|\bnuevo\s+(?:trabajo|empleo)\b|\bvengo\s+(?:de|a)\b|"
                            r"\bnew\s+(?:to\s+the\s+area|in\s+town)\b|\bnever\s+rented\b|\bnunca\s+he\s+rentado\b|"
                            r"\bfirst\s+time\s+renting\b|\bprimera\s+vez\s+rentando\b|\boutgr(?:owing|ew|own)\b|\bya\s+no\s+cabemos\b|"
                            r"\b(?:need|want)\s+more\s+(?:room|space)\b|\bnecesitamos\s+mas\s+espacio\b")),
    # Questions only an applicant asks: qualifying, a cosigner, a waitlist.
    ("<terms_q>", re.compile(r"\b(?:qualify|approv\w+|cosigners?|co-signers?|guarantors?|credit|income|requirements?|"
                             r"requisitos|aval|fiador|garante|garantia|fianza|waitlist|wait\s+list|section\s+8|vouchers?|"
                             r"califico)\b|\blista\s+de\s+espera\b")),
    # An applicant's questions on the house rules: pets, parking, lease length.
    ("<policy_q>", re.compile(r"\b(?:pets?|cats?|dogs?|mascotas?|perr\w+|gat[oi]\w*)\s+(?:ok|okay|allowed|welcome|permitid\w+)\b|"
                              r"\b(?:accept|allow|aceptan|admiten|permiten|se\s+admiten|se\s+permiten)\s+(?:pets|cats|dogs|"
                              r"mascotas|perr\w+|gat[oi]\w*)\b|\bis\s+there\s+parking\b|\btienen\s+(?:estacionamiento|parking|"
                              r"cochera|garage|ascensor|elevador)\b|\bmonth[\s-]+to[\s-]+month\b|\bmes\s+a\s+mes\b|"
                              r"\b\d{1,2}[\s-]+month\s+leases?\b|\bpet[\s-]+friendly\b|\bis\s+there\s+(?:a\s+)?(?:pool|gym|laundry)\b|"
                              r"\btienen\s+(?:lavanderia|alberca|piscina|gimnasio)\b|"
                              # a deposit asked about before moving in, not one owed back
                              r"\b(?:pay|need)\s+(?:a\s+)?(?:security\s+)?deposit\b|\bhay\s+que\s+pagar\b|\bpiden\s+de\s+deposito\b|"
                              r"\b(?:cuanto|how\s+much)\s+(?:es\s+el\s+|is\s+the\s+)?(?:deposito|deposit|fianza)\b|"
                              r"\b(?:rent|alquilan|alquilais|rentan)\s+(?:to\s+|a\s+)(?:familias|families|students|estudiantes|"
                              r"parejas|couples)\b|\b(?:dejan|puedo|se\s+puede)\s+tener\s+(?:mascotas?|perr\w+|gat\w+)|"
                              r"\bpet\s+(?:deposit|fee|rent|policy)\b|\bpolitica\s+de\s+mascotas\b")),
    # Wanting to live there, or to reach whoever leases.
    ("<live_there>", re.compile(r"\b(?:living|live|vivir|residing|residency)\s+(?:there|at\s+your|with\s+you|in\s+your|"
                                r"ahi|alli|en\s+su|con\s+ustedes)\b|\bget\s+(?:in|a\s+place)\b|\bhit\s+up\b|\bentrar\b|"
                                r"\bconsidering\s+your\b|\bthinkin[g']?\s+(?:about|of)\s+(?:moving|renting|applying|living)\b|"
                                r"\b(?:for|about|abt|through|with)\s+(?:leasing|renting)\b|\bright\s+number\b|"
                                r"\boficina\s+de\s+(?:renta|rentas|alquiler\w*|arrendamiento)\b")),
    ("<saw_listing>", re.compile(r"\b(?:saw|seen|vi|vimos)\s+(?:the|your|ur|a|su|la|el|tu)\s+(?:post|posting|listing|ad|sign|"
                                 r"anuncio|publicacion|letrero)\b|\b(?:marketplace|zillow|craigslist)\b")),
    # A particular home asked after, by its looks or its street, or whether it is still to be had: "calling about
    # the house with the blue door", "is the townhouse still a thing?", "¿sigue lo del dúplex?". (A tenant's
    # "the house I rent from you" is <my_home>'s or <resident>'s to outweigh.)
    ("<that_home>", re.compile(r"\b(?:calling|call|texting|writing|asking|reaching\s+out|inquiring)\s+(?:about|abt|regarding|re|on)\s+"
                               r"(?:the|that|this|your)\s+(?:(?!in\b|at\b|of\b|for\b)[\w-]+\s+){0,3}?" + _THAT_HOME + r"\b|"
                               r"\b(?:is|are)\s+(?:the|that|this|your)\s+(?:[\w-]+\s+){0,4}?" + _THAT_HOME + r"\s+(?:[\w-]+\s+){0,5}?"
                               r"still\s+(?:a\s+thing|happening|going|around|up|open|on\b|there|for\s+(?:rent|lease)|available|a\s+possibility)|"
                               r"\b" + _THAT_HOME + r"\s+(?:[\w-]+\s+){0,6}?still\s+a\s+thing\b|"
                               r"\b(?:llamo|hablo|marco|escribo|pregunto|comunico|es)\s+(?:por|sobre|acerca\s+de)\s+(?:la|el|lo\s+de\s+la|"
                               r"lo\s+del|una|un)\s+" + _ESTA_CASA + r"\b|"
                               r"\b(?:sigue|siguen(?:\s+teniendo)?|todavia\s+(?:tienen|esta|sigue|rentan|alquilan)|aun\s+(?:sigue|tienen|esta))\s+"
                               r"(?:\w+\s+){0,3}?" + _ESTA_CASA + r"\b|"
                               r"\b" + _ESTA_CASA + r"\s+(?:\w+\s+){0,6}?(?:sigue|todavia\s+esta|aun\s+esta)\b")),
    # A wrong number asking for a shop or a business: "¿es la farmacia?", "is this the hardware store?"
    ("<wrong_business>", re.compile(r"\b(?:es|hablo\s+(?:a|con)|esta\s+es|is\s+this|this\s+is|am\s+i\s+(?:texting|calling))\s+"
                                    r"(?:la|el|the|a)\s+(?:[\w']+\s+){0,2}?(?:farmacia|tienda|ferreteria|peluqueria|estetica|taller|"
                                    r"tortilleria|panaderia|pizzeria|restaurante?|consultorio|escuela|iglesia|carniceria|lavanderia|"
                                    r"pharmacy|store|shop|salon|bakery|clinic|pizzeria|pizza\s+place|church|school|dentist|"
                                    r"barber\w*|taqueria|bar|gym|gimnasio)\b")),
    # A job seeker or someone selling a service: neither is renting. ("got a job at" is a move.)
    ("<pitch>", re.compile(r"\b(?:hiring|position|empleo|contratando|resume|porter|conserje)\b|(?<!got a )\bjob\s+(?:at|opening|posting)\b|"
                           r"\b(?:porter|agent|technician|techs?|maintenance)\s+(?:job|position)s?\b|"
                           r"\b(?:busco|looking\s+for)\s+(?:trabajo|work|a\s+job)\b|"
                           r"\b(?:we|i)\s+(?:offer|sell|buy|provide|help)\b|\bour\s+(?:company|services?|app)\b|"
                           r"\b(?:ofrecemos|vendemos|compramos|somos\s+(?:una\s+empresa|de\s+la))\b|"
                           r"\bsomos\s+(?:una?\s+)?(?:empresa|compania|agencia|equipo|pintores|plomeros|electricistas|limpieza)\b|"
                           r"\b(?:earn|gane|gana)\s+\$?\d|\b(?:from|desde)\s+(?:home|casa)\b|"
                           r"\bour\s+(?:platform|website|site|software)\b|\bcotiz\w+|\bbidding\b|\bbid\s+on\b|\bofrezco\b|"
                           # a service for the landlord's own vacancies: "for your available apartments"
                           r"\b(?:for|on)\s+your\s+(?:available|vacant|empty|open)\s+(?:apartments|units)\b|"
                           r"\bpara\s+sus\s+(?:departamentos|apartamentos|unidades)\b|\bque\s+necesiten\b|"
                           r"\bthat\s+need\s+(?:carpet|paint|painting|cleaning|flooring)\b|\bdamos\s+(?:buen|mejor)\s+precio\b|\bnuestr[oa]s?\s+(?:plataforma|empresa|servicios?|app|"
                           r"aplicacion|pagina)\b|\b(?:list|publicar)\s+(?:your|sus)\b|"
                           r"\b(?:help|ayudar\w*|ayudo|ofrecer\w*)\s+(?:you\s+|a\s+|les\s+|le\s+)?(?:to\s+)?(?:rent|lease|fill|list|"
                           r"rentar|alquilar|llenar|ocupar)\b|\b(?:rentar|alquilar|llenar|ocupar|fill)\s+(?:sus|your)\s+(?:unidades|"
                           r"departamentos|apartamentos|pisos|casas|propiedades|vacant|empty|vacancies)\b|"
                           r"\b(?:realtor|broker|corredor[a]?\s+de\s+(?:propiedades|bienes)|agente\s+(?:inmobiliari\w+|de\s+bienes))\b|"
                           r"\b(?:trabajo|manejo)\s+(?:en\s+)?bienes\s+raices\b|\bvendo\b|\bal\s+mayoreo\b|\bdamos\s+servicio\b|"
                           r"\bhacemos\s+(?:pintura|limpieza|remodel\w+|mantenimiento|jardineria)\b|"
                           r"\bwe\s+do\s+(?:landscaping|painting|cleaning|roofing|plumbing)\b|\bfree\s+estimate\b|"
                           r"\bdejar(?:le)?\s+un\s+presupuesto\b|\bcomercializ\w+|\bpreventa\b|\bpre-?sale\b|\bstaging\s+company\b|"
                           r"\bwe\s+(?:install|furnish|stage)\b|\binstalamos\b|"
                           # a realtor's or investor's listing or buyers: a sale, not a home to rent
                           r"\binvestment\s+(?:property|properties|opportunit\w+)\b|\bcap\s+rate\b|\b\d+(?:\.\d+)?%\s+cap\b|"
                           r"\b(?:your|sus|tus)\s+(?:clients|buyers|investors|clientes|compradores|inversionistas)\b|"
                           r"\boff[\s-]market\b|\btenant[\s-]occupied\b|\bcurrently\s+(?:leased|rented)\b|"
                           r"\b(?:excelente|buena)\s+inversion\b|\b(?:en|a\s+la)\s+venta\s+con\s+inquilinos\b")),
    # Someone told they were approved and asked to pay: a scam, whatever leasing words it uses.
    ("<pay_demand>", re.compile(r"\b(?:send|deposit|deposite|envie|transfiera)\s+(?:a\s+|un\s+)?\$?\d{2,5}\b|"
                                r"\b(?:zelle|venmo|cash\s*app|western\s+union|gift\s+cards?|tarjetas?\s+de\s+regalo)\b|"
                                r"\b(?:was|were|been|fue)\s+(?:approved|aprobad[ao])\b|\bapproved\s+for\b")),
    ("<job>", re.compile(r"\b(?:role|vacancy|puesto|postul\w+|curricul\w*|cv|indeed|linkedin|interview\w*|entrevist\w+|"
                         r"auxiliar|recepcionista|receptionist)\b|\bvacante\s+de\b|"
                         # a student after a placement, not a home: "mis prácticas", "servicio social", "pasantía"
                         r"\bpracticas\s+(?:profesionales|laborales)\b|\bhacer\s+(?:mis|las|sus)\s+practicas\b|\bpracticantes?\b|"
                         r"\bpasant\w+|\bservicio\s+social\b|\bbecari[oa]s?\b|\binternships?\b|"
                         r"\b(?:consultant|assistant|professional|manager|agent)\s+(?:role|opening|job|vacancy|position)\b|"
                         # an opening for a title: a job, not a home
                         r"\b(?:opening|vacancy|position|vacante|puesto)\s+(?:for|de|para)\s+(?:an?\s+)?(?:\w+\s+)?"
                         r"(?:specialist|agent|consultant|coordinator|manager|assistant|asesor\w*|agente|coordinador\w*|"
                         r"gerente|auxiliar)\b|\b(?:leasing|arrendamiento|rentas)\s+(?:specialist|coordinator|coordinador\w*)\b")),
    # An owner wanting their own property leased or managed: a client, never a prospect.
    ("<owner>", re.compile(r"\b(?:i|we)\s+(?:own|have|bought|inherited)\s+(?:a|an|one|two|three|four|\d|my|our)?\s*(?:\w+\s+)?"
                           + _HOME_WORDS + r"\b|\b(?:rent|lease|list)\s+(?:it|mine|them|my\s+\w+)\s+(?:out|for)\b|"
                           r"\b(?:rent|lease)\s+(?:it|mine|them)\b|\bmanage\s+(?:my|our|a|the)\s+\w+|\bproperty\s+management\b|"
                           r"\bmanagement\s+fee\b|\bmanage\s+properties\b|\b(?:for|outside|small)\s+(?:owners|landlords)\b|"
                           r"\bi'?m\s+a\s+landlord\b|\bowner\s+(?:here|of)\b|\basking\s+rent\b|"
                           r"\btengo\s+(?:un|una|dos|tres|\d)\s+(?:casa|departamentos?|depas?|pisos?|duplex|triplex|"
                           r"propiedad\w*|cuarto\s+de\s+renta)\b|\b(?:administr\w+|gestion\w+)\s+(?:propiedades|alquileres|"
                           r"mi|una|la)\b|\b(?:soy|somos)\s+(?:el\s+|la\s+)?(?:duen|propietari)\w*|\bpara\s+(?:duenos|propietarios)\b|"
                           r"\bme\s+(?:la|lo|los|las)\s+(?:renten|alquilen|administr\w*)\b|\bponer\s+(?:a|en)\s+(?:alquil|rent)\w*|"
                           r"\bla\s+queremos\s+rentar\b|"
                           # rentals counted as one's own, or a manager to replace: an owner shopping for management
                           r"\b(?:my|our|mis|nuestr[oa]s)\s+(?:\d+|two|three|four|five|six|several|dos|tres|cuatro|cinco|seis|"
                           r"vari[oa]s)\s+(?:\w+\s+)?(?:units|rentals|properties|houses|homes|doors|unidades|casas|departamentos|"
                           r"propiedades)\b|\b(?:tengo|tenemos)\s+(?:\d+|un|una|dos|tres|cuatro|cinco|seis|vari[oa]s)\s+"
                           r"(?:casas?|departamentos?|depas?|pisos?|unidades|propiedades|apartamentos?|edificios?|duplex|ph)\s+"
                           r"(?:en\s+(?:renta|alquiler)|rentad[oa]s|alquilad[oa]s|para\s+(?:rentar|alquilar))\b|"
                           r"\bmi\s+(?:ti[oa]|mama|papa|madre|padre|herman[oa]|abuel\w+)\s+tiene\s+(?:\d+|un|una|dos|tres)\s+"
                           r"(?:casas?|departamentos?|apartamentos?|pisos?|unidades)\b|"
                           r"\b(?:management\s+compan(?:y|ies)|property\s+manager|per\s+door|fee\s+structure|administradora|"
                           r"inmobiliaria\s+actual|consiguen\s+inquilinos|find\s+(?:me\s+)?tenants|se\s+encargue\s+de\s+los\s+"
                           r"inquilinos|(?:somos\s+)?duenos\s+de\s+un)\b|"
                           # a home of one's own to let: "I've got a basement unit I wanna rent out"
                           r"\b(?:i|we)(?:'ve|\s+have)?\s+(?:own|got|bought|inherited)\s+(?:a|an|my|our)\s+(?:[\w']+\s+){0,2}"
                           r"(?:house|home|condo|duplex|rental|property|unit|basement|adu)\b|\brent\s+(?:\w+\s+)?out\b|"
                           r"\bfind\s+(?:me\s+)?renters\b|\bother\s+people'?s\s+(?:places|homes|units)\b|"
                           # a home of one's own let on one's behalf: "rentar mi casa", "¿me lo alquilan?", "por mí",
                           # a tenant found for it, the rent it could ask
                           r"\b(?:rentar|alquilar|arrendar)\s+(?:mi|nuestr[oa])\s+(?:casa|casita|piso|depa\w*|dpto|departamento|"
                           r"apartamento|cuarto|local|propiedad|condominio)\b|\b(?:me|nos)\s+(?:l[oa]s?)\s+(?:rent|alquil|arrend)\w+|"
                           r"\b(?:rent|alquil|arrend|administr)\w*\s+por\s+(?:mi|nosotros)\b|\bponer\s+(?:el|la)\s+mi[oa]\s+en\b|"
                           r"\b(?:buscan|buscar|buscarme|conseguir|consiguen|consigan|encontrar|encuentren|conseguirme)\s+(?:a\s+)?"
                           r"(?:un\s+|una\s+|al\s+|el\s+|la\s+)?(?:nuev[oa]\s+)?inquilin[oa]s?\b|"
                           r"\bcuanto\s+(?:podria|puedo|deberia|se\s+puede|le\s+puedo)\s+(?:pedir|cobrar)\b|\bposeo\b|"
                           r"\bsoy\s+(?:arrendador|arrendadora|casero|casera)\b|"
                           r"\ben\s+cuanto\s+(?:se\s+|lo\s+|la\s+)?(?:podria|puedo|podemos|podriamos)\s+(?:rentar|alquilar|arrendar)\w*|"
                           r"\bcuanto\s+(?:me|nos)\s+(?:darian|pagarian|dan|pagan)\s+(?:de\s+renta|por)\b|"
                           r"\bwhat\s+(?:would|could)\s+(?:it|mine|my\s+\w+)\s+(?:rent|go)\s+for\b|"
                           r"\bhow\s+much\s+(?:could|can|should)\s+(?:i|we)\s+(?:charge|ask|get)\b")),
    # A search that is over: found elsewhere, signed elsewhere, stop writing.
    ("<search_over>", re.compile(r"\b(?:no\s+longer|not)\s+looking\b|\bnot\s+interested\b|\balready\s+(?:found|signed|rented)\b|"
                                 r"\bstop\s+(?:texting|messaging|calling)\b|\btake\s+me\s+off\b|\bsigned\s+(?:a\s+lease\s+)?elsewhere\b|"
                                 r"\bya\s+no\s+(?:estoy|estamos|ando)\s+buscando\b|\bya\s+(?:encontre|encontramos|rentamos|firme)\b|"
                                 r"\bya\s+no\s+(?:me|nos)\s+(?:escriban|llamen)\b|\bborren(?:me|nos)\b|\bfirme\s+en\s+otro\b|"
                                 r"\bno\s+(?:me|nos)\s+interesa\b")),
    # Someone telling the reader about the reader's own search: a friend or relative, not a prospect.
    ("<your_search>", re.compile(r"\b(?:you'?re|you\s+are|u\s+r|ur|you|u)\s+(?:still\s+)?(?:apartment\s+hunting|looking\s+"
                                 r"(?:for|to)\s+(?:a|rent|move)|trying\s+to\s+(?:move|find))|\bdid\s+(?:you|u)\s+(?:ever\s+)?find\b|"
                                 r"\b(?:andas|estas|sigues)\s+buscando\b|\bya\s+encontraste\b|\bte\s+quieres\s+mudar\b|"
                                 r"\b(?:you|u)\s+need\s+to\s+see\b|\b(?:you|u)\s+and\s+\w+\s+are\s+looking\b|"
                                 r"\bque\s+me\s+dijiste\b|\byou\s+told\s+me\b|\b(?:i|we)\s+sent\s+(?:you|u)\b|\bte\s+mande\b|"
                                 r"\bya\s+viste\b|\bdid\s+(?:you|u)\s+see\s+the\b")),
)
