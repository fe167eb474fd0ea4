#!/usr/bin/env python3
"""Bandwidth-limited TCP forwarder: a model of slow network links on loopback.

    throttle-proxy.py --rate 20M --listen 127.0.0.1:0 --to 127.0.0.1:22 \
                                 [--listen HOST:PORT --to HOST:PORT ...] [--shared]

Every --listen/--to pair is one link. A link is full duplex: each direction has its
own token bucket of RATE bytes/s (K, M, G: powers of 1000; Ki, Mi, Gi: of 1024), shared
by all connections of the link, first come first served. With --shared every link
draws from ONE pair of buckets: several remotes behind a single link of RATE.

On start, one line per link on standard output (port 0 is replaced by the port picked):
    link 0 127.0.0.1:41234 -> 127.0.0.1:22
On SIGTERM or SIGINT it stops listening, drops open connections and prints a summary
to standard error: per link its connections and bytes each way, and for how many
--tick intervals (with any traffic) 0, 1, 2, ... links were busy at once, i.e. carried
more than a tenth of RATE (both ways together): how far the links were used in
parallel. --trace also prints every such interval's MB/s per link as it goes.
Python 3.8+, standard library only.
"""
import argparse
import asyncio
import re
import signal
import sys

CHUNK = 64 * 1024


def parse_rate(text):
    m = re.fullmatch(r"([0-9]+(?:\.[0-9]*)?)\s*([kKmMgG]i?)?B?", text)
    if not m:
        raise argparse.ArgumentTypeError(f"bad rate {text!r} (e.g. 20M, 512Ki)")
    unit = (m.group(2) or "").lower()
    base = 1024 if unit.endswith("i") else 1000
    return float(m.group(1)) * base ** " kmg".index((unit[:1] or " "))


def parse_addr(text):
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit():
        raise argparse.ArgumentTypeError(f"bad address {text!r} (HOST:PORT)")
    return host, int(port)


class Bucket:
    """Token bucket that goes into debt: a sender takes its bytes, then waits until the
    debt is paid. The lock makes waiting senders queue in arrival order."""

    def __init__(self, rate):
        self.rate, self.burst = rate, max(16384.0, rate / 50)  # burst: 20 ms of traffic
        self.tokens, self.stamp = self.burst, None
        self.lock = asyncio.Lock()

    async def take(self, n):
        async with self.lock:
            now = asyncio.get_running_loop().time()
            if self.stamp is not None:
                self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
            self.stamp = now
            self.tokens -= n
            if self.tokens < 0:
                await asyncio.sleep(-self.tokens / self.rate)


class Link:
    def __init__(self, index, listen, to, buckets):
        self.index, self.listen, self.to = index, listen, to
        self.up, self.down = buckets  # up: client -> server, down: server -> client
        self.bytes = {"up": 0, "down": 0}
        self.connections = 0
        self.tick_bytes = 0


async def pipe(reader, writer, bucket, link, way):
    try:
        while data := await reader.read(CHUNK):
            await bucket.take(len(data))
            writer.write(data)
            link.bytes[way] += len(data)
            link.tick_bytes += len(data)
            await writer.drain()
        if writer.can_write_eof():
            writer.write_eof()  # pass the half-close on
    except (ConnectionError, OSError):
        writer.transport.abort()


async def handle(link, client_r, client_w):
    link.connections += 1
    try:
        server_r, server_w = await asyncio.open_connection(*link.to)
    except OSError as e:
        print(f"link {link.index}: cannot connect to {link.to}: {e}", file=sys.stderr)
        client_w.close()
        return
    try:
        await asyncio.gather(pipe(client_r, server_w, link.up, link, "up"),
                             pipe(server_r, client_w, link.down, link, "down"))
    finally:
        for w in (client_w, server_w):
            w.close()


async def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--listen", action="append", type=parse_addr, required=True)
    ap.add_argument("--to", action="append", type=parse_addr, required=True)
    ap.add_argument("--rate", type=parse_rate, required=True, help="bytes/s per direction")
    ap.add_argument("--shared", action="store_true", help="all links share one pair of buckets")
    ap.add_argument("--tick", type=float, default=0.25, help="seconds per busy sample")
    ap.add_argument("--trace", action="store_true", help="print MB/s per link every tick")
    args = ap.parse_args()
    if len(args.listen) != len(args.to):
        ap.error("give one --to for every --listen")

    shared = (Bucket(args.rate), Bucket(args.rate))
    links, servers, tasks = [], [], set()
    for i, (listen, to) in enumerate(zip(args.listen, args.to)):
        link = Link(i, listen, to, shared if args.shared else (Bucket(args.rate), Bucket(args.rate)))

        async def serve(r, w, link=link):
            tasks.add(asyncio.current_task())
            try:
                await handle(link, r, w)
            except asyncio.CancelledError:
                pass  # shutting down
            finally:
                tasks.discard(asyncio.current_task())

        server = await asyncio.start_server(serve, *listen, backlog=512)
        port = server.sockets[0].getsockname()[1]
        print(f"link {i} {listen[0]}:{port} -> {to[0]}:{to[1]}", flush=True)
        links.append(link)
        servers.append(server)

    stop, loop = asyncio.Event(), asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    start = last = loop.time()
    busy = [0] * (len(links) + 1)  # busy[k]: ticks with k links busy
    while not stop.is_set():
        try:
            await asyncio.wait_for(stop.wait(), args.tick)
        except asyncio.TimeoutError:
            pass
        now, dt = loop.time(), loop.time() - last
        last = now
        if any(link.tick_bytes for link in links):
            if args.trace:
                rates = " ".join(f"{link.tick_bytes / dt / 1e6:5.1f}" for link in links)
                print(f"{now - start:7.2f} s  MB/s per link: {rates}", file=sys.stderr)
            busy[sum(link.tick_bytes > args.rate * dt / 10 for link in links)] += 1
        for link in links:
            link.tick_bytes = 0

    for server in servers:
        server.close()
    for t in list(tasks):
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    mode = "one shared bucket" if args.shared else "a bucket per link"
    print(f"throttle-proxy: {args.rate / 1e6:g} MB/s per direction, {mode}", file=sys.stderr)
    for link in links:
        print(f"  link {link.index} -> {link.to[0]}:{link.to[1]}: {link.connections} connections, "
              f"{link.bytes['down']} bytes down, {link.bytes['up']} bytes up", file=sys.stderr)
    print(f"  {args.tick:g} s ticks with traffic, by links busy at once: "
          + ", ".join(f"{k}: {n}" for k, n in enumerate(busy)), file=sys.stderr)


if __name__ == "__main__":
    asyncio.run(main())
