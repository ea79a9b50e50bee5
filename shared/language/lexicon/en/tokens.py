"""English data of tokenising and of splitting a board line (data only)."""

from __future__ import annotations

from shared.language.lexicon.concept import Entry, Marker, Pattern, words

CONCEPTS: dict[str, tuple[Entry, ...]] = {
    "stopword": words(
        """a an the and or but if then than so to of in on at by for with from into onto about
    as is are was were be been being am do does did done doing have has had having i me
    my mine you your yours we us our they them their he him his she her it its this that
    these those there here what which who whom whose when where why how all any both
    each few more most other some such no nor not only own same too very can could will
    would shall should may might must just also again ever even it's that's i'm i'd
    you're don't doesn't didn't can't won't isn't aren't let's please make sure get got
    go going want need like one thing things time way use used using lesson groove
    pattern topic entity md"""
    ),
    # Tokens too generic to identify a rule's trigger on their own.
    "generic_cue": words(
        "user ask request say tell mention someone anyone thing work make help new"
    ),
    # Verbs of any task: rare on a board ("Always check for duplication"), they still
    # name no line alone ("now can you double check again?"). Stems, after the fold.
    "task_verb": words("check fix write start remov updat chang look run add"),
    # A deliberately small synonym fold: canonical stem <- variants (after stemming).
    "synonym:answer": words("reply respond respons answer"),
    "synonym:short": words("short brief concis terse succinct"),
    "synonym:long": words("long verbos lengthy"),
    "synonym:error": words("error bug fail failur crash exception"),
    "synonym:fix": words("fix repair patch"),
    "synonym:test": words("test spec"),
    "synonym:commit": words("commit"),
    "synonym:deploy": words("deploy releas ship rollout"),
    "synonym:write": words("write draft compos"),
    "synonym:check": words("check verify confirm validat"),
    "synonym:summar": words("summar summary summariz recap digest"),
    "synonym:chines": words("chines mandarin"),
    "synonym:english": words("english"),
    "synonym:meet": words("meet meeting call sync"),
    "synonym:schedul": words("schedul calendar book"),
    "synonym:price": words("price cost pric"),
    "synonym:file": words("file document doc"),
    "synonym:start": words("start begin open lead"),
    "synonym:remov": words("remov delet drop"),
    "synonym:ask": words("ask question queri request"),
    "synonym:tabl": words("tabl table"),
    "synonym:list": words("list bullet"),
    # A rule sentence: (trigger clause, direction clause), tried in rank order.
    "rule_shape_marker": (
        Marker(
            "when ..., ...",
            r"(?is:^(?:when(?:ever)?|if|before|after|once|while|upon|on|each time|every time|in)"
            r"\s+(.+?)(?:,|;|:|\s[-\u2013\u2014]+\s|\bthen\b|\s(?=please\s))\s*(.*)$)",
            rank=0,
        ),
        Marker(
            "... before/after/whenever ...",
            r"(?is:^(?=.+?\s((?:before|after|whenever|every time|each time)\s+[^,;]+?)"
            r"\s*[.!]?$)(.+?)(?=\s+(?:before|after|whenever|every time|each time)\s))",
            rank=4,
        ),
    ),
    "trigger_connective": (
        Pattern(
            r"(?i:(?:before|after|whenever|every time|each time|once)\s)",
            "a situation that opens with its own connective",
            bounded=False,
        ),
    ),
}
