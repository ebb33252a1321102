"""Every exception the gateway layer defines derives from GatewayError, so a caller can catch
the layer with one except (gateway.errors documents the tree)."""
from __future__ import annotations

import importlib
import inspect
import pkgutil

import gateway
from gateway.errors import GatewayError, MalformedInput, ProviderError


def _gateway_modules():
    for info in pkgutil.walk_packages(gateway.__path__, "gateway."):
        yield importlib.import_module(info.name)


def test_every_gateway_exception_is_a_gateway_error():
    defined = {cls for module in _gateway_modules() for _, cls in inspect.getmembers(module, inspect.isclass)
               if issubclass(cls, BaseException) and cls.__module__ == module.__name__}
    assert len(defined) > 15  # the walk found the layer's exceptions
    assert sorted(cls.__qualname__ for cls in defined if not issubclass(cls, GatewayError)) == []


def test_the_documented_tree_names_every_exception_and_its_home():
    tree = importlib.import_module("gateway.errors").__doc__
    for module in _gateway_modules():
        for name, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, GatewayError) and cls.__module__ == module.__name__ and cls is not GatewayError:
                assert f" {name} " in tree, f"{name} ({module.__name__}) is not in gateway.errors' tree"


def test_malformed_input_stays_a_value_error_and_providers_carry_their_status():
    from gateway.email.mailgun import MailgunError
    from gateway.sms.inbound import MalformedWebhook

    assert issubclass(MalformedWebhook, MalformedInput) and issubclass(MalformedWebhook, ValueError)
    assert issubclass(MailgunError, ProviderError) and MailgunError("refused", status=401).status == 401
