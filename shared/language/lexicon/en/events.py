"""English markers the scanner judges events with (data only).

Marker tables are ordered: the first marker whose pattern matches names the event, and
every English marker of a table comes before the Chinese ones unless its ``rank`` says
otherwise.
"""

from __future__ import annotations

from shared.language.lexicon.concept import Entry, Marker, Pattern, words

CONCEPTS: dict[str, tuple[Entry, ...]] = {
    # A correction of what the agent did (first marker wins).
    "correction_marker": (
        Marker("no,", r"^\s*no\b\s*[,.!;:\-\u2013\u2014]"),
        Marker("nope", r"^\s*nope\b"),
        Marker("that's wrong", r"\bthat'?s (?:wrong|not right|incorrect|not it)\b"),
        Marker("wrong", r"\b(?:wrong|incorrect)\b"),
        Marker("not what I asked", r"\bnot what i (?:asked|wanted|meant|said)\b"),
        Marker(
            "I told you",
            r"\bi (?:told|asked|said to|already said|already told) you\b",
        ),
        Marker("I said", r"\bi (?:said|told you)\b"),
        Marker(
            "again you",
            r"\b(?:again,? you|you again|you keep|you still|yet again|once again)\b",
        ),
        # "can you double check again?" asks; "you broke it again" complains.
        Marker(
            "you ... again",
            r"(?<!can )(?<!could )(?<!would )(?<!will )\byou \w+\b[^.?!]{0,60}\bagain\b",
        ),
        Marker("stop", r"\bstop\s+(?!by\b)\w+"),
        # "why don't you try X" suggests; it corrects nothing.
        Marker("don't", r"(?<!why )\b(?:don'?t|do not|dont)\b"),
        Marker("actually", r"^\s*actually\b"),
        Marker("instead", r"\binstead\b"),
        Marker(
            "you forgot",
            r"\byou (?:forgot|missed|ignored|didn'?t|did not|should have)\b",
        ),
        Marker("should have", r"\bshould(?:'ve| have)\b"),
        Marker("why did you", r"\bwhy (?:did|do) you\b"),
        # "why didn't you run X first": a complaint, unlike "why don't you try X".
        Marker(
            "why didn't you",
            r"\bwhy (?:didn'?t|did not|haven'?t|have not|wouldn'?t|weren'?t) you\b",
        ),
        # Rhetorical outrage: "in what world is that DRY?", "what the hell".
        Marker("in what world", r"\bin what world\b|\bwhat the (?:hell|heck|fuck)\b|\bwtf\b"),
        Marker("you ... without", r"\byou \w+ without\b"),
        Marker(
            "still doesn't",
            r"\bstill (?:doesn'?t|does not|isn'?t|is not|hasn'?t|not)\b",
        ),
        Marker(
            "out of date",
            # Not in a request's reason: "remove byok since it's no longer supported"
            # asks for a change; it corrects nothing.
            r"\b(?:out of date|outdated|obsolete|we stopped|cancel+ed)\b"
            r"|(?<!since it's )(?<!since it is )(?<!because it's )(?<!because it is )"
            r"(?<!as it's )(?<!as it is )\bno longer\b",
        ),
        Marker(
            "must ... now",
            r"\b(?:must|has to|have to|needs? to)\b[^.!?]{0,80}\bnow\b",
        ),
    ),
    # A standing instruction for every later occasion.
    "instruction_marker": (
        # Not before a third-person verb: "it always returns early", "never executes the
        # defaulting logic" describe code; "always run", "never use" instruct.
        Marker("always", r"\balways\b(?!\s+[a-z]+[^s\s]s\b)"),
        Marker("from now on", r"\bfrom now on\b"),
        Marker("never", r"\bnever\b(?! ?mind)(?!\s+[a-z]+[^s\s]s\b)"),
        Marker("every time", r"\b(?:every|each) time\b|\bwhenever\b"),
        Marker("going forward", r"\bgoing forward\b|\bin (?:the )?future\b|\bnext time\b"),
        Marker("remember to", r"\bremember (?:to|that)\b|\bdon'?t forget\b"),
        Marker("please make sure", r"\bmake sure\b|\bbe sure to\b"),
        Marker("by default", r"\bby default\b|\bas a rule\b"),
    ),
    # A stated preference.
    "preference_marker": (
        Marker("I prefer", r"\bi(?:'d| would)? prefer\b|\bmy preference\b"),
        Marker("I'd rather", r"\bi'?d rather\b|\bi would rather\b"),
        Marker("I like", r"\bi (?:really )?like (?:it )?when\b|\bi like\b"),
        Marker(
            "I don't like",
            r"\bi (?:don'?t|do not) (?:like|want|enjoy)\b|\bi (?:hate|dislike)\b",
        ),
        Marker("I want you to", r"\bi (?:want|need|'d like|would like) you to\b"),
    ),
    # The user takes back their own earlier correction: the latest word wins.
    "retraction_marker": (
        Marker(
            "never mind",
            r"\bnever ?mind\b|\bscratch that\b|\bdisregard (?:that|my|what)\b|"
            r"\bignore (?:that|what i said|my (?:last|previous))\b|"
            r"\bforget (?:that|what i said|i said)\b",
        ),
        Marker(
            "I was wrong",
            r"\bi was wrong\b|\bmy (?:bad|mistake)\b|\byou were right\b|"
            r"\b(?:it|that|this) was (?:fine|right|correct) (?:after all|all along)\b|"
            r"\bactually,? (?:it|that|your \w+) (?:was|is) (?:fine|right|correct)\b",
        ),
    ),
    # Approval of what the agent did.
    "approval_marker": (
        Marker(
            "perfect",
            # "exactly" approves only as the reply's first word ("Exactly, and …"); inside
            # a request it is an adverb ("create these files exactly as below").
            r"\b(?:perfect|spot on|well done|great job|nice work|nailed it)\b|^exactly\b",
        ),
        Marker(
            "that's right",
            r"\bthat'?s (?:right|correct|it|what i wanted|exactly what)\b",
        ),
    ),
    # Where a correction or instruction states the behaviour it wants (group 1).
    "wanted_marker": (
        Marker(
            "stop/don't/never ...",
            r"(?:^|[,.;!:]\s*|\bplease\s+|\b(?:could|can|would|will) you (?:please )"
            r"?)((?:stop|don'?t|do not|never)\s+\w.+)",
            rank=0,
        ),
        Marker("instead, ...", r"\binstead,?\s+(?:please\s+)?(.+)", rank=2),
        Marker("you should ...", r"\b(?:you should|you need to|you must|please)\s+(.+)", rank=3),
        Marker(
            "I want ...",
            r"\bi (?:want|need|asked for|told you to|said to|wanted)\s+(.+)",
            rank=4,
        ),
        Marker(
            "always/from now on ...",
            r"\b(?:always|from now on,?|going forward,?|remember to)\s+(.+)",
            rank=5,
        ),
    ),
    # The new direction of a direction change, in a reader's order (group 1).
    "new_direction_marker": (
        Marker(
            "... instead of ...",
            r"(?:^|[.!?;,:]\s*)(?:please\s+)?(?:(?:from now on|going forward),?\s+)?"
            r"([a-z][^.!?;,:\n]*?\s+instead of\s+[^.!?;,\n]+)",
            rank=1,
        ),
        Marker("instead, ...", r"\binstead,?\s+(?!of\b)(?:please\s+)?([^.!?;\n]+)", rank=2),
        Marker("from now on, ...", r"\b(?:from now on|going forward),?\s+([^.!?;\n]+)", rank=3),
        Marker(
            "... must ... now",
            r"(?:^|[.!?;]\s+|,\s*)((?:the |our |my |your |all |every )?[\w'-]+(?: [\w"
            r"'-]+){0,5} (?:must|should|needs? to|has to|have to) [^.!?;\n]*\bnow\b["
            r"^.!?;\n]*)",
            rank=4,
        ),
        Marker(
            "... instead",
            r"(?:^|[.!?;,]\s*)((?:please\s+)?[a-z][^.!?;,\n]*?)\s+instead\b",
            rank=5,
        ),
    ),
    # Messages made only of these are greetings or receipts.
    "greeting": words(
        """hi hello hey yo thanks thank thx ty ok okay k kk got it cool great nice good morning
        evening afternoon night bye goodbye cheers sure yes yep yeah alright perfect awesome
        sounds fine understood noted you much lot a so very all right welcome np"""
    ),
    "question_opening": (
        Pattern(
            r"(?i:^\s*(?:what|how|when|where|why|who|which|is|are|was|were|do|does|did|can|"
            r"could|will|would|should|have|has)\b)",
            "a question word opening the text",
            bounded=False,
        ),
    ),
    # A qualifier that limits a request to this occasion.
    "one_off": (
        "this time",
        "just this once",
        "for now",
        "for today",
        "today only",
        "right now",
        "yet",
        # A request scoped to the changes it spells out: "make these exact changes",
        # "replace the contents with the following".
        Pattern(
            r"\b(?:these|the following)(?: exact)? (?:changes|edits)\b|\blisted below\b|"
            r"\bwith the following\b",
            "a request scoped to the edits it lists",
        ),
    ),
    # Lead words a standing instruction opens with, dropped from its rule.
    "lead_word": (
        Pattern(
            r"from now on|going forward|in (?:the )?future|next time|please|remember to|"
            r"make sure to|make sure|always|by default|also|and|so|ok|okay|no|actually",
            "an instruction's lead words (matched as prefixes, case-insensitively)",
            bounded=False,
        ),
    ),
    # What a correction says about the line it weakens: the practice stopped ...
    "obsolete": (
        Pattern(
            r"\b(?:out of date|outdated|obsolete|deprecated|discontinued|cancel+ed|"
            r"no longer (?:needed|relevant|applies|apply|true|necessary|a thing|the case)|"
            r"we (?:stopped|quit|dropped|ended|no longer do|don'?t do that)|"
            r"(?:is|are)(?:n'?t| not) (?:needed|used|relevant|happening) any ?more|"
            r"(?:not|no) (?:doing|needed|using|sending) (?:that|this|it|them) any ?more|"
            r"doesn'?t apply any ?more|don'?t (?:do|need) (?:that|this|it) any ?more)",
            "the practice stopped",
            bounded=False,
        ),
    ),
    # ... or a replacement behaviour is named: the line's direction changes.
    "redirect": (
        Pattern(
            r"\b(?:instead|rather than|from now on|going forward|switch(?:ed)? to|not the old|"
            r"(?:must|should|needs? to|has to|have to)\b[^.!?。！？]{0,80}\bnow\b|"
            r"\bnow\b[^.!?。！？]{0,12}\b(?:must|should|needs? to|has to|have to)\b)",
            "a replacement behaviour named",
            bounded=False,
        ),
    ),
    "change": (Pattern(r"\bno longer\b", "'no longer'", bounded=False),),
    # --- What the agent did (shared/weaver/scan/actions.py) ---
    # Words before a command in a line's clause that forbid running it.
    "command_forbidden": (
        Pattern(
            r"(?i:\b(?:don'?t|do not|never|avoid|not|no|instead of|rather than|"
            r"no longer|stop using|without|must not|should not|shouldn'?t|mustn'?t)\b)",
            "a forbidding word: the command after it in the clause is not to be run",
            bounded=False,
        ),
    ),
    # A kind of speech a line may forbid the agent ("Never use apologies"): a reply that
    # holds it breaks the line.
    "speech:apology": (
        Pattern(
            r"(?i:\b(?:apolog(?:y|ies|i[sz]e[sd]?|i[sz]ing)|i'?m (?:so |very )?sorry"
            r"|sorry (?:for|about)|my (?:bad|mistake))\b)",
            "an apology",
            bounded=False,
        ),
    ),
    # A line prescribing a kind of step without naming its command.
    "step:test": (
        Pattern(
            r"(?i:\b(?:run|running|execute|re-?run)\b(?:\s+\w+){0,3}?\s+(?:unit\s+)?"
            r"tests?\b|\btest suite\b|\btests? (?:must|should) pass\b)",
            "running the tests",
            bounded=False,
        ),
    ),
    "step:lint": (
        Pattern(
            r"(?i:\b(?:run|running)\b(?:\s+\w+){0,2}?\s+(?:the\s+)?(?:linter|lint|linting)\b|"
            r"\blint(?:ing)? (?:must|should) pass\b)",
            "running the linter",
            bounded=False,
        ),
    ),
    "step:format": (
        Pattern(
            r"(?i:\b(?:run|running)\b(?:\s+\w+){0,2}?\s+(?:the\s+)?(?:formatter|format)\b)",
            "running the formatter",
            bounded=False,
        ),
    ),
    "step:typecheck": (
        Pattern(
            r"(?i:\b(?:run|running)\b(?:\s+\w+){0,2}?\s+(?:the\s+)?"
            r"(?:type ?check(?:er|ing)?|type checks)\b)",
            "running the type checker",
            bounded=False,
        ),
    ),
    "step:build": (
        Pattern(
            r"(?i:\b(?:run|running)\b(?:\s+\w+){0,2}?\s+(?:the\s+)?build\b)",
            "running the build",
            bounded=False,
        ),
    ),
    # Pushing what was committed: "All commits must be pushed immediately", "commit and
    # push". Only after a word that asks for it, so "never push to main" is no step.
    # Pushing to a branch a line names ("never push directly to `main`").
    "push_to": (
        Pattern(
            r"(?i:\bpush(?:es|ed|ing)?\b(?:\s+\w+){0,2}?\s+(?:to|into|on|onto)\s*$)",
            "pushing to the branch that follows",
            bounded=False,
        ),
    ),
    "step:push": (
        Pattern(
            r"(?i:\b(?:must|should|always|then|and)\s+(?:be\s+)?push(?:ed)?\b|"
            r"\bpush(?:ed)?\s+(?:immediately|right away|straight away|at once)\b)",
            "pushing the commits",
            bounded=False,
        ),
    ),
    "situation:commit": (
        Pattern(
            r"(?i:\b(?:before|when|after|prior to|ahead of)\s+(?:you\s+|each\s+|every\s+|any\s+)?"
            r"(?:commit(?:ting|s)?|git commit)\b|\b(?:all|every|each)\s+commits?\b)",
            "a situation that is the step of committing",
            bounded=False,
        ),
    ),
    "situation:push": (
        Pattern(
            r"(?i:\b(?:before|when|after|prior to)\s+(?:you\s+)?(?:push(?:ing)?|"
            r"opening a (?:pr|pull request)|creating a (?:pr|pull request))\b)",
            "a situation that is the step of pushing or opening a pull request",
            bounded=False,
        ),
    ),
    # A durable instruction: what makes a request a standing rule rather than a task
    # (shared/weaver/judging/judgements.py gates NEW_SIGNAL on it).
    "durable_marker": (
        Pattern(
            r"(?i:\b(?:from now on|going forward|from here on|next time|every time|each time|"
            r"whenever|by default|as a rule|remember (?:to|that|this|it)|don'?t forget|"
            r"keep in mind|i(?:'d| would)? prefer|i'?d rather|my preference|"
            r"i (?:really )?(?:like|hate|dislike) (?:it )?when|memori[sz]e|"
            # A standing situation of its own ("attempt dotnet format when needing to
            # fix lint errors") and a standing like or dislike ("I don't like nested
            # types, and I like all types to have their own file").
            r"when(?:ever)? (?:you )?(?:need(?:ing|s)? to|having to|trying to)|"
            r"i (?:really )?(?:don'?t|do not|dont) like|"
            r"i (?:really )?like (?:all|every|each|my|our)|"
            r"never (?:happens?|repeats?|occurs?) again|(?:update|change|edit|amend) "
            r"(?:that|the|this|your) rules?|should (?:always|never))\b)",
            "words that make an instruction standing",
            bounded=False,
        ),
        Pattern(
            r"(?i:\b(?:make|add|create|write|put|save|update|record)\b[^.!?\n]{0,40}?"
            r"\b(?:a rule|the rules?|rules? file|claude\.md|agents\.md|\.cursorrules|"
            r"cursor rules?|memory|memories|your notes|guidelines|conventions)\b)",
            "a request to write the instruction down as a rule",
            bounded=False,
        ),
        Pattern(
            r"(?i:(?:^|[.!?;:\n]\s*|\b(?:please|pls|and|so|you should|we should|you must|"
            r"we must|you need to|make sure (?:to|you)|to)\s+)(?:always|never)\s+"
            # not before a third-person verb: "and never executes the defaulting logic"
            # describes code
            r"(?![a-z]+[^s\s]s\b)(?!mind\b)[a-z]+)",
            "'always' or 'never' said as an imperative, not describing something",
            bounded=False,
        ),
        Pattern(
            r"(?i:(?:^|[.!?;\n]\s*)(?:please\s+)?(?:don'?t|dont|do not|never|stop)\s+"
            r"(?!worry|mind|bother|know|think|get|forget|here|now|it\b)[a-z]+)",
            "a prohibition opening a sentence: a standing 'don't'",
            bounded=False,
        ),
    ),
    # A request to remember, said around an instruction: not part of the rule itself.
    "memory_request": (
        Pattern(
            r"(?i:[,;]?\s*(?:and\s+)?(?:please\s+)?(?:remember (?:this|that|it)|"
            r"keep (?:this|that|it) in mind|"
            r"make (?:a|this a|it a) rule(?: (?:for|of) (?:it|this))?|"
            r"add (?:this|it) to (?:your )?(?:memory|rules))"
            r"(?:\s+(?:for|in) (?:every|all|each|future) (?:sessions?|time))?)",
            "asking to remember the rule, which is not the rule",
            bounded=False,
        ),
    ),
    # A line asking the agent to act without asking first (scan/actions.py, replies).
    "no_confirmation": (
        Pattern(
            r"(?i:\b(?:do not|don'?t|never|without)\s+(?:ask(?:ing)?|wait(?:ing)?)\s+for\s+"
            r"(?:confirmation|approval|permission)|\bno confirmation prompts?\b|"
            r"\bwithout asking\b|\bdon'?t just tell me what to do\b)",
            "the line says to act without asking for confirmation",
            bounded=False,
        ),
    ),
    # The agent closes its reply by offering the next step instead of taking it.
    "agent_offer": (
        Pattern(
            r"(?i:\b(?:would you like me to|do you want me to|shall i|should i go ahead|"
            r"want me to|let me know if you(?:'d like| want) me to)\b[^.!]{0,200}\?\s*$)",
            "an offer of the next step, closing the reply",
            bounded=False,
        ),
    ),
    # Asking to look over something that exists ("review the changelog entry"): not a
    # request to make it.
    "inspection_request": (
        Pattern(
            r"(?i:\b(?:review|proofread|inspect|double-check|check|look (?:at|over)|see if)\b)",
            "asking to look over what exists",
            bounded=False,
        ),
    ),
    # A list item that states a requirement of the task it belongs to ("2. don't show a
    # disclaimer", "- no emojis", "3. use tabs instead"): a prohibition inside a task
    # list specifies the task; it corrects nothing the agent did.
    "requirement_item": (
        Pattern(
            r"(?i:^\W*(?:don'?t|do not|dont|no|never|avoid|without)\b|\binstead\b)",
            "a list item stating a requirement",
            bounded=False,
        ),
    ),
    # A verb that introduces the words a line tells the agent to say ('say "I need
    # clarification on [specific thing]"', 'reply with "Done."'): the agent saying them
    # follows the line.
    "say_verb": (
        Pattern(
            # Imperative or -ing only: "when the user says / asks …" quotes the person.
            r"(?i:\b(?:say|reply|respond|answer|ask|write|start|open|begin|end)(?:ing)?"
            r"(?:\s+(?:with|by saying))?\b)",
            "saying given words",
            bounded=False,
        ),
    ),
    # A standing request about what was just discussed rather than a rule of its own
    # ("make sure you always do this going forward", "how will you make sure this
    # happens?"): after a correction of a board line it asks for that line again.
    "anaphoric_request": (
        Pattern(
            r"(?i:\b(?:do|does|doing|did)\s+(?:this|that|it|so)\b|"
            r"\b(?:this|that|it)\s+(?:happens?|is done|gets done)\b|"
            r"\b(?:remember|record|note)\s+(?:this|that|it)\b)",
            "a request that points back at what was discussed",
            bounded=False,
        ),
    ),
    # A complaint pointing at the rule just discussed ("why didn't you follow this rule?").
    "rule_reference": (
        Pattern(
            r"(?i:\b(?:this|that|the|these|those|your|my)\s+(?:rules?|instructions?|guidelines?)\b)",
            "pointing at the rule just discussed",
            bounded=False,
        ),
    ),
    # A line that hands over what follows it ("See below:", "here is the output:"): a
    # long rest after it is pasted, not the user's words.
    "paste_lead": (
        Pattern(
            r"(?i:\b(?:see below|below|as follows|the following|here(?:'s| is| are) (?:the )?"
            r"\w+(?: \w+)?|output|log|logs|message|docs?|announcement)\s*:\s*$)",
            "a line handing over pasted text",
            bounded=False,
        ),
    ),
    # A line about commit messages in the Conventional Commits form (actions: the
    # message of a commit the agent ran follows or breaks it).
    "conventional_commits": (
        Pattern(
            r"(?i:\bconventional[- ]commits?\b|\bsemantic commit|\bcommit message format\b)",
            "the Conventional Commits form of commit messages",
            bounded=False,
        ),
    ),
    # A line that asks to write or update a file (actions: an edit of it follows it).
    "file_write": (
        Pattern(
            # Inflections only: "address", "keeper", "notebook" are other words.
            r"(?i:\b(?:updat(?:e[sd]?|ing)|add(?:s|ed|ing)?|writ(?:es?|ing|ten)|wrote"
            r"|(?:record|append|bump|increment|edit|document)(?:s|ed|ing)?|keep(?:s|ing)?|kept"
            r"|not(?:e[sd]?|ing))\b)",
            "writing or updating a file",
            bounded=False,
        ),
    ),
}
