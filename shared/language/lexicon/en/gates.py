"""English phrases the review gates look for beyond clause analysis (data only).

Most are sentence shapes rather than word lists, so they are written as patterns;
each gate searches a concept over every registered language.
"""

from __future__ import annotations

from shared.language.lexicon.concept import Entry, Pattern, words

_PRAISE = (
    r"modern|powerful|efficient|sophisticated|comprehensive|production-quality|"
    r"production-ready|seamless|robust|cutting-edge|state-of-the-art|best-in-class|"
    r"intuitive|elegant|blazing|world-class|enterprise-grade|innovative|revolutionary"
)
# The design qualities a benefit claim says rise or fall ("improves testability").
_QUALITY = (
    r"maintainability|testability|flexibility|scalability|reliability|readability|modularity|"
    r"extensibility|reusability|robustness|coupling|security|performance|stability|"
    r"separation of concerns|code quality|developer experience|data consistency|data integrity"
)
# The quality ends its noun phrase: "ensures security." is a claim, "ensures security
# headers are set" a fact about headers.
_QUALITY_END = (
    r"(?=\s*(?:$|[,.;:)]|(?:and|or|between|of|for|in|on|under|with|across|throughout|while)\b))"
)
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"


def _shape(regex: str, why: str, *more: Entry) -> tuple[Entry, ...]:
    """One pattern, and any more entries of the same concept after it."""
    return (Pattern(regex, why, bounded=False), *more)


CONCEPTS: dict[str, tuple[Entry, ...]] = {
    # ------------------------------------------------------------ summoning
    # The words that join the items of a list a prohibition governs ("skip, or delete").
    "list_joiner": words("or and nor"),
    # A clause that opens on one of them continues the clause before it ("… `print()` or
    # `console.log` …", split at the brackets): the rest of a prohibited list.
    "continuing_lead": _shape(
        r"^\W*(?:or|nor|including|incl\.)(?=\W|$)", "a clause opening on 'or' or 'including'"
    ),
    # Prohibitions without a leading "never"/"don't": a verb taking "no"/"zero" ("Leave
    # NO todos", "Write zero TODO comments"), "No X" opening the clause ("NO placeholder
    # code"; "no more than 3" is a limit), "under no circumstances", and a predicate that
    # forbids its subject ("Skipping tests is not allowed", "… are forbidden").
    "prohibition_form": _shape(
        r"^\W*(?:(?:please|always|just|simply)\s+)?(?:(?:leave|use|add|write|make|introduce|"
        r"include|ship|commit|allow|accept|keep|put|create|emit|print|output|generate|produce|"
        r"return|have|do)\s+)?(?:no|zero)\s+(?!(?:more|less|longer|later|fewer|earlier|"
        r"need|matter|one|further|other)\b)\w"
        r"|\b(?:under no circumstances|in no case|at no time|by no means)\b"
        r"|\b(?:is|are|be)\s+(?:strictly\s+|absolutely\s+)?(?:not\s+(?:allowed|permitted|"
        r"acceptable|ok|okay)|forbidden|prohibited|banned|disallowed|off-limits)\b",
        "a prohibition worded with 'no', 'zero' or a forbidding predicate",
    ),
    # "Forbidden: force-pushing …", "Prohibited: storing secrets": a label that forbids
    # what follows it.
    "prohibition_label_word": words("forbidden prohibited banned disallowed avoid never don't"),
    # "Only touch the schema when explicitly asked", "Add dependencies only when the user
    # requests it": a restriction stated as an exception is a prohibition with no
    # replacement ("don't unless asked").
    "exception_only": _shape(
        r"\bonly\b[^.;]{0,60}?\b(?:when|if|after|once|upon|on)\s+(?:(?:the|a|you|you're|"
        r"you've|are|been|have|has|user|users|we|someone|they|he|she|it|is|was|being|"
        r"explicitly|specifically|directly|expressly|clearly|actually)\s+)*(?:ask|asks|asked|"
        r"request|requests|requested|tell|tells|told|instruct|instructs|instructed|prompt|"
        r"prompts|prompted|approve|approves|approved|authori[sz]ed|permitted)\b"
        r"|\bonly\s+(?:on|upon)\s+(?:an?\s+)?(?:explicit\s+|direct\s+)?(?:request|instruction|"
        r"approval)\b",
        "'only when asked': a restriction stated as an exception",
    ),
    # "Don't X, because the docs change", "…, otherwise Y breaks": a reason or a
    # consequence is no action to take instead.
    "reason_lead": _shape(
        r"^\W*(?:because|since|as|given that|otherwise|or else|so that)\b",
        "a reason or a consequence opening a clause",
    ),
    # "… every command must be able to run unattended": a capability required of the
    # forbidden thing is a quality, not something to do instead.
    "capability_modal": _shape(
        r"\b(?:must|should|needs? to|has to|have to)\s+(?:always\s+)?be\s+able\s+to\b",
        "a capability required, not an action",
    ),
    # "Enforce strict typing and avoid `any`": a verb of upholding names a standard, a
    # quality, unless it places the thing ("keep secrets in env vars") or names code.
    "upholding_verb": words(
        "enforce enforces ensure ensures maintain maintains uphold preserve keep"
    ),
    # The qualities an upheld standard is made of, beside the evaluative words.
    "upheld_quality": words("strict strictly strong tidy lean neat correct consistent"),
    "upheld_placement": _shape(
        r"\b(?:in|into|under|inside|within|to|at|on|from|via|with|through|below|above|"
        r"behind)\s+\S|\d",
        "a place, a means or a number after the upheld thing",
    ),
    # "Enforce strict typing and avoid 'any'", "…, never …": a prohibition joined inside
    # a clause after a direction.
    "inner_prohibition": _shape(
        r"\s(?:and|but|&)\s+(?:(?:also|then|always)\s+)?(?:never|avoid|don't|do not|must not|"
        r"refrain from|stop)\b",
        "a prohibition joined by 'and' inside a clause",
    ),
    # "Avoid svg and use emojis for icons", "Avoid magic numbers and define constants": a
    # verb of choosing or of making the substitute, joined by "and" inside a prohibition,
    # says what to do instead ("Never commit and push to main" forbids both).
    "joined_replacement": _shape(
        r"\s(?:and|&)\s+(?:instead\s+|rather\s+)?(?:use|prefer|choose|pick|favou?r|adopt|"
        r"switch to|define|extract|introduce|declare|wrap|move)\b",
        "a verb of choosing or of making the substitute joined inside a prohibition",
    ),
    # "Avoid deep nesting by using early returns": after "avoid"/"prevent" a "by" gerund is
    # how to keep clear of it ("Never bypass the hook by using --no-verify" is the way
    # forbidden, after "never").
    "avoiding_means": _shape(
        r"^\W*(?:avoid|prevent)\b.*?\sby\s+(?!not\b)[a-z]+ing\b",
        "'avoid X by doing Y': the means of avoiding",
    ),
    # "Stop at each phase boundary", "Stop and ask": "stop" before a place, a time or
    # "and" halts the work at a point, which directs; "stop adding X" forbids.
    "halting_stop": _shape(
        r"^\W*stop\s+(?:at|and|when|after|before|once|if|on|here|there|until)\b",
        "'stop' halting at a point, not forbidding a gerund",
    ),
    # ------------------------------------------------------------ gradient
    # "EncoreHub is an AI chat desktop app aggregating …", "This is a Monorepo with two
    # folders": what the project or a part of it is, told; the clauses after it describe it
    "description_lead": _shape(
        r"^\W*(?i:(?:this|the)\s+(?:project|repo(?:sitory)?|app(?:lication)?|codebase|tool|library|"
        r"service|system|package|plugin|site|website|monorepo)\s+is\s+an?\s)"
        r"|^\W*(?i:this\s+is\s+an?\s+(?:[\w-]+\s+){0,3}?(?:project|repo(?:sitory)?|app(?:lication)?|"
        r"codebase|tool|library|service|system|package|plugin|site|website|monorepo)\b)"
        r"|^\W*[A-Z][\w.-]*(?:\s[A-Z][\w.-]*){0,3}\s+is\s+an?\s+(?:[\w-]+\s+){0,5}?(?:app|"
        r"application|tool|library|framework|platform|service|system|project|plugin|gateway|"
        r"website|site|cli|sdk|engine|bot|extension|dashboard|game)\b",
        "what the project or a part of it is, told",
    ),
    # "Fix root cause with minimal impact", "Use meaningful names", "don't reinvent the
    # wheel", "keep the code clean and readable": a maxim any assistant could be told, with
    # nothing of this project's in it (gradient.py reads the rest of the line for that)
    "generic_maxim": _shape(
        r"reinvent(?:ing)? the wheel|don'?t repeat yourself|avoid (?:code )?duplication"
        r"|no duplicate (?:code|logic)|keep it simple|\bkiss\b|\byagni\b"
        r"|\bdo(?:es)? one thing\b"
        r"|(?:meaningful|descriptive) (?:variable |function )?names"
        r"|names? (?:should )?reveal intent|self-documenting code"
        r"|\b(?:write|keep|produce|ensure)\s+(?:the\s+)?code\s+(?:is\s+)?(?:clean|readable|"
        r"maintainable|concise|simple)"
        r"|\b(?:clean|readable|maintainable|concise)(?:,?\s+(?:and\s+)?(?:clean|readable|"
        r"maintainable|concise|simple|efficient|well-documented|modular|testable))*\s+code\b"
        r"|minimal (?:possible )?(?:diff|changes?|impact)|smallest (?:possible )?(?:diff|change)"
        # "Follow TypeScript best practices with strict typing", "SOLID、DRY、关注点分离": a
        # practice named by its fame, or principles listed as slogans
        r"|\bfollow\s+(?:[\w.+#-]+\s+){0,2}?best\s+practices\b"
        r"|\b(?:solid|dry|kiss|yagni)\b(?:\s*[、,/]\s*(?:solid|dry|kiss|yagni|关注点分离|"
        r"separation of concerns)\b)+"
        r"|root cause"
        r"|(?:follow|match|adhere to|respect|stay consistent with|be consistent with)\s+(?:the\s+)?"
        r"(?:existing|current|established)\s+(?:code\s+)?(?:style|patterns?|conventions?)"
        r"|run tests (?:frequently|often|regularly)|(?:ensure|introduce) (?:there are )?no "
        r"regressions"
        # "Understand the code before changing it", "Favor readability over cleverness"
        r"|\b(?:fully\s+|thoroughly\s+)?understand\b[^.;]{0,40}?\b(?:first|before\s+(?:changing|"
        r"coding|editing|modifying|touching|you))\b|\bover cleverness\b|\bboring (?:code|"
        r"solutions?|technology)\b",
        "a maxim any assistant could be told",
    ),
    # ------------------------------------------------------------ dossier
    "internal_state": _shape(
        r"\b(?:kernel lock|index\.lock|lock file|lease|fence|inbox items?|\.pending|"
        r"pending items?|session[_ ]key|session id|byte offset|watermark|run/locks|"
        r"scan-gap|\.scan\.json|scan progress|last scanned|partition state|backoff|cooldown|"
        r"cooldown_ticks|board_layer_hash|source_line_hash|meta-memory-state)\b",
        "the runtime's own bookkeeping: locks, inbox items, offsets, scan state",
    ),
    "repair_note": _shape(
        r"\b(?:todo|fixme|xxx|tbd)\b"
        r"|\b(?:fix|repair|rewrite|merge|split|rename|clean up|cleanup|re-?run|re-?scan|rebuild|"
        r"regenerate|update|delete|remove|converge|sink)\s+(?:this|the|that)\s+(?:dossier|file|"
        r"line|link|pointer|section|node|entry|board line|heading|note|card)\b"
        r"|\b(?:needs?(?: to be)?|should be|must be|to be)\s+(?:fixed|repaired|rewritten|merged|"
        r"split|renamed|cleaned up|updated|removed|deleted|converged|rebuilt|regenerated)\b"
        r"|\b(?:broken|dead|stale) (?:link|card|pointer|reference)\b",
        "a to-do marker, or a repair verb on the memory file itself",
    ),
    "absolute": _shape(
        r"\b(?:always|never|everyone|everybody|nobody|no one|definitely|certainly|undoubtedly|"
        r"obviously|clearly|guaranteed|without (?:a )?doubt|for sure|the best|the worst|"
        r"the only(?! (?:key|index|identifier|id)\b)|probably|surely|secretly|deep down|"
        r"is trying to|must be|must have)\b"
        r"|\ball (?:users|people|customers|clients)\b",
        "an absolute or speculative assertion",
    ),
    "benefit_claim": (
        Pattern(
            rf"\b(?:{_PRAISE})\b[^.;]{{0,60}}\b(?:{_PRAISE})\b",
            "two words of praise for the thing",
            bounded=False,
        ),
    ),
    # A design quality said to rise or fall, or to be provided or coped with well, and
    # nothing that shows it; a code span names the concrete thing and waives it.
    "quality_claim": (
        # "improves testability", "allows for better maintainability", "reduces coupling":
        # a design quality said to rise or fall, with nothing that shows it
        Pattern(
            rf"\b(?:improves?|improving|enhances?|increases?|boosts?|maximi[sz]es?|promotes?|"
            rf"(?:allows?|enables?|makes?) for (?:better|greater|improved|easier)|"
            rf"(?:leads?|contributes?) to (?:better|greater|improved)|reduces?|minimi[sz]es?|"
            rf"ensures?)\s+(?:(?:\w+,?\s+){{0,2}}?)(?:{_QUALITY})\b{_QUALITY_END}",
            "a design quality said to improve, with nothing that shows it",
            bounded=False,
        ),
        # "bcrypt + session tokens provide robust security": praise of a quality provided
        Pattern(
            rf"\b(?:provides?|offers?|delivers?|gives?|brings?)\s+(?:(?:{_PRAISE}|strong|"
            rf"excellent|great|superior|solid|high|better|reliable)\s+)+(?:{_QUALITY})\b{_QUALITY_END}",
            "a quality provided, praised",
            bounded=False,
        ),
        # "SQLite handles concurrent users effectively": how well it copes, unmeasured
        Pattern(
            r"\bhandles?\b[^.;]{0,40}?\b(?:effectively|efficiently|seamlessly|gracefully|"
            r"robustly|smoothly|reliably|with ease)\b"
            # "Handles failures without crashing"
            r"|^\W*handles?\s+(?:[\w-]+\s+){0,3}?without\s+(?:crashing|failing|errors?|downtime|"
            r"data loss|issues|problems)\W*$",
            "how well it copes, with nothing that shows it",
            bounded=False,
        ),
    ),
    # A measured figure: evidence for the quality a sentence praises ("p95 40 ms", "3x").
    "measurement": _shape(
        r"\b\d+(?:\.\d+)?\s*(?:ms|s|sec|seconds|%|x|rps|qps|req/s|kb|mb|gb)(?!\w)",
        "a measured figure",
    ),
    # A quality of fit that names no measure ("enforce appropriate permission checks",
    # "handled with proper safeguards"): which checks, which safeguards, is left out.
    "unspecified_fit": _shape(
        r"\b(?:appropriate(?:ly)?|proper(?:ly)?(?! nouns?\b)|adequate(?:ly)?|suitabl[ey]|"
        r"sufficient(?:ly)?|as appropriate|where (?:appropriate|applicable))\b",
        "a quality of fit with no measure",
    ),
    # "Natural language processing for pattern detection": a capability named for a
    # purpose, both as common nouns of activity, nothing that does it named
    "capability_bullet": (
        Pattern(
            r"^[\W\d.]*[A-Z][a-z-]+(?: [a-z-]+){0,4}?(?: [a-z-]+(?:ing|tion|sion|sis|ment|ance|"
            r"ence))s? for (?:[a-z-]+ ){0,3}?[a-z-]+(?:ing|tion|sion|sis|ment|ance|ence|ity|"
            r"ities)s?\W*$",
            "a capability named for a purpose, nothing that does it",
            bounded=False,
        ),
    ),
    # "**Value Proposition**: Ensures … maintains context": a field whose theme is the
    # benefit claimed
    "benefit_label": _shape(
        r"(?i:^\W*(?:(?:key|main|core)\s+)?(?:value propositions?|benefits?|advantages?|"
        r"selling points?|how (?:our|the|this) (?:product|tool|system|app|feature) helps)"
        r"\W{0,3}[:：])",
        "a field naming a benefit",
    ),
    # "Secure authentication", "Optimized caching to reduce API costs", "User-friendly error
    # messages": a short phrase led by a quality, nothing that has it shown (no code span,
    # figure, label or clause of its own)
    "quality_bullet": _shape(
        # ("proper nouns", "regular expressions", "clean builds" name kinds, not qualities)
        r"^[*_\s]*(?i:secure|user-friendly|optimi[sz]ed|efficient|minimal|robust|scalable|"
        r"reliable|comprehensive|seamless|intuitive|enhanced|improved|high-performance|"
        r"lightweight|responsive|flexible|graceful|effective|excellent|superior|great|beautiful|rapid|"
        r"stunning|polished)"
        r"(?:,? [A-Za-z][\w.+#-]*){1,6}[.*_]*$",
        "a short phrase led by a quality",
    ),
    "placeholder_noun": _shape(
        r"(?i:^\W*+(?:[a-z-]+\s+){0,2}(?:requirements|standards|considerations|guidelines|"
        r"constraints|goals|notes|overview|details|features|metrics|limitations|challenges)\W*$)",
        "a heading-like noun phrase with no content",
    ),
    "provenance": _shape(
        r"\b(?:source|evidence|per|see|via|from|according to|cited|citing|fragment)\b\s*[:：]?",
        "a word naming where a fact comes from",
    ),
    "step_section": _shape(
        r"(?i:condition|procedure|steps?|references?|how|usage|checklist|trigger)",
        "a section whose heading supplies the trigger (any part of the heading)",
    ),
    # A heading whose whole theme is the state of the work ("## Current Focus", "## Recent
    # Changes", "## Next Steps", "## Completed"): what sits under it records work, not
    # behaviour. "Known issues" and "Lessons" are left out: rules live there too.
    "status_section": _shape(
        r"^\W*(?:\d+(?:\.\d+)*[.)]?\s*)?(?:(?:immediate|most|major|latest|short-term|near-term|"
        r"main)\s+)?(?:(?:current\s+(?:focus|status|state|work|tasks?|sprint|goals?|objectives?|"
        r"context|"
        r"phase|progress|priorities|milestone)|recent\s+(?:changes|updates|work|progress|activity)"
        # "Development Progress", "Progress Log", "Session Notes", "Sprint Goals", "Today's Work"
        r"|(?:development|project|implementation|overall|task|work|sprint|weekly|daily)\s+progress"
        r"|progress\s+(?:log|notes|report|update|tracking|summary)|session\s+(?:notes|summary|log|"
        r"recap)|sprint\s+goals?|today'?s?\s+(?:work|progress|tasks|focus)"
        r"|next\s+steps?|what\s+works|what'?s\s+(?:left|next|remaining)|active\s+(?:context|work|"
        r"tasks?|issues)|recent\s+(?:fixes|accomplishments|milestones)"
        r"|open\s+(?:tasks|items|work)|completed\s+(?:tasks?|work|items|features|milestones|phases)"
        r"|upcoming\s+(?:phases|work|tasks|milestones)|remaining\s+(?:work|tasks|items)"
        r"|what\s+still\s+needs\s+(?:work|doing|to\s+be\s+done)"
        r"|(?:features|functionality|work|tasks)\s+(?:implemented|completed|done|shipped)"
        r"|(?:implemented|shipped|finished)\s+(?:features|functionality|work|tasks)"
        r"|(?:future|product|project)\s+roadmap|future\s+(?:work|plans|features|enhancements|"
        r"improvements))"
        r"(?:\W|$)"
        # one word is the whole heading: "## Status codes" or "## Done criteria" are not
        r"|(?:progress|status|completed|done|to-?dos?|milestones?|change\s?log|work\s+log|"
        r"session\s+log|roadmap|backlog)(?:\s*[(（][^)）]*[)）])?\W*$)",
        "a heading naming the state of the work",
    ),
    # "## Notes", "## General", "## Misc": a heading that names no domain (the whole heading)
    "generic_section": _shape(
        r"(?i:^\W*(?:\d+(?:\.\d+)*[.)]?\s*)?(?:(?:general|other|misc(?:ellaneous)?|additional|"
        r"important|key)\s+)?(?:notes?|general|overview|misc(?:ellaneous)?|other|rules|"
        r"guidelines|instructions|summary|details|info(?:rmation)?|reminders?|tips)\W*$)",
        "a heading naming no domain",
    ),
    # "## Don'ts", "## Forbidden Commands", "## Never Commit": a heading that lists what
    # not to do (the whole heading; "## Avoiding flaky tests" is a topic)
    "prohibition_section": _shape(
        r"(?i:^\W*(?:\d+(?:\.\d+)*[.)]?\s*)?(?:don'?ts|do not(?: do)?|never(?: do)?|"
        r"things to avoid|what not to do|anti-?patterns|prohibited|forbidden|"
        r"(?:never|do not|don'?t)\s+(?:commit|use|edit|touch|run|change|modify|add)|"
        r"(?:forbidden|prohibited|banned)\s+(?:commands|actions|operations|patterns|practices|"
        r"apis|tools)|avoid)\W*$)",
        "a heading listing what not to do",
    ),
    # "**Decision:** Replaced the plan of using MCP with …", "Rationale: …": a label filing a
    # settled decision or its reason, whose body may tell the change it made
    "settled_label": _shape(
        r"(?i:^\W*(?:(?:key|final|architecture|architectural|design)\s+)?(?:decisions?|decided|"
        r"rationale|why|reason)\W{0,3}[:：])",
        "a label filing a settled decision or its reason",
    ),
    # "configured Postgres 15 as the primary store": a setting recorded, in a field's value
    "setup_value": _shape(
        r"^\W*(?:configured|set up|set to)\b",
        "a setting recorded",
    ),
    # "**Rule**: …", "Prevention: …", "Lesson: …": a field naming the line as the rule of a
    # lesson
    "rule_label": _shape(
        r"(?i:^\W*(?:(?:the|key|core|new)\s+)?(?:rules?|prevention|lessons?|takeaway|guideline|"
        r"principle|policy)\W{0,3}[:：])",
        "a label naming the line as a rule",
    ),
    # A heading whose theme is the memory itself ("## Memory Bank Structure", "## Memory
    # files", "## How to use this file"): what sits under it keeps the memory. "Memory
    # management" and "memory system" name the program's memory too, so they are left out.
    "memory_section": _shape(
        r"memory[- ]bank|\bthis (?:file|document)\b|\bmemory\s+(?:maintenance|files?|rules|"
        r"protocol|hygiene|updates?)\b|\b(?:updating|maintaining|keeping)\s+"
        r"(?:the\s+|this\s+|your\s+)?(?:memory|memories)\b",
        "a heading naming the memory files or their upkeep",
    ),
    # "## When to add entries", "## Entry format", "## Meta-Lessons (about this KB itself)":
    # a heading on writing the file's own entries
    "upkeep_section": _shape(
        r"\b(?:when|how) to (?:add|write|update|record|log) (?:an? |new )?(?:entry|entries|"
        r"lessons?|learnings?|memor(?:y|ies))\b|\bentry format\b|\b(?:adding|writing|"
        r"recording) (?:new )?(?:entries|lessons|learnings)\b|\babout this (?:file|kb|"
        r"knowledge base|document)\b",
        "a heading on writing the file's own entries",
    ),
    "entity_ref": words("she he they her him his hers their them its"),
    "instruction_lead": _shape(
        r"^(?:always|never|should|must|do not|don't)\b", "a modal opening the line"
    ),
    # ------------------------------------------------------------ self-reference
    "memory_artefact": _shape(
        r"\bmemory (?:board|system|file|files|layer|maintenance|pipeline|line|lines|entry|"
        r"entries|store|format|quality|hygiene|budget|card|cards)\b"
        r"|\bbroadcast (?:board|layer|line|lines|file)\b|\bboard lines?\b"
        r"|\bclaude\.md\b"
        r"|\b(?:committer|memory-weaver|weaver|crystallizer|spine[- ]scanner|intuition[- ]updater|"
        r"pattern[- ]tracker|subconscious|partition prompts?|effectiveness files?|review gates?|"
        r"quality rules?|gradient lines?)\b"
        r"|\b(?:compression|compressing)\b|\b(?:lint|linting|linter)\s+(?:the\s+)?"
        r"(?:board|memory|kernel|dossiers?)\b|\bmemory lint"
        r"|\b(?:agents|memory|lessons|learnings|soul|identity|scratchpad|gemini|"
        r"copilot-instructions)\.md\b|\.cursorrules\b"
        # the agent's own notes file ("GEMINI_NOTES.md", "claude-notes.md")
        r"|\b(?:claude|gemini|agents?|copilot|cursor|codex)[-_]notes\.md\b"
        r"|\bfuture (?:claude |agent |ai )?sessions?\b|\bcontext window\b"
        # what carries the agent's learning to its next run ("so the next agent skips the
        # dead end", "capture what was learned")
        r"|\b(?:the )?next (?:agent|ai|claude|assistant)\b"
        r"|\b(?:capture|record|save|write down|note down|log)\s+what (?:was|you|we|i) "
        r"(?:learned|learnt|discovered)\b"
        r"|\bcompress(?:es|ed)? (?:the )?(?:board|memory|file|lines?)\b"
        r"|\binternal (?:prompts?|quality rules?|rules)\b"
        r"|\bthis (?:board|memory|dossier|file|card)\b|\bthese (?:lines|memory lines|entries)\b"
        r"|\b(?:durable|long-term|persistent) memory\b|\bmemory[- ]?banks?\b|\bmemory files?\b"
        r"|\b(?:record|capture|log|add|write|append|review|preserve|keep|maintain|promote|curate|"
        r"prune|archive)\b[^.;]{0,30}\blessons?\b"
        r"|\b(?:add|append|rewrite|edit|keep)\s+(?:one\s+|a\s+new\s+|new\s+|the\s+|historical\s+)?"
        r"(?:entry|entries)\b"
        r"|\b(?:activecontext|productcontext|techcontext|systempatterns|projectbrief|progress)\.md\b"
        r"|\bthese (?:rules|instructions|guidelines)\b|\bthis (?:document|guide|rules? file)\b"
        r"|\b(?:curated )?memories\b|\bdaily notes\b"
        # pruning the file's own entries ("purge deprecated entries", "consolidate lessons",
        # "remove outdated learnings"): a cache's entries are named by the cache
        r"|\b(?:purge|prune|delete|remove|consolidate|deduplicate|dedupe|merge|refine|sharpen)\s+"
        r"(?:(?:the|all|any)\s+)?(?:(?:deprecated|outdated|obsolete|stale|duplicate|"
        r"redundant|old|vague)\s+)?(?:entries|lessons|learnings|insights)\b"
        r"(?!\s+(?:from|in|of)\s+(?:the\s+)?(?!file\b|this\b)\w)"
        r"|\b(?:capture|create|save|store|update|add|write)_?memor(?:y|ies)\b"
        # the instruction files by place or kind (".github/instructions/", "these Copilot
        # files"), the memory directory and acts on the memory ("`memory/learnings/`",
        # "Load memory deliberately", "long-term narrative memory"), lessons-file terms
        r"|\binstructions/|\.github/(?:copilot|instructions)"
        # the folders the agents' instruction files live in (".claude/", ".cursor/rules/");
        # the skills, commands and hooks kept beside them are tools, not memory
        r"|(?<![\w/.-])\.(?:claude|cursor|windsurf|gemini|codex|clinerules)/"
        r"(?!(?:skills|commands|agents|hooks)/)"
        r"|\bthese (?:\w+ )?(?:files|rules|notes)\b"
        r"|(?<![\w/.-])memory/|\b(?:load|read|write|save|store|update|keep|consult|search|check)\s+"
        r"(?:the\s+|your\s+|my\s+)?memory\b(?!\s+(?:leaks?|usage|limits?|footprint|pressure))"
        r"|\bnarrative memory\b|\bprevention rules?\b"
        # compaction of the agent's notes: a markdown file, its notes, context or history
        # compressed or pruned ("Compress working-notes.md", "Auto-compaction: …")
        r"|\b(?:auto-?)?compaction\b|\bauto-?archiv\w*"
        r"|\b(?:compress|compact|condense|prune|consolidate)(?:es|s|ed|ing)?\s+"
        r"(?:(?:the|your|my|old|stale)\s+)*(?:[\w.-]+\.md\b|notes\b|context\b|"
        r"(?:conversation |chat )?history\b)"
        # keeping notes as the agent's memory ("structured notes", "take notes", "trying
        # to remember things"); "remember to …" is emphasis, not memory
        r"|\b(?:mental|structured|working|scratch|session) notes?\b|\bnote-taking\b"
        r"|\b(?:take|keep|jot down|write down)\s+(?:(?:a|some|short|brief)\s+)?notes?\b"
        r"|\bremember (?:things|everything|anything|something|stuff)\b"
        # saving to the agent's memory and its daily log ("save the context to memory",
        # "today's notes"); "load into memory" is RAM
        r"|\b(?:save|add|record|commit)\b[^.;]{0,30}?\bto (?:your |long-term )?memory\b(?![-\w])"
        r"|\bdaily (?:logs?|journal)\b|\b(?:yesterday's|today's) (?:notes|log|journal)\b"
        # the tracking files the agent keeps for itself: a progress file, a task tree
        r"|\bprogress (?:files?|logs?|notes|tracker|docs?)\b|\btask (?:dependency )?tree\b"
        # the journals and logs the agent keeps of its own work ("the work journal", "the
        # decision log"); a changelog, an app's activity log or a plan's execution log is not
        r"|\b(?:work|dev|development|decision|execution|engineering|learning|session|daily)\s+"
        r"(?:journal|diary|diaries|journals)\b|\b(?:work|decision|learning|lessons?)[- ]?"
        r"logs?\b|\b(?:worklog|devlog)s?\b"
        # the instruction and notes files by kind ("the rules file", "bootstrap files",
        # "your notes", "the scratchpad")
        r"|\b(?:the|your|this|our|agent|project|cursor|windsurf|cline|copilot|claude)\s+rules?\s+"
        r"files?\b|\b(?:bootstrap|lessons?|learnings?|notes|steering|"
        r"persona|memory-bank)\s+files?\b|\bscratch ?pads?\b|\b(?:your|my|own)\s+notes\b"
        r"|\bnotes\.md\b|\blessons? learned\b|\bworth (?:remembering|recording|writing down)\b"
        r"|\b(?:study|learning) notes\b"
        # reading the instructions when a session starts ("Read at every session start"),
        # or the files put into every session ("injected into every session")
        r"|\b(?:read|re-?read|load|review|consult|scan|skim)\b[^.;]{0,60}?\b(?:(?:session|"
        r"conversation)\s+start(?:up)?\b|(?:start|beginning|outset)\s+of\s+(?:every|each|a|the|"
        r"any|your)\s+(?:new\s+)?(?:session|conversation|chat)\b)"
        r"|\b(?:at|on)\s+(?:the\s+)?(?:start|beginning)\s+of\s+(?:every|each|a|any|your)\s+"
        r"(?:new\s+)?(?:session|conversation|chat)\b[^.;]{0,40}?\b(?:read|re-?read|load|review|"
        r"consult)\b"
        r"|\b(?:injected|loaded|included|inserted|prepended)\s+(?:in|into)\s+(?:every|each|all|"
        r"your)\s+(?:new\s+)?(?:sessions?|conversations?|contexts?|prompts?)\b"
        # the agent improving itself by recording what worked
        r"|\bself-?(?:improvement|improving|learning|evolving|evolution|reflection)\b"
        # the instructions by the agent they are for ("Cursor rules", "these root
        # instructions", "custom instructions"), a file named by its memory kind ("this
        # active context", "this lessons file") and the file as "here" ("Lessons are stored
        # here", "deliberately not listed here"): any house's name for its own file
        r"|\b(?:cursor|copilot|claude|windsurf|cline|trae|gemini|codex|agent|ai|root|subfolder|"
        r"custom)\s+(?:rules|instructions)\b|\bactive context\b|\bsession context\b"
        r"|\b(?:knowledge|context|guidance)\s+(?:files?|docs?|folders?)\b"
        r"|\bthis (?:context|memory|notes?|lessons?|rules?|instructions?|guidance|knowledge|"
        r"reference|living|project) (?:\w+ )?(?:file|document|doc|log|record)\b"
        r"|\b(?:listed|recorded|logged|stored|kept|tracked|captured|documented|noted|collected|"
        r"archived) here\b|\b(?:record|log|note|add|write|capture|append) (?:(?:it|them|"
        r"this|these|that|entries|items|new ones) )?here\b"
        r"|\b(?:a|the|this)\s+(?:running|living|permanent)\s+(?:record|log)\b"
        # keeping the file's content itself fresh ("Keep information current and remove
        # outdated content")
        r"|\b(?:remove|prune|delete|drop|clear out)\s+(?:outdated|stale|obsolete)\s+(?:content|"
        r"entries|information|notes|lessons|rules|items)\b"
        r"|\bkeep\s+(?:the\s+|this\s+)?(?:information|content|entries|notes)\s+(?:current|"
        r"up[- ]to[- ]date|fresh)\b",
        "the memory system, its files or its maintenance",
        # "These rules take effect in every new session", "Read at the start of each
        # conversation": the instructions the runtime puts into every session
        Pattern(
            r"\b(?:applies|apply|takes? effect|auto-?loads?|auto-?loaded|loaded automatically|"
            r"(?:is|are|must be) read)\s+(?:automatically\s+)?(?:in|at|for|on)\s+(?:the\s+start\s+"
            r"of\s+)?(?:every|each)\s+(?:new\s+)?(?:session|conversation|chat)\b"
            r"|\b(?:must-read|required reading)\s+(?:for|in|at)\s+(?:every|each)\s+(?:session|"
            r"conversation)\b",
            "the instructions put into every session",
            bounded=False,
        ),
        # "Capture explicit corrections immediately", "Promote repeated corrections into
        # durable rules", "suggest a rule change": the user's corrections kept as memory
        Pattern(
            r"\b(?:capture|record|log|track|promote|turn|convert|save|note|write down)\b"
            r"[^.;]{0,30}?\bcorrections?\b|\bcorrections?\b[^.;]{0,40}?\b(?:into|as)\s+(?:durable\s+|"
            r"permanent\s+|standing\s+|new\s+)?rules?\b|\bsuggest\s+(?:a\s+)?rule\s+changes?\b",
            "the user's corrections kept as memory",
            bounded=False,
        ),
    ),
    "fragment": ("fragment", "fragments"),
    # "Provide complete code examples, not fragments", "code fragments": a piece of code,
    # set against the whole or named as code, is not the memory's staging layer.
    "code_fragment": _shape(
        r"\b(?:code|snippet|example)s?\s+fragments?\b|\bfragments?\s+of\s+code\b"
        r"|\b(?:not|rather than|instead of)\s+(?:just\s+|mere\s+|partial\s+)?fragments?\b",
        "a fragment of code, or one set against a whole",
    ),
    # Verbs that write into a file ("add it to lessons.md", "update AGENTS.md").
    # and the acts of keeping it ("Tidy MEMORY.md", "Prune lessons.md monthly")
    "record_verb": words(
        "update updates edit append write add record log save sync maintain tidy prune compact "
        "curate organize organise"
    ),
    # Verbs that only consult a file ("read `memory/2026-01-01.md`").
    "consult_verb": words("read reads load loads open opens consult check review"),
    "self_edit": _shape(
        r"\b(?:update|edit|append to|write to|add to|keep|maintain)\s+(?:this|the)\s+"
        r"(?:file|memory|board|dossier)\b"
        # an entry added when a lesson comes, whoever brings it ("Add a new row whenever a
        # review finds a mistake", "Append a bullet after each correction")
        # "Add new sections as conventions are adopted": the file grows with the project
        r"|\badd\s+new\s+(?:sections?|rules?|entries|conventions)\s+(?:as|when|whenever|once)\b"
        r"|\b(?:add|append|write|log)\s+(?:a\s+|one\s+)?(?:new\s+)?(?:row|entry|line|item|bullet)\b"
        r"[^.;]{0,40}?\b(?:when|whenever|after|each time)\b[^.;]{0,40}?\b(?:correct\w*|mistakes?|"
        r"lessons?|learn\w*|surpris\w*|gotchas?)\b"
        # editing the rules themselves ("update the existing rule", "append the rule that
        # prevents it"), even when a user's correction is the trigger
        # "Update when you learn something": a maintenance verb with no object but a time
        # keeps the file itself ("Update the lockfile when …" names its object; a path,
        # blanked out before this is searched, leaves more than one space)
        r"|^\W*(?:update|revise|prune|tidy|refresh) (?:it )?(?:when|whenever|after|once)\b"
        r"|\b(?:update|edit|rewrite|refine|append|tighten)\s+(?:the\s+|this\s+|that\s+|an?\s+|"
        r"existing\s+|new\s+)*rules?\b"
        # writing something down in this file ("record it here", "log them here"), as
        # "在此记录" is in Chinese
        r"|\b(?:record|log|note|write|add|append|document|capture|list|put)\s+"
        r"(?:it|them|this|these|that|each one)\s+(?:down\s+)?here\b"
        # a call of a memory-writing tool ("→ capture_memory(category=…)")
        r"|\b(?:capture|save|store|write|add|update)_?memor(?:y|ies)\s*\("
        # recording a lesson: a record unit written when a correction, feedback or a
        # mistake shows something, even when the correction is the user's ("Add a new
        # row when a user correction reveals a pattern")
        r"|\b(?:add|append|write|create|log|record)\s+(?:(?:a|an|one|new|another)\s+)*"
        r"(?:row|entry|rule|lesson|note)s?\b[^.;]{0,80}?\b(?:corrections?|corrected|feedback|"
        r"mistakes?|learned|learnt)\b"
        r"|\b(?:corrections?|feedback|mistakes?)\b[^.;]{0,60}?\b(?:add|append|write|log|record)"
        r"\s+(?:(?:a|an|one|new|another)\s+)*(?:row|entry|rule|lesson|note)s?\b"
        # a request to remember, answered by writing it down ("'remember this' → record it")
        r"|\bremember (?:this|that|it)\b[^.;]{0,40}?(?:→|->|=>|,)\s*"
        r"(?:(?:immediately|always|then)\s+)?(?:record|write|save|log|note|store|add)\b"
        # "You need to update it when …": keeping "it" current, with nothing in the line it
        # could be but the file itself
        r"|^\W*(?:(?:you|we)\s+(?:need|have|ought|are expected)\s+to\s+|(?:you|we)\s+(?:should|"
        r"must)\s+|please\s+|always\s+)?(?:update|maintain|refresh|revise|edit)\s+(?:it|this)\b"
        r"|^\W*(?:(?:you|we)\s+(?:should|must)\s+|please\s+|always\s+)?keep\s+(?:it|this)\s+"
        r"(?:up[- ]to[- ]date|updated|current|in sync)\b"
        # a knowledge kind recorded ("Add new learnings under …", "Record what you learned",
        # "Decisions are documented in `docs/adr/`"): the record, not the work
        r"|\b(?:record|log|note down|write down|document|capture|persist|save|store|add|append|"
        r"archive|jot down)\s+(?:(?:all|any|every|each|important|key|new|major|significant|"
        r"technical|architectural|architecture|design|your|the|such|these|non-obvious|recurring|"
        r"repeatable|relevant|useful|hard-won)\s+){0,3}(?:decisions|lessons|learnings|insights|"
        r"gotchas|pitfalls|what (?:you|we)(?:'ve| have)? (?:learned|learnt|discovered))\b"
        r"|\b(?:decisions|lessons|learnings|insights|gotchas|pitfalls)\s+(?:are|is|should be|"
        r"must be|get|will be)\s+(?:\w+\s+)?(?:recorded|logged|noted|documented|captured|archived|"
        r"written down|stored|kept)\b"
        # a knowledge event answered by writing it down ("Whenever you gain a new insight,
        # update the notes", "When you discover a new pattern, write it down")
        r"|\b(?:learn(?:ed|t)?\s+(?:something|anything)|gain(?:ed)?\s+(?:a\s+|an\s+)?(?:new\s+)?"
        r"(?:insights?|understanding)|discover(?:ed)?\s+(?:a\s+|an\s+)?(?:new\s+)?(?:pattern|"
        r"convention|gotcha|pitfall|insight|quirk)s?|new\s+(?:insights?|learnings?|understanding))"
        r"\b[^.;]{0,60}?\b(?:update|record|write|add|append|log|note|capture|document|save|store)\b",
        "a direction to edit the memory file or the rules themselves",
    ),
    "placeholder_prompt": _shape(
        r"^_[^_\n]*\b(?i:will be|to be|describe|list)\b[^_\n]*_$"
        r"|\((?i:add|fill in|insert|describe|list)\b[^)]*\)"
        # a template's field prompt as a noun phrase ("Brief description of the problem
        # and what made it non-obvious.", "One-line summary of the lesson")
        r"|^\W*(?i:(?:a|an|the)\s+)?(?i:brief|short|one-line|one-sentence|concise|quick|"
        r"high-level)\s+(?i:description|summary|explanation|account|overview)\s+(?i:of)\b"
        # a single-word field followed by its allowed values ("Category: `surprising` |
        # `unexpected`", "Severity: low | medium | high"): a form to fill in
        r"|^\W*(?i:category|severity|impact|tags?|confidence)"
        r"\W*[:：]\s*[^|\n]{1,30}\|[^|\n]{1,30}\|"
        # "Describe the product.", "List the main technologies, frameworks, and libraries.",
        # "Feature 1", "Average phase duration: N/A": a template's prompt or slot left as is
        r"|^\W*(?i:describe|explain|summari[sz]e|outline)\s+(?i:the|your)\s+(?i:product|project|"
        r"problem|goals?|purpose|features?|architecture|system|approach|solution|context|users?|"
        r"audience)\b[^`\n]{0,40}$"
        r"|^\W*(?i:list)\s+(?i:the|your|all)\s+(?i:main|key|core|major)\s+[^`\n]{0,60}$"
        r"|^\W*(?i:feature|goal|requirement|item|user story|component|pattern|decision|lesson)"
        r"\s+\d+\W*$"
        r"|[:：]\s*(?i:n/a|tbc)\W*$"
        r"|^\W*(?i:no)\s+(?:[\w-]+\s+){0,2}?(?i:observed|recorded|logged|captured|learned|"
        r"documented)\s+(?i:yet)\b"
        # "**数据库**: [数据库技术]", "**Language**: [main language]": a field's slot in brackets
        r"|[:：]\s*\*{0,2}\s*\[[^\[\]\n:：]{1,40}\](?!\()\s*$"
        # "To be detailed as more information becomes available", "Decision 1: Description
        # of the decision and its rationale": a slot waiting to be filled
        r"|^\W*(?i:to be|will be)\s+(?i:detailed|determined|added|completed|filled in|documented|"
        r"defined|expanded)\b"
        r"|[:：]\s*(?i:a\s+)?(?i:description|summary|explanation)\s+of\s+(?i:the|this)\b"
        # "Date | Mistake | Correction | Rule": a table's header row, the form to fill in
        r"|^\W*[A-Z][\w ]{0,20}(?:\s\|\s[A-Z][\w ]{0,20}){2,}\W*$",
        "an unfilled template's prompt",
    ),
    # "STRICTLY FOLLOW BELOW RULES", "Always follow the instructions below": how the
    # file's own rules are to be followed, whatever they say.
    "follow_own_rules": _shape(
        r"\bfollow (?:the )?(?:below|following) (?:rules|instructions|guidelines)\b"
        r"|\bfollow (?:the |these )?(?:rules|instructions|guidelines) below\b",
        "following the file's own rules",
    ),
    "demonstrative": _shape(
        r"\bthis (?:file|document|guide|rules? file)\b|\bthese (?:rules|instructions)\b",
        "the line pointing at its own file or rules",
    ),
    # "Record decisions that affect ...": telling the reader to record a kind of knowledge
    "record_lead": _shape(
        r"^\W*(?:(?:always|must)\s+)?(?:record|note down|write down|store|save|persist)\b",
        "'record' or 'store' opening the line",
    ),
    "knowledge_kind": words(
        "decision decisions lesson lessons learning learnings insight insights"
        " preference preferences pattern patterns gotcha gotchas pitfall pitfalls knowledge"
    ),
    "purpose_label": _shape(r"(?i:^\W*purpose\s*[:：])", "'Purpose:' opening the line"),
    "ranking": _shape(
        r"\b(?:overrides?|overridden|take[sn]? precedence|took precedence|supersedes?|"
        r"(?:higher|lower) priority than|priority over|outranks?|wins? over)\b",
        "one instruction ranked against another",
    ),
    # ------------------------------------------------------------ status-shape
    "run_state": _shape(
        r"\b(?:meta-)?tick\s*(?:#|no\.?|number)?\s*\d+"
        r"|\b(?:queue|inbox|backlog)\s+(?:is|was|are|were|has been|got)\s+(?:now\s+)?"
        r"(?:clear|empty|drained|full|cleared|idle|backed up)"
        # "When the build is done, run …": a moment to wait for, not a run reported
        r"|(?<!when )(?<!once )(?<!after )(?<!until )(?<!if )"
        r"\b(?:latest|last|previous|current|this|today's|the|a|one)\s+(?:run|pass|tick|wake|"
        r"job|sync|build|deploy(?:ment)?|scan|batch|cycle|round)\s+(?:has\s+|had\s+|was\s+)?"
        r"(?:completed|finished|succeeded|failed|ran|passed|is done|done|crashed|timed out)"
        r"|\b(?:run|pass|job|build|scan|sync)\s+(?:completed|finished|succeeded|failed|crashed)\b"
        r"|\b(?:no|all|\d+)\s+(?:tasks|jobs|items)\s+(?:are\s+|were\s+)?(?:pending|queued|left)"
        r"|\bpending (?:items|tasks|jobs|signals)\b",
        "a tick, queue or run reported",
    ),
    "occurrence_count": _shape(
        r"\b(?:occurred|happened|seen|observed|appeared|came up|recurred|mentioned|asked|"
        r"reported|triggered|fired|hit|used|corrected)\s+(?:\d+|two|three|four|five|six|seven|"
        r"eight|nine|ten|several|many|multiple)\s+times\b"
        r"|\b\d+\s+(?:occurrences|hits|instances|mentions|sightings)\b"
        r"|\b(?:occurrences|count|hits|tally|seen|strengthening|weakening|neutral)\s*[:=]\s*\d+"
        r"|\(\s*\d+\s+times\s*\)"
        r"|\b\d+\s+times\s+(?:so far|this (?:week|month|session)|today|in total|total|now|"
        r"already|recently|in a row)\b",
        "occurrences tallied",
    ),
    "dated_lead": _shape(rf"^\W*{_MONTH} \d{{1,2}}\b", "a month and day opening the line"),
    "date": _shape(
        rf"\b{_MONTH} \d{{1,2}}(?:-\d{{1,2}})?, 20\d\d\b", "a written-out date with its year"
    ),
    "time_anchor": _shape(
        r"\b(?:yesterday|today|tonight|last (?:night|week|month|time|session|run)|this "
        r"(?:morning|afternoon|evening|week|session)|earlier today|just now|recently|"
        r"on (?:\d{4}-\d{2}-\d{2}|monday|tuesday|wednesday|thursday|friday|saturday|sunday))\b",
        "a moment in the past",
    ),
    "changelog": _shape(
        r"^\W*(?:added|removed|updated|changed|fixed|renamed|merged|rewrote|rewritten|deleted|"
        r"created|moved|bumped|refactored|dropped|introduced|deprecated|promoted|demoted)\b"
        r"|\b(?:was|were|has been|have been)\s+(?:already\s+)?(?:added|removed|updated|changed|"
        r"fixed|renamed|merged|rewritten|deleted|created|moved|promoted|migrated|implemented|"
        r"completed|built|deployed|released|shipped|resolved|introduced|retired)\b"
        r"|\bchange ?log (?:entry|entries|item)\b",
        "a change reported as done",
    ),
    "past_verb": words(
        """asked said told wanted requested complained corrected mentioned reported sent
        shared decided agreed confirmed noted replied responded fixed shipped deployed
        merged completed finished failed ran went met discussed was were had did got made
        gave took came tried started ended opened closed approved rejected happened
        occurred received found learned broke crashed resolved explained liked hated
        chose switched released launched booked called wrote forgot missed"""
    ),
    # A sentence narrating what happened once.
    "narrative_verb": words(
        """used selected showed migrated implemented built introduced added created fixed
        broke failed crashed was were had did happened occurred"""
    ),
    # "The project currently runs on Windows, so …": the setting the project stands in,
    # opening a line whose later clause says what to do in it (not work in progress).
    "standing_setting": _shape(
        r"^\W*(?:the\s+)?(?:project|app|service|system|repo|code(?:base)?|server)\s+"
        r"(?:currently|now)\s+(?:runs|is deployed|is hosted|lives|targets)\s+(?:on|in|at)?\b",
        "the setting the project runs in, opening the line",
    ),
    "current_state": _shape(
        r"^\W*current\s+(?:branch|phase|sprint|status|state|task|focus|work|step|milestone)\b"
        # "Check current task progress": the work's own progress, wherever it sits in the line
        r"|\bcurrent\s+(?:task|work|step|sprint)\s+(?:progress|status)\b"
        r"|\b(?:progress|status)\s+of\s+the\s+current\s+(?:task|work|step|sprint)\b"
        r"|^\W*(?:currently|considering|evaluating|exploring|investigating|planning to|"
        r"thinking about|next step|next steps|in progress|wip|tbd|future work|"
        r"active (?:work|tracks?|decisions?))\b"
        r"|\b(?:currently|at the moment|right now|so far|as of (?:now|today|\d)|not yet|"
        r"(?:is|are) (?:now )?(?:in progress|under way|underway|being (?:implemented|built|"
        r"developed|worked on))|unknown yet|(?:may|might|could) (?:later )?introduce)\b"
        # a field that names work state ("Next steps: …", "Optional: …")
        r"|(?i:^\W*(?:\d+\.\s*\W*)?(?:next steps?|optional|current focus|recent changes|"
        r"open questions?)\W*[:：])"
        # work still open or done, in any house's words: a to-do field ("Next: …", "TODO:
        # …"), a choice left to make ("Decide whether to …"), what waits on another piece
        # ("blocked until P1 completes"), nothing yet, and a line opening on work reported
        # done ("All core files have been created"); "[TODO: describe …]" is a template
        r"|^[^\w\[]*(?:\d+\.\s*\W*)?(?:next|todo|to-do|up next|remaining|pending|blocked|"
        r"blockers?|done|completed)\W*[:：]"
        r"|^\W*(?:\d+[.)]\s*)?(?:decide|determine|evaluate|figure out|weigh)\s+whether\b"
        r"|\bblocked\s+(?:until|on|pending)\b|\b(?:none|nothing)\s+(?:yet|so far)\b"
        r"|\bno outstanding\b|\bat this stage\b|\bawaiting (?:the )?first\b"
        # progress as a share or a tally ("60% done", "Progress: 3/5 modules")
        r"|\b\d{1,3}\s*%\s*(?:done|complete|completed|finished|migrated|implemented)\b"
        r"|^\W*progress\W*[:：]\s*\d"
        r"|^\W*(?:all|the|every)\s+[\w -]{0,40}?\s+(?:have|has) been (?:created|implemented|"
        r"completed|added|fixed|migrated|set up|configured|deployed|resolved)\b",
        "present state or open deliberation",
    ),
    # A change reported as in effect from now on ("`get_positions()` now falls back to …").
    "change_in_effect": _shape(
        r"\bnow (?:falls back|defaults|uses|returns|reads|writes|checks|handles|supports|"
        r"calls|runs|accepts|rejects|retries|skips|shows|loads|sends|validates|throws|raises)\b",
        "a change reported as in effect from now on",
    ),
    # A proposal still open ("Consider adding a test suite …"); with a situation of its
    # own ("When …, consider adding an index") it is a hedged rule, judged elsewhere.
    "open_proposal": _shape(r"^\W*(?:\d+\.\s*)?consider\s+[a-z]+ing\b", "a proposal still open"),
    # A question the line leaves open ("Should we split the config per tenant?"): an
    # interrogative opens it and a question mark ends it, so it asks, and directs nothing.
    "open_question": _shape(
        r"^\W*(?:\d+[.)]\s*)?(?:should|shall|can|could|would|will|do|does|did|is|are|"
        r"how|what|why|which|whether)\s[^?\n]*\?\W*$",
        "an open question",
    ),
    "version_label": _shape(
        r"(?i:^\W*(?:version|current version)\W*[:：]\s*v?\d"
        # a named thing's release tag ("Governor version: v3.0"); a bare number after a
        # tool's name ("Node version: 20") is a setting, so only the v-tag counts here
        r"|^[^\w.-]*[\w.-]+(?:\s[\w.-]+){0,2}\s+version\W*[:：]\s*v\d+(?:\.\d+)+\b)",
        "a version read out as a field",
    ),
    "field_label": _shape(
        r"(?i:^\W*(?:date|last updated|updated|created|last incident|evidence|outcome|status|task|"
        r"event/context|what happened|what went wrong|what broke|(?:the )?mistake|seen|"
        r"occurrences|confidence|result|symptom|root cause|"
        r"impact|context|failure mode|detection signal|observation|observed|actions? taken|"
        r"follow-?up|affected (?:files|modules|services|users|components|systems|hosts)|"
        r"files affected)\W*[:：])",
        "a provenance or bookkeeping field",
    ),
    # Work that is only planned, a choice not made, a task of one occasion: a plan of one
    # piece of work, whatever else the line says (one concept, so one pass over a line).
    "plan_marker": (
        # "**Pending**: rerun the backfill", "Open items: migrate the old table": a line
        # filed under work still to do ("TODO:" is left to the placeholder and dossier
        # readings, which say more)
        Pattern(
            # "**Up next — Session 1: …**": what comes next
            r"^\W*(?:(?:pending|open items?|still to do)\s*\**\s*[:：]"
            r"|(?:up next|next up)\s*\**\s*[:：—–-])",
            "a line labelled as work still to do",
            bounded=False,
        ),
        # "Dark mode support planned", "Implementation will proceed incrementally, …"
        Pattern(
            r"\bplanned(?=\s*(?:$|[.;:)\]—–]|,\s|-\s|for (?:q[1-4]|v\d|20\d\d|next|later|the "
            r"next)\b))|\b(?:implementation|development|migration|rollout|roll-out|work|"
            r"refactor(?:ing)?|rewrite|integration) will (?:proceed|start|begin|continue|happen|"
            r"take place)\b",
            "work only planned",
            bounded=False,
        ),
        # "Use Redis for the cache (TBD)", "Queue: RabbitMQ or Kafka (depending on load)"
        Pattern(
            r"\b(?:tbd|tba|tbc|to be (?:determined|decided|confirmed|chosen)|not (?:yet )?decided|"
            r"undecided|still deciding|yet to be (?:decided|chosen|determined))\b"
            r"|[(\[]\s*(?:depending on|depends on|decide|choose|pick)\b[^()\[\]]*[)\]]",
            "a choice not made yet",
            bounded=False,
        ),
        # "Re-run the benchmarks after the database migration", "Retry on the remaining
        # affected servers"; "After a migration, …", "After migrations, …" are every occasion
        Pattern(
            r"\bafter the [\w/.-]+ (?:refactor|refactoring|migration|rewrite|upgrade|outage|"
            r"incident|cutover|reorg|overhaul|redesign|move|switch|port)\b"
            r"|\b(?:the )?remaining affected\b",
            "one occasion named",
            bounded=False,
        ),
    ),
    # Work still to come or pending ("with magic-link login to be added later", "Webhook
    # retries will be added in a later release", "Mobile layout pending design review"):
    # a plan when the line directs nothing else ("Features to be removed in a later
    # release must log a deprecation warning" directs). Behaviour stated in the future
    # ("The server will restart on change") names no work verb.
    "plan_hint": _shape(
        r"\bscheduled for (?:the )?(?:next|later|a later|a future|q[1-4]|v\d|20\d\d)\b"
        r"|(?<!\bneeds)(?<!\bneed)(?<!\bhas)(?<!\bhave)(?<!\bhad)(?<!\bought)(?<!\bmust)"
        r"(?<!\bare)(?<!\bis)\s+to be (?:added|implemented|decided|determined|confirmed|"
        r"defined|built|written|designed|integrated|supported|introduced|migrated|finali[sz]ed|"
        r"evaluated|discussed|investigated|clarified|done|revisited|chosen|selected|wired)\b"
        r"|\bwill (?:be )?(?:added|implemented|introduced|supported|migrated|ported|rewritten|"
        r"built|developed|released|shipped|integrated|revisited|reconsidered|decided|evaluated|"
        r"refactored|redesigned|extended|expanded|finali[sz]ed|tackled|addressed)\b"
        r"|\b(?:we|i)(?: will|'ll| plan to| intend to| are going to| am going to)\b"
        r"|\b(?:eventually|someday|some day|down the road|at some point)\b"
        r"|\b(?:added|implemented|done|handled|revisited|addressed|supported|decided|fixed|"
        r"cleaned up|considered|tackled|wired up) later\b|\b(?:for|until|till) later\b"
        r"|\bat a later (?:stage|date|point|time)\b"
        r"|\b(?:in|for) (?:a |the )?(?:later|future|next|subsequent) (?:release|version|phase|"
        r"iteration|sprint|milestone|pr|pull request|stage)\b"
        r"|\b(?:on|to) (?:the |our )?(?:roadmap|wishlist|wish list)\b"
        r"|\bpending (?:design|review|approval|decision|confirmation|investigation|"
        r"discussion|implementation|migration|upgrade|release|sign-?off)\b"
        r"|\bnot (?:yet )?(?:implemented|started|built|wired up|hooked up)\b",
        "work still to come or pending",
    ),
    # A choice left open among named products ("Transactional emails via SendGrid,
    # Mailgun, or Postmark"): a project uses one, so three named offers are a shortlist.
    "open_choice": _shape(
        r"\b(?:via|using|with|through|on)\s+[A-Z][\w.-]*(?:\s[A-Z][\w.-]*)?,\s+[A-Z][\w.-]*"
        r"(?:\s[A-Z][\w.-]*)?,?\s+or\s+[A-Z][\w.-]*",
        "a shortlist of named products, none chosen",
    ),
    # Narration of one occasion, whatever pattern follows it: an incident write-up.
    "recap_marker": (
        # "At first we parsed dates by hand, then it turned out …", "We later found that
        # the cron ran twice"; "If it turns out the cache is stale, clear it" supposes
        Pattern(
            r"\b(?:it |this |that |which )?turned out\b"
            r"|\b(?:we|i) (?:later |eventually |finally |then |soon )?(?:found out|discovered|"
            r"realized|realised|noticed|learned|learnt) (?:that|the|it|this)\b"
            r"|\blater (?:found|discovered|realized|realised|noticed|learned)\b"
            r"|\bat first,? (?:we|i)\b|\b(?:we|i) (?:initially|originally|first) (?:tried|used|"
            r"wrote|thought|assumed|built|parsed|hand-rolled|implemented)\b"
            r"|\b(?:we|i) (?:had|spent|wasted) (?:to|hours|a day|days|time)\b"
            r"|\bthe root cause (?:was|turned out)\b"
            r"|\bwas (?:skipped|overwritten|lost|dropped|missed|ignored|wiped|reverted) (?:during|"
            r"in|on|at|by) (?:the )?(?:last|previous|latest|first|initial|friday|monday|yesterday)",
            "narration of one occasion",
            bounded=False,
        ),
        # "The login bug: tokens expired early … . Lesson: sync clocks with NTP.": a lesson
        # drawn after the line's own account of what happened
        Pattern(
            r"[.!;]\s+(?:the\s+)?(?:lessons?(?: learned| learnt)?|takeaways?|moral)\s*[:：]",
            "a lesson label after a recap",
            bounded=False,
        ),
    ),
    # "Consider raising the pool size if timeouts continue": a proposal leading the line,
    # contingent on what may happen
    "open_contingency": _shape(
        r"^\W*(?:\d+\.\s*)?consider\b[^.;]*\b(?:if|unless|should)\b", "a proposal still open"
    ),
    # "Step 4: Install and Configure Phaser": a step of one plan, written as its title
    "plan_step": (
        Pattern(
            r"^\W*(?i:step|phase|stage|milestone)\s+\d+\s*[:：.–—-]\s*"
            r"[A-Z][\w-]*(?:\s+(?:[A-Z][\w-]*|and|&|or|the|of|to|for|with|a|an|in|on))*\W*$",
            "a step of a plan, as a title",
            bounded=False,
        ),
    ),
    # ------------------------------------------------------------ dossier lines
    # What a careful reader rejects in an entity or topic dossier although it reads like a
    # fact (the labelling guide's Dossier bullet): the state the work stands in, what is
    # still to do or to decide, what was done once, and claims nothing supports. Each
    # concept names the rule that reads it (status_shape.DOSSIER_RULES,
    # dossier.DOSSIER_RULES); the pins are in tests/review/pins/<gate>.jsonl.
    #
    # "Last updated: 2026-01-01", "Generated: …", "**Date**: August 2025": a stamp of when
    # the file was written, no fact of the entity
    "update_stamp": _shape(
        r"^\W*(?:last\s+(?:updated|modified|edited|reviewed|verified)|(?:updated|generated|"
        r"created|written)(?:\s+(?:on|at))?|date|timestamp)\W*[:：]",
        "a stamp of when the file was written",
    ),
    # "**Status:** Ready for planning", "Current state: …", "**Mode**: VAN", "Phase: 2":
    # a field whose value is the state of the work ("State management: Redux" is no such
    # field, nor "Status codes: …")
    "status_field": _shape(
        r"^\W*(?:\d+[.)]\s*)?(?:(?:current|overall|project|build|ci|health|implementation|"
        r"development|release)\s+)?(?:status|state|phase|stage|mode|version)"
        r"(?:\s*\([^()]{1,20}\))?\W*[:：]"
        r"|^\W*current\s+(?:focus|work|task|branch|sprint|milestone|step|priority|scale)\W*[:：]"
        # "Branch: `main`", "**Commit**: 4994ce0", "Snapshot date: …": the checkout a note
        # was written from ("Default branch: main", "Branch naming: …" are facts)
        r"|^\W*(?:branch|commit|snapshot(?:\s+date)?)\W*[:：]",
        "a field whose value is the state of the work",
    ),
    # "We are currently in the initial design phase", "GUI development is completely
    # paused", "Ready to begin class assessment", "Analyzing template.json parameters",
    # "None identified yet", "Sole focus: …": where the work stands now. "The app currently
    # fetches movie data from the OMDB API" is a stable behaviour (corpus rule 13).
    "work_state": _shape(
        r"\b(?:we are|we're|i am|i'm)\s+(?:currently|now|still)\b"
        r"|\bcurrently\s+(?:working|focus(?:ing|ed)|in (?:the|a)|developing|implementing|"
        r"building|investigating|exploring|evaluating|considering|analy[sz]ing|debugging|"
        r"refactoring|migrating|planning|blocked|paused|on hold|under)\b"
        r"|\b(?:is|are)\s+(?:still\s+)?(?:in|at)\s+(?:the|an?)\s+(?:[\w-]+\s+){0,3}?(?:phase|stage)\b"
        r"|\bready\s+(?:to\s+(?:begin|start|implement|proceed|merge|ship|deploy|release)|for\s+"
        r"(?:planning|implementation|review|testing|deployment|release|the next))\b"
        r"|\b(?:sole|current)\s+focus\b|\bfresh start\b|\bin preparation\b"
        r"|\b(?:is|are|remains?|was|were)\s+(?:now\s+|completely\s+|currently\s+|temporarily\s+)?"
        r"(?:paused|on hold|shelved|blocked(?!\s+by)|in progress|under way|underway)\b"
        r"|[-—–:]\s*(?:paused|on hold|shelved|blocked|in progress|wip)\s*$"
        r"|\b(?:none|nothing)\s+(?:identified|found|reported|yet)\b"
        r"|\bnot yet (?:begun|started|tested|verified|validated|deployed|released|integrated|"
        r"configured|set up|written|done|finished|complete|wired|implemented|connected|hooked up|"
        r"available)\b|\bhave not (?:yet )?begun\b|\bin this (?:environment|milestone)\b"
        r"|^\W*(?:analy[sz]ing|investigating|exploring|evaluating|researching|debugging|"
        r"working on|prototyping)\s+\w"
        # "The basic UI is now complete", "Security allowlist is fully resolved"
        r"|\b(?:is|are)\s+(?:now|fully|finally)\s+(?:complete|completed|done|finished|resolved|"
        r"fixed|working|live)\b"
        # "Pricing precedence is now correct and stable", "partial flag behavior is fixed.",
        # "Offline-First Architecture: FULLY WORKING ✅", "Product management system
        # operational", "Tests: not re-run this session": a state reached or not, as of now
        r"|\b(?:is|are)\s+now\s+(?:correct|stable|functional|operational|in place)\b"
        r"|\b(?:is|are)\s+(?:now\s+)?(?:fixed|resolved)\s*[.!]?\s*$"
        r"|\bfully\s+(?:working|functional|operational)\b"
        # "… were not found during this refresh": what one pass over the work saw
        r"|\b(?:during|in|for)\s+this\s+(?:session|refresh|run|pass|sweep)\b"
        r"|\s(?:now\s+)?operational\s*[.!✅]*\s*$"
        r"|\bnot\s+(?:yet\s+)?re-?(?:run|tested|verified|checked)\b"
        # "`a4_version3` — same as master", "2 commits ahead of origin/main": branch state
        r"|\b(?:same as|ahead of|behind|in sync with|up to date with)\s+(?:origin/)?(?:master|main|"
        r"develop|trunk)\b|\bfast-forward(?:ed)?\s+merged\b",
        "where the work stands now",
        # "Waiting for the design team's mockups", "Blocked on API keys", "Looking into
        # WebSockets for live updates": work held up or still being looked at
        Pattern(
            r"^\W*(?:[\w ]{1,30}[:：—–-]\s*)?(?:still\s+|currently\s+)?(?:waiting\s+(?:for|on)|"
            r"awaiting|awaits)\s+\w|\bblocked\s+(?:on|until|pending)\b"
            r"|^\W*(?:\d+[.)]\s*)?(?:still\s+)?(?:looking into|figuring out|experimenting with|"
            r"trying out|thinking about)\b",
            "work held up or still being looked at",
            bounded=False,
        ),
        # "On branch main, working tree clean", "currently on the release branch": the state
        # of a checkout
        Pattern(
            r"^\W*on\s+branch\s+\S+|\b(?:currently|now)\s+on\s+(?:the\s+)?[\w/.-]+\s+branch\b"
            r"|\bworking\s+(?:tree|directory|copy)\s+(?:is\s+)?(?:clean|dirty)\b"
            r"|\bnothing to commit\b",
            "the state of a checkout",
            bounded=False,
        ),
    ),
    # "496 tests, 39 files" passing, "36+ issues closed", "95% coverage", "45/45 ✓", "0
    # vulnerabilities": a count read off the work as it stands ("2080 specs" to replicate is
    # a size; a target "coverage >= 80%" is a limit)
    "progress_tally": _shape(
        r"\b\d[\d,]*\+?\s+(?:[\w-]+\s+)?(?:tests?|specs?|issues?|commits?|prs?|pull requests?|"
        r"errors?|warnings?|failures?|bugs?|tasks?|todos?|items?)\s+(?:are\s+|were\s+)?"
        r"(?:passing|passed|green|closed|open|fixed|failing|failed|merged|resolved|remaining|"
        r"left|done|completed)\b"
        r"|\b\d+(?:\.\d+)?\s*%\s+(?:test\s+|line\s+|branch\s+)?coverage\b"
        r"|\bcoverage(?:\s+is|\s+at)?\s*[:：]?\s*\d+(?:\.\d+)?\s*%"
        r"|\b\d+\s*/\s*\d+\s*(?:[✓✔✅]|pass(?:ed|ing)?\b)"
        r"|\b(?:0|zero|no)\s+(?:errors|warnings|vulnerabilities|failures|failing tests)\b"
        r"(?!\s+(?:policy|allowed|tolerated|tolerance|rule))"
        r"|\b(?:currently|right now|at present|so far)\s+(?:there (?:are|is)|has|have|holds?|"
        r"contains?)\s+(?:only\s+)?\d+\b"
        r"|\b\d+\s*/\s*\d+\s+(?:\S+\s+){0,3}?pass(?:ed|ing)?\b"
        r"|\b(?:tests?|build|ci|lint(?:ing)?|compil(?:e|ation))\s+(?:is\s+|are\s+)?(?:all\s+)?"
        r"(?:passing|green|red|failing|broken)\s*[.!]?\s*$"
        # "All publisher tests green; `validate` OK": the suite's colour as of now
        r"|^\W*all\s+(?:[\w-]+\s+){0,2}?tests?\s+(?:are\s+|were\s+)?(?:green|passing|passed)\b"
        r"|\bcurrently\s+\d[\d,]*\s+(?:tests?|suites?|specs?|files?|issues?)\b"
        # "Total: 67 tests, all passing.", "80 tests pass", "916 total passed", "last run
        # 118/118": a run's result
        r"|\b\d[\d,]*\s+(?:tests?\s+|total\s+)?pass(?:ed|es)?\b(?!\s+(?:to|through|into|in)\b)"
        r"|\btests?,?\s+all\s+passing\b|\blast\s+run\s+\d+\s*/\s*\d+",
        "a count read off the work as it stands",
        # "Implementation is about 80% complete", "120 passing, 3 failing": how far the work
        # has got
        Pattern(
            r"\b\d+(?:\.\d+)?\s*%\s+(?:complete|completed|done|finished|implemented|migrated)\b"
            r"|\b\d+\s+(?:passing|failing)\b",
            "how far the work has got",
            bounded=False,
        ),
    ),
    # "## High Priority", "## Next Session", "## Tech Debt", "## Current Issues", "## Issue
    # Description", "## Session 2", "## Release Notes": a dossier heading whose theme is work
    # to do, under way, or done once (the board's status_section names more; "## Known
    # issues" holds behaviour with its workaround and is left out)
    "work_section": _shape(
        r"^\W*(?:\d+(?:\.\d+)*[.)]?\s*)?(?:(?:high|medium|low|top)\s+priority|priorities"
        r"|next\s+session|to\s?-?dos?|upcoming|backlog|tech(?:nical)?\s+debt"
        r"|current\s+(?:issues|problems|blockers|challenges|bugs)|blockers|open\s+issues"
        r"|(?:issue|problem|bug|incident)\s+(?:description|report|summary)|what\s+happened"
        r"|(?:recent\s+)?accomplishments|session\s+\d+|release\s+notes|what'?s\s+new"
        r"|in\s+progress|work\s+in\s+progress|wip|pending(?:\s+\w+)?|action\s+items"
        r"|fix(?:es)?\s+applied|changes\s+made|resolved\s+issues|issues\s+resolved"
        # "## Completed This Session (2026-05-18)", "## Just Completed", "## SHORT TERM",
        # "## Next": work done in one session, or a stretch of the roadmap
        r"|(?:just\s+)?completed(?:\s+(?:this|last|previous)\s+session|\s+(?:tasks?|work|items))?"
        r"(?=\s*(?:[(]|$))"
        r"|(?:short|long|near|mid|medium)[- ]term"
        r"|next(?:\s+(?:immediate|logical))?(?:\s+(?:steps?|up|actions?|tasks?|priorities|"
        r"issues(?:\s+to\s+tackle)?))?\W*$|doing\W*$"
        # "## Immediate (Within 24 hours)", "## Action Required Before Session 6",
        # "## Recommended Next Action"
        r"|immediate(?:\s+(?:actions?|steps?|tasks?|priorities))?(?=\s*(?:[(]|$))"
        r"|actions?\s+required|required\s+actions?|recommended\s+next\s+(?:actions?|steps?))\b"
        # "## Recommended Strategy (PENDING CONFIRMATION)": a heading marked as not settled
        r"|\((?:pending|draft|proposed|tbd|wip|in progress|unconfirmed)\b",
        "a dossier heading whose theme is work to do, under way or done once",
    ),
    # "Attachments are rendered via direct CDN links", "The app fetches movie data from the
    # OMDB API": how the thing works, a fact of it even under a heading on the state of the
    # work ("## What Works", "## Current Status"); a file-map entry or a concrete value
    # is read in any language (status_shape.py)
    "standing_fact": _shape(
        r"\b(?:is|are)\s+(?:\w+ly\s+)?(?:rendered|displayed|shown|handled|stored|served|cached|"
        r"loaded|fetched|sent|kept|generated|computed|validated|parsed|provided|managed|defined|"
        r"exposed|registered|persisted|routed|uploaded|downloaded|streamed|encoded|encrypted|"
        r"signed|logged)\s+(?:as|via|by|in|on|through|using|with|from|to|inline)\b"
        r"|^\W*the\s+(?:[\w-]+\s+){0,2}?(?:currently\s+)?(?:fetches|stores|renders|displays|reads|"
        r"writes|sends|serves|loads|calls|caches|validates|parses|returns)\s+\w",
        "how the thing works",
    ),
    # "Target: 100% coverage", "at least 90%": a count set as a limit, no reading of the work
    "limit_mark": _shape(
        r"\b(?:targets?|goals?|minimum|at least|required|requires?|enforced|must|should|aim|"
        r"ensure|policy)\b"
        r"|[≥>]=?\s*\d",
        "a count set as a limit",
    ),
    # "Fixed multiple TypeScript errors in `src/App.tsx`", "**Renamed directories** for
    # clarity", "Successfully migrated …", "Complete project structure created": a line
    # that reports a change made ("Fixed position on the left side" is a layout value)
    "change_recap": _shape(
        r"^\W*(?:\d+[.)]\s*)?(?:successfully\s+|also\s+|then\s+)?(?:added|removed|"
        # ("Updated weekly — …" says how often, no change made)
        r"updated(?!\s+(?:weekly|daily|hourly|nightly|monthly|yearly|annually|quarterly|every|each|"
        r"automatically|on (?:each|every)|whenever))|changed|"
        r"fixed(?!\s+(?:position|width|height|size|length|rate|point|price|costs?|header|"
        r"layout|columns?|order|number|schedule|time|window|set|string|value))|renamed|merged|"
        r"rewrote|rewritten|deleted|created|moved|bumped|refactored|dropped|introduced|"
        # ("**Resolved caveat (May 2026):** …" files a settled point, as a label)
        r"migrated|implemented|resolved(?!\s+(?:caveats?|questions?|decisions?|points?)\b)|"
        r"replaced|pushed|identified|integrated|completed|"
        r"converted|upgraded|downgraded|switched|restructured|reorganized|reorganised|"
        r"cleaned up|set up|enhanced|improved|optimi[sz]ed|simplified|consolidated|extracted|"
        r"installed|deployed|wired up|hooked up|patched|reverted|tweaked|adjusted)\b"
        r"|(?<!\bbe )(?<!\bis )(?<!\bare )\b(?:created|implemented|completed|added|fixed|resolved|"
        r"done|finished|complete|deleted|removed)\W{0,4}$"
        # "**Bug 1 fixed**: …": a numbered defect closed
        r"|\b(?:bug|issue|defect)\s*#?\d+\s+(?:fixed|resolved|closed)\b"
        # "2026-03-17: Self-healing workflow auto-removed 5 entries": a change under its date
        r"|\b20\d\d-\d\d-\d\d\W{0,3}\s(?:[\w-]+\s+){0,3}?(?:auto-)?(?:added|removed|fixed|"
        r"updated|created|deleted|merged|migrated|reviewed|corrected|released|deployed|shipped)\b",
        "a change reported as made",
        # "Recently added dark mode", "Finished migrating the tests", "Last session we
        # refactored the router": a change reported as just made, or a session told
        Pattern(
            r"^\W*(?:\d+[.)]\s*)?(?:just|recently|finally)\s+(?:added|removed|updated|changed|"
            r"fixed|shipped|landed|released|migrated|implemented|introduced|refactored|switched|"
            r"moved|merged|upgraded|deployed|finished|completed)\b"
            r"|^\W*(?:\d+[.)]\s*)?(?:finished\s+(?:\w+ing|the|up)|(?:shipped|landed|wrapped up)\s+"
            r"(?:the|a|an|our|v\d))\b"
            r"|\b(?:in\s+)?(?:the\s+)?(?:last|previous|prior|earlier)\s+(?:session|sprint|"
            r"iteration|conversation|chat)\b",
            "a change reported as just made, or a session told",
            bounded=False,
        ),
        # "We've identified several issues", "I have fixed the parser", "Changing the bond IDs
        # from 0 and 1 to 1 and 2": the writer reporting work of their own, or a change
        # under way
        Pattern(
            r"\b(?:we|i)(?:'ve|\s+have)\s+(?:now\s+|just\s+|already\s+|successfully\s+)?"
            r"(?:identified|found|fixed|added|implemented|completed|discovered|resolved|created|"
            r"updated|refactored|migrated|removed|switched|finished|verified|confirmed)\b"
            r"|^\W*(?:\d+[.)]\s*)?(?:changing|updating|switching|moving|renaming|replacing|"
            r"migrating)\s+[^.;:]{1,60}?\s+from\s+[^.;:]{1,30}?\s+to\s"
            # "Confirmed `PlaywrightBridgeService` was initializing correctly": a check made once
            r"|^\W*(?:\d+[.)]\s*)?(?:confirmed|verified)\s+(?:that\s+)?[^.;]{1,80}?\b(?:was|were)\b",
            "the writer's own work reported, or a change under way",
            bounded=False,
        ),
    ),
    # "The test was trying to redeem bonds …", "This happened because …", "X was missing
    # essential CRUD methods", "found & fixed after 1.4.0": what went wrong once, told
    "incident_story": _shape(
        r"\b(?:was|were)\s+(?:trying|attempting|expecting|missing|failing|crashing|"
        r"throwing|returning)\b|\bthis happened\b|\bhad already\b|\bfound (?:&|and) fixed\b"
        r"|\b(?:first|second) (?:attempt|try|run)\s+(?:failed|succeeded|worked)\b",
        "what went wrong once, told",
    ),
    # "**PROBLEM**: Graph view was re-centering …", "**Issue:** `currency` hardcoded",
    # "Symptom: …": a field of an incident write-up, what went wrong once
    "incident_field": _shape(
        r"^\W*(?:the\s+)?(?:problem|issue|bug|symptoms?|what happened|what went wrong|"
        r"before|incident|error observed|observed behaviou?r)(?:\s*\([^()]{1,40}\))?"
        r"(?:\W*[:：]|\.(?:\*\*)?\s)",
        "a field of an incident write-up",
    ),
    # "Consider using multiple markets", "Decision needed: …", "potential for …", "Open
    # question: …": a choice still open
    "deliberation": _shape(
        r"^\W*(?:\d+[.)]\s*)?consider(?:ing)?\s+\w|[,;]\s*(?:but\s+)?consider\s+[a-z]"
        r"|\bdecision needed\b|^\W*(?:open\s+)?decisions?\s+(?:needed|pending|required)\b"
        r"|^\W*(?:hypothesis|conjecture|proposition|open idea)\W*[:：]"
        r"|\(\s*(?:using|use|via|with)\s+[^()]{1,20}?\s+or\s+[^()]{1,20}\)"
        r"|\bopen questions?\b|\bpotential for\b|\b(?:still\s+)?(?:deciding|weighing|debating)"
        r"\s+(?:whether|between|if)\b|\b(?:unsure|not sure|undecided)\s+(?:whether|if|which|how)\b",
        "a choice still open",
        # "We are evaluating Redis vs Memcached", "Comparing Vite against webpack": options
        # still being weighed
        Pattern(
            r"^\W*(?:we(?:'re| are)|i(?:'m| am))\s+(?:still\s+)?(?:evaluating|exploring|"
            r"investigating|considering|researching|weighing|comparing|debating|looking into|"
            r"figuring out|trying to decide)\b"
            r"|\b(?:evaluating|comparing|weighing|benchmarking)\s+[^.;:]{1,40}?\s+"
            r"(?:vs\.?|versus|against|or)\s",
            "options still being weighed",
            bounded=False,
        ),
    ),
    # "Needs further testing", "Estimate: 4-5 days", "may already exist", "Next, we will
    # analyse …", "End goal: …": work still to do
    "pending_work": _shape(
        r"\b(?:needs?|requires?)\s+(?:further|more|additional)\s+(?:work|testing|tests|"
        r"investigation|optimi[sz]ation|refinement|tuning|validation|verification|polish)\b"
        r"|\bneeds\s+(?:visual\s+)?(?:iteration|review|a fix|fixing|cleanup|attention)\b"
        r"|^\W*(?:estimate[ds]?|estimated (?:effort|time)|eta|end goal|target date|"
        r"timeline)\W*[:：]"
        r"|\bmay already exist\b|\bnext,?\s+we\b|\bstill (?:needs?|missing|to be)\b"
        r"|^\W*p[0-3]\s*[:：-]?\s+(?:fix|add|implement|remove|refactor|update|修)"
        # "⏳ Import project in Vercel dashboard", "Future: Spanish, French": still to come
        r"|^[\s*_>-]*⏳|^\W*(?:future|later|someday)\W*[:：]"
        # "Performance optimization required": work named as still needed
        r"|\b(?:optimi[sz]ation|refactor(?:ing)?|clean-?up|testing|migration|documentation|"
        r"fix(?:es)?|work)\s+(?:is\s+|are\s+)?(?:still\s+)?(?:required|needed|pending)\s*[.!]?\s*$",
        "work still to do",
        # "The next step is to wire the API in", "Next: add parser tests": the step to take
        Pattern(
            r"^\W*(?:\d+[.)]\s*)?(?:the\s+)?(?:immediate\s+)?next\s+(?:steps?|tasks?|up)\s*"
            r"(?:is|are|will be|would be|[:：—–-])|^\W*(?:\d+[.)]\s*)?\**next\**\s*[:：]",
            "the next step named",
            bounded=False,
        ),
        # "We need to add pagination", "Planning to migrate to Postgres", "Phase 2 will add
        # multi-tenant support": work the writer has still to do
        Pattern(
            r"\b(?:we|i)\s+(?:still\s+)?(?:need|want)\s+to\b"
            r"|^\W*(?:\d+[.)]\s*)?(?:still\s+)?(?:planning|intending|hoping|aiming)\s+to\s+\w"
            r"|\b(?:phase|stage|milestone|sprint|iteration)\s+(?:\d+|one|two|three|four|five)"
            r"\s+will\b",
            "work the writer has still to do",
            bounded=False,
        ),
        # "Open issue: memory leak in the worker", "Outstanding items: …": a field of work
        # left open ("Known issues" hold behaviour and its workaround)
        Pattern(
            r"^\W*(?:\d+[.)]\s*)?(?:open|outstanding|unresolved|remaining)\s+(?:issues?|bugs?|"
            r"problems?|items?|tasks?|work)\W*[:：]",
            "a field of work left open",
            bounded=False,
        ),
    ),
    # "`execute_trade.rb` lines 39 and 60", "(line 27-33)", "**Location**: Line 44": a
    # repair or a location pinned to line numbers, stale at the next edit (a file:line pin
    # is read in any language, dossier.py)
    "line_pin": _shape(
        r"\blines?\s+\d+(?:\s*(?:-|–|to|and|&|,)\s*\d+)*\b(?!\s*(?:characters|chars|words|"
        r"of (?:code|text|output)|long|max|per|or (?:fewer|less|more)))"
        r"|\bl\d+\s*-\s*l?\d+\b",
        "a location pinned to line numbers",
    ),
    # "works well", "proved effective", "materially better", "existing framework is solid",
    # "appears to be", "a cheap reliability win": an impression offered as evidence, with
    # no figure measured
    "impression": _shape(
        r"\bworks?\s+(?:really\s+|very\s+)?(?:well|great|nicely|fine|smoothly)\b"
        r"|\bproved\s+(?:to be\s+)?(?:\w+\s+)?(?:effective|useful|reliable|robust|valuable|"
        r"successful|intuitive|better|worse|superior|solid|excellent|great|ideal|invaluable)\b"
        # "**Verdict:** Best quality but …", "Confidence Level: High - …": a field of
        # judgement; "Exceeded quality expectations", "is production-ready"
        r"|^\W*(?:verdict|assessment|overall assessment|evaluation|rating|confidence(?: level)?|"
        r"variance analysis)\W{0,3}[:：]"
        r"|\bexceeded\s+(?:\w+\s+)?expectations\b|\b(?:is|are)\s+production-ready\b"
        r"|\b(?:materially|significantly|noticeably|much|far|vastly)\s+(?:better|worse|faster|"
        r"slower|simpler|cleaner)\b"
        r"|\b(?:is|are|looks?|feels?)\s+(?:very\s+|quite\s+|pretty\s+)?(?:solid|healthy|"
        r"in good shape|rock[- ]solid)\b"
        r"|\b(?:appears?|seems?)\s+to\s+(?:be|work|have)\b"
        r"|\b(?:cheap|easy|quick|big|huge|clear)\s+(?:\w+\s+)?wins?\b"
        r"|\bconfirmed\s+the\s+(?:\w+\s+)?(?:advantage|benefit|value|superiority)\b"
        r"|^\W*(?:faster|slower|simpler|cleaner|easier|better|safer)\s+than\b"
        # "More comprehensive than most competitors", "Learning Curve: Easier for new
        # contributors", "routing … functions correctly": a comparison or a verdict, unmeasured
        r"|\bmore\s+\w+\s+than\s+(?:most|many|other|competing|typical)\b"
        r"|^\W*(?:[\w ]{1,30}[:：]\s*)?easier\s+for\b"
        r"|\b(?:functions|works|runs|operates)\s+(?:correctly|properly|as expected|flawlessly)\W*$"
        r"|[(]\s*(?:much\s+|far\s+)?(?:better|faster|cheaper|smarter|more accurate)\s+than\b",
        "an impression offered as evidence",
        # "The UI feels snappy", "Users seem to like the onboarding": how it felt or seemed
        Pattern(
            r"\b(?:feels?|felt)\s+(?:very\s+|really\s+|quite\s+|much\s+|more\s+|so\s+|a lot\s+|"
            r"surprisingly\s+|remarkably\s+|incredibly\s+)?"
            r"(?:snappy|smooth|fast|faster|slow|slower|sluggish|responsive|natural|intuitive|"
            r"polished|clunky|clean|great|nice|premium|modern|professional|solid|better|worse)\b"
            r"|\b(?:appears?|seems?)\s+to\s+(?:like|love|prefer|enjoy|help|improve|fix|solve|perform|"
            r"handle|scale|resolve)\b",
            "how it felt or seemed",
            bounded=False,
        ),
    ),
    # "the most likely issue is …", "might be related to", "may become unwieldy", "Likely
    # uses `conftest.py` (needs confirmation)", "would have been caught": a guess
    "speculation": _shape(
        r"\bmost likely\b|^\W*(?:[\w /&-]{1,30}[:：]\s*)?likely\s+(?:uses|is|has|needs|comes)\b"
        # "The AWS SDK likely uses builder patterns", "(implied by standard Rust practices)"
        r"|\b(?:likely|probably)\s+(?:uses|is|are|has|have|needs|relies|runs)\b"
        r"|\((?:implied|assumed|inferred|presumed)\b"
        r"|\b(?:might|may|could)\s+(?:be\s+(?:related|caused|due|an issue|the (?:cause|issue|"
        r"problem)|a problem)|become|need|have been|cause|fail|break|accumulate|leak|grow|degrade|"
        r"slow down)\b|\bpossibly\b"
        r"|\bthere (?:might|may|could) be\b|\bneeds?\s+confirmation\b|\bunconfirmed\b"
        r"|\bwould have (?:been|caught|prevented|saved)\b|\bpresumably\b"
        r"|\b(?:i|we)\s+(?:think|believe|suspect|guess)\b"
        r"|\b(?:this|which)\s+(?:implies|suggests|indicates)\s+that\b"
        # "Impact: Medium - Would improve interaction accuracy": a benefit foreseen
        r"|\bwould\s+(?:likely\s+|probably\s+)?(?:improve|help|reduce|increase|speed up|"
        r"simplify)\b",
        "a guess",
    ),
    # "Recommendation: …", "Future improvement: …", "We should ensure …", "in future
    # refactoring": a fix proposed, not a fact
    "proposed_fix": _shape(
        r"^\W*(?:\d+[.)]\s*)?(?:recommendations?|recommended (?:fix|action)|suggested fix|"
        r"proposed (?:fix|solution|change)|fix plan|future improvements?|improvements?|"
        r"suggestions?|proposals?|remedy|possible (?:fix|solution)s?|workaround idea)\W*[:：]"
        r"|\bwe should\b|\bit (?:would|might) be (?:better|worth|good|nice|wise)\b"
        r"|\bin (?:a |the )?future (?:refactor(?:ing)?|version|release|iteration|rewrite)\b"
        r"|\b(?:could|should) (?:be|also be) (?:improved|refactored|optimi[sz]ed|extended|"
        r"replaced|split|simplified|reworked)\b"
        # "Solution: add an overload that …", "The definitive solution is to refactor …": the
        # fix still to make
        r"|^\W*(?:the\s+)?(?:solution|fix)\W{0,3}[:：]\s*(?:add|create|implement|refactor|rewrite|"
        r"introduce|extract)\b"
        r"|\b(?:the\s+)?(?:definitive|proper|real|best|right|correct|long-term)\s+(?:solution|fix)\s+"
        r"(?:is|would be|will be)\s+to\b",
        "a fix proposed, not a fact",
    ),
    # "Easier to maintain and scale", "for maximum compatibility", "clear separation of
    # concerns", "adheres to … best practices", "well-structured", "Better organization":
    # a benefit claimed, with nothing that shows it
    "benefit_phrase": _shape(
        r"\b(?:easier|simpler)\s+to\s+(?:maintain|scale|test|read|understand|extend|debug|"
        r"reason about|use|navigate)\b"
        r"|\bfor\s+(?:maximum|maximal|better|greater|improved|optimal|enhanced)\s+[\w-]+\b"
        r"|\bto\s+(?:facilitate|enhance|improve|promote|maximi[sz]e)\s+(?:the\s+)?(?:[\w-]+\s+)?"
        r"(?:testing|maintenance|maintainability|[\w-]+ability|feel|experience|performance|"
        r"security|productivity|quality|efficiency|organization|consistency)\b"
        r"|\bclear\s+separation\s+of\s+concerns\b|\bbest\s+practices\b(?![\w ]*[:：])"
        r"|^\W*better\s+(?:organi[sz]ation|performance|maintainability|structure|ux|code quality|"
        r"developer experience|"
        r"user experience|reliability|security)\b"
        r"|\bwell-(?:structured|designed|organi[sz]ed|architected|engineered|crafted)\b"
        # "a secure, scalable, and maintainable architecture": qualities listed, none shown
        r"|\b(?:secure|scalable|maintainable|robust|reliable|performant|flexible|extensible|"
        r"modular|testable)(?:,\s*(?:and\s+)?|\s+and\s+)(?:secure|scalable|maintainable|robust|"
        r"reliable|performant|flexible|extensible|modular|testable)\b"
        r"|\b(?:high-performance|high-throughput|high-quality|enterprise-grade|"
        r"production-grade|cutting-edge|state-of-the-art|battle-tested|world-class)\b"
        r"|\bcomplete\s+(?:[\w-]+\s+)?solution\b|\bdesigned to be\s+(?:responsive|scalable|"
        r"robust|flexible|fast|secure|modular|extensible)\b"
        r"|\blatest\s+(?:stable\s+)?(?:version|release)\b|\blatest stable\b"
        r"|\b(?:should|must)\s+be\s+(?:optimi[sz]ed|efficient|fast|performant|robust|scalable|"
        r"clean|secure)\s+(?:to|for)\b|^\W*aim\s+for\s+(?:high|good|better|maximum|full)\b",
        "a benefit claimed, nothing that shows it",
        # "Lightning-fast builds", "a seamless, hassle-free setup": a marketing word
        Pattern(
            r"\b(?:lightning[- ]fast|blazing(?:ly)?[- ]fast|super[- ]fast|ultra[- ]fast|"
            r"rock[- ]solid|seamless(?:ly)?|effortless(?:ly)?|hassle[- ]free|frictionless|"
            r"best[- ]in[- ]class|next[- ]gen(?:eration)?|unparalleled|unmatched|top[- ]notch|"
            r"user[- ]friendly|developer[- ]friendly|powerful)\b",
            "a marketing word",
            bounded=False,
        ),
        # "Significantly reduces boilerplate", "makes the codebase more maintainable",
        # "highly scalable", "ensures high availability": a gain claimed with no measure
        Pattern(
            r"\b(?:significantly|dramatically|greatly|drastically|massively|vastly|hugely|"
            r"substantially|considerably|tremendously)\s+(?:improv|reduc|speed|increas|boost|enhanc|"
            r"simplif|lower|cut|accelerat|streamlin)\w*"
            r"|\bmakes?\s+(?:[\w-]+\s+){0,3}?(?:more|much more|far more|easier to)\s+"
            r"(?:maintainable|readable|testable|scalable|robust|reliable|flexible|secure|efficient|performant|"
            r"modular|reusable|maintain|read|test|scale|extend|understand)\b"
            r"|\bhighly\s+(?:scalable|available|maintainable|performant|efficient|flexible|"
            r"extensible|modular|optimi[sz]ed|reliable|responsive|customi[sz]able|secure|robust)\b"
            r"|\b(?:ensures?|guarantees?)\s+(?:high\s+|better\s+|improved\s+|maximum\s+|full\s+)?"
            r"(?:availability|fault[- ]tolerance|resilience|scalability|reliability|performance|"
            r"robustness|usability|productivity|efficiency)\b",
            "a gain claimed with no measure",
            bounded=False,
        ),
        # "a smooth user experience", "Performance is excellent", "Simple yet powerful API",
        # "Fast, reliable and secure": an experience or a verdict praised, or praise alone
        Pattern(
            r"\b(?:smooth|seamless|intuitive|delightful|great|excellent|superior|polished|snappy|"
            r"fluid|better|improved|enhanced|rich)\s+(?:user\s+|developer\s+)?(?:experience|ux|dx)\b"
            r"|\b(?:performance|quality|reliability|stability|usability|speed|ux|dx)\s+(?:is|are|"
            r"remains?)\s+(?:excellent|great|outstanding|superb|very good|impressive|top-notch)\b"
            r"|\b(?:simple|easy|lightweight|small|minimal)\s+(?:yet|but)\s+(?:powerful|flexible|"
            r"capable)\b"
            r"|^\W*(?:fast|reliable|secure|scalable|robust|simple|lightweight|modern|flexible|"
            r"efficient|powerful|intuitive|maintainable|performant|elegant)(?:\s*(?:,|and|&)\s*"
            r"(?:and\s+)?(?:fast|reliable|secure|scalable|robust|simple|lightweight|modern|"
            r"flexible|efficient|powerful|intuitive|maintainable|performant|elegant)){1,}\W*$",
            "an experience or a verdict praised",
            bounded=False,
        ),
    ),
    # "Line length `100`": the short noun label of a setting written with no colon.
    "span_label": (
        Pattern(
            r"[A-Za-z][A-Za-z-]*(?: [A-Za-z][A-Za-z-]*){0,2}", "up to three words", bounded=False
        ),
    ),
    # Label words that point ("See `x`") or name a state ("Version `1.2`"): no setting's.
    "not_a_label": words(
        """see cf refer read check view visit consult current currently now latest version
        status today"""
    ),
    # "this file": the file a line just named, not the memory file it sits in.
    "file_anaphor": ("this file", "that file"),
    # Words a line quotes ("the "ask first" rule"): not its own directions ("…" is also
    # Chinese's).
    "quotation": (
        Pattern(r'"[^"\n]*"', "in straight double quotes", bounded=False),
        Pattern(r"“[^”\n]*”", "in curly double quotes", bounded=False),
        Pattern(r"'[^'\n]{2,}'", "in single quotes", bounded=False),
    ),
    # '"gameserver" everywhere — never "server"': a short quoted name, its text the group.
    "quoted_name": (
        Pattern(r'"([^"\n]{1,40})"', "in straight double quotes", bounded=False),
        Pattern(r"“([^”\n]{1,40})”", "in curly double quotes", bounded=False),
    ),
    # "**Sync**: ✅ done": the state a status mark stands beside.
    "status_word": (
        Pattern(
            r"(?i:done|fixed|resolved|passing|ok|current|in progress|blocked|pending|complete|"
            r"completed|working)\b",
            "done, fixed, pending …",
            bounded=False,
        ),
    ),
    # "## Session (2026-03-05)": a heading word that names a log entry before its date.
    "log_heading": (Pattern(r"(?i:session|log|update)", "session, log, update", bounded=False),),
    # Between a date's year, month and day: "2026-03-11", "2026/3/11", "2026.03.11".
    "date_separator": ("-", "/", "."),
    # Put before an item under a heading of what not to do, so it reads as the
    # prohibition it is ("## Don'ts" > "force-push to main").
    "prohibition_prefix": ("Do not",),
}
