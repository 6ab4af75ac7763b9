#!/bin/sh
# gpurace past one machine: `mpirun -np N gpurace table ...` splits the
# table's runs across ranks, `litmus --exhaustive` and `states` their
# searches, sampled `litmus` its seeds, and each writes exactly the bytes
# one process writes
# (2 and 3 ranks, oversubscribed on this machine); a gpurace built without
# MPI refuses a launcher's environment instead of having every rank write.
G=${GPURACE:-./gpurace}
S=${GR_SRCDIR:-.}
. "$S/tests/lib.sh"

# mpirun refuses root unless told (CI machines and containers run as root)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
# a run whose ranks exit non-zero (cells off their verdicts, a failing
# litmus test: most of these) waited a second in mpirun's clean-up, with
# every rank already ended: half of this suite's time, a core left idle
export OMPI_MCA_odls_base_sigkill_timeout=0
# ranks of one machine: Open MPI's own point-to-point layer, not UCX,
# whose start-up took 0.2 s of each rank's MPI_Init
export OMPI_MCA_pml=ob1
# under AddressSanitizer: Open MPI keeps allocations of its own past MPI_Finalize
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
if ! "$G" devices 2>/dev/null | grep -q '^mpi    built with MPI'; then
  expect 2 "a launcher's environment without MPI" -- env OMPI_COMM_WORLD_SIZE=2 "$G" table "$S/kernels/shared" --detect hb --out "$T/x"
  contains "$T/err" "built without MPI" "says why it stops"
  echo "SKIPPED: mpirun runs (gpurace built without MPI: apt-get install libopenmpi-dev openmpi-bin)"
elif ! command -v mpirun >/dev/null 2>&1; then
  echo "SKIPPED: mpirun runs (no mpirun on PATH)"
else
  D="$S/kernels/examples $S/kernels/shared"
  # shellcheck disable=SC2086
  st1=0; "$G" table $D --detect hb,scord,boyer,babycuda --seeds 3 --out "$T/one" >"$T/one.out" 2>&1 || st1=$?
  for np in 2 3; do
    # shellcheck disable=SC2086
    stn=0; mpirun -np $np "$G" table $D --detect hb,scord,boyer,babycuda --seeds 3 --out "$T/one" >"$T/n.out" 2>&1 || stn=$?
    cp "$T/one.md" "$T/n.md"; cp "$T/one.csv" "$T/n.csv"
    # shellcheck disable=SC2086
    "$G" table $D --detect hb,scord,boyer,babycuda --seeds 3 --out "$T/one" >/dev/null 2>&1 || true
    if cmp -s "$T/one.md" "$T/n.md" && cmp -s "$T/one.csv" "$T/n.csv"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $np ranks wrote other bytes than one process"; diff "$T/one.md" "$T/n.md" | head -5; fi
    # the exit status (cells off their expected verdicts) is rank 0's, the same as one process's
    if [ "$((stn != 0))" -eq "$((st1 != 0))" ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $np ranks exit $stn, one process $st1"; fi
    contains "$T/n.out" "wrote $T/one.md" "rank 0 says what it wrote"
    if [ "$(grep -c "^wrote " "$T/n.out")" -eq 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: more than one rank wrote"; cat "$T/n.out"; fi
  done
  # an exhaustive search split across ranks: states handed to their owners, the same bytes and status
  L="$S/kernels/litmus"
  # (mpirun's start-up is most of a run's time here: three ranks for the first only)
  for cmd in "litmus --exhaustive $L/C11_corr_cas_G.cu $L/H1_hrf_chain_gpu_M.cu $L/S10_sb_atomic_G.cu" \
             "litmus --runs 20000 $L/M3_mp_G.cu $L/W1_wrc_G.cu $S/tests/data/litmus_fail_late.cu" \
             "litmus --exhaustive --max-states 3000 $L/N1_isa2_fgpu_M.cu" \
             "states --compare $L/M3_mp_G.cu $S/kernels/drf/mp_relacq.cu"; do
    # shellcheck disable=SC2086
    st1=0; OMP_NUM_THREADS=1 "$G" $cmd >"$T/x1.out" 2>"$T/x1.err" || st1=$?
    nps="2 3"; case $cmd in *max-states*|states*) nps=2;; esac
    for np in $nps; do
      # shellcheck disable=SC2086
      stn=0; OMP_NUM_THREADS=1 mpirun -np $np "$G" $cmd >"$T/xn.out" 2>"$T/xn.err" || stn=$?
      # the failure said once, as one process says it (past what mpirun adds)
      grep '^run with seed' "$T/x1.err" >"$T/x1.why" || true
      grep '^run with seed' "$T/xn.err" >"$T/xn.why" || true
      if [ "$st1" = "$stn" ] && cmp -s "$T/x1.out" "$T/xn.out" && cmp -s "$T/x1.why" "$T/xn.why"; then pass=$((pass + 1)); else
        fail=$((fail + 1)); echo "FAIL: gpurace $cmd on $np ranks: status $stn (one process: $st1), or other bytes"; diff "$T/x1.out" "$T/xn.out" | head -5; fi
    done
  done
  contains "$T/x1.out" "weak memory reaches a final state that sequential consistency does not" "states --compare ran"

  # bad input fails on every rank, once said
  stn=0; mpirun -np 2 "$G" table "$S/kernels/shared" --detect nosuch --out "$T/bad" >"$T/bad.out" 2>&1 || stn=$?
  if [ "$stn" -ne 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: an unknown detector under mpirun exits 0"; fi
  contains "$T/bad.out" "nosuch" "the error names the detector"
fi

# gpurace loads no MPI library: under a launcher it hands the command to
# gpurace-mpi beside it; a gpurace without one refuses, as one built without MPI
B=$(dirname "$G")
if [ -x "$B/gpurace-mpi" ]; then
  if ldd "$G" | grep -q libmpi; then fail=$((fail + 1)); echo "FAIL: gpurace links an MPI library"; else pass=$((pass + 1)); fi
  mkdir -p "$T/alone"
  cp "$G" "$T/alone/gpurace"
  expect 2 "a launcher's environment, no gpurace-mpi beside" -- env OMPI_COMM_WORLD_SIZE=2 "$T/alone/gpurace" table "$S/kernels/shared" --detect hb --out "$T/x"
  contains "$T/err" "built without MPI" "says why it stops"
fi

echo "mpi.sh: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
