"""Helpers shared by CLI subcommands."""
from __future__ import annotations

from gateway.settings import Settings
from spine.repo import Spine
from spine.store import open_store


def open_spine(settings: Settings | None = None) -> Spine:
    settings = settings or Settings.from_env()
    return Spine(open_store(settings.store_url))
