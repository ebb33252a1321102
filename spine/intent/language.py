"""Which language a message is written in, English or Spanish: Clara answers in the caller's.

A word count, not a model: Spanish function words and accents against English ones. Short or
mixed messages fall back to the language of the conversation so far (`default`).
"""
from __future__ import annotations

import re
from typing import Literal

Language = Literal["en", "es"]

_WORD = re.compile(r"[a-záéíóúñü']+", re.IGNORECASE)
_SPANISH = frozenset(
    "el la los las un una unos unas de del que qué y en es está están estoy hay por para con sin mi mis su sus "
    "tengo tiene tienen quiero quisiera necesito puedo puede se me le lo nos usted ustedes hola buenas buenos "
    "días tardes noches gracias favor cuándo cuánto cuánta cuántos dónde cómo cuál busco buscando departamento "
    "apartamento recámara recámaras habitación habitaciones cuarto cuartos renta rentar alquiler alquilar "
    "disponible disponibles mes próximo semana mañana sí ya pero también muy más agua baño cocina fuga "
    "llego llegando minutos ahorita orden trabajo inquilino dueño vivo mudarme mudanza visita ver".split())
_ENGLISH = frozenset(
    "the a an of and is are am i you we they it this that to for with in on my your do does have has can could "
    "would will what when where how which hi hello thanks please any there here be was not no yes just "
    "looking need want unit apartment rent available".split())


def detect_language(text: str, default: Language = "en") -> Language:
    """The language the words lean to, else `default`."""
    return language_of(text) or default


def language_of(text: str) -> Language | None:
    """The language the words lean to, or None when they do not lean (short or mixed)."""
    text = text or ""
    words = _WORD.findall(text.lower())
    # str.count, not a loop over characters: the offline model asks this of the whole
    # conversation so far.
    spanish = sum(w in _SPANISH for w in words) + 2 * sum(map(text.count, "ñ¿¡")) + sum(map(text.count, "áéíóú"))
    english = sum(w in _ENGLISH for w in words)
    if spanish == english:
        return None
    return "es" if spanish > english else "en"
