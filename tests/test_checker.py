"""The trusted checker's secret seeds: seeded generators still cross to the kernel."""

from __future__ import annotations

import base64
import pickle

import torch

from autograder.trusted.checker import KernelLink, secret_seeds


def test_a_secretly_seeded_generator_reaches_the_kernel_as_a_plain_one_in_the_same_state():
    with secret_seeds("a secret"):
        generator = torch.Generator().manual_seed(5)
        sent = KernelLink(executor=None).out(generator)
        expected = torch.randint(100, (8,), generator=generator)
    received = pickle.loads(base64.b64decode(sent["$object"]))  # what the kernel rebuilds
    assert type(received) is torch.Generator
    assert torch.equal(torch.randint(100, (8,), generator=received), expected)
    # ... and the secret changed the seed: not the generator a student could make.
    student_made = torch.Generator().manual_seed(5)
    assert not torch.equal(expected, torch.randint(100, (8,), generator=student_made))
