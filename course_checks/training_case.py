"""A small training set-up for checking a training step: model, optimiser, scheduler, batches.

A ``StepCase`` is rebuilt exactly from its seed: the same weights, the same batches. The
checks hand its ``model``, ``optimizer`` and ``scheduler`` to a student's ``train_step`` and
compare the losses it returns, step after step, with a fresh copy trained by the reference.

When grading, the student's function runs in the kernel and the checks in the trusted
checker, so each argument is pickled on its own, and a model pickled apart from its
optimiser would no longer be the tensors that optimiser updates. The three objects therefore
pickle as a reference to their case (``_part``): the kernel rebuilds the case once from the
same seed and hands out *its* model, optimiser and scheduler, which then keep their state
from one call to the next, exactly as the same objects do when the checks run in the kernel.
"""

from __future__ import annotations

import uuid

import torch

from transformer_course import schedules
from transformer_course.transformer import Transformer

__all__ = ["StepCase"]

_CASES: dict[tuple, StepCase] = {}  # the kernel's copies, built on first use


class _Model(Transformer):
    _key: tuple  # its case's, set by _build

    def __reduce__(self):
        return _part, (self._key, "model")


class _SGD(torch.optim.SGD):
    _key: tuple  # its case's, set by _build

    def __reduce__(self):
        return _part, (self._key, "optimizer")


class _Adam(torch.optim.Adam):
    _key: tuple  # its case's, set by _build

    def __reduce__(self):
        return _part, (self._key, "optimizer")


class _LambdaLR(torch.optim.lr_scheduler.LambdaLR):
    _key: tuple  # its case's, set by _build

    def __reduce__(self):
        return _part, (self._key, "scheduler")


def _part(key: tuple, name: str):
    if key not in _CASES:
        _CASES[key] = StepCase._build(key)
    return getattr(_CASES[key], name)


class StepCase:
    """A post-norm encoder–decoder (vocabulary ``vocab``, d_model 16, one block each), livelier
    weights than at initialisation, ``steps`` batches of ``batch`` examples (sources of
    ``src_len``, targets of ``tgt_len``; the start token is ``vocab - 1``), and an optimiser
    (``"sgd"`` or ``"adam"``) under ``LambdaLR`` with the original schedule
    (d_model 16, warm-up 4: the rate doubles, then triples, … over the first steps)."""

    # set by _build (what __init__ copies from the case it builds)
    key: tuple
    start_token: int
    batches: list[tuple[torch.Tensor, torch.Tensor]]
    model: _Model
    optimizer: _SGD | _Adam
    scheduler: _LambdaLR

    def __init__(
        self,
        seed: int,
        steps: int = 3,
        batch: int = 4,
        src_len: int = 5,
        tgt_len: int = 6,
        vocab: int = 9,
        optimizer: str = "sgd",
        lr: float = 2.0,
    ):
        # The seed as the checks' generator makes it (when grading hidden checks, mixed with
        # the grader's secret), so that the kernel's copy is built from the very same number.
        effective = torch.Generator().manual_seed(seed).initial_seed()
        key = (effective, steps, batch, src_len, tgt_len, vocab, optimizer, lr, uuid.uuid4().hex)
        self.__dict__.update(StepCase._build(key).__dict__)

    @staticmethod
    def _build(key: tuple) -> StepCase:
        effective, steps, batch, src_len, tgt_len, vocab, optimizer, lr, _ = key
        case = StepCase.__new__(StepCase)
        case.key, case.start_token = key, vocab - 1
        generator = torch._C.Generator().manual_seed(effective)  # never the checker's mixer
        model = _Model(
            vocab,
            vocab,
            d_model=16,
            n_heads=2,
            d_ff=32,
            n_encoder_layers=1,
            n_decoder_layers=1,
            max_len=16,
        )
        with torch.no_grad():
            for parameter in model.parameters():
                parameter.copy_(0.4 * torch.randn(parameter.shape, generator=generator))
        case.batches = [
            (
                torch.randint(0, vocab - 1, (batch, src_len), generator=generator),
                torch.randint(0, vocab - 1, (batch, tgt_len), generator=generator),
            )
            for _ in range(steps)
        ]
        kind = {"sgd": _SGD, "adam": _Adam}[optimizer]
        case.model = model.train()
        case.optimizer = kind(model.parameters(), lr=lr if optimizer == "sgd" else lr / 100)
        case.scheduler = _LambdaLR(case.optimizer, schedules.transformer_lr(16, 4))
        for part in (case.model, case.optimizer, case.scheduler):
            part._key = key
        return case

    def fresh(self) -> StepCase:
        """Another copy, as this case was before any step: for the reference to train."""
        return StepCase._build(self.key)

    def losses(self, step, clip=None) -> torch.Tensor:
        """The losses ``step`` returns over the case's batches, as float64."""
        return torch.tensor(
            [
                float(
                    step(
                        self.model,
                        src,
                        target,
                        self.start_token,
                        self.optimizer,
                        self.scheduler,
                        clip,
                    )
                )
                for src, target in self.batches
            ],
            dtype=torch.float64,
        )
