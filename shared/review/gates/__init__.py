"""The committer's review gates.

* one module per gate (``secret``, ``status_shape``, ``inner_outer``, ``self_reference``,
  ``summoning``, ``gradient``, ``dossier``): its ``RULE_ID`` and a pure
  ``check(claim, ctx) -> Finding | None``;
* ``base``: what every gate is (``Finding``, ``ReviewContext``, ``Gate``);
* ``predicates``: the tests more than one gate applies (no gate imports another);
* ``rules``: the rule catalog, one record per rule (its reason, why, what it reads and
  its examples), from which every gate builds its findings;
* ``registry``: rule id -> gate, the gate set of each file kind, and ``review_claim`` /
  ``review_ruling`` / ``review_rules``, which run a set over one line;
* ``second_opinion``: the precedent judge's last word on board lines.

This package's ``__init__`` imports nothing, so importing one gate loads no other.
"""
