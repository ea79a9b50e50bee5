"""English: the phrases of each concept the rules ask for (data only).

Word lists are matched as whole words (the rules split English into words); phrase
lists compile to one regex at word boundaries, tried in the order written.
"""

from __future__ import annotations

from shared.language.lexicon.concept import Entry, Language, Pattern, phrases, words

_UNITS = (
    r"(?:turn|session|commit|change|push|pr|pull request|task|batch|run|release|deploy|file|"
    r"step)"
)

CONCEPTS: dict[str, tuple[Entry, ...]] = {
    # ------------------------------------------------------------ triggers
    # A recognisable situation a rule applies in.
    "trigger": (
        "when",
        "if",
        "unless",
        "before",
        "after",
        "once",
        "while",
        "during",
        "upon",
        "until",
        "as soon as",
        "each time",
        "every time",
        "any time",
        "anytime",
        "in case",
        "whenever",
        "wherever",
        Pattern(rf"(?:each|every)(?=\s+{_UNITS}\b)", "'every' before a unit of work"),
        Pattern(r"^where\b", "a leading 'where' clause", bounded=False),
    ),
    # A leading scope phrase ("With <Person>,", "For deploy questions,", "On Mondays,").
    "scope": (
        Pattern(
            r"^(?:with|for|in|on|at|during|around|to|about|from)\s+\S",
            "a preposition opening the line, then its object",
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
        filter find finish fix flag focus follow forward frame gather give go greet group
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
        truncate unwrap upsert vendor whitelist allowlist denylist"""
    ),
    # Verbs that direct nothing concrete on their own ("be careful", "consider it").
    "vague_verb": words(
        """be consider think remember handle deal try act do proceed behave stay adapt reflect
        care mind aim strive focus"""
    ),
    "vague_phrase": (
        "pay attention",
        "keep in mind",
        "bear in mind",
        "take care",
        "take into account",
        Pattern(
            r"use (?:your |good |best |common )*(?:judg(?:e)?ment|sense|discretion)",
            "'use (good) judgement' and its variants",
        ),
        "as appropriate",
        "appropriately",
        "accordingly",
        "as needed",
        "as usual",
        "carefully",
        "thoughtfully",
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
            r"\b(?:follow|apply|use|run|consult|check|see|read|open|load|reuse|repeat|adhere to|"
            r"comply with|conform to|stick to)\s+"
            r"(?:the\s+|our\s+|that\s+|this\s+|my\s+|your\s+)?(?:[\w-]+\s+){0,2}?"
            r"(?P<noun>procedure|playbook|checklist|runbook|workflow|template|guide|guideline|"
            r"guidelines|lesson|pattern|patterns|skill|groove|protocol|notes|dossier|doc|docs|"
            r"standards|best practices|instructions|"
            r"documentation|recipe|process|steps)"
            r"(?=\s*(?:$|[.,;:!?)]|\s(?:for|to|when|if|and|before|after|in|on|again|here)\b))",
            "a verb of following, then an artefact noun that ends its phrase",
            bounded=False,
        ),
    ),
    "modal": (
        "should",
        "must",
        "need to",
        "needs to",
        "have to",
        "has to",
        "always",
        "never",
        "don't",
        "do not",
        "dont",
        "make sure",
        "be sure to",
        "remember to",
        "prefer to",
        "avoid",
        "instead",
        "ought to",
    ),
    "skip_lead": words(
        """then always first just please also immediately briefly politely quietly explicitly
        directly still instead simply proactively gently only now actively and so next
        finally again usually"""
    ),
    # ------------------------------------------------------------ negation
    "negation": (
        "never",
        "don't",
        "do not",
        "dont",
        "avoid",
        "stop",
        "no longer",
        "must not",
        "mustn't",
        "should not",
        "shouldn't",
        "refrain from",
        "not to",
    ),
    "replacement": (
        "instead",
        "rather than",
        "rather",
        "in place of",
        "replace",
        "replacing",
        "but",
        Pattern(
            r"(?:just|simply)\s+(?:use|do|write|say|run|keep|leave|put|add|ask|return|call)",
            "'just/simply' before a verb of doing",
        ),
    ),
    "ghost": (
        "again",
        "anymore",
        "any more",
        "like last time",
        "as before",
        "repeat the mistake",
        "repeat the error",
        "ever again",
    ),
    # ------------------------------------------------------------ external world
    "external": (
        "user",
        "users",
        "person",
        "customer",
        "customers",
        "client",
        "clients",
        "reply",
        "replies",
        "message",
        "messages",
        "conversation",
        "chat",
        "request",
        "requests",
        "asks",
        "asked",
        "answer",
        "answers",
        "question",
        "questions",
        "email",
        "call",
        "meeting",
        "colleague",
        "team",
        "human",
        "operator",
        "owner",
    ),
    # ------------------------------------------------------------ domain
    # Artefact words: a direction acting on one has its situation implicit in the domain.
    "artefact": words(
        """file files filename filenames path paths directory directories folder folders repo
        repository branch branches commit commits rebase merge tag tags release releases
        version versions changelog readme docs doc documentation docstring docstrings
        comment comments header headers import imports module modules package packages
        dependency dependencies library libraries lockfile script scripts command commands
        cli shell terminal flag flags env environment variable variables secret secrets
        token tokens key keys credential credentials config configuration settings test
        tests fixture fixtures mock mocks assertion assertions coverage lint linter
        formatter build builds compiler ci pipeline deploy deployment server servers client
        browser api apis endpoint endpoints route routes http https url urls json yaml toml
        sql query queries database databases db table tables column columns row rows index
        indexes schema migration migrations transaction transactions orm record records
        field fields id ids type types class classes function functions method methods
        interface interfaces enum struct structs union unions log logs logging error errors
        exception exceptions trace warning warnings bug bugs regression patch diff diffs
        line lines link links diagram diagrams image images icon icons button buttons label
        labels ui page pages component components hook hooks callback callbacks webhook
        webhooks container containers docker cache timeout retries port ports process
        subprocess subprocesses thread threads async await queue worker cron email emails
        invoice calendar spreadsheet chart markdown heading headings emoji emojis ticket
        issue code input inputs export exports indentation indent spaces tabs whitespace
        semicolon semicolons language wording phrasing sentence sentences paragraph
        paragraphs description descriptions title titles example examples terminology
        abbreviation abbreviations acronym acronyms jargon punctuation quote quotes citation
        citations translation translations transcript transcripts app apps service services
        model models prompt prompts agent agents tool tools feature features screen screens
        form forms modal dialog menu tab layout style styles css html theme color colors
        font fonts asset assets bundle chunk cdn dns ssl tls certificate ssh network payload
        payloads body storage bucket blob object objects array arrays dict tuple hash
        checksum signature encryption password passwords validation validator dataset
        datasets metric metrics benchmark benchmarks baseline baselines experiment
        experiments notebook notebooks figure figures plot plots dashboard alert alerts
        monitoring backup backups snapshot snapshots rollback artifact artifacts cluster pod
        pods volume volumes policy policies rls tenant tenants account accounts order orders
        payment payments price prices cart product products shortcut shortcuts locale
        locales i18n accessibility keyboard mobile desktop react vue angular svelte nextjs
        django flask fastapi rails laravel spring node deno bun vite webpack tailwind prisma
        drizzle supabase firebase aws gcp azure vercel netlify kubernetes helm nginx linux
        macos windows ios android xcode gradle maven dotnet csharp php ruby scala elixir
        haskell lua bash zsh powershell vim emacs vscode cursor claude openai gpt llm llms
        embedding embeddings vector vectors issues pr prs plugin plugins extension
        extensions binary binaries toolchain typescript javascript python rust golang java
        kotlin swift sqlite postgres postgresql redis git github gitlab npm pnpm yarn pip uv
        cargo pytest vitest jest ruff mypy eslint prettier kubectl terraform chinese english
        russian japanese utc timezone datetime datetimes unicode utf-8 regex crate crates
        gem gems sdk arguments argument parameter parameters boolean booleans string strings
        integer null none pointer pointers loop loops handler handlers session sessions
        cookie cookies jwt oauth auth authentication permission permissions role roles
        screenshot screenshots pdf csv spec specs plan design designs tracker"""
    ),
    # Artefacts named by two words whose parts are generic ("request" alone is chat).
    "artefact_phrase": (
        "pull requests",
        "pull request",
        "merge requests",
        "merge request",
        "feature requests",
        "feature request",
        "test suites",
        "test suite",
    ),
    # Capitalised emphasis is not an acronym.
    "shout": words(
        """IMPORTANT NEVER ALWAYS MUST NOT NO ALL ONLY DO DONT CRITICAL NON NEGOTIABLE WITHOUT
        NOTE RED LINE TODO YAGNI DRY KISS SOLID OK AND OR THE ANY USE"""
    ),
    # "Use early returns": a verb of choosing or setting up whose object is a thing.
    "object_cue": words("""use prefer adopt choose pick favor favour enable disable pin install"""),
    "abstract": words(
        """judgement judgment sense care caution empathy respect discretion effort efforts
        patience kindness honesty tact diligence rigor rigour creativity intuition common
        wisdom reasoning thinking thought thoughts mind attention time energy tone"""
    ),
    # Verbs that mostly take an abstract object: their object must be an artefact word.
    "abstract_taking": words(
        """follow apply review think keep preserve maintain ensure consider test ask build
        deliver make stay try focus remember respect handle provide adhere strive aim"""
    ),
    "abstract_suffix": ("ness", "ity", "ance", "ence", "ism", "ship", "ties"),
    "hedge": (
        Pattern(
            r"(?:where|when|if|as)\s+(?:available|appropriate|possible|applicable|necessary|"
            r"needed|practical|sensible|feasible|relevant)",
            "'where available', 'if possible': a hedge, nothing chosen",
        ),
    ),
    # "Use Pydantic for ...": a capitalised word that does not open its sentence.
    "product": (
        Pattern(
            r"(?<=[a-z0-9,)]\s)[A-Z][A-Za-z0-9]+(?:[.-][A-Za-z0-9]+)*\b",
            "a capitalised name inside the sentence",
            bounded=False,
        ),
    ),
    "not_product": words("""I I'm I'll I've Person Topic User Users"""),
    # "Prefer A over B", "Use X for Y": what to pick and for (or instead of) what.
    "choice": (
        Pattern(
            r"^(?:always\s+|only\s+)?(?:prefer|use|choose|pick|favou?r|adopt|default to)\s+"
            r"(?P<obj>[^,;]+?)\s+(?:for|over|instead of|rather than|in place of|to)\s+"
            r"(?P<rest>\S.*)$",
            "a verb of choosing, its object, then what it is for or replaces",
            bounded=False,
        ),
    ),
    # Words that name a quality or nothing in particular, not a thing to pick.
    "evaluative": words(
        """clean consistent clear clearly robust succinct concise readable maintainable simple
        simpler small smaller focused efficient elegant proper properly good better best
        high-quality quality production-ready modern idiomatic secure safe performant fast
        reliable scalable solid meaningful descriptive appropriate sensible reasonable
        minimal thoughtful careful nice well-structured well-documented optimal great short
        shorter long longer brief briefer detailed friendly polite formal informal casual"""
    ),
    # A label naming a preference ("Preferred editor: vim") is a fact, not a rule.
    "preference": (Pattern("prefer", "any form of 'prefer'", bounded=False),),
    "generic_object": words(
        """code codes logic approach approaches solution solutions way ways thing things
        practice practices principle principles pattern patterns style judgement judgment
        sense it them this that stuff implementation implementations mechanism mechanisms
        rule rules advice guidance lesson lessons project projects need needs"""
    ),
    # ------------------------------------------------------------ norms
    # "Comments and docstrings explain why": a normative present, subject an artefact.
    "normative": (
        Pattern(
            r"^(?!(?:this|that|the|these|those|our|we|it|its|my|i|you|he|she|they)\b)"
            r"(?P<subject>(?:[\w`'./|-]+\s+){0,3}?[\w`'./|-]+)\s+"
            r"(?P<verb>use|follow|belong|live|explain|stay|need|require)s?\b",
            "a short artefact subject, then a normative verb",
            bounded=False,
        ),
    ),
    # "if comments are needed, they go in docstrings": a pronoun put in a named place.
    "placed": (
        Pattern(
            r"^(?:they|it|these|those|all of them)\s+(?:go|goes|belong|belongs|live|lives)\s+"
            r"(?:in|into|under|to)\s+\S",
            "a pronoun subject put in a place",
            bounded=False,
        ),
    ),
    # "Functions under 50 lines": a numeric limit.
    "limit": (
        Pattern(
            r"\b(?:at most|no more than|fewer than|less than|under|max(?:imum)?|up to)\s+\d+\s*\w",
            "a bound word, then a number",
            bounded=False,
        ),
    ),
    # "Tabs for indentation", "Dates as YYYY-MM-DD": a short verbless convention.
    "convention": (
        Pattern(
            r"^(?P<value>(?:[\w`'\"./+#-]+\s+){0,2}[\w`'\"./+#-]+)\s+"
            r"(?:for|in|as|on|per|behind|inside|within|via|through)\s+"
            r"(?P<scope>(?:[\w`'\"./+#-]+\s*){1,4})$",
            "a value, a preposition, then the artefact it is for",
            bounded=False,
        ),
    ),
    # "Function components with hooks, named exports preferred": a passive norm.
    "passive_norm": (
        Pattern(
            r"\b(?:preferred|required|recommended|mandatory|encouraged)$",
            "a clause ending in a passive norm word",
            bounded=False,
        ),
    ),
    # "Bugs in the parser" reports something; it sets no convention.
    "event_noun": words(
        """error errors bug bugs issue issues failure failures problem problems crash crashes
        incident incidents outage outages change changes regression regressions"""
    ),
    # Imperative mood for a verb the lists lack: verb morphology, then a determiner.
    "verb_suffix": ("ize", "ise", "ify"),
    "not_verb": words(
        """expertise premise noise enterprise paradise franchise otherwise likewise clockwise
        concise precise promise"""
    ),
    "determiner": words("""the a an all each every your any both existing only new"""),
    # After a trigger with no comma: "... first run X", "... never co-author".
    "inner_modal": (
        Pattern(
            r"\b(?:first|then|always|never|must|should|just)\s+(?P<verb>[a-z][a-z'-]*)",
            "a sequencing word or modal, then a verb",
            bounded=False,
        ),
    ),
    "inner_verb": words(
        """run use ask stop check add update read open write call fix commit push create delete
        remove restate reply respond mention tell send save keep list grep format rerun
        re-run verify"""
    ),
    "not_before_verb": words(
        """to you i we they he she it user users and or will would can could may might shall
        should must not don't do does did the a an your our their my his her its this that
        these those when if before after once while whenever"""
    ),
    # "Write clean code": the object is a generic part of any code base.
    "generic_code": words(
        """code codes function functions method methods class classes logic naming names error
        errors handling mechanism mechanisms implementation implementations solution
        solutions performance security impact impacts change changes design principle
        principles maintainability reusability readability responsibility single structure
        variable variables comment comments component components"""
    ),
    "quality_cue": words(
        """write keep implement prioritize prioritise encourage ensure maintain make emphasize
        aim strive favor favour use choose pick give"""
    ),
    # Cues that rank a quality ("Prioritize readability"): a value even without an
    # evaluative word.
    "ranking_cue": ("prioritize", "prioritise", "encourage", "emphasize"),
    # "Details: <file>" points at where the rest is written.
    "details": (
        Pattern(r"(?i:\bdetails?\s*[:：]\s*\S+)", "'Details:' and its target", bounded=False),
    ),
}

LANGUAGE = Language(code="en", spaced=True, concepts=CONCEPTS)
