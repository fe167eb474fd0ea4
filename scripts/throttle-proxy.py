#!/usr/bin/env python3
"""Bandwidth-limited, delaying TCP forwarder: a model of slow or distant network links
on loopback.

    throttle-proxy.py [--rate 20M] [--delay 30ms] --listen 127.0.0.1:0 --to 127.0.0.1:22 \
                                 [--listen HOST:PORT --to HOST:PORT ...] [--shared]

Every --listen/--to pair is one link. A link is full duplex: each direction has its
own token bucket of RATE bytes/s (K, M, G: powers of 1000; Ki, Mi, Gi: of 1024), shared
by all connections of the link, first come first served. With --shared every link
draws from ONE pair of buckets: several remotes behind a single link of RATE. Without
--rate the links are not limited. --delay D adds a round-trip time of D (ms or s;
half of it each way) to every connection: each chunk is passed on D/2 after it
arrived, and the next is read meanwhile, so the delay costs round trips, not
bandwidth, as a long link does.

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
    def __init__(self, index, listen, to, buckets, one_way):
        self.index, self.listen, self.to, self.one_way = index, listen, to, one_way
        self.up, self.down = buckets  # up: client -> server, down: server -> client
        self.bytes = {"up": 0, "down": 0}
        self.connections = 0
        self.tick_bytes = 0


def parse_delay(text):
    m = re.fullmatch(r"([0-9]+(?:\.[0-9]*)?)\s*(ms|s)", text)
    if not m:
        raise argparse.ArgumentTypeError(f"bad delay {text!r} (e.g. 30ms, 0.1s)")
    return float(m.group(1)) / (1000 if m.group(2) == "ms" else 1)


async def pipe(reader, writer, bucket, link, way, one_way):
    if one_way > 0:
        return await delayed_pipe(reader, writer, bucket, link, way, one_way)
    try:
        while data := await reader.read(CHUNK):
            if bucket:
                await bucket.take(len(data))
            writer.write(data)
            link.bytes[way] += len(data)
            link.tick_bytes += len(data)
            await writer.drain()
        if writer.can_write_eof():
            writer.write_eof()  # pass the half-close on
    except (ConnectionError, OSError):
        writer.transport.abort()


async def delayed_pipe(reader, writer, bucket, link, way, one_way):
    """pipe() with every chunk passed on `one_way` seconds after it was read; reading
    goes on meanwhile (at most 256 chunks in flight)."""
    loop = asyncio.get_running_loop()
    queue = asyncio.Queue(maxsize=256)

    async def read():
        try:
            while data := await reader.read(CHUNK):
                if bucket:
                    await bucket.take(len(data))
                await queue.put((loop.time() + one_way, data))
        except (ConnectionError, OSError):
            pass
        await queue.put((loop.time() + one_way, None))

    reading = asyncio.ensure_future(read())
    try:
        while True:
            due, data = await queue.get()
            wait = due - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            if data is None:
                if writer.can_write_eof():
                    writer.write_eof()
                break
            writer.write(data)
            link.bytes[way] += len(data)
            link.tick_bytes += len(data)
            await writer.drain()
    except (ConnectionError, OSError):
        writer.transport.abort()
    finally:
        reading.cancel()


async def handle(link, client_r, client_w):
    link.connections += 1
    if link.one_way > 0:
        await asyncio.sleep(2 * link.one_way)  # the handshake's round trip
    try:
        server_r, server_w = await asyncio.open_connection(*link.to)
    except OSError as e:
        print(f"link {link.index}: cannot connect to {link.to}: {e}", file=sys.stderr)
        client_w.close()
        return
    try:
        await asyncio.gather(pipe(client_r, server_w, link.up, link, "up", link.one_way),
                             pipe(server_r, client_w, link.down, link, "down", link.one_way))
    finally:
        for w in (client_w, server_w):
            w.close()


async def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--listen", action="append", type=parse_addr, required=True)
    ap.add_argument("--to", action="append", type=parse_addr, required=True)
    ap.add_argument("--rate", type=parse_rate, help="bytes/s per direction (default: unlimited)")
    ap.add_argument("--delay", type=parse_delay, default=0.0,
                    help="round-trip time added to every connection (e.g. 30ms)")
    ap.add_argument("--shared", action="store_true", help="all links share one pair of buckets")
    ap.add_argument("--tick", type=float, default=0.25, help="seconds per busy sample")
    ap.add_argument("--trace", action="store_true", help="print MB/s per link every tick")
    args = ap.parse_args()
    if len(args.listen) != len(args.to):
        ap.error("give one --to for every --listen")

    def buckets():
        return (Bucket(args.rate), Bucket(args.rate)) if args.rate else (None, None)

    shared = buckets()
    links, servers, tasks = [], [], set()
    for i, (listen, to) in enumerate(zip(args.listen, args.to)):
        link = Link(i, listen, to, shared if args.shared else buckets(), args.delay / 2)

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
            if args.rate:
                busy[sum(link.tick_bytes > args.rate * dt / 10 for link in links)] += 1
        for link in links:
            link.tick_bytes = 0

    for server in servers:
        server.close()
    for t in list(tasks):
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    mode = "one shared bucket" if args.shared else "a bucket per link"
    rate = f"{args.rate / 1e6:g} MB/s per direction, {mode}" if args.rate else "no rate limit"
    print(f"throttle-proxy: {rate}, {args.delay * 1000:g} ms round trip added", file=sys.stderr)
    for link in links:
        print(f"  link {link.index} -> {link.to[0]}:{link.to[1]}: {link.connections} connections, "
              f"{link.bytes['down']} bytes down, {link.bytes['up']} bytes up", file=sys.stderr)
    print(f"  {args.tick:g} s ticks with traffic, by links busy at once: "
          + ", ".join(f"{k}: {n}" for k, n in enumerate(busy)), file=sys.stderr)


if __name__ == "__main__":
    asyncio.run(main())
