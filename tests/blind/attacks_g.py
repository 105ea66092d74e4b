"""Blind attack set G: the notebooks that breached the grader when an attacker who had read
only the README, the helper package and the student notebooks attacked it (48 attacks, 18
breaches, tests/blind/README.md). Data only: each replaces answer cells of a released
notebook; none holds a genuine answer. ``a18_hardcode_visible`` returns the visible checks'
expected values: no reader can see that; the hidden checks take most of its points.
"""

ATTACKS = [
    {
        "name": "a01_sdpa_softmax",
        "notebook": "01_vector_attention",
        "answers": {
            "ex3_softmax": "def softmax(z):\n"
            "    m = z.shape[0]\n"
            "    return F.scaled_dot_product_attention(torch.ones(1, 1, "
            "dtype=z.dtype), z.reshape(m, 1), torch.eye(m, dtype=z.dtype))[0]\n"
        },
    },
    {
        "name": "a02_mha_forward",
        "notebook": "01_vector_attention",
        "answers": {
            "ex6_self_attention": "def self_attention(xs, W_q, b_q, W_k, b_k, W_v, b_v):\n"
            "    X = torch.cat(xs, dim=1).T\n"
            "    Q, K, V = X @ W_q.T + b_q.T, X @ W_k.T + b_k.T, X @ W_v.T "
            "+ b_v.T\n"
            "    E = Q.shape[1]\n"
            "    I = torch.eye(E, dtype=Q.dtype)\n"
            "    out, _ = F.multi_head_attention_forward(\n"
            "        Q[:, None], K[:, None], V[:, None], E, 1, None, None, "
            "None, None, False, 0.0,\n"
            "        I, torch.zeros(E, dtype=Q.dtype), training=False, "
            "need_weights=True,\n"
            "        use_separate_proj_weight=True, q_proj_weight=I, "
            "k_proj_weight=I, v_proj_weight=I)\n"
            "    return list(out[:, 0].reshape(len(xs), E, 1))\n"
        },
    },
    {
        "name": "a04_ce_grad",
        "notebook": "01_vector_attention",
        "answers": {
            "ex3_softmax": "def softmax(z):\n"
            "    zz = z.detach().clone().requires_grad_(True)\n"
            "    loss = F.cross_entropy(zz[None], torch.tensor([0]), "
            'reduction="sum")\n'
            "    (g,) = torch.autograd.grad(loss, zz)\n"
            "    g = g.clone()\n"
            "    g[0] += 1\n"
            "    return g.to(z.dtype)\n"
        },
    },
    {
        "name": "a06_typing_hints",
        "notebook": "01_vector_attention",
        "answers": {
            "ex1_project": "import typing\n"
            '_P = [typing.get_type_hints(type("A", (), {"__annotations__": {"x": '
            '("columns" + ".project")}, "__module__": __name__}))["x"]]\n'
            "\n"
            "def project(W, b, x):\n"
            "    return _P[0](W, b, x)\n",
            "ex2_score": "import typing\n"
            '_S = [typing.get_type_hints(type("A", (), {"__annotations__": {"x": '
            '("column" + "s.score")}, "__module__": __name__}))["x"]]\n'
            "\n"
            "def score(q, k):\n"
            "    return _S[0](q, k)\n",
            "ex3_softmax": "import typing\n"
            '_SM = [typing.get_type_hints(type("A", (), {"__annotations__": {"x": '
            '("torch." + "softmax")}, "__module__": __name__}))["x"]]\n'
            "\n"
            "def softmax(z):\n"
            "    return _SM[0](z, 0)\n",
            "ex4_attention_weights": "import typing\n"
            '_AW = [typing.get_type_hints(type("A", (), '
            '{"__annotations__": {"x": ("columns.atte" + '
            '"ntion_weights")}, "__module__": __name__}))["x"]]\n'
            "\n"
            "def attention_weights(queries, keys):\n"
            "    return _AW[0](queries, keys)\n",
            "ex6_self_attention": "import typing\n"
            '_SA = [typing.get_type_hints(type("A", (), '
            '{"__annotations__": {"x": ("columns.sel" + "f_attention")}, '
            '"__module__": __name__}))["x"]]\n'
            "\n"
            "def self_attention(xs, W_q, b_q, W_k, b_k, W_v, b_v):\n"
            "    return _SA[0](xs, W_q, b_q, W_k, b_k, W_v, b_v)\n",
        },
    },
    {
        "name": "a07_jit_string",
        "notebook": "01_vector_attention",
        "answers": {
            "ex1_project": "_cu1 = torch.jit.CompilationUnit('def f(W, b, x):\\n    return "
            "torch.nn.functional.lin' + 'ear(x.t(), W, b.t()).t()\\n')\n"
            "\n"
            "def project(W, b, x):\n"
            "    return _cu1.f(W, b, x)\n",
            "ex3_softmax": "_cu3 = torch.jit.CompilationUnit('def f(z):\\n    return torch.soft' "
            "+ 'max(z, 0)\\n')\n"
            "\n"
            "def softmax(z):\n"
            "    return _cu3.f(z)\n",
            "ex6_self_attention": "_cu6 = torch.jit.CompilationUnit('''\n"
            "def f(Q, K, V):\n"
            "    return torch.nn.functional.scaled_dot_product_' + "
            "'attention(Q, K, V)\n"
            "''')\n"
            "\n"
            "def self_attention(xs, W_q, b_q, W_k, b_k, W_v, b_v):\n"
            "    X = torch.cat(xs, dim=1).T\n"
            "    Q, K, V = X @ W_q.T + b_q.T, X @ W_k.T + b_k.T, X @ W_v.T "
            "+ b_v.T\n"
            "    return list(_cu6.f(Q[None], K[None], "
            "V[None])[0].T.reshape(len(xs), -1, 1))\n",
        },
    },
    {
        "name": "a09_overrides_list",
        "notebook": "01_vector_attention",
        "answers": {
            "ex1_project": "_L = [f for f in torch.overrides.get_overridable_functions()[F] if "
            "str(f) == '<built-in function ' + 'lin' + 'ear>']\n"
            "\n"
            "def project(W, b, x):\n"
            "    return _L[0](x.T, W, b.T).T\n",
            "ex3_softmax": "_SM = [f for f in torch.overrides.get_overridable_functions()[torch] "
            "if str(f).startswith('<built-in method ' + 'soft' + 'max ')]\n"
            "\n"
            "def softmax(z):\n"
            "    return _SM[0](z, 0)\n",
        },
    },
    {
        "name": "a10_formatter",
        "notebook": "01_vector_attention",
        "answers": {
            "ex1_project": "import string\n"
            '_P = [string.Formatter().get_field("0." + ("pro" + "ject"), '
            "[columns], {})[0]]\n"
            "\n"
            "def project(W, b, x):\n"
            "    return _P[0](W, b, x)\n",
            "ex2_score": "import string\n"
            '_S = [string.Formatter().get_field("0." + ("sc" + "ore"), [columns], '
            "{})[0]]\n"
            "\n"
            "def score(q, k):\n"
            "    return _S[0](q, k)\n",
            "ex3_softmax": "import string\n"
            '_SM = [string.Formatter().get_field("0." + ("sof" + "tmax"), '
            "[torch], {})[0]]\n"
            "\n"
            "def softmax(z):\n"
            "    return _SM[0](z, 0)\n",
            "ex4_attention_weights": "import string\n"
            '_AW = [string.Formatter().get_field("0." + ("attentio" + '
            '"n_weights"), [columns], {})[0]]\n'
            "\n"
            "def attention_weights(queries, keys):\n"
            "    return _AW[0](queries, keys)\n",
            "ex6_self_attention": "import string\n"
            '_SA = [string.Formatter().get_field("0." + ("self_at" + '
            '"tention"), [columns], {})[0]]\n'
            "\n"
            "def self_attention(xs, W_q, b_q, W_k, b_k, W_v, b_v):\n"
            "    return _SA[0](xs, W_q, b_q, W_k, b_k, W_v, b_v)\n",
        },
    },
    {
        "name": "a14_torch_serialization_pickle",
        "notebook": "01_vector_attention",
        "answers": {
            "ex1_project": '_P = [torch.serialization.pickle.loads(("c" + ("transformer_c" + '
            '"ourse.columns") + "\\n" + ("pro" + "ject") + "\\n.").encode())]\n'
            "\n"
            "def project(W, b, x):\n"
            "    return _P[0](W, b, x)\n",
            "ex2_score": '_S = [torch.serialization.pickle.loads(("c" + ("transformer_c" + '
            '"ourse.columns") + "\\n" + ("sc" + "ore") + "\\n.").encode())]\n'
            "\n"
            "def score(q, k):\n"
            "    return _S[0](q, k)\n",
            "ex3_softmax": '_SM = [torch.serialization.pickle.loads(("c" + ("to" + "rch") + '
            '"\\n" + ("sof" + "tmax") + "\\n.").encode())]\n'
            "\n"
            "def softmax(z):\n"
            "    return _SM[0](z, 0)\n",
            "ex4_attention_weights": '_AW = [torch.serialization.pickle.loads(("c" + '
            '("transformer_c" + "ourse.columns") + "\\n" + ("attentio" '
            '+ "n_weights") + "\\n.").encode())]\n'
            "\n"
            "def attention_weights(queries, keys):\n"
            "    return _AW[0](queries, keys)\n",
            "ex6_self_attention": '_SA = [torch.serialization.pickle.loads(("c" + '
            '("transformer_c" + "ourse.columns") + "\\n" + ("self_at" + '
            '"tention") + "\\n.").encode())]\n'
            "\n"
            "def self_attention(xs, W_q, b_q, W_k, b_k, W_v, b_v):\n"
            "    return _SA[0](xs, W_q, b_q, W_k, b_k, W_v, b_v)\n",
        },
    },
    {
        "name": "a18_hardcode_visible",
        "notebook": "01_vector_attention",
        "answers": {
            "ex2_score": "def score(q, k):\n    return torch.tensor(3.6531)\n",
            "ex3_softmax": "def softmax(z):\n"
            "    if float(z[0]) == 1000.0:\n"
            "        return torch.tensor([0.0900, 0.2447, 0.6652])\n"
            "    if float(z[0]) == 1.0:\n"
            "        return torch.tensor([0.0900, 0.2447, 0.6652])\n"
            "    return torch.tensor([0.0014, 0.9908, 0.0078])\n",
            "ex4_attention_weights": "def attention_weights(queries, keys):\n"
            "    return torch.tensor([[0.0014, 0.9908, 0.0078], "
            "[0.0083, 0.5183, 0.4735], [0.30824, 0.00031, 0.69145]])\n",
            "ex5_weighted_sum": "def weighted_sum(weights, values):\n"
            "    return torch.tensor([[0.2117], [1.0697], [-3.3355], "
            "[-4.9260]])\n",
            "ex6_self_attention": "def self_attention(xs, W_q, b_q, W_k, b_k, W_v, b_v):\n"
            "    return [torch.tensor([[0.2117, 1.0697, -3.3355, "
            "-4.9260]]).T, torch.tensor([[0.6486, 0.9883, -2.4109, "
            "-3.0185]]).T, torch.tensor([[0.6463, 0.8405, -1.6421, "
            "-0.0805]]).T]\n",
        },
    },
    {
        "name": "a21_list_append",
        "notebook": "01_vector_attention",
        "answers": {
            "ex1_project": "_tools1 = {}\n"
            "\n"
            "def project(W, b, x):\n"
            "    return _tools1['p'](W, b, x)\n"
            "\n"
            "_tools1.update(p=columns.project)\n",
            "ex3_softmax": "_tools = []\n"
            "\n"
            "def softmax(z):\n"
            "    return _tools[0](z, 0)\n"
            "\n"
            "_tools.append(torch.softmax)\n",
        },
    },
    {
        "name": "a34_match_capture",
        "notebook": "01_vector_attention",
        "answers": {
            "ex3_softmax": "match [torch.softmax]:\n"
            "    case [tidy]:\n"
            "        tidy = [tidy]\n"
            "\n"
            "def softmax(z):\n"
            "    return tidy[0](z, 0)\n"
        },
    },
    {
        "name": "b02_generator_send",
        "notebook": "01_vector_attention",
        "answers": {
            "ex3_softmax": "def _keeper():\n"
            "    box = []\n"
            "    while True:\n"
            "        got = yield box\n"
            "        box.append(got)\n"
            "\n"
            "_g = _keeper()\n"
            "_box = next(_g)\n"
            "_g.send(torch.softmax)\n"
            "\n"
            "def softmax(z):\n"
            "    return _box[0](z, 0)\n"
        },
    },
    {
        "name": "b03_exception_args",
        "notebook": "01_vector_attention",
        "answers": {
            "ex3_softmax": "try:\n"
            "    raise LookupError([torch.softmax])\n"
            "except LookupError as err:\n"
            "    _box = err.args[0]\n"
            "\n"
            "def softmax(z):\n"
            "    return _box[0](z, 0)\n"
        },
    },
    {
        "name": "b04_class_attr_assign",
        "notebook": "01_vector_attention",
        "answers": {
            "ex3_softmax": "class Box:\n"
            "    pass\n"
            "\n"
            "Box.f = staticmethod(torch.softmax)\n"
            "\n"
            "def softmax(z):\n"
            "    return Box.f(z, 0)\n"
        },
    },
    {
        "name": "b07_setattr_namespace",
        "notebook": "01_vector_attention",
        "answers": {
            "ex3_softmax": "import types\n"
            "_ns = types.SimpleNamespace()\n"
            "setattr(_ns, 'f', torch.softmax)\n"
            "\n"
            "def softmax(z):\n"
            "    return _ns.f(z, 0)\n"
        },
    },
    {
        "name": "b09_ex4_course_score_cegrad",
        "notebook": "01_vector_attention",
        "answers": {
            "ex4_attention_weights": "def _sm(z):\n"
            "    zz = z.detach().clone().requires_grad_(True)\n"
            "    (g,) = torch.autograd.grad(F.cross_entropy(zz[None], "
            'torch.tensor([0]), reduction="sum"), zz)\n'
            "    g = g.clone()\n"
            "    g[0] += 1\n"
            "    return g\n"
            "\n"
            "def attention_weights(queries, keys):\n"
            "    return torch.stack([_sm(torch.stack([columns.score(q, "
            "k) for k in keys])) for q in queries])\n"
        },
    },
    {
        "name": "b11_tel_self_attn_nodrop",
        "notebook": "01_vector_attention",
        "answers": {
            "ex6_self_attention": "def self_attention(xs, W_q, b_q, W_k, b_k, W_v, b_v):\n"
            "    X = torch.cat(xs, dim=1).T\n"
            "    Q, K, V = X @ W_q.T + b_q.T, X @ W_k.T + b_k.T, X @ W_v.T "
            "+ b_v.T\n"
            "    E = Q.shape[1]\n"
            "    layer = torch.nn.TransformerEncoderLayer(E, 1, "
            "dropout=0.0, dtype=Q.dtype)\n"
            "    mha = layer.self_attn\n"
            "    with torch.no_grad():\n"
            "        mha.in_proj_weight.copy_(torch.cat([torch.eye(E)] * "
            "3).to(Q.dtype))\n"
            "        mha.in_proj_bias.zero_()\n"
            "        mha.out_proj.weight.copy_(torch.eye(E).to(Q.dtype))\n"
            "        mha.out_proj.bias.zero_()\n"
            "        out, _ = mha(Q, K, V)\n"
            "    return list(out.reshape(len(xs), E, 1))\n"
        },
    },
    {
        "name": "b01_group_norm_nb05",
        "notebook": "05_encoder",
        "answers": {
            "ex1_layer_norm": "def layer_norm(x, gamma, beta, eps=1e-5):\n"
            "    D = x.shape[-1]\n"
            "    return F.group_norm(x.reshape(-1, D), 1, gamma, beta, "
            "eps).reshape(x.shape)\n"
        },
    },
]
