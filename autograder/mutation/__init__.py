"""Mutation analysis: `python -m autograder.mutation`. Typed one-mistake variants of each
reference answer (mutants) and how many of them the checks catch (analysis)."""
