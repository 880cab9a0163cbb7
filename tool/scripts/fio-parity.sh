#!/usr/bin/env bash
# Same-run parity of `jring fio` against fio on identical options: ROUNDS alternating pairs
# (fio, then jring fio, with exactly the same job options), each reported with the load
# average before it; then the median IOPS of each, their spread (min-max) and the ratio of
# the medians jring/fio, and each pair's own ratio.
#   tool/scripts/fio-parity.sh [ROUNDS] -- <fio job options...>
# e.g. the cold case:
#   tool/scripts/fio-parity.sh 5 -- --name=cold --filename=/var/tmp/f1g --size=1g \
#       --rw=randread --bs=4k --ioengine=io_uring --iodepth=32 --time_based --runtime=10
# and the page-cache case (a warm file, the same explicit option fio needs):
#   tool/scripts/fio-parity.sh 5 -- ... --invalidate=0
# JRING_FIO_OPTS adds options for jring only (e.g. --jit_warmup=5; it runs before the clock).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
rounds=5
if [ "${1:-}" != "--" ] && [ -n "${1:-}" ]; then rounds=$1; shift; fi
[ "${1:-}" = "--" ] && shift
[ $# -gt 0 ] || { echo "usage: $0 [ROUNDS] -- <fio job options>" >&2; exit 2; }
iops() { python3 -c 'import json,sys; d=json.load(sys.stdin); print(sum(j["read"]["iops"]+j["write"]["iops"] for j in d["jobs"]))'; }
fio_iops=(); jring_iops=()
for r in $(seq 1 "$rounds"); do
  load=$(cut -d' ' -f1 /proc/loadavg)
  f=$(fio "$@" --output-format=json | iops)
  load2=$(cut -d' ' -f1 /proc/loadavg)
  j=$("$root/bin/jring" fio --eta=never ${JRING_FIO_OPTS:-} "$@" --output-format=json | iops)
  fio_iops+=("$f"); jring_iops+=("$j")
  printf 'round %d: fio %.0f IOPS (load %s), jring %.0f IOPS (load %s), ratio %.2f\n' "$r" "$f" "$load" "$j" "$load2" \
    "$(python3 -c "print($j/$f)")"
done
python3 - "${fio_iops[*]}" "${jring_iops[*]}" <<'PY'
import statistics, sys
f = [float(x) for x in sys.argv[1].split()]
j = [float(x) for x in sys.argv[2].split()]
mf, mj = statistics.median(f), statistics.median(j)
print(f"fio   median {mf:.0f} IOPS, spread {min(f):.0f}-{max(f):.0f}")
print(f"jring median {mj:.0f} IOPS, spread {min(j):.0f}-{max(j):.0f}")
print(f"ratio jring/fio of the medians: {mj/mf:.2f}; per pair: " + ", ".join(f"{b/a:.2f}" for a, b in zip(f, j)))
PY
