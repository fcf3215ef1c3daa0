"""Reads what bench/report.sh gathered in DIR and prints one Markdown table:
figure | measured | target | met?

    python3 bench/report.py DIR
"""

import json
import re
import sys
from pathlib import Path

out = Path(sys.argv[1])
rows: list[tuple[str, str, str, str]] = []


def row(figure: str, measured: str, target: str = "—", met=None):
    rows.append((figure, measured, target, "—" if met is None else ("yes" if met else "**no**")))


def read(name: str) -> str | None:
    path = out / name
    return path.read_text() if path.exists() else None


def missing(figure: str, log: str):
    row(figure, f"not measured (see {log})")


def mb(mib: float) -> str:
    return f"{mib * 1.048576:.0f} MB"


def num(n: float) -> str:
    return f"{n:,.0f}"


# Bundle: the brotli file the server sends, the JavaScript with the wasm in it.
# One line per bundle: the ask page's, then the desk's.
bundle = read("bundle.txt")
if bundle:
    ask, desk = (int(line) for line in bundle.split())
    row("bundle of the pending ask page, brotli JS + wasm", f"{num(ask)} B", "≤ 90 KB", ask <= 90_000)
    row("bundle of the desk, brotli JS + wasm", f"{num(desk)} B", "≤ 60 KB", desk <= 60_000)
else:
    missing("bundle of the pending ask page, brotli JS + wasm", "bundle.txt")

tti = read("tti.json")
if tti:
    tti = json.loads(tti)
    a, v, r = (tti["pages"][k] for k in ("askdesk", "vanilla", "react"))
    finished = tti.get("finished")
    if finished:
        row("page without an island (finished ask): JS + wasm fetched",
            f"{finished['scripts']} files, {num(finished['codeBytes'])} B", "0 B", finished["codeBytes"] == 0)
    row("bytes on the wire, first visit (askdesk / vanilla / React)",
        f"{num(a['firstBytes'])} / {num(v['firstBytes'])} / {num(r['firstBytes'])} B")
    row("JS + wasm on the wire, first visit (askdesk / vanilla / React)",
        f"{num(a['firstCodeBytes'])} / {num(v['firstCodeBytes'])} / {num(r['firstCodeBytes'])} B")
    row("bytes on the wire, repeat visit (askdesk / vanilla / React)",
        f"{num(a['repeatBytes'])} / {num(v['repeatBytes'])} / {num(r['repeatBytes'])} B")
    row("repeat visit: JS + wasm + CSS bytes", f"{num(a['repeatAssetBytes'])} B", "0 B", a["repeatAssetBytes"] == 0)
    for key, label in (("cold1x", "cold, CPU 1×"), ("cold4x", "cold, CPU 4×"),
                       ("repeat1x", "repeat visit, CPU 1×"), ("repeat4x", "repeat visit, CPU 4×")):
        ta, tv, tr = a[key], v[key], r[key]
        # The ratios' 90% intervals (bench/tti.mjs says how they are found).
        span = {peer: "{:.2f}–{:.2f}".format(*tti["intervals"][key][peer]) for peer in ("vanilla", "react")}
        row(f"time to interactive, {label} (median of {tti['loads']}; 90% interval)",
            f"{ta:.0f} ms: {ta / tv:.2f}× vanilla ({tv:.0f} ms; {span['vanilla']}), "
            f"{ta / tr:.2f}× React ({tr:.0f} ms; {span['react']})",
            "≤ React, ≤ 1.6× vanilla", ta <= tr and ta <= 1.6 * tv)
    # A phone on a mobile network: Slow 4G and CPU 4×, every page brotli.
    # First paint is to be ahead of React SSR's by a tenth; interactive at
    # most React's; a person's first input to count no later than React's.
    for key, label, most in (("paintcoldphone", "first paint, cold", 0.9),
                             ("coldphone", "time to interactive, cold", 1.0),
                             ("paintrepeatphone", "first paint, repeat visit", 0.9),
                             ("repeatphone", "time to interactive, repeat visit", 1.0),
                             ("firstinputphone", "a person's first input counts (cold)", 1.0)):
        if key not in a:
            missing(f"phone (Slow 4G, CPU 4×): {label}", "tti.log")
            continue
        ta, tv, tr = a[key], v[key], r[key]
        span = {peer: "{:.2f}–{:.2f}".format(*tti["intervals"][key][peer]) for peer in ("vanilla", "react")}
        row(f"phone (Slow 4G, CPU 4×): {label} (median of {tti.get('phoneLoads', '?')}; 90% interval)",
            f"{ta:.0f} ms: {ta / tr:.2f}× React SSR ({tr:.0f} ms; {span['react']}), "
            f"{ta / tv:.2f}× vanilla ({tv:.0f} ms; {span['vanilla']})",
            "≤ React SSR" if most == 1.0 else f"≤ {most}× React SSR", ta <= most * tr)
    kept = tti.get("inputKept")
    if kept:
        row("phone: loads whose input came before interactive, and of those the loads that kept it "
            "(askdesk / vanilla / React)",
            " / ".join(f"{kept[k][1]} of {kept[k][0]}" for k in ("askdesk", "vanilla", "react")))
    if "afterdeskphone" in a:
        ta, tr = a["afterdeskphone"], r["coldphone"]
        row(f"phone (Slow 4G, CPU 4×): an ask opened after the desk or from a push, its bundle in the cache: first paint, interactive",
            f"{a['paintafterdeskphone']:.0f} ms, {ta:.0f} ms: {ta / tr:.2f}× React SSR's cold ({tr:.0f} ms), "
            f"{ta / a['coldphone']:.2f}× askdesk's cold")
else:
    missing("time to interactive and bytes on the wire", "tti.log")

ssr = read("ssr.log")
m = ssr and re.search(r"^pages (\d+)/s, JSON (\d+)/s", ssr, re.M)
if m:
    pages, api = int(m[1]), int(m[2])
    row("SSR pages/s vs JSON/s (same ask, medians of rounds taken in turn)", f"{100 * pages / api:.0f}% ({num(pages)} vs {num(api)}/s)",
        "≥ 55%", pages >= 0.55 * api)
else:
    missing("SSR pages/s vs JSON/s", "ssr.log")

cost = read("ssr_cost.log")
m = cost and re.search(r"^instructions per request, \d+ of each: page (\d+), JSON (\d+)", cost, re.M)
if m:
    page, api = int(m[1]), int(m[2])
    row("SSR cost, instructions per request (callgrind): page vs JSON", f"{num(page)} vs {num(api)}: {page / api:.2f}×")
else:
    missing("SSR cost, instructions per request", "ssr_cost.log")

waiters = read("waiters.json")
records = [json.loads(line) for line in (waiters or "").splitlines() if line.strip()]
waits = {rec["n"]: rec for rec in records if rec["kind"] == "wait"}
rss_target = {10_000: 150}
p99_target = {1_000: 5, 10_000: 10}
for n in (1_000, 10_000):
    rec = waits.get(n)
    if not rec:
        missing(f"{num(n)} waiters", "waiters.log")
        continue
    target = rss_target.get(n)
    row(f"server RSS, {num(n)} long-polls waiting",
        f"{mb(rec['rss_waiting_mib'])} ({mb(rec['rss_stored_mib'])} before they connected)",
        f"≤ {target} MB" if target else "—",
        rec["rss_waiting_mib"] * 1.048576 <= target if target else None)
    partial = "" if rec["answered"] == n else f"; {num(rec['answered'])} of {num(n)} answered in the time allowed"
    row(f"answer → waiter, {num(n)} waiting: p50 / p99",
        f"{rec['p50_ms']:.2f} / {rec['p99_ms']:.2f} ms{partial}",
        f"p99 ≤ {p99_target[n]} ms", rec["p99_ms"] <= p99_target[n] and not partial)
stored = next((rec for rec in records if rec["kind"] == "store"), None)
idle = next((rec for rec in records if rec["kind"] == "idle"), None)
if stored and idle:
    label = "100,000" if stored["n"] == stored["wanted"] else f"{num(stored['n'])} (of {num(stored['wanted'])})"
    worst = max(stored["rss_mib"], idle["rss_mib"])
    row(f"server RSS at idle, {label} asks stored",
        f"{mb(stored['rss_mib'])} after storing them, {mb(idle['rss_mib'])} after a restart",
        "≤ 100 MB", worst * 1.048576 <= 100 and stored["n"] == stored["wanted"])
else:
    missing("server RSS at idle, 100,000 asks stored", "waiters.log")

mcp = read("mcp_waiters.json")
rec = next((json.loads(line) for line in (mcp or "").splitlines() if line.strip()), None)
if rec:
    n = rec["n"]
    row(f"server RSS, {num(n)} agents waiting in MCP ask_user (a session each)",
        f"{mb(rec['rss_waiting_mib'])} ({mb(rec['rss_before_mib'])} before they connected)", "—", None)
    partial = "" if rec["answered"] == n else f"; {num(rec['answered'])} of {num(n)} answered in the time allowed"
    row(f"answer → ask_user result, {num(n)} waiting: p50 / p99",
        f"{rec['p50_ms']:.2f} / {rec['p99_ms']:.2f} ms{partial}", "—", None)
else:
    missing("agents waiting in MCP ask_user", "mcp_waiters.log")

validate = read("validate.log")
m = validate and re.search(r"thrpt:\s*\[\S+ \S+ (\S+) (\S+)", validate)
if m:
    scale = {"elem/s": 1e-6, "Kelem/s": 1e-3, "Melem/s": 1, "Gelem/s": 1e3}[m[2]]
    rate = float(m[1]) * scale
    row("answer validation (4 questions), criterion median", f"{rate:.2f} M/s", "≥ 1.43 M/s", rate >= 1.43)
else:
    missing("answer validation", "validate.log")

tui = read("tui.log")
frame = tui and re.search(r"main to first frame \(µs\): min (\d+), median (\d+)", tui)
start = tui and re.search(r"Time \(mean ± σ\):\s*([\d.]+ \S+)", tui)
rss = tui and re.search(r"peak RSS (\d+) KiB", tui)
if frame and start and rss:
    row("TUI (askdesk answer): process start, main → first frame, peak RSS",
        f"{start[1]} + {int(frame[2]) / 1000:.1f} ms (median), {int(rss[1]) / 1024:.1f} MiB")
else:
    missing("TUI first frame", "tui.log")

multi = read("multi.json")
records = [json.loads(line) for line in (multi or "").splitlines() if line.strip()]
rates = {rec["store"]: rec for rec in records if rec["kind"] == "rates"}
if rates:
    names = {"sqlite": "SQLite file", "postgres": "PostgreSQL"}
    row("creates / answers per second, 64 clients (" + " vs ".join(names.get(k, k) for k in rates) + ")",
        " vs ".join(f"{num(r['creates_per_s'])} / {num(r['answers_per_s'])}" for r in rates.values())
        + f" ({num(next(iter(rates.values()))['n'])} asks each)")
else:
    missing("creates / answers per second, SQLite vs PostgreSQL", "multi.log")
wake = next((rec for rec in records if rec["kind"] == "wake"), None)
if wake:
    row(f"cross-instance wake-up (PostgreSQL): answer POST sent on one instance → waiter on another "
        f"has the reply, {num(wake['n'])} asks one at a time: p50 / p99",
        f"{wake['p50_ms']:.2f} / {wake['p99_ms']:.2f} ms", "p99 ≤ 100 ms", wake["p99_ms"] <= 100)
else:
    missing("cross-instance wake-up", "multi.log")
spread = next((rec for rec in records if rec["kind"] == "spread"), None)
if spread:
    partial = "" if spread["answered"] == spread["n"] else f"; {num(spread['answered'])} answered in the time allowed"
    row(f"{num(spread['n'])} long-polls over {spread['instances']} instances, each answered on another "
        "(answer sent → waiter has it): p50 / p99, RSS per instance",
        f"{spread['p50_ms']:.2f} / {spread['p99_ms']:.2f} ms, "
        + " + ".join(mb(r) for r in spread["rss_mib"]) + partial,
        "p99 ≤ 100 ms", spread["p99_ms"] <= 100 and not partial)
else:
    missing("long-polls over 3 instances", "multi.log")

restart = read("restart.json")
if restart:
    r = json.loads(restart)
    row(f"rolling restart behind HAProxy: {num(r['agents'])} agents waiting, {r['instances']} instances "
        f"restarted in turn (--shutdown-grace {r['shutdown_grace_s']}): each restart; calls retried; "
        "answer → agent p50 / p99 / max; lost / heard twice",
        " + ".join(f"{s:.1f} s" for s in r["restart_s"]) + f"; {num(r['retried_calls'])} retried; "
        f"{r['answer_to_agent_p50_s'] * 1000:.0f} / {r['answer_to_agent_p99_s'] * 1000:.0f} / "
        f"{r['answer_to_agent_max_s'] * 1000:.0f} ms; {r['lost']} / {r['heard_twice']}",
        "none lost, none twice", r["lost"] == 0 and r["heard_twice"] == 0)
else:
    missing("rolling restart behind HAProxy", "restart.log")

notify = read("notify.json")
records = [json.loads(line) for line in (notify or "").splitlines() if line.strip()]
hook = next((rec for rec in records if rec["kind"] == "webhook"), None)
if hook:
    row(f"create → webhook received, {num(hook['n'])} asks one at a time: p50 / p99",
        f"{hook['p50_ms']:.2f} / {hook['p99_ms']:.2f} ms")
else:
    missing("create → webhook received", "notify.log")
flaky = next((rec for rec in records if rec["kind"] == "flaky"), None)
if flaky:
    row(f"{num(flaky['n'])} asks to a receiver failing every delivery's first attempt: all delivered, RSS",
        f"{num(flaky['taken'])} taken in {flaky['seconds']:.1f} s ({num(flaky['requests'])} requests); "
        f"RSS {mb(flaky['rss_before_mib'])} before, {mb(flaky['rss_after_mib'])} after",
        "all delivered", flaky["all"] and flaky["taken"] == flaky["n"])
else:
    missing("asks to a failing receiver", "notify.log")

crowding = read("crowding.json")
rec = next((json.loads(line) for line in (crowding or "").splitlines() if line.strip()), None)
if rec:
    # "Their usual latency": the median within twice, the 99th percentile
    # within three times what the same client saw before the sockets came.
    usual = (rec["during_p50_ms"] <= 2 * max(rec["before_p50_ms"], 0.1)
             and rec["during_p99_ms"] <= 3 * max(rec["before_p99_ms"], 0.1))
    row(f"{num(rec['n'])} half-open sockets from one address: another client's request "
        "(fresh connection), p50 / p99 before → during",
        f"{rec['before_p50_ms']:.2f} / {rec['before_p99_ms']:.2f} → "
        f"{rec['during_p50_ms']:.2f} / {rec['during_p99_ms']:.2f} ms "
        f"({rec['during_p50_ms'] / max(rec['before_p50_ms'], 1e-9):.2f}× the median)",
        "p50 ≤ 2×, p99 ≤ 3× before", usual)
    row(f"… of those {num(rec['n'])}: kept open at once, still open {rec['header_timeout_s'] + 5:.0f} s later",
        f"{num(rec['kept'])}, {num(rec['open_after'])}",
        "≤ 512 (the default cap), 0", rec["kept"] <= 512 and rec["open_after"] == 0)
else:
    missing("half-open sockets from one address", "crowding.log")

# A fresh machine's first `scripts/dev.sh run`, when bench/first_run.sh
# timed one (it takes the better part of half an hour; report.sh runs it
# with FIRST_RUN=1).
first = read("first_run.json")
if first:
    first = json.loads(first)
    phases = ", ".join(f"{name} {sec / 60:.1f} min" for name, sec in first["phases"])
    row(f"cold first run on {first['cores']} cores: clone to serving ({phases})",
        f"{first['seconds'] / 60:.1f} min", "< 15 min", first["seconds"] < 15 * 60)
else:
    missing("cold first run, clone to serving", "first_run.log (FIRST_RUN=1 bench/report.sh)")

print("| figure | measured | target | met? |")
print("|---|---|---|---|")
for r in rows:
    print("| " + " | ".join(r) + " |")
