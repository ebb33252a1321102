"""gateway.errors documents the gateway's exception tree: every exception the layer defines is
named there with its home (tests/test_public_api.py checks that each derives from GatewayError)."""
from __future__ import annotations

import importlib
import inspect
import pkgutil

import gateway
from gateway.errors import GatewayError, MalformedInput, ProviderError


def test_the_documented_tree_names_every_exception():
    tree = importlib.import_module("gateway.errors").__doc__ or ""
    missing = []
    for info in pkgutil.walk_packages(gateway.__path__, "gateway."):
        module = importlib.import_module(info.name)
        missing += [f"{name} ({module.__name__})" for name, cls in inspect.getmembers(module, inspect.isclass)
                    if issubclass(cls, GatewayError) and cls.__module__ == module.__name__
                    and cls is not GatewayError and f" {name} " not in tree]
    assert missing == []


def test_malformed_input_stays_a_value_error_and_providers_carry_their_status():
    from gateway.email.mailgun import MailgunError
    from gateway.sms.inbound import MalformedWebhook

    assert issubclass(MalformedWebhook, MalformedInput) and issubclass(MalformedWebhook, ValueError)
    assert issubclass(MailgunError, ProviderError) and MailgunError("refused", status=401).status == 401
