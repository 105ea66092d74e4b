"""The seeded examples reproduce the source material's printed numbers."""

from __future__ import annotations

import torch

from transformer_course import examples
from transformer_course.attention import attend_one, attention_weights, explicit_attention

SOURCE_X = [
    [0.8033, 0.1748, 0.0890, -0.6137],
    [0.0462, -1.3683, 0.3375, 1.0111],
    [-1.4352, 0.9774, 0.5220, 1.2379],
]
SOURCE_SCORES = [[-2.8869, 3.6531, -1.1920], [0.0760, 4.2115, 4.1211], [0.8152, -6.1015, 1.6231]]
SOURCE_WEIGHTS = [
    [0.0014, 0.9908, 0.0078],
    [0.0083, 0.5183, 0.4735],
    [3.0824e-01, 3.0549e-04, 6.9145e-01],
]
SOURCE_OUTPUTS = [
    [0.2117, 1.0697, -3.3355, -4.9260],
    [0.6486, 0.9883, -2.4109, -3.0185],
    [0.6463, 0.8405, -1.6421, -0.0805],
]


def example_rows():
    X = torch.cat(examples.column_vectors(), dim=1).T
    p = examples.projection_parameters()
    return [X @ p[f"W_{r}"].T + p[f"b_{r}"].T for r in "qkv"]


def close(actual, expected, atol=1e-4):
    torch.testing.assert_close(actual, torch.tensor(expected), atol=atol, rtol=0)


def test_inputs_match_the_printed_vectors_and_global_seeding():
    close(torch.cat(examples.column_vectors(), dim=1).T, SOURCE_X)
    torch.manual_seed(3)
    assert all(torch.equal(torch.randn(4, 1), x) for x in examples.column_vectors())
    torch.manual_seed(0)
    drawn = [torch.randn(4, 4) for _ in range(3)] + [torch.randn(4, 1) for _ in range(3)]
    assert all(
        torch.equal(a, b)
        for a, b in zip(drawn, examples.projection_parameters().values(), strict=True)
    )


def test_scores_weights_and_outputs_match_the_source():
    Q, K, V = example_rows()
    close(Q @ K.T / 2, SOURCE_SCORES)
    close(attention_weights(Q, K), SOURCE_WEIGHTS)
    output, _ = explicit_attention(Q, K, V)
    close(output, SOURCE_OUTPUTS)
    close(torch.stack([attend_one(q, K, V) for q in Q]), SOURCE_OUTPUTS)


def test_the_lookup_table_gives_the_three_worked_answers():
    keys, values = examples.lookup_table()
    queries = torch.tensor([[0.0, 10, 0], [0, 0, 10], [10, 10, 0]])
    answers = torch.stack([attend_one(q, keys, values) for q in queries])
    close(answers, [[10, 0, 2], [550, 5.5, 0], [5.5, 0, 1.5]])


def test_examples_leave_the_global_random_state_alone():
    torch.manual_seed(123)
    expected = torch.rand(3)
    torch.manual_seed(123)
    examples.column_vectors(5, 6, seed=1)
    examples.projection_parameters(6, 2, seed=2)
    assert torch.equal(torch.rand(3), expected)
