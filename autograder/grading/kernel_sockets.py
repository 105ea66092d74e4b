"""How the grader talks to a student's kernel: over Unix sockets in a fresh folder of their
own (the kernel needs no network), with messages of bounded size and sends that give up.

A client refuses any message over ``MAX_MESSAGE_BYTES`` before reading it (the connection
is dropped, and the kernel, no longer answering, is replaced), so a kernel cannot make the
grader hold a message of any size in memory. It is ready once the kernel has answered on
both channels (``ready``): not 0.2 s later, as jupyter_client's own wait would have it.
"""

from __future__ import annotations

import math
import os
import tempfile
import time
from queue import Empty

import zmq
import zmq.asyncio

MAX_MESSAGE_BYTES = 64 << 20  # the largest message a kernel may send (a reply, an output)
SEND_MILLISECONDS = 10_000  # how long a message to the kernel may wait to be taken


def bound(km, ipc_root: str):
    """``km``, a jupyter_client kernel manager not yet started, set to put its kernel's
    sockets in a new folder under ``ipc_root`` (empty: TCP on localhost), to make clients
    whose sockets refuse large messages and time out their sends, and to see its kernel
    gone as soon as it is."""
    if ipc_root:
        km.transport = "ipc"
        km.ip = os.path.join(tempfile.mkdtemp(prefix="k-", dir=ipc_root), "kernel")
    make_client = km.client

    def bounded_client(**kwargs):
        context = zmq.asyncio.Context()
        context.setsockopt(zmq.MAXMSGSIZE, MAX_MESSAGE_BYTES)  # applies to new sockets
        # A kernel whose connection was dropped never takes a message again: a send
        # gives up instead of waiting for it forever, and the kernel is replaced.
        context.setsockopt(zmq.SNDTIMEO, SEND_MILLISECONDS)
        client = make_client(context=context, **kwargs)
        client._created_context = True  # the client destroys it when it goes
        client.wait_for_ready = lambda timeout=None: ready(client, timeout)
        return client

    km.client = bounded_client
    wait = km._async_wait

    async def promptly(pollinterval: float = 0.1) -> None:
        # A killed kernel is gone in milliseconds: jupyter_client's 0.1 s polls cost each
        # notebook's grading about 0.1 s of waiting.
        await wait(pollinterval=min(pollinterval, 0.005))

    km._async_wait = promptly
    return km


async def ready(client, timeout: float | None = None) -> None:
    """Wait until the kernel answers ``kernel_info`` on the shell channel and a message
    reaches us on IOPub (subscribed: a cell's output will not be lost).

    jupyter_client's ``wait_for_ready`` does the same, then reads IOPub until it has been
    silent for 0.2 s, to drop the start-up's own messages. nbclient and the checker read
    only the replies to what they sent, so those can stay unread: every kernel start is
    0.2 s shorter, a few per cent of a notebook's grading."""
    deadline = time.monotonic() + (math.inf if timeout is None else timeout)
    while True:
        client.kernel_info()
        try:
            reply = await client.shell_channel.get_msg(timeout=1)
        except Empty:
            reply = None
        if reply is not None and reply["msg_type"] == "kernel_info_reply":
            try:
                await client.iopub_channel.get_msg(timeout=0.2)
            except Empty:
                pass  # not subscribed yet: ask again
            else:
                client._handle_kernel_info_reply(reply)
                return
        if not await client._async_is_alive():
            raise RuntimeError("Kernel died before replying to kernel_info")
        if time.monotonic() > deadline:
            raise RuntimeError(f"Kernel didn't respond in {timeout:.0f} seconds")
