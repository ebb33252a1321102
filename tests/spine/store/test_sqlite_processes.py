"""Several OS processes on one SQLite file (Serve replicas, PersonActor hosts): no lost updates."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap

from spine.repo import Spine
from spine.store.sqlite import SqliteStore

INCREMENTS = 50

WORKER = textwrap.dedent("""
    import asyncio, json, sys
    from spine.repo import Spine
    from spine.store.sqlite import SqliteStore

    async def main(path, n):
        spine = Spine(SqliteStore(path, timeout_s=10))
        await spine.store.get("SEQ#counter")  # connection open and warm before the race
        sys.stdin.readline()  # start together: both processes wait for the go signal
        values = [await spine.next_sequence("counter") for _ in range(n)]
        await spine.store.close()
        print(json.dumps(values))

    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
""")


async def test_two_processes_incrementing_one_counter_lose_nothing(tmp_path):
    path = tmp_path / "shared.db"
    SqliteStore(path)  # create the schema before the race, as `gateway seed` would
    procs = [
        subprocess.Popen([sys.executable, "-c", WORKER, str(path), str(INCREMENTS)],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    for p in procs:  # both are up and waiting; release them at once
        p.stdin.write("go\n")
        p.stdin.flush()
    outputs = [p.communicate(timeout=60) for p in procs]
    assert all(p.returncode == 0 for p in procs), [err for _, err in outputs]
    seen = [json.loads(out) for out, _ in outputs]
    assert sorted(seen[0] + seen[1]) == list(range(1, 2 * INCREMENTS + 1))  # each value handed out once

    store = SqliteStore(path)
    assert (await store.get("SEQ#counter")).data == {"value": 2 * INCREMENTS}
    assert await Spine(store).next_sequence("counter") == 2 * INCREMENTS + 1
    await store.close()
