"""Prompt-cache share across a replay of 200 interactions over the demo people.

Runs the real turn path (route -> assemble_prompt -> AnthropicBackend over the real SDK) against
the local Messages API stand-in, which computes cache reads from byte-equality of the prefix up to
the breakpoint, as the real API does. Prints the share of input tokens read from cache; the ADR's
acceptance figure is at least 80%.

    .venv/bin/python bench/cache.py [--interactions 200]
"""
from __future__ import annotations

import argparse
import asyncio
import itertools
import logging
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from actors.dispatcher.dispatcher import Dispatcher
from actors.model.anthropic_backend import AnthropicBackend
from actors.protocol.turn import TurnDeps
from actors.turn.interaction import run_interaction
from desk.portfolio.demo import seed
from spine.context import Channel
from spine.envelope import MessageEnvelope
from spine.records import Usage
from spine.repo import Spine
from spine.store.sqlite import SqliteStore
from tests.support.anthropic_server import AnthropicStandIn

# (phone, property number, property id, message): the demo people and the ADR's flows.
TRAFFIC = [
    ("+12065551001", "+12065550100", "pf_yale", "my toilet is overflowing!"),
    ("+12065551002", "+12065550100", "pf_yale", "the dishwasher is leaking again"),
    ("+12065551003", "+12065550100", "pf_yale", "what's the balance on unit 204?"),
    ("+13035551500", "+12065550100", "pf_yale", "I'm 10 min out from WO-7"),
    ("+13035552020", "+12065550100", "pf_yale", "check on WO-42"),
    ("+13035552020", "+13035550200", "pf_capitol", "on my way to WO-51"),
    ("+12065550150", "+12065550100", "pf_yale", "list the open work orders"),
    ("+12065550151", "+12065550100", "pf_yale", "who is in unit 204?"),
    ("+12065550152", "+12065550100", "pf_yale", "send the renewal for 110"),
    ("+14155559876", "+12065550100", "pf_yale", "do you have 2BR units next month?"),
    ("+13105557777", "+12065550100", "pf_yale", "yo what's up Trevor"),
    ("+12065551088", "+12065550100", "pf_yale", "is the pool open?"),
]


async def replay(n: int) -> tuple[Usage, dict[str, Usage]]:
    with tempfile.TemporaryDirectory() as tmp, AnthropicStandIn(api_key="sk-bench") as server:
        spine = Spine(SqliteStore(Path(tmp) / "bench.db"))
        await seed(spine)
        backend = AnthropicBackend(api_key="sk-bench", base_url=server.url, timeout_s=5.0, max_retries=0)
        deps = TurnDeps(spine=spine, model=backend, tools=Dispatcher(spine))
        total, by_role = Usage(), defaultdict(Usage)
        for i, (phone, to, prop, body) in zip(range(n), itertools.cycle(TRAFFIC)):
            env = MessageEnvelope(message_id=f"SMbench{i}", interaction_id=f"ix_bench_{i}", channel=Channel.SMS,
                                  from_address=phone, to_address=to, body=body, property_id=prop)
            result = await run_interaction(deps, env)
            total = total + result.trace.usage
            key = "+".join(sorted(result.trace.routing.roles))
            by_role[key] = by_role[key] + result.trace.usage
        await backend.aclose()
        await spine.store.close()
        return total, by_role


def share(u: Usage) -> float:
    all_input = u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens
    return u.cache_read_input_tokens / all_input if all_input else 0.0


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--interactions", type=int, default=200)
    args = parser.parse_args()
    logging.getLogger("clara").addHandler(logging.NullHandler())  # events are not the point here
    total, by_role = asyncio.run(replay(args.interactions))
    print(f"interactions: {args.interactions}")
    print(f"input tokens: uncached {total.input_tokens}, cache writes {total.cache_creation_input_tokens}, "
          f"cache reads {total.cache_read_input_tokens}")
    for role, usage in sorted(by_role.items()):
        print(f"  {role:<16} cache share {share(usage):6.1%}")
    print(f"cache share of input tokens: {share(total):.1%} (ADR acceptance: >= 80%)")
    return 0 if share(total) >= 0.80 else 1


if __name__ == "__main__":
    sys.exit(main())
