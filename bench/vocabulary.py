"""Word lists the synthetic workloads draw from, in English and Chinese.

An agent's day is mostly errands about many different things; only some of them are
what a board line is about. The lists are long enough that a 100-line board covers
a minority of the subjects users talk about, and varied enough that messages rarely
repeat word for word (a judge that memoised whole texts would gain little).
"""

from __future__ import annotations


def _words(text: str) -> tuple[str, ...]:
    """The distinct whitespace-separated words of ``text``, in order."""
    return tuple(dict.fromkeys(text.split()))


SUBJECTS_EN: tuple[str, ...] = _words(
    """invoice contract deploy staging database migration newsletter roadmap budget payroll
    calendar flight hotel dashboard backup certificate firewall vendor onboarding interview
    hiring refund shipment warehouse forecast pricing churn survey webinar podcast slides
    press-release sprint retro incident outage latency cache index query schema changelog
    license audit compliance taxes expenses receipt reimbursement lease insurance dentist
    gym groceries recipe birthday anniversary gift playlist garden mortgage pension visa
    passport conference keynote workshop offsite headcount bonus promotion appraisal
    handbook wiki runbook alerting pager kubernetes terraform pipeline linter monorepo
    frontend backend api webhook sdk changelog translation localisation newsletter
    podcast-notes transcript minutes agenda quarterly okr kpi funnel cohort pitch
    investor grant proposal patent trademark domain dns email-signature printer laptop
    monitor keyboard headphones router vpn password-manager"""
)

SUBJECTS_ZH: tuple[str, ...] = _words(
    """发票 合同 部署 测试环境 数据库 迁移 周报 路线图 预算 工资 日程 机票 酒店 报表 看板
    备份 证书 防火墙 供应商 入职 面试 招聘 退款 物流 仓库 预测 定价 流失率 问卷 直播
    播客 幻灯片 新闻稿 迭代 复盘 事故 宕机 延迟 缓存 索引 查询 表结构 发布说明 许可证
    审计 合规 报税 报销 收据 租约 保险 体检 健身 买菜 菜谱 生日 纪念日 礼物 歌单 花园
    房贷 养老金 签证 护照 大会 演讲 工作坊 团建 编制 奖金 晋升 绩效 手册 知识库 值班
    告警 流水线 前端 后端 接口 回调 翻译 会议纪要 议程 季度目标 指标 漏斗 路演 投资人
    补贴 专利 商标 域名 打印机 笔记本 显示器 键盘 耳机 路由器 密码 快递 体检报告 年假
    加班 出差 差旅 采购 库存 对账 税务 开票 客服 工单 舆情 竞品 用户画像 埋点"""
)

VERBS_EN: tuple[str, ...] = (
    "check",
    "draft",
    "summarise",
    "update",
    "review",
    "schedule",
    "cancel",
    "book",
    "send",
    "compare",
    "fix",
    "look into",
    "prepare",
    "translate",
    "find",
    "list",
    "sort out",
    "archive",
    "remind me about",
    "double-check",
)

VERBS_ZH: tuple[str, ...] = (
    "查一下",
    "起草",
    "总结",
    "更新",
    "看看",
    "安排",
    "取消",
    "预订",
    "发一下",
    "对比",
    "修复",
    "跟进",
    "准备",
    "翻译",
    "找一下",
    "列出",
    "整理",
    "归档",
    "提醒我",
    "核对",
)

QUALIFIERS_EN: tuple[str, ...] = (
    "the",
    "our",
    "next week's",
    "the Berlin",
    "acme-corp's",
    "the old",
    "the new",
    "my",
    "the team's",
    "last month's",
    "the Q3",
    "tomorrow's",
)

QUALIFIERS_ZH: tuple[str, ...] = (
    "",
    "我们的",
    "下周的",
    "上海那边的",
    "客户的",
    "旧的",
    "新的",
    "团队的",
    "上个月的",
    "第三季度的",
    "明天的",
    "这个项目的",
)

FILLER_EN: tuple[str, ...] = (
    "it's for the meeting tomorrow",
    "no rush",
    "when you get a chance",
    "the numbers looked off last time",
    "Maria asked about it this morning",
    "keep it short",
    "I'll be offline after six",
    "ping me if anything is unclear",
    "we talked about this on Monday",
    "there might be a newer version in the shared drive",
    "let me know what you find",
    "the client is waiting on it",
)

FILLER_ZH: tuple[str, ...] = (
    "明天开会要用",
    "不着急",
    "有空的时候处理一下",
    "上次的数字好像不太对",
    "小王早上问过这个",
    "简单说一下就行",
    "我六点以后不在线",
    "有不清楚的地方问我",
    "周一的时候聊过",
    "共享盘里可能有新版本",
    "看完告诉我结论",
    "客户在等这个",
)

DIRECTIONS_EN: tuple[str, ...] = (
    "open with the blocker and its owner",
    "quote the failing frame first and propose one fix",
    "confirm the numbering against the template",
    "lead with the answer and keep courtesy to the close",
    "attach the source link next to every figure",
    "ask which time zone before proposing slots",
    "show the diff before applying anything",
    "list the three cheapest options in a table",
    "write it in plain sentences without jargon",
    "check the previous version for conflicts first",
    "state the deadline in the first line",
    "keep the reply under five bullets",
    "name the person who approved it",
    "flag anything older than thirty days",
    "round amounts to whole euros",
)

DIRECTIONS_ZH: tuple[str, ...] = (
    "先给结论再解释原因",
    "先读取错误信息再给出修复步骤",
    "先按纠正后的说法复述再回答",
    "附上原始链接",
    "用表格列出对比",
    "先确认时区再给时间",
    "只列三条要点",
    "金额保留到元",
    "写明截止日期",
    "标出负责人",
    "先检查上一版有没有冲突",
    "不要用术语",
    "超过三十天的标红",
    "先问清楚预算",
    "把风险放在最前面",
)

REPLIES_EN: tuple[str, ...] = (
    "Done, here is what I found",
    "I checked it and the figures match",
    "The draft is ready for your review",
    "I could not find a newer version",
    "Two items need your decision",
    "Everything is booked and confirmed",
    "I left a note in the shared folder",
)

REPLIES_ZH: tuple[str, ...] = (
    "已经处理好了，结论如下",
    "核对过了，数字没有问题",
    "草稿写好了，请看一下",
    "没有找到更新的版本",
    "有两件事需要你来决定",
    "都已经订好并确认了",
    "我在共享文件夹里留了备注",
)
