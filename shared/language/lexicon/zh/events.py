"""Chinese markers the scanner judges events with (data only)."""

from __future__ import annotations

from shared.language.lexicon.concept import Entry, Marker, Pattern, phrases

CONCEPTS: dict[str, tuple[Entry, ...]] = {
    # A correction of what the agent did (first marker wins).
    "correction_marker": (
        Marker("不对", r"不对"),
        Marker("错了", r"错了|搞错|弄错|错误"),
        Marker("不是", r"(?<!是)不是(?!吗)"),
        Marker("我说过", r"我(?:说过|讲过|告诉过你|已经说)"),
        Marker("别再", r"别再|别"),
        Marker("不要", r"不要"),
        # 应该如何 / 应该怎么 ask how; they correct nothing.
        Marker("应该是", r"应该是|应该(?!如何|怎么|怎样)"),
        Marker("又", r"又"),
        Marker("重新", r"重新|重做|再来"),
        Marker("你忘了", r"你(?:忘了|没有|没)"),
        Marker("改成", r"改成|改为|换成|改用"),
        Marker("过时", r"过时|不用再|不再需要|取消了|作废"),
        # "vue才是标准" (Vue is the one): a correction; "这才是" is approval.
        Marker("才是", r"(?<![这那])才是"),
        Marker("为什么没", r"为什么(?:没|不|还没)"),
    ),
    # A standing instruction for every later occasion.
    "instruction_marker": (
        Marker("以后", r"以后|往后"),
        Marker("每次", r"每次|每当"),
        Marker("永远", r"永远|始终|总是"),
        Marker("记住", r"记住|记得|别忘了"),
        Marker("一律", r"一律|统一"),
        Marker("务必", r"务必|必须|一定要"),
        Marker("今后", r"今后|从现在开始|从今天起|下次"),
    ),
    # A stated preference.
    "preference_marker": (
        Marker("我喜欢", r"我(?:更|比较|不|不太)?喜欢|我讨厌|我不想要"),
        Marker("我希望", r"我希望|希望你"),
        Marker("我偏好", r"我(?:偏好|倾向|习惯)"),
        Marker("我要你", r"我要你|我想要你|我需要你"),
    ),
    # The user takes back their own earlier correction: the latest word wins.
    "retraction_marker": (
        Marker("算了", r"算了|当我没说|忽略我(?:刚才|之前|上面)|刚才(?:是我)?说错了"),
        Marker("我搞错了", r"(?:是)?我(?:搞错|弄错|看错|记错)了|你(?:是对的|说得对|没错)"),
    ),
    # Approval of what the agent did.
    "approval_marker": (Marker("正是", r"正是|没错|完美|很好|非常好|就是这样|对了|做得好"),),
    # Where a correction or instruction states the behaviour it wants (group 1).
    "wanted_marker": (
        Marker("别再/不要 ...", r"(?:^|[，,。；;！!：:]\s*)((?:别再|不要|别)\S.+)", rank=1),
        Marker("应该是 ...", r"应该是?(.+)", rank=6),
        Marker("而是/改成 ...", r"(?:而是|改成|改为|换成)(.+)", rank=7),
        Marker("请/记得 ...", r"(?:请|要|一律|务必|记得|记住)(.+)", rank=8),
    ),
    # The new direction of a direction change, in a reader's order (group 1).
    "new_direction_marker": (
        Marker("改成 ...", r"(?:以后改成|改成|改为|换成|改用)([^。！!；;\n]+)", rank=0),
        Marker("从现在开始 ...", r"(?:从现在开始|以后|今后)[，,]?([^。！!；;\n]+)", rank=6),
    ),
    # Messages made only of these are greetings or receipts (longest removed first).
    "greeting": phrases(
        """你好|您好|谢谢|多谢|感谢|收到|好的|好滴|嗯|早上好|早安|晚安|再见|拜拜|明白|
        知道了|了解|可以|行|好|哈|辛苦了|没问题|对|是的"""
    ),
    "question_form": (
        Pattern(
            "吗[？?。.!！]*\\s*$|[？?]\\s*$|什么|怎么|几点|多少|哪|谁|是不是",
            "a question particle, mark or word",
        ),
    ),
    "one_off": (
        *phrases("这次|这一次|这回|今天先|暂时|先这样"),
        Pattern(
            r"(?:以下|如下|下面)的?(?:修改|改动)|替换为以下",
            "a request scoped to the edits it lists",
        ),
    ),
    "lead_word": phrases("以后|今后|从现在开始|下次|记住|记得|请|务必|一律|另外|还有"),
    "obsolete": (
        *phrases("过时|已经取消|取消了|停掉了|停了|不再需要|已经不用"),
        Pattern("不用再\\S{0,8}了", "不用再 … 了 'no need to … any more'"),
        *phrases("作废|废弃|不再适用"),
    ),
    "redirect": phrases("以后改成|改成|改为|换成|改用|而不是|现在要|现在改|从现在开始"),
    "change": phrases("不要再|别再|以后不要|以后别"),
    # --- What the agent did (shared/weaver/scan/actions.py) ---
    "command_forbidden": (
        Pattern(
            r"不要|禁止|别|不用|避免|不得|不能|而不是|勿|不再|不准|不许",
            "a forbidding word: the command after it in the clause is not to be run",
            bounded=False,
        ),
    ),
    "speech:apology": (
        Pattern(
            r"道歉|抱歉|对不起|不好意思",
            "an apology",
            bounded=False,
        ),
    ),
    "step:test": (
        Pattern(
            r"(?:运行|跑|执行)(?:一下|所有|全部|单元)?测试|测试(?:必须|要|需要)通过",
            "running the tests",
            bounded=False,
        ),
    ),
    "step:lint": (
        Pattern(
            r"(?:运行|跑|执行)(?:一下)?(?:lint|代码检查|静态检查)",
            "running the linter",
            bounded=False,
        ),
    ),
    "step:format": (
        Pattern(
            r"(?:运行|执行)(?:一下)?(?:格式化|代码格式化)", "running the formatter", bounded=False
        ),
    ),
    "step:typecheck": (
        Pattern(r"(?:运行|执行)(?:一下)?类型检查", "running the type checker", bounded=False),
    ),
    "step:build": (
        Pattern(r"(?:运行|执行)(?:一下)?(?:构建|编译)", "running the build", bounded=False),
    ),
    "push_to": (
        Pattern(
            r"(?:推送|推|push)\s*(?:到|至)\s*$",
            "pushing to the branch that follows",
            bounded=False,
        ),
    ),
    "step:push": (
        Pattern(
            r"(?:提交后|之后|并|然后|立即|马上|及时)(?:立即|马上)?(?:推送|push)",
            "pushing the commits",
            bounded=False,
        ),
    ),
    "situation:commit": (
        Pattern(
            r"(?:提交|commit)(?:代码)?(?:之前|前|时|以前|之后|后)|(?:每次|所有的?)(?:提交|commit)",
            "a situation that is committing",
            bounded=False,
        ),
    ),
    "situation:push": (
        Pattern(
            r"(?:推送|push|提\s*PR)(?:之前|前|时)", "a situation that is pushing", bounded=False
        ),
    ),
    "durable_marker": (
        Pattern(
            # 每次 / 每当 are left out: a product spec says "每次点击…都要…" of the app.
            r"以后|今后|往后|从现在(?:开始|起)|从今(?:天|往后)起?|下次|永远|始终|"
            r"一律|记住|记得|别忘了|不要忘(?:记|了)|我(?:更|比较)?(?:喜欢|偏好|习惯)|"
            # 需要修复 lint 错误时…: a standing situation of its own.
            r"(?:每当|在)?需要[^，。！？\n]{1,15}(?:时|的时候)|我不喜欢",
            "words that make an instruction standing",
            bounded=False,
        ),
        Pattern(
            r"(?:写|加|记|添加|更新)(?:进|入|到|在)?[^。！？\n]{0,12}?"
            r"(?:规则|记忆|CLAUDE\.md|AGENTS\.md|\.cursorrules|规范)",
            "a request to write the instruction down as a rule",
            bounded=False,
        ),
    ),
    "memory_request": (
        Pattern(
            r"[，,；;]?\s*(?:请)?(?:记住|记下来|记下|写进规则)(?:这一?条|这个|这点|这件事)?"
            r"(?:[，,]\s*(?:以后|今后)(?:都|也)?(?:这样做?|照做|如此|这样))?",
            "asking to remember the rule, which is not the rule",
            bounded=False,
        ),
    ),
    "no_confirmation": (
        Pattern(
            r"(?:无需|不需要|不用|不必)(?:额外|再|向我)?(?:确认|询问|请示)|直接(?:更新|执行|修改|做)",
            "the line says to act without asking for confirmation",
            bounded=False,
        ),
    ),
    "agent_offer": (
        Pattern(
            r"(?:需要我|要不要我|是否需要我|要我|下一步可以|接下来可以|您可以)[^。！]{0,200}[？?：:]?\s*(?:\S{0,40})$",
            "an offer of the next step, closing the reply",
            bounded=False,
        ),
    ),
    "inspection_request": (
        Pattern(
            r"检查|审查|审阅|核对|看看|看一下|看下|确认一下",
            "asking to look over what exists",
            bounded=False,
        ),
    ),
    # A list item that states a requirement of the task it belongs to.
    "requirement_item": (
        Pattern(
            r"^\W*(?:不要|别|无需|不用|不需要|禁止|避免|去掉|取消)|而不是",
            "a list item stating a requirement",
            bounded=False,
        ),
    ),
    "say_verb": (
        # Not what the person says: 用户说 / 他说 quote them.
        Pattern(
            r"(?<!用户)(?<![他她])(?:说|回复|回答|回应|答复)|开头",
            "saying given words",
            bounded=False,
        ),
    ),
    "anaphoric_request": (
        Pattern(
            r"(?:这样|这么|照此|如此)(?:做|办|处理)|记住(?:这|那)(?:个|点|一点|条)?",
            "a request that points back at what was discussed",
            bounded=False,
        ),
    ),
    "rule_reference": (
        Pattern(
            r"(?:这|那|该|这些|那些)(?:条|个|项)?(?:规则|规范|约定|指令)",
            "pointing at the rule just discussed",
            bounded=False,
        ),
    ),
    "paste_lead": (
        Pattern(
            r"(?:如下|以下|下面|下方|输出|日志|报错|文档)(?:内容|信息)?\s*[:：]\s*$",
            "a line handing over pasted text",
            bounded=False,
        ),
    ),
    "conventional_commits": (
        Pattern(
            r"约定式提交|语义化提交|规范化提交", "the Conventional Commits form", bounded=False
        ),
    ),
    "file_write": (
        Pattern(
            r"更新|添加|写入|写到|记录|追加|修改|编辑|同步|保存",
            "writing or updating a file",
            bounded=False,
        ),
    ),
}
