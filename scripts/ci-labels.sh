# Sourced by scripts/test and scripts/sanitize: which tests run in which build of the CI run
# (docs/robustness.md "The sanitizer job"). Every test runs once, in the build that can run it:
#  - NORMAL_ONLY: labels of tests that need the optimized build (timing claims, long and
#    repeated runs, sweeps, the engine comparison) or exist only there (sdk, energy.bench, and
#    fwbuild: checks of the firmware build, which the sanitizer build reuses);
#  - recorded: runs whose result engines.all_runs compares the interpreter against (check_run.py
#    --record): they run in the normal build as well, where that comparison needs them;
#  - everything else runs under ASan + UBSan only.
NORMAL_ONLY='long|explore|claims|scale|stress|engines|sdk|energy|fwbuild'
NORMAL_LABELS="^(${NORMAL_ONLY}|recorded)\$"
SANITIZER_EXCLUDE="^(${NORMAL_ONLY})\$"
