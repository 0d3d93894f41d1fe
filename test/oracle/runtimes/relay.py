# The Python SDK's relay as the facts describe it (part 1, §3): json.loads of the body, then
# json.dumps(ensure_ascii=False, separators=(",", ":")) encoded as UTF-8. One body per line of
# stdin, base64; one answer per line of stdout: "ok <base64>", "decode <why>" or "encode <why>".
import base64
import json
import sys

out = sys.stdout
for line in sys.stdin:
    line = line.strip()
    if not line:
        continue
    text = base64.b64decode(line).decode("utf-8")
    try:
        value = json.loads(text)
    except (ValueError, RecursionError) as error:
        out.write("decode " + type(error).__name__ + "\n")
        continue
    try:
        body = json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    except (ValueError, RecursionError, UnicodeEncodeError) as error:
        out.write("encode " + type(error).__name__ + "\n")
        continue
    out.write("ok " + base64.b64encode(body).decode("ascii") + "\n")
out.flush()
