#!/bin/sh
# selftest/resume-kill: "nothing lost" for an interrupted campaign.
# Reruns some real kat tests of this build (their exact command lines, read
# from <build>/CTestTestfile.cmake, with the records redirected into <work>),
# SIGKILLs the whole `ctest -L kat` process group while the <victim>-th test
# is running (a power loss for everything), then:
#   - every record written before the kill is complete and still there;
#   - a rerun with NGCC_RESUME=1 keeps those records untouched (same bytes,
#     same mtime) and prints "resumed", and runs only the other tests;
#   - a second resumed rerun runs nothing at all.
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
    for name in $TESTS; do
        line=$(grep -F "add_test([=[$name]=] " "$B/CTestTestfile.cmake") || fail "no test $name in $B/CTestTestfile.cmake"
        replace "$line" "$B/records/" "$W/records/" >>"$W/CTestTestfile.cmake"
        printf 'set_tests_properties([=[%s]=] PROPERTIES LABELS "kat" ENVIRONMENT "NGCC_SCRATCH_DIR=%s/scratch")\n' \
            "$name" "$W" >>"$W/CTestTestfile.cmake"
        mkdir -p "$W/records/${name#kat/}"
        # the build record the test reads (--build-record moved with the records)
        cp "$B/records/${name#kat/}/build-plain.json" "$W/records/${name#kat/}/" ||
            fail "no build record for $name in $B/records (run its build test first)"
    done
}

record() { echo "$W/records/${1#kat/}/kat.json"; }

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
    setsid "$CTEST" --test-dir "$W" -L kat -j1 >"$W/run1.log" 2>&1 &
    pid=$!
    vdir="$W/records/${victim#kat/}"
    waited=0
    while [ ! -e "$vdir/kat.child.log" ]; do
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
        grep -q '"fingerprint"' "$r" && grep -q '"verdict"' "$r" && [ "$(tail -c 2 "$r" | head -c 1)" = "}" ] ||
            fail "$r is not a complete record after the kill"
        echo "ok   finished before the kill, record complete: $name"
    else
        echo "ok   unfinished at the kill (no record): $name"
    fi
done
[ "$(state "$victim")" = none ] || fail "the victim $victim has a record"
nbefore=$(printf '%s' "$before" | grep -vc ' none$')
[ "$nbefore" -ge $((VICTIM - 1)) ] || fail "only $nbefore records before the kill, wanted at least $((VICTIM - 1))"

NGCC_RESUME=1 "$CTEST" --test-dir "$W" -L kat -j1 -V >"$W/run2.log" 2>&1 || fail "the resumed rerun failed (see $W/run2.log)"
for name in $TESTS; do
    old=$(printf '%s' "$before" | grep -F "$name " | cut -d' ' -f2-)
    new=$(state "$name")
    resumed=no
    grep -q "ngcc: resumed kat ${name#kat/}:" "$W/run2.log" && resumed=yes
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

NGCC_RESUME=1 "$CTEST" --test-dir "$W" -L kat -j1 -V >"$W/run3.log" 2>&1 || fail "the second rerun failed (see $W/run3.log)"
n=$(grep -c "ngcc: resumed kat" "$W/run3.log")
total=$(echo "$TESTS" | wc -w)
[ "$n" -eq "$total" ] || fail "second rerun: $n of $total tests resumed (see $W/run3.log)"
echo "ok   second rerun: all $total tests resumed, nothing run again"
echo "resume after SIGKILL: no record lost; $nbefore kept, $((total - nbefore)) redone"
