"""Chinese words naming the key terms durable instructions are made of (data only).

Matched as substrings of non-ASCII text (see :mod:`shared.weaver.concepts`).
"""

from __future__ import annotations

from shared.language.lexicon.concept import Entry

CONCEPTS: dict[str, tuple[Entry, ...]] = {
    "term:report": ("报告", "周报", "日报", "月报", "汇报"),
    "term:weekly": ("每周", "周报", "本周"),
    "term:summary": ("摘要", "总结", "概要", "小结"),
    "term:file": ("文件", "文档", "附件"),
    "term:table": ("表格", "数据表", "CSV", "csv"),
    "term:data": ("数据", "原始"),
    "term:email": ("邮件", "邮箱"),
    "term:message": ("消息", "信息"),
    "term:link": ("链接", "网址"),
    "term:attach": ("附上", "附带", "附加", "带上"),
    "term:answer": ("回复", "回答", "答复"),
    "term:send": ("发送", "发给", "发到", "分享"),
    "term:check": ("检查", "核对", "确认", "核实"),
    "term:translate": ("翻译",),
    "term:chines": ("中文", "汉语"),
    "term:english": ("英文", "英语"),
    "term:first": ("先", "之前", "首先"),
    "term:short": ("简短", "简洁", "一句话", "一句"),
    "term:list": ("列表", "要点", "列出"),
    "term:meet": ("会议", "开会"),
    "term:record": ("录音", "记录", "纪要", "笔记"),
    "term:group": ("群里", "群", "频道", "团队"),
    "term:price": ("价格", "报价", "多少钱"),
    "term:number": ("数字", "数据", "金额"),
    "term:test": ("测试",),
    "term:deploy": ("部署", "发布", "上线"),
    "term:commit": ("提交",),
    "term:date": ("日期", "截止"),
    "term:time": ("时区",),
    "term:source": ("来源", "出处"),
}
