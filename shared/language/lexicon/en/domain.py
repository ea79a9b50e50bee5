"""English phrases for what a direction acts on: artefacts, products, choices, norms."""

from __future__ import annotations

from shared.language.lexicon.concept import Entry, Pattern, phrases, words

CONCEPTS: dict[str, tuple[Entry, ...]] = {
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
        algorithm algorithms buffer buffers byte bytes cert certs
        charts checkpoint checkpoints constant constants controller controllers decorator
        decorators dockerfile enums firewall footer footers generics indices ini iterator
        iterators kernel lambda license listener listeners macro macros makefile manifest
        manifests matrix middleware mutation mutations navbar navigation nodes panel panels
        partition partitions prop props proxy reducer reducers replica replicas resolver
        resolvers scheduler selector selectors shader shaders shard shards sidebar signal
        signals slot slots slug slugs socket sockets sprite sprites stacktrace stream streams
        stylesheet stylesheets subdomain template templates tensor tensors texture textures
        timestamp timestamps tooltip tooltips traceback trait traits uuid uuids vault
        websocket weights widget widgets workers xml yml zoom
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
    # Developer tools that go by a lowercase name ("Apply rustfmt and clippy", "**ruff**"):
    # a capital does not mark them, so they are named here; words that are also common
    # verbs, colours or plain nouns ("make", "black", "hatch", "poetry") are left out.
    "tool_name": words(
        """rustfmt clippy rustup gofmt goimports golangci-lint staticcheck isort flake8 pylint
        pyright ruff mypy pytest tox nox pipenv conda uv pip pipx pdm eslint prettier
        biome oxlint tsc vitest jest mocha playwright cypress storybook webpack vite esbuild
        rollup turborepo nx lerna pnpm npm npx yarn bun deno cargo rubocop bundler rspec
        shellcheck shfmt hadolint actionlint yamllint markdownlint stylelint swiftlint
        swiftformat ktlint detekt gradle maven cmake bazel clang-format clang-tidy valgrind
        gdb lldb docker podman kubectl helm terraform ansible pre-commit husky lint-staged
        commitlint alembic prisma drizzle sqlx diesel pydantic uvicorn gunicorn celery jq
        ripgrep ffmpeg"""
    ),
    # Artefacts named by two words whose parts are generic ("request" alone is chat).
    "artefact_phrase": phrases(
        """pull requests|pull request|merge requests|merge request|feature requests|
        feature request|test suites|test suite"""
    ),
    # Capitalised emphasis is not an acronym.
    "shout": words(
        """IMPORTANT NEVER ALWAYS MUST NOT NO ALL ONLY DO DONT CRITICAL NON NEGOTIABLE WITHOUT
        NOTE RED LINE TODO YAGNI DRY KISS SOLID SRP SOTA OK AND OR THE ANY USE"""
    ),
    # "Use early returns": a verb of choosing or setting up whose object is a thing.
    "object_cue": words("""use prefer adopt choose pick favor favour enable disable pin install"""),
    "abstract": words(
        """judgement judgment sense care caution empathy respect discretion effort efforts
        patience kindness honesty tact diligence rigor rigour creativity intuition common
        wisdom reasoning thinking thought thoughts mind attention time energy tone ownership
        pride craftsmanship discipline curiosity humility"""
    ),
    # Verbs that mostly take an abstract object: their object must be an artefact word.
    "abstract_taking": words(
        """follow apply review think keep preserve maintain ensure consider test ask build
        deliver make stay try focus remember respect handle provide adhere strive aim
        conform comply obey assume treat guard"""
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
        shorter long longer brief briefer detailed friendly polite formal informal casual
        self-explanatory self-documenting expressive intuitive understandable comprehensible
        legible tidy neat organized organised well-organized well-organised well-designed
        well-written well-named well-tested well-defined cohesive modular extensible reusable
        testable flexible stable accurate thorough complete high excellent pristine pragmatic
        professional sane straightforward lean compact crisp terse resilient future-proof
        bulletproof coherent sound uniform rigorous meticulous polished beautiful elegantly
        cleanly easy easier obvious simplest cleaner clearer up-to-date backwards backward
        compatible efficiently robustly consistently technical explicit implicit clever
        ambiguous unclear vague loosely tightly highly coupled decoupled helpful informative
        useful actionable deterministic responsive precise exact lightweight composable
        agnostic app-agnostic framework-agnostic single-responsibility"""
    ),
    # A label naming a preference ("Preferred editor: vim") is a fact, not a rule.
    "preference": (Pattern("prefer", "any form of 'prefer'", bounded=False),),
    "generic_object": words(
        """code codes logic approach approaches solution solutions way ways thing things
        practice practices principle principles pattern patterns style judgement judgment
        sense it them this that stuff implementation implementations mechanism mechanisms
        rule rules advice guidance lesson lessons project projects need needs requirement
        requirements goal goals intent scope problem problems context purpose"""
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
    # "Handlers return `Result`", "Every module has a docstring": a convention in the
    # present tense. A subject led by one of these is a particular thing, described.
    "definite_lead": words("""this that the these those our we it its my i you he she they"""),
    # A universally quantified subject ("Each scenario is …") states a convention, so
    # even a copula sets it; a bare plural ("Tests are flaky") only describes.
    "quantifier": words("""each every all no"""),
    # "Phase 2", "Sprint 3": a noun that numbers a step of the work, not a tool's version.
    "ordinal_noun": words(
        """phase phases step steps stage stages sprint sprints milestone milestones chapter
        chapters part parts week weeks day days round rounds iteration iterations level
        levels task tasks item items section sections episode episodes lesson lessons
        issue issues ticket tickets pr batch epic story wave"""
    ),
    "copula": words("""is are has have"""),
    # "Build output goes to `dist/`", "Test files live in `tests/`": a verb that follows a
    # noun compound whose first word is a verb's form, so the line states a fact
    "compound_subject_verb": words(
        """is are goes go lives live runs sits sit stays stay lands land uses use belongs
        belong comes come happens happen"""
    ),
    # "Each scenario is a separate class": a copula sets a convention when a noun phrase
    # follows it, not a quality ("Each module is well tested").
    "article": words("""a an one the"""),
    # "`application/` imports domain only", "`domain/` depends on nothing": a relation
    # restricted is a rule; "Tests depend on the database" only describes.
    "restrictive": words("""only nothing never always exclusively solely"""),
    # '"gameserver" everywhere': adverbs that only say where a named term applies.
    "scope_adverb": words("""everywhere throughout always only consistently instead"""),
    # "Feature flags default to off": a verb that sets a value is a setting by itself.
    "setting_verb": words("""default"""),
    # Verbs whose present tense names a structural relation between artefacts: a
    # convention of the code's shape ("Handlers return `Result`"), where other verbs
    # describe what a thing does ("`pnpm test` runs the suite", "Migrations run nightly").
    "relation_verb": words(
        """import depend return extend implement inherit wrap expose export call raise throw
        mirror accept emit reference subclass go default start begin end include contain
        catch log need require"""
    ),
    # "Every animation needs a fallback": what every artefact of a kind must carry; "needs
    # to" is the modal instead.
    "need_verb": words("need require"),
    # Of those, verbs that also say how a thing goes in time or what it holds ("Each
    # session starts fresh", "Every answer includes details"): a relation of the code's
    # shape only beside a code span ("Shell scripts start with `set -euo pipefail`").
    "coded_relation_verb": words("""start begin end include contain catch log"""),
    # What every reply is: as a convention's subject ("Replies in Chinese") the
    # situation is every reply, so the scope alone must name the artefact.
    "reply_noun": words("""answer answers reply replies response responses output outputs"""),
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
            r"\b(?:at most|no more than|fewer than|less than|under|max(?:imum)?|up to)\s+\d+\s*\w"
            r"|\b(?:at most|no more than|never more than|max(?:imum)?)\s+(?:one|two|three|four|"
            r"five|six|seven|eight|nine|ten)\s+[a-z]",
            "a bound word, then a number",
            bounded=False,
        ),
        Pattern(
            r"\b(?:at least|only at|only after|only from|only beyond|not before)\s+\d+\+?\s*[a-z]"
            r"|\b(?:at|after|from|beyond)\s+\d+\+\s*[a-z]",
            "a threshold: at least a number, or a number and more ('abstract only at 3+ reuses')",
            bounded=False,
        ),
    ),
    # "Tabs for indentation", "Dates as YYYY-MM-DD": a short verbless convention.
    "convention": (
        Pattern(
            r"^(?P<value>(?:[\w`'\"./+#@-]+\s+){0,2}[\w`'\"./+#@-]+)\s+"
            r"(?P<prep>for|in|as|on|per|behind|inside|within|via|through|under|from|alongside|"
            r"next to|with)\s+"
            r"(?P<scope>(?:[\w`'\"./+#@-]+\s*){1,4})$",
            "a value, a preposition, then the artefact it is for (or replaces)",
            bounded=False,
        ),
    ),
    # "No default exports; named exports only": a clause led by a bare negator forbids.
    "bare_negator": words("""no not never"""),
    # Short answers that are no value to use ("心情：OK"), and words that grade a setting
    # instead of naming it ("**Testing:** important", "Docs: optional").
    "not_value": words(
        """ok okay yes no done todo tbd wip none n/a na important essential critical
        required optional mandatory recommended necessary pending planned"""
    ),
    # "Linting: considering ESLint": verbs of weighing an option not yet chosen.
    "deliberating": words(
        """considering evaluating exploring investigating weighing comparing trialling
        trialing prototyping researching"""
    ),
    # "Build failing", "Tests passing": a participle that reports a state, not a practice.
    "state_participle": words(
        """failing passing breaking broken crashing running working pending loading waiting
        missing blocking hanging timing flaking stalling leaking"""
    ),
    # "Feature folders under `src/features/`": a place preposition sets a convention only
    # toward a named place ("Logs under review", "Files from the old repo" describe).
    "place_prep": words("""under from alongside next"""),
    # "Functional components only", "named exports only": a restriction to a value.
    "restriction": (
        Pattern(
            r"^(?P<value>(?:[\w`'\"./+#@-]+\s+){0,2}[\w`'\"./+#@-]+)\s+"
            r"(?:only|exclusively|solely)(?P<scope>)(?P<prep>)$",
            "a value, then 'only' ('exclusively', 'solely')",
            bounded=False,
        ),
    ),
    # "Imports sorted with isort", "findings sorted by confidence": an artefact and the
    # participle that arranges or formats it, then how; a reduced passive convention.
    "arranged": (
        Pattern(
            r"^(?:then\s+|and\s+)?(?P<subject>(?:[\w`'./+#-]+\s+){0,2}[\w`'./+#-]+)\s+"
            r"(?P<participle>sorted|ordered|grouped|ranked|numbered|prefixed|suffixed|formatted|indented|"
            r"aligned|wrapped|annotated|typed|named|capitali[sz]ed|quoted|escaped|encoded|"
            r"nested|separated|split|listed|documented|tested|validated|logged|pinned|mocked|"
            r"defined|declared|configured|centrali[sz]ed)\s+"
            r"(?P<how>by|with|in|as|into|under|alphabetically|using|per)\b",
            "an artefact, a participle of arranging or formatting, then how",
            bounded=False,
        ),
    ),
    # "Google Style docstrings", "snake_case columns", "4-space indentation": a named
    # style or a measure, then the artefact it shapes; a verbless convention.
    "styled": (
        Pattern(
            r"^(?:[\w.+#-]+\s+){0,2}?(?P<name>[\w.+#]+?)(?P<sep>[-_ ]?)"
            r"(?:style|case|format|syntax|notation)\s+"
            r"(?:[\w-]+\s+)?(?P<artefact>[\w-]+)$"
            r"|^\d+[- ](?:space|spaces|tab|tabs|char|chars|character|characters|column|columns)"
            r"\s+(?P<measured>[\w-]+)$",
            "a named style or a measure, then one artefact",
            bounded=False,
        ),
    ),
    # "camelCase", "SCREAMING_SNAKE_CASE": a naming style names the convention itself, so
    # a verbless clause of one ("snake_case for columns") says what to write.
    "naming_style": (
        Pattern(
            r"(?:(?:lower|upper)[_ -]?)?camel[_ -]?case|pascal[_ -]?case"
            r"|(?:(?:screaming|upper|all[_ -]?caps)[_ -]?)?snake[_ -]?case"
            r"|(?:kebab|constant|train|dot)[_ -]?case",
            "a naming style's own name",
        ),
    ),
    # What a naming style is for, besides the artefact words ("constants in UPPER_SNAKE_CASE").
    "naming_noun": words(
        """naming name names identifier identifiers constant constants convention conventions
        casing"""
    ),
    # "Report format: headline + table + summary": a label naming a format, whose value
    # lists the parts it is made of.
    "format_label": words("""format formats template templates structure layout outline"""),
    # "Modern style components", "Functional style": an adjective names no style.
    "adjective_suffix": ("al", "ive", "ic", "ous", "ful", "ern", "ent", "ant", "ary", "ish"),
    # "sorted by confidence": an ordering by a key is concrete whatever is ordered.
    "ordering": words("""sorted ordered grouped ranked"""),
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
        variable variables comment comments component components codebase docs doc
        documentation tests module modules identifier identifiers abstraction abstractions
        architecture coding style formatting interface interfaces api apis software program
        programs system systems"""
    ),
    # Verbs of keeping or making whose object may be only a quality ("Write clean code",
    # "Develop an efficient …").
    "quality_cue": words(
        """write keep implement prioritize prioritise encourage ensure maintain make emphasize
        aim strive favor favour use choose pick give develop build design create generate
        produce output deliver craft"""
    ),
    # "Ensure type safety across the project": verbs that uphold or raise what follows;
    # when that ends on a quality, the words before it only say whose quality it is.
    "quality_verb": words(
        """ensure ensures maintain maintains preserve uphold improve improves enhance
        guarantee boost increase optimize optimise safeguard"""
    ),
    # "Minimize unnecessary prose", "Guard against spaghetti code": an object picked out
    # only by a judgement of excess; which ones are meant is left to the reader.
    "needless": words("unnecessary needless excessive redundant superfluous gratuitous spaghetti"),
    # Where a quality is upheld ("across the project"): a scope, not an object.
    "quality_scope": words("across throughout everywhere within"),
    # Cues that rank a quality ("Prioritize readability"): a value even without an
    # evaluative word.
    "ranking_cue": ("prioritize", "prioritise", "encourage", "emphasize"),
    # "Favor readability over cleverness": a preference verb that weighs one quality over
    # another; "over" ends the preferred side.
    "preference_cue": ("favor", "favour", "prefer", "prioritize", "prioritise", "value", "choose"),
    "weighed_over": ("over", "rather than", "instead of"),
    # "Details: <file>" points at where the rest is written.
    "details": (
        Pattern(r"(?i:\bdetails?\s*[:：]\s*\S+)", "'Details:' and its target", bounded=False),
    ),
    # The characters a details pointer is looked for beside (a cheap test before the regex).
    "details_cue": (":", "："),
}
