"""How the grader talks to a student's kernel: over Unix sockets in a fresh folder of their
own (the kernel needs no network), with messages of bounded size and sends that give up.

A client refuses any message over ``MAX_MESSAGE_BYTES`` before reading it (the connection
is dropped, and the kernel, no longer answering, is replaced), so a kernel cannot make the
grader hold a message of any size in memory.
"""

from __future__ import annotations

import os
import tempfile

import zmq
import zmq.asyncio

MAX_MESSAGE_BYTES = 64 << 20  # the largest message a kernel may send (a reply, an output)
SEND_MILLISECONDS = 10_000  # how long a message to the kernel may wait to be taken


def bound(km, ipc_root: str):
    """``km``, a jupyter_client kernel manager not yet started, set to put its kernel's
    sockets in a new folder under ``ipc_root`` (empty: TCP on localhost) and to make
    clients whose sockets refuse large messages and time out their sends."""
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
        return client

    km.client = bounded_client
    return km
