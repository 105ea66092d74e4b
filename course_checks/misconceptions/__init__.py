"""Known wrong answers, so that feedback can name the mistake instead of only noticing it.

Each function takes the same inputs as an exercise and returns ``{description: tensor}``:
what a student would get with that misconception. A test passes the dictionary to
``Checks.close``; when the student's answer equals one of the tensors, the feedback says
"This matches <description>". Descriptions complete the sentence "This matches ...".

Tokens are rows here (``(seq_len, d)``); notebook 01's column vectors are stacked into rows
by the tests before they ask for variants.

One module per notebook: ``vector_attention`` (01), ``matrix_attention`` (02),
``multihead_attention`` (03), ``positional`` (04), ``encoder`` (05), ``decoder`` (06),
``schedules`` (07), ``language_model`` (08), ``modern`` (09) and ``attention_at_scale``
(10, which gathers its parts: ``tiling``, ``tiled_forward``, ``backward_pass`` and
``autograd_function``). A function that several notebooks use lives with the first of them.
Test cells use the names re-exported here: ``misconceptions.softmax(...)``.
"""

from __future__ import annotations

from .attention_at_scale import (
    Tiling,
    attention_backward,
    attention_function,
    attention_output,
    flash_backward,
    online_softmax_step,
    tiled_attention,
    tiling_slips,
)
from .decoder import (
    causal_attention,
    causal_attention_weights,
    causal_mask,
    cross_attention,
    decoder_block,
    greedy_decode,
    shift_right,
)
from .encoder import encoder_block, feed_forward, layer_norm, pre_norm_block
from .language_model import (
    adamw_steps,
    attend_with_cache,
    bits_per_character,
    encode,
    lm_logits,
    random_windows,
    sample_distribution,
    top_p_filter,
    train_history,
)
from .matrix_attention import (
    masked_attention,
    padding_mask,
    previous_token_head,
    same_token_head,
)
from .modern import (
    apply_rotary,
    bpe_encode,
    bpe_merges,
    grouped_query_attention,
    matched_hidden_size,
    merge_pair,
    modern_block,
    rms_norm,
    rotary_attention,
    swiglu,
)
from .multihead_attention import (
    expand_mask,
    heads_cols,
    merge_heads,
    module_output,
    module_weights,
    multihead,
    split_heads,
)
from .positional import pe_table, positional_encoding, rotation
from .schedules import accuracies, cosine_warmup, learning_rates, train_step, transformer_lr
from .vector_attention import (
    WRONG_ORDER,
    attention,
    attention_weights,
    projection,
    score,
    softmax,
    weighted_sum,
)

__all__ = [
    "Tiling",
    "WRONG_ORDER",
    "accuracies",
    "adamw_steps",
    "apply_rotary",
    "attend_with_cache",
    "attention",
    "attention_backward",
    "attention_function",
    "attention_output",
    "attention_weights",
    "bits_per_character",
    "bpe_encode",
    "bpe_merges",
    "causal_attention",
    "causal_attention_weights",
    "causal_mask",
    "cosine_warmup",
    "cross_attention",
    "decoder_block",
    "encode",
    "encoder_block",
    "expand_mask",
    "feed_forward",
    "flash_backward",
    "greedy_decode",
    "grouped_query_attention",
    "heads_cols",
    "layer_norm",
    "learning_rates",
    "lm_logits",
    "masked_attention",
    "matched_hidden_size",
    "merge_heads",
    "merge_pair",
    "modern_block",
    "module_output",
    "module_weights",
    "multihead",
    "online_softmax_step",
    "padding_mask",
    "pe_table",
    "positional_encoding",
    "pre_norm_block",
    "previous_token_head",
    "projection",
    "random_windows",
    "rms_norm",
    "rotary_attention",
    "rotation",
    "same_token_head",
    "sample_distribution",
    "score",
    "shift_right",
    "softmax",
    "split_heads",
    "swiglu",
    "tiled_attention",
    "tiling_slips",
    "top_p_filter",
    "train_history",
    "train_step",
    "transformer_lr",
    "weighted_sum",
]
