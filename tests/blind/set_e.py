"""Blind set E: student answers for the Transformer course, written without seeing the
course's grading checks, misconceptions or mutants.

Each entry replaces one answer cell (nbgrader grade_id in "cell") of one notebook. "correct"
False: one plausible mistake, described in "mistake" (a teacher's sentence), with "keywords",
case-insensitive regular expressions of which any correct description matches at least one,
and "kind", a short class of the mistake. "correct" True: a right answer in another style.
"""

# ruff: noqa: E501

ANSWERS = [
    {
        "notebook": "01_vector_attention",
        "cell": "ex1_project",
        "correct": False,
        "kind": "layout",
        "mistake": "project multiplies by the transpose W.T @ x instead of W @ x, treating W's rows as its columns (wrong numbers, and an error whenever D_out differs from D_in).",
        "keywords": [
            r"transpos",
            r"W\.T|Wᵀ|W\^T|W\.t\(\)",
            r"rows?.{0,30}columns?|columns?.{0,30}rows?",
            r"layout|\(in, ?out\)|\(out, ?in\)|wrong way|other way|swap|order",
        ],
        "code": '''def project(W, b, x):
    """Return the column W x + b.

    W: (D_out, D_in), b: (D_out, 1), x: (D_in, 1)  ->  (D_out, 1)
    """
    return W.T @ x + b
''',
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex1_project",
        "correct": False,
        "kind": "missing term",
        "mistake": "project returns W @ x and never adds the bias b.",
        "keywords": [r"bias", r"\bb\b", r"\+ ?b", r"offset|intercept"],
        "code": '''def project(W, b, x):
    """Return the column W x + b.

    W: (D_out, D_in), b: (D_out, 1), x: (D_in, 1)  ->  (D_out, 1)
    """
    # matrix times column
    return torch.matmul(W, x)
''',
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex1_project",
        "correct": False,
        "kind": "function swap",
        "mistake": "project uses the elementwise product W * x, which broadcasts to a (D_out, D_in) matrix, instead of the matrix product W @ x.",
        "keywords": [
            r"element[- ]?wise|hadamard|broadcast|\bW ?\* ?x|\*",
            r"matmul|matrix (product|multipl)|@",
        ],
        "code": '''def project(W, b, x):
    """Return the column W x + b.

    W: (D_out, D_in), b: (D_out, 1), x: (D_in, 1)  ->  (D_out, 1)
    """
    y = W * x + b
    return y
''',
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex1_project",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
        "code": '''def project(W, b, x):
    """Return the column W x + b.

    W: (D_out, D_in), b: (D_out, 1), x: (D_in, 1)  ->  (D_out, 1)
    """
    # row i of the result is sum_j W[i, j] x[j], plus b[i]
    return torch.einsum("ij,jk->ik", W, x) + b
''',
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex2_score",
        "correct": False,
        "kind": "scale",
        "mistake": "score divides the dot product by D instead of by √D.",
        "keywords": [
            r"sqrt|√|root",
            r"by D\b|by d\b|1 ?/ ?D\b|divid\w* by (the )?(dimension|length|size)",
        ],
        "code": '''def score(q, k):
    """Return the scaled dot product q·k / √D as a 0-d tensor.

    q, k: (D, 1)  ->  ()
    """
    D = q.shape[0]
    return (q.T @ k).squeeze() / D
''',
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex2_score",
        "correct": False,
        "kind": "axis",
        "mistake": "score reads D from q.shape[1], which is 1 for a (D, 1) column, so the dot product is divided by √1 and never scaled.",
        "keywords": [
            r"shape\[1\]|shape\[-1\]|second (axis|dim)|wrong (axis|dim)|columns?|number of columns",
            r"not scaled|no scal|unscaled|never scal|without (the )?(scal|1/|√)|√1|sqrt\(1\)|by 1\b|plain dot",
            r"sqrt|√|root|scal",
        ],
        "code": '''def score(q, k):
    """Return the scaled dot product q·k / √D as a 0-d tensor.

    q, k: (D, 1)  ->  ()
    """
    d = q.shape[1]
    dot = (q.T @ k).squeeze()
    return dot / math.sqrt(d)
''',
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex2_score",
        "correct": False,
        "kind": "layout",
        "mistake": "score sums the D×D outer product q kᵀ (every q_i k_j) instead of taking the inner product qᵀ k.",
        "keywords": [
            r"outer",
            r"q ?@ ?k\.T|q ?kᵀ|q ?k\^T|k\.T",
            r"inner|q\.T ?@ ?k|qᵀ ?k|every (pair|product)|all (pairs|products)|cross",
            r"q_i ?k_j|all i,? ?j|i ?≠ ?j|off-diagonal",
        ],
        "code": '''def score(q, k):
    """Return the scaled dot product q·k / √D as a 0-d tensor.

    q, k: (D, 1)  ->  ()
    """
    return (q @ k.T).sum() / math.sqrt(q.numel())
''',
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex2_score",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
        "code": '''def score(q, k):
    """Return the scaled dot product q·k / √D as a 0-d tensor.

    q, k: (D, 1)  ->  ()
    """
    D = len(q)
    return torch.dot(q.flatten(), k.flatten()) / D ** 0.5
''',
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex3_softmax",
        "correct": False,
        "kind": "missing term",
        "mistake": "softmax exponentiates the raw scores without subtracting the maximum first, so large scores overflow to inf and give NaN.",
        "keywords": [r"max", r"shift|subtract|overflow|stab|nan|inf"],
        "code": '''def softmax(z):
    """Numerically stable softmax of a 1-D tensor.

    z: (m,)  ->  (m,), positive, sums to 1
    """
    e = torch.exp(z)
    return e / e.sum()
''',
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex3_softmax",
        "correct": False,
        "kind": "missing term",
        "mistake": "softmax subtracts the maximum in the numerator but not in the denominator, so the weights are off by a factor e^(-max) and do not sum to 1 (and overflow for large scores).",
        "keywords": [
            r"denominator|bottom|normali[sz]",
            r"numerator|only .{0,20}(top|one)",
            r"sum to (1|one)|don.t sum|do not sum",
        ],
        "code": '''def softmax(z):
    """Numerically stable softmax of a 1-D tensor.

    z: (m,)  ->  (m,), positive, sums to 1
    """
    top = torch.exp(z - z.max())
    bottom = torch.exp(z).sum()
    return top / bottom
''',
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex3_softmax",
        "correct": False,
        "kind": "function swap",
        "mistake": "softmax divides the exponentials by their maximum instead of by their sum, so the largest weight is 1 and the weights do not sum to 1.",
        "keywords": [r"max", r"sum", r"normali[sz]"],
        "code": '''def softmax(z):
    """Numerically stable softmax of a 1-D tensor.

    z: (m,)  ->  (m,), positive, sums to 1
    """
    shifted = z - z.max()
    ez = torch.exp(shifted)
    return ez / ez.max()
''',
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex3_softmax",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
        "code": '''def softmax(z):
    """Numerically stable softmax of a 1-D tensor.

    z: (m,)  ->  (m,), positive, sums to 1
    """
    m = z.max()
    log_norm = m + torch.log(torch.exp(z - m).sum())  # log-sum-exp, computed safely
    return torch.exp(z - log_norm)
''',
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex4_attention_weights",
        "correct": False,
        "kind": "axis",
        "mistake": "attention_weights applies the softmax down each column (over the queries) instead of along each row (over the keys), so the columns sum to 1 and the rows do not.",
        "keywords": [
            r"columns?",
            r"axis|dim\b|dimension|direction|wrong way",
            r"over (the )?queries|rows? (do not|don.t) sum",
        ],
        "code": '''def attention_weights(queries, keys):
    """Row n: softmax over the keys of the scores of query n.

    queries: list of N_q columns (D, 1); keys: list of N_k columns (D, 1)  ->  (N_q, N_k)
    """
    scores = torch.stack([torch.stack([score(q, k) for k in keys]) for q in queries])
    columns = [softmax(scores[:, j]) for j in range(scores.shape[1])]
    return torch.stack(columns, dim=1)
''',
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex4_attention_weights",
        "correct": False,
        "kind": "scale",
        "mistake": "attention_weights scores with the plain dot product (q * k).sum() and leaves out the division by √D that score does.",
        "keywords": [
            r"sqrt|√|root",
            r"scal",
            r"plain dot|raw dot|unscaled|score\(\)? (function|is not used)|own score",
        ],
        "code": '''def attention_weights(queries, keys):
    """Row n: softmax over the keys of the scores of query n.

    queries: list of N_q columns (D, 1); keys: list of N_k columns (D, 1)  ->  (N_q, N_k)
    """
    rows = []
    for q in queries:
        s = torch.stack([(q * k).sum() for k in keys])
        rows.append(softmax(s))
    return torch.stack(rows)
''',
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex4_attention_weights",
        "correct": False,
        "kind": "axis",
        "mistake": "attention_weights takes one softmax over the whole flattened table of scores instead of one softmax per row, so the entire matrix sums to 1 rather than each query's row.",
        "keywords": [
            r"whole|entire|all (the )?(scores|entries)|flatten|global|one softmax|single softmax",
            r"each (row|query)|per (row|query)|row[- ]wise|rows?",
        ],
        "code": '''def attention_weights(queries, keys):
    """Row n: softmax over the keys of the scores of query n.

    queries: list of N_q columns (D, 1); keys: list of N_k columns (D, 1)  ->  (N_q, N_k)
    """
    n_q, n_k = len(queries), len(keys)
    table = torch.zeros(n_q, n_k)
    for i, q in enumerate(queries):
        for j, k in enumerate(keys):
            table[i, j] = score(q, k)
    return softmax(table.flatten()).reshape(n_q, n_k)
''',
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex4_attention_weights",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
        "code": '''def attention_weights(queries, keys):
    """Row n: softmax over the keys of the scores of query n.

    queries: list of N_q columns (D, 1); keys: list of N_k columns (D, 1)  ->  (N_q, N_k)
    """
    weights = []
    for q in queries:
        row = torch.stack([score(q, k) for k in keys])  # (N_k,)
        weights.append(softmax(row))
    return torch.stack(weights, dim=0)
''',
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex5_weighted_sum",
        "correct": False,
        "kind": "off-by-one",
        "mistake": "weighted_sum starts its loop at m = 1, so the first value's term weights[0] * values[0] is left out of the sum.",
        "keywords": [r"first", r"index 0|\[0\]|m ?= ?0|range\(1|off[- ]by[- ]one|skip"],
        "code": '''def weighted_sum(weights, values):
    """Return the sum over m of weights[m] * values[m].

    weights: (N,); values: list of N columns (D_v, 1)  ->  (D_v, 1)
    """
    total = weights[0] * torch.zeros_like(values[0])
    for m in range(1, len(values)):
        total = total + weights[m] * values[m]
    return total
''',
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex5_weighted_sum",
        "correct": False,
        "kind": "argument ignored",
        "mistake": "weighted_sum returns the plain mean of the values and ignores the weights.",
        "keywords": [r"weights?", r"mean|average|ignor|uniform|equal"],
        "code": '''def weighted_sum(weights, values):
    """Return the sum over m of weights[m] * values[m].

    weights: (N,); values: list of N columns (D_v, 1)  ->  (D_v, 1)
    """
    stacked = torch.stack(values)  # (N, D_v, 1)
    return stacked.mean(dim=0)
''',
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex5_weighted_sum",
        "correct": False,
        "kind": "first item only",
        "mistake": "weighted_sum multiplies every value by weights[0] instead of by its own weight weights[m].",
        "keywords": [
            r"weights?\[0\]|first weight|same weight|one weight|single weight|own weight|weights\[m\]|index|every value",
            r"first|wrong weight|ignor\w* (the )?(other|rest)|weights?\b",
        ],
        "code": '''def weighted_sum(weights, values):
    """Return the sum over m of weights[m] * values[m].

    weights: (N,); values: list of N columns (D_v, 1)  ->  (D_v, 1)
    """
    out = torch.zeros_like(values[0])
    for v in values:
        out = out + weights[0] * v
    return out
''',
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex5_weighted_sum",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
        "code": '''def weighted_sum(weights, values):
    """Return the sum over m of weights[m] * values[m].

    weights: (N,); values: list of N columns (D_v, 1)  ->  (D_v, 1)
    """
    V = torch.cat(values, dim=1)  # (D_v, N): the values side by side
    return V @ weights.reshape(-1, 1)
''',
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex6_self_attention",
        "correct": False,
        "kind": "function swap",
        "mistake": "self_attention mixes the keys instead of the values: it never computes v = W_v x + b_v and passes the keys to weighted_sum.",
        "keywords": [r"keys?", r"values?|W_v|\bv\b"],
        "code": '''def self_attention(xs, W_q, b_q, W_k, b_k, W_v, b_v):
    """Self-attention over a list of input columns, one token at a time.

    xs: list of N columns (D_in, 1); W_*: (D_out, D_in); b_*: (D_out, 1)
    ->  list of N output columns (D_out, 1)
    """
    queries = [project(W_q, b_q, x) for x in xs]
    keys = [project(W_k, b_k, x) for x in xs]
    weights = attention_weights(queries, keys)
    return [weighted_sum(weights[n], keys) for n in range(len(xs))]
''',
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex6_self_attention",
        "correct": False,
        "kind": "axis",
        "mistake": "self_attention mixes the values with column n of the weight matrix, A[:, n], instead of row n, the weights of query n (the transposed weights).",
        "keywords": [r"column", r"transpos", r"A\[:, ?n\]|weights\[:, ?n\]|row n|row of"],
        "code": '''def self_attention(xs, W_q, b_q, W_k, b_k, W_v, b_v):
    """Self-attention over a list of input columns, one token at a time.

    xs: list of N columns (D_in, 1); W_*: (D_out, D_in); b_*: (D_out, 1)
    ->  list of N output columns (D_out, 1)
    """
    qs = [project(W_q, b_q, x) for x in xs]
    ks = [project(W_k, b_k, x) for x in xs]
    vs = [project(W_v, b_v, x) for x in xs]
    A = attention_weights(qs, ks)
    outputs = []
    for n in range(len(xs)):
        outputs.append(weighted_sum(A[:, n], vs))
    return outputs
''',
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex6_self_attention",
        "correct": False,
        "kind": "argument order",
        "mistake": "self_attention makes the values with the key bias, project(W_v, b_k, x), instead of the value bias b_v.",
        "keywords": [r"b_k|b_v|bias", r"key|value|wrong (bias|argument)|swap|copy"],
        "code": '''def self_attention(xs, W_q, b_q, W_k, b_k, W_v, b_v):
    """Self-attention over a list of input columns, one token at a time.

    xs: list of N columns (D_in, 1); W_*: (D_out, D_in); b_*: (D_out, 1)
    ->  list of N output columns (D_out, 1)
    """
    queries = [project(W_q, b_q, x) for x in xs]
    keys = [project(W_k, b_k, x) for x in xs]
    values = [project(W_v, b_k, x) for x in xs]
    weights = attention_weights(queries, keys)
    return [weighted_sum(w, values) for w in weights]
''',
    },
    {
        "notebook": "01_vector_attention",
        "cell": "ex6_self_attention",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
        "code": '''def self_attention(xs, W_q, b_q, W_k, b_k, W_v, b_v):
    """Self-attention over a list of input columns, one token at a time.

    xs: list of N columns (D_in, 1); W_*: (D_out, D_in); b_*: (D_out, 1)
    ->  list of N output columns (D_out, 1)
    """
    q_list, k_list, v_list = [], [], []
    for x in xs:
        q_list.append(project(W_q, b_q, x))
        k_list.append(project(W_k, b_k, x))
        v_list.append(project(W_v, b_v, x))
    outs = []
    for q in q_list:
        w = attention_weights([q], k_list)[0]  # this query's row of weights
        outs.append(weighted_sum(w, v_list))
    return outs
''',
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex1_softmax_cols",
        "correct": False,
        "kind": "axis",
        "mistake": "softmax_cols takes the maximum and the sum along dim=1, so it normalises each row instead of each column.",
        "keywords": [r"rows?", r"dim ?= ?1|axis|dim\b|dimension|direction|wrong way"],
        "code": '''def softmax_cols(S):
    """Softmax of each column of S, computed without overflow.

    S: (M, N)  ->  (M, N), every column positive and summing to 1
    """
    shifted = S - S.max(dim=1, keepdim=True).values
    e = torch.exp(shifted)
    return e / e.sum(dim=1, keepdim=True)
''',
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex1_softmax_cols",
        "correct": False,
        "kind": "axis",
        "mistake": "softmax_cols subtracts the single largest entry of the whole matrix instead of each column's own maximum, so a column far below the global maximum underflows to 0/0 = NaN.",
        "keywords": [
            r"global|whole|entire|overall|single (max|largest)|S\.max\(\)|all entries",
            "each column|per[- ]column|column'?s? (own )?max|column[- ]wise",
        ],
        "code": '''def softmax_cols(S):
    """Softmax of each column of S, computed without overflow.

    S: (M, N)  ->  (M, N), every column positive and summing to 1
    """
    e = torch.exp(S - S.max())
    return e / e.sum(dim=0, keepdim=True)
''',
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex1_softmax_cols",
        "correct": False,
        "kind": "tuple as tensor",
        "mistake": "softmax_cols subtracts S.max(dim=0, keepdim=True) itself, a (values, indices) tuple, instead of its .values, so the subtraction fails.",
        "keywords": [
            r"tuple|namedtuple|\.values|indices|return_types",
            r"max\(|values|TypeError|error|subtract",
        ],
        "code": '''def softmax_cols(S):
    """Softmax of each column of S, computed without overflow.

    S: (M, N)  ->  (M, N), every column positive and summing to 1
    """
    col_max = S.max(dim=0, keepdim=True)
    exps = torch.exp(S - col_max)
    return exps / exps.sum(dim=0, keepdim=True)
''',
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex1_softmax_cols",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
        "code": '''def softmax_cols(S):
    """Softmax of each column of S, computed without overflow.

    S: (M, N)  ->  (M, N), every column positive and summing to 1
    """
    out = torch.empty_like(S)
    for j in range(S.shape[1]):  # one column at a time
        col = S[:, j]
        e = torch.exp(col - col.max())
        out[:, j] = e / e.sum()
    return out
''',
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex2_self_attention_cols",
        "correct": False,
        "kind": "layout",
        "mistake": "self_attention_cols builds the scores as Qᵀ K instead of Kᵀ Q, so column n holds key n's scores against every query (the transposed score matrix) before the column softmax.",
        "keywords": [
            r"Q\.T ?@ ?K|Qᵀ ?K|Q\^T ?K|K\.T ?@ ?Q|Kᵀ ?Q",
            r"transpos",
            r"order|swap|wrong way round",
        ],
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
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex2_self_attention_cols",
        "correct": False,
        "kind": "scale",
        "mistake": "self_attention_cols scales by √D_in, the length of an input (X.shape[0]), instead of √d_k, the length of a key (D_out).",
        "keywords": [r"D_in|X\.shape\[0\]|input", r"d_k|D_out|key|K\.shape|query"],
        "code": '''def self_attention_cols(X, W_q, b_q, W_k, b_k, W_v, b_v):
    """Self-attention with tokens as the columns of X.

    X: (D_in, N); W_*: (D_out, D_in); b_*: (D_out, 1)  ->  (D_out, N)
    """
    Q, K, V = W_q @ X + b_q, W_k @ X + b_k, W_v @ X + b_v
    d = X.shape[0]
    return V @ softmax_cols(K.T @ Q / math.sqrt(d))
''',
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex2_self_attention_cols",
        "correct": False,
        "kind": "order",
        "mistake": "self_attention_cols adds each bias to X before the matrix product, W (X + b), instead of after it, W X + b.",
        "keywords": [r"bias", r"before|after|inside|order|parenthes|W ?\(X ?\+ ?b|W_\w ?@ ?\(X"],
        "code": '''def self_attention_cols(X, W_q, b_q, W_k, b_k, W_v, b_v):
    """Self-attention with tokens as the columns of X.

    X: (D_in, N); W_*: (D_out, D_in); b_*: (D_out, 1)  ->  (D_out, N)
    """
    Q = W_q @ (X + b_q)
    K = W_k @ (X + b_k)
    V = W_v @ (X + b_v)
    A = softmax_cols(K.T @ Q / math.sqrt(Q.shape[0]))
    return V @ A
''',
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex2_self_attention_cols",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
        "code": '''def self_attention_cols(X, W_q, b_q, W_k, b_k, W_v, b_v):
    """Self-attention with tokens as the columns of X.

    X: (D_in, N); W_*: (D_out, D_in); b_*: (D_out, 1)  ->  (D_out, N)
    """
    Q = torch.addmm(b_q, W_q, X)
    K = torch.addmm(b_k, W_k, X)
    V = torch.addmm(b_v, W_v, X)
    scores = torch.einsum("dm,dn->mn", K, Q) / math.sqrt(K.shape[0])  # Kᵀ Q
    return V @ softmax_cols(scores)
''',
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex3_attention",
        "correct": False,
        "kind": "mask",
        "mistake": "attention fills the scores with -inf where the mask is True, i.e. where attending is allowed, instead of where it is False (~mask): the mask's polarity is inverted.",
        "keywords": [
            r"invert|polarity|~ ?mask|opposite|flip|revers|wrong way",
            r"True|False|allowed|forbidden",
        ],
        "code": '''def attention(Q, K, V, mask=None):
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
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex3_attention",
        "correct": False,
        "kind": "scale",
        "mistake": "attention divides the scores by √d_v, the width of the values (V.shape[-1]), instead of √d_k, the width of the queries and keys.",
        "keywords": [r"d_v|V\.shape|values?", r"d_k|Q\.shape|K\.shape|quer|keys?"],
        "code": '''def attention(Q, K, V, mask=None):
    """Scaled dot-product attention over any leading batch dimensions.

    Q: (..., T, d_k), K: (..., S, d_k), V: (..., S, d_v),
    mask: bool, broadcastable to (..., T, S), True = may attend
    ->  output (..., T, d_v), weights (..., T, S)
    """
    d_v = V.shape[-1]
    scores = torch.matmul(Q, K.transpose(-2, -1)) / math.sqrt(d_v)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = scores.softmax(dim=-1)
    return torch.matmul(weights, V), weights
''',
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex3_attention",
        "correct": False,
        "kind": "mask",
        "mistake": "attention sets the masked scores to 0 instead of -inf, so after the softmax the forbidden keys still get weight e^0.",
        "keywords": [r"-? ?inf|∞|infinit", r"\b0\b|zero"],
        "code": '''def attention(Q, K, V, mask=None):
    """Scaled dot-product attention over any leading batch dimensions.

    Q: (..., T, d_k), K: (..., S, d_k), V: (..., S, d_v),
    mask: bool, broadcastable to (..., T, S), True = may attend
    ->  output (..., T, d_v), weights (..., T, S)
    """
    scores = Q @ K.transpose(-2, -1) / math.sqrt(K.shape[-1])
    if mask is not None:
        scores = scores.masked_fill(~mask, 0.0)
    weights = torch.softmax(scores, dim=-1)
    output = weights @ V
    return output, weights
''',
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex3_attention",
        "correct": False,
        "kind": "axis",
        "mistake": "attention takes the softmax along dim=-2, over the queries, instead of dim=-1, over the keys, so the weights' columns sum to 1 rather than each query's row.",
        "keywords": [r"dim ?= ?-2|dim ?= ?-1|axis|dimension|columns?", r"quer|keys?|rows?"],
        "code": '''def attention(Q, K, V, mask=None):
    """Scaled dot-product attention over any leading batch dimensions.

    Q: (..., T, d_k), K: (..., S, d_k), V: (..., S, d_v),
    mask: bool, broadcastable to (..., T, S), True = may attend
    ->  output (..., T, d_v), weights (..., T, S)
    """
    scale = 1.0 / math.sqrt(Q.size(-1))
    scores = (Q @ K.transpose(-2, -1)) * scale
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.softmax(scores, dim=-2)
    return weights @ V, weights
''',
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex3_attention",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
        "code": '''def attention(Q, K, V, mask=None):
    """Scaled dot-product attention over any leading batch dimensions.

    Q: (..., T, d_k), K: (..., S, d_k), V: (..., S, d_v),
    mask: bool, broadcastable to (..., T, S), True = may attend
    ->  output (..., T, d_v), weights (..., T, S)
    """
    d_k = Q.shape[-1]
    scores = torch.einsum("...td,...sd->...ts", Q, K) / d_k ** 0.5
    if mask is not None:
        scores = torch.where(mask, scores, torch.tensor(float("-inf"), dtype=scores.dtype))
    scores = scores - scores.amax(dim=-1, keepdim=True)
    e = scores.exp()
    weights = e / e.sum(dim=-1, keepdim=True)
    return torch.einsum("...ts,...sv->...tv", weights, V), weights
''',
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex4_padding_mask",
        "correct": False,
        "kind": "off-by-one",
        "mistake": "padding_mask compares positions <= lengths, which also marks position lengths[b], the first padding token, as real (off by one).",
        "keywords": [
            r"<=|≤|less than or equal|off[- ]by[- ]one|one (too )?(many|more|extra)|extra|first padding|lengths?\[b\]|includ",
            r"<|≤|comparison|boundary|padding",
        ],
        "code": '''def padding_mask(lengths, seq_len):
    """True at the real tokens, False at the padding.

    lengths: (B,) integers  ->  (B, seq_len) bool
    """
    positions = torch.arange(seq_len)
    return positions[None, :] <= lengths[:, None]
''',
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex4_padding_mask",
        "correct": False,
        "kind": "layout",
        "mistake": "padding_mask broadcasts the positions as a column against the lengths as a row, so it returns the transposed (seq_len, B) mask instead of (B, seq_len).",
        "keywords": [
            r"transpos|\(seq_len, ?B\)|shape|column.{0,40}row|row.{0,40}column|orientation|swap",
            r"\(B, ?seq_len\)|B ?× ?seq_len|\[:, ?None\]|\[None, ?:\]|broadcast|wrong (way|axis|axes)",
        ],
        "code": '''def padding_mask(lengths, seq_len):
    """True at the real tokens, False at the padding.

    lengths: (B,) integers  ->  (B, seq_len) bool
    """
    return torch.arange(seq_len)[:, None] < lengths[None, :]
''',
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex4_padding_mask",
        "correct": False,
        "kind": "dtype",
        "mistake": "padding_mask returns a float tensor of 0s and 1s (torch.zeros) instead of a boolean mask.",
        "keywords": [
            r"bool|dtype|float|zeros|0s? and 1s?|ones and zeros",
            r"boolean|True|False|type",
        ],
        "code": '''def padding_mask(lengths, seq_len):
    """True at the real tokens, False at the padding.

    lengths: (B,) integers  ->  (B, seq_len) bool
    """
    B = lengths.shape[0]
    mask = torch.zeros(B, seq_len)
    for b in range(B):
        mask[b, : int(lengths[b])] = 1
    return mask
''',
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex4_padding_mask",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
        "code": '''def padding_mask(lengths, seq_len):
    """True at the real tokens, False at the padding.

    lengths: (B,) integers  ->  (B, seq_len) bool
    """
    B = len(lengths)
    mask = torch.zeros(B, seq_len, dtype=torch.bool)
    for b, n in enumerate(lengths.tolist()):
        mask[b, :n] = True
    return mask
''',
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex5_hand_built_heads",
        "correct": False,
        "kind": "off-by-one",
        "mistake": "previous_token_head points the query of position p at position p + 1 instead of p - 1, so it builds a next-token head.",
        "keywords": [
            r"p ?\+ ?1|t ?\+ ?1|next|following|wrong direction|shift\w* the wrong way|forward|after",
            r"p ?- ?1|t ?- ?1|previous|preceding|wrong (position|column|key)|offset|shift",
        ],
        "code": '''def previous_token_head(vocab_size, max_len, d_head, strength):
    """W_q, W_k (vocab_size + max_len, d_head), d_head >= max_len: after the 1/√d_head,
    query t scores `strength` with the key at position t - 1 and 0 with every other key."""
    n = vocab_size + max_len
    W_q, W_k = torch.zeros(n, d_head), torch.zeros(n, d_head)
    W_k[vocab_size:, :max_len] = torch.eye(max_len)
    # position p asks for the neighbouring position
    W_q[vocab_size:vocab_size + max_len - 1, 1:max_len] = strength * math.sqrt(d_head) * torch.eye(max_len - 1)
    return W_q, W_k


def same_token_head(vocab_size, max_len, d_head, strength):
    """W_q, W_k (vocab_size + max_len, d_head), d_head >= vocab_size: after the 1/√d_head,
    query t scores `strength` with every key holding its own token and 0 with the others."""
    d_model = vocab_size + max_len
    W_q = torch.zeros(d_model, d_head)
    W_k = torch.zeros(d_model, d_head)
    for token in range(vocab_size):
        W_q[token, token] = strength * math.sqrt(d_head)
        W_k[token, token] = 1.0
    return W_q, W_k
''',
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex5_hand_built_heads",
        "correct": False,
        "kind": "scale",
        "mistake": "same_token_head leaves out the factor √d_head, so after attention's division by √d_head its scores are strength/√d_head instead of strength.",
        "keywords": [r"sqrt|√|root", r"d_head", r"scal|factor"],
        "code": '''def previous_token_head(vocab_size, max_len, d_head, strength):
    """W_q, W_k (vocab_size + max_len, d_head), d_head >= max_len: after the 1/√d_head,
    query t scores `strength` with the key at position t - 1 and 0 with every other key."""
    d_model = vocab_size + max_len
    W_q = torch.zeros(d_model, d_head)
    W_k = torch.zeros(d_model, d_head)
    for p in range(max_len):
        W_k[vocab_size + p, p] = 1.0
        if p > 0:
            W_q[vocab_size + p, p - 1] = strength * math.sqrt(d_head)
    return W_q, W_k


def same_token_head(vocab_size, max_len, d_head, strength):
    """W_q, W_k (vocab_size + max_len, d_head), d_head >= vocab_size: after the 1/√d_head,
    query t scores `strength` with every key holding its own token and 0 with the others."""
    d_model = vocab_size + max_len
    W_q = torch.zeros(d_model, d_head)
    W_k = torch.zeros(d_model, d_head)
    W_q[:vocab_size, :vocab_size] = strength * torch.eye(vocab_size)
    W_k[:vocab_size, :vocab_size] = torch.eye(vocab_size)
    return W_q, W_k
''',
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex5_hand_built_heads",
        "correct": False,
        "kind": "off-by-one",
        "mistake": "previous_token_head builds the shift with torch.roll, which wraps round: position 0 scores strength with the last position instead of 0 with every key.",
        "keywords": [
            r"wrap|roll|circular|cyclic",
            r"position 0|first position|last position|max_len ?- ?1",
        ],
        "code": '''def previous_token_head(vocab_size, max_len, d_head, strength):
    """W_q, W_k (vocab_size + max_len, d_head), d_head >= max_len: after the 1/√d_head,
    query t scores `strength` with the key at position t - 1 and 0 with every other key."""
    d_model = vocab_size + max_len
    W_q = torch.zeros(d_model, d_head)
    W_k = torch.zeros(d_model, d_head)
    W_k[vocab_size:, :max_len] = torch.eye(max_len)
    # row p of the shift points at column p - 1
    shift = torch.roll(torch.eye(max_len), shifts=-1, dims=1)
    W_q[vocab_size:, :max_len] = strength * math.sqrt(d_head) * shift
    return W_q, W_k


def same_token_head(vocab_size, max_len, d_head, strength):
    """W_q, W_k (vocab_size + max_len, d_head), d_head >= vocab_size: after the 1/√d_head,
    query t scores `strength` with every key holding its own token and 0 with the others."""
    d_model = vocab_size + max_len
    W_q = torch.zeros(d_model, d_head)
    W_k = torch.zeros(d_model, d_head)
    for token in range(vocab_size):
        W_q[token, token] = strength * math.sqrt(d_head)
        W_k[token, token] = 1.0
    return W_q, W_k
''',
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex5_hand_built_heads",
        "correct": False,
        "kind": "structure",
        "mistake": "same_token_head fills the rows of the position block instead of the token block, so it matches tokens at the same position (only itself) rather than tokens with the same identity.",
        "keywords": [r"position", r"token (block|rows|identity|id)|block|rows?|one[- ]hot"],
        "code": '''def previous_token_head(vocab_size, max_len, d_head, strength):
    """W_q, W_k (vocab_size + max_len, d_head), d_head >= max_len: after the 1/√d_head,
    query t scores `strength` with the key at position t - 1 and 0 with every other key."""
    d_model = vocab_size + max_len
    W_q = torch.zeros(d_model, d_head)
    W_k = torch.zeros(d_model, d_head)
    for p in range(max_len):
        W_k[vocab_size + p, p] = 1.0
        if p > 0:
            W_q[vocab_size + p, p - 1] = strength * math.sqrt(d_head)
    return W_q, W_k


def same_token_head(vocab_size, max_len, d_head, strength):
    """W_q, W_k (vocab_size + max_len, d_head), d_head >= vocab_size: after the 1/√d_head,
    query t scores `strength` with every key holding its own token and 0 with the others."""
    d_model = vocab_size + max_len
    W_q = torch.zeros(d_model, d_head)
    W_k = torch.zeros(d_model, d_head)
    W_q[vocab_size:, :max_len] = strength * math.sqrt(d_head) * torch.eye(max_len)
    W_k[vocab_size:, :max_len] = torch.eye(max_len)
    return W_q, W_k
''',
    },
    {
        "notebook": "02_matrix_attention",
        "cell": "ex5_hand_built_heads",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
        "code": '''def previous_token_head(vocab_size, max_len, d_head, strength):
    """W_q, W_k (vocab_size + max_len, d_head), d_head >= max_len: after the 1/√d_head,
    query t scores `strength` with the key at position t - 1 and 0 with every other key."""
    V, L = vocab_size, max_len
    W_q = torch.zeros(V + L, d_head)
    W_k = torch.zeros(V + L, d_head)
    W_q[V + 1:V + L, :L - 1] = torch.eye(L - 1) * strength * d_head ** 0.5
    W_k[V:V + L, :L] = torch.eye(L)
    return W_q, W_k


def same_token_head(vocab_size, max_len, d_head, strength):
    """W_q, W_k (vocab_size + max_len, d_head), d_head >= vocab_size: after the 1/√d_head,
    query t scores `strength` with every key holding its own token and 0 with the others."""
    W_q = torch.zeros(vocab_size + max_len, d_head)
    W_k = torch.zeros(vocab_size + max_len, d_head)
    W_q[:vocab_size, :vocab_size] = torch.eye(vocab_size)
    W_k[:vocab_size, :vocab_size] = strength * math.sqrt(d_head) * torch.eye(vocab_size)
    return W_q, W_k
''',
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex1_multihead_cols",
        "correct": False,
        "kind": "scale",
        "mistake": "multihead_cols divides each head's scores by √D, the full model width (X.shape[0]), instead of √d_head, the width of one head.",
        "keywords": [
            r"\bD\b|d_model|X\.shape\[0\]|full|whole|model width",
            "d_head|one head|head'?s? (width|size)|K\\.shape\\[0\\]|D ?/ ?H",
        ],
        "code": '''def multihead_cols(X, heads, W_c):
    """Multi-head self-attention with tokens as the columns of X.

    X: (D, N); heads: list of H dicts with W_q, W_k, W_v (D/H, D) and b_q, b_k, b_v (D/H, 1);
    W_c: (D, D)  ->  (D, N)
    """
    outputs = []
    for head in heads:
        Q = head["W_q"] @ X + head["b_q"]
        K = head["W_k"] @ X + head["b_k"]
        V = head["W_v"] @ X + head["b_v"]
        d_head = X.shape[0]
        A = softmax(K.T @ Q / math.sqrt(d_head), dim=0)
        outputs.append(V @ A)
    return W_c @ torch.cat(outputs, dim=0)
''',
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex1_multihead_cols",
        "correct": False,
        "kind": "axis",
        "mistake": "multihead_cols calls softmax without dim=0, so it normalises each row of Kᵀ Q (over the queries) instead of each column (over the keys).",
        "keywords": [r"dim ?= ?0|dim ?= ?-1|axis|dimension", r"rows?|columns?"],
        "code": '''def multihead_cols(X, heads, W_c):
    """Multi-head self-attention with tokens as the columns of X.

    X: (D, N); heads: list of H dicts with W_q, W_k, W_v (D/H, D) and b_q, b_k, b_v (D/H, 1);
    W_c: (D, D)  ->  (D, N)
    """
    outputs = []
    for head in heads:
        Q = head["W_q"] @ X + head["b_q"]
        K = head["W_k"] @ X + head["b_k"]
        V = head["W_v"] @ X + head["b_v"]
        d_head = K.shape[0]
        A = softmax(K.T @ Q / math.sqrt(d_head))
        outputs.append(V @ A)
    return W_c @ torch.cat(outputs, dim=0)
''',
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex1_multihead_cols",
        "correct": False,
        "kind": "first item only",
        "mistake": "multihead_cols uses heads[0]'s parameters for every head (p = heads[0] inside the loop), so all heads compute the same output.",
        "keywords": [
            r"heads\[0\]|first head|same (parameters|head|weights)|every head|identical|heads\[h\]",
            r"first|loop|same|all heads|one head",
        ],
        "code": '''def multihead_cols(X, heads, W_c):
    """Multi-head self-attention with tokens as the columns of X.

    X: (D, N); heads: list of H dicts with W_q, W_k, W_v (D/H, D) and b_q, b_k, b_v (D/H, 1);
    W_c: (D, D)  ->  (D, N)
    """
    per_head = []
    for h in range(len(heads)):
        p = heads[0]
        Q = p["W_q"] @ X + p["b_q"]
        K = p["W_k"] @ X + p["b_k"]
        V = p["W_v"] @ X + p["b_v"]
        A = softmax(K.T @ Q / math.sqrt(K.shape[0]), dim=0)
        per_head.append(V @ A)
    stacked = torch.cat(per_head, dim=0)
    return W_c @ stacked
''',
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex1_multihead_cols",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
        "code": '''def multihead_cols(X, heads, W_c):
    """Multi-head self-attention with tokens as the columns of X.

    X: (D, N); heads: list of H dicts with W_q, W_k, W_v (D/H, D) and b_q, b_k, b_v (D/H, 1);
    W_c: (D, D)  ->  (D, N)
    """
    def one_head(p):
        Q, K, V = (p[f"W_{r}"] @ X + p[f"b_{r}"] for r in "qkv")
        S = K.T @ Q / K.shape[0] ** 0.5
        S = S - S.max(dim=0, keepdim=True).values
        A = S.exp() / S.exp().sum(dim=0, keepdim=True)
        return V @ A

    return W_c @ torch.vstack([one_head(p) for p in heads])
''',
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex2_split_merge",
        "correct": False,
        "kind": "layout",
        "mistake": "split_heads reshapes (B, T, d_model) straight to (B, H, T, d_head) without splitting the last axis and transposing, so the heads hold the wrong features (mixtures of tokens).",
        "keywords": [r"reshap\w*|view", r"transpos|permute|swap|axis|order"],
        "code": '''def split_heads(x, n_heads):
    """(B, T, d_model) -> (B, H, T, d_head): head h gets features h·d_head ... (h+1)·d_head - 1."""
    B, T, d_model = x.shape
    d_head = d_model // n_heads
    return x.reshape(B, n_heads, T, d_head)


def merge_heads(x):
    """(B, H, T, d_head) -> (B, T, H·d_head), the inverse of split_heads."""
    B, H, T, d_head = x.shape
    return x.transpose(1, 2).reshape(B, T, H * d_head)
''',
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex2_split_merge",
        "correct": False,
        "kind": "layout",
        "mistake": "merge_heads reshapes (B, H, T, d_head) to (B, T, H·d_head) without first moving the head axis back behind the tokens (transpose(1, 2)), so tokens and heads are mixed up.",
        "keywords": [r"transpos|permute|swap|move", r"reshap\w*|view|head axis|axis"],
        "code": '''def split_heads(x, n_heads):
    """(B, T, d_model) -> (B, H, T, d_head): head h gets features h·d_head ... (h+1)·d_head - 1."""
    B, T, d_model = x.shape
    return x.view(B, T, n_heads, d_model // n_heads).transpose(1, 2)


def merge_heads(x):
    """(B, H, T, d_head) -> (B, T, H·d_head), the inverse of split_heads."""
    B, H, T, d_head = x.shape
    return x.reshape(B, T, H * d_head)
''',
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex2_split_merge",
        "correct": False,
        "kind": "layout",
        "mistake": "split_heads splits the last axis as (d_head, H) instead of (H, d_head), so head h gets every H-th feature (interleaved) rather than the contiguous block h·d_head … (h+1)·d_head − 1.",
        "keywords": [
            r"interleav|every H|strid|contiguous|d_head, ?(H|n_heads)\)|(H|n_heads), ?d_head\)|order of the (split|factors)|h ?\+ ?H|wrong order|permut",
            r"block|features? h|wrong features",
        ],
        "code": '''def split_heads(x, n_heads):
    """(B, T, d_model) -> (B, H, T, d_head): head h gets features h·d_head ... (h+1)·d_head - 1."""
    B, T, D = x.shape
    d_head = D // n_heads
    return x.reshape(B, T, d_head, n_heads).permute(0, 3, 1, 2)


def merge_heads(x):
    """(B, H, T, d_head) -> (B, T, H·d_head), the inverse of split_heads."""
    B, H, T, d_head = x.shape
    return x.transpose(1, 2).reshape(B, T, H * d_head)
''',
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex2_split_merge",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
        "code": '''def split_heads(x, n_heads):
    """(B, T, d_model) -> (B, H, T, d_head): head h gets features h·d_head ... (h+1)·d_head - 1."""
    return torch.stack(x.chunk(n_heads, dim=-1), dim=1)


def merge_heads(x):
    """(B, H, T, d_head) -> (B, T, H·d_head), the inverse of split_heads."""
    return torch.cat(x.unbind(dim=1), dim=-1)
''',
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex3_expand_mask",
        "correct": False,
        "kind": "axis",
        "mistake": "expand_mask turns a (B, T, S) mask into (1, B, T, S) by adding the new axis in front (mask[None]) instead of after the batch axis, (B, 1, T, S).",
        "keywords": [
            r"mask\[None\]|\(1, ?B, ?T, ?S\)|front|first|position|wrong (place|axis)|dim ?= ?0|unsqueeze\(0\)",
            r"\(B, ?1, ?T, ?S\)|mask\[:, ?None\]|unsqueeze\(1\)|after the batch|head axis",
        ],
        "code": '''def expand_mask(mask):
    """Bring a boolean mask to 4-D so that it broadcasts over (B, H, T, S) scores.

    (T, S) -> (1, 1, T, S);  (B, T, S) -> (B, 1, T, S);  (B, H, T, S) unchanged
    """
    if mask.dim() == 2:
        return mask[None, None]
    if mask.dim() == 3:
        return mask[None]
    return mask
''',
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex3_expand_mask",
        "correct": False,
        "kind": "axis",
        "mistake": "expand_mask always inserts the new axes at position 1, so a (T, S) mask becomes (T, 1, 1, S) instead of (1, 1, T, S).",
        "keywords": [
            r"\(T, ?1, ?1, ?S\)|\(1, ?1, ?T, ?S\)|unsqueeze\(1\)|position 1|2-?D|\(T, ?S\)",
            r"front|leading|wrong (place|position|axis)",
        ],
        "code": '''def expand_mask(mask):
    """Bring a boolean mask to 4-D so that it broadcasts over (B, H, T, S) scores.

    (T, S) -> (1, 1, T, S);  (B, T, S) -> (B, 1, T, S);  (B, H, T, S) unchanged
    """
    while mask.dim() < 4:
        mask = mask.unsqueeze(1)
    return mask
''',
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex3_expand_mask",
        "correct": False,
        "kind": "structure",
        "mistake": "expand_mask adds a head axis to every mask that is not 2-D, so a 4-D (B, H, T, S) mask becomes 5-D instead of being returned unchanged.",
        "keywords": [
            r"4-?D|four|\(B, ?H, ?T, ?S\)|already",
            r"5-?D|five|unchanged|extra axis|too many",
        ],
        "code": '''def expand_mask(mask):
    """Bring a boolean mask to 4-D so that it broadcasts over (B, H, T, S) scores.

    (T, S) -> (1, 1, T, S);  (B, T, S) -> (B, 1, T, S);  (B, H, T, S) unchanged
    """
    if mask.ndim == 2:
        return mask.unsqueeze(0).unsqueeze(0)
    return mask.unsqueeze(1)
''',
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex3_expand_mask",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
        "code": '''def expand_mask(mask):
    """Bring a boolean mask to 4-D so that it broadcasts over (B, H, T, S) scores.

    (T, S) -> (1, 1, T, S);  (B, T, S) -> (B, 1, T, S);  (B, H, T, S) unchanged
    """
    if mask.dim() == 4:
        return mask
    if mask.dim() == 3:
        return mask.unsqueeze(1)
    return mask.reshape(1, 1, *mask.shape)
''',
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex4_multihead_attention",
        "correct": False,
        "kind": "scale",
        "mistake": "multihead_attention divides q by √d_head before calling F.scaled_dot_product_attention, which scales by 1/√d_head itself, so the scores are scaled twice.",
        "keywords": [r"twice|double|two times|again|already scal", r"sqrt|√|scal"],
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
    q = q / math.sqrt(q.shape[-1])
    if mask is not None:
        mask = expand_mask(mask)
    heads = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
    return merge_heads(heads) @ out_proj_weight.T + out_proj_bias
''',
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex4_multihead_attention",
        "correct": False,
        "kind": "axis",
        "mistake": "multihead_attention passes the mask to the attention without expand_mask, so a (B, T, S) or (B, 1, S) mask lines up its batch axis with the heads axis of the (B, H, T, S) scores.",
        "keywords": [r"expand_mask|4-?D|head axis|unsqueeze|broadcast", r"batch|heads?"],
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
    heads = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
    return merge_heads(heads) @ out_proj_weight.T + out_proj_bias
''',
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex4_multihead_attention",
        "correct": False,
        "kind": "order",
        "mistake": "multihead_attention unpacks the three chunks as k, q, v, so the rows meant for the queries are used as keys and the key rows as queries.",
        "keywords": [r"order|swap|k, ?q, ?v|q, ?k, ?v|chunk", r"quer|keys?"],
        "code": '''def multihead_attention(x, in_proj_weight, in_proj_bias, out_proj_weight, out_proj_bias,
                        n_heads, mask=None):
    """Packed multi-head self-attention, PyTorch's parameter layout.

    x: (B, T, d_model); in_proj_weight: (3·d_model, d_model); in_proj_bias: (3·d_model,);
    out_proj_weight: (d_model, d_model); out_proj_bias: (d_model,);
    mask: bool (T, T), (B, T, T) (or (B, 1, T) for padding) or (B, H, T, T),
          True = may attend  ->  (B, T, d_model)
    """
    k, q, v = (x @ in_proj_weight.T + in_proj_bias).chunk(3, dim=-1)
    q, k, v = split_heads(q, n_heads), split_heads(k, n_heads), split_heads(v, n_heads)
    if mask is not None:
        mask = expand_mask(mask)
    heads = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
    return merge_heads(heads) @ out_proj_weight.T + out_proj_bias
''',
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex4_multihead_attention",
        "correct": False,
        "kind": "layout",
        "mistake": "multihead_attention applies the output projection as merged @ out_proj_weight instead of @ out_proj_weight.T, using PyTorch's (out, in) weight the wrong way round.",
        "keywords": [
            r"transpos|\.T\b|\(out, ?in\)|\(in, ?out\)|layout|wrong way",
            r"out_proj|output projection|W_o|\.T|transpose",
        ],
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
    if mask is not None:
        mask = expand_mask(mask)
    heads = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
    return merge_heads(heads) @ out_proj_weight + out_proj_bias
''',
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex4_multihead_attention",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
        "code": '''def multihead_attention(x, in_proj_weight, in_proj_bias, out_proj_weight, out_proj_bias,
                        n_heads, mask=None):
    """Packed multi-head self-attention, PyTorch's parameter layout.

    x: (B, T, d_model); in_proj_weight: (3·d_model, d_model); in_proj_bias: (3·d_model,);
    out_proj_weight: (d_model, d_model); out_proj_bias: (d_model,);
    mask: bool (T, T), (B, T, T) (or (B, 1, T) for padding) or (B, H, T, T),
          True = may attend  ->  (B, T, d_model)
    """
    B, T, d_model = x.shape
    d_head = d_model // n_heads
    qkv = F.linear(x, in_proj_weight, in_proj_bias)  # (B, T, 3 d_model)
    qkv = qkv.view(B, T, 3, n_heads, d_head).permute(2, 0, 3, 1, 4)  # (3, B, H, T, d_head)
    q, k, v = qkv[0], qkv[1], qkv[2]
    scores = q @ k.transpose(-2, -1) / math.sqrt(d_head)
    if mask is not None:
        scores = scores.masked_fill(~expand_mask(mask), float("-inf"))
    out = torch.softmax(scores, dim=-1) @ v  # (B, H, T, d_head)
    out = out.permute(0, 2, 1, 3).reshape(B, T, d_model)
    return F.linear(out, out_proj_weight, out_proj_bias)
''',
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex5_multihead_module",
        "correct": False,
        "kind": "train/eval",
        "mistake": "forward calls F.dropout(weights, p) without training=self.training, and F.dropout defaults to training=True, so the attention weights are dropped out in eval mode too.",
        "keywords": [r"training|self\.training|eval", r"dropout"],
        "code": '''class MultiHeadAttention(nn.Module):
    """Packed multi-head attention with nn.MultiheadAttention's parameters (batch_first=True).

    query (B, T, d_model), key and value (B, S, d_model), mask bool (T, S) or (B, T, S),
    True = may attend  ->  output (B, T, d_model), weights (B, T, S) averaged over the heads
    (None when need_weights is False)
    """

    def __init__(self, d_model, n_heads, dropout=0.0):
        super().__init__()
        self.d_model, self.n_heads, self.dropout = d_model, n_heads, dropout
        self.in_proj_weight = nn.Parameter(torch.empty(3 * d_model, d_model))
        self.in_proj_bias = nn.Parameter(torch.zeros(3 * d_model))
        self.out_proj = nn.Linear(d_model, d_model)
        nn.init.xavier_uniform_(self.in_proj_weight)
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
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex5_multihead_module",
        "correct": False,
        "kind": "state",
        "mistake": "__init__ never sets out_proj's bias to zero, so a new module starts with nn.Linear's small random bias instead of PyTorch's zeros.",
        "keywords": [r"bias", r"zero|0\b|init|start"],
        "code": '''class MultiHeadAttention(nn.Module):
    """Packed multi-head attention with nn.MultiheadAttention's parameters (batch_first=True).

    query (B, T, d_model), key and value (B, S, d_model), mask bool (T, S) or (B, T, S),
    True = may attend  ->  output (B, T, d_model), weights (B, T, S) averaged over the heads
    (None when need_weights is False)
    """

    def __init__(self, d_model, n_heads, dropout=0.0):
        super().__init__()
        self.d_model, self.n_heads, self.dropout = d_model, n_heads, dropout
        self.in_proj_weight = nn.Parameter(torch.empty(3 * d_model, d_model))
        self.in_proj_bias = nn.Parameter(torch.zeros(3 * d_model))
        self.out_proj = nn.Linear(d_model, d_model)
        nn.init.xavier_uniform_(self.in_proj_weight)

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
        return output, weights.mean(dim=1)
''',
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex5_multihead_module",
        "correct": False,
        "kind": "axis",
        "mistake": "forward averages the weights over dim=0, the batch, instead of dim=1, the heads, so it returns (H, T, S) weights instead of (B, T, S).",
        "keywords": [r"dim ?= ?0|dim ?= ?1|batch|axis|dimension", r"heads?"],
        "code": '''class MultiHeadAttention(nn.Module):
    """Packed multi-head attention with nn.MultiheadAttention's parameters (batch_first=True).

    query (B, T, d_model), key and value (B, S, d_model), mask bool (T, S) or (B, T, S),
    True = may attend  ->  output (B, T, d_model), weights (B, T, S) averaged over the heads
    (None when need_weights is False)
    """

    def __init__(self, d_model, n_heads, dropout=0.0):
        super().__init__()
        self.d_model, self.n_heads, self.dropout = d_model, n_heads, dropout
        self.in_proj_weight = nn.Parameter(torch.empty(3 * d_model, d_model))
        self.in_proj_bias = nn.Parameter(torch.zeros(3 * d_model))
        self.out_proj = nn.Linear(d_model, d_model)
        nn.init.xavier_uniform_(self.in_proj_weight)
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
        return output, weights.mean(dim=0)
''',
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex5_multihead_module",
        "correct": False,
        "kind": "scale",
        "mistake": "forward divides the scores by √d_model instead of √d_head, the width of one head.",
        "keywords": [r"d_model|model width|full width", "d_head|one head|head'?s? (width|size)"],
        "code": '''class MultiHeadAttention(nn.Module):
    """Packed multi-head attention with nn.MultiheadAttention's parameters (batch_first=True).

    query (B, T, d_model), key and value (B, S, d_model), mask bool (T, S) or (B, T, S),
    True = may attend  ->  output (B, T, d_model), weights (B, T, S) averaged over the heads
    (None when need_weights is False)
    """

    def __init__(self, d_model, n_heads, dropout=0.0):
        super().__init__()
        self.d_model, self.n_heads, self.dropout = d_model, n_heads, dropout
        self.in_proj_weight = nn.Parameter(torch.empty(3 * d_model, d_model))
        self.in_proj_bias = nn.Parameter(torch.zeros(3 * d_model))
        self.out_proj = nn.Linear(d_model, d_model)
        nn.init.xavier_uniform_(self.in_proj_weight)
        nn.init.zeros_(self.out_proj.bias)

    def forward(self, query, key, value, mask=None, need_weights=True):
        W_q, W_k, W_v = self.in_proj_weight.chunk(3)
        b_q, b_k, b_v = self.in_proj_bias.chunk(3)
        q = split_heads(query @ W_q.T + b_q, self.n_heads)
        k = split_heads(key @ W_k.T + b_k, self.n_heads)
        v = split_heads(value @ W_v.T + b_v, self.n_heads)
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
    },
    {
        "notebook": "03_multihead_attention",
        "cell": "ex5_multihead_module",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
        "code": '''class MultiHeadAttention(nn.Module):
    """Packed multi-head attention with nn.MultiheadAttention's parameters (batch_first=True).

    query (B, T, d_model), key and value (B, S, d_model), mask bool (T, S) or (B, T, S),
    True = may attend  ->  output (B, T, d_model), weights (B, T, S) averaged over the heads
    (None when need_weights is False)
    """

    def __init__(self, d_model, n_heads, dropout=0.0):
        super().__init__()
        assert d_model % n_heads == 0
        self.n_heads = n_heads
        self.dropout = dropout
        self.in_proj_weight = nn.Parameter(nn.init.xavier_uniform_(torch.empty(3 * d_model, d_model)))
        self.in_proj_bias = nn.Parameter(torch.zeros(3 * d_model))
        self.out_proj = nn.Linear(d_model, d_model)
        with torch.no_grad():
            self.out_proj.bias.zero_()

    def forward(self, query, key, value, mask=None, need_weights=True):
        B, T, D = query.shape
        S = key.shape[1]
        H = self.n_heads
        d = D // H
        w = self.in_proj_weight.chunk(3, dim=0)
        b = self.in_proj_bias.chunk(3, dim=0)
        q = F.linear(query, w[0], b[0]).view(B, T, H, d).permute(0, 2, 1, 3)
        k = F.linear(key, w[1], b[1]).view(B, S, H, d).permute(0, 2, 1, 3)
        v = F.linear(value, w[2], b[2]).view(B, S, H, d).permute(0, 2, 1, 3)
        scores = torch.einsum("bhtd,bhsd->bhts", q, k) / d ** 0.5
        if mask is not None:
            if mask.dim() == 2:
                mask = mask[None, None]
            elif mask.dim() == 3:
                mask = mask[:, None]
            scores = scores.masked_fill(mask.logical_not(), float("-inf"))
        attn = scores.softmax(dim=-1)
        if self.training and self.dropout > 0:
            attn = F.dropout(attn, p=self.dropout)
        out = (attn @ v).permute(0, 2, 1, 3).reshape(B, T, D)
        out = self.out_proj(out)
        return (out, attn.mean(dim=1)) if need_weights else (out, None)
''',
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex1_pe_table_loops",
        "correct": False,
        "kind": "scale",
        "mistake": "pe_table_loops uses the exponent i / d_model instead of 2i / d_model, so every pair after the first turns too fast.",
        "keywords": [
            r"2 ?\*? ?i|2i|factor (of )?2|twice|missing 2|i ?/ ?d",
            r"exponent|frequenc|wavelength",
        ],
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
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex1_pe_table_loops",
        "correct": False,
        "kind": "off-by-one",
        "mistake": "pe_table_loops counts positions from 1 (pos + 1), so row 0 holds PE_1 instead of sin 0 = 0 and cos 0 = 1.",
        "keywords": [
            r"pos ?\+ ?1|from 1|from one|off[- ]by[- ]one|shift|position 0|start\w* at 1",
            r"position|pos|row 0|start",
        ],
        "code": '''def pe_table_loops(seq_len, d_model):
    """The sinusoidal table, one entry at a time.

    ->  (seq_len, d_model): row pos is PE_pos; sin on even features, cos on odd ones
    """
    table = torch.zeros(seq_len, d_model)
    for pos in range(seq_len):
        for i in range(d_model // 2):
            angle = (pos + 1) / 10000 ** (2 * i / d_model)
            table[pos, 2 * i] = math.sin(angle)
            table[pos, 2 * i + 1] = math.cos(angle)
    return table
''',
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex1_pe_table_loops",
        "correct": False,
        "kind": "integer division",
        "mistake": "pe_table_loops computes the exponent with integer division, 2 * i // d_model, which is always 0, so every pair has frequency 1.",
        "keywords": [
            r"integer division|//|floor|rounds? (down )?to 0|truncat",
            r"exponent|frequenc|always 0|zero",
        ],
        "code": '''def pe_table_loops(seq_len, d_model):
    """The sinusoidal table, one entry at a time.

    ->  (seq_len, d_model): row pos is PE_pos; sin on even features, cos on odd ones
    """
    pe = torch.zeros(seq_len, d_model)
    for pos in range(seq_len):
        for i in range(d_model // 2):
            w = 1 / 10000 ** (2 * i // d_model)
            pe[pos, 2 * i] = math.sin(pos * w)
            pe[pos, 2 * i + 1] = math.cos(pos * w)
    return pe
''',
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex1_pe_table_loops",
        "correct": False,
        "kind": "function swap",
        "mistake": "pe_table_loops puts the cosine on the even features and the sine on the odd ones, the other way round.",
        "keywords": [r"swap|other way|reversed|exchang|wrong (order|way)", r"sin|cos|even|odd"],
        "code": '''def pe_table_loops(seq_len, d_model):
    """The sinusoidal table, one entry at a time.

    ->  (seq_len, d_model): row pos is PE_pos; sin on even features, cos on odd ones
    """
    table = torch.zeros(seq_len, d_model)
    for pos in range(seq_len):
        for i in range(d_model // 2):
            angle = pos / 10000 ** (2 * i / d_model)
            table[pos, 2 * i] = math.cos(angle)
            table[pos, 2 * i + 1] = math.sin(angle)
    return table
''',
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex1_pe_table_loops",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
        "code": '''def pe_table_loops(seq_len, d_model):
    """The sinusoidal table, one entry at a time.

    ->  (seq_len, d_model): row pos is PE_pos; sin on even features, cos on odd ones
    """
    table = torch.zeros(seq_len, d_model)
    for pos in range(seq_len):
        for j in range(d_model):
            pair = j // 2
            angle = pos * math.exp(-math.log(10000.0) * 2 * pair / d_model)
            table[pos, j] = math.sin(angle) if j % 2 == 0 else math.cos(angle)
    return table
''',
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex2_pe_table",
        "correct": False,
        "kind": "layout",
        "mistake": "pe_table puts all the sines in the first half of the features and all the cosines in the second half, instead of interleaving them on the even (0::2) and odd (1::2) features.",
        "keywords": [
            r"interleav|even|odd|0::2|1::2|alternat",
            r"half|halves|block|first .{0,20}second|concaten",
        ],
        "code": '''def pe_table(seq_len, d_model):
    """The sinusoidal table without Python loops.

    ->  (seq_len, d_model): row pos is PE_pos; sin on even features, cos on odd ones
    """
    positions = torch.arange(seq_len, dtype=torch.float32)[:, None]
    i = torch.arange(d_model // 2, dtype=torch.float32)
    freqs = 1.0 / 10000 ** (2 * i / d_model)
    angles = positions * freqs[None, :]
    table = torch.zeros(seq_len, d_model)
    table[:, : d_model // 2] = torch.sin(angles)
    table[:, d_model // 2 :] = torch.cos(angles)
    return table
''',
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex2_pe_table",
        "correct": False,
        "kind": "function swap",
        "mistake": "pe_table multiplies the positions by 10000^(2i/d_model) instead of dividing by it, so the angles grow with the pair index instead of shrinking.",
        "keywords": [
            r"recipro|inver|multipl\w* instead of divid|instead of divid|negative exponent|1 ?/|sign|positive|divid",
            r"exponent|frequenc|10000|angle|wavelength",
        ],
        "code": '''def pe_table(seq_len, d_model):
    """The sinusoidal table without Python loops.

    ->  (seq_len, d_model): row pos is PE_pos; sin on even features, cos on odd ones
    """
    positions = torch.arange(seq_len, dtype=torch.float32)[:, None]
    i = torch.arange(d_model // 2, dtype=torch.float32)
    freqs = 10000 ** (2 * i / d_model)
    angles = positions * freqs[None, :]
    table = torch.zeros(seq_len, d_model)
    table[:, 0::2] = torch.sin(angles)
    table[:, 1::2] = torch.cos(angles)
    return table
''',
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex2_pe_table",
        "correct": False,
        "kind": "off-by-one",
        "mistake": "pe_table numbers the pairs from 1 (torch.arange(1, d_model // 2 + 1)) instead of from 0, so pair i gets the frequency of pair i + 1 and the first pair does not turn at 1 radian per position.",
        "keywords": [
            r"from 1|from one|off[- ]by[- ]one|arange\(1|i ?\+ ?1|start\w* at 1|shift",
            r"pair|frequenc",
        ],
        "code": '''def pe_table(seq_len, d_model):
    """The sinusoidal table without Python loops.

    ->  (seq_len, d_model): row pos is PE_pos; sin on even features, cos on odd ones
    """
    positions = torch.arange(seq_len, dtype=torch.float32)[:, None]
    i = torch.arange(1, d_model // 2 + 1, dtype=torch.float32)
    freqs = 1.0 / 10000 ** (2 * i / d_model)
    angles = positions * freqs[None, :]
    table = torch.zeros(seq_len, d_model)
    table[:, 0::2] = torch.sin(angles)
    table[:, 1::2] = torch.cos(angles)
    return table
''',
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex2_pe_table",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
        "code": '''def pe_table(seq_len, d_model):
    """The sinusoidal table without Python loops.

    ->  (seq_len, d_model): row pos is PE_pos; sin on even features, cos on odd ones
    """
    pos = torch.arange(seq_len).unsqueeze(1).float()
    div = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
    angles = pos * div  # (seq_len, d_model / 2)
    return torch.stack([angles.sin(), angles.cos()], dim=-1).reshape(seq_len, d_model)
''',
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex3_positional_encoding",
        "correct": False,
        "kind": "state",
        "mistake": "PositionalEncoding stores the table as an nn.Parameter, so it becomes a trained parameter instead of a registered (non-persistent) buffer.",
        "keywords": [r"parameter", r"buffer|register_buffer|trained|optimi[sz]er|learn"],
        "code": '''class PositionalEncoding(nn.Module):
    """x (B, T, d_model) -> x + PE[:T], the same position vectors for every sequence."""

    def __init__(self, d_model, max_len=500):
        super().__init__()
        self.table = nn.Parameter(sinusoidal_table(max_len, d_model))

    def forward(self, x):
        T = x.shape[1]
        return x + self.table[:T]
''',
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex3_positional_encoding",
        "correct": False,
        "kind": "axis",
        "mistake": "forward slices the table with x.shape[0], the batch size, instead of x.shape[1], the sequence length T.",
        "keywords": [r"shape\[0\]|shape\[1\]|batch", r"sequence length|\bT\b|tokens|positions"],
        "code": '''class PositionalEncoding(nn.Module):
    """x (B, T, d_model) -> x + PE[:T], the same position vectors for every sequence."""

    def __init__(self, d_model, max_len=500):
        super().__init__()
        self.register_buffer("table", sinusoidal_table(max_len, d_model), persistent=False)

    def forward(self, x):
        T = x.shape[0]
        return x + self.table[:T]
''',
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex3_positional_encoding",
        "correct": False,
        "kind": "argument order",
        "mistake": "__init__ calls sinusoidal_table(d_model, max_len) with the arguments swapped, building a (d_model, max_len) table instead of (max_len, d_model).",
        "keywords": [
            r"swap|order|revers|wrong way|other way",
            r"argument|sinusoidal_table\(d_model|\(d_model, ?max_len\)|\(max_len, ?d_model\)|transpos",
        ],
        "code": '''class PositionalEncoding(nn.Module):
    """x (B, T, d_model) -> x + PE[:T], the same position vectors for every sequence."""

    def __init__(self, d_model, max_len=500):
        super().__init__()
        self.register_buffer("table", sinusoidal_table(d_model, max_len), persistent=False)

    def forward(self, x):
        T = x.shape[1]
        return x + self.table[:T]
''',
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex3_positional_encoding",
        "correct": False,
        "kind": "state",
        "mistake": "forward adds the table in place (x += ...), which overwrites the caller's input tensor (and breaks autograd on leaf inputs) instead of returning a new tensor x + PE.",
        "keywords": [
            r"in[- ]place|\+=|overwrit|modif|mutat|chang\w* (the )?(caller|input)",
            r"input|x\b|side[- ]effect|autograd|new tensor|copy",
        ],
        "code": '''class PositionalEncoding(nn.Module):
    """x (B, T, d_model) -> x + PE[:T], the same position vectors for every sequence."""

    def __init__(self, d_model, max_len=500):
        super().__init__()
        self.register_buffer("table", sinusoidal_table(max_len, d_model), persistent=False)

    def forward(self, x):
        x += self.table[: x.size(1)]
        return x
''',
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex3_positional_encoding",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
        "code": '''class PositionalEncoding(nn.Module):
    """x (B, T, d_model) -> x + PE[:T], the same position vectors for every sequence."""

    def __init__(self, d_model, max_len=500):
        super().__init__()
        table = sinusoidal_table(max_len, d_model)  # (max_len, d_model), not trained
        self.register_buffer("table", table, persistent=False)

    def forward(self, x):
        seq_len = x.size(-2)
        return x + self.table.narrow(0, 0, seq_len).unsqueeze(0)
''',
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex4_rotation_matrix",
        "correct": False,
        "kind": "sign",
        "mistake": "rotation_matrix puts -sin in the top-right and +sin in the bottom-left of each block, the opposite signs, so it rotates by -kω_i and moves k positions back instead of forward.",
        "keywords": [r"sign|minus|negative|-s|opposite|backward|transpos|invers", r"sin"],
        "code": '''def rotation_matrix(k, d_model):
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
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex4_rotation_matrix",
        "correct": False,
        "kind": "argument ignored",
        "mistake": "rotation_matrix uses the angle ω_i instead of k·ω_i, ignoring k, so it always moves one position along.",
        "keywords": [r"\bk\b|offset", r"ignor|k ?\* ?w|k·ω|kω|times k|multipl|one (position|step)"],
        "code": '''def rotation_matrix(k, d_model):
    """R with PE[pos + k] = R @ PE[pos] for every position.

    ->  (d_model, d_model), block diagonal with one 2×2 rotation per (sin, cos) pair
    """
    R = torch.zeros(d_model, d_model)
    for i in range(d_model // 2):
        w = 1 / 10000 ** (2 * i / d_model)
        c, s = math.cos(w), math.sin(w)
        R[2 * i, 2 * i], R[2 * i, 2 * i + 1] = c, s
        R[2 * i + 1, 2 * i], R[2 * i + 1, 2 * i + 1] = -s, c
    return R
''',
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex4_rotation_matrix",
        "correct": False,
        "kind": "off-by-one",
        "mistake": "rotation_matrix loops over the feature index i = 0, 2, 4, … but uses it as the pair index in the exponent, 2i/d_model, so block i gets the frequency of pair 2i instead of pair i.",
        "keywords": [
            r"feature index|pair index|2 ?\* ?i|2i|doubl|twice|counts? (features|pairs)|range\(0, ?d_model, ?2\)|step 2",
            r"frequenc|exponent|omega|ω",
        ],
        "code": '''def rotation_matrix(k, d_model):
    """R with PE[pos + k] = R @ PE[pos] for every position.

    ->  (d_model, d_model), block diagonal with one 2×2 rotation per (sin, cos) pair
    """
    R = torch.zeros(d_model, d_model)
    for i in range(0, d_model, 2):
        omega = 1.0 / (10000 ** (2 * i / d_model))
        angle = k * omega
        R[i:i + 2, i:i + 2] = torch.tensor([[math.cos(angle), math.sin(angle)],
                                           [-math.sin(angle), math.cos(angle)]])
    return R
''',
    },
    {
        "notebook": "04_positional_encoding",
        "cell": "ex4_rotation_matrix",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
        "code": '''def rotation_matrix(k, d_model):
    """R with PE[pos + k] = R @ PE[pos] for every position.

    ->  (d_model, d_model), block diagonal with one 2×2 rotation per (sin, cos) pair
    """
    blocks = []
    for i in range(d_model // 2):
        theta = k * 10000.0 ** (-2 * i / d_model)
        c, s = math.cos(theta), math.sin(theta)
        blocks.append(torch.tensor([[c, s], [-s, c]], dtype=torch.float64))
    return torch.block_diag(*blocks).float()
''',
    },
    {
        "notebook": "05_encoder",
        "cell": "ex1_layer_norm",
        "correct": False,
        "kind": "scale",
        "mistake": "layer_norm uses torch.var's default unbiased variance, dividing by d − 1 instead of d.",
        "keywords": [r"unbiased|bessel|correction", r"d ?- ?1|n ?- ?1|divid\w* by d\b|biased"],
        "code": '''def layer_norm(x, gamma, beta, eps=1e-5):
    """Normalise every token's features, then scale by gamma and shift by beta.

    x: (..., d_model); gamma, beta: (d_model,)  ->  (..., d_model)
    """
    mean = x.mean(dim=-1, keepdim=True)
    var = x.var(dim=-1, keepdim=True)
    x_hat = (x - mean) / torch.sqrt(var + eps)
    return gamma * x_hat + beta
''',
    },
    {
        "notebook": "05_encoder",
        "cell": "ex1_layer_norm",
        "correct": False,
        "kind": "order",
        "mistake": "layer_norm adds ε to the standard deviation, (σ + ε), instead of inside the square root, √(σ² + ε).",
        "keywords": [r"eps|ε|epsilon", r"inside|outside|square root|sqrt|√|standard deviation|std"],
        "code": '''def layer_norm(x, gamma, beta, eps=1e-5):
    """Normalise every token's features, then scale by gamma and shift by beta.

    x: (..., d_model); gamma, beta: (d_model,)  ->  (..., d_model)
    """
    mu = x.mean(-1, keepdim=True)
    sigma = x.std(-1, keepdim=True, unbiased=False)
    return gamma * (x - mu) / (sigma + eps) + beta
''',
    },
    {
        "notebook": "05_encoder",
        "cell": "ex1_layer_norm",
        "correct": False,
        "kind": "axis",
        "mistake": "layer_norm computes the mean and variance over dim=1 (the tokens of a (B, T, d) batch) instead of the last axis, the features of each token.",
        "keywords": [
            r"dim ?= ?1|dim ?= ?-1|axis|dimension|last",
            r"tokens?|features?|sequence|\bT\b",
        ],
        "code": '''def layer_norm(x, gamma, beta, eps=1e-5):
    """Normalise every token's features, then scale by gamma and shift by beta.

    x: (..., d_model); gamma, beta: (d_model,)  ->  (..., d_model)
    """
    mean = x.mean(dim=1, keepdim=True)
    var = x.var(dim=1, keepdim=True, unbiased=False)
    x_hat = (x - mean) / torch.sqrt(var + eps)
    return gamma * x_hat + beta
''',
    },
    {
        "notebook": "05_encoder",
        "cell": "ex1_layer_norm",
        "correct": False,
        "kind": "order",
        "mistake": "layer_norm adds beta before multiplying by gamma, gamma * (x̂ + beta), instead of gamma * x̂ + beta, so the shift is scaled too.",
        "keywords": [r"beta|β|shift", r"gamma|γ|scal|parenthes|order|before"],
        "code": '''def layer_norm(x, gamma, beta, eps=1e-5):
    """Normalise every token's features, then scale by gamma and shift by beta.

    x: (..., d_model); gamma, beta: (d_model,)  ->  (..., d_model)
    """
    mean = x.mean(dim=-1, keepdim=True)
    var = x.var(dim=-1, keepdim=True, unbiased=False)
    x_hat = (x - mean) / torch.sqrt(var + eps)
    return gamma * (x_hat + beta)
''',
    },
    {
        "notebook": "05_encoder",
        "cell": "ex1_layer_norm",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
        "code": '''def layer_norm(x, gamma, beta, eps=1e-5):
    """Normalise every token's features, then scale by gamma and shift by beta.

    x: (..., d_model); gamma, beta: (d_model,)  ->  (..., d_model)
    """
    var, mean = torch.var_mean(x, dim=-1, correction=0, keepdim=True)
    return (x - mean) * torch.rsqrt(var + eps) * gamma + beta
''',
    },
    {
        "notebook": "05_encoder",
        "cell": "ex2_feed_forward",
        "correct": False,
        "kind": "structure",
        "mistake": "feed_forward applies a ReLU after the second layer too, so the output can never be negative.",
        "keywords": [r"relu|activation", r"second|output|last|after|twice|both"],
        "code": '''def feed_forward(x, W1, b1, W2, b2):
    """Linear -> ReLU -> Linear, applied to every token.

    x: (..., d_model); W1: (d_ff, d_model); b1: (d_ff,); W2: (d_model, d_ff); b2: (d_model,)
    ->  (..., d_model)
    """
    h = torch.relu(x @ W1.T + b1)
    return torch.relu(h @ W2.T + b2)
''',
    },
    {
        "notebook": "05_encoder",
        "cell": "ex2_feed_forward",
        "correct": False,
        "kind": "function swap",
        "mistake": "feed_forward uses GELU between the two layers instead of ReLU.",
        "keywords": [r"gelu", r"relu"],
        "code": '''def feed_forward(x, W1, b1, W2, b2):
    """Linear -> ReLU -> Linear, applied to every token.

    x: (..., d_model); W1: (d_ff, d_model); b1: (d_ff,); W2: (d_model, d_ff); b2: (d_model,)
    ->  (..., d_model)
    """
    hidden = F.gelu(x @ W1.T + b1)
    return hidden @ W2.T + b2
''',
    },
    {
        "notebook": "05_encoder",
        "cell": "ex2_feed_forward",
        "correct": False,
        "kind": "missing term",
        "mistake": "feed_forward leaves out the first layer's bias b1.",
        "keywords": [r"b1|b_1|bias", r"first (layer|linear)|missing|omit|forg|left out|without"],
        "code": '''def feed_forward(x, W1, b1, W2, b2):
    """Linear -> ReLU -> Linear, applied to every token.

    x: (..., d_model); W1: (d_ff, d_model); b1: (d_ff,); W2: (d_model, d_ff); b2: (d_model,)
    ->  (..., d_model)
    """
    hidden = torch.clamp(x @ W1.T, min=0)
    out = hidden @ W2.T + b2
    return out
''',
    },
    {
        "notebook": "05_encoder",
        "cell": "ex2_feed_forward",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
        "code": '''def feed_forward(x, W1, b1, W2, b2):
    """Linear -> ReLU -> Linear, applied to every token.

    x: (..., d_model); W1: (d_ff, d_model); b1: (d_ff,); W2: (d_model, d_ff); b2: (d_model,)
    ->  (..., d_model)
    """
    return F.linear(F.relu(F.linear(x, W1, b1)), W2, b2)
''',
    },
    {
        "notebook": "05_encoder",
        "cell": "ex3_encoder_block",
        "correct": False,
        "kind": "argument order",
        "mistake": "encoder_block applies norm1 after both sublayers and never uses norm2.",
        "keywords": [
            r"norm1|norm2|LN ?1|LN ?2|first norm|second norm|same norm|twice",
            r"norm|layer ?norm|LN|second|never used",
        ],
        "code": '''def encoder_block(x, attention, feed_forward_net, norm1, norm2, mask=None):
    """Post-norm encoder block: LN1(x + MHA(x)), then LN2(h + FFN(h)).

    x: (B, T, d_model); mask: bool, True = may attend  ->  (B, T, d_model)
    """
    attended = attention(x, mask=mask)[0]
    h = norm1(x + attended)
    return norm1(h + feed_forward_net(h))
''',
    },
    {
        "notebook": "05_encoder",
        "cell": "ex3_encoder_block",
        "correct": False,
        "kind": "structure",
        "mistake": "encoder_block's second residual adds the block's input x instead of h, the output of the first sublayer: norm2(x + FFN(h)).",
        "keywords": [r"residual|skip", r"\bx\b|input|\bh\b"],
        "code": '''def encoder_block(x, attention, feed_forward_net, norm1, norm2, mask=None):
    """Post-norm encoder block: LN1(x + MHA(x)), then LN2(h + FFN(h)).

    x: (B, T, d_model); mask: bool, True = may attend  ->  (B, T, d_model)
    """
    attended = attention(x, mask=mask)[0]
    h = norm1(x + attended)
    return norm2(x + feed_forward_net(h))
''',
    },
    {
        "notebook": "05_encoder",
        "cell": "ex3_encoder_block",
        "correct": False,
        "kind": "mask",
        "mistake": "encoder_block calls the attention without passing mask on, so padding is attended to.",
        "keywords": [r"mask", r"pass|ignor|forgot|never|not (given|used)|drop"],
        "code": '''def encoder_block(x, attention, feed_forward_net, norm1, norm2, mask=None):
    """Post-norm encoder block: LN1(x + MHA(x)), then LN2(h + FFN(h)).

    x: (B, T, d_model); mask: bool, True = may attend  ->  (B, T, d_model)
    """
    attended = attention(x)[0]
    h = norm1(x + attended)
    return norm2(h + feed_forward_net(h))
''',
    },
    {
        "notebook": "05_encoder",
        "cell": "ex3_encoder_block",
        "correct": False,
        "kind": "tuple as tensor",
        "mistake": "encoder_block adds the whole (output, weights) pair returned by the attention to x instead of taking its output [0], so the addition fails.",
        "keywords": [
            r"tuple|pair|\[0\]|weights|first element|returns two",
            "output|index|unpack|TypeError|error|attention'?s? (result|return)",
        ],
        "code": '''def encoder_block(x, attention, feed_forward_net, norm1, norm2, mask=None):
    """Post-norm encoder block: LN1(x + MHA(x)), then LN2(h + FFN(h)).

    x: (B, T, d_model); mask: bool, True = may attend  ->  (B, T, d_model)
    """
    h = norm1(x + attention(x, mask=mask))
    out = norm2(h + feed_forward_net(h))
    return out
''',
    },
    {
        "notebook": "05_encoder",
        "cell": "ex3_encoder_block",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
        "code": '''def encoder_block(x, attention, feed_forward_net, norm1, norm2, mask=None):
    """Post-norm encoder block: LN1(x + MHA(x)), then LN2(h + FFN(h)).

    x: (B, T, d_model); mask: bool, True = may attend  ->  (B, T, d_model)
    """
    y, _ = attention(x, mask=mask)
    x = norm1(x + y)
    y = feed_forward_net(x)
    x = norm2(x + y)
    return x
''',
    },
    {
        "notebook": "05_encoder",
        "cell": "ex4_pre_norm_block",
        "correct": False,
        "kind": "structure",
        "mistake": "pre_norm_block feeds the feed-forward network norm2(x), the normalised block input, instead of norm2(h), the stream after the attention's residual.",
        "keywords": [
            r"norm2\(x\)|norm2\(h\)|LN ?2\(x\)|LN ?2\(h\)",
            r"\bh\b|\bx\b|input|after the (attention|first)",
        ],
        "code": '''def pre_norm_block(x, attention, feed_forward_net, norm1, norm2, mask=None):
    """Pre-norm encoder block: h = x + MHA(LN1(x)), then h + FFN(LN2(h)).

    x: (B, T, d_model); mask: bool, True = may attend  ->  (B, T, d_model)
    """
    h = x + attention(norm1(x), mask=mask)[0]
    return h + feed_forward_net(norm2(x))
''',
    },
    {
        "notebook": "05_encoder",
        "cell": "ex4_pre_norm_block",
        "correct": False,
        "kind": "structure",
        "mistake": "pre_norm_block adds the attention's output to the normalised input norm1(x) instead of to x itself, so the residual path goes through the norm.",
        "keywords": [r"residual|skip|identity", r"norm1\(x\)|normali[sz]ed|\bx\b"],
        "code": '''def pre_norm_block(x, attention, feed_forward_net, norm1, norm2, mask=None):
    """Pre-norm encoder block: h = x + MHA(LN1(x)), then h + FFN(LN2(h)).

    x: (B, T, d_model); mask: bool, True = may attend  ->  (B, T, d_model)
    """
    normed = norm1(x)
    h = normed + attention(normed, mask=mask)[0]
    return h + feed_forward_net(norm2(h))
''',
    },
    {
        "notebook": "05_encoder",
        "cell": "ex4_pre_norm_block",
        "correct": False,
        "kind": "argument order",
        "mistake": "pre_norm_block swaps the two norms: norm2 goes before the attention and norm1 before the feed-forward network.",
        "keywords": [r"swap|exchang|other way|wrong order|mix", r"norm1|norm2|norms"],
        "code": '''def pre_norm_block(x, attention, feed_forward_net, norm1, norm2, mask=None):
    """Pre-norm encoder block: h = x + MHA(LN1(x)), then h + FFN(LN2(h)).

    x: (B, T, d_model); mask: bool, True = may attend  ->  (B, T, d_model)
    """
    h = x + attention(norm2(x), mask=mask)[0]
    out = h + feed_forward_net(norm1(h))
    return out
''',
    },
    {
        "notebook": "05_encoder",
        "cell": "ex4_pre_norm_block",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
        "code": '''def pre_norm_block(x, attention, feed_forward_net, norm1, norm2, mask=None):
    """Pre-norm encoder block: h = x + MHA(LN1(x)), then h + FFN(LN2(h)).

    x: (B, T, d_model); mask: bool, True = may attend  ->  (B, T, d_model)
    """
    attended, _ = attention(norm1(x), mask=mask)
    x = x + attended
    x = x + feed_forward_net(norm2(x))
    return x
''',
    },
    {
        "notebook": "05_encoder",
        "cell": "ex5_encode",
        "correct": False,
        "kind": "state",
        "mistake": "encode creates the list maps anew inside the loop, so only the last block's weights are returned.",
        "keywords": [
            r"inside the loop|in the loop|each iteration|re-?creat|re-?initiali[sz]|reset|anew",
            r"last|only one|single",
        ],
        "code": '''def encode(x, blocks, mask=None):
    """Run the blocks in order.

    x: (B, T, d_model)  ->  output (B, T, d_model), list of len(blocks) weights (B, H, T, T)
    """
    for block in blocks:
        maps = []
        x, weights = block(x, mask, need_weights=True)
        maps.append(weights)
    return x, maps
''',
    },
    {
        "notebook": "05_encoder",
        "cell": "ex5_encode",
        "correct": False,
        "kind": "state",
        "mistake": "encode applies every block to the original input x instead of to the previous block's output, so only the last block's output is returned and the maps are all of x.",
        "keywords": [
            r"original|same input|input x|\bx\b instead|previous|chain|each block",
            "output|block'?s? (input|output)|update|overwrit|reassign|feed",
        ],
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
    },
    {
        "notebook": "05_encoder",
        "cell": "ex5_encode",
        "correct": False,
        "kind": "mask",
        "mistake": "encode never passes mask on to the blocks.",
        "keywords": [r"mask", r"padding|pass|ignor|forgot|never|not (given|used)|drop"],
        "code": '''def encode(x, blocks, mask=None):
    """Run the blocks in order.

    x: (B, T, d_model)  ->  output (B, T, d_model), list of len(blocks) weights (B, H, T, T)
    """
    maps = []
    for block in blocks:
        x, weights = block(x, need_weights=True)
        maps.append(weights)
    return x, maps
''',
    },
    {
        "notebook": "05_encoder",
        "cell": "ex5_encode",
        "correct": False,
        "kind": "argument ignored",
        "mistake": "encode calls each block without need_weights=True, so the blocks return None for their weights and the list holds Nones instead of attention maps.",
        "keywords": [r"need_weights", r"None|no weights|weights"],
        "code": '''def encode(x, blocks, mask=None):
    """Run the blocks in order.

    x: (B, T, d_model)  ->  output (B, T, d_model), list of len(blocks) weights (B, H, T, T)
    """
    maps = []
    for block in blocks:
        x, weights = block(x, mask)
        maps.append(weights)
    return x, maps
''',
    },
    {
        "notebook": "05_encoder",
        "cell": "ex5_encode",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
        "code": '''def encode(x, blocks, mask=None):
    """Run the blocks in order.

    x: (B, T, d_model)  ->  output (B, T, d_model), list of len(blocks) weights (B, H, T, T)
    """
    all_weights = [None] * len(blocks)
    h = x
    for i, block in enumerate(blocks):
        h, all_weights[i] = block(h, mask=mask, need_weights=True)
    return h, all_weights
''',
    },
    {
        "notebook": "06_decoder",
        "cell": "ex1_causal_mask",
        "correct": False,
        "kind": "mask",
        "mistake": "causal_mask keeps the upper triangle (torch.triu) instead of the lower one, so each token may attend to itself and the future instead of the past.",
        "keywords": [r"triu|upper|above", r"tril|lower|below|future|transpos"],
        "code": '''def causal_mask(seq_len):
    """(seq_len, seq_len) boolean: entry [t, s] is True when query t may attend to key s <= t."""
    return torch.triu(torch.ones(seq_len, seq_len, dtype=torch.bool))
''',
    },
    {
        "notebook": "06_decoder",
        "cell": "ex1_causal_mask",
        "correct": False,
        "kind": "off-by-one",
        "mistake": "causal_mask uses tril(diagonal=-1), which leaves the diagonal False, so a token may not attend to itself (and token 0 attends to nothing).",
        "keywords": [
            r"diagonal|itself|self|-1",
            r"tril|strict|off[- ]by[- ]one|below|own (token|position)|token 0",
        ],
        "code": '''def causal_mask(seq_len):
    """(seq_len, seq_len) boolean: entry [t, s] is True when query t may attend to key s <= t."""
    ones = torch.ones(seq_len, seq_len, dtype=torch.bool)
    return torch.tril(ones, diagonal=-1)
''',
    },
    {
        "notebook": "06_decoder",
        "cell": "ex1_causal_mask",
        "correct": False,
        "kind": "dtype",
        "mistake": "causal_mask returns a float tensor of 1s and 0s (torch.ones is float) instead of a boolean mask.",
        "keywords": [
            r"bool|dtype|float|1s? and 0s?|ones and zeros",
            r"boolean|torch\.bool|True|False|type",
        ],
        "code": '''def causal_mask(seq_len):
    """(seq_len, seq_len) boolean: entry [t, s] is True when query t may attend to key s <= t."""
    return torch.tril(torch.ones(seq_len, seq_len))
''',
    },
    {
        "notebook": "06_decoder",
        "cell": "ex1_causal_mask",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
        "code": '''def causal_mask(seq_len):
    """(seq_len, seq_len) boolean: entry [t, s] is True when query t may attend to key s <= t."""
    t = torch.arange(seq_len)
    return t[:, None] >= t[None, :]
''',
    },
    {
        "notebook": "06_decoder",
        "cell": "ex2_masked_self_attention",
        "correct": False,
        "kind": "mask",
        "mistake": "masked_self_attention sets the future scores to 0 instead of -inf, so after the softmax the future tokens still get weight.",
        "keywords": [r"-? ?inf|∞|infinit", r"\b0\b|zero"],
        "code": '''def masked_self_attention(x, to_q, to_k, to_v):
    """Causally masked single-head self-attention.

    x: (..., T, d_model); to_q, to_k, to_v: nn.Linear  ->  output (..., T, d_v), weights (..., T, T)
    """
    q, k, v = to_q(x), to_k(x), to_v(x)
    T, d_k = x.shape[-2], q.shape[-1]
    scores = q @ k.transpose(-2, -1) / math.sqrt(d_k)
    scores = scores.masked_fill(~causal_mask(T), 0.0)
    weights = torch.softmax(scores, dim=-1)
    return weights @ v, weights
''',
    },
    {
        "notebook": "06_decoder",
        "cell": "ex2_masked_self_attention",
        "correct": False,
        "kind": "scale",
        "mistake": "masked_self_attention divides the scores by √d_model, the width of x, instead of √d_k, the width of the queries and keys.",
        "keywords": [r"d_model|x\.shape|input width|width of x", r"d_k|quer|keys?|q\.shape"],
        "code": '''def masked_self_attention(x, to_q, to_k, to_v):
    """Causally masked single-head self-attention.

    x: (..., T, d_model); to_q, to_k, to_v: nn.Linear  ->  output (..., T, d_v), weights (..., T, T)
    """
    q, k, v = to_q(x), to_k(x), to_v(x)
    T, d_k = x.shape[-2], x.shape[-1]
    scores = q @ k.transpose(-2, -1) / math.sqrt(d_k)
    scores = scores.masked_fill(~causal_mask(T), float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    return weights @ v, weights
''',
    },
    {
        "notebook": "06_decoder",
        "cell": "ex2_masked_self_attention",
        "correct": False,
        "kind": "order",
        "mistake": "masked_self_attention takes the softmax first and then zeroes the future weights, so the remaining weights of each row no longer sum to 1 (the mask must set the scores to -inf before the softmax).",
        "keywords": [r"before|after|order|renormali[sz]|sum to (1|one)", r"softmax"],
        "code": '''def masked_self_attention(x, to_q, to_k, to_v):
    """Causally masked single-head self-attention.

    x: (..., T, d_model); to_q, to_k, to_v: nn.Linear  ->  output (..., T, d_v), weights (..., T, T)
    """
    q, k, v = to_q(x), to_k(x), to_v(x)
    scores = q @ k.transpose(-2, -1) / math.sqrt(k.shape[-1])
    weights = torch.softmax(scores, dim=-1)
    weights = weights * causal_mask(x.shape[-2])
    return weights @ v, weights
''',
    },
    {
        "notebook": "06_decoder",
        "cell": "ex2_masked_self_attention",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
        "code": '''def masked_self_attention(x, to_q, to_k, to_v):
    """Causally masked single-head self-attention.

    x: (..., T, d_model); to_q, to_k, to_v: nn.Linear  ->  output (..., T, d_v), weights (..., T, T)
    """
    q = to_q(x)
    k = to_k(x)
    v = to_v(x)
    T = q.shape[-2]
    scores = torch.einsum("...td,...sd->...ts", q, k) / q.shape[-1] ** 0.5
    allowed = causal_mask(T).to(x.device)
    scores = torch.where(allowed, scores, torch.full_like(scores, float("-inf")))
    weights = scores.softmax(-1)
    output = torch.einsum("...ts,...sv->...tv", weights, v)
    return output, weights
''',
    },
    {
        "notebook": "06_decoder",
        "cell": "ex3_cross_attention",
        "correct": False,
        "kind": "argument order",
        "mistake": "cross_attention takes the queries from the memory and the keys and values from the decoder's tokens x, the roles the other way round.",
        "keywords": [
            r"swap|other way|revers|roles|wrong (way|side)|opposite",
            r"memory|encoder|decoder|\bx\b",
        ],
        "code": '''def cross_attention(x, memory, to_q, to_k, to_v):
    """Queries from the decoder's tokens x, keys and values from the encoder's memory.

    x: (B, T, d); memory: (B, S, d)  ->  output (B, T, d_v), weights (B, T, S)
    """
    q = to_q(memory)
    k = to_k(x)
    v = to_v(x)
    return scaled_dot_product_attention(q, k, v, need_weights=True)
''',
    },
    {
        "notebook": "06_decoder",
        "cell": "ex3_cross_attention",
        "correct": False,
        "kind": "argument order",
        "mistake": "cross_attention makes the values from the decoder's tokens, to_v(x), instead of from the memory, to_v(memory).",
        "keywords": [r"values?|to_v", r"memory|encoder|\bx\b|decoder"],
        "code": '''def cross_attention(x, memory, to_q, to_k, to_v):
    """Queries from the decoder's tokens x, keys and values from the encoder's memory.

    x: (B, T, d); memory: (B, S, d)  ->  output (B, T, d_v), weights (B, T, S)
    """
    q, k, v = to_q(x), to_k(memory), to_v(x)
    return scaled_dot_product_attention(q, k, v, need_weights=True)
''',
    },
    {
        "notebook": "06_decoder",
        "cell": "ex3_cross_attention",
        "correct": False,
        "kind": "function swap",
        "mistake": "cross_attention makes the values with to_k instead of to_v, so the values are copies of the keys.",
        "keywords": [r"to_k|to_v|keys?", r"values?"],
        "code": '''def cross_attention(x, memory, to_q, to_k, to_v):
    """Queries from the decoder's tokens x, keys and values from the encoder's memory.

    x: (B, T, d); memory: (B, S, d)  ->  output (B, T, d_v), weights (B, T, S)
    """
    q = to_q(x)
    k = to_k(memory)
    v = to_k(memory)
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    weights = torch.softmax(scores, dim=-1)
    return weights @ v, weights
''',
    },
    {
        "notebook": "06_decoder",
        "cell": "ex3_cross_attention",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
        "code": '''def cross_attention(x, memory, to_q, to_k, to_v):
    """Queries from the decoder's tokens x, keys and values from the encoder's memory.

    x: (B, T, d); memory: (B, S, d)  ->  output (B, T, d_v), weights (B, T, S)
    """
    queries = to_q(x)
    keys = to_k(memory)
    values = to_v(memory)
    d_k = keys.shape[-1]
    weights = torch.softmax(torch.bmm(queries, keys.transpose(1, 2)) / math.sqrt(d_k), dim=-1)
    return torch.bmm(weights, values), weights
''',
    },
    {
        "notebook": "06_decoder",
        "cell": "ex4_decoder_block",
        "correct": False,
        "kind": "mask",
        "mistake": "decoder_block builds the causal mask but never passes it to the self-attention, so every token attends to the future.",
        "keywords": [
            r"causal|future|mask",
            r"self[- ]attention|pass|never|ignor|forgot|not (given|used)|attends? to (the )?(future|later)",
        ],
        "code": '''def decoder_block(x, memory, self_attention, cross_attention, feed_forward_net, norm1, norm2, norm3,
                  src_mask=None):
    """Post-norm decoder block.

    x: (B, T, d_model); memory: (B, S, d_model); src_mask: bool, True = may attend
    ->  (B, T, d_model)
    """
    causal = causal_mask(x.shape[1])
    h1 = norm1(x + self_attention(x)[0])
    h2 = norm2(h1 + cross_attention(h1, memory, mask=src_mask)[0])
    return norm3(h2 + feed_forward_net(h2))
''',
    },
    {
        "notebook": "06_decoder",
        "cell": "ex4_decoder_block",
        "correct": False,
        "kind": "structure",
        "mistake": "decoder_block gives the cross-attention the block's input x as its queries instead of h1, the output of the first sublayer.",
        "keywords": [
            "\\bx\\b|input|h1|h_1|first sublayer|self-attention'?s? output",
            r"cross[- ]attention|quer|norm1|h ?1|residual|output",
        ],
        "code": '''def decoder_block(x, memory, self_attention, cross_attention, feed_forward_net, norm1, norm2, norm3,
                  src_mask=None):
    """Post-norm decoder block.

    x: (B, T, d_model); memory: (B, S, d_model); src_mask: bool, True = may attend
    ->  (B, T, d_model)
    """
    causal = causal_mask(x.shape[1])
    h1 = norm1(x + self_attention(x, mask=causal)[0])
    h2 = norm2(h1 + cross_attention(x, memory, mask=src_mask)[0])
    return norm3(h2 + feed_forward_net(h2))
''',
    },
    {
        "notebook": "06_decoder",
        "cell": "ex4_decoder_block",
        "correct": False,
        "kind": "argument order",
        "mistake": "decoder_block swaps norm2 and norm3: the cross-attention's residual is normalised by norm3 and the feed-forward's by norm2.",
        "keywords": [r"swap|exchang|other way|wrong order|mix", r"norm2|norm3|norms"],
        "code": '''def decoder_block(x, memory, self_attention, cross_attention, feed_forward_net, norm1, norm2, norm3,
                  src_mask=None):
    """Post-norm decoder block.

    x: (B, T, d_model); memory: (B, S, d_model); src_mask: bool, True = may attend
    ->  (B, T, d_model)
    """
    causal = causal_mask(x.shape[1])
    h1 = norm1(x + self_attention(x, mask=causal)[0])
    h2 = norm3(h1 + cross_attention(h1, memory, mask=src_mask)[0])
    return norm2(h2 + feed_forward_net(h2))
''',
    },
    {
        "notebook": "06_decoder",
        "cell": "ex4_decoder_block",
        "correct": False,
        "kind": "mask",
        "mistake": "decoder_block never passes src_mask to the cross-attention, so the decoder attends to the source's padding.",
        "keywords": [
            r"src_mask|padding|source mask|mask",
            r"cross[- ]attention|source|memory|pass|never|ignor",
        ],
        "code": '''def decoder_block(x, memory, self_attention, cross_attention, feed_forward_net, norm1, norm2, norm3,
                  src_mask=None):
    """Post-norm decoder block.

    x: (B, T, d_model); memory: (B, S, d_model); src_mask: bool, True = may attend
    ->  (B, T, d_model)
    """
    causal = causal_mask(x.shape[1])
    h1 = norm1(x + self_attention(x, mask=causal)[0])
    h2 = norm2(h1 + cross_attention(h1, memory)[0])
    return norm3(h2 + feed_forward_net(h2))
''',
    },
    {
        "notebook": "06_decoder",
        "cell": "ex4_decoder_block",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
        "code": '''def decoder_block(x, memory, self_attention, cross_attention, feed_forward_net, norm1, norm2, norm3,
                  src_mask=None):
    """Post-norm decoder block.

    x: (B, T, d_model); memory: (B, S, d_model); src_mask: bool, True = may attend
    ->  (B, T, d_model)
    """
    T = x.size(1)
    attended, _ = self_attention(x, mask=causal_mask(T).to(x.device))
    x = norm1(x + attended)
    attended, _ = cross_attention(x, memory, mask=src_mask)
    x = norm2(x + attended)
    x = norm3(x + feed_forward_net(x))
    return x
''',
    },
    {
        "notebook": "06_decoder",
        "cell": "ex5_shift_right",
        "correct": False,
        "kind": "order",
        "mistake": "shift_right shifts the target left: it drops the first token and appends the start token at the end instead of putting it in front and dropping the last token.",
        "keywords": [
            r"left|end|wrong direction|other way|first token|drops? the first|append",
            r"start token|start_token|front|beginning|revers|direction",
        ],
        "code": '''def shift_right(target, start_token):
    """The decoder's input for teacher forcing.  target: (B, T) long  ->  (B, T) long"""
    start = torch.full((target.shape[0], 1), start_token, dtype=target.dtype)
    return torch.cat([target[:, 1:], start], dim=1)
''',
    },
    {
        "notebook": "06_decoder",
        "cell": "ex5_shift_right",
        "correct": False,
        "kind": "off-by-one",
        "mistake": "shift_right puts the start token in front but never drops the last token, returning (B, T + 1) instead of (B, T).",
        "keywords": [
            r"last|drop|T ?\+ ?1|length|too long|extra",
            r"shape|\(B, ?T ?\+ ?1\)|one (too )?(long|many|more)|truncat|\[:, ?:-1\]",
        ],
        "code": '''def shift_right(target, start_token):
    """The decoder's input for teacher forcing.  target: (B, T) long  ->  (B, T) long"""
    start = torch.full((target.shape[0], 1), start_token, dtype=torch.long)
    return torch.cat([start, target], dim=1)
''',
    },
    {
        "notebook": "06_decoder",
        "cell": "ex5_shift_right",
        "correct": False,
        "kind": "state",
        "mistake": "shift_right writes into target in place, so the caller's target tensor is overwritten with the decoder input.",
        "keywords": [
            r"in[- ]place|overwrit|modif|mutat|chang\w* (the )?(caller|input|target)",
            r"target|input|argument|side[- ]effect|clone|copy",
        ],
        "code": '''def shift_right(target, start_token):
    """The decoder's input for teacher forcing.  target: (B, T) long  ->  (B, T) long"""
    target[:, 1:] = target[:, :-1].clone()
    target[:, 0] = start_token
    return target
''',
    },
    {
        "notebook": "06_decoder",
        "cell": "ex5_shift_right",
        "correct": False,
        "kind": "dtype",
        "mistake": "shift_right makes the start column with torch.ones (float), so the concatenated result is a float tensor instead of long token ids.",
        "keywords": [r"float|dtype|long|int", r"torch\.ones|type|token ids|integer|index"],
        "code": '''def shift_right(target, start_token):
    """The decoder's input for teacher forcing.  target: (B, T) long  ->  (B, T) long"""
    B = target.shape[0]
    start = torch.ones(B, 1) * start_token
    return torch.cat([start, target[:, :-1]], dim=1)
''',
    },
    {
        "notebook": "06_decoder",
        "cell": "ex5_shift_right",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
        "code": '''def shift_right(target, start_token):
    """The decoder's input for teacher forcing.  target: (B, T) long  ->  (B, T) long"""
    shifted = target.new_empty(target.shape)
    shifted[:, 0] = start_token
    shifted[:, 1:] = target[:, :-1]
    return shifted
''',
    },
    {
        "notebook": "06_decoder",
        "cell": "ex6_greedy_decode",
        "correct": False,
        "kind": "off-by-one",
        "mistake": "greedy_decode takes the argmax of the first position's logits, logits[:, 0], instead of the last position's, logits[:, -1].",
        "keywords": [r"first|\[:, ?0\]|position 0", r"last|\[:, ?-1\]"],
        "code": '''def greedy_decode(model, src, start_token, end_token, max_len):
    """Generate with the most likely token at every step.

    src: (B, S) long  ->  tokens (B, L) long, tokens[:, 0] == start_token, L <= max_len + 1
    """
    with torch.no_grad():
        memory = model.encode(src)
        tokens = torch.full((src.shape[0], 1), start_token, dtype=torch.long)
        done = torch.zeros(src.shape[0], dtype=torch.bool)
        for _ in range(max_len):
            logits = model.decode(tokens, memory)
            next_token = logits[:, 0].argmax(dim=-1)
            next_token[done] = end_token
            tokens = torch.cat([tokens, next_token[:, None]], dim=1)
            done = done | (next_token == end_token)
            if done.all():
                break
    return tokens
''',
    },
    {
        "notebook": "06_decoder",
        "cell": "ex6_greedy_decode",
        "correct": False,
        "kind": "state",
        "mistake": "greedy_decode does not remember which sequences have already produced end_token, so a finished sequence keeps generating other tokens after its end instead of repeating end_token, and the loop only stops when all of them end at the same step.",
        "keywords": [
            r"finished|ended|already|remember|keep track|sticky|after (its|the) end|done",
            r"end_token|end token|<end>",
        ],
        "code": '''def greedy_decode(model, src, start_token, end_token, max_len):
    """Generate with the most likely token at every step.

    src: (B, S) long  ->  tokens (B, L) long, tokens[:, 0] == start_token, L <= max_len + 1
    """
    with torch.no_grad():
        memory = model.encode(src)
        tokens = torch.full((src.shape[0], 1), start_token, dtype=torch.long)
        for _ in range(max_len):
            next_token = model.decode(tokens, memory)[:, -1].argmax(dim=-1)
            tokens = torch.cat([tokens, next_token.unsqueeze(1)], dim=1)
            if (next_token == end_token).all():
                break
    return tokens
''',
    },
    {
        "notebook": "06_decoder",
        "cell": "ex6_greedy_decode",
        "correct": False,
        "kind": "off-by-one",
        "mistake": "greedy_decode loops range(max_len - 1), so it generates at most max_len − 1 tokens instead of max_len.",
        "keywords": [
            r"max_len ?- ?1|one (too )?(few|less|fewer)|off[- ]by[- ]one|range",
            r"max_len|too (few|short)|fewer|loop|iteration|last token",
        ],
        "code": '''def greedy_decode(model, src, start_token, end_token, max_len):
    """Generate with the most likely token at every step.

    src: (B, S) long  ->  tokens (B, L) long, tokens[:, 0] == start_token, L <= max_len + 1
    """
    with torch.no_grad():
        memory = model.encode(src)
        tokens = torch.full((src.shape[0], 1), start_token, dtype=torch.long)
        done = torch.zeros(src.shape[0], dtype=torch.bool)
        for _ in range(max_len - 1):
            logits = model.decode(tokens, memory)
            next_token = logits[:, -1].argmax(dim=-1)
            next_token[done] = end_token
            tokens = torch.cat([tokens, next_token[:, None]], dim=1)
            done = done | (next_token == end_token)
            if done.all():
                break
    return tokens
''',
    },
    {
        "notebook": "06_decoder",
        "cell": "ex6_greedy_decode",
        "correct": False,
        "kind": "function swap",
        "mistake": "greedy_decode stops as soon as any sequence has produced end_token (done.any()) instead of when every sequence has (done.all()).",
        "keywords": [
            r"any|all|every|first (sequence|one)|one sequence",
            r"stop|break|early|finished|end",
        ],
        "code": '''def greedy_decode(model, src, start_token, end_token, max_len):
    """Generate with the most likely token at every step.

    src: (B, S) long  ->  tokens (B, L) long, tokens[:, 0] == start_token, L <= max_len + 1
    """
    with torch.no_grad():
        memory = model.encode(src)
        tokens = torch.full((src.shape[0], 1), start_token, dtype=torch.long)
        done = torch.zeros(src.shape[0], dtype=torch.bool)
        for _ in range(max_len):
            logits = model.decode(tokens, memory)
            next_token = logits[:, -1].argmax(dim=-1)
            next_token[done] = end_token
            tokens = torch.cat([tokens, next_token[:, None]], dim=1)
            done = done | (next_token == end_token)
            if done.any():
                break
    return tokens
''',
    },
    {
        "notebook": "06_decoder",
        "cell": "ex6_greedy_decode",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
        "code": '''def greedy_decode(model, src, start_token, end_token, max_len):
    """Generate with the most likely token at every step.

    src: (B, S) long  ->  tokens (B, L) long, tokens[:, 0] == start_token, L <= max_len + 1
    """
    model.eval()
    with torch.no_grad():
        memory = model.encode(src)
        out = [torch.full((src.size(0),), start_token, dtype=torch.long, device=src.device)]
        finished = torch.zeros(src.size(0), dtype=torch.bool, device=src.device)
        while len(out) <= max_len and not finished.all():
            tokens = torch.stack(out, dim=1)
            best = model.decode(tokens, memory)[:, -1, :].argmax(-1)
            best = torch.where(finished, torch.full_like(best, end_token), best)
            finished = finished | best.eq(end_token)
            out.append(best)
    return torch.stack(out, dim=1)
''',
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex1_transformer_lr",
        "correct": False,
        "kind": "function swap",
        "mistake": "transformer_lr puts d_model^-0.5 inside the min in place of n^-0.5 (the lecture notes' misprint), so the rate climbs to 1/d_model and never decays.",
        "keywords": [
            r"misprint|n ?\*\* ?-0\.5|n\^-0\.5|n\^\{?-0\.5|step ?\*\* ?-0\.5|inverse square root|decay",
            r"d_model ?\*\* ?-0\.5|d_model\^-0\.5|√d|sqrt\(1 ?/ ?d|1/√d|d_model",
        ],
        "code": '''def transformer_lr(step, d_model=512, warmup=4000):
    """Learning rate of the original Transformer for LambdaLR's step (0 = the first update)."""
    n = step + 1
    return d_model ** -0.5 * min(d_model ** -0.5, n * warmup ** -1.5)
''',
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex1_transformer_lr",
        "correct": False,
        "kind": "scale",
        "mistake": "transformer_lr uses warmup^-0.5 instead of warmup^-1.5 in the warm-up term, so the ramp is warmup times too steep and the peak is not at step warmup.",
        "keywords": [r"-1\.5|-0\.5|1\.5|exponent|power", r"warm[- ]?up"],
        "code": '''def transformer_lr(step, d_model=512, warmup=4000):
    """Learning rate of the original Transformer for LambdaLR's step (0 = the first update)."""
    n = step + 1
    return d_model ** -0.5 * min(n ** -0.5, n * warmup ** -0.5)
''',
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex1_transformer_lr",
        "correct": False,
        "kind": "function swap",
        "mistake": "transformer_lr takes the max of the two terms instead of the min, so the rate decays from the start and then grows without bound after the warm-up.",
        "keywords": [
            r"\bmax\b|\bmin\b|maximum|minimum|larger|smaller",
            r"max\(|min\(|terms?|wrong function|swap",
        ],
        "code": '''def transformer_lr(step, d_model=512, warmup=4000):
    """Learning rate of the original Transformer for LambdaLR's step (0 = the first update)."""
    n = step + 1
    return d_model ** -0.5 * max(n ** -0.5, n * warmup ** -1.5)
''',
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex1_transformer_lr",
        "correct": False,
        "kind": "off-by-one",
        "mistake": "transformer_lr uses LambdaLR's step directly as n instead of n = step + 1, so it is off by one update and step 0 divides by zero.",
        "keywords": [
            r"step ?\+ ?1|n ?= ?step|off[- ]by[- ]one|count\w* from (0|1|zero|one)|zero ?division|divid\w* by zero|0 ?\*\* ?-0\.5",
            r"\+ ?1|step 0|first (update|step)|zero|division|n ?=",
        ],
        "code": '''def transformer_lr(step, d_model=512, warmup=4000):
    """Learning rate of the original Transformer for LambdaLR's step (0 = the first update)."""
    return d_model ** -0.5 * min(step ** -0.5, step * warmup ** -1.5)
''',
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex1_transformer_lr",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
        "code": '''def transformer_lr(step, d_model=512, warmup=4000):
    """Learning rate of the original Transformer for LambdaLR's step (0 = the first update)."""
    n = float(step + 1)
    if n < warmup:
        rate = n / warmup ** 1.5
    else:
        rate = 1.0 / math.sqrt(n)
    return rate / math.sqrt(d_model)
''',
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex2_cosine_warmup",
        "correct": False,
        "kind": "scale",
        "mistake": "cosine_warmup leaves out the factor ½ in ½(1 + cos(πt/max_iters)), so the factor starts at 2 instead of 1.",
        "keywords": [
            r"1/2|½|0\.5|half|factor (of )?(2|two)|twice|doubl",
            r"starts? at 2|peak|range|scale|too (large|big|high)|2\b",
        ],
        "code": '''def cosine_warmup(step, warmup, max_iters):
    """The learning-rate factor: cosine decay over max_iters steps, times a linear warm-up."""
    factor = 1 + math.cos(math.pi * step / max_iters)
    if step <= warmup:
        factor *= step / warmup
    return factor
''',
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex2_cosine_warmup",
        "correct": False,
        "kind": "structure",
        "mistake": "cosine_warmup returns the linear ramp t/warmup alone during the warm-up, without multiplying it by the cosine factor.",
        "keywords": [r"cosine", r"multipl|product|times|alone|without|only the (ramp|warm)"],
        "code": '''def cosine_warmup(step, warmup, max_iters):
    """The learning-rate factor: cosine decay over max_iters steps, times a linear warm-up."""
    if step <= warmup:
        return step / warmup
    return 0.5 * (1 + math.cos(math.pi * step / max_iters))
''',
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex2_cosine_warmup",
        "correct": False,
        "kind": "integer division",
        "mistake": "cosine_warmup computes the ramp with integer division, step // warmup, which is 0 for every step before the end of the warm-up.",
        "keywords": [
            r"integer division|//|floor|truncat|rounds? (down|to 0)",
            r"int|zero|0\b|ramp|warm[- ]?up",
        ],
        "code": '''def cosine_warmup(step, warmup, max_iters):
    """The learning-rate factor: cosine decay over max_iters steps, times a linear warm-up."""
    factor = 0.5 * (1 + math.cos(math.pi * step / max_iters))
    if step <= warmup:
        factor *= step // warmup
    return factor
''',
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex2_cosine_warmup",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
        "code": '''def cosine_warmup(step, warmup, max_iters):
    """The learning-rate factor: cosine decay over max_iters steps, times a linear warm-up."""
    ramp = min(step / warmup, 1.0) if warmup > 0 else 1.0
    decay = (1.0 + math.cos(step * math.pi / max_iters)) / 2.0
    return float(ramp * decay)
''',
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex3_learning_rates",
        "correct": False,
        "kind": "order",
        "mistake": "learning_rates reads the learning rate after scheduler.step(), so each entry is the rate of the next update (the list starts at lr_lambda(1) and misses the first one).",
        "keywords": [
            r"after|before|order",
            r"scheduler\.step|step\(\)|next|off[- ]by[- ]one|shift",
        ],
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
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex3_learning_rates",
        "correct": False,
        "kind": "state",
        "mistake": "learning_rates creates a new LambdaLR inside the loop at every step, which restarts the schedule's count, so the rates do not follow the schedule.",
        "keywords": [
            r"inside the loop|in the loop|every (step|iteration)|each (step|iteration)|re-?creat|new (LambdaLR|scheduler)|restart|reset",
            r"LambdaLR|scheduler|schedule",
        ],
        "code": '''def learning_rates(lr_lambda, base_lr, steps):
    """The learning rate each of `steps` updates uses under LambdaLR(lr_lambda)."""
    weight = torch.zeros(1, requires_grad=True)
    opt = torch.optim.SGD([weight], lr=base_lr)
    out = []
    for _ in range(steps):
        sched = torch.optim.lr_scheduler.LambdaLR(opt, lr_lambda)
        out.append(opt.param_groups[0]["lr"])
        opt.step()
        sched.step()
    return out
''',
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex3_learning_rates",
        "correct": False,
        "kind": "missing term",
        "mistake": "learning_rates never calls scheduler.step(), so the rate stays at its first value base_lr · lr_lambda(0).",
        "keywords": [
            r"scheduler\.step|step the scheduler|never (advanc|step)|constant|same (rate|value)|stays",
            r"scheduler|schedule|missing|never|forgot|omit",
        ],
        "code": '''def learning_rates(lr_lambda, base_lr, steps):
    """The learning rate each of `steps` updates uses under LambdaLR(lr_lambda)."""
    param = torch.zeros(1, requires_grad=True)
    optimizer = torch.optim.SGD([param], lr=base_lr)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lr_lambda)
    rates = []
    for _ in range(steps):
        rates.append(optimizer.param_groups[0]["lr"])
        optimizer.step()
    return rates
''',
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex3_learning_rates",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
        "code": '''def learning_rates(lr_lambda, base_lr, steps):
    """The learning rate each of `steps` updates uses under LambdaLR(lr_lambda)."""
    dummy = torch.nn.Parameter(torch.zeros(1))
    optimizer = torch.optim.SGD([dummy], lr=base_lr)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lr_lambda=lr_lambda)
    used = []
    while len(used) < steps:
        used.append(scheduler.get_last_lr()[0])
        optimizer.step()
        scheduler.step()
    return used
''',
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex4_accuracies",
        "correct": False,
        "kind": "function swap",
        "mistake": "accuracies counts a row as correct when any of its tokens matches (.any) instead of when all of them do (.all).",
        "keywords": [
            r"\bany\b|\ball\b|every|entire|at least one|one token",
            r"sequence accuracy|rows?|sequence|whole",
        ],
        "code": '''def accuracies(generated, target):
    """(N, L) long tensors  ->  (share of equal tokens, share of entirely equal rows)"""
    same = generated == target
    token_accuracy = same.float().mean().item()
    sequence_accuracy = same.any(dim=1).float().mean().item()
    return token_accuracy, sequence_accuracy
''',
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex4_accuracies",
        "correct": False,
        "kind": "axis",
        "mistake": "accuracies takes .all(dim=0), over the rows of each position, instead of .all(dim=1), over the positions of each row, so it measures whole columns instead of whole sequences.",
        "keywords": [
            r"dim ?= ?0|dim ?= ?1|axis|dimension|columns?",
            r"rows?|positions?|sequence|all\(",
        ],
        "code": '''def accuracies(generated, target):
    """(N, L) long tensors  ->  (share of equal tokens, share of entirely equal rows)"""
    hits = (generated == target)
    token = hits.float().mean().item()
    sequence = hits.all(dim=0).float().mean().item()
    return token, sequence
''',
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex4_accuracies",
        "correct": False,
        "kind": "scale",
        "mistake": "accuracies divides the number of correct tokens by the number of rows N instead of by the number of tokens N·L, so the token accuracy is not a share.",
        "keywords": [
            r"number of (rows|sequences)|shape\[0\]|\bN\b|N ?\* ?L|N·L|numel|all tokens|total",
            r"divid|denominator|share|normali",
        ],
        "code": '''def accuracies(generated, target):
    """(N, L) long tensors  ->  (share of equal tokens, share of entirely equal rows)"""
    correct = (generated == target)
    token_accuracy = correct.sum().item() / correct.shape[0]
    sequence_accuracy = correct.all(dim=1).sum().item() / correct.shape[0]
    return token_accuracy, sequence_accuracy
''',
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex4_accuracies",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
        "code": '''def accuracies(generated, target):
    """(N, L) long tensors  ->  (share of equal tokens, share of entirely equal rows)"""
    n_rows, length = target.shape
    token_hits, row_hits = 0, 0
    for g_row, t_row in zip(generated.tolist(), target.tolist()):
        matches = sum(int(a == b) for a, b in zip(g_row, t_row))
        token_hits += matches
        row_hits += int(matches == length)
    return token_hits / (n_rows * length), row_hits / n_rows
''',
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex5_train_step",
        "correct": False,
        "kind": "missing term",
        "mistake": "train_step feeds the decoder the target itself instead of the target shifted right, so each position sees the very token it must predict.",
        "keywords": [
            r"shift",
            r"target itself|unshifted|same token|copy|teacher forcing|start token",
        ],
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
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex5_train_step",
        "correct": False,
        "kind": "order",
        "mistake": "train_step calls optimizer.zero_grad() after loss.backward(), so it wipes the fresh gradients and the optimiser step updates nothing.",
        "keywords": [r"zero_grad", r"after|before|order|wipe|clear"],
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
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex5_train_step",
        "correct": False,
        "kind": "order",
        "mistake": "train_step clips the gradients after optimizer.step(), so the update uses the unclipped gradients.",
        "keywords": [r"clip", r"after|before|order|unclipped"],
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
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex5_train_step",
        "correct": False,
        "kind": "order",
        "mistake": "train_step calls scheduler.step() before optimizer.step(), so every update uses the next step's learning rate instead of the current one.",
        "keywords": [r"scheduler", r"before|after|order|next"],
        "code": '''def train_step(model, src, target, start_token, optimizer, scheduler, clip=None):
    """One teacher-forced update. src (B, S), target (B, T) long  ->  the batch's loss, a float"""
    decoder_input = transformer.shift_right(target, start_token)
    logits = model(src, decoder_input)
    loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), target.reshape(-1))
    optimizer.zero_grad()
    loss.backward()
    if clip is not None:
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
    scheduler.step()
    optimizer.step()
    return loss.item()
''',
    },
    {
        "notebook": "07_warmup_scheduler",
        "cell": "ex5_train_step",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
        "code": '''def train_step(model, src, target, start_token, optimizer, scheduler, clip=None):
    """One teacher-forced update. src (B, S), target (B, T) long  ->  the batch's loss, a float"""
    start = torch.full_like(target[:, :1], start_token)
    tgt_in = torch.cat([start, target[:, :-1]], dim=1)
    logits = model(src, tgt_in)  # (B, T, V)
    loss = F.cross_entropy(logits.transpose(1, 2), target)  # classes on dim 1
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    if clip is not None:
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=clip)
    optimizer.step()
    scheduler.step()
    return float(loss.detach())
''',
    },
    {
        "notebook": "08_language_model",
        "cell": "ex1_tokenizer",
        "correct": False,
        "kind": "order",
        "mistake": "vocabulary lists the distinct characters in the order they first appear in the text instead of sorted, so the indices depend on the text's order.",
        "keywords": [r"sort", r"order|first appear|appearance"],
        "code": '''UNKNOWN = corpus.UNKNOWN


def vocabulary(text):
    """[UNKNOWN] + the distinct characters of text, sorted."""
    seen = []
    for c in text:
        if c != UNKNOWN and c not in seen:
            seen.append(c)
    return [UNKNOWN] + seen


def encode(text, vocab):
    """str -> (len(text),) int64: each character's index in vocab, 0 if it is not there."""
    index = {c: i for i, c in enumerate(vocab)}
    return torch.tensor([index.get(c, 0) for c in text], dtype=torch.long)


def decode(ids, vocab):
    """(n,) int64 -> str: the characters vocab[i] of the indices, in order."""
    return "".join(vocab[i] for i in ids.tolist())
''',
    },
    {
        "notebook": "08_language_model",
        "cell": "ex1_tokenizer",
        "correct": False,
        "kind": "missing term",
        "mistake": "vocabulary does not remove UNKNOWN from the text's characters, so a text that contains '�' lists it twice.",
        "keywords": [
            r"UNKNOWN|\ufffd|replacement character|unknown",
            r"twice|duplicate|two times|again|once|remove",
        ],
        "code": '''UNKNOWN = corpus.UNKNOWN


def vocabulary(text):
    """[UNKNOWN] + the distinct characters of text, sorted."""
    return [UNKNOWN] + sorted(set(text))


def encode(text, vocab):
    """str -> (len(text),) int64: each character's index in vocab, 0 if it is not there."""
    index = {c: i for i, c in enumerate(vocab)}
    return torch.tensor([index.get(c, 0) for c in text], dtype=torch.long)


def decode(ids, vocab):
    """(n,) int64 -> str: the characters vocab[i] of the indices, in order."""
    return "".join(vocab[i] for i in ids.tolist())
''',
    },
    {
        "notebook": "08_language_model",
        "cell": "ex1_tokenizer",
        "correct": False,
        "kind": "missing term",
        "mistake": "encode looks characters up with lookup[ch], which raises KeyError for a character not in the vocabulary instead of giving it index 0.",
        "keywords": [
            r"KeyError|raise|error|crash|\.get|not in (the )?vocab|unknown",
            r"0\b|zero|UNKNOWN|default",
        ],
        "code": '''UNKNOWN = corpus.UNKNOWN


def vocabulary(text):
    """[UNKNOWN] + the distinct characters of text, sorted."""
    return [UNKNOWN] + sorted(set(text) - {UNKNOWN})


def encode(text, vocab):
    """str -> (len(text),) int64: each character's index in vocab, 0 if it is not there."""
    lookup = {ch: i for i, ch in enumerate(vocab)}
    return torch.tensor([lookup[ch] for ch in text], dtype=torch.long)


def decode(ids, vocab):
    """(n,) int64 -> str: the characters vocab[i] of the indices, in order."""
    return "".join(vocab[i] for i in ids.tolist())
''',
    },
    {
        "notebook": "08_language_model",
        "cell": "ex1_tokenizer",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
        "code": '''UNKNOWN = corpus.UNKNOWN


def vocabulary(text):
    """[UNKNOWN] + the distinct characters of text, sorted."""
    chars = set(text)
    chars.discard(UNKNOWN)
    return [UNKNOWN, *sorted(chars)]


def encode(text, vocab):
    """str -> (len(text),) int64: each character's index in vocab, 0 if it is not there."""
    ids = torch.zeros(len(text), dtype=torch.int64)
    where = {ch: i for i, ch in enumerate(vocab)}
    for n, ch in enumerate(text):
        if ch in where:
            ids[n] = where[ch]
    return ids


def decode(ids, vocab):
    """(n,) int64 -> str: the characters vocab[i] of the indices, in order."""
    return "".join(map(vocab.__getitem__, torch.as_tensor(ids).tolist()))
''',
    },
    {
        "notebook": "08_language_model",
        "cell": "ex2_random_windows",
        "correct": False,
        "kind": "off-by-one",
        "mistake": "random_windows returns the inputs themselves as targets instead of the same windows shifted one character on (data[idx + 1]).",
        "keywords": [
            r"shift|one (character )?on|\+ ?1|next character|same (window|as the inputs)|identical",
            r"targets?|inputs?",
        ],
        "code": '''def random_windows(data, block_size, batch_size, generator=None):
    """data (N,) -> inputs (B, T), targets (B, T): random windows and the same windows one on."""
    starts = torch.randint(len(data) - block_size, (batch_size,), generator=generator)
    idx = starts[:, None] + torch.arange(block_size)
    return data[idx], data[idx]
''',
    },
    {
        "notebook": "08_language_model",
        "cell": "ex2_random_windows",
        "correct": False,
        "kind": "off-by-one",
        "mistake": "random_windows draws the starts from torch.randint(len(data) - block_size + 1, ...), one too many: the draws differ from the specified ones and the last start's target runs past the end of data.",
        "keywords": [
            r"\+ ?1|off[- ]by[- ]one|one (too )?(many|more|large|high)|upper (bound|limit)|highest start|past the end|out of (range|bounds)",
            r"randint|start|high|bound|range|limit",
        ],
        "code": '''def random_windows(data, block_size, batch_size, generator=None):
    """data (N,) -> inputs (B, T), targets (B, T): random windows and the same windows one on."""
    starts = torch.randint(len(data) - block_size + 1, (batch_size,), generator=generator)
    idx = starts[:, None] + torch.arange(block_size)
    return data[idx], data[idx + 1]
''',
    },
    {
        "notebook": "08_language_model",
        "cell": "ex2_random_windows",
        "correct": False,
        "kind": "argument ignored",
        "mistake": "random_windows never passes generator to torch.randint, so the windows come from the global random state and a seeded generator gives no reproducible batches.",
        "keywords": [r"generator", r"ignor|pass|global|seed|reproduc"],
        "code": '''def random_windows(data, block_size, batch_size, generator=None):
    """data (N,) -> inputs (B, T), targets (B, T): random windows and the same windows one on."""
    starts = torch.randint(len(data) - block_size, (batch_size,))
    idx = starts[:, None] + torch.arange(block_size)
    return data[idx], data[idx + 1]
''',
    },
    {
        "notebook": "08_language_model",
        "cell": "ex2_random_windows",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
        "code": '''def random_windows(data, block_size, batch_size, generator=None):
    """data (N,) -> inputs (B, T), targets (B, T): random windows and the same windows one on."""
    high = data.shape[0] - block_size
    starts = torch.randint(0, high, (batch_size,), generator=generator)
    inputs = torch.stack([data[s:s + block_size] for s in starts.tolist()])
    targets = torch.stack([data[s + 1:s + block_size + 1] for s in starts.tolist()])
    return inputs, targets
''',
    },
    {
        "notebook": "08_language_model",
        "cell": "ex3_multihead_module",
        "correct": False,
        "kind": "argument ignored",
        "mistake": "forward projects the query tensor for all three of q, k and v and ignores key and value, so cross-attention (S ≠ T, keys from another sequence) is wrong.",
        "keywords": [r"key|value|memory|cross", r"query|ignor|self-attention|same (tensor|input)"],
        "code": '''class MultiHeadAttention(nn.Module):
    """Packed multi-head attention with nn.MultiheadAttention's parameters (batch_first=True).

    query (B, T, d_model), key and value (B, S, d_model), mask bool (T, S) or (B, T, S),
    True = may attend  ->  output (B, T, d_model), weights (B, T, S) averaged over the heads
    (None when need_weights is False)
    """

    def __init__(self, d_model, n_heads, dropout=0.0):
        super().__init__()
        self.n_heads = n_heads
        self.p = dropout
        self.in_proj_weight = nn.Parameter(torch.empty(3 * d_model, d_model))
        nn.init.xavier_uniform_(self.in_proj_weight)
        self.in_proj_bias = nn.Parameter(torch.zeros(3 * d_model))
        self.out_proj = nn.Linear(d_model, d_model)
        nn.init.zeros_(self.out_proj.bias)

    def forward(self, query, key, value, mask=None, need_weights=True):
        qkv = F.linear(query, self.in_proj_weight, self.in_proj_bias)
        q, k, v = (split_heads(t, self.n_heads) for t in qkv.chunk(3, dim=-1))
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
        if mask is not None:
            scores = scores.masked_fill(~expand_mask(mask), float("-inf"))
        attn = torch.softmax(scores, dim=-1)
        attn = F.dropout(attn, p=self.p, training=self.training)
        out = self.out_proj(merge_heads(attn @ v))
        return out, (attn.mean(dim=1) if need_weights else None)
''',
    },
    {
        "notebook": "08_language_model",
        "cell": "ex3_multihead_module",
        "correct": False,
        "kind": "mask",
        "mistake": "forward fills the scores with -inf where the mask is True (allowed) instead of where it is False, inverting the course's mask polarity.",
        "keywords": [r"invert|polarity|~|opposite|flip|revers|wrong way", r"mask|True|False"],
        "code": '''class MultiHeadAttention(nn.Module):
    """Packed multi-head attention with nn.MultiheadAttention's parameters (batch_first=True).

    query (B, T, d_model), key and value (B, S, d_model), mask bool (T, S) or (B, T, S),
    True = may attend  ->  output (B, T, d_model), weights (B, T, S) averaged over the heads
    (None when need_weights is False)
    """

    def __init__(self, d_model, n_heads, dropout=0.0):
        super().__init__()
        self.n_heads = n_heads
        self.p = dropout
        self.in_proj_weight = nn.Parameter(torch.empty(3 * d_model, d_model))
        nn.init.xavier_uniform_(self.in_proj_weight)
        self.in_proj_bias = nn.Parameter(torch.zeros(3 * d_model))
        self.out_proj = nn.Linear(d_model, d_model)
        nn.init.zeros_(self.out_proj.bias)

    def forward(self, query, key, value, mask=None, need_weights=True):
        wq, wk, wv = self.in_proj_weight.chunk(3)
        bq, bk, bv = self.in_proj_bias.chunk(3)
        q = split_heads(F.linear(query, wq, bq), self.n_heads)
        k = split_heads(F.linear(key, wk, bk), self.n_heads)
        v = split_heads(F.linear(value, wv, bv), self.n_heads)
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
        if mask is not None:
            scores = scores.masked_fill(expand_mask(mask), float("-inf"))
        attn = torch.softmax(scores, dim=-1)
        attn = F.dropout(attn, p=self.p, training=self.training)
        out = self.out_proj(merge_heads(attn @ v))
        return out, (attn.mean(dim=1) if need_weights else None)
''',
    },
    {
        "notebook": "08_language_model",
        "cell": "ex3_multihead_module",
        "correct": False,
        "kind": "state",
        "mistake": "__init__ starts in_proj_weight with torch.randn (standard normal) instead of nn.init.xavier_uniform_, so a new module's weights are far too large and not PyTorch's initialisation.",
        "keywords": [r"xavier|glorot|init", r"randn|normal|standard|too large"],
        "code": '''class MultiHeadAttention(nn.Module):
    """Packed multi-head attention with nn.MultiheadAttention's parameters (batch_first=True).

    query (B, T, d_model), key and value (B, S, d_model), mask bool (T, S) or (B, T, S),
    True = may attend  ->  output (B, T, d_model), weights (B, T, S) averaged over the heads
    (None when need_weights is False)
    """

    def __init__(self, d_model, n_heads, dropout=0.0):
        super().__init__()
        self.n_heads = n_heads
        self.p = dropout
        self.in_proj_weight = nn.Parameter(torch.randn(3 * d_model, d_model))
        self.in_proj_bias = nn.Parameter(torch.zeros(3 * d_model))
        self.out_proj = nn.Linear(d_model, d_model)
        nn.init.zeros_(self.out_proj.bias)

    def forward(self, query, key, value, mask=None, need_weights=True):
        wq, wk, wv = self.in_proj_weight.chunk(3)
        bq, bk, bv = self.in_proj_bias.chunk(3)
        q = split_heads(F.linear(query, wq, bq), self.n_heads)
        k = split_heads(F.linear(key, wk, bk), self.n_heads)
        v = split_heads(F.linear(value, wv, bv), self.n_heads)
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
        if mask is not None:
            scores = scores.masked_fill(~expand_mask(mask), float("-inf"))
        attn = torch.softmax(scores, dim=-1)
        attn = F.dropout(attn, p=self.p, training=self.training)
        out = self.out_proj(merge_heads(attn @ v))
        return out, (attn.mean(dim=1) if need_weights else None)
''',
    },
    {
        "notebook": "08_language_model",
        "cell": "ex3_multihead_module",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
        "code": '''class MultiHeadAttention(nn.Module):
    """Packed multi-head attention with nn.MultiheadAttention's parameters (batch_first=True).

    query (B, T, d_model), key and value (B, S, d_model), mask bool (T, S) or (B, T, S),
    True = may attend  ->  output (B, T, d_model), weights (B, T, S) averaged over the heads
    (None when need_weights is False)
    """

    def __init__(self, d_model, n_heads, dropout=0.0):
        super().__init__()
        self.h = n_heads
        self.dropout = dropout
        w = torch.empty(3 * d_model, d_model)
        nn.init.xavier_uniform_(w)
        self.in_proj_weight = nn.Parameter(w)
        self.in_proj_bias = nn.Parameter(torch.zeros(3 * d_model))
        self.out_proj = nn.Linear(d_model, d_model)
        nn.init.constant_(self.out_proj.bias, 0.0)

    def _heads(self, t, w, b):
        B, L, D = t.shape
        return (t @ w.T + b).reshape(B, L, self.h, D // self.h).transpose(1, 2)

    def forward(self, query, key, value, mask=None, need_weights=True):
        w, b = self.in_proj_weight.chunk(3), self.in_proj_bias.chunk(3)
        q, k, v = self._heads(query, w[0], b[0]), self._heads(key, w[1], b[1]), self._heads(value, w[2], b[2])
        s = q @ k.transpose(-1, -2) * q.shape[-1] ** -0.5
        if mask is not None:
            m = mask if mask.dim() == 4 else (mask.unsqueeze(1) if mask.dim() == 3 else mask[None, None])
            s = s.masked_fill(~m, float("-inf"))
        a = F.dropout(s.softmax(-1), self.dropout, self.training)
        B, H, T, d = q.shape
        out = self.out_proj((a @ v).transpose(1, 2).reshape(B, T, H * d))
        if need_weights:
            return out, a.mean(1)
        return out, None
''',
    },
    {
        "notebook": "08_language_model",
        "cell": "ex4_pre_norm_block",
        "correct": False,
        "kind": "mask",
        "mistake": "pre_norm_block flips the mask with ~mask before passing it on, so the attention sees the opposite polarity (nn.MultiheadAttention's) and attends only where it must not.",
        "keywords": [
            r"~ ?mask|invert|flip|polarity|opposite|negat|revers",
            r"mask|True|False|polarity",
        ],
        "code": '''def pre_norm_block(x, attention, feed_forward_net, norm1, norm2, mask=None):
    """Pre-norm encoder block: h = x + MHA(LN1(x)), then h + FFN(LN2(h)).

    x: (B, T, d_model); mask: bool, True = may attend  ->  (B, T, d_model)
    """
    if mask is not None:
        mask = ~mask
    h = x + attention(norm1(x), mask=mask)[0]
    return h + feed_forward_net(norm2(h))
''',
    },
    {
        "notebook": "08_language_model",
        "cell": "ex4_pre_norm_block",
        "correct": False,
        "kind": "missing term",
        "mistake": "pre_norm_block returns FFN(LN2(h)) without adding h back: the second residual connection is missing.",
        "keywords": [
            r"residual|skip|identity|\bh ?\+|add\w* h|h back",
            r"missing|without|forg|omit|left out|drop|never add",
        ],
        "code": '''def pre_norm_block(x, attention, feed_forward_net, norm1, norm2, mask=None):
    """Pre-norm encoder block: h = x + MHA(LN1(x)), then h + FFN(LN2(h)).

    x: (B, T, d_model); mask: bool, True = may attend  ->  (B, T, d_model)
    """
    h = x + attention(norm1(x), mask=mask)[0]
    return feed_forward_net(norm2(h))
''',
    },
    {
        "notebook": "08_language_model",
        "cell": "ex4_pre_norm_block",
        "correct": False,
        "kind": "argument order",
        "mistake": "pre_norm_block normalises the feed-forward input with norm1 again instead of norm2.",
        "keywords": [
            r"norm1|norm2|LN ?1|LN ?2|second norm|same norm|twice",
            r"norm|layer ?norm|LN|feed[- ]forward|FFN",
        ],
        "code": '''def pre_norm_block(x, attention, feed_forward_net, norm1, norm2, mask=None):
    """Pre-norm encoder block: h = x + MHA(LN1(x)), then h + FFN(LN2(h)).

    x: (B, T, d_model); mask: bool, True = may attend  ->  (B, T, d_model)
    """
    h = x + attention(norm1(x), mask=mask)[0]
    return h + feed_forward_net(norm1(h))
''',
    },
    {
        "notebook": "08_language_model",
        "cell": "ex4_pre_norm_block",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
        "code": '''def pre_norm_block(x, attention, feed_forward_net, norm1, norm2, mask=None):
    """Pre-norm encoder block: h = x + MHA(LN1(x)), then h + FFN(LN2(h)).

    x: (B, T, d_model); mask: bool, True = may attend  ->  (B, T, d_model)
    """
    residual = x
    out, _ = attention(norm1(x), mask=mask)
    h = residual + out
    return torch.add(h, feed_forward_net(norm2(h)))
''',
    },
    {
        "notebook": "08_language_model",
        "cell": "ex5_lm_logits",
        "correct": False,
        "kind": "off-by-one",
        "mistake": "lm_logits numbers the positions 1 … T instead of 0 … T − 1, so every character gets the next position's embedding.",
        "keywords": [
            r"from 1|from one|1 ?… ?T|arange\(1|off[- ]by[- ]one|shift|position 0|start\w* at 1",
            r"positions?|arange|index",
        ],
        "code": '''def lm_logits(idx, token_embedding, position_embedding, blocks, final_norm):
    """idx (B, T) int64 -> logits (B, T, V), with the head tied to token_embedding."""
    B, T = idx.shape
    positions = torch.arange(1, T + 1, device=idx.device)
    x = token_embedding(idx) + position_embedding(positions)
    mask = causal_mask(T, device=idx.device)
    for block in blocks:
        x = block(x, mask)[0]
    x = final_norm(x)
    return x @ token_embedding.weight.T
''',
    },
    {
        "notebook": "08_language_model",
        "cell": "ex5_lm_logits",
        "correct": False,
        "kind": "missing term",
        "mistake": "lm_logits never applies final_norm before the tied output head.",
        "keywords": [
            r"final[_ ]norm|final layer ?norm|last norm|norm",
            r"LN|layer ?norm|normali[sz]|missing|omit|without|never|skip",
        ],
        "code": '''def lm_logits(idx, token_embedding, position_embedding, blocks, final_norm):
    """idx (B, T) int64 -> logits (B, T, V), with the head tied to token_embedding."""
    B, T = idx.shape
    positions = torch.arange(T, device=idx.device)
    x = token_embedding(idx) + position_embedding(positions)
    mask = causal_mask(T, device=idx.device)
    for block in blocks:
        x = block(x, mask)[0]
    return x @ token_embedding.weight.T
''',
    },
    {
        "notebook": "08_language_model",
        "cell": "ex5_lm_logits",
        "correct": False,
        "kind": "scale",
        "mistake": "lm_logits multiplies the token embeddings by √d_model before adding the positions, which this model does not do.",
        "keywords": [r"sqrt|√|scal", r"d_model|embedding"],
        "code": '''def lm_logits(idx, token_embedding, position_embedding, blocks, final_norm):
    """idx (B, T) int64 -> logits (B, T, V), with the head tied to token_embedding."""
    B, T = idx.shape
    positions = torch.arange(T, device=idx.device)
    x = token_embedding(idx) * math.sqrt(token_embedding.weight.shape[1]) + position_embedding(positions)
    mask = causal_mask(T, device=idx.device)
    for block in blocks:
        x = block(x, mask)[0]
    x = final_norm(x)
    return x @ token_embedding.weight.T
''',
    },
    {
        "notebook": "08_language_model",
        "cell": "ex5_lm_logits",
        "correct": False,
        "kind": "state",
        "mistake": "lm_logits feeds every block the embeddings instead of the previous block's output, so only the last block's output on the embeddings reaches the head.",
        "keywords": [
            r"embedding|original|same input|previous|chain|each block|only the last|overwrit",
            r"blocks?|loop|output|reassign|x ?=|stack|sequence of blocks",
        ],
        "code": '''def lm_logits(idx, token_embedding, position_embedding, blocks, final_norm):
    """idx (B, T) int64 -> logits (B, T, V), with the head tied to token_embedding."""
    T = idx.shape[1]
    emb = token_embedding(idx) + position_embedding(torch.arange(T, device=idx.device))
    mask = causal_mask(T, device=idx.device)
    for block in blocks:
        h = block(emb, mask)[0]
    return final_norm(h) @ token_embedding.weight.T
''',
    },
    {
        "notebook": "08_language_model",
        "cell": "ex5_lm_logits",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
        "code": '''def lm_logits(idx, token_embedding, position_embedding, blocks, final_norm):
    """idx (B, T) int64 -> logits (B, T, V), with the head tied to token_embedding."""
    T = idx.size(1)
    h = token_embedding(idx) + position_embedding.weight[:T]
    causal = causal_mask(T, device=idx.device)
    for blk in blocks:
        h, _ = blk(h, causal)
    return torch.einsum("btd,vd->btv", final_norm(h), token_embedding.weight)
''',
    },
    {
        "notebook": "08_language_model",
        "cell": "ex6_bits_per_character",
        "correct": False,
        "kind": "function swap",
        "mistake": "bits_per_character multiplies the cross-entropy in nats by ln 2 instead of dividing by it.",
        "keywords": [
            r"ln ?2|log ?\(?2|log2|math\.log\(2\)",
            r"multipl|divid|instead|invert|recipro",
        ],
        "code": '''def bits_per_character(logits, targets):
    """logits (B, T, V), targets (B, T) int64 -> () mean cross-entropy in bits."""
    V = logits.shape[-1]
    nats = F.cross_entropy(logits.reshape(-1, V), targets.reshape(-1))
    return nats * math.log(2)
''',
    },
    {
        "notebook": "08_language_model",
        "cell": "ex6_bits_per_character",
        "correct": False,
        "kind": "function swap",
        "mistake": "bits_per_character sums the cross-entropy over the B·T positions (reduction='sum') instead of averaging it.",
        "keywords": [r"sum", r"mean|average"],
        "code": '''def bits_per_character(logits, targets):
    """logits (B, T, V), targets (B, T) int64 -> () mean cross-entropy in bits."""
    loss = F.cross_entropy(logits.flatten(0, 1), targets.flatten(), reduction="sum")
    return loss / math.log(2)
''',
    },
    {
        "notebook": "08_language_model",
        "cell": "ex6_bits_per_character",
        "correct": False,
        "kind": "dtype",
        "mistake": "bits_per_character returns a Python float (.item()) instead of a 0-d tensor, so training cannot call .backward() on it.",
        "keywords": [r"\.item|float|python number", r"tensor|backward|graph|0-d"],
        "code": '''def bits_per_character(logits, targets):
    """logits (B, T, V), targets (B, T) int64 -> () mean cross-entropy in bits."""
    ce = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))
    return ce.item() / math.log(2)
''',
    },
    {
        "notebook": "08_language_model",
        "cell": "ex6_bits_per_character",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
        "code": '''def bits_per_character(logits, targets):
    """logits (B, T, V), targets (B, T) int64 -> () mean cross-entropy in bits."""
    log_probs = torch.log_softmax(logits, dim=-1)
    picked = log_probs.gather(-1, targets.unsqueeze(-1)).squeeze(-1)  # log p of each target
    return -picked.mean() / math.log(2)
''',
    },
    {
        "notebook": "08_language_model",
        "cell": "ex7_train",
        "correct": False,
        "kind": "off-by-one",
        "mistake": "train evaluates when step % every == 0 instead of (step + 1) % every == 0, so it scores the model one update early (after the first update, and then after updates 1 + every, …).",
        "keywords": [
            r"step ?\+ ?1|step % every|off[- ]by[- ]one|one (update|step) (early|too early|late)|first (update|step)",
            r"evaluat|held[- _]out|every|condition|modulo|%",
        ],
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
        optimizer.step()
        scheduler.step()
        history["bits"].append(loss.item())
        if evaluate is not None and step % every == 0:
            history["held_out"].append((step + 1, evaluate(model)))
    return history
''',
    },
    {
        "notebook": "08_language_model",
        "cell": "ex7_train",
        "correct": False,
        "kind": "state",
        "mistake": "train counts its own iterations with enumerate and uses that index instead of the step numbers that steps gives, so a resumed run (range(500, 1000)) draws the batches of steps 0, 1, … and records the wrong step numbers.",
        "keywords": [
            r"enumerate|own (count|index|counter)|index|step numbers?|resum|range\(500",
            r"batch|held[_ -]out|step",
        ],
        "code": '''def train(model, optimizer, scheduler, batches, steps, evaluate=None, every=100, clip=1.0):
    """One update per step number in `steps`
    -> {"bits": [each step's loss], "held_out": [(step + 1, evaluate(model)), ...]}"""
    history = {"bits": [], "held_out": []}
    for i, step in enumerate(steps):
        inputs, targets = batches(i)
        loss = bits_per_character(model(inputs), targets)
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        optimizer.step()
        scheduler.step()
        history["bits"].append(loss.item())
        if evaluate is not None and (i + 1) % every == 0:
            history["held_out"].append((i + 1, evaluate(model)))
    return history
''',
    },
    {
        "notebook": "08_language_model",
        "cell": "ex7_train",
        "correct": False,
        "kind": "order",
        "mistake": "train clips the gradient norm after optimizer.step(), so the updates use unclipped gradients.",
        "keywords": [r"clip", r"after|before|order|unclipped"],
        "code": '''def train(model, optimizer, scheduler, batches, steps, evaluate=None, every=100, clip=1.0):
    """One update per step number in `steps`
    -> {"bits": [each step's loss], "held_out": [(step + 1, evaluate(model)), ...]}"""
    history = {"bits": [], "held_out": []}
    for step in steps:
        inputs, targets = batches(step)
        loss = bits_per_character(model(inputs), targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        scheduler.step()
        history["bits"].append(loss.item())
        if evaluate is not None and (step + 1) % every == 0:
            history["held_out"].append((step + 1, evaluate(model)))
    return history
''',
    },
    {
        "notebook": "08_language_model",
        "cell": "ex7_train",
        "correct": False,
        "kind": "missing term",
        "mistake": "train calls evaluate(model) every `every` steps without checking that evaluate is not None, so a run without an evaluate function fails.",
        "keywords": [r"None", r"evaluat"],
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
        optimizer.step()
        scheduler.step()
        history["bits"].append(loss.item())
        if (step + 1) % every == 0:
            history["held_out"].append((step + 1, evaluate(model)))
    return history
''',
    },
    {
        "notebook": "08_language_model",
        "cell": "ex7_train",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
        "code": '''def train(model, optimizer, scheduler, batches, steps, evaluate=None, every=100, clip=1.0):
    """One update per step number in `steps`
    -> {"bits": [each step's loss], "held_out": [(step + 1, evaluate(model)), ...]}"""
    bits, held_out = [], []
    for step in steps:
        x, y = batches(step)
        optimizer.zero_grad(set_to_none=True)
        loss = bits_per_character(model(x), y)
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), max_norm=clip)
        optimizer.step()
        scheduler.step()
        bits.append(float(loss.detach()))
        done = step + 1
        if evaluate is not None and done % every == 0:
            held_out.append((done, evaluate(model)))
    return {"bits": bits, "held_out": held_out}
''',
    },
    {
        "notebook": "08_language_model",
        "cell": "ex8_sample_next",
        "correct": False,
        "kind": "function swap",
        "mistake": "sample_next multiplies the logits by the temperature instead of dividing by it, so a low temperature flattens the distribution instead of sharpening it.",
        "keywords": [r"multipl|divid|instead|invert|recipro|\* ?temperature", r"temperature"],
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
    },
    {
        "notebook": "08_language_model",
        "cell": "ex8_sample_next",
        "correct": False,
        "kind": "off-by-one",
        "mistake": "sample_next masks logits <= the k-th largest, which also removes the k-th one itself, so only the top k − 1 characters can be drawn.",
        "keywords": [
            r"<=|≤|k ?- ?1|off[- ]by[- ]one|k-th (one|itself|largest)|one too (few|many)",
            r"top[- _]?k|k-th|kth|threshold|strict|<\b|too few",
        ],
        "code": '''def sample_next(logits, temperature=1.0, top_k=None, generator=None):
    """logits (B, V) -> (B,) int64: one character per row, greedy when temperature == 0."""
    if temperature == 0:
        return logits.argmax(dim=-1)
    logits = logits / temperature
    if top_k is not None:
        kth = torch.topk(logits, top_k, dim=-1).values[:, -1:]
        logits = logits.masked_fill(logits <= kth, float("-inf"))
    probs = torch.softmax(logits, dim=-1)
    return torch.multinomial(probs, 1, generator=generator).squeeze(-1)
''',
    },
    {
        "notebook": "08_language_model",
        "cell": "ex8_sample_next",
        "correct": False,
        "kind": "argument ignored",
        "mistake": "sample_next never passes generator to torch.multinomial, so seeded generators do not make the draws reproducible.",
        "keywords": [r"generator", r"ignor|pass|global|seed|reproduc"],
        "code": '''def sample_next(logits, temperature=1.0, top_k=None, generator=None):
    """logits (B, V) -> (B,) int64: one character per row, greedy when temperature == 0."""
    if temperature == 0:
        return logits.argmax(dim=-1)
    logits = logits / temperature
    if top_k is not None:
        kth = torch.topk(logits, top_k, dim=-1).values[:, -1:]
        logits = logits.masked_fill(logits < kth, float("-inf"))
    probs = torch.softmax(logits, dim=-1)
    return torch.multinomial(probs, 1).squeeze(-1)
''',
    },
    {
        "notebook": "08_language_model",
        "cell": "ex8_sample_next",
        "correct": False,
        "kind": "axis",
        "mistake": "sample_next takes the top-k along dim=0, over the batch rows, instead of along each row's vocabulary, so the threshold is a per-column value and the top-k cut is wrong.",
        "keywords": [
            r"dim ?= ?0|dim ?= ?-1|axis|dimension|column|batch|rows?",
            r"top[- _]?k|topk|per row|each row|vocab",
        ],
        "code": '''def sample_next(logits, temperature=1.0, top_k=None, generator=None):
    """logits (B, V) -> (B,) int64: one character per row, greedy when temperature == 0."""
    if temperature == 0:
        return logits.argmax(dim=-1)
    logits = logits / temperature
    if top_k is not None:
        kth = torch.topk(logits, top_k, dim=0).values[-1]
        logits = logits.masked_fill(logits < kth, float("-inf"))
    probs = torch.softmax(logits, dim=-1)
    return torch.multinomial(probs, 1, generator=generator).squeeze(-1)
''',
    },
    {
        "notebook": "08_language_model",
        "cell": "ex8_sample_next",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
        "code": '''def sample_next(logits, temperature=1.0, top_k=None, generator=None):
    """logits (B, V) -> (B,) int64: one character per row, greedy when temperature == 0."""
    if temperature == 0:
        return torch.argmax(logits, dim=1)
    scaled = logits / temperature
    if top_k is not None and top_k < scaled.shape[-1]:
        values, indices = scaled.topk(top_k, dim=-1)
        kept = torch.full_like(scaled, float("-inf")).scatter(-1, indices, values)
        scaled = kept
    probs = scaled.softmax(dim=-1)
    return torch.multinomial(probs, num_samples=1, generator=generator)[:, 0].long()
''',
    },
    {
        "notebook": "08_language_model",
        "cell": "ex9_attend_with_cache",
        "correct": False,
        "kind": "mask",
        "mistake": "attend_with_cache builds the chunk's mask with tril() instead of tril(p), so a chunk after a prompt may not see the p stored positions beyond its own index (the diagonal is not offset by length).",
        "keywords": [
            r"tril\(p\)|tril\(length\)|offset|diagonal|tril\(\)|shift",
            r"\bp\b|length|stored|cache",
        ],
        "code": '''def attend_with_cache(q, k_new, v_new, cache_k, cache_v, length):
    """q, k_new, v_new (B, H, n, d); cache_k, cache_v (B, H, C, d) with `length` positions stored
    -> output (B, H, n, d); k_new and v_new written into the cache at length … length + n - 1"""
    p, n = length, q.shape[-2]
    cache_k[..., p:p + n, :] = k_new
    cache_v[..., p:p + n, :] = v_new
    k, v = cache_k[..., :p + n, :], cache_v[..., :p + n, :]
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if n > 1:
        allowed = torch.ones(n, p + n, dtype=torch.bool, device=q.device).tril()
        scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v
''',
    },
    {
        "notebook": "08_language_model",
        "cell": "ex9_attend_with_cache",
        "correct": False,
        "kind": "off-by-one",
        "mistake": "attend_with_cache attends over the whole allocated cache, including the unused positions after length + n, instead of only the first p + n positions.",
        "keywords": [
            r"whole|entire|all (the )?(cache|positions)|unused|left ?over|garbage|allocated|capacity|beyond",
            r"p ?\+ ?n|length ?\+ ?n|first",
        ],
        "code": '''def attend_with_cache(q, k_new, v_new, cache_k, cache_v, length):
    """q, k_new, v_new (B, H, n, d); cache_k, cache_v (B, H, C, d) with `length` positions stored
    -> output (B, H, n, d); k_new and v_new written into the cache at length … length + n - 1"""
    p, n = length, q.shape[-2]
    cache_k[..., p:p + n, :] = k_new
    cache_v[..., p:p + n, :] = v_new
    k, v = cache_k, cache_v
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if n > 1:
        allowed = torch.ones(n, p + n, dtype=torch.bool, device=q.device).tril(p)
        scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v
''',
    },
    {
        "notebook": "08_language_model",
        "cell": "ex9_attend_with_cache",
        "correct": False,
        "kind": "state",
        "mistake": "attend_with_cache builds new tensors with torch.cat and only rebinds the local names cache_k and cache_v, so the new keys and values are never written into the caller's cache.",
        "keywords": [
            r"in[- ]place|torch\.cat|rebind|local|never written|not written|copy|caller",
            r"cache",
        ],
        "code": '''def attend_with_cache(q, k_new, v_new, cache_k, cache_v, length):
    """q, k_new, v_new (B, H, n, d); cache_k, cache_v (B, H, C, d) with `length` positions stored
    -> output (B, H, n, d); k_new and v_new written into the cache at length … length + n - 1"""
    p, n = length, q.shape[-2]
    keys = torch.cat([cache_k[..., :p, :], k_new], dim=-2)
    values = torch.cat([cache_v[..., :p, :], v_new], dim=-2)
    cache_k, cache_v = keys, values
    scores = q @ keys.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if n > 1:
        allowed = torch.ones(n, p + n, dtype=torch.bool).tril(p)
        scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
''',
    },
    {
        "notebook": "08_language_model",
        "cell": "ex9_attend_with_cache",
        "correct": False,
        "kind": "off-by-one",
        "mistake": "attend_with_cache writes the new keys and values at positions 0 … n − 1 of the cache instead of after the length stored positions, overwriting the start of the cache.",
        "keywords": [
            r"position 0|:n\b|start|beginning|overwrit|p ?: ?p ?\+ ?n|length|after the stored|offset",
            r"writ|stor|cache|position",
        ],
        "code": '''def attend_with_cache(q, k_new, v_new, cache_k, cache_v, length):
    """q, k_new, v_new (B, H, n, d); cache_k, cache_v (B, H, C, d) with `length` positions stored
    -> output (B, H, n, d); k_new and v_new written into the cache at length … length + n - 1"""
    p, n = length, q.shape[-2]
    cache_k[..., :n, :] = k_new
    cache_v[..., :n, :] = v_new
    k, v = cache_k[..., :p + n, :], cache_v[..., :p + n, :]
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if n > 1:
        allowed = torch.ones(n, p + n, dtype=torch.bool, device=q.device).tril(p)
        scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v
''',
    },
    {
        "notebook": "08_language_model",
        "cell": "ex9_attend_with_cache",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
        "code": '''def attend_with_cache(q, k_new, v_new, cache_k, cache_v, length):
    """q, k_new, v_new (B, H, n, d); cache_k, cache_v (B, H, C, d) with `length` positions stored
    -> output (B, H, n, d); k_new and v_new written into the cache at length … length + n - 1"""
    n = k_new.shape[-2]
    end = length + n
    cache_k[:, :, length:end] = k_new
    cache_v[:, :, length:end] = v_new
    keys, values = cache_k[:, :, :end], cache_v[:, :, :end]
    scores = torch.einsum("bhnd,bhsd->bhns", q, keys) * q.shape[-1] ** -0.5
    query_pos = torch.arange(length, end, device=q.device)[:, None]
    key_pos = torch.arange(end, device=q.device)[None, :]
    scores = scores.masked_fill(key_pos > query_pos, float("-inf"))
    return torch.einsum("bhns,bhsd->bhnd", scores.softmax(dim=-1), values)
''',
    },
    {
        "notebook": "09_modern_decoder",
        "cell": "ex1_rms_norm",
        "correct": False,
        "kind": "order",
        "mistake": "rms_norm adds ε to the root mean square after the square root, (rms + ε), instead of inside it, √(mean(x²) + ε).",
        "keywords": [r"eps|ε|epsilon", r"inside|outside|after|square root|sqrt|√"],
        "code": '''def rms_norm(x, weight, eps=1e-5):
    """Divide every token's features by their root mean square, then scale by weight.

    x: (..., d); weight: (d,)  ->  (..., d)
    """
    rms = x.pow(2).mean(dim=-1, keepdim=True).sqrt()
    return x / (rms + eps) * weight
''',
    },
    {
        "notebook": "09_modern_decoder",
        "cell": "ex1_rms_norm",
        "correct": False,
        "kind": "scale",
        "mistake": "rms_norm divides by the square root of the sum of squares (the vector's length) instead of the mean of the squares, so the result is √d times too small.",
        "keywords": [r"sum", r"mean|average|\bd\b|√d|sqrt\(d\)|length|norm"],
        "code": '''def rms_norm(x, weight, eps=1e-5):
    """Divide every token's features by their root mean square, then scale by weight.

    x: (..., d); weight: (d,)  ->  (..., d)
    """
    norm = torch.sqrt((x * x).sum(dim=-1, keepdim=True) + eps)
    return weight * x / norm
''',
    },
    {
        "notebook": "09_modern_decoder",
        "cell": "ex1_rms_norm",
        "correct": False,
        "kind": "missing term",
        "mistake": "rms_norm subtracts each vector's mean first, which is layer norm's centring; RMSNorm divides the uncentred x by its root mean square.",
        "keywords": [r"mean|centr|center", r"subtract|layer ?norm|shift"],
        "code": '''def rms_norm(x, weight, eps=1e-5):
    """Divide every token's features by their root mean square, then scale by weight.

    x: (..., d); weight: (d,)  ->  (..., d)
    """
    centred = x - x.mean(dim=-1, keepdim=True)
    ms = centred.pow(2).mean(dim=-1, keepdim=True)
    return centred * torch.rsqrt(ms + eps) * weight
''',
    },
    {
        "notebook": "09_modern_decoder",
        "cell": "ex1_rms_norm",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
        "code": '''def rms_norm(x, weight, eps=1e-5):
    """Divide every token's features by their root mean square, then scale by weight.

    x: (..., d); weight: (d,)  ->  (..., d)
    """
    d = x.shape[-1]
    mean_square = torch.linalg.vector_norm(x, dim=-1, keepdim=True) ** 2 / d
    return weight * (x / torch.sqrt(mean_square + eps))
''',
    },
    {
        "notebook": "09_modern_decoder",
        "cell": "ex2_rotary",
        "correct": False,
        "kind": "sign",
        "mistake": "apply_rotary turns each pair by −pθ instead of +pθ: the signs of the sine terms are swapped, so (1, 0) at position p becomes (cos p, −sin p).",
        "keywords": [
            r"sign|minus|negative|opposite|other (way|direction)|clockwise|−|-θ|transpos|invers",
            r"sin|turn|rotat|direction",
        ],
        "code": '''def apply_rotary(x, positions, base=10000.0):
    """Turn features (2i, 2i+1) of the token at position p by the angle p · base^(-2i/d).

    x: (..., T, d), d even; positions: (T,) int64  ->  (..., T, d)
    """
    d = x.shape[-1]
    i = torch.arange(d // 2, device=x.device, dtype=torch.float32)
    angles = positions.to(x.device, torch.float32)[:, None] * base ** (-2 * i / d)
    cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)
    even, odd = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = even * cos + odd * sin
    out[..., 1::2] = -even * sin + odd * cos
    return out


def rotary_attention(q, k, v):
    """Causal attention with queries and keys turned by their positions 0 … T-1.

    q, k, v: (B, H, T, d)  ->  (B, H, T, d)
    """
    positions = torch.arange(q.shape[-2], device=q.device)
    q, k = apply_rotary(q, positions), apply_rotary(k, positions)
    return F.scaled_dot_product_attention(q, k, v, is_causal=True)
''',
    },
    {
        "notebook": "09_modern_decoder",
        "cell": "ex2_rotary",
        "correct": False,
        "kind": "layout",
        "mistake": "apply_rotary concatenates the turned even features and the turned odd features as two halves instead of putting them back interleaved at positions 2i and 2i + 1.",
        "keywords": [
            r"interleav|2i ?\+ ?1|even|odd|pairs? (back|in place)|alternat",
            r"cat|concaten|halves|half|block|order",
        ],
        "code": '''def apply_rotary(x, positions, base=10000.0):
    """Turn features (2i, 2i+1) of the token at position p by the angle p · base^(-2i/d).

    x: (..., T, d), d even; positions: (T,) int64  ->  (..., T, d)
    """
    d = x.shape[-1]
    i = torch.arange(d // 2, device=x.device, dtype=torch.float32)
    theta = positions.to(x.device).float()[:, None] * base ** (-2 * i / d)
    cos, sin = theta.cos().to(x.dtype), theta.sin().to(x.dtype)
    x1, x2 = x[..., 0::2], x[..., 1::2]
    return torch.cat([x1 * cos - x2 * sin, x1 * sin + x2 * cos], dim=-1)


def rotary_attention(q, k, v):
    """Causal attention with queries and keys turned by their positions 0 … T-1.

    q, k, v: (B, H, T, d)  ->  (B, H, T, d)
    """
    positions = torch.arange(q.shape[-2], device=q.device)
    q, k = apply_rotary(q, positions), apply_rotary(k, positions)
    return F.scaled_dot_product_attention(q, k, v, is_causal=True)
''',
    },
    {
        "notebook": "09_modern_decoder",
        "cell": "ex2_rotary",
        "correct": False,
        "kind": "structure",
        "mistake": "rotary_attention turns the values as well as the queries and keys; only q and k should be rotated.",
        "keywords": [r"values?|\bv\b", r"turn|rotat"],
        "code": '''def apply_rotary(x, positions, base=10000.0):
    """Turn features (2i, 2i+1) of the token at position p by the angle p · base^(-2i/d).

    x: (..., T, d), d even; positions: (T,) int64  ->  (..., T, d)
    """
    d = x.shape[-1]
    i = torch.arange(d // 2, device=x.device, dtype=torch.float32)
    angles = positions.to(x.device, torch.float32)[:, None] * base ** (-2 * i / d)
    cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)
    even, odd = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = even * cos - odd * sin
    out[..., 1::2] = even * sin + odd * cos
    return out


def rotary_attention(q, k, v):
    """Causal attention with queries and keys turned by their positions 0 … T-1.

    q, k, v: (B, H, T, d)  ->  (B, H, T, d)
    """
    pos = torch.arange(q.shape[-2], device=q.device)
    q, k, v = apply_rotary(q, pos), apply_rotary(k, pos), apply_rotary(v, pos)
    return F.scaled_dot_product_attention(q, k, v, is_causal=True)
''',
    },
    {
        "notebook": "09_modern_decoder",
        "cell": "ex2_rotary",
        "correct": False,
        "kind": "argument ignored",
        "mistake": "apply_rotary ignores its positions argument and always turns the tokens by 0 … T − 1 (torch.arange(T)), which is wrong for tokens at later positions such as those after a cache.",
        "keywords": [r"positions?", r"ignor|arange|0 ?… ?T|always|argument"],
        "code": '''def apply_rotary(x, positions, base=10000.0):
    """Turn features (2i, 2i+1) of the token at position p by the angle p · base^(-2i/d).

    x: (..., T, d), d even; positions: (T,) int64  ->  (..., T, d)
    """
    T, d = x.shape[-2], x.shape[-1]
    pos = torch.arange(T, device=x.device, dtype=torch.float32)
    i = torch.arange(0, d, 2, device=x.device, dtype=torch.float32)
    angles = pos[:, None] * base ** (-i / d)
    cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)
    even, odd = x[..., 0::2], x[..., 1::2]
    return torch.stack([even * cos - odd * sin, even * sin + odd * cos], dim=-1).flatten(-2)


def rotary_attention(q, k, v):
    """Causal attention with queries and keys turned by their positions 0 … T-1.

    q, k, v: (B, H, T, d)  ->  (B, H, T, d)
    """
    positions = torch.arange(q.shape[-2], device=q.device)
    q, k = apply_rotary(q, positions), apply_rotary(k, positions)
    return F.scaled_dot_product_attention(q, k, v, is_causal=True)
''',
    },
    {
        "notebook": "09_modern_decoder",
        "cell": "ex2_rotary",
        "correct": False,
        "kind": "mask",
        "mistake": "rotary_attention calls F.scaled_dot_product_attention without is_causal=True, so the attention is not causal.",
        "keywords": [
            r"causal|is_causal|mask|future",
            r"rotary_attention|attention|scaled_dot_product|not causal|without|missing",
        ],
        "code": '''def apply_rotary(x, positions, base=10000.0):
    """Turn features (2i, 2i+1) of the token at position p by the angle p · base^(-2i/d).

    x: (..., T, d), d even; positions: (T,) int64  ->  (..., T, d)
    """
    d = x.shape[-1]
    i = torch.arange(d // 2, device=x.device, dtype=torch.float32)
    angles = positions.to(x.device, torch.float32)[:, None] * base ** (-2 * i / d)
    cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)
    even, odd = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = even * cos - odd * sin
    out[..., 1::2] = even * sin + odd * cos
    return out


def rotary_attention(q, k, v):
    """Causal attention with queries and keys turned by their positions 0 … T-1.

    q, k, v: (B, H, T, d)  ->  (B, H, T, d)
    """
    positions = torch.arange(q.shape[-2], device=q.device)
    q, k = apply_rotary(q, positions), apply_rotary(k, positions)
    return F.scaled_dot_product_attention(q, k, v)
''',
    },
    {
        "notebook": "09_modern_decoder",
        "cell": "ex2_rotary",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
        "code": '''def apply_rotary(x, positions, base=10000.0):
    """Turn features (2i, 2i+1) of the token at position p by the angle p · base^(-2i/d).

    x: (..., T, d), d even; positions: (T,) int64  ->  (..., T, d)
    """
    d = x.shape[-1]
    work = torch.float64 if x.dtype == torch.float64 else torch.float32
    freqs = base ** (-torch.arange(0, d, 2, dtype=work, device=x.device) / d)
    angles = positions.to(device=x.device, dtype=work)[:, None] * freqs  # (T, d/2)
    turn = torch.polar(torch.ones_like(angles), angles)  # e^{i angle}
    pairs = torch.view_as_complex(x.to(work).reshape(*x.shape[:-1], d // 2, 2).contiguous())
    return torch.view_as_real(pairs * turn).reshape(x.shape).to(x.dtype)


def rotary_attention(q, k, v):
    """Causal attention with queries and keys turned by their positions 0 … T-1.

    q, k, v: (B, H, T, d)  ->  (B, H, T, d)
    """
    T = q.shape[-2]
    p = torch.arange(T, device=q.device)
    qr, kr = apply_rotary(q, p), apply_rotary(k, p)
    scores = qr @ kr.transpose(-2, -1) / math.sqrt(q.shape[-1])
    future = torch.ones(T, T, dtype=torch.bool, device=q.device).triu(1)
    return torch.softmax(scores.masked_fill(future, float("-inf")), dim=-1) @ v
''',
    },
    {
        "notebook": "09_modern_decoder",
        "cell": "ex3_swiglu",
        "correct": False,
        "kind": "argument order",
        "mistake": "swiglu applies SiLU to the up projection instead of the gate projection.",
        "keywords": [r"silu|swish|activation", r"gate|up"],
        "code": '''def swiglu(x, W_gate, W_up, W_down):
    """The gated feed-forward layer: (silu(x W_gate^T) * x W_up^T) W_down^T.

    x: (..., d); W_gate, W_up: (h, d); W_down: (d, h)  ->  (..., d)
    """
    gate = x @ W_gate.T
    up = F.silu(x @ W_up.T)
    return (gate * up) @ W_down.T


def matched_hidden_size(d_model, d_ff):
    """The SwiGLU hidden size with the weights of a ReLU layer of hidden size d_ff -> int."""
    return round(2 * d_ff / 3)
''',
    },
    {
        "notebook": "09_modern_decoder",
        "cell": "ex3_swiglu",
        "correct": False,
        "kind": "integer division",
        "mistake": "matched_hidden_size truncates 2·d_ff/3 with int() instead of rounding to the nearest whole number.",
        "keywords": [
            r"round|nearest|truncat|int\(|floor|down",
            r"matched_hidden_size|hidden size|2 ?\* ?d_ff ?/ ?3|2/3|⅔|int|whole number",
        ],
        "code": '''def swiglu(x, W_gate, W_up, W_down):
    """The gated feed-forward layer: (silu(x W_gate^T) * x W_up^T) W_down^T.

    x: (..., d); W_gate, W_up: (h, d); W_down: (d, h)  ->  (..., d)
    """
    gate = F.silu(x @ W_gate.T)
    up = x @ W_up.T
    return (gate * up) @ W_down.T


def matched_hidden_size(d_model, d_ff):
    """The SwiGLU hidden size with the weights of a ReLU layer of hidden size d_ff -> int."""
    return int(2 * d_ff / 3)
''',
    },
    {
        "notebook": "09_modern_decoder",
        "cell": "ex3_swiglu",
        "correct": False,
        "kind": "function swap",
        "mistake": "swiglu gates with sigmoid(z) instead of SiLU, z·sigmoid(z), which gives a plain GLU rather than SwiGLU.",
        "keywords": [r"sigmoid|σ", r"silu|swish|z ?\* ?sigmoid|z ?σ|z·σ|glu"],
        "code": '''def swiglu(x, W_gate, W_up, W_down):
    """The gated feed-forward layer: (silu(x W_gate^T) * x W_up^T) W_down^T.

    x: (..., d); W_gate, W_up: (h, d); W_down: (d, h)  ->  (..., d)
    """
    return (torch.sigmoid(x @ W_gate.T) * (x @ W_up.T)) @ W_down.T


def matched_hidden_size(d_model, d_ff):
    """The SwiGLU hidden size with the weights of a ReLU layer of hidden size d_ff -> int."""
    return round(2 * d_ff / 3)
''',
    },
    {
        "notebook": "09_modern_decoder",
        "cell": "ex3_swiglu",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
        "code": '''def swiglu(x, W_gate, W_up, W_down):
    """The gated feed-forward layer: (silu(x W_gate^T) * x W_up^T) W_down^T.

    x: (..., d); W_gate, W_up: (h, d); W_down: (d, h)  ->  (..., d)
    """
    a = torch.matmul(x, W_gate.t())
    b = torch.matmul(x, W_up.t())
    hidden = a * torch.sigmoid(a) * b
    return torch.matmul(hidden, W_down.t())


def matched_hidden_size(d_model, d_ff):
    """The SwiGLU hidden size with the weights of a ReLU layer of hidden size d_ff -> int."""
    weights_relu = 2 * d_model * d_ff
    return int(round(weights_relu / (3 * d_model)))
''',
    },
    {
        "notebook": "09_modern_decoder",
        "cell": "ex4_gqa",
        "correct": False,
        "kind": "function swap",
        "mistake": "grouped_query_attention expands the key/value heads with repeat(1, group, 1, 1), which deals them out in turn (0, 1, 0, 1, …), instead of repeat_interleave, which gives neighbouring query heads the same key/value head.",
        "keywords": [
            r"repeat_interleave|repeat\b|\.repeat\(|interleav|tile|in turn|neighbou|round[- ]robin|deal",
            r"group|order|wrong (key|value|head)|pair|heads? h|query heads?",
        ],
        "code": '''def grouped_query_attention(q, k, v, mask=None):
    """Attention where groups of query heads share a key/value head.

    q: (B, H, T, d); k, v: (B, H_kv, S, d), H_kv divides H;
    mask: bool, (T, S) or (B, 1, T, S), True = may attend  ->  (B, H, T, d)
    """
    group = q.shape[1] // k.shape[1]
    k = k.repeat(1, group, 1, 1)
    v = v.repeat(1, group, 1, 1)
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v
''',
    },
    {
        "notebook": "09_modern_decoder",
        "cell": "ex4_gqa",
        "correct": False,
        "kind": "mask",
        "mistake": "grouped_query_attention fills the scores with -inf where the mask is True (may attend) instead of where it is False: the mask polarity is inverted.",
        "keywords": [r"invert|polarity|~|opposite|flip|revers|wrong way", r"mask|True|False"],
        "code": '''def grouped_query_attention(q, k, v, mask=None):
    """Attention where groups of query heads share a key/value head.

    q: (B, H, T, d); k, v: (B, H_kv, S, d), H_kv divides H;
    mask: bool, (T, S) or (B, 1, T, S), True = may attend  ->  (B, H, T, d)
    """
    group = q.shape[1] // k.shape[1]
    k = k.repeat_interleave(group, dim=1)
    v = v.repeat_interleave(group, dim=1)
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = scores.masked_fill(mask, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v
''',
    },
    {
        "notebook": "09_modern_decoder",
        "cell": "ex4_gqa",
        "correct": False,
        "kind": "missing term",
        "mistake": "grouped_query_attention repeats the keys for each group but not the values, so the weights of H heads meet only H_kv value heads.",
        "keywords": [r"values?|\bv\b", r"repeat|expand|group|not"],
        "code": '''def grouped_query_attention(q, k, v, mask=None):
    """Attention where groups of query heads share a key/value head.

    q: (B, H, T, d); k, v: (B, H_kv, S, d), H_kv divides H;
    mask: bool, (T, S) or (B, 1, T, S), True = may attend  ->  (B, H, T, d)
    """
    n_rep = q.shape[1] // k.shape[1]
    k = k.repeat_interleave(n_rep, dim=1)
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    return weights @ v
''',
    },
    {
        "notebook": "09_modern_decoder",
        "cell": "ex4_gqa",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
        "code": '''def grouped_query_attention(q, k, v, mask=None):
    """Attention where groups of query heads share a key/value head.

    q: (B, H, T, d); k, v: (B, H_kv, S, d), H_kv divides H;
    mask: bool, (T, S) or (B, 1, T, S), True = may attend  ->  (B, H, T, d)
    """
    B, H, T, d = q.shape
    H_kv, S = k.shape[1], k.shape[2]
    g = H // H_kv
    qg = q.reshape(B, H_kv, g, T, d)  # neighbouring query heads share a key/value head
    scores = torch.einsum("bkgtd,bksd->bkgts", qg, k) / math.sqrt(d)
    if mask is not None:
        m = mask if mask.dim() == 2 else mask[:, :, None]  # (B, 1, T, S) -> (B, 1, 1, T, S)
        scores = scores.masked_fill(~m, float("-inf"))
    out = torch.einsum("bkgts,bksd->bkgtd", scores.softmax(-1), v)
    return out.reshape(B, H, T, d)
''',
    },
    {
        "notebook": "09_modern_decoder",
        "cell": "ex5_modern_block",
        "correct": False,
        "kind": "structure",
        "mistake": "forward turns the values with apply_rotary as well as the queries and keys; only q and k should be rotated.",
        "keywords": [r"values?|\bv\b", r"turn|rotat|rotary"],
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
        positions = torch.arange(T, device=x.device)
        q, k, v = apply_rotary(q, positions), apply_rotary(k, positions), apply_rotary(v, positions)
        attended = grouped_query_attention(q, k, v, causal_mask(T, device=x.device))
        x = x + self.out_proj(merge_heads(attended))
        h = rms_norm(x, self.norm2.weight, self.eps)
        ff = self.feed_forward
        return x + swiglu(h, ff.gate.weight, ff.up.weight, ff.down.weight)
''',
    },
    {
        "notebook": "09_modern_decoder",
        "cell": "ex5_modern_block",
        "correct": False,
        "kind": "structure",
        "mistake": "forward adds the SwiGLU output to the normalised h instead of to the stream x, so the second residual connection goes through the norm.",
        "keywords": [r"residual|skip|identity", r"normali[sz]ed|\bh\b|rms_norm|\bx\b"],
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
        positions = torch.arange(T, device=x.device)
        q, k = apply_rotary(q, positions), apply_rotary(k, positions)
        attended = grouped_query_attention(q, k, v, causal_mask(T, device=x.device))
        x = x + self.out_proj(merge_heads(attended))
        h = rms_norm(x, self.norm2.weight, self.eps)
        ff = self.feed_forward
        return h + swiglu(h, ff.gate.weight, ff.up.weight, ff.down.weight)
''',
    },
    {
        "notebook": "09_modern_decoder",
        "cell": "ex5_modern_block",
        "correct": False,
        "kind": "argument order",
        "mistake": "forward normalises the SwiGLU input with norm1's weight instead of norm2's.",
        "keywords": [
            r"norm1|norm2|second norm|same (norm|weight)|first norm",
            r"norm|rms|weight|swiglu|feed[- ]forward",
        ],
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
        positions = torch.arange(T, device=x.device)
        q, k = apply_rotary(q, positions), apply_rotary(k, positions)
        attended = grouped_query_attention(q, k, v, causal_mask(T, device=x.device))
        x = x + self.out_proj(merge_heads(attended))
        h = rms_norm(x, self.norm1.weight, self.eps)
        ff = self.feed_forward
        return x + swiglu(h, ff.gate.weight, ff.up.weight, ff.down.weight)
''',
    },
    {
        "notebook": "09_modern_decoder",
        "cell": "ex5_modern_block",
        "correct": False,
        "kind": "mask",
        "mistake": "forward calls grouped_query_attention without the causal mask, so every position attends to later tokens too.",
        "keywords": [
            r"causal|mask|future",
            r"grouped_query_attention|attention|missing|without|never|later|attends",
        ],
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
        positions = torch.arange(T, device=x.device)
        q, k = apply_rotary(q, positions), apply_rotary(k, positions)
        attended = grouped_query_attention(q, k, v)
        x = x + self.out_proj(merge_heads(attended))
        h = rms_norm(x, self.norm2.weight, self.eps)
        ff = self.feed_forward
        return x + swiglu(h, ff.gate.weight, ff.up.weight, ff.down.weight)
''',
    },
    {
        "notebook": "09_modern_decoder",
        "cell": "ex5_modern_block",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
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
        B, T, D = x.shape
        normed = rms_norm(x, self.norm1.weight, eps=self.eps)
        d_head = self.q_proj.out_features // self.n_heads
        q = self.q_proj(normed).view(B, T, self.n_heads, d_head).transpose(1, 2)
        k = self.k_proj(normed).view(B, T, self.n_kv_heads, d_head).transpose(1, 2)
        v = self.v_proj(normed).view(B, T, self.n_kv_heads, d_head).transpose(1, 2)
        pos = torch.arange(T, device=x.device)
        q = apply_rotary(q, pos)
        k = apply_rotary(k, pos)
        mask = causal_mask(T, device=x.device)
        o = grouped_query_attention(q, k, v, mask).transpose(1, 2).reshape(B, T, self.n_heads * d_head)
        h = x + self.out_proj(o)
        g = self.feed_forward
        return h + swiglu(rms_norm(h, self.norm2.weight, eps=self.eps), g.gate.weight, g.up.weight, g.down.weight)
''',
    },
    {
        "notebook": "10_attention_at_scale",
        "cell": "ex1_online_softmax_step",
        "correct": False,
        "kind": "missing term",
        "mistake": "online_softmax_step adds the new block's terms to l without rescaling the old sum by exp(m − m_new), so l is wrong whenever the maximum moves.",
        "keywords": [
            r"rescal|exp\(m ?- ?m_new\)|e\^\{?m ?- ?m|factor|correction",
            r"old|previous|\bl\b|running",
        ],
        "code": '''def online_softmax_step(m, l, z):
    """Fold a block of scores into the running maximum and normaliser of each row.

    m, l: (...) the maximum of the scores seen so far and Σ exp(score − m) over them;
    z: (..., b) the next block of scores  ->  m_new, l_new (...)
    """
    m_new = torch.maximum(m, z.amax(dim=-1))
    l_new = l + torch.exp(z - m_new[..., None]).sum(dim=-1)
    return m_new, l_new
''',
    },
    {
        "notebook": "10_attention_at_scale",
        "cell": "ex1_online_softmax_step",
        "correct": False,
        "kind": "sign",
        "mistake": "online_softmax_step rescales the old normaliser by exp(m_new − m) instead of exp(m − m_new), the inverse factor (which is also infinite on the first block, where m = −inf).",
        "keywords": [
            r"m_new ?- ?m|m ?- ?m_new|invers|recipro|sign|swap|flip|wrong way|other way",
            r"exp|factor|rescal",
        ],
        "code": '''def online_softmax_step(m, l, z):
    """Fold a block of scores into the running maximum and normaliser of each row.

    m, l: (...) the maximum of the scores seen so far and Σ exp(score − m) over them;
    z: (..., b) the next block of scores  ->  m_new, l_new (...)
    """
    m_new = torch.maximum(m, z.amax(dim=-1))
    l_new = l * torch.exp(m_new - m) + torch.exp(z - m_new[..., None]).sum(dim=-1)
    return m_new, l_new
''',
    },
    {
        "notebook": "10_attention_at_scale",
        "cell": "ex1_online_softmax_step",
        "correct": False,
        "kind": "state",
        "mistake": "online_softmax_step sets the new maximum to the block's own maximum, z.amax(-1), forgetting the running maximum m, so a block below the old maximum lowers m.",
        "keywords": [
            "torch\\.maximum|max\\w* of (the )?(old|running|both)|running max|old max|previous max|forget|ignor|block'?s? (own )?max",
            r"\bm\b|maximum",
        ],
        "code": '''def online_softmax_step(m, l, z):
    """Fold a block of scores into the running maximum and normaliser of each row.

    m, l: (...) the maximum of the scores seen so far and Σ exp(score − m) over them;
    z: (..., b) the next block of scores  ->  m_new, l_new (...)
    """
    m_new = z.amax(dim=-1)
    l_new = l * torch.exp(m - m_new) + torch.exp(z - m_new[..., None]).sum(dim=-1)
    return m_new, l_new
''',
    },
    {
        "notebook": "10_attention_at_scale",
        "cell": "ex1_online_softmax_step",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
        "code": '''def online_softmax_step(m, l, z):
    """Fold a block of scores into the running maximum and normaliser of each row.

    m, l: (...) the maximum of the scores seen so far and Σ exp(score − m) over them;
    z: (..., b) the next block of scores  ->  m_new, l_new (...)
    """
    block_max = z.max(dim=-1).values
    m_new = torch.where(block_max > m, block_max, m)
    old = torch.where(torch.isinf(m) & (m < 0), torch.zeros_like(l), l * torch.exp(m - m_new))
    new = torch.exp(z - m_new.unsqueeze(-1)).sum(-1)
    return m_new, old + new
''',
    },
    {
        "notebook": "10_attention_at_scale",
        "cell": "ex2_tiled_attention",
        "correct": False,
        "kind": "missing term",
        "mistake": "tiled_attention rescales l by exp(m − m_new) when the maximum moves but not the accumulator, so earlier blocks' contributions to the output keep their old scale.",
        "keywords": [
            r"acc|accumulator|output",
            r"rescal|alpha|exp\(m ?- ?m_new\)|factor|correction",
        ],
        "code": '''def tiled_attention(Q, K, V, block_q, block_k, causal=False):
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
            if causal and j > i + rows - 1:
                break
            k, v = K[..., j:j + block_k, :], V[..., j:j + block_k, :]
            s = q @ k.transpose(-2, -1) / math.sqrt(d)
            if causal:
                qpos = torch.arange(i, i + rows, device=Q.device)[:, None]
                kpos = torch.arange(j, j + k.shape[-2], device=Q.device)[None, :]
                s = s.masked_fill(kpos > qpos, float("-inf"))
            m_new = torch.maximum(m, s.amax(dim=-1))
            p = torch.exp(s - m_new[..., None])
            alpha = torch.exp(m - m_new)
            l = l * alpha + p.sum(dim=-1)
            acc = acc + p @ v
            m = m_new
        outs.append(acc / l[..., None])
        lses.append(m + torch.log(l))
    return torch.cat(outs, dim=-2), torch.cat(lses, dim=-1)
''',
    },
    {
        "notebook": "10_attention_at_scale",
        "cell": "ex2_tiled_attention",
        "correct": False,
        "kind": "state",
        "mistake": "tiled_attention creates m, l and acc once, before the loop over query blocks, so every query block after the first starts from the previous block's running state instead of from −inf, 0 and 0.",
        "keywords": [
            r"once|outside|before the (outer )?loop|reset|re-?initiali[sz]|carr\w* over|previous (query )?block|shared|state",
            r"\bm\b|\bl\b|acc|running|initial",
        ],
        "code": '''def tiled_attention(Q, K, V, block_q, block_k, causal=False):
    """softmax(Q Kᵀ / √d) V, one (block_q × block_k) block of scores at a time.

    Q: (..., T, d), K: (..., S, d), V: (..., S, d_v); causal: key s visible to query t when s <= t
    ->  O (..., T, d_v), L (..., T): each row's log-sum-exp of its scaled scores
    """
    T, S, d = Q.shape[-2], K.shape[-2], Q.shape[-1]
    scale = 1 / math.sqrt(d)
    lead = Q.shape[:-2]
    m = torch.full((*lead, min(block_q, T)), float("-inf"), dtype=Q.dtype, device=Q.device)
    l = torch.zeros((*lead, min(block_q, T)), dtype=Q.dtype, device=Q.device)
    acc = torch.zeros((*lead, min(block_q, T), V.shape[-1]), dtype=Q.dtype, device=Q.device)
    O, L = [], []
    for i in range(0, T, block_q):
        q = Q[..., i:i + block_q, :]
        for j in range(0, S, block_k):
            if causal and j > i + q.shape[-2] - 1:
                break
            s = q @ K[..., j:j + block_k, :].transpose(-2, -1) * scale
            if causal:
                r = torch.arange(i, i + q.shape[-2], device=Q.device)
                c = torch.arange(j, j + s.shape[-1], device=Q.device)
                s = s.masked_fill(c[None, :] > r[:, None], float("-inf"))
            m_new = torch.maximum(m, s.amax(-1))
            p = torch.exp(s - m_new[..., None])
            l = l * torch.exp(m - m_new) + p.sum(-1)
            acc = acc * torch.exp(m - m_new)[..., None] + p @ V[..., j:j + block_k, :]
            m = m_new
        O.append(acc / l[..., None])
        L.append(m + torch.log(l))
    return torch.cat(O, dim=-2), torch.cat(L, dim=-1)
''',
    },
    {
        "notebook": "10_attention_at_scale",
        "cell": "ex2_tiled_attention",
        "correct": False,
        "kind": "missing term",
        "mistake": "tiled_attention returns L = log l without adding the running maximum m, which is the log-sum-exp of the scores minus their maximum, not of the scores.",
        "keywords": [
            r"\bm ?\+|plus m|add\w* (the )?(running )?max|without (the )?m\b|maximum|m \+ log",
            r"\bL\b|log[- ]?sum[- ]?exp|log ?l|logsumexp|log\(l\)",
        ],
        "code": '''def tiled_attention(Q, K, V, block_q, block_k, causal=False):
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
            if causal and j > i + rows - 1:
                break
            k, v = K[..., j:j + block_k, :], V[..., j:j + block_k, :]
            s = q @ k.transpose(-2, -1) / math.sqrt(d)
            if causal:
                qpos = torch.arange(i, i + rows, device=Q.device)[:, None]
                kpos = torch.arange(j, j + k.shape[-2], device=Q.device)[None, :]
                s = s.masked_fill(kpos > qpos, float("-inf"))
            m_new = torch.maximum(m, s.amax(dim=-1))
            p = torch.exp(s - m_new[..., None])
            alpha = torch.exp(m - m_new)
            l = l * alpha + p.sum(dim=-1)
            acc = acc * alpha[..., None] + p @ v
            m = m_new
        outs.append(acc / l[..., None])
        lses.append(torch.log(l))
    return torch.cat(outs, dim=-2), torch.cat(lses, dim=-1)
''',
    },
    {
        "notebook": "10_attention_at_scale",
        "cell": "ex2_tiled_attention",
        "correct": False,
        "kind": "off-by-one",
        "mistake": "tiled_attention's causal mask hides keys with kpos >= qpos, so a query cannot see itself (and query 0 sees nothing) instead of hiding only the keys after it.",
        "keywords": [
            r">=|≥|diagonal|itself|self|off[- ]by[- ]one|s ?<= ?t|s ?< ?t",
            r"causal|mask|diagonal|>|strict",
        ],
        "code": '''def tiled_attention(Q, K, V, block_q, block_k, causal=False):
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
            if causal and j > i + rows - 1:
                break
            k, v = K[..., j:j + block_k, :], V[..., j:j + block_k, :]
            s = q @ k.transpose(-2, -1) / math.sqrt(d)
            if causal:
                qpos = torch.arange(i, i + rows, device=Q.device)[:, None]
                kpos = torch.arange(j, j + k.shape[-2], device=Q.device)[None, :]
                s = s.masked_fill(kpos >= qpos, float("-inf"))
            m_new = torch.maximum(m, s.amax(dim=-1))
            p = torch.exp(s - m_new[..., None])
            alpha = torch.exp(m - m_new)
            l = l * alpha + p.sum(dim=-1)
            acc = acc * alpha[..., None] + p @ v
            m = m_new
        outs.append(acc / l[..., None])
        lses.append(m + torch.log(l))
    return torch.cat(outs, dim=-2), torch.cat(lses, dim=-1)
''',
    },
    {
        "notebook": "10_attention_at_scale",
        "cell": "ex2_tiled_attention",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
        "code": '''def tiled_attention(Q, K, V, block_q, block_k, causal=False):
    """softmax(Q Kᵀ / √d) V, one (block_q × block_k) block of scores at a time.

    Q: (..., T, d), K: (..., S, d), V: (..., S, d_v); causal: key s visible to query t when s <= t
    ->  O (..., T, d_v), L (..., T): each row's log-sum-exp of its scaled scores
    """
    *lead, T, d = Q.shape
    S, dv = K.shape[-2], V.shape[-1]
    O = torch.empty(*lead, T, dv, dtype=Q.dtype, device=Q.device)
    L = torch.empty(*lead, T, dtype=Q.dtype, device=Q.device)
    qs = 1.0 / math.sqrt(d)
    for start in range(0, T, block_q):
        stop = min(start + block_q, T)
        q = Q[..., start:stop, :] * qs
        run_max = Q.new_full((*lead, stop - start), float("-inf"))
        run_sum = Q.new_zeros((*lead, stop - start))
        run_out = Q.new_zeros((*lead, stop - start, dv))
        kstop_all = min(S, stop) if causal else S
        for ks in range(0, kstop_all, block_k):
            ke = min(ks + block_k, S)
            scores = torch.einsum("...td,...sd->...ts", q, K[..., ks:ke, :])
            if causal:
                visible = torch.arange(ks, ke, device=Q.device)[None, :] <= torch.arange(start, stop, device=Q.device)[:, None]
                scores = scores.masked_fill(~visible, float("-inf"))
            new_max = torch.maximum(run_max, scores.amax(-1))
            weights = (scores - new_max.unsqueeze(-1)).exp()
            shrink = (run_max - new_max).exp()
            run_sum = run_sum * shrink + weights.sum(-1)
            run_out = run_out * shrink.unsqueeze(-1) + torch.einsum("...ts,...sv->...tv", weights, V[..., ks:ke, :])
            run_max = new_max
        O[..., start:stop, :] = run_out / run_sum.unsqueeze(-1)
        L[..., start:stop] = run_max + run_sum.log()
    return O, L
''',
    },
    {
        "notebook": "10_attention_at_scale",
        "cell": "ex3_attention_backward",
        "correct": False,
        "kind": "missing term",
        "mistake": "attention_backward takes dS = P ⊙ dP and leaves out the subtraction of each row's rowsum(P ⊙ dP), the −p pᵀ part of the softmax's Jacobian.",
        "keywords": [
            r"rowsum|row sum|sum\(|subtract|p ?· ?g|p\^?T ?g|p pᵀ|p p\^T|jacobian|- ?p",
            r"dS|softmax|row",
        ],
        "code": '''def attention_backward(Q, K, V, P, dO):
    """Gradients of O = P V, P = softmax(Q Kᵀ / √d), without the softmax's Jacobian.

    Q: (..., T, d), K: (..., S, d), V: (..., S, d_v), P: (..., T, S), dO: (..., T, d_v)
    ->  dQ (..., T, d), dK (..., S, d), dV (..., S, d_v)
    """
    scale = math.sqrt(Q.shape[-1])
    dV = P.transpose(-2, -1) @ dO
    dP = dO @ V.transpose(-2, -1)
    dS = P * dP
    dQ = dS @ K / scale
    dK = dS.transpose(-2, -1) @ Q / scale
    return dQ, dK, dV
''',
    },
    {
        "notebook": "10_attention_at_scale",
        "cell": "ex3_attention_backward",
        "correct": False,
        "kind": "scale",
        "mistake": "attention_backward leaves the 1/√d factor out of dK (dQ has it), so dK is √d times too large.",
        "keywords": [r"sqrt|√|scal|1/√d", r"dK|keys?"],
        "code": '''def attention_backward(Q, K, V, P, dO):
    """Gradients of O = P V, P = softmax(Q Kᵀ / √d), without the softmax's Jacobian.

    Q: (..., T, d), K: (..., S, d), V: (..., S, d_v), P: (..., T, S), dO: (..., T, d_v)
    ->  dQ (..., T, d), dK (..., S, d), dV (..., S, d_v)
    """
    scale = math.sqrt(Q.shape[-1])
    dV = P.transpose(-2, -1) @ dO
    dP = dO @ V.transpose(-2, -1)
    dS = P * (dP - (P * dP).sum(dim=-1, keepdim=True))
    dQ = dS @ K / scale
    dK = dS.transpose(-2, -1) @ Q
    return dQ, dK, dV
''',
    },
    {
        "notebook": "10_attention_at_scale",
        "cell": "ex3_attention_backward",
        "correct": False,
        "kind": "axis",
        "mistake": "attention_backward sums P ⊙ dP over dim=-2, down each column (over the queries), instead of along each row over the keys (dim=-1).",
        "keywords": [r"dim ?= ?-2|dim ?= ?-1|axis|dimension|columns?", r"rows?|quer|keys?"],
        "code": '''def attention_backward(Q, K, V, P, dO):
    """Gradients of O = P V, P = softmax(Q Kᵀ / √d), without the softmax's Jacobian.

    Q: (..., T, d), K: (..., S, d), V: (..., S, d_v), P: (..., T, S), dO: (..., T, d_v)
    ->  dQ (..., T, d), dK (..., S, d), dV (..., S, d_v)
    """
    scale = math.sqrt(Q.shape[-1])
    dV = P.transpose(-2, -1) @ dO
    dP = dO @ V.transpose(-2, -1)
    dS = P * (dP - (P * dP).sum(dim=-2, keepdim=True))
    dQ = dS @ K / scale
    dK = dS.transpose(-2, -1) @ Q / scale
    return dQ, dK, dV
''',
    },
    {
        "notebook": "10_attention_at_scale",
        "cell": "ex3_attention_backward",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
        "code": '''def attention_backward(Q, K, V, P, dO):
    """Gradients of O = P V, P = softmax(Q Kᵀ / √d), without the softmax's Jacobian.

    Q: (..., T, d), K: (..., S, d), V: (..., S, d_v), P: (..., T, S), dO: (..., T, d_v)
    ->  dQ (..., T, d), dK (..., S, d), dV (..., S, d_v)
    """
    d = Q.shape[-1]
    dV = torch.einsum("...ts,...tv->...sv", P, dO)
    dP = torch.einsum("...tv,...sv->...ts", dO, V)
    row = torch.einsum("...ts,...ts->...t", P, dP).unsqueeze(-1)
    dS = P * (dP - row) / math.sqrt(d)
    dQ = torch.einsum("...ts,...sd->...td", dS, K)
    dK = torch.einsum("...ts,...td->...sd", dS, Q)
    return dQ, dK, dV
''',
    },
    {
        "notebook": "10_attention_at_scale",
        "cell": "ex4_flash_backward",
        "correct": False,
        "kind": "missing term",
        "mistake": "flash_backward computes dS = P ⊙ dP without subtracting D = rowsum(dO ⊙ O), the per-row term of the softmax's gradient.",
        "keywords": [
            r"\bD\b|D_i|rowsum|row sum|dO ?⊙ ?O|dO ?\* ?O|subtract|p ?· ?g",
            r"dS|softmax|row",
        ],
        "code": '''def flash_backward(Q, K, V, O, L, dO, block_q, block_k, causal=False):
    """The backward pass of tiled attention, rebuilding each block of weights from L.

    Q: (..., T, d), K: (..., S, d), V: (..., S, d_v), O and dO: (..., T, d_v), L: (..., T)
    ->  dQ (..., T, d), dK (..., S, d), dV (..., S, d_v)
    """
    T, S = Q.shape[-2], K.shape[-2]
    scale = 1.0 / math.sqrt(Q.shape[-1])
    D = (dO * O).sum(dim=-1)
    dQ, dK, dV = torch.zeros_like(Q), torch.zeros_like(K), torch.zeros_like(V)
    for j in range(0, S, block_k):
        k_j, v_j = K[..., j:j + block_k, :], V[..., j:j + block_k, :]
        for i in range(0, T, block_q):
            q_i, do_i = Q[..., i:i + block_q, :], dO[..., i:i + block_q, :]
            n_q = q_i.shape[-2]
            if causal and j > i + n_q - 1:
                continue
            s = q_i @ k_j.transpose(-2, -1) * scale
            if causal:
                rows = torch.arange(i, i + n_q, device=Q.device)[:, None]
                cols = torch.arange(j, j + k_j.shape[-2], device=Q.device)[None, :]
                s = s.masked_fill(cols > rows, float("-inf"))
            p = torch.exp(s - L[..., i:i + block_q, None])
            dV[..., j:j + block_k, :] += p.transpose(-2, -1) @ do_i
            ds = p * (do_i @ v_j.transpose(-2, -1))
            dQ[..., i:i + block_q, :] += ds @ k_j * scale
            dK[..., j:j + block_k, :] += ds.transpose(-2, -1) @ q_i * scale
    return dQ, dK, dV
''',
    },
    {
        "notebook": "10_attention_at_scale",
        "cell": "ex4_flash_backward",
        "correct": False,
        "kind": "off-by-one",
        "mistake": "flash_backward rebuilds the weights with L sliced by the key block, L[..., j:j + block_k], instead of the query block's rows L[..., i:i + block_q].",
        "keywords": [
            r"L\[|log-?sum-?exp|\bL\b",
            r"key block|query block|\bj\b|\bi\b|slice|index|rows?",
        ],
        "code": '''def flash_backward(Q, K, V, O, L, dO, block_q, block_k, causal=False):
    """The backward pass of tiled attention, rebuilding each block of weights from L.

    Q: (..., T, d), K: (..., S, d), V: (..., S, d_v), O and dO: (..., T, d_v), L: (..., T)
    ->  dQ (..., T, d), dK (..., S, d), dV (..., S, d_v)
    """
    T, S = Q.shape[-2], K.shape[-2]
    scale = 1.0 / math.sqrt(Q.shape[-1])
    D = (dO * O).sum(dim=-1)
    dQ, dK, dV = torch.zeros_like(Q), torch.zeros_like(K), torch.zeros_like(V)
    for j in range(0, S, block_k):
        k_j, v_j = K[..., j:j + block_k, :], V[..., j:j + block_k, :]
        for i in range(0, T, block_q):
            q_i, do_i = Q[..., i:i + block_q, :], dO[..., i:i + block_q, :]
            n_q = q_i.shape[-2]
            if causal and j > i + n_q - 1:
                continue
            s = q_i @ k_j.transpose(-2, -1) * scale
            if causal:
                rows = torch.arange(i, i + n_q, device=Q.device)[:, None]
                cols = torch.arange(j, j + k_j.shape[-2], device=Q.device)[None, :]
                s = s.masked_fill(cols > rows, float("-inf"))
            p = torch.exp(s - L[..., j:j + block_k, None])
            dV[..., j:j + block_k, :] += p.transpose(-2, -1) @ do_i
            ds = p * (do_i @ v_j.transpose(-2, -1) - D[..., i:i + block_q, None])
            dQ[..., i:i + block_q, :] += ds @ k_j * scale
            dK[..., j:j + block_k, :] += ds.transpose(-2, -1) @ q_i * scale
    return dQ, dK, dV
''',
    },
    {
        "notebook": "10_attention_at_scale",
        "cell": "ex4_flash_backward",
        "correct": False,
        "kind": "state",
        "mistake": "flash_backward assigns dK for a key block (=) instead of adding to it (+=), so only the last query block's contribution survives.",
        "keywords": [
            r"\+=|accumulat|add|overwrit|assign|only the last|=\s",
            r"dK|key|gradient|sum|blocks?",
        ],
        "code": '''def flash_backward(Q, K, V, O, L, dO, block_q, block_k, causal=False):
    """The backward pass of tiled attention, rebuilding each block of weights from L.

    Q: (..., T, d), K: (..., S, d), V: (..., S, d_v), O and dO: (..., T, d_v), L: (..., T)
    ->  dQ (..., T, d), dK (..., S, d), dV (..., S, d_v)
    """
    T, S = Q.shape[-2], K.shape[-2]
    scale = 1.0 / math.sqrt(Q.shape[-1])
    D = (dO * O).sum(dim=-1)
    dQ, dK, dV = torch.zeros_like(Q), torch.zeros_like(K), torch.zeros_like(V)
    for j in range(0, S, block_k):
        k_j, v_j = K[..., j:j + block_k, :], V[..., j:j + block_k, :]
        for i in range(0, T, block_q):
            q_i, do_i = Q[..., i:i + block_q, :], dO[..., i:i + block_q, :]
            n_q = q_i.shape[-2]
            if causal and j > i + n_q - 1:
                continue
            s = q_i @ k_j.transpose(-2, -1) * scale
            if causal:
                rows = torch.arange(i, i + n_q, device=Q.device)[:, None]
                cols = torch.arange(j, j + k_j.shape[-2], device=Q.device)[None, :]
                s = s.masked_fill(cols > rows, float("-inf"))
            p = torch.exp(s - L[..., i:i + block_q, None])
            dV[..., j:j + block_k, :] += p.transpose(-2, -1) @ do_i
            ds = p * (do_i @ v_j.transpose(-2, -1) - D[..., i:i + block_q, None])
            dQ[..., i:i + block_q, :] += ds @ k_j * scale
            dK[..., j:j + block_k, :] = ds.transpose(-2, -1) @ q_i * scale
    return dQ, dK, dV
''',
    },
    {
        "notebook": "10_attention_at_scale",
        "cell": "ex4_flash_backward",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
        "code": '''def flash_backward(Q, K, V, O, L, dO, block_q, block_k, causal=False):
    """The backward pass of tiled attention, rebuilding each block of weights from L.

    Q: (..., T, d), K: (..., S, d), V: (..., S, d_v), O and dO: (..., T, d_v), L: (..., T)
    ->  dQ (..., T, d), dK (..., S, d), dV (..., S, d_v)
    """
    T, S, d = Q.shape[-2], K.shape[-2], Q.shape[-1]
    s_ = d ** -0.5
    Dsum = torch.einsum("...tv,...tv->...t", dO, O)
    dQ = torch.zeros_like(Q)
    dK = torch.zeros_like(K)
    dV = torch.zeros_like(V)
    for i0 in range(0, T, block_q):
        i1 = min(i0 + block_q, T)
        q, g, Li, Di = Q[..., i0:i1, :], dO[..., i0:i1, :], L[..., i0:i1], Dsum[..., i0:i1]
        last_key = S if not causal else min(S, i1)
        for j0 in range(0, last_key, block_k):
            j1 = min(j0 + block_k, S)
            k, v = K[..., j0:j1, :], V[..., j0:j1, :]
            scores = (q @ k.transpose(-2, -1)) * s_
            if causal:
                hide = torch.arange(j0, j1, device=Q.device)[None] > torch.arange(i0, i1, device=Q.device)[:, None]
                scores = scores.masked_fill(hide, float("-inf"))
            P = (scores - Li.unsqueeze(-1)).exp()
            dV[..., j0:j1, :] += P.transpose(-2, -1) @ g
            dS = P * (g @ v.transpose(-2, -1) - Di.unsqueeze(-1)) * s_
            dQ[..., i0:i1, :] += dS @ k
            dK[..., j0:j1, :] += dS.transpose(-2, -1) @ q
    return dQ, dK, dV
''',
    },
    {
        "notebook": "10_attention_at_scale",
        "cell": "ex5_autograd_functions",
        "correct": False,
        "kind": "argument ignored",
        "mistake": "AttentionFunction.forward ignores its causal argument and never masks the future keys.",
        "keywords": [r"causal", r"ignor|mask|never|future"],
        "code": '''class AttentionFunction(torch.autograd.Function):
    """AttentionFunction.apply(Q, K, V, causal) -> O; saves the weights for the backward pass."""

    @staticmethod
    def forward(ctx, Q, K, V, causal):
        scores = Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1])
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
        dQ, dK, dV = flash_backward(Q, K, V, O, L, dO, ctx.block_q, ctx.block_k, causal=ctx.causal)
        return dQ, dK, dV, None, None, None
''',
    },
    {
        "notebook": "10_attention_at_scale",
        "cell": "ex5_autograd_functions",
        "correct": False,
        "kind": "argument ignored",
        "mistake": "FlashAttention.backward calls flash_backward without causal=ctx.causal, so the gradients of a causal forward pass are computed as if nothing were masked.",
        "keywords": [r"causal|ctx\.causal|mask", r"backward|flash_backward|gradient"],
        "code": '''class AttentionFunction(torch.autograd.Function):
    """AttentionFunction.apply(Q, K, V, causal) -> O; saves the weights for the backward pass."""

    @staticmethod
    def forward(ctx, Q, K, V, causal):
        scores = Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1])
        if causal:
            T, S = scores.shape[-2], scores.shape[-1]
            allowed = torch.ones(T, S, dtype=torch.bool, device=Q.device).tril()
            scores = scores.masked_fill(~allowed, float("-inf"))
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
        dQ, dK, dV = flash_backward(Q, K, V, O, L, dO, ctx.block_q, ctx.block_k)
        return dQ, dK, dV, None, None, None
''',
    },
    {
        "notebook": "10_attention_at_scale",
        "cell": "ex5_autograd_functions",
        "correct": False,
        "kind": "order",
        "mistake": "AttentionFunction.backward returns the gradients in the order (dK, dQ, dV) instead of (dQ, dK, dV), so Q receives K's gradient and K receives Q's.",
        "keywords": [
            r"order|swap|dK, ?dQ|dQ, ?dK|exchang|wrong (input|argument)",
            r"dQ|dK|gradients?|return",
        ],
        "code": '''class AttentionFunction(torch.autograd.Function):
    """AttentionFunction.apply(Q, K, V, causal) -> O; saves the weights for the backward pass."""

    @staticmethod
    def forward(ctx, Q, K, V, causal):
        scores = Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1])
        if causal:
            T, S = scores.shape[-2], scores.shape[-1]
            allowed = torch.ones(T, S, dtype=torch.bool, device=Q.device).tril()
            scores = scores.masked_fill(~allowed, float("-inf"))
        P = torch.softmax(scores, dim=-1)
        ctx.save_for_backward(Q, K, V, P)
        return P @ V

    @staticmethod
    def backward(ctx, dO):
        Q, K, V, P = ctx.saved_tensors
        dQ, dK, dV = attention_backward(Q, K, V, P, dO)
        return dK, dQ, dV, None


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
        dQ, dK, dV = flash_backward(Q, K, V, O, L, dO, ctx.block_q, ctx.block_k, causal=ctx.causal)
        return dQ, dK, dV, None, None, None
''',
    },
    {
        "notebook": "10_attention_at_scale",
        "cell": "ex5_autograd_functions",
        "correct": False,
        "kind": "structure",
        "mistake": "AttentionFunction.backward returns three gradients for a forward with four inputs (Q, K, V, causal): it must also return None for causal.",
        "keywords": [
            r"None",
            r"causal|four|4|number of (gradients|outputs|values)|one per (input|argument)|missing",
        ],
        "code": '''class AttentionFunction(torch.autograd.Function):
    """AttentionFunction.apply(Q, K, V, causal) -> O; saves the weights for the backward pass."""

    @staticmethod
    def forward(ctx, Q, K, V, causal):
        scores = Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1])
        if causal:
            T, S = scores.shape[-2], scores.shape[-1]
            allowed = torch.ones(T, S, dtype=torch.bool, device=Q.device).tril()
            scores = scores.masked_fill(~allowed, float("-inf"))
        P = torch.softmax(scores, dim=-1)
        ctx.save_for_backward(Q, K, V, P)
        return P @ V

    @staticmethod
    def backward(ctx, dO):
        Q, K, V, P = ctx.saved_tensors
        dQ, dK, dV = attention_backward(Q, K, V, P, dO)
        return dQ, dK, dV


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
        dQ, dK, dV = flash_backward(Q, K, V, O, L, dO, ctx.block_q, ctx.block_k, causal=ctx.causal)
        return dQ, dK, dV, None, None, None
''',
    },
    {
        "notebook": "10_attention_at_scale",
        "cell": "ex5_autograd_functions",
        "correct": True,
        "kind": "another style",
        "mistake": "",
        "keywords": [],
        "code": '''class AttentionFunction(torch.autograd.Function):
    """AttentionFunction.apply(Q, K, V, causal) -> O; saves the weights for the backward pass."""

    @staticmethod
    def forward(ctx, Q, K, V, causal):
        scale = Q.shape[-1] ** -0.5
        scores = torch.einsum("...td,...sd->...ts", Q, K) * scale
        if causal:
            T, S = scores.shape[-2:]
            future = torch.arange(S, device=Q.device)[None, :] > torch.arange(T, device=Q.device)[:, None]
            scores = scores.masked_fill(future, float("-inf"))
        P = scores.softmax(dim=-1)
        ctx.save_for_backward(Q, K, V, P)
        return torch.einsum("...ts,...sv->...tv", P, V)

    @staticmethod
    def backward(ctx, dO):
        Q, K, V, P = ctx.saved_tensors
        return (*attention_backward(Q, K, V, P, dO), None)


class FlashAttention(torch.autograd.Function):
    """FlashAttention.apply(Q, K, V, causal, block_q, block_k) -> O; saves Q, K, V, O and L."""

    @staticmethod
    def forward(ctx, Q, K, V, causal, block_q, block_k):
        O, L = tiled_attention(Q, K, V, block_q, block_k, causal)
        ctx.save_for_backward(Q, K, V, O, L)
        ctx.settings = (block_q, block_k, causal)
        return O

    @staticmethod
    def backward(ctx, dO):
        block_q, block_k, causal = ctx.settings
        grads = flash_backward(*ctx.saved_tensors[:5], dO, block_q, block_k, causal)
        return grads + (None,) * 3
''',
    },
]
