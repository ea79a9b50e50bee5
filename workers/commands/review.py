"""`subcon review PATH... [--as KIND] [--json]`: the committer's gates over files, without git;
`subcon review --rules [--json]`: the rule catalog."""

from __future__ import annotations

from pathlib import Path

import click

from shared.jsontext import pretty, shown
from shared.review.allowlist import FileKind, kind_for_review
from shared.review.gates.rules import RULES, examples
from shared.review.reviewer import LineDecision, review_paths
from workers.options import json_option

KINDS = [k.value for k in FileKind]


@click.command(name="review")
@click.argument("files", nargs=-1, type=click.Path(path_type=Path))
@click.option(
    "--as",
    "as_kind",
    type=click.Choice(KINDS),
    help="apply this file kind's gate set to every FILE instead of the one its path implies",
)
@click.option(
    "--rules",
    "list_rules",
    is_flag=True,
    help="list every review rule (id, gate, reason, examples) instead of reviewing FILES",
)
@json_option
def command(files: tuple[Path, ...], as_kind: str | None, list_rules: bool, as_json: bool) -> int:
    """Review every logical line of FILES; exit 1 when any line is rejected.

    The gate set depends on the file kind: board rules for a CLAUDE.md directly under a
    memory/ dir, dossier rules under memory/entities/ or memory/topics/, the kernel's
    allowlist elsewhere (any other CLAUDE.md is a partition prompt, anything else a
    dossier). The kind applied is printed per file; --as overrides it.

    Each rejected line names the rule that decided it (gate.rule, e.g.
    status-shape.pending-work), the reading of the line it decided on when its gate read
    the line more than one way (e.g. [as written]) and its reason; a line the precedent
    judge passed over a rule names the rule it overruled, and a line that passed only as
    its gate reread it names that reading and the rule it failed as written.

    --json prints one JSON array: an object per logical line, with the kind applied, the
    deciding (or overruled) rule's id in "rule" and its reading in "reading".

    --rules lists the rule catalog instead: each rule's id, gate, reason and how many
    examples (the pins in tests/review/pins/) it has each way; with --json one object per
    rule.
    """
    if list_rules:
        if files or as_kind:
            raise click.UsageError("--rules lists the rules: leave out FILES and --as")
        return _list_rules(as_json)
    if not files:
        raise click.UsageError("name at least one FILE to review (or --rules)")
    forced = FileKind(as_kind) if as_kind else None
    kinds = {str(f): forced or kind_for_review(f.absolute().as_posix()) for f in files}
    decisions = review_paths(list(files), as_kind=forced)
    if as_json:
        rows = [{**d.to_json(), "kind": kinds[d.file].value} for d in decisions]
        click.echo(pretty(rows), nl=False)
        return 1 if any(d.rejected for d in decisions) else 0
    for f in files:
        mine = [d for d in decisions if d.file == str(f)]
        rejected = sum(1 for d in mine if d.rejected)
        how = "--as" if forced else "from its path"
        click.echo(
            f"{shown(str(f))}: reviewed as {kinds[str(f)].value} ({how}): "
            f"{len(mine) - rejected} approved, {rejected} rejected"
        )
        for d in mine:
            if d.rejected:
                click.echo(f"{shown(d.file)}:{d.line}: reject {_rule(d)} `{d.reason}`: {d.text}")
            elif d.overruled:
                click.echo(f"{shown(d.file)}:{d.line}: approve ({d.reason}): {d.text}")
            elif d.reading:
                click.echo(
                    f"{shown(d.file)}:{d.line}: approve [{d.reading}] over {d.rule} as written: "
                    f"{d.text}"
                )
    approved = sum(1 for d in decisions if not d.rejected)
    click.echo(f"{approved} approved, {len(decisions) - approved} rejected")
    return 1 if any(d.rejected for d in decisions) else 0


def _rule(d: LineDecision) -> str:
    """The deciding rule's id, and the reading it decided on when there was a choice."""
    return f"{d.rule} [{d.reading}]" if d.reading else str(d.rule)


def _list_rules(as_json: bool) -> int:
    """``--rules``: every catalogued rule, with its examples counted each way."""
    found = examples()
    counts = {
        rule.id: (
            (len(found[rule.id].reject), len(found[rule.id].approve))
            if rule.id in found
            else (0, 0)
        )
        for rule in RULES.values()
    }
    if as_json:
        rows = [
            {
                "rule": rule.id,
                "gate": rule.gate,
                "reason": rule.reason,
                "why": rule.why,
                "matches": list(rule.matches),
                "languages": list(rule.languages),
                "examples": {"reject": counts[rule.id][0], "approve": counts[rule.id][1]},
                "fitted": rule.fitted,
            }
            for rule in RULES.values()
        ]
        click.echo(pretty(rows), nl=False)
        return 0
    width = max(len(rule_id) for rule_id in RULES)
    for rule in RULES.values():
        reject, approve = counts[rule.id]
        told = (
            "examples: the labelled corpus (precedent judge)"
            if rule.fitted
            else f"examples: {reject} reject, {approve} approve ({', '.join(rule.languages)})"
        )
        click.echo(f"{rule.id:<{width}}  {rule.reason}  {told}")
    click.echo(f"{len(RULES)} rules")
    return 0
