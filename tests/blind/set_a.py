"""Blind answer set A: answers written as students would, to measure the grader.

Written blind (see tests/blind/README.md): from the student release notebooks in
notebooks/, their visible check cells (for signatures only) and the helper package, without
reading the solutions, the hidden tests, the misconceptions, the checking code or the
autograder. Data only.

Each entry replaces one answer cell (nbgrader grade_id ``cell``) of ``notebook``; the other
answer cells are taken as correct. ``correct`` answers should earn full marks. Every other
answer is right but for one mistake, described in ``mistake``; any correct description of
that mistake contains a match (case-insensitive) of at least one of the ``keywords``
regular expressions. ``kind`` is a short class of the mistake.
"""

# ruff: noqa: E501 - the answers are students' cells and the descriptions are prose, kept whole

ANSWERS = [
    # ------------------------------------------------------------------ 01_vector_attention
    {
        "notebook": "01_vector_attention",
        "cell": "ex1_project",
        "code": r'''def project(W, b, x):
    """Return the column W x + b.

    W: (D_out, D_in), b: (D_out, 1), x: (D_in, 1)  ->  (D_out, 1)
    """
    return W.T @ x + b
''',
        "correct": False,
        "mistake": "Multiplies by the transpose of W: W is stored (D_out, D_in), so the product is W x, not Wᵀ x.",
        "keywords": [r"transpos", r"W\.T|Wᵀ|W\^T", r"\(in, out\)|\(out, in\)|orientation"],
        "kind": "layout",
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex1_project",
        "code": r'''def project(W, b, x):
    """Return the column W x + b.

    W: (D_out, D_in), b: (D_out, 1), x: (D_in, 1)  ->  (D_out, 1)
    """
    # YOUR CODE HERE
    out = torch.matmul(W, x)
    return out
''',
        "correct": False,
        "mistake": "Leaves out the bias: returns W x instead of W x + b.",
        "keywords": [r"bias", r"leaves? out (the )?b\b|without (the )?b\b|forg[eo]t\w* (the )?b\b"],
        "kind": "missing term",
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex1_project",
        "code": r'''def project(W, b, x):
    """Return the column W x + b.

    W: (D_out, D_in), b: (D_out, 1), x: (D_in, 1)  ->  (D_out, 1)
    """
    # multiply the weights by the input and add the bias
    return (W * x.T).sum(dim=0, keepdim=True).T + b
''',
        "correct": False,
        "mistake": "Sums the products W[i, j] x[j] over the output index i (dim=0) instead of over the input index j, so it computes the wrong contraction (it is not the matrix product W x).",
        "keywords": [
            r"dim ?= ?0|wrong (axis|dimension|index)|output index|contraction|summ?(ed|s|ing)? over (the )?(rows|outputs?)",
            r"transpos|Wᵀ|W\.T",
        ],
        "kind": "axis",
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex1_project",
        "code": r'''def project(W, b, x):
    """Return the column W x + b.

    W: (D_out, D_in), b: (D_out, 1), x: (D_in, 1)  ->  (D_out, 1)
    """
    # addmm computes b + W @ x in one call
    return torch.addmm(b, W, x)
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex2_score",
        "code": r'''def score(q, k):
    """Return the scaled dot product q·k / √D as a 0-d tensor.

    q, k: (D, 1)  ->  ()
    """
    D = q.shape[0]
    return (q.T @ k).squeeze() / D
''',
        "correct": False,
        "mistake": "Divides the dot product by D instead of by √D.",
        "keywords": [r"sqrt|½", r"√", r"square root", r"\*\* ?0\.5", r"\^ ?0\.5"],
        "kind": "scale",
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex2_score",
        "code": r'''def score(q, k):
    """Return the scaled dot product q·k / √D as a 0-d tensor.

    q, k: (D, 1)  ->  ()
    """
    # YOUR CODE HERE
    return (q.T @ k).squeeze() / math.sqrt(q.shape[1])
''',
        "correct": False,
        "mistake": "Takes the square root of q.shape[1], which is 1 for a column, so the score is not scaled at all; D is q.shape[0].",
        "keywords": [
            r"shape\[1\]",
            r"no scaling|not scaled|unscaled|without (the )?(1 ?/ ?)?(√|sqrt|scal)|plain dot product|√ ?1\b|sqrt\(1\)|square root of 1",
        ],
        "kind": "scale",
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex2_score",
        "code": r'''def score(q, k):
    """Return the scaled dot product q·k / √D as a 0-d tensor.

    q, k: (D, 1)  ->  ()
    """
    D = q.numel()
    dot = (q * k).sum()
    return dot / D ** 1/2
''',
        "correct": False,
        "mistake": "Operator precedence: D ** 1/2 is (D ** 1) / 2 = D/2, and dividing by it multiplies by 2/D; the dot product should be divided by √D (D ** 0.5).",
        "keywords": [r"precedence|parenthes|bracket", r"D ?/ ?2|\bhalf\b|2 ?/ ?D|\*\* ?1 ?/ ?2"],
        "kind": "precedence",
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex2_score",
        "code": r'''def score(q, k):
    """Return the scaled dot product q·k / √D as a 0-d tensor.

    q, k: (D, 1)  ->  ()
    """
    return torch.dot(q.flatten(), k.flatten()) / math.sqrt(q.numel())
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex3_softmax",
        "code": r'''def softmax(z):
    """Numerically stable softmax of a 1-D tensor.

    z: (m,)  ->  (m,), positive, sums to 1
    """
    e = torch.exp(z)
    return e / e.sum()
''',
        "correct": False,
        "mistake": "Does not subtract the maximum before exponentiating, so large scores overflow to inf and give NaN.",
        "keywords": [
            r"(subtract|shift)\w*.{0,30}max|max\w*.{0,30}(subtract|shift)|without (the )?(max|shift)|no shift",
            r"overflow|\bnan\b|\binf|unstable|stabil",
        ],
        "kind": "missing term",
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex3_softmax",
        "code": r'''def softmax(z):
    """Numerically stable softmax of a 1-D tensor.

    z: (m,)  ->  (m,), positive, sums to 1
    """
    # shift the scores so that they start at 0
    shifted = z - z.min()
    e = torch.exp(shifted)
    return e / e.sum()
''',
        "correct": False,
        "mistake": "Subtracts the minimum instead of the maximum, so scores that are far apart still overflow (inf/inf = NaN).",
        "keywords": [r"\bmin(imum)?\b", r"amin", r"\.min\("],
        "kind": "function swap",
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex3_softmax",
        "code": r'''def softmax(z):
    """Numerically stable softmax of a 1-D tensor.

    z: (m,)  ->  (m,), positive, sums to 1
    """
    # YOUR CODE HERE
    m = z.max()
    return torch.exp(z - m) / torch.exp(z).sum()
''',
        "correct": False,
        "mistake": "Shifts the numerator by the maximum but not the denominator, so the result is off by a factor e^(-max) (and the denominator still overflows).",
        "keywords": [r"numerator", r"denominator", r"bottom", r"both"],
        "kind": "missing term",
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex3_softmax",
        "code": r'''def softmax(z):
    """Numerically stable softmax of a 1-D tensor.

    z: (m,)  ->  (m,), positive, sums to 1
    """
    exps = torch.exp(z - z.max())
    return exps / exps.max()
''',
        "correct": False,
        "mistake": "Normalises by the largest exponential instead of the sum of the exponentials, so the weights do not sum to 1.",
        "keywords": [
            r"(by|with) (the )?(max|largest|maximum|amax)|sums? to (1|one)",
            r"\.max\(\)",
            r"amax",
            r"instead of (the )?sum",
            r"not (the )?sum",
        ],
        "kind": "function swap",
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex3_softmax",
        "code": r'''def softmax(z):
    """Numerically stable softmax of a 1-D tensor.

    z: (m,)  ->  (m,), positive, sums to 1
    """
    # exp(z - logsumexp(z)) is the softmax, and logsumexp is computed stably
    return torch.exp(z - torch.logsumexp(z, dim=0))
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex3_softmax",
        "code": r'''def softmax(z):
    """Numerically stable softmax of a 1-D tensor.

    z: (m,)  ->  (m,), positive, sums to 1
    """
    biggest = max(z.tolist())
    exps = [math.exp(v - biggest) for v in z.tolist()]
    total = sum(exps)
    return torch.tensor([e / total for e in exps], dtype=z.dtype)
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex4_attention_weights",
        "code": r'''def attention_weights(queries, keys):
    """Row n: softmax over the keys of the scores of query n.

    queries: list of N_q columns (D, 1); keys: list of N_k columns (D, 1)  ->  (N_q, N_k)
    """
    scores = torch.stack([torch.stack([score(q, k) for k in keys]) for q in queries])
    # normalise every column
    return torch.stack([softmax(scores[:, j]) for j in range(scores.shape[1])], dim=1)
''',
        "correct": False,
        "mistake": "Applies the softmax down each column (over the queries) instead of along each row (over the keys), so the rows do not sum to 1.",
        "keywords": [r"column", r"dim ?= ?0", r"over the queries"],
        "kind": "axis",
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex4_attention_weights",
        "code": r'''def attention_weights(queries, keys):
    """Row n: softmax over the keys of the scores of query n.

    queries: list of N_q columns (D, 1); keys: list of N_k columns (D, 1)  ->  (N_q, N_k)
    """
    rows = []
    for q in queries:
        s = torch.stack([(q.T @ k).squeeze() for k in keys])
        rows.append(softmax(s))
    return torch.stack(rows)
''',
        "correct": False,
        "mistake": "Scores with the plain dot product q·k, without dividing by √D.",
        "keywords": [r"sqrt|plain dot product", r"√", r"square root", r"scal", r"unscaled"],
        "kind": "scale",
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex4_attention_weights",
        "code": r'''def attention_weights(queries, keys):
    """Row n: softmax over the keys of the scores of query n.

    queries: list of N_q columns (D, 1); keys: list of N_k columns (D, 1)  ->  (N_q, N_k)
    """
    # YOUR CODE HERE
    weights_per_query = []
    for q in queries:
        row = torch.stack([score(q, k) for k in keys])
        weights_per_query.append(softmax(row))
    return torch.stack(weights_per_query, dim=1)
''',
        "correct": False,
        "mistake": "Stacks each query's weights as a column (dim=1), so the result is transposed: (N_keys, N_queries) with the queries along the columns.",
        "keywords": [
            r"transpos",
            r"\(N_k, N_q\)",
            r"\(N_keys, N_queries\)",
            r"dim ?= ?1",
            r"as (a )?columns?",
        ],
        "kind": "axis",
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex4_attention_weights",
        "code": r'''def attention_weights(queries, keys):
    """Row n: softmax over the keys of the scores of query n.

    queries: list of N_q columns (D, 1); keys: list of N_k columns (D, 1)  ->  (N_q, N_k)
    """
    Q = torch.cat(queries, dim=1).T  # (N_q, D): one query per row
    K = torch.cat(keys, dim=1).T  # (N_k, D)
    S = Q @ K.T / math.sqrt(Q.shape[1])
    return torch.stack([softmax(row) for row in S])
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex5_weighted_sum",
        "code": r'''def weighted_sum(weights, values):
    """Return the sum over m of weights[m] * values[m].

    weights: (N,); values: list of N columns (D_v, 1)  ->  (D_v, 1)
    """
    terms = torch.stack([w * v for w, v in zip(weights, values)])
    return terms.mean(dim=0)
''',
        "correct": False,
        "mistake": "Takes the mean of the weighted values instead of their sum, so the result is N times too small.",
        "keywords": [r"mean", r"average", r"divid\w* by N", r"N times"],
        "kind": "function swap",
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex5_weighted_sum",
        "code": r'''def weighted_sum(weights, values):
    """Return the sum over m of weights[m] * values[m].

    weights: (N,); values: list of N columns (D_v, 1)  ->  (D_v, 1)
    """
    # YOUR CODE HERE
    out = weights[0] * values[0]
    for m in range(1, len(values) - 1):
        out = out + weights[m] * values[m]
    return out
''',
        "correct": False,
        "mistake": "Off-by-one in the loop: range(1, len(values) - 1) leaves out the last value's term.",
        "keywords": [
            r"off.by.one",
            r"range",
            r"last (value|term|one)",
            r"len\(values\) ?- ?1",
            r"one term (too )?(few|short)",
        ],
        "kind": "off-by-one",
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex5_weighted_sum",
        "code": r'''def weighted_sum(weights, values):
    """Return the sum over m of weights[m] * values[m].

    weights: (N,); values: list of N columns (D_v, 1)  ->  (D_v, 1)
    """
    V = torch.cat(values, dim=1)  # (D_v, N): the values side by side
    return V @ weights.reshape(-1, 1).to(V.dtype)
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex6_self_attention",
        "code": r'''def self_attention(xs, W_q, b_q, W_k, b_k, W_v, b_v):
    """Self-attention over a list of input columns, one token at a time.

    xs: list of N columns (D_in, 1); W_*: (D_out, D_in); b_*: (D_out, 1)
    ->  list of N output columns (D_out, 1)
    """
    queries = [project(W_q, b_q, x) for x in xs]
    keys = [project(W_k, b_k, x) for x in xs]
    values = [project(W_k, b_v, x) for x in xs]
    weights = attention_weights(queries, keys)
    return [weighted_sum(weights[n], values) for n in range(len(xs))]
''',
        "correct": False,
        "mistake": "Makes the values with the key weights W_k instead of W_v.",
        "keywords": [r"W_k", r"key (weight|matrix|map|projection)"],
        "kind": "operand swap",
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex6_self_attention",
        "code": r'''def self_attention(xs, W_q, b_q, W_k, b_k, W_v, b_v):
    """Self-attention over a list of input columns, one token at a time.

    xs: list of N columns (D_in, 1); W_*: (D_out, D_in); b_*: (D_out, 1)
    ->  list of N output columns (D_out, 1)
    """
    # YOUR CODE HERE
    qs = [project(W_q, b_q, x) for x in xs]
    ks = [project(W_k, b_k, x) for x in xs]
    vs = [project(W_v, b_v, x) for x in xs]
    A = attention_weights(qs, ks)
    outputs = []
    for n in range(len(xs)):
        outputs.append(weighted_sum(A[:, n], vs))
    return outputs
''',
        "correct": False,
        "mistake": "Uses column n of the weight matrix (how much every query attends to token n) instead of row n (token n's own weights over the keys).",
        "keywords": [r"column", r"transpos", r"\[:, ?n\]"],
        "kind": "axis",
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex6_self_attention",
        "code": r'''def self_attention(xs, W_q, b_q, W_k, b_k, W_v, b_v):
    """Self-attention over a list of input columns, one token at a time.

    xs: list of N columns (D_in, 1); W_*: (D_out, D_in); b_*: (D_out, 1)
    ->  list of N output columns (D_out, 1)
    """
    queries = [W_q @ x + b_q for x in xs]
    keys = [W_k @ x + b_k for x in xs]
    values = [W_v @ x + b_v for x in xs]
    D = xs[0].shape[0]  # length of the vectors
    outputs = []
    for q in queries:
        s = torch.stack([(q * k).sum() / math.sqrt(D) for k in keys])
        w = softmax(s)
        outputs.append(sum(w[m] * values[m] for m in range(len(values))))
    return outputs
''',
        "correct": False,
        "mistake": "Divides the scores by the square root of the inputs' length D_in instead of the length of the queries and keys, D_out.",
        "keywords": [
            r"D_in|wrong (length|dimension|size)",
            r"inputs?('s|s')? (length|size|width|dimension)",
            r"xs\[0\]",
            r"x\.shape",
            r"length of (the )?(inputs?|x)",
        ],
        "kind": "scale",
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
    weights = attention_weights(qs, ks)
    return [weighted_sum(weights[n], xs) for n in range(len(xs))]
''',
        "correct": False,
        "mistake": "Mixes the raw inputs xs instead of the values v_n = W_v x_n + b_v (the value map is never applied).",
        "keywords": [
            r"raw|value (map|projection|weights)",
            r"\bxs\b|never applied",
            r"inputs? (instead|rather)|not projected",
            r"without (the )?values?|unprojected",
            r"W_v",
        ],
        "kind": "missing term",
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex6_self_attention",
        "code": r'''def self_attention(xs, W_q, b_q, W_k, b_k, W_v, b_v):
    """Self-attention over a list of input columns, one token at a time.

    xs: list of N columns (D_in, 1); W_*: (D_out, D_in); b_*: (D_out, 1)
    ->  list of N output columns (D_out, 1)
    """
    X = torch.cat(xs, dim=1).T  # (N, D_in): tokens as rows
    Q = X @ W_q.T + b_q.T
    K = X @ W_k.T + b_k.T
    V = X @ W_v.T + b_v.T
    A = torch.softmax(Q @ K.T / math.sqrt(Q.shape[1]), dim=-1)  # row n: weights of query n
    out = A @ V  # (N, D_out)
    return [row.reshape(-1, 1) for row in out]
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
    },
    # ------------------------------------------------------------------ 02_matrix_attention
    {
        "notebook": "02_matrix_attention",
        "cell": "ex1_softmax_cols",
        "code": r'''def softmax_cols(S):
    """Softmax of each column of S, computed without overflow.

    S: (M, N)  ->  (M, N), every column positive and summing to 1
    """
    e = torch.exp(S - S.amax(dim=1, keepdim=True))
    return e / e.sum(dim=1, keepdim=True)
''',
        "correct": False,
        "mistake": "Takes the softmax along each row (dim=1) instead of down each column (dim=0).",
        "keywords": [r"rows?\b", r"dim ?= ?-?1", r"last (axis|dim)"],
        "kind": "axis",
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex1_softmax_cols",
        "code": r'''def softmax_cols(S):
    """Softmax of each column of S, computed without overflow.

    S: (M, N)  ->  (M, N), every column positive and summing to 1
    """
    # YOUR CODE HERE
    exps = torch.exp(S - S.max())
    return exps / exps.sum(dim=0, keepdim=True)
''',
        "correct": False,
        "mistake": "Subtracts the largest entry of the whole matrix rather than each column's own maximum, so a column far below the global maximum underflows to all zeros and gives 0/0 = NaN.",
        "keywords": [
            r"whole|global|entire|overall|S\.max\(\)|all entries|single max",
            r"per column|each column|column's|every column|column-?wise",
        ],
        "kind": "axis",
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex1_softmax_cols",
        "code": r'''def softmax_cols(S):
    """Softmax of each column of S, computed without overflow.

    S: (M, N)  ->  (M, N), every column positive and summing to 1
    """
    shift = S.max(dim=0, keepdim=True).values
    e = torch.exp(S - shift)
    return e / e.sum(dim=-1, keepdim=True)
''',
        "correct": False,
        "mistake": "Subtracts each column's maximum correctly but divides by the row sums (dim=-1) instead of the column sums, so the columns do not sum to 1.",
        "keywords": [r"rows?\b", r"dim ?= ?-?1", r"last (axis|dim)"],
        "kind": "axis",
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex1_softmax_cols",
        "code": r'''def softmax_cols(S):
    """Softmax of each column of S, computed without overflow.

    S: (M, N)  ->  (M, N), every column positive and summing to 1
    """
    # log-sum-exp of every column, computed stably by PyTorch
    return torch.exp(S - torch.logsumexp(S, dim=0, keepdim=True))
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex1_softmax_cols",
        "code": r'''def softmax_cols(S):
    """Softmax of each column of S, computed without overflow.

    S: (M, N)  ->  (M, N), every column positive and summing to 1
    """
    out = torch.empty_like(S)
    for j in range(S.shape[1]):
        col = S[:, j]
        e = torch.exp(col - col.max())
        out[:, j] = e / e.sum()
    return out
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
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
    A = softmax_cols(Q.T @ K / math.sqrt(K.shape[0]))
    return V @ A
''',
        "correct": False,
        "mistake": "Computes the scores as QᵀK instead of KᵀQ: the score matrix is transposed, so column n holds the scores of key n rather than of query n.",
        "keywords": [r"transpos", r"QᵀK", r"Q\.T ?@ ?K", r"Q\^T ?K", r"Q\.T\b"],
        "kind": "layout",
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex2_self_attention_cols",
        "code": r'''def self_attention_cols(X, W_q, b_q, W_k, b_k, W_v, b_v):
    """Self-attention with tokens as the columns of X.

    X: (D_in, N); W_*: (D_out, D_in); b_*: (D_out, 1)  ->  (D_out, N)
    """
    # YOUR CODE HERE
    Q = W_q @ X + b_q
    K = W_k @ X + b_k
    V = W_v @ X + b_v
    N = X.shape[1]
    return V @ softmax_cols(K.T @ Q / math.sqrt(N))
''',
        "correct": False,
        "mistake": "Scales the scores by √N, the square root of the number of tokens, instead of √d_k, the length of a key.",
        "keywords": [
            r"\bN\b|shape\[1\]",
            r"number of tokens",
            r"tokens",
            r"sequence length",
            r"columns of X",
        ],
        "kind": "scale",
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex2_self_attention_cols",
        "code": r'''def self_attention_cols(X, W_q, b_q, W_k, b_k, W_v, b_v):
    """Self-attention with tokens as the columns of X.

    X: (D_in, N); W_*: (D_out, D_in); b_*: (D_out, 1)  ->  (D_out, N)
    """
    Q = W_q @ X
    K = W_k @ X + b_k
    V = W_v @ X + b_v
    d_k = K.shape[0]
    return V @ softmax_cols((K.T @ Q) / math.sqrt(d_k))
''',
        "correct": False,
        "mistake": "Leaves out the query bias b_q, so the queries are W_q X instead of W_q X + b_q.",
        "keywords": [r"b_q", r"bias"],
        "kind": "missing term",
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex2_self_attention_cols",
        "code": r'''def self_attention_cols(X, W_q, b_q, W_k, b_k, W_v, b_v):
    """Self-attention with tokens as the columns of X.

    X: (D_in, N); W_*: (D_out, D_in); b_*: (D_out, 1)  ->  (D_out, N)
    """
    Q, K, V = (W @ X + b for W, b in ((W_q, b_q), (W_k, b_k), (W_v, b_v)))
    scores = K.T @ Q / K.shape[0] ** 0.5
    return V @ torch.softmax(scores, dim=1)
''',
        "correct": False,
        "mistake": "Applies the softmax along each row (dim=1) of KᵀQ, although with tokens as columns each query's scores are a column (dim=0).",
        "keywords": [r"rows?\b", r"dim ?= ?-?1", r"last (axis|dim)"],
        "kind": "axis",
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex2_self_attention_cols",
        "code": r'''def self_attention_cols(X, W_q, b_q, W_k, b_k, W_v, b_v):
    """Self-attention with tokens as the columns of X.

    X: (D_in, N); W_*: (D_out, D_in); b_*: (D_out, 1)  ->  (D_out, N)
    """
    Q = torch.einsum("oi,in->on", W_q, X) + b_q
    K = torch.einsum("oi,in->on", W_k, X) + b_k
    V = torch.einsum("oi,in->on", W_v, X) + b_v
    S = torch.einsum("dm,dn->mn", K, Q) / math.sqrt(Q.shape[0])  # S[m, n] = k_m · q_n
    A = torch.softmax(S, dim=0)  # each query owns a column
    return torch.einsum("dm,mn->dn", V, A)
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
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
    scores = Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1])
    if mask is not None:
        scores = scores.masked_fill(mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    return weights @ V, weights
''',
        "correct": False,
        "mistake": "Mask polarity reversed: fills −∞ where the mask is True (allowed) instead of where it is False, so queries attend only to the forbidden keys.",
        "keywords": [
            r"polarity|negat",
            r"invert|~ ?mask",
            r"flip|wrong way",
            r"revers|where (the mask is )?true",
            r"opposite",
        ],
        "kind": "polarity",
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
    # YOUR CODE HERE
    d_k = Q.shape[-1]
    scores = Q @ K.transpose(-2, -1) / math.sqrt(d_k)
    if mask is not None:
        scores = scores.masked_fill(~mask, 0.0)
    weights = torch.softmax(scores, dim=-1)
    output = weights @ V
    return output, weights
''',
        "correct": False,
        "mistake": "Gives the masked scores the value 0 instead of −∞, so masked keys still receive weight (e⁰ = 1) after the softmax.",
        "keywords": [r"-inf|\b(to|with|value) 0\b", r"−∞|zero", r"-∞", r"infinit", r"minus inf"],
        "kind": "wrong constant",
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
    scores = Q @ K.transpose(-2, -1) / math.sqrt(K.shape[-1])
    weights = torch.softmax(scores, dim=-1)
    if mask is not None:
        weights = weights.masked_fill(~mask, 0.0)  # no weight on forbidden keys
    return weights @ V, weights
''',
        "correct": False,
        "mistake": "Applies the mask after the softmax, zeroing the forbidden weights without renormalising, so each row no longer sums to 1; the mask must set the scores to −∞ before the softmax.",
        "keywords": [
            r"after (the )?softmax",
            r"before (the )?softmax",
            r"renormali",
            r"sums? to (1|one)",
            r"no longer sum",
        ],
        "kind": "order",
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
    scale = math.sqrt(V.shape[-1])
    scores = Q @ K.transpose(-2, -1) / scale
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    return weights @ V, weights
''',
        "correct": False,
        "mistake": "Divides the scores by √d_v, the width of the values, instead of √d_k, the width of the queries and keys.",
        "keywords": [r"d_v", r"V\.shape", r"width of the values", r"value (width|size|dimension)"],
        "kind": "scale",
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
    scores = torch.matmul(Q, K.transpose(-2, -1)) / math.sqrt(Q.size(-1))
    if mask is not None:
        scores = scores.masked_fill(mask == False, float("-inf"))  # noqa: E712
    attn = torch.softmax(scores, dim=-1)
    return attn, attn @ V
''',
        "correct": False,
        "mistake": "Returns the pair in the wrong order, (weights, output) instead of (output, weights).",
        "keywords": [
            r"\(weights, ?output\)",
            r"wrong order",
            r"swap",
            r"revers",
            r"other way round",
        ],
        "kind": "structure",
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
    scores = Q @ K.T / math.sqrt(Q.shape[-1])
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    return weights @ V, weights
''',
        "correct": False,
        "mistake": "Uses K.T, which reverses all the axes of a batched K, instead of K.transpose(-2, -1); it only works without batch dimensions.",
        "keywords": [
            r"K\.T\b|every axis",
            r"\.T\b|last two",
            r"transpose\(-2, ?-1\)",
            r"\.mT",
            r"all (the )?axes",
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
    scores = torch.einsum("...td,...sd->...ts", Q, K) / math.sqrt(Q.shape[-1])
    if mask is not None:
        scores = torch.where(mask, scores, torch.full_like(scores, float("-inf")))
    scores = scores - scores.amax(dim=-1, keepdim=True)
    weights = scores.exp()
    weights = weights / weights.sum(dim=-1, keepdim=True)
    output = torch.einsum("...ts,...sv->...tv", weights, V)
    return output, weights
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
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
    scores = (Q / math.sqrt(Q.shape[-1])) @ K.mT  # mT: the last two axes swapped
    if mask is not None:
        scores = scores.masked_fill(mask.logical_not(), -math.inf)
    weights = F.softmax(scores, dim=-1)
    return torch.matmul(weights, V), weights
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
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
        "mistake": "Off by one: compares with <= instead of <, so position lengths[b], the first padding position, is marked as a real token.",
        "keywords": [r"<=|first padding", r"≤", r"off.by.one", r"one (too )?many", r"one extra"],
        "kind": "off-by-one",
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex4_padding_mask",
        "code": r'''def padding_mask(lengths, seq_len):
    """True at the real tokens, False at the padding.

    lengths: (B,) integers  ->  (B, seq_len) bool
    """
    # YOUR CODE HERE
    return torch.arange(seq_len)[:, None] < lengths[None, :]
''',
        "correct": False,
        "mistake": "Broadcasts the other way round (positions as a column, lengths as a row), so the mask comes out transposed, (seq_len, B) instead of (B, seq_len).",
        "keywords": [r"transpos", r"\(seq_len, B\)", r"other way round", r"orientation"],
        "kind": "axis",
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex4_padding_mask",
        "code": r'''def padding_mask(lengths, seq_len):
    """True at the real tokens, False at the padding.

    lengths: (B,) integers  ->  (B, seq_len) bool
    """
    idx = torch.arange(seq_len).unsqueeze(0)  # (1, seq_len)
    return idx >= lengths.unsqueeze(1)  # the padding positions
''',
        "correct": False,
        "mistake": "The polarity is reversed: the mask is True at the padding and False at the real tokens.",
        "keywords": [
            r"polarity|negat",
            r"invert|wrong way",
            r"flip|>=",
            r"revers|true at the padding",
            r"opposite",
        ],
        "kind": "polarity",
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex4_padding_mask",
        "code": r'''def padding_mask(lengths, seq_len):
    """True at the real tokens, False at the padding.

    lengths: (B,) integers  ->  (B, seq_len) bool
    """
    mask = (torch.arange(seq_len)[None, :] < lengths[:, None]).long()
    return mask
''',
        "correct": False,
        "mistake": "Returns an integer tensor of 0s and 1s instead of a boolean mask (dtype torch.bool).",
        "keywords": [r"bool|0s and 1s", r"dtype", r"integer", r"int64", r"\blong\b"],
        "kind": "dtype",
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex4_padding_mask",
        "code": r'''def padding_mask(lengths, seq_len):
    """True at the real tokens, False at the padding.

    lengths: (B,) integers  ->  (B, seq_len) bool
    """
    mask = torch.zeros(len(lengths), seq_len, dtype=torch.bool)
    for b, n in enumerate(lengths.tolist()):
        mask[b, : n - 1] = True  # positions 0 .. n-1 are real
    return mask
''',
        "correct": False,
        "mistake": "Off-by-one slice: mask[b, :n - 1] marks only the first n - 1 positions, leaving the last real token out (the slice end is already exclusive).",
        "keywords": [
            r"off.by.one|one short",
            r"one (too )?few",
            r"last real",
            r"n ?- ?1",
            r"exclusive",
        ],
        "kind": "off-by-one",
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex4_padding_mask",
        "code": r'''def padding_mask(lengths, seq_len):
    """True at the real tokens, False at the padding.

    lengths: (B,) integers  ->  (B, seq_len) bool
    """
    mask = torch.zeros(len(lengths), seq_len, dtype=torch.bool)
    for b in range(len(lengths)):
        mask[b, : int(lengths[b])] = True
    return mask
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex4_padding_mask",
        "code": r'''def padding_mask(lengths, seq_len):
    """True at the real tokens, False at the padding.

    lengths: (B,) integers  ->  (B, seq_len) bool
    """
    return lengths.unsqueeze(-1) > torch.arange(seq_len, device=lengths.device)
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex5_hand_built_heads",
        "code": r'''def previous_token_head(vocab_size, max_len, d_head, strength):
    """W_q, W_k (vocab_size + max_len, d_head), d_head >= max_len: after the 1/√d_head,
    query t scores `strength` with the key at position t - 1 and 0 with every other key."""
    W_q = torch.zeros(vocab_size + max_len, d_head)
    W_k = torch.zeros(vocab_size + max_len, d_head)
    for p in range(max_len):
        W_k[vocab_size + p, p] = 1.0
        if p > 0:
            W_q[vocab_size + p, p - 1] = strength
    return W_q, W_k


def same_token_head(vocab_size, max_len, d_head, strength):
    """W_q, W_k (vocab_size + max_len, d_head), d_head >= vocab_size: after the 1/√d_head,
    query t scores `strength` with every key holding its own token and 0 with the others."""
    W_q = torch.zeros(vocab_size + max_len, d_head)
    W_k = torch.zeros(vocab_size + max_len, d_head)
    for token in range(vocab_size):
        W_q[token, token] = strength * math.sqrt(d_head)
        W_k[token, token] = 1.0
    return W_q, W_k
''',
        "correct": False,
        "mistake": "The previous-token head leaves out the factor √d_head, so after attention divides by √d_head its scores are strength/√d_head instead of strength.",
        "keywords": [r"sqrt", r"√", r"square root", r"d_head ?\*\* ?0\.5"],
        "kind": "scale",
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex5_hand_built_heads",
        "code": r'''def previous_token_head(vocab_size, max_len, d_head, strength):
    """W_q, W_k (vocab_size + max_len, d_head), d_head >= max_len: after the 1/√d_head,
    query t scores `strength` with the key at position t - 1 and 0 with every other key."""
    # YOUR CODE HERE
    d_model = vocab_size + max_len
    W_q, W_k = torch.zeros(d_model, d_head), torch.zeros(d_model, d_head)
    c = strength * math.sqrt(d_head)
    for p in range(max_len - 1):
        W_q[vocab_size + p, p + 1] = c  # position p asks for its neighbour
    for p in range(max_len):
        W_k[vocab_size + p, p] = 1.0
    return W_q, W_k


def same_token_head(vocab_size, max_len, d_head, strength):
    """W_q, W_k (vocab_size + max_len, d_head), d_head >= vocab_size: after the 1/√d_head,
    query t scores `strength` with every key holding its own token and 0 with the others."""
    # YOUR CODE HERE
    d_model = vocab_size + max_len
    W_q, W_k = torch.zeros(d_model, d_head), torch.zeros(d_model, d_head)
    W_q[:vocab_size, :vocab_size] = strength * math.sqrt(d_head) * torch.eye(vocab_size)
    W_k[:vocab_size, :vocab_size] = torch.eye(vocab_size)
    return W_q, W_k
''',
        "correct": False,
        "mistake": "The previous-token head points each query at the next position (t + 1) instead of the previous one (t − 1).",
        "keywords": [
            r"next|later position",
            r"t ?\+ ?1",
            r"following",
            r"wrong direction",
            r"forward",
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
    W_q, W_k = torch.zeros(d_model, d_head), torch.zeros(d_model, d_head)
    eye = torch.eye(max_len)
    # row p of the shifted identity has its 1 in column p - 1
    shifted = torch.roll(eye, shifts=-1, dims=1)
    W_q[vocab_size:, :max_len] = strength * math.sqrt(d_head) * shifted
    W_k[vocab_size:, :max_len] = eye
    return W_q, W_k


def same_token_head(vocab_size, max_len, d_head, strength):
    """W_q, W_k (vocab_size + max_len, d_head), d_head >= vocab_size: after the 1/√d_head,
    query t scores `strength` with every key holding its own token and 0 with the others."""
    d_model = vocab_size + max_len
    W_q, W_k = torch.zeros(d_model, d_head), torch.zeros(d_model, d_head)
    W_q[:vocab_size, :vocab_size] = strength * math.sqrt(d_head) * torch.eye(vocab_size)
    W_k[:vocab_size, :vocab_size] = torch.eye(vocab_size)
    return W_q, W_k
''',
        "correct": False,
        "mistake": "torch.roll wraps the shift round: position 0's query points at the last position (max_len − 1) instead of scoring 0 with every key.",
        "keywords": [
            r"wrap|roll|circular|cyclic",
            r"position 0|first position|last position|max_len ?- ?1",
        ],
        "kind": "boundary",
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex5_hand_built_heads",
        "code": r'''def previous_token_head(vocab_size, max_len, d_head, strength):
    """W_q, W_k (vocab_size + max_len, d_head), d_head >= max_len: after the 1/√d_head,
    query t scores `strength` with the key at position t - 1 and 0 with every other key."""
    W_q = torch.zeros(vocab_size + max_len, d_head)
    W_k = torch.zeros(vocab_size + max_len, d_head)
    for p in range(1, max_len):
        W_q[vocab_size + p, p - 1] = strength * math.sqrt(d_head)
    for p in range(max_len):
        W_k[vocab_size + p, p] = 1.0
    return W_q, W_k


def same_token_head(vocab_size, max_len, d_head, strength):
    """W_q, W_k (vocab_size + max_len, d_head), d_head >= vocab_size: after the 1/√d_head,
    query t scores `strength` with every key holding its own token and 0 with the others."""
    W_q = torch.zeros(vocab_size + max_len, d_head)
    W_k = torch.zeros(vocab_size + max_len, d_head)
    for v in range(vocab_size):
        W_q[v, v] = strength * math.sqrt(d_head)
        W_k[v, v] = strength
    return W_q, W_k
''',
        "correct": False,
        "mistake": "The same-token head puts strength into both W_q and W_k, so its scores are strength² instead of strength (W_k should hold 1s).",
        "keywords": [
            r"strength ?²|twice",
            r"strength ?\^ ?2",
            r"strength ?\*\* ?2",
            r"squared",
            r"both (W_q and W_k|matrices)",
        ],
        "kind": "scale",
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex5_hand_built_heads",
        "code": r'''def previous_token_head(vocab_size, max_len, d_head, strength):
    """W_q, W_k (vocab_size + max_len, d_head), d_head >= max_len: after the 1/√d_head,
    query t scores `strength` with the key at position t - 1 and 0 with every other key."""
    W_q = torch.zeros(vocab_size + max_len, d_head)
    W_k = torch.zeros(vocab_size + max_len, d_head)
    W_q[vocab_size + 1:, : max_len - 1] = strength * math.sqrt(d_head) * torch.eye(max_len - 1)
    W_k[vocab_size:, :max_len] = torch.eye(max_len)
    return W_q, W_k


def same_token_head(vocab_size, max_len, d_head, strength):
    """W_q, W_k (vocab_size + max_len, d_head), d_head >= vocab_size: after the 1/√d_head,
    query t scores `strength` with every key holding its own token and 0 with the others."""
    W_q = torch.zeros(vocab_size + max_len, d_head)
    W_k = torch.zeros(vocab_size + max_len, d_head)
    W_q[vocab_size:, :max_len] = strength * math.sqrt(d_head) * torch.eye(max_len)
    W_k[vocab_size:, :max_len] = torch.eye(max_len)
    return W_q, W_k
''',
        "correct": False,
        "mistake": "The same-token head fills the rows of the position block instead of the token block, so it matches equal positions (each query only itself) rather than equal tokens.",
        "keywords": [
            r"position (block|rows|features)|wrong block",
            r"positions instead",
            r"same position",
            r"equal positions",
            r"token block",
        ],
        "kind": "index",
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex5_hand_built_heads",
        "code": r'''def previous_token_head(vocab_size, max_len, d_head, strength):
    """W_q, W_k (vocab_size + max_len, d_head), d_head >= max_len: after the 1/√d_head,
    query t scores `strength` with the key at position t - 1 and 0 with every other key."""
    d_model = vocab_size + max_len
    scale = strength * d_head ** 0.5
    W_q = torch.zeros(d_model, d_head)
    W_k = torch.zeros(d_model, d_head)
    # the query of position p is the unit vector e_{p-1}; the key of position p is scale * e_p
    W_q[vocab_size + 1:, : max_len - 1] = torch.eye(max_len - 1)
    W_k[vocab_size:, :max_len] = scale * torch.eye(max_len)
    return W_q, W_k


def same_token_head(vocab_size, max_len, d_head, strength):
    """W_q, W_k (vocab_size + max_len, d_head), d_head >= vocab_size: after the 1/√d_head,
    query t scores `strength` with every key holding its own token and 0 with the others."""
    d_model = vocab_size + max_len
    block = torch.eye(vocab_size, d_head)  # token v -> unit vector e_v
    W_q = torch.cat([block, torch.zeros(max_len, d_head)])
    W_k = torch.cat([strength * math.sqrt(d_head) * block, torch.zeros(max_len, d_head)])
    assert W_q.shape == (d_model, d_head)
    return W_q, W_k
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
    },
    # ------------------------------------------------------------------ 03_multihead_attention
    {
        "notebook": "03_multihead_attention",
        "cell": "ex1_multihead_cols",
        "code": r'''def multihead_cols(X, heads, W_c):
    """Multi-head self-attention with tokens as the columns of X.

    X: (D, N); heads: list of H dicts with W_q, W_k, W_v (D/H, D) and b_q, b_k, b_v (D/H, 1);
    W_c: (D, D)  ->  (D, N)
    """
    outputs = []
    for head in heads:
        Q = head["W_q"] @ X + head["b_q"]
        K = head["W_k"] @ X + head["b_k"]
        V = head["W_v"] @ X + head["b_v"]
        A = softmax(K.T @ Q / math.sqrt(X.shape[0]), dim=0)
        outputs.append(V @ A)
    return W_c @ torch.cat(outputs, dim=0)
''',
        "correct": False,
        "mistake": "Divides each head's scores by √D, the width of the whole model, instead of √d_head, the width of one head.",
        "keywords": [r"\bD\b|model's width", r"d_model", r"whole", r"full", r"X\.shape\[0\]"],
        "kind": "scale",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex1_multihead_cols",
        "code": r'''def multihead_cols(X, heads, W_c):
    """Multi-head self-attention with tokens as the columns of X.

    X: (D, N); heads: list of H dicts with W_q, W_k, W_v (D/H, D) and b_q, b_k, b_v (D/H, 1);
    W_c: (D, D)  ->  (D, N)
    """
    # YOUR CODE HERE
    stacked = None
    for h in heads:
        Q = h["W_q"] @ X + h["b_q"]
        K = h["W_k"] @ X + h["b_k"]
        V = h["W_v"] @ X + h["b_v"]
        d_head = K.shape[0]
        out = V @ softmax(K.T @ Q / math.sqrt(d_head), dim=0)
        stacked = out if stacked is None else torch.cat([out, stacked], dim=0)
    return W_c @ stacked
''',
        "correct": False,
        "mistake": "Concatenates the heads in the wrong order: each new head's output is put on top of the earlier ones, so the last head comes first before W_c.",
        "keywords": [
            r"wrong order|prepend",
            r"order of the heads|on top",
            r"revers|in front",
            r"backwards",
            r"last head",
        ],
        "kind": "concat order",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex1_multihead_cols",
        "code": r'''def multihead_cols(X, heads, W_c):
    """Multi-head self-attention with tokens as the columns of X.

    X: (D, N); heads: list of H dicts with W_q, W_k, W_v (D/H, D) and b_q, b_k, b_v (D/H, 1);
    W_c: (D, D)  ->  (D, N)
    """
    per_head = []
    for p in heads:
        Q, K, V = (p[f"W_{r}"] @ X + p[f"b_{r}"] for r in "qkv")
        scores = K.T @ Q / math.sqrt(K.shape[0])
        per_head.append(V @ softmax(scores, dim=-1))
    return W_c @ torch.cat(per_head, dim=0)
''',
        "correct": False,
        "mistake": "Takes the softmax along the rows (dim=-1) of KᵀQ; with tokens as columns each query's scores form a column, so the softmax must run down the columns (dim=0).",
        "keywords": [r"rows?\b", r"dim ?= ?-?1", r"last (axis|dim)"],
        "kind": "axis",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex1_multihead_cols",
        "code": r'''def multihead_cols(X, heads, W_c):
    """Multi-head self-attention with tokens as the columns of X.

    X: (D, N); heads: list of H dicts with W_q, W_k, W_v (D/H, D) and b_q, b_k, b_v (D/H, 1);
    W_c: (D, D)  ->  (D, N)
    """
    head_outputs = []
    for h in heads:
        Q = h["W_q"] @ X + h["b_q"]
        K = h["W_k"] @ X + h["b_k"]
        V = h["W_v"] @ X + h["b_v"]
        A = softmax(K.T @ Q / math.sqrt(Q.shape[0]), dim=0)
        head_outputs.append(V @ A)
    concat = torch.cat(head_outputs, dim=0)  # (D, N)
    return (concat.T @ W_c).T
''',
        "correct": False,
        "mistake": "Applies the transpose of W_c: (concatᵀ W_c)ᵀ = W_cᵀ concat, not W_c concat.",
        "keywords": [r"transpos", r"W_c\.T", r"W_cᵀ", r"W_c\^T"],
        "kind": "layout",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex1_multihead_cols",
        "code": r'''def multihead_cols(X, heads, W_c):
    """Multi-head self-attention with tokens as the columns of X.

    X: (D, N); heads: list of H dicts with W_q, W_k, W_v (D/H, D) and b_q, b_k, b_v (D/H, 1);
    W_c: (D, D)  ->  (D, N)
    """
    def one_head(p):
        Q = torch.addmm(p["b_q"], p["W_q"], X)
        K = torch.addmm(p["b_k"], p["W_k"], X)
        V = torch.addmm(p["b_v"], p["W_v"], X)
        A = torch.softmax(torch.einsum("dm,dn->mn", K, Q) / K.shape[0] ** 0.5, dim=0)
        return V @ A

    return W_c @ torch.cat([one_head(p) for p in heads], dim=0)
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex2_split_merge",
        "code": r'''def split_heads(x, n_heads):
    """(B, T, d_model) -> (B, H, T, d_head): head h gets features h·d_head ... (h+1)·d_head - 1."""
    B, T, d_model = x.shape
    return x.reshape(B, n_heads, T, d_model // n_heads)


def merge_heads(x):
    """(B, H, T, d_head) -> (B, T, H·d_head), the inverse of split_heads."""
    B, H, T, d_head = x.shape
    return x.transpose(1, 2).reshape(B, T, H * d_head)
''',
        "correct": False,
        "mistake": "split_heads reshapes (B, T, d_model) straight to (B, H, T, d_head): the shape is right but the numbers are scrambled; split the last axis into (H, d_head) first, then transpose the head axis in front of T.",
        "keywords": [
            r"reshap",
            r"\.view",
            r"straight",
            r"without (a |the )?(transpose|permute)",
            r"scrambl",
        ],
        "kind": "layout",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex2_split_merge",
        "code": r'''def split_heads(x, n_heads):
    """(B, T, d_model) -> (B, H, T, d_head): head h gets features h·d_head ... (h+1)·d_head - 1."""
    # YOUR CODE HERE
    B, T, D = x.shape
    x = x.view(B, T, D // n_heads, n_heads)
    return x.permute(0, 3, 1, 2)


def merge_heads(x):
    """(B, H, T, d_head) -> (B, T, H·d_head), the inverse of split_heads."""
    # YOUR CODE HERE
    B, H, T, d = x.shape
    return x.permute(0, 2, 1, 3).reshape(B, T, H * d)
''',
        "correct": False,
        "mistake": "split_heads splits the last axis as (d_head, H) instead of (H, d_head), so head h gets every H-th feature (h, h + H, …) rather than a contiguous block of d_head features.",
        "keywords": [
            r"interleav|\(d_head, n_heads\)",
            r"every H",
            r"stride",
            r"contiguous block",
            r"\(d_head, H\)",
        ],
        "kind": "layout",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex2_split_merge",
        "code": r'''def split_heads(x, n_heads):
    """(B, T, d_model) -> (B, H, T, d_head): head h gets features h·d_head ... (h+1)·d_head - 1."""
    B, T, D = x.shape
    return x.reshape(B, T, n_heads, D // n_heads).transpose(1, 2)


def merge_heads(x):
    """(B, H, T, d_head) -> (B, T, H·d_head), the inverse of split_heads."""
    B, H, T, d_head = x.shape
    return x.reshape(B, T, H * d_head)
''',
        "correct": False,
        "mistake": "merge_heads reshapes (B, H, T, d_head) straight to (B, T, H·d_head) without first moving the head axis back behind T, so tokens and heads get mixed up.",
        "keywords": [r"transpos", r"permut", r"reshap", r"head axis"],
        "kind": "layout",
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
    return x.transpose(1, 2).view(B, T, H * d_head)
''',
        "correct": False,
        "mistake": "merge_heads calls .view on the transposed (non-contiguous) tensor, which raises an error; use .reshape or .contiguous().view.",
        "keywords": [r"view", r"contiguous"],
        "kind": "python slip",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex2_split_merge",
        "code": r'''def split_heads(x, n_heads):
    """(B, T, d_model) -> (B, H, T, d_head): head h gets features h·d_head ... (h+1)·d_head - 1."""
    return x.reshape(*x.shape[:-1], n_heads, -1).permute(0, 2, 1, 3)


def merge_heads(x):
    """(B, H, T, d_head) -> (B, T, H·d_head), the inverse of split_heads."""
    B, H, T, d_head = x.shape
    return x.permute(0, 2, 3, 1).reshape(B, T, H * d_head)
''',
        "correct": False,
        "mistake": "merge_heads permutes to (B, T, d_head, H) instead of (B, T, H, d_head), so the merged features are interleaved across the heads rather than head 0's block, then head 1's.",
        "keywords": [r"permut", r"\(B, T, d_head, H\)", r"interleav", r"0, ?2, ?3, ?1"],
        "kind": "layout",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex2_split_merge",
        "code": r'''def split_heads(x, n_heads):
    """(B, T, d_model) -> (B, H, T, d_head): head h gets features h·d_head ... (h+1)·d_head - 1."""
    # chunk cuts the features into H contiguous blocks; stack puts them on a new head axis
    return torch.stack(x.chunk(n_heads, dim=-1), dim=1)


def merge_heads(x):
    """(B, H, T, d_head) -> (B, T, H·d_head), the inverse of split_heads."""
    return torch.cat(x.unbind(dim=1), dim=-1)
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex2_split_merge",
        "code": r'''def split_heads(x, n_heads):
    """(B, T, d_model) -> (B, H, T, d_head): head h gets features h·d_head ... (h+1)·d_head - 1."""
    return x.unflatten(-1, (n_heads, x.shape[-1] // n_heads)).transpose(-3, -2)


def merge_heads(x):
    """(B, H, T, d_head) -> (B, T, H·d_head), the inverse of split_heads."""
    return x.transpose(-3, -2).flatten(start_dim=-2)
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex3_expand_mask",
        "code": r'''def expand_mask(mask):
    """Bring a boolean mask to 4-D so that it broadcasts over (B, H, T, S) scores.

    (T, S) -> (1, 1, T, S);  (B, T, S) -> (B, 1, T, S);  (B, H, T, S) unchanged
    """
    if mask.dim() == 2:
        return mask[None, None]
    if mask.dim() == 3:
        return mask[None]
    return mask
''',
        "correct": False,
        "mistake": "For a (B, T, S) mask it inserts the new axis in front, giving (1, B, T, S), so the batch axis would pair with the heads; the head axis goes second, (B, 1, T, S).",
        "keywords": [
            r"\(1, B, T, S\)|dim ?= ?0",
            r"in front|mask\[None\]",
            r"at the front|unsqueeze\(0\)",
            r"first position|batch\w* (axis )?(with|against) (the )?heads",
            r"axis 0",
        ],
        "kind": "axis",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex3_expand_mask",
        "code": r'''def expand_mask(mask):
    """Bring a boolean mask to 4-D so that it broadcasts over (B, H, T, S) scores.

    (T, S) -> (1, 1, T, S);  (B, T, S) -> (B, 1, T, S);  (B, H, T, S) unchanged
    """
    # YOUR CODE HERE
    if mask.dim() == 3:
        return mask.unsqueeze(1)
    if mask.dim() == 2:
        return mask.unsqueeze(0)
    return mask
''',
        "correct": False,
        "mistake": "A (T, S) mask gets only one new axis, (1, T, S), instead of two, (1, 1, T, S): the result is 3-D, not 4-D.",
        "keywords": [
            r"\(1, T, S\)|not 4-?D",
            r"one (new )?axis|missing (an )?axis",
            r"only one",
            r"two ax[ie]s",
            r"3-?D",
        ],
        "kind": "axis count",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex3_expand_mask",
        "code": r'''def expand_mask(mask):
    """Bring a boolean mask to 4-D so that it broadcasts over (B, H, T, S) scores.

    (T, S) -> (1, 1, T, S);  (B, T, S) -> (B, 1, T, S);  (B, H, T, S) unchanged
    """
    if mask.dim() == 2:
        mask = mask.unsqueeze(0).unsqueeze(0)
    elif mask.dim() == 3:
        mask = mask.unsqueeze(2)
    return mask
''',
        "correct": False,
        "mistake": "For a (B, T, S) mask, unsqueeze(2) inserts the axis between T and S, giving (B, T, 1, S) instead of (B, 1, T, S).",
        "keywords": [r"unsqueeze\(2\)", r"\(B, T, 1, S\)", r"between T and S"],
        "kind": "axis",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex3_expand_mask",
        "code": r'''def expand_mask(mask):
    """Bring a boolean mask to 4-D so that it broadcasts over (B, H, T, S) scores.

    (T, S) -> (1, 1, T, S);  (B, T, S) -> (B, 1, T, S);  (B, H, T, S) unchanged
    """
    while mask.dim() < 4:
        mask = mask.unsqueeze(1)
    return mask
''',
        "correct": False,
        "mistake": "Always inserts the new axes at position 1: right for a (B, T, S) mask, but a (T, S) mask becomes (T, 1, 1, S) instead of (1, 1, T, S).",
        "keywords": [
            r"\(T, 1, 1, S\)|wrong (place|axis|position)",
            r"unsqueeze\(1\)",
            r"position 1",
            r"\(T, S\) mask",
            r"2-?D mask",
        ],
        "kind": "axis",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex3_expand_mask",
        "code": r'''def expand_mask(mask):
    """Bring a boolean mask to 4-D so that it broadcasts over (B, H, T, S) scores.

    (T, S) -> (1, 1, T, S);  (B, T, S) -> (B, 1, T, S);  (B, H, T, S) unchanged
    """
    # a new axis always goes just in front of (T, S): the head axis, then the batch axis
    while mask.dim() < 4:
        mask = mask.unsqueeze(-3)
    return mask
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex4_multihead_attention",
        "code": r'''def multihead_attention(x, in_proj_weight, in_proj_bias, out_proj_weight, out_proj_bias,
                        n_heads, mask=None):
    """Packed multi-head self-attention, PyTorch's parameter layout.

    x: (B, T, d_model); in_proj_weight: (3·d_model, d_model); in_proj_bias: (3·d_model,);
    out_proj_weight: (d_model, d_model); out_proj_bias: (d_model,);
    mask: bool (T, T), (B, T, T) (or (B, 1, T) for padding) or (B, H, T, T),
          True = may attend  ->  (B, T, d_model)
    """
    q, k, v = (x @ in_proj_weight.T + in_proj_bias).chunk(3, dim=-1)
    q, k, v = split_heads(q, n_heads), split_heads(k, n_heads), split_heads(v, n_heads)
    q = q / math.sqrt(q.shape[-1])  # scale the queries
    if mask is not None:
        mask = expand_mask(mask)
    out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
    return merge_heads(out) @ out_proj_weight.T + out_proj_bias
''',
        "correct": False,
        "mistake": "Scales twice: divides the queries by √d_head and then calls F.scaled_dot_product_attention, which divides by √d_head again.",
        "keywords": [r"twice", r"double", r"again", r"two times", r"already (divides|scales)"],
        "kind": "scale",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex4_multihead_attention",
        "code": r'''def multihead_attention(x, in_proj_weight, in_proj_bias, out_proj_weight, out_proj_bias,
                        n_heads, mask=None):
    """Packed multi-head self-attention, PyTorch's parameter layout.

    x: (B, T, d_model); in_proj_weight: (3·d_model, d_model); in_proj_bias: (3·d_model,);
    out_proj_weight: (d_model, d_model); out_proj_bias: (d_model,);
    mask: bool (T, T), (B, T, T) (or (B, 1, T) for padding) or (B, H, T, T),
          True = may attend  ->  (B, T, d_model)
    """
    # YOUR CODE HERE
    qkv = x @ in_proj_weight.T + in_proj_bias
    q, k, v = qkv.chunk(3, dim=-1)
    q, k, v = (split_heads(t, n_heads) for t in (q, k, v))
    attn_mask = None
    if mask is not None:
        attn_mask = ~expand_mask(mask)  # nn.MultiheadAttention masks the True entries
    heads = F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask)
    return merge_heads(heads) @ out_proj_weight.T + out_proj_bias
''',
        "correct": False,
        "mistake": "Flips the mask before F.scaled_dot_product_attention, whose attn_mask already means True = may attend, so every query attends only to the padding.",
        "keywords": [r"polarity|opposite", r"invert|negat", r"flip", r"~", r"revers"],
        "kind": "polarity",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex4_multihead_attention",
        "code": r'''def multihead_attention(x, in_proj_weight, in_proj_bias, out_proj_weight, out_proj_bias,
                        n_heads, mask=None):
    """Packed multi-head self-attention, PyTorch's parameter layout.

    x: (B, T, d_model); in_proj_weight: (3·d_model, d_model); in_proj_bias: (3·d_model,);
    out_proj_weight: (d_model, d_model); out_proj_bias: (d_model,);
    mask: bool (T, T), (B, T, T) (or (B, 1, T) for padding) or (B, H, T, T),
          True = may attend  ->  (B, T, d_model)
    """
    q, k, v = (x @ in_proj_weight.T + in_proj_bias).chunk(3, dim=-1)
    q, k, v = [split_heads(t, n_heads) for t in (q, k, v)]
    m = expand_mask(mask) if mask is not None else None
    out = merge_heads(F.scaled_dot_product_attention(q, k, v, attn_mask=m))
    return out @ out_proj_weight + out_proj_bias
''',
        "correct": False,
        "mistake": "Multiplies by out_proj_weight instead of its transpose: PyTorch stores the output projection as (out, in), so the output is merged @ out_proj_weight.T + out_proj_bias.",
        "keywords": [r"transpos", r"out_proj_weight\.T", r"\(out, in\)", r"\(in, out\)"],
        "kind": "layout",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex4_multihead_attention",
        "code": r'''def multihead_attention(x, in_proj_weight, in_proj_bias, out_proj_weight, out_proj_bias,
                        n_heads, mask=None):
    """Packed multi-head self-attention, PyTorch's parameter layout.

    x: (B, T, d_model); in_proj_weight: (3·d_model, d_model); in_proj_bias: (3·d_model,);
    out_proj_weight: (d_model, d_model); out_proj_bias: (d_model,);
    mask: bool (T, T), (B, T, T) (or (B, 1, T) for padding) or (B, H, T, T),
          True = may attend  ->  (B, T, d_model)
    """
    projected = x @ in_proj_weight.T + in_proj_bias
    q, k, v = projected.chunk(3, dim=-1)
    q = split_heads(q, n_heads)
    k = split_heads(k, n_heads)
    v = split_heads(v, n_heads)
    attended = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
    return merge_heads(attended) @ out_proj_weight.T + out_proj_bias
''',
        "correct": False,
        "mistake": "Passes the mask to the attention without expand_mask: a (B, T, S) or (B, 1, S) mask then lines up from the right with (B, H, T, S), pairing the batch axis with the heads.",
        "keywords": [
            r"expand_mask",
            r"4-?D",
            r"head axis",
            r"broadcast",
            r"batch\w* (axis )?(with|against) (the )?heads",
        ],
        "kind": "axis",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex4_multihead_attention",
        "code": r'''def multihead_attention(x, in_proj_weight, in_proj_bias, out_proj_weight, out_proj_bias,
                        n_heads, mask=None):
    """Packed multi-head self-attention, PyTorch's parameter layout.

    x: (B, T, d_model); in_proj_weight: (3·d_model, d_model); in_proj_bias: (3·d_model,);
    out_proj_weight: (d_model, d_model); out_proj_bias: (d_model,);
    mask: bool (T, T), (B, T, T) (or (B, 1, T) for padding) or (B, H, T, T),
          True = may attend  ->  (B, T, d_model)
    """
    k, q, v = (x @ in_proj_weight.T + in_proj_bias).chunk(3, dim=-1)
    q, k, v = (split_heads(t, n_heads) for t in (q, k, v))
    if mask is not None:
        mask = expand_mask(mask)
    y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
    return merge_heads(y) @ out_proj_weight.T + out_proj_bias
''',
        "correct": False,
        "mistake": "Unpacks the chunks as k, q, v: PyTorch's in_proj_weight holds the rows for q first, then k, then v, so queries and keys are swapped.",
        "keywords": [
            r"swap|q first",
            r"k, ?q, ?v",
            r"exchang",
            r"queries and keys",
            r"keys and queries",
        ],
        "kind": "operand swap",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex4_multihead_attention",
        "code": r'''def multihead_attention(x, in_proj_weight, in_proj_bias, out_proj_weight, out_proj_bias,
                        n_heads, mask=None):
    """Packed multi-head self-attention, PyTorch's parameter layout.

    x: (B, T, d_model); in_proj_weight: (3·d_model, d_model); in_proj_bias: (3·d_model,);
    out_proj_weight: (d_model, d_model); out_proj_bias: (d_model,);
    mask: bool (T, T), (B, T, T) (or (B, 1, T) for padding) or (B, H, T, T),
          True = may attend  ->  (B, T, d_model)
    """
    q, k, v = F.linear(x, in_proj_weight, in_proj_bias).chunk(3, dim=-1)
    q, k, v = (split_heads(t, n_heads) for t in (q, k, v))
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])  # (B, H, T, T)
    if mask is not None:
        scores = scores.masked_fill(~expand_mask(mask), float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    return F.linear(merge_heads(weights @ v), out_proj_weight, out_proj_bias)
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex4_multihead_attention",
        "code": r'''def multihead_attention(x, in_proj_weight, in_proj_bias, out_proj_weight, out_proj_bias,
                        n_heads, mask=None):
    """Packed multi-head self-attention, PyTorch's parameter layout.

    x: (B, T, d_model); in_proj_weight: (3·d_model, d_model); in_proj_bias: (3·d_model,);
    out_proj_weight: (d_model, d_model); out_proj_bias: (d_model,);
    mask: bool (T, T), (B, T, T) (or (B, 1, T) for padding) or (B, H, T, T),
          True = may attend  ->  (B, T, d_model)
    """
    B, T, d_model = x.shape
    d_head = d_model // n_heads
    W = in_proj_weight.view(3, n_heads, d_head, d_model)  # (q|k|v, head, d_head, d_model)
    b = in_proj_bias.view(3, 1, n_heads, 1, d_head)
    q, k, v = torch.einsum("btm,rhdm->rbhtd", x, W) + b  # each (B, H, T, d_head)
    scores = torch.einsum("bhtd,bhsd->bhts", q, k) / math.sqrt(d_head)
    if mask is not None:
        while mask.dim() < 4:
            mask = mask.unsqueeze(-3)
        scores = scores.masked_fill(~mask, float("-inf"))
    mixed = torch.einsum("bhts,bhsd->bthd", scores.softmax(dim=-1), v).reshape(B, T, d_model)
    return mixed @ out_proj_weight.T + out_proj_bias
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex5_multihead_module",
        "code": r'''class MultiHeadAttention(nn.Module):
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
        W_q, W_k, W_v = self.in_proj_weight.chunk(3)
        b_q, b_k, b_v = self.in_proj_bias.chunk(3)
        q = split_heads(query @ W_q.T + b_q, self.n_heads)
        k = split_heads(key @ W_k.T + b_k, self.n_heads)
        v = split_heads(value @ W_v.T + b_v, self.n_heads)
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
        if mask is not None:
            scores = scores.masked_fill(~expand_mask(mask), float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        weights = F.dropout(weights, self.dropout)
        output = self.out_proj(merge_heads(weights @ v))
        if not need_weights:
            return output, None
        return output, weights.mean(dim=1)
''',
        "correct": False,
        "mistake": "Calls F.dropout without training=self.training; F.dropout defaults to training=True, so the attention weights are dropped in eval mode too.",
        "keywords": [r"training", r"eval"],
        "kind": "state",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex5_multihead_module",
        "code": r'''class MultiHeadAttention(nn.Module):
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
        W_q, W_k, W_v = self.in_proj_weight.chunk(3)
        b_q, b_k, b_v = self.in_proj_bias.chunk(3)
        q = split_heads(query @ W_q.T + b_q, self.n_heads)
        k = split_heads(key @ W_k.T + b_k, self.n_heads)
        v = split_heads(value @ W_v.T + b_v, self.n_heads)
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
        "mistake": "Returns the weights of every head, (B, H, T, S), instead of their average over the heads, (B, T, S).",
        "keywords": [r"average", r"mean", r"\(B, H, T, S\)", r"every head", r"per head"],
        "kind": "missing term",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex5_multihead_module",
        "code": r'''class MultiHeadAttention(nn.Module):
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
        W_q, W_k, W_v = self.in_proj_weight.chunk(3)
        b_q, b_k, b_v = self.in_proj_bias.chunk(3)
        q = split_heads(query @ W_q.T + b_q, self.n_heads)
        k = split_heads(key @ W_k.T + b_k, self.n_heads)
        v = split_heads(value @ W_v.T + b_v, self.n_heads)
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
        if mask is not None:
            scores = scores.masked_fill(~expand_mask(mask), float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        weights = F.dropout(weights, self.dropout, training=self.training)
        output = self.out_proj(merge_heads(weights @ v))
        if not need_weights:
            return output, None
        return output, weights.sum(dim=1)
''',
        "correct": False,
        "mistake": "Sums the weights over the heads instead of averaging them, so the returned weights are H times too large.",
        "keywords": [r"\bsum", r"H times", r"times too large"],
        "kind": "function swap",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex5_multihead_module",
        "code": r'''class MultiHeadAttention(nn.Module):
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
        W_q, W_k, W_v = self.in_proj_weight.chunk(3)
        b_q, b_k, b_v = self.in_proj_bias.chunk(3)
        q = split_heads(query @ W_q.T + b_q, self.n_heads)
        k = split_heads(query @ W_k.T + b_k, self.n_heads)
        v = split_heads(query @ W_v.T + b_v, self.n_heads)
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
        "mistake": "Makes the keys and values from the query instead of from key and value, so cross-attention attends to the queries' own sequence.",
        "keywords": [
            r"from (the )?query|memory",
            r"query instead",
            r"instead of (from )?(the )?key",
            r"cross-?attention",
            r"cross attention",
        ],
        "kind": "operand swap",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex5_multihead_module",
        "code": r'''class MultiHeadAttention(nn.Module):
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
        W_q, W_k, W_v = self.in_proj_weight.chunk(3)
        b_q, b_k, b_v = self.in_proj_bias.chunk(3)
        q = split_heads(query @ W_q.T + b_q, self.n_heads)
        k = split_heads(key @ W_k.T + b_k, self.n_heads)
        v = split_heads(value @ W_v.T + b_v, self.n_heads)
        scores = q @ k.transpose(-2, -1) / math.sqrt(query.shape[-1])
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
        "mistake": "Divides the scores by √d_model (the width of the input) instead of √d_head (the width of one head).",
        "keywords": [r"d_model", r"query\.shape", r"width of the input", r"whole", r"full width"],
        "kind": "scale",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex5_multihead_module",
        "code": r'''class MultiHeadAttention(nn.Module):
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
        W_q, W_k, W_v = self.in_proj_weight.chunk(3)
        b_q, b_k, b_v = self.in_proj_bias.chunk(3)
        q = split_heads(query @ W_q.T + b_q, self.n_heads)
        k = split_heads(key @ W_k.T + b_k, self.n_heads)
        v = split_heads(value @ W_v.T + b_v, self.n_heads)
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
        if mask is not None:
            scores = scores.masked_fill(~expand_mask(mask), float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        weights = F.dropout(weights, self.dropout, training=self.training)
        output = self.out_proj(merge_heads(weights @ v))
        return output, weights.mean(dim=1)
''',
        "correct": False,
        "mistake": "Ignores need_weights: with need_weights=False it still returns the weights instead of (output, None).",
        "keywords": [r"need_weights", r"None"],
        "kind": "ignored argument",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex5_multihead_module",
        "code": r'''class MultiHeadAttention(nn.Module):
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
        W_q, W_k, W_v = self.in_proj_weight.chunk(3)
        b_q, b_k, b_v = self.in_proj_bias.chunk(3)
        q = split_heads(query @ W_q.T + b_q, self.n_heads)
        k = split_heads(key @ W_k.T + b_k, self.n_heads)
        v = split_heads(value @ W_v.T + b_v, self.n_heads)
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
        "keywords": [r"(dropout|drops?).{0,40}output", r"output.{0,40}dropout"],
        "kind": "order",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex5_multihead_module",
        "code": r'''class MultiHeadAttention(nn.Module):
    """Packed multi-head attention with nn.MultiheadAttention's parameters (batch_first=True).

    query (B, T, d_model), key and value (B, S, d_model), mask bool (T, S) or (B, T, S),
    True = may attend  ->  output (B, T, d_model), weights (B, T, S) averaged over the heads
    (None when need_weights is False)
    """

    def __init__(self, d_model, n_heads, dropout=0.0):
        super().__init__()
        assert d_model % n_heads == 0
        self.d_model, self.n_heads, self.d_head = d_model, n_heads, d_model // n_heads
        self.dropout = dropout
        self.in_proj_weight = nn.Parameter(nn.init.xavier_uniform_(torch.empty(3 * d_model, d_model)))
        self.in_proj_bias = nn.Parameter(torch.zeros(3 * d_model))
        self.out_proj = nn.Linear(d_model, d_model)
        nn.init.zeros_(self.out_proj.bias)

    def _heads(self, x, which):
        # which: 0 for queries, 1 for keys, 2 for values; (B, L, d_model) -> (B, H, L, d_head)
        rows = slice(which * self.d_model, (which + 1) * self.d_model)
        y = F.linear(x, self.in_proj_weight[rows], self.in_proj_bias[rows])
        B, L, _ = y.shape
        return y.view(B, L, self.n_heads, self.d_head).permute(0, 2, 1, 3)

    def forward(self, query, key, value, mask=None, need_weights=True):
        q, k, v = self._heads(query, 0), self._heads(key, 1), self._heads(value, 2)
        scores = torch.einsum("bhtd,bhsd->bhts", q, k) / math.sqrt(self.d_head)
        if mask is not None:
            while mask.dim() < 4:
                mask = mask.unsqueeze(-3)
            scores = scores.masked_fill(mask.logical_not(), float("-inf"))
        attn = scores.softmax(dim=-1)
        if self.training and self.dropout > 0:
            attn = F.dropout(attn, p=self.dropout, training=True)
        mixed = torch.einsum("bhts,bhsd->bthd", attn, v).flatten(2)  # (B, T, d_model)
        output = self.out_proj(mixed)
        return (output, attn.mean(dim=1)) if need_weights else (output, None)
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex5_multihead_module",
        "code": r'''class MultiHeadAttention(nn.Module):
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
        self.in_proj_bias = nn.Parameter(torch.empty(3 * d_model))
        self.out_proj = nn.Linear(d_model, d_model)
        nn.init.zeros_(self.out_proj.bias)
        nn.init.xavier_uniform_(self.in_proj_weight)
        nn.init.constant_(self.in_proj_bias, 0.0)

    def forward(self, query, key, value, mask=None, need_weights=True):
        weights = self.in_proj_weight.chunk(3, dim=0)
        biases = self.in_proj_bias.chunk(3, dim=0)
        q, k, v = (split_heads(F.linear(t, w, b), self.n_heads)
                   for t, w, b in zip((query, key, value), weights, biases))
        d_head = q.size(-1)
        scores = torch.matmul(q, k.transpose(-1, -2)) / d_head ** 0.5
        if mask is not None:
            scores = torch.where(expand_mask(mask), scores, float("-inf"))
        attention = torch.softmax(scores, dim=-1)
        attention = F.dropout(attention, p=self.dropout, training=self.training)
        output = self.out_proj(merge_heads(torch.matmul(attention, v)))
        if need_weights:
            return output, attention.mean(dim=1)
        return output, None
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
    },
    # ------------------------------------------------------------------ 04_positional_encoding
    {
        "notebook": "04_positional_encoding",
        "cell": "ex1_pe_table_loops",
        "code": r'''def pe_table_loops(seq_len, d_model):
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
        "mistake": "The exponent is i/d_model instead of 2i/d_model, so the frequencies fall too slowly (i counts pairs).",
        "keywords": [r"2i|pair index", r"2 ?\* ?i", r"2·i", r"i ?/ ?d_model", r"counts pairs"],
        "kind": "scale",
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex1_pe_table_loops",
        "code": r'''def pe_table_loops(seq_len, d_model):
    """The sinusoidal table, one entry at a time.

    ->  (seq_len, d_model): row pos is PE_pos; sin on even features, cos on odd ones
    """
    # YOUR CODE HERE
    table = torch.zeros(seq_len, d_model)
    for pos in range(seq_len):
        for j in range(d_model):
            angle = pos / (10000 ** (j / d_model))
            if j % 2 == 0:
                table[pos, j] = math.sin(angle)
            else:
                table[pos, j] = math.cos(angle)
    return table
''',
        "correct": False,
        "mistake": "Uses the feature index j in the exponent, so each odd (cosine) feature gets the exponent (2i+1)/d_model instead of sharing 2i/d_model with its sine partner.",
        "keywords": [
            r"odd|j ?/ ?d_model",
            r"2i ?\+ ?1",
            r"partner",
            r"same frequency",
            r"feature index",
        ],
        "kind": "index",
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
        for i in range(d_model // 2):
            omega = 1 / 10000 ** (2 * i // d_model)
            pe[pos, 2 * i] = math.sin(pos * omega)
            pe[pos, 2 * i + 1] = math.cos(pos * omega)
    return pe
''',
        "correct": False,
        "mistake": "Integer division: 2 * i // d_model is 0 for every pair, so every pair gets the frequency 1.",
        "keywords": [r"integer", r"//", r"floor", r"division"],
        "kind": "python slip",
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex1_pe_table_loops",
        "code": r'''def pe_table_loops(seq_len, d_model):
    """The sinusoidal table, one entry at a time.

    ->  (seq_len, d_model): row pos is PE_pos; sin on even features, cos on odd ones
    """
    table = torch.zeros(seq_len, d_model)
    for pos in range(seq_len):
        for i in range(d_model // 2 - 1):
            w = 1.0 / (10000 ** (2 * i / d_model))
            table[pos, 2 * i] = math.sin(pos * w)
            table[pos, 2 * i + 1] = math.cos(pos * w)
    return table
''',
        "correct": False,
        "mistake": "Off by one in the range over pairs: range(d_model // 2 - 1) never fills the last pair, which stays 0.",
        "keywords": [
            r"off.by.one",
            r"range",
            r"last pair",
            r"last two (features|columns)",
            r"- ?1\)",
        ],
        "kind": "off-by-one",
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex1_pe_table_loops",
        "code": r'''def pe_table_loops(seq_len, d_model):
    """The sinusoidal table, one entry at a time.

    ->  (seq_len, d_model): row pos is PE_pos; sin on even features, cos on odd ones
    """
    table = torch.zeros(seq_len, d_model)
    for row in range(seq_len):
        pos = row + 1  # first position
        for i in range(0, d_model, 2):
            angle = pos / 10000 ** (i / d_model)
            table[row, i] = math.sin(angle)
            table[row, i + 1] = math.cos(angle)
    return table
''',
        "correct": False,
        "mistake": "Counts positions from 1 instead of 0, so every row is the table's next row (row 0 should be sin 0 = 0, cos 0 = 1).",
        "keywords": [
            r"from (1|one)|shift\w* by one",
            r"from (0|zero)|one position",
            r"pos(ition)? ?\+ ?1",
            r"row ?\+ ?1",
            r"position 0",
        ],
        "kind": "off-by-one",
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex1_pe_table_loops",
        "code": r'''def pe_table_loops(seq_len, d_model):
    """The sinusoidal table, one entry at a time.

    ->  (seq_len, d_model): row pos is PE_pos; sin on even features, cos on odd ones
    """
    table = torch.zeros(seq_len, d_model)
    for pos in range(seq_len):
        for feature in range(d_model):
            i = feature // 2  # the pair this feature belongs to
            omega = math.exp(-math.log(10000.0) * 2 * i / d_model)
            if feature % 2 == 0:
                table[pos, feature] = math.sin(pos * omega)
            else:
                table[pos, feature] = math.cos(pos * omega)
    return table
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex2_pe_table",
        "code": r'''def pe_table(seq_len, d_model):
    """The sinusoidal table without Python loops.

    ->  (seq_len, d_model): row pos is PE_pos; sin on even features, cos on odd ones
    """
    positions = torch.arange(seq_len)[:, None]
    freqs = 1.0 / 10000 ** (torch.arange(0, d_model, 2) / d_model)
    angles = positions * freqs
    table = torch.zeros(seq_len, d_model)
    table[:, 0::2] = torch.cos(angles)
    table[:, 1::2] = torch.sin(angles)
    return table
''',
        "correct": False,
        "mistake": "Sine and cosine are swapped: the even features get the cosine and the odd ones the sine.",
        "keywords": [
            r"swap|even features get the cos",
            r"exchang",
            r"other way",
            r"cos\w* on (the )?even",
            r"sin\w* on (the )?odd",
        ],
        "kind": "function swap",
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex2_pe_table",
        "code": r'''def pe_table(seq_len, d_model):
    """The sinusoidal table without Python loops.

    ->  (seq_len, d_model): row pos is PE_pos; sin on even features, cos on odd ones
    """
    # YOUR CODE HERE
    pos = torch.arange(seq_len, dtype=torch.float32)[:, None]
    two_i = torch.arange(0, d_model, 2, dtype=torch.float32)
    angles = pos * 10000 ** (two_i / d_model)
    pe = torch.zeros(seq_len, d_model)
    pe[:, 0::2] = torch.sin(angles)
    pe[:, 1::2] = torch.cos(angles)
    return pe
''',
        "correct": False,
        "mistake": "Multiplies the positions by 10000^(2i/d_model) instead of dividing by it: the frequencies grow instead of falling (the exponent's sign is lost).",
        "keywords": [r"divid|sign", r"multipl|minus", r"reciprocal|grow", r"invers", r"negative"],
        "kind": "scale",
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex2_pe_table",
        "code": r'''def pe_table(seq_len, d_model):
    """The sinusoidal table without Python loops.

    ->  (seq_len, d_model): row pos is PE_pos; sin on even features, cos on odd ones
    """
    position = torch.arange(seq_len).unsqueeze(1).float()
    omega = torch.exp(-math.log(10000.0) * torch.arange(0, d_model, 2).float() / d_model)
    angles = position * omega  # (seq_len, d_model / 2)
    return torch.cat([torch.sin(angles), torch.cos(angles)], dim=1)
''',
        "correct": False,
        "mistake": "Puts all the sines in the first half of the features and all the cosines in the second half instead of interleaving them (sin on even features, cos on odd ones).",
        "keywords": [r"interleav|1::2", r"half", r"halves", r"alternat", r"0::2"],
        "kind": "concat order",
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex2_pe_table",
        "code": r'''def pe_table(seq_len, d_model):
    """The sinusoidal table without Python loops.

    ->  (seq_len, d_model): row pos is PE_pos; sin on even features, cos on odd ones
    """
    positions = torch.arange(seq_len).float()[:, None]
    frequencies = torch.exp(-math.log10(10000) * torch.arange(0, d_model, 2).float() / d_model)
    angles = positions * frequencies[None, :]
    table = torch.empty(seq_len, d_model)
    table[:, ::2] = torch.sin(angles)
    table[:, 1::2] = torch.cos(angles)
    return table
''',
        "correct": False,
        "mistake": "Uses math.log10 where the natural logarithm belongs: exp(-log10(10000)·2i/d) is e^(-4·2i/d), not 10000^(-2i/d).",
        "keywords": [r"log10|logarithm", r"natural log", r"\bln\b", r"math\.log\b", r"base (10|e)"],
        "kind": "function swap",
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex2_pe_table",
        "code": r'''def pe_table(seq_len, d_model):
    """The sinusoidal table without Python loops.

    ->  (seq_len, d_model): row pos is PE_pos; sin on even features, cos on odd ones
    """
    pos = torch.arange(seq_len, dtype=torch.float64)[:, None]
    omega = torch.pow(10000.0, -torch.arange(0, d_model, 2, dtype=torch.float64) / d_model)
    angles = pos * omega  # (seq_len, d_model // 2), in float64 for accuracy
    # (sin, cos) side by side for every pair, then flattened: sin, cos, sin, cos, ...
    return torch.stack([angles.sin(), angles.cos()], dim=-1).flatten(start_dim=1).float()
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex3_positional_encoding",
        "code": r'''class PositionalEncoding(nn.Module):
    """x (B, T, d_model) -> x + PE[:T], the same position vectors for every sequence."""

    def __init__(self, d_model, max_len=500):
        super().__init__()
        self.table = nn.Parameter(sinusoidal_table(max_len, d_model), requires_grad=False)

    def forward(self, x):
        return x + self.table[: x.shape[1]]
''',
        "correct": False,
        "mistake": "Stores the table as an nn.Parameter (even with requires_grad=False) instead of a buffer registered with register_buffer.",
        "keywords": [r"parameter", r"register_buffer"],
        "kind": "state",
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex3_positional_encoding",
        "code": r'''class PositionalEncoding(nn.Module):
    """x (B, T, d_model) -> x + PE[:T], the same position vectors for every sequence."""

    def __init__(self, d_model, max_len=500):
        super().__init__()
        # YOUR CODE HERE
        self.table = sinusoidal_table(max_len, d_model)

    def forward(self, x):
        # YOUR CODE HERE
        T = x.size(1)
        return x + self.table[:T]
''',
        "correct": False,
        "mistake": "Keeps the table as a plain attribute, not a registered buffer, so the module does not own it (module.to(...) and module.double() leave it behind).",
        "keywords": [r"buffer", r"register_buffer", r"attribute"],
        "kind": "state",
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex3_positional_encoding",
        "code": r'''class PositionalEncoding(nn.Module):
    """x (B, T, d_model) -> x + PE[:T], the same position vectors for every sequence."""

    def __init__(self, d_model, max_len=500):
        super().__init__()
        self.register_buffer("table", sinusoidal_table(max_len, d_model), persistent=False)

    def forward(self, x):
        x += self.table[: x.shape[1]]
        return x
''',
        "correct": False,
        "mistake": "Adds the table in place with +=, which changes the caller's input tensor x.",
        "keywords": [
            r"in.place",
            r"\+=",
            r"overwrit",
            r"mutat",
            r"changes? (the )?(caller's )?(input|argument|x)",
        ],
        "kind": "in-place",
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex3_positional_encoding",
        "code": r'''class PositionalEncoding(nn.Module):
    """x (B, T, d_model) -> x + PE[:T], the same position vectors for every sequence."""

    def __init__(self, d_model, max_len=500):
        super().__init__()
        self.d_model = d_model
        self.register_buffer("table", sinusoidal_table(max_len, d_model), persistent=False)

    def forward(self, x):
        seq_len = x.shape[1]
        return x * math.sqrt(self.d_model) + self.table[:seq_len]
''',
        "correct": False,
        "mistake": "Multiplies the input by √d_model before adding the positions; the module should add PE[:T] to x as it is.",
        "keywords": [r"sqrt", r"√", r"square root", r"scal", r"multipl"],
        "kind": "scale",
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex3_positional_encoding",
        "code": r'''class PositionalEncoding(nn.Module):
    """x (B, T, d_model) -> x + PE[:T], the same position vectors for every sequence."""

    def __init__(self, d_model, max_len=500):
        super().__init__()
        self.register_buffer("table", sinusoidal_table(max_len, d_model))

    def forward(self, x):
        return x + self.table[: x.shape[-2]]
''',
        "correct": False,
        "mistake": "Registers the buffer without persistent=False, so the table is written to the module's state dict.",
        "keywords": [r"persistent", r"state.?dict"],
        "kind": "missing term",
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex3_positional_encoding",
        "code": r'''class PositionalEncoding(nn.Module):
    """x (B, T, d_model) -> x + PE[:T], the same position vectors for every sequence."""

    def __init__(self, d_model, max_len=500):
        super().__init__()
        table = sinusoidal_table(d_model, max_len)
        self.register_buffer("table", table, persistent=False)

    def forward(self, x):
        return x + self.table[: x.shape[1]]
''',
        "correct": False,
        "mistake": "Calls sinusoidal_table(d_model, max_len) with its arguments in the wrong order: the table has to be sinusoidal_table(max_len, d_model), one row per position.",
        "keywords": [r"argument", r"swap", r"revers", r"wrong order", r"sinusoidal_table\(d_model"],
        "kind": "operand swap",
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex3_positional_encoding",
        "code": r'''class PositionalEncoding(nn.Module):
    """x (B, T, d_model) -> x + PE[:T], the same position vectors for every sequence."""

    def __init__(self, d_model, max_len=500):
        super().__init__()
        self.register_buffer("table", sinusoidal_table(max_len, d_model), persistent=False)

    def forward(self, x):
        T = x.size(-2)
        positions = self.table.narrow(0, 0, T).unsqueeze(0)  # (1, T, d_model)
        return x + positions.to(dtype=x.dtype)
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
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
        w = 1 / 10000 ** (2 * i / d_model)
        c, s = math.cos(k * w), math.sin(k * w)
        R[2 * i, 2 * i], R[2 * i, 2 * i + 1] = c, -s
        R[2 * i + 1, 2 * i], R[2 * i + 1, 2 * i + 1] = s, c
    return R
''',
        "correct": False,
        "mistake": "The signs of the sines are swapped (the usual rotation [[cos, −sin], [sin, cos]]), which turns the (sin, cos) pairs the wrong way: the block must be [[cos kω, sin kω], [−sin kω, cos kω]].",
        "keywords": [
            r"sign|wrong way",
            r"minus|direction",
            r"negative|transpos",
            r"-sin|backwards",
            r"−sin",
        ],
        "kind": "sign",
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex4_rotation_matrix",
        "code": r'''def rotation_matrix(k, d_model):
    """R with PE[pos + k] = R @ PE[pos] for every position.

    ->  (d_model, d_model), block diagonal with one 2×2 rotation per (sin, cos) pair
    """
    # YOUR CODE HERE
    R = torch.zeros(d_model, d_model)
    for i in range(d_model // 2):
        omega = 10000 ** (-2 * i / d_model)
        block = torch.tensor([[math.cos(omega), math.sin(omega)],
                              [-math.sin(omega), math.cos(omega)]])
        R[2 * i:2 * i + 2, 2 * i:2 * i + 2] = block
    return R
''',
        "correct": False,
        "mistake": "Rotates each pair by ω_i instead of k·ω_i: the offset k is never used, so the matrix is R_1 for every k.",
        "keywords": [r"\bk\b|R_1", r"offset|ignor", r"k ?\*", r"k·", r"times k"],
        "kind": "ignored argument",
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
        theta = k / 10000 ** (i / d_model)
        R[2 * i:2 * i + 2, 2 * i:2 * i + 2] = torch.tensor(
            [[math.cos(theta), math.sin(theta)], [-math.sin(theta), math.cos(theta)]])
    return R
''',
        "correct": False,
        "mistake": "Uses the frequency 1/10000^(i/d_model) instead of 1/10000^(2i/d_model) for pair i.",
        "keywords": [r"2i", r"2 ?\* ?i", r"i ?/ ?d_model", r"exponent", r"pair index"],
        "kind": "scale",
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
        omega = 1.0 / 10000 ** (2 * i / d_model)
        c, s = math.cos(k * omega), math.sin(k * omega)
        R[i:i + 2, i:i + 2] = torch.tensor([[c, s], [-s, c]])
    return R
''',
        "correct": False,
        "mistake": "Places block i at rows and columns i, i+1 instead of 2i, 2i+1, so the blocks overlap and each overwrites part of the previous one.",
        "keywords": [
            r"2i|wrong (place|index|position)",
            r"2 ?\* ?i",
            r"overlap",
            r"\[i ?: ?i ?\+ ?2\]",
            r"rows? and columns? i\b",
        ],
        "kind": "index",
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex4_rotation_matrix",
        "code": r'''def rotation_matrix(k, d_model):
    """R with PE[pos + k] = R @ PE[pos] for every position.

    ->  (d_model, d_model), block diagonal with one 2×2 rotation per (sin, cos) pair
    """
    omegas = 10000.0 ** (-torch.arange(0, d_model, 2, dtype=torch.float64) / d_model)
    blocks = []
    for angle in (k * omegas):
        c, s = torch.cos(angle), torch.sin(angle)
        blocks.append(torch.stack([torch.stack([c, s]), torch.stack([-s, c])]))
    return torch.block_diag(*blocks)
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
    },
    # ------------------------------------------------------------------ 05_encoder
    {
        "notebook": "05_encoder",
        "cell": "ex1_layer_norm",
        "code": r'''def layer_norm(x, gamma, beta, eps=1e-5):
    """Normalise every token's features, then scale by gamma and shift by beta.

    x: (..., d_model); gamma, beta: (d_model,)  ->  (..., d_model)
    """
    mean = x.mean(dim=-1, keepdim=True)
    var = x.var(dim=-1, keepdim=True)
    return gamma * (x - mean) / torch.sqrt(var + eps) + beta
''',
        "correct": False,
        "mistake": "Uses torch.var's default unbiased variance (dividing by d − 1) instead of the biased one (dividing by d).",
        "keywords": [r"unbiased|correction", r"biased", r"d ?- ?1", r"n ?- ?1", r"bessel"],
        "kind": "function swap",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex1_layer_norm",
        "code": r'''def layer_norm(x, gamma, beta, eps=1e-5):
    """Normalise every token's features, then scale by gamma and shift by beta.

    x: (..., d_model); gamma, beta: (d_model,)  ->  (..., d_model)
    """
    # YOUR CODE HERE
    mu = x.mean(dim=-1, keepdim=True)
    sigma = x.std(dim=-1, keepdim=True, unbiased=False)
    return gamma * (x - mu) / (sigma + eps) + beta
''',
        "correct": False,
        "mistake": "Adds ε to the standard deviation instead of to the variance inside the square root: it computes (x − μ)/(σ + ε), not (x − μ)/√(σ² + ε).",
        "keywords": [r"eps|ε|epsilon", r"inside|outside|sqrt|√|square root|variance"],
        "kind": "order",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex1_layer_norm",
        "code": r'''def layer_norm(x, gamma, beta, eps=1e-5):
    """Normalise every token's features, then scale by gamma and shift by beta.

    x: (..., d_model); gamma, beta: (d_model,)  ->  (..., d_model)
    """
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    normalised = (x - mean) / (var + eps)
    return gamma * normalised + beta
''',
        "correct": False,
        "mistake": "Divides by the variance plus ε instead of by its square root, the standard deviation.",
        "keywords": [r"sqrt|√|square root|standard deviation|std", r"variance"],
        "kind": "missing term",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex1_layer_norm",
        "code": r'''def layer_norm(x, gamma, beta, eps=1e-5):
    """Normalise every token's features, then scale by gamma and shift by beta.

    x: (..., d_model); gamma, beta: (d_model,)  ->  (..., d_model)
    """
    mu = x.mean(-1, keepdim=True)
    var = x.var(-1, keepdim=True, unbiased=False)
    x_hat = (x - mu) / torch.sqrt(var + eps)
    return beta * x_hat + gamma
''',
        "correct": False,
        "mistake": "Swaps γ and β: scales by β and shifts by γ.",
        "keywords": [r"gamma|beta|γ|β", r"swap|revers|exchang|mix|wrong way|other way"],
        "kind": "operand swap",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex1_layer_norm",
        "code": r'''def layer_norm(x, gamma, beta, eps=1e-5):
    """Normalise every token's features, then scale by gamma and shift by beta.

    x: (..., d_model); gamma, beta: (d_model,)  ->  (..., d_model)
    """
    mean = x.mean()
    var = x.var(unbiased=False)
    return gamma * (x - mean) / torch.sqrt(var + eps) + beta
''',
        "correct": False,
        "mistake": "Computes one mean and one variance over the whole tensor instead of per token over its last axis (the features).",
        "keywords": [
            r"whole|entire|all (the )?(entries|elements|values|tokens)|every token|each token|per token|over the batch",
            r"last (axis|dim)|dim ?= ?-1",
        ],
        "kind": "axis",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex1_layer_norm",
        "code": r'''def layer_norm(x, gamma, beta, eps=1e-5):
    """Normalise every token's features, then scale by gamma and shift by beta.

    x: (..., d_model); gamma, beta: (d_model,)  ->  (..., d_model)
    """
    var, mean = torch.var_mean(x, dim=-1, keepdim=True, correction=0)
    return (x - mean) * torch.rsqrt(var + eps) * gamma + beta
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex1_layer_norm",
        "code": r'''def layer_norm(x, gamma, beta, eps=1e-5):
    """Normalise every token's features, then scale by gamma and shift by beta.

    x: (..., d_model); gamma, beta: (d_model,)  ->  (..., d_model)
    """
    d = x.shape[-1]
    mu = x.sum(dim=-1, keepdim=True) / d
    centred = x - mu
    sigma2 = (centred * centred).sum(dim=-1, keepdim=True) / d
    return centred / (sigma2 + eps) ** 0.5 * gamma + beta
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex2_feed_forward",
        "code": r'''def feed_forward(x, W1, b1, W2, b2):
    """Linear -> ReLU -> Linear, applied to every token.

    x: (..., d_model); W1: (d_ff, d_model); b1: (d_ff,); W2: (d_model, d_ff); b2: (d_model,)
    ->  (..., d_model)
    """
    hidden = nn.functional.gelu(x @ W1.T + b1)
    return hidden @ W2.T + b2
''',
        "correct": False,
        "mistake": "Uses GELU as the activation where the block uses ReLU.",
        "keywords": [r"gelu|relu", r"activation"],
        "kind": "function swap",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex2_feed_forward",
        "code": r'''def feed_forward(x, W1, b1, W2, b2):
    """Linear -> ReLU -> Linear, applied to every token.

    x: (..., d_model); W1: (d_ff, d_model); b1: (d_ff,); W2: (d_model, d_ff); b2: (d_model,)
    ->  (..., d_model)
    """
    # YOUR CODE HERE
    h = torch.relu(x @ W1.T + b1)
    return torch.relu(h @ W2.T + b2)
''',
        "correct": False,
        "mistake": "Applies ReLU after the second layer too; the output of the second linear layer is returned as it is.",
        "keywords": [
            r"(relu|activation).{0,60}(second|output|last|end|after|twice|both)",
            r"(second|output|last|both|twice).{0,60}(relu|activation)",
        ],
        "kind": "extra term",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex2_feed_forward",
        "code": r'''def feed_forward(x, W1, b1, W2, b2):
    """Linear -> ReLU -> Linear, applied to every token.

    x: (..., d_model); W1: (d_ff, d_model); b1: (d_ff,); W2: (d_model, d_ff); b2: (d_model,)
    ->  (..., d_model)
    """
    h = torch.relu(x @ W1.T + b1)
    h = nn.functional.dropout(h, p=0.1)  # regularise, as in the paper
    return h @ W2.T + b2
''',
        "correct": False,
        "mistake": "Adds dropout that is always on (F.dropout defaults to training=True), so the output is random and some hidden units are zeroed.",
        "keywords": [r"dropout", r"training ?= ?True|always on|random"],
        "kind": "extra term",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex2_feed_forward",
        "code": r'''def feed_forward(x, W1, b1, W2, b2):
    """Linear -> ReLU -> Linear, applied to every token.

    x: (..., d_model); W1: (d_ff, d_model); b1: (d_ff,); W2: (d_model, d_ff); b2: (d_model,)
    ->  (..., d_model)
    """
    hidden = torch.relu(torch.matmul(x, W1.T) + b1)
    out = torch.matmul(hidden, W2.T)
    return out
''',
        "correct": False,
        "mistake": "Leaves out the second layer's bias b2.",
        "keywords": [r"b2", r"bias"],
        "kind": "missing term",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex2_feed_forward",
        "code": r'''def feed_forward(x, W1, b1, W2, b2):
    """Linear -> ReLU -> Linear, applied to every token.

    x: (..., d_model); W1: (d_ff, d_model); b1: (d_ff,); W2: (d_model, d_ff); b2: (d_model,)
    ->  (..., d_model)
    """
    hidden = nn.functional.linear(x, W1, b1).clamp(min=0)
    return nn.functional.linear(hidden, W2, b2)
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex3_encoder_block",
        "code": r'''def encoder_block(x, attention, feed_forward_net, norm1, norm2, mask=None):
    """Post-norm encoder block: LN1(x + MHA(x)), then LN2(h + FFN(h)).

    x: (B, T, d_model); mask: bool, True = may attend  ->  (B, T, d_model)
    """
    h = x + attention(norm1(x), mask=mask)[0]
    return h + feed_forward_net(norm2(h))
''',
        "correct": False,
        "mistake": "Wires the block pre-norm (the norm inside each branch, before the sublayer) instead of post-norm (the norm after each residual addition).",
        "keywords": [
            r"pre-?norm",
            r"post-?norm",
            r"norm first",
            r"norm(ali[sz]\w*)? before",
            r"inside (each|the) branch",
        ],
        "kind": "order",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex3_encoder_block",
        "code": r'''def encoder_block(x, attention, feed_forward_net, norm1, norm2, mask=None):
    """Post-norm encoder block: LN1(x + MHA(x)), then LN2(h + FFN(h)).

    x: (B, T, d_model); mask: bool, True = may attend  ->  (B, T, d_model)
    """
    # YOUR CODE HERE
    attended = attention(x, mask=mask)[0]
    h = norm1(x + attended)
    return norm2(x + feed_forward_net(h))
''',
        "correct": False,
        "mistake": "The second residual connection adds the block's input x instead of h, the output of the first sublayer: LN2(x + FFN(h)) instead of LN2(h + FFN(h)).",
        "keywords": [r"residual|skip", r"\bh\b|first sublayer|wrong tensor|block's input"],
        "kind": "operand swap",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex3_encoder_block",
        "code": r'''def encoder_block(x, attention, feed_forward_net, norm1, norm2, mask=None):
    """Post-norm encoder block: LN1(x + MHA(x)), then LN2(h + FFN(h)).

    x: (B, T, d_model); mask: bool, True = may attend  ->  (B, T, d_model)
    """
    h = norm2(x + attention(x, mask=mask)[0])
    return norm1(h + feed_forward_net(h))
''',
        "correct": False,
        "mistake": "The two norms are swapped: norm2 follows the attention and norm1 the feed-forward network.",
        "keywords": [r"norm1|LN₂", r"norm2", r"LN1", r"LN2", r"LN₁"],
        "kind": "operand swap",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex3_encoder_block",
        "code": r'''def encoder_block(x, attention, feed_forward_net, norm1, norm2, mask=None):
    """Post-norm encoder block: LN1(x + MHA(x)), then LN2(h + FFN(h)).

    x: (B, T, d_model); mask: bool, True = may attend  ->  (B, T, d_model)
    """
    out, _ = attention(x)
    h = norm1(x + out)
    return norm2(h + feed_forward_net(h))
''',
        "correct": False,
        "mistake": "Never passes the mask on to the attention, so padding is attended to.",
        "keywords": [r"mask", r"padding"],
        "kind": "ignored argument",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex3_encoder_block",
        "code": r'''def encoder_block(x, attention, feed_forward_net, norm1, norm2, mask=None):
    """Post-norm encoder block: LN1(x + MHA(x)), then LN2(h + FFN(h)).

    x: (B, T, d_model); mask: bool, True = may attend  ->  (B, T, d_model)
    """
    h = norm1(x + attention(x, mask=mask))
    out = norm2(h + feed_forward_net(h))
    return out
''',
        "correct": False,
        "mistake": "Adds the attention module's (output, weights) pair to x as if it were a tensor; take its first element, attention(x, mask=mask)[0].",
        "keywords": [r"tuple", r"pair", r"\[0\]", r"first element"],
        "kind": "structure",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex3_encoder_block",
        "code": r'''def encoder_block(x, attention, feed_forward_net, norm1, norm2, mask=None):
    """Post-norm encoder block: LN1(x + MHA(x)), then LN2(h + FFN(h)).

    x: (B, T, d_model); mask: bool, True = may attend  ->  (B, T, d_model)
    """
    attended, _weights = attention(x, mask=mask)
    residual = x + attended
    h = norm1(residual)
    transformed = feed_forward_net(h)
    return norm2(h + transformed)
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
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
    return h + feed_forward_net(norm2(h))
''',
        "correct": False,
        "mistake": "Overwrites x with LN1(x), so the residual path carries the normalised input instead of x itself: h = LN1(x) + MHA(LN1(x)).",
        "keywords": [
            r"normali[sz]ed (input|x)|raw x",
            r"LN1\(x\)|residual (path|stream)",
            r"norm1\(x\)",
            r"overwr",
            r"identity",
        ],
        "kind": "operand swap",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex4_pre_norm_block",
        "code": r'''def pre_norm_block(x, attention, feed_forward_net, norm1, norm2, mask=None):
    """Pre-norm encoder block: h = x + MHA(LN1(x)), then h + FFN(LN2(h)).

    x: (B, T, d_model); mask: bool, True = may attend  ->  (B, T, d_model)
    """
    # YOUR CODE HERE
    h = x + attention(norm1(x), mask=mask)[0]
    return h + feed_forward_net(norm1(h))
''',
        "correct": False,
        "mistake": "Uses norm1 in front of the feed-forward network as well; that branch needs its own norm2.",
        "keywords": [r"norm1", r"norm2", r"LN1", r"LN2"],
        "kind": "operand swap",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex4_pre_norm_block",
        "code": r'''def pre_norm_block(x, attention, feed_forward_net, norm1, norm2, mask=None):
    """Pre-norm encoder block: h = x + MHA(LN1(x)), then h + FFN(LN2(h)).

    x: (B, T, d_model); mask: bool, True = may attend  ->  (B, T, d_model)
    """
    attended, _ = attention(norm1(x), mask=mask)
    h = x + attended
    return h + feed_forward_net(h)
''',
        "correct": False,
        "mistake": "Leaves out norm2: the feed-forward network reads h instead of LN2(h).",
        "keywords": [r"norm2", r"LN2", r"second (layer )?norm"],
        "kind": "missing term",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex4_pre_norm_block",
        "code": r'''def pre_norm_block(x, attention, feed_forward_net, norm1, norm2, mask=None):
    """Pre-norm encoder block: h = x + MHA(LN1(x)), then h + FFN(LN2(h)).

    x: (B, T, d_model); mask: bool, True = may attend  ->  (B, T, d_model)
    """
    h = x + attention(norm1(x), mask=mask)[0]
    out = h + feed_forward_net(norm2(x))
    return out
''',
        "correct": False,
        "mistake": "The feed-forward branch reads LN2(x), the block's input, instead of LN2(h), the output of the attention sublayer.",
        "keywords": [
            r"\bh\b|first sublayer",
            r"LN2\(x\)|wrong tensor",
            r"norm2\(x\)",
            r"block's input",
            r"attention('s)? (sublayer|output)",
        ],
        "kind": "operand swap",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex4_pre_norm_block",
        "code": r'''def pre_norm_block(x, attention, feed_forward_net, norm1, norm2, mask=None):
    """Pre-norm encoder block: h = x + MHA(LN1(x)), then h + FFN(LN2(h)).

    x: (B, T, d_model); mask: bool, True = may attend  ->  (B, T, d_model)
    """
    residual = x
    x = norm1(x)
    x, _ = attention(x, mask=mask)
    x = x + residual
    residual = x
    x = feed_forward_net(norm2(x))
    return x + residual
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex5_encode",
        "code": r'''def encode(x, blocks, mask=None):
    """Run the blocks in order.

    x: (B, T, d_model)  ->  output (B, T, d_model), list of len(blocks) weights (B, H, T, T)
    """
    for block in blocks:
        maps = []
        x, weights = block(x, mask, need_weights=True)
        maps.append(weights)
    return x, maps
''',
        "correct": False,
        "mistake": "Creates the list of maps inside the loop, so it is emptied at every block and only the last block's weights are returned.",
        "keywords": [
            r"inside|every (block|iteration)",
            r"in the loop|only the last",
            r"reset",
            r"emptied",
            r"re-?creat",
        ],
        "kind": "state",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex5_encode",
        "code": r'''def encode(x, blocks, mask=None):
    """Run the blocks in order.

    x: (B, T, d_model)  ->  output (B, T, d_model), list of len(blocks) weights (B, H, T, T)
    """
    # YOUR CODE HERE
    all_weights = []
    for block in blocks:
        out, w = block(x, mask, need_weights=True)
        all_weights.append(w)
    return out, all_weights
''',
        "correct": False,
        "mistake": "Every block is applied to the original input x instead of to the previous block's output, so the result is the last block applied to x alone.",
        "keywords": [
            r"original|the same input",
            r"previous (block|output)|x alone",
            r"chain",
            r"in turn",
            r"each block('s)? output",
        ],
        "kind": "state",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex5_encode",
        "code": r'''def encode(x, blocks, mask=None):
    """Run the blocks in order.

    x: (B, T, d_model)  ->  output (B, T, d_model), list of len(blocks) weights (B, H, T, T)
    """
    maps = []
    for i, block in enumerate(blocks):
        x, weights = block(x, mask if i == 0 else None, need_weights=True)
        maps.append(weights)
    return x, maps
''',
        "correct": False,
        "mistake": "Passes the mask to the first block only; every later block runs without it.",
        "keywords": [
            r"first block|i ?== ?0",
            r"only the first",
            r"later blocks?",
            r"every block",
            r"all (the )?blocks",
        ],
        "kind": "state",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex5_encode",
        "code": r'''def encode(x, blocks, mask=None):
    """Run the blocks in order.

    x: (B, T, d_model)  ->  output (B, T, d_model), list of len(blocks) weights (B, H, T, T)
    """
    weights_per_block = []
    for block in reversed(blocks):
        x, w = block(x, mask, need_weights=True)
        weights_per_block.append(w)
    return x, weights_per_block
''',
        "correct": False,
        "mistake": "Runs the blocks in reverse order, last block first.",
        "keywords": [r"revers", r"backwards", r"last (block )?first", r"wrong order"],
        "kind": "order",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex5_encode",
        "code": r'''def encode(x, blocks, mask=None):
    """Run the blocks in order.

    x: (B, T, d_model)  ->  output (B, T, d_model), list of len(blocks) weights (B, H, T, T)
    """
    maps = []
    for block in blocks:
        x, weights = block(x, mask)
        maps.append(weights)
    return x, maps
''',
        "correct": False,
        "mistake": "Calls the blocks without need_weights=True, so every entry of the list of maps is None.",
        "keywords": [r"need_weights", r"None"],
        "kind": "ignored argument",
    },
    {
        "notebook": "05_encoder",
        "cell": "ex5_encode",
        "code": r'''def encode(x, blocks, mask=None):
    """Run the blocks in order.

    x: (B, T, d_model)  ->  output (B, T, d_model), list of len(blocks) weights (B, H, T, T)
    """
    maps = []
    h = x
    for block in blocks:
        h, attention_map = block(h, mask=mask, need_weights=True)
        maps.append(attention_map)
    return h, maps
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
    },
    # ------------------------------------------------------------------ 06_decoder
    {
        "notebook": "06_decoder",
        "cell": "ex1_causal_mask",
        "code": r'''def causal_mask(seq_len):
    """(seq_len, seq_len) boolean: entry [t, s] is True when query t may attend to key s <= t."""
    return torch.triu(torch.ones(seq_len, seq_len, dtype=torch.bool))
''',
        "correct": False,
        "mistake": "Keeps the upper triangle (torch.triu) instead of the lower one, so each token may attend to the future and not to the past.",
        "keywords": [r"upper", r"triu", r"above", r"future", r"transpos"],
        "kind": "function swap",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex1_causal_mask",
        "code": r'''def causal_mask(seq_len):
    """(seq_len, seq_len) boolean: entry [t, s] is True when query t may attend to key s <= t."""
    # YOUR CODE HERE
    t = torch.arange(seq_len)[:, None]  # query positions, down the rows
    s = torch.arange(seq_len)[None, :]  # key positions, along the columns
    return s < t
''',
        "correct": False,
        "mistake": "Uses s < t instead of s <= t, so the diagonal is False: a token may not attend to itself (and token 0 attends to nothing).",
        "keywords": [r"diagonal|strict", r"itself", r"own", r"<=", r"≤"],
        "kind": "off-by-one",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex1_causal_mask",
        "code": r'''def causal_mask(seq_len):
    """(seq_len, seq_len) boolean: entry [t, s] is True when query t may attend to key s <= t."""
    return torch.tril(torch.ones(seq_len, seq_len))
''',
        "correct": False,
        "mistake": "Returns a float tensor of 1s and 0s instead of a boolean mask (dtype torch.bool).",
        "keywords": [r"bool", r"dtype", r"float"],
        "kind": "dtype",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex1_causal_mask",
        "code": r'''def causal_mask(seq_len):
    """(seq_len, seq_len) boolean: entry [t, s] is True when query t may attend to key s <= t."""
    allowed = torch.tril(torch.ones(seq_len, seq_len, dtype=torch.bool))
    return torch.where(allowed, 0.0, float("-inf"))
''',
        "correct": False,
        "mistake": "Returns PyTorch's additive mask (0 where allowed, −∞ above the diagonal) instead of the course's boolean mask, True where attention is allowed.",
        "keywords": [r"additive|float", r"-inf", r"−∞", r"-∞", r"bool"],
        "kind": "dtype",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex1_causal_mask",
        "code": r'''def causal_mask(seq_len):
    """(seq_len, seq_len) boolean: entry [t, s] is True when query t may attend to key s <= t."""
    future = torch.ones(seq_len, seq_len, dtype=torch.bool).triu(diagonal=1)  # strictly above
    return ~future
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex1_causal_mask",
        "code": r'''def causal_mask(seq_len):
    """(seq_len, seq_len) boolean: entry [t, s] is True when query t may attend to key s <= t."""
    positions = torch.arange(seq_len)
    return positions.unsqueeze(1) >= positions.unsqueeze(0)
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
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
    weights = torch.softmax(scores, dim=-1)
    return weights @ v, weights
''',
        "correct": False,
        "mistake": "Sets the future scores to 0 instead of −∞, so after the softmax the future tokens still get weight (e⁰ = 1).",
        "keywords": [r"-inf|\b(to|with|value) 0\b", r"−∞|zero", r"-∞", r"infinit", r"minus inf"],
        "kind": "wrong constant",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex2_masked_self_attention",
        "code": r'''def masked_self_attention(x, to_q, to_k, to_v):
    """Causally masked single-head self-attention.

    x: (..., T, d_model); to_q, to_k, to_v: nn.Linear  ->  output (..., T, d_v), weights (..., T, T)
    """
    # YOUR CODE HERE
    q = to_q(x)
    k = to_k(x)
    v = to_v(x)
    mask = causal_mask(x.shape[-2])
    scores = q @ k.transpose(-2, -1) / math.sqrt(k.shape[-1])
    scores = scores.masked_fill(mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    return weights @ v, weights
''',
        "correct": False,
        "mistake": "Fills −∞ where the mask is True (the allowed past) instead of where it is False (the future): the polarity is reversed.",
        "keywords": [
            r"polarity|opposite",
            r"invert|negat",
            r"flip|wrong way",
            r"~|where (the mask is )?true",
            r"revers|the past",
        ],
        "kind": "polarity",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex2_masked_self_attention",
        "code": r'''def masked_self_attention(x, to_q, to_k, to_v):
    """Causally masked single-head self-attention.

    x: (..., T, d_model); to_q, to_k, to_v: nn.Linear  ->  output (..., T, d_v), weights (..., T, T)
    """
    q, k, v = to_q(x), to_k(x), to_v(x)
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    weights = torch.softmax(scores, dim=-1)
    weights = weights * causal_mask(x.size(-2))  # zero out the future
    return weights @ v, weights
''',
        "correct": False,
        "mistake": "Zeroes the future weights after the softmax instead of masking the scores before it, so the remaining weights of each row no longer sum to 1.",
        "keywords": [
            r"after (the )?softmax",
            r"before (the )?softmax",
            r"renormali",
            r"sums? to (1|one)",
            r"no longer sum",
        ],
        "kind": "order",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex2_masked_self_attention",
        "code": r'''def masked_self_attention(x, to_q, to_k, to_v):
    """Causally masked single-head self-attention.

    x: (..., T, d_model); to_q, to_k, to_v: nn.Linear  ->  output (..., T, d_v), weights (..., T, T)
    """
    q, k, v = to_q(x), to_k(x), to_v(x)
    scores = q @ k.transpose(-2, -1)
    allowed = causal_mask(scores.shape[-1])
    scores = scores.masked_fill(~allowed, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    return weights @ v, weights
''',
        "correct": False,
        "mistake": "Leaves out the scaling: the scores are q·k, not q·k/√d_k.",
        "keywords": [r"scal", r"sqrt", r"√", r"square root"],
        "kind": "scale",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex2_masked_self_attention",
        "code": r'''def masked_self_attention(x, to_q, to_k, to_v):
    """Causally masked single-head self-attention.

    x: (..., T, d_model); to_q, to_k, to_v: nn.Linear  ->  output (..., T, d_v), weights (..., T, T)
    """
    q, k, v = to_q(x), to_k(x), to_v(x)
    d_k = q.shape[-1]
    T = x.shape[0]
    scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(d_k)
    scores = scores.masked_fill(~causal_mask(T), float("-inf"))
    weights = scores.softmax(dim=-1)
    return torch.matmul(weights, v), weights
''',
        "correct": False,
        "mistake": "Takes the sequence length from x.shape[0], which is the batch size for a batched (B, T, d) input; T is x.shape[-2].",
        "keywords": [
            r"shape\[0\]|wrong (axis|dimension|size)",
            r"shape\[-2\]",
            r"batch",
            r"sequence length",
            r"number of tokens",
        ],
        "kind": "axis",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex2_masked_self_attention",
        "code": r'''def masked_self_attention(x, to_q, to_k, to_v):
    """Causally masked single-head self-attention.

    x: (..., T, d_model); to_q, to_k, to_v: nn.Linear  ->  output (..., T, d_v), weights (..., T, T)
    """
    q, k, v = to_q(x), to_k(x), to_v(x)
    scale = math.sqrt(x.shape[-1])
    scores = q @ k.transpose(-2, -1) / scale
    scores = scores.masked_fill(~causal_mask(x.shape[-2]), float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    return weights @ v, weights
''',
        "correct": False,
        "mistake": "Divides by √d_model, the width of the input x, instead of √d_k, the width of the queries and keys.",
        "keywords": [
            r"d_model",
            r"x\.shape",
            r"x\.size",
            r"width of (the )?input",
            r"input('s)? width",
        ],
        "kind": "scale",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex2_masked_self_attention",
        "code": r'''def masked_self_attention(x, to_q, to_k, to_v):
    """Causally masked single-head self-attention.

    x: (..., T, d_model); to_q, to_k, to_v: nn.Linear  ->  output (..., T, d_v), weights (..., T, T)
    """
    q, k, v = to_q(x).double(), to_k(x).double(), to_v(x)
    T, d_k = q.shape[-2], q.shape[-1]
    scores = torch.einsum("...td,...sd->...ts", q, k) / math.sqrt(d_k)
    scores = torch.where(causal_mask(T), scores, torch.tensor(float("-inf"), dtype=scores.dtype))
    scores = scores - scores.amax(dim=-1, keepdim=True)
    weights = scores.exp() / scores.exp().sum(dim=-1, keepdim=True)
    weights = weights.to(v.dtype)
    return weights @ v, weights
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex3_cross_attention",
        "code": r'''def cross_attention(x, memory, to_q, to_k, to_v):
    """Queries from the decoder's tokens x, keys and values from the encoder's memory.

    x: (B, T, d); memory: (B, S, d)  ->  output (B, T, d_v), weights (B, T, S)
    """
    q, k, v = to_q(x), to_k(x), to_v(x)
    return scaled_dot_product_attention(q, k, v, need_weights=True)
''',
        "correct": False,
        "mistake": "Makes the keys and values from the decoder's own tokens x instead of from the memory: this is self-attention, the memory is never used.",
        "keywords": [r"memory", r"encoder", r"source", r"self-attention"],
        "kind": "operand swap",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex3_cross_attention",
        "code": r'''def cross_attention(x, memory, to_q, to_k, to_v):
    """Queries from the decoder's tokens x, keys and values from the encoder's memory.

    x: (B, T, d); memory: (B, S, d)  ->  output (B, T, d_v), weights (B, T, S)
    """
    # YOUR CODE HERE
    queries = to_q(memory)
    keys = to_k(x)
    values = to_v(x)
    return scaled_dot_product_attention(queries, keys, values, need_weights=True)
''',
        "correct": False,
        "mistake": "The roles are reversed: the queries come from the memory and the keys and values from the decoder's tokens, so the result is (B, S, ·) instead of (B, T, ·).",
        "keywords": [
            r"revers|queries (come )?from (the )?memory",
            r"swap",
            r"roles",
            r"other way",
            r"exchang",
        ],
        "kind": "operand swap",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex3_cross_attention",
        "code": r'''def cross_attention(x, memory, to_q, to_k, to_v):
    """Queries from the decoder's tokens x, keys and values from the encoder's memory.

    x: (B, T, d); memory: (B, S, d)  ->  output (B, T, d_v), weights (B, T, S)
    """
    q, k, v = to_q(x), to_k(memory), to_v(memory)
    T, S = q.shape[-2], k.shape[-2]
    no_future = torch.ones(T, S, dtype=torch.bool).tril()  # decoders must not peek ahead
    return scaled_dot_product_attention(q, k, v, mask=no_future, need_weights=True)
''',
        "correct": False,
        "mistake": "Applies a causal (lower-triangular) mask in cross-attention; the source is complete before decoding starts, so every query may attend to every source token.",
        "keywords": [r"causal|future", r"triangular", r"tril", r"no mask", r"unmasked"],
        "kind": "extra term",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex3_cross_attention",
        "code": r'''def cross_attention(x, memory, to_q, to_k, to_v):
    """Queries from the decoder's tokens x, keys and values from the encoder's memory.

    x: (B, T, d); memory: (B, S, d)  ->  output (B, T, d_v), weights (B, T, S)
    """
    q, k, v = to_q(x), to_k(memory), to_v(memory)
    weights = torch.softmax(k @ q.transpose(-2, -1) / math.sqrt(q.shape[-1]), dim=-2)
    output = weights.transpose(-2, -1) @ v
    return output, weights
''',
        "correct": False,
        "mistake": "Returns the weights transposed, (B, S, T), one row per source token, instead of (B, T, S) with one row per decoder token.",
        "keywords": [r"transpos", r"\(B, S, T\)", r"rows? per (source|key)", r"orientation"],
        "kind": "layout",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex3_cross_attention",
        "code": r'''def cross_attention(x, memory, to_q, to_k, to_v):
    """Queries from the decoder's tokens x, keys and values from the encoder's memory.

    x: (B, T, d); memory: (B, S, d)  ->  output (B, T, d_v), weights (B, T, S)
    """
    q = to_q(x)  # what each decoder token is looking for
    k = to_k(memory)  # what each source token offers
    v = to_v(memory)
    scores = torch.einsum("btd,bsd->bts", q, k) / math.sqrt(q.shape[-1])
    weights = torch.softmax(scores, dim=-1)
    return torch.einsum("bts,bsv->btv", weights, v), weights
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
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
    h1 = norm1(x + self_attention(x)[0])
    h2 = norm2(h1 + cross_attention(h1, memory, mask=src_mask)[0])
    return norm3(h2 + feed_forward_net(h2))
''',
        "correct": False,
        "mistake": "Gives the decoder's self-attention no causal mask, so every token attends to the future.",
        "keywords": [r"causal", r"mask", r"future"],
        "kind": "missing term",
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
    # YOUR CODE HERE
    mask = causal_mask(x.shape[1])
    h1 = norm1(x + self_attention(x, mask=mask)[0])
    h2 = norm2(h1 + cross_attention(x, memory, mask=src_mask)[0])
    return norm3(h2 + feed_forward_net(h2))
''',
        "correct": False,
        "mistake": "Cross-attention takes its queries from x, the block's input, instead of h1, the output of the masked self-attention sublayer.",
        "keywords": [
            r"h1|block's input",
            r"\bh\b|queries from x",
            r"first sublayer",
            r"self-attention('s)? output",
            r"output of the (masked )?self",
        ],
        "kind": "operand swap",
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
    h = norm1(x + self_attention(x, mask=causal_mask(T))[0])
    h = norm2(h + cross_attention(h, memory)[0])
    return norm3(h + feed_forward_net(h))
''',
        "correct": False,
        "mistake": "Never passes src_mask to the cross-attention, so the decoder attends to the source's padding.",
        "keywords": [r"src_mask", r"padding", r"source mask"],
        "kind": "ignored argument",
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
    attended, _ = self_attention(x, mask=causal_mask(x.size(1)))
    h1 = norm1(x + attended)
    crossed, _ = cross_attention(h1, memory, mask=src_mask)
    h2 = norm3(h1 + crossed)
    return norm2(h2 + feed_forward_net(h2))
''',
        "correct": False,
        "mistake": "norm2 and norm3 are swapped: norm3 follows the cross-attention and norm2 the feed-forward network.",
        "keywords": [r"norm2", r"norm3", r"LN2", r"LN3"],
        "kind": "operand swap",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex4_decoder_block",
        "code": r'''_masks = {}


def decoder_block(x, memory, self_attention, cross_attention, feed_forward_net, norm1, norm2, norm3,
                  src_mask=None):
    """Post-norm decoder block.

    x: (B, T, d_model); memory: (B, S, d_model); src_mask: bool, True = may attend
    ->  (B, T, d_model)
    """
    if "causal" not in _masks:  # build the mask only once
        _masks["causal"] = causal_mask(x.shape[1])
    h1 = norm1(x + self_attention(x, mask=_masks["causal"])[0])
    h2 = norm2(h1 + cross_attention(h1, memory, mask=src_mask)[0])
    return norm3(h2 + feed_forward_net(h2))
''',
        "correct": False,
        "mistake": "Builds the causal mask once, for the length of the first call, and reuses it for every later call, which breaks for sequences of any other length.",
        "keywords": [
            r"once|saved",
            r"cache|global",
            r"reus|fixed length",
            r"first call",
            r"stored",
        ],
        "kind": "state",
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
    h2 = norm2(x + cross_attention(h1, memory, mask=src_mask)[0])
    return norm3(h2 + feed_forward_net(h2))
''',
        "correct": False,
        "mistake": "The residual around the cross-attention adds x, the block's input, instead of h1: LN2(x + CrossMHA(h1)) instead of LN2(h1 + CrossMHA(h1)).",
        "keywords": [r"residual|skip", r"h1|block's input|wrong tensor"],
        "kind": "operand swap",
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
    no_peeking = causal_mask(x.size(-2))
    sublayers = [
        (lambda h: self_attention(h, mask=no_peeking)[0], norm1),
        (lambda h: cross_attention(h, memory, mask=src_mask)[0], norm2),
        (feed_forward_net, norm3),
    ]
    h = x
    for sublayer, norm in sublayers:
        h = norm(h + sublayer(h))
    return h
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex5_shift_right",
        "code": r'''def shift_right(target, start_token):
    """The decoder's input for teacher forcing.  target: (B, T) long  ->  (B, T) long"""
    return torch.roll(target, shifts=1, dims=1)
''',
        "correct": False,
        "mistake": "torch.roll wraps the last target token round to the front instead of putting the start token there.",
        "keywords": [r"roll", r"wrap", r"start.?token", r"last (target )?token"],
        "kind": "function swap",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex5_shift_right",
        "code": r'''def shift_right(target, start_token):
    """The decoder's input for teacher forcing.  target: (B, T) long  ->  (B, T) long"""
    # YOUR CODE HERE
    start = torch.full((target.shape[0], 1), start_token, dtype=target.dtype)
    return torch.cat([target[:, 1:], start], dim=1)
''',
        "correct": False,
        "mistake": "Shifts the wrong way: drops the first target token and appends the start token at the end, instead of putting the start token in front and dropping the last token.",
        "keywords": [
            r"left|first target token",
            r"wrong (way|direction)",
            r"direction",
            r"append",
            r"at the end",
        ],
        "kind": "direction",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex5_shift_right",
        "code": r'''def shift_right(target, start_token):
    """The decoder's input for teacher forcing.  target: (B, T) long  ->  (B, T) long"""
    starts = torch.full_like(target[:, :1], start_token)
    return torch.cat([starts, target], dim=1)
''',
        "correct": False,
        "mistake": "Puts the start token in front but keeps the last target token, so the result has T + 1 columns instead of T.",
        "keywords": [
            r"drop|extra (column|token)",
            r"keeps the last",
            r"T ?\+ ?1",
            r"too long",
            r"one (column )?too many",
        ],
        "kind": "off-by-one",
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
        "mistake": "Shifts the target in place, overwriting the caller's target tensor (which is still needed as the labels).",
        "keywords": [
            r"in.place|copy",
            r"overwrit|changes? (the )?(caller's )?(input|target|argument)",
            r"modif",
            r"mutat",
            r"clone",
        ],
        "kind": "in-place",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex5_shift_right",
        "code": r'''def shift_right(target, start_token):
    """The decoder's input for teacher forcing.  target: (B, T) long  ->  (B, T) long"""
    return F.pad(target[:, :-1], (1, 0), value=start_token)
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex5_shift_right",
        "code": r'''def shift_right(target, start_token):
    """The decoder's input for teacher forcing.  target: (B, T) long  ->  (B, T) long"""
    decoder_input = target.new_full(target.shape, start_token)
    decoder_input[:, 1:] = target[:, :-1]
    return decoder_input
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
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
        tokens = torch.full((src.shape[0], 1), start_token, dtype=torch.long)
        done = torch.zeros(src.shape[0], dtype=torch.bool)
        for _ in range(max_len):
            logits = model.decode(tokens, memory)
            nxt = logits[:, 0].argmax(dim=-1)
            nxt = torch.where(done, torch.full_like(nxt, end_token), nxt)
            tokens = torch.cat([tokens, nxt[:, None]], dim=1)
            done = done | (nxt == end_token)
            if done.all():
                break
    return tokens
''',
        "correct": False,
        "mistake": "Takes the next token from the logits of the first position (logits[:, 0]) instead of the last one (logits[:, -1]).",
        "keywords": [r"last", r"first position", r"\[:, ?-1\]", r"\[:, ?0\]", r"position 0"],
        "kind": "index",
    },
    {
        "notebook": "06_decoder",
        "cell": "ex6_greedy_decode",
        "code": r'''def greedy_decode(model, src, start_token, end_token, max_len):
    """Generate with the most likely token at every step.

    src: (B, S) long  ->  tokens (B, L) long, tokens[:, 0] == start_token, L <= max_len + 1
    """
    # YOUR CODE HERE
    with torch.no_grad():
        memory = model.encode(src)
        tokens = torch.full((src.size(0), 1), start_token, dtype=torch.long, device=src.device)
        finished = torch.zeros(src.size(0), dtype=torch.bool, device=src.device)
        for _ in range(max_len):
            next_token = model.decode(tokens, memory)[:, -1].argmax(-1)
            next_token[finished] = end_token
            tokens = torch.cat([tokens, next_token.unsqueeze(1)], dim=1)
            finished |= next_token == end_token
            if finished[0]:
                break
    return tokens
''',
        "correct": False,
        "mistake": "Stops as soon as the first sequence of the batch has produced the end token, instead of waiting until every sequence has.",
        "keywords": [
            r"first (sequence|row|item|example)|finished\[0\]",
            r"sequence 0",
            r"every sequence",
            r"all (the )?sequences",
            r"whole batch",
        ],
        "kind": "state",
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
        B = src.shape[0]
        tokens = torch.full((B, 1), start_token, dtype=torch.long, device=src.device)
        ended = torch.zeros(B, dtype=torch.bool, device=src.device)
        for step in range(max_len):
            best = model.decode(tokens, memory)[:, -1, :].argmax(dim=-1)
            best = best.masked_fill(ended, end_token)
            tokens = torch.cat([tokens, best[:, None]], dim=1)
            ended = ended | (best == end_token)
            if ended.any():
                break
    return tokens
''',
        "correct": False,
        "mistake": "Stops when any sequence has produced the end token (ended.any()) instead of when all of them have (ended.all()).",
        "keywords": [r"\bany\b", r"\ball\b"],
        "kind": "function swap",
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
        tokens = torch.full((src.shape[0], 1), start_token, dtype=torch.long, device=src.device)
        for _ in range(max_len):
            next_token = model.decode(tokens, memory)[:, -1].argmax(dim=-1)
            tokens = torch.cat([tokens, next_token[:, None]], dim=1)
            if (tokens == end_token).any(dim=1).all():
                break
    return tokens
''',
        "correct": False,
        "mistake": "A sequence that has already produced the end token keeps generating whatever the model predicts instead of getting the end token again at every later step.",
        "keywords": [
            r"end.?token",
            r"already (ended|finished|produced)",
            r"finished",
            r"pad",
            r"fill",
        ],
        "kind": "state",
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
        tokens = torch.full((len(src), 1), start_token, dtype=torch.long, device=src.device)
        finished = torch.zeros(len(src), dtype=torch.bool, device=src.device)
        for _ in range(max_len - 1):
            nxt = model.decode(tokens, memory)[:, -1].argmax(dim=-1)
            nxt = torch.where(finished, end_token, nxt)
            tokens = torch.cat([tokens, nxt.unsqueeze(-1)], dim=-1)
            finished = finished | (nxt == end_token)
            if finished.all():
                break
    return tokens
''',
        "correct": False,
        "mistake": "Off by one: range(max_len - 1) generates at most max_len − 1 tokens instead of max_len.",
        "keywords": [
            r"off.by.one",
            r"max_len ?- ?1",
            r"one (token )?(too )?(few|short|less)",
            r"range",
        ],
        "kind": "off-by-one",
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
        tokens = torch.full((src.shape[0], 1), start_token, dtype=torch.long, device=src.device)
        finished = torch.zeros(src.shape[0], dtype=torch.bool, device=src.device)
        for _ in range(max_len):
            logits = model.decode(tokens[:, -1:], memory)  # the newest token
            nxt = logits[:, -1].argmax(dim=-1).masked_fill(finished, end_token)
            tokens = torch.cat([tokens, nxt[:, None]], dim=1)
            finished |= nxt == end_token
            if finished.all():
                break
    return tokens
''',
        "correct": False,
        "mistake": "Feeds the decoder only the newest token at each step instead of all the tokens generated so far, so each prediction ignores the earlier output.",
        "keywords": [
            r"only the (last|newest|latest)|context",
            r"all (the )?tokens|tokens\[:, ?-1:\]",
            r"so far|history",
            r"whole (sequence|prefix)",
            r"previous tokens",
        ],
        "kind": "structure",
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
        rows = [[start_token] for _ in range(src.shape[0])]
        for _ in range(max_len):
            current = torch.tensor(rows, dtype=torch.long, device=src.device)
            predicted = model.decode(current, memory)[:, -1].argmax(dim=-1).tolist()
            for row, token in zip(rows, predicted):
                row.append(end_token if end_token in row[1:] else token)
            if all(end_token in row[1:] for row in rows):
                break
        return torch.tensor(rows, dtype=torch.long, device=src.device)
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
    },
    # ------------------------------------------------------------------ 07_warmup_scheduler
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex1_transformer_lr",
        "code": r'''def transformer_lr(step, d_model=512, warmup=4000):
    """Learning rate of the original Transformer for LambdaLR's step (0 = the first update)."""
    n = step
    return d_model ** -0.5 * min(n ** -0.5, n * warmup ** -1.5)
''',
        "correct": False,
        "mistake": "Uses n = step instead of n = step + 1: LambdaLR counts from 0 and the paper from 1, so every rate is the one of the update before (one step late) and step 0 divides by zero.",
        "keywords": [
            r"step ?\+ ?1|zero",
            r"n ?= ?step",
            r"from (0|1|zero|one)",
            r"count",
            r"off.by.one",
        ],
        "kind": "off-by-one",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex1_transformer_lr",
        "code": r'''def transformer_lr(step, d_model=512, warmup=4000):
    """Learning rate of the original Transformer for LambdaLR's step (0 = the first update)."""
    # YOUR CODE HERE
    n = step + 1
    return d_model ** -0.5 * min(d_model ** -0.5, n * warmup ** -1.5)
''',
        "correct": False,
        "mistake": "Copies the lecture notes' misprint: min(d_model^-0.5, …) instead of min(n^-0.5, …), so the rate never decays after the warm-up.",
        "keywords": [
            r"misprint|d_model ?\^ ?-0\.5",
            r"n\^?-0\.5|d_model ?\*\* ?-0\.5",
            r"n ?\*\* ?-0\.5|decay",
            r"n⁻|inverse square root of the step",
            r"1 ?/ ?d",
        ],
        "kind": "operand swap",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex1_transformer_lr",
        "code": r'''def transformer_lr(step, d_model=512, warmup=4000):
    """Learning rate of the original Transformer for LambdaLR's step (0 = the first update)."""
    n = step + 1
    return d_model ** -0.5 * max(n ** -0.5, n * warmup ** -1.5)
''',
        "correct": False,
        "mistake": "Takes the max of the two terms instead of the min.",
        "keywords": [r"\bmax\b", r"\bmin\b"],
        "kind": "function swap",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex1_transformer_lr",
        "code": r'''def transformer_lr(step, d_model=512, warmup=4000):
    """Learning rate of the original Transformer for LambdaLR's step (0 = the first update)."""
    return d_model ** -0.5 * min(step + 1 ** -0.5, (step + 1) * warmup ** -1.5)
''',
        "correct": False,
        "mistake": "Operator precedence: step + 1 ** -0.5 is step + 1, not (step + 1) ** -0.5, so the rate keeps rising after the warm-up instead of decaying.",
        "keywords": [
            r"precedence|parenthes|bracket",
            r"step ?\+ ?1 ?\*\*|never decays|keeps rising",
        ],
        "kind": "precedence",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex1_transformer_lr",
        "code": r'''def transformer_lr(step, d_model=512, warmup=4000):
    """Learning rate of the original Transformer for LambdaLR's step (0 = the first update)."""
    n = step + 1
    scale = d_model ** 0.5
    return scale * min(n ** -0.5, n * warmup ** -1.5)
''',
        "correct": False,
        "mistake": "Multiplies by √d_model instead of dividing by it (d_model^0.5 instead of d_model^-0.5).",
        "keywords": [
            r"d_model",
            r"multipl\w* by (the )?(√|sqrt|square root)|instead of divid|\^ ?0\.5|\*\* ?0\.5",
        ],
        "kind": "scale",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex1_transformer_lr",
        "code": r'''def transformer_lr(step, d_model=512, warmup=4000):
    """Learning rate of the original Transformer for LambdaLR's step (0 = the first update)."""
    n = step + 1  # the paper counts updates from 1
    rising = n / math.pow(warmup, 1.5)
    falling = 1 / math.sqrt(n)
    return float(min(rising, falling) / math.sqrt(d_model))
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
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
        "mistake": "Integer division: step // warmup is 0 during the whole warm-up (and 1 at its end), instead of the linear ramp step / warmup.",
        "keywords": [r"integer", r"//", r"floor"],
        "kind": "python slip",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex2_cosine_warmup",
        "code": r'''def cosine_warmup(step, warmup, max_iters):
    """The learning-rate factor: cosine decay over max_iters steps, times a linear warm-up."""
    # YOUR CODE HERE
    cosine = 1 + math.cos(math.pi * step / max_iters)
    ramp = step / warmup if step <= warmup else 1.0
    return cosine * ramp
''',
        "correct": False,
        "mistake": "Leaves out the factor ½ of the cosine part, so the factor starts at 2 instead of 1 (twice too large everywhere).",
        "keywords": [r"0\.5|twice", r"½|double", r"1 ?/ ?2", r"half", r"factor (of )?(2|two)"],
        "kind": "scale",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex2_cosine_warmup",
        "code": r'''def cosine_warmup(step, warmup, max_iters):
    """The learning-rate factor: cosine decay over max_iters steps, times a linear warm-up."""
    value = 0.5 * (1 + math.cos(step / max_iters))
    if step <= warmup:
        value = value * step / warmup
    return value
''',
        "correct": False,
        "mistake": "Leaves π out of the cosine's argument, so the cosine part only goes from 1 to ½(1 + cos 1) ≈ 0.77 instead of down to 0 at max_iters.",
        "keywords": [r"π", r"\bpi\b", r"math\.pi"],
        "kind": "missing term",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex2_cosine_warmup",
        "code": r'''def cosine_warmup(step, warmup, max_iters):
    """The learning-rate factor: cosine decay over max_iters steps, times a linear warm-up."""
    if step <= warmup:
        return step / warmup
    return 0.5 * (1 + math.cos(math.pi * step / max_iters))
''',
        "correct": False,
        "mistake": "During the warm-up it returns the ramp step/warmup alone instead of the ramp times the cosine part.",
        "keywords": [r"multipl|cosine part", r"times", r"product", r"alone", r"without the cos"],
        "kind": "structure",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex2_cosine_warmup",
        "code": r'''def cosine_warmup(step, warmup, max_iters):
    """The learning-rate factor: cosine decay over max_iters steps, times a linear warm-up."""
    ramp = min(1.0, step / warmup)
    return ramp * (1 + math.cos(math.pi * step / max_iters)) / 2
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex3_learning_rates",
        "code": r'''def learning_rates(lr_lambda, base_lr, steps):
    """The learning rate each of `steps` updates uses under LambdaLR(lr_lambda)."""
    optimizer = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=base_lr)
    rates = []
    for _ in range(steps):
        scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lr_lambda)
        rates.append(optimizer.param_groups[0]["lr"])
        optimizer.step()
        scheduler.step()
    return rates
''',
        "correct": False,
        "mistake": "Creates a new LambdaLR inside the loop, so its step count starts again at 0 at every update (and each new scheduler rescales the rate it finds).",
        "keywords": [
            r"inside|new (LambdaLR|scheduler)",
            r"in the loop|reset",
            r"once|restart",
            r"every (step|update|iteration)",
            r"re-?creat",
        ],
        "kind": "state",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex3_learning_rates",
        "code": r'''def learning_rates(lr_lambda, base_lr, steps):
    """The learning rate each of `steps` updates uses under LambdaLR(lr_lambda)."""
    # YOUR CODE HERE
    param = torch.zeros(1, requires_grad=True)
    optimizer = torch.optim.SGD([param], lr=base_lr)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lr_lambda)
    used = []
    for _ in range(steps):
        optimizer.step()
        scheduler.step()
        used.append(optimizer.param_groups[0]["lr"])
    return used
''',
        "correct": False,
        "mistake": "Reads the learning rate after scheduler.step(), so each entry is the next update's rate: the list is shifted by one step.",
        "keywords": [r"after", r"shift", r"one step", r"off.by.one", r"next update"],
        "kind": "order",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex3_learning_rates",
        "code": r'''def learning_rates(lr_lambda, base_lr, steps):
    """The learning rate each of `steps` updates uses under LambdaLR(lr_lambda)."""
    optimizer = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=base_lr)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lr_lambda)
    lrs = []
    for step in range(1, steps):
        lrs.append(optimizer.param_groups[0]["lr"])
        optimizer.step()
        scheduler.step()
    return lrs
''',
        "correct": False,
        "mistake": "Off by one: range(1, steps) runs steps − 1 updates, so the list is one learning rate short.",
        "keywords": [r"off.by.one", r"range", r"one (too )?(few|short)", r"steps ?- ?1"],
        "kind": "off-by-one",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex3_learning_rates",
        "code": r'''def learning_rates(lr_lambda, base_lr, steps):
    """The learning rate each of `steps` updates uses under LambdaLR(lr_lambda)."""
    optimizer = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lr_lambda)
    out = []
    for _ in range(steps):
        out.append(optimizer.param_groups[0]["lr"])
        optimizer.step()
        scheduler.step()
    return out
''',
        "correct": False,
        "mistake": "Ignores base_lr: the optimiser is made with lr=1.0, so the rates are lr_lambda(step) instead of base_lr · lr_lambda(step).",
        "keywords": [r"base_lr", r"base (learning )?rate", r"lr ?= ?1\.0", r"ignor"],
        "kind": "ignored argument",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex3_learning_rates",
        "code": r'''def learning_rates(lr_lambda, base_lr, steps):
    """The learning rate each of `steps` updates uses under LambdaLR(lr_lambda)."""
    weight = torch.zeros(1, requires_grad=True)
    optimizer = torch.optim.Adam([weight], lr=base_lr)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lr_lambda=lr_lambda)
    used = []
    for _ in range(steps):
        used.append(scheduler.get_last_lr()[0])  # the rate the coming update will use
        optimizer.step()
        scheduler.step()
    return used
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex4_accuracies",
        "code": r'''def accuracies(generated, target):
    """(N, L) long tensors  ->  (share of equal tokens, share of entirely equal rows)"""
    hits = generated == target
    token_accuracy = hits.float().mean().item()
    sequence_accuracy = hits.any(dim=1).float().mean().item()
    return token_accuracy, sequence_accuracy
''',
        "correct": False,
        "mistake": "Counts a row as correct when any of its tokens matches (any) instead of when all of them do (all).",
        "keywords": [r"\bany\b", r"\ball\b", r"every token"],
        "kind": "function swap",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex4_accuracies",
        "code": r'''def accuracies(generated, target):
    """(N, L) long tensors  ->  (share of equal tokens, share of entirely equal rows)"""
    # YOUR CODE HERE
    correct = generated == target
    tokens = correct.sum().item()
    rows = correct.all(dim=1).float().mean().item()
    return tokens, rows
''',
        "correct": False,
        "mistake": "Returns the number of correct tokens instead of their share: the count is not divided by the number of tokens.",
        "keywords": [r"count|proportion", r"number|mean", r"share", r"fraction", r"divid"],
        "kind": "function swap",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex4_accuracies",
        "code": r'''def accuracies(generated, target):
    """(N, L) long tensors  ->  (share of equal tokens, share of entirely equal rows)"""
    same = (generated == target).long()
    token_acc = same.sum() // same.numel()
    seq_acc = same.min(dim=1).values.sum() // same.shape[0]
    return float(token_acc), float(seq_acc)
''',
        "correct": False,
        "mistake": "Integer division (//) on integer counts rounds both shares down, to 0 unless everything is right.",
        "keywords": [r"integer", r"//", r"floor", r"round"],
        "kind": "python slip",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex4_accuracies",
        "code": r'''def accuracies(generated, target):
    """(N, L) long tensors  ->  (share of equal tokens, share of entirely equal rows)"""
    eq = generated.eq(target)
    return eq.float().mean().item(), eq.all(dim=0).float().mean().item()
''',
        "correct": False,
        "mistake": "The sequence accuracy reduces over dim=0 (the sequences) instead of dim=1 (the positions), so it counts the positions that every sequence gets right, not the sequences that are right everywhere.",
        "keywords": [r"dim ?= ?0", r"dim ?= ?1", r"axis", r"columns?", r"positions that"],
        "kind": "axis",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex4_accuracies",
        "code": r'''def accuracies(generated, target):
    """(N, L) long tensors  ->  (share of equal tokens, share of entirely equal rows)"""
    n_rows, n_cols = target.shape
    right_tokens, right_rows = 0, 0
    for g_row, t_row in zip(generated.tolist(), target.tolist()):
        matches = sum(a == b for a, b in zip(g_row, t_row))
        right_tokens += matches
        right_rows += matches == n_cols
    return right_tokens / (n_rows * n_cols), right_rows / n_rows
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex4_accuracies",
        "code": r'''def accuracies(generated, target):
    """(N, L) long tensors  ->  (share of equal tokens, share of entirely equal rows)"""
    wrong = (generated != target).sum(dim=1)  # wrong tokens per row
    token_accuracy = 1.0 - wrong.sum().item() / target.numel()
    sequence_accuracy = (wrong == 0).double().mean().item()
    return float(token_accuracy), float(sequence_accuracy)
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex5_train_step",
        "code": r'''def train_step(model, src, target, start_token, optimizer, scheduler, clip=None):
    """One teacher-forced update. src (B, S), target (B, T) long  ->  the batch's loss, a float"""
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
        "mistake": "Feeds the decoder the target itself instead of the target shifted right, so every position sees the token it must predict.",
        "keywords": [r"shift", r"start.?token", r"teacher"],
        "kind": "missing term",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex5_train_step",
        "code": r'''def train_step(model, src, target, start_token, optimizer, scheduler, clip=None):
    """One teacher-forced update. src (B, S), target (B, T) long  ->  the batch's loss, a float"""
    # YOUR CODE HERE
    decoder_input = transformer.shift_right(target, start_token)
    logits = model(src, decoder_input)
    loss = F.cross_entropy(logits.flatten(0, 1), target.flatten())
    loss.backward()
    if clip is not None:
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
    optimizer.step()
    scheduler.step()
    return loss.item()
''',
        "correct": False,
        "mistake": "Never calls optimizer.zero_grad(), so each backward pass adds to the gradients of all the earlier steps.",
        "keywords": [
            r"zero_grad",
            r"accumulat",
            r"add up",
            r"adds? to the (old |previous |earlier )?grad",
        ],
        "kind": "state",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex5_train_step",
        "code": r'''def train_step(model, src, target, start_token, optimizer, scheduler, clip=None):
    """One teacher-forced update. src (B, S), target (B, T) long  ->  the batch's loss, a float"""
    logits = model(src, transformer.shift_right(target, start_token))
    loss = F.cross_entropy(logits.flatten(0, 1), target.flatten())
    optimizer.zero_grad()
    loss.backward()
    if clip is not None:
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
    scheduler.step()
    optimizer.step()
    return loss.item()
''',
        "correct": False,
        "mistake": "Steps the scheduler before the optimiser, so every update already uses the next step's learning rate.",
        "keywords": [
            r"scheduler",
            r"next (step's )?(learning )?rate|one step (early|ahead)|order of the (two )?steps",
        ],
        "kind": "order",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex5_train_step",
        "code": r'''def train_step(model, src, target, start_token, optimizer, scheduler, clip=None):
    """One teacher-forced update. src (B, S), target (B, T) long  ->  the batch's loss, a float"""
    logits = model(src, transformer.shift_right(target, start_token))
    loss = F.cross_entropy(logits.flatten(0, 1), target.flatten())
    optimizer.zero_grad()
    loss.backward()
    if clip is not None:
        torch.nn.utils.clip_grad_value_(model.parameters(), clip)
    optimizer.step()
    scheduler.step()
    return loss.item()
''',
        "correct": False,
        "mistake": "Clips each gradient value with clip_grad_value_ instead of rescaling the whole gradient to norm clip with clip_grad_norm_.",
        "keywords": [r"clip_grad_value", r"clip_grad_norm", r"norm", r"by value", r"each value"],
        "kind": "function swap",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex5_train_step",
        "code": r'''def train_step(model, src, target, start_token, optimizer, scheduler, clip=None):
    """One teacher-forced update. src (B, S), target (B, T) long  ->  the batch's loss, a float"""
    decoder_input = transformer.shift_right(target, start_token)
    logits = model(src, decoder_input)
    loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), decoder_input.reshape(-1))
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
        "keywords": [
            r"decoder input",
            r"shifted (input|target)",
            r"labels?",
            r"against the input",
            r"instead of (the )?target",
        ],
        "kind": "operand swap",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex5_train_step",
        "code": r'''def train_step(model, src, target, start_token, optimizer, scheduler, clip=None):
    """One teacher-forced update. src (B, S), target (B, T) long  ->  the batch's loss, a float"""
    logits = model(src, transformer.shift_right(target, start_token))
    loss = F.cross_entropy(logits.flatten(0, 1), target.flatten())
    optimizer.zero_grad()
    if clip is not None:
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
    loss.backward()
    optimizer.step()
    scheduler.step()
    return loss.item()
''',
        "correct": False,
        "mistake": "Clips before loss.backward(), when there are no gradients yet, so the update uses the unclipped gradients.",
        "keywords": [
            r"before (loss\.)?backward",
            r"no gradients yet",
            r"after (loss\.)?backward",
            r"order",
        ],
        "kind": "order",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex5_train_step",
        "code": r'''def train_step(model, src, target, start_token, optimizer, scheduler, clip=None):
    """One teacher-forced update. src (B, S), target (B, T) long  ->  the batch's loss, a float"""
    optimizer.zero_grad(set_to_none=True)  # clear the old gradients first
    logits = model(src, transformer.shift_right(target, start_token))  # (B, T, V)
    loss = F.cross_entropy(logits.transpose(1, 2), target)  # classes on dim 1: (B, V, T) vs (B, T)
    loss.backward()
    if clip is not None:
        nn.utils.clip_grad_norm_(model.parameters(), max_norm=clip)
    optimizer.step()
    scheduler.step()
    return float(loss.detach())
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex5_train_step",
        "code": r'''def train_step(model, src, target, start_token, optimizer, scheduler, clip=None):
    """One teacher-forced update. src (B, S), target (B, T) long  ->  the batch's loss, a float"""
    start = torch.full((target.shape[0], 1), start_token, dtype=target.dtype, device=target.device)
    decoder_input = torch.cat([start, target[:, :-1]], dim=1)
    logits = model(src, decoder_input)
    criterion = nn.CrossEntropyLoss()
    loss = criterion(logits.view(-1, logits.shape[-1]), target.view(-1))
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
        "kind": "correct",
    },
    # ------------------------------------------------------------------ 08_language_model
    # (rewritten 2026-11-24 for the new notebook 08: nine answer cells, ex1_tokenizer … ex9_attend_with_cache)
    {
        "notebook": "08_language_model",
        "cell": "ex1_tokenizer",
        "code": r'''UNKNOWN = corpus.UNKNOWN


def vocabulary(text):
    """[UNKNOWN] + the distinct characters of text, sorted."""
    chars = sorted(set(text))
    if UNKNOWN not in chars:
        chars.insert(0, UNKNOWN)
    return chars


def encode(text, vocab):
    """str -> (len(text),) int64: each character's index in vocab, 0 if it is not there."""
    lookup = {ch: i for i, ch in enumerate(vocab)}
    return torch.tensor([lookup.get(ch, 0) for ch in text], dtype=torch.long)


def decode(ids, vocab):
    """(n,) int64 -> str: the characters vocab[i] of the indices, in order."""
    return "".join(vocab[i] for i in ids.tolist())
''',
        "correct": False,
        "mistake": "When the text contains UNKNOWN itself, it is left where sorting puts it (after every other character) instead of being moved to index 0.",
        "keywords": [r"index 0|position 0|first", r"UNKNOWN|�|replacement", r"sort"],
        "kind": "boundary",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex1_tokenizer",
        "code": r'''UNKNOWN = corpus.UNKNOWN


def vocabulary(text):
    """[UNKNOWN] + the distinct characters of text, sorted."""
    return [UNKNOWN] + sorted(c for c in text if c != UNKNOWN)


def encode(text, vocab):
    """str -> (len(text),) int64: each character's index in vocab, 0 if it is not there."""
    index = {c: i for i, c in enumerate(vocab)}
    return torch.tensor([index[c] if c in index else 0 for c in text], dtype=torch.long)


def decode(ids, vocab):
    """(n,) int64 -> str: the characters vocab[i] of the indices, in order."""
    return "".join([vocab[int(i)] for i in ids])
''',
        "correct": False,
        "mistake": "The vocabulary keeps every occurrence of a character (sorted, but without set()), so repeated characters appear many times instead of once.",
        "keywords": [r"distinct|unique|set\(", r"duplicat|repeat|more than once|many times|once"],
        "kind": "missing term",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex1_tokenizer",
        "code": r'''UNKNOWN = corpus.UNKNOWN


def vocabulary(text):
    """[UNKNOWN] + the distinct characters of text, sorted."""
    return [UNKNOWN] + sorted(set(text) - {UNKNOWN})


def encode(text, vocab):
    """str -> (len(text),) int64: each character's index in vocab, 0 if it is not there."""
    # index 0 is UNKNOWN, the real characters start after it
    char_to_id = {c: i for i, c in enumerate(vocab[1:])}
    return torch.tensor([char_to_id.get(c, 0) for c in text], dtype=torch.long)


def decode(ids, vocab):
    """(n,) int64 -> str: the characters vocab[i] of the indices, in order."""
    return "".join(vocab[i] for i in ids.tolist())
''',
        "correct": False,
        "mistake": "encode numbers the characters of vocab[1:] from 0, so every known character's index is one too small (and the first character collides with UNKNOWN's 0).",
        "keywords": [
            r"one too (small|low)|off by one|off-by-one|shift",
            r"vocab\[1:\]|enumerate",
            r"\+ ?1|minus one|- ?1",
        ],
        "kind": "off-by-one",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex1_tokenizer",
        "code": r'''UNKNOWN = corpus.UNKNOWN


def vocabulary(text):
    """[UNKNOWN] + the distinct characters of text, sorted."""
    return [UNKNOWN] + sorted(set(text).difference(UNKNOWN))


def encode(text, vocab):
    """str -> (len(text),) int64: each character's index in vocab, 0 if it is not there."""
    table = dict(zip(vocab, range(len(vocab))))
    return torch.tensor([table.get(c, -1) for c in text], dtype=torch.long)


def decode(ids, vocab):
    """(n,) int64 -> str: the characters vocab[i] of the indices, in order."""
    return "".join(map(vocab.__getitem__, ids.tolist()))
''',
        "correct": False,
        "mistake": "A character that is not in the vocabulary becomes -1 instead of 0 (UNKNOWN's index).",
        "keywords": [r"-1|minus one", r"\b0\b|zero|UNKNOWN", r"not in (the )?vocab|unknown"],
        "kind": "wrong constant",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex1_tokenizer",
        "code": r'''UNKNOWN = corpus.UNKNOWN


def vocabulary(text):
    """[UNKNOWN] + the distinct characters of text, sorted."""
    distinct = dict.fromkeys(text)  # keeps one of each
    distinct.pop(UNKNOWN, None)
    return [UNKNOWN, *sorted(distinct)]


def encode(text, vocab):
    """str -> (len(text),) int64: each character's index in vocab, 0 if it is not there."""
    from collections import defaultdict
    index = defaultdict(int)  # missing characters -> 0
    index.update((c, i) for i, c in enumerate(vocab))
    ids = torch.empty(len(text), dtype=torch.long)
    for position, c in enumerate(text):
        ids[position] = index[c]
    return ids


def decode(ids, vocab):
    """(n,) int64 -> str: the characters vocab[i] of the indices, in order."""
    out = []
    for i in ids:
        out.append(vocab[i.item()])
    return "".join(out)
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex2_random_windows",
        "code": r'''def random_windows(data, block_size, batch_size, generator=None):
    """data (N,) -> inputs (B, T), targets (B, T): random windows and the same windows one on."""
    # the last target is data[s + block_size], so leave room for it
    starts = torch.randint(len(data) - block_size - 1, (batch_size,), generator=generator)
    inputs = torch.stack([data[s : s + block_size] for s in starts])
    targets = torch.stack([data[s + 1 : s + block_size + 1] for s in starts])
    return inputs, targets
''',
        "correct": False,
        "mistake": "Draws the starts below len(data) - block_size - 1 instead of len(data) - block_size: one start too few, so the draws differ from the ones asked for (and 9 characters with windows of 8 raise).",
        "keywords": [
            r"- ?1|one (too )?(few|less|fewer)|off by one|off-by-one",
            r"len\(data\) ?- ?block_size|high|upper bound|highest start",
        ],
        "kind": "off-by-one",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex2_random_windows",
        "code": r'''def random_windows(data, block_size, batch_size, generator=None):
    """data (N,) -> inputs (B, T), targets (B, T): random windows and the same windows one on."""
    starts = torch.randint(len(data) - block_size, (batch_size,))
    idx = starts[:, None] + torch.arange(block_size)
    return data[idx], data[idx + 1]
''',
        "correct": False,
        "mistake": "Does not pass the generator to torch.randint, so the starts come from the global random state and a seeded generator does not reproduce them.",
        "keywords": [r"generator", r"seed", r"global"],
        "kind": "ignored argument",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex2_random_windows",
        "code": r'''def random_windows(data, block_size, batch_size, generator=None):
    """data (N,) -> inputs (B, T), targets (B, T): random windows and the same windows one on."""
    starts = torch.randint(len(data) - block_size, (batch_size,), generator=generator)
    positions = starts[:, None] + torch.arange(block_size)
    inputs = data[positions]
    targets = data[positions] + 1
    return inputs, targets
''',
        "correct": False,
        "mistake": "Adds 1 to the characters' values (data[positions] + 1) instead of taking the next positions (data[positions + 1]); it only looks right when data is a range of consecutive numbers.",
        "keywords": [
            r"data\[positions\] ?\+ ?1|value|\+ ?1 (outside|after)",
            r"positions ?\+ ?1|next (position|character)|index|shift",
        ],
        "kind": "precedence",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex2_random_windows",
        "code": r'''def random_windows(data, block_size, batch_size, generator=None):
    """data (N,) -> inputs (B, T), targets (B, T): random windows and the same windows one on."""
    starts = torch.randint(len(data) - batch_size, (batch_size,), generator=generator)
    inputs, targets = [], []
    for s in starts.tolist():
        inputs.append(data[s : s + block_size])
        targets.append(data[s + 1 : s + 1 + block_size])
    return torch.stack(inputs), torch.stack(targets)
''',
        "correct": False,
        "mistake": "Draws the starts below len(data) - batch_size instead of len(data) - block_size: the batch size and the window length are mixed up.",
        "keywords": [r"batch_size", r"block_size", r"mix|swap|confus|instead"],
        "kind": "operand swap",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex2_random_windows",
        "code": r'''def random_windows(data, block_size, batch_size, generator=None):
    """data (N,) -> inputs (B, T), targets (B, T): random windows and the same windows one on."""
    starts = torch.randint(len(data) - block_size, (batch_size,), generator=generator)
    # every window of block_size + 1 characters, one per start position: (N - T, T + 1)
    windows = data.unfold(0, block_size + 1, 1)[starts]
    return windows[:, :-1], windows[:, 1:]
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex3_multihead_module",
        "code": r'''# Paste your class from notebook 03, exercise 5, over this whole cell.
class MultiHeadAttention(nn.Module):
    """Packed multi-head attention with nn.MultiheadAttention's parameters (batch_first=True).

    query (B, T, d_model), key and value (B, S, d_model), mask bool (T, S) or (B, T, S),
    True = may attend  ->  output (B, T, d_model), weights (B, T, S) averaged over the heads
    (None when need_weights is False)
    """

    def __init__(self, d_model, n_heads, dropout=0.0):
        super().__init__()
        assert d_model % n_heads == 0, "d_model must be a multiple of n_heads"
        self.d_model = d_model
        self.n_heads = n_heads
        self.d_head = d_model // n_heads
        self.dropout = dropout
        self.in_proj_weight = nn.Parameter(torch.empty(3 * d_model, d_model))
        self.in_proj_bias = nn.Parameter(torch.zeros(3 * d_model))
        self.out_proj = nn.Linear(d_model, d_model)
        nn.init.xavier_uniform_(self.in_proj_weight)
        nn.init.zeros_(self.out_proj.bias)

    def forward(self, query, key, value, mask=None, need_weights=True):
        w_q, w_k, w_v = self.in_proj_weight.chunk(3)
        b_q, b_k, b_v = self.in_proj_bias.chunk(3)
        q = split_heads(F.linear(query, w_q, b_q), self.n_heads)  # (B, H, T, d_head)
        k = split_heads(F.linear(key, w_k, b_k), self.n_heads)  # (B, H, S, d_head)
        v = split_heads(F.linear(value, w_v, b_v), self.n_heads)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_head)
        if mask is not None:
            scores = scores.masked_fill(expand_mask(mask), float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        weights = F.dropout(weights, p=self.dropout, training=self.training)
        output = self.out_proj(merge_heads(weights @ v))
        if not need_weights:
            return output, None
        return output, weights.mean(dim=1)
''',
        "correct": False,
        "mistake": "Fills the scores with -inf where the mask is True, i.e. where attending is allowed: nn.MultiheadAttention's polarity instead of the course's (True = may attend).",
        "keywords": [r"polarity|invert|opposite|revers", r"True", r"~|not|negat"],
        "kind": "polarity",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex3_multihead_module",
        "code": r'''# Paste your class from notebook 03, exercise 5, over this whole cell.
class MultiHeadAttention(nn.Module):
    """Packed multi-head attention with nn.MultiheadAttention's parameters (batch_first=True).

    query (B, T, d_model), key and value (B, S, d_model), mask bool (T, S) or (B, T, S),
    True = may attend  ->  output (B, T, d_model), weights (B, T, S) averaged over the heads
    (None when need_weights is False)
    """

    def __init__(self, d_model, n_heads, dropout=0.0):
        super().__init__()
        assert d_model % n_heads == 0, "d_model must be a multiple of n_heads"
        self.d_model = d_model
        self.n_heads = n_heads
        self.d_head = d_model // n_heads
        self.dropout = dropout
        self.in_proj_weight = nn.Parameter(torch.empty(3 * d_model, d_model))
        self.in_proj_bias = nn.Parameter(torch.zeros(3 * d_model))
        self.out_proj = nn.Linear(d_model, d_model)
        nn.init.xavier_uniform_(self.in_proj_weight)
        nn.init.zeros_(self.out_proj.bias)

    def forward(self, query, key, value, mask=None, need_weights=True):
        w_q, w_k, w_v = self.in_proj_weight.chunk(3)
        b_q, b_k, b_v = self.in_proj_bias.chunk(3)
        q = split_heads(F.linear(query, w_q, b_q), self.n_heads)  # (B, H, T, d_head)
        k = split_heads(F.linear(query, w_k, b_k), self.n_heads)  # (B, H, S, d_head)
        v = split_heads(F.linear(value, w_v, b_v), self.n_heads)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_head)
        if mask is not None:
            scores = scores.masked_fill(~expand_mask(mask), float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        weights = F.dropout(weights, p=self.dropout, training=self.training)
        output = self.out_proj(merge_heads(weights @ v))
        if not need_weights:
            return output, None
        return output, weights.mean(dim=1)
''',
        "correct": False,
        "mistake": "Projects the keys from the query instead of from key: right for self-attention, wrong (or a shape error) in cross-attention, where key and value differ from the query.",
        "keywords": [r"key", r"query", r"cross"],
        "kind": "operand swap",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex3_multihead_module",
        "code": r'''# Paste your class from notebook 03, exercise 5, over this whole cell.
class MultiHeadAttention(nn.Module):
    """Packed multi-head attention with nn.MultiheadAttention's parameters (batch_first=True).

    query (B, T, d_model), key and value (B, S, d_model), mask bool (T, S) or (B, T, S),
    True = may attend  ->  output (B, T, d_model), weights (B, T, S) averaged over the heads
    (None when need_weights is False)
    """

    def __init__(self, d_model, n_heads, dropout=0.0):
        super().__init__()
        assert d_model % n_heads == 0, "d_model must be a multiple of n_heads"
        self.d_model = d_model
        self.n_heads = n_heads
        self.d_head = d_model // n_heads
        self.dropout = dropout
        self.in_proj_weight = nn.Parameter(torch.randn(3 * d_model, d_model))
        self.in_proj_bias = nn.Parameter(torch.zeros(3 * d_model))
        self.out_proj = nn.Linear(d_model, d_model)
        nn.init.zeros_(self.out_proj.bias)

    def forward(self, query, key, value, mask=None, need_weights=True):
        w_q, w_k, w_v = self.in_proj_weight.chunk(3)
        b_q, b_k, b_v = self.in_proj_bias.chunk(3)
        q = split_heads(F.linear(query, w_q, b_q), self.n_heads)  # (B, H, T, d_head)
        k = split_heads(F.linear(key, w_k, b_k), self.n_heads)  # (B, H, S, d_head)
        v = split_heads(F.linear(value, w_v, b_v), self.n_heads)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_head)
        if mask is not None:
            scores = scores.masked_fill(~expand_mask(mask), float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        weights = F.dropout(weights, p=self.dropout, training=self.training)
        output = self.out_proj(merge_heads(weights @ v))
        if not need_weights:
            return output, None
        return output, weights.mean(dim=1)
''',
        "correct": False,
        "mistake": "Starts in_proj_weight from a standard normal (torch.randn) instead of Xavier-uniform, so a new module's weights are far larger than PyTorch's.",
        "keywords": [r"xavier|glorot", r"randn|normal", r"init"],
        "kind": "initialisation",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex3_multihead_module",
        "code": r'''# Paste your class from notebook 03, exercise 5, over this whole cell.
class MultiHeadAttention(nn.Module):
    """Packed multi-head attention with nn.MultiheadAttention's parameters (batch_first=True).

    query (B, T, d_model), key and value (B, S, d_model), mask bool (T, S) or (B, T, S),
    True = may attend  ->  output (B, T, d_model), weights (B, T, S) averaged over the heads
    (None when need_weights is False)
    """

    def __init__(self, d_model, n_heads, dropout=0.0):
        super().__init__()
        self.h = n_heads
        self.dropout = dropout
        self.in_proj_weight = nn.Parameter(nn.init.xavier_uniform_(torch.empty(3 * d_model, d_model)))
        self.in_proj_bias = nn.Parameter(torch.zeros(3 * d_model))
        self.out_proj = nn.Linear(d_model, d_model)
        nn.init.constant_(self.out_proj.bias, 0.0)

    def forward(self, query, key, value, mask=None, need_weights=True):
        B, T, D = query.shape
        S = key.shape[1]
        d = D // self.h
        Wq, Wk, Wv = self.in_proj_weight.split(D)
        bq, bk, bv = self.in_proj_bias.split(D)
        q = (query @ Wq.T + bq).view(B, self.h, T, d)
        k = (key @ Wk.T + bk).view(B, self.h, S, d)
        v = (value @ Wv.T + bv).view(B, self.h, S, d)
        att = q @ k.transpose(2, 3) * d ** -0.5
        if mask is not None:
            if mask.dim() == 2:
                mask = mask[None, None]
            else:
                mask = mask[:, None]
            att = att.masked_fill(mask == 0, float("-inf"))
        att = att.softmax(-1)
        att = F.dropout(att, self.dropout, self.training)
        y = (att @ v).transpose(1, 2).reshape(B, T, D)
        y = self.out_proj(y)
        return (y, att.mean(1)) if need_weights else (y, None)
''',
        "correct": False,
        "mistake": "Splits the heads by viewing (B, T, d_model) directly as (B, H, T, d_head) instead of (B, T, H, d_head) then transposing, so each 'head' gets a mix of tokens and features.",
        "keywords": [r"view|reshape", r"transpos", r"split.*head|head.*split", r"\(B, ?T, ?H"],
        "kind": "layout",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex3_multihead_module",
        "code": r'''# Paste your class from notebook 03, exercise 5, over this whole cell.
class MultiHeadAttention(nn.Module):
    """Packed multi-head attention with nn.MultiheadAttention's parameters (batch_first=True).

    query (B, T, d_model), key and value (B, S, d_model), mask bool (T, S) or (B, T, S),
    True = may attend  ->  output (B, T, d_model), weights (B, T, S) averaged over the heads
    (None when need_weights is False)
    """

    def __init__(self, d_model, n_heads, dropout=0.0):
        super().__init__()
        self.h = n_heads
        self.dropout = dropout
        self.in_proj_weight = nn.Parameter(nn.init.xavier_uniform_(torch.empty(3 * d_model, d_model)))
        self.in_proj_bias = nn.Parameter(torch.zeros(3 * d_model))
        self.out_proj = nn.Linear(d_model, d_model)
        nn.init.constant_(self.out_proj.bias, 0.0)

    def forward(self, query, key, value, mask=None, need_weights=True):
        B, T, D = query.shape
        S = key.shape[1]
        d = D // self.h
        Wq, Wk, Wv = self.in_proj_weight.split(D)
        bq, bk, bv = self.in_proj_bias.split(D)
        q = (query @ Wq.T + bq).view(B, T, self.h, d).transpose(1, 2)
        k = (key @ Wk.T + bk).view(B, S, self.h, d).transpose(1, 2)
        v = (value @ Wv.T + bv).view(B, S, self.h, d).transpose(1, 2)
        att = q @ k.transpose(2, 3) * d ** -0.5
        if mask is not None:
            if mask.dim() == 2:
                mask = mask[None, None]
            else:
                mask = mask[:, None]
            att = att.masked_fill(mask == 0, float("-inf"))
        att = att.softmax(-1)
        att = F.dropout(att, self.dropout)
        y = (att @ v).transpose(1, 2).reshape(B, T, D)
        y = self.out_proj(y)
        return (y, att.mean(1)) if need_weights else (y, None)
''',
        "correct": False,
        "mistake": "Calls F.dropout without training=self.training, so dropout also applies in eval mode (F.dropout's training defaults to True).",
        "keywords": [r"eval", r"training", r"self\.training|train mode|mode"],
        "kind": "train/eval",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex3_multihead_module",
        "code": r'''# Paste your class from notebook 03, exercise 5, over this whole cell.
class MultiHeadAttention(nn.Module):
    """Packed multi-head attention with nn.MultiheadAttention's parameters (batch_first=True).

    query (B, T, d_model), key and value (B, S, d_model), mask bool (T, S) or (B, T, S),
    True = may attend  ->  output (B, T, d_model), weights (B, T, S) averaged over the heads
    (None when need_weights is False)
    """

    def __init__(self, d_model, n_heads, dropout=0.0):
        super().__init__()
        if d_model % n_heads != 0:
            raise ValueError("n_heads must divide d_model")
        self.n_heads, self.dropout = n_heads, dropout
        self.in_proj_weight = nn.Parameter(torch.zeros(3 * d_model, d_model))
        self.in_proj_bias = nn.Parameter(torch.zeros(3 * d_model))
        self.out_proj = nn.Linear(d_model, d_model, bias=True)
        self._reset_parameters()

    def _reset_parameters(self):
        nn.init.xavier_uniform_(self.in_proj_weight)
        nn.init.constant_(self.in_proj_bias, 0.0)
        nn.init.constant_(self.out_proj.bias, 0.0)

    def forward(self, query, key, value, mask=None, need_weights=True):
        H, d_model = self.n_heads, query.shape[-1]
        d_head = d_model // H
        W = self.in_proj_weight.view(3, H, d_head, d_model)  # q|k|v, head, feature, input
        b = self.in_proj_bias.view(3, H, 1, d_head)
        q = torch.einsum("btm,hdm->bhtd", query, W[0]) + b[0]
        k = torch.einsum("bsm,hdm->bhsd", key, W[1]) + b[1]
        v = torch.einsum("bsm,hdm->bhsd", value, W[2]) + b[2]
        scores = torch.einsum("bhtd,bhsd->bhts", q, k) / d_head ** 0.5
        if mask is not None:
            allowed = mask.unsqueeze(-3)  # (T, S) -> (1, T, S), (B, T, S) -> (B, 1, T, S)
            scores = torch.where(allowed, scores, float("-inf"))
        weights = scores.softmax(dim=-1)
        if self.training and self.dropout > 0:
            weights = F.dropout(weights, self.dropout)
        out = self.out_proj(torch.einsum("bhts,bhsd->bthd", weights, v).flatten(-2))
        return out, (weights.mean(dim=1) if need_weights else None)
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex4_pre_norm_block",
        "code": r'''# Paste your function from notebook 05, exercise 4, over this whole cell.
def pre_norm_block(x, attention, feed_forward_net, norm1, norm2, mask=None):
    """Pre-norm encoder block: h = x + MHA(LN1(x)), then h + FFN(LN2(h)).

    x: (B, T, d_model); mask: bool, True = may attend  ->  (B, T, d_model)
    """
    h = norm1(x + attention(x, mask=mask)[0])
    return norm2(h + feed_forward_net(h))
''',
        "correct": False,
        "mistake": "Wires the block post-norm (the norm after the residual sum, as in the original paper) instead of pre-norm (the norm on the sublayer's input, the residual around it).",
        "keywords": [
            r"post-?norm",
            r"pre-?norm",
            r"after the (residual|sum|addition)|before the sublayer|order",
        ],
        "kind": "order",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex4_pre_norm_block",
        "code": r'''# Paste your function from notebook 05, exercise 4, over this whole cell.
def pre_norm_block(x, attention, feed_forward_net, norm1, norm2, mask=None):
    """Pre-norm encoder block: h = x + MHA(LN1(x)), then h + FFN(LN2(h)).

    x: (B, T, d_model); mask: bool, True = may attend  ->  (B, T, d_model)
    """
    x = norm1(x)
    h = x + attention(x, mask=mask)[0]
    h = norm2(h)
    return h + feed_forward_net(h)
''',
        "correct": False,
        "mistake": "Overwrites x with its normed value, so the residual connections add LN(x) and LN(h) instead of x and h themselves.",
        "keywords": [
            r"residual|skip",
            r"norm(ed|alised|alized)? (x|input|value)|LN\(x\)|overwrit",
            r"un-?normed|raw|original",
        ],
        "kind": "missing term",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex4_pre_norm_block",
        "code": r'''# Paste your function from notebook 05, exercise 4, over this whole cell.
def pre_norm_block(x, attention, feed_forward_net, norm1, norm2, mask=None):
    """Pre-norm encoder block: h = x + MHA(LN1(x)), then h + FFN(LN2(h)).

    x: (B, T, d_model); mask: bool, True = may attend  ->  (B, T, d_model)
    """
    attended, _ = attention(norm1(x), mask=mask)
    h = x + attended
    out = h + feed_forward_net(norm2(x))
    return out
''',
        "correct": False,
        "mistake": "The feed-forward sublayer reads LN2(x), the block's input, instead of LN2(h), the output of the attention sublayer.",
        "keywords": [
            r"norm2\(x\)|LN2\(x\)|LN_2\(x\)",
            r"\bh\b|attention('s)? (sublayer('s)? )?output",
            r"input",
        ],
        "kind": "operand swap",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex4_pre_norm_block",
        "code": r'''# Paste your function from notebook 05, exercise 4, over this whole cell.
def pre_norm_block(x, attention, feed_forward_net, norm1, norm2, mask=None):
    """Pre-norm encoder block: h = x + MHA(LN1(x)), then h + FFN(LN2(h)).

    x: (B, T, d_model); mask: bool, True = may attend  ->  (B, T, d_model)
    """
    h = x + attention(norm1(x))[0]
    return h + feed_forward_net(norm2(h))
''',
        "correct": False,
        "mistake": "Does not pass the mask on to the attention (attention(norm1(x)) without mask=mask), so every token attends to every other, the padding and the future included.",
        "keywords": [r"mask", r"ignor|not pass|never pass|forg|drop|unused"],
        "kind": "ignored argument",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex4_pre_norm_block",
        "code": r'''# Paste your function from notebook 05, exercise 4, over this whole cell.
def pre_norm_block(x, attention, feed_forward_net, norm1, norm2, mask=None):
    """Pre-norm encoder block: h = x + MHA(LN1(x)), then h + FFN(LN2(h)).

    x: (B, T, d_model); mask: bool, True = may attend  ->  (B, T, d_model)
    """
    sublayers = [
        (norm1, lambda t: attention(t, mask=mask)[0]),
        (norm2, feed_forward_net),
    ]
    for norm, sublayer in sublayers:
        x = torch.add(x, sublayer(norm(x)))
    return x
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex5_lm_logits",
        "code": r'''def lm_logits(idx, token_embedding, position_embedding, blocks, final_norm):
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
        "mistake": "Scales the token embeddings by √d_model as notebook 06 did; this model adds the two embeddings unscaled.",
        "keywords": [r"sqrt|√", r"scal", r"d_model"],
        "kind": "scale",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex5_lm_logits",
        "code": r'''def lm_logits(idx, token_embedding, position_embedding, blocks, final_norm):
    """idx (B, T) int64 -> logits (B, T, V), with the head tied to token_embedding."""
    T = idx.shape[1]
    positions = torch.arange(T, device=idx.device)
    h = token_embedding(idx) + position_embedding(positions)
    mask = causal_mask(T, device=idx.device)
    for block in blocks:
        h, _ = block(h, mask)
    return h @ token_embedding.weight.T
''',
        "correct": False,
        "mistake": "Leaves out the final layer norm: the head scores the last block's output directly instead of final_norm of it.",
        "keywords": [
            r"final[_ ]norm|final (layer )?norm",
            r"layer ?norm|LN",
            r"missing|forg|without|leaves out|skip",
        ],
        "kind": "missing term",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex5_lm_logits",
        "code": r'''def lm_logits(idx, token_embedding, position_embedding, blocks, final_norm):
    """idx (B, T) int64 -> logits (B, T, V), with the head tied to token_embedding."""
    T = idx.shape[1]
    x = token_embedding(idx) + position_embedding(torch.arange(T, device=idx.device))
    # PyTorch masks are True where attention is NOT allowed
    mask = ~causal_mask(T, device=idx.device)
    for block in blocks:
        x = block(x, mask)[0]
    return final_norm(x) @ token_embedding.weight.T
''',
        "correct": False,
        "mistake": "Passes ~causal_mask(T), nn.MultiheadAttention's polarity, to blocks that take True = may attend: each position sees only the future (and the last one nothing).",
        "keywords": [r"polarity|invert|~", r"future|causal", r"True"],
        "kind": "polarity",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex5_lm_logits",
        "code": r'''def lm_logits(idx, token_embedding, position_embedding, blocks, final_norm):
    """idx (B, T) int64 -> logits (B, T, V), with the head tied to token_embedding."""
    T = len(idx)
    tokens = token_embedding(idx)
    positions = position_embedding(torch.arange(T, device=idx.device))
    x = tokens + positions
    mask = causal_mask(T, device=idx.device)
    for block in blocks:
        x = block(x, mask)[0]
    return final_norm(x) @ token_embedding.weight.T
''',
        "correct": False,
        "mistake": "Takes T as len(idx), which is the batch size B, not the sequence length idx.shape[1]: the positions and the mask have the wrong size (an error, or wrong positions when B happens to equal T).",
        "keywords": [
            r"len\(idx\)|batch size|shape\[0\]|\bB\b",
            r"shape\[1\]|sequence length|\bT\b",
            r"axis|dimension",
        ],
        "kind": "axis",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex5_lm_logits",
        "code": r'''def lm_logits(idx, token_embedding, position_embedding, blocks, final_norm):
    """idx (B, T) int64 -> logits (B, T, V), with the head tied to token_embedding."""
    T = idx.shape[1]
    embedded = token_embedding(idx) + position_embedding(torch.arange(T, device=idx.device))
    mask = causal_mask(T, device=idx.device)
    out = embedded
    for block in blocks:
        out = block(embedded, mask)[0]
    return final_norm(out) @ token_embedding.weight.T
''',
        "correct": False,
        "mistake": "Every block reads the embeddings instead of the previous block's output, so only the last block counts and the stack is not chained.",
        "keywords": [
            r"chain|previous block|each block|every block|one after|sequen",
            r"embed",
            r"last block|only the last",
        ],
        "kind": "state",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex5_lm_logits",
        "code": r'''def lm_logits(idx, token_embedding, position_embedding, blocks, final_norm):
    """idx (B, T) int64 -> logits (B, T, V), with the head tied to token_embedding."""
    T = idx.size(-1)
    E = token_embedding.weight  # (V, d): reads characters in, scores them out
    x = F.embedding(idx, E) + position_embedding.weight[:T]  # (B, T, d) + (T, d)
    mask = causal_mask(T, device=idx.device)
    for block in blocks:
        x = block(x, mask)[0]
    return F.linear(final_norm(x), E)  # x @ E.T
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex6_bits_per_character",
        "code": r'''def bits_per_character(logits, targets):
    """logits (B, T, V), targets (B, T) int64 -> () mean cross-entropy in bits."""
    nats = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))
    return nats * math.log(2)
''',
        "correct": False,
        "mistake": "Multiplies the cross-entropy in nats by ln 2 instead of dividing by it, so the result is smaller than the bits instead of larger.",
        "keywords": [r"multipl", r"divid|/ ?math\.log\(2\)|ln ?2|log\(2\)"],
        "kind": "direction",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex6_bits_per_character",
        "code": r'''def bits_per_character(logits, targets):
    """logits (B, T, V), targets (B, T) int64 -> () mean cross-entropy in bits."""
    V = logits.shape[-1]
    loss = F.cross_entropy(logits.view(-1, V), targets.view(-1))
    return torch.log2(loss)
''',
        "correct": False,
        "mistake": "Takes log2 of the cross-entropy instead of converting its unit: bits are nats / ln 2, not log2(nats).",
        "keywords": [r"log2", r"ln ?2|log\(2\)|divid|unit|convert"],
        "kind": "function swap",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex6_bits_per_character",
        "code": r'''def bits_per_character(logits, targets):
    """logits (B, T, V), targets (B, T) int64 -> () mean cross-entropy in bits."""
    flat_logits = logits.flatten(0, 1)
    flat_targets = targets.flatten()
    total = F.cross_entropy(flat_logits, flat_targets, reduction="sum")
    return total / math.log(2)
''',
        "correct": False,
        "mistake": 'Sums the cross-entropy over the B·T positions (reduction="sum") instead of averaging it.',
        "keywords": [r"sum", r"mean|averag", r"B ?[·*] ?T|number of (positions|characters)"],
        "kind": "scale",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex6_bits_per_character",
        "code": r'''def bits_per_character(logits, targets):
    """logits (B, T, V), targets (B, T) int64 -> () mean cross-entropy in bits."""
    B, T, V = logits.shape
    log_probs = logits.reshape(B * T, V)
    loss = F.nll_loss(log_probs, targets.reshape(B * T))
    return loss / math.log(2)
''',
        "correct": False,
        "mistake": "Uses F.nll_loss on the raw logits, which expects log-probabilities: the log-softmax is missing (F.cross_entropy would apply it).",
        "keywords": [
            r"nll_loss|nll",
            r"log[_-]?softmax|log-probabilit|normali[sz]",
            r"cross_entropy",
        ],
        "kind": "function swap",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex6_bits_per_character",
        "code": r'''def bits_per_character(logits, targets):
    """logits (B, T, V), targets (B, T) int64 -> () mean cross-entropy in bits."""
    loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))
    return loss.item() / math.log(2)
''',
        "correct": False,
        "mistake": "Returns a Python float (loss.item()) instead of a 0-d tensor, so training cannot call .backward() on it.",
        "keywords": [r"\.item\(\)|item", r"float|python number", r"tensor|backward"],
        "kind": "dtype",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex6_bits_per_character",
        "code": r'''def bits_per_character(logits, targets):
    """logits (B, T, V), targets (B, T) int64 -> () mean cross-entropy in bits."""
    log_p = torch.log_softmax(logits, dim=-1)  # (B, T, V), natural log
    picked = log_p.gather(-1, targets.unsqueeze(-1)).squeeze(-1)  # log p(target), (B, T)
    return -picked.mean() / math.log(2)
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
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
        logits = model(inputs)
        loss = bits_per_character(logits, targets)
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
        "mistake": "Steps the scheduler before the optimiser, so every update uses the next step's learning rate (the schedule runs one step ahead; the first warm-up value is skipped).",
        "keywords": [r"scheduler", r"before|order|ahead|after", r"learning rate|\blr\b"],
        "kind": "order",
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
        optimizer.zero_grad()
        loss = bits_per_character(model(inputs), targets)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
        optimizer.step()
        scheduler.step()
        history["bits"].append(loss.item())
        if evaluate is not None and (step + 1) % every == 0:
            history["held_out"].append((step + 1, evaluate(model)))
    return history
''',
        "correct": False,
        "mistake": "Clips the gradient's norm to 1.0 always, ignoring the clip argument.",
        "keywords": [r"clip", r"1\.0|hard-?cod|ignor|argument|constant"],
        "kind": "ignored argument",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex7_train",
        "code": r'''def train(model, optimizer, scheduler, batches, steps, evaluate=None, every=100, clip=1.0):
    """One update per step number in `steps`
    -> {"bits": [each step's loss], "held_out": [(step + 1, evaluate(model)), ...]}"""
    bits, held_out = [], []
    for i, step in enumerate(steps):
        inputs, targets = batches(i)
        loss = bits_per_character(model(inputs), targets)
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        optimizer.step()
        scheduler.step()
        bits.append(loss.item())
        if evaluate is not None and (step + 1) % every == 0:
            held_out.append((step + 1, evaluate(model)))
    return {"bits": bits, "held_out": held_out}
''',
        "correct": False,
        "mistake": "Asks batches for the loop counter i instead of the step number, so a resumed run (range(500, 1000)) trains on the batches of steps 0, 1, … again instead of the ones it would have seen.",
        "keywords": [
            r"step number|batches\(step\)|batches\(i\)",
            r"enumerate|counter|index|\bi\b",
            r"resum",
        ],
        "kind": "index",
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
        if (step + 1) % every == 0:
            history["held_out"].append((step + 1, evaluate(model)))
    return history
''',
        "correct": False,
        "mistake": "Calls evaluate without checking that it was given: with evaluate=None it raises 'NoneType' object is not callable at the first multiple of every.",
        "keywords": [r"None", r"evaluate", r"not callable|is not None|check"],
        "kind": "python slip",
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
        logits = model(inputs)
        loss = F.cross_entropy(logits.flatten(0, 1), targets.flatten())
        optimizer.zero_grad()
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
        "mistake": "Trains on F.cross_entropy, in nats, instead of bits_per_character: the recorded losses are ln 2 times the bits (and the clipped gradients differ).",
        "keywords": [r"nats?", r"bits|ln ?2|log\(2\)", r"cross_entropy|bits_per_character"],
        "kind": "function swap",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex7_train",
        "code": r'''def train(model, optimizer, scheduler, batches, steps, evaluate=None, every=100, clip=1.0):
    """One update per step number in `steps`
    -> {"bits": [each step's loss], "held_out": [(step + 1, evaluate(model)), ...]}"""
    history = {"bits": [], "held_out": []}
    parameters = [p for p in model.parameters()]
    for step in steps:
        x, y = batches(step)
        loss = bits_per_character(model(x), y)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        nn.utils.clip_grad_norm_(parameters, max_norm=clip)
        optimizer.step()
        scheduler.step()
        history["bits"].append(float(loss.detach()))
        done = step + 1
        if evaluate is None:
            continue
        if done % every == 0:
            history["held_out"].append((done, evaluate(model)))
    return history
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex8_sample_next",
        "code": r'''def sample_next(logits, temperature=1.0, top_k=None, generator=None):
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
        "keywords": [r"multipl", r"divid", r"temperature"],
        "kind": "direction",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex8_sample_next",
        "code": r'''def sample_next(logits, temperature=1.0, top_k=None, generator=None):
    """logits (B, V) -> (B,) int64: one character per row, greedy when temperature == 0."""
    if temperature == 0:
        return torch.argmax(logits, dim=1)
    scaled = logits / temperature
    if top_k is not None:
        threshold = torch.topk(scaled, top_k).values[:, -1].unsqueeze(1)
        scaled[scaled <= threshold] = float("-inf")
    return torch.multinomial(torch.softmax(scaled, dim=1), 1, generator=generator).view(-1)
''',
        "correct": False,
        "mistake": "Masks the logits that are <= the k-th largest instead of < it, so the k-th largest is dropped too and only k - 1 characters can be drawn.",
        "keywords": [r"<=|less than or equal|strict", r"k ?- ?1|k-th largest|kth", r"top-?k"],
        "kind": "boundary",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex8_sample_next",
        "code": r'''def sample_next(logits, temperature=1.0, top_k=None, generator=None):
    """logits (B, V) -> (B,) int64: one character per row, greedy when temperature == 0."""
    if temperature == 0:
        return logits.argmax(-1)
    logits = logits / temperature
    if top_k is not None:
        values, _ = torch.topk(logits, top_k, dim=0)
        logits = torch.where(logits < values[-1], float("-inf"), logits)
    probs = logits.softmax(-1)
    return torch.multinomial(probs, 1, generator=generator)[:, 0]
''',
        "correct": False,
        "mistake": "Takes the top k along dim 0, over the rows of the batch, instead of along the vocabulary (dim -1): each column's threshold comes from the other rows, not each row's own k-th largest logit.",
        "keywords": [r"dim ?= ?0|dim 0|axis|dimension", r"row|batch", r"vocab|dim ?= ?-1|last"],
        "kind": "axis",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex8_sample_next",
        "code": r'''def sample_next(logits, temperature=1.0, top_k=None, generator=None):
    """logits (B, V) -> (B,) int64: one character per row, greedy when temperature == 0."""
    if temperature == 0:
        return logits.argmax(dim=-1)
    if top_k is not None:
        kth = logits.topk(top_k, dim=-1).values[..., -1:]
        logits = logits.masked_fill(logits < kth, float("-inf"))
    probs = torch.softmax(logits, dim=-1) / temperature
    return torch.multinomial(probs, 1, generator=generator).squeeze(-1)
''',
        "correct": False,
        "mistake": "Divides the probabilities by the temperature after the softmax instead of the logits before it; multinomial renormalises, so the temperature has no effect.",
        "keywords": [
            r"after (the )?softmax|before (the )?softmax|order",
            r"probabilit",
            r"no effect|ignored|renormali[sz]",
        ],
        "kind": "order",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex8_sample_next",
        "code": r'''def sample_next(logits, temperature=1.0, top_k=None, generator=None):
    """logits (B, V) -> (B,) int64: one character per row, greedy when temperature == 0."""
    if temperature == 0:
        return logits.argmax(dim=-1)
    logits = logits / temperature
    if top_k is not None:
        kth_largest = logits.topk(top_k, dim=-1).values[:, [-1]]
        logits = logits.masked_fill(logits < kth_largest, -float("inf"))
    probs = F.softmax(logits, dim=-1)
    return torch.multinomial(probs, num_samples=1, generator=generator)
''',
        "correct": False,
        "mistake": "Returns torch.multinomial's (B, 1) result as it is instead of squeezing it to (B,).",
        "keywords": [r"\(B, ?1\)", r"squeeze|\(B,\)|shape"],
        "kind": "layout",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex8_sample_next",
        "code": r'''def sample_next(logits, temperature=1.0, top_k=None, generator=None):
    """logits (B, V) -> (B,) int64: one character per row, greedy when temperature == 0."""
    if temperature == 0:
        return logits.max(dim=1).indices
    scores = logits / temperature
    if top_k is not None:
        V = scores.shape[1]
        # the k-th largest is the (V - k + 1)-th smallest
        kth = torch.kthvalue(scores, V - top_k + 1, dim=1, keepdim=True).values
        scores = torch.where(scores >= kth, scores, torch.full_like(scores, float("-inf")))
    probs = F.softmax(scores, dim=1)
    picks = torch.multinomial(probs, 1, generator=generator)
    return picks.flatten().long()
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex9_attend_with_cache",
        "code": r'''def attend_with_cache(q, k_new, v_new, cache_k, cache_v, length):
    """q, k_new, v_new (B, H, n, d); cache_k, cache_v (B, H, C, d) with `length` positions stored
    -> output (B, H, n, d); k_new and v_new written into the cache at length … length + n - 1"""
    n = q.shape[-2]
    end = length + n
    cache_k[..., length:end, :] = k_new
    cache_v[..., length:end, :] = v_new
    keys, values = cache_k[..., :end, :], cache_v[..., :end, :]
    scores = q @ keys.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if n > 1:
        mask = torch.ones(n, end, dtype=torch.bool, device=q.device).tril()
        scores = scores.masked_fill(~mask, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
''',
        "correct": False,
        "mistake": "Builds the chunk's mask with tril() instead of tril(length): query i sees only keys 0 … i, not the p stored ones before it (0 … p + i).",
        "keywords": [
            r"tril\(length\)|tril\(p\)|offset|diagonal",
            r"tril\(\)",
            r"stored|prompt|p ?\+ ?i|earlier",
        ],
        "kind": "off-by-one",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex9_attend_with_cache",
        "code": r'''def attend_with_cache(q, k_new, v_new, cache_k, cache_v, length):
    """q, k_new, v_new (B, H, n, d); cache_k, cache_v (B, H, C, d) with `length` positions stored
    -> output (B, H, n, d); k_new and v_new written into the cache at length … length + n - 1"""
    n = k_new.shape[2]
    cache_k[:, :, length:length + n] = k_new
    cache_v[:, :, length:length + n] = v_new
    scores = q @ cache_k.transpose(2, 3) / math.sqrt(q.shape[3])
    if n > 1:
        allowed = torch.ones(n, cache_k.shape[2], dtype=torch.bool).tril(length)
        scores = scores.masked_fill(~allowed, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    return weights @ cache_v
''',
        "correct": False,
        "mistake": "Attends over the whole allocated cache (all C positions) instead of its first length + n, so the unused slots after them are read as keys and values.",
        "keywords": [
            r"whole (allocated )?cache|all C|capacity|unused|left ?over|garbage",
            r"length ?\+ ?n|p ?\+ ?n|first",
        ],
        "kind": "boundary",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex9_attend_with_cache",
        "code": r'''def attend_with_cache(q, k_new, v_new, cache_k, cache_v, length):
    """q, k_new, v_new (B, H, n, d); cache_k, cache_v (B, H, C, d) with `length` positions stored
    -> output (B, H, n, d); k_new and v_new written into the cache at length … length + n - 1"""
    cache_k = torch.cat([cache_k[..., :length, :], k_new], dim=-2)
    cache_v = torch.cat([cache_v[..., :length, :], v_new], dim=-2)
    n, total = q.shape[-2], cache_k.shape[-2]
    scores = q @ cache_k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if n > 1:
        mask = torch.ones(n, total, dtype=torch.bool, device=q.device).tril(length)
        scores = scores.masked_fill(~mask, float("-inf"))
    return scores.softmax(dim=-1) @ cache_v
''',
        "correct": False,
        "mistake": "Joins the new keys and values with torch.cat into new local tensors instead of writing them into the cache in place, so the caller's cache never receives them and later calls read what was left in those slots.",
        "keywords": [r"in place|in-place", r"torch\.cat|cat\b|copy|new tensor|rebind|local"],
        "kind": "in-place",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex9_attend_with_cache",
        "code": r'''def attend_with_cache(q, k_new, v_new, cache_k, cache_v, length):
    """q, k_new, v_new (B, H, n, d); cache_k, cache_v (B, H, C, d) with `length` positions stored
    -> output (B, H, n, d); k_new and v_new written into the cache at length … length + n - 1"""
    n = q.size(-2)
    cache_k[..., length:length + n, :] = k_new
    cache_v[..., length:length + n, :] = v_new
    # the new character is at position `length`: everything up to it is stored now
    k = cache_k[..., :length + 1, :]
    v = cache_v[..., :length + 1, :]
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    if n > 1:
        mask = torch.ones(n, length + 1, dtype=torch.bool, device=q.device).tril(length)
        scores = scores.masked_fill(~mask, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v
''',
        "correct": False,
        "mistake": "Attends over the first length + 1 positions, right for one new character but not for a chunk of n > 1: the chunk's later keys (up to length + n) are left out.",
        "keywords": [
            r"length ?\+ ?1|p ?\+ ?1|one new|single",
            r"length ?\+ ?n|p ?\+ ?n|chunk|n ?> ?1",
        ],
        "kind": "off-by-one",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex9_attend_with_cache",
        "code": r'''def attend_with_cache(q, k_new, v_new, cache_k, cache_v, length):
    """q, k_new, v_new (B, H, n, d); cache_k, cache_v (B, H, C, d) with `length` positions stored
    -> output (B, H, n, d); k_new and v_new written into the cache at length … length + n - 1"""
    n, d = q.shape[-2], q.shape[-1]
    cache_k[..., length:length + n, :] = k_new
    cache_v[..., length:length + n, :] = v_new
    k = cache_k[..., :length + n, :]
    v = cache_v[..., :length + n, :]
    scores = q @ k.transpose(-2, -1) / d ** 1 / 2
    if n > 1:
        mask = torch.ones(n, length + n, dtype=torch.bool, device=q.device).tril(length)
        scores = scores.masked_fill(~mask, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v
''',
        "correct": False,
        "mistake": "Writes the scale as / d ** 1 / 2, which Python reads as (scores / d) / 2, not as a division by √d.",
        "keywords": [
            r"precedence|parenthes|\*\* ?1 ?/ ?2|\*\* ?\(1 ?/ ?2\)",
            r"sqrt|√|square root",
            r"d ?/ ?2|divid",
        ],
        "kind": "precedence",
    },
    {
        "notebook": "08_language_model",
        "cell": "ex9_attend_with_cache",
        "code": r'''def attend_with_cache(q, k_new, v_new, cache_k, cache_v, length):
    """q, k_new, v_new (B, H, n, d); cache_k, cache_v (B, H, C, d) with `length` positions stored
    -> output (B, H, n, d); k_new and v_new written into the cache at length … length + n - 1"""
    n = q.shape[-2]
    cache_k.narrow(-2, length, n).copy_(k_new)  # a view of the slots: copy_ writes into the cache
    cache_v.narrow(-2, length, n).copy_(v_new)
    outputs = []
    for i in range(n):  # query i sits at position length + i and sees keys 0 … length + i
        seen = length + i + 1
        k, v = cache_k[..., :seen, :], cache_v[..., :seen, :]
        scores = torch.einsum("bhd,bhsd->bhs", q[..., i, :], k) / math.sqrt(q.shape[-1])
        outputs.append(torch.einsum("bhs,bhsd->bhd", scores.softmax(dim=-1), v))
    return torch.stack(outputs, dim=-2)
''',
        "correct": True,
        "mistake": "",
        "keywords": [],
        "kind": "correct",
    },
]
