#!/usr/bin/env bash
# Builds the Android kit's jar and runs its tests, with the JDK and JUnit 4 from Debian (no Gradle or Maven).
#   clients/android/build.sh jar    → build/layoutkit-android.jar (Java 11 bytecode, Main-Class: the apply command)
#   clients/android/build.sh test   → the jar, then every JUnit test, then `apply` against layout-worker's; inputs:
#     LW_FIXTURES             clients/fixtures/generate.py's output (records and change sets the binary made)
#     LW_RANDOM_CHANGE_SETS   the server property test's 10,000 change sets (BatchUpdatePropertyTests writes them)
#     LW_BIN, LW_TANSU        layout-worker and the Tansu broker, for the feed against a real gateway
#     LW_ROOT                 the repository (samples/, config/)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
build="$here/build"
junit=/usr/share/java/junit4.jar
hamcrest=/usr/share/java/hamcrest-core.jar
"$here/../../scripts/ensure-debian-packages.sh" openjdk-17-jdk-headless junit4

jar_() {
  rm -rf "$build/classes" && mkdir -p "$build/classes"
  find "$here/src/main/java" -name '*.java' > "$build/main-sources.txt"
  javac --release 11 -Xlint:all -Werror -encoding UTF-8 -d "$build/classes" @"$build/main-sources.txt"
  jar --create --file "$build/layoutkit-android.jar" --main-class io.layoutworker.layoutkit.Main -C "$build/classes" .
  echo "clients/android: $(find "$here/src/main/java" -name '*.java' | wc -l) sources, $(cat $(cat "$build/main-sources.txt") | wc -l) lines -> build/layoutkit-android.jar ($(stat -c %s "$build/layoutkit-android.jar") bytes)"
}

test_() {
  jar_
  rm -rf "$build/test-classes" && mkdir -p "$build/test-classes"
  find "$here/src/test/java" -name '*.java' > "$build/test-sources.txt"
  javac --release 11 -Xlint:all,-serial -Werror -encoding UTF-8 -cp "$build/layoutkit-android.jar:$junit" \
    -d "$build/test-classes" @"$build/test-sources.txt"
  classes=$(cd "$build/test-classes" && find . -name '*Test.class' | sed 's|^\./||; s|\.class$||; s|/|.|g' | sort)
  java -cp "$build/layoutkit-android.jar:$build/test-classes:$junit:$hamcrest" org.junit.runner.JUnitCore $classes
  cli_
}

# `java -jar … apply BASE CHANGE_SET` against `layout-worker apply BASE CHANGE_SET` for every ordered pair of the
# samples' records and each from empty (the fixtures' sample cases): the same bytes, or the check fails.
cli_() {
  local n=0 base changes
  while IFS=$'\t' read -r base changes; do
    java -jar "$build/layoutkit-android.jar" apply "$base" "$changes" > "$build/jar.out"
    "$LW_BIN" apply "$base" "$changes" > "$build/worker.out"
    [ -s "$build/jar.out" ] && cmp -s "$build/jar.out" "$build/worker.out" \
      || { echo "apply $base $changes: the jar and layout-worker differ" >&2; exit 1; }
    n=$((n + 1))
  done < <(python3 - "$LW_FIXTURES" <<'PY'
import json, os, sys
d = sys.argv[1]
for c in json.load(open(os.path.join(d, "manifest.json")))["cases"]:
    if c["name"].startswith("sample-") or c["name"].startswith("from-empty-sample-"):
        print((os.path.join(d, c["base"]) if c["base"] else "-") + "\t" + os.path.join(d, c["changeSet"]))
PY
)
  [ "$n" -gt 0 ] || { echo "no sample cases in $LW_FIXTURES" >&2; exit 1; }
  echo "clients/android: java -jar apply = layout-worker apply on $n sample pairs"
}

case "${1:-test}" in
  jar) jar_ ;;
  test) test_ ;;
  # How long a change set to the 45 KB sample page takes to apply (needs LW_FIXTURES; run after `test`).
  bench) java -cp "$build/layoutkit-android.jar:$build/test-classes" io.layoutworker.layoutkit.ApplyTiming ;;
  *) echo "usage: $0 jar|test|bench" >&2; exit 2 ;;
esac
