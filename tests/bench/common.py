"""What the VM benchmarks share: the swipe they time, and percentiles."""
import os, sys

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")]
from fixtures import Recording  # noqa: E402


def swipe():
    """150 mm to the right in 0.3 s, then the lift."""
    r = Recording()
    for i in range(31):
        r.frame({0: (60 + 5 * i, 100)})
    r.frame({0: None})
    return r.text()


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))] if values else None


def summary(ms, expected):
    return {"p50_ms": percentile(ms, 50), "p99_ms": percentile(ms, 99), "n": len(ms), "missed": expected - len(ms)}
