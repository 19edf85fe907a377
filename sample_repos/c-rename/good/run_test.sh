# Tests for wstat: run `make` first, then `sh run_test.sh`.
#
# Each test is tests/NAME.args (the arguments, on one line), tests/NAME.in (standard
# input, optional) and tests/NAME.out (the expected output and exit status).
# Prints "ok NAME" or "FAIL NAME" with a diff for each test.
# Exit status: 0 every test passed, 1 a test failed, 125 there is no ./wstat to test.

cd "$(dirname "$0")" || exit 125
if [ ! -x ./wstat ]; then
    echo "run_test.sh: ./wstat is not built; run make first" >&2
    exit 125
fi

scratch=$(mktemp -d) || exit 125
trap 'rm -rf "$scratch"' EXIT
failed=0
for args in tests/*.args; do
    name=${args%.args}
    input=$name.in
    [ -f "$input" ] || input=/dev/null
    # word splitting of the arguments is intended
    ./wstat $(cat "$args") <"$input" >"$scratch/out" 2>&1
    echo "[exit $?]" >>"$scratch/out"
    if cmp -s "$name.out" "$scratch/out"; then
        echo "ok   $name"
    else
        echo "FAIL $name"
        diff -u "$name.out" "$scratch/out" | sed 's/^/    /'
        failed=1
    fi
done
exit $failed
