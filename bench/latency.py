"""A TCP proxy that delays everything it forwards: the database on another host, on loopback.

``bench.load --db-delay-ms N`` puts it between the app server and PostgreSQL, so every
round trip from the app to the database takes ``2 × N`` ms more (N each way) — what a
database on another machine of the same network (0.2–1 ms) or in another building costs.
Bytes keep their order and are not slowed down in bulk: each chunk is sent on ``N`` ms
after it arrived, so a burst costs N once, as on a real link.
"""

import asyncio
import contextlib
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

HOST = "127.0.0.1"


async def _pump(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, delay: float) -> None:
    queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

    async def forward() -> None:
        while True:
            due, chunk = await queue.get()
            if not chunk:
                break
            await asyncio.sleep(max(0.0, due - time.monotonic()))
            writer.write(chunk)
            await writer.drain()
        writer.close()

    sender = asyncio.create_task(forward())
    try:
        while chunk := await reader.read(65536):
            queue.put_nowait((time.monotonic() + delay, chunk))
    except (ConnectionError, OSError):
        pass
    queue.put_nowait((0.0, b""))
    with contextlib.suppress(ConnectionError, OSError):
        await sender


@contextmanager
def delayed(target_host: str, target_port: int, delay_ms: float) -> Iterator[int]:
    """A proxy to ``target_host:target_port`` on loopback, in a thread; its port."""
    delay = delay_ms / 1000
    started = threading.Event()
    state: dict[str, object] = {}

    async def handle(client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        try:
            server_r, server_w = await asyncio.open_connection(target_host, target_port)
        except OSError:
            client_w.close()
            return
        await asyncio.gather(_pump(client_r, server_w, delay), _pump(server_r, client_w, delay))

    async def main() -> None:
        server = await asyncio.start_server(handle, HOST, 0)
        state["port"] = server.sockets[0].getsockname()[1]
        state["stop"] = stop = asyncio.Event()
        state["loop"] = asyncio.get_running_loop()
        started.set()
        async with server:
            await stop.wait()

    thread = threading.Thread(target=asyncio.run, args=(main(),), daemon=True)
    thread.start()
    started.wait(10)
    try:
        yield int(state["port"])  # type: ignore[call-overload]
    finally:
        loop: asyncio.AbstractEventLoop = state["loop"]  # type: ignore[assignment]
        stop: asyncio.Event = state["stop"]  # type: ignore[assignment]
        loop.call_soon_threadsafe(stop.set)
        thread.join(10)
