"""Chinese phrases of the runtime's own cadence that the inner-outer gate looks for (data only)."""

from __future__ import annotations

from shared.language.lexicon.concept import Entry, Pattern, phrases

CONCEPTS: dict[str, tuple[Entry, ...]] = {
    "internal_source": (
        Pattern(
            "(?:内部|节律|系统事件|系统消息|系统日志|心跳|网关|路由|运行器|调度器|元会话|cadence)"
            "[^，。,.]{0,8}?(?:显示|表明|输出|报告|称|说|提示|指出|认为)",
            "an internal runtime kind, then a verb of reporting",
        ),
        Pattern(
            "(?:根据|来自|据|基于)(?:内部|节律|系统事件|系统日志|心跳|网关|运行器|调度器|元会话)",
            "'according to' an internal runtime kind",
        ),
    ),
    "external_ground": (
        Pattern("用户(?:说|表示|明确|要求|提到|写|亲口|确认|反馈)", "the user's own words"),
        *phrases("渠道|外部|用户消息|飞书"),
    ),
    "heartbeat": (
        "心跳",
        # what waits for the runtime's next tick ("非紧急事项留到下次巡检")
        Pattern("下一?次(?:巡检|唤醒|例行检查)", "the runtime's next tick", bounded=False),
        Pattern(
            "每(?:隔)?\\s*\\d+\\s*(?:分钟|小时|秒)", "the runtime's own clock ('每30分钟检查一次')"
        ),
        Pattern(
            "距(?:离)?[^，。,]{0,6}?上(?:一)?次(?:检查|巡检|抽查|扫描|心跳|唤醒|运行|发言|消息|联系|"
            "互动|回复)[^，。,]{0,12}?(?:>=?|≥|超过|大于|已过|满)\\s*\\d+\\s*(?:分钟|小时|天)",
            "time elapsed since the runtime's last check or contact ('距上次抽查 >= 4小时')",
        ),
        # a tick of the runtime's own as the situation ("每次唤醒时…", "定时巡检", "15分钟定时
        # 汇报"); "每次提交前" is the project's own moment, no tick; a bare 巡检 or 定时任务
        # may be the product's domain
        Pattern(
            "每(?:次|轮)(?:被)?(?:唤醒|醒来|心跳|巡检|轮询)|(?:被)?唤醒(?:时|后)|轮询(?:时|到)"
            "|(?:定时|例行|自动)(?:巡检|自检|汇报|唤醒)|\\d+\\s*(?:分钟|小时)(?:一次|/次|定时)"
            "|定时任务(?:触发|唤醒)(?:时|后)|无事(?:可做|发生)?时回复",
            "a tick of the runtime's own as the situation",
            bounded=False,
        ),
    ),
    "schedule": (
        *phrases("每天|每日|每晚|每周|每星期|每小时|每个小时|每天晚上|每天早上|定期|定时"),
    ),
    # a fixed clock of the runtime's own opening the line, after an optional field label
    # ("每天 22:05 发送日报", "**触发条件：** 每天晚上睡前 …"); 每个/每次 are not clocks
    "clock_lead": (
        Pattern(
            "^\\W*(?:[^：:，。,]{1,8}[：:]\\W*)?(?:每天|每日|每晚|每周|每星期|每月|每个月|每季度|每年"
            "|每小时|每个小时|每逢周.)",
            "a fixed clock of the runtime's own as the situation",
            bounded=False,
        ),
    ),
    # an interval of the project's own code ("失败的回调每 5 分钟重试一次")
    "project_interval": phrases("重试|过期|缓存|超时|限流|防抖|节流|刷新令牌"),
    "project_schedule": phrases("ci|流水线|持续集成|依赖|安全扫描|漏洞"),
    "self_check": phrases("检查|巡检|扫描|查看|清理|整理|复查|回顾|自检|抽查|盘点"),
    "check_lead": (
        Pattern(
            "^\\W*(?:\\d+[.、)]\\s*)?(?:检查|巡检|扫描|查看|看看|看|确认|核对|清理|清空|删除|归档|轮转)",
            "a check opening the line",
            bounded=False,
        ),
    ),
    # what the runtime's own health sweep looks over: its services' and channels' state,
    # its model config, its failed tasks, unanswered messages, the sweep's window
    "sweep_target": (
        Pattern(
            "(?:gateway|channel|agent|网关|渠道|通道|频道|服务|代理|机器人)[^，。,]{0,24}?"
            "(?:状态是否(?:正常|异常)|是否(?:健康|在线|离线|宕机|正常运行))"
            "|模型配置|模型设置|失败(?:的)?(?:任务|作业)"
            # what the user is to be reminded of: reminders, to-dos, what is due
            "|即将(?:到期|截止|开始)|(?:到期|逾期|过期|临近截止)(?:的)?(?:提醒|待办|任务|事项|日程)|提醒事项"
            "|待办(?:事项)?|日程|日历(?:提醒|事件)?|截止(?:日期|时间)"
            "|未读(?:的)?[^，。,；;]{0,4}?消息|未回复(?:的)?[^，。,；;]{0,4}?消息|邮箱"
            "|最近\\s*\\d+\\s*(?:分钟|小时)",
            "what the runtime's own health sweep looks over",
            bounded=False,
        ),
    ),
    # what to do when the sweep finds something ("如果有异常：给出一句结论 + 一条修复建议"):
    # a condition with no subject of its own, then a verdict or an alert
    "sweep_finding": (
        Pattern(
            "^\\W*(?:\\d+[.、)]\\s*)?(?:如果|若|一旦)?(?:有|发现|出现|存在)(?:任何)?(?:异常|问题|告警)"
            "\\s*(?:[，,:：—]|->|→)[^。；;]{0,20}?(?:结论|告警|汇报|提醒|报告|通知)",
            "what to do when the sweep finds something: a verdict or an alert",
            bounded=False,
        ),
        # the sweep's outcome as the condition ("一切正常时保持安静", "无异常则结束本轮")
        Pattern(
            "^\\W*(?:\\d+[.、)]\\s*)?(?:如果|若)?(?:一切|全部|均|都)正常(?:时|则|的话)"
            "|^\\W*(?:\\d+[.、)]\\s*)?(?:如果|若)?(?:无|没有)(?:任何)?(?:新)?(?:异常|情况|待办|事项)"
            "(?:时|则|的话)",
            "the sweep's outcome as the condition",
            bounded=False,
        ),
    ),
    # "把工作区的改动推送到远程": the runtime syncing its own workspace with a remote.
    "workspace_changes": (
        Pattern(
            "(?:工作区|工作空间)(?:中|里|内)?的?(?:改动|变更|更改|修改)",
            "changes to the runtime's own workspace",
            bounded=False,
        ),
    ),
    "remote_sync": (Pattern("推送|拉取|同步到远程|从远程", "a push or pull", bounded=False),),
    "runtime_store": (
        Pattern(
            "队列|收件箱|积压|状态文件|最近的?(?:错误|报错|告警|异常|日志)|(?:旧|过期|历史)日志"
            "|\\d+\\s*(?:天|小时|周)(?:前|以前|之前)的",
            "the runtime's own queue, tasks, state, recent errors or old logs",
            bounded=False,
        ),
    ),
    # what the runtime tells its user on its own clock ("优先推送紧急的待办事项", "提醒用户
    # 即将到期的日程"); "推送代码前先跑测试" names no such thing
    "notify_routine": (
        Pattern(
            "^\\W*(?:\\d+[.、)]\\s*)?(?:优先)?(?:推送|提醒|通知|汇报|告知|播报|提示)[^，。,；;]{0,12}?"
            "(?:紧急|逾期|到期|即将|待办|提醒事项|未读|日程|截止)"
            "|^\\W*(?:\\d+[.、)]\\s*)?(?:整理|生成|发送|汇总)(?:一份)?(?:每日|今日|早间|晚间)?(?:简报|摘要|日报)",
            "what the runtime tells its user on its own clock",
            bounded=False,
        ),
    ),
    # what it keeps of its own deliveries ("已推送过的提醒不要重复推送")
    "delivery_mark": (
        Pattern(
            "(?:已|已经|之前|上次|上一次)(?:推送|提醒|通知|汇报|报告|告知)过?的(?:条目|事项|提醒|消息|内容|"
            "待办|告警)",
            "the routine's record of what it delivered",
            bounded=False,
        ),
    ),
    # a token budget the runtime spends on its own work ("剩余 = 0 时彻底停止")
    "budget_stop": (
        Pattern(
            "剩余\\s*(?:[=<>≤≥]|为\\s*0|不足)|(?:token|令牌)\\s*(?:预算|余量|剩余|用量)|预算(?:用完|耗尽|不足)",
            "the runtime's own token budget",
            bounded=False,
        ),
    ),
    # the runtime's own review of its day on its clock ("每晚睡前统一复盘一轮")
    "self_review": phrases("复盘|回顾今天|回顾当天|反思|自我检查|自检"),
    # The heartbeat named, beside the bare intervals "heartbeat" also reads as one.
    "heartbeat_word": ("心跳",),
    # "上下文使用率超过 80%": a threshold on what the tick measures.
    "threshold": (Pattern("(?:超过|低于|高于|大于|小于)\\s*\\d", "above / below a number"),),
}
