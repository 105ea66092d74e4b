"""AdamW by hand: one tensor's update (``adamw_step``), the optimiser that makes it for every
tensor (``AdamW``, whose state ``torch.optim.AdamW`` reads and writes too), and the two
parameter groups a language model trains with (``parameter_groups``: weight decay on the
matrices only).

Per tensor, the running averages of the gradient (m) and of its square (v), bias-corrected,
scale each step: ``param -= lr·m̂ / (√v̂ + eps)``, after the decoupled weight decay
``param -= lr·weight_decay·param``. Notebook 08's learners write ``adamw_step`` and train
with ``AdamW`` around it.
"""

from __future__ import annotations

from collections.abc import Callable

import torch
import torch.nn as nn

__all__ = ["AdamW", "adamw_step", "parameter_groups"]


def parameter_groups(model: nn.Module, weight_decay: float) -> list[dict]:
    """AdamW's two groups: weight decay on the matrices of linear maps (attention's and the
    feed-forward's), none on embeddings (the tied head included), norms and biases."""
    embeddings = {id(m.weight) for m in model.modules() if isinstance(m, nn.Embedding)}
    decay, no_decay = [], []
    for parameter in model.parameters():
        matrix = parameter.dim() >= 2 and id(parameter) not in embeddings
        (decay if matrix else no_decay).append(parameter)
    return [
        {"params": decay, "weight_decay": weight_decay},
        {"params": no_decay, "weight_decay": 0.0},
    ]


def adamw_step(
    param: torch.Tensor,
    grad: torch.Tensor,
    m: torch.Tensor,
    v: torch.Tensor,
    step: int,
    lr: float,
    betas: tuple[float, float] = (0.9, 0.999),
    eps: float = 1e-8,
    weight_decay: float = 1e-2,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """One AdamW update of one tensor (notebook 08's exercise), as ``torch.optim.AdamW``
    makes it -> (param, m, v), new tensors; the arguments are left as they were.

    ``m`` and ``v`` are the running averages of the gradient and of its square after
    ``step - 1`` updates (zeros before the first), ``step`` the number of this update
    (1 for the first):

        param <- param - lr·weight_decay·param           decoupled weight decay
        m <- β1·m + (1 - β1)·grad      v <- β2·v + (1 - β2)·grad²
        m̂ = m / (1 - β1^step)        v̂ = v / (1 - β2^step)   bias corrections
        param <- param - lr·m̂ / (√v̂ + eps)

    The decay shrinks the weight by a fraction ``lr·weight_decay`` of itself, apart from the
    gradient: Adam's L2 penalty would add ``weight_decay·param`` to ``grad`` instead, and
    the moments would then scale it down where gradients are large.
    """
    beta1, beta2 = betas
    m = beta1 * m + (1 - beta1) * grad
    v = beta2 * v + (1 - beta2) * grad * grad
    m_hat = m / (1 - beta1**step)
    v_hat = v / (1 - beta2**step)
    param = param * (1 - lr * weight_decay) - lr * m_hat / (v_hat.sqrt() + eps)
    return param, m, v


class AdamW(torch.optim.Optimizer):
    """``torch.optim.AdamW`` (without its ``amsgrad``, ``maximize`` and fused variants),
    each tensor's update made by ``update``: ``adamw_step``, or a learner's function of the
    same arguments. Its state per tensor is ``torch.optim.AdamW``'s (``step``, a Python number
    here, ``exp_avg``, ``exp_avg_sq``), so ``state_dict`` and ``load_state_dict`` carry it
    through a checkpoint, either optimiser's into the other, and a scheduler (``LambdaLR``)
    sets its learning rate."""

    def __init__(
        self,
        params,
        lr: float = 1e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 1e-2,
        update: Callable | None = None,
    ):
        super().__init__(
            params, {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay}
        )
        self.update = update if update is not None else adamw_step

    @torch.no_grad()
    def step(self, closure: Callable | None = None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        for group in self.param_groups:
            for param in group["params"]:
                if param.grad is None:
                    continue
                state = self.state[param]
                if not state:
                    state["step"] = 0  # a number, where torch.optim.AdamW keeps a tensor
                    state["exp_avg"] = torch.zeros_like(param)
                    state["exp_avg_sq"] = torch.zeros_like(param)
                state["step"] = int(state["step"]) + 1
                new, state["exp_avg"], state["exp_avg_sq"] = self.update(
                    param.detach(),
                    param.grad,
                    state["exp_avg"],
                    state["exp_avg_sq"],
                    state["step"],
                    group["lr"],
                    tuple(group["betas"]),
                    group["eps"],
                    group["weight_decay"],
                )
                param.copy_(new)
        return loss
