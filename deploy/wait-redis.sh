#!/usr/bin/env bash
# Sourced by the service scripts: wait (up to 60 s) until the broker answers PING, so a
# cluster started all at once does not race redis-server. A refused password is not
# worth waiting for: it stops at once and says so (the URL is printed without it).
python - <<'PY'
import os, re, sys, time
import redis
url = os.environ.get("SUBCON_BROKER_URL")
if not url:
    sys.exit("SUBCON_BROKER_URL is not set (see deploy/subcon.env.example)")
shown = re.sub(r"//[^@/]*@", "//***@", url)
deadline = time.monotonic() + 60
while True:
    try:
        redis.Redis.from_url(url, socket_connect_timeout=1).ping()
        break
    except redis.AuthenticationError as exc:
        sys.exit(f"redis at {shown} refused the password: {exc}")
    except redis.RedisError as exc:
        if time.monotonic() > deadline:
            sys.exit(f"redis at {shown} is not answering: {exc}")
        time.sleep(0.5)
PY
