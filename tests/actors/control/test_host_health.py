"""When the HostReconciler gives up on a host (actors.control.host_health.lost_because), without Ray: a
host whose node Ray declared dead is lost at once, even while Ray says it is restarting it."""
from __future__ import annotations

import pytest
from ray.exceptions import ActorDiedError

from actors.config import RuntimeConfig
from actors.control.host_health import RESTART_GRACE_S, lost_because

CONFIG = RuntimeConfig(host_dead_after_s=3.0)
TIMEOUT = TimeoutError()


def test_a_host_whose_node_died_is_lost_at_once_though_ray_is_restarting_it():
    assert lost_because(CONFIG, TIMEOUT, "RESTARTING", node_lost=True, silent_s=0.5) == "Ray declared its node dead"


def test_a_dead_process_is_lost_at_once():
    assert lost_because(CONFIG, ActorDiedError(), "ALIVE", node_lost=False, silent_s=0.0) == "its process died"
    assert lost_because(CONFIG, TIMEOUT, "DEAD", node_lost=False, silent_s=0.0) == "its process died"


@pytest.mark.parametrize("silent_s, lost", [(2.9, False), (3.0, True)])
def test_a_silent_host_on_a_live_node_is_lost_after_host_dead_after_s(silent_s, lost):
    assert (lost_because(CONFIG, TIMEOUT, "ALIVE", node_lost=False, silent_s=silent_s) is not None) is lost


def test_ray_restarting_a_crashed_process_on_its_live_node_gets_the_grace():
    assert lost_because(CONFIG, TIMEOUT, "RESTARTING", node_lost=False, silent_s=3.5) is None
    assert lost_because(CONFIG, TIMEOUT, "RESTARTING", node_lost=False, silent_s=3.0 + RESTART_GRACE_S) is not None
