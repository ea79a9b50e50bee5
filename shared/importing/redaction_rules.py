"""What :mod:`shared.importing.redaction` takes out of a text (data only).

Each :class:`Rule` is one way a credential shows: the kind it is reported as, where its
pattern comes from (a regex written here, or a detect-secrets plugin's ``denylist``
named ``detect-secrets:<Plugin>`` or ``detect-secrets:<Plugin>#<index>``), the
literals that say where to try it (the prefilter), what of the match is the secret and
how it is checked, and beside it the texts it must redact (``examples``) and the ones
it must leave alone (``near_misses``); the tests run every one. Shapes not in
detect-secrets follow gitleaks' rules (``config/gitleaks.toml``), chosen for what a
coding agent's transcript holds: AI providers' keys, cloud and CI tokens, headers, URLs
and ``.env`` files.

Rules are listed from the most specific to the most generic: where two matches overlap,
their union is redacted once, under the kind of the rule listed first.

The examples are made up. :func:`fake` builds a value of the right shape (prefix,
length, alphabet) from a hash, so no source line holds anything resembling a live key.
"""

from __future__ import annotations

import hashlib
import re
import string
from dataclasses import dataclass

ALNUM = string.ascii_letters + string.digits
URLSAFE = ALNUM + "_-"
BASE64 = ALNUM + "+/"
HEX = "0123456789abcdef"
# A token's characters after a fixed-length match: a token longer than its pattern says
# is taken out whole rather than leaving its tail behind.
TAIL = r"[A-Za-z0-9_-]*"


def fake(prefix: str, n: int, alphabet: str = ALNUM, seed: str = "") -> str:
    """``prefix`` and ``n`` characters of ``alphabet``, the same on every call: a
    made-up credential of the right shape (the characters are picked by a hash)."""
    out: list[str] = []
    counter = 0
    while len(out) < n:
        digest = hashlib.sha256(f"{prefix}|{seed}|{counter}".encode()).digest()
        out.extend(alphabet[b % len(alphabet)] for b in digest)
        counter += 1
    return prefix + "".join(out[:n])


@dataclass(frozen=True)
class Rule:
    """One way a credential shows.

    ``source`` is a regex, or ``detect-secrets:<Plugin>[#<i>]`` (all of the plugin's
    ``denylist`` patterns, or the i-th). ``token`` rules match a token: their match lies
    in a run of 20 or more token characters (letters, digits, ``_+/=.~:-``) that holds
    one of the ``triggers``, and only such runs are searched. The other rules match
    where one of their ``triggers`` starts. Triggers are lowercase and found case-blind.
    ``group``: the groups that may hold the secret, the first that took part in the
    match wins (0: all of it). ``bounded``: the match must not start inside a word (no
    ASCII letter or digit just before it). ``tail``: a regex the secret is extended by
    (the rest of a token). ``check`` names the test a value must pass (see
    ``redaction.CHECKS``): ``value`` (an assignment: not a placeholder, a reference or a
    path, and random or long enough), ``token`` (the same for a header value), ``url``
    (not a placeholder), ``jwt`` (detect-secrets' structure check), ``basic`` (base64
    of ``user:password``) and ``random`` (letters and digits). ``note`` says what the
    rule adds to detect-secrets or why it replaces one of its patterns.
    """

    kind: str
    source: str
    triggers: tuple[str, ...]
    examples: tuple[str, ...]
    near_misses: tuple[str, ...] = ()
    group: tuple[str | int, ...] = (0,)
    bounded: bool = False
    tail: str = ""
    check: str = ""
    token: bool = True
    note: str = ""


# --------------------------------------------------------------------- shapes
_PEM_LABEL = r"[ A-Z0-9_-]{0,40}PRIVATE KEY(?: BLOCK)?"
# A key's body: base64 lines and "Name: value" header lines (Proc-Type, PuTTY's
# Encryption/Comment/Public-Lines...), separated by whitespace or JSON's "\n" escapes
# (escaped once or more: JSON inside a JSON string).
# Possessive, so a body that never reaches its END line costs one pass.
_PEM_BODY = r"(?:(?:\s|\\++[nrt])*+(?:[A-Z][A-Za-z-]*+:[ \t][^\r\n\\]*+|[A-Za-z0-9+/=]++))*+"
PRIVATE_KEY = (
    rf"(?:-{{4,5}} ?BEGIN{_PEM_LABEL} ?-{{4,5}}|PuTTY-User-Key-File-\d+:[^\r\n\\]*)"
    rf"{_PEM_BODY}"
    rf"(?:(?:\s|\\++[nrt])*+-{{4,5}} ?END{_PEM_LABEL} ?-{{4,5}})?"
)

# An assignment's label is a keyword inside an identifier (DB_PASSWORD, clientSecret,
# "api-key"); detect-secrets' KeywordDetector.DENYLIST is the core list (a test keeps it
# covered), with "token", "credential", "passphrase", "access key" and a bare "pass" or
# "pwd" (not inside a word: "bypass", "passport") added. Each is written to start where
# its trigger does ("key" with what precedes it as lookbehinds), as matches are tried
# only there.
_KW_PASSWORD = (
    r"pass(?:w(?:or)?d|phrase)"
    # "--- PASS: TestImport/bash (0.00s)": go test's verdict on a (sub)test, not a label
    r"|(?:(?<![a-z])(?!(?<=--- )(?-i:PASS: (?:Test|Example|Benchmark|Fuzz)[A-Z_0-9]))"
    r"|(?<=db)|(?<=database)|(?<=key))pass(?![a-z])"
    r"|(?<![a-z])pwd(?![a-z])"
    r"|contrase(?:ñ|n)a"
)
_KEY_OWNERS: tuple[str, ...] = ("api", "auth", "service", "account", "db", "database")
_KEY_OWNERS += ("priv", "private", "client", "access")
_KW_API_KEY = "(?:" + "|".join(f"(?<={w}{s})" for w in _KEY_OWNERS for s in ("", "_", "-")) + ")key"
_KW_SECRET = r"secret|token|credentials?"
_CJK_PASSWORD = r"密码|口令"
_CJK_SECRET = r"密钥|秘钥|私钥|令牌"
# After the keyword: the rest of the identifier, closing quotes or brackets (JSON keys,
# escaped JSON, ['password']), the operator.
_REST = r"(?P<rest>[A-Za-z0-9_.-]{0,30})(?:\\?[\"'`\]]){0,2}[ \t]{0,4}"
# "password is X" in prose counts too, weakly (the value must look random).
_SEP = r"(?P<sep>:=|=>|={1,3}|:|：|(?<=[ \t])is(?=[ \t]))[ \t]{0,4}"
_CJK_SEP = r"[ \t]{0,2}(?:[:：=]|是|为)[ \t]{0,4}"
# The value: quoted (anything up to the closing quote on the line, bounded so that an
# unclosed quote costs little) or bare (printable ASCII up to a space, a quote, a
# separator or a non-ASCII character: all of it, so no tail of a long value is left).
_BARE = (
    "[" + re.escape("".join(c for c in map(chr, range(0x21, 0x7F)) if c not in "\"'`\\,;&<")) + "]"
)
_VALUE = (
    r"(?:\\?(?P<q>[\"'`“「‘])(?P<qv>[^\"'`”」’\r\n\\]{1,1024})(?=\\?[\"'`”」’])"
    rf"|(?P<uv>{_BARE}++))"
)


def assignment(keywords: str, cjk: str = "") -> str:
    """An assignment of a value to a label holding one of ``keywords`` (English, any
    case) or ``cjk`` (Chinese labels, with ``是``/``为`` as well as colons)."""
    english = rf"(?i:(?P<kw>{keywords})){_REST}{_SEP}"
    if not cjk:
        return english + _VALUE
    return rf"(?:{english}|(?P<cjk>{cjk}){_CJK_SEP}){_VALUE}"


def flag(names: str) -> str:
    """A command-line option and its value: ``--password hunter2``, ``--token=...``."""
    return rf"(?<![\w-])--(?i:{names})(?:=|[ \t]+)(?P<q>[\"']?)(?P<uv>{_BARE}++)"


_SECRET_LIKE = fake("", 24, ALNUM, "assign")
_PASSWORD_LIKE = "Xk9#mQ2!vLp"

RULES: tuple[Rule, ...] = (
    # ---------------------------------------------------------------- key blocks
    Rule(
        kind="private-key",
        source=PRIVATE_KEY,
        triggers=("-----begin", "---- begin", "putty-user-key-file"),
        note=(
            "detect-secrets' PrivateKeyDetector flags the BEGIN line only and lacks "
            "'ENCRYPTED PRIVATE KEY'; this takes the whole block, to its END line or, "
            "when the text was cut, to the end of the base64 body."
        ),
        examples=(
            "-----BEGIN RSA PRIVATE KEY-----\n"
            + fake("MIIEow", 58, BASE64)
            + "\n"
            + fake("", 64, BASE64, "rsa2")
            + "\n-----END RSA PRIVATE KEY-----",
            "-----BEGIN OPENSSH PRIVATE KEY-----\\n" + fake("b3BlbnNzaC1rZXktdjE", 45, BASE64),
            "-----BEGIN ENCRYPTED PRIVATE KEY-----\n" + fake("MIIFH", 59, BASE64),
        ),
        near_misses=(
            "-----BEGIN PUBLIC KEY-----\n" + fake("MIIBIjAN", 56, BASE64),
            "-----BEGIN CERTIFICATE-----",
            "Put the private key in ~/.ssh/id_ed25519 and chmod it 600.",
        ),
        token=False,
    ),
    # ---------------------------------------------------------------- tokens
    Rule(
        kind="jwt",
        source=(
            r"(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{5,}={0,2}\.[A-Za-z0-9_-]{5,}={0,2}"
            r"(?:\.[A-Za-z0-9_+/-]*={0,2})?"
        ),
        triggers=("eyj",),
        bounded=True,
        check="jwt",
        note=(
            "detect-secrets' JwtTokenDetector regex writes [A-Za-z0-9-_=] (a range from "
            "'9' to '_') and rescans a run of 'eyJ' quadratically; its validity check "
            "(base64url JSON header and payload) is used on this stricter shape."
        ),
        examples=(
            "token: eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9."
            "eyJzdWIiOiJ1c2VyLTQyIiwiZXhwIjoxNzAwMDAwMDAwfQ." + fake("", 43, URLSAFE, "jwt-sig"),
        ),
        near_misses=("eyJub3QiOiJqd3Qi.not-json-at-all.sig", "the field is eyJ... (base64 of {)"),
    ),
    Rule(
        kind="anthropic-key",
        source=r"sk-ant-[A-Za-z0-9_-]{20,}",
        triggers=("sk-ant-",),
        bounded=True,
        note="not in detect-secrets: sk-ant-api03-, -admin01-, OAuth sk-ant-oat01- tokens",
        examples=(
            "ANTHROPIC_API_KEY=" + fake("sk-ant-api03-", 93, URLSAFE) + "AA",
            "claude oauth: " + fake("sk-ant-oat01-", 80, URLSAFE),
        ),
        near_misses=("the sk-ant- prefix marks Anthropic keys",),
    ),
    Rule(
        kind="openai-key",
        source=r"sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}|sk-[A-Za-z0-9_-]{0,100}?T3BlbkFJ[A-Za-z0-9_-]{20,}",
        triggers=("sk-proj-", "sk-svcacct-", "sk-admin-", "t3blbkfj"),
        bounded=True,
        note=(
            "detect-secrets' OpenAIDetector needs the T3BlbkFJ marker and backtracks "
            "over an unbounded prefix; project, service-account and admin keys added"
        ),
        examples=(
            "OPENAI_API_KEY=" + fake("sk-proj-", 156, URLSAFE),
            "key " + fake("sk-", 20, ALNUM, "oa") + "T3BlbkFJ" + fake("", 20, ALNUM, "ob"),
        ),
        near_misses=("use sk-learn, not sk-proj- style names", "sk-proj-small"),
    ),
    Rule(
        kind="api-key",
        source=r"sk-(?:or-v1-)?[A-Za-z0-9]{32,}",
        triggers=("sk-",),
        bounded=True,
        check="random",
        note="other sk- keys (DeepSeek, Moonshot, OpenRouter sk-or-v1-...)",
        examples=(
            "DEEPSEEK_API_KEY=" + fake("sk-", 32, HEX),
            "openrouter " + fake("sk-or-v1-", 64, HEX),
        ),
        near_misses=(
            "pip install scikit-learn  # sk-learn",
            "sk-abcdefghijklmnopqrstuvwxyzabcdefgh",
        ),
    ),
    Rule(
        kind="api-key",
        source=(
            r"(?:gsk_[A-Za-z0-9]{48,}|pplx-[A-Za-z0-9]{40,}|xai-[A-Za-z0-9]{60,}"
            r"|r8_[A-Za-z0-9]{30,})"
        ),
        triggers=("gsk_", "pplx-", "xai-", "r8_"),
        bounded=True,
        note="Groq, Perplexity, xAI, Replicate (gitleaks' rules; not in detect-secrets)",
        examples=(
            "GROQ_API_KEY=" + fake("gsk_", 52),
            "export PPLX=" + fake("pplx-", 48),
        ),
        near_misses=("the pplx- prefix",),
    ),
    Rule(
        kind="github-token",
        source="detect-secrets:GitHubTokenDetector",
        triggers=("ghp_", "gho_", "ghu_", "ghs_", "ghr_"),
        bounded=True,
        tail=TAIL,
        examples=(
            "export GITHUB_TOKEN=" + fake("ghp_", 36),
            "git clone https://" + fake("ghs_", 36) + "@github.com/acme/app.git",
        ),
        near_misses=("ghp_ tokens are 40 characters", "my_ghp_value"),
    ),
    Rule(
        kind="github-token",
        source=r"github_pat_[A-Za-z0-9_]{22,}",
        triggers=("github_pat_",),
        bounded=True,
        note="fine-grained tokens: not in detect-secrets",
        examples=("GH_TOKEN=" + fake("github_pat_", 82, ALNUM + "_"),),
        near_misses=("github_pat_ is the fine-grained prefix",),
    ),
    Rule(
        kind="gitlab-token",
        source="detect-secrets:GitLabTokenDetector",
        triggers=(
            "glpat-",
            "gldt-",
            "glft-",
            "glsoat-",
            "glrt-",
            "gr1348941",
            "glcbt-",
            "glimt-",
            "glptt-",
            "glagent-",
            "gloas-",
        ),
        bounded=True,
        examples=(
            'curl -H "PRIVATE-TOKEN: '
            + fake("glpat-", 20, URLSAFE)
            + '" https://gitlab.com/api/v4',
        ),
        near_misses=("glpat-short",),
    ),
    Rule(
        kind="aws-access-key",
        source="detect-secrets:AWSKeyDetector#0",
        triggers=("akia", "asia", "abia", "acca", "a3t"),
        bounded=True,
        tail=TAIL,
        examples=("aws_access_key_id = AKIA" + fake("", 16, string.ascii_uppercase + "234567"),),
        near_misses=("AKIA is the prefix of long-term AWS key ids", "XAKIA" + "ABCDEFGHIJKLMNOP"),
    ),
    Rule(
        kind="aws-secret-key",
        source="detect-secrets:AWSKeyDetector#1",
        triggers=("aws",),
        group=(1,),
        token=False,
        examples=('aws_secret_key = "' + fake("", 40, BASE64, "aws1") + '"',),
    ),
    Rule(
        kind="aws-secret-key",
        source=(
            r"(?i:aws)[A-Za-z0-9_.-]{0,20}?(?i:secret|key)[A-Za-z0-9_.-]{0,20}[\"']?[ \t]*"
            r"[:=][ \t]*[\"']?(?P<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])"
        ),
        triggers=("aws",),
        group=("secret",),
        token=False,
        note="unquoted (.env, ~/.aws/credentials): detect-secrets' pattern needs quotes",
        examples=(
            "AWS_SECRET_ACCESS_KEY=" + fake("", 40, BASE64, "aws2"),
            "aws_secret_access_key = " + fake("", 40, BASE64, "aws3"),
        ),
        near_misses=("AWS_SECRET_ACCESS_KEY=${AWS_SECRET_ACCESS_KEY}",),
    ),
    Rule(
        kind="slack-token",
        source="detect-secrets:SlackDetector",
        triggers=("xox", "hooks.slack.com"),
        bounded=True,
        tail=TAIL,
        examples=(
            "SLACK_BOT_TOKEN=xoxb-"
            + fake("", 12, "0123456789")
            + "-"
            + fake("", 13, "0123456789", "s2")
            + "-"
            + fake("", 24, ALNUM, "s3"),
            "webhook https://hooks.slack.com/services/T"
            + fake("", 10, string.ascii_uppercase)
            + "/B"
            + fake("", 10, string.ascii_uppercase, "b")
            + "/"
            + fake("", 24, ALNUM, "w"),
        ),
        near_misses=("xoxb- tokens are bot tokens",),
    ),
    Rule(
        kind="slack-token",
        source=r"xapp-\d-[A-Z0-9]+-\d+-[A-Za-z0-9]+",
        triggers=("xapp-",),
        bounded=True,
        note="app-level tokens: not in detect-secrets",
        examples=(
            "SLACK_APP_TOKEN=xapp-1-A"
            + fake("", 10, "0123456789ABCDEF")
            + "-"
            + fake("", 13, "0123456789")
            + "-"
            + fake("", 64, HEX),
        ),
    ),
    Rule(
        kind="stripe-key",
        source="detect-secrets:StripeDetector",
        triggers=("k_live_",),
        bounded=True,
        tail=TAIL,
        examples=("STRIPE_SECRET_KEY=" + fake("sk_live_", 24),),
        near_misses=("sk_live_ keys are live-mode keys",),
    ),
    Rule(
        kind="stripe-key",
        source=r"(?:sk|rk)_test_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9]{24,}",
        triggers=("k_test_", "whsec_"),
        bounded=True,
        note="test-mode keys and webhook secrets: not in detect-secrets",
        examples=("stripe.api_key = '" + fake("sk_test_", 24) + "'", fake("whsec_", 32)),
    ),
    Rule(
        kind="google-api-key",
        source=r"AIza[0-9A-Za-z_-]{35}",
        triggers=("aiza",),
        bounded=True,
        tail=TAIL,
        note="not in detect-secrets (gitleaks' gcp-api-key)",
        examples=("GEMINI_API_KEY=" + fake("AIza", 35, URLSAFE),),
        near_misses=("AIza is the Google API key prefix",),
    ),
    Rule(
        kind="npm-token",
        source=r"npm_[A-Za-z0-9]{36}",
        triggers=("npm_",),
        bounded=True,
        tail=TAIL,
        note="detect-secrets' NpmDetector only reads .npmrc lines, greedily to their end",
        examples=("NPM_TOKEN=" + fake("npm_", 36),),
        near_misses=("npm_config_cache=/tmp/npm",),
    ),
    Rule(
        kind="npm-token",
        source=r":_authToken=[ \t]*(?P<secret>[^\s'\"]{8,})",
        triggers=(":_authtoken",),
        group=("secret",),
        check="url",
        token=False,
        note="any .npmrc auth token (detect-secrets' NpmDetector reads to the line's end)",
        examples=("//registry.npmjs.org/:_authToken=" + fake("", 8, HEX) + "-" + fake("", 4, HEX),),
        near_misses=("//registry.npmjs.org/:_authToken=${NPM_TOKEN}",),
    ),
    Rule(
        kind="pypi-token",
        source="detect-secrets:PypiTokenDetector",
        triggers=("pypi-",),
        bounded=True,
        examples=("password = pypi-AgEIcHlwaS5vcmc" + fake("", 70, URLSAFE),),
        near_misses=("pip install pypi-simple",),
    ),
    Rule(
        kind="huggingface-token",
        source=r"(?:hf_|api_org_)[A-Za-z0-9]{30,}",
        triggers=("hf_", "api_org_"),
        bounded=True,
        note="not in detect-secrets (gitleaks' huggingface rules)",
        examples=("HF_TOKEN=" + fake("hf_", 34, string.ascii_letters),),
        near_misses=("from huggingface_hub import hf_hub_download",),
    ),
    Rule(
        kind="twilio-key",
        source="detect-secrets:TwilioKeyDetector",
        triggers=("ac", "sk"),
        bounded=True,
        examples=("TWILIO_API_KEY=SK" + fake("", 32, HEX),),
        near_misses=("HMAC" + fake("", 32, HEX, "hmac"),),
    ),
    Rule(
        kind="sendgrid-key",
        source="detect-secrets:SendGridDetector",
        triggers=("sg.",),
        bounded=True,
        examples=("SENDGRID_API_KEY=" + fake("SG.", 22, URLSAFE) + fake(".", 43, URLSAFE),),
    ),
    Rule(
        kind="discord-token",
        source="detect-secrets:DiscordBotTokenDetector",
        triggers=(".",),
        bounded=True,
        examples=(
            "DISCORD_TOKEN="
            + fake("MT", 24, URLSAFE)
            + fake(".", 6, URLSAFE)
            + fake(".", 27, URLSAFE),
        ),
    ),
    Rule(
        kind="telegram-token",
        source="detect-secrets:TelegramBotTokenDetector",
        triggers=(":a",),
        bounded=True,
        tail=TAIL,
        note="a bot token's secret half starts with 'A' (gitleaks), hence the trigger",
        examples=("bot " + fake("", 10, "0123456789") + ":AA" + fake("", 33, URLSAFE),),
        near_misses=("1700000000:done",),
    ),
    Rule(
        kind="azure-key",
        source=r"(?:AccountKey|SharedAccessKey)=(?P<secret>[A-Za-z0-9+/]{40,}={0,2})",
        triggers=("accountkey=", "sharedaccesskey="),
        group=("secret",),
        note="detect-secrets' AzureStorageKeyDetector takes the label too; Service Bus keys added",
        examples=(
            "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey="
            + fake("", 86, BASE64)
            + "==;EndpointSuffix=core.windows.net",
        ),
        near_misses=("AccountKey=<your storage key>",),
    ),
    Rule(
        kind="azure-key",
        source=r"[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}",
        triggers=("q~",),
        bounded=True,
        note="Entra ID (Azure AD) client secrets (gitleaks); not in detect-secrets",
        examples=("AZURE_CLIENT_SECRET=" + fake("", 3, ALNUM) + "8Q~" + fake("", 34, URLSAFE),),
    ),
    Rule(
        kind="mailchimp-key",
        source="detect-secrets:MailchimpDetector",
        triggers=("-us",),
        bounded=True,
        examples=("MAILCHIMP_KEY=" + fake("", 32, HEX) + "-us21",),
        near_misses=(fake("", 40, HEX, "sha") + "-us1",),
    ),
    Rule(
        kind="square-key",
        source="detect-secrets:SquareOAuthDetector",
        triggers=("sq0csp-",),
        bounded=True,
        examples=("SQUARE_SECRET=" + fake("sq0csp-", 43, URLSAFE),),
    ),
    # ---------------------------------------------------------------- URLs, headers
    Rule(
        kind="url-password",
        source="detect-secrets:BasicAuthDetector",
        triggers=("://",),
        group=(1,),
        check="url",
        token=False,
        examples=("redis://default:" + fake("", 16) + "@cache.internal:6379/0",),
        near_misses=("postgres://user:password@localhost/db", "https://example.com/a:b@c"),
    ),
    Rule(
        kind="url-password",
        source=r"://[^\s:/@'\"<>]{0,64}:(?P<secret>[^\s/@'\"<>]{1,256})@",
        triggers=("://",),
        group=("secret",),
        check="url",
        token=False,
        note="BasicAuthDetector leaves out passwords holding !$&'()*+,;=",
        examples=(
            "DATABASE_URL=postgres://app:" + fake("", 10) + "!$x@db.example.com:5432/app",
            "mongodb+srv://admin:" + fake("", 12) + "@cluster0.mongodb.net",
        ),
        near_misses=(
            "postgres://app:${DB_PASSWORD}@db:5432/app",
            "git@github.com:acme/app.git",
            "http://localhost:8080/path",
        ),
    ),
    Rule(
        kind="bearer-token",
        source=r"(?i:bearer)[ \t]+(?P<secret>[A-Za-z0-9._~+/-]{8,}=*)",
        triggers=("bearer",),
        group=("secret",),
        check="token",
        token=False,
        note="not in detect-secrets",
        examples=(
            'curl -H "Authorization: Bearer ' + fake("", 32, URLSAFE) + '" https://api.example.com',
        ),
        near_misses=("use bearer authentication for the API", "Authorization: Bearer $TOKEN"),
    ),
    Rule(
        kind="bearer-token",
        source=r"(?i:basic)[ \t]+(?P<secret>[A-Za-z0-9+/]{6,}={0,2})",
        triggers=("basic",),
        group=("secret",),
        check="basic",
        token=False,
        note="not in detect-secrets: a Basic header whose value decodes to user:password",
        examples=("Authorization: Basic YWRtaW46czNjcjN0LXBhc3M=",),
        near_misses=("a basic understanding of HTTP", "Basic authentication"),
    ),
    Rule(
        kind="bearer-token",
        source=(
            r"(?i:authorization)[\"']?[ \t]*[:=][ \t]*[\"']?"
            r"(?:(?i:token|apikey|api-key|sso-key|key)[ \t]+)?(?P<secret>[A-Za-z0-9._~+/=:-]{12,})"
        ),
        triggers=("authorization",),
        group=("secret",),
        check="token",
        token=False,
        note="other Authorization schemes (token, ApiKey) and bare header values",
        examples=("Authorization: token " + fake("", 40, HEX, "authz"),),
        near_misses=("Authorization: required for every endpoint",),
    ),
    Rule(
        kind="password",
        source=(
            r"(?<![\w-])(?:-u|--user)(?:=|[ \t]+)[\"']?[^\s:'\"]{1,64}"
            r":(?P<secret>[^\s'\"]{3,256})"
        ),
        triggers=("-u", "--"),
        group=("secret",),
        check="url",
        token=False,
        note="curl -u user:password (gitleaks' curl-auth-user)",
        examples=("curl -u admin:" + _PASSWORD_LIKE + " https://jenkins.local/api",),
        near_misses=("git push -u origin main", "curl -u $USER:$PASS https://x"),
    ),
    # ---------------------------------------------------------------- assignments
    Rule(
        kind="password",
        source=flag(r"password|passwd|pass|db-password"),
        triggers=("--",),
        group=("uv",),
        check="value",
        token=False,
        note="command-line options: not in detect-secrets",
        examples=("mysql --password=" + _PASSWORD_LIKE, "psql --password " + _PASSWORD_LIKE),
        near_misses=("--password-stdin", "--password $DB_PASSWORD"),
    ),
    Rule(
        kind="password",
        source=assignment(_KW_PASSWORD, _CJK_PASSWORD),
        triggers=("pass", "pwd", "contrase", "密码", "口令"),
        group=("qv", "uv"),
        check="value",
        token=False,
        note="detect-secrets' KeywordDetector keywords for passwords, plus Chinese labels",
        examples=(
            "PASSWORD=" + _PASSWORD_LIKE,
            'DB_PASS="hunter2-prod"',
            '{"password": "' + _PASSWORD_LIKE + '"}',
            "数据库密码：" + _PASSWORD_LIKE + "，别告诉别人",
            "我的密码是 S3cure#2024",
            'passphrase: "correct horse battery 42"',
            "the staging password is Xk9#mQ2!vLp, rotate it tomorrow",
            "DB pass: Xk9#mQ2!vLp",
            "my pass: Xk9#mQ2!vLp",
        ),
        near_misses=(
            "password=changeme",
            "PASSWORD=<your-password>",
            "password: ${DB_PASSWORD}",
            "password = os.environ['DB_PASSWORD']",
            "password: ********",
            "password_min_length = 12",
            "password: None",
            "password: str = Field(...)",
            "请不要把密码写进代码里",
            "密码：请输入",
            "bypass=true",
            "the password is incorrect",
            "pwd: /home/alice/project",
            "PASSWORD_FILE=/run/secrets/db_password",
            "Lighting pass: `ShaderOGLShading` (`GLSL/Shading.vs/.fs`), ADS",
            "all pass => passed, none skipped",
            "--- PASS: TestWriteActiveSessions_NoSessions (0.01s)",
            "--- PASS: TestTrackCommandDetachedSkipsNilCommand (0.00s)",
            "    --- PASS: TestImport/bash_with-dash2 (0.00s)",
        ),
    ),
    Rule(
        kind="api-key",
        source=flag(r"api-key|apikey|access-key"),
        triggers=("--",),
        group=("uv",),
        check="value",
        token=False,
        note="command-line options: not in detect-secrets",
        examples=("llm --api-key " + _SECRET_LIKE,),
    ),
    Rule(
        kind="api-key",
        source=assignment(_KW_API_KEY),
        triggers=("key",),
        group=("qv", "uv"),
        check="value",
        token=False,
        note="detect-secrets' KeywordDetector keywords for keys, plus api-key and access key",
        examples=(
            "MISTRAL_API_KEY=" + _SECRET_LIKE,
            '"x-api-key": "' + _SECRET_LIKE + '"',
            "apiKey: '" + _SECRET_LIKE + "'",
        ),
        near_misses=(
            "api_key = None",
            "API_KEY=your_api_key_here",
            "api_key: process.env.API_KEY",
            "apiKey: string;",
            "privateKey: Uint8Array;",
            '"private-key-memory": ".github/copilot-instructions.md:69 never log it"',
            "api_key_header = 'X-API-Key'",
            "monkey=banana12",
            "the api key: see the vault",
        ),
    ),
    Rule(
        kind="secret",
        source=flag(r"token|secret|client-secret"),
        triggers=("--",),
        group=("uv",),
        check="value",
        token=False,
        note="command-line options: not in detect-secrets",
        examples=("gh auth login --token " + _SECRET_LIKE,),
        near_misses=("--token-file ~/.token",),
    ),
    Rule(
        kind="secret",
        source=assignment(_KW_SECRET, _CJK_SECRET),
        triggers=("secret", "token", "credential", "密钥", "秘钥", "私钥", "令牌"),
        group=("qv", "uv"),
        check="value",
        token=False,
        note="detect-secrets' 'secret' keyword, plus token, credential and Chinese labels",
        examples=(
            "SECRET_KEY=" + _SECRET_LIKE,
            "token = '" + _SECRET_LIKE + "'",
            "client_secret: " + _SECRET_LIKE,
            "API 密钥: " + _SECRET_LIKE,
            "访问令牌为" + _SECRET_LIKE + "。",
        ),
        near_misses=(
            "secret: true",
            "token = None",
            "max_tokens=4096",
            "the token: it expired yesterday",
            "tokenizer = AutoTokenizer.from_pretrained('bert-base-uncased')",
            "SECRET_KEY=xxx",
            "secret_name: prod/db/credentials",
            "credentials: ~/.aws/credentials",
            "token_type: bearer",
        ),
    ),
)
