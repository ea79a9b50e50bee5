"""Word lists and clause analysis the review gates share (English + Chinese, pure).

A claim is normalised (markdown emphasis, backticks, placeholders' angle brackets and
modal tags removed; pointers noted and dropped), split into clauses at punctuation
and arrows, and each clause is checked for a trigger (a recognisable situation) or a
direction (an imperative or a modal of obligation). Every detector returns the
matched cue so a decision can say why it was made.
"""

from __future__ import annotations

import functools
import itertools
import re
from dataclasses import dataclass


class Prefiltered:
    """A regex searched in two steps: the pattern with its ``\\b`` assertions removed (a
    superset that ``re`` scans several times faster, since it can skip on first
    characters), then the exact pattern only where the fast one matched."""

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.exact = re.compile(pattern, flags)
        self.fast = re.compile(pattern.replace(r"\b", ""), flags)

    def search(self, text: str) -> re.Match[str] | None:
        return self.exact.search(text) if self.fast.search(text) else None


def wordset(text: str) -> frozenset[str]:
    """The whitespace-separated words of ``text``."""
    return frozenset(text.split())


def phraseset(text: str) -> frozenset[str]:
    """The ``|``-separated phrases of ``text``."""
    return frozenset(p.strip() for p in text.split("|"))


CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
CJK_RE = re.compile(f"[{CJK}]")

POINTER_RE = re.compile(r"\[\[[^\]\n]+\]\]")
DETAILS_RE = re.compile(
    r"(?i)\bdetails?\s*[:：]\s*\S+|(?:详见|参见|参考|见)\s*[`\[]?[\w./-]+\.(?:md|json|txt|ya?ml)"
)
PATH_RE = re.compile(r"`?[\w.-]+(?:/[\w.-]+)+\.(?:md|json|jsonl|txt|ya?ml|py|toml)`?")
MODAL_TAG_RE = re.compile(
    r"\[(?:observation|inference|instruction|conditional\s*:[^\]]*|hypothesis[^\]]*|"
    r"superseded[^\]]*)\]",
    re.IGNORECASE,
)
_EMPHASIS_RE = re.compile(r"\*\*|__|`|~~")
_PLACEHOLDER_RE = re.compile(r"<([A-Za-z][\w-]*)>")
# Informal Chinese separates clauses with spaces ("修改要小步快跑 避免一次性修改").
_CLAUSE_SPLIT_RE = re.compile(
    r"\s*(?:[,;:，；：。!?！？()（）]|\.(?=\s|$)|—|–|\s-\s|->|→|=>)\s*"
    r"|(?<=[\u4e00-\u9fff])\s+(?=[\u4e00-\u9fff])"
)

# ---------------------------------------------------------------- triggers
TRIGGER_EN_RE = re.compile(
    r"\b(?:when(?:ever)?|if|unless|before|after|once|while|during|upon|until|"
    r"as soon as|each time|every time|any time|anytime|in case|whenever|wherever|"
    r"(?:each|every)(?=\s+(?:turn|session|commit|change|push|pr|pull request|task|batch|run|"
    r"release|deploy|file|step)\b))\b"
    r"|^where\b"
)
# A leading scope phrase ("With <Person>,", "For deploy questions,", "On Mondays,")
# names a recognisable situation too.
SCOPE_EN_RE = re.compile(r"^(?:with|for|in|on|at|during|around|to|about|from)\s+\S")
GENERIC_SCOPE_EN = phraseset(
    "in general|overall|in short|for now|in practice|at all times|in every case|"
    "for all|by default|in most cases|as a rule|for example|in any case|in summary|"
    "on the whole|for instance|in addition|at first|in fact|to be safe|for clarity|"
    "on average|at times|in particular|for sure"
)
TRIGGER_ZH_RE = re.compile(
    r"每当|每次|一旦|只要|凡是|假如|如果|若是|倘若|要是|如遇|遇到|碰到|遇见|收到|看到|听到|"
    r"面对|涉及|对于|针对|(?<![应相适恰担妥充])当(?![前然下天初])|"
    r"(?<![同有及暂临随准按届])时(?:候)?(?=[，,、]|必须|应|要|需|先|请|都|就|则|才|一律|务必|不要|禁止)|"
    r"之前|之后|以前|以后|期间|(?:只有|仅当|仅在|只在)[^，。,]{1,24}?才"
)
# Words that do not make a trigger concrete on their own.
GENERIC_EN = wordset(
    """answer answering answers respond responding response responses reply replying
    replies help helping work working talk talking chat chatting conversation
    conversations message messages anything something everything always possible
    needed necessary appropriate applicable relevant useful asked asks ask you your
    any every all time times case cases situation situations general user users
    question questions task tasks request requests someone people person anyone
    doing do does doubt unsure sure interacting interaction interactions writing
    write output outputs text thing things stuff matter matters prompted warranted
    required requested unclear uncertain instructed told makes make sense"""
)
GENERIC_ZH = (
    "回答|回复|答复|问题|用户|任何|所有|需要|必要|时候|情况|对话|帮助|工作|任务|消息|"
    "提问|适当|合适|可能|有人|别人|事情|东西|一切|聊天|交流|沟通|的|时|当|在|了|吗|"
    "每当|每次|如果|遇到|碰到|疑惑|疑问|困惑|不确定|不清楚|不明白|有疑"
)
_GENERIC_ZH_RE = re.compile(GENERIC_ZH)
_LEADING_GENERIC_ZH_RE = re.compile(f"^(?:{GENERIC_ZH})+")

STOP_EN = wordset(
    """a an the and or but of in on at by for with from into onto to about as is are
    was were be been being am it its this that these those there here he him his she
    her they them their we us our i me my would could should will can may might must
    has have had not no so such than then too very just also through across within
    without against between what which who whom whose whatever"""
)

# ---------------------------------------------------------------- directions
IMPERATIVE_EN = wordset(
    """accept acknowledge add address adjust admit adopt alert align announce annotate
    answer append apply approve archive argue ask assign assume attach avoid back
    batch begin bold book bring build bump call cancel capture carry cc change check
    choose cite clarify classify clean close collect combine commit compare compress
    confirm connect consult continue convert copy correct count create cross cut
    decline default defer define delegate delete deliver describe detect diff direct
    disable discard display do document double-check download draft drop echo edit
    email emphasize enable end ensure enter escalate estimate explain export extract
    fetch file fill filter find finish fix flag focus follow forward frame gather
    give go greet group guard handle hide highlight hold ignore include inform insert
    inspect install invite isolate keep label launch lead leave limit link list load
    locate lock log look lower make mark measure mention merge message mirror move
    mute name narrow note notify number offer omit open order organize outline pair
    paraphrase parse paste pause phrase pick pin ping place plan point post postpone
    prefer prepare present preserve print prioritize probe produce prompt propose
    provide pull push put query question queue quote raise rank read reassure recap
    recommend record redirect reduce re-read re-run refer reference reframe refuse
    reject remind remove rename reopen repeat rephrase replace reply report request
    rerun reschedule reset resolve respect respond restart restate restore resume
    retry return reuse review revise revert rewrite route run save say scan schedule
    search select send separate set share shorten show sign skip slow sort speak
    specify split start state stay steer stop store submit suggest summarise
    summarize supply surface swap switch tag take tell test thank track transcribe
    translate treat trim try turn type underline undo unify update upgrade upload use
    validate verify wait warn watch wrap write"""
)
IMPERATIVE_EN = IMPERATIVE_EN | wordset(
    """identify extract propose explain break cap spell embed format structure bullet
    calculate compute benchmark profile debug trace reproduce bisect refactor comment
    localize transliterate reword simplify expand elaborate condense delay nudge remind
    reserve cross-check browse grep skim reread back backup uninstall downgrade unpin
    unlock toggle match mimic recycle fall fallback concede disagree challenge advise
    caution halt abort redo rollback roll prepend append chunk draft pre-fill prefill
    verify mark sanitize redact mask anonymize escape spell-check proofread highlight
    ask acknowledge greet close summarise tabulate chart plot visualize diagram sketch
    prototype scaffold stub mock seed migrate deploy ship release tag publish announce
    brief debrief hand assign triage prioritise prioritize timebox estimate quote price
    invoice bill refund charge pay transfer book order buy sell return exchange list
    keep hold carry bring take put place set leave let make give get send show tell
    catch delay implement base justify persist register grant rebase squash stage wire
    centralize extend cite prefix annotate wrap fetch push assert await bind cache cast
    clone configure constrain declare decouple dedupe deduplicate deprecate derive
    dispatch dispose emit encode decode enforce enqueue evaluate exclude expose flush
    fork freeze generate hash hoist import index infer inherit inject inline invalidate
    invoke iterate leverage memoize minimize mount namespace normalize normalise
    override paginate parallelize parametrize parameterize pass patch poll populate
    precompute preload prevent promote prune publish re-export refresh reload render
    reorder replay require reserve restrict retain rotate sanitise sanitize scope seal
    serialize serve snapshot spawn stream strip stub subscribe suppress sync throttle
    throw truncate unwrap upsert vendor whitelist allowlist denylist commit"""
)
# Verbs that direct nothing concrete on their own ("be careful", "consider it").
VAGUE_EN = wordset(
    """be consider think remember handle deal try act do proceed behave stay adapt
    reflect care mind aim strive focus"""
)
VAGUE_PHRASE_EN_RE = re.compile(
    r"\b(?:pay attention|keep in mind|bear in mind|take care|take into account|use "
    r"(?:your |good |best |common )*(?:judg(?:e)?ment|sense|discretion)|as appropriate|"
    r"appropriately|accordingly|as needed|as usual|carefully|thoughtfully)\b"
)
# A direction that leans on an unnamed artefact ("follow the usual checklist"): the
# noun ends its phrase, so "check the workflow run log" does not count.
EXTERNAL_SKILL_EN_RE = re.compile(
    r"\b(?:follow|apply|use|run|consult|check|see|read|open|load|reuse|repeat|adhere to|"
    r"comply with|conform to|stick to)\s+"
    r"(?:the\s+|our\s+|that\s+|this\s+|my\s+|your\s+)?(?:[\w-]+\s+){0,2}?"
    r"(?P<noun>procedure|playbook|checklist|runbook|workflow|template|guide|guideline|"
    r"guidelines|lesson|pattern|patterns|skill|groove|protocol|notes|dossier|doc|docs|"
    r"standards|best practices|instructions|"
    r"documentation|recipe|process|steps)"
    r"(?=\s*(?:$|[.,;:!?)]|\s(?:for|to|when|if|and|before|after|in|on|again|here)\b))"
)
MODAL_EN_RE = re.compile(
    r"\b(?:should|must|need to|needs to|have to|has to|always|never|don't|do not|"
    r"dont|make sure|be sure to|remember to|prefer to|avoid|instead|ought to)\b"
)
SKIP_LEAD_EN = wordset(
    """then always first just please also immediately briefly politely quietly
    explicitly directly still instead simply proactively gently only now actively
    and so next finally again usually"""
)
DIRECTION_ZH_RE = re.compile(
    r"应该|应当|需要|必须|务必|一定要|要先|请|先|然后|再|直接(?=[\u4e00-\u9fff])|立即|立刻|马上|及时|主动|优先|"
    r"尽量|不要|别|避免|禁止|切勿|勿|改为|改用|改成|换成|统一|一律|始终|总是|记得|按照|"
    r"按|遵循|参考|参照|采用|使用|(?<![应作费采引适常通有实信日可专公私备试启禁弃占])用(?![户途])|开头|回答|回复|答复|给出|提供|列出|说明|解释|"
    r"确认|核对|核实|检查|查看|查阅|阅读|读取|打开|调用|引用|标注|标明|注明|追问|询问|"
    r"问清|提醒|建议|拒绝|停止|暂停|跳过|切换|保持|保留|删除|发送|附上|总结|概括|复述|"
    r"重述|翻译|拆分|合并|等待|联系|上报|通知|告知|汇报|默认|补充|把|将|写|放|执行|运行|实现|"
    r"编写|添加|增加|安装|更新|遵守|提交|推送|保存|启用|禁用|开启|交给|交由|适配|接入|封装|选用|"
    r"改写|标记|指定|取消|引入|加上|(?:要|需|应|须|都)有(?=[\u4e00-\u9fffA-Za-z`\s])|"
    r"(?<![据听小比如所来再])说(?![明服法])|(?:只|仅)(?=[对在做写用改实保])|"
    # a modal of obligation before a verb ("时要脱敏", "要在路由里注册")
    r"(?<![重主需想只不还必到说望算备])要(?![是求点素闻紧])(?=[\u4e00-\u9fff])|"
    # common verbs of editing and running code
    r"校验|验证|注册|分页|脱敏|加密|解密|排序|过滤|上传|下载|导入|导出|打印|抛出|捕获|"
    r"存放|修复|修改|优化|部署|发布|打包|构建|编译|格式化|替换|转换|转为|转成|"
    r"设为|放在|放到|写在|写到|写入|统一为|包装|注入|绑定|监听|订阅|同步|备份|回滚|清理|清空|"
    r"删掉|去掉|去除|移除|隐藏|展示|渲染|加载|压缩|审查|评审|分离|解耦|"
    r"(?<![增更参附追叠施添外])加(?![载密速入班油工强快深])|走(?![廊向路神])"
)
VAGUE_ZH_RE = re.compile(
    r"^(?:要|请|应该|需要|先)?(?:注意|小心|谨慎|考虑|留意|多想想|理解|思考|想清楚|妥善处理|适当处理|酌情处理|"
    r"灵活处理|认真对待|重视|用心|好好|做好)"
)
EXTERNAL_SKILL_ZH_RE = re.compile(
    r"(?:按照?|遵循|遵守|遵照|依照|参考|参照|使用|套用|沿用)"
    r"(?:之前|以前|上次|原来|既定|标准|通常|常规|(?:以下|下列|如下)[^，。,]{0,12}?)?的?"
    r"(?:流程|规范|清单|模板|步骤|方案|套路|做法|经验|教训|指南)"
    # "遵循奥卡姆剃刀原则": following a named principle is a slogan, not an action
    r"|(?:遵循|遵守|秉承|坚持|贯彻)[^，。,]{0,10}?(?:原则|理念|思想|精神)"
)

# ---------------------------------------------------------------- negation
NEGATION_EN_RE = re.compile(
    r"\b(?:never|don't|do not|dont|avoid|stop|no longer|must not|mustn't|should not|"
    r"shouldn't|refrain from|not to)\b"
)
NEGATION_ZH_RE = re.compile(
    r"不要|不得|禁止|避免|不再|切勿|千万别|严禁|不准|不可|不能|(?<![分区识特])别"
)
REPLACEMENT_EN_RE = re.compile(
    r"\b(?:instead|rather than|rather|in place of|replace|replacing|but)\b"
    r"|\b(?:just|simply)\s+(?:use|do|write|say|run|keep|leave|put|add|ask|return|call)\b"
)
REPLACEMENT_ZH_RE = re.compile(r"而是|改为|改用|改成|换成|代之以|取而代之|而要|而应|应该|应当|要先")
GHOST_EN_RE = re.compile(
    r"\b(?:again|anymore|any more|like last time|as before|repeat the (?:mistake|error)|"
    r"ever again)\b"
)
GHOST_ZH_RE = re.compile(r"再次|再犯|重蹈|像上次|又一次|再也")

# ---------------------------------------------------------------- domain (implicit trigger)
# "Prefer pnpm over npm for installs": the situation is implicit in the line's own
# domain when its direction acts on a concrete artefact (a code span, a path, a named
# tool, a file, a commit ...). Values and slogans ("be thoughtful", "treat access with
# respect") name none, so they still lack a trigger.
DOMAIN_EN = wordset(
    """file files filename filenames path paths directory directories folder folders repo
    repository branch branches commit commits rebase merge tag tags release releases
    version versions changelog readme docs doc documentation docstring docstrings comment
    comments header headers import imports module modules package packages dependency
    dependencies library libraries lockfile script scripts command commands cli shell
    terminal flag flags env environment variable variables secret secrets token tokens
    key keys credential credentials config configuration settings test tests fixture
    fixtures mock mocks assertion assertions coverage lint linter formatter build builds
    compiler ci pipeline deploy deployment server servers client browser api apis
    endpoint endpoints route routes http https url urls json yaml toml sql query
    queries database databases db table tables column columns row rows index indexes
    schema migration migrations transaction transactions orm record records field fields
    id ids type types class classes function functions method methods interface
    interfaces enum struct structs union unions log logs logging error errors exception
    exceptions trace warning warnings bug bugs regression patch diff diffs line lines
    link links diagram diagrams image images icon icons button buttons label labels ui
    page pages component components hook hooks callback callbacks webhook webhooks
    container containers docker cache timeout retries port ports process subprocess
    subprocesses thread threads async await queue worker cron email emails invoice
    calendar spreadsheet chart markdown heading headings emoji emojis ticket issue code
    input inputs export exports indentation indent spaces tabs whitespace semicolon semicolons
    language wording phrasing sentence sentences paragraph paragraphs
    description descriptions title titles example examples terminology abbreviation
    abbreviations acronym acronyms jargon punctuation quote quotes citation citations
    translation translations transcript transcripts app apps service services model
    models prompt prompts agent agents tool tools feature features screen screens form
    forms modal dialog menu tab tabs layout style styles css html theme color colors font
    fonts asset assets bundle chunk cdn dns ssl tls certificate ssh network payload
    payloads body storage bucket blob object objects array arrays dict tuple hash
    checksum signature encryption password passwords validation validator dataset
    datasets metric metrics benchmark benchmarks baseline baselines experiment
    experiments notebook notebooks figure figures plot plots dashboard alert alerts
    monitoring backup backups snapshot snapshots rollback artifact artifacts cluster pod
    pods volume volumes policy policies rls tenant tenants account accounts order orders
    payment payments price prices cart product products shortcut shortcuts locale
    locales i18n accessibility keyboard mobile desktop react vue angular svelte nextjs
    django flask fastapi rails laravel spring node deno bun vite webpack tailwind
    prisma drizzle supabase firebase aws gcp azure vercel netlify kubernetes helm nginx
    linux macos windows ios android xcode gradle maven dotnet csharp php ruby scala
    elixir haskell lua bash zsh powershell vim emacs vscode cursor claude openai gpt
    llm llms embedding embeddings vector vectors prompt token
    issues pr prs plugin plugins extension extensions binary binaries toolchain
    typescript javascript python rust golang java kotlin swift sqlite postgres
    postgresql redis git github gitlab npm pnpm yarn pip uv cargo pytest vitest jest
    ruff mypy eslint prettier kubectl terraform chinese english russian japanese
    utc timezone datetime datetimes unicode utf-8 regex crate crates gem gems sdk
    arguments argument parameter parameters boolean booleans string strings integer
    null none pointer pointers struct loop loops handler handlers session sessions
    cookie cookies jwt oauth auth authentication permission permissions role roles
    screenshot screenshots pdf csv spec specs plan design designs tracker"""
)
DOMAIN_ZH_RE = re.compile(
    r"代码|测试|提交|文件|目录|依赖|接口|数据库|迁移|分支|日志|文档|注释|函数|模块|字段|命令|"
    r"脚本|配置|版本|端口|密钥|环境变量|事务|查询|数据表|异常|类型|组件|页面|按钮|路由|缓存|"
    r"中文|英文|简体|语言|框架|单元测试|回归测试|规范|设计|仓库|部署|服务器|防火墙|备份|权限|"
    # Chinese names of the artefacts DOMAIN_EN lists (feature, variable, parameter ...)
    r"功能|变量|参数|对象|数组|字符串|服务端|客户端|前端|后端|移动端|界面|样式|图片|图标|表格|表单|"
    r"链接|插件|依赖包|安装包|模型|提示词|工具|截图|环境|容器|队列|标题|段落|字体|颜色|主题|布局|"
    r"动画|账号|账户|订单|支付|价格|报错|错误|漏洞|补丁|需求|"
    r"[A-Za-z]{2,}"
)
# Code spans, paths, file names, flags, identifiers and acronyms name an artefact.
CODE_TOKEN_RE = re.compile(
    r"`[^`\n]+`|(?<![\w/])[~.]{0,2}/[\w.-]+|\b[\w.-]+/[\w.-]+/[\w./*-]*|\b[\w-]+/[\w-]*\.\w{1,5}\b|"
    r"\b[\w.-]+/(?=[\s`'\")]|$)|\b\w+\.(?:md|py|ts|tsx|js|json|ya?ml|toml|sql|sh|rs|go|fs|"
    r"fsproj|ini|txt|lock)\b|(?<!\w)--?[a-z][\w-]+|\b[a-z]+_[a-z_]+\b|\b[a-z]+[A-Z]\w*\b|"
    r"\b[A-Z][a-z]+[A-Z]\w*\b|\b[A-Z]{2,6}s?\b|\b\w+\(\)"
)
# Capitalised emphasis is not an acronym.
_SHOUT = wordset(
    """IMPORTANT NEVER ALWAYS MUST NOT NO ALL ONLY DO DONT CRITICAL NON NEGOTIABLE
    WITHOUT NOTE RED LINE TODO YAGNI DRY KISS SOLID OK AND OR THE ANY USE"""
)
# A leading label ("**Fail fast:** ...", "Build from root: ...") summarises the rule;
# it is not the rule's object.
_LABEL_RE = re.compile(r"^\W*\*\*[^*\n]{1,60}\*\*\s*[:：]?\s*|^[^:：`\n]{1,40}(?::\s+|：\s*)(?=\S)")


def strip_label(raw: str) -> str:
    """``raw`` without a leading bold or ``Label:`` summary, when a body follows."""
    match = _LABEL_RE.match(raw)
    if match and raw[match.end() :].strip():
        return raw[match.end() :]
    return raw


def domain_concrete(claim: Claim, directions: list[tuple[int, str]]) -> bool:
    """True when the line acts on a concrete artefact (see DOMAIN_EN above): a code
    token anywhere in its body, or, in one of its direction clauses, an artefact word,
    a product or tool name (capitalised inside the clause: "Use Pydantic ..."), or a
    choice between named things ("Prefer list comprehensions for simple
    transformations", "Prefer A over B"). The direction cues themselves ("build",
    "test" as verbs) are not the artefact."""
    if _labelled_value(claim):
        return True
    body = strip_label(claim.raw)
    for match in CODE_TOKEN_RE.finditer(body):
        token = match.group(0).strip("`")
        if token.rstrip("s") not in _SHOUT and token not in _SHOUT:
            return True
    cues = {cue for _, cue in directions}
    for idx, cue in directions:
        clause = claim.clauses[idx]
        if claim.cjk and (_zh_domain(clause) or _zh_object_concrete(clause, cue)):
            return True
        for word in words(clause):
            for part in word.split("-"):
                if part not in cues and (part in DOMAIN_EN or part.rstrip("s") in DOMAIN_EN):
                    return True
        if _ARTEFACT_PHRASE_RE.search(clause):
            return True
        if _names_product(claim, clause) or _choice_shape(clause) or _uses_thing(clause, cue):
            return True
    return False


# "Use early returns", "Enable strict mode", "Pin dependency versions": a verb of
# choosing or setting up whose object is a thing, not a quality ("use good judgement")
# or an abstract value ("use empathy").
_OBJECT_CUES = wordset("use prefer adopt choose pick favor favour enable disable pin install")
ABSTRACT_EN = wordset(
    """judgement judgment sense care caution empathy respect discretion effort efforts
    patience kindness honesty tact diligence rigor rigour creativity intuition common
    wisdom reasoning thinking thought thoughts mind attention time energy tone"""
)


# Verbs that mostly take an abstract object ("follow instructions", "review for
# correctness", "keep changes minimal"): their object must be an artefact word.
_ABSTRACT_TAKING_CUES = wordset(
    """follow apply review think keep preserve maintain ensure consider test ask build
    deliver make stay try focus remember respect handle provide adhere strive aim"""
)
_ABSTRACT_SUFFIXES = ("ness", "ity", "ance", "ence", "ism", "ship", "ties")
_JUDGEMENT_RE = re.compile(
    r"\buse (?:your |good |best |common |sound )*(?:judg(?:e)?ment|sense|discretion)\b"
)
_HEDGE_RE = re.compile(
    r"\b(?:where|when|if|as)\s+(?:available|appropriate|possible|applicable|necessary|needed|"
    r"practical|sensible|feasible|relevant)\b"
)


def _uses_thing(clause: str, cue: str) -> bool:
    ws = words(clause)
    if cue not in ws or not (
        cue in _OBJECT_CUES
        or (cue in IMPERATIVE_EN and cue not in VAGUE_EN and cue not in _ABSTRACT_TAKING_CUES)
    ):
        return False
    if _HEDGE_RE.search(clause) or _JUDGEMENT_RE.search(clause):
        return False  # "Use strong typing where available", "use good judgement": nothing chosen
    obj = ws[ws.index(cue) + 1 :]
    return any(
        w not in STOP_EN
        and w not in SKIP_LEAD_EN
        and w not in GENERIC_EN
        and w not in EVALUATIVE_EN
        and w not in _GENERIC_OBJECT_EN
        and w not in VAGUE_EN
        and w not in ABSTRACT_EN
        and w not in _DETERMINERS
        and (
            cue in _OBJECT_CUES
            or (
                w not in IMPERATIVE_EN
                and w not in _EVENT_NOUNS_EN
                and not w.endswith(_ABSTRACT_SUFFIXES)
                and w[-2:] not in ("ly", "ed")
            )
        )
        and len(w) > 2
        for w in obj
    )


# Artefacts named by two words whose parts are generic ("request" alone is chat).
_ARTEFACT_PHRASE_RE = re.compile(r"\b(?:pull|merge|feature) requests?\b|\btest suites?\b")


def _zh_domain(clause: str) -> bool:
    """A Chinese artefact word, or a Latin name that is not an emphasis or a slogan
    ("遵循 SOLID 原则" names a principle, not a thing)."""
    for match in DOMAIN_ZH_RE.finditer(clause):
        token = match.group(0)
        if not token.isascii() or token.upper() not in _SHOUT:
            return True
    return False


# "Use Pydantic for ...", "Follow Conventional Commits": a capitalised word that does
# not open its sentence names a product, tool or standard.
_PRODUCT_RE = re.compile(r"(?<=[a-z0-9,)]\s)[A-Z][A-Za-z0-9]+(?:[.-][A-Za-z0-9]+)*\b")


def _names_product(claim: Claim, clause: str) -> bool:
    at = claim.lower.find(clause)
    if at < 0 or len(claim.lower) != len(claim.text):
        return False
    span = claim.text[at : at + len(clause)]
    return any(
        m.group(0).upper() not in _SHOUT and m.group(0) not in _NOT_PRODUCT
        for m in _PRODUCT_RE.finditer(span)
    )


_NOT_PRODUCT = wordset("I I'm I'll I've Person Topic User Users")

# "Prefer A over B", "Use X for Y", "Choose X rather than Y": the direction names what
# to pick and for what (or instead of what), so the situation is the choice itself.
_CHOICE_RE = re.compile(
    r"^(?:always\s+|only\s+)?(?:prefer|use|choose|pick|favou?r|adopt|default to)\s+"
    r"(?P<obj>[^,;]+?)\s+(?:for|over|instead of|rather than|in place of|to)\s+(?P<rest>\S.*)$"
)
# Words that name a quality or nothing in particular, not a thing to pick.
EVALUATIVE_EN = wordset(
    """clean consistent clear clearly robust succinct concise readable maintainable simple
    simpler small smaller focused efficient elegant proper properly good better best
    high-quality quality production-ready modern idiomatic secure safe performant fast
    reliable scalable solid meaningful descriptive appropriate sensible reasonable
    minimal thoughtful careful nice well-structured well-documented optimal great short
    shorter long longer brief briefer detailed friendly polite formal informal casual"""
)
_GENERIC_OBJECT_EN = wordset(
    """code codes logic approach approaches solution solutions way ways thing things
    practice practices principle principles pattern patterns style judgement judgment
    sense it them this that stuff implementation implementations mechanism mechanisms
    rule rules advice guidance lesson lessons project projects need needs"""
)


def _choice_shape(clause: str) -> bool:
    match = _CHOICE_RE.match(clause)
    if not match:
        return False
    obj = [
        w
        for w in words(match["obj"])
        if w not in STOP_EN
        and w not in GENERIC_EN
        and w not in EVALUATIVE_EN
        and w not in _GENERIC_OBJECT_EN
        and w not in VAGUE_EN
    ]
    return bool(obj)


# Evaluative words name a quality, not an object ("保持文档结构清晰和一致").
_EVALUATIVE_ZH_RE = re.compile(
    r"清晰|简洁|一致|规范|严谨|充分|合理|良好|优雅|可读性?|可维护性?|整洁|认真|专业|礼貌|高效|"
    r"准确|完整|稳定|美观|干净|直接|明了|的|地|得|和|与|及|或|要|都|也|很|更|尽量|保持|注意|"
    r"原则|理念|思想|精神|最佳实践|良好|漂亮|简单|常见|常用|通用|完善|美观|负责|条理|责任心|细心|耐心|仔细|靠谱|优秀|完美|出色"
)


_PREFERENCE_ZH_RE = re.compile(r"喜欢|偏好|倾向|讨厌|习惯|希望|想要")


def _zh_object_concrete(clause: str, cue: str) -> bool:
    """A Chinese direction's object, like a trigger (``trigger_is_concrete``), is concrete
    when at least two characters remain once the cue, generic and evaluative words go."""
    if _PREFERENCE_ZH_RE.search(clause):
        return False  # "用户喜欢简洁的回答": a preference described, not a direction
    rest = _EVALUATIVE_ZH_RE.sub("", _GENERIC_ZH_RE.sub("", clause.replace(cue, "", 1)))
    rest = _REDUPLICATED_RE.sub("", rest)  # "步步验证": a reduplicated adverb, no object
    # "请询问我": once the other verbs and the people addressed go, nothing is acted on.
    rest = _PERSON_ZH_RE.sub("", DIRECTION_ZH_RE.sub("", rest))
    return len(CJK_RE.findall(rest)) >= 2


_REDUPLICATED_RE = re.compile(r"([\u4e00-\u9fff])\1")
_PERSON_ZH_RE = re.compile(r"我们|你们|他们|咱们|我|你|您|他|她")


# "Comments and docstrings explain why", "Migration files follow naming: ...": a
# normative present tense whose subject is an artefact directs the next action too.
_NORMATIVE_RE = re.compile(
    r"^(?!(?:this|that|the|these|those|our|we|it|its|my|i|you|he|she|they)\b)"
    r"(?P<subject>(?:[\w`'./|-]+\s+){0,3}?[\w`'./|-]+)\s+"
    r"(?P<verb>use|follow|belong|live|explain|stay|need|require)s?\b"
)


# "if comments are needed, they go in docstrings": a pronoun subject put in a named place.
_PLACED_RE = re.compile(
    r"^(?:they|it|these|those|all of them)\s+(?:go|goes|belong|belongs|live|lives)\s+"
    r"(?:in|into|under|to)\s+\S"
)
_LABELLED_CODE_RE = re.compile(
    r"^\W*(?:\*\*)?[^:：`*\n]{1,40}(?:\*\*)?(?:\s*[(（][^)）\n]{0,60}[)）])?\s*[:：]\s*(?:\*\*)?\s*"
    r"(?:`|[A-Z][a-z]+[A-Z]\w*\b|[a-z]+(?:[A-Z]|_[a-z])\w*\b)"
)
# "Version control: jj (git is forbidden)", "主要语言：中文", "组件名: PascalCase": a label
# that names an artefact, then the value to use. A label that names a preference or a
# personal fact ("语言偏好：…", "时区：…") is not a rule.
_LABEL_VALUE_RE = re.compile(
    r"^\W*(?:\d+\.\s*)?(?:\*\*)?(?P<label>[^:：`*\n]{1,30}?)(?:\*\*)?\s*[:：]\s*(?:\*\*)?\s*"
    r"(?P<value>[A-Za-z][\w.+#-]*|中文|英文|简体中文|繁体中文)"
    r"(?=\s*(?:$|[(（,，;；。]|\.(?:\s|$)|\s+[(（]|(?:\s+[\w./:=@+-]+)+\s*$))"
)


def _prohibition_label(raw: str) -> bool:
    """ "避免：`require()`", "Never: …": the label forbids its value."""
    head = re.split(r"[:：]", _EMPHASIS_RE.sub("", raw), maxsplit=1)[0].strip().lower()
    return bool(NEGATION_EN_RE.fullmatch(head) or NEGATION_ZH_RE.fullmatch(head))


def _labelled_value(claim: Claim) -> bool:
    match = _LABEL_VALUE_RE.match(claim.raw)
    if not match or _prohibition_label(claim.raw):
        return False
    raw_value = match["value"]
    label, value = match["label"].lower(), raw_value.lower()
    if value in IMPERATIVE_EN or value in _QUALITY_CUES:
        return False  # "Types: Use strong typing …" is a sentence, not a value
    tail = claim.raw[match.end() :].strip()
    more = bool(tail) and not tail.startswith(("(", "（", ",", "，", ";", "；", "。", "."))
    if more and not raw_value.islower():
        return False  # a multi-word value is a command ("pnpm run check-types")
    if _PREFERENCE_ZH_RE.search(label) or "prefer" in label or value in STOP_EN:
        return False
    if value in GENERIC_EN or value in EVALUATIVE_EN or value in VAGUE_EN:
        return False
    if CJK_RE.search(label):
        # "任务完成：pnpm run check-types": a label naming a moment is the trigger
        return bool(DOMAIN_ZH_RE.search(label.replace(" ", "")) or _EVENT_LABEL_ZH_RE.search(label))
    return any(w in DOMAIN_EN or w.rstrip("s") in DOMAIN_EN for w in words(label))


_EVENT_LABEL_ZH_RE = re.compile(r"(?:完成|结束|之前|之后|以前|以后|前|后|时)$")


# "代码嵌套≤3层", "Functions under 50 lines", "单个函数不超过 50 行": a numeric limit is a
# concrete constraint on the next edit.
LIMIT_RE = re.compile(
    r"[≤≥<>]=?\s*\d|(?:(?:不得|不能|不应|不可|不要|不)?超过|不多于|不少于|最多|至少|上限|最大)"
    r"\s*\*{0,2}\s*\d|"
    r"\b(?:at most|no more than|fewer than|less than|under|max(?:imum)?|up to)\s+\d+\s*\w"
)
# "Tabs for indentation", "camelCase for JSON keys", "Single quotes in JS", "Dates as
# YYYY-MM-DD": a short verbless convention, a value for a named artefact.
_CONVENTION_RE = re.compile(
    r"^(?P<value>(?:[\w`'\"./+#-]+\s+){0,2}[\w`'\"./+#-]+)\s+"
    r"(?:for|in|as|on|per|behind|inside|within|via|through)\s+"
    r"(?P<scope>(?:[\w`'\"./+#-]+\s*){1,4})$"
)


# "Bugs in the parser" reports something; it sets no convention.
_EVENT_NOUNS_EN = wordset(
    """error errors bug bugs issue issues failure failures problem problems crash crashes
    incident incidents outage outages change changes regression regressions"""
)


def _convention_shape(clause: str) -> bool:
    match = _CONVENTION_RE.match(clause)
    if not match:
        return False
    lead = words(match["value"])
    if lead and lead[0] in STOP_EN:
        return False
    value = [w for w in lead if w not in STOP_EN]
    scope = [w for w in words(match["scope"]) if w not in STOP_EN]
    if not value or not scope or any(w in IMPERATIVE_EN or w in VAGUE_EN for w in value[:1]):
        return False
    coded = bool(CODE_TOKEN_RE.search(match["value"]))  # "snake_case for SQL columns"
    if not coded and any(
        w in EVALUATIVE_EN or w in ABSTRACT_EN or w in GENERIC_EN or w in _EVENT_NOUNS_EN
        for w in value
    ):
        return False
    return any(w in DOMAIN_EN or w.rstrip("s") in DOMAIN_EN for w in value + scope)


# "Function components with hooks, named exports preferred": a passive norm.
_PASSIVE_NORM_RE = re.compile(r"\b(?:preferred|required|recommended|mandatory|encouraged)$")


def normative_clauses(claim: Claim) -> list[tuple[int, str]]:
    """(index, verb) of clauses in that normative present, subject an artefact; a
    ``Label: `value``` line ("Model string: `claude-sonnet-4-5`") names the value to use."""
    if (
        len(claim.clauses) > 1
        and (_LABELLED_CODE_RE.match(claim.raw) or _labelled_value(claim))
        and not _prohibition_label(claim.raw)
    ):
        return [(1, "use")]
    found = []
    for idx, clause in enumerate(claim.clauses):
        if _PASSIVE_NORM_RE.search(clause):
            found.append((idx, "prefer"))
            continue
        if LIMIT_RE.search(clause):
            found.append((idx, "limit"))
            continue
        if _PLACED_RE.match(clause):
            found.append((idx, "put"))
            continue
        if len(claim.clauses) == 1 and _convention_shape(clause):
            found.append((idx, "use"))
            continue
        match = _NORMATIVE_RE.match(clause)
        if match and any(
            w in DOMAIN_EN or w.rstrip("s") in DOMAIN_EN for w in words(match["subject"])
        ):
            found.append((idx, match["verb"]))
    return found


# ---------------------------------------------------------------- external world
EXTERNAL_EN_RE = Prefiltered(
    r"\b(?:user|users|person|customer|customers|client|clients|reply|replies|"
    r"message|messages|conversation|chat|request|requests|asks|asked|answer|answers|"
    r"question|questions|email|call|meeting|colleague|team|human|operator|owner)\b"
)
EXTERNAL_ZH_RE = re.compile(
    r"用户|对方|客户|回复|消息|对话|提问|问到|聊天|请求|同事|老板|会议|邮件"
)


@dataclass(frozen=True)
class Claim:
    """A normalised claim, ready for clause analysis."""

    raw: str
    text: str  # normalised, original case
    lower: str
    clauses: tuple[str, ...]  # lowercased
    has_pointer: bool
    has_details: bool
    cjk: bool
    tags: tuple[str, ...]


def analyse(raw: str) -> Claim:
    """Normalise one logical line for the gates."""
    # Character checks first: most claims have no tags, pointers, paths or emphasis.
    raw_norm = raw.replace("’", "'") if "’" in raw else raw  # "Don’t" is "Don't"
    bracket = "[" in raw
    tags = tuple(t.lower() for t in MODAL_TAG_RE.findall(raw)) if bracket else ()
    has_pointer = "[[" in raw and bool(POINTER_RE.search(raw))
    details = ("/" in raw or "见" in raw or ":" in raw or "：" in raw) and bool(
        DETAILS_RE.search(raw)
    )
    has_details = details or ("/" in raw and bool(PATH_RE.search(raw)))
    text = raw_norm
    if tags:
        text = MODAL_TAG_RE.sub(" ", text)
    if has_pointer:
        text = POINTER_RE.sub(" ", text)
    if details:
        text = DETAILS_RE.sub(" ", text)
    if "<" in text:
        text = _PLACEHOLDER_RE.sub(r"\1", text)
    if any(c in text for c in "*_`~"):
        text = _EMPHASIS_RE.sub("", text)
    text = " ".join(text.split())
    lower = text.lower()
    clauses = tuple(c for c in (c.strip() for c in _CLAUSE_SPLIT_RE.split(lower)) if c)
    return Claim(
        raw=raw,
        text=text,
        lower=lower,
        clauses=clauses,
        has_pointer=has_pointer,
        has_details=has_details,
        cjk=bool(CJK_RE.search(text)),
        tags=tags,
    )


def words(text: str) -> list[str]:
    return re.findall(r"[a-z][a-z'-]*|\d+", text)


@functools.lru_cache(maxsize=4096)
def find_trigger(claim: Claim) -> tuple[int, bool] | None:
    """(clause index, concrete?) of the claim's trigger, or None.

    Concreteness is judged on what follows the trigger word ("before answering" is
    generic, "before sending a contract draft" is not). A concrete explicit trigger
    wins, then a concrete leading scope phrase ("With <Person>, ..."), then any trigger.
    """
    explicit: list[tuple[int, bool]] = []
    for idx, clause in enumerate(claim.clauses):
        match = TRIGGER_EN_RE.search(clause) or TRIGGER_ZH_RE.search(clause)
        if match:
            tail = clause[match.end() :] if TRIGGER_EN_RE.search(clause) else clause
            explicit.append((idx, trigger_is_concrete(tail)))
    scope: tuple[int, bool] | None = None
    first = claim.clauses[0] if claim.clauses else ""
    if (
        len(claim.clauses) > 1
        and SCOPE_EN_RE.match(first)
        and not any(first.startswith(g) for g in GENERIC_SCOPE_EN)
        and not TRIGGER_EN_RE.search(first)
    ):
        scope = (0, trigger_is_concrete(re.sub(r"^\S+\s+", "", first)))
    for found in explicit:
        if found[1]:
            return found
    if scope is not None and scope[1]:
        return scope
    if explicit:
        return explicit[0]
    if scope is not None:
        return scope
    if claim.cjk and re.search(r"(?:时|之前|之后|后|前)(?:，|,|$)", claim.text):
        return (0, trigger_is_concrete(claim.clauses[0] if claim.clauses else ""))
    return _implicit_trigger(claim)


def _implicit_trigger(claim: Claim) -> tuple[int, bool] | None:
    """ "Never X; do Y instead": the forbidden drift X names the situation in which Y
    applies, so a prohibition with an explicit replacement carries its own trigger."""
    if len(claim.clauses) < 2:
        return None
    if not (REPLACEMENT_EN_RE.search(claim.lower) or REPLACEMENT_ZH_RE.search(claim.text)):
        # "Don't start replies with 'Yes'. Begin with …": a positive direction elsewhere in
        # the line is the replacement too.
        cues = [clause_direction(c) for c in claim.clauses]
        negated = [c is not None and bool(NEGATION_EN_RE.fullmatch(c)) for c in cues]
        if not (
            any(negated)
            and any(c is not None and not n for c, n in zip(cues, negated, strict=True))
        ):
            return None
    for idx, clause in enumerate(claim.clauses):
        cue = clause_direction(clause)
        if cue and (NEGATION_EN_RE.fullmatch(cue) or NEGATION_ZH_RE.fullmatch(cue)):
            rest = NEGATION_ZH_RE.sub("", NEGATION_EN_RE.sub(" ", clause))
            return (idx, trigger_is_concrete(rest))
    return None


def trigger_clause(claim: Claim) -> int | None:
    """Index of the clause that carries the claim's trigger, or None."""
    found = find_trigger(claim)
    return None if found is None else found[0]


def trigger_is_concrete(clause: str) -> bool:
    """True when a trigger clause names something beyond generic chat situations."""
    en = [
        w
        for w in words(TRIGGER_EN_RE.sub(" ", clause))
        if w not in STOP_EN and w not in GENERIC_EN and len(w) > 1
    ]
    if en:
        return True
    rest = _GENERIC_ZH_RE.sub("", TRIGGER_ZH_RE.sub("", clause))
    return len(CJK_RE.findall(rest)) >= 2


def _first_word(clause: str) -> str | None:
    for word in words(clause):
        if word in SKIP_LEAD_EN or (word.endswith("ly") and word not in IMPERATIVE_EN):
            continue
        return word
    return None


# Imperative mood for a verb the lists lack: a bare leading word (no -s/-ed/-ing, not a
# function word) followed by a determiner ("Pin the version", "Squash all fixups").
_VERB_SUFFIXES = ("ize", "ise", "ify")
_NOT_VERBS = wordset(
    """expertise premise noise enterprise paradise franchise otherwise likewise clockwise
    concise precise promise"""
)
_DETERMINERS = wordset("the a an all each every your any both existing only new every")


def _looks_imperative(clause: str, first: str) -> bool:
    if first in STOP_EN or first in GENERIC_EN or len(first) < 3 or first.isdigit():
        return False
    if len(first) >= 6 and first.endswith(_VERB_SUFFIXES) and first not in _NOT_VERBS:
        return True  # "Standardize on AiError …", "Modularize …": verb morphology
    if first.endswith(("ing", "ed")) or (first.endswith("s") and not first.endswith("ss")):
        return False
    ws = words(clause)
    try:
        nxt = ws[ws.index(first) + 1]
    except (ValueError, IndexError):
        return False
    return nxt in _DETERMINERS


_LEAD_MARKS = " \t*_>#-–—•·❌✅✓✔✗✘🚫⛔️⚠"


def clause_direction(clause: str) -> str | None:
    """The cue that makes ``clause`` a direction (imperative verb or modal), or None."""
    lead = NEGATION_EN_RE.match(clause.lstrip(_LEAD_MARKS))
    if lead:
        return lead.group(0)  # "do not prefix ...": the prohibition, not the verb "do"
    first = _first_word(clause)
    if first is not None and (first in IMPERATIVE_EN or first in VAGUE_EN):
        return first
    modal = MODAL_EN_RE.search(clause)
    if modal:
        return modal.group(0)
    if first is not None and _looks_imperative(clause, first):
        return first
    zh = DIRECTION_ZH_RE.search(clause)
    if zh:
        return zh.group(0)
    latin = _LATIN_VERB_IN_ZH_RE.search(clause)
    if latin and latin.group(1) in IMPERATIVE_EN and latin.group(1) not in VAGUE_EN:
        return latin.group(1)
    return None


# "API/store 测试 mock 网络边界": an English verb between Chinese words, with a Chinese
# object after it.
_LATIN_VERB_IN_ZH_RE = re.compile(r"(?<=[\u4e00-\u9fff\s])([a-z]{3,})\s+(?=[\u4e00-\u9fff])")


# After a trigger with no comma, a modal or an imperative that cannot belong to the
# situation itself ("... first run X", "... never co-author", "after every change run X").
_INNER_MODAL_RE = re.compile(
    r"\b(?:first|then|always|never|must|should|just)\s+(?P<verb>[a-z][a-z'-]*)"
)
_INNER_VERBS = wordset(
    """run use ask stop check add update read open write call fix commit push create
    delete remove restate reply respond mention tell send save keep list grep format
    rerun re-run verify"""
)
_NOT_BEFORE_VERB = wordset(
    """to you i we they he she it user users and or will would can could may might
    shall should must not don't do does did the a an your our their my his her its
    this that these those when if before after once while whenever"""
)


def _inner_direction(tail: str) -> str | None:
    modal = _INNER_MODAL_RE.search(tail)
    if modal:
        lead = modal.group(0).split()[0]
        if modal["verb"] in IMPERATIVE_EN or lead in ("never", "must", "should", "always"):
            return lead
    ws = words(tail)
    for prev, word in itertools.pairwise(ws):
        if word in _INNER_VERBS and prev not in _NOT_BEFORE_VERB and not prev.endswith("ly"):
            return word
    return None


def direction_clauses(claim: Claim, trigger_idx: int | None) -> list[tuple[int, str]]:
    """(index, cue) of every clause, other than the trigger clause, that directs action.

    In a Chinese trigger clause the parts before and after the trigger are searched too.
    Memoised: every gate asks for the same claim's directions.
    """
    return list(_direction_clauses(claim, trigger_idx))


@functools.lru_cache(maxsize=4096)
def _direction_clauses(claim: Claim, trigger_idx: int | None) -> tuple[tuple[int, str], ...]:
    found = []
    for idx, clause in enumerate(claim.clauses):
        if idx == trigger_idx:
            zh = TRIGGER_ZH_RE.search(clause) if claim.cjk else None
            if zh:
                # "遇到报错时先读日志", "仅对需求做针对性改动": the direction follows the
                # trigger's 时/前/后, or leads it.
                tail = re.split(r"时|之前|之后|以后|后", clause[zh.start() :], maxsplit=1)
                # "每次回答都要礼貌": the situation's own noun (回答) is not the direction.
                rest = (
                    tail[1]
                    if len(tail) == 2
                    else _LEADING_GENERIC_ZH_RE.sub("", clause[zh.end() :])
                )
                parts = [clause[: zh.start()], rest]
                cue = next((c for c in map(clause_direction, parts) if c), None)
                if cue:
                    found.append((idx, cue))
            elif TRIGGER_EN_RE.search(clause):
                # "Restate the topic when the user corrects you" / "Always run X before
                # committing": the direction leads the trigger; "Whenever you get clippy
                # errors first run cargo fix": it follows the trigger with no comma.
                trig = TRIGGER_EN_RE.search(clause)
                head = clause[: trig.start()]  # type: ignore[union-attr]
                cue = clause_direction(head) if head.strip() else None
                if cue is None:
                    cue = _inner_direction(clause[trig.end() :])  # type: ignore[union-attr]
                if cue is not None:
                    found.append((idx, cue))
            continue
        cue = clause_direction(clause)
        if cue:
            found.append((idx, cue))
    return tuple(found)


# "see the `adding-a-cli-command` skill": the artefact is named in a code span.
_NAMED_ARTEFACT_RE = re.compile(r"`[^`\n]+`\s+(?:[\w-]+\s+)?[a-z]+")


def unnamed_skill(claim: Claim, trigger_idx: int | None) -> bool:
    """True when the direction defers to an artefact it does not point at (no
    ``[[slug]]``/``Details:``) and that the trigger did not introduce either
    ("When a message contains a doc link, open the doc" is fine)."""
    if claim.has_pointer or claim.has_details:
        return False
    if EXTERNAL_SKILL_ZH_RE.search(claim.text):
        return True
    named = (
        {m.group(0).split()[-1] for m in _NAMED_ARTEFACT_RE.finditer(claim.raw)}
        if "`" in claim.raw
        else set()
    )
    trigger = claim.clauses[trigger_idx] if trigger_idx is not None else ""
    for idx, clause in enumerate(claim.clauses):
        if idx == trigger_idx:
            continue
        for match in EXTERNAL_SKILL_EN_RE.finditer(clause):
            noun = match.group("noun")
            if noun.rstrip("s") not in trigger and noun not in named:
                return True
    return False


# "Write succinct production-ready code", "Keep functions small and focused",
# "Implement robust error handling": the object is a generic part of any code base and
# everything said about it is a quality, so the line is a value, not an action.
_GENERIC_CODE_NOUN_EN = wordset(
    """code codes function functions method methods class classes logic naming names
    error errors handling mechanism mechanisms implementation implementations
    solution solutions performance security impact impacts change changes design
    principle principles maintainability reusability readability responsibility
    single structure variable variables comment comments component components"""
)
_QUALITY_CUES = wordset(
    """write keep implement prioritize prioritise encourage ensure maintain make
    emphasize aim strive favor favour use choose pick give"""
)


def _only_qualities(content: list[str], cue: str) -> bool:
    if cue not in _QUALITY_CUES:
        return False
    rest = [w for w in content if w != cue and w not in _QUALITY_CUES]
    ranking = cue in ("prioritize", "prioritise", "encourage", "emphasize")
    if not rest or not (ranking or any(w in EVALUATIVE_EN for w in rest)):
        return False
    return all(w in EVALUATIVE_EN or w in _GENERIC_CODE_NOUN_EN for w in rest)


# "保持代码简洁", "确保代码质量": keeping a generic part of the code in some quality is a
# value, like "Write clean code".
_ZH_QUALITY_CUE_RE = re.compile(
    r"^(?:要|请|应该|需要|必须|务必|始终)?"
    r"(?:(?:尽量|尽可能)?(?:保持|确保|保证|注重|追求|做到)|尽量|尽可能)"
)
_ZH_GENERIC_CODE_RE = re.compile(
    r"代码|函数|逻辑|结构|风格|命名|质量|整体|项目|程序|实现|方法|每次|功能|界面|设计"
)


# Adverbs that lead a verb ("直接做", "先写测试"): the verb after them is the action.
_ZH_ADVERB_CUES = wordset("直接 先 马上 立即 立刻 及时 主动 然后 再 始终 总是 一律 统一")
_SEQUENCE_ZH_RE = re.compile(r"再|然后|最后|之后")


def _zh_only_qualities(clause: str, cue: str) -> bool:
    if cue in ("要", "要有", "需有", "应有", "须有", "都有") and cue in clause:
        rest = clause[clause.index(cue) + len(cue) :]  # "做事要认真": only a quality follows
    elif _ZH_QUALITY_CUE_RE.search(clause):
        rest = _ZH_QUALITY_CUE_RE.sub("", clause, count=1)
    elif cue in clause and cue not in _ZH_ADVERB_CUES:
        rest = clause.replace(cue, "", 1)  # "简单优先", "用常见的库和方法"
    else:
        return False
    rest = _EVALUATIVE_ZH_RE.sub("", _ZH_GENERIC_CODE_RE.sub("", _GENERIC_ZH_RE.sub("", rest)))
    return len(CJK_RE.findall(rest)) < 2 and not re.search(r"[A-Za-z0-9`]", rest)


def is_vague(clause: str, cue: str) -> bool:
    """True when a direction clause names no concrete action (a value or a vague verb)."""
    if VAGUE_ZH_RE.search(clause) and not _SEQUENCE_ZH_RE.search(clause):
        return True  # "先做好设计再构建代码框架": a sequence of steps is not vague
    if CJK_RE.search(clause):
        return _zh_only_qualities(clause, cue)
    content = [w for w in words(clause) if w not in STOP_EN and w not in SKIP_LEAD_EN]
    if " " not in cue and cue not in content:
        # A labelled value ("Components: PascalCase") carries its verb in the label.
        content = [cue, *content]
    concrete = [w for w in content if w in IMPERATIVE_EN and w not in VAGUE_EN]
    if cue in VAGUE_EN and not concrete:
        return True
    if _JUDGEMENT_RE.search(clause):
        return True
    if _only_qualities(content, cue):
        return True
    if VAGUE_PHRASE_EN_RE.search(clause) and len(concrete) <= 1 and len(content) <= 4:
        return True
    return len(content) < 2
