#!/bin/sh
# selftest/resume-kill: "nothing lost" for an interrupted campaign, over
# every label that resumes (build, kat, security, memcheck, perf, mem, sizes,
# prof, icount: whichever tests the list names).
# Reruns some real tests of this build (their exact command lines, read from
# <build>/CTestTestfile.cmake, with the records redirected into <work>; each
# test's record is its --record-out, or -DRECORD= for a build test), SIGKILLs
# the whole ctest process group while the <victim>-th test is running (a
# power loss for everything), then:
#   - every record written before the kill is complete and still there;
#   - a rerun with NGCC_RESUME=1 keeps those records untouched (same bytes,
#     same mtime) and prints "resumed", and runs only the other tests;
#   - a second resumed rerun runs nothing at all.
# Inputs a test reads from the records folder (build-*.json) are copied from
# <build>/records, except those a listed test writes; kat.json comes from the
# instance's kat test, which the list must name before that instance's other
# tests and before the victim. The victim must write a <record>.child.log.
# usage: kat_resume_selftest.sh <build> <work> <ctest> <test,test,...> <victim>
set -u
B=$1 W=$2 CTEST=$3 NAMES=$4 VICTIM=$5

fail() {
    echo "FAIL: $*"
    exit 1
}

# literal (not regex) replacement of $2 by $3 in $1
replace() {
    printf '%s\n' "$1" | awk -v from="$2" -v to="$3" '{
        out = ""
        while ((p = index($0, from)) > 0) { out = out substr($0, 1, p - 1) to; $0 = substr($0, p + length(from)) }
        print out $0 }'
}

make_testfile() {
    rm -rf "$W"
    mkdir -p "$W/scratch"
    : >"$W/CTestTestfile.cmake"
    : >"$W/paths"
    for name in $TESTS; do
        line=$(grep -F "add_test([=[$name]=] " "$B/CTestTestfile.cmake") || fail "no test $name in $B/CTestTestfile.cmake"
        line=$(replace "$line" "$B/records/" "$W/records/")
        printf '%s\n' "$line" >>"$W/CTestTestfile.cmake"
        printf 'set_tests_properties([=[%s]=] PROPERTIES LABELS "resume-kill" ENVIRONMENT "NGCC_SCRATCH_DIR=%s/scratch")\n' \
            "$name" "$W" >>"$W/CTestTestfile.cmake"
        rec=$(printf '%s\n' "$line" | sed -n 's/.*"--record-out" "\([^"]*\)".*/\1/p; s/.*"-DRECORD=\([^"]*\)".*/\1/p' | head -n 1)
        [ -n "$rec" ] || fail "$name: no --record-out or -DRECORD= in its command line"
        echo "$name $rec" >>"$W/paths"
        dir=$(dirname "$rec")
        mkdir -p "$dir"
        # the build records the test reads (--build-record moved with the records)
        src="$B/records/${dir#"$W/records/"}"
        ls "$src"/build-*.json >/dev/null 2>&1 || fail "no build record for $name in $src (run its build test first)"
        cp "$src"/build-*.json "$dir/"
    done
    # a record a listed test writes is not an input
    while read -r name rec; do rm -f "$rec"; done <"$W/paths"
}

record() { awk -v n="$1" '$1 == n { print $2 }' "$W/paths"; }

# state of a record: "<sha256> <mtime with ns>", or "none"
state() {
    if [ -f "$(record "$1")" ]; then
        echo "$(sha256sum <"$(record "$1")" | cut -c1-64) $(stat -c %y "$(record "$1")")"
    else
        echo none
    fi
}

# the first run, killed (process group, SIGKILL) while the victim runs;
# returns 1 if the victim finished before it could be killed
killed_run() {
    make_testfile
    setsid "$CTEST" --test-dir "$W" -L resume-kill -j1 >"$W/run1.log" 2>&1 &
    pid=$!
    vlog="$(record "$victim")"
    vlog="${vlog%.json}.child.log"
    waited=0
    while [ ! -e "$vlog" ]; do
        kill -0 "$pid" 2>/dev/null || fail "ctest ended before $victim started (see $W/run1.log)"
        sleep 0.01
        waited=$((waited + 1))
        [ $waited -lt 12000 ] || fail "$victim did not start within 120 s"
    done
    pgid=$(cut -d' ' -f5 "/proc/$pid/stat" 2>/dev/null || echo "$pid")
    kill -9 "-$pgid" 2>/dev/null # (dash: "-9 -<pgid>", not "-KILL --")
    wait "$pid" 2>/dev/null
    while pgrep -g "$pgid" >/dev/null 2>&1; do sleep 0.05; done
    [ ! -e "$(record "$victim")" ]
}

TESTS=$(echo "$NAMES" | tr ',' ' ')
victim=$(echo "$TESTS" | cut -d' ' -f"$VICTIM")
tries=0
until killed_run; do
    tries=$((tries + 1))
    [ $tries -lt 3 ] || fail "$victim finished three times before the kill could land"
    echo "note: $victim finished before the kill; again"
done

before=""
for name in $TESTS; do
    s=$(state "$name")
    before="$before$name $s
"
    if [ "$s" != none ]; then
        r=$(record "$name")
        { [ "${name%%/*}" = build ] || grep -q '"fingerprint"' "$r"; } && grep -q '"verdict"' "$r" &&
            [ "$(tail -c 2 "$r" | head -c 1)" = "}" ] ||
            fail "$r is not a complete record after the kill"
        echo "ok   finished before the kill, record complete: $name"
    else
        echo "ok   unfinished at the kill (no record): $name"
    fi
done
[ "$(state "$victim")" = none ] || fail "the victim $victim has a record"
nbefore=$(printf '%s' "$before" | grep -vc ' none$')
[ "$nbefore" -ge $((VICTIM - 1)) ] || fail "only $nbefore records before the kill, wanted at least $((VICTIM - 1))"

# "ngcc: resumed <label> <cand>/<inst>[/<op>]: ..." (build: "... <cand>/<inst> [<variant>]: ...")
was_resumed() {
    grep -qF -e "ngcc: resumed ${1%%/*} ${1#*/}:" -e "ngcc: resumed ${1%%/*} ${1#*/} [" "$2"
}

NGCC_RESUME=1 "$CTEST" --test-dir "$W" -L resume-kill -j1 -V >"$W/run2.log" 2>&1 ||
    fail "the resumed rerun failed (see $W/run2.log)"
for name in $TESTS; do
    old=$(printf '%s' "$before" | grep -F "$name " | cut -d' ' -f2-)
    new=$(state "$name")
    resumed=no
    was_resumed "$name" "$W/run2.log" && resumed=yes
    if [ "$old" != none ]; then
        [ "$new" = "$old" ] || fail "$name: its record changed on the rerun ($old -> $new)"
        [ $resumed = yes ] || fail "$name: finished before the kill but not resumed"
        echo "ok   kept and resumed (same bytes and mtime): $name"
    else
        [ "$new" != none ] || fail "$name: still no record after the rerun"
        [ $resumed = no ] || fail "$name: resumed although it had no record"
        echo "ok   run again after the kill: $name"
    fi
done

NGCC_RESUME=1 "$CTEST" --test-dir "$W" -L resume-kill -j1 -V >"$W/run3.log" 2>&1 ||
    fail "the second rerun failed (see $W/run3.log)"
n=0
for name in $TESTS; do
    if was_resumed "$name" "$W/run3.log"; then
        n=$((n + 1))
    else
        echo "not resumed on the second rerun: $name"
    fi
done
total=$(echo "$TESTS" | wc -w)
[ "$n" -eq "$total" ] || fail "second rerun: $n of $total tests resumed (see $W/run3.log)"
echo "ok   second rerun: all $total tests resumed, nothing run again"
echo "resume after SIGKILL: no record lost; $nbefore kept, $((total - nbefore)) redone"
