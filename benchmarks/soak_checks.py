"""The soak's schedule of faults and its checks, on plain values (no Django, no network),
so tests/benchmarks/test_soak_checks.py can hold them to small made-up runs."""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field


@dataclass
class Fault:
    """One fault: what is done at `at` (seconds into the run), how long the part stays down
    (`down`), and, once done, its window: from the fault until the part answered again
    plus a grace (`start`, `end`)."""

    name: str
    at: float
    down: float
    start: float = 0.0
    end: float = 0.0
    note: str = ""

    def holds(self, moment: float) -> bool:
        return self.start <= moment <= self.end

    def met(self, answer) -> bool:
        """Whether the answer's request was in flight in the window (an `Answer`: asked
        at `at`, answered `ms` later): one asked just before the fault and still in
        flight when it came is the fault's, not the quiet time's."""
        return answer.at <= self.end and self.start <= answer.at + answer.ms / 1000


FAULTS = ("web", "worker", "beat", "redis", "postgres")  # --faults names, in this order


def schedule(
    seconds: float, *, level_seconds: float, faults: tuple[str, ...] = FAULTS
) -> list[Fault]:
    """The day's faults one after another, from a tenth of the run to four fifths of it,
    with equal quiet spells between one part's return and the next fault, so the system is
    seen before, between and after them. The ticker stays down a level and a half, so at
    least one level ends while it is gone more than the scheduling horizon after the kill
    (what a restart within a minute would hide). In a short run the spells shrink to
    nothing, and the windows (with their grace) may touch; the report names every one.
    `faults` picks some of them (FAULTS' names)."""
    every = {
        "web": ("kill -9 web node A", 20.0),
        "worker": ("kill -9 worker 1", 20.0),
        "beat": ("kill -9 the clock ticker (beat)", 1.5 * level_seconds),
        "redis": ("Redis down", 30.0),
        "postgres": ("PostgreSQL restart", 0.0),
    }
    plan = [every[name] for name in FAULTS if name in faults]
    if not plan:
        return []
    first, last = 0.1 * seconds, 0.8 * seconds
    spell = max(0.0, (last - first - sum(down for _, down in plan)) / max(1, len(plan) - 1))
    out, at = [], first
    for name, down in plan:
        out.append(Fault(name, round(at, 1), down))
        at += down + spell
    return out


def inside(answer, faults: list[Fault]) -> bool:
    return any(f.met(answer) for f in faults)


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


@dataclass
class Figures:
    endpoint: str
    requests: int = 0  # answered, any status
    p50_ms: float = float("nan")
    p99_ms: float = float("nan")
    max_ms: float = float("nan")
    bytes_per_answer: float = 0.0
    not_modified: int = 0
    server_errors_outside: int = 0
    server_errors_inside: int = 0
    # The first few 5xx outside the windows, when asked and how long they took: a failed
    # check names what to look for in the web logs.
    outside: list[tuple[float, float, int]] = field(default_factory=list)
    no_answer_outside: int = 0
    no_answer_inside: int = 0
    other_errors: int = 0  # 4xx


def figures(endpoint: str, answers: list, faults: list[Fault]) -> Figures:
    """One endpoint's figures from its answers (`at`, `ms`, `status`, `size`)."""
    got = Figures(endpoint)
    answered = [a for a in answers if a.status]
    got.requests = len(answered)
    times = [a.ms for a in answered]
    got.p50_ms, got.p99_ms = percentile(times, 0.5), percentile(times, 0.99)
    got.max_ms = max(times, default=float("nan"))
    got.bytes_per_answer = sum(a.size for a in answered) / len(answered) if answered else 0.0
    for a in answers:
        within = inside(a, faults)
        if a.status == 0:
            if within:
                got.no_answer_inside += 1
            else:
                got.no_answer_outside += 1
        elif a.status >= 500:
            if within:
                got.server_errors_inside += 1
            else:
                got.server_errors_outside += 1
                if len(got.outside) < 20:
                    got.outside.append((round(a.at, 3), round(a.ms, 1), a.status))
        elif a.status == 304:
            got.not_modified += 1
        elif a.status >= 400:
            got.other_errors += 1
    return got


@dataclass
class LevelChange:
    to: int | None
    scheduled: float  # seconds into the run
    stored: float  # seconds into the run, when its row was written
    late_ms: int  # as the service logged it (its own `now` against the level's end)


@dataclass
class LevelCheck:
    changes: int = 0
    doubled: list[int | None] = field(default_factory=list)
    missing: list[int] = field(default_factory=list)
    late: list[dict] = field(default_factory=list)  # over the bound: when, how late, the fault

    @property
    def ok(self) -> bool:
        return not (self.doubled or self.missing or self.late)


def level_check(
    changes: list[LevelChange],
    *,
    first: int,
    last: int,
    faults: list[Fault],
    bound_s: float = 5.0,
) -> LevelCheck:
    """Every level change from level `first` to `last` logged once, none stored more than
    `bound_s` after its time; a late one names the fault windows it fell in."""
    found = LevelCheck(changes=len(changes))
    counts = Counter(c.to for c in changes)
    found.doubled = sorted((to for to, n in counts.items() if n > 1), key=lambda x: x or -1)
    found.missing = [to for to in range(first + 1, last + 1) if counts[to] == 0]
    for c in changes:
        late = max(c.stored - c.scheduled, c.late_ms / 1000)
        if late > bound_s:
            during = [f.name for f in faults if f.holds(c.scheduled)]
            found.late.append(
                {
                    "to": c.to,
                    "at": round(c.scheduled, 1),
                    "late_s": round(late, 1),
                    "during": during,
                }
            )
    return found


@dataclass
class WriteCheck:
    acknowledged: int = 0
    gave_up: int = 0
    refused: list[str] = field(default_factory=list)
    retried: int = 0
    replayed: int = 0
    missing: list[str] = field(default_factory=list)
    doubled: list[str] = field(default_factory=list)
    unacknowledged_but_stored: int = 0
    keys_missing: list[str] = field(default_factory=list)  # acknowledged, no answer kept

    @property
    def ok(self) -> bool:
        # A refusal changed nothing (a 4xx keeps no record), so it is listed, not failed.
        return not (self.missing or self.doubled or self.gave_up or self.keys_missing)


def write_check(writes: list, stored: dict[str, int], kept: set[str] | None = None) -> WriteCheck:
    """Each acknowledged write (`status` < 400) found exactly once in `stored` (how many
    records the database holds for each key's write, from its rows and log), its answer
    kept with its Idempotency-Key (`kept`, the keys stored); a write that was never
    acknowledged should have left none, or one (its answer lost)."""
    found = WriteCheck()
    for w in writes:
        found.retried += w.tries > 1
        found.replayed += w.replayed
        count = stored.get(w.key, 0)
        if w.status == 0:
            found.gave_up += 1
            found.unacknowledged_but_stored += count == 1
            if count > 1:
                found.doubled.append(f"{w.path} {w.body} (given up): {count} records")
        elif w.status >= 400:
            found.refused.append(f"{w.path} {w.body}: {w.status} {w.answer}")
        else:
            found.acknowledged += 1
            if kept is not None and w.key not in kept:
                found.keys_missing.append(f"{w.path} {w.body}: key {w.key}")
            if count == 0:
                found.missing.append(f"{w.path} {w.body}")
            elif count > 1:
                found.doubled.append(f"{w.path} {w.body}: {count} records")
    return found


def as_json(value) -> object:
    return asdict(value) | ({"ok": value.ok} if hasattr(value, "ok") else {})
