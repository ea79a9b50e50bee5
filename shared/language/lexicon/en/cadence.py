"""English phrases of the runtime's own cadence that the inner-outer gate looks for (data only).

An internal runtime kind cited as a source, and the shapes of a rule whose situation is
the runtime's own clock: its heartbeat, a fixed schedule, a health sweep of what it keeps.
"""

from __future__ import annotations

from shared.language.lexicon.concept import Entry, Pattern, words

_INTERNAL = (
    r"(?:cadence|meta[- ]?session|meta partition|meta layer|system (?:event|message|output|"
    r"log|tick|notice)s?|runner|gateway|route\.deliver|router|internal (?:output|signal|event|"
    r"source|log|chatter|report|cadence|telemetry|state)|agent\.\w+|heartbeat|tick output|"
    r"scheduler|maintenance tick)"
)
# What the runtime last did or heard, and a span of time, for "N hours since the last …".
_LAST_ACT = (
    r"(?:check|review|scan|heartbeat|run|wake|wake-up|ping|sweep|message|reply|contact|"
    r"interaction)"
)
_SPAN = r"(?:minutes?|mins?|hours?|h|days?)\b"
# The units of a fixed clock ("every week", "once a month", "each Monday").
_CLOCK_UNIT = (
    r"hour|day|night|morning|evening|afternoon|week|weekday|weekend|month|quarter|year|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday"
)
_ATTRIB = (
    r"(?:says?|said|reports?|reported|shows?|showed|shown|indicates?|indicated|suggests?|"
    r"suggested|claims?|claimed|outputs?|signals?|signaled|logs?|logged|notes?|noted|"
    r"implies|implied|flags?|flagged|tells?|told)"
)


def _shape(regex: str, why: str) -> tuple[Entry, ...]:
    return (Pattern(regex, why, bounded=False),)


CONCEPTS: dict[str, tuple[Entry, ...]] = {
    "internal_source": _shape(
        rf"\b{_INTERNAL}\b(?:\W+\w+){{0,4}}?\W+{_ATTRIB}\b"
        rf"|\b(?:according to|per|from|based on|derived from|sourced from|via)\s+(?:the\s+)?"
        rf"(?:internal\s+)?{_INTERNAL}\b"
        r"|\bsource[_ ]?kind\s*[:=]\s*`?(?:cadence|meta|system|runner|route|gateway)\b"
        r"|\binternal(?:-only)? (?:source|signal|evidence)s?\b",
        "an internal runtime kind cited as the source",
    ),
    "external_ground": _shape(
        r"\b(?:user|customer|client|person|owner|operator)\s+(?:said|says|wrote|writes|asked|"
        r"asks|told|tells|confirmed|confirms|stated|states|requested|requests|mentioned|"
        r"explicitly|directly)\b"
        r"|\b(?:in|via|from|on|over|through)\s+(?:a\s+|an\s+|the\s+|their\s+|his\s+|her\s+)?"
        r"(?:channel|stdio|feishu|lark|slack|email|chat|job request|direct message)\b"
        r"|\b(?:user-authored|user-written|user's own|job request|external (?:event|channel|"
        r"source|evidence))\b",
        "the user's own words, or an external channel",
    ),
    "heartbeat": _shape(
        r"\bheartbeats?\b|\bheartbeat_ok\b"
        # what waits for the runtime's next tick ("Batch non-urgent items into the next check-in")
        r"|\b(?:next|each|every) (?:check-ins?|wake-ups?|wakes?)\b"
        r"|\bevery \d+\s*(?:minutes?|mins?|hours?|seconds?)\b"
        # time elapsed since the runtime's last check or contact ("> 4h since the last check")
        rf"|\bsince (?:the |your |my )?last {_LAST_ACT}\b[^.;]{{0,20}}?(?:>=?|≥|over|more than|"
        rf"exceeds?)\s*\d+\s*{_SPAN}"
        rf"|(?:>=?|≥|over|more than)\s*\d+\s*{_SPAN}\s+since (?:the |your |my )?last {_LAST_ACT}\b"
        # a tick of the runtime's own as the situation, in any house's words ("On each
        # poll, …", "When you wake up, …", "When the cron job fires"); "on each run of the
        # suite" names no tick
        r"|\b(?:on|at|during|per|for|after|in|upon)\s+(?:each|every|the next|this|a)\s+"
        r"(?:heartbeat\s+|cron\s+|scheduled\s+)?(?:polls?|ticks?|wake-?ups?|cycles?|patrols?|"
        r"cron runs?|scheduled runs?)\b"
        r"|\bwhen(?:ever)?\s+(?:you\s+)?(?:wake up|are woken|are polled|get polled|are pinged by)\b"
        r"|\beach time you (?:wake|are woken|are polled)\b|\bwhen polled\b"
        r"|\b(?:the|a)\s+(?:cron|timer|scheduler|scheduled task)\s+(?:job\s+)?(?:fires|triggers|"
        r"wakes|kicks in)\b"
        # the reply token that closes a tick with nothing to do ("reply `NO_REPLY`")
        r"|\b(?:reply|respond|answer|return|output|say)(?:\s+with)?\s*[:：]?\s*[`\"']?"
        r"[a-z]+_(?:ok|noop|idle|silent)\b|\bno_reply\b"
        # the runtime's record of its own ticks ("lastChecks", "last_wake")
        r"|\blast[_-]?(?:checks|checked|wake|poll|tick)\b",
        "the runtime's heartbeat cadence or its own clock ('every 30 minutes check …')",
    ),
    # An interval of the project's own code ("Retry failed webhooks every 5 minutes", "cache
    # entries expire every 10 minutes"): a policy the code keeps, not a tick of the runtime.
    "project_interval": _shape(
        r"\bretr(?:y|ies|ied|ying)\b|\bbackoff\b|\bttl\b|\bexpir(?:e|es|ed|y)\b|\btimeouts?\b"
        r"|\bcach(?:e|ed|es|ing)\b|\bdebounc\w*|\bthrottl\w*|\brate[- ]limit\w*|\brefresh(?:es)? "
        r"(?:the |its )?(?:token|cache)s?\b",
        "an interval of the project's own code",
    ),
    # A clock as the situation ("every night", "daily"): the runtime's schedule.
    "schedule": _shape(
        r"\b(?:every|each)\s+(?:hour|day|night|morning|evening|week|weekday)\b"
        r"|\b(?:hourly|daily|nightly|weekly)\b|\bperiodically\b|\bon a schedule\b|\bcron\b",
        "a clock as the situation",
    ),
    # A fixed clock of the runtime's own opening the line, after an optional field label
    # ("Every week, build …", "Once a month, check …", "Trigger: daily at 09:00 …").
    "clock_lead": _shape(
        rf"^\W*(?:[\w ]{{1,20}}[:：]\W*)?(?:(?:every|each|once (?:a|an|per|every))\s+"
        rf"(?:{_CLOCK_UNIT})\b|(?:hourly|daily|nightly|weekly|monthly)\b\s*(?:at\b|[,:：])"
        r"|at \d{1,2}:\d{2}\b)",
        "a fixed clock of the runtime's own as the situation",
    ),
    # A schedule of the project's, not of the runtime: kept by its tooling ("in CI"), or
    # the upkeep of its code's dependencies ("Run `npm audit` weekly", "每周检查依赖更新").
    "project_schedule": _shape(
        r"\bci\b|\bgithub actions\b|\.github/workflows|\bjenkins\b|\bcrontab\b"
        r"|\b(?:dependenc(?:y|ies)|packages|lockfiles?|vulnerabilit(?:y|ies)|security audit)\b"
        r"|\b(?:npm|pnpm|yarn|pip|cargo) (?:audit|outdated|update|upgrade)\b",
        "the project's own scheduler, or the upkeep of its dependencies",
    ),
    # The action of a self-check: look over or tidy what the runtime keeps; and a line
    # that opens with one.
    "self_check": words("check checks scan inspect poll review audit sweep clean prune purge tidy"),
    "check_lead": _shape(
        r"^\W*(?:\d+[.)]\s*)?(?:check|scan|inspect|poll|review|verify|confirm|monitor|"
        r"look (?:for|at|through|over)|go through|"
        r"clean up|clear|purge|prune|delete|remove|rotate|archive)\b",
        "a check opening the line",
    ),
    # What a health sweep of the runtime's own looks over: its services' and channels'
    # health, its mailboxes and unanswered messages, its model config, its failed tasks,
    # and the sweep's own window ("new messages in the last 4 hours").
    "sweep_target": _shape(
        r"\b(?:gateways?|channels?|agents?|services?|bots?|daemons?|workers?)\s+(?:are|is)\s+"
        r"(?:all\s+)?(?:healthy|alive|online|offline|up|down|abnormal|running)\b"
        r"|\b(?:gateways?|channels?|agents?|services?|bots?)\b[^.;]{0,40}?\bstatus\b[^.;]{0,10}?"
        r"\b(?:is |looks )?(?:abnormal|unhealthy|degraded)\b"
        r"|\bmailbox(?:es)?\b|\binboxes\b|\bmodel (?:config(?:uration)?s?|settings)\b"
        r"|\b(?:failed|failing|stuck) (?:tasks|jobs|runs)\b"
        r"|\bmessages? (?:waiting|pending|unanswered)\b"
        r"|\b(?:unread|unanswered) (?:[a-z-]+ ){0,2}messages\b"
        # what the user is to be reminded of: reminders, deadlines, the calendar
        r"|\b(?:approaching|upcoming|overdue|imminent|missed|pending|due) (?:[a-z-]+ ){0,2}?"
        r"(?:reminders?|deadlines?|due dates?|appointments?|events?|meetings?|tasks|todos?|"
        r"follow-?ups?)\b|\breminders?\b[^.;]{0,20}?\bdeadlines?\b|\bcalendar events?\b"
        r"|\b(?:anything|everything|items?|tasks|entries) (?:that is |that are |that's )?(?:due|"
        r"urgent|overdue|time-sensitive)\b"
        rf"|\b(?:in|over|within|from) (?:the )?(?:last|past) \d+\s*{_SPAN}",
        "what the runtime's own health sweep looks over",
    ),
    # What to do when the sweep finds something: a condition with no subject or place of
    # its own ("if something needs attention,", "if any issues are found:"), then an alert;
    # "if something looks off in the diff, flag it" has its own place and is a rule.
    "sweep_finding": _shape(
        r"^\W*(?:\d+[.)]\s*)?(?:if|when|whenever)\s+(?:(?:something|anything)\s+(?:needs?|"
        r"requires?)\s+(?:attention|action)|(?:something|anything)\s+(?:is|looks|seems)\s+"
        r"(?:wrong|off|abnormal|broken)|(?:any|an)\s+(?:issues?|problems?|anomal(?:y|ies))\s+"
        r"(?:(?:is|are)\s+)?(?:found|detected|spotted))\s*(?:[,:：—–]|->|→)[^.;]{0,40}?\b"
        r"(?:alert|notify|report|heads-up|ping|flag)"
        # the sweep's outcome as the condition, in any house's words ("If action is needed:
        # short summary …", "If everything is quiet, stay silent"); "when all tests pass"
        # has a subject of its own
        r"|^\W*(?:\d+[.)]\s*)?(?:if|when)\s+(?:(?:no\s+)?action is|nothing is)\s+(?:needed|"
        r"required)\b|^\W*(?:\d+[.)]\s*)?(?:if|when) (?:all|everything) (?:is |looks )?"
        r"(?:quiet|ok|fine|normal|clear|healthy)\b",
        "what to do when the sweep finds something: alert",
    ),
    # "Use `git pull` to fetch any changes to workspace from remote", "commit the changes
    # in the workspace and push to origin": the runtime syncing its own workspace with a
    # remote is its upkeep; the two halves are looked for apart (no backtracking between).
    "workspace_changes": _shape(
        r"\b(?:changes|edits) (?:to|in) (?:the |its |my |your )?workspace\b"
        # staging everything there is, or whatever a script printed ("If output is
        # non-empty: stage all, commit, push")
        r"|\b(?:stage|add) (?:all|everything)\b[^.;]{0,20}?\bcommit\b"
        r"|\bif (?:the )?(?:output|diff|git status) (?:is )?(?:non-?empty|not empty)\b",
        "changes to the runtime's own workspace",
    ),
    "remote_sync": _shape(r"\b(?:push|pushes|pull|pulls|fetch|fetches)\b", "a push or pull"),
    # What the runtime keeps for itself: its queue, task folder, state file, the errors
    # and logs since its last look.
    "runtime_store": _shape(
        r"\w*queues?\b|\binbox\b|\bbacklog\b|\btasks/|\bstate/|\bstate files?\b"
        r"|\b(?:recent|latest|new) (?:errors|logs|alerts)\b|\b(?:old|stale) logs\b|\blogs/"
        # what has aged past a limit ("older than 30 days", "30天前的")
        r"|\bolder than \d+\s*(?:days?|weeks?|hours?)\b",
        "the runtime's own queue, tasks, state, recent errors or old logs",
    ),
    # What the runtime tells its user on its own clock: reminders, what is due or urgent,
    # a digest ("Surface urgent entries first", "Notify the user about pending reminders");
    # "Surface errors to the user" names no such thing.
    "notify_routine": _shape(
        r"^\W*(?:\d+[.)]\s*)?(?:surface|notify|remind|nudge|ping|alert|prioriti[sz]e|push)\b"
        r"[^.;]{0,40}?\b(?:urgent|overdue|time-sensitive|upcoming|approaching|unread|unanswered|"
        r"reminders?|deadlines?|due (?:today|soon|tomorrow|this week|dates?))\b"
        r"|^\W*(?:\d+[.)]\s*)?(?:compile|prepare|send|build|write|assemble)\s+(?:a |the |your )?"
        r"(?:daily |morning |evening |weekly )?(?:digest|briefing|brief) "
        r"(?:of|for (?:the user|me))\b",
        "what the runtime tells its user on its own clock",
    ),
    # What it keeps of its own deliveries ("Set `delivered: true` on each entry you
    # surfaced", "Don't repeat alerts already sent"): the routine's bookkeeping.
    "delivery_mark": _shape(
        r"\b(?:entry|entries|items?|reminders?|notifications?|alerts?|updates?|events?|"
        r"findings?)\s+(?:that\s+)?(?:you(?:'ve| have)?|already|previously)\s+(?:surfaced|"
        r"delivered|reported|notified|reminded|mentioned|pinged|alerted)\b"
        r"|\b(?:already|previously) (?:surfaced|delivered|notified|reminded|alerted|pinged)\b"
        r"|\b(?:from|in) (?:prior|previous|earlier|past|old) (?:heartbeats|check-ins|polls|digests|"
        r"briefings|wake-ups)\b",
        "the routine's record of what it delivered",
    ),
    # A token budget the runtime spends on its own work ("Stop when the remaining token
    # budget reaches 0"); an API's quota is the project's.
    "budget_stop": _shape(
        r"\b(?:token budget|remaining (?:token )?budget|tokens? (?:left|remaining)|remaining "
        r"tokens|context budget|token[- ]flush)\b",
        "the runtime's own token budget",
    ),
    # The runtime's own review of its day on its clock ("Every evening, review today's
    # conversations"), whoever the conversations were with.
    "self_review": _shape(
        r"\b(?:review|go over|reflect on|look back (?:at|over))\s+(?:today's|the day's|this "
        r"week's|your own|your|my)\s+(?:work|conversations|sessions?|progress|day|week|mistakes)\b"
        r"|\breflect on\b",
        "the runtime's own review of its day",
    ),
    # The heartbeat named, beside the bare intervals "heartbeat" also reads as one.
    "heartbeat_word": ("heartbeat",),
    # "Flag if cost > 80% of target": a threshold on what the tick measures (the signs,
    # "≥ 80%", are every language's).
    "threshold": (
        Pattern(
            r"\b(?:above|over|exceeds?|below|under)\s+\d+\s*%",
            "above / below a share",
            bounded=False,
        ),
    ),
}
