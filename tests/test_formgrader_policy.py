"""Formgrader's script policy (autograder/grading/formgrader_policy.py), from nbgrader's templates.

The policy in a real Formgrader, in Chromium, is tested in test_hostile.py; these check what
the policy is made of, in a moment.
"""

from __future__ import annotations

import re

from autograder.grading.formgrader_policy import (
    SCRIPT,
    policy,
    sha256,
    template_scripts,
    templates_folder,
)

STATIC = "http://127.0.0.1:8888/formgrader/static/"


def allowed_hashes(page: str) -> set[str]:
    return set(re.findall(r"'sha256-[^']+'", policy(page, STATIC)))


def test_every_inline_script_of_nbgraders_templates_has_a_pattern():
    inline = [
        body
        for template in templates_folder().rglob("*.tpl")
        for attributes, body in SCRIPT.findall(template.read_text())
        if "src=" not in attributes
    ]
    inline += [
        body
        for template in templates_folder().rglob("*.j2")
        for attributes, body in SCRIPT.findall(template.read_text())
        if "src=" not in attributes
    ]
    scripts, handlers = template_scripts()
    assert len(inline) >= 10 and len(scripts) == len(inline)  # none with template logic
    assert {sha256("toggle_name(true);"), sha256("toggleAllNames()")} <= handlers


def test_a_page_s_template_scripts_are_allowed_and_nothing_else():
    base = next(
        body
        for _, body in SCRIPT.findall((templates_folder() / "base.tpl").read_text())
        if "{{ base_url }}" in body
    )  # var base_url = "{{ base_url }}";
    ours = base.replace("{{ base_url }}", "/user/ann")
    forged = [
        base.replace("{{ base_url }}", value)
        for value in ('/"; alert(1); "', '\\"; alert(1)//', "</script><script>alert(1)")
    ]
    page = "".join(f"<script>{body}</script>" for body in [ours, "alert(1)", *forged])
    assert allowed_hashes(page) - template_scripts()[1] == {sha256(ours)}


def test_the_policy_has_no_unsafe_inline_and_names_formgraders_static_folder_only():
    text = policy("<p>nothing</p>", STATIC)
    sources = text.split(";")[0].split()
    assert sources[:2] == ["script-src", STATIC] and "'unsafe-inline'" not in sources
    assert "'self'" not in sources  # a student's file served by Jupyter is same-origin too
    assert "object-src 'none'" in text and "base-uri 'none'" in text
