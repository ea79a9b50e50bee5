"""English phrases for claim analysis: triggers, directions, negation, the outside world.

Word lists are matched as whole words (the rules split English into words); phrase
lists compile to one regex at word boundaries, tried in the order written.
"""

from __future__ import annotations

from shared.language.lexicon.concept import Entry, Pattern, phrases, words

_UNITS = (
    r"(?:turn|session|commit|change|push|pr|pull request|task|batch|run|release|deploy|file|"
    r"step)"
)

# "review your changes", "ensure you are satisfied with them" (``own_work_check``)
_OWN_CHECK = (
    r"(?:review|check|verify|test|double-check|re-?read|inspect|examine)\s+(?:over\s+)?"
    r"(?:your|the|all)\s+(?:own\s+)?(?:changes|work|edits|output|answers?)"
)
_CONTENTMENT = (
    r"(?:ensure|make sure|be sure)\s+(?:that\s+)?you(?:'re|\s+are)\s+"
    r"(?:satisfied|happy|comfortable|confident)(?:\s+with\s+(?:them|it|the\s+\w+))?"
)

CONCEPTS: dict[str, tuple[Entry, ...]] = {
    # ------------------------------------------------------------ triggers
    # A recognisable situation a rule applies in.
    "trigger": (
        *phrases(
            """when|if|unless|before|after|once|while|during|upon|until|as soon as|each time|
            every time|any time|anytime|in case|whenever|wherever"""
        ),
        # "Every PR is an improvement": a unit said to be something is a claim about all
        # of them, not the moment of an action ("Every PR must pass CI" is one).
        Pattern(
            rf"(?:each|every)(?=\s+{_UNITS}\b(?!\s+(?:is|are|was|were)\b))",
            "'every' before a unit of work, not before a copula",
        ),
        Pattern(r"^where\b", "a leading 'where' clause", bounded=False),
    ),
    # A clause that opens on its condition ("When the build fails, …"): the situation it sets
    # off, not a thing to do.
    "conditional_lead": (
        Pattern(
            r"^\W*(?:once|when|whenever|if)(?=\W|[\u4e00-\u9fff])",
            "a condition opening the clause",
            bounded=False,
        ),
    ),
    # A leading scope phrase ("With <Person>,", "For deploy questions,", "On Mondays,").
    "scope": (
        Pattern(
            r"^(?:with|for|in|on|at|during|around|to|about|from)\s+\S",
            "a preposition opening the line, then its object",
            bounded=False,
        ),
    ),
    # "…, e.g. batch imports, …": a clause of examples of the one before it.
    "example_lead": (
        Pattern(
            r"^\W*(?:e\.\s?g\.?|for example|for instance|such as)(?:\s|,|:|$)",
            "an example lead opening a clause",
            bounded=False,
        ),
    ),
    # Scope phrases that name no situation (checked with startswith).
    "generic_scope": phrases(
        """in general|overall|in short|for now|in practice|at all times|in every case|for all|
        by default|in most cases|as a rule|for example|in any case|in summary|on the whole|
        for instance|in addition|at first|in fact|to be safe|for clarity|on average|at times|
        in particular|for sure"""
    ),
    # Words that do not make a trigger concrete on their own.
    "generic": words(
        """answer answering answers respond responding response responses reply replying
        replies help helping work working talk talking chat chatting conversation
        conversations message messages anything something everything always possible needed
        necessary appropriate applicable relevant useful asked asks ask you your any every
        all time times case cases situation situations general user users question questions
        task tasks request requests someone people person anyone doing do does doubt unsure
        sure interacting interaction interactions writing write output outputs text thing
        things stuff matter matters prompted warranted required requested unclear uncertain
        instructed told makes make sense"""
    ),
    "stop": words(
        """a an the and or but of in on at by for with from into onto to about as is are was
        were be been being am it its this that these those there here he him his she her
        they them their we us our i me my would could should will can may might must has
        have had not no so such than then too very just also through across within without
        against between what which who whom whose whatever"""
    ),
    # ------------------------------------------------------------ directions
    "imperative": words(
        """accept acknowledge add address adjust admit adopt alert align announce annotate
        answer append apply approve archive argue ask assign assume attach avoid back batch
        begin bold book bring build bump call cancel capture carry cc change check choose
        cite clarify classify clean close collect combine commit compare compress confirm
        connect consult continue convert copy correct count create cross cut decline default
        defer define delegate delete deliver describe detect diff direct disable discard
        display do document double-check download draft drop echo edit email emphasize
        enable end ensure enter escalate estimate explain export extract fetch file fill
        filter find finish fix flag focus follow forward frame gather gate give go greet group
        guard handle hide highlight hold ignore include inform insert inspect install invite
        isolate keep label launch lead leave limit link list load locate lock log look lower
        make mark measure mention merge message mirror move mute name narrow note notify
        number offer omit open order organize outline pair paraphrase parse paste pause
        phrase pick pin ping place plan point post postpone prefer prepare present preserve
        print prioritize probe produce prompt propose provide pull push put query question
        queue quote raise rank read reassure recap recommend record redirect reduce re-read
        re-run refer reference reframe refuse reject remind remove rename reopen repeat
        rephrase replace reply report request rerun reschedule reset resolve respect respond
        restart restate restore resume retry return reuse review revise revert rewrite route
        run save say scan schedule search select send separate set share shorten show sign
        skip slow sort speak specify split start state stay steer stop store submit suggest
        summarise summarize supply surface swap switch tag take tell test thank track
        transcribe translate treat trim try turn type underline undo unify update upgrade
        upload use validate verify wait warn watch wrap write identify break cap spell embed
        format structure bullet calculate compute benchmark profile debug trace reproduce
        bisect refactor comment localize transliterate reword simplify expand elaborate
        condense delay nudge reserve cross-check browse grep skim reread backup uninstall
        downgrade unpin unlock toggle match mimic recycle fall fallback concede disagree
        challenge advise caution halt abort redo rollback roll prepend chunk pre-fill
        prefill sanitize redact mask anonymize escape spell-check proofread tabulate chart
        integrate enhance favor favour employ utilize utilise encapsulate instantiate
        recompile rebuild reinstall regenerate redeploy reindex reformat retest recheck
        reconfirm reconnect recreate relaunch refetch reapply reauthenticate reinitialize
        reconfigure recompute recalculate reimport rescan retrigger revalidate reverify
        rethrow re-throw reraise re-raise resubmit resync re-check re-test re-verify refine
        re-validate re-apply re-build re-compile re-generate re-deploy re-create re-install
        re-index re-fetch re-sync re-submit
        conform comply adhere obey
        initialize initialise debounce deserialize encrypt decrypt compile bundle lint minify
        suffix indent lowercase uppercase capitalize alias
        plot visualize diagram sketch prototype scaffold stub mock seed migrate deploy ship
        release publish brief debrief hand triage prioritise timebox price invoice bill
        refund charge pay transfer buy sell exchange let get catch implement base justify
        persist register grant rebase squash stage wire centralize extend prefix assert
        await bind cache cast clone configure constrain declare decouple dedupe deduplicate
        deprecate derive dispatch dispose emit encode decode enforce enqueue evaluate
        exclude expose flush fork freeze generate hash hoist import index infer inherit
        inject inline invalidate invoke iterate leverage memoize minimize mount namespace
        normalize normalise override paginate parallelize parametrize parameterize pass
        patch poll populate precompute preload prevent promote prune re-export refresh
        reload render reorder replay require restrict retain rotate sanitise scope seal
        serialize serve snapshot spawn stream strip subscribe suppress sync throttle throw
        truncate unwrap upsert vendor whitelist allowlist denylist
        investigate diagnose troubleshoot examine"""
    ),
    # Verbs that direct nothing concrete on their own ("be careful", "consider it").
    "vague_verb": words(
        """be consider think remember handle deal try act do proceed behave stay adapt reflect
        care mind aim strive focus understand comprehend grasp embrace uphold foster cultivate
        champion endeavor endeavour aspire appreciate honor honour heed"""
    ),
    # "Review your changes and ensure you are satisfied with them": a check of the
    # reader's own work with no tool or criterion, or the reader's own contentment.
    "own_work_check": (
        Pattern(
            rf"^(?:{_OWN_CHECK}(?:\s+and\s+{_CONTENTMENT})?|{_CONTENTMENT})$",
            "a check of one's own work, or one's own contentment, and nothing else",
            bounded=False,
        ),
    ),
    "vague_phrase": (
        # "be careful with file paths": a caution about a thing says nothing to do to it
        *phrases(
            """pay attention|keep in mind|bear in mind|take care|take into account|
            be careful|be cautious|be mindful|be wary"""
        ),
        Pattern(
            r"use (?:your |good |best |common )*(?:judg(?:e)?ment|sense|discretion)",
            "'use (good) judgement' and its variants",
        ),
        *phrases(
            """as appropriate|appropriately|accordingly|as needed|as usual|carefully|
            thoughtfully"""
        ),
    ),
    # "Optimize for small bundles", "Aim for readable diffs": a goal to weigh, not an
    # action; what to do to reach it is not said.
    "goal": (
        Pattern(
            r"^(?:(?:always|first|just|please)\s+)?(?:optimi[sz]e|aim|strive|go)\s+for\b"
            r"(?![^,;]*\d)",  # "Aim for 80% coverage": a measurable target is concrete
            "a verb of aiming, then 'for' and the goal",
            bounded=False,
        ),
    ),
    "judgement": (
        Pattern(
            r"use (?:your |good |best |common |sound )*(?:judg(?:e)?ment|sense|discretion)",
            "'use (good) judgement': nothing is chosen",
        ),
    ),
    # A direction that leans on an unnamed artefact ("follow the usual checklist"): the
    # noun ends its phrase, so "check the workflow run log" does not count.
    "external_skill": (
        Pattern(
            r"\b(?:follows?|appl(?:y|ies)|use|using|run|consult|check|see|read|open|load|reuse|"
            r"repeat|adheres? to|compl(?:y|ies) with|conforms? to|sticks? to|based on|"
            r"according to|in line with)\s+"
            r"(?:the\s+|our\s+|that\s+|this\s+|my\s+|your\s+|(?P<below>these\s+))?"
            # "Follow the repository's DI patterns": the project's own, still unnamed
            r"(?:(?:repository|repo|project|codebase|team|company)'s\s+)?"
            r"(?!its\b|their\b)(?:(?!following\b|below\b|above\b)[\w-]+\s+){0,3}?"
            r"(?P<noun>procedure|playbook|checklist|runbook|workflow|template|guide|guideline|"
            r"guidelines|lesson|pattern|patterns|skill|groove|protocol|notes|dossier|doc|docs|"
            r"standards|best practices|best practice|instructions|conventions|idioms|"
            # "Follow existing code style and patterns": the project's own style, unnamed
            r"principles|norms|documentation|recipe|process|steps|style|styles)"
            r"(?=\s*(?:$|[.,;:!?)]|\s(?:for|to|when|if|and|before|after|in|on|again|here|"
            # "… conventions used in the project": where they are used names no document
            r"used|already)\b))",
            "a verb of following, then an artefact noun that ends its phrase",
            bounded=False,
        ),
    ),
    # "Reimplement all core features, including:": the line ends by opening a list that
    # extends its object; what the rule covers is on the following lines.
    "list_opener": (
        Pattern(
            r"\b(?:including|includes|include)\s*:\s*$",
            "an inclusion opener and a colon ending the line",
            bounded=False,
        ),
    ),
    # "`fetch('api/x')` not `fetch('/api/x')`": a code span set against another names
    # exactly what to write and what it replaces, with or without a verb.
    "code_contrast": (
        Pattern(
            r"`[^`\n]+`\s*(?:\)\s*)?(?:,\s*)?(?:not|instead of|rather than)\s+`[^`\n]+`",
            "a code span, a word of contrast, another code span",
            bounded=False,
        ),
    ),
    # "Casts in `casts()` method, not `$casts` property", "`rounded-base` maximum radius —
    # no `rounded-xl`": a verbless line that sets one code span against another after a
    # few words of its own is a convention: what to write, and what it replaces.
    "verbless_contrast": (
        Pattern(
            r"`[^`\n]+`[^`\n]{0,40}?(?:,|;|—|–|\s-)\s*(?:not|no|never|instead of|rather than)"
            r"\s+`[^`\n]+`(?:\s+[\w-]+){0,2}[\s.]*$",
            "a code span, a few words, a contrast, another code span ending the line",
            bounded=False,
        ),
    ),
    # "See `docs/testing.md` for test conventions": a clause that only points at a file
    # (a bare pointer) directs nothing itself.
    "bare_pointer": (
        Pattern(
            r"^(?:please\s+)?(?:see|refer to|consult)\s+(?:the\s+)?[\w./-]+\.[a-z]{1,5}"
            r"(?:\s+(?:file|doc|document))?(?:\s+(?:for|on|about)\s+[^,;]*)?$",
            "a verb of referring, a file, and at most its topic",
            bounded=False,
        ),
    ),
    # "**Goal**: Save tokens.": a line labelled as a goal states what is wanted, not what
    # to do next.
    "goal_label": (
        Pattern(
            r"(?i:^\W*(?:\d+\.\s*)?(?:\*\*)?(?:(?:main|primary|core|key|overall|ultimate)\s+)?"
            r"(?:goals?|objectives?|aims?|mission|vision)(?:\*\*)?\s*[:：])",
            "a goal label opening the line",
            bounded=False,
        ),
    ),
    # "Test plans ensure nothing is missed": a plural subject, then a verb of benefit; the
    # leading word is a noun, and the clause describes rather than directs.
    "described_subject": (
        Pattern(
            r"^(?!(?:let|make|help|have|get|keep|watch|see|hear|bid)\s)"  # "Let users make …"
            r"[a-z-]+\s+[a-z-]+s\s+(?:ensure|help|prevent|allow|let|make|keep|reduce|improve|"
            r"catch|guarantee|enable|provide|give|save|protect|avoid)\b",
            "a two-word plural subject, then a verb of benefit",
            bounded=False,
        ),
    ),
    # "**Core Principle**: …": a line labelled as a principle states a value; unless its
    # body names a situation or a code artefact, it directs nothing concrete.
    "value_label": (
        Pattern(
            r"(?i:^\W*(?:\d+\.\s*)?(?:\*\*)?(?:(?:core|key|guiding|main|basic|design|engineering|"
            r"development|coding|code|architecture|architectural|technical)\s+)?"
            r"(?:principles?|philosophy|values|motto)(?:\*\*)?\s*[:：])",
            "a principle label opening the line",
            bounded=False,
        ),
    ),
    "modal": phrases(
        """must not|mustn't|must never|should not|shouldn't|should never|should|must|need to|
        needs to|have to|has to|always|never|don't|do not|dont|make sure|be sure to|
        remember to|prefer to|avoid|instead|ought to"""
    ),
    # "Servers are to be started by the user": "be to" before a passive obliges as "must
    # be" does; "is to be decided / confirmed" leaves the value open.
    "modal_be_to": (
        Pattern(
            r"\b(?:is|are)\s+(?:always\s+|only\s+)?to\s+be\s+(?!(?:decided|determined|"
            r"confirmed|announced|defined|discussed|agreed|seen|continued|finali[sz]ed|completed|"
            r"released|shipped|implemented|merged|fixed|done|added|revisited)\b)"
            r"[a-z]+(?:ed|en|wn|un|lt|de)\b",
            "'is/are to be' before a passive participle: an obligation",
        ),
    ),
    # "Standalone code is created as an app in `apps/`": a mass noun names every piece of
    # its kind, so a bare one in a passive states a standing convention as a plural does.
    "mass_artefact": words(
        """code data config configuration documentation docs logic state output markup css
        styling content copy test-code metadata infrastructure tooling"""
    ),
    "skip_lead": words(
        """then always first just please also immediately briefly politely quietly explicitly
        directly still instead simply proactively gently only now actively and so next
        finally again usually"""
    ),
    # ------------------------------------------------------------ negation
    # "Never X unless asked": an exception narrows a prohibition; it replaces nothing.
    # A setting's value that is not settled yet ("… (when available for Node.js)").
    # "**Fix:** `pip install …`": a label naming the remedy of one recorded problem; its
    # value says what was done then, not a setting to use.
    "remedy_label": words("""fix fixed solution workaround resolution mitigation remedy"""),
    "pending": words("when if until once later soon planned pending tbd todo"),
    # "Use type hints where appropriate", "Suggest better approaches when it makes sense":
    # the action is left to judgement; "where possible/feasible" only admits exceptions.
    # "Keep commit messages concise", "Make errors readable": verbs whose object takes a
    # complement, so a quality after the artefact is all they ask.
    "complement_cue": words("keep make"),
    # "Code should be clean and readable": a modal whose subject is a bare artefact and
    # whose complement is only qualities asks what "Keep code clean" asks.
    "complement_modal": phrases("should|must|need to|needs to|has to|have to|ought to"),
    # "Make sure the code is documented": the phrases that say "ensure".
    "ensure_phrase": (
        Pattern(r"^(?:make|be)\s+(?:sure|certain)\b", "'make sure' opening the clause"),
    ),
    # "easy to read and understand", "well documented", "that others can understand": a
    # quality said in several words; read as one quality word.
    "quality_phrase": (
        Pattern(
            r"\b(?:easy|easier|simple|simpler|straightforward|hard|harder|difficult|quick)\s+"
            r"to\s+(?:read|understand|follow|maintain|test|change|extend|review|debug|use|"
            r"modify|navigate|grasp|reason about)(?:(?:,|\s+and|\s+or)\s+(?:read|understand|"
            r"follow|maintain|test|change|extend|review|debug|use|modify))*\b"
            r"|\bwell[- ](?:documented|tested|structured|organi[sz]ed|designed|written|named|"
            r"defined|commented|factored|thought[- ]out)\b"
            r"|\b(?:that\s+)?(?:others|anyone|everyone|other developers|humans|people|"
            r"reviewers)\s+can\s+(?:easily\s+|quickly\s+)?(?:read|understand|follow|"
            r"maintain)\b",
            "a quality said in several words",
            bounded=False,
        ),
    ),
    # The linking verbs between such a modal and its qualities ("should be", "must stay").
    "complement_link": words("be stay remain always look read feel have has"),
    # "Keep docs up to date", "Keep documentation in sync with the code": kept current
    # with nothing said about how or what it tracks (a named file keeps the line).
    "kept_current": (
        Pattern(
            r"\b(?:up[- ]to[- ]date|in sync(?:\s+with\s+(?:the\s+)?(?:code|codebase|"
            r"implementation|source|source code|changes))?|synced|synchroni[sz]ed)(?=\W*$)",
            "kept current, closing the clause",
            bounded=False,
        ),
    ),
    "vague_hedge": (
        Pattern(
            r"\b(?:where|when|if|as) (?:appropriate|it makes sense|that makes sense|sensible|"
            r"reasonable|suitable)\b|\bwhen it makes sense\b",
            "a hedge on the action",
            bounded=False,
        ),
        # "Keep coverage at a reasonable level": a level left to judgement, with no number
        Pattern(
            r"\b(?:at|to|within)\s+(?:an?\s+)?(?:reasonable|acceptable|sensible|appropriate)\s+"
            r"(?:level|levels|degree|limits?|range|amount)\b",
            "'at a reasonable level': a level left to judgement",
            bounded=False,
        ),
        # "Use subagents as much as possible": how much is left to judgement, as 尽可能
        # leaves it ("where possible" only admits exceptions)
        Pattern(
            r"\bas (?:much|far|often|little) as (?:possible|you can|feasible|practical)\b",
            "'as much as possible': a hedge on how much",
            bounded=False,
        ),
        # "Use `try-except` wisely": how well is left to judgement ("sparingly" bounds how
        # often, and stays)
        Pattern(
            r"\b(?:wisely|judiciously|thoughtfully|sensibly|responsibly)\b",
            "'wisely': a hedge on how",
            bounded=False,
        ),
        # "Ensure the lockfile is updated appropriately": how is left to judgement, as
        # "where appropriate" leaves it.
        Pattern(
            r"\b(?:appropriately|suitably)\b",
            "'appropriately': a hedge on how",
            bounded=False,
        ),
        # "Code comments should preferably be in Chinese": the rule is a wish, and whether
        # it holds is left to the reader
        Pattern(r"\bpreferabl[ey]\b", "'preferably': a hedge on whether", bounded=False),
    ),
    # "Return appropriate HTTP status codes": which thing fits is left open, unless
    # "appropriate" only qualifies the means ("using the appropriate pnpm scripts").
    "appropriate": words("appropriate suitable"),
    # "Use the correct UID/GID", "Implement comprehensive monitoring": a verb whose object
    # opens with a standard it does not name (which one is correct is the question).
    # "Use efficient data fetching strategies", "Choose optimal algorithms": a quality that
    # picks nothing opening the object leaves which one to the reader.
    "unnamed_standard": words(
        "proper correct right comprehensive necessary efficient effective optimal suitable"
    ),
    "means_before": (
        Pattern(r"\b(?:using|with|via|through|by)(?: the| an?)?\s*$", "a means", bounded=False),
    ),
    # "Write descriptive commit messages": a quality, then the artefact, nothing more.
    "quality_lead": words(
        "descriptive meaningful clear concise readable consistent clean good helpful"
        " informative sensible succinct robust friendly expressive intuitive understandable"
        " self-explanatory self-documenting well-named well-structured well-organized"
        " well-written thorough accurate useful precise elegant tidy"
    ),
    "quality_object_cue": words("provide return produce create add"),
    # "Review for correctness", "Check code quality": a quality of the work named as the
    # thing to act on; what to look at or change is not said.
    "quality_noun": words(
        """quality correctness accuracy safety security performance reliability robustness
        readability maintainability simplicity clarity consistency efficiency stability
        scalability usability testability reusability modularity extensibility elegance
        cleanliness completeness precision professionalism cohesion coupling decoupling
        composability portability compatibility observability resilience durability
        flexibility legibility understandability expressiveness conciseness brevity tidiness
        rigor rigour thoroughness craftsmanship excellence hygiene composition inheritance
        abstraction encapsulation immutability purpose intent responsibility responsibilities
        debt complexity"""
    ),
    # "Never request raw file contents when get_file will suffice": the when-clause names
    # what to use instead.
    "sufficing": (
        Pattern(
            r"(?:when|if|where)\s+(?!(?:it|this|that|they|nothing|anything)\s)(?P<thing>[^,;]{1,60}?)\s+"
            r"(?:will|would|can|could)\s+(?:suffice\b|do"
            r"(?=\s*(?:$|[.;!)]|\s(?:the job|just as well|fine|instead)\b)))"
            r"|(?:when|if|where)\s+(?!(?:it|this|that|nothing|anything)\s)(?P<one>[^,;]{1,60}?)\s+suffices\b",
            "'when X will suffice': the when-clause names what to use instead",
        ),
    ),
    # People are no way of having an artefact ("managed by the team").
    "agent_person": words("""team teams user users people person human humans manager managers
        owner owners maintainer maintainers developer developers someone everyone"""),
    # "Avoid default exports, prefer named ones": a list item led by a verb of choosing
    # (or "only") is the replacement, not one more forbidden thing.
    "replacement_lead": (
        Pattern(
            r"^(?:prefer|use|choose|pick|favou?r|adopt|switch to|only)\b",
            "a verb of choosing or 'only' opening a list item",
            bounded=False,
        ),
    ),
    # "Avoid `any`; `unknown` is fine", "…; plain text only": a named thing allowed, or
    # a restriction to one, after a prohibition is what to do instead.
    "permitted": (
        Pattern(
            r"^(?!(?:it|this|that|everything|all|nothing|it's|that's)\b)[\w./@#+-]+"
            r"(?:\s+[\w./@#+-]+){0,2}\s+(?:is|are)\s+(?:fine|ok|okay|allowed|acceptable|"
            r"permitted)\W*$|^(?!(?:it|this|that|everything|all|nothing)\b)[\w./@#+-]+"
            r"(?:\s+[\w./@#+-]+){0,2}\s+only\W*$",
            "'X is fine', 'X only': the allowed thing",
            bounded=False,
        ),
    ),
    "permit_word": words("""is are fine ok okay allowed acceptable permitted only one ones"""),
    # "`pkg` is consumed from PyPI; avoid local path dependencies": a clause stating how
    # an artefact is supplied or handled names the way a later prohibition replaces.
    "stated_way": (
        Pattern(
            r"\b(?:is|are)\s+(?:always\s+|only\s+)?(?:consumed|installed|loaded|fetched|pulled|"
            r"managed|handled|generated|built|injected|provided|imported|sourced|resolved|"
            r"served|rendered|written|styled|configured|done|read|stored|kept|defined)\s+"
            r"(?:from|via|through|by|with|in|using)\s+\S",
            "'is <supplied> from/via X': the way an artefact is had",
            bounded=False,
        ),
        Pattern(
            r"\b(?:is|are)\s+(?:the\s+)?(?:single\s+|only\s+)?(?:source of truth|canonical|"
            r"authoritative)\b",
            "'X is the source of truth': the artefact to work on instead",
            bounded=False,
        ),
        Pattern(
            r"^(?!(?:i|you|we|they|he|she|it|this|that|user|users|the user)\b)[\w./@#+-]+"
            r"(?:\s+[\w./@#+-]+){0,2}\s+(?:manages|handles|wraps|owns|holds|generates|provides)"
            r"\s+\S",
            "'`uv` manages the environment': the artefact that does the job",
            bounded=False,
        ),
        # "NEVER use `npm`. This project uses `pnpm` exclusively.": what the project uses
        # is what to use instead
        Pattern(
            r"\b(?:(?:this|the|our)\s+(?:project|repo|repository|codebase|app|monorepo|"
            r"workspace|team)|we)\s+(?:only\s+|exclusively\s+)?(?:uses?|relies on)\s+\S",
            "'this project uses X': the thing to use",
            bounded=False,
        ),
    ),
    "exception_lead": (
        Pattern(
            r"^(?:unless|except)\b|^only (?:if|when)\b", "'unless' opening a clause", bounded=False
        ),
    ),
    "negation": phrases(
        """never|don't|do not|dont|avoid|stop|no longer|must not|mustn't|should not|shouldn't|
        must never|should never|shall not|shall never|refrain from|not to"""
    ),
    "replacement": (
        *phrases("""instead|rather than|rather|in place of|replace|replacing|but"""),
        # "NEVER use Vue 3 … This is a legacy environment restricted to Java 8 and Vue 2.7":
        # what the work is restricted to is what to use
        Pattern(r"(?:restricted|limited) to\s+(?=\S)", "'restricted to X' names what to use"),
        Pattern(
            r"(?:just|simply)\s+(?:use|do|write|say|run|keep|leave|put|add|ask|return|call)",
            "'just/simply' before a verb of doing",
        ),
    ),
    "ghost": phrases(
        """again|anymore|any more|like last time|as before|repeat the mistake|repeat the error|
        ever again"""
    ),
    # ------------------------------------------------- English word sets read by name
    # A pending word that is a condition ("when", "if"): in a sentence it opens a
    # trigger, not work still to do.
    "condition_word": words("when if until once"),
    # "not fixed weekdays", "the updated schema": a participle after one of these
    # qualifies the noun after it.
    "attributive_lead": words("a an the not no non any all"),
    # "keys are used when selecting": a participle after one of these is a present passive.
    "passive_auxiliary": words("is are be being get gets"),
    # "the right one", "the ones that": a pronoun standing for a noun said before.
    "pro_one": words("one ones"),
    # "handle errors in `api.ts`": verbs of handling a thing somewhere.
    "handling_verb": words("handle deal do"),
    # "all tests …", "no emojis …": a quantifier that makes its subject plural.
    "plural_quantifier": words("all no"),
    # "Each scenario is a separate class": the verb that names what a subject is.
    "naming_copula": words("is are"),
    # Endings: of a participle or gerund ("-ing", "-ed"), of an adverb or a past
    # participle ("-ly", "-ed"), of an adverb or a gerund ("-ly", "-ing").
    "participle_ending": words("ing ed"),
    "adverb_or_past_ending": words("ly ed"),
    "adverb_or_gerund_ending": words("ly ing"),
    # "never …", "must …": a modal that leads an imperative rule.
    "modal_lead": words("never must should always"),
    # The articles alone ("one" is no article here).
    "bare_article": words("the a an"),
    # --------------------------------------------------- English shapes read by name
    # "Write comprehensive tests using pytest": the means named after a standard.
    "means_named": (
        Pattern(
            r"\b(?:using|with|via|through)\s+(?P<means>.+)$",
            "the means after a standard, in a group named 'means'",
            bounded=False,
        ),
    ),
    # "Feature branches are squash-merged into `main`": a present passive said of every
    # thing of a kind, and how or where it is done.
    "standing_passive": (
        Pattern(
            r"^\W*(?P<quantifier>(?:each|every|all)\s+)?"
            r"(?!(?:the|this|that|these|those|our|my|its|their|it)\b)"
            r"(?P<subject>(?:[\w`./-]+\s+){0,2}[\w`./-]+?)\s+(?:are|is|get|gets)\s+"
            r"(?:[a-z]+-)?(?:[a-z]{2,}ed|built|run|made|written|kept|set|put|sent|held|done|"
            r"shown|drawn|given|taken|split|cut|read|bound|found|hidden|thrown|driven|rebuilt|"
            r"rewritten)\s+(?:with|into|by|as|in|via|using|to|from|on|through|under)\s",
            "a present passive of every thing of a kind, with how or where",
            bounded=False,
        ),
    ),
    # "... conventions in src/api/": a place named after the thing.
    "where_named": (
        Pattern(
            r"(?<!\s)\s+(?:used\s+)?(?:in|of|from|under)\s+(?:the\s+)?[\w.-]*"
            r"(?:/[\w.-]*|\.[a-z]{1,5}\b)",
            "a place (a path or a file) named after a thing",
            bounded=False,
        ),
    ),
    # "no emojis", "never X": an item of a list that forbids.
    "negated_item": (
        Pattern(r"^(?:no|never|not)\s+\S", "a list item that forbids", bounded=False),
    ),
    # "... in `src/handlers.ts`", "via the config.yml": a file the clause acts in.
    "in_named_file": (
        Pattern(
            r"\b(?:in|inside|within|at|from|via|through)\s+(?:the\s+)?[\w.-]*"
            r"(?:/[\w.-]*|\.[a-z]{1,5}\b)",
            "a file or path the clause acts in",
            bounded=False,
        ),
    ),
    # "Development server", "Required system libraries": a heading-like name of a part
    # of the setup, with nothing about it.
    "setup_noun_name": (
        Pattern(
            r"^(?P<mods>(?:[A-Za-z][a-z-]*\s+){1,2})(?:server|environment|libraries|"
            r"configuration|setup|dependencies|tooling|integration|deployment|monitoring)$",
            "a bare name of a part of the setup, its modifiers in a group named 'mods'",
            bounded=False,
        ),
    ),
    # ------------------------------------------------------------ external world
    "external": phrases(
        """user|users|person|customer|customers|client|clients|reply|replies|message|messages|
        conversation|chat|request|requests|asks|asked|answer|answers|question|questions|
        email|call|meeting|colleague|team|human|operator|owner"""
    ),
}
