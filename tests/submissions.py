"""Sample student answers for the end-to-end grading tests, by assignment.

``OTHER_STYLE``: correct answers written differently from the reference solution; they must
earn full marks. ``WRONG``: one classic mistake per student, with the test cells that must
lose points and a phrase their feedback must contain.
"""

from __future__ import annotations

OTHER_STYLE = {
    "01_vector_attention": {
        "ex1_project": "def project(W, b, x):\n    return torch.einsum('ij,jk->ik', W, x) + b",
        "ex2_score": "def score(q, k):\n    return float((q * k).sum()) / len(q) ** 0.5",
        "ex3_softmax": (
            "def softmax(z):\n"
            "    z = z.double()\n"
            "    e = (z - z.max()).exp()\n"
            "    return e / e.sum()\n"
        ),
        "ex4_attention_weights": (
            "def attention_weights(queries, keys):\n"
            "    Q, K = torch.cat(queries, dim=1).T, torch.cat(keys, dim=1).T\n"
            "    S = Q @ K.T / math.sqrt(Q.shape[1])\n"
            "    return torch.stack([softmax(row) for row in S])\n"
        ),
        "ex5_weighted_sum": (
            "def weighted_sum(weights, values):\n"
            "    return (torch.stack(values) * weights.reshape(-1, 1, 1)).sum(dim=0)\n"
        ),
        "ex6_self_attention": (
            "def self_attention(xs, W_q, b_q, W_k, b_k, W_v, b_v):\n"
            "    out = []\n"
            "    for x in xs:\n"
            "        q = project(W_q, b_q, x)\n"
            "        w = softmax(torch.tensor([score(q, project(W_k, b_k, y)) for y in xs]))\n"
            "        out.append(weighted_sum(w, [project(W_v, b_v, y) for y in xs]))\n"
            "    return out\n"
        ),
    },
    "02_matrix_attention": {
        "ex1_softmax_cols": (
            "def softmax_cols(S):\n"
            "    return torch.stack([torch.exp(c - c.max()) / torch.exp(c - c.max()).sum()\n"
            "                        for c in S.T], dim=1)\n"
        ),
        "ex2_self_attention_cols": (
            "def self_attention_cols(X, W_q, b_q, W_k, b_k, W_v, b_v):\n"
            "    Q = torch.einsum('ij,jn->in', W_q, X) + b_q\n"
            "    K = torch.einsum('ij,jn->in', W_k, X) + b_k\n"
            "    V = torch.einsum('ij,jn->in', W_v, X) + b_v\n"
            "    return torch.einsum('dm,mn->dn', V, softmax_cols(K.T @ Q / K.shape[0] ** 0.5))\n"
        ),
        "ex3_attention": (
            "def attention(Q, K, V, mask=None):\n"
            "    scores = torch.einsum('...td,...sd->...ts', Q.double(), K.double())\n"
            "    scores = scores / Q.shape[-1] ** 0.5\n"
            "    if mask is not None:\n"
            "        scores = torch.where(mask, scores, torch.tensor(float('-inf')).double())\n"
            "    w = torch.softmax(scores, dim=-1)\n"
            "    return (w @ V.double()).float(), w\n"
        ),
        "ex4_padding_mask": (
            "def padding_mask(lengths, seq_len):\n"
            "    return torch.stack([torch.arange(seq_len) < n for n in lengths])\n"
        ),
        "ex5_hand_built_heads": (
            "def previous_token_head(vocab_size, max_len, d_head, strength):\n"
            "    c = (strength * d_head ** 0.5) ** 0.5  # shared between the two matrices\n"
            "    W_q = torch.zeros(vocab_size + max_len, d_head, dtype=torch.float64)\n"
            "    W_k = torch.zeros_like(W_q)\n"
            "    for p in range(max_len):  # position p uses column d_head - 1 - p\n"
            "        W_k[vocab_size + p, d_head - 1 - p] = c\n"
            "        if p > 0:\n"
            "            W_q[vocab_size + p, d_head - p] = c\n"
            "    return W_q, W_k\n"
            "\n"
            "def same_token_head(vocab_size, max_len, d_head, strength):\n"
            "    W_k = torch.cat([torch.eye(d_head)[:vocab_size], torch.zeros(max_len, d_head)])\n"
            "    return strength * math.sqrt(d_head) * W_k, W_k\n"
        ),
    },
}

WRONG = {
    "01_vector_attention": {
        "no_scaling": (
            {"ex2_score": "def score(q, k):\n    return (q.T @ k).squeeze()"},
            [
                ("ex2_tests", "This matches the plain dot product, without the 1/√D scaling"),
                ("ex4_tests", "This matches attention without the 1/√d_k scaling"),
            ],
        ),
        "wrong_axis": (
            {
                "ex4_attention_weights": (
                    "def attention_weights(queries, keys):\n"
                    "    rows = [torch.stack([score(q, k) for k in keys]) for q in queries]\n"
                    "    scores = torch.stack(rows)\n"
                    "    return torch.stack([softmax(column) for column in scores.T]).T\n"
                )
            },
            [("ex4_tests", "a softmax over the queries instead of over the keys")],
        ),
        "no_max_shift": (
            {"ex3_softmax": "def softmax(z):\n    return torch.exp(z) / torch.exp(z).sum()"},
            [("ex3_tests", "without subtracting the maximum first")],
        ),
        "hard_coded": (
            {
                "ex6_self_attention": (
                    "def self_attention(xs, W_q, b_q, W_k, b_k, W_v, b_v):\n"
                    "    printed = [[0.2117, 1.0697, -3.3355, -4.9260],\n"
                    "               [0.6486, 0.9883, -2.4109, -3.0185],\n"
                    "               [0.6463, 0.8405, -1.6421, -0.0805]]\n"
                    "    return [torch.tensor(row)[:, None] for row in printed]\n"
                )
            },
            [("ex6_tests", "should have shape")],
        ),
    },
    "02_matrix_attention": {
        "rows_softmax": (
            {
                "ex1_softmax_cols": (
                    "def softmax_cols(S):\n"
                    "    e = torch.exp(S - S.amax(dim=1, keepdim=True))\n"
                    "    return e / e.sum(dim=1, keepdim=True)\n"
                )
            },
            [("ex1_tests", "a softmax along the rows instead of down the columns")],
        ),
        "queries_keys_swapped": (
            {
                "ex2_self_attention_cols": (
                    "def self_attention_cols(X, W_q, b_q, W_k, b_k, W_v, b_v):\n"
                    "    Q, K, V = W_q @ X + b_q, W_k @ X + b_k, W_v @ X + b_v\n"
                    "    return V @ softmax_cols(Q.T @ K / math.sqrt(K.shape[0]))\n"
                )
            },
            [("ex2_tests", "keys and queries swapped")],
        ),
        "mask_inverted": (
            {
                "ex3_attention": (
                    "def attention(Q, K, V, mask=None):\n"
                    "    scores = Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1])\n"
                    "    if mask is not None:\n"
                    "        scores = scores.masked_fill(mask, float('-inf'))\n"
                    "    w = torch.softmax(scores, dim=-1)\n"
                    "    return w @ V, w\n"
                )
            },
            [("ex3_tests", "the mask's polarity inverted")],
        ),
        "zero_fill": (
            {
                "ex3_attention": (
                    "def attention(Q, K, V, mask=None):\n"
                    "    scores = Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1])\n"
                    "    if mask is not None:\n"
                    "        scores = scores.masked_fill(~mask, 0.0)\n"
                    "    w = torch.softmax(scores, dim=-1)\n"
                    "    return w @ V, w\n"
                )
            },
            [("ex3_tests", "masked scores set to 0 instead of −inf")],
        ),
        "padding_inverted": (
            {
                "ex4_padding_mask": (
                    "def padding_mask(lengths, seq_len):\n"
                    "    return torch.arange(seq_len)[None, :] >= lengths[:, None]\n"
                )
            },
            [("ex4_tests", "True at the padding instead of the real tokens")],
        ),
        "next_token_head": (
            {
                "ex5_hand_built_heads": (
                    "def previous_token_head(vocab_size, max_len, d_head, strength):\n"
                    "    W_q = torch.zeros(vocab_size + max_len, d_head)\n"
                    "    W_k = torch.zeros(vocab_size + max_len, d_head)\n"
                    "    W_k[vocab_size:, :max_len] = torch.eye(max_len)\n"
                    "    c = strength * d_head ** 0.5\n"
                    "    W_q[vocab_size:-1, 1:max_len] = c * torch.eye(max_len - 1)\n"
                    "    return W_q, W_k\n"
                    "\n"
                    "def same_token_head(vocab_size, max_len, d_head, strength):\n"
                    "    W_q = torch.zeros(vocab_size + max_len, d_head)\n"
                    "    W_k = torch.zeros(vocab_size + max_len, d_head)\n"
                    "    W_k[:vocab_size, :vocab_size] = torch.eye(vocab_size)\n"
                    "    c = strength * d_head ** 0.5\n"
                    "    W_q[:vocab_size, :vocab_size] = c * torch.eye(vocab_size)\n"
                    "    return W_q, W_k\n"
                )
            },
            [("ex5_tests", "attends to the next token instead of the previous one")],
        ),
        "heads_unscaled": (
            {
                "ex5_hand_built_heads": (
                    "def previous_token_head(vocab_size, max_len, d_head, strength):\n"
                    "    W_q = torch.zeros(vocab_size + max_len, d_head)\n"
                    "    W_k = torch.zeros(vocab_size + max_len, d_head)\n"
                    "    W_k[vocab_size:, :max_len] = torch.eye(max_len)\n"
                    "    W_q[vocab_size + 1:, :max_len - 1] = strength * torch.eye(max_len - 1)\n"
                    "    return W_q, W_k\n"
                    "\n"
                    "def same_token_head(vocab_size, max_len, d_head, strength):\n"
                    "    W_q = torch.zeros(vocab_size + max_len, d_head)\n"
                    "    W_k = torch.zeros(vocab_size + max_len, d_head)\n"
                    "    W_k[:vocab_size, :vocab_size] = torch.eye(vocab_size)\n"
                    "    W_q[:vocab_size, :vocab_size] = strength * torch.eye(vocab_size)\n"
                    "    return W_q, W_k\n"
                )
            },
            [("ex5_tests", "forgetting that attention divides every score by √d_head")],
        ),
    },
}

OTHER_STYLE["03_multihead_attention"] = {
    "ex1_multihead_cols": (
        "def multihead_cols(X, heads, W_c):\n"
        "    parts = []\n"
        "    for h in heads:\n"
        "        Q = torch.einsum('hd,dn->hn', h['W_q'], X) + h['b_q']\n"
        "        K = torch.einsum('hd,dn->hn', h['W_k'], X) + h['b_k']\n"
        "        V = torch.einsum('hd,dn->hn', h['W_v'], X) + h['b_v']\n"
        "        A = torch.softmax(K.T @ Q / K.shape[0] ** 0.5, dim=0)\n"
        "        parts.append(V @ A)\n"
        "    return W_c @ torch.vstack(parts)\n"
    ),
    "ex2_split_merge": (
        "def split_heads(x, n_heads):\n"
        "    B, T, D = x.shape\n"
        "    return x.view(B, T, n_heads, -1).permute(0, 2, 1, 3)\n"
        "\n"
        "def merge_heads(x):\n"
        "    B, H, T, d = x.shape\n"
        "    return x.permute(0, 2, 1, 3).contiguous().view(B, T, H * d)\n"
    ),
    "ex3_expand_mask": (
        "def expand_mask(mask):\n"
        "    while mask.dim() < 4:\n"
        "        mask = mask.unsqueeze(-3 if mask.dim() == 3 else 0)\n"
        "    return mask\n"
    ),
    "ex4_multihead_attention": (
        "def multihead_attention(x, in_proj_weight, in_proj_bias, out_proj_weight,\n"
        "                        out_proj_bias, n_heads, mask=None):\n"
        "    x = x.double()\n"
        "    qkv = torch.nn.functional.linear(x, in_proj_weight.double(), in_proj_bias.double())\n"
        "    q, k, v = (split_heads(t, n_heads) for t in qkv.chunk(3, dim=-1))\n"
        "    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])\n"
        "    if mask is not None:\n"
        "        scores = scores.masked_fill(~expand_mask(mask), -1e9)\n"
        "    out = merge_heads(torch.softmax(scores, dim=-1) @ v)\n"
        "    W, b = out_proj_weight.double(), out_proj_bias.double()\n"
        "    return torch.nn.functional.linear(out, W, b)\n"
    ),
    "ex5_multihead_module": (
        "class MultiHeadAttention(nn.Module):\n"
        "    def __init__(self, d_model, n_heads, dropout=0.0):\n"
        "        super().__init__()\n"
        "        self.h = n_heads\n"
        "        weight = nn.init.xavier_uniform_(torch.empty(3 * d_model, d_model))\n"
        "        self.in_proj_weight = nn.Parameter(weight)\n"
        "        self.in_proj_bias = nn.Parameter(torch.zeros(3 * d_model))\n"
        "        self.out_proj = nn.Linear(d_model, d_model)\n"
        "        with torch.no_grad():\n"
        "            self.out_proj.bias.zero_()\n"
        "        self.drop = nn.Dropout(dropout)\n"
        "\n"
        "    def forward(self, query, key, value, mask=None, need_weights=True):\n"
        "        d = query.shape[-1]\n"
        "        W, b = self.in_proj_weight, self.in_proj_bias\n"
        "        q = torch.einsum('btd,ed->bte', query, W[:d]) + b[:d]\n"
        "        k = torch.einsum('bsd,ed->bse', key, W[d:2 * d]) + b[d:2 * d]\n"
        "        v = torch.einsum('bsd,ed->bse', value, W[2 * d:]) + b[2 * d:]\n"
        "        q, k, v = (t.view(t.shape[0], t.shape[1], self.h, -1) for t in (q, k, v))\n"
        "        scores = torch.einsum('bthe,bshe->bhts', q, k) / (d // self.h) ** 0.5\n"
        "        if mask is not None:\n"
        "            while mask.dim() < 4:\n"
        "                mask = mask.unsqueeze(-3)\n"
        "            scores = scores.masked_fill(mask.logical_not(), -1e9)\n"
        "        weights = self.drop(scores.softmax(-1))\n"
        "        out = torch.einsum('bhts,bshe->bthe', weights, v).flatten(2)\n"
        "        return self.out_proj(out), weights.mean(1) if need_weights else None\n"
    ),
}

# A correct packed module (exercise 5 of 03); each wrong answer below changes one thing.
_MODULE = (
    "class MultiHeadAttention(nn.Module):\n"
    "    def __init__(self, d_model, n_heads, dropout=0.0):\n"
    "        super().__init__()\n"
    "        self.n_heads, self.dropout = n_heads, dropout\n"
    "        self.in_proj_weight = nn.Parameter(torch.empty(3 * d_model, d_model))\n"
    "        self.in_proj_bias = nn.Parameter(torch.zeros(3 * d_model))\n"
    "        nn.init.xavier_uniform_(self.in_proj_weight)\n"
    "        self.out_proj = nn.Linear(d_model, d_model)\n"
    "        nn.init.zeros_(self.out_proj.bias)\n"
    "\n"
    "    def forward(self, query, key, value, mask=None, need_weights=True):\n"
    "        w_q, w_k, w_v = self.in_proj_weight.chunk(3)\n"
    "        b_q, b_k, b_v = self.in_proj_bias.chunk(3)\n"
    "        q = split_heads(F.linear(query, w_q, b_q), self.n_heads)\n"
    "        k = split_heads(F.linear(key, w_k, b_k), self.n_heads)\n"
    "        v = split_heads(F.linear(value, w_v, b_v), self.n_heads)\n"
    "        scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])\n"
    "        if mask is not None:\n"
    "            scores = scores.masked_fill(~expand_mask(mask), float('-inf'))\n"
    "        weights = F.dropout(torch.softmax(scores, dim=-1), self.dropout, self.training)\n"
    "        output = self.out_proj(merge_heads(weights @ v))\n"
    "        return output, (weights.mean(dim=1) if need_weights else None)\n"
)

WRONG["03_multihead_attention"] = {
    "full_width_scaling": (
        {
            "ex1_multihead_cols": (
                "def multihead_cols(X, heads, W_c):\n"
                "    outputs = []\n"
                "    for h in heads:\n"
                "        Q, K, V = (h[f'W_{r}'] @ X + h[f'b_{r}'] for r in 'qkv')\n"
                "        outputs.append(V @ softmax(K.T @ Q / math.sqrt(X.shape[0]), dim=0))\n"
                "    return W_c @ torch.cat(outputs, dim=0)\n"
            )
        },
        [("ex1_tests", "divided by √D (the full width) instead of √(D/H)")],
    ),
    "reshape_without_transpose": (
        {
            "ex2_split_merge": (
                "def split_heads(x, n_heads):\n"
                "    B, T, D = x.shape\n"
                "    return x.reshape(B, n_heads, T, D // n_heads)\n"
                "\n"
                "def merge_heads(x):\n"
                "    B, H, T, d = x.shape\n"
                "    return x.reshape(B, T, H * d)\n"
            )
        },
        [
            ("ex2_tests", "a reshape straight to (B, H, T, d_head) without the transpose"),
            ("ex4_tests", "heads split by a reshape without the transpose"),
        ],
    ),
    "mask_axis_in_front": (
        {
            "ex3_expand_mask": (
                "def expand_mask(mask):\n"
                "    while mask.dim() < 4:\n"
                "        mask = mask[None]\n"
                "    return mask\n"
            )
        },
        [("ex3_tests", "with the new axis in front, (1, B, T, S)")],
    ),
    "no_output_projection": (
        {
            "ex4_multihead_attention": (
                "def multihead_attention(x, in_proj_weight, in_proj_bias, out_proj_weight,\n"
                "                        out_proj_bias, n_heads, mask=None):\n"
                "    q, k, v = (x @ in_proj_weight.T + in_proj_bias).chunk(3, dim=-1)\n"
                "    q, k, v = (split_heads(t, n_heads) for t in (q, k, v))\n"
                "    if mask is not None:\n"
                "        mask = expand_mask(mask)\n"
                "    return merge_heads(F.scaled_dot_product_attention(q, k, v, attn_mask=mask))\n"
            )
        },
        [("ex4_tests", "the heads' outputs without the output projection")],
    ),
    "d_model_scaling": (
        {
            "ex4_multihead_attention": (
                "def multihead_attention(x, in_proj_weight, in_proj_bias, out_proj_weight,\n"
                "                        out_proj_bias, n_heads, mask=None):\n"
                "    q, k, v = (x @ in_proj_weight.T + in_proj_bias).chunk(3, dim=-1)\n"
                "    scores = split_heads(q, n_heads) @ split_heads(k, n_heads).transpose(-2, -1)\n"
                "    scores = scores / math.sqrt(x.shape[-1])\n"
                "    if mask is not None:\n"
                "        scores = scores.masked_fill(~expand_mask(mask), float('-inf'))\n"
                "    out = merge_heads(torch.softmax(scores, dim=-1) @ split_heads(v, n_heads))\n"
                "    return out @ out_proj_weight.T + out_proj_bias\n"
            )
        },
        [("ex4_tests", "divided by √d_model instead of √d_head")],
    ),
    "weights_per_head": (
        {
            "ex5_multihead_module": _MODULE.replace(
                "        return output, (weights.mean(dim=1) if need_weights else None)\n",
                "        return output, (weights if need_weights else None)\n",
            ),
        },
        [("ex5_tests", "not averaged over the heads")],
    ),
    "dropout_on_output": (
        {
            "ex5_multihead_module": _MODULE.replace(
                "        weights = F.dropout(torch.softmax(scores, dim=-1), self.dropout, "
                "self.training)\n",
                "        weights = torch.softmax(scores, dim=-1)\n",
            ).replace(
                "        output = self.out_proj(merge_heads(weights @ v))\n",
                "        output = self.out_proj(merge_heads(weights @ v))\n"
                "        output = F.dropout(output, self.dropout, self.training)\n",
            ),
        },
        [("ex5_tests", "to the weights after the softmax (not to the output)")],
    ),
    "module_mask_inverted": (
        {
            "ex5_multihead_module": _MODULE.replace("~expand_mask(mask)", "expand_mask(mask)"),
        },
        [("ex5_tests", "the mask's polarity inverted")],
    ),
    "out_proj_bias_left_random": (
        {
            "ex5_multihead_module": _MODULE.replace(
                "        nn.init.zeros_(self.out_proj.bias)\n", ""
            ),
        },
        [("ex5_tests", "nn.MultiheadAttention sets out_proj's to 0")],
    ),
}

OTHER_STYLE["04_positional_encoding"] = {
    "ex1_pe_table_loops": (
        "def pe_table_loops(seq_len, d_model):\n"
        "    rows = []\n"
        "    for pos in range(seq_len):\n"
        "        row = []\n"
        "        for j in range(d_model):\n"
        "            angle = pos * math.exp(-math.log(10000) * (j - j % 2) / d_model)\n"
        "            row.append(math.sin(angle) if j % 2 == 0 else math.cos(angle))\n"
        "        rows.append(row)\n"
        "    return torch.tensor(rows, dtype=torch.float64)\n"
    ),
    "ex2_pe_table": (
        "def pe_table(seq_len, d_model):\n"
        "    pos = torch.arange(seq_len, dtype=torch.float64).unsqueeze(1)\n"
        "    freq = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))\n"
        "    angles = pos * freq\n"
        "    return torch.stack([angles.sin(), angles.cos()], dim=-1).flatten(1)\n"
    ),
    "ex3_positional_encoding": (
        "class PositionalEncoding(nn.Module):\n"
        "    def __init__(self, d_model, max_len=500):\n"
        "        super().__init__()\n"
        "        self.register_buffer('pe', sinusoidal_table(max_len, d_model)[None],\n"
        "                             persistent=False)\n"
        "\n"
        "    def forward(self, x):\n"
        "        return x + self.pe[:, : x.size(1), :]\n"
    ),
    "ex4_rotation_matrix": (
        "def rotation_matrix(k, d_model):\n"
        "    blocks = []\n"
        "    for i in range(d_model // 2):\n"
        "        a = k * 10000 ** (-2 * i / d_model)\n"
        "        c, s = math.cos(a), math.sin(a)\n"
        "        blocks.append(torch.tensor([[c, s], [-s, c]]))\n"
        "    return torch.block_diag(*blocks)\n"
    ),
}

WRONG["04_positional_encoding"] = {
    "sin_cos_swapped": (
        {
            "ex2_pe_table": (
                "def pe_table(seq_len, d_model):\n"
                "    pos = torch.arange(seq_len, dtype=torch.float32)[:, None]\n"
                "    angles = pos / 10000 ** (torch.arange(0, d_model, 2) / d_model)\n"
                "    table = torch.zeros(seq_len, d_model)\n"
                "    table[:, 0::2], table[:, 1::2] = torch.cos(angles), torch.sin(angles)\n"
                "    return table\n"
            )
        },
        [("ex2_tests", "sin and cos swapped")],
    ),
    "exponent_i_over_d": (
        {
            "ex1_pe_table_loops": (
                "def pe_table_loops(seq_len, d_model):\n"
                "    table = torch.zeros(seq_len, d_model)\n"
                "    for pos in range(seq_len):\n"
                "        for i in range(d_model // 2):\n"
                "            angle = pos / 10000 ** (i / d_model)\n"
                "            table[pos, 2 * i] = math.sin(angle)\n"
                "            table[pos, 2 * i + 1] = math.cos(angle)\n"
                "    return table\n"
            )
        },
        [("ex1_tests", "the exponent i/d_model instead of 2i/d_model")],
    ),
    "positions_from_one": (
        {
            "ex2_pe_table": (
                "def pe_table(seq_len, d_model):\n"
                "    pos = torch.arange(1, seq_len + 1, dtype=torch.float32)[:, None]\n"
                "    angles = pos / 10000 ** (torch.arange(0, d_model, 2) / d_model)\n"
                "    table = torch.zeros(seq_len, d_model)\n"
                "    table[:, 0::2], table[:, 1::2] = torch.sin(angles), torch.cos(angles)\n"
                "    return table\n"
            )
        },
        [("ex2_tests", "positions counted from 1 instead of 0")],
    ),
    "added_per_batch": (
        {
            "ex3_positional_encoding": (
                "class PositionalEncoding(nn.Module):\n"
                "    def __init__(self, d_model, max_len=500):\n"
                "        super().__init__()\n"
                "        self.register_buffer('table', sinusoidal_table(max_len, d_model),\n"
                "                             persistent=False)\n"
                "\n"
                "    def forward(self, x):\n"
                "        return x + self.table[: x.shape[0]].unsqueeze(1)\n"
            )
        },
        [("ex3_tests", "indexed by batch entry instead of by position")],
    ),
    "rotation_backwards": (
        {
            "ex4_rotation_matrix": (
                "def rotation_matrix(k, d_model):\n"
                "    R = torch.zeros(d_model, d_model)\n"
                "    for i in range(d_model // 2):\n"
                "        a = k / 10000 ** (2 * i / d_model)\n"
                "        R[2 * i, 2 * i], R[2 * i, 2 * i + 1] = math.cos(a), -math.sin(a)\n"
                "        R[2 * i + 1, 2 * i], R[2 * i + 1, 2 * i + 1] = math.sin(a), math.cos(a)\n"
                "    return R\n"
            )
        },
        [("ex4_tests", "the rotation in the opposite direction")],
    ),
}

OTHER_STYLE["05_encoder"] = {
    "ex1_layer_norm": (
        "def layer_norm(x, gamma, beta, eps=1e-5):\n"
        "    var, mean = torch.var_mean(x.double(), dim=-1, keepdim=True, correction=0)\n"
        "    return ((x - mean) * torch.rsqrt(var + eps) * gamma + beta).float()\n"
    ),
    "ex2_feed_forward": (
        "def feed_forward(x, W1, b1, W2, b2):\n"
        "    hidden = torch.nn.functional.linear(x, W1, b1).clamp(min=0)\n"
        "    return torch.nn.functional.linear(hidden, W2, b2)\n"
    ),
    "ex3_encoder_block": (
        "def encoder_block(x, attention, feed_forward_net, norm1, norm2, mask=None):\n"
        "    attended, _ = attention(x, mask=mask)\n"
        "    x = norm1(attended + x)\n"
        "    return norm2(feed_forward_net(x) + x)\n"
    ),
    "ex4_pre_norm_block": (
        "def pre_norm_block(x, attention, feed_forward_net, norm1, norm2, mask=None):\n"
        "    attended, _ = attention(norm1(x), mask=mask)\n"
        "    x = attended + x\n"
        "    return torch.add(x, feed_forward_net(norm2(x)))\n"
    ),
    "ex5_encode": (
        "def encode(x, blocks, mask=None):\n"
        "    results = []\n"
        "    for block in blocks:\n"
        "        x, w = block(x, mask=mask, need_weights=True)\n"
        "        results.append(w)\n"
        "    return x, results\n"
    ),
}

WRONG["05_encoder"] = {
    "unbiased_variance": (
        {
            "ex1_layer_norm": (
                "def layer_norm(x, gamma, beta, eps=1e-5):\n"
                "    mean, var = x.mean(-1, keepdim=True), x.var(-1, keepdim=True)\n"
                "    return gamma * (x - mean) / torch.sqrt(var + eps) + beta\n"
            )
        },
        [("ex1_tests", "the unbiased variance")],
    ),
    "no_relu": (
        {
            "ex2_feed_forward": (
                "def feed_forward(x, W1, b1, W2, b2):\n    return (x @ W1.T + b1) @ W2.T + b2\n"
            )
        },
        [("ex2_tests", "without the ReLU between them")],
    ),
    "pre_norm": (
        {
            "ex3_encoder_block": (
                "def encoder_block(x, attention, feed_forward_net, norm1, norm2, mask=None):\n"
                "    h = x + attention(norm1(x), mask=mask)[0]\n"
                "    return h + feed_forward_net(norm2(h))\n"
            )
        },
        [("ex3_tests", "pre-norm (each sublayer sees a normalised input) instead of post-norm")],
    ),
    "residual_after_norm": (
        {
            "ex3_encoder_block": (
                "def encoder_block(x, attention, feed_forward_net, norm1, norm2, mask=None):\n"
                "    h = norm1(attention(x, mask=mask)[0]) + x\n"
                "    return norm2(feed_forward_net(h)) + h\n"
            )
        },
        [("ex3_tests", "the residual added after the norm")],
    ),
    "blocks_on_the_input": (
        {
            "ex5_encode": (
                "def encode(x, blocks, mask=None):\n"
                "    outputs = [block(x, mask, need_weights=True) for block in blocks]\n"
                "    return outputs[-1][0], [w for _, w in outputs]\n"
            )
        },
        [("ex5_tests", "the last block applied to the original input")],
    ),
    "post_norm_for_pre_norm": (
        {
            "ex4_pre_norm_block": (
                "def pre_norm_block(x, attention, feed_forward_net, norm1, norm2, mask=None):\n"
                "    h = norm1(x + attention(x, mask=mask)[0])\n"
                "    return norm2(h + feed_forward_net(h))\n"
            )
        },
        [("ex4_tests", "post-norm (the norm after each residual addition")],
    ),
    "residual_from_the_normalised_input": (
        {
            "ex4_pre_norm_block": (
                "def pre_norm_block(x, attention, feed_forward_net, norm1, norm2, mask=None):\n"
                "    x = norm1(x)\n"
                "    h = norm2(x + attention(x, mask=mask)[0])\n"
                "    return h + feed_forward_net(h)\n"
            )
        },
        [("ex4_tests", "the residual taken from the normalised input")],
    ),
    "one_norm_for_both": (
        {
            "ex4_pre_norm_block": (
                "def pre_norm_block(x, attention, feed_forward_net, norm1, norm2, mask=None):\n"
                "    h = x + attention(norm1(x), mask=mask)[0]\n"
                "    return h + feed_forward_net(norm1(h))\n"
            )
        },
        [("ex4_tests", "one norm (norm1) used for both sublayers")],
    ),
    "final_norm_in_the_block": (
        {
            "ex4_pre_norm_block": (
                "def pre_norm_block(x, attention, feed_forward_net, norm1, norm2, mask=None):\n"
                "    h = x + attention(norm1(x), mask=mask)[0]\n"
                "    return norm2(h + feed_forward_net(norm2(h)))\n"
            )
        },
        [("ex4_tests", "a layer norm at the end of the block")],
    ),
}

OTHER_STYLE["06_decoder"] = {
    "ex1_causal_mask": (
        "def causal_mask(seq_len):\n"
        "    positions = torch.arange(seq_len)\n"
        "    return positions[None, :] <= positions[:, None]\n"
    ),
    "ex2_masked_self_attention": (
        "def masked_self_attention(x, to_q, to_k, to_v):\n"
        "    q, k, v = to_q(x).double(), to_k(x).double(), to_v(x).double()\n"
        "    scores = torch.einsum('...td,...sd->...ts', q, k) / math.sqrt(q.shape[-1])\n"
        "    scores = torch.where(causal_mask(x.shape[-2]), scores, -math.inf)\n"
        "    weights = scores.softmax(dim=-1)\n"
        "    return weights @ v, weights\n"
    ),
    "ex3_cross_attention": (
        "def cross_attention(x, memory, to_q, to_k, to_v):\n"
        "    q, k, v = to_q(x), to_k(memory), to_v(memory)\n"
        "    weights = torch.softmax(q @ k.mT / q.shape[-1] ** 0.5, dim=-1)\n"
        "    return weights @ v, weights\n"
    ),
    "ex4_decoder_block": (
        "def decoder_block(x, memory, self_attention, cross_attention, feed_forward_net,\n"
        "                  norm1, norm2, norm3, src_mask=None):\n"
        "    attended, _ = self_attention(x, x, x, mask=causal_mask(x.shape[-2]))\n"
        "    x = norm1(attended + x)\n"
        "    attended, _ = cross_attention(x, memory, memory, mask=src_mask)\n"
        "    x = norm2(attended + x)\n"
        "    return norm3(feed_forward_net(x) + x)\n"
    ),
    "ex5_shift_right": (
        "def shift_right(target, start_token):\n"
        "    shifted = target.roll(1, dims=1)\n"
        "    shifted[:, 0] = start_token\n"
        "    return shifted\n"
    ),
    "ex6_greedy_decode": (
        "@torch.no_grad()\n"
        "def greedy_decode(model, src, start_token, end_token, max_len):\n"
        "    memory = model.encode(src)\n"
        "    out = [[start_token] for _ in range(len(src))]\n"
        "    for _ in range(max_len):\n"
        "        if all(end_token in seq for seq in out):\n"
        "            break\n"
        "        logits = model.decode(torch.tensor(out), memory)\n"
        "        for seq, row in zip(out, logits[:, -1]):\n"
        "            seq.append(end_token if end_token in seq else int(row.argmax()))\n"
        "    return torch.tensor(out)\n"
    ),
}

WRONG["06_decoder"] = {
    "flipped_mask": (
        {
            "ex1_causal_mask": (
                "def causal_mask(seq_len):\n"
                "    return torch.ones(seq_len, seq_len, dtype=torch.bool).triu()\n"
            )
        },
        [
            ("ex1_tests", "the triangle flipped"),
            ("ex2_tests", "the triangle flipped"),
            ("ex4_tests", "these checks call your `causal_mask` (exercise 1)"),
        ],
    ),
    "diagonal_masked": (
        {
            "ex1_causal_mask": (
                "def causal_mask(seq_len):\n"
                "    return torch.ones(seq_len, seq_len, dtype=torch.bool).tril(-1)\n"
            )
        },
        [("ex1_tests", "hides the diagonal too")],
    ),
    "zero_fill": (
        {
            "ex2_masked_self_attention": (
                "def masked_self_attention(x, to_q, to_k, to_v):\n"
                "    q, k, v = to_q(x), to_k(x), to_v(x)\n"
                "    scores = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5\n"
                "    scores = scores.masked_fill(~causal_mask(x.shape[-2]), 0.0)\n"
                "    weights = torch.softmax(scores, dim=-1)\n"
                "    return weights @ v, weights\n"
            )
        },
        [("ex2_tests", "masked scores set to 0 instead of −inf")],
    ),
    "keys_from_decoder": (
        {
            "ex3_cross_attention": (
                "def cross_attention(x, memory, to_q, to_k, to_v):\n"
                "    return scaled_dot_product_attention(to_q(x), to_k(x), to_v(x),\n"
                "                                        need_weights=True)\n"
            ),
            "ex4_decoder_block": (
                "def decoder_block(x, memory, self_attention, cross_attention, feed_forward_net,\n"
                "                  norm1, norm2, norm3, src_mask=None):\n"
                "    h = norm1(x + self_attention(x, mask=causal_mask(x.shape[1]))[0])\n"
                "    h = norm2(h + cross_attention(h, h)[0])\n"
                "    return norm3(h + feed_forward_net(h))\n"
            ),
        },
        [
            ("ex3_tests", "keys and values must come from the encoder's output"),
            ("ex4_tests", "keys and values come from the decoder instead of the encoder"),
        ],
    ),
    "not_shifted": (
        {"ex5_shift_right": "def shift_right(target, start_token):\n    return target\n"},
        [("ex5_tests", "the target itself, not shifted")],
    ),
    "first_position": (
        {
            "ex6_greedy_decode": (
                "def greedy_decode(model, src, start_token, end_token, max_len):\n"
                "    with torch.no_grad():\n"
                "        memory = model.encode(src)\n"
                "        tokens = torch.full((len(src), 1), start_token)\n"
                "        done = torch.zeros(len(src), dtype=torch.bool)\n"
                "        for _ in range(max_len):\n"
                "            new = model.decode(tokens, memory)[:, 0].argmax(-1)\n"
                "            new[done] = end_token\n"
                "            tokens = torch.cat([tokens, new[:, None]], dim=1)\n"
                "            done |= new == end_token\n"
                "            if done.all():\n"
                "                break\n"
                "    return tokens\n"
            )
        },
        [("ex6_tests", "the first position instead of the last")],
    ),
}

OTHER_STYLE["07_warmup_scheduler"] = {
    "ex1_transformer_lr": (
        "def transformer_lr(step, d_model=512, warmup=4000):\n"
        "    step = step + 1\n"
        "    if step < warmup:\n"
        "        return step / (math.sqrt(d_model) * warmup ** 1.5)\n"
        "    return 1 / math.sqrt(d_model * step)\n"
    ),
    "ex2_cosine_warmup": (
        "def cosine_warmup(step, warmup, max_iters):\n"
        "    ramp = min(step / warmup, 1.0)\n"
        "    return float(ramp * (torch.cos(torch.tensor(math.pi * step / max_iters)) + 1) / 2)\n"
    ),
    "ex3_learning_rates": (
        "def learning_rates(lr_lambda, base_lr, steps):\n"
        "    weight = nn.Parameter(torch.ones(2))\n"
        "    optimizer = torch.optim.Adam([weight], lr=base_lr)\n"
        "    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lr_lambda=lr_lambda)\n"
        "    rates = [scheduler.get_last_lr()[0]]\n"
        "    for _ in range(steps - 1):\n"
        "        optimizer.step()\n"
        "        scheduler.step()\n"
        "        rates.append(scheduler.get_last_lr()[0])\n"
        "    return torch.tensor(rates)\n"
    ),
    "ex4_accuracies": (
        "def accuracies(generated, target):\n"
        "    wrong = (generated != target).sum(dim=1)\n"
        "    return (1 - wrong.sum() / target.numel(), (wrong == 0).double().mean())\n"
    ),
    "ex5_train_step": (
        "def train_step(model, src, target, start_token, optimizer, scheduler, clip=None):\n"
        "    optimizer.zero_grad(set_to_none=True)\n"
        "    start = torch.full((target.shape[0], 1), start_token, dtype=target.dtype)\n"
        "    decoder_input = torch.cat([start, target[:, :-1]], dim=1)\n"
        "    logits = model(src, decoder_input)\n"
        "    loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), target.reshape(-1))\n"
        "    loss.backward()\n"
        "    if clip:\n"
        "        nn.utils.clip_grad_norm_(model.parameters(), max_norm=clip)\n"
        "    optimizer.step()\n"
        "    scheduler.step()\n"
        "    return float(loss)\n"
    ),
}

WRONG["07_warmup_scheduler"] = {
    "no_d_model_factor": (
        {
            "ex1_transformer_lr": (
                "def transformer_lr(step, d_model=512, warmup=4000):\n"
                "    n = step + 1\n"
                "    return min(n ** -0.5, n * warmup ** -1.5)\n"
            )
        },
        [("ex1_tests", "without the d_model^-0.5 factor")],
    ),
    "step_from_zero": (
        {
            "ex1_transformer_lr": (
                "def transformer_lr(step, d_model=512, warmup=4000):\n"
                "    return d_model ** -0.5 * min(step ** -0.5, step * warmup ** -1.5)\n"
            )
        },
        [("ex1_tests", "LambdaLR's first step is step 0")],
    ),
    "cosine_over_warmup": (
        {
            "ex2_cosine_warmup": (
                "def cosine_warmup(step, warmup, max_iters):\n"
                "    factor = 0.5 * (1 + math.cos(math.pi * step / warmup))\n"
                "    return factor * step / warmup if step <= warmup else factor\n"
            )
        },
        [("ex2_tests", "the cosine over the warm-up steps instead of the whole run")],
    ),
    "warmup_off_by_one": (
        {
            "ex2_cosine_warmup": (
                "def cosine_warmup(step, warmup, max_iters):\n"
                "    factor = 0.5 * (1 + math.cos(math.pi * step / max_iters))\n"
                "    return factor * (step + 1) / warmup if step <= warmup else factor\n"
            )
        },
        [("ex2_tests", "a warm-up factor off by one")],
    ),
    "scheduler_first": (
        {
            "ex3_learning_rates": (
                "def learning_rates(lr_lambda, base_lr, steps):\n"
                "    weight = torch.zeros(1, requires_grad=True)\n"
                "    optimizer = torch.optim.SGD([weight], lr=base_lr)\n"
                "    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lr_lambda)\n"
                "    used = []\n"
                "    for _ in range(steps):\n"
                "        scheduler.step()\n"
                "        used.append(optimizer.param_groups[0]['lr'])\n"
                "        optimizer.step()\n"
                "    return used\n"
            )
        },
        [("ex3_tests", "the rates one update late")],
    ),
    "any_not_all": (
        {
            "ex4_accuracies": (
                "def accuracies(generated, target):\n"
                "    hits = generated == target\n"
                "    return hits.float().mean().item(), hits.any(dim=1).float().mean().item()\n"
            )
        },
        [("ex4_tests", "when any of its tokens is")],
    ),
    "zero_grad_missing": (
        {
            "ex5_train_step": (
                "def train_step(model, src, target, start_token, optimizer, scheduler,\n"
                "               clip=None):\n"
                "    logits = model(src, transformer.shift_right(target, start_token))\n"
                "    loss = F.cross_entropy(logits.flatten(0, 1), target.flatten())\n"
                "    loss.backward()\n"
                "    if clip is not None:\n"
                "        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)\n"
                "    optimizer.step()\n"
                "    scheduler.step()\n"
                "    return loss.item()\n"
            )
        },
        [("ex5_tests", "gradients never zeroed")],
    ),
    "target_not_shifted": (
        {
            "ex5_train_step": (
                "def train_step(model, src, target, start_token, optimizer, scheduler,\n"
                "               clip=None):\n"
                "    logits = model(src, target)\n"
                "    loss = F.cross_entropy(logits.flatten(0, 1), target.flatten())\n"
                "    optimizer.zero_grad()\n"
                "    loss.backward()\n"
                "    if clip is not None:\n"
                "        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)\n"
                "    optimizer.step()\n"
                "    scheduler.step()\n"
                "    return loss.item()\n"
            )
        },
        [("ex5_tests", "not shifted right")],
    ),
    "scheduler_before_optimizer": (
        {
            "ex5_train_step": (
                "def train_step(model, src, target, start_token, optimizer, scheduler,\n"
                "               clip=None):\n"
                "    logits = model(src, transformer.shift_right(target, start_token))\n"
                "    loss = F.cross_entropy(logits.flatten(0, 1), target.flatten())\n"
                "    optimizer.zero_grad()\n"
                "    loss.backward()\n"
                "    if clip is not None:\n"
                "        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)\n"
                "    scheduler.step()\n"
                "    optimizer.step()\n"
                "    return loss.item()\n"
            )
        },
        [("ex5_tests", "scheduler.step() before optimizer.step()")],
    ),
}

OTHER_STYLE["08_language_model"] = {
    "ex1_tokenizer": (
        "UNKNOWN = corpus.UNKNOWN\n\n"
        "def vocabulary(text):\n"
        "    chars = sorted(dict.fromkeys(c for c in text if c != UNKNOWN))\n"
        "    return [UNKNOWN, *chars]\n\n"
        "def encode(text, vocab):\n"
        "    out = []\n"
        "    for c in text:\n"
        "        out.append(vocab.index(c) if c in vocab else 0)\n"
        "    return torch.LongTensor(out)\n\n"
        "def decode(ids, vocab):\n"
        "    return ''.join([vocab[int(i)] for i in ids])\n"
    ),
    "ex2_random_windows": (
        "def random_windows(data, block_size, batch_size, generator=None):\n"
        "    high = len(data) - block_size\n"
        "    starts = torch.randint(0, high, (batch_size,), generator=generator)\n"
        "    xs = [data[s:s + block_size] for s in starts.tolist()]\n"
        "    ys = [data[s + 1:s + 1 + block_size] for s in starts.tolist()]\n"
        "    return torch.stack(xs), torch.stack(ys)\n"
    ),
    "ex3_multihead_module": (  # heads as one einsum each, nothing from notebook 03's helpers
        "class MultiHeadAttention(nn.Module):\n"
        "    def __init__(self, d_model, n_heads, dropout=0.0):\n"
        "        super().__init__()\n"
        "        self.h, self.p = n_heads, dropout\n"
        "        self.in_proj_weight = nn.Parameter(nn.init.xavier_uniform_(\n"
        "            torch.empty(3 * d_model, d_model)))\n"
        "        self.in_proj_bias = nn.Parameter(torch.zeros(3 * d_model))\n"
        "        self.out_proj = nn.Linear(d_model, d_model)\n\n"
        "    def forward(self, query, key, value, mask=None, need_weights=True):\n"
        "        B, T, D = query.shape\n"
        "        W, b = self.in_proj_weight, self.in_proj_bias\n"
        "        q = (query @ W[:D].T + b[:D]).view(B, T, self.h, -1)\n"
        "        k = (key @ W[D:2 * D].T + b[D:2 * D]).view(B, key.shape[1], self.h, -1)\n"
        "        v = (value @ W[2 * D:].T + b[2 * D:]).view(B, key.shape[1], self.h, -1)\n"
        "        s = torch.einsum('bthd,bshd->bhts', q, k) / q.shape[-1] ** 0.5\n"
        "        if mask is not None:\n"
        "            m = mask if mask.dim() == 2 else mask.unsqueeze(1)\n"
        "            s = s.masked_fill(m.logical_not(), float('-inf'))\n"
        "        w = F.dropout(s.softmax(-1), p=self.p, training=self.training)\n"
        "        out = self.out_proj(torch.einsum('bhts,bshd->bthd', w, v).reshape(B, T, D))\n"
        "        return (out, w.mean(1)) if need_weights else (out, None)\n"
    ),
    "ex4_pre_norm_block": (
        "def pre_norm_block(x, attention, feed_forward_net, norm1, norm2, mask=None):\n"
        "    attended, _ = attention(norm1(x), mask=mask)\n"
        "    x = x + attended\n"
        "    return x + feed_forward_net(norm2(x))\n"
    ),
    "ex5_lm_logits": (
        "def lm_logits(idx, token_embedding, position_embedding, blocks, final_norm):\n"
        "    B, T = idx.shape\n"
        "    pos = position_embedding.weight[:T]\n"
        "    h = token_embedding.weight[idx] + pos\n"
        "    allowed = torch.arange(T)[:, None] >= torch.arange(T)[None, :]\n"
        "    for block in blocks:\n"
        "        h = block(h, allowed)[0]\n"
        "    return torch.einsum('btd,vd->btv', final_norm(h), token_embedding.weight)\n"
    ),
    "ex6_bits_per_character": (
        "def bits_per_character(logits, targets):\n"
        "    logp = torch.log_softmax(logits, dim=-1)\n"
        "    picked = logp.gather(-1, targets.unsqueeze(-1)).squeeze(-1)\n"
        "    return -picked.mean() * math.log2(math.e)\n"
    ),
    "ex7_train": (  # float(loss) (PyTorch warns; not a mistake), zero_grad first, .get
        "def train(model, optimizer, scheduler, batches, steps, evaluate=None, every=100,\n"
        "          clip=1.0):\n"
        "    losses, scores = [], []\n"
        "    for step in steps:\n"
        "        optimizer.zero_grad(set_to_none=True)\n"
        "        x, y = batches(step)\n"
        "        loss = bits_per_character(model(x), y)\n"
        "        loss.backward()\n"
        "        nn.utils.clip_grad_norm_(model.parameters(), max_norm=clip)\n"
        "        optimizer.step()\n"
        "        scheduler.step()\n"
        "        losses.append(float(loss))\n"
        "        done = step + 1\n"
        "        if evaluate and done % every == 0:\n"
        "            scores.append((done, float(evaluate(model))))\n"
        "    return {'bits': losses, 'held_out': scores}\n"
    ),
    "ex7b_adamw_step": (  # the decay folded into the step; torch.rsqrt; the corrections as steps
        "def adamw_step(param, grad, m, v, step, lr, betas, eps, weight_decay):\n"
        "    b1, b2 = betas\n"
        "    new_m = torch.lerp(grad, m, b1)\n"
        "    new_v = b2 * v + (1 - b2) * grad.square()\n"
        "    step_size = lr / (1 - b1 ** step)\n"
        "    denom = new_v.sqrt() / math.sqrt(1 - b2 ** step) + eps\n"
        "    return param - lr * weight_decay * param - step_size * new_m / denom, new_m, new_v\n"
    ),
    "ex8_sample_next": (
        "def sample_next(logits, temperature=1.0, top_k=None, generator=None):\n"
        "    if temperature == 0:\n"
        "        return torch.argmax(logits, dim=1)\n"
        "    k = logits.shape[-1] if top_k is None else top_k\n"
        "    values, indices = torch.topk(logits / temperature, k, dim=-1)\n"
        "    choice = torch.multinomial(F.softmax(values, dim=-1), 1, generator=generator)\n"
        "    return indices.gather(-1, choice)[:, 0]\n"
    ),
    "ex8b_top_p_filter": (  # the probabilities sorted, the sums shifted by a cat, gathered back
        "def top_p_filter(logits, p):\n"
        "    probs, order = torch.softmax(logits, dim=-1).sort(dim=-1, descending=True)\n"
        "    up_to = probs.cumsum(dim=-1)\n"
        "    before = torch.cat([torch.zeros_like(up_to[:, :1]), up_to[:, :-1]], dim=-1)\n"
        "    keep = (before < p).gather(-1, order.argsort(dim=-1))\n"
        "    return torch.where(keep, logits, torch.full_like(logits, float('-inf')))\n"
    ),
    "ex9_attend_with_cache": (  # the mask always, by positions; copy_ into the cache
        "def attend_with_cache(q, k_new, v_new, cache_k, cache_v, length):\n"
        "    n = q.size(-2)\n"
        "    total = length + n\n"
        "    cache_k[:, :, length:total].copy_(k_new)\n"
        "    cache_v[:, :, length:total].copy_(v_new)\n"
        "    keys, values = cache_k[:, :, :total], cache_v[:, :, :total]\n"
        "    query_pos = torch.arange(length, total)[:, None]\n"
        "    scores = torch.einsum('bhnd,bhtd->bhnt', q, keys) * q.size(-1) ** -0.5\n"
        "    scores = torch.where(torch.arange(total) <= query_pos, scores, float('-inf'))\n"
        "    return scores.softmax(-1) @ values\n"
    ),
}

WRONG["08_language_model"] = {
    "no_unknown_entry": (
        {
            "ex1_tokenizer": (
                "UNKNOWN = corpus.UNKNOWN\n\n"
                "def vocabulary(text):\n    return sorted(set(text))\n\n"
                "def encode(text, vocab):\n"
                "    return torch.tensor([vocab.index(c) if c in vocab else 0 for c in text])\n\n"
                "def decode(ids, vocab):\n    return ''.join(vocab[i] for i in ids.tolist())\n"
            )
        },
        [("ex1_tests", "UNKNOWN first")],
    ),
    "targets_not_shifted": (
        {
            "ex2_random_windows": (
                "def random_windows(data, block_size, batch_size, generator=None):\n"
                "    n = len(data) - block_size\n"
                "    starts = torch.randint(n, (batch_size,), generator=generator)\n"
                "    rows = starts[:, None] + torch.arange(block_size)\n"
                "    return data[rows], data[rows]\n"
            )
        },
        [("ex2_tests", "targets equal to the inputs, not shifted by one character")],
    ),
    "attention_not_scaled": (  # notebook 03's answer, pasted with its mistake
        {
            "ex3_multihead_module": (
                "class MultiHeadAttention(nn.Module):\n"
                "    def __init__(self, d_model, n_heads, dropout=0.0):\n"
                "        super().__init__()\n"
                "        self.n_heads, self.dropout = n_heads, dropout\n"
                "        self.in_proj_weight = nn.Parameter(torch.empty(3 * d_model, d_model))\n"
                "        self.in_proj_bias = nn.Parameter(torch.zeros(3 * d_model))\n"
                "        nn.init.xavier_uniform_(self.in_proj_weight)\n"
                "        self.out_proj = nn.Linear(d_model, d_model)\n\n"
                "    def forward(self, query, key, value, mask=None, need_weights=True):\n"
                "        w_q, w_k, w_v = self.in_proj_weight.chunk(3)\n"
                "        b_q, b_k, b_v = self.in_proj_bias.chunk(3)\n"
                "        q = split_heads(F.linear(query, w_q, b_q), self.n_heads)\n"
                "        k = split_heads(F.linear(key, w_k, b_k), self.n_heads)\n"
                "        v = split_heads(F.linear(value, w_v, b_v), self.n_heads)\n"
                "        scores = q @ k.transpose(-2, -1)\n"
                "        if mask is not None:\n"
                "            scores = scores.masked_fill(~expand_mask(mask), float('-inf'))\n"
                "        weights = F.dropout(torch.softmax(scores, dim=-1), self.dropout,\n"
                "                            self.training)\n"
                "        output = self.out_proj(merge_heads(weights @ v))\n"
                "        return output, (weights.mean(dim=1) if need_weights else None)\n"
            )
        },
        [("ex3_tests", "without the 1/√d_head scaling")],
    ),
    "post_norm": (
        {
            "ex4_pre_norm_block": (
                "def pre_norm_block(x, attention, feed_forward_net, norm1, norm2, mask=None):\n"
                "    h = norm1(x + attention(x, mask=mask)[0])\n"
                "    return norm2(h + feed_forward_net(h))\n"
            )
        },
        [("ex4_tests", "post-norm")],
    ),
    "no_causal_mask": (
        {
            "ex5_lm_logits": (
                "def lm_logits(idx, token_embedding, position_embedding, blocks, final_norm):\n"
                "    x = token_embedding(idx) + position_embedding(torch.arange(idx.shape[1]))\n"
                "    for block in blocks:\n"
                "        x = block(x, None)[0]\n"
                "    return final_norm(x) @ token_embedding.weight.T\n"
            )
        },
        [("ex5_tests", "the model without a causal mask")],
    ),
    "nats": (
        {
            "ex6_bits_per_character": (
                "def bits_per_character(logits, targets):\n"
                "    return F.cross_entropy(logits.flatten(0, 1), targets.flatten())\n"
            )
        },
        [
            ("ex6_tests", "the cross-entropy in nats"),
            ("ex7_tests", "these checks call your `bits_per_character` (exercise 6)"),
        ],
    ),
    "gradients_never_zeroed": (
        {
            "ex7_train": (
                "def train(model, optimizer, scheduler, batches, steps, evaluate=None, every=100,\n"
                "          clip=1.0):\n"
                "    history = {'bits': [], 'held_out': []}\n"
                "    for step in steps:\n"
                "        inputs, targets = batches(step)\n"
                "        loss = bits_per_character(model(inputs), targets)\n"
                "        loss.backward()\n"
                "        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)\n"
                "        optimizer.step()\n"
                "        scheduler.step()\n"
                "        history['bits'].append(loss.item())\n"
                "        if evaluate is not None and (step + 1) % every == 0:\n"
                "            history['held_out'].append((step + 1, evaluate(model)))\n"
                "    return history\n"
            )
        },
        [("ex7_tests", "gradients never zeroed")],
    ),
    "adam_l2_instead_of_adamw": (
        {
            "ex7b_adamw_step": (
                "def adamw_step(param, grad, m, v, step, lr, betas, eps, weight_decay):\n"
                "    beta1, beta2 = betas\n"
                "    grad = grad + weight_decay * param  # as torch.optim.Adam does it\n"
                "    m = beta1 * m + (1 - beta1) * grad\n"
                "    v = beta2 * v + (1 - beta2) * grad ** 2\n"
                "    m_hat, v_hat = m / (1 - beta1 ** step), v / (1 - beta2 ** step)\n"
                "    return param - lr * m_hat / (v_hat.sqrt() + eps), m, v\n"
            )
        },
        [("ex7b_tests", "Adam with an L2 penalty instead of AdamW")],
    ),
    "temperature_multiplied": (
        {
            "ex8_sample_next": (
                "def sample_next(logits, temperature=1.0, top_k=None, generator=None):\n"
                "    if temperature == 0:\n"
                "        return logits.argmax(-1)\n"
                "    logits = logits * temperature\n"
                "    if top_k is not None:\n"
                "        kth = logits.topk(top_k, dim=-1).values[:, -1:]\n"
                "        logits = logits.masked_fill(logits < kth, float('-inf'))\n"
                "    return torch.multinomial(logits.softmax(-1), 1, generator=generator)[:, 0]\n"
            )
        },
        [("ex8_tests", "logits multiplied by the temperature instead of divided")],
    ),
    "top_p_drops_the_crossing_token": (
        {
            "ex8b_top_p_filter": (
                "def top_p_filter(logits, p):\n"
                "    sorted_logits, order = logits.sort(dim=-1, descending=True)\n"
                "    cumulative = sorted_logits.softmax(dim=-1).cumsum(dim=-1)\n"
                "    drop = cumulative > p\n"
                "    drop[:, 0] = False  # the top token always stays\n"
                "    sorted_logits = sorted_logits.masked_fill(drop, float('-inf'))\n"
                "    return torch.empty_like(logits).scatter(-1, order, sorted_logits)\n"
            )
        },
        [("ex8b_tests", "stops before the token that carries the sum to p")],
    ),
    "cache_never_read": (
        {
            "ex9_attend_with_cache": (
                "def attend_with_cache(q, k_new, v_new, cache_k, cache_v, length):\n"
                "    n = q.shape[-2]\n"
                "    cache_k[..., length:length + n, :] = k_new\n"
                "    cache_v[..., length:length + n, :] = v_new\n"
                "    scores = q @ k_new.transpose(-2, -1) / math.sqrt(q.shape[-1])\n"
                "    visible = torch.ones(n, n, dtype=torch.bool).tril()\n"
                "    weights = scores.masked_fill(~visible, float('-inf')).softmax(-1)\n"
                "    return weights @ v_new\n"
            )
        },
        [("ex9_tests", "the cache is never read")],
    ),
}

# One mistake each, of the kinds mutation analysis showed the checks used to miss or could
# not name (autograder/mutation/analysis.py). Graded by the trusted checker in-process
# (tests/test_grading_power.py), so a phrase may come from a hand-written variant or from
# the mutant the answer matches. None: the answer must only lose points.
ONE_MISTAKE = {
    "01_vector_attention": {
        "softmax_in_place": (
            {
                "ex3_softmax": (
                    "def softmax(z):\n    z -= z.max()\n    return z.exp() / z.exp().sum()\n"
                )
            },
            [("ex3_tests", "changed its input `example_scores` in place")],
        ),
        "softmax_min_shift": (
            {
                "ex3_softmax": (
                    "def softmax(z):\n    e = torch.exp(z - z.min())\n    return e / e.sum()\n"
                )
            },
            [("ex3_tests", "uses `min` where `max` belongs")],
        ),
        "bias_forgotten": (
            {"ex1_project": "def project(W, b, x):\n    return torch.matmul(W, x)\n"},
            [("ex1_tests", "without the bias")],
        ),
    },
    "02_matrix_attention": {
        "cols_min_shift": (
            {
                "ex1_softmax_cols": (
                    "def softmax_cols(S):\n"
                    "    e = (S - S.min(dim=0, keepdim=True).values).exp()\n"
                    "    return e / e.sum(0, keepdim=True)\n"
                )
            },
            [("ex1_tests", "NaN")],
        ),
        "pair_reversed": (
            {
                "ex3_attention": (
                    "def attention(Q, K, V, mask=None):\n"
                    "    s = Q @ K.mT / Q.shape[-1] ** 0.5\n"
                    "    if mask is not None:\n"
                    "        s = s.masked_fill(mask.logical_not(), -torch.inf)\n"
                    "    p = s.softmax(dim=-1)\n"
                    "    return p, p @ V\n"
                )
            },
            [("ex3_tests", "the pair returned in the wrong order")],
        ),
        "batch_only": (
            {
                "ex3_attention": (
                    "def attention(Q, K, V, mask=None):\n"
                    "    s = Q @ K.transpose(1, 2) / math.sqrt(Q.shape[-1])\n"
                    "    if mask is not None:\n"
                    "        s = s.masked_fill(~mask, float('-inf'))\n"
                    "    w = torch.softmax(s, dim=-1)\n"
                    "    return w @ V, w\n"
                )
            },
            [("ex3_tests", None)],
        ),
        "mask_in_place": (
            {
                "ex3_attention": (
                    "def attention(Q, K, V, mask=None):\n"
                    "    s = Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1])\n"
                    "    if mask is not None:\n"
                    "        mask.logical_not_()\n"
                    "        s = s.masked_fill(mask, float('-inf'))\n"
                    "    w = torch.softmax(s, dim=-1)\n"
                    "    return w @ V, w\n"
                )
            },
            [("ex3_tests", "changed its input `mask` in place")],
        ),
        "padding_one_too_many": (
            {
                "ex4_padding_mask": (
                    "def padding_mask(lengths, seq_len):\n"
                    "    return torch.arange(seq_len).unsqueeze(0) <= lengths.unsqueeze(1)\n"
                )
            },
            [("ex4_tests", None)],
        ),
        "shift_wraps_around": (
            {
                "ex5_hand_built_heads": (
                    "def previous_token_head(vocab_size, max_len, d_head, strength):\n"
                    "    W_q = torch.zeros(vocab_size + max_len, d_head)\n"
                    "    W_k = torch.zeros(vocab_size + max_len, d_head)\n"
                    "    W_k[vocab_size:, :max_len] = torch.eye(max_len)\n"
                    "    shifted = torch.eye(max_len).roll(-1, dims=1)  # row 0 wraps to the end\n"
                    "    W_q[vocab_size:, :max_len] = strength * d_head ** 0.5 * shifted\n"
                    "    return W_q, W_k\n"
                    "\n"
                    "def same_token_head(vocab_size, max_len, d_head, strength):\n"
                    "    W = torch.zeros(vocab_size + max_len, d_head)\n"
                    "    W[:vocab_size, :vocab_size] = torch.eye(vocab_size)\n"
                    "    return W * strength * d_head ** 0.5, W\n"
                )
            },
            [("ex5_tests", "wraps around")],
        ),
        "heads_assume_d_head_is_max_len": (
            {
                "ex5_hand_built_heads": (
                    "def previous_token_head(vocab_size, max_len, d_head, strength):\n"
                    "    W_q = torch.zeros(vocab_size + max_len, d_head)\n"
                    "    W_k = torch.zeros(vocab_size + max_len, d_head)\n"
                    "    W_k[vocab_size:] = torch.eye(max_len)\n"
                    "    W_q[vocab_size + 1:] = strength * d_head ** 0.5 * torch.eye(max_len)[:-1]\n"
                    "    return W_q, W_k\n"
                    "\n"
                    "def same_token_head(vocab_size, max_len, d_head, strength):\n"
                    "    W = torch.zeros(vocab_size + max_len, d_head)\n"
                    "    W[:vocab_size, :vocab_size] = torch.eye(vocab_size)\n"
                    "    return W * strength * d_head ** 0.5, W\n"
                )
            },
            [("ex5_tests", "torch.eye(max_len) has only max_len columns")],
        ),
        "head_scaled_by_max_len": (
            {
                "ex5_hand_built_heads": (
                    "def previous_token_head(vocab_size, max_len, d_head, strength):\n"
                    "    W_q = torch.zeros(vocab_size + max_len, d_head)\n"
                    "    W_k = torch.zeros(vocab_size + max_len, d_head)\n"
                    "    W_k[vocab_size:, :max_len] = torch.eye(max_len)\n"
                    "    W_q[vocab_size + 1:, :max_len - 1] = (strength * math.sqrt(max_len)\n"
                    "                                          * torch.eye(max_len - 1))\n"
                    "    return W_q, W_k\n"
                    "\n"
                    "def same_token_head(vocab_size, max_len, d_head, strength):\n"
                    "    W = torch.zeros(vocab_size + max_len, d_head)\n"
                    "    W[:vocab_size, :vocab_size] = torch.eye(vocab_size)\n"
                    "    return W * strength * d_head ** 0.5, W\n"
                )
            },
            [("ex5_tests", "√max_len where √d_head belongs")],
        ),
    },
    "04_positional_encoding": {
        "max_len_ignored": (
            {
                "ex3_positional_encoding": (
                    "class PositionalEncoding(nn.Module):\n"
                    "    def __init__(self, d_model, max_len=500):\n"
                    "        super().__init__()\n"
                    "        self.register_buffer('table', sinusoidal_table(500, d_model),\n"
                    "                             persistent=False)\n"
                    "\n"
                    "    def forward(self, x):\n"
                    "        return x + self.table[:x.shape[1]]\n"
                )
            },
            [("ex3_tests", None)],
        ),
        "last_position_missing": (
            {
                "ex1_pe_table_loops": (
                    "def pe_table_loops(seq_len, d_model):\n"
                    "    table = torch.zeros(seq_len, d_model)\n"
                    "    for pos in range(seq_len - 1):\n"
                    "        for i in range(0, d_model, 2):\n"
                    "            table[pos, i] = math.sin(pos / 10000 ** (i / d_model))\n"
                    "            table[pos, i + 1] = math.cos(pos / 10000 ** (i / d_model))\n"
                    "    return table\n"
                )
            },
            [("ex1_tests", "uses `seq_len` − 1 instead of `seq_len`")],
        ),
    },
    "05_encoder": {
        "eps_ignored": (
            {
                "ex1_layer_norm": (
                    "def layer_norm(x, gamma, beta, eps=1e-5):\n"
                    "    mean = x.mean(-1, keepdim=True)\n"
                    "    var = x.var(-1, keepdim=True, unbiased=False)\n"
                    "    return (x - mean) / torch.sqrt(var + 1e-5) * gamma + beta\n"
                )
            },
            [("ex1_tests", "does not use the eps it is given")],
        ),
        "no_output_bias": (
            {
                "ex2_feed_forward": (
                    "def feed_forward(x, W1, b1, W2, b2):\n"
                    "    return torch.relu(x @ W1.T + b1) @ W2.T\n"
                )
            },
            [("ex2_tests", None)],
        ),
        "float32_modules": (  # right in float32; float64 inputs meet float32 weights
            {
                "ex2_feed_forward": (
                    "def feed_forward(x, W1, b1, W2, b2):\n"
                    "    first, second = nn.Linear(*W1.T.shape), nn.Linear(*W2.T.shape)\n"
                    "    with torch.no_grad():\n"
                    "        for layer, W, b in ((first, W1, b1), (second, W2, b2)):\n"
                    "            layer.weight.copy_(W)\n"
                    "            layer.bias.copy_(b)\n"
                    "        return second(torch.relu(first(x)))\n"
                )
            },
            [("ex2_tests", "float32 and float64 tensors were mixed")],
        ),
        "mask_not_passed_on": (
            {
                "ex5_encode": (
                    "def encode(x, blocks, mask=None):\n"
                    "    maps = []\n"
                    "    for block in blocks:\n"
                    "        x, w = block(x, need_weights=True)\n"
                    "        maps.append(w)\n"
                    "    return x, maps\n"
                )
            },
            [("ex5_tests", "ignores its `mask` argument")],
        ),
        "residual_in_place": (
            {
                "ex3_encoder_block": (
                    "def encoder_block(x, attention, feed_forward_net, norm1, norm2, mask=None):\n"
                    "    x += attention(x, mask=mask)[0]\n"
                    "    h = norm1(x)\n"
                    "    return norm2(h + feed_forward_net(h))\n"
                )
            },
            [("ex3_tests", "changed its input `x` in place")],
        ),
    },
    "06_decoder": {
        "softmax_then_mask": (
            {
                "ex2_masked_self_attention": (
                    "def masked_self_attention(x, to_q, to_k, to_v):\n"
                    "    q, k, v = to_q(x), to_k(x), to_v(x)\n"
                    "    w = torch.softmax(q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5, dim=-1)\n"
                    "    w = w.masked_fill(~causal_mask(x.shape[-2]), 0.0)\n"
                    "    return w @ v, w\n"
                )
            },
            [("ex2_tests", None)],
        ),
        "memory_as_queries": (
            {
                "ex3_cross_attention": (
                    "def cross_attention(x, memory, to_q, to_k, to_v):\n"
                    "    return scaled_dot_product_attention(to_q(memory), to_k(x), to_v(x),\n"
                    "                                        need_weights=True)\n"
                )
            },
            [("ex3_tests", None)],
        ),
    },
    "07_warmup_scheduler": {
        "cosine_sin": (
            {
                "ex2_cosine_warmup": (
                    "def cosine_warmup(step, warmup, max_iters):\n"
                    "    factor = 0.5 * (1 + math.sin(math.pi * step / max_iters))\n"
                    "    if step <= warmup:\n"
                    "        factor *= step / warmup\n"
                    "    return factor\n"
                )
            },
            [("ex2_tests", "uses `sin` where `cos` belongs")],
        ),
    },
    "08_language_model": {
        "inverted_causal_mask": (
            {
                "ex5_lm_logits": (
                    "def lm_logits(idx, token_embedding, position_embedding, blocks, final_norm):\n"
                    "    T = idx.shape[1]\n"
                    "    x = token_embedding(idx) + position_embedding(torch.arange(T))\n"
                    "    hidden = ~causal_mask(T)  # nn.MultiheadAttention's polarity\n"
                    "    for block in blocks:\n"
                    "        x = block(x, hidden)[0]\n"
                    "    return final_norm(x) @ token_embedding.weight.T\n"
                )
            },
            [("ex5_tests", "the causal mask inverted")],
        ),
        "scheduler_before_optimizer": (
            {
                "ex7_train": (
                    "def train(model, optimizer, scheduler, batches, steps, evaluate=None,\n"
                    "          every=100, clip=1.0):\n"
                    "    history = {'bits': [], 'held_out': []}\n"
                    "    for step in steps:\n"
                    "        inputs, targets = batches(step)\n"
                    "        loss = bits_per_character(model(inputs), targets)\n"
                    "        optimizer.zero_grad()\n"
                    "        loss.backward()\n"
                    "        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)\n"
                    "        scheduler.step()\n"
                    "        optimizer.step()\n"
                    "        history['bits'].append(loss.item())\n"
                    "        if evaluate is not None and (step + 1) % every == 0:\n"
                    "            history['held_out'].append((step + 1, evaluate(model)))\n"
                    "    return history\n"
                )
            },
            [("ex7_tests", "scheduler.step() before optimizer.step()")],
        ),
        "counts_its_own_steps": (
            {
                "ex7_train": (
                    "def train(model, optimizer, scheduler, batches, steps, evaluate=None,\n"
                    "          every=100, clip=1.0):\n"
                    "    history = {'bits': [], 'held_out': []}\n"
                    "    for i, _ in enumerate(steps):\n"
                    "        inputs, targets = batches(i)\n"
                    "        loss = bits_per_character(model(inputs), targets)\n"
                    "        optimizer.zero_grad()\n"
                    "        loss.backward()\n"
                    "        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)\n"
                    "        optimizer.step()\n"
                    "        scheduler.step()\n"
                    "        history['bits'].append(loss.item())\n"
                    "        if evaluate is not None and (i + 1) % every == 0:\n"
                    "            history['held_out'].append((i + 1, evaluate(model)))\n"
                    "    return history\n"
                )
            },
            [("ex7_tests", None)],  # visible checks pass; the resumed run's hidden one fails
        ),
        "adamw_eps_inside_the_root": (
            {
                "ex7b_adamw_step": (
                    "def adamw_step(param, grad, m, v, step, lr, betas, eps, weight_decay):\n"
                    "    beta1, beta2 = betas\n"
                    "    m = beta1 * m + (1 - beta1) * grad\n"
                    "    v = beta2 * v + (1 - beta2) * grad * grad\n"
                    "    m_hat, v_hat = m / (1 - beta1 ** step), v / (1 - beta2 ** step)\n"
                    "    param = param * (1 - lr * weight_decay)\n"
                    "    return param - lr * m_hat / torch.sqrt(v_hat + eps), m, v\n"
                )
            },
            [("ex7b_tests", "eps inside the square root")],
        ),
        "adamw_without_bias_correction": (
            {
                "ex7b_adamw_step": (
                    "def adamw_step(param, grad, m, v, step, lr, betas, eps, weight_decay):\n"
                    "    beta1, beta2 = betas\n"
                    "    m = beta1 * m + (1 - beta1) * grad\n"
                    "    v = beta2 * v + (1 - beta2) * grad * grad\n"
                    "    param = param * (1 - lr * weight_decay) - lr * m / (v.sqrt() + eps)\n"
                    "    return param, m, v\n"
                )
            },
            [("ex7b_tests", "no bias correction")],
        ),
        "adamw_step_counted_from_zero": (
            {
                "ex7b_adamw_step": (
                    "def adamw_step(param, grad, m, v, step, lr, betas, eps, weight_decay):\n"
                    "    beta1, beta2 = betas\n"
                    "    t = step + 1\n"
                    "    m = beta1 * m + (1 - beta1) * grad\n"
                    "    v = beta2 * v + (1 - beta2) * grad * grad\n"
                    "    m_hat, v_hat = m / (1 - beta1 ** t), v / (1 - beta2 ** t)\n"
                    "    param = param * (1 - lr * weight_decay) - lr * m_hat / (v_hat.sqrt() + eps)\n"
                    "    return param, m, v\n"
                )
            },
            [("ex7b_tests", "bias corrections with step + 1")],
        ),
        "top_p_left_in_sorted_order": (
            {
                "ex8b_top_p_filter": (
                    "def top_p_filter(logits, p):\n"
                    "    sorted_logits, order = torch.sort(logits, dim=-1, descending=True)\n"
                    "    probs = torch.softmax(sorted_logits, dim=-1)\n"
                    "    before = torch.cumsum(probs, dim=-1) - probs\n"
                    "    return sorted_logits.masked_fill(before >= p, float('-inf'))\n"
                )
            },
            [("ex8b_tests", "left in sorted order")],
        ),
        "mask_on_first_call_only": (
            {
                "ex9_attend_with_cache": (
                    "def attend_with_cache(q, k_new, v_new, cache_k, cache_v, length):\n"
                    "    n = q.shape[-2]\n"
                    "    cache_k[..., length:length + n, :] = k_new\n"
                    "    cache_v[..., length:length + n, :] = v_new\n"
                    "    k, v = cache_k[..., :length + n, :], cache_v[..., :length + n, :]\n"
                    "    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])\n"
                    "    if length == 0:  # the prompt\n"
                    "        scores = scores.masked_fill(~causal_mask(n), float('-inf'))\n"
                    "    return scores.softmax(-1) @ v\n"
                )
            },
            [("ex9_tests", "the causal mask applied on the first call only")],
        ),
    },
}

OTHER_STYLE["09_modern_decoder"] = {
    "ex1_rms_norm": (
        "def rms_norm(x, weight, eps=1e-5):\n"
        "    mean_square = torch.linalg.vector_norm(x, dim=-1, keepdim=True) ** 2 / x.shape[-1]\n"
        "    return weight * x * torch.rsqrt(mean_square + eps)\n"
    ),
    "ex2_rotary": (  # LLaMA's way: each pair a complex number, multiplied by e^{iθ}
        "def apply_rotary(x, positions, base=10000.0):\n"
        "    d = x.shape[-1]\n"
        "    freqs = 1.0 / base ** (torch.arange(0, d, 2, device=x.device).double() / d)\n"
        "    angles = torch.outer(positions.double(), freqs)\n"
        "    turn = torch.polar(torch.ones_like(angles), angles)\n"
        "    pairs = torch.view_as_complex(x.double().reshape(*x.shape[:-1], d // 2, 2))\n"
        "    return torch.view_as_real(pairs * turn).flatten(-2).to(x.dtype)\n\n"
        "def rotary_attention(q, k, v):\n"
        "    T = q.shape[-2]\n"
        "    where = torch.arange(T)\n"
        "    q, k = apply_rotary(q, where), apply_rotary(k, where)\n"
        "    s = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])\n"
        "    s = s.masked_fill(~causal_mask(T), float('-inf'))\n"
        "    return s.softmax(-1) @ v\n"
    ),
    "ex3_swiglu": (
        "def swiglu(x, W_gate, W_up, W_down):\n"
        "    return F.linear(F.silu(F.linear(x, W_gate)) * F.linear(x, W_up), W_down)\n\n"
        "def matched_hidden_size(d_model, d_ff):\n"
        "    relu_weights = 2 * d_model * d_ff\n"
        "    return int(relu_weights / (3 * d_model) + 0.5)\n"
    ),
    "ex4_gqa": (  # groups as an axis of their own: no copies of k and v
        "def grouped_query_attention(q, k, v, mask=None):\n"
        "    B, H, T, d = q.shape\n"
        "    G = k.shape[1]\n"
        "    grouped = q.reshape(B, G, H // G, T, d)\n"
        "    s = torch.einsum('bgrtd,bgsd->bgrts', grouped, k) / d ** 0.5\n"
        "    if mask is not None:\n"
        "        s = torch.where(mask if mask.dim() == 2 else mask[:, :, None], s, float('-inf'))\n"
        "    out = torch.einsum('bgrts,bgsd->bgrtd', s.softmax(-1), v)\n"
        "    return out.reshape(B, H, T, d)\n"
    ),
    "ex5_modern_block": (
        "class ModernBlock(nn.Module):\n"
        "    def __init__(self, d_model, n_heads, n_kv_heads, d_ff, eps=1e-5):\n"
        "        super().__init__()\n"
        "        d_head = d_model // n_heads\n"
        "        self.n_heads, self.n_kv_heads, self.eps = n_heads, n_kv_heads, eps\n"
        "        self.norm1 = modern.RMSNorm(d_model, eps)\n"
        "        self.q_proj = nn.Linear(d_model, n_heads * d_head)\n"
        "        self.k_proj = nn.Linear(d_model, n_kv_heads * d_head)\n"
        "        self.v_proj = nn.Linear(d_model, n_kv_heads * d_head)\n"
        "        self.out_proj = nn.Linear(n_heads * d_head, d_model)\n"
        "        self.norm2 = modern.RMSNorm(d_model, eps)\n"
        "        self.feed_forward = modern.SwiGLU(d_model, d_ff)\n\n"
        "    def forward(self, x):\n"
        "        B, T, _ = x.shape\n"
        "        h = rms_norm(x, self.norm1.weight, eps=self.eps)\n\n"
        "        def heads(t, n):\n"
        "            return t.view(B, T, n, -1).transpose(1, 2)\n\n"
        "        q = heads(self.q_proj(h), self.n_heads)\n"
        "        k = heads(self.k_proj(h), self.n_kv_heads)\n"
        "        v = heads(self.v_proj(h), self.n_kv_heads)\n"
        "        where = torch.arange(T, device=x.device)\n"
        "        allowed = torch.ones(T, T, dtype=torch.bool, device=x.device).tril()\n"
        "        out = grouped_query_attention(apply_rotary(q, where), apply_rotary(k, where), v,\n"
        "                                      mask=allowed)\n"
        "        x = x + self.out_proj(out.transpose(1, 2).reshape(B, T, -1))\n"
        "        f = self.feed_forward\n"
        "        return x + swiglu(rms_norm(x, self.norm2.weight, eps=self.eps), f.gate.weight,\n"
        "                          f.up.weight, f.down.weight)\n"
    ),
}

_MODERN_BLOCK_INIT = (
    "class ModernBlock(nn.Module):\n"
    "    def __init__(self, d_model, n_heads, n_kv_heads, d_ff, eps=1e-5):\n"
    "        super().__init__()\n"
    "        d_head = d_model // n_heads\n"
    "        self.n_heads, self.n_kv_heads, self.eps = n_heads, n_kv_heads, eps\n"
    "        self.norm1 = modern.RMSNorm(d_model, eps)\n"
    "        self.q_proj = nn.Linear(d_model, n_heads * d_head)\n"
    "        self.k_proj = nn.Linear(d_model, n_kv_heads * d_head)\n"
    "        self.v_proj = nn.Linear(d_model, n_kv_heads * d_head)\n"
    "        self.out_proj = nn.Linear(n_heads * d_head, d_model)\n"
    "        self.norm2 = modern.RMSNorm(d_model, eps)\n"
    "        self.feed_forward = modern.SwiGLU(d_model, d_ff)\n\n"
)

# Notebook 09's Exercise 6: the three functions of byte-pair encoding in one cell; a sample
# answer changes one of them.
_MERGE_PAIR = (
    "def merge_pair(ids, pair, new_id):\n"
    "    out, i = [], 0\n"
    "    while i < len(ids):\n"
    "        if i + 1 < len(ids) and (ids[i], ids[i + 1]) == tuple(pair):\n"
    "            out.append(new_id)\n"
    "            i += 2\n"
    "        else:\n"
    "            out.append(ids[i])\n"
    "            i += 1\n"
    "    return out\n\n"
)


def _bpe_merges(choose: str, counting: str = "    counts = Counter(zip(ids, ids[1:]))\n") -> str:
    """bpe_merges with ``choose`` the line that sets ``best`` from ``counts``."""
    return (
        "from collections import Counter\n\n"
        "def bpe_merges(ids, num_merges):\n"
        "    merges = []\n"
        "    for k in range(num_merges):\n"
        + counting.replace("\n    ", "\n        ").replace("    counts", "        counts", 1)
        + "        if not counts:\n"
        "            break\n"
        f"        {choose}\n"
        "        merges.append(best)\n"
        "        ids = merge_pair(ids, best, 256 + k)\n"
        "    return merges\n\n"
    )


_BPE_ENCODE = (
    "def bpe_encode(text, merges):\n"
    "    ids = list(text.encode('utf-8'))\n"
    "    for k, pair in enumerate(merges):\n"
    "        ids = merge_pair(ids, pair, 256 + k)\n"
    "    return ids\n"
)
_BPE_MOST = "best = max(counts, key=counts.get)"

WRONG["09_modern_decoder"] = {
    "rms_centred": (
        {
            "ex1_rms_norm": (
                "def rms_norm(x, weight, eps=1e-5):\n"
                "    x = x - x.mean(-1, keepdim=True)\n"
                "    return x / torch.sqrt(x.pow(2).mean(-1, keepdim=True) + eps) * weight\n"
            )
        },
        [("ex1_tests", "layer norm's centring kept")],
    ),
    "values_turned": (
        {
            "ex2_rotary": (
                "def apply_rotary(x, positions, base=10000.0):\n"
                "    d = x.shape[-1]\n"
                "    angles = positions[:, None] * base ** (-torch.arange(0, d, 2) / d)\n"
                "    cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)\n"
                "    a, b = x[..., 0::2], x[..., 1::2]\n"
                "    return torch.stack([a * cos - b * sin, a * sin + b * cos], -1).flatten(-2)\n\n"
                "def rotary_attention(q, k, v):\n"
                "    p = torch.arange(q.shape[-2])\n"
                "    q, k, v = apply_rotary(q, p), apply_rotary(k, p), apply_rotary(v, p)\n"
                "    return F.scaled_dot_product_attention(q, k, v, is_causal=True)\n"
            )
        },
        [("ex2_tests", "the values turned as well")],
    ),
    "gate_on_up": (
        {
            "ex3_swiglu": (
                "def swiglu(x, W_gate, W_up, W_down):\n"
                "    return (F.silu(x @ W_up.T) * (x @ W_gate.T)) @ W_down.T\n\n"
                "def matched_hidden_size(d_model, d_ff):\n"
                "    return round(2 * d_ff / 3)\n"
            )
        },
        [("ex3_tests", "the SiLU on the up projection instead of the gate")],
    ),
    "kv_dealt_in_turn": (
        {
            "ex4_gqa": (
                "def grouped_query_attention(q, k, v, mask=None):\n"
                "    n = q.shape[1] // k.shape[1]\n"
                "    k, v = k.repeat(1, n, 1, 1), v.repeat(1, n, 1, 1)\n"
                "    s = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])\n"
                "    if mask is not None:\n"
                "        s = s.masked_fill(~mask, float('-inf'))\n"
                "    return s.softmax(-1) @ v\n"
            )
        },
        [("ex4_tests", "key/value heads dealt out in turn")],
    ),
    "block_without_rotary": (
        {
            "ex5_modern_block": _MODERN_BLOCK_INIT
            + (
                "    def forward(self, x):\n"
                "        T = x.shape[-2]\n"
                "        h = rms_norm(x, self.norm1.weight, self.eps)\n"
                "        q = split_heads(self.q_proj(h), self.n_heads)\n"
                "        k = split_heads(self.k_proj(h), self.n_kv_heads)\n"
                "        v = split_heads(self.v_proj(h), self.n_kv_heads)\n"
                "        attended = grouped_query_attention(q, k, v, causal_mask(T))\n"
                "        x = x + self.out_proj(merge_heads(attended))\n"
                "        h = rms_norm(x, self.norm2.weight, self.eps)\n"
                "        ff = self.feed_forward\n"
                "        return x + swiglu(h, ff.gate.weight, ff.up.weight, ff.down.weight)\n"
            )
        },
        [("ex5_tests", "the block without rotary embeddings")],
    ),
    "bpe_code_points": (
        {
            "ex6_bpe": _MERGE_PAIR
            + _bpe_merges(_BPE_MOST)
            + (
                "def bpe_encode(text, merges):\n"
                "    ids = [ord(c) for c in text]\n"
                "    for k, pair in enumerate(merges):\n"
                "        ids = merge_pair(ids, pair, 256 + k)\n"
                "    return ids\n"
            )
        },
        [("ex6_tests", "code points (ord)")],
    ),
}

ONE_MISTAKE["09_modern_decoder"] = {
    "eps_outside_the_root": (
        {
            "ex1_rms_norm": (
                "def rms_norm(x, weight, eps=1e-5):\n"
                "    return x / (x.pow(2).mean(-1, keepdim=True).sqrt() + eps) * weight\n"
            )
        },
        [("ex1_tests", "ε added to the root mean square")],
    ),
    "notebook_04s_direction": (  # R_p where R_-p belongs
        {
            "ex2_rotary": (
                "def apply_rotary(x, positions, base=10000.0):\n"
                "    d = x.shape[-1]\n"
                "    angles = positions[:, None].double() * base ** (-torch.arange(0, d, 2) / d)\n"
                "    cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)\n"
                "    a, b = x[..., 0::2], x[..., 1::2]\n"
                "    out = torch.empty_like(x)\n"
                "    out[..., 0::2] = a * cos + b * sin\n"
                "    out[..., 1::2] = b * cos - a * sin\n"
                "    return out\n\n"
                "def rotary_attention(q, k, v):\n"
                "    p = torch.arange(q.shape[-2])\n"
                "    q, k = apply_rotary(q, p), apply_rotary(k, p)\n"
                "    return F.scaled_dot_product_attention(q, k, v, is_causal=True)\n"
            )
        },
        [("ex2_tests", "the rotation the other way round")],
    ),
    "halves_paired": (
        {
            "ex2_rotary": (
                "def apply_rotary(x, positions, base=10000.0):\n"
                "    d = x.shape[-1]\n"
                "    angles = positions[:, None].double() * base ** (-torch.arange(0, d, 2) / d)\n"
                "    cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)\n"
                "    a, b = x[..., : d // 2], x[..., d // 2:]\n"
                "    return torch.cat([a * cos - b * sin, a * sin + b * cos], dim=-1)\n\n"
                "def rotary_attention(q, k, v):\n"
                "    p = torch.arange(q.shape[-2])\n"
                "    q, k = apply_rotary(q, p), apply_rotary(k, p)\n"
                "    return F.scaled_dot_product_attention(q, k, v, is_causal=True)\n"
            )
        },
        [("ex2_tests", "pairs made of the two halves")],
    ),
    "hidden_rounded_down": (
        {
            "ex3_swiglu": (
                "def swiglu(x, W_gate, W_up, W_down):\n"
                "    return (F.silu(x @ W_gate.T) * (x @ W_up.T)) @ W_down.T\n\n"
                "def matched_hidden_size(d_model, d_ff):\n"
                "    return 2 * d_ff // 3\n"
            )
        },
        [("ex3_tests", "rounded down")],
    ),
    "first_kv_head_only": (
        {
            "ex4_gqa": (
                "def grouped_query_attention(q, k, v, mask=None):\n"
                "    s = q @ k[:, :1].transpose(-2, -1) / math.sqrt(q.shape[-1])\n"
                "    if mask is not None:\n"
                "        s = s.masked_fill(~mask, float('-inf'))\n"
                "    return s.softmax(-1) @ v[:, :1]\n"
            )
        },
        [("ex4_tests", "the first key/value head only")],
    ),
    "one_norm_for_both": (
        {
            "ex5_modern_block": _MODERN_BLOCK_INIT
            + (
                "    def forward(self, x):\n"
                "        T = x.shape[-2]\n"
                "        positions = torch.arange(T)\n"
                "        h = rms_norm(x, self.norm1.weight, self.eps)\n"
                "        q = apply_rotary(split_heads(self.q_proj(h), self.n_heads), positions)\n"
                "        k = apply_rotary(split_heads(self.k_proj(h), self.n_kv_heads), positions)\n"
                "        v = split_heads(self.v_proj(h), self.n_kv_heads)\n"
                "        x = x + self.out_proj(merge_heads(grouped_query_attention(q, k, v,\n"
                "                                                                  causal_mask(T))))\n"
                "        h = rms_norm(x, self.norm1.weight, self.eps)\n"
                "        ff = self.feed_forward\n"
                "        return x + swiglu(h, ff.gate.weight, ff.up.weight, ff.down.weight)\n"
            )
        },
        [("ex5_tests", "one norm (norm1) used for both sublayers")],
    ),
    "bpe_least_frequent": (
        {"ex6_bpe": _MERGE_PAIR + _bpe_merges("best = min(counts, key=counts.get)") + _BPE_ENCODE},
        [("ex6_tests", "the least frequent pair")],
    ),
    "bpe_ties_to_the_largest_pair": (
        {
            "ex6_bpe": _MERGE_PAIR
            + _bpe_merges("_, best = max((c, p) for p, c in counts.items())")
            + _BPE_ENCODE
        },
        [("ex6_tests", "broken by the largest pair")],
    ),
    "bpe_ties_to_the_last_met": (
        {
            "ex6_bpe": _MERGE_PAIR
            + _bpe_merges("best = sorted(counts.items(), key=lambda kv: kv[1])[-1][0]")
            + _BPE_ENCODE
        },
        [("ex6_tests", "broken by the pair met last")],
    ),
    "bpe_counted_without_overlap": (
        {
            "ex6_bpe": _MERGE_PAIR
            + _bpe_merges(
                _BPE_MOST,
                counting=(
                    "    counts = {}\n"
                    "    for pair in zip(ids, ids[1:]):\n"
                    "        if pair not in counts:  # as many as merge_pair would replace\n"
                    "            counts[pair] = len(ids) - len(merge_pair(ids, pair, -1))\n"
                ),
            )
            + _BPE_ENCODE
        },
        [("ex6_tests", "counted without overlap")],
    ),
    "bpe_replaced_from_the_right": (
        {
            "ex6_bpe": (
                "def merge_pair(ids, pair, new_id):\n"
                "    out, i = [], len(ids) - 1\n"
                "    while i >= 0:\n"
                "        if i > 0 and (ids[i - 1], ids[i]) == tuple(pair):\n"
                "            out.insert(0, new_id)\n"
                "            i -= 2\n"
                "        else:\n"
                "            out.insert(0, ids[i])\n"
                "            i -= 1\n"
                "    return out\n\n"
            )
            + _bpe_merges(_BPE_MOST)
            + _BPE_ENCODE
        },
        [("ex6_tests", "from right to left")],
    ),
    "bpe_first_occurrence_only": (
        {
            "ex6_bpe": (
                "def merge_pair(ids, pair, new_id):\n"
                "    for i in range(len(ids) - 1):\n"
                "        if (ids[i], ids[i + 1]) == tuple(pair):\n"
                "            return ids[:i] + [new_id] + ids[i + 2:]\n"
                "    return list(ids)\n\n"
            )
            + _bpe_merges(_BPE_MOST)
            + _BPE_ENCODE
        },
        [("ex6_tests", "only the first occurrence")],
    ),
    "bpe_merges_applied_backwards": (
        {
            "ex6_bpe": _MERGE_PAIR
            + _bpe_merges(_BPE_MOST)
            + (
                "def bpe_encode(text, merges):\n"
                "    ids = list(text.encode('utf-8'))\n"
                "    for k in range(len(merges) - 1, -1, -1):\n"
                "        ids = merge_pair(ids, merges[k], 256 + k)\n"
                "    return ids\n"
            )
        },
        [("ex6_tests", "in reverse order")],
    ),
}

OTHER_STYLE["09_modern_decoder"]["ex6_bpe"] = (  # most_common, and encoding by rank (GPT-2's)
    "from collections import Counter\n\n"
    "def merge_pair(ids, pair, new_id):\n"
    "    out, skip = [], False\n"
    "    for i, t in enumerate(ids):\n"
    "        if skip:\n"
    "            skip = False\n"
    "        elif i + 1 < len(ids) and t == pair[0] and ids[i + 1] == pair[1]:\n"
    "            out.append(new_id)\n"
    "            skip = True\n"
    "        else:\n"
    "            out.append(t)\n"
    "    return out\n\n"
    "def bpe_merges(ids, num_merges):\n"
    "    merges = []\n"
    "    while len(merges) < num_merges and len(ids) > 1:\n"
    "        (best, _), = Counter(zip(ids, ids[1:])).most_common(1)\n"
    "        ids = merge_pair(ids, best, 256 + len(merges))\n"
    "        merges.append(best)\n"
    "    return merges\n\n"
    "def bpe_encode(text, merges):\n"
    "    rank = {tuple(p): k for k, p in enumerate(merges)}\n"
    "    ids = list(text.encode())\n"
    "    while len(ids) > 1:\n"
    "        pair = min(zip(ids, ids[1:]), key=lambda p: rank.get(p, len(rank)))\n"
    "        if pair not in rank:\n"
    "            break\n"
    "        ids = merge_pair(ids, pair, 256 + rank[pair])\n"
    "    return ids\n"
)

# Notebook 10: a correct answer written differently for every exercise.
OTHER_STYLE["10_attention_at_scale"] = {
    "ex1_online_softmax_step": (
        "def online_softmax_step(m, l, z):\n"
        "    block_max = z.max(dim=-1).values\n"
        "    m_new = torch.where(block_max > m, block_max, m)\n"
        "    return m_new, l * (m - m_new).exp() + (z - m_new.unsqueeze(-1)).exp().sum(-1)\n"
    ),
    "ex2_tiled_attention": (
        "def tiled_attention(Q, K, V, block_q, block_k, causal=False):\n"
        "    outs, lses = [], []\n"
        "    for start in range(0, Q.shape[-2], block_q):\n"
        "        q = Q[..., start:start + block_q, :] / Q.shape[-1] ** 0.5\n"
        "        rows = torch.arange(start, start + q.shape[-2])\n"
        "        m = torch.full(q.shape[:-1], -math.inf, dtype=Q.dtype)\n"
        "        l = torch.zeros_like(m)\n"
        "        acc = torch.zeros(q.shape[:-1] + V.shape[-1:], dtype=Q.dtype)\n"
        "        stop = min(K.shape[-2], start + q.shape[-2]) if causal else K.shape[-2]\n"
        "        for first in range(0, stop, block_k):\n"
        "            s = torch.einsum('...td,...sd->...ts', q, K[..., first:first + block_k, :])\n"
        "            if causal:\n"
        "                cols = torch.arange(first, first + s.shape[-1])\n"
        "                s = torch.where(cols[None, :] <= rows[:, None], s, -math.inf)\n"
        "            new_m = torch.maximum(m, s.max(-1).values)\n"
        "            w = (s - new_m[..., None]).exp()\n"
        "            c = (m - new_m).exp()\n"
        "            l = c * l + w.sum(-1)\n"
        "            acc = c[..., None] * acc + torch.einsum(\n"
        "                '...ts,...sd->...td', w, V[..., first:first + block_k, :])\n"
        "            m = new_m\n"
        "        outs.append(acc / l[..., None])\n"
        "        lses.append(m + l.log())\n"
        "    return torch.cat(outs, -2), torch.cat(lses, -1)\n"
    ),
    "ex3_attention_backward": (
        "def attention_backward(Q, K, V, P, dO):\n"
        "    d = Q.shape[-1]\n"
        "    dV = torch.einsum('...ts,...tv->...sv', P, dO)\n"
        "    dP = torch.einsum('...tv,...sv->...ts', dO, V)\n"
        "    row = torch.einsum('...ts,...ts->...t', P, dP)\n"
        "    dS = P * dP - P * row[..., None]\n"
        "    dQ = torch.einsum('...ts,...sd->...td', dS, K) / d ** 0.5\n"
        "    dK = torch.einsum('...ts,...td->...sd', dS, Q) / d ** 0.5\n"
        "    return dQ, dK, dV\n"
    ),
    "ex4_flash_backward": (
        "def flash_backward(Q, K, V, O, L, dO, block_q, block_k, causal=False):\n"
        "    scale = Q.shape[-1] ** -0.5\n"
        "    D = torch.einsum('...td,...td->...t', dO, O)\n"
        "    dQ, dK, dV = torch.zeros_like(Q), torch.zeros_like(K), torch.zeros_like(V)\n"
        "    for i in range(0, Q.shape[-2], block_q):\n"
        "        rows = torch.arange(i, min(i + block_q, Q.shape[-2]))\n"
        "        q, g = Q[..., rows, :], dO[..., rows, :]\n"
        "        for j in range(0, K.shape[-2], block_k):\n"
        "            if causal and j > rows[-1]:\n"
        "                break\n"
        "            cols = torch.arange(j, min(j + block_k, K.shape[-2]))\n"
        "            s = q @ K[..., cols, :].transpose(-1, -2) * scale\n"
        "            if causal:\n"
        "                s = s.masked_fill(cols[None, :] > rows[:, None], float('-inf'))\n"
        "            p = (s - L[..., rows, None]).exp()\n"
        "            dV[..., cols, :] += p.transpose(-1, -2) @ g\n"
        "            ds = p * (g @ V[..., cols, :].transpose(-1, -2) - D[..., rows, None])\n"
        "            dQ[..., rows, :] += ds @ K[..., cols, :] * scale\n"
        "            dK[..., cols, :] += ds.transpose(-1, -2) @ q * scale\n"
        "    return dQ, dK, dV\n"
    ),
    "ex5_autograd_functions": (
        "class AttentionFunction(torch.autograd.Function):\n"
        "    @staticmethod\n"
        "    def forward(ctx, Q, K, V, causal):\n"
        "        S = torch.einsum('...td,...sd->...ts', Q, K) / math.sqrt(Q.shape[-1])\n"
        "        if causal:\n"
        "            S = S + torch.full(S.shape[-2:], float('-inf'), dtype=S.dtype).triu(1)\n"
        "        P = S.softmax(-1)\n"
        "        ctx.save_for_backward(Q, K, V, P)\n"
        "        return P @ V\n"
        "\n"
        "    @staticmethod\n"
        "    def backward(ctx, dO):\n"
        "        return (*attention_backward(*ctx.saved_tensors, dO), None)\n"
        "\n"
        "\n"
        "class FlashAttention(torch.autograd.Function):\n"
        "    @staticmethod\n"
        "    def forward(ctx, Q, K, V, causal, block_q, block_k):\n"
        "        O, L = tiled_attention(Q, K, V, block_q, block_k, causal)\n"
        "        ctx.save_for_backward(Q, K, V, O, L)\n"
        "        ctx.settings = dict(block_q=block_q, block_k=block_k, causal=causal)\n"
        "        return O\n"
        "\n"
        "    @staticmethod\n"
        "    def backward(ctx, dO):\n"
        "        Q, K, V, O, L = ctx.saved_tensors\n"
        "        return (*flash_backward(Q, K, V, O, L, dO, **ctx.settings), None, None, None)\n"
    ),
}

# A correct tiled forward pass (exercise 2 of 10); the wrong answers below change one thing.
_TILED = (
    "def tiled_attention(Q, K, V, block_q, block_k, causal=False):\n"
    "    outputs, logsumexps = [], []\n"
    "    for i in range(0, Q.shape[-2], block_q):\n"
    "        q = Q[..., i:i + block_q, :]\n"
    "        queries = torch.arange(i, i + q.shape[-2])\n"
    "        m = torch.full(q.shape[:-1], float('-inf'))\n"
    "        l = torch.zeros(q.shape[:-1])\n"
    "        acc = torch.zeros(*q.shape[:-1], V.shape[-1])\n"
    "        for j in range(0, K.shape[-2], block_k):\n"
    "            if causal and j > queries[-1]:\n"
    "                break\n"
    "            s = q @ K[..., j:j + block_k, :].transpose(-2, -1) / math.sqrt(Q.shape[-1])\n"
    "            if causal:\n"
    "                keys = torch.arange(j, j + s.shape[-1])\n"
    "                s = s.masked_fill(keys > queries[:, None], float('-inf'))\n"
    "            m_new = torch.maximum(m, s.amax(-1))\n"
    "            p = torch.exp(s - m_new[..., None])\n"
    "            l = l * torch.exp(m - m_new) + p.sum(-1)\n"
    "            acc = acc * torch.exp(m - m_new)[..., None] + p @ V[..., j:j + block_k, :]\n"
    "            m = m_new\n"
    "        outputs.append(acc / l[..., None])\n"
    "        logsumexps.append(m + torch.log(l))\n"
    "    return torch.cat(outputs, -2), torch.cat(logsumexps, -1)\n"
)

WRONG["10_attention_at_scale"] = {
    "sum_not_rescaled": (
        {
            "ex1_online_softmax_step": (
                "def online_softmax_step(m, l, z):\n"
                "    m_new = torch.maximum(m, z.amax(-1))\n"
                "    return m_new, l + torch.exp(z - m_new[..., None]).sum(-1)\n"
            )
        },
        [("ex1_tests", "never rescales the old sum")],
    ),
    "accumulator_not_rescaled": (
        {
            "ex2_tiled_attention": _TILED.replace(
                "acc = acc * torch.exp(m - m_new)[..., None] +", "acc = acc +"
            )
        },
        [("ex2_tests", "an accumulator that is not rescaled when the maximum grows")],
    ),
    "jacobian_diagonal_only": (
        {
            "ex3_attention_backward": (
                "def attention_backward(Q, K, V, P, dO):\n"
                "    dS = P * (dO @ V.transpose(-2, -1))\n"
                "    scale = Q.shape[-1] ** 0.5\n"
                "    dV = P.transpose(-2, -1) @ dO\n"
                "    return dS @ K / scale, dS.transpose(-2, -1) @ Q / scale, dV\n"
            )
        },
        [("ex3_tests", "without its −p pᵀ part")],
    ),
    "row_sums_forgotten": (
        {
            "ex4_flash_backward": (
                "def flash_backward(Q, K, V, O, L, dO, block_q, block_k, causal=False):\n"
                "    scale = 1 / math.sqrt(Q.shape[-1])\n"
                "    dQ, dK, dV = torch.zeros_like(Q), torch.zeros_like(K), torch.zeros_like(V)\n"
                "    for j in range(0, K.shape[-2], block_k):\n"
                "        for i in range(0, Q.shape[-2], block_q):\n"
                "            q, g = Q[..., i:i + block_q, :], dO[..., i:i + block_q, :]\n"
                "            if causal and j > i + q.shape[-2] - 1:\n"
                "                continue\n"
                "            s = q @ K[..., j:j + block_k, :].transpose(-2, -1) * scale\n"
                "            if causal:\n"
                "                rows = torch.arange(i, i + q.shape[-2])[:, None]\n"
                "                keys = torch.arange(j, j + s.shape[-1])\n"
                "                s = s.masked_fill(keys > rows, -math.inf)\n"
                "            p = torch.exp(s - L[..., i:i + block_q, None])\n"
                "            dV[..., j:j + block_k, :] += p.transpose(-2, -1) @ g\n"
                "            dS = p * (g @ V[..., j:j + block_k, :].transpose(-2, -1))\n"
                "            dQ[..., i:i + block_q, :] += dS @ K[..., j:j + block_k, :] * scale\n"
                "            dK[..., j:j + block_k, :] += dS.transpose(-2, -1) @ q * scale\n"
                "    return dQ, dK, dV\n"
            )
        },
        [("ex4_tests", "without its −p pᵀ part")],
    ),
    "flash_backward_forgets_causal": (
        {
            "ex5_autograd_functions": (
                "class AttentionFunction(torch.autograd.Function):\n"
                "    @staticmethod\n"
                "    def forward(ctx, Q, K, V, causal):\n"
                "        P = tiled.explicit_weights(Q, K, causal)\n"
                "        ctx.save_for_backward(Q, K, V, P)\n"
                "        return P @ V\n"
                "\n"
                "    @staticmethod\n"
                "    def backward(ctx, dO):\n"
                "        return (*attention_backward(*ctx.saved_tensors, dO), None)\n"
                "\n"
                "\n"
                "class FlashAttention(torch.autograd.Function):\n"
                "    @staticmethod\n"
                "    def forward(ctx, Q, K, V, causal, block_q, block_k):\n"
                "        O, L = tiled_attention(Q, K, V, block_q, block_k, causal)\n"
                "        ctx.save_for_backward(Q, K, V, O, L)\n"
                "        ctx.blocks = block_q, block_k\n"
                "        return O\n"
                "\n"
                "    @staticmethod\n"
                "    def backward(ctx, dO):\n"
                "        Q, K, V, O, L = ctx.saved_tensors\n"
                "        grads = flash_backward(Q, K, V, O, L, dO, *ctx.blocks)\n"
                "        return (*grads, None, None, None)\n"
            )
        },
        [("ex5_tests", "the weights of future keys rebuilt")],
    ),
}

ONE_MISTAKE["10_attention_at_scale"] = {
    "normaliser_in_place": (
        {
            "ex1_online_softmax_step": (
                "def online_softmax_step(m, l, z):\n"
                "    m_new = torch.maximum(m, z.amax(-1))\n"
                "    l *= torch.exp(m - m_new)\n"
                "    return m_new, l + torch.exp(z - m_new[..., None]).sum(-1)\n"
            )
        },
        [("ex1_tests", "changed its input `l` in place")],
    ),
    "no_causal_skip": (
        {
            "ex2_tiled_attention": _TILED.replace(
                "            if causal and j > queries[-1]:\n                break\n", ""
            )
        },
        [("ex2_tests", "do more matrix products than the blocks the mask leaves need")],
    ),
    "whole_matrix_first": (
        {
            "ex2_tiled_attention": _TILED.replace(
                "    outputs, logsumexps = [], []\n",
                "    outputs, logsumexps = [], []\n"
                "    everything = Q @ K.transpose(-2, -1)  # all the scores, 'to have them ready'\n",
            )
        },
        [("ex2_tests", "as large as the whole (T, S) matrix")],
    ),
    "autograd_backward": (
        {
            "ex3_attention_backward": (
                "def attention_backward(Q, K, V, P, dO):\n"
                "    leaves = [t.detach().requires_grad_() for t in (Q, K, V)]\n"
                "    with torch.enable_grad():\n"
                "        S = leaves[0] @ leaves[1].transpose(-2, -1) / math.sqrt(Q.shape[-1])\n"
                "        S = S.masked_fill(P == 0, float('-inf'))\n"
                "        out = torch.softmax(S, -1) @ leaves[2]\n"
                "        return torch.autograd.grad(out, leaves, dO)\n"
            )
        },
        [("ex3_tests", "your answer calls torch.autograd.grad")],
    ),
    "logsumexp_sign": (
        {
            "ex4_flash_backward": OTHER_STYLE["10_attention_at_scale"][
                "ex4_flash_backward"
            ].replace("p = (s - L[..., rows, None]).exp()", "p = (s + L[..., rows, None]).exp()")
        },
        [("ex4_tests", None)],
    ),
    "flash_saves_weights": (
        {
            "ex5_autograd_functions": OTHER_STYLE["10_attention_at_scale"]["ex5_autograd_functions"]
            .replace(
                "        ctx.save_for_backward(Q, K, V, O, L)\n",
                "        ctx.save_for_backward(Q, K, V, O, L)\n"
                "        ctx.weights = tiled.explicit_weights(Q, K, causal)\n"
                "        ctx.save_for_backward(Q, K, V, O, L, ctx.weights)\n",
            )
            .replace("Q, K, V, O, L = ctx.saved_tensors", "Q, K, V, O, L, _ = ctx.saved_tensors")
        },
        [("ex5_tests", "saved a tensor as large as the (T, S) weights")],
    ),
}

ONE_MISTAKE["03_multihead_attention"] = {
    "dropout_in_eval_mode": (  # F.dropout's training defaults to True: on in eval mode too
        {"ex5_multihead_module": _MODULE.replace("self.dropout, self.training)", "self.dropout)")},
        [("ex5_tests", "changes with PyTorch's random state on the same inputs")],
    ),
}
