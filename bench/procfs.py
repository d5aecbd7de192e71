"""What /proc says about a process: CPU time and wakeups per thread, resident memory by mapping,
by kind of mapping and per ELF section, and the memory kinds (RSS, PSS, USS) of smaps_rollup.

Units: kB as the kernel prints them (1024 bytes), CPU in ns, instants CLOCK_BOOTTIME ns."""

import glob
import os
import re
import subprocess

from bench.harness import now_ns

def _field(text, name):
    match = re.search(r"^" + re.escape(name) + r":\s+(\d+)", text, re.M)
    return int(match.group(1)) if match else 0


def snapshot(pid):
    """Per thread: voluntary and involuntary context switches, CPU ns, name; plus VmHWM/VmRSS kB."""
    threads = {}
    for task in glob.glob(f"/proc/{pid}/task/*"):
        try:
            tid = int(task.rsplit("/", 1)[1])
            with open(task + "/status") as f:
                status = f.read()
            cpu_ns = None
            try:
                with open(task + "/sched") as f:
                    match = re.search(r"se\.sum_exec_runtime\s*:\s*([\d.]+)", f.read())
                if match:
                    cpu_ns = int(round(float(match.group(1)) * 1e6))
            except OSError:
                pass
            if cpu_ns is None:  # no /proc/*/sched: clock ticks from stat
                with open(task + "/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                cpu_ns = (int(fields[11]) + int(fields[12])) * (10**9 // os.sysconf("SC_CLK_TCK"))
            with open(task + "/comm") as f:
                name = f.read().strip()
            threads[tid] = {"vol": _field(status, "voluntary_ctxt_switches"),
                            "invol": _field(status, "nonvoluntary_ctxt_switches"),
                            "cpu_ns": cpu_ns, "name": name}
        except (OSError, ValueError, IndexError):
            continue
    memory = {}
    try:
        with open(f"/proc/{pid}/status") as f:
            status = f.read()
        memory = {"hwm_kb": _field(status, "VmHWM"), "rss_kb": _field(status, "VmRSS")}
    except OSError:
        pass
    memory.update(memory_kinds(pid) or {})
    return {"t_ns": now_ns(), "threads": threads, "memory": memory}


def memory_kinds_from_rollup(text):
    """RSS, PSS and USS in kB from the text of /proc/PID/smaps_rollup: `Rss`, `Pss`, and
    `Private_Clean` + `Private_Dirty` (the pages no other process maps; what ending it frees).
    RSS counts every resident shared-library page whole, PSS divides each page by the processes
    mapping it. None when the text has no `Rss` line."""
    fields = {}
    for line in text.splitlines():
        match = re.match(r"^(\w+):\s+(\d+) kB", line)
        if match:
            fields[match.group(1)] = int(match.group(2))
    if "Rss" not in fields:
        return None
    return {"rss_now_kb": fields["Rss"], "pss_kb": fields.get("Pss", 0),
            "uss_kb": fields.get("Private_Clean", 0) + fields.get("Private_Dirty", 0)}


def memory_kinds(pid):
    """memory_kinds_from_rollup of a live process; None when it is gone or the kernel has no rollup."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            return memory_kinds_from_rollup(f.read())
    except OSError:
        return None


def resident_by_mapping(pid):
    """Resident kB per mapped file (or [anon]/[heap]/[stack]) from /proc/PID/smaps, and RssAnon/RssFile."""
    totals = {}
    name = None
    try:
        with open(f"/proc/{pid}/smaps") as f:
            for line in f:
                head = re.match(r"^[0-9a-f]+-[0-9a-f]+\s+\S+\s+\S+\s+\S+\s+\d+\s*(.*)$", line)
                if head:
                    name = os.path.basename(head.group(1).strip()) or "[anonymous]"
                elif line.startswith("Rss:") and name:
                    totals[name] = totals.get(name, 0) + int(line.split()[1])
        with open(f"/proc/{pid}/status") as f:
            status = f.read()
    except OSError:
        return None
    return {"files": sorted(totals.items(), key=lambda kv: -kv[1]),
            "anon_kb": _field(status, "RssAnon"), "file_kb": _field(status, "RssFile")}


def window_cost(before, after):
    """CPU and wakeups between two snapshots; threads born in between count from zero."""
    seconds = (after["t_ns"] - before["t_ns"]) / 1e9
    per_thread = []
    total_cpu = total_vol = total_invol = 0
    for index, (tid, end) in enumerate(sorted(after["threads"].items())):
        start = before["threads"].get(tid, {"vol": 0, "invol": 0, "cpu_ns": 0})
        vol, invol = end["vol"] - start["vol"], end["invol"] - start["invol"]
        cpu = end["cpu_ns"] - start["cpu_ns"]
        role = "main" if index == 0 else f"thread {index}"
        per_thread.append({"tid": tid, "role": role, "name": end["name"], "vol": vol, "invol": invol,
                           "cpu_ns": cpu, "born_in_window": tid not in before["threads"]})
        total_cpu += cpu
        total_vol += vol
        total_invol += invol
    gone = [tid for tid in before["threads"] if tid not in after["threads"]]
    return {"seconds": seconds, "cpu_ns": total_cpu, "vol": total_vol, "invol": total_invol,
            "threads": per_thread, "threads_gone": gone}


def read_smaps(pid):
    """/proc/PID/smaps as a list of mappings (start, end, perms, path, kB fields), plus VmHWM/VmRSS/Threads."""
    maps = []
    try:
        with open(f"/proc/{pid}/smaps") as f:
            for line in f:
                head = re.match(r"^([0-9a-f]+)-([0-9a-f]+)\s+(\S+)\s+\S+\s+\S+\s+\d+\s*(.*)$", line)
                if head:
                    maps.append({"start": int(head.group(1), 16), "end": int(head.group(2), 16),
                                 "perms": head.group(3), "path": head.group(4).strip(), "kb": {}})
                    continue
                field = re.match(r"^(\w+):\s+(\d+) kB", line)
                if field and maps:
                    maps[-1]["kb"][field.group(1)] = int(field.group(2))
        with open(f"/proc/{pid}/status") as f:
            status = f.read()
        exe = os.readlink(f"/proc/{pid}/exe")
    except OSError:
        return None
    return {"maps": maps, "exe": exe, "hwm_kb": _field(status, "VmHWM"), "rss_kb": _field(status, "VmRSS"),
            "threads": _field(status, "Threads")}


def resident_by_section(pid, exe):
    """Resident kB of the executable per ELF section (from /proc/PID/pagemap's present bit, root only):
    which of the program's pages a ringing process holds. None when pagemap or readelf is unavailable."""
    try:
        listing = subprocess.run(["readelf", "-SW", exe], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                 timeout=20).stdout.decode()
    except (OSError, subprocess.TimeoutExpired):
        return None
    sections = []
    for line in listing.splitlines():
        field = re.match(r"^\s*\[\s*\d+\]\s+(\S+)\s+\S+\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)", line)
        if field and int(field.group(2), 16) and int(field.group(3), 16):
            sections.append((field.group(1), int(field.group(2), 16), int(field.group(3), 16)))
    smaps = read_smaps(pid)
    if not smaps or not sections:
        return None
    own = [m for m in smaps["maps"] if m["path"] == exe]
    if not own:
        return None
    base = min(m["start"] for m in own)
    # the anonymous mapping right after the executable's last one holds the rest of .bss
    last = max(own, key=lambda m: m["end"])
    following = [m for m in smaps["maps"] if m["start"] == last["end"] and not m["path"]]
    page = os.sysconf("SC_PAGE_SIZE")
    totals = {}
    try:
        with open(f"/proc/{pid}/pagemap", "rb") as pagemap:
            for m in own + following:
                pagemap.seek(m["start"] // page * 8)
                entries = pagemap.read((m["end"] - m["start"]) // page * 8)
                for i in range(len(entries) // 8):
                    if not int.from_bytes(entries[8 * i:8 * i + 8], "little") >> 63:
                        continue
                    lo = m["start"] + i * page - base
                    best, overlap = "(between sections)", 0
                    for name, address, size in sections:
                        covered = min(lo + page, address + size) - max(lo, address)
                        if covered > overlap:
                            best, overlap = name, covered
                    totals[best] = totals.get(best, 0) + page // 1024
    except OSError:
        return None
    return {"sections": {name: size for name, _, size in sections}, "resident_kb": totals}


MEMORY_CATEGORIES = [
    "program: code (r-x)", "program: read-only data and RELRO (r--)", "program: writable data, .bss",
    "ALSA: libasound", "ALSA: plugins (libasound_module_*)", "PulseAudio client: libpulse, libpulsecommon",
    "libmpg123 (and mpg123's libout123/libsyn123/output modules)", "libc, libm, ld.so, libgcc, libstdc++",
    "other shared libraries", "malloc: main heap ([heap])", "malloc: thread arenas",
    "thread stacks (below a guard page)", "main stack ([stack])",
    "shared memory with the server (memfd/shm)", "other anonymous memory (large malloc chunks: the decoded sound, …)", "other files (locale, …)",
    "kernel ([vdso], [vvar])",
]


def memory_category(maps, index, exe, sound_bytes):
    m = maps[index]
    path, perms = m["path"], m["perms"]
    name = os.path.basename(path)
    previous = maps[index - 1] if index else None
    following = maps[index + 1] if index + 1 < len(maps) else None
    if path == exe:
        return {"r-xp": "program: code (r-x)", "r--p": "program: read-only data and RELRO (r--)"}.get(
            perms, "program: writable data, .bss")
    if "libasound_module_" in name:
        return "ALSA: plugins (libasound_module_*)"
    if name.startswith("libasound.so"):
        return "ALSA: libasound"
    if name.startswith("libpulse"):
        return "PulseAudio client: libpulse, libpulsecommon"
    if name.startswith(("libmpg123", "libout123", "libsyn123")) or "/mpg123/" in path:
        return "libmpg123 (and mpg123's libout123/libsyn123/output modules)"
    if name.startswith(("libc.so", "libm.so", "ld-linux", "libgcc_s", "libstdc++")):
        return "libc, libm, ld.so, libgcc, libstdc++"
    if ".so" in name:
        return "other shared libraries"
    if path == "[heap]":
        return "malloc: main heap ([heap])"
    if path == "[stack]":
        return "main stack ([stack])"
    if path in ("[vdso]", "[vvar]", "[vsyscall]") or path.startswith("[vvar"):
        return "kernel ([vdso], [vvar])"
    if "memfd:" in path or path.startswith("/dev/shm") or "pulse-shm" in path:
        return "shared memory with the server (memfd/shm)"
    if path:
        return "other files (locale, …)"
    # anonymous
    if previous is not None and previous["path"] == exe and previous["end"] == m["start"]:
        return "program: writable data, .bss"
    if previous is not None and not previous["path"] and previous["perms"] == "---p" and previous["end"] == m["start"]:
        return "thread stacks (below a guard page)"
    if following is not None and not following["path"] and following["perms"] == "---p" and following["start"] == m["end"]:
        return "malloc: thread arenas"
    return "other anonymous memory (large malloc chunks: the decoded sound, …)"


def memory_by_category(smaps, sound_bytes):
    """kB per category: {category: {"rss", "pss", "uss", "dirty", "count", "size"}} (uss = Private_Clean +
    Private_Dirty, dirty = Private_Dirty)."""
    totals = {}
    for index, m in enumerate(smaps["maps"]):
        category = memory_category(smaps["maps"], index, smaps["exe"], sound_bytes)
        entry = totals.setdefault(category, {"rss": 0, "pss": 0, "uss": 0, "dirty": 0, "count": 0, "size": 0})
        entry["rss"] += m["kb"].get("Rss", 0)
        entry["pss"] += m["kb"].get("Pss", 0)
        entry["uss"] += m["kb"].get("Private_Clean", 0) + m["kb"].get("Private_Dirty", 0)
        entry["dirty"] += m["kb"].get("Private_Dirty", 0)
        entry["size"] += (m["end"] - m["start"]) // 1024
        entry["count"] += 1
    return totals

