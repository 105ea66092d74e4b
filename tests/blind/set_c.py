"""Blind answer set C: answers to the exercises of notebooks 09 and 10, written as students of
varied skill write them, by an author who saw neither sets A and B nor the course's checks.
Data only. See tests/blind/README.md."""
# ruff: noqa: E501

NB09 = "09_modern_decoder"
NB10 = "10_attention_at_scale"

ANSWERS = [
    # ------------------------------------------------------------------------------------------
    # 09 · Exercise 1 — rms_norm
    # ------------------------------------------------------------------------------------------
    {
        "notebook": NB09,
        "cell": "ex1_rms_norm",
        "code": '''def rms_norm(x, weight, eps=1e-5):
    """Divide every token's features by their root mean square, then scale by weight.

    x: (..., d); weight: (d,)  ->  (..., d)
    """
    d = x.shape[-1]
    mean_square = torch.einsum("...i,...i->...", x, x).unsqueeze(-1) / d
    return weight * (x / torch.sqrt(mean_square + eps))
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "other style",
    },
    {
        "notebook": NB09,
        "cell": "ex1_rms_norm",
        "code": '''def rms_norm(x, weight, eps=1e-5):
    """Divide every token's features by their root mean square, then scale by weight.

    x: (..., d); weight: (d,)  ->  (..., d)
    """
    rms = torch.sqrt(torch.mean(x ** 2, dim=-1, keepdim=True))
    return x / (rms + eps) * weight
''',
        "correct": False,
        "mistake": "Epsilon is added to the root mean square after the square root instead of to the mean square inside it, which matters for vectors of small magnitude.",
        "keywords": [
            r"eps|epsilon|ε",
            r"inside .{0,30}(root|sqrt|√)",
            r"(after|outside) .{0,30}(root|sqrt|√)",
        ],
        "kind": "order",
    },
    {
        "notebook": NB09,
        "cell": "ex1_rms_norm",
        "code": """def rms_norm(x, weight, eps=1e-5):
    # mean of the squares over the features
    ms = x.pow(2).mean(dim=1, keepdim=True)
    return x * torch.rsqrt(ms + eps) * weight
""",
        "correct": False,
        "mistake": "The mean of the squares is taken over axis 1 rather than the last (feature) axis, which is only right for 2-D inputs.",
        "keywords": [r"axis|axes|dim", r"last", r"feature", r"token|position|sequence"],
        "kind": "axis",
    },
    {
        "notebook": NB09,
        "cell": "ex1_rms_norm",
        "code": '''def rms_norm(x, weight, eps=1e-5):
    """Divide every token's features by their root mean square, then scale by weight."""
    var = x.var(dim=-1, keepdim=True, unbiased=False)
    return weight * x / torch.sqrt(var + eps)
''',
        "correct": False,
        "mistake": "It divides by the standard deviation (the variance, with the mean subtracted) instead of the root mean square, so it is wrong whenever the features do not have mean zero.",
        "keywords": [
            r"varian|\bvar\b|standard deviation|\bstd\b",
            r"\bmean\b.{0,40}(subtract|remov|centr)|(subtract|remov|centr).{0,40}\bmean\b",
            r"layer.?norm",
        ],
        "kind": "function swap",
    },
    {
        "notebook": NB09,
        "cell": "ex1_rms_norm",
        "code": """def rms_norm(x, weight, eps=1e-5):
    sq_sum = (x * x).sum(-1, keepdim=True)
    normed = x / torch.sqrt(sq_sum + eps)
    return normed * weight
""",
        "correct": False,
        "mistake": "It sums the squares instead of averaging them, dividing by the Euclidean norm, so the output is too small by a factor of the square root of d.",
        "keywords": [
            r"\bsum(s|med|ming)?\b",
            r"norm of|euclidean|l2|√ ?d|sqrt\(?d\)?|square root of d|instead of (the )?(mean|averag)",
        ],
        "kind": "function swap",
    },
    {
        "notebook": NB09,
        "cell": "ex1_rms_norm",
        "code": """def rms_norm(x, weight, eps=1e-5):
    # compute in float32 for stability, like LLaMA does
    xf = x.float()
    normed = xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + eps)
    return normed * weight.float()
""",
        "correct": False,
        "mistake": "It converts the input to float32 and never converts back, so a float64 input comes back as float32 with float32 precision.",
        "keywords": [
            r"float ?32|float ?64|double|single",
            r"dtype|precision|\btype\b",
            r"\.float\(\)|cast|convert",
        ],
        "kind": "dtype",
    },
    # ------------------------------------------------------------------------------------------
    # 09 · Exercise 2 — apply_rotary, rotary_attention
    # ------------------------------------------------------------------------------------------
    {
        "notebook": NB09,
        "cell": "ex2_rotary",
        "code": '''def apply_rotary(x, positions, base=10000.0):
    """Turn features (2i, 2i+1) of the token at position p by the angle p · base^(-2i/d).

    x: (..., T, d), d even; positions: (T,) int64  ->  (..., T, d)
    """
    # LLaMA style: pair (x_2i, x_2i+1) as one complex number and multiply by e^(i p w_i)
    d = x.shape[-1]
    work = torch.float64 if x.dtype == torch.float64 else torch.float32
    i = torch.arange(d // 2, device=x.device, dtype=work)
    freqs = base ** (-2 * i / d)
    angles = positions.to(device=x.device, dtype=work)[:, None] * freqs  # (T, d/2)
    turn = torch.polar(torch.ones_like(angles), angles)
    pairs = torch.view_as_complex(x.to(work).reshape(*x.shape[:-1], d // 2, 2).contiguous())
    return torch.view_as_real(pairs * turn).flatten(-2).to(x.dtype)


def rotary_attention(q, k, v):
    """Causal attention with queries and keys turned by their positions 0 … T-1.

    q, k, v: (B, H, T, d)  ->  (B, H, T, d)
    """
    T = q.shape[-2]
    pos = torch.arange(T, device=q.device)
    q, k = apply_rotary(q, pos), apply_rotary(k, pos)
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    future = torch.ones(T, T, dtype=torch.bool, device=q.device).triu(1)
    scores = scores.masked_fill(future, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "other style",
    },
    {
        "notebook": NB09,
        "cell": "ex2_rotary",
        "code": """def apply_rotary(x, positions, base=10000.0):
    d = x.shape[-1]
    i = torch.arange(d // 2, device=x.device, dtype=x.dtype)
    theta = positions.to(device=x.device, dtype=x.dtype)[:, None] * base ** (-i / d)
    cos, sin = theta.cos(), theta.sin()
    x_even, x_odd = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = x_even * cos - x_odd * sin
    out[..., 1::2] = x_even * sin + x_odd * cos
    return out


def rotary_attention(q, k, v):
    positions = torch.arange(q.shape[-2], device=q.device)
    return F.scaled_dot_product_attention(apply_rotary(q, positions), apply_rotary(k, positions), v, is_causal=True)
""",
        "correct": False,
        "mistake": "The frequencies are base^(-i/d) instead of base^(-2i/d): the factor 2 in the exponent is missing, so every pair but the first turns at the wrong speed.",
        "keywords": [
            r"frequenc",
            r"exponent|power",
            r"2i|2 ?\* ?i|factor (of )?2|twice",
            r"omega|ω",
        ],
        "kind": "scale",
    },
    {
        "notebook": NB09,
        "cell": "ex2_rotary",
        "code": '''def apply_rotary(x, positions, base=10000.0):
    """Turn features (2i, 2i+1) of the token at position p by the angle p · base^(-2i/d)."""
    d = x.shape[-1]
    omega = base ** (-torch.arange(0, d, 2, device=x.device, dtype=x.dtype) / d)
    angle = positions.to(x.device, x.dtype).unsqueeze(-1) * omega
    c, s = torch.cos(angle), torch.sin(angle)
    a, b = x[..., 0::2], x[..., 1::2]
    turned = torch.stack((a * c + b * s, -a * s + b * c), dim=-1)
    return turned.flatten(start_dim=-2)


def rotary_attention(q, k, v):
    p = torch.arange(q.size(-2), device=q.device)
    return F.scaled_dot_product_attention(apply_rotary(q, p), apply_rotary(k, p), v, is_causal=True)
''',
        "correct": False,
        "mistake": "The pairs are rotated the wrong way (by minus the angle, notebook 04's R_p) because the signs of the sine terms are swapped.",
        "keywords": [
            r"sign|minus|negat",
            r"direction|clockwise|opposite|wrong way|other way|backward|revers",
            r"R_p|transpose|inverse",
        ],
        "kind": "sign",
    },
    {
        "notebook": NB09,
        "cell": "ex2_rotary",
        "code": """def apply_rotary(x, positions, base=10000.0):
    d = x.shape[-1]
    half = d // 2
    inv_freq = 1.0 / (base ** (torch.arange(0, d, 2, device=x.device, dtype=x.dtype) / d))
    angles = positions.to(x.device, x.dtype)[:, None] * inv_freq[None, :]
    cos = angles.cos()
    sin = angles.sin()
    x1, x2 = x[..., :half], x[..., half:]
    return torch.cat([x1 * cos - x2 * sin, x1 * sin + x2 * cos], dim=-1)


def rotary_attention(q, k, v):
    T = q.shape[2]
    pos = torch.arange(T, device=q.device)
    q_rot = apply_rotary(q, pos)
    k_rot = apply_rotary(k, pos)
    return F.scaled_dot_product_attention(q_rot, k_rot, v, is_causal=True)
""",
        "correct": False,
        "mistake": "It pairs feature i with feature i + d/2 (the first half with the second half) instead of the adjacent even and odd features 2i and 2i+1.",
        "keywords": [
            r"half|halves",
            r"pair",
            r"even|odd|adjacent|interleav|neighbou?r",
            r"neox|rotate_half",
        ],
        "kind": "layout",
    },
    {
        "notebook": NB09,
        "cell": "ex2_rotary",
        "code": """def apply_rotary(x, positions, base=10000.0):
    T, d = x.shape[-2], x.shape[-1]
    pos = torch.arange(T, device=x.device, dtype=x.dtype)
    freqs = base ** (-torch.arange(0, d, 2, device=x.device, dtype=x.dtype) / d)
    ang = torch.outer(pos, freqs)
    cos, sin = ang.cos(), ang.sin()
    ev, od = x[..., ::2], x[..., 1::2]
    out = torch.stack([ev * cos - od * sin, ev * sin + od * cos], -1)
    return out.reshape(x.shape)


def rotary_attention(q, k, v):
    positions = torch.arange(q.shape[-2], device=q.device)
    q = apply_rotary(q, positions)
    k = apply_rotary(k, positions)
    return F.scaled_dot_product_attention(q, k, v, is_causal=True)
""",
        "correct": False,
        "mistake": "apply_rotary ignores its positions argument and always turns the tokens by 0 … T-1, which is wrong whenever the positions do not start at 0 (as in a cache).",
        "keywords": [
            r"ignor|unused|never used|not used|discard",
            r"arange|0 ?(…|\.\.\.?) ?T|start(s|ing)? at (0|zero)|always",
            r"offset|cache|given positions|positions (argument|passed|given)",
        ],
        "kind": "ignored argument",
    },
    {
        "notebook": NB09,
        "cell": "ex2_rotary",
        "code": """def apply_rotary(x, positions, base=10000.0):
    d = x.size(-1)
    exponents = torch.arange(0, d, 2, device=x.device, dtype=x.dtype) / d
    theta = positions.to(device=x.device, dtype=x.dtype)[:, None] / base ** exponents
    cos, sin = torch.cos(theta), torch.sin(theta)
    x0, x1 = x[..., 0::2], x[..., 1::2]
    return torch.stack([x0 * cos - x1 * sin, x0 * sin + x1 * cos], dim=-1).flatten(-2)


def rotary_attention(q, k, v):
    pos = torch.arange(q.size(-2), device=q.device)
    q, k, v = (apply_rotary(t, pos) for t in (q, k, v))
    return F.scaled_dot_product_attention(q, k, v, is_causal=True)
""",
        "correct": False,
        "mistake": "rotary_attention turns the values as well as the queries and keys; only q and k should be rotated.",
        "keywords": [r"value", r"\bv\b"],
        "kind": "structure",
    },
    {
        "notebook": NB09,
        "cell": "ex2_rotary",
        "code": """def apply_rotary(x, positions, base=10000.0):
    d = x.shape[-1]
    idx = torch.arange(0, d, 2, device=x.device, dtype=x.dtype)
    angles = positions.to(device=x.device, dtype=x.dtype)[:, None] * base ** (-idx / d)
    cos, sin = angles.cos(), angles.sin()
    even, odd = x[..., 0::2], x[..., 1::2]
    return torch.stack([even * cos - odd * sin, even * sin + odd * cos], dim=-1).flatten(-2)


def rotary_attention(q, k, v):
    positions = torch.arange(q.shape[-2], device=q.device)
    q_rot, k_rot = apply_rotary(q, positions), apply_rotary(k, positions)
    return F.scaled_dot_product_attention(q_rot, k_rot, v)
""",
        "correct": False,
        "mistake": "rotary_attention leaves out the causal mask (is_causal=True), so every query also attends to later positions.",
        "keywords": [r"causal", r"mask", r"future|later|ahead|subsequent"],
        "kind": "missing term",
    },
    # ------------------------------------------------------------------------------------------
    # 09 · Exercise 3 — swiglu, matched_hidden_size
    # ------------------------------------------------------------------------------------------
    {
        "notebook": NB09,
        "cell": "ex3_swiglu",
        "code": '''def swiglu(x, W_gate, W_up, W_down):
    """The gated feed-forward layer: (silu(x W_gate^T) * x W_up^T) W_down^T."""
    gate = F.linear(x, W_gate)
    up = F.linear(x, W_up)
    hidden = gate * torch.sigmoid(gate) * up
    return F.linear(hidden, W_down)


def matched_hidden_size(d_model, d_ff):
    """The SwiGLU hidden size with the weights of a ReLU layer of hidden size d_ff -> int."""
    # 3 · d · h = 2 · d · d_ff, so h = 2 d_ff / 3, rounded to the nearest integer without floats
    return (2 * d_ff + 1) // 3
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "other style",
    },
    {
        "notebook": NB09,
        "cell": "ex3_swiglu",
        "code": """def swiglu(x, W_gate, W_up, W_down):
    g = x @ W_gate.T
    u = x @ W_up.T
    return (g * F.silu(u)) @ W_down.T


def matched_hidden_size(d_model, d_ff):
    return round(2 * d_ff / 3)
""",
        "correct": False,
        "mistake": "SiLU is applied to the up projection instead of the gate projection.",
        "keywords": [
            r"\bup\b|W_up|up.projection",
            r"swap|wrong (projection|branch|one|side)|instead of (the )?gate",
        ],
        "kind": "operand swap",
    },
    {
        "notebook": NB09,
        "cell": "ex3_swiglu",
        "code": '''def swiglu(x, W_gate, W_up, W_down):
    """The gated feed-forward layer: (silu(x W_gate^T) * x W_up^T) W_down^T.

    x: (..., d); W_gate, W_up: (h, d); W_down: (d, h)  ->  (..., d)
    """
    gate = torch.sigmoid(x @ W_gate.T)
    return (gate * (x @ W_up.T)) @ W_down.T


def matched_hidden_size(d_model, d_ff):
    """The SwiGLU hidden size with the weights of a ReLU layer of hidden size d_ff -> int."""
    return round(2 * d_ff / 3)
''',
        "correct": False,
        "mistake": "The gate uses the sigmoid σ(z) instead of SiLU z·σ(z): the factor z is missing.",
        "keywords": [r"sigmoid|σ|logistic", r"z ?[·*⋅]|times z|factor z|multipl"],
        "kind": "function swap",
    },
    {
        "notebook": NB09,
        "cell": "ex3_swiglu",
        "code": """def swiglu(x, W_gate, W_up, W_down):
    hidden = F.silu(x @ W_gate.T) * (x @ W_up.T)
    return hidden @ W_down.T


def matched_hidden_size(d_model, d_ff):
    # three matrices of d_model x h hold as many weights as two of d_model x d_ff
    return int(2 * d_ff / 3)
""",
        "correct": False,
        "mistake": "matched_hidden_size truncates 2·d_ff/3 with int() instead of rounding to the nearest integer, so it is one too small when the fraction is two thirds.",
        "keywords": [r"round", r"truncat|floor|int\(|down", r"nearest"],
        "kind": "rounding",
    },
    {
        "notebook": NB09,
        "cell": "ex3_swiglu",
        "code": """def swiglu(x, W_gate, W_up, W_down):
    a = x @ W_gate.transpose(0, 1)
    b = x @ W_up.transpose(0, 1)
    return (a * torch.sigmoid(a) * b) @ W_down.transpose(0, 1)


def matched_hidden_size(d_model, d_ff):
    # LLaMA's 8/3 · d_model
    return round(8 * d_model / 3)
""",
        "correct": False,
        "mistake": "matched_hidden_size ignores d_ff and returns 8/3 · d_model, which is only right when d_ff = 4 · d_model.",
        "keywords": [
            r"d_ff",
            r"ignor|unused|not used|never used|assum",
            r"8 ?/ ?3|4 ?[·*x×] ?d|d_model",
        ],
        "kind": "ignored argument",
    },
    {
        "notebook": NB09,
        "cell": "ex3_swiglu",
        "code": """def swiglu(x, W_gate, W_up, W_down):
    gated = F.silu((x @ W_gate.T) * (x @ W_up.T))
    return gated @ W_down.T


def matched_hidden_size(d_model, d_ff):
    return round(2 * d_ff / 3)
""",
        "correct": False,
        "mistake": "SiLU is applied to the product of the gate and up projections instead of to the gate projection alone before the product.",
        "keywords": [
            r"product|multipl|gate ?[*×⊙·] ?up",
            r"order|after (the )?(product|multipl)|outside|whole",
        ],
        "kind": "order",
    },
    {
        "notebook": NB09,
        "cell": "ex3_swiglu",
        "code": '''def swiglu(x, W_gate, W_up, W_down):
    """The gated feed-forward layer: (silu(x W_gate^T) * x W_up^T) W_down^T."""
    return (F.silu(x @ W_gate.T) * (x @ W_up.T)) @ W_down.T


def matched_hidden_size(d_model, d_ff):
    """The SwiGLU hidden size with the weights of a ReLU layer of hidden size d_ff -> int."""
    return 2 * d_ff / 3
''',
        "correct": False,
        "mistake": "matched_hidden_size returns the float 2·d_ff/3 without rounding it to the nearest whole number as an int.",
        "keywords": [r"float|fraction|decimal", r"round", r"\bint\b|integer|whole"],
        "kind": "dtype",
    },
    # ------------------------------------------------------------------------------------------
    # 09 · Exercise 4 — grouped_query_attention
    # ------------------------------------------------------------------------------------------
    {
        "notebook": NB09,
        "cell": "ex4_gqa",
        "code": '''def grouped_query_attention(q, k, v, mask=None):
    """Attention where groups of query heads share a key/value head.

    q: (B, H, T, d); k, v: (B, H_kv, S, d), H_kv divides H;
    mask: bool, (T, S) or (B, 1, T, S), True = may attend  ->  (B, H, T, d)
    """
    B, H, T, d = q.shape
    H_kv = k.shape[1]
    G = H // H_kv
    qg = q.reshape(B, H_kv, G, T, d)  # query head h = kv * G + g
    scores = torch.einsum("bkgtd,bksd->bkgts", qg, k) / math.sqrt(d)
    if mask is not None:
        if mask.dim() == 4:
            mask = mask.unsqueeze(1)  # (B, 1, 1, T, S)
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    out = torch.einsum("bkgts,bksd->bkgtd", weights, v)
    return out.reshape(B, H, T, v.shape[-1])
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "other style",
    },
    {
        "notebook": NB09,
        "cell": "ex4_gqa",
        "code": """def grouped_query_attention(q, k, v, mask=None):
    n_rep = q.shape[1] // k.shape[1]
    k = k.repeat(1, n_rep, 1, 1)
    v = v.repeat(1, n_rep, 1, 1)
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = scores.masked_fill(mask == 0, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v
""",
        "correct": False,
        "mistake": "It expands the key/value heads with repeat, which deals them out in turn, instead of repeat_interleave, so query heads are paired with the wrong key/value heads when there are several groups.",
        "keywords": [
            r"repeat_interleave|interleav",
            r"\.repeat|repeat\(|tile|in turn|cycl|round.robin",
            r"group|which (key|kv)|wrong (key|kv|head)|pair|neighbou?r|consecutive|adjacent",
        ],
        "kind": "layout",
    },
    {
        "notebook": NB09,
        "cell": "ex4_gqa",
        "code": """def grouped_query_attention(q, k, v, mask=None):
    group = q.size(1) // k.size(1)
    k = k.repeat_interleave(group, dim=1)
    v = v.repeat_interleave(group, dim=1)
    d_k = q.size(2)
    scores = torch.matmul(q, k.transpose(2, 3)) / d_k ** 0.5
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    attn = scores.softmax(dim=-1)
    return torch.matmul(attn, v)
""",
        "correct": False,
        "mistake": "The scores are divided by the square root of q.size(2), the number of queries T, instead of the head width d.",
        "keywords": [
            r"\bT\b|length|number of (queries|tokens|positions)|size\(2\)|seq",
            r"wrong (scale|scaling|dimension|axis)|instead of (the )?(head )?(width|d\b|dimension)",
        ],
        "kind": "scale",
    },
    {
        "notebook": NB09,
        "cell": "ex4_gqa",
        "code": '''def grouped_query_attention(q, k, v, mask=None):
    """Attention where groups of query heads share a key/value head."""
    H, H_kv = q.shape[-3], k.shape[-3]
    k = k.repeat_interleave(H // H_kv, dim=-3)
    v = v.repeat_interleave(H // H_kv, dim=-3)
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = scores.masked_fill(mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    return weights @ v
''',
        "correct": False,
        "mistake": "The mask's polarity is inverted: it blocks the positions where the mask is True (allowed) instead of where it is False.",
        "keywords": [
            r"polarit|invert|revers|opposite|flip|negat|~mask|not mask|logical_not",
            r"true|false",
        ],
        "kind": "mask polarity",
    },
    {
        "notebook": NB09,
        "cell": "ex4_gqa",
        "code": """def grouped_query_attention(q, k, v, mask=None):
    n = q.shape[1] // k.shape[1]
    keys = k.repeat_interleave(n, dim=1)
    values = v.repeat_interleave(n, dim=1)
    scores = torch.einsum("bhtd,bhsd->bhts", q, keys) / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = torch.where(mask, scores, float("-inf"))
    weights = torch.softmax(scores, dim=-2)
    return torch.einsum("bhts,bhsd->bhtd", weights, values)
""",
        "correct": False,
        "mistake": "The softmax is taken over the query axis (dim=-2) instead of over the keys (the last axis).",
        "keywords": [r"axis|dim", r"quer|column|-2", r"over (the )?keys|last"],
        "kind": "axis",
    },
    {
        "notebook": NB09,
        "cell": "ex4_gqa",
        "code": """def grouped_query_attention(q, k, v, mask=None):
    B, H, T, d = q.shape
    H_kv = k.shape[1]
    outputs = []
    for h in range(H):
        kv = h // H_kv  # the key/value head this query head shares
        scores = q[:, h] @ k[:, kv].transpose(-2, -1) / math.sqrt(d)
        if mask is not None:
            m = mask if mask.dim() == 2 else mask[:, 0]
            scores = scores.masked_fill(~m, float("-inf"))
        outputs.append(torch.softmax(scores, dim=-1) @ v[:, kv])
    return torch.stack(outputs, dim=1)
""",
        "correct": False,
        "mistake": "Query head h is given key/value head h // H_kv instead of h // (H / H_kv): it divides by the number of key/value heads, not by the group size.",
        "keywords": [
            r"group size|H ?/ ?H_kv|heads per group|per group",
            r"h ?// ?H_kv|divid",
            r"index|which (key|kv)|wrong (key|kv|head)|mapp|assign",
        ],
        "kind": "off-by-one",
    },
    # ------------------------------------------------------------------------------------------
    # 09 · Exercise 5 — ModernBlock.forward
    # ------------------------------------------------------------------------------------------
    {
        "notebook": NB09,
        "cell": "ex5_modern_block",
        "code": '''class ModernBlock(nn.Module):
    """Pre-norm causal decoder block: RMSNorm, rotary grouped-query attention, RMSNorm, SwiGLU.

    x (B, T, d_model)  ->  (B, T, d_model)
    """

    def __init__(self, d_model, n_heads, n_kv_heads, d_ff, eps=1e-5):
        super().__init__()
        d_head = d_model // n_heads
        self.n_heads, self.n_kv_heads, self.eps = n_heads, n_kv_heads, eps
        self.norm1 = modern.RMSNorm(d_model, eps)  # its .weight, for your rms_norm
        self.q_proj = nn.Linear(d_model, n_heads * d_head)
        self.k_proj = nn.Linear(d_model, n_kv_heads * d_head)
        self.v_proj = nn.Linear(d_model, n_kv_heads * d_head)
        self.out_proj = nn.Linear(n_heads * d_head, d_model)
        self.norm2 = modern.RMSNorm(d_model, eps)
        self.feed_forward = modern.SwiGLU(d_model, d_ff)  # .gate, .up, .down, for your swiglu

    def _self_attention(self, h):
        T = h.shape[-2]
        positions = torch.arange(T, device=h.device)
        q = apply_rotary(split_heads(self.q_proj(h), self.n_heads), positions)
        k = apply_rotary(split_heads(self.k_proj(h), self.n_kv_heads), positions)
        v = split_heads(self.v_proj(h), self.n_kv_heads)
        out = grouped_query_attention(q, k, v, causal_mask(T, device=h.device))
        return self.out_proj(merge_heads(out))

    def _feed_forward(self, h):
        ff = self.feed_forward
        return swiglu(h, ff.gate.weight, ff.up.weight, ff.down.weight)

    def forward(self, x):
        x = x + self._self_attention(rms_norm(x, self.norm1.weight, self.eps))
        return x + self._feed_forward(rms_norm(x, self.norm2.weight, self.eps))
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "other style",
    },
    {
        "notebook": NB09,
        "cell": "ex5_modern_block",
        "code": '''class ModernBlock(nn.Module):
    """Pre-norm causal decoder block: RMSNorm, rotary grouped-query attention, RMSNorm, SwiGLU.

    x (B, T, d_model)  ->  (B, T, d_model)
    """

    def __init__(self, d_model, n_heads, n_kv_heads, d_ff, eps=1e-5):
        super().__init__()
        d_head = d_model // n_heads
        self.n_heads, self.n_kv_heads, self.eps = n_heads, n_kv_heads, eps
        self.norm1 = modern.RMSNorm(d_model, eps)  # its .weight, for your rms_norm
        self.q_proj = nn.Linear(d_model, n_heads * d_head)
        self.k_proj = nn.Linear(d_model, n_kv_heads * d_head)
        self.v_proj = nn.Linear(d_model, n_kv_heads * d_head)
        self.out_proj = nn.Linear(n_heads * d_head, d_model)
        self.norm2 = modern.RMSNorm(d_model, eps)
        self.feed_forward = modern.SwiGLU(d_model, d_ff)  # .gate, .up, .down, for your swiglu

    def forward(self, x):
        T = x.shape[1]
        h = rms_norm(x, self.norm1.weight, self.eps)
        q = split_heads(self.q_proj(h), self.n_heads)
        k = split_heads(self.k_proj(h), self.n_kv_heads)
        v = split_heads(self.v_proj(h), self.n_kv_heads)
        pos = torch.arange(T, device=x.device)
        q, k = apply_rotary(q, pos), apply_rotary(k, pos)
        attn = grouped_query_attention(q, k, v, causal_mask(T, device=x.device))
        h = h + self.out_proj(merge_heads(attn))
        ff = self.feed_forward
        return h + swiglu(rms_norm(h, self.norm2.weight, self.eps), ff.gate.weight, ff.up.weight, ff.down.weight)
''',
        "correct": False,
        "mistake": "The attention's output is added to the normalised h instead of to the block's input x, so the residual stream carries the normed vector instead of x.",
        "keywords": [
            r"residual|skip",
            r"norm(ali[sz]ed|ed)? ?(h|input|output|vector)|after (the )?norm|rms_?norm\(x\)",
            r"instead of (the )?(input|x)|original|raw|un-?normali[sz]ed|to x",
        ],
        "kind": "structure",
    },
    {
        "notebook": NB09,
        "cell": "ex5_modern_block",
        "code": '''class ModernBlock(nn.Module):
    """Pre-norm causal decoder block: RMSNorm, rotary grouped-query attention, RMSNorm, SwiGLU.

    x (B, T, d_model)  ->  (B, T, d_model)
    """

    def __init__(self, d_model, n_heads, n_kv_heads, d_ff, eps=1e-5):
        super().__init__()
        d_head = d_model // n_heads
        self.n_heads, self.n_kv_heads, self.eps = n_heads, n_kv_heads, eps
        self.norm1 = modern.RMSNorm(d_model, eps)  # its .weight, for your rms_norm
        self.q_proj = nn.Linear(d_model, n_heads * d_head)
        self.k_proj = nn.Linear(d_model, n_kv_heads * d_head)
        self.v_proj = nn.Linear(d_model, n_kv_heads * d_head)
        self.out_proj = nn.Linear(n_heads * d_head, d_model)
        self.norm2 = modern.RMSNorm(d_model, eps)
        self.feed_forward = modern.SwiGLU(d_model, d_ff)  # .gate, .up, .down, for your swiglu

    def forward(self, x):
        B, T, _ = x.shape
        h = rms_norm(x, self.norm1.weight, self.eps)
        q = split_heads(self.q_proj(h), self.n_heads)
        k = split_heads(self.k_proj(h), self.n_kv_heads)
        v = split_heads(self.v_proj(h), self.n_kv_heads)
        q = apply_rotary(q, torch.arange(T, device=x.device))
        out = grouped_query_attention(q, k, v, causal_mask(T, device=x.device))
        x = x + self.out_proj(merge_heads(out))
        h2 = rms_norm(x, self.norm2.weight, self.eps)
        ff = self.feed_forward
        return x + swiglu(h2, ff.gate.weight, ff.up.weight, ff.down.weight)
''',
        "correct": False,
        "mistake": "Only the queries are turned by apply_rotary; the keys are left unrotated, so the scores no longer depend on the offset alone.",
        "keywords": [r"\bkeys?\b|\bk\b", r"only (the )?quer|quer(y|ies) only|not (the )?keys?"],
        "kind": "missing term",
    },
    {
        "notebook": NB09,
        "cell": "ex5_modern_block",
        "code": '''class ModernBlock(nn.Module):
    """Pre-norm causal decoder block: RMSNorm, rotary grouped-query attention, RMSNorm, SwiGLU.

    x (B, T, d_model)  ->  (B, T, d_model)
    """

    def __init__(self, d_model, n_heads, n_kv_heads, d_ff, eps=1e-5):
        super().__init__()
        d_head = d_model // n_heads
        self.n_heads, self.n_kv_heads, self.eps = n_heads, n_kv_heads, eps
        self.norm1 = modern.RMSNorm(d_model, eps)  # its .weight, for your rms_norm
        self.q_proj = nn.Linear(d_model, n_heads * d_head)
        self.k_proj = nn.Linear(d_model, n_kv_heads * d_head)
        self.v_proj = nn.Linear(d_model, n_kv_heads * d_head)
        self.out_proj = nn.Linear(n_heads * d_head, d_model)
        self.norm2 = modern.RMSNorm(d_model, eps)
        self.feed_forward = modern.SwiGLU(d_model, d_ff)  # .gate, .up, .down, for your swiglu

    def forward(self, x):
        T = x.size(1)
        positions = torch.arange(T, device=x.device)
        normed = rms_norm(x, self.norm1.weight, self.eps)
        q = apply_rotary(split_heads(self.q_proj(normed), self.n_heads), positions)
        k = apply_rotary(split_heads(self.k_proj(normed), self.n_kv_heads), positions)
        v = split_heads(self.v_proj(normed), self.n_kv_heads)
        heads = grouped_query_attention(q, k, v, causal_mask(T, device=x.device))
        x = x + self.out_proj(merge_heads(heads))
        normed = rms_norm(x, self.norm1.weight, self.eps)
        w = self.feed_forward
        return x + swiglu(normed, w.gate.weight, w.up.weight, w.down.weight)
''',
        "correct": False,
        "mistake": "The second RMSNorm uses the first norm's weight (norm1) instead of norm2's.",
        "keywords": [r"norm ?2|second norm", r"norm ?1|first norm", r"weight"],
        "kind": "operand swap",
    },
    {
        "notebook": NB09,
        "cell": "ex5_modern_block",
        "code": '''class ModernBlock(nn.Module):
    """Pre-norm causal decoder block: RMSNorm, rotary grouped-query attention, RMSNorm, SwiGLU.

    x (B, T, d_model)  ->  (B, T, d_model)
    """

    def __init__(self, d_model, n_heads, n_kv_heads, d_ff, eps=1e-5):
        super().__init__()
        d_head = d_model // n_heads
        self.n_heads, self.n_kv_heads, self.eps = n_heads, n_kv_heads, eps
        self.norm1 = modern.RMSNorm(d_model, eps)  # its .weight, for your rms_norm
        self.q_proj = nn.Linear(d_model, n_heads * d_head)
        self.k_proj = nn.Linear(d_model, n_kv_heads * d_head)
        self.v_proj = nn.Linear(d_model, n_kv_heads * d_head)
        self.out_proj = nn.Linear(n_heads * d_head, d_model)
        self.norm2 = modern.RMSNorm(d_model, eps)
        self.feed_forward = modern.SwiGLU(d_model, d_ff)  # .gate, .up, .down, for your swiglu

    def forward(self, x):
        h = rms_norm(x, self.norm1.weight, self.eps)
        q = split_heads(self.q_proj(h), self.n_heads)
        k = split_heads(self.k_proj(h), self.n_kv_heads)
        v = split_heads(self.v_proj(h), self.n_kv_heads)
        positions = torch.arange(x.shape[1], device=x.device)
        q = apply_rotary(q, positions)
        k = apply_rotary(k, positions)
        a = grouped_query_attention(q, k, v)
        x = x + self.out_proj(merge_heads(a))
        f = self.feed_forward
        return x + swiglu(rms_norm(x, self.norm2.weight, self.eps), f.gate.weight, f.up.weight, f.down.weight)
''',
        "correct": False,
        "mistake": "No causal mask is passed to grouped_query_attention, so each position also attends to the tokens after it.",
        "keywords": [r"causal", r"mask", r"future|later|leak|ahead|subsequent"],
        "kind": "missing term",
    },
    {
        "notebook": NB09,
        "cell": "ex5_modern_block",
        "code": '''class ModernBlock(nn.Module):
    """Pre-norm causal decoder block: RMSNorm, rotary grouped-query attention, RMSNorm, SwiGLU.

    x (B, T, d_model)  ->  (B, T, d_model)
    """

    def __init__(self, d_model, n_heads, n_kv_heads, d_ff, eps=1e-5):
        super().__init__()
        d_head = d_model // n_heads
        self.n_heads, self.n_kv_heads, self.eps = n_heads, n_kv_heads, eps
        self.norm1 = modern.RMSNorm(d_model, eps)  # its .weight, for your rms_norm
        self.q_proj = nn.Linear(d_model, n_heads * d_head)
        self.k_proj = nn.Linear(d_model, n_kv_heads * d_head)
        self.v_proj = nn.Linear(d_model, n_kv_heads * d_head)
        self.out_proj = nn.Linear(n_heads * d_head, d_model)
        self.norm2 = modern.RMSNorm(d_model, eps)
        self.feed_forward = modern.SwiGLU(d_model, d_ff)  # .gate, .up, .down, for your swiglu

    def forward(self, x):
        T = x.shape[-2]
        pos = torch.arange(T, device=x.device)
        h = rms_norm(x, self.norm1.weight, self.eps)
        q = apply_rotary(split_heads(self.q_proj(h), self.n_heads), pos)
        k = apply_rotary(split_heads(self.k_proj(h), self.n_kv_heads), pos)
        v = split_heads(self.v_proj(h), self.n_kv_heads)
        y = grouped_query_attention(q, k, v, causal_mask(T, device=x.device))
        x = x + self.out_proj(merge_heads(y))
        h = rms_norm(x, self.norm2.weight, self.eps)
        ffn = self.feed_forward
        return x + swiglu(h, ffn.up.weight, ffn.gate.weight, ffn.down.weight)
''',
        "correct": False,
        "mistake": "The gate and up weights are passed to swiglu in swapped order, so SiLU is applied to the up projection.",
        "keywords": [r"\bup\b|W_up", r"swap|order|revers|exchang|mix|wrong (order|position)"],
        "kind": "operand swap",
    },
    {
        "notebook": NB09,
        "cell": "ex5_modern_block",
        "code": '''class ModernBlock(nn.Module):
    """Pre-norm causal decoder block: RMSNorm, rotary grouped-query attention, RMSNorm, SwiGLU.

    x (B, T, d_model)  ->  (B, T, d_model)
    """

    def __init__(self, d_model, n_heads, n_kv_heads, d_ff, eps=1e-5):
        super().__init__()
        d_head = d_model // n_heads
        self.n_heads, self.n_kv_heads, self.eps = n_heads, n_kv_heads, eps
        self.norm1 = modern.RMSNorm(d_model, eps)  # its .weight, for your rms_norm
        self.q_proj = nn.Linear(d_model, n_heads * d_head)
        self.k_proj = nn.Linear(d_model, n_kv_heads * d_head)
        self.v_proj = nn.Linear(d_model, n_kv_heads * d_head)
        self.out_proj = nn.Linear(n_heads * d_head, d_model)
        self.norm2 = modern.RMSNorm(d_model, eps)
        self.feed_forward = modern.SwiGLU(d_model, d_ff)  # .gate, .up, .down, for your swiglu

    def forward(self, x):
        T = x.shape[1]
        positions = torch.arange(T, device=x.device)
        h = rms_norm(x, self.norm1.weight, self.eps)
        # turn the projections by their positions, then split into heads
        q = split_heads(apply_rotary(self.q_proj(h), positions), self.n_heads)
        k = split_heads(apply_rotary(self.k_proj(h), positions), self.n_kv_heads)
        v = split_heads(self.v_proj(h), self.n_kv_heads)
        out = grouped_query_attention(q, k, v, causal_mask(T, device=x.device))
        x = x + self.out_proj(merge_heads(out))
        ff = self.feed_forward
        return x + swiglu(rms_norm(x, self.norm2.weight, self.eps), ff.gate.weight, ff.up.weight, ff.down.weight)
''',
        "correct": False,
        "mistake": "The rotary embeddings are applied to the whole projections before they are split into heads, so the frequencies are those of d_model rather than of each head's width.",
        "keywords": [
            r"split",
            r"per.head|each head|head'?s? width|d_head",
            r"d_model|whole (projection|vector)|full (projection|width)",
        ],
        "kind": "order",
    },
    # ------------------------------------------------------------------------------------------
    # 10 · Exercise 1 — online_softmax_step
    # ------------------------------------------------------------------------------------------
    {
        "notebook": NB10,
        "cell": "ex1_online_softmax_step",
        "code": '''def online_softmax_step(m, l, z):
    """Fold a block of scores into the running maximum and normaliser of each row.

    m, l: (...) the maximum of the scores seen so far and Σ exp(score − m) over them;
    z: (..., b) the next block of scores  ->  m_new, l_new (...)
    """
    block_max = z.max(dim=-1).values
    m_new = torch.where(block_max > m, block_max, m)
    l_new = l * torch.exp(m - m_new) + torch.exp(z - m_new.unsqueeze(-1)).sum(dim=-1)
    return m_new, l_new
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "other style",
    },
    {
        "notebook": NB10,
        "cell": "ex1_online_softmax_step",
        "code": """def online_softmax_step(m, l, z):
    m_new = torch.maximum(m, z.amax(dim=-1))
    l_new = l + torch.exp(z - m_new[..., None]).sum(dim=-1)
    return m_new, l_new
""",
        "correct": False,
        "mistake": "The old normaliser l is not rescaled by exp(m − m_new) when the maximum grows.",
        "keywords": [
            r"rescal|correction|factor",
            r"exp ?\(? ?m ?[-−] ?m_new|e\^\(?m ?[-−]",
            r"old (normali[sz]er|sum|l)|previous|running",
        ],
        "kind": "missing term",
    },
    {
        "notebook": NB10,
        "cell": "ex1_online_softmax_step",
        "code": '''def online_softmax_step(m, l, z):
    """Fold a block of scores into the running maximum and normaliser of each row."""
    m_new = torch.maximum(m, z.amax(dim=-1))
    scale = torch.exp(m_new - m)
    l_new = l * scale + torch.exp(z - m_new[..., None]).sum(dim=-1)
    return m_new, l_new
''',
        "correct": False,
        "mistake": "The rescaling factor is exp(m_new − m) instead of exp(m − m_new): the sign of the exponent is flipped.",
        "keywords": [
            r"sign|invert|revers|flip|wrong way|upside|opposite|negat",
            r"m_new ?[-−] ?m|exponent",
        ],
        "kind": "sign",
    },
    {
        "notebook": NB10,
        "cell": "ex1_online_softmax_step",
        "code": """def online_softmax_step(m, l, z):
    m_new = z.amax(dim=-1)
    l_new = l * torch.exp(m - m_new) + torch.exp(z - m_new[..., None]).sum(dim=-1)
    return m_new, l_new
""",
        "correct": False,
        "mistake": "The new maximum is the block's maximum alone, forgetting the running maximum m, so it falls when a block's scores are lower than earlier ones.",
        "keywords": [
            r"running max|old max|previous max|earlier max|max(imum)? so far|torch\.maximum|forg|ignor",
            r"block'?s? (own )?max|only (the )?(new )?block|max(imum)? of (the )?block",
        ],
        "kind": "state",
    },
    {
        "notebook": NB10,
        "cell": "ex1_online_softmax_step",
        "code": '''def online_softmax_step(m, l, z):
    """Fold a block of scores into the running maximum and normaliser of each row.

    m, l: (...) the maximum of the scores seen so far and Σ exp(score − m) over them;
    z: (..., b) the next block of scores  ->  m_new, l_new (...)
    """
    m_new = torch.maximum(m, z.max())
    l_new = l * torch.exp(m - m_new) + torch.sum(torch.exp(z - m_new[..., None]), dim=-1)
    return m_new, l_new
''',
        "correct": False,
        "mistake": "z.max() without a dim takes the largest score of the whole block across all rows, not each row's maximum, so batched rows get the wrong running maximum.",
        "keywords": [
            r"per.row|each row|row.?wise|every row",
            r"global|whole (block|tensor)|all rows|across rows|without (a )?dim|no dim|dim ?= ?-1|axis",
        ],
        "kind": "axis",
    },
    {
        "notebook": NB10,
        "cell": "ex1_online_softmax_step",
        "code": """def online_softmax_step(m, l, z):
    m_new = torch.maximum(m, z.amax(-1))
    # add the new block to the old sum, then move the whole sum to the new maximum
    l_new = (l + torch.exp(z - m[..., None]).sum(-1)) * torch.exp(m - m_new)
    return m_new, l_new
""",
        "correct": False,
        "mistake": "The new scores are exponentiated against the old maximum before rescaling, so exp(z − m) overflows (infinite from m = −inf on the first block) instead of every exponent staying at most 0.",
        "keywords": [
            r"overflow|inf|nan|unstable|stabil",
            r"old max|previous max|z ?[-−] ?m\b|before (the )?rescal|order",
        ],
        "kind": "order",
    },
    {
        "notebook": NB10,
        "cell": "ex1_online_softmax_step",
        "code": """def online_softmax_step(m, l, z):
    m_new = torch.maximum(m, z.amax(dim=-1))
    l *= torch.exp(m - m_new)
    l += torch.exp(z - m_new.unsqueeze(-1)).sum(dim=-1)
    return m_new, l
""",
        "correct": False,
        "mistake": "It updates l in place (l *= …, l += …), changing the caller's running normaliser, so calling it again from the same state gives a wrong result.",
        "keywords": [
            r"in.place|\*=|\+=",
            r"mutat|modif|overwrit|clobber",
            r"caller'?s|(changes|changing|changed) (the )?(l\b|state|argument|running)",
        ],
        "kind": "state",
    },
    # ------------------------------------------------------------------------------------------
    # 10 · Exercise 2 — tiled_attention
    # ------------------------------------------------------------------------------------------
    {
        "notebook": NB10,
        "cell": "ex2_tiled_attention",
        "code": '''def tiled_attention(Q, K, V, block_q, block_k, causal=False):
    """softmax(Q Kᵀ / √d) V, one (block_q × block_k) block of scores at a time.

    Q: (..., T, d), K: (..., S, d), V: (..., S, d_v); causal: key s visible to query t when s <= t
    ->  O (..., T, d_v), L (..., T): each row's log-sum-exp of its scaled scores
    """
    T, S, d = Q.shape[-2], K.shape[-2], Q.shape[-1]
    Qs = Q / math.sqrt(d)  # scale the queries once instead of every block of scores
    O_blocks, L_blocks = [], []
    q_start = 0
    while q_start < T:
        q_end = min(q_start + block_q, T)
        Qi = Qs[..., q_start:q_end, :]
        rows = Qi.shape[:-1]
        m = torch.full(rows, float("-inf"), dtype=Q.dtype, device=Q.device)
        l = torch.zeros(rows, dtype=Q.dtype, device=Q.device)
        acc = torch.zeros(*rows, V.shape[-1], dtype=Q.dtype, device=Q.device)
        k_stop = min(S, q_end) if causal else S  # key blocks starting after the last query are all masked
        for k_start in range(0, k_stop, block_k):
            Kj = K[..., k_start:k_start + block_k, :]
            Vj = V[..., k_start:k_start + block_k, :]
            Sij = Qi @ Kj.transpose(-2, -1)
            if causal:
                q_pos = torch.arange(q_start, q_end, device=Q.device)
                k_pos = torch.arange(k_start, k_start + Kj.shape[-2], device=Q.device)
                Sij = torch.where(k_pos[None, :] <= q_pos[:, None], Sij, float("-inf"))
            m_new = torch.maximum(m, Sij.amax(dim=-1))
            alpha = torch.exp(m - m_new)
            P = torch.exp(Sij - m_new[..., None])
            l = alpha * l + P.sum(dim=-1)
            acc = alpha[..., None] * acc + P @ Vj
            m = m_new
        O_blocks.append(acc / l[..., None])
        L_blocks.append(m + l.log())
        q_start = q_end
    return torch.cat(O_blocks, dim=-2), torch.cat(L_blocks, dim=-1)
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "other style",
    },
    {
        "notebook": NB10,
        "cell": "ex2_tiled_attention",
        "code": """def tiled_attention(Q, K, V, block_q, block_k, causal=False):
    T, S = Q.shape[-2], K.shape[-2]
    outs, lses = [], []
    for i in range(0, T, block_q):
        q = Q[..., i:i + block_q, :]
        n = q.shape[-2]
        m = torch.full(q.shape[:-1], float("-inf"), dtype=Q.dtype, device=Q.device)
        l = torch.zeros(q.shape[:-1], dtype=Q.dtype, device=Q.device)
        acc = torch.zeros(*q.shape[:-1], V.shape[-1], dtype=Q.dtype, device=Q.device)
        for j in range(0, S, block_k):
            if causal and j > i + n - 1:
                break
            s = q @ K[..., j:j + block_k, :].transpose(-2, -1)
            if causal:
                qi = torch.arange(i, i + n, device=Q.device)[:, None]
                kj = torch.arange(j, j + s.shape[-1], device=Q.device)[None, :]
                s = s.masked_fill(kj > qi, float("-inf"))
            m_new = torch.maximum(m, s.amax(-1))
            p = torch.exp(s - m_new[..., None])
            corr = torch.exp(m - m_new)
            l = l * corr + p.sum(-1)
            acc = acc * corr[..., None] + p @ V[..., j:j + block_k, :]
            m = m_new
        outs.append(acc / l[..., None])
        lses.append(m + torch.log(l))
    return torch.cat(outs, dim=-2), torch.cat(lses, dim=-1)
""",
        "correct": False,
        "mistake": "The scores are never divided by √d, so both O and L are those of unscaled attention.",
        "keywords": [r"√ ?d|sqrt|square root", r"scal(e|es|ing|ed)\b"],
        "kind": "scale",
    },
    {
        "notebook": NB10,
        "cell": "ex2_tiled_attention",
        "code": '''def tiled_attention(Q, K, V, block_q, block_k, causal=False):
    """softmax(Q Kᵀ / √d) V, one (block_q × block_k) block of scores at a time."""
    T, S = Q.shape[-2], K.shape[-2]
    scale = 1.0 / math.sqrt(Q.shape[-1])
    O_parts, L_parts = [], []
    for i in range(0, T, block_q):
        Qi = Q[..., i:i + block_q, :]
        last = i + Qi.shape[-2] - 1
        m = torch.full(Qi.shape[:-1], float("-inf"), dtype=Q.dtype, device=Q.device)
        l = torch.zeros(Qi.shape[:-1], dtype=Q.dtype, device=Q.device)
        acc = torch.zeros(*Qi.shape[:-1], V.shape[-1], dtype=Q.dtype, device=Q.device)
        for j in range(0, S, block_k):
            if causal and j > last:
                break
            Sij = (Qi @ K[..., j:j + block_k, :].transpose(-2, -1)) * scale
            if causal:
                rows = torch.arange(i, i + Qi.shape[-2], device=Q.device)
                cols = torch.arange(j, j + Sij.shape[-1], device=Q.device)
                Sij = Sij.masked_fill(cols[None, :] > rows[:, None], float("-inf"))
            m_new = torch.maximum(m, Sij.amax(dim=-1))
            P = torch.exp(Sij - m_new[..., None])
            l = l * torch.exp(m - m_new) + P.sum(dim=-1)
            acc = acc * torch.exp(m - m_new)[..., None] + P @ V[..., j:j + block_k, :]
            m = m_new
        O_parts.append(acc / l[..., None])
        L_parts.append(torch.log(l))
    return torch.cat(O_parts, dim=-2), torch.cat(L_parts, dim=-1)
''',
        "correct": False,
        "mistake": "L is returned as log l without adding the running maximum m, so it is not the row's log-sum-exp.",
        "keywords": [
            r"\bm ?\+|plus m|add(ing|s|ed)? (the )?(running )?(max|m\b)|without (the )?(running )?(max|m\b)|missing (the )?(running )?(max|m\b)",
            r"log ?\(?l\)? (only|alone)|only log",
        ],
        "kind": "missing term",
    },
    {
        "notebook": NB10,
        "cell": "ex2_tiled_attention",
        "code": """def tiled_attention(Q, K, V, block_q, block_k, causal=False):
    T, S, d = Q.shape[-2], K.shape[-2], Q.shape[-1]
    O, L = [], []
    for i in range(0, T, block_q):
        Qi = Q[..., i:i + block_q, :]
        m = torch.full(Qi.shape[:-1], float("-inf"), dtype=Q.dtype, device=Q.device)
        l = torch.zeros(Qi.shape[:-1], dtype=Q.dtype, device=Q.device)
        acc = torch.zeros(*Qi.shape[:-1], V.shape[-1], dtype=Q.dtype, device=Q.device)
        for j in range(0, S, block_k):
            if causal and j > i:  # this key block starts after the query block: masked
                break
            Kj, Vj = K[..., j:j + block_k, :], V[..., j:j + block_k, :]
            scores = Qi @ Kj.transpose(-2, -1) / math.sqrt(d)
            if causal:
                q_pos = torch.arange(i, i + Qi.shape[-2], device=Q.device)
                k_pos = torch.arange(j, j + Kj.shape[-2], device=Q.device)
                scores = scores.masked_fill(k_pos > q_pos[:, None], float("-inf"))
            m_new = torch.maximum(m, scores.amax(-1))
            p = torch.exp(scores - m_new.unsqueeze(-1))
            alpha = torch.exp(m - m_new)
            l = alpha * l + p.sum(-1)
            acc = alpha.unsqueeze(-1) * acc + p @ Vj
            m = m_new
        O.append(acc / l.unsqueeze(-1))
        L.append(m + torch.log(l))
    return torch.cat(O, -2), torch.cat(L, -1)
""",
        "correct": False,
        "mistake": "The causal loop stops once a key block starts after the query block's first query instead of its last query, so key blocks that straddle the diagonal are wrongly skipped.",
        "keywords": [
            r"first query|last query|straddl|diagonal|j ?> ?i\b",
            r"off.by.one|too early|too soon|prematur",
        ],
        "kind": "off-by-one",
    },
    {
        "notebook": NB10,
        "cell": "ex2_tiled_attention",
        "code": '''def tiled_attention(Q, K, V, block_q, block_k, causal=False):
    """softmax(Q Kᵀ / √d) V, one (block_q × block_k) block of scores at a time."""
    T, S = Q.shape[-2], K.shape[-2]
    scale = Q.shape[-1] ** -0.5
    out_blocks, lse_blocks = [], []
    for q0 in range(0, T, block_q):
        q = Q[..., q0:q0 + block_q, :]
        nq = q.shape[-2]
        m = torch.full(q.shape[:-1], float("-inf"), dtype=Q.dtype, device=Q.device)
        l = torch.zeros_like(m)
        acc = torch.zeros(*q.shape[:-1], V.shape[-1], dtype=Q.dtype, device=Q.device)
        for k0 in range(0, S, block_k):
            if causal and k0 > q0 + nq - 1:
                break
            k = K[..., k0:k0 + block_k, :]
            s = q @ k.transpose(-2, -1) * scale
            if causal:
                allowed = torch.arange(k0, k0 + k.shape[-2], device=Q.device) <= torch.arange(q0, q0 + nq, device=Q.device)[:, None]
                s = s.masked_fill(~allowed, float("-inf"))
            m_new = torch.maximum(m, s.amax(-1))
            p = torch.exp(s - m_new[..., None])
            l = l * torch.exp(m - m_new) + p.sum(-1)
            acc = acc + p @ V[..., k0:k0 + block_k, :]
            m = m_new
        out_blocks.append(acc / l[..., None])
        lse_blocks.append(m + torch.log(l))
    return torch.cat(out_blocks, dim=-2), torch.cat(lse_blocks, dim=-1)
''',
        "correct": False,
        "mistake": "The accumulator is not rescaled by exp(m − m_new) when the maximum grows (only l is), so O is wrong whenever a later key block raises a row's maximum.",
        "keywords": [
            r"accumulat|\bacc\b|numerator|weighted sum",
            r"(not|never|isn'?t|without) (being )?rescal",
        ],
        "kind": "missing term",
    },
    {
        "notebook": NB10,
        "cell": "ex2_tiled_attention",
        "code": """def tiled_attention(Q, K, V, block_q, block_k, causal=False):
    T, S = Q.shape[-2], K.shape[-2]
    scale = 1 / math.sqrt(Q.shape[-1])
    outputs, logsumexps = [], []
    for i in range(0, T, block_q):
        q = Q[..., i:i + block_q, :]
        last_query = i + q.shape[-2] - 1
        m = torch.zeros(q.shape[:-1], dtype=Q.dtype, device=Q.device)
        l = torch.zeros(q.shape[:-1], dtype=Q.dtype, device=Q.device)
        acc = torch.zeros(*q.shape[:-1], V.shape[-1], dtype=Q.dtype, device=Q.device)
        for j in range(0, S, block_k):
            if causal and j > last_query:
                break
            scores = q @ K[..., j:j + block_k, :].transpose(-2, -1) * scale
            if causal:
                rows = torch.arange(i, i + q.shape[-2], device=Q.device)
                cols = torch.arange(j, j + scores.shape[-1], device=Q.device)
                scores = scores.masked_fill(cols > rows[:, None], float("-inf"))
            m_new = torch.maximum(m, scores.amax(dim=-1))
            p = torch.exp(scores - m_new[..., None])
            rescale = torch.exp(m - m_new)
            l = l * rescale + p.sum(dim=-1)
            acc = acc * rescale[..., None] + p @ V[..., j:j + block_k, :]
            m = m_new
        outputs.append(acc / l[..., None])
        logsumexps.append(m + torch.log(l))
    return torch.cat(outputs, dim=-2), torch.cat(logsumexps, dim=-1)
""",
        "correct": False,
        "mistake": "The running maximum starts at 0 instead of −inf, so a row whose scores are all far below 0 underflows to l = 0 and gives NaN or infinite results.",
        "keywords": [
            r"-inf|−inf|-∞|−∞|infinity",
            r"initiali[sz]|start|zero|\b0\b",
            r"underflow|nan",
        ],
        "kind": "state",
    },
    {
        "notebook": NB10,
        "cell": "ex2_tiled_attention",
        "code": '''def tiled_attention(Q, K, V, block_q, block_k, causal=False):
    """softmax(Q Kᵀ / √d) V, one (block_q × block_k) block of scores at a time."""
    T, S, d = Q.shape[-2], K.shape[-2], Q.shape[-1]
    res_O, res_L = [], []
    for qs in range(0, T, block_q):
        Qi = Q[..., qs:qs + block_q, :]
        bq = Qi.shape[-2]
        m = torch.full(Qi.shape[:-1], float("-inf"), dtype=Q.dtype, device=Q.device)
        l = torch.zeros(Qi.shape[:-1], dtype=Q.dtype, device=Q.device)
        acc = torch.zeros(*Qi.shape[:-1], V.shape[-1], dtype=Q.dtype, device=Q.device)
        for ks in range(0, S, block_k):
            if causal and ks > qs + bq - 1:
                break
            Kj = K[..., ks:ks + block_k, :]
            Sij = Qi @ Kj.transpose(-2, -1) / math.sqrt(d)
            if causal:
                future = torch.arange(ks, ks + Kj.shape[-2], device=Q.device)[None, :] > torch.arange(qs, qs + bq, device=Q.device)[:, None]
                Sij = Sij.masked_fill(future, 0.0)
            m_new = torch.maximum(m, Sij.amax(-1))
            P = torch.exp(Sij - m_new[..., None])
            alpha = torch.exp(m - m_new)
            l = l * alpha + P.sum(-1)
            acc = acc * alpha[..., None] + P @ V[..., ks:ks + block_k, :]
            m = m_new
        res_O.append(acc / l[..., None])
        res_L.append(m + torch.log(l))
    return torch.cat(res_O, dim=-2), torch.cat(res_L, dim=-1)
''',
        "correct": False,
        "mistake": "Masked scores are set to 0 instead of −inf, so future keys still get weight exp(0 − m).",
        "keywords": [r"-inf|−inf|-∞|−∞|infinity", r"(to|with|as) (0|zero)|zero(s|ed)?\b|0\.0"],
        "kind": "mask value",
    },
    {
        "notebook": NB10,
        "cell": "ex2_tiled_attention",
        "code": """def tiled_attention(Q, K, V, block_q, block_k, causal=False):
    T, S = Q.shape[-2], K.shape[-2]
    sm_scale = 1.0 / math.sqrt(Q.shape[-1])
    all_O, all_L = [], []
    for i in range(0, T, block_q):
        Qi = Q[..., i:i + block_q, :]
        m_i = torch.full(Qi.shape[:-1], float("-inf"), dtype=Q.dtype, device=Q.device)
        l_i = torch.zeros(Qi.shape[:-1], dtype=Q.dtype, device=Q.device)
        acc = torch.zeros(*Qi.shape[:-1], V.shape[-1], dtype=Q.dtype, device=Q.device)
        for j in range(0, S, block_k):
            if causal and j > i + block_q:  # the key block starts after this query block
                break
            S_ij = Qi @ K[..., j:j + block_k, :].transpose(-2, -1) * sm_scale
            if causal:
                q_idx = torch.arange(i, i + Qi.shape[-2], device=Q.device).unsqueeze(1)
                k_idx = torch.arange(j, j + S_ij.shape[-1], device=Q.device).unsqueeze(0)
                S_ij = S_ij.masked_fill(k_idx > q_idx, float("-inf"))
            m_new = torch.maximum(m_i, S_ij.amax(dim=-1))
            P_ij = torch.exp(S_ij - m_new.unsqueeze(-1))
            factor = torch.exp(m_i - m_new)
            l_i = factor * l_i + P_ij.sum(dim=-1)
            acc = factor.unsqueeze(-1) * acc + P_ij @ V[..., j:j + block_k, :]
            m_i = m_new
        all_O.append(acc / l_i.unsqueeze(-1))
        all_L.append(m_i + torch.log(l_i))
    return torch.cat(all_O, dim=-2), torch.cat(all_L, dim=-1)
""",
        "correct": False,
        "mistake": "The causal loop breaks only when a key block starts after i + block_q instead of after the last query i + block_q − 1, so a fully masked key block that starts just after the query block is still computed (right values, wasted matrix products).",
        "keywords": [
            r"extra|wast|unnecessar|not skipped|flops|too (late|many)|one more|redundant",
            r"off.by.one|last query|block_q ?[-−] ?1|i ?\+ ?block_q|just after|fully masked|empt",
        ],
        "kind": "off-by-one",
    },
    # ------------------------------------------------------------------------------------------
    # 10 · Exercise 3 — attention_backward
    # ------------------------------------------------------------------------------------------
    {
        "notebook": NB10,
        "cell": "ex3_attention_backward",
        "code": '''def attention_backward(Q, K, V, P, dO):
    """Gradients of O = P V, P = softmax(Q Kᵀ / √d), without the softmax's Jacobian.

    Q: (..., T, d), K: (..., S, d), V: (..., S, d_v), P: (..., T, S), dO: (..., T, d_v)
    ->  dQ (..., T, d), dK (..., S, d), dV (..., S, d_v)
    """
    scale = Q.shape[-1] ** -0.5
    dV = torch.einsum("...ts,...tv->...sv", P, dO)
    dP = torch.einsum("...tv,...sv->...ts", dO, V)
    row = torch.einsum("...ts,...ts->...t", P, dP).unsqueeze(-1)  # p · g for every row
    dS = P * (dP - row)
    dQ = torch.einsum("...ts,...sd->...td", dS, K) * scale
    dK = torch.einsum("...ts,...td->...sd", dS, Q) * scale
    return dQ, dK, dV
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "other style",
    },
    {
        "notebook": NB10,
        "cell": "ex3_attention_backward",
        "code": """def attention_backward(Q, K, V, P, dO):
    d = Q.shape[-1]
    dV = P @ dO
    dP = dO @ V.transpose(-2, -1)
    dS = P * (dP - (P * dP).sum(dim=-1, keepdim=True))
    dQ = dS @ K / math.sqrt(d)
    dK = dS.transpose(-2, -1) @ Q / math.sqrt(d)
    return dQ, dK, dV
""",
        "correct": False,
        "mistake": "dV is computed as P dO instead of Pᵀ dO: the weights are not transposed.",
        "keywords": [r"transpos|Pᵀ|P\^T|P\.T", r"P ?@ ?dO|P ?dO\b"],
        "kind": "operand swap",
    },
    {
        "notebook": NB10,
        "cell": "ex3_attention_backward",
        "code": '''def attention_backward(Q, K, V, P, dO):
    """Gradients of O = P V, P = softmax(Q Kᵀ / √d), without the softmax's Jacobian."""
    scale = 1.0 / math.sqrt(Q.shape[-1])
    dV = P.transpose(-2, -1) @ dO
    dP = dO @ V.transpose(-2, -1)
    dS = P * dP
    dQ = (dS @ K) * scale
    dK = (dS.transpose(-2, -1) @ Q) * scale
    return dQ, dK, dV
''',
        "correct": False,
        "mistake": "The softmax's gradient leaves out the row-sum term: dS = P ⊙ dP instead of P ⊙ (dP − rowsum(P ⊙ dP)).",
        "keywords": [
            r"row.?sum|p ?[·⋅] ?g|subtract|minus|D_t|\bD\b|correction",
            r"P ?[⊙*] ?dP (only|alone)|only (the )?diagonal|off.diagonal|p ?pᵀ|outer",
        ],
        "kind": "missing term",
    },
    {
        "notebook": NB10,
        "cell": "ex3_attention_backward",
        "code": """def attention_backward(Q, K, V, P, dO):
    sqrt_d = math.sqrt(Q.size(-1))
    dV = P.transpose(-2, -1) @ dO
    dP = dO @ V.transpose(-2, -1)
    dS = P * (dP - torch.sum(P * dP, dim=-1, keepdim=True))
    dQ = dS @ K / sqrt_d
    dK = dS.transpose(-2, -1) @ Q
    return dQ, dK, dV
""",
        "correct": False,
        "mistake": "dK is not divided by √d (dQ is), so dK is √d times too large.",
        "keywords": [r"√ ?d|sqrt|square root|1 ?/ ?√", r"scal(e|ing|ed)\b|too large|factor"],
        "kind": "scale",
    },
    {
        "notebook": NB10,
        "cell": "ex3_attention_backward",
        "code": """def attention_backward(Q, K, V, P, dO):
    scale = 1 / math.sqrt(Q.shape[-1])
    dV = P.transpose(-2, -1) @ dO
    dP = dO @ V.transpose(-2, -1)
    dS = P * (dP - (P * dP).sum(dim=-2, keepdim=True))
    dQ = dS @ K * scale
    dK = dS.transpose(-2, -1) @ Q * scale
    return dQ, dK, dV
""",
        "correct": False,
        "mistake": "The sum of P ⊙ dP is taken over the queries (dim=-2, a column sum) instead of over each row's keys (dim=-1).",
        "keywords": [r"axis|dim", r"column|-2|over (the )?quer|wrong (axis|dim)"],
        "kind": "axis",
    },
    {
        "notebook": NB10,
        "cell": "ex3_attention_backward",
        "code": '''def attention_backward(Q, K, V, P, dO):
    """Gradients of O = P V, P = softmax(Q Kᵀ / √d), without the softmax's Jacobian."""
    root = V.shape[-1] ** 0.5
    dV = P.transpose(-2, -1) @ dO
    dP = dO @ V.transpose(-2, -1)
    dS = P * (dP - (P * dP).sum(-1, keepdim=True))
    dQ = dS @ K / root
    dK = dS.transpose(-2, -1) @ Q / root
    return dQ, dK, dV
''',
        "correct": False,
        "mistake": "The gradients are divided by the square root of the value width d_v instead of the query/key width d, which is only right when d_v = d.",
        "keywords": [
            r"d_v|value (width|dim|size)|V\.shape|width of (the )?values",
            r"\bd\b instead|not d\b|query.?/?key width|d_k|Q\.shape",
        ],
        "kind": "scale",
    },
    # ------------------------------------------------------------------------------------------
    # 10 · Exercise 4 — flash_backward
    # ------------------------------------------------------------------------------------------
    {
        "notebook": NB10,
        "cell": "ex4_flash_backward",
        "code": '''def flash_backward(Q, K, V, O, L, dO, block_q, block_k, causal=False):
    """The backward pass of tiled attention, rebuilding each block of weights from L.

    Q: (..., T, d), K: (..., S, d), V: (..., S, d_v), O and dO: (..., T, d_v), L: (..., T)
    ->  dQ (..., T, d), dK (..., S, d), dV (..., S, d_v)
    """
    T, S = Q.shape[-2], K.shape[-2]
    scale = 1.0 / math.sqrt(Q.shape[-1])
    D = (dO * O).sum(dim=-1)
    dQ, dK, dV = torch.zeros_like(Q), torch.zeros_like(K), torch.zeros_like(V)
    # query blocks outside, key blocks inside: the same pairs of blocks, in another order
    for q0 in range(0, T, block_q):
        q1 = min(q0 + block_q, T)
        Qi, dOi = Q[..., q0:q1, :], dO[..., q0:q1, :]
        Li, Di = L[..., q0:q1, None], D[..., q0:q1, None]
        for k0 in range(0, S, block_k):
            if causal and k0 > q1 - 1:
                break
            k1 = min(k0 + block_k, S)
            Kj, Vj = K[..., k0:k1, :], V[..., k0:k1, :]
            Sij = (Qi @ Kj.transpose(-2, -1)) * scale
            if causal:
                visible = torch.arange(k0, k1, device=Q.device)[None, :] <= torch.arange(q0, q1, device=Q.device)[:, None]
                Sij = Sij.masked_fill(~visible, float("-inf"))
            P = torch.exp(Sij - Li)
            dV[..., k0:k1, :] += P.transpose(-2, -1) @ dOi
            dS = P * (dOi @ Vj.transpose(-2, -1) - Di)
            dQ[..., q0:q1, :] += (dS @ Kj) * scale
            dK[..., k0:k1, :] += (dS.transpose(-2, -1) @ Qi) * scale
    return dQ, dK, dV
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "other style",
    },
    {
        "notebook": NB10,
        "cell": "ex4_flash_backward",
        "code": """def flash_backward(Q, K, V, O, L, dO, block_q, block_k, causal=False):
    T, S = Q.shape[-2], K.shape[-2]
    scale = 1 / math.sqrt(Q.shape[-1])
    dQ, dK, dV = torch.zeros_like(Q), torch.zeros_like(K), torch.zeros_like(V)
    for j in range(0, S, block_k):
        Kj, Vj = K[..., j:j + block_k, :], V[..., j:j + block_k, :]
        for i in range(0, T, block_q):
            Qi, dOi = Q[..., i:i + block_q, :], dO[..., i:i + block_q, :]
            last_query = i + Qi.shape[-2] - 1
            if causal and j > last_query:
                continue
            S_ij = Qi @ Kj.transpose(-2, -1) * scale
            if causal:
                rows = torch.arange(i, i + Qi.shape[-2], device=Q.device)
                cols = torch.arange(j, j + Kj.shape[-2], device=Q.device)
                S_ij = S_ij.masked_fill(cols[None, :] > rows[:, None], float("-inf"))
            P = torch.exp(S_ij - L[..., i:i + block_q, None])
            dP = dOi @ Vj.transpose(-2, -1)
            D = (P * dP).sum(dim=-1, keepdim=True)
            dS = P * (dP - D)
            dV[..., j:j + block_k, :] += P.transpose(-2, -1) @ dOi
            dQ[..., i:i + block_q, :] += dS @ Kj * scale
            dK[..., j:j + block_k, :] += dS.transpose(-2, -1) @ Qi * scale
    return dQ, dK, dV
""",
        "correct": False,
        "mistake": "The row sum D is taken from the current block's P ⊙ dP only, instead of over the whole row as rowsum(dO ⊙ O), so it is wrong whenever a row spans more than one key block.",
        "keywords": [
            r"whole row|all (the )?keys|per block|each block|one block|current block|partial|local|block'?s? own",
            r"dO ?[⊙*·] ?O|rowsum\(dO",
        ],
        "kind": "structure",
    },
    {
        "notebook": NB10,
        "cell": "ex4_flash_backward",
        "code": '''def flash_backward(Q, K, V, O, L, dO, block_q, block_k, causal=False):
    """The backward pass of tiled attention, rebuilding each block of weights from L."""
    T, S = Q.shape[-2], K.shape[-2]
    rt = math.sqrt(Q.shape[-1])
    D = (dO * O).sum(-1)
    dQ = torch.zeros_like(Q)
    dK = torch.zeros_like(K)
    dV = torch.zeros_like(V)
    for k0 in range(0, S, block_k):
        Kb, Vb = K[..., k0:k0 + block_k, :], V[..., k0:k0 + block_k, :]
        for q0 in range(0, T, block_q):
            Qb, dOb = Q[..., q0:q0 + block_q, :], dO[..., q0:q0 + block_q, :]
            nq = Qb.shape[-2]
            if causal and k0 > q0 + nq - 1:
                continue
            s = Qb @ Kb.transpose(-2, -1)
            if causal:
                hide = torch.arange(k0, k0 + Kb.shape[-2], device=Q.device) > torch.arange(q0, q0 + nq, device=Q.device)[:, None]
                s = s.masked_fill(hide, float("-inf"))
            p = torch.exp(s - L[..., q0:q0 + nq].unsqueeze(-1))
            dV[..., k0:k0 + block_k, :] += p.transpose(-2, -1) @ dOb
            ds = p * (dOb @ Vb.transpose(-2, -1) - D[..., q0:q0 + nq].unsqueeze(-1))
            dQ[..., q0:q0 + block_q, :] += ds @ Kb / rt
            dK[..., k0:k0 + block_k, :] += ds.transpose(-2, -1) @ Qb / rt
    return dQ, dK, dV
''',
        "correct": False,
        "mistake": "The scores rebuilt in each block are not divided by √d before exp(S − L), so the rebuilt weights do not match the forward pass's.",
        "keywords": [r"√ ?d|sqrt|square root|1 ?/ ?√", r"scal(e|ing|ed)\b"],
        "kind": "scale",
    },
    {
        "notebook": NB10,
        "cell": "ex4_flash_backward",
        "code": """def flash_backward(Q, K, V, O, L, dO, block_q, block_k, causal=False):
    T, S = Q.shape[-2], K.shape[-2]
    scale = Q.shape[-1] ** -0.5
    D = torch.sum(dO * O, dim=-1, keepdim=True)
    dQ, dK, dV = torch.zeros_like(Q), torch.zeros_like(K), torch.zeros_like(V)
    for j in range(0, S, block_k):
        K_j, V_j = K[..., j:j + block_k, :], V[..., j:j + block_k, :]
        for i in range(0, T, block_q):
            if causal and j > min(i + block_q, T) - 1:
                continue  # every key of this block comes after every query of the query block
            Q_i, dO_i = Q[..., i:i + block_q, :], dO[..., i:i + block_q, :]
            S_ij = Q_i @ K_j.transpose(-2, -1) * scale
            P_ij = torch.exp(S_ij - L[..., i:i + block_q].unsqueeze(-1))
            dV[..., j:j + block_k, :] += P_ij.transpose(-2, -1) @ dO_i
            dS_ij = P_ij * (dO_i @ V_j.transpose(-2, -1) - D[..., i:i + block_q, :])
            dQ[..., i:i + block_q, :] += dS_ij @ K_j * scale
            dK[..., j:j + block_k, :] += dS_ij.transpose(-2, -1) @ Q_i * scale
    return dQ, dK, dV
""",
        "correct": False,
        "mistake": "With causal=True it skips the fully masked blocks but never masks the future keys inside the blocks that straddle the diagonal, so their rebuilt weights are not zero.",
        "keywords": [
            r"straddl|diagonal|inside|within|partial|partly",
            r"(no|not|never|without|missing|forg\w*) (the )?(causal )?mask",
        ],
        "kind": "missing term",
    },
    {
        "notebook": NB10,
        "cell": "ex4_flash_backward",
        "code": '''def flash_backward(Q, K, V, O, L, dO, block_q, block_k, causal=False):
    """The backward pass of tiled attention, rebuilding each block of weights from L."""
    T, S = Q.shape[-2], K.shape[-2]
    inv = 1.0 / math.sqrt(Q.shape[-1])
    D = (dO * O).sum(dim=-1)
    dQ, dK, dV = torch.zeros_like(Q), torch.zeros_like(K), torch.zeros_like(V)
    for j in range(0, S, block_k):
        Kj, Vj = K[..., j:j + block_k, :], V[..., j:j + block_k, :]
        for i in range(0, T, block_q):
            Qi, dOi = Q[..., i:i + block_q, :], dO[..., i:i + block_q, :]
            rows = torch.arange(i, i + Qi.shape[-2], device=Q.device)
            cols = torch.arange(j, j + Kj.shape[-2], device=Q.device)
            Sij = Qi @ Kj.transpose(-2, -1) * inv
            if causal:
                Sij = Sij.masked_fill(cols[None, :] > rows[:, None], float("-inf"))
            P = torch.exp(Sij - L[..., i:i + block_q, None])
            dV[..., j:j + block_k, :] += P.transpose(-2, -1) @ dOi
            dS = P * (dOi @ Vj.transpose(-2, -1) - D[..., i:i + block_q, None])
            dQ[..., i:i + block_q, :] += dS @ Kj * inv
            dK[..., j:j + block_k, :] += dS.transpose(-2, -1) @ Qi
    return dQ, dK, dV
''',
        "correct": False,
        "mistake": "dK is accumulated without the 1/√d factor (dQ has it), so dK is √d times too large.",
        "keywords": [r"√ ?d|sqrt|square root|1 ?/ ?√", r"scal(e|ing|ed)\b|too large|factor"],
        "kind": "scale",
    },
    {
        "notebook": NB10,
        "cell": "ex4_flash_backward",
        "code": """def flash_backward(Q, K, V, O, L, dO, block_q, block_k, causal=False):
    T, S = Q.shape[-2], K.shape[-2]
    scale = 1 / math.sqrt(Q.shape[-1])
    D = (dO * O).sum(-1, keepdim=True)
    dQ, dK, dV = torch.zeros_like(Q), torch.zeros_like(K), torch.zeros_like(V)
    for k_start in range(0, S, block_k):
        k_end = min(k_start + block_k, S)
        for q_start in range(0, T, block_q):
            q_end = min(q_start + block_q, T)
            last_q = q_end - 1
            if causal and k_start >= last_q:
                continue  # nothing of this key block is visible to the query block
            s = Q[..., q_start:q_end, :] @ K[..., k_start:k_end, :].transpose(-2, -1) * scale
            if causal:
                s = s.masked_fill(torch.arange(k_start, k_end, device=Q.device) > torch.arange(q_start, q_end, device=Q.device)[:, None], float("-inf"))
            p = torch.exp(s - L[..., q_start:q_end, None])
            do = dO[..., q_start:q_end, :]
            dV[..., k_start:k_end, :] += p.transpose(-2, -1) @ do
            ds = p * (do @ V[..., k_start:k_end, :].transpose(-2, -1) - D[..., q_start:q_end, :])
            dQ[..., q_start:q_end, :] += ds @ K[..., k_start:k_end, :] * scale
            dK[..., k_start:k_end, :] += ds.transpose(-2, -1) @ Q[..., q_start:q_end, :] * scale
    return dQ, dK, dV
""",
        "correct": False,
        "mistake": "The causal skip uses k_start >= last query instead of k_start > last query, so a key block that starts exactly at the query block's last query is skipped although that query sees its first key.",
        "keywords": [
            r">=|≥|off.by.one|strict|exactly at|equal",
            r"starts? (exactly )?at (the )?last query|last query",
        ],
        "kind": "off-by-one",
    },
    {
        "notebook": NB10,
        "cell": "ex4_flash_backward",
        "code": '''def flash_backward(Q, K, V, O, L, dO, block_q, block_k, causal=False):
    """The backward pass of tiled attention, rebuilding each block of weights from L."""
    T, S = Q.shape[-2], K.shape[-2]
    scale = 1.0 / math.sqrt(Q.shape[-1])
    D = (dO * O).sum(dim=-1)
    dQ, dK, dV = torch.zeros_like(Q), torch.zeros_like(K), torch.zeros_like(V)
    for j in range(0, S, block_k):
        Kj, Vj = K[..., j:j + block_k, :], V[..., j:j + block_k, :]
        for i in range(0, T, block_q):
            Qi, dOi = Q[..., i:i + block_q, :], dO[..., i:i + block_q, :]
            n = Qi.shape[-2]
            if causal and j > i + n - 1:
                continue
            Sij = Qi @ Kj.transpose(-2, -1) * scale
            if causal:
                keys = torch.arange(j, j + Kj.shape[-2], device=Q.device)
                queries = torch.arange(i, i + n, device=Q.device)
                Sij = Sij.masked_fill(keys[None, :] > queries[:, None], float("-inf"))
            P = torch.exp(Sij - L[..., i:i + n, None])
            dV[..., j:j + block_k, :] = P.transpose(-2, -1) @ dOi
            dS = P * (dOi @ Vj.transpose(-2, -1) - D[..., i:i + n, None])
            dQ[..., i:i + block_q, :] += dS @ Kj * scale
            dK[..., j:j + block_k, :] += dS.transpose(-2, -1) @ Qi * scale
    return dQ, dK, dV
''',
        "correct": False,
        "mistake": "dV's block is assigned (=) instead of accumulated (+=) over the query blocks, so only the last query block's contribution survives.",
        "keywords": [r"accumulat|\+=", r"assign|overwrit|replac|= instead|only (the )?last"],
        "kind": "state",
    },
    # ------------------------------------------------------------------------------------------
    # 10 · Exercise 5 — AttentionFunction, FlashAttention
    # ------------------------------------------------------------------------------------------
    {
        "notebook": NB10,
        "cell": "ex5_autograd_functions",
        "code": '''class AttentionFunction(torch.autograd.Function):
    """AttentionFunction.apply(Q, K, V, causal) -> O; saves the weights for the backward pass."""

    @staticmethod
    def forward(ctx, Q, K, V, causal):
        scores = torch.matmul(Q, K.transpose(-2, -1)) * Q.shape[-1] ** -0.5
        if causal:
            T, S = scores.shape[-2:]
            allowed = torch.ones(T, S, dtype=torch.bool, device=Q.device).tril()
            scores = torch.where(allowed, scores, torch.full_like(scores, float("-inf")))
        P = torch.softmax(scores, dim=-1)
        ctx.save_for_backward(Q, K, V, P)
        return P @ V

    @staticmethod
    def backward(ctx, dO):
        Q, K, V, P = ctx.saved_tensors
        dQ, dK, dV = attention_backward(Q, K, V, P, dO)
        return dQ, dK, dV, None


class FlashAttention(torch.autograd.Function):
    """FlashAttention.apply(Q, K, V, causal, block_q, block_k) -> O; saves Q, K, V, O and L."""

    @staticmethod
    def forward(ctx, Q, K, V, causal, block_q, block_k):
        O, L = tiled_attention(Q, K, V, block_q, block_k, causal=causal)
        ctx.save_for_backward(Q, K, V, O, L)
        ctx.settings = (causal, block_q, block_k)
        return O

    @staticmethod
    def backward(ctx, dO):
        Q, K, V, O, L = ctx.saved_tensors
        causal, block_q, block_k = ctx.settings
        grads = flash_backward(Q, K, V, O, L, dO.contiguous(), block_q, block_k, causal)
        return (*grads, None, None, None)
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "other style",
    },
    {
        "notebook": NB10,
        "cell": "ex5_autograd_functions",
        "code": '''class AttentionFunction(torch.autograd.Function):
    """AttentionFunction.apply(Q, K, V, causal) -> O; saves the weights for the backward pass."""

    @staticmethod
    def forward(ctx, Q, K, V, causal):
        P = torch.softmax(Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1]), dim=-1)
        ctx.save_for_backward(Q, K, V, P)
        return P @ V

    @staticmethod
    def backward(ctx, dO):
        Q, K, V, P = ctx.saved_tensors
        dQ, dK, dV = attention_backward(Q, K, V, P, dO)
        return dQ, dK, dV, None


class FlashAttention(torch.autograd.Function):
    """FlashAttention.apply(Q, K, V, causal, block_q, block_k) -> O; saves Q, K, V, O and L."""

    @staticmethod
    def forward(ctx, Q, K, V, causal, block_q, block_k):
        O, L = tiled_attention(Q, K, V, block_q, block_k, causal)
        ctx.save_for_backward(Q, K, V, O, L)
        ctx.causal, ctx.block_q, ctx.block_k = causal, block_q, block_k
        return O

    @staticmethod
    def backward(ctx, dO):
        Q, K, V, O, L = ctx.saved_tensors
        dQ, dK, dV = flash_backward(Q, K, V, O, L, dO, ctx.block_q, ctx.block_k, ctx.causal)
        return dQ, dK, dV, None, None, None
''',
        "correct": False,
        "mistake": "AttentionFunction.forward ignores the causal flag and never masks the scores, so with causal=True queries attend to later keys.",
        "keywords": [
            r"ignor|unused|never|missing|forg|without|unmasked|no mask|not (appl|mask)",
            r"future|later keys|attend(s|ing)? to later",
        ],
        "kind": "ignored argument",
    },
    {
        "notebook": NB10,
        "cell": "ex5_autograd_functions",
        "code": '''class AttentionFunction(torch.autograd.Function):
    """AttentionFunction.apply(Q, K, V, causal) -> O; saves the weights for the backward pass."""

    @staticmethod
    def forward(ctx, Q, K, V, causal):
        S = Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1])
        if causal:
            T, N = S.shape[-2], S.shape[-1]
            mask = torch.ones(T, N, dtype=torch.bool, device=S.device).tril()
            S = S.masked_fill(~mask, float("-inf"))
        P = torch.softmax(S, dim=-1)
        ctx.save_for_backward(Q, K, V, P)
        return P @ V

    @staticmethod
    def backward(ctx, dO):
        Q, K, V, P = ctx.saved_tensors
        return (*attention_backward(Q, K, V, P, dO), None)


class FlashAttention(torch.autograd.Function):
    """FlashAttention.apply(Q, K, V, causal, block_q, block_k) -> O; saves Q, K, V, O and L."""

    @staticmethod
    def forward(ctx, Q, K, V, causal, block_q, block_k):
        O, L = tiled_attention(Q, K, V, block_q, block_k, causal=causal)
        ctx.save_for_backward(Q, K, V, O, L)
        ctx.block_q = block_q
        ctx.block_k = block_k
        return O

    @staticmethod
    def backward(ctx, dO):
        Q, K, V, O, L = ctx.saved_tensors
        dQ, dK, dV = flash_backward(Q, K, V, O, L, dO, ctx.block_q, ctx.block_k)
        return dQ, dK, dV, None, None, None
''',
        "correct": False,
        "mistake": "FlashAttention does not keep causal on ctx and calls flash_backward without it, so the backward pass of a causal call computes the gradients of unmasked attention.",
        "keywords": [
            r"ctx|not (saved|stored|kept|passed)|never (saved|passed)|forg|drop|missing|without",
            r"unmasked|non.?causal|causal ?= ?False|default",
        ],
        "kind": "ignored argument",
    },
    {
        "notebook": NB10,
        "cell": "ex5_autograd_functions",
        "code": '''class AttentionFunction(torch.autograd.Function):
    """AttentionFunction.apply(Q, K, V, causal) -> O; saves the weights for the backward pass."""

    @staticmethod
    def forward(ctx, Q, K, V, causal):
        scores = Q @ K.transpose(-2, -1)
        if causal:
            T, S = scores.shape[-2], scores.shape[-1]
            future = torch.triu(torch.ones(T, S, dtype=torch.bool, device=Q.device), diagonal=1)
            scores = scores.masked_fill(future, float("-inf"))
        P = scores.softmax(dim=-1)
        ctx.save_for_backward(Q, K, V, P)
        return P @ V

    @staticmethod
    def backward(ctx, dO):
        Q, K, V, P = ctx.saved_tensors
        dQ, dK, dV = attention_backward(Q, K, V, P, dO)
        return dQ, dK, dV, None


class FlashAttention(torch.autograd.Function):
    """FlashAttention.apply(Q, K, V, causal, block_q, block_k) -> O; saves Q, K, V, O and L."""

    @staticmethod
    def forward(ctx, Q, K, V, causal, block_q, block_k):
        O, L = tiled_attention(Q, K, V, block_q, block_k, causal=causal)
        ctx.save_for_backward(Q, K, V, O, L)
        ctx.causal, ctx.block_q, ctx.block_k = causal, block_q, block_k
        return O

    @staticmethod
    def backward(ctx, dO):
        Q, K, V, O, L = ctx.saved_tensors
        dQ, dK, dV = flash_backward(Q, K, V, O, L, dO, ctx.block_q, ctx.block_k, causal=ctx.causal)
        return dQ, dK, dV, None, None, None
''',
        "correct": False,
        "mistake": "AttentionFunction.forward does not divide the scores by √d, so its output and the weights it saves are those of unscaled attention.",
        "keywords": [r"√ ?d|sqrt|square root", r"scal(e|es|ing|ed)\b"],
        "kind": "scale",
    },
    {
        "notebook": NB10,
        "cell": "ex5_autograd_functions",
        "code": '''class AttentionFunction(torch.autograd.Function):
    """AttentionFunction.apply(Q, K, V, causal) -> O; saves the weights for the backward pass."""

    @staticmethod
    def forward(ctx, Q, K, V, causal):
        T = Q.shape[-2]
        scores = Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1])
        if causal:
            mask = torch.tril(torch.ones(T, T, dtype=torch.bool, device=Q.device))
            scores = scores.masked_fill(~mask, float("-inf"))
        P = torch.softmax(scores, dim=-1)
        ctx.save_for_backward(Q, K, V, P)
        return P @ V

    @staticmethod
    def backward(ctx, dO):
        Q, K, V, P = ctx.saved_tensors
        dQ, dK, dV = attention_backward(Q, K, V, P, dO)
        return dQ, dK, dV, None


class FlashAttention(torch.autograd.Function):
    """FlashAttention.apply(Q, K, V, causal, block_q, block_k) -> O; saves Q, K, V, O and L."""

    @staticmethod
    def forward(ctx, Q, K, V, causal, block_q, block_k):
        O, L = tiled_attention(Q, K, V, block_q, block_k, causal=causal)
        ctx.save_for_backward(Q, K, V, O, L)
        ctx.causal, ctx.block_q, ctx.block_k = causal, block_q, block_k
        return O

    @staticmethod
    def backward(ctx, dO):
        Q, K, V, O, L = ctx.saved_tensors
        dQ, dK, dV = flash_backward(Q, K, V, O, L, dO, ctx.block_q, ctx.block_k, ctx.causal)
        return dQ, dK, dV, None, None, None
''',
        "correct": False,
        "mistake": "AttentionFunction builds its causal mask as a square T × T matrix from the number of queries, which only fits when there are as many keys as queries (S = T).",
        "keywords": [
            r"square|T ?[×x] ?T|T ?, ?T",
            r"\bS\b|number of keys|keys|shape|S ?≠ ?T|T ?≠ ?S|differ",
        ],
        "kind": "shape",
    },
    {
        "notebook": NB10,
        "cell": "ex5_autograd_functions",
        "code": '''class AttentionFunction(torch.autograd.Function):
    """AttentionFunction.apply(Q, K, V, causal) -> O; saves the weights for the backward pass."""

    @staticmethod
    def forward(ctx, Q, K, V, causal):
        P = torch.softmax(Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1]), dim=-1)
        if causal:
            keep = torch.ones(P.shape[-2], P.shape[-1], device=P.device).tril()
            P = P * keep  # zero the weights of the future keys
        ctx.save_for_backward(Q, K, V, P)
        return P @ V

    @staticmethod
    def backward(ctx, dO):
        Q, K, V, P = ctx.saved_tensors
        dQ, dK, dV = attention_backward(Q, K, V, P, dO)
        return dQ, dK, dV, None


class FlashAttention(torch.autograd.Function):
    """FlashAttention.apply(Q, K, V, causal, block_q, block_k) -> O; saves Q, K, V, O and L."""

    @staticmethod
    def forward(ctx, Q, K, V, causal, block_q, block_k):
        O, L = tiled_attention(Q, K, V, block_q, block_k, causal=causal)
        ctx.save_for_backward(Q, K, V, O, L)
        ctx.causal, ctx.block_q, ctx.block_k = causal, block_q, block_k
        return O

    @staticmethod
    def backward(ctx, dO):
        Q, K, V, O, L = ctx.saved_tensors
        dQ, dK, dV = flash_backward(Q, K, V, O, L, dO, ctx.block_q, ctx.block_k, ctx.causal)
        return dQ, dK, dV, None, None, None
''',
        "correct": False,
        "mistake": "AttentionFunction applies the causal mask after the softmax by zeroing weights, so the remaining weights of each row no longer sum to 1.",
        "keywords": [
            r"after (the )?softmax|before (the )?softmax|order",
            r"sum to (1|one)|normali[sz]|renormali[sz]",
            r"-inf|−inf|-∞|−∞",
        ],
        "kind": "order",
    },
]
