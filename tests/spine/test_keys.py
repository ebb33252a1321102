"""The gateway's once-markers and delivery keys are stored strings: existing markers and outbox
rows were written under exactly these, so a layout that drifts would run a second turn, resend a
reply or accept a replayed webhook."""
from __future__ import annotations

import spine.keys as keys


def test_once_markers_keep_their_stored_layout():
    assert keys.voice_stream_marker("CA1") == "voice-stream#CA1"
    assert keys.elevenlabs_webhook_marker("ab12") == "elevenlabs-webhook#ab12"
    assert keys.inbound_abandoned_marker("SM1") == "inbound-abandoned#SM1"
    assert keys.sms_deferred_marker("SM1") == "sms-deferred#SM1"
    assert keys.twilio_status_marker("tok") == "twilio-idem#tok"
    assert keys.mailgun_token_marker("tok") == "mailgun-token#tok"
    assert keys.once(keys.sms_deferred_marker("SM1")) == "ONCE#sms-deferred#SM1"


def test_delivery_keys_keep_their_stored_layout():
    assert keys.reply_delivery("email:a@example.com") == "email:a@example.com-reply"
    assert keys.apology_delivery("SM1") == "abandoned-SM1"


def test_import_record_keys_keep_their_stored_layout():
    """A second import finds the first one's rows under exactly these (else it would create them again)."""
    assert keys.import_rows("pms", "people", 3) == "IMPORT#pms#people#03"
    assert keys.import_row("T-1") == "ROW#T-1"
    assert keys.claim("phone", "+12065551001") == "CLAIM#phone#+12065551001"
