"""Chinese phrases for claim analysis (data only).

Chinese writes no spaces between words, so phrases match anywhere, in the order
written; the lookarounds (:class:`Pattern`) keep a one-character cue from firing
inside a longer word ("当" but not "当前", "用" but not "用户").
"""

from __future__ import annotations

from shared.language.lexicon.concept import Entry, Pattern, phrases
from shared.language.lexicon.script import CJK

# Characters that end a compound with 别 ("分别", "区别", "识别", "级别", "类别", "特别"):
# there 别 is no "don't".
_BIE_COMPOUND = "[分区识特类级个告差性辨鉴派判离送道有]"

_GENERIC = phrases(
    """回答|回复|答复|问题|用户|任何|所有|需要|必要|时候|情况|对话|帮助|工作|任务|
    消息|提问|适当|合适|可能|有人|别人|事情|东西|一切|聊天|交流|沟通|的|时|当|
    在|了|吗|每当|每次|如果|遇到|碰到|疑惑|疑问|困惑|不确定|不清楚|不明白|有疑"""
)

# "失焦时…": an event of two or more characters, 时, then two or more characters of action
# (not 同时/实时/超时/时间/时候 …).
_BARE_TIME = Pattern(
    f"(?<=[{CJK}]{{2}})(?<![同有及暂临随准按届实定小当平不过超计耗延适即])时"
    f"(?![间候刻长区效代光期段差机序])(?=[{CJK}]{{2}})",
    "an event, then 时, then the action",
)

CONCEPTS: dict[str, tuple[Entry, ...]] = {
    # ------------------------------------------------------------ triggers
    "trigger": (
        *phrases(
            """每当|每次|一旦|只要|凡是|假如|如果|若是|倘若|要是|如遇|遇到|碰到|遇见|收到|
            看到|听到|面对|涉及|对于|针对"""
        ),
        Pattern(
            "(?<![应相适恰担妥充])当(?![前然下天初成]|作(?!业))",
            "当 'when', not 当前/当然/应当/当作",
        ),
        Pattern(
            "(?<![同有及暂临随准按届])时(?:候)?"
            "(?=[，,、]|必须|应|要|需|先|请|都|就|则|才|一律|务必|不要|禁止)",
            "时(候) 'at the time' before a comma or a direction, not 同时/有时/及时",
        ),
        _BARE_TIME,
        *phrases("""之前|之后|以前|以后|期间"""),
        Pattern("(?:只有|仅当|仅在|只在)[^，。,]{1,24}?才", "只有 … 才 'only when … then'"),
    ),
    "conditional_lead": (
        Pattern(
            "^\\W*(?:一旦|每当|如果|若|当)(?=\\W|[\u4e00-\u9fff])",
            "a condition opening the clause",
            bounded=False,
        ),
    ),
    # "失焦时提示用户点击恢复": the action after "<event>时" is the direction, whatever its verb.
    "bare_time": (_BARE_TIME,),
    # What may stand before a verb that makes it a direction rather than a noun ("要分离"
    # directs, "前后端分离" names a practice).
    "modal_before": phrases("要|应|须|需|请|务必|必须|一律|统一|先|再|都|不|别|勿|禁止"),
    # A clause that ends in a time word ("提交前，…") names the moment it applies.
    "trailing_time": (Pattern("(?:时|之前|之后|后|前)(?:，|,|$)", "a time word closing a clause"),),
    # Where a trigger clause's situation ends and its direction begins ("遇到报错时先读日志").
    "time_word": ("时", "之前", "之后", "以后", "后"),
    # Words that do not make a trigger (or a direction's object) concrete on their own.
    "generic": _GENERIC,
    "generic_run": (Pattern(f"^(?:{'|'.join(_GENERIC)})+", "generic words opening the text"),),
    # ------------------------------------------------------------ directions
    "direction": (
        *phrases("""应该|应当|需要|必须|务必|一定要|要先|请|先|然后|再"""),
        Pattern(f"直接(?=[{CJK}])", "直接 before a verb"),
        # "服务器须由用户手动启动", "迁移须在 `db/` 下手写": 须 before who or where, as "are
        # to be …" is in English; 无须/必须 are read as their own words.
        Pattern("(?<![无必毋])须(?=由|在|用|经|通过|使用)", "须 'is to be' before 由/在/用"),
        # "路由函数返回值应为节点名", "日志应写到 `logs/`", "目标名应与 `x` 一致": a bare 应
        # after its subject sets what the artefact is to be or match; 反应/响应/对应/相应/
        # 适应/供应 are words of their own.
        Pattern(
            "(?<![反响对相适供答效])应(?=为|是|放在|放到|写到|写入|写在|在|以|返回|使用|与|符合|保持)",
            "a bare 应 'should' before 为/是/在",
        ),
        *phrases(
            """立即|立刻|马上|及时|主动|优先|尽量|不要|避免|禁止|切勿|勿|改为|改用|
            改成|换成|统一|一律|始终|总是|记得|按照|按|遵循|参考|参照|采用|使用"""
        ),
        # 别 'don't' is a word of its own; after a character it ends a compound ("单次识别",
        # "日志级别", "类别", "特别"), which directs nothing.
        Pattern(f"(?<!{_BIE_COMPOUND})别", "别 'don't', not 识别/级别/类别"),
        Pattern(
            "(?<![应作费采引适常通有实信日可专公私备试启禁弃占复])用(?![户途性])",
            "用 'use', not 应用/作用/用户/用途",
        ),
        *phrases(
            """开头|回答|回复|答复|给出|提供|列出|说明|解释|确认|核对|核实|检查|查看|查阅|
            阅读|读取|打开|调用|引用|指出|输出|标注|标明|注明|追问|询问|问清|提醒|告诉|告知|通知|建议|拒绝|停止|
            暂停|跳过|切换|保持|保留|删除|发送|附上|总结|概括|复述|重述|翻译|拆分|合并|
            等待|联系|上报|通知|告知|汇报|默认|补充|把|将|写|放|执行|运行|实现|编写|
            添加|增加|安装|更新|遵守|提交|推送|保存|启用|禁用|开启|交给|交由|适配|接入|
            封装|选用|改写|标记|指定|取消|引入|加上|创建|绘制|重启|重命名|移动|复制|升级|搜索|
            定位|声明"""
        ),
        Pattern("复用(?!性)", "复用 'reuse', not 复用性 'reusability'"),
        Pattern(
            f"(?:要|需|应|须|都)有(?=[{CJK}A-Za-z`\\s])", "要有/需有 'must have' before its object"
        ),
        Pattern("(?<![据听小比如所来再])说(?![明服法])", "说 'say', not 据说/说明"),
        Pattern("(?:只|仅)(?=[对在做写用改实保输])", "只/仅 'only' before a verb"),
        # "所有列表接口返回 `PaginatedResponse<T>`": what every artefact of a kind returns,
        # extends or implements is the convention to follow, as "All scripts resolve …" is
        Pattern(
            "^(?:所有|全部|每个|每一个)[^，。；,;]{1,15}?(?:返回|继承|实现|遵循)",
            "what every artefact of a kind does",
        ),
        # "只能通过 X 覆盖组件", "在 X 阶段只进行分析": a restriction to one means or one
        # kind of act is the direction, whatever verb follows it.
        Pattern(
            f"(?:只|仅)(?:能|可以?|允许|进行)(?=[{CJK}A-Za-z/`\\s])",
            "只能/仅允许/只进行 'may only' before what is allowed",
        ),
        # "文档结构调整需生成迁移方案": 需 'must' before a verb (not 无需/如需/所需/需求).
        Pattern(
            f"(?<![无所必急如确])需(?![要求])(?=[{CJK}])", "需 'must' before a verb, not 无需/需求"
        ),
        # "遇到冲突时，以代码实际状态为准": 'take X as authoritative' directs which to follow.
        Pattern("以(?=[^，。,；;]{1,20}?为准)", "以 X 为准 'X decides'"),
        # a modal of obligation before a verb ("时要脱敏", "要在路由里注册")
        Pattern(
            f"(?<![重主需想只不还必到说望算备])要(?![是求点素闻紧])(?=[{CJK}])",
            "要 'must' before a verb, not 重要/需要/要求",
        ),
        # common verbs of editing and running code
        *phrases(
            """校验|验证|注册|分页|脱敏|加密|解密|排序|过滤|上传|下载|导入|导出|打印|抛出|
            捕获|存放|修复|修改|优化|部署|发布|打包|构建|编译|格式化|替换|转换|转为|
            转成|设为|放在|放到|写在|写到|写入|统一为|包装|注入|绑定|监听|订阅|同步|
            备份|回滚|清理|清空|删掉|去掉|去除|移除|隐藏|展示|渲染|加载|压缩|审查|评审|
            分离|解耦|编辑|挂载|关闭|关掉|开关"""
        ),
        # "中英文之间留 1 空格", "段落间留空行": 留 'leave' before a count or a blank is a
        # spacing setting (停留/留言/保留/预留 are other words).
        Pattern("(?<![停保遗残挽预])留(?=\\s*(?:\\d|[一两空]))", "留 'leave' before a count or 空"),
        # a relation to a named code type, as the English relation verbs ("所有 Entity
        # 继承 BaseEntity": a convention of the code's shape; "继承传统" names no type)
        Pattern("(?:继承|派生自|扩展自)(?=\\s*[A-Za-z`])", "继承 'inherit' before a named type"),
        Pattern("(?<![增更参附追叠施添外])加(?![载密速入班油工强快深])", "加 'add', not 增加/加载"),
        Pattern("走(?![廊向路神])", "走 'go through', not 走廊/走向"),
    ),
    # "通过环境变量配置密钥": 'by means of' opening a clause; when an artefact follows it
    # (not "通过率", "通过审核"), the clause directs that means.
    "means_lead": (Pattern("^(?:统一|尽量|优先)?(?:通过|借助)\\s*", "通过/借助 'by means of'"),),
    # "密钥从环境变量读取，不要写进代码": the way an artefact is had, stated in the line,
    # is what a prohibition beside it replaces.
    "stated_way": (
        Pattern(
            "(?:从(?![来不未])|由(?!用户|产品|团队|老板|经理|负责人|同事|人|我|你|他|她)|经由)[^，,。；;]{1,20}?(?:读取|获取|加载|安装|引入|负责|管理|生成|提供|处理|注入)",
            "从/由 X 读取/负责: where an artefact comes from or who handles it",
        ),
        Pattern(
            "(?:本|该|此|这个)?(?:项目|仓库|代码库)(?:统一|只|仅|一律)?(?:使用|采用|用)\\s*[`A-Za-z]",
            "本项目使用 X: the thing to use",
        ),
    ),
    # "每个组件单独一个文件": one thing per other thing, a convention of the code's shape.
    "one_per": (
        Pattern(
            "^(?:每个|每一个|一个)(?P<each>[^，。,；;]{1,10}?)(?:单独|独立|只|仅)?(?:一个|对应一个)"
            "(?P<one>[^，。,；;]{1,8})$",
            "每个 X 一个 Y: one per",
        ),
    ),
    # An opening that directs nothing concrete ("注意…", "要小心", "但仍需注意…": a modal of
    # need, with its 仍/还/也 and a leading 但, asks no more than the vague verb it governs).
    # "…，例如批量计算、数据导入导出等，…": a clause of examples of the one before it.
    "example_lead": (
        Pattern(
            "^\\W*(?:例如|比如|譬如|诸如|举例来说|像是)", "例如 opening a clause", bounded=False
        ),
    ),
    "vague_opening": (
        Pattern(
            "^(?:但|但是|而)?(?:[仍还也都]?(?:需要|需|要|得|应该|应当|应)|请|先|始终|时刻|随时|一直|务必|必须|一定要)?"
            "(?:注意|小心|谨慎|考虑|留意|多想想|理解|思考|想清楚|"
            "妥善处理|适当处理|酌情处理|灵活处理|认真对待|重视|用心|好好|做好|写好|用好|管好|"
            "处理好|把控好|把好关|把关|关注|关心|在意|留心|当心|牢记|铭记|记住|时刻注意|"
            "充分考虑|全面考虑|三思|斟酌|权衡|审慎|慎重)",
            "a vague verb opening the clause",
        ),
    ),
    "external_skill": (
        Pattern(
            "(?:按照?|遵循|遵守|遵照|依照|参考|参照|使用|套用|沿用)"
            "(?:之前|以前|上次|原来|既定|标准|通常|常规|(?P<below>以下|下列|如下)[^，。,]{0,12}?)?的?"
            "(?:流程|规范|清单|模板|步骤|方案|套路|做法|经验|教训|指南)",
            "following an unnamed procedure",
        ),
        # "遵循奥卡姆剃刀原则", "基于最佳实践回答": following a principle or an unnamed norm
        # is a slogan, not an action; a link, a code span or a number names the document.
        Pattern(
            "(?:遵循|遵守|遵照|秉承|坚持|贯彻|基于|根据|依据|依照|按照|符合)"
            "[^，。,\\[`\\d]{0,16}?(?:原则|理念|思想|精神|最佳实践|行业标准|业界标准|惯例|"
            "(?:良好|优秀|通用|常见|标准|工程|编程|开发)的?实践)",
            "following a principle or a generic norm",
        ),
        # "必须遵循质量标准", "遵守团队编码规范": a norm named only by its domain (development,
        # code, quality, the team) is no document; "遵守 ESLint 规则" names one, and so does
        # a Latin name before 代码/编码 (a code style guide: "遵循 PEP8 代码规范", as "Follow
        # PEP 8 conventions"); a product's "Next.js 开发规范" is still only its domain.
        Pattern(
            "(?:遵循|遵守|遵照|符合|按照|依照|依据)[^，。,\\[`]{0,12}?"
            "(?:开发|质量|设计|行业|业界|团队|项目|通用|统一|相关|既定|既有|现有|"
            "已有|原有)的?(?:规范|标准|准则|守则|规则|要求|风格|约定|惯例|写法)",
            "following a norm named only by its domain",
        ),
        Pattern(
            "(?:遵循|遵守|遵照|符合|按照|依照|依据)[^，。,\\[`A-Za-z]{0,12}?"
            "(?:编码|编程|代码)的?(?:规范|标准|准则|守则|规则|要求|风格|约定|惯例|写法)",
            "following a code norm named only by its domain",
        ),
    ),
    # "**目标**：尽量在本地完成": a line labelled as a goal states what is wanted.
    "goal_label": (
        Pattern(
            "^\\W*(?:\\d+\\.\\s*)?(?:\\*\\*)?(?:核心|主要|最终|总体)?(?:目标|愿景|使命|宗旨)"
            "(?:\\*\\*)?\\s*[:：]",
            "a goal label opening the line",
        ),
    ),
    # "**核心原则**：…": a line labelled as a principle states a value.
    "value_label": (
        Pattern(
            "^\\W*(?:\\d+\\.\\s*)?(?:\\*\\*)?(?:核心|基本|指导|设计|工程|开发|编码|编程|架构|代码|技术)?"
            "(?:原则|理念|信条|价值观)"
            "(?:\\*\\*)?\\s*[:：]",
            "a principle label opening the line",
        ),
    ),
    # "接口约定请参考根目录的 `API.md` 文件": a clause that only points at a file (a bare
    # pointer) directs nothing itself.
    "bare_pointer": (
        Pattern(
            "^[^，。,]{0,16}?(?:请|可)?(?:参考|参见|详见|参阅|查阅|见)(?:[^，。,]{0,12}?的)?\\s*"
            "[\\w./-]+\\.[a-z]{1,5}\\s*(?:文件|文档)?[*\\s。]*$",
            "a verb of referring, then a file, and nothing after it",
        ),
    ),
    # "重新实现所有核心功能，包括：": the line ends by opening a list that extends its
    # object; what the rule covers is on the following lines.
    "list_opener": (Pattern("(?:包括|包含)\\s*[:：]\\s*$", "an inclusion opener ending the line"),),
    # "API/store 测试 mock 网络边界": an English verb between Chinese words.
    "latin_verb": (
        Pattern(f"(?<=[{CJK}\\s])([a-z]{{3,}})\\s+(?=[{CJK}])", "a Latin verb inside Chinese"),
    ),
    # ------------------------------------------------------------ negation
    "negation": (
        *phrases("""不要|不得|禁止|避免|不再|切勿|千万别|严禁|不准|不可|不能"""),
        Pattern(f"(?<!{_BIE_COMPOUND})别", "别 'don't', not 分别/区别/识别/级别"),
    ),
    # A clause opening with a negator ("不使用 …"); 不确定 / 不同 / 不断 ... are words,
    # not prohibitions ("不确定接口参数时先查源码").
    # A setting's value that is not settled yet ("待定", "未接入", "暂缺", "计划中", "以后再定").
    "pending": phrases("待|未|暂|计划|以后"),
    "remedy_label": phrases("修复|已修复|解决|解决方案|解决办法|临时方案|修复方式|处理方式"),
    # "复杂样式抽取到 `globals.css`": a verb, then 到/至/进/入 and a file or path.
    "placed_file": (
        Pattern(f"[{CJK}](?:到|至|进|入)\\s*[\\w-]*[./][\\w./-]*\\w", "put into a named file"),
        Pattern(
            "(?:定义|声明|集中|维护|注册|存放)(?:在|于)\\s*[\\w-]+[./](?:[\\w./-]*\\w)?",
            "kept in a named file",
        ),
    ),
    # Adverbs that may stand before a prohibition ("尽量避免闭包", "务必不要 …").
    "prohibition_adverb": (
        Pattern("^(?:尽量|尽可能|务必|一定|千万|绝对|请|也|都)+", "adverbs opening a clause"),
    ),
    # "处理超时情况，避免用户等待过长时间": a trailing 避免/以免 clause states a purpose.
    "purpose_lead": (
        Pattern("^(?:以)?(?:避免|以免|防止|免得)", "'so as to avoid' opening a clause"),
    ),
    # "严禁主动执行 `git commit`，只有用户明确要求时才执行": an exception, not a replacement.
    "exception_lead": (Pattern("^(?:只有|仅当|除非)", "'only if / unless' opening a clause"),),
    # "namespace 都是 ljt", "缩进一律为 4 个空格": an artefact, a quantifier (都/均/一律/全部/
    # 统一) and a copula set its value for every instance, as "Every X is Y" does.
    "quantified_copula": (
        Pattern(
            "^(?P<subject>[^，。,;；]{1,12}?)\\s*(?:都|均|一律|全部|统一)(?:是|为)\\s*"
            "(?P<value>[^，。,;；]{1,16})$",
            "an artefact, a quantifier and a copula, then its value",
        ),
    ),
    # "不使用 class 组件", "不能使用tab", "禁止引入 lodash": a prohibition of using an
    # alternative, beside the setting that replaces it.
    "forbid_use": (
        Pattern(
            "^(?:也|都|绝|一律|千万)?(?:不要|不能|不得|禁止|严禁|避免|不|别|勿)(?:再)?"
            "(?:使用|用|采用|引入)",
            "a prohibition of using an alternative",
        ),
    ),
    "negating_lead": (
        Pattern(
            "^(?:也|都|绝|从|永|尽量|尽可能|务必|一定|千万)?(?:不(?!确定|清楚|明白|同|足|断|久|仅|少|错|然|过|论|管|如|是|止)"
            "|别|勿|莫|没(?!有))",
            "不/别/勿 opening the clause",
        ),
    ),
    "replacement": (
        *phrases("""而是|改为|改用|改成|换成|代之以|取而代之|而要|而应|应该|应当|要先"""),
    ),
    "sufficing": (
        Pattern(
            r"能用(?P<thing>[^，,。；;]{2,30}?)(?:时|的时候|的情况下|就|则)",
            "'能用 X 时/就': the clause names what to use instead",
        ),
    ),
    # "用 `fetch('api/x')` 而不是 `fetch('/api/x')`": a code span set against another.
    "code_contrast": (
        Pattern(
            r"`[^`\n]+`\s*(?:[)）]\s*)?(?:[,，]\s*)?(?:而不是|而非|不是|不用)\s*`[^`\n]+`",
            "a code span, a word of contrast, another code span",
        ),
    ),
    # "组件放在 `src/components`，不是 `src/views`": the same verbless contrast in Chinese.
    "verbless_contrast": (
        Pattern(
            r"`[^`\n]+`[^`\n]{0,20}?[,，；—]\s*(?:而不是|而非|不是|不用)\s*`[^`\n]+`"
            r"[^，,。`\n]{0,4}[。.]?$",
            "a code span, a few words, a contrast, another code span ending the line",
        ),
    ),
    "ghost": ("再次", "再犯", "重蹈", "像上次", "又一次", "再也"),
    # ------------------------------------------------------------ external world
    "external": (
        *phrases("""用户|对方|客户|回复|消息|对话|提问|问到|聊天|请求|同事|老板|会议|邮件"""),
    ),
    # ------------------------------------------------------------ domain
    "artefact": (
        *phrases(
            """代码|测试|提交|文件|目录|依赖|接口|数据库|迁移|分支|日志|文档|注释|函数|
            模块|字段|命令|脚本|配置|版本|端口|密钥|环境变量|事务|查询|数据表|异常|类型|
            组件|页面|按钮|路由|缓存|中文|英文|简体|语言|框架|单元测试|回归测试|规范|
            设计|仓库|部署|服务器|防火墙|备份|权限"""
        ),
        # the Chinese names of the English artefact words (feature, variable, parameter ...)
        *phrases(
            """功能|变量|参数|对象|数组|字符串|服务端|客户端|前端|后端|移动端|界面|样式|
            图片|图标|表格|表单|链接|插件|依赖包|安装包|模型|提示词|工具|截图|环境|容器|
            队列|标题|段落|字体|颜色|主题|布局|动画|账号|账户|订单|支付|价格|报错|错误|
            漏洞|补丁|需求"""
        ),
        *phrases(
            """组件库|状态管理|常量|中间件|控制器|枚举|结构体|装饰器|泛型|线程|进程|协程|
            索引|主键|外键|视图|模板|导航|侧边栏|弹窗|对话框|菜单|列表|分页|图表|渲染|
            算法|数据结构|数据集|权重|单测|用例|断言|快照|注解|定时任务|消息队列|信号"""
        ),
        Pattern("[A-Za-z]{2,}", "a Latin name inside Chinese"),
    ),
    # "小驼峰", "下划线命名": a naming style names the convention itself.
    "naming_style": phrases("""小驼峰|大驼峰|驼峰|蛇形|下划线|短横线|中划线|全大写|帕斯卡"""),
    # "日报格式：标题 + 表格 + 总结": a label naming a format, whose value lists its parts.
    "format_label": (
        Pattern(
            "(?:格式|模板|模版|结构|版式|排版)$", "a label ending in a format word", bounded=False
        ),
    ),
    # "依赖漏洞扫描（cargo audit）": a head ending in the name of a practice done with a tool,
    # as an English "-ing" noun names one ("测试一直报错" ends in a state).
    "practice_end": (
        Pattern(
            "(?:扫描|格式化|检查|审计|校验|静态分析|测试|打包|构建|部署|发布|迁移|压测|监控)$",
            "a head ending in a practice",
            bounded=False,
        ),
    ),
    # A language named as a value ("主要语言：中文").
    "language_name": ("中文", "英文", "简体中文", "繁体中文"),
    # Evaluative words name a quality, not an object ("保持文档结构清晰和一致").
    "evaluative": (
        *phrases("""清晰|简洁|一致|规范|严谨|充分|合理|良好|优雅"""),
        Pattern("可读性?", "可读(性)"),
        Pattern("可维护性?", "可维护(性)"),
        *phrases(
            """整洁|认真|专业|礼貌|高效|准确|完整|稳定|美观|干净|直接|明了|的|地|得|和|
            与|及|或|要|都|也|很|尽量|保持|注意|原则|理念|思想|精神|最佳实践|良好|
            漂亮|简单|常见|常用|通用|完善|美观|负责|条理|责任心|细心|耐心|仔细|靠谱|
            优秀|完美|出色|明确|精简|清楚|易懂|友好"""
        ),
        # "保持专业判断", "注意分寸": an attitude kept, like "use judgement"; nothing acted on
        *phrases("""判断力|判断|分寸|态度|心态"""),
        # 更 'more' ("更清晰"), not the verbs 更新/更改/更换/更正/更名
        Pattern("更(?![新改换正名])", "更 'more', not 更新/更改"),
        # the other common words of code quality ("函数要短小精悍", "命名要有意义",
        # "使用语义化的命名", "代码应当易于维护", "模块要高内聚"): each names a quality
        *phrases(
            """短小精悍|短小|精悍|精炼|精练|简练|凝练|有意义|意义|语义化|见名知意|自解释|
            自描述|描述性|直观|易读|易用|易维护|易扩展|易测试|易理解|高内聚|低耦合|松耦合|
            内聚|健壮|鲁棒|稳健|可靠|灵活|可扩展|可复用|可测试|模块化|标准化|规范化|
            结构化|工整|清爽|向后兼容|高质量|优质|合规|符合规范|符合标准|符合要求|
            严格|彻底|周全|周到|全面|详实|详尽|健全|通俗易懂|一目了然|恰当|妥当|得当|
            高标准|高水准|高水平|职责单一|单一职责|更加|更为|非常|十分|足够|越来越|清楚明白|
            明白|有序|有条理|井然有序"""
        ),
        Pattern(
            "(?:易于|便于|利于|方便)(?:后期|日后|以后|后续)?(?:维护|理解|阅读|测试|扩展|复用|使用|修改)",
            "易于 X 'easy to X'",
        ),
        # "函数命名需清晰表达意图": the name shows its intent, which one is not said
        Pattern(
            "(?:清晰|准确|明确)?地?(?:表达|体现|反映)出?其?(?:意图|用途|含义|目的|职责)",
            "shows its intent",
        ),
        # "让代码更加通俗易懂": 让/使 'make' before the kept thing and its qualities
        Pattern("^(?:让|使(?![用得]))", "让 'make' opening what is asked, not 使用"),
    ),
    # "以首屏速度为优化目标": a goal to weigh, not an action.
    "goal": (
        Pattern(
            "以[^，。,；;]{1,20}?为(?:首要|主要|核心|最高|第一)?(?:优化)?"
            "(?:目标|优先|先|重|本|第一要务|首要任务|第一位)",
            "以 X 为目标 'take X as the goal'",
        ),
    ),
    # "合理使用 useMemo", "设置合适的缓存过期时间": what fits is left to judgement.
    # "使用正确的 UID/GID", "实现全面的监控": the object opens with an unnamed standard.
    "unnamed_standard": phrases(
        "正确的|全面的|恰当的|适当的|必要的|完善的|健全的|完备的|妥善的|高效的|合适的|最优的|最佳的"
    ),
    "vague_hedge": (
        Pattern("^(?:要|请|应)?(?:合理|适当|适时|酌情)(?:地)?|合适的|恰当的", "a hedge"),
        # "css尽量使用tailwindcss", "可以尝试调用 …": how far, or whether, is left to
        # judgement, as "as much as possible" leaves it; "尽量避免" is a prohibition's
        # adverb, judged as the prohibition
        Pattern(
            "(?:尽量|尽可能)(?!避免|不要|不|别|少)|可以尝试|可尝试", "尽量 'as far as possible'"
        ),
        # "测试覆盖率应保持在合理水平": a level left to judgement, with no number
        Pattern(
            "(?:保持|控制|维持|限制)在(?:合理|适当|合适|可接受)的?(?:水平|范围|区间|程度)",
            "保持在合理水平 'keep at a reasonable level'",
        ),
        # "该提醒的时候要提醒": 'do X when X is due' leaves the moment to judgement
        Pattern(
            "(?<![应活])该(?P<due>[^，。,；;]{1,4}?)的?时候[^，。,；;]{0,3}?(?P=due)",
            "该 X 的时候 … X 'do X when X is due'",
        ),
    ),
    # "用户喜欢简洁的回答": a preference described, not a direction.
    "preference": ("喜欢", "偏好", "倾向", "讨厌", "习惯", "希望", "想要"),
    # The people a direction addresses ("请询问我").
    "person": ("我们", "你们", "他们", "咱们", "我", "你", "您", "他", "她"),
    # "检查一下你的修改", "确保自己满意": a check of one's own work with no tool or
    # criterion, or one's own contentment.
    "own_work_check": (
        Pattern(
            "^[^`A-Za-z0-9]*?(?:(?:检查|审查|复查|检视|测试)(?:一下|一遍)?(?:你的|自己的)(?:修改|改动|工作|输出)"
            "|(?:确保|保证)(?:你|自己)(?:对(?:结果|修改|改动))?满意)$",
            "a check of one's own work, or one's own contentment, ending a clause naming no tool",
        ),
    ),
    # "把用户当作专家": a person treated as some role is an attitude, like "treat the
    # user as an expert"; nothing is acted on.
    "treated_person": (
        Pattern(
            "(?:把|将)(?:用户|客户|对方|我们|你们|我|你|您|他|她)(?:当作|当成|视为|看作|看成)",
            "a person taken as the object of 'treat as'",
        ),
    ),
    # "步步验证": a reduplicated character is an adverb, not an object.
    "reduplication": (Pattern(f"([{CJK}])\\1", "a character written twice"),),
    # "任务完成：…": a label naming a moment is the trigger.
    "event_label": (
        Pattern("(?:完成|结束|之前|之后|以前|以后|前|后|时)$", "a label ending in a moment"),
    ),
    # ------------------------------------------------------------ norms
    "limit": (
        Pattern(
            "(?:(?:不得|不能|不应|不可|不要|不)?超过|不多于|不少于|不低于|不高于|不大于|不小于|最多|"
            "至少|上限|最大)"
            "\\s*\\*{0,2}\\s*(?:\\d|[一二两三四五六七八九十百千][个行条项层次字段处]?)",
            "a bound word, then a number",
        ),
    ),
    # "保持代码简洁", "确保代码质量": keeping a generic part of the code in some quality.
    "quality_cue": (
        Pattern(
            "^(?:要|请|应该|需要|必须|务必|始终|优先|时刻|一定要)?"
            "(?:(?:尽量|尽可能)?(?:保持|确保|保证|注重|追求|做到)|尽量|尽可能)",
            "a verb of keeping a quality opening the clause",
        ),
    ),
    # "要写出高质量的代码": a verb of writing after a modal, before what is only qualities
    # of a generic part of the work.
    "making_verb": (
        Pattern(
            "^(?:写出|写好|编写|写|产出|打造|开发|具备|具有|拥有)", "a verb of writing or having"
        ),
    ),
    # "保持组件功能单一且聚焦": 保持 'keep' opening the clause takes an artefact, then
    # the qualities it should have (as "keep" does in English).
    "complement_cue": (
        Pattern(
            "^(?:要|请|应|应该|需要|必须|务必|始终)?(?:尽量|尽可能)?保持",
            "保持 'keep' opening the clause",
        ),
    ),
    # Qualities a kept artefact may be asked to have, and the 且 'and also' joining them.
    "complement_quality": (
        *phrases("""单一|聚焦|专注|精简|简短|小巧|轻量|且|并且|而且|同步|最新|一致|统一"""),
        # "保持文档与代码同步": kept in step with a generic part of the work, no named file
        Pattern(
            "(?:与|和|跟)(?:代码|实现|源码|代码库|文档|注释|测试)(?:保持)?(?:同步|一致)",
            "in step with a generic part of the work",
        ),
    ),
    # "提供清晰的错误提示", "返回明确的错误信息": a verb of producing, a quality, then the
    # artefact it qualifies; what makes it clear is not said.
    "quality_object_cue": (
        Pattern(
            "^(?:要|请|应|应该|需要|必须|务必|始终|总是)?(?:提供|给出|返回|生成|创建|添加)",
            "a verb of producing opening the clause",
        ),
    ),
    # "必须维护移动端兼容性": verbs that uphold or raise what follows; when that ends on
    # a quality, the words before it only say whose quality it is.
    "quality_verb": (
        Pattern(
            "^(?:要|请|应|应该|需要|必须|务必|始终|一定要|时刻)?(?:尽量|尽可能)?"
            "(?:保持|确保|保证|坚持|维持|维护|提升|提高|增强|改善|改进|优化|注重|兼顾|重视|加强)",
            "a verb of upholding or raising opening the clause",
        ),
    ),
    # "避免不必要的抽象": an object picked out only by a judgement of excess.
    "needless": phrases("不必要的|没必要的|多余的|冗余的|过多的|过度的"),
    # "优先最小化修改": a ranking cue puts something first; its object must be a named
    # thing (an artefact, a Latin name), not just any action or abstraction.
    "ranking_cue": phrases("优先|着重|重点"),
    # "可读性优先于灵活性": one quality set above another.
    "weighed_over": (Pattern("优先于|重于|胜于|高于", "X 优先于 Y 'X over Y'", bounded=False),),
    "quality_lead": phrases(
        """清晰|简洁|明确|详细|详尽|有意义|规范|友好|完善|一致|易读|可读|准确|完整|简短|
        简明|统一|合理|良好|优雅|整洁|干净"""
    ),
    "generic_code": (
        *phrases(
            """代码|函数|逻辑|结构|风格|命名|质量|整体|项目|程序|实现|方法|每次|功能|界面|
            设计|代码库|源码|架构|系统|软件|编码风格|代码风格|写法|每一行代码|变量名|函数名|
            代码组织|组织结构|组织|
            类名|方法名|变量|名称|名字|语气|语调|口吻|态度"""
        ),
    ),
    # "检查代码质量", "优化性能": a quality of the work named as the thing to act on.
    "quality_noun": (
        *phrases(
            """质量|安全性|安全|性能|正确性|准确性|稳定性|可靠性|健壮性|鲁棒性|一致性|
            可扩展性|扩展性|可测试性|复用性|可用性|效率|可读性|可维护性|维护性|简洁性|
            清晰度|整洁度|健壮度|兼容性|可移植性|可观测性|灵活性|内聚|耦合|类型安全|
            代码规范|规范性|完整性|容错性"""
        ),
    ),
    # Modals of obligation whose object is what follows them ("做事要认真").
    # "标题尽量简洁": 尽量 'as far as possible' takes what follows it as 要 does.
    "obligation": (
        *("要", "要有", "需有", "应有", "须有", "都有", "需", "只能", "仅能", "只可以"),
        # "代码应当易于维护": the modals of obligation take what follows as 要 does
        *("应当", "应该", "必须", "务必", "需要", "一定要", "应", "须"),
        *("尽量", "尽可能"),
    ),
    # Adverbs that lead a verb ("直接做", "先写测试"): the verb after them is the action.
    "adverb_cue": (*phrases("""直接|先|马上|立即|立刻|及时|主动|然后|再|始终|总是|一律|统一"""),),
    "sequence": ("再", "然后", "最后", "之后"),
    "details": (
        Pattern(
            "(?i:(?:详见|参见|参考|见)\\s*[`\\[]?[\\w./-]+\\.(?:md|json|txt|ya?ml))",
            "详见 <file>: where the rest is written",
        ),
    ),
    # The characters a details pointer is looked for beside (a cheap test before the
    # regex; the English one adds its colons).
    "details_cue": ("见",),
    # "项目都是 Vue 写的", "写不出守卫的": a clause that ends on 的 describes how things are.
    "descriptive_end": ("的",),
    # "可读性", "灵活性": a noun of quality, up to three characters and 性.
    "abstract_suffix": (Pattern(f"[{CJK}]{{1,3}}性", "a noun of quality ending in 性"),),
    # "跳过是给开发者的便利": the copula 是, not 是否 ("whether").
    "copula": (Pattern("是(?!否)", "是, not 是否"),),
    # "昨天重启了开发服务器", "项目创建于 2024 年": a verb marked done (了), or dated with
    # 于 and a number ("优先于 `-O3`" ranks).
    "perfective": (Pattern("了|于\\s*\\d", "了, or 于 before a number"),),
    # "在 `actions.py` 内做范围裁剪", "在 `src/api/` 下新增路由": the file or directory a
    # clause acts in, then (``verb``) the first characters of what it does there.
    "in_file": (
        Pattern(
            "在\\s*[\\w.-]*(?:(?:/[\\w.-]*)+|\\.[a-z]{1,5}\\b)\\s*(?:文件|目录)?\\s*(?:中|内|里|下)\\s*"
            "(?P<verb>[\\u4e00-\\u9fff]{1,2})",
            "在 <path> 内: where, then what to do there",
        ),
    ),
    # "已完成迁移", "有三个入口": after the place, a state, not an act done there.
    "placed_state": phrases("已|未|没|曾|正在|有|是|无"),
}
