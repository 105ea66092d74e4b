"""Blind answer set D: one-mistake and correct answers to the exercises of notebooks 01-10,
written without the grader, the solutions or the misconceptions, as different students would.
"""

# ruff: noqa: E501

ANSWERS = [
    {
        "notebook": "01_vector_attention",
        "cell": "ex1_project",
        "code": r'''def project(W, b, x):
    """Return the column W x + b.

    W: (D_out, D_in), b: (D_out, 1), x: (D_in, 1)  ->  (D_out, 1)
    """
    # W is stored (out, in): transpose it so the product lines up with x
    return W.T @ x + b
''',
        "correct": False,
        "mistake": "Multiplies x by the transpose of W, computing Wᵀx + b instead of W x + b.",
        "keywords": ["transpos", r"\bW\s*\.\s*T\b|\bW\s*\^?\s*[ᵀT]\s*x|Wᵀ"],
        "kind": "layout",
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex2_score",
        "code": r'''def score(q, k):
    """Return the scaled dot product q·k / √D as a 0-d tensor.

    q, k: (D, 1)  ->  ()
    """
    D = q.shape[0]
    dot = (q.T @ k).squeeze()
    return dot / D
''',
        "correct": False,
        "mistake": "Divides the dot product by D instead of by the square root of D.",
        "keywords": [
            "sqrt|√|square.?root",
            r"by D\b(?! ?\))|/ ?D\b|D rather than|instead of .{0,12}\bD\b",
        ],
        "kind": "scale",
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex3_softmax",
        "code": r'''def softmax(z):
    """Numerically stable softmax of a 1-D tensor.

    z: (m,)  ->  (m,), positive, sums to 1
    """
    top = z.max()
    numerator = torch.exp(z - top)
    return numerator / torch.exp(z).sum()
''',
        "correct": False,
        "mistake": "Subtracts the maximum in the numerator only; the denominator sums the unshifted exponentials, so the weights do not sum to 1 (and overflow for large scores).",
        "keywords": [
            "denominator",
            "numerator only|only (in|to) the numerator",
            "unshifted|without (the )?shift|not shifted",
            "(do not|don't|doesn't|does not) sum to (1|one)",
        ],
        "kind": "numerics",
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex4_attention_weights",
        "code": r'''def attention_weights(queries, keys):
    """Row n: softmax over the keys of the scores of query n.

    queries: list of N_q columns (D, 1); keys: list of N_k columns (D, 1)  ->  (N_q, N_k)
    """
    table = torch.stack([torch.stack([score(q, k) for k in keys]) for q in queries])  # (N_q, N_k)
    columns = [softmax(table[:, j]) for j in range(table.shape[1])]
    return torch.stack(columns, dim=1)
''',
        "correct": False,
        "mistake": "Applies the softmax down each column (over the queries) instead of along each row (over the keys), so the columns sum to 1 rather than the rows.",
        "keywords": [
            "column",
            "(over|across) (the )?quer|wrong (axis|dim|direction)|dim ?= ?0",
            "rows? (do not|don't|doesn't) sum|columns? sum to (1|one)",
        ],
        "kind": "axis",
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex4_attention_weights",
        "code": r"""def attention_weights(queries, keys):
    rows = []
    for q in queries:
        scores = q.new_empty(len(keys))  # same dtype and device as the queries
        for j, k in enumerate(keys):
            scores[j] = score(q, k)
        rows.append(softmax(scores))
    return torch.stack(rows)
""",
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "other style",
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex5_weighted_sum",
        "code": r'''def weighted_sum(weights, values):
    """Return the sum over m of weights[m] * values[m].

    weights: (N,); values: list of N columns (D_v, 1)  ->  (D_v, 1)
    """
    acc = torch.zeros_like(values[0])
    for w, v in zip(weights, values):
        acc = acc + w * v
    return acc / len(values)
''',
        "correct": False,
        "mistake": "Divides the weighted sum by the number of values, taking a mean, although the weights already sum to 1.",
        "keywords": [
            r"\bmean\b|averag",
            r"divid\w*.{0,25}by (N\b|the number|len|the count)|/ ?len\(",
        ],
        "kind": "function swap",
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex6_self_attention",
        "code": r'''def self_attention(xs, W_q, b_q, W_k, b_k, W_v, b_v):
    """Self-attention over a list of input columns, one token at a time.

    xs: list of N columns (D_in, 1); W_*: (D_out, D_in); b_*: (D_out, 1)
    ->  list of N output columns (D_out, 1)
    """
    qs = [project(W_q, b_q, x) for x in xs]
    ks = [project(W_k, b_k, x) for x in xs]
    vs = [project(W_v, b_k, x) for x in xs]
    outputs = []
    for q in qs:
        s = torch.stack([score(q, k) for k in ks])
        outputs.append(weighted_sum(softmax(s), vs))
    return outputs
''',
        "correct": False,
        "mistake": "Makes the values with the key bias b_k instead of b_v (W_v x + b_k).",
        "keywords": [r"b_?k\b", r"b_?v\b", "(key'?s?|wrong) bias"],
        "kind": "argument swap",
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex1_softmax_cols",
        "code": r'''def softmax_cols(S):
    """Softmax of each column of S, computed without overflow.

    S: (M, N)  ->  (M, N), every column positive and summing to 1
    """
    e = torch.exp(S - S.max())
    return e / e.sum(dim=0, keepdim=True)
''',
        "correct": False,
        "mistake": "Subtracts the largest entry of the whole matrix instead of each column's maximum, so a column far below it underflows to 0/0 (NaN).",
        "keywords": [
            "whole matrix|global|entire (matrix|tensor)|overall|single max|all (the )?entries",
            "each column'?s? (own )?max|per.column|column.?wise max",
            "underflow|nan|0 ?/ ?0",
        ],
        "kind": "axis",
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex2_self_attention_cols",
        "code": r'''def self_attention_cols(X, W_q, b_q, W_k, b_k, W_v, b_v):
    """Self-attention with tokens as the columns of X.

    X: (D_in, N); W_*: (D_out, D_in); b_*: (D_out, 1)  ->  (D_out, N)
    """
    Q = W_q @ X + b_q
    K = W_k @ X + b_k
    V = W_v @ X + b_v
    d_k = K.shape[0]
    A = softmax_cols(Q.T @ K / math.sqrt(d_k))
    return V @ A
''',
        "correct": False,
        "mistake": "Builds the scores as QᵀK instead of KᵀQ, so column n holds key n's scores rather than query n's: the weight matrix is transposed.",
        "keywords": [
            r"Q\s*\^?\s*[ᵀT]\s*K|Q\.T\s*@\s*K",
            r"K\s*\^?\s*[ᵀT]\s*Q|K\.T\s*@\s*Q",
            r"transpos|swapp?\w* (the )?(quer|key)|(quer\w*|keys?) and (quer\w*|keys?) swapped",
        ],
        "kind": "layout",
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex3_attention",
        "code": r'''def attention(Q, K, V, mask=None):
    """Scaled dot-product attention over any leading batch dimensions.

    Q: (..., T, d_k), K: (..., S, d_k), V: (..., S, d_v),
    mask: bool, broadcastable to (..., T, S), True = may attend
    ->  output (..., T, d_v), weights (..., T, S)
    """
    d_k = Q.size(-1)
    scores = torch.matmul(Q, K.transpose(-2, -1)) / math.sqrt(d_k)
    if mask is not None:
        scores = scores.masked_fill(mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    return torch.matmul(weights, V), weights
''',
        "correct": False,
        "mistake": "Fills the scores where the mask is True (the allowed keys) with −inf instead of where it is False: the mask's polarity is inverted.",
        "keywords": [
            "polarit",
            "invert|revers|flip|opposite|backwards|the wrong way|~ ?mask|not mask",
            "allowed (positions|keys|entries|scores)",
        ],
        "kind": "mask",
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex3_attention",
        "code": r"""def attention(Q, K, V, mask=None):
    scale = V.shape[-1] ** -0.5
    S = Q @ K.transpose(-2, -1) * scale
    if mask is not None:
        S = S.masked_fill(~mask, float('-inf'))
    A = S.softmax(dim=-1)
    return A @ V, A
""",
        "correct": False,
        "mistake": "Scales the scores by 1/√d_v, the width of the values, instead of 1/√d_k.",
        "keywords": [
            r"d_?v\b",
            r"(width|size|dimension|length|features) of (the )?values?|values?'?s? (width|size|dimension)|V\.shape",
        ],
        "kind": "scale",
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex4_padding_mask",
        "code": r'''def padding_mask(lengths, seq_len):
    """True at the real tokens, False at the padding.

    lengths: (B,) integers  ->  (B, seq_len) bool
    """
    positions = torch.arange(seq_len)
    return positions[None, :] <= lengths[:, None]
''',
        "correct": False,
        "mistake": "Compares the positions with <= instead of <, an off-by-one that marks each sequence's first padding position as a real token.",
        "keywords": [
            "<=|≤|less than or equal",
            "off.by.one|one (too many|extra|more)",
            "first padding",
        ],
        "kind": "off-by-one",
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex5_hand_built_heads",
        "code": r'''def previous_token_head(vocab_size, max_len, d_head, strength):
    """W_q, W_k (vocab_size + max_len, d_head), d_head >= max_len: after the 1/√d_head,
    query t scores `strength` with the key at position t - 1 and 0 with every other key."""
    d_model = vocab_size + max_len
    W_q = torch.zeros(d_model, d_head)
    W_k = torch.zeros(d_model, d_head)
    for p in range(max_len):
        W_k[vocab_size + p, p] = 1.0  # the key of position p is the unit vector e_p
        if p > 0:
            W_q[vocab_size + p, p - 1] = strength  # the query of position p points at p - 1
    return W_q, W_k


def same_token_head(vocab_size, max_len, d_head, strength):
    """W_q, W_k (vocab_size + max_len, d_head), d_head >= vocab_size: after the 1/√d_head,
    query t scores `strength` with every key holding its own token and 0 with the others."""
    d_model = vocab_size + max_len
    W_q = torch.zeros(d_model, d_head)
    W_k = torch.zeros(d_model, d_head)
    W_q[:vocab_size, :vocab_size] = strength * math.sqrt(d_head) * torch.eye(vocab_size)
    W_k[:vocab_size, :vocab_size] = torch.eye(vocab_size)
    return W_q, W_k
''',
        "correct": False,
        "mistake": "The previous-token head leaves out the factor √d_head, so after attention's 1/√d_head its scores are strength/√d_head instead of strength.",
        "keywords": [
            "(sqrt|√).{0,20}d_?head|d_?head.{0,25}(sqrt|√)",
            "strength ?/ ?(sqrt|√)",
            r"(missing|without|leaves? out|forg\w*).{0,30}(factor|scal)",
        ],
        "kind": "scale",
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex5_hand_built_heads",
        "code": r"""def previous_token_head(vocab_size, max_len, d_head, strength):
    rows = vocab_size + max_len
    W_q, W_k = torch.zeros(rows, d_head), torch.zeros(rows, d_head)
    c = strength * d_head ** 0.5  # undoes the 1/sqrt(d_head) of the score
    for p in range(1, max_len):
        W_q[vocab_size + p, p - 1] = 1.0  # position p asks for position p - 1 ...
    for p in range(max_len - 1):
        W_k[vocab_size + p, p] = c  # ... which answers with c in its own column
    return W_q, W_k


def same_token_head(vocab_size, max_len, d_head, strength):
    rows = vocab_size + max_len
    W_q, W_k = torch.zeros(rows, d_head), torch.zeros(rows, d_head)
    for token in range(vocab_size):
        W_q[token, token] = 1.0
        W_k[token, token] = strength * d_head ** 0.5
    return W_q, W_k
""",
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "other style",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex1_multihead_cols",
        "code": r'''def multihead_cols(X, heads, W_c):
    """Multi-head self-attention with tokens as the columns of X.

    X: (D, N); heads: list of H dicts with W_q, W_k, W_v (D/H, D) and b_q, b_k, b_v (D/H, 1);
    W_c: (D, D)  ->  (D, N)
    """
    D = X.shape[0]
    outs = []
    for h in heads:
        Q = h["W_q"] @ X + h["b_q"]
        K = h["W_k"] @ X + h["b_k"]
        V = h["W_v"] @ X + h["b_v"]
        A = softmax(K.T @ Q / math.sqrt(D), dim=0)
        outs.append(V @ A)
    return W_c @ torch.cat(outs, dim=0)
''',
        "correct": False,
        "mistake": "Divides every head's scores by √D, the model width, instead of √d_head, a head's width.",
        "keywords": [
            "d_?head|head'?s? (width|size|dimension)|width of (a|one|each) head",
            r"(sqrt|√) ?\(?D\b|model (width|dimension)|d_?model|full width",
        ],
        "kind": "scale",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex2_split_merge",
        "code": r'''def split_heads(x, n_heads):
    """(B, T, d_model) -> (B, H, T, d_head): head h gets features h·d_head ... (h+1)·d_head - 1."""
    B, T, d_model = x.shape
    d_head = d_model // n_heads
    return x.view(B, T, n_heads, d_head).transpose(1, 2)


def merge_heads(x):
    """(B, H, T, d_head) -> (B, T, H·d_head), the inverse of split_heads."""
    B, H, T, d_head = x.shape
    return x.reshape(B, T, H * d_head)
''',
        "correct": False,
        "mistake": "merge_heads reshapes (B, H, T, d_head) straight to (B, T, H·d_head) without first moving the head axis back behind the tokens, which scrambles tokens and heads.",
        "keywords": [
            "transpos|permut|without (first )?(mov|swap)",
            "head axis|axis of the heads|heads? (and|with) (the )?tokens",
            r"straight|directly|reshape\w* (only|alone)",
        ],
        "kind": "layout",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex2_split_merge",
        "code": r"""def split_heads(x, n_heads):
    b, t, d = x.shape
    # d = d_head * n_heads
    return x.reshape(b, t, d // n_heads, n_heads).permute(0, 3, 1, 2)


def merge_heads(x):
    b, h, t, dh = x.shape
    return x.permute(0, 2, 3, 1).reshape(b, t, h * dh)
""",
        "correct": False,
        "mistake": "Splits the features in the order (d_head, H), so head h gets every H-th feature (interleaved) instead of a contiguous block; merge_heads undoes it the same way.",
        "keywords": [
            "interleav|every H.?th|strided|round.robin|dealt",
            "contiguous|consecutive|block of",
            r"\(d_?head, ?(H|n_heads)\)|order of (the )?(split|reshape)|(H|n_heads) last",
        ],
        "kind": "layout",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex2_split_merge",
        "code": r"""def split_heads(x, n_heads):
    batch, seq_len, width = x.shape
    per_head = width // n_heads
    return x.reshape(batch, seq_len, n_heads, per_head).permute(0, 2, 1, 3)


def merge_heads(x):
    batch, n_heads, seq_len, per_head = x.shape
    return x.permute(0, 2, 1, 3).contiguous().view(batch, seq_len, n_heads * per_head)
""",
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "other style",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex3_expand_mask",
        "code": r'''def expand_mask(mask):
    """Bring a boolean mask to 4-D so that it broadcasts over (B, H, T, S) scores.

    (T, S) -> (1, 1, T, S);  (B, T, S) -> (B, 1, T, S);  (B, H, T, S) unchanged
    """
    while mask.dim() < 4:
        mask = mask.unsqueeze(0)
    return mask
''',
        "correct": False,
        "mistake": "Adds the missing axes at the front, so a (B, T, S) mask becomes (1, B, T, S) and its batch axis lines up with the heads.",
        "keywords": [
            r"\(1, ?B, ?T, ?S\)",
            r"at the (front|beginning|start|left)|axis 0|dim(ension)? 0|unsqueeze\(0\)|leading axes",
            "batch .{0,30}heads|heads .{0,30}batch",
        ],
        "kind": "axis",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex4_multihead_attention",
        "code": r'''def multihead_attention(x, in_proj_weight, in_proj_bias, out_proj_weight, out_proj_bias,
                        n_heads, mask=None):
    """Packed multi-head self-attention, PyTorch's parameter layout."""
    qkv = x @ in_proj_weight.T + in_proj_bias
    q, k, v = qkv.chunk(3, dim=-1)
    q, k, v = split_heads(q, n_heads), split_heads(k, n_heads), split_heads(v, n_heads)
    out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
    return merge_heads(out) @ out_proj_weight.T + out_proj_bias
''',
        "correct": False,
        "mistake": "Passes the mask to the attention without expand_mask, so a (B, 1, S) or (B, T, S) mask broadcasts from the right and its batch axis is paired with the heads.",
        "keywords": [
            "expand_mask",
            "broadcast",
            "batch axis .{0,40}heads|heads .{0,40}batch|(not|never) (brought|expanded) to 4.?D|4.?D",
        ],
        "kind": "mask",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex4_multihead_attention",
        "code": r"""def multihead_attention(x, in_proj_weight, in_proj_bias, out_proj_weight, out_proj_bias,
                        n_heads, mask=None):
    B, T, d_model = x.shape
    d_head = d_model // n_heads
    q, k, v = (x @ in_proj_weight.T + in_proj_bias).chunk(3, dim=-1)
    q = split_heads(q, n_heads)
    k = split_heads(k, n_heads)
    v = split_heads(v, n_heads)
    scores = q @ k.transpose(-2, -1) / math.sqrt(d_head)
    if mask is not None:
        scores = scores.masked_fill(~expand_mask(mask), float("-inf"))
    attn = torch.softmax(scores, dim=-1)
    merged = merge_heads(attn @ v)
    return merged @ out_proj_weight + out_proj_bias
""",
        "correct": False,
        "mistake": "Multiplies the merged heads by out_proj_weight itself instead of its transpose (PyTorch stores it as (out, in)).",
        "keywords": ["transpos", r"out_proj_weight|out(put)?.?proj\w*.{0,15}weight"],
        "kind": "layout",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex4_multihead_attention",
        "code": r"""def multihead_attention(x, in_proj_weight, in_proj_bias, out_proj_weight, out_proj_bias,
                        n_heads, mask=None):
    q, k, v = F.linear(x, in_proj_weight, in_proj_bias).chunk(3, dim=-1)
    q, k, v = (split_heads(t, n_heads) for t in (q, k, v))
    scores = torch.einsum("bhtd,bhsd->bhts", q, k) * q.shape[-1] ** -0.5
    if mask is not None:
        scores = torch.where(expand_mask(mask), scores, float("-inf"))
    weights = scores.softmax(dim=-1)
    out = torch.einsum("bhts,bhsd->bhtd", weights, v)
    return F.linear(merge_heads(out), out_proj_weight, out_proj_bias)
""",
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "other style",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex5_multihead_module",
        "code": r'''class MultiHeadAttention(nn.Module):
    """Packed multi-head attention with nn.MultiheadAttention's parameters (batch_first=True)."""

    def __init__(self, d_model, n_heads, dropout=0.0):
        super().__init__()
        self.n_heads = n_heads
        self.dropout = dropout
        self.in_proj_weight = nn.Parameter(torch.empty(3 * d_model, d_model))
        self.in_proj_bias = nn.Parameter(torch.zeros(3 * d_model))
        self.out_proj = nn.Linear(d_model, d_model)
        nn.init.xavier_uniform_(self.in_proj_weight)
        nn.init.zeros_(self.out_proj.bias)

    def forward(self, query, key, value, mask=None, need_weights=True):
        w_q, w_k, w_v = self.in_proj_weight.chunk(3)
        b_q, b_k, b_v = self.in_proj_bias.chunk(3)
        q = split_heads(F.linear(query, w_q, b_q), self.n_heads)
        k = split_heads(F.linear(key, w_k, b_k), self.n_heads)
        v = split_heads(F.linear(value, w_v, b_v), self.n_heads)
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
        if mask is not None:
            scores = scores.masked_fill(~expand_mask(mask), float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        out = self.out_proj(merge_heads(weights @ v))
        out = F.dropout(out, self.dropout, training=self.training)
        if not need_weights:
            return out, None
        return out, weights.mean(dim=1)
''',
        "correct": False,
        "mistake": "Applies dropout to the module's output instead of to the attention weights after the softmax.",
        "keywords": [
            "dropout .{0,40}(output|result)|(output|result) .{0,30}dropout",
            "instead of (to |on )?the (attention )?weights|not (to|on) the (attention )?weights",
        ],
        "kind": "structure",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex5_multihead_module",
        "code": r"""class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, n_heads, dropout=0.0):
        super().__init__()
        assert d_model % n_heads == 0
        self.d_model = d_model
        self.n_heads = n_heads
        self.d_head = d_model // n_heads
        self.p = dropout
        self.in_proj_weight = nn.Parameter(torch.empty(3 * d_model, d_model))
        nn.init.xavier_uniform_(self.in_proj_weight)
        self.in_proj_bias = nn.Parameter(torch.zeros(3 * d_model))
        self.out_proj = nn.Linear(d_model, d_model)
        nn.init.zeros_(self.out_proj.bias)

    def forward(self, query, key, value, mask=None, need_weights=True):
        Wq, Wk, Wv = self.in_proj_weight.chunk(3, dim=0)
        bq, bk, bv = self.in_proj_bias.chunk(3, dim=0)
        Q = split_heads(query @ Wq.T + bq, self.n_heads)
        K = split_heads(key @ Wk.T + bk, self.n_heads)
        V = split_heads(value @ Wv.T + bv, self.n_heads)
        S = Q @ K.transpose(-2, -1) / math.sqrt(self.d_head)
        if mask is not None:
            S = S.masked_fill(~expand_mask(mask), float("-inf"))
        A = torch.softmax(S, dim=-1)
        A = F.dropout(A, self.p)
        output = self.out_proj(merge_heads(A @ V))
        return output, (A.mean(dim=1) if need_weights else None)
""",
        "correct": False,
        "mistake": "Calls F.dropout without training=self.training, so the attention weights are dropped in eval mode too: dropout is always active.",
        "keywords": [
            r"training\s*=\s*self\.training|self\.training",
            r"eval(uation)?[ -]mode|in eval|model\.eval",
            "(always|also) (active|on|applied)|even (in|at) (eval|inference|test)",
        ],
        "kind": "train/eval",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex5_multihead_module",
        "code": r"""class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, n_heads, dropout=0.0):
        super().__init__()
        self.heads = n_heads
        self.drop = dropout
        self.in_proj_weight = nn.Parameter(nn.init.xavier_uniform_(torch.empty(3 * d_model, d_model)))
        self.in_proj_bias = nn.Parameter(torch.zeros(3 * d_model))
        self.out_proj = nn.Linear(d_model, d_model)

    def forward(self, query, key, value, mask=None, need_weights=True):
        d = query.shape[-1]
        q = F.linear(query, self.in_proj_weight[:d], self.in_proj_bias[:d])
        k = F.linear(key, self.in_proj_weight[d:2 * d], self.in_proj_bias[d:2 * d])
        v = F.linear(value, self.in_proj_weight[2 * d:], self.in_proj_bias[2 * d:])
        q, k, v = (split_heads(t, self.heads) for t in (q, k, v))
        scores = torch.einsum("bhtd,bhsd->bhts", q, k) / math.sqrt(q.size(-1))
        if mask is not None:
            scores = scores.masked_fill(~expand_mask(mask), float("-inf"))
        w = F.dropout(torch.softmax(scores, dim=-1), self.drop, training=self.training)
        out = self.out_proj(merge_heads(w @ v))
        if need_weights:
            return out, w.mean(1)
        return out, None
""",
        "correct": False,
        "mistake": "Leaves out_proj's bias at nn.Linear's random start instead of setting it to 0 as nn.MultiheadAttention does.",
        "keywords": [
            "out_?proj.{0,25}bias|bias of (the )?out(put)?.?proj",
            r"bias.{0,60}(zero|\b0\b)|(zero|\b0\b).{0,30}bias",
        ],
        "kind": "init",
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex1_pe_table_loops",
        "code": r'''def pe_table_loops(seq_len, d_model):
    """The sinusoidal table, one entry at a time.

    ->  (seq_len, d_model): row pos is PE_pos; sin on even features, cos on odd ones
    """
    pe = torch.zeros(seq_len, d_model)
    for pos in range(seq_len):
        for i in range(0, d_model, 2):
            angle = pos / 10000 ** (2 * i / d_model)
            pe[pos, i] = math.sin(angle)
            pe[pos, i + 1] = math.cos(angle)
    return pe
''',
        "correct": False,
        "mistake": "Loops over the even feature indices but still writes 2·i in the exponent, so pair k gets 10000^(4k/d_model): the exponent is doubled.",
        "keywords": [
            r"doubl|twice|(four|4) ?times|4 ?[·*]? ?[ik]\b",
            r"feature index|even (feature )?ind|counts? (the )?features|steps? of 2|range\(0, ?d_model, ?2\)",
        ],
        "kind": "scale",
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex2_pe_table",
        "code": r'''def pe_table(seq_len, d_model):
    """The sinusoidal table without Python loops.

    ->  (seq_len, d_model): row pos is PE_pos; sin on even features, cos on odd ones
    """
    position = torch.arange(seq_len, dtype=torch.float32).unsqueeze(1)
    div_term = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
    pe = torch.zeros(seq_len, d_model)
    pe[:, 0::2] = torch.cos(position * div_term)
    pe[:, 1::2] = torch.sin(position * div_term)
    return pe
''',
        "correct": False,
        "mistake": "Puts the cosines on the even features and the sines on the odd ones: sin and cos are swapped.",
        "keywords": [
            "swap|the wrong way|reversed|exchanged|interchanged|mixed up",
            r"cos\w* on (the )?even|sin\w* on (the )?odd",
        ],
        "kind": "function swap",
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex3_positional_encoding",
        "code": r'''class PositionalEncoding(nn.Module):
    """x (B, T, d_model) -> x + PE[:T], the same position vectors for every sequence."""

    def __init__(self, d_model, max_len=500):
        super().__init__()
        self.table = nn.Parameter(sinusoidal_table(max_len, d_model))

    def forward(self, x):
        return x + self.table[: x.shape[1]]
''',
        "correct": False,
        "mistake": "Stores the table as an nn.Parameter, a trained weight, instead of registering it as a buffer.",
        "keywords": [r"nn\.Parameter|\bparameter", "buffer", "train(ed|able)|optimi[sz]er"],
        "kind": "state",
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex3_positional_encoding",
        "code": r"""class PositionalEncoding(nn.Module):
    def __init__(self, d_model, max_len=500):
        super().__init__()
        self.register_buffer("table", sinusoidal_table(max_len, d_model), persistent=False)

    def forward(self, x):
        n = x.size(0)
        return x + self.table[:n].unsqueeze(1)
""",
        "correct": False,
        "mistake": "Slices the table with the batch size, x.size(0), and adds one position vector to every token of a sequence, instead of PE[:T], one per token position.",
        "keywords": [
            "batch",
            r"x\.size\(0\)|x\.shape\[0\]|size\(0\)|dim(ension)? 0|first (axis|dim)",
            "per sequence|every token of|same (vector|position) for (all|every) token",
        ],
        "kind": "axis",
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex4_rotation_matrix",
        "code": r'''def rotation_matrix(k, d_model):
    """R with PE[pos + k] = R @ PE[pos] for every position.

    ->  (d_model, d_model), block diagonal with one 2×2 rotation per (sin, cos) pair
    """
    R = torch.zeros(d_model, d_model)
    for i in range(d_model // 2):
        w = 1.0 / 10000 ** (2 * i / d_model)
        c, s = math.cos(k * w), math.sin(k * w)
        R[2 * i, 2 * i] = c
        R[2 * i, 2 * i + 1] = -s
        R[2 * i + 1, 2 * i] = s
        R[2 * i + 1, 2 * i + 1] = c
    return R
''',
        "correct": False,
        "mistake": "Gets the signs of the sines the wrong way round, −sin above the diagonal and +sin below it: each 2×2 block is the transpose of the one asked for, a rotation the other way (by −kω).",
        "keywords": [
            "sign",
            "transpos",
            r"other (way|direction)|opposite|backwards|[-−] ?k ?ω|[-−]k\b|negative",
        ],
        "kind": "sign",
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex4_rotation_matrix",
        "code": r"""def rotation_matrix(k, d_model):
    half = d_model // 2
    omega = 1.0 / 10000.0 ** (torch.arange(half, dtype=torch.float64) * 2 / d_model)
    cos, sin = torch.cos(k * omega), torch.sin(k * omega)
    even = torch.arange(0, d_model, 2)  # first row/column of every 2x2 block
    R = torch.zeros(d_model, d_model, dtype=torch.float64)
    R[even, even] = cos
    R[even, even + 1] = sin
    R[even + 1, even] = -sin
    R[even + 1, even + 1] = cos
    return R.to(torch.float32)
""",
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "other style",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex1_layer_norm",
        "code": r'''def layer_norm(x, gamma, beta, eps=1e-5):
    """Normalise every token's features, then scale by gamma and shift by beta.

    x: (..., d_model); gamma, beta: (d_model,)  ->  (..., d_model)
    """
    mu = x.mean(dim=-1, keepdim=True)
    var = x.var(dim=-1, keepdim=True)
    return gamma * (x - mu) / torch.sqrt(var + eps) + beta
''',
        "correct": False,
        "mistake": "Uses torch.var's default unbiased variance, dividing by d − 1, instead of the biased variance that divides by d (it needs unbiased=False or correction=0).",
        "keywords": [
            "unbiased|bessel",
            r"\b[dn] ?[-−] ?1\b",
            "correction ?= ?0|unbiased ?= ?False",
        ],
        "kind": "numerics",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex1_layer_norm",
        "code": r"""def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(-1, keepdim=True)
    var = ((x - mean) ** 2).mean(-1, keepdim=True)
    x_hat = (x - mean) / torch.sqrt(var + eps)
    return beta * x_hat + gamma
""",
        "correct": False,
        "mistake": "Swaps γ and β: it multiplies the normalised vector by beta and adds gamma.",
        "keywords": [
            "swap|exchang|interchang|the wrong way|mixed up|reversed",
            r"(scal|multipl)\w* by (the )?(beta|β)|add\w* (the )?(gamma|γ)|(beta|β) ?\* ?x",
        ],
        "kind": "argument swap",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex1_layer_norm",
        "code": r"""def layer_norm(x, gamma, beta, eps=1e-5):
    var, mean = torch.var_mean(x, dim=-1, correction=0, keepdim=True)
    return (x - mean) * torch.rsqrt(var + eps) * gamma + beta
""",
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "other style",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex2_feed_forward",
        "code": r'''def feed_forward(x, W1, b1, W2, b2):
    """Linear -> ReLU -> Linear, applied to every token.

    x: (..., d_model); W1: (d_ff, d_model); b1: (d_ff,); W2: (d_model, d_ff); b2: (d_model,)
    ->  (..., d_model)
    """
    hidden = torch.nn.functional.gelu(x @ W1.T + b1)
    return hidden @ W2.T + b2
''',
        "correct": False,
        "mistake": "Uses GELU instead of ReLU between the two linear layers.",
        "keywords": ["gelu", "instead of (a |the )?relu|not (a )?relu|rather than (a )?relu"],
        "kind": "function swap",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex3_encoder_block",
        "code": r'''def encoder_block(x, attention, feed_forward_net, norm1, norm2, mask=None):
    """Post-norm encoder block: LN1(x + MHA(x)), then LN2(h + FFN(h)).

    x: (B, T, d_model); mask: bool, True = may attend  ->  (B, T, d_model)
    """
    attn_out, _ = attention(x, mask=mask)
    h = norm1(x + attn_out)
    return norm2(x + feed_forward_net(h))
''',
        "correct": False,
        "mistake": "The feed-forward sublayer's residual adds the block's input x instead of h, the output of the attention sublayer.",
        "keywords": [
            r"(adds?|skip|residual).{0,40}(original|block'?s|first) input|\bx \+ (ffn|feed|FFN)|instead of h\b|rather than h\b|not h\b",
            r"\bx\b instead of h\b|input x\b|original x\b",
        ],
        "kind": "residual",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex3_encoder_block",
        "code": r"""def encoder_block(x, attention, feed_forward_net, norm1, norm2, mask=None):
    h = x + attention(x, mask=mask)[0]
    h = norm2(h)
    out = h + feed_forward_net(h)
    return norm1(out)
""",
        "correct": False,
        "mistake": "Uses norm2 after the attention and norm1 after the feed-forward layer: the two layer norms are swapped.",
        "keywords": [
            "swap|the wrong way|interchang|exchang|mixed up|(wrong|reversed) order",
            "norm2 .{0,30}(attention|first)|norm1 .{0,30}(feed|second|ffn)",
        ],
        "kind": "order",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex4_pre_norm_block",
        "code": r'''def pre_norm_block(x, attention, feed_forward_net, norm1, norm2, mask=None):
    """Pre-norm encoder block: h = x + MHA(LN1(x)), then h + FFN(LN2(h)).

    x: (B, T, d_model); mask: bool, True = may attend  ->  (B, T, d_model)
    """
    x = norm1(x)
    h = x + attention(x, mask=mask)[0]
    h2 = norm2(h)
    return h2 + feed_forward_net(h2)
''',
        "correct": False,
        "mistake": "Normalises the stream itself before each residual addition (x = norm1(x), then x + MHA(x)), so the residual paths carry normalised values instead of the raw input.",
        "keywords": [
            r"residual.{0,60}(normali[sz]ed|norm)|(normali[sz]ed|norm\w*).{0,60}(residual|skip)",
            "overwrit|reassign|x ?= ?norm",
            "(raw|un-?normali[sz]ed|original) (input|stream|x)",
        ],
        "kind": "residual",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex4_pre_norm_block",
        "code": r"""def pre_norm_block(x, attention, feed_forward_net, norm1, norm2, mask=None):
    attn, _ = attention(norm1(x), mask=mask)
    h = x + attn
    return h + feed_forward_net(norm1(h))
""",
        "correct": False,
        "mistake": "Uses norm1 before the feed-forward layer as well; norm2 is never used.",
        "keywords": [
            "norm2.{0,30}(never|not|unused)|never.{0,20}norm2",
            r"norm1 (twice|for both|again)|same norm|shar\w* (one|the|a) norm|norm1.{0,30}(feed|second)",
        ],
        "kind": "structure",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex5_encode",
        "code": r'''def encode(x, blocks, mask=None):
    """Run the blocks in order.

    x: (B, T, d_model)  ->  output (B, T, d_model), list of len(blocks) weights (B, H, T, T)
    """
    for block in blocks:
        attention_maps = []
        x, w = block(x, mask, need_weights=True)
        attention_maps.append(w)
    return x, attention_maps
''',
        "correct": False,
        "mistake": "Creates the list of maps inside the loop, so it is emptied at every block and only the last block's weights are returned.",
        "keywords": [
            "in(side)? the loop|(at|on|for) every (iteration|block)|(at|on|for) each (iteration|block)",
            "only (the )?last|one (map|entry|element)|single (map|entry)",
            "reset|re-?creat|re-?initiali|emptied|overwrit",
        ],
        "kind": "state",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex5_encode",
        "code": r"""def encode(x, blocks, mask=None):
    h, maps = x, []
    for blk in blocks:
        h, weights = blk(h, mask, need_weights=True)
        maps.append(weights.mean(dim=1))  # one map per block
    return h, maps
""",
        "correct": False,
        "mistake": "Averages each block's weights over the heads, returning (B, T, T) maps instead of the (B, H, T, T) weights.",
        "keywords": [r"averag|\bmean\b", r"over (the )?heads|\(B, ?T, ?T\)|head axis"],
        "kind": "shape",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex1_causal_mask",
        "code": r'''def causal_mask(seq_len):
    """(seq_len, seq_len) boolean: entry [t, s] is True when query t may attend to key s <= t."""
    return torch.tril(torch.ones(seq_len, seq_len))
''',
        "correct": False,
        "mistake": "Returns a float tensor of ones and zeros instead of a boolean mask.",
        "keywords": ["float", "bool", "dtype|1s and 0s|ones and zeros"],
        "kind": "dtype",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex2_masked_self_attention",
        "code": r'''def masked_self_attention(x, to_q, to_k, to_v):
    """Causally masked single-head self-attention.

    x: (..., T, d_model); to_q, to_k, to_v: nn.Linear  ->  output (..., T, d_v), weights (..., T, T)
    """
    q, k, v = to_q(x), to_k(x), to_v(x)
    T = x.shape[-2]
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    scores = scores.masked_fill(~causal_mask(T), 0.0)
    weights = F.softmax(scores, dim=-1)
    return weights @ v, weights
''',
        "correct": False,
        "mistake": "Sets the masked scores to 0 instead of −inf, so future tokens still get weight e⁰ in the softmax.",
        "keywords": [
            r"(\b0\b|zero).{0,40}(instead of|not|rather than).{0,12}([-−] ?)?(inf|∞)|([-−] ?)?(inf|∞).{0,40}(\b0\b|zero)",
            "future.{0,40}(still|some|nonzero|non-zero).{0,15}weight|(leak|see)s? (in )?the future",
        ],
        "kind": "mask",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex2_masked_self_attention",
        "code": r"""def masked_self_attention(x, to_q, to_k, to_v):
    Q = to_q(x)
    K = to_k(x)
    V = to_v(x)
    d_model = x.size(-1)
    S = torch.matmul(Q, K.transpose(-1, -2)) / d_model ** 0.5
    T = S.size(-1)
    S = S.masked_fill(causal_mask(T) == False, float("-inf"))  # noqa: E712
    W = torch.softmax(S, dim=-1)
    return torch.matmul(W, V), W
""",
        "correct": False,
        "mistake": "Scales the scores by √d_model, the width of the input, instead of √d_k, the width of the queries and keys.",
        "keywords": [
            "d_?model|model (dimension|width|size)",
            r"input('?s)? (width|size|dim)|width of (the )?input|x\.size\(-1\)",
        ],
        "kind": "scale",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex3_cross_attention",
        "code": r'''def cross_attention(x, memory, to_q, to_k, to_v):
    """Queries from the decoder's tokens x, keys and values from the encoder's memory.

    x: (B, T, d); memory: (B, S, d)  ->  output (B, T, d_v), weights (B, T, S)
    """
    q = to_q(memory)
    k = to_k(x)
    v = to_v(x)
    return scaled_dot_product_attention(q, k, v, need_weights=True)
''',
        "correct": False,
        "mistake": "Takes the queries from the memory and the keys and values from the decoder's tokens: the roles of x and memory are swapped.",
        "keywords": [
            "swap|revers|wrong way|the other way|exchang|interchang",
            r"quer(y|ies) from (the )?(memory|encoder)|keys? (and values )?from (the )?(decoder|x\b)",
        ],
        "kind": "argument swap",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex4_decoder_block",
        "code": r'''def decoder_block(x, memory, self_attention, cross_attention, feed_forward_net, norm1, norm2, norm3,
                  src_mask=None):
    """Post-norm decoder block.

    x: (B, T, d_model); memory: (B, S, d_model); src_mask: bool, True = may attend
    ->  (B, T, d_model)
    """
    T = x.shape[1]
    h1 = norm1(x + self_attention(x, mask=causal_mask(T))[0])
    h2 = norm2(h1 + cross_attention(x, memory, mask=src_mask)[0])
    return norm3(h2 + feed_forward_net(h2))
''',
        "correct": False,
        "mistake": "Feeds the block's input x to the cross-attention instead of h1, the output of the masked self-attention sublayer.",
        "keywords": [
            r"cross.?attention.{0,60}(input|\bx\b|original)|(input|\bx\b).{0,40}cross",
            "instead of h_?1|rather than h_?1|skips? (the )?(first|self|masked)",
        ],
        "kind": "structure",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex4_decoder_block",
        "code": r"""_CAUSAL = None


def decoder_block(x, memory, self_attention, cross_attention, feed_forward_net, norm1, norm2, norm3,
                  src_mask=None):
    global _CAUSAL
    if _CAUSAL is None:  # build the mask once and reuse it
        _CAUSAL = causal_mask(x.shape[1])
    attended = self_attention(x, mask=_CAUSAL)[0]
    h = norm1(x + attended)
    h = norm2(h + cross_attention(h, memory, mask=src_mask)[0])
    return norm3(h + feed_forward_net(h))
""",
        "correct": False,
        "mistake": "Builds the causal mask once, for the first call's length, in a global and reuses it, so a later call with another T gets a mask of the wrong size.",
        "keywords": [
            r"\bonce\b|cach|reus|global|first call",
            r"(wrong|different|other|another) (size|length|T\b)|fixed (size|length)|stale",
        ],
        "kind": "state",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex5_shift_right",
        "code": r'''def shift_right(target, start_token):
    """The decoder's input for teacher forcing.  target: (B, T) long  ->  (B, T) long"""
    target[:, 1:] = target[:, :-1].clone()
    target[:, 0] = start_token
    return target
''',
        "correct": False,
        "mistake": "Shifts the target in place, overwriting the caller's target tensor instead of returning a new one.",
        "keywords": [
            "in.place",
            r"overwrit|modif|mutat|chang\w* (the )?(caller'?s |input |original )?target",
        ],
        "kind": "in-place",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex6_greedy_decode",
        "code": r'''def greedy_decode(model, src, start_token, end_token, max_len):
    """Generate with the most likely token at every step.

    src: (B, S) long  ->  tokens (B, L) long, tokens[:, 0] == start_token, L <= max_len + 1
    """
    with torch.no_grad():
        memory = model.encode(src)
        tokens = torch.full((src.size(0), 1), start_token, dtype=torch.long, device=src.device)
        done = torch.zeros(src.size(0), dtype=torch.bool, device=src.device)
        for _ in range(max_len):
            logits = model.decode(tokens, memory)
            next_tok = logits[:, 0].argmax(dim=-1)
            next_tok[done] = end_token
            tokens = torch.cat([tokens, next_tok.unsqueeze(1)], dim=1)
            done = done | (next_tok == end_token)
            if done.all():
                break
    return tokens
''',
        "correct": False,
        "mistake": "Takes the argmax of the first position's logits, logits[:, 0], instead of the last position's, so every step predicts from the start token alone.",
        "keywords": [
            r"first position|logits\[:, ?0\]|position 0|index 0",
            "instead of the last|not the last|rather than the last",
        ],
        "kind": "index",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex6_greedy_decode",
        "code": r"""def greedy_decode(model, src, start_token, end_token, max_len):
    with torch.no_grad():
        memory = model.encode(src)
        out = torch.full((src.shape[0], 1), start_token, dtype=torch.long, device=src.device)
        for step in range(max_len):
            nxt = model.decode(out, memory)[:, -1, :].argmax(-1, keepdim=True)
            out = torch.cat((out, nxt), dim=1)
            if (out == end_token).any(dim=1).all():
                break
    return out
""",
        "correct": False,
        "mistake": "Does not force end_token after a sequence has ended: a finished sequence goes on with whatever the model predicts until all have ended.",
        "keywords": [
            "after (it|a sequence|the sequence|they) (has |have )?(ended|finished|produced)",
            r"(keep|fill|pad|forc|repeat)\w*.{0,30}end.?token|end.?token.{0,30}(again|every later|afterwards|after)",
            "finished (sequences?|rows?)",
        ],
        "kind": "state",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex6_greedy_decode",
        "code": r"""def greedy_decode(model, src, start_token, end_token, max_len):
    B = src.shape[0]
    with torch.no_grad():
        memory = model.encode(src)
        buffer = torch.full((B, max_len + 1), end_token, dtype=torch.long, device=src.device)
        buffer[:, 0] = start_token
        ended = torch.zeros(B, dtype=torch.bool, device=src.device)
        length = 1
        while length <= max_len and not bool(ended.all()):
            choice = model.decode(buffer[:, :length], memory)[:, -1].argmax(dim=-1)
            buffer[:, length] = torch.where(ended, torch.full_like(choice, end_token), choice)
            ended |= buffer[:, length] == end_token
            length += 1
        return buffer[:, :length].clone()
""",
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "other style",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex1_transformer_lr",
        "code": r'''def transformer_lr(step, d_model=512, warmup=4000):
    """Learning rate of the original Transformer for LambdaLR's step (0 = the first update)."""
    return d_model ** -0.5 * min(step ** -0.5, step * warmup ** -1.5)
''',
        "correct": False,
        "mistake": "Uses LambdaLR's step as n without adding 1, so step 0 divides by zero and every later rate is one update behind the paper's.",
        "keywords": [
            r"\+ ?1|plus one|adding (1|one)|n ?= ?step|step ?\+",
            r"zero ?division|divi\w* by zero|0 \*\* ?-0\.5",
            "off.by.one|counts? from (0|zero|1)|one (update|step) (behind|late|early)",
        ],
        "kind": "off-by-one",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex1_transformer_lr",
        "code": r"""def transformer_lr(step, d_model=512, warmup=4000):
    n = torch.tensor(step + 1.0)
    lr = d_model ** -0.5 * torch.minimum(n ** -0.5, n * warmup ** -1.5)
    return lr
""",
        "correct": False,
        "mistake": "Returns a 0-d torch tensor instead of a Python float.",
        "keywords": ["tensor", r"python float|float\(|\.item\(\)|not a float"],
        "kind": "type",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex2_cosine_warmup",
        "code": r'''def cosine_warmup(step, warmup, max_iters):
    """The learning-rate factor: cosine decay over max_iters steps, times a linear warm-up."""
    factor = 0.5 * (1 + math.cos(math.pi * step / max_iters))
    if step <= warmup:
        factor *= step // warmup
    return factor
''',
        "correct": False,
        "mistake": "Uses integer division step // warmup for the warm-up, which is 0 for every step before the warm-up ends.",
        "keywords": [
            "//|integer division|floor",
            r"(\b0\b|zero) (for|during|throughout|until)|rounds? down",
        ],
        "kind": "integer division",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex2_cosine_warmup",
        "code": r"""def cosine_warmup(step, warmup, max_iters):
    if step < warmup:
        return step / warmup
    progress = (step - warmup) / (max_iters - warmup)
    return 0.5 * (1.0 + math.cos(math.pi * progress))
""",
        "correct": False,
        "mistake": "Starts the cosine only after the warm-up, over max_iters − warmup steps, with a bare ramp before it, instead of multiplying the ramp by one cosine over the whole run.",
        "keywords": [
            "after the warm.?up",
            "(step|t) ?[-−] ?warmup|max_iters ?[-−] ?warmup",
            r"(no|without|not) (the )?cos\w* (during|in) the warm|ramp alone|bare ramp|only the ramp",
        ],
        "kind": "formula",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex3_learning_rates",
        "code": r'''def learning_rates(lr_lambda, base_lr, steps):
    """The learning rate each of `steps` updates uses under LambdaLR(lr_lambda)."""
    param = torch.zeros(1, requires_grad=True)
    opt = torch.optim.SGD([param], lr=base_lr)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lr_lambda)
    used = []
    for _ in range(steps):
        opt.step()
        sched.step()
        used.append(opt.param_groups[0]["lr"])
    return used
''',
        "correct": False,
        "mistake": "Reads the learning rate after scheduler.step(), so each entry is the next update's rate: the list is shifted by one step.",
        "keywords": [
            "after (the |each )?(scheduler|sched|optimi[sz]er|update|step)",
            "shift|one (step|update) (late|ahead|early|off)|off.by.one|next (update|step)",
        ],
        "kind": "order",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex4_accuracies",
        "code": r'''def accuracies(generated, target):
    """(N, L) long tensors  ->  (share of equal tokens, share of entirely equal rows)"""
    same = generated == target
    token_acc = same.float().mean().item()
    seq_acc = same.all(dim=0).float().mean().item()
    return token_acc, seq_acc
''',
        "correct": False,
        "mistake": "Takes all() over dim 0, so the sequence accuracy counts positions that are right in every sequence instead of sequences that are right at every position.",
        "keywords": [
            "dim ?=? ?0|axis ?=? ?0|wrong (axis|dim)|columns?",
            "positions? (that are )?(right|correct) in every",
        ],
        "kind": "axis",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex4_accuracies",
        "code": r"""def accuracies(generated, target):
    rows = (generated == target).tolist()
    tokens = sum(sum(row) for row in rows) / sum(len(row) for row in rows)
    sequences = sum(all(row) for row in rows) / len(rows)
    return tokens, sequences
""",
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "other style",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex5_train_step",
        "code": r'''def train_step(model, src, target, start_token, optimizer, scheduler, clip=None):
    """One teacher-forced update. src (B, S), target (B, T) long  ->  the batch's loss, a float"""
    decoder_input = transformer.shift_right(target, start_token)
    logits = model(src, decoder_input)
    loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), target.reshape(-1))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if clip is not None:
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
    scheduler.step()
    return loss.item()
''',
        "correct": False,
        "mistake": "Clips the gradients after optimizer.step(), so the update uses the unclipped gradients.",
        "keywords": [
            r"clip\w*.{0,40}after|after.{0,40}clip",
            "unclipped|too late|before (the )?(update|optimi[sz]er)",
        ],
        "kind": "order",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex1_tokenizer",
        "code": r'''UNKNOWN = corpus.UNKNOWN


def vocabulary(text):
    """[UNKNOWN] + the distinct characters of text, sorted."""
    chars = sorted(set(text) - {UNKNOWN})
    return [UNKNOWN] + chars


def encode(text, vocab):
    """str -> (len(text),) int64: each character's index in vocab, 0 if it is not there."""
    lookup = {c: i for i, c in enumerate(vocab)}
    return torch.tensor([lookup.get(c, 0) for c in text], dtype=torch.int32)


def decode(ids, vocab):
    """(n,) int64 -> str: the characters vocab[i] of the indices, in order."""
    return "".join(vocab[i] for i in ids.tolist())
''',
        "correct": False,
        "mistake": "encode returns an int32 tensor instead of an int64 (torch.long) one.",
        "keywords": [r"int32|torch\.int\b", r"int64|\blong\b"],
        "kind": "dtype",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex1_tokenizer",
        "code": r"""UNKNOWN = corpus.UNKNOWN


def vocabulary(text):
    seen = set(text)
    seen.discard(UNKNOWN)
    return [UNKNOWN, *sorted(seen)]


def encode(text, vocab):
    position = dict(zip(vocab, range(len(vocab))))
    return torch.as_tensor(list(map(lambda ch: position.get(ch, 0), text)), dtype=torch.long)


def decode(ids, vocab):
    return "".join(map(vocab.__getitem__, torch.as_tensor(ids).tolist()))
""",
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "other style",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex2_random_windows",
        "code": r'''def random_windows(data, block_size, batch_size, generator=None):
    """data (N,) -> inputs (B, T), targets (B, T): random windows and the same windows one on."""
    starts = torch.randint(len(data) - block_size, (batch_size,))
    x = torch.stack([data[s:s + block_size] for s in starts])
    y = torch.stack([data[s + 1:s + block_size + 1] for s in starts])
    return x, y
''',
        "correct": False,
        "mistake": "Draws the starts from PyTorch's global random generator, ignoring the generator argument.",
        "keywords": [
            "generator",
            r"global|default (rng|generator|random)|ignor\w* (the )?generator|generator.{0,20}(ignored|unused|not (passed|used))",
        ],
        "kind": "randomness",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex3_multihead_module",
        "code": r"""# Paste your class from notebook 03, exercise 5, over this whole cell.
class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, n_heads, dropout=0.0):
        super().__init__()
        self.n_heads, self.dropout = n_heads, dropout
        self.in_proj_weight = nn.Parameter(torch.empty(3 * d_model, d_model))
        self.in_proj_bias = nn.Parameter(torch.zeros(3 * d_model))
        self.out_proj = nn.Linear(d_model, d_model)
        nn.init.xavier_uniform_(self.in_proj_weight)
        nn.init.zeros_(self.out_proj.bias)

    def forward(self, query, key, value, mask=None, need_weights=True):
        W = self.in_proj_weight.chunk(3)
        b = self.in_proj_bias.chunk(3)
        q, k, v = (split_heads(F.linear(t, w, bb), self.n_heads)
                   for t, w, bb in zip((query, key, value), W, b))
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
        if mask is not None:
            scores = scores.masked_fill(~expand_mask(mask), float("-inf"))
        weights = F.dropout(scores.softmax(-1), self.dropout, training=self.training)
        out = self.out_proj(merge_heads(weights @ v))
        return out, (weights.sum(dim=1) if need_weights else None)
""",
        "correct": False,
        "mistake": "Returns the attention weights summed over the heads instead of averaged over them.",
        "keywords": [
            r"summ?(ed|s|ing)? (them )?(over|across) (the )?heads|sum\(dim ?= ?1\)|\.sum\(1\)|sum (of|over) the heads",
            "(instead of|rather than|not) (the )?(averag|mean)",
        ],
        "kind": "function swap",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex3_multihead_module",
        "code": r'''# Paste your class from notebook 03, exercise 5, over this whole cell.
class MultiHeadAttention(nn.Module):
    """Packed multi-head attention with nn.MultiheadAttention's parameters (batch_first=True)."""

    def __init__(self, d_model, n_heads, dropout=0.0):
        super().__init__()
        self.d_model = d_model
        self.n_heads = n_heads
        self.dropout = dropout
        self.in_proj_weight = nn.Parameter(torch.empty(3 * d_model, d_model))
        self.in_proj_bias = nn.Parameter(torch.empty(3 * d_model))
        self.out_proj = nn.Linear(d_model, d_model)
        nn.init.xavier_uniform_(self.in_proj_weight)
        nn.init.zeros_(self.in_proj_bias)
        nn.init.zeros_(self.out_proj.bias)

    def forward(self, query, key, value, mask=None, need_weights=True):
        qkv = query @ self.in_proj_weight.T + self.in_proj_bias
        q, k, v = [split_heads(t, self.n_heads) for t in qkv.chunk(3, dim=-1)]
        d_head = self.d_model // self.n_heads
        att = (q @ k.transpose(-2, -1)) / math.sqrt(d_head)
        if mask is not None:
            att = att.masked_fill(~expand_mask(mask), float("-inf"))
        att = torch.softmax(att, dim=-1)
        att = F.dropout(att, p=self.dropout, training=self.training)
        y = self.out_proj(merge_heads(att @ v))
        if need_weights:
            return y, att.mean(dim=1)
        return y, None
''',
        "correct": False,
        "mistake": "Projects the query alone into queries, keys and values, ignoring the key and value arguments, so cross-attention attends over the queries instead of the memory.",
        "keywords": [
            r"ignor\w* (the )?key|key and value (arguments|inputs|tensors)",
            "(only|just) (the )?query|from (the )?query|query (three times|for all|alone)",
            "cross.?attention",
        ],
        "kind": "ignored argument",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex4_pre_norm_block",
        "code": r"""# Paste your function from notebook 05, exercise 4, over this whole cell.
def pre_norm_block(x, attention, feed_forward_net, norm1, norm2, mask=None):
    a = attention(norm1(x), mask=mask)[0]
    f = feed_forward_net(norm2(x))
    return x + a + f
""",
        "correct": False,
        "mistake": "Feeds the feed-forward layer norm2(x) instead of norm2(h): the two sublayers run in parallel on the input rather than one after the other.",
        "keywords": [
            "parallel",
            r"norm2\(x\)|instead of (norm2\()?h\b|rather than (norm2\()?h\b",
            r"(block'?s )?input x .{0,30}(feed|ffn)|(feed|ffn).{0,30}(input|\bx\b)",
        ],
        "kind": "structure",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex5_lm_logits",
        "code": r'''def lm_logits(idx, token_embedding, position_embedding, blocks, final_norm):
    """idx (B, T) int64 -> logits (B, T, V), with the head tied to token_embedding."""
    B, T = idx.shape
    d_model = token_embedding.embedding_dim
    tok = token_embedding(idx) * math.sqrt(d_model)
    pos = position_embedding(torch.arange(T, device=idx.device))
    x = tok + pos
    mask = causal_mask(T, device=idx.device)
    for block in blocks:
        x, _ = block(x, mask)
    x = final_norm(x)
    return x @ token_embedding.weight.T
''',
        "correct": False,
        "mistake": "Multiplies the token embeddings by √d_model before adding the positions, as notebook 06's model did; this model adds them unscaled.",
        "keywords": [
            r"(sqrt|√).{0,15}d(_?model)?\b|d_?model.{0,20}(sqrt|√)",
            r"(scal|multipl)\w* (the )?(token )?embedding",
        ],
        "kind": "scale",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex6_bits_per_character",
        "code": r'''def bits_per_character(logits, targets):
    """logits (B, T, V), targets (B, T) int64 -> () mean cross-entropy in bits."""
    V = logits.size(-1)
    nats = F.cross_entropy(logits.reshape(-1, V), targets.reshape(-1))
    return nats * math.log(2)
''',
        "correct": False,
        "mistake": "Multiplies the cross-entropy in nats by ln 2 instead of dividing by it.",
        "keywords": [
            r"multipl\w*.{0,30}(ln|log)|(\*|×) ?(math\.)?(ln|log)",
            "instead of divid|rather than divid|should divide|not divid",
        ],
        "kind": "scale",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex7_train",
        "code": r'''def train(model, optimizer, scheduler, batches, steps, evaluate=None, every=100, clip=1.0):
    """One update per step number in `steps`
    -> {"bits": [each step's loss], "held_out": [(step + 1, evaluate(model)), ...]}"""
    history = {"bits": [], "held_out": []}
    for step in steps:
        inputs, targets = batches(step)
        loss = bits_per_character(model(inputs), targets)
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        optimizer.step()
        scheduler.step()
        history["bits"].append(loss.item())
        if evaluate is not None and step % every == 0:
            history["held_out"].append((step + 1, evaluate(model)))
    return history
''',
        "correct": False,
        "mistake": "Evaluates when step % every == 0 instead of when (step + 1) % every == 0: one update early, after the very first update and then every `every`.",
        "keywords": [
            r"step ?% ?every|\(step ?\+ ?1\) ?%",
            "off.by.one|one (step|update) (early|too soon|late)|after the (very )?first (update|step)",
        ],
        "kind": "off-by-one",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex7_train",
        "code": r"""def train(model, optimizer, scheduler, batches, steps, evaluate=None, every=100, clip=1.0):
    bits, held = [], []
    for i, step in enumerate(steps):
        x, y = batches(i)
        loss = bits_per_character(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        optimizer.step()
        scheduler.step()
        bits.append(loss.item())
        if evaluate is not None and (step + 1) % every == 0:
            held.append((step + 1, evaluate(model)))
    return {"bits": bits, "held_out": held}
""",
        "correct": False,
        "mistake": "Asks batches for the loop counter i instead of the step number, so a resumed run (range(500, 1000)) trains on the batches of steps 0, 1, … again.",
        "keywords": [
            r"counter|enumerat|batches\(i\)|index (of the loop|instead)",
            r"resum\w*.{0,60}(batch|again|\b0\b)|(batch|again).{0,60}resum",
            "step number",
        ],
        "kind": "index",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex8_sample_next",
        "code": r'''def sample_next(logits, temperature=1.0, top_k=None, generator=None):
    """logits (B, V) -> (B,) int64: one character per row, greedy when temperature == 0."""
    if temperature == 0:
        return logits.argmax(dim=-1)
    scaled = logits * temperature
    if top_k is not None:
        kth = torch.topk(scaled, top_k, dim=-1).values[:, -1:]
        scaled = scaled.masked_fill(scaled < kth, float("-inf"))
    probs = torch.softmax(scaled, dim=-1)
    return torch.multinomial(probs, 1, generator=generator).squeeze(-1)
''',
        "correct": False,
        "mistake": "Multiplies the logits by the temperature instead of dividing by it, so a low temperature flattens the distribution instead of sharpening it.",
        "keywords": [
            r"multipl\w*.{0,30}temperature|temperature.{0,30}multipl|\* ?temperature|times the temperature",
            "instead of divid|rather than divid|not divid",
        ],
        "kind": "scale",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex9_attend_with_cache",
        "code": r'''def attend_with_cache(q, k_new, v_new, cache_k, cache_v, length):
    """q, k_new, v_new (B, H, n, d); cache_k, cache_v (B, H, C, d) with `length` positions stored
    -> output (B, H, n, d); k_new and v_new written into the cache at length … length + n - 1"""
    p, n = length, q.shape[-2]
    cache_k[..., p:p + n, :] = k_new
    cache_v[..., p:p + n, :] = v_new
    keys, values = cache_k[..., :p + n, :], cache_v[..., :p + n, :]
    scores = q @ keys.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if n > 1:
        allowed = torch.ones(n, p + n, dtype=torch.bool, device=q.device).tril()
        scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
''',
        "correct": False,
        "mistake": "Builds the mask with tril() instead of tril(p), so new query i may see keys 0 … i rather than 0 … p + i: the mask ignores the positions already stored.",
        "keywords": [
            r"tril\((p|length)\)|offset|diagonal",
            r"p ?\+ ?i|already (stored|cached|in the cache)|stored (keys|positions)",
        ],
        "kind": "mask",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex9_attend_with_cache",
        "code": r"""def attend_with_cache(q, k_new, v_new, cache_k, cache_v, length):
    n = k_new.shape[-2]
    end = length + n
    cache_k[:, :, length:end] = k_new
    cache_v[:, :, length:end] = v_new
    scores = torch.matmul(q, cache_k.transpose(-1, -2)) / q.shape[-1] ** 0.5
    if n > 1:
        mask = torch.ones(n, end, dtype=torch.bool).tril(length)
        mask = torch.cat([mask, torch.zeros(n, cache_k.shape[-2] - end, dtype=torch.bool)], dim=-1)
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    return torch.matmul(weights, cache_v)
""",
        "correct": False,
        "mistake": "Attends over the whole allocated cache instead of its first length + n positions: in a one-character step the query also reads the unused slots after them.",
        "keywords": [
            r"whole (allocated )?cache|all C\b|entire cache|unused|left.?over|beyond|past (the )?(length|end)|garbage",
            r"(first )?(length|p) ?\+ ?n|slice",
        ],
        "kind": "slice",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex9_attend_with_cache",
        "code": r"""def attend_with_cache(q, k_new, v_new, cache_k, cache_v, length):
    n = q.shape[-2]
    total = length + n
    cache_k[..., length:total, :] = k_new
    cache_v[..., length:total, :] = v_new
    keys = cache_k[..., :total, :]
    values = cache_v[..., :total, :]
    scores = torch.einsum("bhnd,bhsd->bhns", q, keys) / math.sqrt(q.shape[-1])
    query_pos = torch.arange(length, total, device=q.device)[:, None]
    key_pos = torch.arange(total, device=q.device)[None, :]
    scores = scores.masked_fill(key_pos > query_pos, float("-inf"))
    return torch.einsum("bhns,bhsd->bhnd", torch.softmax(scores, dim=-1), values)
""",
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "other style",
    },
    {
        "notebook": "09_modern_decoder",
        "cell": "ex1_rms_norm",
        "code": r'''def rms_norm(x, weight, eps=1e-5):
    """Divide every token's features by their root mean square, then scale by weight.

    x: (..., d); weight: (d,)  ->  (..., d)
    """
    norm = torch.sqrt((x * x).sum(dim=-1, keepdim=True) + eps)
    return x / norm * weight
''',
        "correct": False,
        "mistake": "Divides by the square root of the sum of the squares (the L2 norm) instead of the mean of the squares, so the result is √d times too small.",
        "keywords": [
            r"\bsum\b.{0,30}squares?|L2|euclid|\.norm\(",
            "mean of (the )?squares?|instead of (the )?mean|not (the )?mean",
            r"(√|sqrt) ?\(?d\b",
        ],
        "kind": "scale",
    },
    {
        "notebook": "09_modern_decoder",
        "cell": "ex2_rotary",
        "code": r'''def apply_rotary(x, positions, base=10000.0):
    """Turn features (2i, 2i+1) of the token at position p by the angle p · base^(-2i/d).

    x: (..., T, d), d even; positions: (T,) int64  ->  (..., T, d)
    """
    d = x.shape[-1]
    half = d // 2
    inv_freq = base ** (-torch.arange(0, d, 2, device=x.device, dtype=torch.float32) / d)
    angles = positions.to(torch.float32)[:, None] * inv_freq  # (T, d/2)
    cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)
    x1, x2 = x[..., :half], x[..., half:]
    return torch.cat([x1 * cos - x2 * sin, x1 * sin + x2 * cos], dim=-1)


def rotary_attention(q, k, v):
    """Causal attention with queries and keys turned by their positions 0 … T-1.

    q, k, v: (B, H, T, d)  ->  (B, H, T, d)
    """
    pos = torch.arange(q.shape[-2], device=q.device)
    return F.scaled_dot_product_attention(apply_rotary(q, pos), apply_rotary(k, pos), v, is_causal=True)
''',
        "correct": False,
        "mistake": "Pairs feature i with feature i + d/2 (the two halves of the vector) instead of the neighbouring features (2i, 2i+1).",
        "keywords": [
            r"halv|\bhalf\b|i ?\+ ?d ?/ ?2|rotate_half",
            r"\(2i, ?2i ?\+ ?1\)|neighbou?r|adjacent|interleav|even and odd|0::2",
        ],
        "kind": "layout",
    },
    {
        "notebook": "09_modern_decoder",
        "cell": "ex2_rotary",
        "code": r"""def apply_rotary(x, positions, base=10000.0):
    T, d = x.shape[-2], x.shape[-1]
    pos = torch.arange(T, device=x.device, dtype=torch.float64)
    freqs = base ** (-torch.arange(0, d, 2, device=x.device, dtype=torch.float64) / d)
    theta = pos[:, None] * freqs
    c, s = torch.cos(theta).to(x.dtype), torch.sin(theta).to(x.dtype)
    xe, xo = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = xe * c - xo * s
    out[..., 1::2] = xe * s + xo * c
    return out


def rotary_attention(q, k, v):
    positions = torch.arange(q.shape[-2], device=q.device)
    q, k = apply_rotary(q, positions), apply_rotary(k, positions)
    return F.scaled_dot_product_attention(q, k, v, is_causal=True)
""",
        "correct": False,
        "mistake": "apply_rotary ignores its positions argument and always turns the tokens by 0 … T − 1, which is wrong for tokens that do not start at position 0 (as in a cache).",
        "keywords": [
            r"ignor\w*.{0,20}positions|positions.{0,30}(ignored|unused|not used)",
            r"arange\(T\)|0 ?(…|\.\.\.|to) ?T ?[-−] ?1|always (from|start\w*) (at )?(0|zero)",
        ],
        "kind": "ignored argument",
    },
    {
        "notebook": "09_modern_decoder",
        "cell": "ex3_swiglu",
        "code": r'''def swiglu(x, W_gate, W_up, W_down):
    """The gated feed-forward layer: (silu(x W_gate^T) * x W_up^T) W_down^T.

    x: (..., d); W_gate, W_up: (h, d); W_down: (d, h)  ->  (..., d)
    """
    gate = x @ W_gate.T
    up = x @ W_up.T
    return (gate * F.silu(up)) @ W_down.T


def matched_hidden_size(d_model, d_ff):
    """The SwiGLU hidden size with the weights of a ReLU layer of hidden size d_ff -> int."""
    return round(2 * d_ff / 3)
''',
        "correct": False,
        "mistake": "Swaps the roles of gate and up: SiLU is applied to the up projection instead of the gate, silu(x W_upᵀ) ⊙ x W_gateᵀ.",
        "keywords": [
            "swap|exchang|interchang|wrong (one|projection)|other way|mixed up",
            r"silu.{0,30}\bup\b|\bup\b.{0,30}silu|instead of (to )?the gate",
        ],
        "kind": "function swap",
    },
    {
        "notebook": "09_modern_decoder",
        "cell": "ex3_swiglu",
        "code": r"""def swiglu(x, W_gate, W_up, W_down):
    z = x @ W_gate.T
    return ((z * torch.sigmoid(z)) * (x @ W_up.T)) @ W_down.T


def matched_hidden_size(d_model, d_ff):
    # 3·d·h = 2·d·d_ff  ->  h = 2·d_ff / 3
    return 2 * d_ff // 3
""",
        "correct": False,
        "mistake": "Rounds 2·d_ff/3 down with integer division (//) instead of to the nearest whole number.",
        "keywords": [r"//|floor|integer division|round\w* down|truncat", "nearest"],
        "kind": "integer division",
    },
    {
        "notebook": "09_modern_decoder",
        "cell": "ex4_gqa",
        "code": r'''def grouped_query_attention(q, k, v, mask=None):
    """Attention where groups of query heads share a key/value head.

    q: (B, H, T, d); k, v: (B, H_kv, S, d), H_kv divides H;
    mask: bool, (T, S) or (B, 1, T, S), True = may attend  ->  (B, H, T, d)
    """
    H, H_kv = q.shape[1], k.shape[1]
    d = q.shape[-1]
    outputs = []
    for h in range(H):
        kv = h % H_kv
        s = q[:, h] @ k[:, kv].transpose(-2, -1) / math.sqrt(d)
        if mask is not None:
            m = mask if mask.dim() == 2 else mask[:, 0]
            s = s.masked_fill(~m, float("-inf"))
        outputs.append(torch.softmax(s, dim=-1) @ v[:, kv])
    return torch.stack(outputs, dim=1)
''',
        "correct": False,
        "mistake": "Gives query head h the key/value head h % H_kv (heads dealt out in turn) instead of h // (H / H_kv), so neighbouring query heads do not share a key/value head.",
        "keywords": [
            r"%|modulo|\bmod\b|dealt|in turn|round.robin|cycl|\.repeat\(",
            r"h ?// ?\(?H|neighbou?r|repeat_interleave|consecutive|groups? of (neighbou?ring|consecutive|adjacent)",
        ],
        "kind": "layout",
    },
    {
        "notebook": "09_modern_decoder",
        "cell": "ex4_gqa",
        "code": r"""def grouped_query_attention(q, k, v, mask=None):
    B, H, T, d = q.shape
    H_kv = k.shape[1]
    g = H // H_kv
    qg = q.reshape(B, H_kv, g, T, d)  # query heads grouped by the key/value head they share
    scores = torch.einsum("bkgtd,bksd->bkgts", qg, k) / math.sqrt(d)
    if mask is not None:
        allowed = mask if mask.dim() == 2 else mask[:, :, None]  # (B, 1, T, S) -> (B, 1, 1, T, S)
        scores = scores.masked_fill(~allowed, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    out = torch.einsum("bkgts,bksd->bkgtd", weights, v)
    return out.reshape(B, H, T, d)
""",
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "other style",
    },
    {
        "notebook": "09_modern_decoder",
        "cell": "ex5_modern_block",
        "code": r'''class ModernBlock(nn.Module):
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
        positions = torch.arange(T, device=x.device)
        q = apply_rotary(q, positions)
        attended = grouped_query_attention(q, k, v, causal_mask(T, device=x.device))
        x = x + self.out_proj(merge_heads(attended))
        h = rms_norm(x, self.norm2.weight, self.eps)
        ff = self.feed_forward
        return x + swiglu(h, ff.gate.weight, ff.up.weight, ff.down.weight)
''',
        "correct": False,
        "mistake": "Turns only the queries with the rotary embedding and forgets to turn the keys.",
        "keywords": [
            r"keys?.{0,30}(not|never|without|un)\w*.{0,20}(rotat|turn)|(not|never|forg\w*).{0,30}(rotat|turn)\w* (the )?keys?",
            "only (the )?quer",
        ],
        "kind": "structure",
    },
    {
        "notebook": "09_modern_decoder",
        "cell": "ex5_modern_block",
        "code": r'''class ModernBlock(nn.Module):
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
        pos = torch.arange(T, device=x.device)
        mask = causal_mask(T, device=x.device)
        normed = rms_norm(x, self.norm1.weight, self.eps)
        q = apply_rotary(split_heads(self.q_proj(normed), self.n_heads), pos)
        k = apply_rotary(split_heads(self.k_proj(normed), self.n_kv_heads), pos)
        v = split_heads(self.v_proj(normed), self.n_kv_heads)
        h = x + self.out_proj(merge_heads(grouped_query_attention(q, k, v, mask)))
        normed = rms_norm(h, self.norm1.weight, self.eps)
        mlp = self.feed_forward
        return h + swiglu(normed, mlp.gate.weight, mlp.up.weight, mlp.down.weight)
''',
        "correct": False,
        "mistake": "Uses norm1's weight for the second RMSNorm as well; norm2's weight is never used.",
        "keywords": [
            "norm2.{0,30}(never|not|unused)",
            "norm1.{0,40}(twice|both|second|again)|same (norm|weight)",
        ],
        "kind": "state",
    },
    {
        "notebook": "10_attention_at_scale",
        "cell": "ex1_online_softmax_step",
        "code": r'''def online_softmax_step(m, l, z):
    """Fold a block of scores into the running maximum and normaliser of each row.

    m, l: (...) the maximum of the scores seen so far and Σ exp(score − m) over them;
    z: (..., b) the next block of scores  ->  m_new, l_new (...)
    """
    m_new = torch.maximum(m, z.amax(dim=-1))
    l_new = l + torch.exp(z - m_new[..., None]).sum(dim=-1)
    return m_new, l_new
''',
        "correct": False,
        "mistake": "Adds the new block's sum to l without rescaling the old normaliser by exp(m − m_new) when the maximum moves.",
        "keywords": [
            r"rescal|exp\(m ?[-−] ?m_?new\)|e\^\{?\(?m ?[-−]",
            r"old (sum|normali[sz]er|l\b)",
        ],
        "kind": "missing step",
    },
    {
        "notebook": "10_attention_at_scale",
        "cell": "ex1_online_softmax_step",
        "code": r"""def online_softmax_step(m, l, z):
    block_max = z.max(dim=-1).values
    m_new = torch.maximum(m, block_max)
    l *= torch.exp(m - m_new)
    l += torch.exp(z - m_new.unsqueeze(-1)).sum(-1)
    return m_new, l
""",
        "correct": False,
        "mistake": "Updates l in place (l *= …, l += …), changing the caller's tensor, which the exercise forbids.",
        "keywords": [
            "in.place",
            r"\*=|\+=|modif|mutat|overwrit|chang\w* (the )?(caller'?s |input )?(tensor|l\b)",
        ],
        "kind": "in-place",
    },
    {
        "notebook": "10_attention_at_scale",
        "cell": "ex2_tiled_attention",
        "code": r'''def tiled_attention(Q, K, V, block_q, block_k, causal=False):
    """softmax(Q Kᵀ / √d) V, one (block_q × block_k) block of scores at a time.

    Q: (..., T, d), K: (..., S, d), V: (..., S, d_v); causal: key s visible to query t when s <= t
    ->  O (..., T, d_v), L (..., T): each row's log-sum-exp of its scaled scores
    """
    T, S, d = Q.shape[-2], K.shape[-2], Q.shape[-1]
    outs, lses = [], []
    for i in range(0, T, block_q):
        q = Q[..., i:i + block_q, :]
        rows = q.shape[-2]
        m = torch.full(q.shape[:-1], float("-inf"), dtype=Q.dtype, device=Q.device)
        l = torch.zeros(q.shape[:-1], dtype=Q.dtype, device=Q.device)
        acc = torch.zeros(*q.shape[:-1], V.shape[-1], dtype=Q.dtype, device=Q.device)
        for j in range(0, S, block_k):
            if causal and j >= i + rows - 1:
                break
            s = q @ K[..., j:j + block_k, :].transpose(-2, -1) / math.sqrt(d)
            if causal:
                qpos = torch.arange(i, i + rows, device=Q.device)[:, None]
                kpos = torch.arange(j, j + s.shape[-1], device=Q.device)[None, :]
                s = s.masked_fill(kpos > qpos, float("-inf"))
            m_new = torch.maximum(m, s.amax(dim=-1))
            p = torch.exp(s - m_new[..., None])
            alpha = torch.exp(m - m_new)
            l = l * alpha + p.sum(dim=-1)
            acc = acc * alpha[..., None] + p @ V[..., j:j + block_k, :]
            m = m_new
        outs.append(acc / l[..., None])
        lses.append(m + torch.log(l))
    return torch.cat(outs, dim=-2), torch.cat(lses, dim=-1)
''',
        "correct": False,
        "mistake": "Stops the causal loop at a key block that starts at the query block's last query (j >= last query) instead of only after it, skipping a block that the last query can still see.",
        "keywords": [
            ">=|≥|off.by.one|one block (too )?early|too early",
            "starts? (exactly )?at (the|its|the query block's) last query|last query('?s)? (own key|itself)|diagonal|last query can (still )?see",
        ],
        "kind": "off-by-one",
    },
    {
        "notebook": "10_attention_at_scale",
        "cell": "ex2_tiled_attention",
        "code": r"""def tiled_attention(Q, K, V, block_q, block_k, causal=False):
    T, S = Q.shape[-2], K.shape[-2]
    scale = Q.shape[-1] ** -0.5
    O_blocks, L_blocks = [], []
    for i in range(0, T, block_q):
        Qi = Q[..., i:i + block_q, :]
        n = Qi.shape[-2]
        m = torch.full(Qi.shape[:-1], float("-inf"), dtype=Q.dtype, device=Q.device)
        l = torch.zeros(Qi.shape[:-1], dtype=Q.dtype, device=Q.device)
        acc = torch.zeros(*Qi.shape[:-1], V.shape[-1], dtype=Q.dtype, device=Q.device)
        for j in range(0, S, block_k):
            if causal and j > i + n - 1:
                break
            Sij = Qi @ K[..., j:j + block_k, :].transpose(-2, -1) * scale
            if causal:
                rows = torch.arange(i, i + n, device=Q.device)
                cols = torch.arange(j, j + Sij.shape[-1], device=Q.device)
                Sij = Sij.masked_fill(cols[None, :] > rows[:, None], float("-inf"))
            m_new = torch.maximum(m, Sij.amax(-1))
            P = torch.exp(Sij - m_new[..., None])
            l = l * torch.exp(m - m_new) + P.sum(-1)
            acc = acc + P @ V[..., j:j + block_k, :]
            m = m_new
        O_blocks.append(acc / l[..., None])
        L_blocks.append(m + l.log())
    return torch.cat(O_blocks, -2), torch.cat(L_blocks, -1)
""",
        "correct": False,
        "mistake": "Rescales l when the maximum grows but not the accumulator, which is never rescaled: acc needs the same factor exp(m − m_new) too.",
        "keywords": [
            r"acc(umulator)?.{0,40}(not|never|without) (being )?(re)?scal|(not|never|forg\w*).{0,30}(re)?scal\w*.{0,20}acc",
            r"acc(umulator)? ?\* ?(exp|alpha|rescale)|acc(umulator)? needs the (same )?factor",
        ],
        "kind": "missing step",
    },
    {
        "notebook": "10_attention_at_scale",
        "cell": "ex3_attention_backward",
        "code": r'''def attention_backward(Q, K, V, P, dO):
    """Gradients of O = P V, P = softmax(Q Kᵀ / √d), without the softmax's Jacobian.

    Q: (..., T, d), K: (..., S, d), V: (..., S, d_v), P: (..., T, S), dO: (..., T, d_v)
    ->  dQ (..., T, d), dK (..., S, d), dV (..., S, d_v)
    """
    scale = 1.0 / math.sqrt(Q.shape[-1])
    dV = P.transpose(-2, -1) @ dO
    dP = dO @ V.transpose(-2, -1)
    dS = P * (dP - (P * dP).sum(dim=-2, keepdim=True))
    dQ = dS @ K * scale
    dK = dS.transpose(-2, -1) @ Q * scale
    return dQ, dK, dV
''',
        "correct": False,
        "mistake": "Sums P ⊙ dP over the queries (dim=-2) instead of along each row over the keys (dim=-1).",
        "keywords": [
            "dim ?= ?-2|columns?|over (the )?quer",
            "wrong (axis|dim)|instead of .{0,20}(row|dim ?= ?-1)",
        ],
        "kind": "axis",
    },
    {
        "notebook": "10_attention_at_scale",
        "cell": "ex3_attention_backward",
        "code": r"""def attention_backward(Q, K, V, P, dO):
    c = Q.shape[-1] ** -0.5
    dV = torch.einsum("...ts,...tv->...sv", P, dO)
    dP = torch.einsum("...tv,...sv->...ts", dO, V)
    row = torch.einsum("...ts,...ts->...t", P, dP)[..., None]
    dS = P * (dP - row)
    dQ = torch.einsum("...ts,...sd->...td", dS, K) * c
    dK = torch.einsum("...ts,...td->...sd", dS, Q) * c
    return dQ, dK, dV
""",
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "other style",
    },
    {
        "notebook": "10_attention_at_scale",
        "cell": "ex4_flash_backward",
        "code": r'''def flash_backward(Q, K, V, O, L, dO, block_q, block_k, causal=False):
    """The backward pass of tiled attention, rebuilding each block of weights from L.

    Q: (..., T, d), K: (..., S, d), V: (..., S, d_v), O and dO: (..., T, d_v), L: (..., T)
    ->  dQ (..., T, d), dK (..., S, d), dV (..., S, d_v)
    """
    T, S = Q.shape[-2], K.shape[-2]
    scale = 1 / math.sqrt(Q.shape[-1])
    D = (dO * O).sum(-1)
    dQ, dK, dV = torch.zeros_like(Q), torch.zeros_like(K), torch.zeros_like(V)
    for j in range(0, S, block_k):
        Kj, Vj = K[..., j:j + block_k, :], V[..., j:j + block_k, :]
        for i in range(0, T, block_q):
            if causal and j > i:
                continue
            Qi, dOi = Q[..., i:i + block_q, :], dO[..., i:i + block_q, :]
            S_ij = Qi @ Kj.transpose(-2, -1) * scale
            if causal:
                q_idx = torch.arange(i, i + Qi.shape[-2], device=Q.device)
                k_idx = torch.arange(j, j + Kj.shape[-2], device=Q.device)
                S_ij = S_ij.masked_fill(k_idx[None] > q_idx[:, None], float("-inf"))
            P_ij = torch.exp(S_ij - L[..., i:i + block_q, None])
            dV[..., j:j + block_k, :] += P_ij.transpose(-2, -1) @ dOi
            dS = P_ij * (dOi @ Vj.transpose(-2, -1) - D[..., i:i + block_q, None])
            dQ[..., i:i + block_q, :] += dS @ Kj * scale
            dK[..., j:j + block_k, :] += dS.transpose(-2, -1) @ Qi * scale
    return dQ, dK, dV
''',
        "correct": False,
        "mistake": "Skips a pair of blocks whenever the key block starts after the query block's first query (j > i) instead of after its last, losing blocks that straddle the diagonal.",
        "keywords": [
            r"j ?> ?i\b|first query|(compar\w*|block) starts?",
            "last query|straddl|diagonal",
        ],
        "kind": "off-by-one",
    },
    {
        "notebook": "10_attention_at_scale",
        "cell": "ex5_autograd_functions",
        "code": r'''class AttentionFunction(torch.autograd.Function):
    """AttentionFunction.apply(Q, K, V, causal) -> O; saves the weights for the backward pass."""

    @staticmethod
    def forward(ctx, Q, K, V, causal):
        scores = Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1])
        if causal:
            T, S = scores.shape[-2:]
            future = torch.ones(T, S, dtype=torch.bool, device=Q.device).triu(1)
            scores = scores.masked_fill(future, float("-inf"))
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
        ctx.causal = causal
        ctx.block_q, ctx.block_k = block_q, block_k
        return O

    @staticmethod
    def backward(ctx, dO):
        Q, K, V, O, L = ctx.saved_tensors
        dQ, dK, dV = flash_backward(Q, K, V, O, L, dO, ctx.block_q, ctx.block_k, ctx.causal)
        return dQ, dK, dV, None, None
''',
        "correct": False,
        "mistake": "FlashAttention.backward returns five values for forward's six arguments: one None is missing, so autograd rejects the number of gradients.",
        "keywords": [
            "(five|5) (values|gradients|outputs|items)|(six|6) (arguments|inputs)|number of (gradients|values|outputs)",
            "None.{0,30}missing|missing.{0,30}None|one (more )?None|too few",
        ],
        "kind": "return type",
    },
]
