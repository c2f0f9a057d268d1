#!/usr/bin/env bash
# Runs tests under a sanitizer, in a scratch build of their own (.build-tsan, .build-asan).
#
#   scripts/sanitize.sh thread    ThreadSanitizer over the concurrency stress test (matchers on eight
#                                 threads over shared grammars, lazily built states, mask caches) and
#                                 the fork-join pool of the batch fill, and first visits walked in parts
#   scripts/sanitize.sh address   AddressSanitizer over the tests of the code that uses unsafe pointers
#                                 (mask engine tables, token tries, tokenizer loaders) and the stress test
#
# Exit status: the test run's (non-zero on a sanitizer report: the sanitizers halt on the first).
set -euo pipefail
cd "$(dirname "$0")/.."

case ${1:-} in
    thread)
        scratch=.build-tsan flag=thread
        filter='ConcurrentMatcherStressTests|ForkJoinPoolTests|FirstVisitJobTests|BatchFillTests' ;;
    address)
        scratch=.build-asan flag=address
        filter='GuidedMaskTests|GuidedTokenizersTests|ConcurrentMatcherStressTests|CompileBudget|HugeNumberLiteral' ;;
    *)
        sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'
        exit 2 ;;
esac
swift build --build-tests --scratch-path "$scratch" -Xswiftc -sanitize=$flag
# halt_on_error: one report fails the run; TSan's second_deadlock_stack helps reading a lock report.
# The suppressions file lists known races with their reasons (none at present).
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$PWD/scripts/tsan-suppressions.txt" \
ASAN_OPTIONS="halt_on_error=1 detect_leaks=0" \
    swift test --skip-build --scratch-path "$scratch" -Xswiftc -sanitize=$flag --filter "$filter"
