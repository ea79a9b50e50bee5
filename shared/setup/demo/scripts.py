"""What the synthetic users and agent say in the demo spine, per demo board line.

Each board line gets triggers (the user presents the line's cue), replies that follow
the line, replies that miss it, the user's correction in a later turn and the repaired
reply. Standing instructions and small talk that no board line covers come last.
Texts are data only: the generator picks variants with its seeded RNG.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

Channel = Literal["stdio", "alice", "team"]


@dataclass(frozen=True)
class LineScript:
    """A conversation pattern that exercises one board line (by its marker slug)."""

    slug: str
    channel: Channel
    triggers: tuple[str, ...]
    good: tuple[str, ...]
    bad: tuple[str, ...]
    corrections: tuple[str, ...]
    repaired: tuple[str, ...]
    # The user changes the line's direction (labelling "direction changed"): the new
    # behaviour in the user's words, then the agent's reply that follows it.
    changes: tuple[str, ...] = ()
    changed: tuple[str, ...] = ()
    # The user retires the practice (labelling "obsolete"), and the agent's receipt.
    retirements: tuple[str, ...] = ()
    retired: tuple[str, ...] = ()


@dataclass(frozen=True)
class Instruction:
    """A durable standing instruction that no demo board line covers (NEW_SIGNAL)."""

    key: str
    channel: Channel
    texts: tuple[str, ...]
    acks: tuple[str, ...]


LINE_SCRIPTS: Final = {
    s.slug: s
    for s in (
        LineScript(
            "lesson-reply-first",
            "stdio",
            (
                "Did the nightly export to the finance bucket finish?",
                "Is the invoice PDF generator fixed on main yet?",
            ),
            (
                "Yes, the export finished at 02:14 and wrote 18 files to s3://finance-exports/.",
                "Yes: the fix landed in a3f9e21; main generates the PDFs again. Happy to help.",
            ),
            (
                "Great question, and thanks so much for checking in! I'd be glad to look into "
                "that for you. After reviewing everything, it seems the export did finish.",
                "Thank you for your patience! That's a really good thing to ask about. Let me "
                "walk you through it: the generator was fixed.",
            ),
            (
                "No, skip the pleasantries and lead with the answer.",
                "You keep opening with filler. First sentence = the answer.",
            ),
            (
                "Finished at 02:14; 18 files in s3://finance-exports/.",
                "Fixed in a3f9e21; main is green.",
            ),
        ),
        LineScript(
            "lesson-chinese-reply-language",
            "team",
            (
                "这个接口的超时时间是多少？",
                "为什么 refund 服务昨晚重启了？",
            ),
            (
                "结论：超时时间是 30 秒（timeout=30s），在 gateway 配置里。",
                "结论：内存超限被 OOM killer 重启（OOMKilled），已提 issue 跟进。",
            ),
            (
                "The timeout is 30 seconds, configured in the gateway settings.",
                "It restarted because the container hit its memory limit (OOMKilled).",
            ),
            (
                "不对，请用中文回答，我们群里都用中文。",
                "不对，中文提问就用中文回答。",
            ),
            (
                "好的：超时时间是 30 秒（timeout=30s）。",
                "好的：是内存超限导致的重启（OOMKilled）。",
            ),
        ),
        LineScript(
            "groove-feishu-status-update",
            "alice",
            (
                "billing 改版现在进展怎么样？",
                "Quick status update on the refund flow?",
            ),
            (
                "- 已完成：发票模板和税率表迁移\n- 阻塞：支付网关沙箱账号（Bob 在申请）\n"
                "- 下一步：周三联调",
                "- 已完成：退款审批接口\n- 阻塞：无\n- 下一步：灰度 10% 流量",
            ),
            (
                "So far we migrated the invoice templates, and we are waiting on the sandbox "
                "account, and after that there is integration testing planned for Wednesday.",
                "The refund flow is going fine overall, a few things are done and a few remain.",
            ),
            (
                "不是这个格式：用中文，按 已完成 / 阻塞 / 下一步 三点写。",
                "又忘了三点格式：已完成、阻塞、下一步。",
            ),
            (
                "- 已完成：发票模板迁移\n- 阻塞：沙箱账号（Bob）\n- 下一步：周三联调",
                "- 已完成：退款审批接口\n- 阻塞：无\n- 下一步：灰度 10%",
            ),
        ),
        LineScript(
            "groove-pr-review",
            "stdio",
            (
                "Can you review PR #482 (invoice rounding)?",
                "Please review the diff on branch feat/refund-limits.",
            ),
            (
                "Ran `make test`: test_invoice_rounding_half_even fails. Main finding: the "
                "rounding helper uses ROUND_HALF_UP.",
                "Ran `make test`: all 412 tests pass. Findings: the limit check skips zero "
                "amounts.",
            ),
            (
                "Looks good to me overall; the rounding change reads fine. LGTM.",
                "The diff looks reasonable, nice cleanup. Approving.",
            ),
            (
                "You didn't run the tests: CI shows test_invoice_rounding_half_even failing.",
                "Why did you approve without running the suite? test_refund_limit_zero fails.",
            ),
            (
                "Sorry: `make test` fails in test_invoice_rounding_half_even; requesting changes.",
                "Confirmed: test_refund_limit_zero fails; requesting changes.",
            ),
        ),
        LineScript(
            "lesson-confirm-destructive",
            "stdio",
            (
                "Clean up the old build artifacts under /srv/builds.",
                "Remove the stale log files from the staging box.",
            ),
            (
                "These 37 paths would be deleted (dry run below): /srv/builds/2025-10-*. "
                "Reply yes to proceed.",
                "Dry run lists 12 files under /var/log/app/*.log.1. Delete them? (yes/no)",
            ),
            (
                "Done, I ran rm -rf /srv/builds/* and freed 14 GB.",
                "Deleted all rotated logs in /var/log/app.",
            ),
            (
                "Wrong: you deleted them without asking! List the exact paths and wait for my yes.",
                "No, that removed the current log too. List the paths and ask first.",
            ),
            (
                "Understood. From now on I list the exact paths and wait for your yes.",
                "Sorry. Next time: dry run, exact paths, then your confirmation.",
            ),
        ),
        LineScript(
            "groove-deploy-check",
            "team",
            (
                "把 billing 服务部署到生产环境。",
                "refund-api 可以发布了，帮我上线。",
            ),
            (
                "先看了 staging：/healthz 正常，最近一小时错误率 0.1%。"
                "已发布到生产，记录：deploy #311。",
                "staging 健康检查通过，错误率正常，已发布 refund-api，记录：deploy #312。",
            ),
            (
                "已直接发布到生产环境。",
                "好的，refund-api 已上线。",
            ),
            (
                "不对，发布前要先检查 staging 的健康状态。",
                "你没看 staging 就发布了？先检查健康状态。",
            ),
            (
                "已补查 staging：/healthz 正常，错误率 0.1%，以后先查再发。",
                "补查完毕：staging 健康，错误率正常。下次先检查再发布。",
            ),
        ),
        LineScript(
            "lesson-timezone-restate",
            "alice",
            (
                "Book the sync with the Berlin team for 3pm Thursday.",
                "明天 10 点和供应商开会，帮我约一下。",
            ),
            (
                "3pm Thursday = 15:00 Asia/Shanghai = 07:00 UTC (08:00 Berlin). Booking that?",
                "明天 10:00 Asia/Shanghai = 02:00 UTC，确认按上海时间预约吗？",
            ),
            (
                "Booked for Thursday 15:00.",
                "已预约明天 10:00。",
            ),
            (
                "Wrong time: I meant 3pm Shanghai time, you booked it in UTC.",
                "时区错了，要先用 Asia/Shanghai 和 UTC 重述时间再预约。",
            ),
            (
                "Moved to 15:00 Asia/Shanghai (07:00 UTC).",
                "已改为 10:00 Asia/Shanghai（02:00 UTC）。",
            ),
        ),
        LineScript(
            "groove-weekly-report",
            "alice",
            (
                "周五了，帮我整理一下这周的周报。",
                "帮我把本周进展整理成周报。",
            ),
            (
                "【billing】完成发票模板迁移 (#482)\n【refund】审批接口上线 (#497)\n下周计划：联调",
                "【billing】税率表迁移 (#476)\n【refund】灰度方案评审 (#501)\n下周计划：灰度",
            ),
            (
                "本周完成了发票模板迁移、审批接口上线和灰度评审。",
                "这周主要做了 billing 和 refund 的一些工作。",
            ),
            (
                "不对，要按项目分组，并且附上 issue 链接。",
                "你忘了按项目分，还有每条的 issue 链接呢？",
            ),
            (
                "【billing】发票模板迁移 (#482)\n【refund】审批接口 (#497)",
                "【billing】税率表 (#476)\n【refund】灰度评审 (#501)",
            ),
            retirements=("周报已经取消了，不用再整理周报了。",),
            retired=("好的，不再整理周报。",),
        ),
        LineScript(
            "lesson-design-doc-decisions",
            "alice",
            ("Here is the refund-v2 design doc: https://docs.example.com/refund-v2, thoughts?",),
            (
                "Open decisions: 1) sync vs async approval, 2) who owns the limit table. "
                "Summary after that.",
            ),
            ("The doc describes a new refund flow with approvals and limits. Looks solid.",),
            ("Not what I asked: I needed the open decisions first, not a summary.",),
            ("Open decisions: sync vs async approval; ownership of the limit table.",),
            changes=(
                "We no longer want the open decisions up front, start with the risks the doc "
                "names instead.",
            ),
            changed=("Risks the doc names: approval latency at peak, limit table drift.",),
        ),
    )
}

INSTRUCTIONS: Final = {
    i.key: i
    for i in (
        Instruction(
            "incident-grafana",
            "stdio",
            (
                "From now on, when you report an incident, always attach the Grafana dashboard "
                "link.",
                "From now on, when you report an incident, include the Grafana dashboard link.",
            ),
            ("Noted: incident reports will include the Grafana dashboard link.",),
        ),
        # The same instruction in Chinese, in another session: it recurs (labelling
        # "Paraphrase and language").
        Instruction(
            "incident-grafana-zh",
            "team",
            ("以后汇报故障时，请附上 Grafana 仪表盘的链接。",),
            ("收到，以后汇报故障都附上 Grafana 链接。",),
        ),
        Instruction(
            "amounts-two-currencies",
            "alice",
            (
                "以后提到金额时，请同时给出人民币和美元。",
                "以后金额都写成人民币加美元两种。",
            ),
            ("好的，以后金额同时写人民币和美元。",),
        ),
        Instruction(
            "commit-imperative",
            "stdio",
            ("From now on, write commit messages in the imperative mood.",),
            ("Will do: imperative commit subjects from now on.",),
        ),
        Instruction(
            "minutes-to-channel",
            "team",
            ("以后周会纪要统一发到 #team-sync 频道。",),
            ("收到，以后纪要发到 #team-sync。",),
        ),
    )
}

SMALL_TALK: Final[tuple[tuple[Channel, str, str], ...]] = (
    ("stdio", "hi", "Hi! What are we working on?"),
    ("stdio", "thanks, that's all for today", "Good night."),
    ("alice", "早上好", "早上好！"),
    ("alice", "收到，谢谢", "不客气。"),
    ("team", "👍", "👍"),
    ("stdio", "ok", "Ok."),
)

META_RESULTS: Final = (
    "NO_NEW_GRADIENT: no external evidence changed memory.",
    "UPDATED: memory/CLAUDE.md:L4 kept; reply filler lesson strengthened (2 new).",
    "NO_NEW_GRADIENT",
    "Committed: 4c1d2e9 (2 files). memory(intuition): sharpen the 部署 staging check line.",
    "UPDATED: effectiveness refreshed for the timezone lesson; status update groove kept.",
)

ROUTE_SUMMARIES: Final = (
    "Daily digest: 3 open incidents, billing status update ready for Alice.",
    "每日摘要：2 个待处理事项，周报草稿已生成。",
)
