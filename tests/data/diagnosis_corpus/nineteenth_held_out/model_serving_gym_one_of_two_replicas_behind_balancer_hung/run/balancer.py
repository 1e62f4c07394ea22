"""Round-robin balancer on 127.0.0.1:LOCAL over our model replicas (what the team's nginx does on the cluster)."""
import asyncio
import itertools
import sys

local = int(sys.argv[1])
replicas = [(host, int(port)) for host, port in (item.rsplit(":", 1) for item in sys.argv[2:])]
turn = itertools.cycle(replicas)


async def pipe(reader, writer):
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    finally:
        writer.close()


async def handle(reader, writer):
    host, port = next(turn)
    try:
        upstream_reader, upstream_writer = await asyncio.open_connection(host, port)
    except OSError as error:
        print(f"upstream {host}:{port} failed: {error}", flush=True)
        writer.close()
        return
    await asyncio.gather(pipe(reader, upstream_writer), pipe(upstream_reader, writer), return_exceptions=True)


async def main():
    server = await asyncio.start_server(handle, "127.0.0.1", local)
    print(f"balancing 127.0.0.1:{local} over {replicas}", flush=True)
    async with server:
        await server.serve_forever()


asyncio.run(main())
