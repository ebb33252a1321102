"""Issue 28 item 19: prospects in phrasing no one tuned for. The unseen held-out sets
(tests/data/intent_unseen_heldout*.jsonl) are frozen: each was written before the training round it
measured and scored once. Sets 1-8 are spent (their errors studied) and now fitted on
(spine.intent.model.training_rows); they stay frozen and apart from the labelled set so that
`bench/intent.py --loso` (fit without one, score it) keeps meaning something. Set 9 is the blind
set of round 5: pinned here, and read here only to check it is frozen and apart.
The four kinds the weights before it missed (a leasing question that names no unit, price or
availability) are prospects now, and tenants asking about their own lease are still not. An
emergency happening now never mints a prospect; a fire or flood told as past that displaced the
sender does not veto."""
from __future__ import annotations

import hashlib

import pytest

from spine.intent.hints import regex_hints
from spine.intent.model import (
    DATA,
    UNSEEN_HELDOUT,
    UNSEEN_HELDOUT_2,
    UNSEEN_HELDOUT_3,
    UNSEEN_HELDOUT_4,
    UNSEEN_HELDOUT_5,
    UNSEEN_HELDOUT_6,
    UNSEEN_HELDOUT_7,
    UNSEEN_HELDOUT_8,
    UNSEEN_HELDOUT_9,
    load_rows,
)

# Changing an unseen held-out set means it is no longer unseen: write a new one instead.
FROZEN = {
    UNSEEN_HELDOUT: "5125b6d65238f9210b5788df860875679e361b50348bf2de2fae72e6d1e8db6e",
    UNSEEN_HELDOUT_2: "33a5da51686dc3efb738652a66d19cd421356413a809529daffa38313217af1f",
    UNSEEN_HELDOUT_3: "1db2c2abab24ea7d8f3a4f0cd76ef64665c8f4d2fbc231a7f1280616a59fd385",
    UNSEEN_HELDOUT_4: "4a993c2e3bac2b2b0f2b2b36c4c84a17351b580c0f7e1d5fba427ee338bf0767",
    UNSEEN_HELDOUT_5: "f8e975f74187708f313fac7da97dec3b1630c4ec4b37afafa5f2de603c4eaa55",
    UNSEEN_HELDOUT_6: "4ab05a2e5416040ad0f67af34ac911c5bae13be591523acd20df0fdda01d5203",
    UNSEEN_HELDOUT_7: "42d4b72db1d0f4c0481394e537728d48cb11e192e7a337e52687b629d3ed4b98",
    UNSEEN_HELDOUT_8: "08f975671584787ff9101df672d7719f26c3f7dbf5e70aa944dbe272e3ec6daa",
    UNSEEN_HELDOUT_9: "722a625acdb30a7719a85150fd864947d5d30c1abcd5157a6dded78d48a2c292",
}


def test_the_unseen_held_out_sets_are_frozen_and_apart_from_the_training_data():
    seen = {r["text"].lower() for r in load_rows(DATA)}
    for path, sha256 in FROZEN.items():
        assert hashlib.sha256(path.read_bytes()).hexdigest() == sha256, path.name
        unseen = load_rows(path)
        assert {r["language"] for r in unseen} == {"en", "es"} and len({r["split"] for r in unseen}) == 1
        texts = {r["text"].lower() for r in unseen}
        assert len(texts) == len(unseen) and not texts & seen, path.name  # in no other set either
        seen |= texts
    assert sum(r["label"] == "prospect" for path in FROZEN for r in load_rows(path)) >= 150


@pytest.mark.parametrize("message", [
    "Hello! My girlfriend and I are searching for our first apartment together, we can spend about $1,650 a month",
    "Hi, I'd like some info on leasing at your building",
    "how long are your leases?",
    "I'm planning to stop by the leasing office on Thursday to ask about units",
    "Hola, mi esposo y yo buscamos nuestro primer departamento juntos, tenemos unos 1,500 al mes",
    "we have to be out of our current rental by June, got anything for two adults?",
])
def test_leasing_questions_that_name_no_unit_price_or_availability_are_prospects(message):
    assert regex_hints(message).fires


@pytest.mark.parametrize("message", [
    "I live in 2D and want to renew my lease, what are my options?",
    "How long is my current lease? I moved into 318 last spring",
    "The shower in my apartment won't drain, unit 114",
    "what's up Trevor, u still coming by the leasing office later?",
    # Speaking of the unit beside theirs, a relative's home, or a home they just moved into.
    "the apartment below mine has been empty a while, is it for rent? my coworker wants to know",
    "my sister's apartment has had no heat since Monday, she asked me to text you",
    "just moved in and my mailbox key doesn't work",
    "el departamento de enfrente está vacío, ¿lo van a rentar? es para mi cuñado",
])
def test_a_tenant_or_a_friend_is_not_minted_a_prospect(message):
    assert not regex_hints(message).fires


@pytest.mark.parametrize("message", [
    # An owner wanting a property of theirs leased or managed, a job seeker naming a leasing role,
    # a friend speaking of the reader's own search, a resident on an applicant's words.
    "I've got a condo a few streets over that I want rented out, do you take on owners?",
    "tengo dos casas cerca y busco quien me las administre, ¿cobran mucho?",
    "Hi, is the leasing consultant role from your LinkedIn post still open? I'd love to interview",
    "Buenas, vi la vacante de asesor de arrendamiento, les mando mi currículum",
    "bro did u ever find an apartment? my building has a studio",
    "is there a waitlist for the garage spots? I'm in 1402",
    # A scam telling the reader they were approved and must pay: leasing words, no seeker.
    "felicidades, su solicitud fue aprobada, mande 150 dólares por Zelle para apartar el departamento",
    "¿sigue abierta la vacante para coordinador de rentas? tengo experiencia",
])
def test_owners_job_seekers_friends_and_residents_on_leasing_words_are_not_minted(message):
    assert not regex_hints(message).fires


@pytest.mark.parametrize("message", [
    "do you accept guarantors? I'm a grad student with no rental history",
    "what's needed to get approved there, my credit is fair",
    "¿aceptan fiador? es la primera vez que rento",
    "just got a new job nearby and need a place, what do you have?",
])
def test_an_applicants_questions_are_prospects(message):
    assert regex_hints(message).fires


@pytest.mark.parametrize("message", [
    # A fire, flood or smoke happening now never mints a prospect, whatever else the message asks.
    "there's smoke in the hallway",
    "there's smoke in the hallway, do you have any 2 bedrooms available?",
    "hay humo en el pasillo, ¿tienen departamentos?",
    "our apartment is flooding, we need a new place to rent",
    "fire in our building, need a place tonight",
    "we lost our home in a fire last night, need a 2br",
    "perdimos la casa en el incendio de hoy, necesitamos algo para rentar",
    "our house flooded and water is still coming in, need a rental",
    # a past disaster beside one happening now: the one now vetoes
    "our apartment flooded last month and water is pouring through the ceiling again, need a new place",
    "after the fire last week there is smoke in the stairwell, I want to move, what do you have",
    "after the fire in March I smell gas in my unit, do you have a place to rent",
    "se nos inundó la casa hace un mes y ahorita otra vez entra agua por el techo, buscamos renta",
])
def test_an_emergency_happening_now_is_never_minted(message):
    hints = regex_hints(message)
    assert hints.vetoed_by and not hints.fires


@pytest.mark.parametrize("message", [
    # A fire or flood weeks or more back (or told from after it) that put the sender out of a home.
    "our house flooded last month and we need a 3 bedroom to rent",
    "We lost our home in a fire in March and we're looking for a 2 bedroom rental for the four of us",
    "Se nos inundó la casa el mes pasado y buscamos una casa de 3 recámaras para rentar",
    "Después del incendio del año pasado seguimos con mi suegra, buscamos departamento para rentar",
    "We're staying with relatives after a house fire and need a 3 bedroom to rent, what do you have?",
])
def test_a_past_fire_or_flood_that_displaced_the_sender_may_be_a_prospect(message):
    hints = regex_hints(message)
    assert not hints.vetoed_by and hints.fires


@pytest.mark.parametrize("message", [
    # A tenant speaking of a past flood or fire in their own unit: no veto, and no prospect either.
    "I'm in 12C, our unit flooded last month and the floors are still warped, when is the repair?",
    "Por el incendio del mes pasado en el edificio B, ¿nos van a descontar la renta? vivo en el B-3",
])
def test_a_tenant_on_a_past_fire_or_flood_is_not_minted(message):
    assert not regex_hints(message).fires
