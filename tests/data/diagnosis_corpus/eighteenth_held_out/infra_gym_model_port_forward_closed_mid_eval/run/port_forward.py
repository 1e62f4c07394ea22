"""Forward 127.0.0.1:LOCAL to the model server (what our `ssh -L` tunnel to the GPU node does)."""
import asyncio
import sys

local, host, port = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])


async def pipe(reader, writer):
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    finally:
        writer.close()


async def handle(reader, writer):
    upstream_reader, upstream_writer = await asyncio.open_connection(host, port)
    await asyncio.gather(pipe(reader, upstream_writer), pipe(upstream_reader, writer), return_exceptions=True)


async def main():
    server = await asyncio.start_server(handle, "127.0.0.1", local)
    print(f"forwarding 127.0.0.1:{local} -> {host}:{port}", flush=True)
    async with server:
        await server.serve_forever()


asyncio.run(main())
