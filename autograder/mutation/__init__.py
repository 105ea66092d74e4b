"""Mutation analysis: `python -m autograder.mutation`. Typed one-mistake variants of each
reference answer (mutants) and how many of them the checks catch (analysis).

    mutants      mutants(): every rewrite of a solution cell, in a fixed order, each once
    expressions  the rewrites at one node, by its type (REWRITES)
    operations   ... of an arithmetic operation
    calls        ... of a call
    steps        the rewrites that change several steps of the cell
    exchanges    ... an operand at every use (roles exchanged, a slice left out)
    statements   ... what a value is made of (a reduction, a residual, a term, an argument)
    repeats      ... of what the answer repeats (calls, loop passes, batch items)
    syntax       reading the tree: a fixed walk, literals, code in descriptions, the scope
    operators    the tables the rewrites draw on (roles, swaps, axes, words)
    families     one number of the reference freed and fitted to a wrong answer
    free_numbers ... where those numbers are: the cell instrumented
    candidates   ... the values tried at one (sizes in scope, simple changes), in words
    variants     the mutants and families as working functions, for grading to name
    analysis     how many mutants each exercise's checks kill
    equivalence  whether a mutant that keeps its marks is the same function written otherwise
    running      a notebook's cells run as grading runs them, an answer tried in a fork
    context      the grading context, made here as make grade makes it
    measure      answers graded here as make grade grades them, results as records
    power        the sample and blind answers: lost points, named, named wrongly
"""
