"""Latencies summed up as BENCHMARKS.md prints them: by the benchmarks in the VM and by
the report that pools their rounds."""


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))] if values else None


def summary(ms, expected):
    return {"p50_ms": percentile(ms, 50), "p99_ms": percentile(ms, 99), "n": len(ms), "missed": expected - len(ms)}
