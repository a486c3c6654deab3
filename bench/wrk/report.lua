-- One machine-readable line per wrk run for bench/run.sh:
-- BENCH requests=... duration_us=... non2xx=... p50_us=... p99_us=... ...
local report = {}

function report.done(summary, latency, _)
  local errors = summary.errors
  io.write(string.format(
    "BENCH requests=%d duration_us=%d bytes=%d non2xx=%d connect_errors=%d read_errors=%d write_errors=%d"
      .. " timeouts=%d p50_us=%d p90_us=%d p99_us=%d max_us=%d mean_us=%.1f\n",
    summary.requests, summary.duration, summary.bytes, errors.status, errors.connect, errors.read, errors.write,
    errors.timeout, latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max,
    latency.mean))
end

return report
