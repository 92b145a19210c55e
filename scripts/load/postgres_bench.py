"""What the steps of scripts/load/postgres share. Its arguments: the work folder (with `token`,
`tokens` and `operator`), the wrk script and the database's URL."""
import http.client, json, os, re, subprocess, sys, time

work, lua, url = sys.argv[1], sys.argv[2], sys.argv[3]
token = open(f"{work}/token").read().strip()
headers = {"Authorization": f"Bearer {token}", "Accept": "application/json", "Content-Type": "application/json"}


operator = {**headers, "Authorization": f"Bearer {open(f'{work}/operator').read().strip()}"}


def call(port, method, path, body=None, as_operator=False):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    sent = None if body is None else json.dumps(body).encode()
    connection.request(method, path, body=sent, headers=operator if as_operator else headers)
    answer = connection.getresponse()
    data = answer.read()
    return answer.status, json.loads(data) if data else None


def wrk(port, seconds, threads=2, connections=64, many=False):
    """Requests per second, non-2xx answers, and the median and 99th percentile latencies; from
    the bench account, or with `many` from each of the 16 accounts in turn."""
    auth = [] if many else sum((["-H", f"{k}: {v}"] for k, v in headers.items()), [])
    env = {**os.environ, "TOKENS": f"{work}/tokens"} if many else None
    run = subprocess.run(["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--latency", "-s", lua, *auth, f"http://127.0.0.1:{port}"],
                         capture_output=True, text=True, env=env)
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", run.stdout)
    latency = lambda p: re.search(rf"\s{p}%\s+(\S+)", run.stdout).group(1)
    return float(re.search(r"Requests/sec:\s+([\d.]+)", run.stdout).group(1)), errors.group(1) if errors else "0", latency(50), latency(99)


def cpu(name):
    """CPU seconds used so far by the processes called `name` (postgres: every backend)."""
    total = 0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if open(f"/proc/{pid}/comm").read().strip() == name:
                fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
                total += int(fields[11]) + int(fields[12])
        except OSError:
            pass
    return total / os.sysconf("SC_CLK_TCK")


def handed_over(ports):
    return sum(call(port, "GET", "/simulator/status", as_operator=True)[1]["received"] for port in ports)


def psql(sql):
    return subprocess.run(["psql", url, "-Atc", sql], capture_output=True, text=True, check=True).stdout


def drain():
    """Waits until no message is queued; how many were, and for how long."""
    began = time.monotonic()
    queued = lambda: int(psql("SELECT count(*) FROM messages WHERE delivery = 0"))
    left = queued()
    while queued():
        time.sleep(0.1)
    return left, time.monotonic() - began
