"""``subcon report``: a static, self-contained HTML report of what the memory is doing.

``collector`` reads the kernel, the runtime and git into the typed records of
``model``; ``renderer`` turns them into ``index.html`` (Jinja2, autoescaped, inline CSS
and inline SVG from ``chart``) and ``report.json`` (the same records). ``overview``
(``subcon report --all``) reports every kernel of a cluster and writes an index page
over them. Read only.
"""
