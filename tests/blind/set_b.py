"""Blind answer set B: answers to the exercises of notebooks 01-08, written as students of
varied skill write them, by a second author who saw neither set A nor the course's checks.

Data only. See tests/blind/README.md for how it was written and what each key means.
"""
# ruff: noqa: E501 - answer cells are kept as their students wrote them, sentences whole

ANSWERS = [
    # ------------------------------------------------------------------ 01_vector_attention
    {
        "notebook": "01_vector_attention",
        "cell": "ex1_project",
        "code": '''def project(W, b, x):
    """Return the column W x + b.

    W: (D_out, D_in), b: (D_out, 1), x: (D_in, 1)  ->  (D_out, 1)
    """
    return W.T @ x + b
''',
        "correct": False,
        "mistake": "Multiplies x by the transpose of W (Wᵀx + b) instead of by W.",
        "keywords": [r"transpos", r"W\.T|Wᵀ|W\^T", r"rows? and columns?|wrong orientation"],
        "kind": "layout",
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex1_project",
        "code": """def project(W, b, x):
    # each entry of the result is a row of W dotted with x
    out = torch.zeros(W.shape[0], 1, dtype=W.dtype)
    for i in range(W.shape[0]):
        out[i, 0] = (W[i] * x[:, 0]).sum()
    return out
""",
        "correct": False,
        "mistake": "Computes W x row by row but never adds the bias b.",
        "keywords": [r"bias", r"\bb\b", r"\+ ?b"],
        "kind": "missing term",
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex1_project",
        "code": '''def project(W, b, x):
    """Return the column W x + b.

    W: (D_out, D_in), b: (D_out, 1), x: (D_in, 1)  ->  (D_out, 1)
    """
    return torch.einsum("ij,jk->ik", W, x) + b
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "einsum",
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex2_score",
        "code": '''def score(q, k):
    """Return the scaled dot product q·k / √D as a 0-d tensor.

    q, k: (D, 1)  ->  ()
    """
    D = q.shape[0]
    return (q.T @ k).squeeze() / D
''',
        "correct": False,
        "mistake": "Divides the dot product by D instead of by its square root √D.",
        "keywords": [r"sqrt|√|square root", r"by D\b|not (by )?its square root"],
        "kind": "scale",
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex2_score",
        "code": """def score(q, k):
    d = q.shape[1]
    return (q * k).sum() / math.sqrt(d)
""",
        "correct": False,
        "mistake": "Reads D from q.shape[1], which is 1 for a column, so the dot product is not scaled at all.",
        "keywords": [
            r"shape\[1\]|wrong (axis|dimension)",
            r"not scaled|unscaled|no scaling|without (the )?(scal|1/√|√|sqrt)",
            r"shape\[0\]|number of rows",
        ],
        "kind": "axis",
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex2_score",
        "code": '''def score(q, k):
    """Return the scaled dot product q·k / √D as a 0-d tensor.

    q, k: (D, 1)  ->  ()
    """
    # YOUR CODE HERE
    return q.T @ k / math.sqrt(q.numel())
''',
        "correct": False,
        "mistake": "Returns the (1, 1) matrix qᵀk/√D without squeezing it to a 0-d tensor.",
        "keywords": [r"squeeze", r"0-d|zero-dim|scalar|single number", r"\(1, ?1\)|matrix"],
        "kind": "return shape",
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex3_softmax",
        "code": '''def softmax(z):
    """Numerically stable softmax of a 1-D tensor.

    z: (m,)  ->  (m,), positive, sums to 1
    """
    m = z.max()
    return torch.exp(z - m) / torch.exp(z).sum()
''',
        "correct": False,
        "mistake": "Subtracts the maximum in the numerator but not in the denominator, so the weights are off by a factor e^(−max) and large scores still overflow.",
        "keywords": [r"denominator", r"numerator", r"both|same shift|not sum to (1|one)"],
        "kind": "missing term",
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex3_softmax",
        "code": """def softmax(z):
    shifted = z - z.min()   # make everything >= 0
    e = torch.exp(shifted)
    return e / e.sum()
""",
        "correct": False,
        "mistake": "Shifts by the minimum instead of the maximum, so scores that spread over more than about 88 still overflow to inf and give NaN.",
        "keywords": [r"\bmin", r"\bmax", r"overflow"],
        "kind": "numerical stability",
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex3_softmax",
        "code": """def softmax(z):
    exps = torch.exp(z)
    total = exps.sum()
    return exps / total
""",
        "correct": False,
        "mistake": "Exponentiates without subtracting the maximum first, so large scores overflow to inf and the result is NaN.",
        "keywords": [r"\bmax", r"overflow|\binf\b|nan", r"shift|subtract"],
        "kind": "numerical stability",
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex3_softmax",
        "code": '''def softmax(z):
    """Numerically stable softmax of a 1-D tensor.

    z: (m,)  ->  (m,), positive, sums to 1
    """
    # log-sum-exp is computed stably by PyTorch, so this never overflows
    return torch.exp(z - torch.logsumexp(z, dim=0))
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "logsumexp",
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex4_attention_weights",
        "code": '''def attention_weights(queries, keys):
    """Row n: softmax over the keys of the scores of query n.

    queries: list of N_q columns (D, 1); keys: list of N_k columns (D, 1)  ->  (N_q, N_k)
    """
    scores = torch.stack([torch.stack([score(q, k) for k in keys]) for q in queries])  # (N_q, N_k)
    columns = [softmax(scores[:, j]) for j in range(scores.shape[1])]
    return torch.stack(columns, dim=1)
''',
        "correct": False,
        "mistake": "Applies the softmax down each column (over the queries) instead of along each row (over the keys).",
        "keywords": [r"column", r"\brows?\b", r"over the quer|axis|\bdim"],
        "kind": "axis",
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex4_attention_weights",
        "code": """def attention_weights(queries, keys):
    D = queries[0].shape[0]
    rows = []
    for q in queries:
        s = torch.stack([score(q, k) / math.sqrt(D) for k in keys])
        rows.append(softmax(s))
    return torch.stack(rows)
""",
        "correct": False,
        "mistake": "Divides the scores by √D a second time, although score already scales them.",
        "keywords": [r"twice|second time|double|again", r"already"],
        "kind": "scale",
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex4_attention_weights",
        "code": '''def attention_weights(queries, keys):
    """Row n: softmax over the keys of the scores of query n.

    queries: list of N_q columns (D, 1); keys: list of N_k columns (D, 1)  ->  (N_q, N_k)
    """
    Q = torch.cat(queries, dim=1).T  # (N_q, D), one query per row
    K = torch.cat(keys, dim=1).T     # (N_k, D)
    S = Q @ K.T / math.sqrt(Q.shape[1])
    S = S - S.max(dim=1, keepdim=True).values
    E = torch.exp(S)
    return E / E.sum(dim=1, keepdim=True)
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "vectorised",
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex5_weighted_sum",
        "code": '''def weighted_sum(weights, values):
    """Return the sum over m of weights[m] * values[m].

    weights: (N,); values: list of N columns (D_v, 1)  ->  (D_v, 1)
    """
    total = torch.zeros_like(values[0])
    for w, v in zip(weights, values):
        total += w * v
    return total / len(values)
''',
        "correct": False,
        "mistake": "Divides the weighted sum by N, averaging, although the weights already sum to 1.",
        "keywords": [r"divid|/ ?N|len\(", r"average|mean", r"already sum"],
        "kind": "extra term",
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex5_weighted_sum",
        "code": """def weighted_sum(weights, values):
    out = values[0].clone()
    for m in range(len(values)):
        out = out + weights[m] * values[m]
    return out
""",
        "correct": False,
        "mistake": "Starts the sum from values[0] instead of from zero, so the first value is added once more with weight 1.",
        "keywords": [r"values\[0\]|first value", r"zero|start|initiali", r"extra|once more|twice"],
        "kind": "initialisation",
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex6_self_attention",
        "code": '''def self_attention(xs, W_q, b_q, W_k, b_k, W_v, b_v):
    """Self-attention over a list of input columns, one token at a time.

    xs: list of N columns (D_in, 1); W_*: (D_out, D_in); b_*: (D_out, 1)
    ->  list of N output columns (D_out, 1)
    """
    queries = [project(W_q, b_q, x) for x in xs]
    keys = [project(W_k, b_k, x) for x in xs]
    weights = attention_weights(queries, keys)
    return [weighted_sum(weights[n], xs) for n in range(len(xs))]
''',
        "correct": False,
        "mistake": "Mixes the input vectors xs with the weights instead of the values W_v x + b_v.",
        "keywords": [r"value", r"\bxs\b|input"],
        "kind": "operand swap",
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex6_self_attention",
        "code": """def self_attention(xs, W_q, b_q, W_k, b_k, W_v, b_v):
    D = xs[0].shape[0]
    qs = [W_q @ x + b_q for x in xs]
    ks = [W_k @ x + b_k for x in xs]
    vs = [W_v @ x + b_v for x in xs]
    outputs = []
    for q in qs:
        s = torch.stack([(q * k).sum() / math.sqrt(D) for k in ks])
        w = softmax(s)
        outputs.append(sum(wi * v for wi, v in zip(w, vs)))
    return outputs
""",
        "correct": False,
        "mistake": "Divides the scores by √D_in, the length of the inputs, instead of √D_out, the length of the queries and keys.",
        "keywords": [r"D_in|input", r"D_out|length of (the )?(q|k)"],
        "kind": "scale",
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex6_self_attention",
        "code": """def self_attention(xs, W_q, b_q, W_k, b_k, W_v, b_v):
    Q = [project(W_q, b_q, x) for x in xs]
    K = [project(W_k, b_k, x) for x in xs]
    V = [project(W_v, b_k, x) for x in xs]
    A = attention_weights(Q, K)
    return [weighted_sum(A[i], V) for i in range(len(xs))]
""",
        "correct": False,
        "mistake": "Makes the values with the key bias b_k instead of the value bias b_v.",
        "keywords": [r"b_k", r"b_v", r"bias"],
        "kind": "wrong operand",
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex6_self_attention",
        "code": '''def self_attention(xs, W_q, b_q, W_k, b_k, W_v, b_v):
    """Self-attention over a list of input columns, one token at a time.

    xs: list of N columns (D_in, 1); W_*: (D_out, D_in); b_*: (D_out, 1)
    ->  list of N output columns (D_out, 1)
    """
    X = torch.cat(xs, dim=1)                                  # (D_in, N)
    Q, K, V = (W @ X + b for W, b in ((W_q, b_q), (W_k, b_k), (W_v, b_v)))
    S = K.T @ Q / math.sqrt(Q.shape[0])                       # column n: query n's scores
    A = torch.exp(S - S.max(dim=0, keepdim=True).values)
    A = A / A.sum(dim=0, keepdim=True)
    out = V @ A                                               # (D_out, N)
    return [out[:, n:n + 1] for n in range(out.shape[1])]
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "matrix form",
    },
    # ------------------------------------------------------------------ 02_matrix_attention
    {
        "notebook": "02_matrix_attention",
        "cell": "ex1_softmax_cols",
        "code": '''def softmax_cols(S):
    """Softmax of each column of S, computed without overflow.

    S: (M, N)  ->  (M, N), every column positive and summing to 1
    """
    shifted = S - S.max(dim=1, keepdim=True).values
    e = torch.exp(shifted)
    return e / e.sum(dim=0, keepdim=True)
''',
        "correct": False,
        "mistake": "Subtracts each row's maximum (dim=1) instead of each column's, which changes every column's softmax.",
        "keywords": [r"\brows?'?s?\b", r"dim ?= ?1", r"column'?s? max|each column"],
        "kind": "axis",
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex1_softmax_cols",
        "code": """def softmax_cols(S):
    e = torch.exp(S - S.amax(dim=0, keepdim=True))
    return e / e.sum(dim=-1, keepdim=True)
""",
        "correct": False,
        "mistake": "Divides by the sum of each row (dim=-1) instead of the sum of each column.",
        "keywords": [r"\brows?\b", r"dim ?= ?-1|dim ?= ?1|axis", r"column"],
        "kind": "axis",
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex1_softmax_cols",
        "code": """def softmax_cols(S):
    # subtract the max so exp never overflows
    e = torch.exp(S - S.max())
    return e / e.sum(dim=0, keepdim=True)
""",
        "correct": False,
        "mistake": "Subtracts the largest entry of the whole matrix instead of each column's own maximum, so a column far below it underflows to 0/0 = NaN.",
        "keywords": [
            r"whole|entire|global|single|overall",
            r"each column|per column|column'?s? (own )?max",
            r"underflow|nan|0 ?/ ?0",
        ],
        "kind": "numerical stability",
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex1_softmax_cols",
        "code": '''def softmax_cols(S):
    """Softmax of each column of S, computed without overflow.

    S: (M, N)  ->  (M, N), every column positive and summing to 1
    """
    return torch.exp(S - torch.logsumexp(S, dim=0, keepdim=True))
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "logsumexp",
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex2_self_attention_cols",
        "code": '''def self_attention_cols(X, W_q, b_q, W_k, b_k, W_v, b_v):
    """Self-attention with tokens as the columns of X.

    X: (D_in, N); W_*: (D_out, D_in); b_*: (D_out, 1)  ->  (D_out, N)
    """
    Q = W_q @ X + b_q
    K = W_k @ X + b_k
    V = W_v @ X + b_v
    A = softmax_cols(Q.T @ K / math.sqrt(K.shape[0]))
    return V @ A
''',
        "correct": False,
        "mistake": "Computes the scores as QᵀK, the transpose of KᵀQ, so each column holds one key's scores against all the queries.",
        "keywords": [r"Q\.T|Qᵀ|Q\^T", r"transpos", r"K\.T ?@ ?Q|Kᵀ ?Q|K\^T ?Q"],
        "kind": "operand swap",
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex2_self_attention_cols",
        "code": """def self_attention_cols(X, W_q, b_q, W_k, b_k, W_v, b_v):
    Q, K, V = W_q @ X + b_q, W_k @ X + b_k, W_v @ X + b_v
    d_k = K.shape[0]
    A = softmax_cols(K.T @ Q / d_k ** 0.5)
    return V @ A.T
""",
        "correct": False,
        "mistake": "Multiplies the values by Aᵀ instead of A, so token n receives the weights the keys give rather than the weights of query n.",
        "keywords": [r"A\.T|Aᵀ|A\^T", r"transpos"],
        "kind": "layout",
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex2_self_attention_cols",
        "code": """def self_attention_cols(X, W_q, b_q, W_k, b_k, W_v, b_v):
    D = X.shape[0]
    Q = W_q @ X + b_q
    K = W_k @ X + b_k
    V = W_v @ X + b_v
    return V @ softmax_cols(K.T @ Q / math.sqrt(D))
""",
        "correct": False,
        "mistake": "Scales the scores by √D_in, the length of the inputs, instead of √d_k = D_out, the length of a key.",
        "keywords": [r"D_in|input", r"d_k|D_out|length of (a|the) key"],
        "kind": "scale",
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex3_attention",
        "code": '''def attention(Q, K, V, mask=None):
    """Scaled dot-product attention over any leading batch dimensions.

    Q: (..., T, d_k), K: (..., S, d_k), V: (..., S, d_v),
    mask: bool, broadcastable to (..., T, S), True = may attend
    ->  output (..., T, d_v), weights (..., T, S)
    """
    d_k = Q.shape[-1]
    scores = Q @ K.transpose(-2, -1) / math.sqrt(d_k)
    if mask is not None:
        scores = scores.masked_fill(mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    return weights @ V, weights
''',
        "correct": False,
        "mistake": "Fills the scores with −∞ where the mask is True, the opposite polarity: True means the query may attend to that key.",
        "keywords": [r"polarity|opposite|invert|revers|flip", r"~|not mask|negat", r"True"],
        "kind": "polarity",
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex3_attention",
        "code": """def attention(Q, K, V, mask=None):
    scores = Q @ K.transpose(-2, -1) / Q.size(-1) ** 0.5
    if mask is not None:
        scores = scores.masked_fill(~mask, 0.0)
    weights = scores.softmax(dim=-1)
    return weights @ V, weights
""",
        "correct": False,
        "mistake": "Sets the forbidden scores to 0 instead of −∞, so masked keys still receive weight.",
        "keywords": [r"-inf|−∞|-∞|infinity|−inf", r"\b0\b|zero"],
        "kind": "wrong constant",
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex3_attention",
        "code": """def attention(Q, K, V, mask=None):
    d_k = K.shape[-1]
    scores = torch.matmul(Q, K.transpose(-2, -1)) / math.sqrt(d_k)
    weights = torch.softmax(scores, dim=-1)
    if mask is not None:
        weights = weights * mask  # zero the forbidden keys
    return weights @ V, weights
""",
        "correct": False,
        "mistake": "Applies the mask after the softmax by zeroing weights, so the remaining weights no longer sum to 1.",
        "keywords": [
            r"after the softmax|after softmax",
            r"renormal|sum to 1|sum to one",
            r"before",
        ],
        "kind": "order",
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex3_attention",
        "code": """def attention(Q, K, V, mask=None):
    scores = Q @ K.T / math.sqrt(Q.shape[-1])
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    return weights @ V, weights
""",
        "correct": False,
        "mistake": "Uses K.T, which reverses every axis of a batched K, instead of K.transpose(-2, -1), so only unbatched inputs work.",
        "keywords": [r"K\.T|\.T\b", r"transpose\(-2, ?-1\)|last two", r"batch"],
        "kind": "layout",
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex3_attention",
        "code": """def attention(Q, K, V, mask=None):
    s = torch.einsum("...td,...sd->...ts", Q, K) / math.sqrt(Q.shape[-1])
    if mask is not None:
        s = s.masked_fill(~mask, -math.inf)
    w = torch.softmax(s, dim=-2)
    return w @ V, w
""",
        "correct": False,
        "mistake": "Takes the softmax over the queries (dim=-2) instead of over the keys (dim=-1).",
        "keywords": [r"dim ?= ?-2|dim ?= ?-1", r"quer", r"key|\brow|column|axis"],
        "kind": "axis",
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex3_attention",
        "code": '''def attention(Q, K, V, mask=None):
    """Scaled dot-product attention over any leading batch dimensions.

    Q: (..., T, d_k), K: (..., S, d_k), V: (..., S, d_v),
    mask: bool, broadcastable to (..., T, S), True = may attend
    ->  output (..., T, d_v), weights (..., T, S)
    """
    scale = 1.0 / math.sqrt(Q.shape[-1])
    scores = torch.einsum("...td,...sd->...ts", Q, K) * scale
    if mask is not None:
        minus_inf = torch.tensor(float("-inf"), dtype=scores.dtype)
        scores = torch.where(mask, scores, minus_inf)
    scores = scores - scores.amax(dim=-1, keepdim=True)
    weights = scores.exp()
    weights = weights / weights.sum(dim=-1, keepdim=True)
    return torch.einsum("...ts,...sd->...td", weights, V), weights
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "einsum",
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex4_padding_mask",
        "code": '''def padding_mask(lengths, seq_len):
    """True at the real tokens, False at the padding.

    lengths: (B,) integers  ->  (B, seq_len) bool
    """
    positions = torch.arange(seq_len)
    return positions[None, :] <= lengths[:, None]
''',
        "correct": False,
        "mistake": "Compares with <= instead of <, so position lengths[b], the first padding token, is marked as real.",
        "keywords": [r"<=|≤", r"off.by.one|one too many|one extra|first padding", r"\s<\s|strict"],
        "kind": "off-by-one",
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex4_padding_mask",
        "code": """def padding_mask(lengths, seq_len):
    mask = torch.zeros(len(lengths), seq_len, dtype=torch.long)
    for b, n in enumerate(lengths.tolist()):
        mask[b, :n] = 1
    return mask
""",
        "correct": False,
        "mistake": "Returns an integer tensor of 0s and 1s instead of a boolean mask.",
        "keywords": [r"bool", r"dtype|integer|long|int64"],
        "kind": "dtype",
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex4_padding_mask",
        "code": """def padding_mask(lengths, seq_len):
    return torch.arange(seq_len).unsqueeze(1) < lengths.unsqueeze(0)
""",
        "correct": False,
        "mistake": "Broadcasts the positions as a column against the lengths as a row, which gives the transposed (seq_len, B) mask.",
        "keywords": [r"transpos", r"\(seq_len, ?B\)|seq_len ?× ?B|shape", r"column|\brow"],
        "kind": "layout",
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex4_padding_mask",
        "code": '''def padding_mask(lengths, seq_len):
    """True at the real tokens, False at the padding.

    lengths: (B,) integers  ->  (B, seq_len) bool
    """
    positions = torch.arange(seq_len).expand(lengths.shape[0], seq_len)
    return positions < lengths.unsqueeze(-1)
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "expand",
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex5_hand_built_heads",
        "code": '''def previous_token_head(vocab_size, max_len, d_head, strength):
    """W_q, W_k (vocab_size + max_len, d_head), d_head >= max_len: after the 1/√d_head,
    query t scores `strength` with the key at position t - 1 and 0 with every other key."""
    d_model = vocab_size + max_len
    W_q = torch.zeros(d_model, d_head)
    W_k = torch.zeros(d_model, d_head)
    for p in range(max_len):
        W_k[vocab_size + p, p] = 1.0
        if p > 0:
            W_q[vocab_size + p, p - 1] = strength
    return W_q, W_k


def same_token_head(vocab_size, max_len, d_head, strength):
    """W_q, W_k (vocab_size + max_len, d_head), d_head >= vocab_size: after the 1/√d_head,
    query t scores `strength` with every key holding its own token and 0 with the others."""
    d_model = vocab_size + max_len
    W_q = torch.zeros(d_model, d_head)
    W_k = torch.zeros(d_model, d_head)
    for t in range(vocab_size):
        W_q[t, t] = strength * math.sqrt(d_head)
        W_k[t, t] = 1.0
    return W_q, W_k
''',
        "correct": False,
        "mistake": "The previous-token head's query rows hold strength without the factor √d_head, so after attention's 1/√d_head its scores are strength/√d_head.",
        "keywords": [r"√ ?d_head|sqrt\(d_head\)|sqrt|square root", r"1/√|scal|factor"],
        "kind": "scale",
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex5_hand_built_heads",
        "code": """def previous_token_head(vocab_size, max_len, d_head, strength):
    W_q = torch.zeros(vocab_size + max_len, d_head)
    W_k = torch.zeros(vocab_size + max_len, d_head)
    c = strength * math.sqrt(d_head)
    W_k[vocab_size:, :max_len] = torch.eye(max_len)
    # the query of position p points at the key of position p - 1
    W_q[vocab_size:, :max_len] = c * torch.eye(max_len).roll(-1, dims=1)
    return W_q, W_k


def same_token_head(vocab_size, max_len, d_head, strength):
    W_q = torch.zeros(vocab_size + max_len, d_head)
    W_k = torch.zeros(vocab_size + max_len, d_head)
    W_q[:vocab_size, :vocab_size] = strength * math.sqrt(d_head) * torch.eye(vocab_size)
    W_k[:vocab_size, :vocab_size] = torch.eye(vocab_size)
    return W_q, W_k
""",
        "correct": False,
        "mistake": "The shift wraps round: position 0's query points at the last position instead of scoring 0 with every key.",
        "keywords": [r"wrap", r"position 0|first position|first token", r"last position|roll"],
        "kind": "boundary",
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex5_hand_built_heads",
        "code": """def previous_token_head(vocab_size, max_len, d_head, strength):
    W_q = torch.zeros(vocab_size + max_len, d_head)
    W_k = torch.zeros(vocab_size + max_len, d_head)
    for pos in range(1, max_len):
        W_q[vocab_size + pos, pos - 1] = strength * math.sqrt(d_head)
    for pos in range(max_len):
        W_k[vocab_size + pos, pos] = 1.0
    return W_q, W_k


def same_token_head(vocab_size, max_len, d_head, strength):
    W_q = torch.zeros(vocab_size + max_len, d_head)
    W_k = torch.zeros(vocab_size + max_len, d_head)
    scale = strength * d_head ** 0.5
    for i in range(vocab_size):
        W_q[max_len + i, i] = scale
        W_k[max_len + i, i] = 1.0
    return W_q, W_k
""",
        "correct": False,
        "mistake": "The same-token head fills rows max_len + i, as if the position block came first, instead of the token rows 0 … vocab_size − 1.",
        "keywords": [r"token", r"position", r"block|\brows?\b"],
        "kind": "index",
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex5_hand_built_heads",
        "code": """def previous_token_head(vocab_size, max_len, d_head, strength):
    W_q = torch.zeros(vocab_size + max_len, d_head)
    W_k = torch.zeros(vocab_size + max_len, d_head)
    for p in range(max_len - 1):
        W_q[vocab_size + p, p + 1] = strength * math.sqrt(d_head)
    for p in range(max_len):
        W_k[vocab_size + p, p] = 1.0
    return W_q, W_k


def same_token_head(vocab_size, max_len, d_head, strength):
    W_q = torch.zeros(vocab_size + max_len, d_head)
    W_k = torch.zeros(vocab_size + max_len, d_head)
    for t in range(vocab_size):
        W_q[t, t] = strength * math.sqrt(d_head)
        W_k[t, t] = 1.0
    return W_q, W_k
""",
        "correct": False,
        "mistake": "Points the query of position t at position t + 1, the next token, instead of t − 1.",
        "keywords": [r"t ?\+ ?1|next", r"t ?- ?1|t ?− ?1|previous", r"direction"],
        "kind": "direction",
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex5_hand_built_heads",
        "code": '''def previous_token_head(vocab_size, max_len, d_head, strength):
    """W_q, W_k (vocab_size + max_len, d_head), d_head >= max_len: after the 1/√d_head,
    query t scores `strength` with the key at position t - 1 and 0 with every other key."""
    d_model = vocab_size + max_len
    W_k = torch.zeros(d_model, d_head)
    W_k[vocab_size:, :max_len] = torch.eye(max_len)           # key of position p: e_p
    W_q = torch.zeros(d_model, d_head)
    W_q[vocab_size + 1:, :max_len - 1] = torch.eye(max_len - 1)  # query of p: e_(p-1)
    return W_q * (strength * math.sqrt(d_head)), W_k


def same_token_head(vocab_size, max_len, d_head, strength):
    """W_q, W_k (vocab_size + max_len, d_head), d_head >= vocab_size: after the 1/√d_head,
    query t scores `strength` with every key holding its own token and 0 with the others."""
    d_model = vocab_size + max_len
    W_q = torch.zeros(d_model, d_head)
    W_k = torch.zeros(d_model, d_head)
    W_q[:vocab_size, :vocab_size] = strength * torch.eye(vocab_size)
    W_k[:vocab_size, :vocab_size] = math.sqrt(d_head) * torch.eye(vocab_size)  # the √d_head on the key side
    return W_q, W_k
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "block slices",
    },
    # ------------------------------------------------------------------ 03_multihead_attention
    {
        "notebook": "03_multihead_attention",
        "cell": "ex1_multihead_cols",
        "code": '''def multihead_cols(X, heads, W_c):
    """Multi-head self-attention with tokens as the columns of X.

    X: (D, N); heads: list of H dicts with W_q, W_k, W_v (D/H, D) and b_q, b_k, b_v (D/H, 1);
    W_c: (D, D)  ->  (D, N)
    """
    outputs = []
    for h in heads:
        Q = h["W_q"] @ X + h["b_q"]
        K = h["W_k"] @ X + h["b_k"]
        V = h["W_v"] @ X + h["b_v"]
        A = softmax(K.T @ Q / math.sqrt(X.shape[0]), dim=0)
        outputs.append(V @ A)
    return W_c @ torch.cat(outputs, dim=0)
''',
        "correct": False,
        "mistake": "Divides every head's scores by √D, the model's width, instead of by √d_head, the width of one head.",
        "keywords": [
            r"d_head|head'?s width|width of (a|one) head",
            r"√D\b|sqrt\(D\)|model'?s? width|X\.shape\[0\]",
        ],
        "kind": "scale",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex1_multihead_cols",
        "code": """def multihead_cols(X, heads, W_c):
    head_outputs = []
    for p in heads:
        Q = p["W_q"] @ X + p["b_q"]
        K = p["W_k"] @ X + p["b_k"]
        V = p["W_v"] @ X + p["b_v"]
        d_head = K.shape[0]
        weights = softmax(K.T @ Q / math.sqrt(d_head), dim=-1)
        head_outputs.append(V @ weights)
    return W_c @ torch.cat(head_outputs, dim=0)
""",
        "correct": False,
        "mistake": "Takes the softmax along each row (dim=-1) although with tokens as columns each query's scores form a column.",
        "keywords": [r"\brows?\b", r"column", r"dim|axis"],
        "kind": "axis",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex1_multihead_cols",
        "code": """def multihead_cols(X, heads, W_c):
    def one_head(p):
        Q, K, V = (p[f"W_{r}"] @ X + p[f"b_{r}"] for r in "qkv")
        d_head = K.shape[0]
        return V @ softmax(K.T @ Q / math.sqrt(d_head), dim=0)

    return torch.cat([one_head(p) for p in heads], dim=0)
""",
        "correct": False,
        "mistake": "Returns the stacked head outputs without applying the combining matrix W_c.",
        "keywords": [r"W_c", r"output (matrix|projection)|combin|mix"],
        "kind": "missing term",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex1_multihead_cols",
        "code": """def multihead_cols(X, heads, W_c):
    outs = []
    for h in range(len(heads)):
        p = heads[0]
        Q = p["W_q"] @ X + p["b_q"]
        K = p["W_k"] @ X + p["b_k"]
        V = p["W_v"] @ X + p["b_v"]
        A = softmax(K.T @ Q / math.sqrt(K.shape[0]), dim=0)
        outs.append(V @ A)
    return W_c @ torch.cat(outs, dim=0)
""",
        "correct": False,
        "mistake": "Uses the first head's parameters, heads[0], for every head instead of each head's own.",
        "keywords": [r"first head|heads\[0\]|same head", r"every head|each head|own"],
        "kind": "first item only",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex1_multihead_cols",
        "code": '''def multihead_cols(X, heads, W_c):
    """Multi-head self-attention with tokens as the columns of X.

    X: (D, N); heads: list of H dicts with W_q, W_k, W_v (D/H, D) and b_q, b_k, b_v (D/H, 1);
    W_c: (D, D)  ->  (D, N)
    """
    stacked = []
    for head in heads:
        q = torch.addmm(head["b_q"], head["W_q"], X)
        k = torch.addmm(head["b_k"], head["W_k"], X)
        v = torch.addmm(head["b_v"], head["W_v"], X)
        scores = torch.einsum("dm,dn->mn", k, q) / math.sqrt(k.shape[0])  # column n: query n
        stacked.append(v @ softmax(scores, dim=0))
    return W_c @ torch.vstack(stacked)
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "addmm",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex2_split_merge",
        "code": '''def split_heads(x, n_heads):
    """(B, T, d_model) -> (B, H, T, d_head): head h gets features h·d_head ... (h+1)·d_head - 1."""
    B, T, d_model = x.shape
    return x.reshape(B, n_heads, T, d_model // n_heads)


def merge_heads(x):
    """(B, H, T, d_head) -> (B, T, H·d_head), the inverse of split_heads."""
    B, H, T, d_head = x.shape
    return x.transpose(1, 2).reshape(B, T, H * d_head)
''',
        "correct": False,
        "mistake": "split_heads reshapes (B, T, d_model) straight to (B, H, T, d_head): the shape is right but tokens and features get mixed; the last axis must be split first and the head axis then moved with a transpose.",
        "keywords": [r"reshape|view", r"transpos|permut", r"straight|directly|contents|mix"],
        "kind": "layout",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex2_split_merge",
        "code": """def split_heads(x, n_heads):
    B, T, D = x.shape
    return x.view(B, T, n_heads, D // n_heads).transpose(1, 2)


def merge_heads(x):
    B, H, T, d = x.shape
    return x.reshape(B, T, H * d)
""",
        "correct": False,
        "mistake": "merge_heads reshapes (B, H, T, d_head) to (B, T, H·d_head) without first moving the head axis back behind the tokens.",
        "keywords": [r"transpos|permut", r"head axis|move|behind|back"],
        "kind": "layout",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex2_split_merge",
        "code": """def split_heads(x, n_heads):
    B, T, D = x.shape
    return x.reshape(B, T, D // n_heads, n_heads).permute(0, 3, 1, 2)


def merge_heads(x):
    B, H, T, d = x.shape
    return x.permute(0, 2, 3, 1).reshape(B, T, d * H)
""",
        "correct": False,
        "mistake": "Splits the features as (d_head, H), so head h gets every H-th feature instead of the contiguous block h·d_head … (h+1)·d_head − 1.",
        "keywords": [
            r"interleav|every H|strided|stride",
            r"contiguous|block|consecutive",
            r"\(d_head, ?H\)|order",
        ],
        "kind": "layout",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex2_split_merge",
        "code": '''def split_heads(x, n_heads):
    """(B, T, d_model) -> (B, H, T, d_head): head h gets features h·d_head ... (h+1)·d_head - 1."""
    return x.unflatten(-1, (n_heads, -1)).permute(0, 2, 1, 3)


def merge_heads(x):
    """(B, H, T, d_head) -> (B, T, H·d_head), the inverse of split_heads."""
    return x.permute(0, 2, 1, 3).flatten(start_dim=2)
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "unflatten",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex3_expand_mask",
        "code": '''def expand_mask(mask):
    """Bring a boolean mask to 4-D so that it broadcasts over (B, H, T, S) scores.

    (T, S) -> (1, 1, T, S);  (B, T, S) -> (B, 1, T, S);  (B, H, T, S) unchanged
    """
    while mask.dim() < 4:
        mask = mask.unsqueeze(0)
    return mask
''',
        "correct": False,
        "mistake": "Adds the missing axes in front, so a (B, T, S) mask becomes (1, B, T, S) instead of (B, 1, T, S).",
        "keywords": [
            r"\(1, ?B, ?T, ?S\)|\(B, ?1, ?T, ?S\)",
            r"front|axis 1|dim ?= ?1|position|batch axis|head axis",
        ],
        "kind": "axis",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex3_expand_mask",
        "code": """def expand_mask(mask):
    if mask.dim() == 2:
        mask = mask.unsqueeze(0)
    return mask.unsqueeze(1)
""",
        "correct": False,
        "mistake": "A 4-D mask gets one more axis and comes back 5-D instead of unchanged.",
        "keywords": [r"4-D|four|4D|4-dim", r"5-D|unchanged|five|5D"],
        "kind": "missing case",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex3_expand_mask",
        "code": """def expand_mask(mask):
    if mask.dim() == 4:
        return mask
    if mask.dim() == 3:
        return mask.unsqueeze(1)
    return mask.reshape(1, 1, *mask.shape)
""",
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "reshape",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex4_multihead_attention",
        "code": '''def multihead_attention(x, in_proj_weight, in_proj_bias, out_proj_weight, out_proj_bias,
                        n_heads, mask=None):
    """Packed multi-head self-attention, PyTorch's parameter layout.

    x: (B, T, d_model); in_proj_weight: (3·d_model, d_model); in_proj_bias: (3·d_model,);
    out_proj_weight: (d_model, d_model); out_proj_bias: (d_model,);
    mask: bool (T, T), (B, T, T) (or (B, 1, T) for padding) or (B, H, T, T),
          True = may attend  ->  (B, T, d_model)
    """
    q, k, v = (x @ in_proj_weight.T + in_proj_bias).chunk(3, dim=-1)
    q, k, v = split_heads(q, n_heads), split_heads(k, n_heads), split_heads(v, n_heads)
    d_head = q.shape[-1]
    q = q / math.sqrt(d_head)
    if mask is not None:
        mask = expand_mask(mask)
    out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
    return merge_heads(out) @ out_proj_weight.T + out_proj_bias
''',
        "correct": False,
        "mistake": "Divides the queries by √d_head before F.scaled_dot_product_attention, which scales again, so the scores are divided twice.",
        "keywords": [r"twice|double|again", r"already"],
        "kind": "scale",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex4_multihead_attention",
        "code": """def multihead_attention(x, in_proj_weight, in_proj_bias, out_proj_weight, out_proj_bias,
                        n_heads, mask=None):
    qkv = x @ in_proj_weight.T + in_proj_bias
    q, k, v = qkv.chunk(3, dim=-1)
    q, k, v = (split_heads(t, n_heads) for t in (q, k, v))
    out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
    return merge_heads(out) @ out_proj_weight.T + out_proj_bias
""",
        "correct": False,
        "mistake": "Passes the mask to attention without expand_mask, so a (B, 1, S) padding mask lines its batch axis up with the heads axis.",
        "keywords": [r"expand_mask|4-D|head axis", r"broadcast|batch axis|lines? up|heads"],
        "kind": "broadcasting",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex4_multihead_attention",
        "code": """def multihead_attention(x, in_proj_weight, in_proj_bias, out_proj_weight, out_proj_bias,
                        n_heads, mask=None):
    k, q, v = (x @ in_proj_weight.T + in_proj_bias).chunk(3, dim=-1)
    q = split_heads(q, n_heads)
    k = split_heads(k, n_heads)
    v = split_heads(v, n_heads)
    attn_mask = None if mask is None else expand_mask(mask)
    out = F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask)
    return merge_heads(out) @ out_proj_weight.T + out_proj_bias
""",
        "correct": False,
        "mistake": "Takes the first third of the projection as the keys and the second as the queries; PyTorch's rows are q, then k, then v.",
        "keywords": [r"order|swap", r"q, ?(then )?k|first third|rows"],
        "kind": "order",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex4_multihead_attention",
        "code": """def multihead_attention(x, in_proj_weight, in_proj_bias, out_proj_weight, out_proj_bias,
                        n_heads, mask=None):
    q, k, v = (x @ in_proj_weight.T + in_proj_bias).chunk(3, dim=-1)
    q, k, v = [split_heads(t, n_heads) for t in (q, k, v)]
    if mask is not None:
        mask = expand_mask(mask)
    out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
    return merge_heads(out) @ out_proj_weight + out_proj_bias
""",
        "correct": False,
        "mistake": "Multiplies by out_proj_weight instead of its transpose in the output projection.",
        "keywords": [r"transpos", r"\.T|ᵀ", r"out_proj"],
        "kind": "layout",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex4_multihead_attention",
        "code": '''def multihead_attention(x, in_proj_weight, in_proj_bias, out_proj_weight, out_proj_bias,
                        n_heads, mask=None):
    """Packed multi-head self-attention, PyTorch's parameter layout."""
    W_q, W_k, W_v = in_proj_weight.chunk(3)
    b_q, b_k, b_v = in_proj_bias.chunk(3)
    q = split_heads(F.linear(x, W_q, b_q), n_heads)
    k = split_heads(F.linear(x, W_k, b_k), n_heads)
    v = split_heads(F.linear(x, W_v, b_v), n_heads)
    scores = torch.einsum("bhtd,bhsd->bhts", q, k) / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = scores.masked_fill(~expand_mask(mask), float("-inf"))
    out = torch.einsum("bhts,bhsd->bhtd", scores.softmax(dim=-1), v)
    return F.linear(merge_heads(out), out_proj_weight, out_proj_bias)
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "einsum",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex5_multihead_module",
        "code": '''class MultiHeadAttention(nn.Module):
    """Packed multi-head attention with nn.MultiheadAttention's parameters (batch_first=True).

    query (B, T, d_model), key and value (B, S, d_model), mask bool (T, S) or (B, T, S),
    True = may attend  ->  output (B, T, d_model), weights (B, T, S) averaged over the heads
    (None when need_weights is False)
    """

    def __init__(self, d_model, n_heads, dropout=0.0):
        super().__init__()
        self.n_heads = n_heads
        self.dropout = dropout
        self.in_proj_weight = nn.Parameter(torch.empty(3 * d_model, d_model))
        nn.init.xavier_uniform_(self.in_proj_weight)
        self.in_proj_bias = nn.Parameter(torch.zeros(3 * d_model))
        self.out_proj = nn.Linear(d_model, d_model)
        nn.init.zeros_(self.out_proj.bias)

    def forward(self, query, key, value, mask=None, need_weights=True):
        w_q, w_k, w_v = self.in_proj_weight.chunk(3)
        b_q, b_k, b_v = self.in_proj_bias.chunk(3)
        q = split_heads(query @ w_q.T + b_q, self.n_heads)
        k = split_heads(key @ w_k.T + b_k, self.n_heads)
        v = split_heads(value @ w_v.T + b_v, self.n_heads)
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
        if mask is not None:
            scores = scores.masked_fill(~expand_mask(mask), float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        weights = F.dropout(weights, self.dropout, training=self.training)
        output = self.out_proj(merge_heads(weights @ v))
        if not need_weights:
            return output, None
        return output, weights.mean(dim=1)
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "explicit formula",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex5_multihead_module",
        "code": '''class MultiHeadAttention(nn.Module):
    """Packed multi-head attention with nn.MultiheadAttention's parameters (batch_first=True).

    query (B, T, d_model), key and value (B, S, d_model), mask bool (T, S) or (B, T, S),
    True = may attend  ->  output (B, T, d_model), weights (B, T, S) averaged over the heads
    (None when need_weights is False)
    """

    def __init__(self, d_model, n_heads, dropout=0.0):
        super().__init__()
        self.n_heads = n_heads
        self.dropout = dropout
        self.in_proj_weight = nn.Parameter(torch.empty(3 * d_model, d_model))
        nn.init.xavier_uniform_(self.in_proj_weight)
        self.in_proj_bias = nn.Parameter(torch.zeros(3 * d_model))
        self.out_proj = nn.Linear(d_model, d_model)
        nn.init.zeros_(self.out_proj.bias)

    def forward(self, query, key, value, mask=None, need_weights=True):
        w_q, w_k, w_v = self.in_proj_weight.chunk(3)
        b_q, b_k, b_v = self.in_proj_bias.chunk(3)
        q = split_heads(query @ w_q.T + b_q, self.n_heads)
        k = split_heads(key @ w_k.T + b_k, self.n_heads)
        v = split_heads(value @ w_v.T + b_v, self.n_heads)
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
        if mask is not None:
            scores = scores.masked_fill(~expand_mask(mask), float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        weights = F.dropout(weights, self.dropout, training=self.training)
        output = self.out_proj(merge_heads(weights @ v))
        if not need_weights:
            return output, None
        return output, weights
''',
        "correct": False,
        "mistake": "Returns the per-head weights (B, H, T, S) instead of their average over the heads, (B, T, S).",
        "keywords": [r"average|mean", r"over the heads|per.head|\(B, ?H"],
        "kind": "missing reduction",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex5_multihead_module",
        "code": '''class MultiHeadAttention(nn.Module):
    """Packed multi-head attention with nn.MultiheadAttention's parameters (batch_first=True).

    query (B, T, d_model), key and value (B, S, d_model), mask bool (T, S) or (B, T, S),
    True = may attend  ->  output (B, T, d_model), weights (B, T, S) averaged over the heads
    (None when need_weights is False)
    """

    def __init__(self, d_model, n_heads, dropout=0.0):
        super().__init__()
        self.n_heads = n_heads
        self.dropout = dropout
        self.in_proj_weight = nn.Parameter(torch.empty(3 * d_model, d_model))
        nn.init.xavier_uniform_(self.in_proj_weight)
        self.in_proj_bias = nn.Parameter(torch.zeros(3 * d_model))
        self.out_proj = nn.Linear(d_model, d_model)
        nn.init.zeros_(self.out_proj.bias)

    def forward(self, query, key, value, mask=None, need_weights=True):
        w_q, w_k, w_v = self.in_proj_weight.chunk(3)
        b_q, b_k, b_v = self.in_proj_bias.chunk(3)
        q = split_heads(query @ w_q.T + b_q, self.n_heads)
        k = split_heads(key @ w_k.T + b_k, self.n_heads)
        v = split_heads(value @ w_v.T + b_v, self.n_heads)
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
        if mask is not None:
            scores = scores.masked_fill(~expand_mask(mask), float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        weights = F.dropout(weights, p=self.dropout)
        output = self.out_proj(merge_heads(weights @ v))
        if not need_weights:
            return output, None
        return output, weights.mean(dim=1)
''',
        "correct": False,
        "mistake": "Calls F.dropout without training=self.training, so dropout stays active in eval mode as well.",
        "keywords": [r"training|eval", r"self\.training|always|mode"],
        "kind": "train/eval",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex5_multihead_module",
        "code": '''class MultiHeadAttention(nn.Module):
    """Packed multi-head attention with nn.MultiheadAttention's parameters (batch_first=True).

    query (B, T, d_model), key and value (B, S, d_model), mask bool (T, S) or (B, T, S),
    True = may attend  ->  output (B, T, d_model), weights (B, T, S) averaged over the heads
    (None when need_weights is False)
    """

    def __init__(self, d_model, n_heads, dropout=0.0):
        super().__init__()
        self.n_heads = n_heads
        self.dropout = dropout
        self.in_proj_weight = nn.Parameter(torch.empty(3 * d_model, d_model))
        nn.init.xavier_uniform_(self.in_proj_weight)
        self.in_proj_bias = nn.Parameter(torch.zeros(3 * d_model))
        self.out_proj = nn.Linear(d_model, d_model)
        nn.init.zeros_(self.out_proj.bias)

    def forward(self, query, key, value, mask=None, need_weights=True):
        w_q, w_k, w_v = self.in_proj_weight.chunk(3)
        b_q, b_k, b_v = self.in_proj_bias.chunk(3)
        q = split_heads(query @ w_q.T + b_q, self.n_heads)
        k = split_heads(key @ w_k.T + b_k, self.n_heads)
        v = split_heads(key @ w_v.T + b_v, self.n_heads)
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
        if mask is not None:
            scores = scores.masked_fill(~expand_mask(mask), float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        weights = F.dropout(weights, self.dropout, training=self.training)
        output = self.out_proj(merge_heads(weights @ v))
        if not need_weights:
            return output, None
        return output, weights.mean(dim=1)
''',
        "correct": False,
        "mistake": "Projects the values from `key` instead of from `value`.",
        "keywords": [r"\bvalues?\b", r"\bkey\b"],
        "kind": "wrong operand",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex5_multihead_module",
        "code": '''class MultiHeadAttention(nn.Module):
    """Packed multi-head attention with nn.MultiheadAttention's parameters (batch_first=True).

    query (B, T, d_model), key and value (B, S, d_model), mask bool (T, S) or (B, T, S),
    True = may attend  ->  output (B, T, d_model), weights (B, T, S) averaged over the heads
    (None when need_weights is False)
    """

    def __init__(self, d_model, n_heads, dropout=0.0):
        super().__init__()
        self.n_heads = n_heads
        self.dropout = dropout
        self.in_proj_weight = nn.Parameter(torch.randn(3 * d_model, d_model))
        self.in_proj_bias = nn.Parameter(torch.zeros(3 * d_model))
        self.out_proj = nn.Linear(d_model, d_model)
        nn.init.zeros_(self.out_proj.bias)

    def forward(self, query, key, value, mask=None, need_weights=True):
        w_q, w_k, w_v = self.in_proj_weight.chunk(3)
        b_q, b_k, b_v = self.in_proj_bias.chunk(3)
        q = split_heads(query @ w_q.T + b_q, self.n_heads)
        k = split_heads(key @ w_k.T + b_k, self.n_heads)
        v = split_heads(value @ w_v.T + b_v, self.n_heads)
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
        if mask is not None:
            scores = scores.masked_fill(~expand_mask(mask), float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        weights = F.dropout(weights, self.dropout, training=self.training)
        output = self.out_proj(merge_heads(weights @ v))
        if not need_weights:
            return output, None
        return output, weights.mean(dim=1)
''',
        "correct": False,
        "mistake": "Starts in_proj_weight from a standard normal draw (torch.randn) instead of Xavier-uniform, as PyTorch does.",
        "keywords": [r"xavier", r"init", r"randn|normal"],
        "kind": "initialisation",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex5_multihead_module",
        "code": '''class MultiHeadAttention(nn.Module):
    """Packed multi-head attention with nn.MultiheadAttention's parameters (batch_first=True).

    query (B, T, d_model), key and value (B, S, d_model), mask bool (T, S) or (B, T, S),
    True = may attend  ->  output (B, T, d_model), weights (B, T, S) averaged over the heads
    (None when need_weights is False)
    """

    def __init__(self, d_model, n_heads, dropout=0.0):
        super().__init__()
        self.n_heads = n_heads
        self.dropout = dropout
        self.in_proj_weight = nn.Parameter(torch.empty(3 * d_model, d_model))
        nn.init.xavier_uniform_(self.in_proj_weight)
        self.in_proj_bias = nn.Parameter(torch.zeros(3 * d_model))
        self.out_proj = nn.Linear(d_model, d_model)
        nn.init.zeros_(self.out_proj.bias)

    def forward(self, query, key, value, mask=None, need_weights=True):
        w_q, w_k, w_v = self.in_proj_weight.chunk(3)
        b_q, b_k, b_v = self.in_proj_bias.chunk(3)
        q = split_heads(query @ w_q.T + b_q, self.n_heads)
        k = split_heads(key @ w_k.T + b_k, self.n_heads)
        v = split_heads(value @ w_v.T + b_v, self.n_heads)
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
        if mask is not None:
            scores = scores.masked_fill(~expand_mask(mask), float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        output = self.out_proj(merge_heads(weights @ v))
        output = F.dropout(output, self.dropout, training=self.training)
        if not need_weights:
            return output, None
        return output, weights.mean(dim=1)
''',
        "correct": False,
        "mistake": "Applies dropout to the output instead of to the attention weights after the softmax.",
        "keywords": [r"weights", r"output", r"after the softmax|where"],
        "kind": "order",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex5_multihead_module",
        "code": """class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, n_heads, dropout=0.0):
        super().__init__()
        assert d_model % n_heads == 0
        self.n_heads, self.d_head, self.p = n_heads, d_model // n_heads, dropout
        self.in_proj_weight = nn.Parameter(nn.init.xavier_uniform_(torch.empty(3 * d_model, d_model)))
        self.in_proj_bias = nn.Parameter(torch.zeros(3 * d_model))
        self.out_proj = nn.Linear(d_model, d_model)
        nn.init.zeros_(self.out_proj.bias)

    def _heads(self, x, part):
        w = self.in_proj_weight.chunk(3)[part]
        b = self.in_proj_bias.chunk(3)[part]
        return split_heads(F.linear(x, w, b), self.n_heads)   # (B, H, len, d_head)

    def forward(self, query, key, value, mask=None, need_weights=True):
        q, k, v = self._heads(query, 0), self._heads(key, 1), self._heads(value, 2)
        scores = torch.einsum("bhtd,bhsd->bhts", q, k) / self.d_head ** 0.5
        if mask is not None:
            scores = torch.where(expand_mask(mask), scores, float("-inf"))
        weights = F.dropout(scores.softmax(dim=-1), self.p, self.training)
        output = self.out_proj(merge_heads(torch.einsum("bhts,bhsd->bhtd", weights, v)))
        return output, (weights.mean(dim=1) if need_weights else None)
""",
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "helper method, einsum",
    },
    # ------------------------------------------------------------------ 04_positional_encoding
    {
        "notebook": "04_positional_encoding",
        "cell": "ex1_pe_table_loops",
        "code": '''def pe_table_loops(seq_len, d_model):
    """The sinusoidal table, one entry at a time.

    ->  (seq_len, d_model): row pos is PE_pos; sin on even features, cos on odd ones
    """
    table = torch.zeros(seq_len, d_model)
    for pos in range(seq_len):
        for i in range(d_model // 2):
            angle = pos / 10000 ** (i / d_model)
            table[pos, 2 * i] = math.sin(angle)
            table[pos, 2 * i + 1] = math.cos(angle)
    return table
''',
        "correct": False,
        "mistake": "Uses i/d_model in the exponent instead of 2i/d_model, so the frequencies fall only half as fast.",
        "keywords": [r"2i|2 ?\* ?i|2·i", r"exponent", r"i ?/ ?d_model"],
        "kind": "scale",
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex1_pe_table_loops",
        "code": """def pe_table_loops(seq_len, d_model):
    pe = torch.zeros(seq_len, d_model)
    for pos in range(seq_len):
        for j in range(d_model):
            freq = 1 / 10000 ** (j / d_model)
            if j % 2 == 0:
                pe[pos, j] = math.sin(pos * freq)
            else:
                pe[pos, j] = math.cos(pos * freq)
    return pe
""",
        "correct": False,
        "mistake": "Computes each feature's frequency from its own index j, so the cosine of pair i uses the exponent (2i+1)/d_model instead of sharing 2i/d_model with its sine.",
        "keywords": [r"2i ?\+ ?1|odd|cos", r"pair|same frequency|own index|feature index"],
        "kind": "index",
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex1_pe_table_loops",
        "code": """def pe_table_loops(seq_len, d_model):
    table = torch.zeros(seq_len, d_model)
    for pos in range(seq_len):
        for i in range(d_model // 2):
            w = 1.0 / (10000 ** (2 * i / d_model))
            table[pos, 2 * i] = math.cos(pos * w)
            table[pos, 2 * i + 1] = math.sin(pos * w)
    return table
""",
        "correct": False,
        "mistake": "Puts the cosine on the even features and the sine on the odd ones, the wrong way round.",
        "keywords": [r"swap|revers|the other way|wrong way", r"\bsin", r"\bcos"],
        "kind": "operand swap",
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex1_pe_table_loops",
        "code": '''def pe_table_loops(seq_len, d_model):
    """The sinusoidal table, one entry at a time.

    ->  (seq_len, d_model): row pos is PE_pos; sin on even features, cos on odd ones
    """
    table = torch.zeros(seq_len, d_model)
    for pos in range(seq_len):
        for i in range(d_model // 2):
            angle = pos * 10000 ** (2 * i / d_model)
            table[pos, 2 * i] = math.sin(angle)
            table[pos, 2 * i + 1] = math.cos(angle)
    return table
''',
        "correct": False,
        "mistake": "Multiplies the position by 10000^(2i/d_model) instead of dividing by it.",
        "keywords": [r"multipl", r"divid|inverse|reciprocal|1 ?/|negative"],
        "kind": "inverse",
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex1_pe_table_loops",
        "code": """def pe_table_loops(seq_len, d_model):
    table = torch.zeros(seq_len, d_model)
    for pos in range(seq_len):
        for even in range(0, d_model, 2):          # even = 2i
            omega = math.pow(10000.0, -even / d_model)
            table[pos, even] = math.sin(pos * omega)
            table[pos, even + 1] = math.cos(pos * omega)
    return table
""",
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "loops, math.pow",
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex2_pe_table",
        "code": """def pe_table(seq_len, d_model):
    pos = torch.arange(seq_len)[:, None]
    i2 = torch.arange(0, d_model, 2)
    freq = 1.0 / 10000 ** (i2 // d_model)
    angles = pos * freq
    table = torch.zeros(seq_len, d_model)
    table[:, 0::2] = torch.sin(angles)
    table[:, 1::2] = torch.cos(angles)
    return table
""",
        "correct": False,
        "mistake": "Uses integer division // for 2i/d_model, which is always 0, so every pair gets the frequency 1.",
        "keywords": [
            r"//|integer division|floor",
            r"\b0\b|zero",
            r"frequency (of )?1|same frequency",
        ],
        "kind": "python slip",
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex2_pe_table",
        "code": '''def pe_table(seq_len, d_model):
    """The sinusoidal table without Python loops.

    ->  (seq_len, d_model): row pos is PE_pos; sin on even features, cos on odd ones
    """
    positions = torch.arange(seq_len, dtype=torch.float32)[:, None]
    two_i = torch.arange(0, d_model, 2, dtype=torch.float32)
    omega = 1 / 10000 ** two_i / d_model
    angles = positions * omega
    pe = torch.empty(seq_len, d_model)
    pe[:, 0::2] = angles.sin()
    pe[:, 1::2] = angles.cos()
    return pe
''',
        "correct": False,
        "mistake": "Writes 1 / 10000 ** two_i / d_model, which divides by d_model after the power instead of putting 2i/d_model in the exponent: parentheses are missing.",
        "keywords": [r"parenthes|bracket|precedence", r"exponent"],
        "kind": "precedence",
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex2_pe_table",
        "code": """def pe_table(seq_len, d_model):
    pos = torch.arange(1, seq_len + 1).float().unsqueeze(1)
    omega = 10000 ** (-torch.arange(0, d_model, 2).float() / d_model)
    table = torch.zeros(seq_len, d_model)
    table[:, 0::2] = torch.sin(pos * omega)
    table[:, 1::2] = torch.cos(pos * omega)
    return table
""",
        "correct": False,
        "mistake": "Counts positions from 1 instead of 0.",
        "keywords": [r"from 1|from one|start.*\b1\b", r"position 0|from 0|off.by.one"],
        "kind": "off-by-one",
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex2_pe_table",
        "code": '''def pe_table(seq_len, d_model):
    """The sinusoidal table without Python loops.

    ->  (seq_len, d_model): row pos is PE_pos; sin on even features, cos on odd ones
    """
    pos = torch.arange(seq_len, dtype=torch.float64).unsqueeze(1)
    omega = torch.exp(-math.log(10000.0) * torch.arange(0, d_model, 2, dtype=torch.float64) / d_model)
    angles = pos * omega                                      # (seq_len, d_model / 2)
    # interleave: sin, cos, sin, cos, ...
    return torch.stack([angles.sin(), angles.cos()], dim=-1).flatten(1).float()
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "stack and flatten",
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex3_positional_encoding",
        "code": '''class PositionalEncoding(nn.Module):
    """x (B, T, d_model) -> x + PE[:T], the same position vectors for every sequence."""

    def __init__(self, d_model, max_len=500):
        super().__init__()
        self.table = nn.Parameter(sinusoidal_table(max_len, d_model))

    def forward(self, x):
        return x + self.table[: x.shape[1]]
''',
        "correct": False,
        "mistake": "Stores the table as an nn.Parameter, so the optimiser would train it, instead of registering it as a non-persistent buffer.",
        "keywords": [r"parameter", r"buffer", r"train"],
        "kind": "buffer",
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex3_positional_encoding",
        "code": """class PositionalEncoding(nn.Module):
    def __init__(self, d_model, max_len=500):
        super().__init__()
        self.register_buffer("table", sinusoidal_table(max_len, d_model), persistent=False)

    def forward(self, x):
        T = x.size(0)
        return x + self.table[:T]
""",
        "correct": False,
        "mistake": "Takes T from x.size(0), the batch size, instead of the sequence length x.size(1).",
        "keywords": [
            r"batch",
            r"size\(0\)|shape\[0\]|axis|dim",
            r"sequence length|size\(1\)|shape\[1\]",
        ],
        "kind": "axis",
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex3_positional_encoding",
        "code": '''class PositionalEncoding(nn.Module):
    """x (B, T, d_model) -> x + PE[:T], the same position vectors for every sequence."""

    def __init__(self, d_model, max_len=500):
        super().__init__()
        table = sinusoidal_table(d_model, max_len)
        self.register_buffer("table", table, persistent=False)

    def forward(self, x):
        return x + self.table[: x.shape[1]]
''',
        "correct": False,
        "mistake": "Calls sinusoidal_table(d_model, max_len) with its two arguments swapped.",
        "keywords": [r"swap|order|the other way", r"argument"],
        "kind": "argument order",
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex3_positional_encoding",
        "code": '''class PositionalEncoding(nn.Module):
    """x (B, T, d_model) -> x + PE[:T], the same position vectors for every sequence."""

    def __init__(self, d_model, max_len=500):
        super().__init__()
        self.register_buffer("table", sinusoidal_table(max_len, d_model).unsqueeze(0), persistent=False)

    def forward(self, x):
        seq_len = x.shape[-2]
        return x + self.table[:, :seq_len, :]   # (1, T, d_model) broadcasts over the batch
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "buffer with batch axis",
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex4_rotation_matrix",
        "code": '''def rotation_matrix(k, d_model):
    """R with PE[pos + k] = R @ PE[pos] for every position.

    ->  (d_model, d_model), block diagonal with one 2×2 rotation per (sin, cos) pair
    """
    R = torch.zeros(d_model, d_model)
    for i in range(d_model // 2):
        w = 1 / 10000 ** (2 * i / d_model)
        c, s = math.cos(k * w), math.sin(k * w)
        R[2 * i, 2 * i] = c
        R[2 * i, 2 * i + 1] = -s
        R[2 * i + 1, 2 * i] = s
        R[2 * i + 1, 2 * i + 1] = c
    return R
''',
        "correct": False,
        "mistake": "Puts −sin in the top-right and +sin in the bottom-left of each block: the transposed block, which rotates by −kω, k positions back.",
        "keywords": [
            r"sign",
            r"transpos|−kω|-kω|opposite|backwards|\bback\b|direction|revers|negative",
        ],
        "kind": "sign",
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex4_rotation_matrix",
        "code": """def rotation_matrix(k, d_model):
    blocks = []
    for i in range(0, d_model, 2):
        w = 10000 ** (-i / d_model)
        blocks.append(torch.tensor([[math.cos(w), math.sin(w)], [-math.sin(w), math.cos(w)]]))
    return torch.block_diag(*blocks)
""",
        "correct": False,
        "mistake": "Uses the angle ω_i instead of k·ω_i, so the matrix moves one position along whatever k is.",
        "keywords": [r"\bk\b", r"k ?·|k ?\*|times k|offset"],
        "kind": "ignored argument",
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex4_rotation_matrix",
        "code": """def rotation_matrix(k, d_model):
    R = torch.eye(d_model)
    for j in range(0, d_model, 2):
        w = 1 / 10000 ** (2 * j / d_model)
        a = k * w
        R[j:j + 2, j:j + 2] = torch.tensor([[math.cos(a), math.sin(a)],
                                            [-math.sin(a), math.cos(a)]])
    return R
""",
        "correct": False,
        "mistake": "Loops over the feature index j = 2i and then puts 2j/d_model (that is 4i/d_model) in the exponent, the wrong frequency for every pair after the first.",
        "keywords": [r"frequenc", r"2j|4i|exponent|index"],
        "kind": "index",
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex4_rotation_matrix",
        "code": '''def rotation_matrix(k, d_model):
    """R with PE[pos + k] = R @ PE[pos] for every position.

    ->  (d_model, d_model), block diagonal with one 2×2 rotation per (sin, cos) pair
    """
    omegas = 1.0 / 10000 ** (torch.arange(0, d_model, 2, dtype=torch.float64) / d_model)
    blocks = []
    for w in omegas:
        c, s = torch.cos(k * w), torch.sin(k * w)
        blocks.append(torch.stack([torch.stack([c, s]), torch.stack([-s, c])]))
    return torch.block_diag(*blocks)
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "block_diag",
    },
    # ------------------------------------------------------------------ 05_encoder
    {
        "notebook": "05_encoder",
        "cell": "ex1_layer_norm",
        "code": '''def layer_norm(x, gamma, beta, eps=1e-5):
    """Normalise every token's features, then scale by gamma and shift by beta.

    x: (..., d_model); gamma, beta: (d_model,)  ->  (..., d_model)
    """
    mean = x.mean(dim=-1, keepdim=True)
    var = x.var(dim=-1, keepdim=True)
    return gamma * (x - mean) / torch.sqrt(var + eps) + beta
''',
        "correct": False,
        "mistake": "Uses torch.var's default, the unbiased variance that divides by d − 1, instead of the biased one that divides by d.",
        "keywords": [r"unbiased|bessel|correction", r"d ?- ?1|n ?- ?1|d ?− ?1|divides? by d\b"],
        "kind": "variance",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex1_layer_norm",
        "code": """def layer_norm(x, gamma, beta, eps=1e-5):
    mu = x.mean(-1, keepdim=True)
    sigma = x.std(-1, keepdim=True, unbiased=False)
    return gamma * (x - mu) / (sigma + eps) + beta
""",
        "correct": False,
        "mistake": "Adds ε to the standard deviation instead of to the variance inside the square root.",
        "keywords": [r"eps|ε|epsilon", r"inside|outside|square root|variance"],
        "kind": "numerical stability",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex1_layer_norm",
        "code": """def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean()
    var = ((x - mean) ** 2).mean()
    x_hat = (x - mean) / torch.sqrt(var + eps)
    return gamma * x_hat + beta
""",
        "correct": False,
        "mistake": "Computes one mean and one variance over the whole tensor instead of each token's own over the last axis.",
        "keywords": [
            r"whole|entire|all (the )?(entries|elements|tokens)|each token|every token",
            r"last (axis|dim)|dim ?= ?-1|axis|per token|own",
        ],
        "kind": "axis",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex1_layer_norm",
        "code": '''def layer_norm(x, gamma, beta, eps=1e-5):
    """Normalise every token's features, then scale by gamma and shift by beta.

    x: (..., d_model); gamma, beta: (d_model,)  ->  (..., d_model)
    """
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    normed = (x - mean) / torch.sqrt(var + eps)
    return beta * normed + gamma
''',
        "correct": False,
        "mistake": "Swaps γ and β: scales by beta and shifts by gamma.",
        "keywords": [r"swap|the other way|exchang", r"gamma|γ", r"beta|β"],
        "kind": "operand swap",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex1_layer_norm",
        "code": '''def layer_norm(x, gamma, beta, eps=1e-5):
    """Normalise every token's features, then scale by gamma and shift by beta.

    x: (..., d_model); gamma, beta: (d_model,)  ->  (..., d_model)
    """
    var, mean = torch.var_mean(x, dim=-1, keepdim=True, correction=0)
    return (x - mean) * torch.rsqrt(var + eps) * gamma + beta
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "var_mean, rsqrt",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex2_feed_forward",
        "code": '''def feed_forward(x, W1, b1, W2, b2):
    """Linear -> ReLU -> Linear, applied to every token.

    x: (..., d_model); W1: (d_ff, d_model); b1: (d_ff,); W2: (d_model, d_ff); b2: (d_model,)
    ->  (..., d_model)
    """
    hidden = x @ W1.T + b1
    return hidden @ W2.T + b2
''',
        "correct": False,
        "mistake": "Leaves out the ReLU between the two linear layers.",
        "keywords": [r"relu", r"activation|non.?linear"],
        "kind": "missing term",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex2_feed_forward",
        "code": """def feed_forward(x, W1, b1, W2, b2):
    h = torch.relu(x @ W1.T + b1)
    return torch.relu(h @ W2.T + b2)
""",
        "correct": False,
        "mistake": "Applies a ReLU after the second linear layer too, which clips the block's output at 0.",
        "keywords": [r"relu", r"second|output|both|extra|last"],
        "kind": "extra term",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex2_feed_forward",
        "code": """def feed_forward(x, W1, b1, W2, b2):
    return nn.functional.gelu(x @ W1.T + b1) @ W2.T + b2
""",
        "correct": False,
        "mistake": "Uses GELU instead of ReLU between the two layers.",
        "keywords": [r"gelu", r"relu"],
        "kind": "function swap",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex2_feed_forward",
        "code": '''def feed_forward(x, W1, b1, W2, b2):
    """Linear -> ReLU -> Linear, applied to every token."""
    hidden = torch.clamp(torch.matmul(x, W1.mT) + b1, min=0)   # ReLU
    return torch.matmul(hidden, W2.mT) + b2
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "clamp",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex3_encoder_block",
        "code": '''def encoder_block(x, attention, feed_forward_net, norm1, norm2, mask=None):
    """Post-norm encoder block: LN1(x + MHA(x)), then LN2(h + FFN(h)).

    x: (B, T, d_model); mask: bool, True = may attend  ->  (B, T, d_model)
    """
    h = norm1(x + attention(x, mask=mask)[0])
    return norm2(x + feed_forward_net(h))
''',
        "correct": False,
        "mistake": "The second residual connection adds the block's input x instead of h, the output of the first sublayer.",
        "keywords": [r"residual|skip", r"\bh\b|first sublayer|sublayer'?s output", r"\bx\b|input"],
        "kind": "wrong operand",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex3_encoder_block",
        "code": """def encoder_block(x, attention, feed_forward_net, norm1, norm2, mask=None):
    attended, _ = attention(x)
    h = norm1(x + attended)
    return norm2(h + feed_forward_net(h))
""",
        "correct": False,
        "mistake": "Does not pass the mask on to the attention, so padding is attended to.",
        "keywords": [r"mask", r"padding|ignor|pass"],
        "kind": "ignored argument",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex3_encoder_block",
        "code": """def encoder_block(x, attention, feed_forward_net, norm1, norm2, mask=None):
    h = norm2(x + attention(x, mask=mask)[0])
    out = norm1(h + feed_forward_net(h))
    return out
""",
        "correct": False,
        "mistake": "Uses the two norms in the wrong order: norm2 after the attention and norm1 after the feed-forward.",
        "keywords": [r"norm1|norm2|LN ?_?1|LN ?_?2", r"swap|order|other|wrong"],
        "kind": "operand swap",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex3_encoder_block",
        "code": '''def encoder_block(x, attention, feed_forward_net, norm1, norm2, mask=None):
    """Post-norm encoder block: LN1(x + MHA(x)), then LN2(h + FFN(h))."""
    def add_and_norm(stream, sublayer, norm):
        return norm(stream + sublayer(stream))

    h = add_and_norm(x, lambda t: attention(t, mask=mask)[0], norm1)
    return add_and_norm(h, feed_forward_net, norm2)
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "helper function",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex4_pre_norm_block",
        "code": '''def pre_norm_block(x, attention, feed_forward_net, norm1, norm2, mask=None):
    """Pre-norm encoder block: h = x + MHA(LN1(x)), then h + FFN(LN2(h)).

    x: (B, T, d_model); mask: bool, True = may attend  ->  (B, T, d_model)
    """
    n = norm1(x)
    h = n + attention(n, mask=mask)[0]
    return h + feed_forward_net(norm2(h))
''',
        "correct": False,
        "mistake": "Adds the attention output to LN1(x) instead of to x, so the first residual path runs through the norm.",
        "keywords": [
            r"residual|identity",
            r"norm1\(x\)|LN ?_?1?\(x\)|normali[sz]ed",
            r"instead of x|raw|input",
        ],
        "kind": "residual",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex4_pre_norm_block",
        "code": """def pre_norm_block(x, attention, feed_forward_net, norm1, norm2, mask=None):
    h = x + attention(norm1(x), mask=mask)[0]
    return norm2(h + feed_forward_net(norm2(h)))
""",
        "correct": False,
        "mistake": "Normalises the result with norm2 once more after the last residual addition; a pre-norm block returns the stream as it is.",
        "keywords": [
            r"norm2|again|extra|once more|final",
            r"after the (last )?(residual|addition)|output|returns? the stream",
        ],
        "kind": "extra term",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex4_pre_norm_block",
        "code": """def pre_norm_block(x, attention, feed_forward_net, norm1, norm2, mask=None):
    h = x + attention(norm1(x), mask=mask)[0]
    return h + feed_forward_net(norm1(h))
""",
        "correct": False,
        "mistake": "Uses norm1 in front of the feed-forward as well, instead of norm2.",
        "keywords": [r"norm1|norm2|LN ?_?1|LN ?_?2", r"twice|both|same|instead"],
        "kind": "wrong operand",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex4_pre_norm_block",
        "code": '''def pre_norm_block(x, attention, feed_forward_net, norm1, norm2, mask=None):
    """Pre-norm encoder block: h = x + MHA(LN1(x)), then h + FFN(LN2(h))."""
    branches = [
        (norm1, lambda t: attention(t, mask=mask)[0]),
        (norm2, feed_forward_net),
    ]
    for norm, sublayer in branches:
        x = x + sublayer(norm(x))
    return x
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "loop over branches",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex5_encode",
        "code": '''def encode(x, blocks, mask=None):
    """Run the blocks in order.

    x: (B, T, d_model)  ->  output (B, T, d_model), list of len(blocks) weights (B, H, T, T)
    """
    maps = []
    out = x
    for block in blocks:
        out, w = block(x, mask, need_weights=True)
        maps.append(w)
    return out, maps
''',
        "correct": False,
        "mistake": "Feeds every block the original input x instead of the previous block's output.",
        "keywords": [r"original|same input|\bx\b", r"previous|chain|output of"],
        "kind": "state",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex5_encode",
        "code": """def encode(x, blocks, mask=None):
    for block in blocks:
        x, weights = block(x, mask, need_weights=True)
        maps = [weights]
    return x, maps
""",
        "correct": False,
        "mistake": "Creates the list anew inside the loop, so only the last block's weights are returned.",
        "keywords": [r"\blast\b|only one", r"list|append|overwrit|inside the loop"],
        "kind": "state",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex5_encode",
        "code": """def encode(x, blocks, mask=None):
    attention_maps = []
    for blk in blocks:
        x, w = blk(x, need_weights=True)
        attention_maps.append(w)
    return x, attention_maps
""",
        "correct": False,
        "mistake": "Does not pass the mask on to the blocks.",
        "keywords": [r"mask", r"ignor|pass"],
        "kind": "ignored argument",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex5_encode",
        "code": '''def encode(x, blocks, mask=None):
    """Run the blocks in order.

    x: (B, T, d_model)  ->  output (B, T, d_model), list of len(blocks) weights (B, H, T, T)
    """
    all_weights = [None] * len(blocks)
    for i, block in enumerate(blocks):
        x, all_weights[i] = block(x, mask=mask, need_weights=True)
    return x, all_weights
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "enumerate",
    },
    # ------------------------------------------------------------------ 06_decoder
    {
        "notebook": "06_decoder",
        "cell": "ex1_causal_mask",
        "code": '''def causal_mask(seq_len):
    """(seq_len, seq_len) boolean: entry [t, s] is True when query t may attend to key s <= t."""
    return torch.ones(seq_len, seq_len, dtype=torch.bool).triu()
''',
        "correct": False,
        "mistake": "Keeps the upper triangle (triu), which lets every token see the future, instead of the lower triangle.",
        "keywords": [r"upper|triu", r"lower|tril|future|transpos"],
        "kind": "direction",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex1_causal_mask",
        "code": """def causal_mask(seq_len):
    return torch.tril(torch.ones(seq_len, seq_len, dtype=torch.bool), diagonal=-1)
""",
        "correct": False,
        "mistake": "Uses diagonal=-1, which leaves out the diagonal, so a token may not attend to itself.",
        "keywords": [r"diagonal", r"itself|own|strict"],
        "kind": "off-by-one",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex1_causal_mask",
        "code": """def causal_mask(seq_len):
    # lower triangle of ones: row t has ones up to column t
    return torch.tril(torch.ones(seq_len, seq_len))
""",
        "correct": False,
        "mistake": "Returns a float tensor of ones and zeros instead of a boolean mask.",
        "keywords": [r"bool", r"dtype|float"],
        "kind": "dtype",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex1_causal_mask",
        "code": '''def causal_mask(seq_len):
    """(seq_len, seq_len) boolean: entry [t, s] is True when query t may attend to key s <= t."""
    position = torch.arange(seq_len)
    return position[:, None] >= position[None, :]   # key s <= query t
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "arange comparison",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex2_masked_self_attention",
        "code": '''def masked_self_attention(x, to_q, to_k, to_v):
    """Causally masked single-head self-attention.

    x: (..., T, d_model); to_q, to_k, to_v: nn.Linear  ->  output (..., T, d_v), weights (..., T, T)
    """
    q, k, v = to_q(x), to_k(x), to_v(x)
    T = x.shape[-2]
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    scores = scores.masked_fill(~causal_mask(T), 0.0)
    weights = torch.softmax(scores, dim=-1)
    return weights @ v, weights
''',
        "correct": False,
        "mistake": "Sets the future scores to 0 instead of −∞, so future tokens still get weight.",
        "keywords": [r"-inf|−∞|-∞|infinity|−inf", r"\b0\b|zero"],
        "kind": "wrong constant",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex2_masked_self_attention",
        "code": """def masked_self_attention(x, to_q, to_k, to_v):
    q = to_q(x)
    k = to_k(x)
    v = to_v(x)
    scores = q @ k.transpose(-2, -1) / math.sqrt(x.shape[-1])
    mask = causal_mask(x.shape[-2])
    scores = scores.masked_fill(~mask, float("-inf"))
    weights = scores.softmax(dim=-1)
    return weights @ v, weights
""",
        "correct": False,
        "mistake": "Divides the scores by √d_model, the width of x, instead of √d_k, the width of the queries and keys.",
        "keywords": [r"d_model|width of x|input", r"d_k|d_head|quer|key"],
        "kind": "scale",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex2_masked_self_attention",
        "code": """def masked_self_attention(x, to_q, to_k, to_v):
    q, k, v = to_q(x), to_k(x), to_v(x)
    T = x.shape[-2]
    scores = q @ k.transpose(-2, -1) / math.sqrt(k.shape[-1])
    w = torch.softmax(scores, dim=-1) * causal_mask(T)
    return w @ v, w
""",
        "correct": False,
        "mistake": "Zeroes the future weights after the softmax instead of setting their scores to −∞ before it, so the rows no longer sum to 1.",
        "keywords": [
            r"after the softmax|after softmax|before",
            r"sum to 1|sum to one|renormal",
            r"-inf|−∞|-∞",
        ],
        "kind": "order",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex2_masked_self_attention",
        "code": '''def masked_self_attention(x, to_q, to_k, to_v):
    """Causally masked single-head self-attention.

    x: (..., T, d_model); to_q, to_k, to_v: nn.Linear  ->  output (..., T, d_v), weights (..., T, T)
    """
    q, k, v = to_q(x), to_k(x), to_v(x)
    scores = torch.einsum("...td,...sd->...ts", q, k) / math.sqrt(q.shape[-1])
    future = ~causal_mask(x.shape[-2])
    scores = torch.where(future, torch.full_like(scores, float("-inf")), scores)
    weights = torch.exp(scores - scores.amax(dim=-1, keepdim=True))
    weights = weights / weights.sum(dim=-1, keepdim=True)
    return weights @ v, weights
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "einsum, where",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex3_cross_attention",
        "code": '''def cross_attention(x, memory, to_q, to_k, to_v):
    """Queries from the decoder's tokens x, keys and values from the encoder's memory.

    x: (B, T, d); memory: (B, S, d)  ->  output (B, T, d_v), weights (B, T, S)
    """
    q = to_q(x)
    k = to_k(x)
    v = to_v(memory)
    return scaled_dot_product_attention(q, k, v, need_weights=True)
''',
        "correct": False,
        "mistake": "Makes the keys from the decoder's tokens x instead of from the memory.",
        "keywords": [r"\bkeys?\b", r"memory", r"\bx\b|decoder"],
        "kind": "wrong operand",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex3_cross_attention",
        "code": """def cross_attention(x, memory, to_q, to_k, to_v):
    q = to_q(memory)
    k, v = to_k(x), to_v(x)
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    weights = torch.softmax(scores, dim=-1)
    return weights @ v, weights
""",
        "correct": False,
        "mistake": "Swaps the roles: the queries come from the memory and the keys and values from the decoder's tokens.",
        "keywords": [r"swap|revers|the other way|roles", r"quer", r"memory"],
        "kind": "operand swap",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex3_cross_attention",
        "code": """def cross_attention(x, memory, to_q, to_k, to_v):
    T, S = x.shape[1], memory.shape[1]
    no_peeking = torch.ones(T, S, dtype=torch.bool).tril()
    return scaled_dot_product_attention(to_q(x), to_k(memory), to_v(memory), no_peeking,
                                        need_weights=True)
""",
        "correct": False,
        "mistake": "Applies a causal (lower-triangular) mask in cross-attention, which needs none: every decoder token may see the whole source.",
        "keywords": [r"causal|tril|triangular", r"no mask|needs none|whole source|\bmask"],
        "kind": "extra mask",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex3_cross_attention",
        "code": '''def cross_attention(x, memory, to_q, to_k, to_v):
    """Queries from the decoder's tokens x, keys and values from the encoder's memory."""
    q = to_q(x)                      # (B, T, d_k): what each decoder token asks
    k, v = to_k(memory), to_v(memory)  # (B, S, d_k), (B, S, d_v): what the source offers
    scores = torch.bmm(q, k.transpose(1, 2)) / q.shape[-1] ** 0.5
    weights = torch.softmax(scores, dim=-1)
    return torch.bmm(weights, v), weights
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "bmm",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex4_decoder_block",
        "code": '''def decoder_block(x, memory, self_attention, cross_attention, feed_forward_net, norm1, norm2, norm3,
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
        "mistake": "Cross-attention reads the block's input x instead of h1, the output of the masked self-attention sublayer.",
        "keywords": [
            r"h1|h_1|first sublayer|self-attention'?s? (sublayer'?s? )?output|output of the (masked )?self-attention",
            r"\bx\b|input",
        ],
        "kind": "wrong operand",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex4_decoder_block",
        "code": """def decoder_block(x, memory, self_attention, cross_attention, feed_forward_net, norm1, norm2, norm3,
                  src_mask=None):
    h = norm1(x + self_attention(x)[0])
    h = norm2(h + cross_attention(h, memory, mask=src_mask)[0])
    return norm3(h + feed_forward_net(h))
""",
        "correct": False,
        "mistake": "Calls the self-attention without the causal mask, so every target token sees the future.",
        "keywords": [r"causal", r"\bmask"],
        "kind": "missing mask",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex4_decoder_block",
        "code": """def decoder_block(x, memory, self_attention, cross_attention, feed_forward_net, norm1, norm2, norm3,
                  src_mask=None):
    mask = causal_mask(x.size(1))
    a, _ = self_attention(x, mask=mask)
    h = norm1(x + a)
    c, _ = cross_attention(h, memory)
    h = norm2(h + c)
    return norm3(h + feed_forward_net(h))
""",
        "correct": False,
        "mistake": "Does not pass src_mask to the cross-attention, so padding in the source is attended to.",
        "keywords": [r"src_mask|source mask|padding", r"cross"],
        "kind": "ignored argument",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex4_decoder_block",
        "code": '''def decoder_block(x, memory, self_attention, cross_attention, feed_forward_net, norm1, norm2, norm3,
                  src_mask=None):
    """Post-norm decoder block."""
    future_hidden = causal_mask(x.shape[1]).to(x.device)
    sublayers = [
        (lambda h: self_attention(h, mask=future_hidden)[0], norm1),
        (lambda h: cross_attention(h, memory, mask=src_mask)[0], norm2),
        (feed_forward_net, norm3),
    ]
    for sublayer, norm in sublayers:
        x = norm(x + sublayer(x))
    return x
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "loop over sublayers",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex5_shift_right",
        "code": '''def shift_right(target, start_token):
    """The decoder's input for teacher forcing.  target: (B, T) long  ->  (B, T) long"""
    start = torch.full((target.shape[0], 1), start_token, dtype=target.dtype)
    return torch.cat([start, target[:, 1:]], dim=1)
''',
        "correct": False,
        "mistake": "Drops the first target token instead of the last one.",
        "keywords": [r"first", r"\blast", r"1:|:-1|slice"],
        "kind": "slicing",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex5_shift_right",
        "code": """def shift_right(target, start_token):
    start = torch.ones(target.size(0), 1) * start_token
    return torch.cat((start, target[:, :-1]), dim=1)
""",
        "correct": False,
        "mistake": "Builds the start column as a float tensor, so the result comes back as floats instead of long token ids.",
        "keywords": [r"float", r"long|int|dtype"],
        "kind": "dtype",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex5_shift_right",
        "code": """def shift_right(target, start_token):
    shifted = target.roll(-1, dims=1)
    shifted[:, -1] = start_token
    return shifted
""",
        "correct": False,
        "mistake": "Shifts the target left and puts the start token at the end instead of shifting right with the start token in front.",
        "keywords": [r"\bleft|wrong direction|at the end", r"front|first|\bright"],
        "kind": "direction",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex5_shift_right",
        "code": '''def shift_right(target, start_token):
    """The decoder's input for teacher forcing.  target: (B, T) long  ->  (B, T) long"""
    return F.pad(target[:, :-1], (1, 0), value=start_token)
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "F.pad",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex6_greedy_decode",
        "code": '''def greedy_decode(model, src, start_token, end_token, max_len):
    """Generate with the most likely token at every step.

    src: (B, S) long  ->  tokens (B, L) long, tokens[:, 0] == start_token, L <= max_len + 1
    """
    with torch.no_grad():
        memory = model.encode(src)
        tokens = torch.full((src.shape[0], 1), start_token, dtype=torch.long, device=src.device)
        done = torch.zeros(src.shape[0], dtype=torch.bool, device=src.device)
        for _ in range(max_len):
            logits = model.decode(tokens, memory)
            nxt = logits[:, 0].argmax(dim=-1)
            nxt[done] = end_token
            tokens = torch.cat([tokens, nxt[:, None]], dim=1)
            done = done | (nxt == end_token)
            if done.all():
                break
    return tokens
''',
        "correct": False,
        "mistake": "Takes the argmax of the first position's logits instead of the last position's.",
        "keywords": [r"\blast", r"first|position 0|\[:, ?0\]"],
        "kind": "index",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex6_greedy_decode",
        "code": '''def greedy_decode(model, src, start_token, end_token, max_len):
    """Generate with the most likely token at every step.

    src: (B, S) long  ->  tokens (B, L) long, tokens[:, 0] == start_token, L <= max_len + 1
    """
    with torch.no_grad():
        memory = model.encode(src)
        tokens = torch.full((src.shape[0], 1), start_token, dtype=torch.long, device=src.device)
        done = torch.zeros(src.shape[0], dtype=torch.bool, device=src.device)
        for _ in range(max_len):
            logits = model.decode(tokens, memory)
            nxt = logits[:, -1].argmax(dim=-1)
            tokens = torch.cat([tokens, nxt[:, None]], dim=1)
            done = done | (nxt == end_token)
            if done.all():
                break
    return tokens
''',
        "correct": False,
        "mistake": "Does not keep writing end_token after a sequence has produced it: finished sequences go on generating.",
        "keywords": [r"end[_ ]token|\bend\b", r"finish|already|after"],
        "kind": "state",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex6_greedy_decode",
        "code": '''def greedy_decode(model, src, start_token, end_token, max_len):
    """Generate with the most likely token at every step.

    src: (B, S) long  ->  tokens (B, L) long, tokens[:, 0] == start_token, L <= max_len + 1
    """
    with torch.no_grad():
        memory = model.encode(src)
        tokens = torch.full((src.shape[0], 1), start_token, dtype=torch.long, device=src.device)
        done = torch.zeros(src.shape[0], dtype=torch.bool, device=src.device)
        for _ in range(max_len):
            logits = model.decode(tokens, memory)
            nxt = logits[:, -1].argmax(dim=-1)
            nxt[done] = end_token
            tokens = torch.cat([tokens, nxt[:, None]], dim=1)
            done = done | (nxt == end_token)
            if done.any():
                break
    return tokens
''',
        "correct": False,
        "mistake": "Stops as soon as any sequence has produced the end token instead of when every one has.",
        "keywords": [r"\bany\b", r"\ball\b|every"],
        "kind": "logic",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex6_greedy_decode",
        "code": '''def greedy_decode(model, src, start_token, end_token, max_len):
    """Generate with the most likely token at every step.

    src: (B, S) long  ->  tokens (B, L) long, tokens[:, 0] == start_token, L <= max_len + 1
    """
    with torch.no_grad():
        memory = model.encode(src)
        tokens = torch.full((src.shape[0], 1), start_token, dtype=torch.long, device=src.device)
        done = torch.zeros(src.shape[0], dtype=torch.bool, device=src.device)
        for _ in range(max_len - 1):
            logits = model.decode(tokens, memory)
            nxt = logits[:, -1].argmax(dim=-1)
            nxt[done] = end_token
            tokens = torch.cat([tokens, nxt[:, None]], dim=1)
            done = done | (nxt == end_token)
            if done.all():
                break
    return tokens
''',
        "correct": False,
        "mistake": "Loops max_len − 1 times, so a sequence that never ends gets one token fewer than max_len.",
        "keywords": [
            r"max_len ?- ?1|max_len ?− ?1|one (token )?(too )?few|off.by.one",
            r"range|loop",
        ],
        "kind": "off-by-one",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex6_greedy_decode",
        "code": '''def greedy_decode(model, src, start_token, end_token, max_len):
    """Generate with the most likely token at every step.

    src: (B, S) long  ->  tokens (B, L) long, tokens[:, 0] == start_token, L <= max_len + 1
    """
    with torch.no_grad():
        memory = model.encode(src)
        tokens = torch.full((src.shape[0], 1), start_token, dtype=torch.long, device=src.device)
        done = torch.zeros(src.shape[0], dtype=torch.bool, device=src.device)
        for _ in range(max_len):
            logits = model.decode(tokens, memory)
            nxt = logits[:, -1].argmax(dim=0)
            nxt[done] = end_token
            tokens = torch.cat([tokens, nxt[:, None]], dim=1)
            done = done | (nxt == end_token)
            if done.all():
                break
    return tokens
''',
        "correct": False,
        "mistake": "Takes the argmax over the batch axis (dim=0) instead of over the vocabulary.",
        "keywords": [r"dim ?= ?0|dim ?= ?-1|axis", r"vocab|batch"],
        "kind": "axis",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex6_greedy_decode",
        "code": """@torch.no_grad()
def greedy_decode(model, src, start_token, end_token, max_len):
    memory = model.encode(src)
    B = src.size(0)
    generated = [torch.full((B,), start_token, dtype=torch.long, device=src.device)]
    finished = torch.zeros(B, dtype=torch.bool, device=src.device)
    steps = 0
    while steps < max_len and not finished.all():
        logits = model.decode(torch.stack(generated, dim=1), memory)   # (B, t, V)
        best = logits[:, -1, :].argmax(dim=-1)
        best = torch.where(finished, torch.full_like(best, end_token), best)
        generated.append(best)
        finished = finished | best.eq(end_token)
        steps += 1
    return torch.stack(generated, dim=1)
""",
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "while loop, list of steps",
    },
    # ------------------------------------------------------------------ 07_warmup_scheduler
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex1_transformer_lr",
        "code": '''def transformer_lr(step, d_model=512, warmup=4000):
    """Learning rate of the original Transformer for LambdaLR's step (0 = the first update)."""
    n = step
    return d_model ** -0.5 * min(n ** -0.5, n * warmup ** -1.5)
''',
        "correct": False,
        "mistake": "Uses n = step instead of n = step + 1, so step 0 divides by zero and every later rate is one update behind.",
        "keywords": [r"step ?\+ ?1|n ?= ?step|counted from 0|from 1|off.by.one", r"zero"],
        "kind": "off-by-one",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex1_transformer_lr",
        "code": """def transformer_lr(step, d_model=512, warmup=4000):
    n = step + 1
    return d_model ** -0.5 * min(d_model ** -0.5, n * warmup ** -1.5)
""",
        "correct": False,
        "mistake": "Copies the notes' misprint, d_model^-0.5 in place of n^-0.5 inside the min, so the rate never decays after the warm-up.",
        "keywords": [r"misprint", r"n\^?-0\.5|n ?\*\* ?-0\.5|n\^−0\.5|n⁻⁰·⁵|decay", r"d_model"],
        "kind": "formula",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex1_transformer_lr",
        "code": """def transformer_lr(step, d_model=512, warmup=4000):
    n = step + 1
    return d_model ** -0.5 * max(n ** -0.5, n * warmup ** -1.5)
""",
        "correct": False,
        "mistake": "Takes the max of the two terms instead of the min, so the rate starts high and grows without bound after the warm-up.",
        "keywords": [r"\bmax\b", r"\bmin\b"],
        "kind": "function swap",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex1_transformer_lr",
        "code": '''def transformer_lr(step, d_model=512, warmup=4000):
    """Learning rate of the original Transformer for LambdaLR's step (0 = the first update)."""
    n = step + 1
    return d_model ** -0.5 * min(n ** -0.5, n * warmup ** -3/2)
''',
        "correct": False,
        "mistake": "Writes warmup ** -3/2, which Python reads as (warmup^-3)/2, not warmup^-1.5.",
        "keywords": [r"precedence|parenthes|bracket", r"-3 ?/ ?2|-1\.5|exponent"],
        "kind": "precedence",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex1_transformer_lr",
        "code": '''def transformer_lr(step, d_model=512, warmup=4000):
    """Learning rate of the original Transformer for LambdaLR's step (0 = the first update)."""
    n = step + 1  # the paper counts updates from 1
    decay = 1 / math.sqrt(n)
    ramp = n / warmup ** 1.5
    return min(decay, ramp) / math.sqrt(d_model)
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "math.sqrt",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex2_cosine_warmup",
        "code": '''def cosine_warmup(step, warmup, max_iters):
    """The learning-rate factor: cosine decay over max_iters steps, times a linear warm-up."""
    factor = math.cos(math.pi * step / max_iters)
    if step <= warmup:
        factor *= step / warmup
    return factor
''',
        "correct": False,
        "mistake": "Uses cos(πt/max_iters) alone instead of ½(1 + cos(πt/max_iters)), so the factor falls to −1 instead of 0.",
        "keywords": [r"1 ?\+ ?cos|½|0\.5|half", r"negative|-1|−1"],
        "kind": "missing term",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex2_cosine_warmup",
        "code": """def cosine_warmup(step, warmup, max_iters):
    cosine = 0.5 * (1 + math.cos(math.pi * step / max_iters))
    if step <= warmup:
        return cosine * (step // warmup)
    return cosine
""",
        "correct": False,
        "mistake": "Computes the warm-up ramp with integer division step // warmup, which is 0 for every step before the end of the warm-up.",
        "keywords": [r"//|integer division|floor", r"\b0\b|zero"],
        "kind": "python slip",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex2_cosine_warmup",
        "code": """def cosine_warmup(step, warmup, max_iters):
    ramp = min(1.0, (step + 1) / warmup)
    return ramp * 0.5 * (1 + math.cos(math.pi * step / max_iters))
""",
        "correct": False,
        "mistake": "Ramps with (step + 1)/warmup, so f(0) is not 0 and the warm-up runs one step ahead.",
        "keywords": [r"step ?\+ ?1|t ?\+ ?1", r"f\(0\)|off.by.one|one step|ahead"],
        "kind": "off-by-one",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex2_cosine_warmup",
        "code": '''def cosine_warmup(step, warmup, max_iters):
    """The learning-rate factor: cosine decay over max_iters steps, times a linear warm-up."""
    progress = max(0, step - warmup) / (max_iters - warmup)
    cosine = 0.5 * (1 + math.cos(math.pi * progress))
    return cosine * min(1.0, step / warmup)
''',
        "correct": False,
        "mistake": "Starts the cosine only after the warm-up, (t − warmup)/(max_iters − warmup), instead of running it over the whole run as t/max_iters.",
        "keywords": [
            r"warmup|warm-up",
            r"whole run|t ?/ ?max_iters|from step 0|step ?/ ?max_iters",
        ],
        "kind": "formula",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex2_cosine_warmup",
        "code": '''def cosine_warmup(step, warmup, max_iters):
    """The learning-rate factor: cosine decay over max_iters steps, times a linear warm-up."""
    if step <= warmup:
        warm = step / warmup
    else:
        warm = 1.0
    return warm * (1 + math.cos(math.pi * step / max_iters)) / 2
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "if/else",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex3_learning_rates",
        "code": '''def learning_rates(lr_lambda, base_lr, steps):
    """The learning rate each of `steps` updates uses under LambdaLR(lr_lambda)."""
    param = torch.zeros(1, requires_grad=True)
    optimizer = torch.optim.SGD([param], lr=base_lr)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lr_lambda)
    rates = []
    for _ in range(steps):
        optimizer.step()
        scheduler.step()
        rates.append(optimizer.param_groups[0]["lr"])
    return rates
''',
        "correct": False,
        "mistake": "Reads the learning rate after scheduler.step() instead of before optimizer.step(), so every entry is the next update's rate.",
        "keywords": [r"\bafter\b", r"\bbefore\b", r"next|one step|shift|late"],
        "kind": "order",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex3_learning_rates",
        "code": """def learning_rates(lr_lambda, base_lr, steps):
    p = torch.zeros(1, requires_grad=True)
    rates = []
    for _ in range(steps):
        optimizer = torch.optim.SGD([p], lr=base_lr)
        scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lr_lambda)
        rates.append(optimizer.param_groups[0]["lr"])
        optimizer.step()
        scheduler.step()
    return rates
""",
        "correct": False,
        "mistake": "Creates a new optimiser and scheduler inside the loop, so every update reads the rate of step 0.",
        "keywords": [
            r"inside the loop|every (iteration|step)|each (iteration|step)|\bnew\b|re-?creat",
            r"step 0|reset|first",
        ],
        "kind": "state",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex3_learning_rates",
        "code": """def learning_rates(lr_lambda, base_lr, steps):
    # LambdaLR sets lr = base_lr * lr_lambda(step), so no optimiser is needed
    return [lr_lambda(step) for step in range(steps)]
""",
        "correct": False,
        "mistake": "Returns the factors lr_lambda(step) without multiplying them by base_lr.",
        "keywords": [r"base_lr|base", r"multipl|factor"],
        "kind": "missing factor",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex3_learning_rates",
        "code": '''def learning_rates(lr_lambda, base_lr, steps):
    """The learning rate each of `steps` updates uses under LambdaLR(lr_lambda)."""
    weight = torch.zeros(1, requires_grad=True)
    optimizer = torch.optim.SGD([weight], lr=base_lr)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lr_lambda)
    used = []
    for _ in range(steps):
        used.append(scheduler.get_last_lr()[0])   # the rate this update is about to use
        weight.grad = torch.zeros_like(weight)
        optimizer.step()
        scheduler.step()
    return used
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "get_last_lr",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex4_accuracies",
        "code": '''def accuracies(generated, target):
    """(N, L) long tensors  ->  (share of equal tokens, share of entirely equal rows)"""
    same = generated == target
    return same.float().mean().item(), same.any(dim=1).float().mean().item()
''',
        "correct": False,
        "mistake": "Counts a row as right when any of its positions agrees (any) instead of when every position does (all).",
        "keywords": [r"\bany\b", r"\ball\b|every"],
        "kind": "logic",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex4_accuracies",
        "code": """def accuracies(generated, target):
    N = target.shape[0]
    correct = generated == target
    token = correct.sum().item() / N
    seq = correct.all(dim=1).sum().item() / N
    return token, seq
""",
        "correct": False,
        "mistake": "Divides the number of equal tokens by the number of rows N instead of by the number of tokens N·L.",
        "keywords": [
            r"N ?[·*×] ?L|numel|number of (tokens|positions)",
            r"\brows\b|\bN\b|denominator",
        ],
        "kind": "denominator",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex4_accuracies",
        "code": """def accuracies(generated, target):
    hits = (generated == target)
    token_accuracy = hits.float().mean().item()
    sequence_accuracy = hits.all(dim=0).float().mean().item()
    return token_accuracy, sequence_accuracy
""",
        "correct": False,
        "mistake": "Uses all(dim=0), whether each position is right in every row, instead of all(dim=1), whether each row is right at every position.",
        "keywords": [r"dim ?= ?0|dim ?= ?1|axis|column", r"\brows?\b"],
        "kind": "axis",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex4_accuracies",
        "code": '''def accuracies(generated, target):
    """(N, L) long tensors  ->  (share of equal tokens, share of entirely equal rows)"""
    equal = torch.eq(generated, target)
    n_rows, n_cols = equal.shape
    token_accuracy = int(equal.sum()) / (n_rows * n_cols)
    sequence_accuracy = int((equal.sum(dim=1) == n_cols).sum()) / n_rows
    return token_accuracy, sequence_accuracy
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "counting",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex5_train_step",
        "code": '''def train_step(model, src, target, start_token, optimizer, scheduler, clip=None):
    """One teacher-forced update. src (B, S), target (B, T) long  ->  the batch's loss, a float"""
    decoder_input = transformer.shift_right(target, start_token)
    logits = model(src, decoder_input)
    loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), target.reshape(-1))
    optimizer.zero_grad()
    loss.backward()
    if clip is not None:
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
    optimizer.step()
    scheduler.step()
    return loss.item()
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "reshape",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex5_train_step",
        "code": '''def train_step(model, src, target, start_token, optimizer, scheduler, clip=None):
    """One teacher-forced update. src (B, S), target (B, T) long  ->  the batch's loss, a float"""
    decoder_input = transformer.shift_right(target, start_token)
    logits = model(src, target)
    loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), target.reshape(-1))
    optimizer.zero_grad()
    loss.backward()
    if clip is not None:
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
    optimizer.step()
    scheduler.step()
    return loss.item()
''',
        "correct": False,
        "mistake": "Feeds the target itself to the decoder instead of the target shifted right with the start token in front.",
        "keywords": [r"shift", r"start|teacher|decoder input"],
        "kind": "missing step",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex5_train_step",
        "code": '''def train_step(model, src, target, start_token, optimizer, scheduler, clip=None):
    """One teacher-forced update. src (B, S), target (B, T) long  ->  the batch's loss, a float"""
    decoder_input = transformer.shift_right(target, start_token)
    logits = model(src, decoder_input)
    loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), target.reshape(-1))
    loss.backward()
    optimizer.zero_grad()
    if clip is not None:
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
    optimizer.step()
    scheduler.step()
    return loss.item()
''',
        "correct": False,
        "mistake": "Calls optimizer.zero_grad() after loss.backward(), wiping the new gradients before the update.",
        "keywords": [r"zero_grad", r"after|before|order|wip"],
        "kind": "order",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex5_train_step",
        "code": '''def train_step(model, src, target, start_token, optimizer, scheduler, clip=None):
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
        "mistake": "Clips the gradients after optimizer.step(), when the update has already used them unclipped.",
        "keywords": [r"clip", r"after|before|order|already"],
        "kind": "order",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex5_train_step",
        "code": '''def train_step(model, src, target, start_token, optimizer, scheduler, clip=None):
    """One teacher-forced update. src (B, S), target (B, T) long  ->  the batch's loss, a float"""
    decoder_input = transformer.shift_right(target, start_token)
    logits = model(src, decoder_input)
    loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), target.reshape(-1))
    optimizer.zero_grad()
    loss.backward()
    if clip is not None:
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
    optimizer.step()
    return loss.item()
''',
        "correct": False,
        "mistake": "Never calls scheduler.step(), so the learning rate stays at its first value.",
        "keywords": [r"scheduler", r"learning rate|step\(\)"],
        "kind": "missing call",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex5_train_step",
        "code": '''def train_step(model, src, target, start_token, optimizer, scheduler, clip=None):
    """One teacher-forced update. src (B, S), target (B, T) long  ->  the batch's loss, a float"""
    decoder_input = transformer.shift_right(target, start_token)
    logits = model(src, decoder_input)
    loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), target.reshape(-1))
    optimizer.zero_grad()
    loss.backward()
    if clip is not None:
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
    optimizer.step()
    scheduler.step()
    return loss
''',
        "correct": False,
        "mistake": "Returns the loss tensor instead of a Python float (loss.item()).",
        "keywords": [r"float|item", r"tensor"],
        "kind": "return type",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex5_train_step",
        "code": '''def train_step(model, src, target, start_token, optimizer, scheduler, clip=None):
    """One teacher-forced update. src (B, S), target (B, T) long  ->  the batch's loss, a float"""
    decoder_input = transformer.shift_right(target, start_token)
    logits = model(src, decoder_input)
    loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), decoder_input.reshape(-1))
    optimizer.zero_grad()
    loss.backward()
    if clip is not None:
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
    optimizer.step()
    scheduler.step()
    return loss.item()
''',
        "correct": False,
        "mistake": "Scores the logits against the shifted decoder input instead of against the target itself.",
        "keywords": [r"\btarget", r"shift|decoder input|\binput"],
        "kind": "wrong operand",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex5_train_step",
        "code": '''def train_step(model, src, target, start_token, optimizer, scheduler, clip=None):
    """One teacher-forced update. src (B, S), target (B, T) long  ->  the batch's loss, a float"""
    start = torch.full_like(target[:, :1], start_token)
    tgt_in = torch.cat([start, target[:, :-1]], dim=1)          # teacher forcing
    logits = model(src, tgt_in)                                  # (B, T, V)
    loss = F.cross_entropy(logits.flatten(0, 1), target.flatten())
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    if clip:
        nn.utils.clip_grad_norm_(model.parameters(), max_norm=clip)
    optimizer.step()
    scheduler.step()
    return float(loss.detach())
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "flatten, full_like",
    },
    # ------------------------------------------------------------------ 08_language_model
    # Rewritten on 2026-11-24 for the rewritten notebook 08 (nine answer cells), same rules.
    {
        "notebook": "08_language_model",
        "cell": "ex1_tokenizer",
        "code": '''UNKNOWN = corpus.UNKNOWN


def vocabulary(text):
    """[UNKNOWN] + the distinct characters of text, sorted."""
    return sorted(set(text) - {UNKNOWN}) + [UNKNOWN]


def encode(text, vocab):
    """str -> (len(text),) int64: each character's index in vocab, 0 if it is not there."""
    lookup = {ch: i for i, ch in enumerate(vocab)}
    return torch.tensor([lookup.get(ch, 0) for ch in text], dtype=torch.long)


def decode(ids, vocab):
    """(n,) int64 -> str: the characters vocab[i] of the indices, in order."""
    return "".join(vocab[i] for i in ids.tolist())
''',
        "correct": False,
        "mistake": "Puts UNKNOWN at the end of the vocabulary instead of first, so index 0 is an ordinary character and not the unknown one.",
        "keywords": [r"index 0|first|front|start|position 0", r"end|last|after|append"],
        "kind": "order",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex1_tokenizer",
        "code": '''UNKNOWN = corpus.UNKNOWN


def vocabulary(text):
    """[UNKNOWN] + the distinct characters of text, sorted."""
    chars = sorted(set(text))
    if UNKNOWN in chars:
        chars.remove(UNKNOWN)
    return [UNKNOWN] + chars


def encode(text, vocab):
    """str -> (len(text),) int64: each character's index in vocab, 0 if it is not there."""
    char_to_id = {}
    for i, ch in enumerate(vocab[1:]):   # UNKNOWN is the default below
        char_to_id[ch] = i
    ids = [char_to_id.get(ch, 0) for ch in text]
    return torch.tensor(ids, dtype=torch.long)


def decode(ids, vocab):
    """(n,) int64 -> str: the characters vocab[i] of the indices, in order."""
    out = ""
    for i in ids.tolist():
        out += vocab[i]
    return out
''',
        "correct": False,
        "mistake": "encode numbers the characters of vocab[1:] from 0, so every known character's index is one too small (the first one collides with UNKNOWN's 0).",
        "keywords": [
            r"one (too )?(small|low|less)|off[- ]by[- ]one|shift",
            r"vocab\[1:\]|enumerate|start(s|ing)? (at|from)|numbered from",
        ],
        "kind": "off-by-one",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex1_tokenizer",
        "code": '''UNKNOWN = corpus.UNKNOWN


def vocabulary(text):
    """[UNKNOWN] + the distinct characters of text, sorted."""
    return [UNKNOWN] + sorted({c for c in text if c != UNKNOWN})


def encode(text, vocab):
    """str -> (len(text),) int64: each character's index in vocab, 0 if it is not there."""
    index = {c: i for i, c in enumerate(vocab)}
    ids = [index[c] if c in index else 0 for c in text]
    return torch.tensor(ids, dtype=torch.int32)  # small numbers, int32 is plenty


def decode(ids, vocab):
    """(n,) int64 -> str: the characters vocab[i] of the indices, in order."""
    return "".join([vocab[int(i)] for i in ids])
''',
        "correct": False,
        "mistake": "encode returns the indices as int32 instead of torch.long (int64).",
        "keywords": [r"int32|dtype", r"long|int64"],
        "kind": "dtype",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex1_tokenizer",
        "code": '''UNKNOWN = corpus.UNKNOWN


def vocabulary(text):
    """[UNKNOWN] + the distinct characters of text, sorted."""
    vocab = [UNKNOWN]
    for ch in sorted(set(text)):
        if ch != UNKNOWN:
            vocab.append(ch)
    return vocab


def encode(text, vocab):
    """str -> (len(text),) int64: each character's index in vocab, 0 if it is not there."""
    stoi = {ch: i for i, ch in enumerate(vocab)}
    return torch.tensor([stoi.get(ch, 0) for ch in text], dtype=torch.long)


def decode(ids, vocab):
    """(n,) int64 -> str: the characters vocab[i] of the indices, in order."""
    return "".join(vocab[i] for i in ids.tolist() if i != 0)  # 0 is UNKNOWN: nothing to print
''',
        "correct": False,
        "mistake": "decode drops index 0 instead of writing UNKNOWN (�) for it, so unknown characters vanish from the decoded text.",
        "keywords": [r"UNKNOWN|�|index 0|\b0\b", r"drop|skip|vanish|omit|remov|leaves? out"],
        "kind": "extra condition",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex1_tokenizer",
        "code": '''UNKNOWN = corpus.UNKNOWN


def vocabulary(text):
    """[UNKNOWN] + the distinct characters of text, sorted."""
    distinct = set(text.replace(UNKNOWN, ""))
    return [UNKNOWN, *sorted(distinct)]


def encode(text, vocab):
    """str -> (len(text),) int64: each character's index in vocab, 0 if it is not there."""
    where = dict(zip(vocab, range(len(vocab))))
    out = torch.zeros(len(text), dtype=torch.long)  # 0 = UNKNOWN unless found below
    for pos, ch in enumerate(text):
        if ch in where:
            out[pos] = where[ch]
    return out


def decode(ids, vocab):
    """(n,) int64 -> str: the characters vocab[i] of the indices, in order."""
    return "".join(vocab[i] for i in ids)
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "str.replace, preallocated",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex2_random_windows",
        "code": '''def random_windows(data, block_size, batch_size, generator=None):
    """data (N,) -> inputs (B, T), targets (B, T): random windows and the same windows one on."""
    starts = torch.randint(len(data) - block_size, (batch_size,))
    idx = starts[:, None] + torch.arange(block_size)
    return data[idx], data[idx + 1]
''',
        "correct": False,
        "mistake": "Draws the starts without passing the generator, so they come from PyTorch's global random state and the seed given has no effect.",
        "keywords": [r"generator", r"seed|global|ignor|not passed|pass"],
        "kind": "ignored argument",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex2_random_windows",
        "code": '''def random_windows(data, block_size, batch_size, generator=None):
    """data (N,) -> inputs (B, T), targets (B, T): random windows and the same windows one on."""
    starts = torch.randint(len(data) - block_size, (batch_size,), generator=generator)
    xs, ys = [], []
    for s in starts.tolist():
        xs.append(data[s:s + block_size])
        ys.append(data[s + 1:s + block_size])
    return torch.stack(xs), torch.stack(ys)
''',
        "correct": False,
        "mistake": "Cuts each target as data[s + 1 : s + block_size], one character short: targets are (B, T - 1) and miss the last next character.",
        "keywords": [
            r"one (character )?short|T ?- ?1|block_size ?\+ ?1|off[- ]by[- ]one|last",
            r"target",
        ],
        "kind": "off-by-one",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex2_random_windows",
        "code": '''def random_windows(data, block_size, batch_size, generator=None):
    """data (N,) -> inputs (B, T), targets (B, T): random windows and the same windows one on."""
    starts = torch.randint(len(data) - block_size, (batch_size,), generator=generator)
    positions = torch.arange(block_size)[:, None] + starts   # every position of every window
    inputs = data[positions]
    targets = data[positions + 1]
    return inputs, targets
''',
        "correct": False,
        "mistake": "Builds the positions as arange(block_size)[:, None] + starts, which is (T, B), so inputs and targets come back transposed: windows down the columns instead of along the rows.",
        "keywords": [r"transpos|\(T, ?B\)|swapp", r"axis|shape|rows?|columns?"],
        "kind": "axis",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex2_random_windows",
        "code": '''def random_windows(data, block_size, batch_size, generator=None):
    """data (N,) -> inputs (B, T), targets (B, T): random windows and the same windows one on."""
    starts = torch.randint(len(data) - block_size, (batch_size,), generator=generator)
    positions = starts.unsqueeze(1) + torch.arange(block_size).unsqueeze(0)  # (B, T)
    inputs = data[positions]
    targets = data[positions] + 1   # the next character
    return inputs, targets
''',
        "correct": False,
        "mistake": "Takes the targets as data[positions] + 1, adding 1 to the character ids, instead of data[positions + 1], the characters at the next positions.",
        "keywords": [
            r"values?|ids?\b|codes?|adds? 1 to|\+ ?1",
            r"positions? ?\+ ?1|next (character|position)|index|bracket|parenthes",
        ],
        "kind": "precedence",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex2_random_windows",
        "code": '''def random_windows(data, block_size, batch_size, generator=None):
    """data (N,) -> inputs (B, T), targets (B, T): random windows and the same windows one on."""
    starts = torch.randint(len(data) - block_size, (batch_size,), generator=generator)
    chunks = data.unfold(0, block_size + 1, 1)[starts]   # (B, T + 1): a window and its next character
    return chunks[:, :-1], chunks[:, 1:]
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "unfold",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex3_multihead_module",
        "code": '''class MultiHeadAttention(nn.Module):
    """Packed multi-head attention with nn.MultiheadAttention's parameters (batch_first=True)."""

    def __init__(self, d_model, n_heads, dropout=0.0):
        super().__init__()
        assert d_model % n_heads == 0
        self.d_model = d_model
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
        q = split_heads(query @ w_q.T + b_q, self.n_heads)
        k = split_heads(key @ w_k.T + b_k, self.n_heads)
        v = split_heads(value @ w_v.T + b_v, self.n_heads)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_model)
        if mask is not None:
            scores = scores.masked_fill(~expand_mask(mask), float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        weights = F.dropout(weights, self.dropout, training=self.training)
        output = self.out_proj(merge_heads(weights @ v))
        if not need_weights:
            return output, None
        return output, weights.mean(dim=1)
''',
        "correct": False,
        "mistake": "Scales the scores by √d_model instead of by √d_head, the width of one head.",
        "keywords": [r"d_model", r"d_head|head'?s? (width|dim|size)|per head|one head"],
        "kind": "scale",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex3_multihead_module",
        "code": '''class MultiHeadAttention(nn.Module):
    """Packed multi-head attention with nn.MultiheadAttention's parameters (batch_first=True)."""

    def __init__(self, d_model, n_heads, dropout=0.0):
        super().__init__()
        self.n_heads, self.p = n_heads, dropout
        self.in_proj_weight = nn.Parameter(torch.empty(3 * d_model, d_model))
        nn.init.xavier_uniform_(self.in_proj_weight)
        self.in_proj_bias = nn.Parameter(torch.zeros(3 * d_model))
        self.out_proj = nn.Linear(d_model, d_model)
        nn.init.zeros_(self.out_proj.bias)

    def forward(self, query, key, value, mask=None, need_weights=True):
        W = self.in_proj_weight.chunk(3)
        b = self.in_proj_bias.chunk(3)
        q, k, v = (split_heads(F.linear(x, w, bias), self.n_heads)
                   for x, w, bias in zip((query, key, value), W, b))
        att = q @ k.transpose(-1, -2) / math.sqrt(q.size(-1))
        if mask is not None:
            att = att.masked_fill(expand_mask(mask) == 0, float("-inf"))
        att = F.dropout(att.softmax(-1), self.p)
        out = self.out_proj(merge_heads(att @ v))
        return out, att.mean(1) if need_weights else None
''',
        "correct": False,
        "mistake": "Calls F.dropout(weights, p) without training=self.training: F.dropout's default is training=True, so the weights are dropped in eval mode too.",
        "keywords": [r"eval|training|self\.training", r"dropout"],
        "kind": "state",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex3_multihead_module",
        "code": '''class MultiHeadAttention(nn.Module):
    """Packed multi-head attention with nn.MultiheadAttention's parameters (batch_first=True)."""

    def __init__(self, d_model, n_heads, dropout=0.0):
        super().__init__()
        self.n_heads = n_heads
        self.d_head = d_model // n_heads
        self.dropout = dropout
        self.in_proj_weight = nn.Parameter(nn.init.xavier_uniform_(torch.empty(3 * d_model, d_model)))
        self.in_proj_bias = nn.Parameter(torch.zeros(3 * d_model))
        self.out_proj = nn.Linear(d_model, d_model)
        nn.init.zeros_(self.out_proj.bias)

    def forward(self, query, key, value, mask=None, need_weights=True):
        w_q, w_k, w_v = torch.chunk(self.in_proj_weight, 3, dim=0)
        b_q, b_k, b_v = torch.chunk(self.in_proj_bias, 3, dim=0)
        q = split_heads(torch.matmul(query, w_q) + b_q, self.n_heads)
        k = split_heads(torch.matmul(key, w_k) + b_k, self.n_heads)
        v = split_heads(torch.matmul(value, w_v) + b_v, self.n_heads)
        scores = torch.matmul(q, k.transpose(-2, -1)) / self.d_head ** 0.5
        if mask is not None:
            scores = scores.masked_fill(~expand_mask(mask), -math.inf)
        weights = F.dropout(torch.softmax(scores, dim=-1), self.dropout, training=self.training)
        output = self.out_proj(merge_heads(torch.matmul(weights, v)))
        return output, (weights.mean(dim=1) if need_weights else None)
''',
        "correct": False,
        "mistake": "Projects with query @ W_q instead of query @ W_q.T: in_proj_weight's rows are PyTorch's (out, in) layout, so each third must be transposed (or used through F.linear).",
        "keywords": [
            r"transpos|\.T\b|W_?q\.T|F\.linear",
            r"layout|\(out, ?in\)|\(in, ?out\)|rows|orientation",
        ],
        "kind": "layout",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex3_multihead_module",
        "code": '''class MultiHeadAttention(nn.Module):
    """Packed multi-head attention with nn.MultiheadAttention's parameters (batch_first=True)."""

    def __init__(self, d_model, n_heads, dropout=0.0):
        super().__init__()
        self.n_heads = n_heads
        self.dropout = dropout
        self.in_proj_weight = nn.Parameter(torch.empty(3 * d_model, d_model))
        self.in_proj_bias = nn.Parameter(torch.empty(3 * d_model))
        self.out_proj = nn.Linear(d_model, d_model)
        nn.init.xavier_uniform_(self.in_proj_weight)
        nn.init.zeros_(self.in_proj_bias)
        nn.init.zeros_(self.out_proj.bias)

    def forward(self, query, key, value, mask=None, need_weights=True):
        w_q, w_k, w_v = self.in_proj_weight.chunk(3)
        b_q, b_k, b_v = self.in_proj_bias.chunk(3)
        q = split_heads(F.linear(query, w_q, b_q), self.n_heads)
        k = split_heads(F.linear(key, w_k, b_k), self.n_heads)
        v = split_heads(F.linear(value, w_v, b_v), self.n_heads)
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
        if mask is not None:
            # masked positions get -inf
            scores = scores.masked_fill(expand_mask(mask), float("-inf"))
        weights = scores.softmax(dim=-1)
        weights = F.dropout(weights, p=self.dropout, training=self.training)
        out = self.out_proj(merge_heads(weights @ v))
        if need_weights:
            return out, weights.mean(dim=1)
        return out, None
''',
        "correct": False,
        "mistake": "Fills the scores with -inf where the mask is True, but in the course's polarity True means may attend: the mask is inverted (PyTorch's polarity).",
        "keywords": [r"polarity|invert|opposite|~mask|the other way", r"True|may attend|mask"],
        "kind": "polarity",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex3_multihead_module",
        "code": '''class MultiHeadAttention(nn.Module):
    """Packed multi-head attention with nn.MultiheadAttention's parameters (batch_first=True).

    query (B, T, d_model), key and value (B, S, d_model), mask bool (T, S) or (B, T, S),
    True = may attend  ->  output (B, T, d_model), weights (B, T, S) averaged over the heads
    (None when need_weights is False)
    """

    def __init__(self, d_model, n_heads, dropout=0.0):
        super().__init__()
        self.d_model, self.n_heads, self.dropout = d_model, n_heads, dropout
        self.head_dim = d_model // n_heads
        self.in_proj_weight = nn.Parameter(nn.init.xavier_uniform_(torch.empty(3 * d_model, d_model)))
        self.in_proj_bias = nn.Parameter(torch.zeros(3 * d_model))
        self.out_proj = nn.Linear(d_model, d_model)
        with torch.no_grad():
            self.out_proj.bias.zero_()

    def _heads(self, x, which):
        rows = slice(which * self.d_model, (which + 1) * self.d_model)  # 0: q, 1: k, 2: v
        y = F.linear(x, self.in_proj_weight[rows], self.in_proj_bias[rows])
        B, L, _ = y.shape
        return y.view(B, L, self.n_heads, self.head_dim).permute(0, 2, 1, 3)

    def forward(self, query, key, value, mask=None, need_weights=True):
        q, k, v = self._heads(query, 0), self._heads(key, 1), self._heads(value, 2)
        scores = torch.einsum("bhtd,bhsd->bhts", q, k) * self.head_dim ** -0.5
        if mask is not None:
            if mask.dim() == 2:
                mask = mask[None, None]
            elif mask.dim() == 3:
                mask = mask.unsqueeze(1)
            scores = torch.where(mask, scores, scores.new_tensor(float("-inf")))
        attn = F.dropout(scores.softmax(dim=-1), p=self.dropout, training=self.training)
        out = torch.einsum("bhts,bhsd->bhtd", attn, v)
        B, H, T, d = out.shape
        out = self.out_proj(out.permute(0, 2, 1, 3).reshape(B, T, H * d))
        return out, (attn.sum(dim=1) / H if need_weights else None)
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "einsum, slices of in_proj_weight",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex4_pre_norm_block",
        "code": '''def pre_norm_block(x, attention, feed_forward_net, norm1, norm2, mask=None):
    """Pre-norm encoder block: h = x + MHA(LN1(x)), then h + FFN(LN2(h)).

    x: (B, T, d_model); mask: bool, True = may attend  ->  (B, T, d_model)
    """
    attn_out, _ = attention(norm1(x), mask=mask)
    h = x + attn_out
    return x + feed_forward_net(norm2(h))
''',
        "correct": False,
        "mistake": "Adds the feed-forward branch to the block's input x instead of to h, so the attention branch never reaches the output.",
        "keywords": [r"\bx\b|input", r"\bh\b|residual|attention (branch|output)"],
        "kind": "operand swap",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex4_pre_norm_block",
        "code": '''def pre_norm_block(x, attention, feed_forward_net, norm1, norm2, mask=None):
    """Pre-norm encoder block: h = x + MHA(LN1(x)), then h + FFN(LN2(h)).

    x: (B, T, d_model); mask: bool, True = may attend  ->  (B, T, d_model)
    """
    h = x + attention(norm1(x), mask=mask)[0]
    out = h + feed_forward_net(norm1(h))
    return out
''',
        "correct": False,
        "mistake": "Normalises the feed-forward branch's input with norm1 again instead of norm2, so norm2 is never used.",
        "keywords": [
            r"norm1|norm2|LN_?1|LN_?2|second norm|same norm",
            r"twice|shared|both|instead|never used|again",
        ],
        "kind": "operand swap",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex4_pre_norm_block",
        "code": '''def pre_norm_block(x, attention, feed_forward_net, norm1, norm2, mask=None):
    """Pre-norm encoder block: h = x + MHA(LN1(x)), then h + FFN(LN2(h)).

    x: (B, T, d_model); mask: bool, True = may attend  ->  (B, T, d_model)
    """
    a = norm1(x)
    h = x + attention(a)[0]
    f = norm2(h)
    return h + feed_forward_net(f)
''',
        "correct": False,
        "mistake": "Calls the attention without mask=mask, so the mask is ignored and every token attends to every other (padding and future ones too).",
        "keywords": [r"mask", r"ignor|never|pass|drop|not (given|passed|used)|without"],
        "kind": "ignored argument",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex4_pre_norm_block",
        "code": '''def pre_norm_block(x, attention, feed_forward_net, norm1, norm2, mask=None):
    """Pre-norm encoder block: h = x + MHA(LN1(x)), then h + FFN(LN2(h)).

    x: (B, T, d_model); mask: bool, True = may attend  ->  (B, T, d_model)
    """
    branches = ((norm1, lambda t: attention(t, mask=mask)[0]), (norm2, feed_forward_net))
    for norm, sublayer in branches:
        x = x + sublayer(norm(x))  # each branch reads a normalised copy; the stream is a plain sum
    return x
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "loop over branches",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex5_lm_logits",
        "code": '''def lm_logits(idx, token_embedding, position_embedding, blocks, final_norm):
    """idx (B, T) int64 -> logits (B, T, V), with the head tied to token_embedding."""
    B, T = idx.shape
    d_model = token_embedding.embedding_dim
    x = token_embedding(idx) * math.sqrt(d_model) + position_embedding(torch.arange(T, device=idx.device))
    mask = causal_mask(T, device=idx.device)
    for block in blocks:
        x = block(x, mask)[0]
    return final_norm(x) @ token_embedding.weight.T
''',
        "correct": False,
        "mistake": "Multiplies the token embeddings by √d_model as notebook 06's model did; here the two embeddings are simply added, unscaled.",
        "keywords": [r"sqrt|√|square root", r"scal|d_model|multipl"],
        "kind": "scale",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex5_lm_logits",
        "code": '''def lm_logits(idx, token_embedding, position_embedding, blocks, final_norm):
    """idx (B, T) int64 -> logits (B, T, V), with the head tied to token_embedding."""
    T = idx.shape[1]
    x = token_embedding(idx) + position_embedding(idx)
    mask = causal_mask(T, device=idx.device)
    for block in blocks:
        x, _ = block(x, mask)
    x = final_norm(x)
    return x @ token_embedding.weight.T
''',
        "correct": False,
        "mistake": "Looks the position embedding up at the character indices idx instead of at the positions 0 … T-1 (torch.arange(T)).",
        "keywords": [
            r"position",
            r"arange|\bidx\b|token (ids|indices)|character (ids|indices)|0 ?(…|\.\.\.?) ?T",
        ],
        "kind": "operand swap",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex5_lm_logits",
        "code": '''def lm_logits(idx, token_embedding, position_embedding, blocks, final_norm):
    """idx (B, T) int64 -> logits (B, T, V), with the head tied to token_embedding."""
    T = idx.size(1)
    pos = torch.arange(T, device=idx.device)
    x = token_embedding(idx) + position_embedding(pos)
    mask = causal_mask(T, device=idx.device)
    for block in blocks:
        x = x + block(x, mask)[0]   # residual around each block
    return final_norm(x) @ token_embedding.weight.t()
''',
        "correct": False,
        "mistake": "Adds a residual x + block(x) around every block, but each pre-norm block already adds its own residuals: the input is counted twice.",
        "keywords": [r"residual|x \+|adds? (the )?input|twice|double", r"block|already"],
        "kind": "extra term",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex5_lm_logits",
        "code": '''def lm_logits(idx, token_embedding, position_embedding, blocks, final_norm):
    """idx (B, T) int64 -> logits (B, T, V), with the head tied to token_embedding."""
    T = idx.shape[-1]
    h = token_embedding(idx) + position_embedding(torch.arange(T, device=idx.device))
    mask = causal_mask(T, device=idx.device)
    for block in blocks:
        out = block(h, mask)[0]
    return final_norm(out) @ token_embedding.weight.T
''',
        "correct": False,
        "mistake": "Every block reads the embeddings h instead of the previous block's output, so only the last block counts: the blocks are not chained.",
        "keywords": [
            r"last block|only one block|chain|previous block|embeddings",
            r"feed|pass|reads?|output|counts",
        ],
        "kind": "structure",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex5_lm_logits",
        "code": '''def lm_logits(idx, token_embedding, position_embedding, blocks, final_norm):
    """idx (B, T) int64 -> logits (B, T, V), with the head tied to token_embedding."""
    T = idx.size(1)
    positions = torch.arange(T, device=idx.device)
    E = token_embedding.weight                      # (V, d): reads characters in, scores them out
    h = E[idx] + position_embedding.weight[positions]
    mask = causal_mask(T, device=idx.device)
    for block in blocks:
        h, _ = block(h, mask)
    return F.linear(final_norm(h), E)               # = final_norm(h) @ E.T
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "weight indexing, F.linear",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex6_bits_per_character",
        "code": '''def bits_per_character(logits, targets):
    """logits (B, T, V), targets (B, T) int64 -> () mean cross-entropy in bits."""
    nats = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))
    return nats / math.log2(math.e)
''',
        "correct": False,
        "mistake": "Divides the loss in nats by log2(e) instead of by ln 2 (it should multiply by log2(e)), so the result is nats times ln 2, not bits.",
        "keywords": [
            r"log2\(e\)|log_?2 ?e|log2\(math\.e\)|1\.44|ln ?2|log\(2\)",
            r"divid|multipl|conver|bits|nats",
        ],
        "kind": "scale",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex6_bits_per_character",
        "code": '''def bits_per_character(logits, targets):
    """logits (B, T, V), targets (B, T) int64 -> () mean cross-entropy in bits."""
    V = logits.size(-1)
    probs = torch.softmax(logits, dim=-1).view(-1, V)
    return F.cross_entropy(probs, targets.view(-1)) / math.log(2)
''',
        "correct": False,
        "mistake": "Passes softmax probabilities to F.cross_entropy, which applies its own softmax: the softmax is taken twice.",
        "keywords": [r"softmax", r"twice|double|already|probabilit|raw logits"],
        "kind": "extra term",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex6_bits_per_character",
        "code": '''def bits_per_character(logits, targets):
    """logits (B, T, V), targets (B, T) int64 -> () mean cross-entropy in bits."""
    flat_logits = logits.flatten(0, 1)
    flat_targets = targets.flatten()
    loss = F.cross_entropy(flat_logits, flat_targets)
    return loss.item() / math.log(2)
''',
        "correct": False,
        "mistake": "Returns loss.item() / ln 2, a Python float, instead of a 0-d tensor: training cannot call .backward() on it.",
        "keywords": [r"item|float|python number", r"0-d|tensor|backward"],
        "kind": "return type",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex6_bits_per_character",
        "code": '''def bits_per_character(logits, targets):
    """logits (B, T, V), targets (B, T) int64 -> () mean cross-entropy in bits."""
    log_probs = torch.log_softmax(logits, dim=-1)
    picked = log_probs.gather(-1, targets.unsqueeze(-1)).squeeze(-1)   # (B, T): ln p(target)
    return -picked.mean() * math.log2(math.e)                          # nats -> bits
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "log_softmax, gather",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex7_train",
        "code": '''def train(model, optimizer, scheduler, batches, steps, evaluate=None, every=100, clip=1.0):
    """One update per step number in `steps`
    -> {"bits": [each step's loss], "held_out": [(step + 1, evaluate(model)), ...]}"""
    history = {"bits": [], "held_out": []}
    for step in steps:
        inputs, targets = batches(step)
        loss = bits_per_character(model(inputs), targets)
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        scheduler.step()
        optimizer.step()
        history["bits"].append(loss.item())
        if evaluate is not None and (step + 1) % every == 0:
            history["held_out"].append((step + 1, evaluate(model)))
    return history
''',
        "correct": False,
        "mistake": "Steps the scheduler before the optimiser, so every update uses the next step's learning rate (notebook 07's order is optimizer.step(), then scheduler.step()).",
        "keywords": [r"scheduler", r"before|order|after"],
        "kind": "order",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex7_train",
        "code": '''def train(model, optimizer, scheduler, batches, steps, evaluate=None, every=100, clip=1.0):
    """One update per step number in `steps`
    -> {"bits": [each step's loss], "held_out": [(step + 1, evaluate(model)), ...]}"""
    history = {"bits": [], "held_out": []}
    for step in steps:
        x, y = batches(step)
        loss = bits_per_character(model(x), y)
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
        "mistake": "Evaluates when step % every == 0 instead of (step + 1) % every == 0: the held-out scores come after the first update and one step early ever after.",
        "keywords": [
            r"step ?% ?every|\(step ?\+ ?1\)|off[- ]by[- ]one|one step (early|late)|first (step|update)",
            r"every|held[- ]out|evaluat",
        ],
        "kind": "off-by-one",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex7_train",
        "code": '''def train(model, optimizer, scheduler, batches, steps, evaluate=None, every=100, clip=1.0):
    """One update per step number in `steps`
    -> {"bits": [each step's loss], "held_out": [(step + 1, evaluate(model)), ...]}"""
    bits, held_out = [], []
    for step in steps:
        inputs, targets = batches(step)
        logits = model(inputs)
        loss = bits_per_character(logits, targets)
        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
        optimizer.step()
        scheduler.step()
        bits.append(loss.item())
        if evaluate is not None and (step + 1) % every == 0:
            held_out.append((step + 1, evaluate(model)))
    return {"bits": bits, "held_out": held_out}
''',
        "correct": False,
        "mistake": "Clips the gradient's norm to a fixed 1.0 instead of to the clip argument.",
        "keywords": [r"clip|max_norm", r"1\.0|ignor|fixed|argument|hard[- ]?coded"],
        "kind": "ignored argument",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex7_train",
        "code": '''def train(model, optimizer, scheduler, batches, steps, evaluate=None, every=100, clip=1.0):
    """One update per step number in `steps`
    -> {"bits": [each step's loss], "held_out": [(step + 1, evaluate(model)), ...]}"""
    history = {"bits": [], "held_out": []}
    done = 0
    for _ in steps:
        inputs, targets = batches(done)
        loss = bits_per_character(model(inputs), targets)
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        optimizer.step()
        scheduler.step()
        history["bits"].append(loss.item())
        done += 1
        if evaluate is not None and done % every == 0:
            history["held_out"].append((done, evaluate(model)))
    return history
''',
        "correct": False,
        "mistake": "Counts its own steps from 0 instead of using the step numbers it is given, so a resumed run (range(500, 1000)) draws the first batches again and labels its held-out scores from 1.",
        "keywords": [r"step numbers?|resum|range\(|own count|counter|from 0", r"batch|steps|given"],
        "kind": "ignored argument",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex7_train",
        "code": '''def train(model, optimizer, scheduler, batches, steps, evaluate=None, every=100, clip=1.0):
    """One update per step number in `steps`
    -> {"bits": [each step's loss], "held_out": [(step + 1, evaluate(model)), ...]}"""
    history = {"bits": [], "held_out": []}
    optimizer.zero_grad()
    for step in steps:
        inputs, targets = batches(step)
        loss = bits_per_character(model(inputs), targets)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        optimizer.step()
        scheduler.step()
        history["bits"].append(loss.item())
        if evaluate is not None and (step + 1) % every == 0:
            history["held_out"].append((step + 1, evaluate(model)))
    return history
''',
        "correct": False,
        "mistake": "Zeroes the gradients once, before the loop, instead of at every step, so each step's gradient is added to all the earlier ones.",
        "keywords": [
            r"zero_grad|zero(es|ing)? the grad",
            r"once|outside|accumul|every step|each step|before the loop",
        ],
        "kind": "first item only",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex7_train",
        "code": '''def train(model, optimizer, scheduler, batches, steps, evaluate=None, every=100, clip=1.0):
    """One update per step number in `steps`
    -> {"bits": [each step's loss], "held_out": [(step + 1, evaluate(model)), ...]}"""
    bits, held_out = [], []
    params = list(model.parameters())
    for step in steps:
        x, y = batches(step)
        optimizer.zero_grad(set_to_none=True)
        loss = bits_per_character(model(x), y)
        loss.backward()
        nn.utils.clip_grad_norm_(params, max_norm=clip)
        optimizer.step()
        scheduler.step()
        bits.append(float(loss))
        done = step + 1
        if evaluate is not None and not done % every:
            held_out.append((done, evaluate(model)))
    return {"bits": bits, "held_out": held_out}
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "zero_grad first, float()",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex8_sample_next",
        "code": '''def sample_next(logits, temperature=1.0, top_k=None, generator=None):
    """logits (B, V) -> (B,) int64: one character per row, greedy when temperature == 0."""
    if temperature == 0:
        return logits.argmax(dim=-1)
    logits = logits * temperature
    if top_k is not None:
        kth = torch.topk(logits, top_k, dim=-1).values[:, -1:]
        logits = logits.masked_fill(logits < kth, float("-inf"))
    probs = torch.softmax(logits, dim=-1)
    return torch.multinomial(probs, 1, generator=generator).squeeze(-1)
''',
        "correct": False,
        "mistake": "Multiplies the logits by the temperature instead of dividing by it, so a low temperature flattens the distribution and a high one sharpens it.",
        "keywords": [r"multipl|\* ?temperature|times", r"divid|/ ?temperature|invert"],
        "kind": "operand swap",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex8_sample_next",
        "code": '''def sample_next(logits, temperature=1.0, top_k=None, generator=None):
    """logits (B, V) -> (B,) int64: one character per row, greedy when temperature == 0."""
    if temperature == 0:
        return torch.argmax(logits, dim=1)
    scaled = logits / temperature
    if top_k is not None:
        ordered, _ = torch.sort(scaled, dim=1, descending=True)
        kth = ordered[:, top_k:top_k + 1]          # the k-th largest of each row
        scaled = scaled.masked_fill(scaled < kth, -float("inf"))
    probs = torch.softmax(scaled, dim=1)
    return torch.multinomial(probs, 1, generator=generator)[:, 0]
''',
        "correct": False,
        "mistake": "Takes ordered[:, top_k], the (k+1)-th largest logit, as the threshold, so top-k keeps k + 1 characters.",
        "keywords": [
            r"k ?\+ ?1|off[- ]by[- ]one|one (too )?many|top_k ?- ?1|0-based|zero-based",
            r"top[-_ ]?k|largest|threshold|keeps",
        ],
        "kind": "off-by-one",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex8_sample_next",
        "code": '''def sample_next(logits, temperature=1.0, top_k=None, generator=None):
    """logits (B, V) -> (B,) int64: one character per row, greedy when temperature == 0."""
    if temperature == 0:
        return logits.argmax(-1)
    logits = logits / temperature
    if top_k is not None:
        kth_largest = torch.topk(logits[0], top_k).values[-1]
        logits[logits < kth_largest] = float("-inf")
    probs = torch.softmax(logits, -1)
    return torch.multinomial(probs, 1, generator=generator).view(-1)
''',
        "correct": False,
        "mistake": "Computes the top-k threshold from the first row, logits[0], and applies it to every row, instead of each row's own k-th largest logit.",
        "keywords": [
            r"first row|row 0|logits\[0\]|every row|each row|per row|own row",
            r"threshold|k-th|kth|top[-_ ]?k|largest",
        ],
        "kind": "first item only",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex8_sample_next",
        "code": '''def sample_next(logits, temperature=1.0, top_k=None, generator=None):
    """logits (B, V) -> (B,) int64: one character per row, greedy when temperature == 0."""
    if temperature == 0:
        return logits.argmax(dim=-1)
    if top_k is not None:
        kth = torch.topk(logits, top_k, dim=-1).values[:, [-1]]
        logits = logits.masked_fill(logits < kth, float("-inf"))
    probs = torch.softmax(logits, dim=-1) / temperature
    return torch.multinomial(probs, 1, generator=generator).squeeze(1)
''',
        "correct": False,
        "mistake": "Divides the probabilities by the temperature after the softmax instead of the logits before it; multinomial renormalises them, so the temperature has no effect.",
        "keywords": [
            r"probabilit|after (the )?softmax|before (the )?softmax",
            r"temperature|no effect|renormali|logits",
        ],
        "kind": "order",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex8_sample_next",
        "code": '''def sample_next(logits, temperature=1.0, top_k=None, generator=None):
    """logits (B, V) -> (B,) int64: one character per row, greedy when temperature == 0."""
    if temperature == 0:
        return torch.max(logits, dim=-1).indices
    scaled = logits / temperature
    if top_k is not None:
        k = min(top_k, scaled.size(-1))
        threshold = scaled.sort(dim=-1, descending=True).values[:, k - 1].unsqueeze(-1)
        scaled = torch.where(scaled >= threshold, scaled, torch.full_like(scaled, -math.inf))
    probs = scaled.softmax(dim=-1)
    return torch.multinomial(probs, num_samples=1, generator=generator).view(-1)
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "sort, torch.where",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex9_attend_with_cache",
        "code": '''def attend_with_cache(q, k_new, v_new, cache_k, cache_v, length):
    """q, k_new, v_new (B, H, n, d); cache_k, cache_v (B, H, C, d) with `length` positions stored
    -> output (B, H, n, d); k_new and v_new written into the cache at length … length + n - 1"""
    n = q.shape[-2]
    cache_k[..., length:length + n, :] = k_new
    cache_v[..., length:length + n, :] = v_new
    k = cache_k[..., :length + n, :]
    v = cache_v[..., :length + n, :]
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if n > 1:
        allowed = torch.ones(n, length + n, dtype=torch.bool, device=q.device).tril()
        scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v
''',
        "correct": False,
        "mistake": "Makes the chunk's mask with .tril() instead of .tril(length): after stored text, query i of a chunk may see only keys 0 … i instead of 0 … p + i.",
        "keywords": [
            r"tril\(p\)|tril\(length\)|offset|diagonal",
            r"\bp\b|length|stored|earlier|prompt",
        ],
        "kind": "off-by-one",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex9_attend_with_cache",
        "code": '''def attend_with_cache(q, k_new, v_new, cache_k, cache_v, length):
    """q, k_new, v_new (B, H, n, d); cache_k, cache_v (B, H, C, d) with `length` positions stored
    -> output (B, H, n, d); k_new and v_new written into the cache at length … length + n - 1"""
    n = k_new.shape[2]
    cache_k = torch.cat([cache_k[:, :, :length], k_new], dim=2)   # the keys so far and the new ones
    cache_v = torch.cat([cache_v[:, :, :length], v_new], dim=2)
    scores = q @ cache_k.transpose(2, 3) / math.sqrt(q.shape[3])
    if n > 1:
        mask = torch.ones(n, length + n, dtype=torch.bool).tril(length)
        scores = scores.masked_fill(~mask, float("-inf"))
    return scores.softmax(dim=3) @ cache_v
''',
        "correct": False,
        "mistake": "Builds new tensors with torch.cat and rebinds the names instead of writing k_new and v_new into the cache in place, so the caller's cache never receives them and later calls read what was left there.",
        "keywords": [r"in place|in-place|torch\.cat|rebind|new tensor|copy", r"cache|writ"],
        "kind": "in-place",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex9_attend_with_cache",
        "code": '''def attend_with_cache(q, k_new, v_new, cache_k, cache_v, length):
    """q, k_new, v_new (B, H, n, d); cache_k, cache_v (B, H, C, d) with `length` positions stored
    -> output (B, H, n, d); k_new and v_new written into the cache at length … length + n - 1"""
    p, n, d = length, q.size(-2), q.size(-1)
    cache_k[..., p:p + n, :] = k_new
    cache_v[..., p:p + n, :] = v_new
    keys, values = cache_k[..., :p + n, :], cache_v[..., :p + n, :]
    scores = q @ keys.transpose(-2, -1) / d
    if n > 1:
        may = torch.ones(n, p + n, dtype=torch.bool, device=q.device).tril(p)
        scores = scores.masked_fill(~may, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
''',
        "correct": False,
        "mistake": "Divides the scores by d instead of by √d.",
        "keywords": [r"sqrt|√|square root", r"\bd\b|scal|head"],
        "kind": "scale",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex9_attend_with_cache",
        "code": '''def attend_with_cache(q, k_new, v_new, cache_k, cache_v, length):
    """q, k_new, v_new (B, H, n, d); cache_k, cache_v (B, H, C, d) with `length` positions stored
    -> output (B, H, n, d); k_new and v_new written into the cache at length … length + n - 1"""
    n = q.shape[-2]
    total = length + n
    cache_k[:, :, length:total] = k_new
    cache_v[:, :, length:total] = v_new
    scores = q @ cache_k[:, :, :total].transpose(-2, -1) / q.shape[-1] ** 0.5
    if n > 1:
        keep = torch.ones(n, total, dtype=torch.bool, device=q.device).tril(length)
        scores = scores.masked_fill(keep.logical_not(), float("-inf"))
    weights = scores.softmax(dim=-2)
    return weights @ cache_v[:, :, :total]
''',
        "correct": False,
        "mistake": "Takes the softmax over dim=-2, the new queries, instead of over the keys (the last axis); a single new character then gives weight 1 to every stored key.",
        "keywords": [r"dim ?= ?-2|axis|dimension|dim", r"softmax|keys|queries"],
        "kind": "axis",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex9_attend_with_cache",
        "code": '''def attend_with_cache(q, k_new, v_new, cache_k, cache_v, length):
    """q, k_new, v_new (B, H, n, d); cache_k, cache_v (B, H, C, d) with `length` positions stored
    -> output (B, H, n, d); k_new and v_new written into the cache at length … length + n - 1"""
    n = k_new.size(-2)
    end = length + n
    cache_k[..., length:end, :].copy_(k_new)
    cache_v[..., length:end, :].copy_(v_new)
    keys, values = cache_k[..., :end, :], cache_v[..., :end, :]
    scores = torch.einsum("bhnd,bhsd->bhns", q, keys) / math.sqrt(q.size(-1))
    query_pos = torch.arange(length, end, device=q.device)    # absolute positions of the new characters
    key_pos = torch.arange(end, device=q.device)
    future = key_pos[None, :] > query_pos[:, None]
    scores = scores.masked_fill(future, float("-inf"))
    return torch.einsum("bhns,bhsd->bhnd", scores.softmax(dim=-1), values)
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "einsum, absolute positions",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex9_attend_with_cache",
        "code": '''def attend_with_cache(q, k_new, v_new, cache_k, cache_v, length):
    """q, k_new, v_new (B, H, n, d); cache_k, cache_v (B, H, C, d) with `length` positions stored
    -> output (B, H, n, d); k_new and v_new written into the cache at length … length + n - 1"""
    n, d = q.shape[-2], q.shape[-1]
    cache_k[..., length:length + n, :] = k_new
    cache_v[..., length:length + n, :] = v_new
    outputs = []
    for i in range(n):  # new character i sits at position length + i: it sees keys 0 … length + i
        seen = length + i + 1
        scores = q[..., i:i + 1, :] @ cache_k[..., :seen, :].transpose(-2, -1) / math.sqrt(d)
        outputs.append(torch.softmax(scores, dim=-1) @ cache_v[..., :seen, :])
    return torch.cat(outputs, dim=-2)
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "loop over the new queries",
    },
]
