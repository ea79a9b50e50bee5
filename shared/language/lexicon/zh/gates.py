"""Chinese phrases the review gates look for beyond clause analysis (data only)."""

from __future__ import annotations

from shared.language.lexicon.concept import Entry, Pattern, phrases
from shared.language.lexicon.script import CJK

# Words of praise for a thing itself (two of them make a benefit claim).
# 本 'this' before 文件/规则/…, but not the 本 closing a word of its own: 文本文件 is a text
# file, 脚本文件 a script file, 基本规则 the basic rules, 版本文档 a version document.
_THIS = "(?<![文脚样版剧账课根基资成副原标范])本"
# 此/该 'this/that', but not in 因此 'therefore', 如此, 从此, 彼此, 由此, 据此, 借此 or 应该
_THAT = "(?:(?<![因如从彼由据借])此|(?<![应活])该)"
_PRAISE = "现代化|强大|高效|优雅|先进|卓越|出色|科技感|极致|完美|一流|美观|流畅|健壮|易用|直观|便捷"

CONCEPTS: dict[str, tuple[Entry, ...]] = {
    # ------------------------------------------------------------ committer
    # A date or time written out ("2026年1月5日 9点30分", "1月5日"): a change that only
    # moves one is not a memory change.
    # "禁止输出 `print()` 或 `console.log`": a clause opening on 或 continues the one before.
    # "禁止加入 git（含 git add -f）": an inclusion after a prohibition is more of it too.
    # "未经用户主动要求不得修改", "未经确认不能删除": a restriction stated as an exception
    # ('not without X'), as "only when asked" is in English.
    "exception_only": (
        Pattern(
            "未经[^，,。；;]{1,20}?(?:不得|不能|不可|不准|不要|禁止|严禁)",
            "未经 X 不得 Y: a restriction stated as an exception",
            bounded=False,
        ),
    ),
    "continuing_lead": (
        Pattern("^\\W*(?:或者|或|含|包括|包含)", "a clause opening on 或 or 含", bounded=False),
    ),
    # "跳过测试是不允许的", "一律禁止": a predicate that forbids its subject; "严禁/杜绝 …"
    # opening the clause.
    "prohibition_form": (
        Pattern(
            "(?:是|被|一律|一概|均|都)?(?:不允许|不被允许|不准|不许|禁止|严禁|不可以|不行)的?\\W*$",
            "a predicate that forbids its subject",
            bounded=False,
        ),
        Pattern(
            "^\\W*(?:杜绝|严禁|绝不|决不|绝对不|不允许|不许|不准)",
            "杜绝/绝不 opening",
            bounded=False,
        ),
    ),
    "prohibition_label_word": phrases("禁止|严禁|不要|避免|切勿|禁忌|禁止事项|不允许|不准"),
    # "…，因为环境比较特殊": a reason or a consequence is no action to take instead.
    "reason_lead": (
        Pattern(
            "^\\W*(?:因为|由于|因(?![此而])|鉴于|毕竟|否则|不然|以免|免得)",
            "a reason or a consequence opening a clause",
            bounded=False,
        ),
    ),
    # "无法部署到容器内", "写不出守卫的": what cannot be done is a fact, not an action.
    "inability": (
        Pattern(
            "^\\W*(?:也|都|还|就|根本|完全)?(?:无法|没法|没办法|不可能|无从|做不到)",
            "无法 'cannot' opening the clause",
            bounded=False,
        ),
        Pattern(f"[{CJK}](?:不出|不动)", "a verb with a complement of inability", bounded=False),
    ),
    # "所有命令必须能自动执行完成": a capability required of the forbidden thing.
    "capability_modal": (
        Pattern(
            "(?:必须|需要|要|应该|应当|务必|一定要)(?:能够|能|可以)",
            "a capability required",
            bounded=False,
        ),
    ),
    # "避免魔法数字并定义常量", "不要用 svg 而用 emoji": 并/而 then a verb of choosing or of
    # making the substitute inside a prohibition says what to do instead.
    "joined_replacement": (
        Pattern(
            "(?:并且?|而且?|而|同时|另行)\\s*(?:改用|使用|采用|选用|用|定义|提取|抽取|封装|声明|移到|移至)",
            "并/而 then a verb of choosing or of making the substitute",
            bounded=False,
        ),
    ),
    # "通过提前返回避免深层嵌套": a means put before 避免/防止 is how to keep clear of it
    # ("避免通过全局变量传递状态", with the means after 避免, is the way forbidden).
    "avoiding_means": (
        Pattern(
            "^\\W*(?:通过|借助|利用)\\s*[^，,。；;]{1,30}?(?:来|以)?(?:避免|防止)",
            "通过 Y 避免 X: the means of avoiding",
            bounded=False,
        ),
    ),
    "upholding_verb": phrases("保持|确保|保证|坚持|维持|维护"),
    "upheld_quality": phrases("严格|整洁|简洁|干净|一致|清晰|规范|可读|优雅|健壮|质量"),
    "upheld_placement": (
        Pattern(
            "(?:在|到|于|通过|用|使用|经过)|[A-Za-z0-9`]",
            "a place, a means, a name or a number after the upheld thing",
            bounded=False,
        ),
    ),
    "date_stamp": (
        Pattern(
            r"\d{4}年\d{1,2}月\d{1,2}日(?:\s*\d{1,2}[:：点时]\d{0,2}分?)?|\d{1,2}月\d{1,2}日",
            "a written-out date with its optional time",
            bounded=False,
        ),
    ),
    # ------------------------------------------------------------ gradient
    # "避免重新发明轮子", "只做一件事并做好", "保证代码简洁清晰", "改动幅度需尽量小": a maxim any
    # assistant could be told, with nothing of this project's in it
    "generic_maxim": (
        Pattern(
            "重复造轮子|重新发明轮子|避免重复(?:实现|开发)|杜绝重复|复用代码|不要重复(?:代码|逻辑)"
            "|保持简单|简单优先|只做一件事"
            "|有意义的(?:变量|函数)?(?:名|命名)|命名(?:要|应|需)?(?:清晰|有意义)|见名知意"
            "|代码(?:要|需|应|必须|应该)?(?:保持)?(?:简洁|清晰|可读|易维护|优雅)"
            "|(?:简洁|清晰|可读|易维护|优雅)的代码"
            "|改动(?:幅度)?(?:需|要|应)?尽(?:量|可能)小|最小(?:化)?(?:改动|修改|变更)"
            "|根本原因|根因|遵循(?:现有|已有)(?:的)?(?:代码)?(?:风格|模式|规范)"
            "|保持(?:与)?(?:现有|已有)(?:代码)?(?:风格)?一致"
            # "必须先完整理解用户需求", "理解现有代码结构后再改", "优先简单直接的数据流"
            "|先(?:完整|充分|彻底)?(?:理解|了解|获取上下文|搞清楚)|理解[^，。；]{0,12}?后再(?:改|动手|修改|编码)"
            "|简单直接|不追求复杂",
            "a maxim any assistant could be told",
            bounded=False,
        ),
    ),
    # ------------------------------------------------------------ dossier
    "internal_state": phrases("收件箱|待处理项|会话ID|偏移量|游标|冷却|退避|锁文件"),
    "repair_note": phrases(
        """待修复|需修复|需要修复|待合并|需要合并|待重写|需要重写|待清理|待更新|需要更新|
        修复链接|修复指针|失效链接|死链|待办"""
    ),
    "absolute": (
        *phrases(
            """一定|肯定|绝对|必然|毫无疑问|显然|所有人|总是|从来不|从不|永远|最好的|大概|
            估计|也许"""
        ),
        # "唯一的办法" is the only one; "唯一标识符", "唯一索引" name a unique key, a fact
        Pattern("唯一(?!标识|键|索引|约束|性|值)", "the only one, not a unique key", bounded=False),
    ),
    "benefit_claim": (
        *phrases("价值明确|意义重大|优势明显|效果显著|大幅提升|显著提升|一站式|行业领先|业界领先"),
        # "为项目经理……提供……的解决方案": the thing offered as a solution to its readers
        Pattern("提供[^。；;]{0,40}?解决方案", "the thing offered as a solution", bounded=False),
        # "现代化的……系统，……具有扁平化科技感的UI设计": two words of praise for the thing
        Pattern(
            f"(?:{_PRAISE})[^。；;.]{{0,30}}?(?:{_PRAISE})",
            "two words of praise for the thing",
            bounded=False,
        ),
    ),
    # "提高可维护性", "降低耦合": a design quality said to rise or fall, unshown
    "quality_claim": (
        Pattern(
            "(?:提高|提升|增强|改善|保证|确保|降低|减少)(?:了)?[^，。,；;]{0,8}?"
            "(?:可维护性|可测试性|可扩展性|灵活性|可读性|可复用性|健壮性|耦合)",
            "a design quality said to improve, with nothing that shows it",
            bounded=False,
        ),
    ),
    # a quality of fit that names no measure ("实施适当的权限控制", "妥善处理敏感数据")
    # "需要正确处理多行内容", "定时任务的路径和权限需要仔细检查": a care asked for, no measure
    "unspecified_fit": (
        *phrases(
            "适当的|恰当的|合适的|妥善|充分的|需要正确|需要仔细|需要认真|需要合理|需正确|需仔细"
            "|合理配置|合理设置|遵循项目规范"
        ),
        # "保持项目目录整洁", "保持模块边界清晰": a state to keep, no measure of it
        # ("原因：保持工作区整洁" gives a reason, after its label)
        Pattern(
            "(?<![:：])保持[^，。；,`]{0,10}(?:整洁|清晰|干净)",
            "a state to keep, unmeasured",
            bounded=False,
        ),
    ),
    "measurement": (
        Pattern("\\d+(?:\\.\\d+)?\\s*(?:倍|毫秒|秒|％)", "a measured figure", bounded=False),
    ),
    "provenance": (*phrases("来源|证据"), Pattern("(?<![数占])据", "据 'according to', not 数据")),
    "step_section": phrases("条件|步骤|流程|做法|参考"),
    # "## 当前进度", "## 最近更新", "## 下一步", "## 已完成": a heading naming the work's state
    "status_section": (
        Pattern(
            "^\\W*(?:\\d+(?:\\.\\d+)*[.、)]?\\s*)?(?:当前(?:进度|状态|任务|重点|焦点|工作|关注点|目标|上下文|迭代)"
            "|(?:活动|活跃)上下文|最新(?:进展|变更|更新|动态)"
            # "开发进度", "本周进展", "进展记录", "本次会话", "今日完成"
            "|(?:开发|实施|任务|工作|完成|整体|本周|今日|本月)(?:进度|进展)|(?:进展|进度)记录|近期工作"
            "|(?:本次|本轮)会话|今日(?:完成|工作)"
            "|最近(?:更新|变更|改动|进展|工作)|近期(?:更新|变更|进展)|已完成|完成情况"
            "|待办|下一步|后续计划|更新日志|变更记录|工作日志|遗留问题|待完成|未完成|进行中"
            # the state or the record of the work as the heading's theme: "## 风险状态",
            # "## 项目状态/战略", "## 验证记录"; "状态管理" and "状态码" name program state
            "|(?:项目|风险|开发|任务|验证|整体|进度)状态(?![管码机])"
            "|(?:更新|验证|测试|执行|修复|运行|巡检)记录\\W*$"
            # 进度 alone is the whole heading: "进度条组件" is not
            "|(?:项目)?(?:进度|进展)(?:\\s*[(（][^)）]*[)）])?\\W*$)",
            "a heading naming the state of the work",
            bounded=False,
        ),
    ),
    # "**核心优势**：…", "**价值**：…": a field whose theme is the benefit claimed
    "benefit_label": (
        Pattern(
            "^\\W*(?:核心|主要|产品)?(?:优势|价值|好处|亮点|卖点)\\W{0,3}[:：]",
            "a field naming a benefit",
            bounded=False,
        ),
    ),
    # "高效的缓存策略", "友好的错误提示": a short phrase led by a quality
    "quality_bullet": (
        Pattern(
            "^[*_\\s]*(?:高效|安全|友好|完善|稳定|可靠|灵活|强大|健壮|优雅|良好)的"
            "[^，,。；;:：`（(\\d]{1,14}[。*_]*$",
            "a short phrase led by a quality",
            bounded=False,
        ),
    ),
    # "## 备注", "## 其他", "## 说明": a heading that names no domain
    "generic_section": (
        Pattern(
            "^\\W*(?:\\d+(?:\\.\\d+)*[.、)]?\\s*)?(?:其他|其它|重要)?(?:说明|备注|注意事项|其他|其它|"
            "概述|总结|规则|要求|提示|补充)\\W*$",
            "a heading naming no domain",
            bounded=False,
        ),
    ),
    # "## 禁止事项", "## 不要做", "## 绝对禁止": a heading that lists what not to do
    "prohibition_section": (
        Pattern(
            "^\\W*(?:\\d+(?:\\.\\d+)*[.、)]?\\s*)?(?:绝对|严格)?(?:禁止|严禁|不要|不要做|禁忌|红线|"
            "不允许)(?:事项|行为|操作|项|清单|的事|做的事)?\\W*$",
            "a heading listing what not to do",
            bounded=False,
        ),
    ),
    # "**决策**：放弃 MCP，改为…", "原因：…": a label filing a settled decision or its reason
    "settled_label": (
        Pattern(
            "^\\W*(?:关键|最终|架构|设计)?(?:决策|决定|原因|理由)\\W{0,3}[:：]",
            "a label filing a settled decision or its reason",
            bounded=False,
        ),
    ),
    # "配置了 `https://…` 作为示例外部 API": a setting recorded, in a field's value
    "setup_value": (
        Pattern("^\\W*(?:配置|设置|設置|設定)了", "a setting recorded", bounded=False),
    ),
    # "**预防规则**：…", "教训：…": a field naming the line as the rule of a lesson
    "rule_label": (
        Pattern(
            "^\\W*(?:预防|防范|核心|通用)?(?:规则|规范|原则|教训|准则|约定)\\W{0,3}[:：]",
            "a label naming the line as a rule",
            bounded=False,
        ),
    ),
    # "## 记忆管理", "## 本文件说明": a heading naming the memory files or their upkeep
    "memory_section": (
        Pattern(
            f"记忆(?:管理|维护|整理|系统|文件|规则|更新)|{_THIS}文件|{_THAT}文件|这个文件",
            "a heading naming the memory files or their upkeep",
            bounded=False,
        ),
    ),
    # "## 记录规范", "## 规则的增删流程", "## 进度记录模板": a heading on writing the file's
    # own entries (日志记录规范 is about the program's logs)
    "upkeep_section": (
        Pattern(
            "(?<!日志)记录(?:规范|模板|格式|方式)|规则的?增删|增删流程|条目格式|教训格式",
            "a heading on writing the file's own entries",
            bounded=False,
        ),
    ),
    "entity_ref": phrases("他们|她们|他|她|对方|该客户|该公司"),
    "instruction_lead": (
        Pattern("^(?:应该|必须|务必|不要|请|先|一定要)", "a modal opening the line"),
    ),
    # ------------------------------------------------------------ self-reference
    "memory_artefact": phrases(
        """记忆板|记忆系统|记忆文件|记忆条目|记忆维护|记忆层|广播层|广播板|广播行|
        这份文件|这些规则|规则文件|这份规则|
        这份文档|这个文档|这个文件|压缩记忆|提交器|有效性文件|潜意识|
        分区提示|内部提示词|系统提示词|质量规则"""
    )
    # "记忆" is the agent's memory in Chinese (RAM is 内存); "在此记录", "以下内容为 …" point
    # at the file itself
    + phrases("记忆|在此记录|记录在此|记录于此|此处记录|以下内容为|以下内容是")
    + (
        Pattern(
            f"{_THIS}(?:文件|文档|宪章|指南|规则|准则|规范)|{_THAT}(?:文件|文档|规则)",
            "'this file / these rules'",
            bounded=False,
        ),
        Pattern(
            "(?:压缩|精简|归档|提炼)\\s*(?:[\\w.-]+\\.md|上下文|笔记|对话历史|历史记录)",
            "compacting the agent's notes: a markdown file, its notes, context or history",
            bounded=False,
        ),
    )
    # keeping notes as the agent's memory
    + phrases("做笔记|记笔记|结构化笔记|工作笔记|会话笔记")
    # the tracking files the agent keeps for itself: a progress file, a task tree
    + phrases("进度文件|进度记录|进度日志|进展记录|任务依赖树|任务树")
    + (
        Pattern(
            "(?:记录|更新|总结|沉淀|写下|补充|整理)[^，。,]{0,8}?(?:教训|心得)",
            "recording lessons ('复盘当天的错误并更新教训')",
            bounded=False,
        ),
        # pruning the file's own entries ("清理过时的条目", "合并重复的经验"), as "purge
        # deprecated entries" is in English
        Pattern(
            "(?:清理|删除|删掉|合并|精简|去重|剔除)(?:掉)?(?:过时|重复|冗余|陈旧|废弃|无用)?的?"
            "(?:条目|经验|教训|心得)",
            "pruning the file's own entries",
            bounded=False,
        ),
    )
    # the journals, notes and summaries the agent keeps of its own work, and the notes
    # it calls worth remembering
    + phrases(
        """进度文档|工作日志|开发日志|工作日记|开发日记|学习笔记|踩坑记录|经验总结|经验库|
        教训库|记忆库|知识沉淀|指令文件|规则文档|值得记住|值得记录|值得铭记"""
    )
    # the instructions by the agent they are for or by their folder ("rules目录中的规则",
    # "Cursor 规则"), a file kept to record what happened ("维护一个 … 文件，记录历史上出现过
    # 的问题"), the file as "here" ("记录在这里")
    + (
        Pattern(
            "本笔记|这份笔记|此笔记|笔记文件|(?:规则|指令|记忆|笔记|rules)\\s*(?:目录|文件夹)|(?:cursor|copilot|claude|trae|windsurf"
            "|cline|gemini|codex|agent|ai)\\s*(?:规则|指令)(?!引擎)"
            "|(?:维护|建立|创建|保留)(?:一个|一份)?[^，。；;]{0,30}?(?:文件|文档)[，,]?\\s*(?:用于|用来|来)?"
            "记录(?:历史|过往|遇到|出现过|踩过|每次|所有)"
            "|(?:记录|写|补充|追加)(?:在|到)(?:这里|此处|下方|本页)",
            "the agent's own instructions or record by their kind or place",
            bounded=False,
        ),
    )
    # the agent improving itself by recording what worked ("自我改进：成功→存储")
    + phrases("自我改进|自我进化|自我迭代|自我反思|自我学习|自我优化规则")
    + (
        # knowledge settled into a store ("沉淀到知识库", "经验沉淀为规范")
        Pattern("沉淀(?:到|为|成|下来|至|进)", "knowledge settled into a store", bounded=False),
        # reading the instructions when a session starts ("每次会话开始时，先阅读…")
        Pattern(
            "(?:会话|对话|聊天)(?:开始|启动)(?:时|前|后)?[^。；;]{0,16}?(?:阅读|读取|加载|查看|读)",
            "reading when a session starts",
            bounded=False,
        ),
        Pattern(
            "(?:注入|加载)(?:到)?(?:每次|每个|所有)(?:新)?(?:会话|对话)",
            "files put into every session",
            bounded=False,
        ),
        # "每次新会话自动加载此目录下的文件", "以上规则每次新会话均自动生效", "每次对话必读": the
        # instructions the runtime puts into every session
        Pattern(
            "(?:每次|每个|每一次)(?:新)?(?:会话|对话|聊天)[^。；;，,]{0,6}?(?:均|都)?(?:自动)?"
            "(?:加载|生效|读取|必读|注入|载入)|(?:会话|对话)必读",
            "the instructions put into every session",
            bounded=False,
        ),
        # "及时记录用户的纠正", "把重复出现的纠正沉淀为规则": the user's corrections kept as memory
        Pattern(
            "(?:记录|沉淀|捕获|保存|记下|整理)[^。；;，,]{0,10}?纠正"
            "|纠正[^。；;]{0,12}?(?:沉淀|转化|升级|写入|整理)(?:为|成|到|进)[^。；;]{0,6}?(?:规则|记忆)",
            "the user's corrections kept as memory",
            bounded=False,
        ),
        # a knowledge kind recorded ("重要决策和发现及时记录到文档中", "把踩过的坑记录到…")
        Pattern(
            "(?:决策|教训|(?<!用户)经验(?!值)|心得|踩坑|坑)(?:[和与及、][^，。,；;]{1,4}?)?"
            "(?:都|也)?(?:要|需|需要|必须|应|应该|请|务必)?(?:及时|立即|马上|随时|统一)?"
            "(?:记录|记下|沉淀|归档|写入|写进|写到|追加|存储|保存|记到|记在|整理到|整理进)",
            "a knowledge kind recorded",
            bounded=False,
        ),
    ),
    "fragment": ("碎片",),
    # "给出完整代码，而不是碎片", "代码碎片": a piece of code, not the staging layer.
    "code_fragment": (
        Pattern(
            "代码碎片|(?:而不是|而非|不要|不是)(?:零散的?)?碎片",
            "a fragment of code, or one set against a whole",
        ),
    ),
    "record_verb": phrases(
        "更新|写入|写进|写到|记录|记入|记到|补充|同步|追加|添加|整理|维护|精简|压缩|归档"
    ),
    "consult_verb": phrases("读取|阅读|查看|加载|打开|读"),
    "self_edit": (
        Pattern(
            "(?:更新|修改|写入|补充|同步更新)(?:本|这份|这个)文件", "a direction to edit this file"
        ),
        *phrases("记下来|写入记忆|更新记忆|记到记忆"),
        # writing into the agent's memory ("新学到的偏好写入长期记忆")
        Pattern(
            "(?:写入|写进|存入|记入|保存到|存到|同步到|记到|加入)(?:长期|短期|持久|永久|持久化)?记忆",
            "writing into the agent's memory",
        ),
        # an entry added when a lesson comes or one added here ("每次被纠正后新增一条", "在下面
        # 补充一条")
        Pattern(
            "(?:纠正|犯错|踩坑|教训|学到新)[^。；;]{0,20}?(?:新增|添加|追加|记录|补充)(?:一条|一行|一项)"
            "|(?:在|到)(?:下面|下方|这里|此处)(?:新增|添加|追加|补充)",
            "an entry added to the file when a lesson comes",
        ),
        # editing the rules themselves ("失败→更新规则", "犯错后完善本规则")
        Pattern(
            "(?:更新|修改|完善|修订|调整|补充|改进|迭代)(?:本|这些|相关|对应|已有|现有)?规则"
            "(?!引擎|配置|集|表|库)",
            "editing the rules themselves",
        ),
        # a knowledge event answered by writing it down ("每次新理解或需求分析后，立即更新依赖
        # 树"): a new understanding recorded, not the work
        Pattern(
            "(?:新理解|新认识|新的理解|新发现|学到|学会|领悟|认识到|吸取)[^。；;]{0,30}?"
            "(?:更新|记录|写入|追加|补充|沉淀|归档|记下)",
            "a new understanding answered by writing it down",
        ),
        Pattern("记入(?:以下|下列|这个|该)?文件", "'write into (this) file'"),
        Pattern(
            "在(?:下方|此处|这里|本文档|此文档|这个文档)补充", "'add it below / in this document'"
        ),
        # a request to remember, answered by writing it down ("记住 X → 立即记录")
        Pattern(
            "记住[^。；;]{0,30}?(?:→|->|=>|时|后|，|,)\\s*(?:请)?(?:立即|马上|立刻|就|要|先)?"
            "(?:记录|写入|写下|记下|保存|存入|更新)",
            "'remember X' answered by writing it down",
            bounded=False,
        ),
        # recording a lesson when a correction, feedback or a mistake shows something
        Pattern(
            "(?:纠正|反馈|犯错|出错|教训)[^。；;]{0,30}?(?:新增|添加|追加|写入|记录)"
            "(?:一条|一行|新的)?(?:条目|规则|教训|经验)",
            "a lesson recorded after a correction or a mistake",
            bounded=False,
        ),
    ),
    # "记录会影响后续实现方式的决策": telling the reader to record a kind of knowledge
    # "记录…决策", "必须存储重要知识": recording or storing, after a modal at most
    "record_lead": (
        Pattern(
            "^\\W*(?:必须|需要|要|应该|务必|请)?(?:记录|记下|存储|保存|沉淀|存下)",
            "'record' or 'store' opening the line",
        ),
    ),
    "knowledge_kind": phrases("决策|地方|教训|经验|偏好|心得|要点|注意事项|知识"),
    "placeholder_prompt": (
        *phrases("在这里写|此处填写|待补充|待填写"),
        # a template field's prompt ("问题描述：简要说明问题及其影响")
        Pattern(
            "^\\W*(?:问题|现象|原因|根因|根本原因|影响|背景|教训|经验|心得|解决方案|结论|备注)"
            "(?:描述|说明|分析)?\\W*[:：]\\s*(?:请)?(?:简要|简单|简短|用一句话|一句话)地?"
            "(?:说明|描述|概括|总结|介绍|记录)",
            "a template field's prompt",
            bounded=False,
        ),
        # a single-word field followed by its allowed values ("类别：`意外` | `踩坑`")
        Pattern(
            "^\\W*(?:类别|分类|标签|严重程度|影响|置信度)\\W*[:：]\\s*[^|\\n]{1,30}\\|[^|\\n]{1,30}\\|",
            "a field and its allowed values",
            bounded=False,
        ),
    ),
    # "此规则是强制性的", "本文件为 … 提供指导": the line points at its own rules or file.
    "demonstrative": (
        *phrases("""这些规则|这份规则|这份文件|这个文件|这份文档|这些规范|这些准则"""),
        Pattern(
            f"{_THIS}(?:规则|文件|文档|宪章|指南|准则|规范|约定|手册)|{_THAT}(?:规则|文件|文档)",
            "'this file / these rules'",
            bounded=False,
        ),
    ),
    "purpose_label": (Pattern("^\\W*(?:用途|目的)\\s*[:：]", "'用途：' opening the line"),),
    "ranking": (
        Pattern(
            "优先级(?:高于|低于|更高|更低|最高|最低)|优先于|覆盖(?:用户|全局|其他|默认)|以[^，。]{1,8}为准",
            "one instruction ranked against another",
            bounded=False,
        ),
    ),
    # ------------------------------------------------------------ status-shape
    "run_state": (
        Pattern("队列(?:已|现在|目前)?(?:清空|为空|空了|清理完|已清)", "the queue reported empty"),
        Pattern(
            "(?:运行|跑批|任务|扫描|同步)(?:已|已经)(?:完成|成功|失败|结束|跑完)",
            "a run reported done",
        ),
        Pattern(
            "(?:运行|跑批|扫描|同步)(?:完成|成功|失败|结束|跑完)(?![：:])",
            "a run reported done (not a label)",
        ),
        *phrases("本轮|上一轮|这一轮|上次运行|最近一次运行"),
        Pattern("第\\s*\\d+\\s*(?:轮|个)?\\s*tick", "the n-th tick"),
    ),
    "occurrence_count": (
        Pattern(
            "(?:出现|发生|提到|遇到|看到|记录|触发|提及|重复|纠正)(?:了|过)?\\s*\\d+\\s*次",
            "seen n times",
        ),
        Pattern("(?:共|累计|已经?|总共)\\s*\\d+\\s*次", "n times in total"),
    ),
    "dated_lead": (Pattern("^\\W*(?:\\d{4}年|\\d{1,2}月\\d{1,2}日)", "a date opening the line"),),
    "date": (Pattern("\\b20\\d\\d年|\\d{1,2}月\\d{1,2}日", "a year, or a month and day"),),
    "time_anchor": (
        *phrases("昨天|今天|刚才|刚刚|上周|前天|今早|今晚|本周|上次|最近一次"),
        Pattern("\\d{1,2}月\\d{1,2}日", "a month and day"),
    ),
    "changelog": (
        Pattern(
            "^\\W*(?:已经?(?:新增|删除|更新|修改|修复|重命名|合并|重写|移除|添加)(?!的)|"
            "(?:新增|删除|更新|修改|修复|重命名|合并|重写|移除|添加)了)",
            "a change reported as done, opening the line",
        ),
        # "DeepL - 已删除", "SSH 服务：已完成": a subject, then what was done to it
        Pattern(
            "[-—–:：]\\s*已经?(?:新增|删除|更新|修改|修复|完成|启用|禁用|授权|保存|设置|安装|卸载|"
            "移除|添加|关闭|处理|解决)",
            "a subject, then what was done to it",
        ),
    ),
    # a change reported as in effect from now on ("现在会回退到 …", "现已支持 …")
    "change_in_effect": (
        Pattern(
            "现(?:在|已)(?:会)?(?:改为|改成|改用|默认|回退到|支持|使用)",
            "a change reported as in effect from now on",
            bounded=False,
        ),
    ),
    # 了 marks a completed action, except in 为了/除了/了解/了不起.
    "past_marker": (Pattern("(?<![为除])了(?![解不])", "了 after a verb"),),
    # "完成风险评估与回滚方案": a step of one plan, still to be done; a line that goes on
    # to what follows it ("完成测试再提交", "完成后运行 lint") is a rule.
    "open_proposal": (
        Pattern(
            "^\\W*(?:\\d+[.、)]\\s*)?完成(?!度)[^，。,；;：:！!再就后前时]+$",
            "a step of a plan, the whole line",
            bounded=False,
        ),
    ),
    # "是否需要把配置按租户拆分？": a question the line leaves open directs nothing.
    "open_question": (
        Pattern(
            "^\\W*(?:\\d+[.、)]\\s*)?(?:是否|要不要|需不需要|能否|可否|如何|怎么|怎样|为什么|为何|"
            "哪些|哪个)[^?？\\n]*[?？]\\W*$",
            "an open question",
            bounded=False,
        ),
    ),
    # "当前项目运行在 Windows 系统，读写文件须使用 CRLF": the setting a project stands in,
    # opening a line whose later clause says what to do in it (not work in progress).
    "standing_setting": (
        Pattern(
            "^\\W*(?:目前|当前|现在)(?:的)?(?:项目|系统|服务|环境|应用|仓库|代码)?"
            "(?:运行在|运行于|部署在|部署于|跑在|基于|托管在)",
            "the setting the project runs in, opening the line",
        ),
    ),
    "current_state": (
        Pattern(
            "^\\W*(?:目前|当前|现在|正在|尚未|还没|暂未|计划|打算|考虑|评估|待定)",
            "present state or a plan opening the line",
        ),
        Pattern(
            # "已上线的迁移文件不得修改": 已 X 的 before a noun picks out things, not a state
            "(?<![否未])已(?:启用|停用|配置|连接|部署|安装|上线|迁移|推送|创建|建立|注册|接入)(?!的)",
            "a state already reached",
        ),
        # "旧的 `useFileExport.ts` 已移除。", "重构已经合回主工作区。": a change reported done,
        # closing the line ("`String.format()` 已移除，需用字符串插值替代" goes on to the rule)
        Pattern(
            "(?<![否未])已(?:经)?(?:移除|删除|合并|合回|合入|废弃|弃用|替换|升级|切换|发布|关闭|重构)"
            "(?!的)[^，,；;。要需应请必须不]{0,12}[。.!！]?$",
            "a change reported done",
        ),
        Pattern(
            "当前(?:任务|工作|步骤|迭代)的?(?:进度|状态)",
            "the current work's own progress ('检查当前任务进度')",
        ),
        Pattern(
            "^\\W*(?:\\d+\\.\\s*\\W*)?(?:工作重点|当前焦点|当前任务|最近变更|下一步|可选|待办)"
            "\\W*[:：]",
            "a field that names work state ('**工作重点**：…', '下一步：…', '可选：…')",
        ),
        Pattern(
            "(?<![等期对接看招款善])待(?:用户|确认|定|查|调查|調查|排查|验证|驗證|修复|修復|解决|解決)",
            "waiting on someone or still to investigate ('TODO 待用户', '待查：…'), not 等待",
        ),
        Pattern(
            "[(（][^()（）]*(?:(?<![否])已|未)(?:实现|完成|实施|部署|上线|修复|验证|废弃|移除|卸载)"
            "[^()（）]*[)）]|[(（][^()（）]*进行中[^()（）]*[)）]",
            "a progress note in brackets ('（hook 已实现，但 UI 未完成）')",
        ),
        # work reported done or still open in any house's words ("阶段 7 已全部完成",
        # "状态：进行中", "决定是否…"); "已完成的任务不要重复执行" picks out things, "完成后"
        # is a trigger, "告知用户当前阶段已完成" and "请求进行中" direct or name a moment
        Pattern(
            "^(?![^。]*?(?:必须|应|需|请|务必|告知|通知|提示|确保|不要))[^。]*?(?:已全部|已经全部|均已"
            "|全部|都已|已)完成(?=\\s*(?:[✅✓（(，,。；;]|$))"
            "|^\\W*进行中|[:：]\\s*\\W*进行中|完成度|被阻塞|尚待"
            "|^\\W*(?:\\d+[.、)]\\s*)?(?:决定|确定|评估|讨论|权衡)(?:是否|要不要)"
            "|完成\\s*\\d{1,3}\\s*%|\\d{1,3}\\s*%\\s*(?:已)?完成|进度\\s*[:：]\\s*\\d",
            "work reported done or still open",
        ),
        Pattern("暂无|暂不", "nothing there yet ('韩语库暂无内容，暂不纳入')"),
    ),
    "version_label": (
        Pattern("^\\W*(?:版本|当前版本)\\W*[:：]\\s*v?\\d", "a version field"),
        Pattern(
            "^\\W*[\\w.-]{1,20}\\s*(?:版本|版本号)\\W*[:：]\\s*v\\d+(?:\\.\\d+)+",
            "a named thing's release tag (a bare number after a tool's name is a setting)",
        ),
    ),
    # a change verb opening a line, and the marks of a rule (a moment, a modal)
    "change_lead": (
        Pattern(
            "^[\\W\\d]*(?:新增|删除|移除|添加|完善|补充|修复|创建|重构|升级|增加)", "a change verb"
        ),
    ),
    "rule_mark": phrases("时|前|后|要|应|必须|需|请|务必|一律|不要|禁止|每次|如果|遇到"),
    "field_label": (
        Pattern(
            "^\\W*(?:建立日期|最后更新|上次更新|更新时间|日期|状态|任务|证据|结果|做法|效果|场景|症状|"
            "现象|原因|根因|踩坑|坑|错误做法|错误行为|错误操作|影响(?:范围|面|的?文件数?|的?档案数?|模块)?|失败模式|失敗模式|侦测讯号|偵測訊號|检测信号|情境|問題|观察|觀察|"
            "采取的措施|已采取措施|后续跟进|後續跟進)\\W*[:：]",
            "a provenance or bookkeeping field",
        ),
    ),
    # work only planned, a choice not made, a task of one occasion, whatever else the line
    # says (one concept, so one pass over a line)
    "plan_marker": (
        # "**待执行**: 重算上周数据": a line filed under work still to do
        Pattern(
            "^\\W*(?:待执行|待办|待处理|待完成|待确认|待跟进|待做)\\s*\\**\\s*[:：]",
            "a line labelled as work still to do",
            bounded=False,
        ),
        # "支付接口待接入", "导出功能规划中", "消息推送后续再加", "将在下个版本重构";
        # "尚未实现的功能" picks out things, and "后续新增的接口都要加鉴权" / "以后新增接口
        # 时…" direct what comes after
        Pattern(
            "(?:规划|筹备|排期|调研|评估|计划)中(?=\\s*(?:$|[，。,.;；)）]))|(?:列入|纳入)(?:计划|规划|路线图)"
            "|(?<![等期对接看招款善])待(?:接入|实现|开发|上线|集成|引入|添加|支持|评估|讨论|决定|"
            "规划|排期|落地|推进|选型)(?!的)"
            "|尚未(?:实现|开始|接入|上线)(?!的)"
            "|(?:后续|以后|之后|将来|未来)(?:再|将|会|计划|打算|考虑)"
            "(?:加|增加|添加|新增|支持|引入|接入|加入|实现|开发|上线|迁移|重构|替换|升级|完善|补充|"
            "评估|讨论|扩展|集成|做)"
            "|(?:稍后|日后|下一?阶段|下个?版本|下一版|二期|后期)(?:再|将|会|计划|打算|考虑)?"
            "(?:加|增加|添加|新增|支持|引入|接入|加入|实现|开发|上线|迁移|重构|替换|升级|完善|补充|"
            "评估|讨论|扩展|集成|做)(?!的)"
            "|将(?:在|于)(?:下个|下一|后续|未来|以后|之后)",
            "work only planned or pending",
            bounded=False,
        ),
        # "数据库：MySQL / PostgreSQL（待定）", "npm / yarn（根据项目初始化确定）";
        # "根据用户输入确定返回格式" outside brackets is a rule
        Pattern(
            "暂定|待定|未定|尚未(?:确定|决定|选定)|还没(?:定|确定|决定|选定)"
            "|[(（][^()（）]*(?:视[^()（）]{1,10}?(?:而定|再定)|根据[^()（）]{1,12}?(?:确定|决定|再定|"
            "选择))[^()（）]*[)）]",
            "a choice not made yet",
            bounded=False,
        ),
        # "本次重构后重新跑测试": the situation is one occasion
        Pattern(
            "(?:这次|本次|此次|上次|那次)的?(?:重构|迁移|升级|改版|事故|故障|发布|上线|改造)",
            "one occasion named",
            bounded=False,
        ),
    ),
    # work planned, when the line directs nothing else ("后续计划支持多语言", "缓存层后续
    # 引入 Redis"); "计划变更时先通知…", "后续修改接口时同步更新文档" direct
    "plan_hint": (
        Pattern(
            "计划(?:于|将|下个|下一|后续|支持|引入|接入|加入|增加|新增|上线|迁移|重构|实现|开发|"
            "改为|替换|采用)"
            "|(?:后续|未来|将来)(?:加|增加|添加|新增|支持|引入|接入|加入|实现|开发|上线|迁移|重构|替换|"
            "升级|完善|扩展|集成)(?!的)",
            "work planned",
            bounded=False,
        ),
    ),
    # narration of one occasion, whatever pattern follows it
    "recap_marker": (
        # "一开始自己写了…，后来才发现 …", "上次部署时 mp3 被跳过"; "不要等到上线才发现问
        # 题", "如果后来发现需求有变，…" suppose
        Pattern(
            "(?<!如果)(?<!若)(?<!一旦)(?<!要是)后来(?:才|又)?(?:发现|知道|意识到|查明|确认|证实)"
            "|结果(?:发现|才发现)|(?<!到)才(?:发现|意识到)"
            "|原来是|误以为|本以为|原以为|没想到"
            "|(?:一开始|起初|最初|开始时)[^。！？!?]{0,30}?了[^。！？!?]{0,30}?(?:后来|结果|才|但)"
            "|(?:之前|此前|上次|那次|当时|刚才)[^。，,；;]{0,12}?(?:误判|误以为|漏掉|漏了|忘了|搞错|弄错|"
            "出错|报错|失败了|挂了|崩了|被跳过|被覆盖|被删|没刷新|没生效|导致)",
            "narration of one occasion",
            bounded=False,
        ),
        # "……导致编译报错。教训：加功能前先更新接口定义": a lesson drawn after the line's
        # own account of what happened
        Pattern(
            "[。！；;!]\\s*(?:经验)?(?:教训|启示|反思|总结)\\s*[:：]",
            "a lesson label after a recap",
            bounded=False,
        ),
    ),
    # a state reached, whatever else the line says ("登录接口问题已修复", "✅ 已恢复");
    # "已修复的 bug 要加回归测试", "问题已解决后再关闭工单" pick out things or a moment
    "state_reached": (
        Pattern(
            "(?<![否未])已(?:经)?(?:恢复|修复|修好|解决|排除|生效|回滚|处理完毕?)(?![的后再才时前])",
            "a state reached",
            bounded=False,
        ),
    ),
    # ------------------------------------------------------------ dossier lines
    # What a careful reader rejects in an entity or topic dossier although it reads like a
    # fact (see the English table): the state the work stands in, what is still to do or
    # to decide, what was done once, and claims nothing supports.
    #
    # "*最后更新: 2025-12-21*", "生成时间：…": a stamp of when the file was written
    "update_stamp": (
        Pattern(
            "^\\W*(?:最后|最近|上次)(?:更新|修改|编辑)(?:时间|日期|于)?\\W*[:：]"
            "|^\\W*(?:更新|生成|创建|记录|编写)(?:时间|日期)\\W*[:：]|^\\W*日期\\W*[:：]",
            "a stamp of when the file was written",
            bounded=False,
        ),
    ),
    # "**当前状态**：…", "**阶段**：核心功能开发阶段", "**状态**: 稳定", "健康状态：良好": a
    # field whose value is the state of the work ("状态管理：…" names program state)
    "status_field": (
        Pattern(
            "^\\W*(?:\\d+[.、)]\\s*)?(?:当前|目前|项目|整体|开发|健康|构建|测试|实现|发布)?"
            "(?:状态|狀態|阶段|階段|进度|進度|进展)(?:\\s*[（(][^）)]{1,20}[）)])?\\W*[:：]"
            "|^\\W*(?:当前|目前)(?:版本|重点|焦点|任务|分支|模式|工作|优先级)\\W*[:：]"
            "|^\\W*(?:分支|提交|快照日期)\\W*[:：]"
            "|^\\W*(?:已实现|已完成|未完成|待实现|待完成|进行中)\\W*[:：]",
            "a field whose value is the state of the work",
            bounded=False,
        ),
    ),
    # "后端认证服务开发中", "正在规划V3", "已搁置", "等待用户明确需求", "依赖、测试均未建立",
    # "Memory Bank已就绪": where the work stands now ("运行中的容器" names containers)
    "work_state": (
        Pattern(
            # ("请求进行中防止重复提交", "测试中使用…": while a thing runs, a rule's moment)
            "(?:进行|开发|施工|调试|重构|迁移|设计|测试|验证|排查|实施|联调|重跑|运行)中(?=\\W|$)"
            "|正在(?:开发|规划|实现|进行|处理|调试|重构|迁移|编写|设计|分析|测试|验证|研究|排查|"
            "开展|推进|筹备|做|整理|优化)"
            "|已搁置|已暂停|暂停开发|搁置中"
            # "等待用户明确功能增强需求" as the whole line ("…并等待明确确认" is a protocol's step)
            "|^\\W*(?:[^，。：:]{0,10}[:：]\\s*)?(?:等待|等)(?:用户|确认|反馈|审核|批准|明确|评审)"
            "|(?:均|都|还|尚)未(?:建立|开始|启动|测试|验证|部署|上线|配置|编写|确定)"
            "|(?<![未没])(?:已)?就绪\\W*$|准备好(?:记录|开始|进入)"
            "|(?:早期|初期|初始|骨架|核心功能开发|开发|设计|规划|原型)阶段\\W*$"
            # "当前优先 P1 执行能力增强": the priority of the moment
            "|(?:当前|目前|现阶段)(?:优先|重点|聚焦|专注|主要在)"
            # "项目处于研究稿 v0.1 验证阶段"
            "|处于[^，。；]{0,20}阶段",
            "where the work stands now",
            bounded=False,
        ),
        # "等待设计团队交付设计稿", "卡在供应商的 API key 上": work held up ("等待 3 秒后重试",
        # "等待锁释放后再写入" are steps of a protocol)
        Pattern(
            "^\\W*(?:[^，。：:]{0,10}[:：]\\s*)?(?:仍在|还在|正在|目前|当前)?等待(?!\\s*\\d)"
            "(?![^。；]*(?:后|再|时|才))"
            "|^\\W*(?:目前|当前|还|仍)?卡在",
            "work held up",
            bounded=False,
        ),
        # "当前在 main 分支，工作区干净", "认证模块：已完成": the state of a checkout, or a
        # status as a field's whole value
        Pattern(
            "(?:当前|目前|现在)(?:在|位于|处于)[^，。；]{0,20}分支|工作区(?:干净|是干净的|有未提交)"
            "|[:：]\\s*(?:已完成|已实现|已上线|已修复|已部署|未开始|尚未开始|待开发|开发中|完成)\\W*$",
            "the state of a checkout, or a status as a field's value",
            bounded=False,
        ),
    ),
    # "TypeScript 零错误，ESLint 零警告", "测试覆盖率 100%", "**功能完整度**: 100%", "✅ 编译
    # 通过": a count or a check read off the work as it stands ("测试通过后再合并" is a rule)
    "progress_tally": (
        Pattern(
            "零(?:错误|警告|报错|缺陷)"
            "|(?:覆盖率|完整度|完成度|通过率|进度|進度)\\W*[:：]?\\s*约?\\s*\\d+(?:\\.\\d+)?\\s*%(?![+＋]|以上)"
            "|(?<!确认)(?<!确保)(?<!检查)(?<!验证)(?:编译|构建|测试|检查|单测|验证|自测)"
            "(?:已|均已|全部|均)?(?:通过|成功|失败)(?![后前时再才的])\\W*$"
            "|\\d+\\s*(?:个|项|条)?(?:测试|用例|问题|缺陷|任务)(?:已|均)?(?:通过|关闭|修复|完成|解决)"
            # "当前只有两个配置项": a count as of now
            "|(?:当前|目前|现在)(?:只有|仅有|还只有|共有|一共有)\\s*[\\d一二两三四五六七八九十]+"
            "\\s*(?:个|项|条|种)",
            "a count or a check read off the work as it stands",
            bounded=False,
        ),
        # "实现进度约 80%", "测试：120 个通过，3 个失败": how far the work has got
        Pattern(
            "进度\\s*(?:约|大约|已达|达到|为|是)?\\s*\\d+(?:\\.\\d+)?\\s*%"
            "|完成(?:了)?\\s*(?:约|大约)?\\s*\\d+(?:\\.\\d+)?\\s*%"
            "|\\d+\\s*(?:个|项|条)?\\s*(?:通过|失败)(?=[，,、；;。]|\\s*$)",
            "how far the work has got",
            bounded=False,
        ),
    ),
    # "## 下次继续", "## 后续步骤", "## ⏳ 待开发", "## 技术债务", "## 任务描述", "## 问题发
    # 现", "## 最近变化", "## 解决的关键问题", "## 修复": a dossier heading whose theme is
    # work to do, under way, or done once ("已知问题" holds behaviour with its workaround)
    "work_section": (
        Pattern(
            "下次继续|后续(?:步骤|工作|任务|计划)|待(?:开发|实现|完成|办|处理|优化|解决)"
            "|技术债务|任务(?:描述|列表|清单)|问题(?:发现|描述|记录)|^\\W*现象\\W*$"
            "|最近(?:变化|变更|更改|更新|完成)|近期(?:变化|变更|變更|更新)"
            "|(?:已)?解决的(?:关键)?问题|^\\W*(?:修复|修复记录|修复过程|本次更新|更新内容)\\W*$"
            "|(?:高|中|低)优先级|优先级最高"
            # "## 改进措施", "## 脚本改进计划": the changes still to make
            "|改进(?:措施|计划|方案)|优化计划|后续计划"
            "|[(（]\\s*(?:进行中|预期)\\s*[)）]|(?:进行|运行)中\\W*(?:[(（][^()（）]*[)）])?\\W*$",
            "a dossier heading whose theme is work to do, under way or done once",
            bounded=False,
        ),
    ),
    # "附件以 CDN 直链渲染", "应用从 OMDB API 获取电影数据": how the thing works, a fact of it
    # even under a heading on the state of the work ("## 当前状态"); what was done ("了")
    # is a recap
    "standing_fact": (
        Pattern(
            "(?:以|通过|经由)[^，。；了]{1,20}?(?:方式)?(?:渲染|显示|展示|处理|存储|提供|加载|上传|下载)"
            "(?!了)"
            "|^\\W*(?:该|此)?(?:应用|系统|服务|接口|页面|前端|后端)(?:会)?(?:从|向)[^，。；了]{1,30}?"
            "(?:获取|读取|写入|发送|拉取)(?!了)",
            "how the thing works",
            bounded=False,
        ),
    ),
    # "目标覆盖率 80%", "至少 90%": a count set as a limit, no reading of the work
    "limit_mark": phrases("目标|至少|不低于|不少于|要求|必须|需达到|以上"),
    # "新增C251Target类", "创建了项目基础结构", "修正了 …", "實現了", "已整合到全部4个引擎",
    # "修正均已…验证通过": a line that reports a change made
    "change_recap": (
        Pattern(
            "^\\W*(?:\\d+[.、)]\\s*)?(?:新增|创建|修正|修复|实现|移除|删除|添加|完成|整合|重构|迁移|"
            "优化|更新|升级|解决|修改|替换|引入|集成|改进|调整|重写|补充|清理|建立|编写|合并|"
            "調整|補充|實現|解決)了"
            # a line opening on 新增/创建 with no rule mark and no label ("新增接口需鉴权"
            # directs, "创建时间：…" is a field)
            "|^\\W*(?:\\d+[.、)]\\s*)?(?:新增|创建)(?![^，。；：:]{0,24}[:：])"
            "(?![^，。；]*(?:时|前|后|要|应|必须|需|请|务必))"
            "|(?<![否未])已(?:经)?(?:成功)?(?:整合|集成|合并|接入|迁移|部署)(?:到|至|进)"
            "|(?:均|都|已)已?(?:用|经)?[^，。；]{0,12}?验证通过"
            "|(?:已|已经)?成功(?:实现|完成|迁移|部署|上线|修复|解决)"
            "|(?:解決|解决|修复|修正)了(?:之前|先前|此前|原先)"
            # "对 `sta_sparse.py` 进行了重构", "增加了 `--resume_path` 参数": a change made
            "|(?:进行|進行|做)了(?:重构|重構|优化|優化|修改|调整|調整|迁移|遷移|修复|修復|升级|升級|改造)"
            "|^\\W*(?:\\d+[.、)]\\s*)?增加了"
            # "Git自动备份系统实现完成", "2026-06-18 审查并修正了 4 个…"
            "|(?:实现|开发|迁移|部署|集成|重构|初始化|配置|全部)完成(?![^，。；]{0,12}[后时前])(?!的)"
            "|20\\d\\d-\\d\\d-\\d\\d\\s*[^，。；]{0,10}?(?:审查|修正|修复|新增|删除|更新|发布|上线|部署)"
            "(?:了|并|\\s*[:：])",
            "a change reported as made",
            bounded=False,
        ),
        # "最近新增了暗色模式", "上次会话重构了路由", "配置了 GitHub Actions CI", "完成测试迁移到
        # pytest", "已切换到 feature/auth 分支": a change reported as just made, or a session told
        Pattern(
            "^\\W*(?:\\d+[.、)]\\s*)?(?:最近|近期|刚刚|刚)(?:新增|添加|修复|更新|完成|实现|引入|升级|"
            "迁移|重构|切换|删除|移除|上线|发布|部署)"
            "|(?:上次|上一次|前几次)(?:会话|对话|迭代)"
            "|^\\W*(?:\\d+[.、)]\\s*)?(?:配置|搭建|接入|部署|上线|发布|切换|安装|设计|开发)了"
            "|^\\W*(?:已经?)?完成(?!度|率|后|时|前|的)(?![^，。；]*(?:后|之前|时))[^，。；]{1,20}?"
            "(?:迁移|开发|实现|重构|编写|配置|部署|集成|接入|设计)"
            "|已(?:经)?切换(?:到|至)[^，。；]{0,20}分支",
            "a change reported as just made, or a session told",
            bounded=False,
        ),
        # "我们已经发现了几个问题", "我修复了解析器", "把 ID 从 0 改为 1": the writer reporting
        # work of their own, or a change under way
        Pattern(
            "(?:我们|我)(?:已经?|刚刚?|成功)?(?:发现|修复|添加|实现|完成|解决|创建|更新|重构|迁移|删除|"
            "切换|确认|验证)(?:了)"
            "|^\\W*(?:\\d+[.、)]\\s*)?(?:正在)?(?:把|将)[^，。；]{1,30}?从[^，。；]{1,20}?(?:改为|改成|换成|迁移到)",
            "the writer's own work reported, or a change under way",
            bounded=False,
        ),
    ),
    # "CL-TH 手机壳第一次没贴底，同参数第二次成功", "用户反馈…，检查后发现：": what went wrong
    # once, told
    "incident_story": (
        Pattern(
            "第一次[^。；]{0,20}?(?:没|未|失败)[^。；]{0,20}?第二次"
            "|(?:检查|排查|调查|复查)后(?:才)?发现"
            '|用户反馈["“「]',
            "what went wrong once, told",
            bounded=False,
        ),
    ),
    # "**问题描述**：…", "现象：…", "错误行为：…": a field of an incident write-up
    "incident_field": (
        Pattern(
            "^\\W*(?:问题描述|问题现象|问题|现象|症状|错误行为|错误现象|故障现象|事故经过|"
            "事故原因|故障原因|出错原因|问题原因|报错)\\W*[:：]",
            "a field of an incident write-up",
            bounded=False,
        ),
    ),
    # "考虑 Web Workers", "待解决：考虑增量加载", "状态管理：待确定（可能…）", "经络图如何可
    # 视化展示，考虑…", "…是否…？": a choice still open ("出于安全考虑", "考虑到…" give reasons)
    "deliberation": (
        Pattern(
            "^\\W*(?:\\d+[.、)]\\s*)?考虑(?!到|因素)|[:：，,]\\s*考虑(?!到|因素)"
            "|^\\W*(?:命题|假设|猜想|假说|待验证)\\W*[:：]"
            "|[(（]\\s*(?:使用|采用|用|选用)[^()（）]{1,20}?或[^()（）]{1,20}[)）]"
            "|待(?:确定|决定|讨论|解决|研究|商榷|评估)|是否[^。！!]*[?？]\\W*$"
            "|需要决定|尚待决定|有待(?:确定|商榷|讨论|验证)|潜在(?:的)?(?:改进|优化)方向"
            # "可以檢查是否需要細分": whether to is still to be looked at
            "|可以?(?:检查|檢查|考虑|考慮|看看|评估|評估|研究)(?:一下)?是否",
            "a choice still open",
            bounded=False,
        ),
        # "我们正在评估 Redis 和 Memcached", "还在考虑缓存方案", "探索状态管理的方案": options
        # still being weighed
        Pattern(
            "(?:还在|仍在|正在)(?:考虑|评估|权衡|调研|比较|对比|犹豫)"
            "|^\\W*(?:\\d+[.、)]\\s*)?(?:探索|调研|评估|比较|对比)[^。；]{0,20}?(?:方案|选项|可能性|"
            "替代|选型)",
            "options still being weighed",
            bounded=False,
        ),
    ),
    # "移动端适配需进一步优化", "需要为核心服务添加测试", "**估时**: 4-5 天", "接下来，我们将
    # 分析 …", "未来可扩展至 macOS", "需重新部署": work still to do
    "pending_work": (
        Pattern(
            "需(?:要)?进一步|有待(?:进一步)?(?:优化|完善|改进|补充)"
            "|需要(?:在|为|给)[^。；，,]{0,30}?(?:添加|增加|新增|补充|编写|实现)"
            "|需(?:要)?重新(?:部署|运行|测试|验证|生成)|^\\W*(?:估时|预估|预计工时|工期)\\W*[:：]"
            "|接下来[，,]?\\s*(?:我们)?(?:将|会|要)|(?:未来|将来|后续)可(?:扩展|支持|增加|接入)"
            # "Docker：暂不安装，…延后": put off for now
            "|暂不(?:安装|实现|处理|开发|引入|接入)|延后(?:处理|实现|开发)?\\W*$"
            # "WebSocket 实时通信需要完善", "待核心功能完成后实现", "仍建议补跑": still to do
            "|需要(?:完善|优化|改进|补充|修复)\\W*$|待[^，。；]{1,20}后(?:实现|开发|处理|再做)"
            "|[(（]\\s*待(?:部署|上线|实现|开发|验证|测试)\\s*[)）]"
            "|仍(?:需|需要|建议)补"
            "|缺少[^。，,；]{0,10}(?:测试|文档|单元测试)",
            "work still to do",
            bounded=False,
        ),
        # "下一步是把接口接入仪表盘", "下一步：给解析器加单元测试": the step to take
        Pattern(
            "^\\W*(?:\\d+[.、)]\\s*)?(?:下一步|下步|接下来要)",
            "the next step named",
            bounded=False,
        ),
        # "我们需要给列表接口加分页", "计划把数据库迁移到 Postgres", "第二阶段将支持多租户":
        # work the writer has still to do
        Pattern(
            "(?:我们|我)(?:还|仍)?(?:需要|得|打算|计划|准备)"
            "|^\\W*(?:\\d+[.、)]\\s*)?(?:计划|打算|准备|拟)(?:在|把|将|对|给|于|使用|采用|引入|"
            "迁移|支持|实现|重构|开发|接入|添加|增加|新增|上线|发布)"
            "|第[一二三四五六七八九十\\d]+(?:阶段|期)\\s*(?:将|会|计划|准备)",
            "work the writer has still to do",
            bounded=False,
        ),
        # "遗留问题：worker 内存泄漏", "未解决问题：…": a field of work left open
        Pattern(
            "^\\W*(?:\\d+[.、)]\\s*)?(?:遗留问题|未解决(?:的)?问题|待处理(?:事项|问题)?|开放问题)\\W*[:：]",
            "a field of work left open",
            bounded=False,
        ),
    ),
    # "EA 第 82/100 行", "**位置**: Line 44": a location pinned to line numbers
    "line_pin": (
        Pattern(
            "第\\s*\\d+(?:\\s*[-~～/、,，至到]\\s*\\d+)*\\s*行|行号\\s*[:：]?\\s*\\d+",
            "a location pinned to line numbers",
            bounded=False,
        ),
    ),
    # "健康状态：良好", "比事件监听更加直观和可靠", "效果很好": an impression offered as
    # evidence, with no figure measured
    "impression": (
        Pattern(
            "[:：]\\s*(?:良好|很好|不错|稳定|健康|优秀)\\W*$"
            "|(?:更加|更为)(?:直观|可靠|稳定|清晰|简洁|方便|高效|现代|灵活|优雅|易用|智能|合理)"
            "|(?:效果|表现|体验)(?:很|非常|较|比较|相当)(?:好|不错|出色|理想)"
            "|(?:运行|工作)(?:良好|正常|稳定)\\W*$|看起来|似乎",
            "an impression offered as evidence",
            bounded=False,
        ),
        # "界面感觉很流畅", "用起来感觉更快": how it felt
        Pattern(
            "感觉(?:很|非常|挺|比较|更|还|特别|有点)?(?:流畅|顺滑|快|慢|卡|好|不错|自然|直观|清爽|高级)",
            "how it felt",
            bounded=False,
        ),
    ),
    # "大文件解析可能存在性能瓶颈", "疑似…": a guess
    "speculation": (
        Pattern(
            # ("否则可能导致写入失败" is the consequence a rule warns of; "不猜测…" forbids)
            "(?<!否则)可能(?:存在|需要|是(?![指说])|用于|用於|采用|採用)|大概率|疑似|(?:推测|猜测)(?:是|为|可能)|或许"
            "|有待(?:确认|验证)",
            "a guess",
            bounded=False,
        ),
    ),
    # "改进空间：…", "长期可改为 …", "不建议…", "(建議使用最新穩定版本)": a fix proposed
    "proposed_fix": (
        Pattern(
            "改进空间|可改进|(?:长期|后续|未来|将来)可(?:改为|改成|考虑|优化|替换|迁移)"
            "|^\\W*(?:\\d+[.、)]\\s*)?(?:建议|建議|修复方案|修復方案|改进方案|改进建议|优化建议|"
            "优化方向|改进方向)\\W*[:：]"
            "|不建议|不建議|[(（]\\s*(?:建议|建議)[^()（）]*[)）]",
            "a fix proposed, not a fact",
            bounded=False,
        ),
    ),
    # "提升开发效率和用户体验", "以確保模塊化、可維護性和可擴展性", "体积小、性能高、安全性
    # 好", "更现代的浏览器自动化API", "符合现代桌面应用标准", "最新稳定版", "支持现代浏览器":
    # a benefit claimed, with nothing that shows it
    "benefit_phrase": (
        Pattern(
            "(?:提高|提升|增强|改善|改进|改進|保证|確保|确保|优化)(?:了)?[^，。,；;：:]{0,8}?"
            "(?:效率|用户体验|使用者體驗|体验|可靠性|稳定性|安全性|成功率|易用性|性能|"
            "模块化|模塊化|可維護性|可擴展性|可维护性|可扩展性|开发速度)"
            "|(?:[^\\W\\d_]{1,4}(?:高|好|小|快|强|低)、)+[^\\W\\d_]{1,4}(?:高|好|小|快|强|低)"
            "|更(?:加|为)?(?:现代|直观|智能|优雅|人性化)"
            "|符合(?:现代|行业|业界|主流)[^。，,；]{0,12}(?:标准|规范)|最佳实践"
            "|最新(?:的)?稳定版|(?:支持|兼容)(?:所有)?现代浏览器"
            "|极(?:强|高|佳|其)的|可以(?:方便|轻松)地|轻松(?:地)?(?:扩展|实现|集成|应对)"
            # "SearXNG本地部署提供了可靠的搜索能力": a quality provided, praised
            "|提供了?(?:可靠|稳定|强大|高效|灵活|完善|優秀|优秀)的"
            # "Bun 提供更快的包安装", "提供专业级别的对弈能力": better, told not shown
            "|^[^，,。；;]{0,30}提供了?更(?:快|好|小|高|强|低|稳定|可靠)的|专业级(?:别)?的"
            "|^[*_\\s]*(?:清晰|完整|全面|简洁|统一)的?[^，,。；;:：`（(\\d/]{2,12}[。*_]*$"
            "|^\\W*(?:其他|其它)?[^，,。；;:：`]{0,6}按需(?:安装|添加|引入|配置)\\W*$"
            "|需要注意\\W*$",
            "a benefit claimed, nothing that shows it",
            bounded=False,
        ),
        # "构建速度极快", "无缝的跨设备体验", "强大的插件系统": a marketing word
        Pattern(
            "极(?:快|速|致)(?!版)|飞快|闪电般|超快|无缝|丝滑|用户友好|开发者友好|无限(?:定制|扩展|可能)"
            "|强大的[^，。；,;]{0,10}(?:系统|功能|能力|引擎|框架|工具)",
            "a marketing word",
            bounded=False,
        ),
        # "极大减少样板代码", "使代码更易维护", "高度可扩展的架构", "确保高可用和容错": a gain
        # claimed with no measure
        Pattern(
            "(?:显著|大幅|极大|大大|明显)(?:地)?(?:提升|提高|降低|减少|改善|简化|加快|加速|增强)"
            "|(?:使|让)[^。；，,]{0,12}?更(?:加|为)?(?:易|容易)(?:于)?(?:维护|阅读|测试|扩展|理解|使用)"
            "|高度可(?:扩展|配置|定制|维护|复用)"
            "|(?:确保|保证)(?:了)?(?:系统的?)?(?:高可用|容错|高性能|高并发|可用性|可靠性|稳定性)",
            "a gain claimed with no measure",
            bounded=False,
        ),
        # "流畅的用户体验", "性能优异", "简单而强大的 API", "快速、可靠、安全": an experience or a
        # verdict praised, or praise alone
        Pattern(
            "(?:流畅|顺滑|丝滑|极致|出色|良好|优秀|更好)的(?:用户|使用|开发|交互)?体验"
            "|(?:性能|质量|稳定性|体验|可靠性|速度)(?:非常|十分|极其|很)?(?:优异|优秀|出色|卓越|极佳)"
            "|简单(?:而|却|又)强大"
            "|^\\W*(?:快速|可靠|安全|高效|简洁|轻量|灵活|强大|稳定|易用|直观|现代)(?:[、，,和与及]\\s*"
            "(?:快速|可靠|安全|高效|简洁|轻量|灵活|强大|稳定|易用|直观|现代)){1,}\\W*$",
            "an experience or a verdict praised",
            bounded=False,
        ),
    ),
    # "这是一个基于文件系统的约定式路由插件，使用 `unplugin` 开发…", "CdApi 是一个 AI 大模型
    # API 网关工具": what the project or a part of it is, told; the clauses after it describe it
    "description_lead": (
        Pattern(
            "^\\W*(?:这是|這是|本项目是|本項目是|该项目是|該項目是)(?:一个|一個|一款|一套)"
            "|^\\W*[A-Za-z][\\w .-]{0,30}?\\s*(?:是|为)(?:一个|一個|一款|一套)[^，。,]{0,30}?"
            "(?:工具|系统|系統|应用|應用|平台|框架|插件|网站|網站|项目|項目|服务|服務|库|庫|网关|引擎)",
            "what the project or a part of it is, told",
            bounded=False,
        ),
    ),
    # "你是一个深度知识管理专家，用来帮助用户…": a role given to the agent, which the rest
    # of the line describes.
    "persona": (
        Pattern(
            "^\\W*(?:你是|您是|你现在是)(?:一个|一名|一位)?[^，。,]{0,24}?(?:专家|助手|工程师|架构师|"
            "顾问|开发者|程序员|导师|伙伴|管家|分析师|设计师|编辑|作家|编剧)",
            "你是 … 专家: the agent given a role",
            bounded=False,
        ),
    ),
    # "背景色 `#F2F2F7`。": the short noun label of a setting written with no colon.
    "span_label": (Pattern("[\\u4e00-\\u9fff]{2,6}", "two to six characters", bounded=False),),
    # A label that describes ("未净化的"), negates or points ("参见", "详见"), or names a
    # state ("当前版本"): no setting's.
    "not_a_label": phrases("的|未|不|没|见|参|当前|目前|版本|进度|状态"),
    # "读取 `directories.json` 文件。该文件定义了…": the file a line just named.
    "file_anaphor": (Pattern("(?:该|此|这个|这份)(?:文件|文档)", "该文件, 此文档"),),
    # Words a line quotes ("确立了「先确认后执行」的交互原则"): not its own directions.
    "quotation": (
        Pattern("「[^」\\n]*」", "in corner brackets", bounded=False),
        Pattern("『[^』\\n]*』", "in white corner brackets", bounded=False),
    ),
    # A short quoted name, its text the group.
    "quoted_name": (Pattern("「([^」\\n]{1,40})」", "in corner brackets", bounded=False),),
    # "**状态**: ⏳ 待…": the state a status mark stands beside.
    "status_word": phrases("已|待|未|正在|完成"),
    # "持续作业进展（2026-03-28 17:40）": a heading word that names a log entry before its date.
    "log_heading": phrases("进展|日志"),
    # "DingTalk 问题（2026-03-05 记录）": after a date, the word naming it a record's.
    "log_stamp": phrases("记录|日志"),
    # After a date's year: "2026年3月".
    "date_separator": ("年",),
    # Put before an item under a heading of what not to do ("## 禁止事项").
    "prohibition_prefix": ("不要",),
}
