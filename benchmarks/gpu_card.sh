#!/usr/bin/env bash
# Everything measured on a lent GPU, in one prepared run: the card and versions, solves/s against chunk width,
# a profile of one chunk, XLA's command buffers around the step loop, and the test suite on the card.
#
#     benchmarks/gpu_card.sh OUT [SECONDS]     # from the repository root; writes OUT/<part>_<card>.txt
#     DEVICE=cpu SIZES=16,32 PROFILE_SIZE=16 PYTHON=.venv/bin/python benchmarks/gpu_card.sh /tmp/card 120  # a check
#
# PARTS picks the parts (default: "throughput profile command_buffers suite"); "variants" times each package copy
# .variants/NAME/regcontact named in VARIANTS (and "tree", the working tree) on one chunk and on a sweep, and
# profiles the working tree; "tests" runs only the tests named in TESTS. Each part has its own time limit
# and the whole run ends within SECONDS (default 560), so a slow part cannot take the others' time; what a part
# printed before its limit is kept. The parts share a compilation cache folder, so a chunk width compiled once
# is not compiled again by a later part (the first compile of each width is cold: the folder starts empty).
set -u
out=${1:?usage: benchmarks/gpu_card.sh OUT [SECONDS]}
deadline=$((SECONDS + ${2:-560}))
parts=${PARTS:-throughput profile command_buffers suite}
device=${DEVICE:-gpu}
sizes=${SIZES:-1024,16384,65536,4096}
profile_size=${PROFILE_SIZE:-16384}
variant_size=${VARIANT_SIZE:-16384}
python=${PYTHON:-python3}
mkdir -p "$out"
cache=$(mktemp -d)
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 REGCONTACT_COMPILATION_CACHE=$cache XLA_PYTHON_CLIENT_PREALLOCATE=false
card=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 | tr ' ' '_' | tr -cd 'A-Za-z0-9_-')
suffix=${SUFFIX:-${card:-$device}}

part() {  # part NAME SECONDS COMMAND...: COMMAND under min(SECONDS, what is left), output into OUT/NAME_SUFFIX.txt
  local name=$1 seconds=$2 left=$((deadline - SECONDS))
  shift 2
  if [ "$left" -lt "$seconds" ]; then seconds=$left; fi
  if [ "$seconds" -lt 10 ]; then
    echo "== $name: skipped, no time left ==" | tee -a "$out/${name}_${suffix}.txt"
    return
  fi
  echo "== $name (limit ${seconds} s) ==" | tee -a "$out/${name}_${suffix}.txt"
  local start=$SECONDS
  timeout "$seconds" "$@" 2>&1 | tee -a "$out/${name}_${suffix}.txt"
  echo "== $name: status ${PIPESTATUS[0]}, $((SECONDS - start)) s ==" | tee -a "$out/${name}_${suffix}.txt"
}

{
  date -u +%FT%TZ
  nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.sm,clocks.max.sm --format=csv 2>/dev/null
  $python -c "import sys, jax, jaxlib, diffrax, equinox, numpy; print(sys.version.split()[0], 'jax', jax.__version__, 'jaxlib', jaxlib.__version__, 'diffrax', diffrax.__version__, 'equinox', equinox.__version__, 'numpy', numpy.__version__); print(jax.devices())"
  echo "host cores: $(nproc)"
} 2>&1 | tee "$out/environment_${suffix}.txt"

for name in $parts; do
  case $name in
    throughput)
      part gpu_throughput 300 $python benchmarks/gpu_throughput.py --device "$device" --sizes "$sizes" --repeats 2 ;;
    profile)
      part gpu_profile 100 $python benchmarks/gpu_profile.py --device "$device" --size "$profile_size" ;;
    command_buffers)
      [ "$device" = gpu ] && part gpu_command_buffers 120 env XLA_FLAGS=--xla_gpu_enable_command_buffer=+WHILE,+CONDITIONAL \
        $python benchmarks/gpu_throughput.py --sizes "$variant_size" --repeats 2 ;;
    variants)
      for variant in ${VARIANTS:-tree}; do
        root=$PWD
        [ "$variant" = tree ] || root=$PWD/.variants/$variant
        mkdir -p "$cache/$variant"
        part gpu_variants 120 env PYTHONPATH="$root:$PWD" REGCONTACT_COMPILATION_CACHE="$cache/$variant" \
          bash -c "echo variant $variant; $python benchmarks/gpu_throughput.py --device $device --sizes ${VARIANT_SIZES:-16384,65536} --repeats 2 && \
          $python benchmarks/gpu_throughput.py --device $device --sizes $variant_size --cases ${SWEEP_CASES:-131072} --repeats 1"
      done
      mkdir -p "$cache/tree"
      part gpu_profile 60 env REGCONTACT_COMPILATION_CACHE="$cache/tree" $python benchmarks/gpu_profile.py \
        --device "$device" --size "$profile_size" ;;
    tests)
      part gpu_tests 600 $python -m pytest -v --tb=short --timeout "${TEST_TIMEOUT:-120}" -p no:cacheprovider \
        -n "${WORKERS:-12}" $TESTS ;;
    suite)
      # -v: each test's outcome as it finishes, so a run cut by its limit still says which passed; the Dask
      # tests need the `cluster` extra, which the card's image lacks.
      part gpu_suite 600 $python -m pytest -v --timeout 240 -p no:cacheprovider -n "${WORKERS:-12}" \
        --ignore=tests/studies/test_cluster_sweep.py --durations=15 ${SUITE_ARGS:-} ;;
  esac
done
rm -rf "$cache"
